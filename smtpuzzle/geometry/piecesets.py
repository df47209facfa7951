"""Named piece sets with stable piece names (pentomino letters, numbered hexominoes, Soma...)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.polyominoes import folds_into_cube, free_polyominoes
from smtpuzzle.geometry.shapes import Shape, parse_picture

_PENTOMINOES = {
    "F": ".##\n##.\n.#.",
    "I": "#####",
    "L": "#.\n#.\n#.\n##",
    "N": ".#\n.#\n##\n#.",
    "P": "##\n##\n#.",
    "T": "###\n.#.\n.#.",
    "U": "#.#\n###",
    "V": "#..\n#..\n###",
    "W": "#..\n##.\n.##",
    "X": ".#.\n###\n.#.",
    "Y": ".#\n##\n.#\n.#",
    "Z": "##.\n.#.\n.##",
}
_TETROMINOES = {
    "I4": "####", "L4": "#.\n#.\n##", "O4": "##\n##", "S4": ".##\n##.", "T4": "###\n.#.",
}
_TROMINOES = {"I3": "###", "L3": "#.\n##"}

# Soma cubes, as (row, column, layer) cells. A and B are mirror images of each other.
_SOMA = {
    "V": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "Z": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "A": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],
    "B": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],
    "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
}


def _from_pictures(pictures: dict[str, str]) -> dict[str, Shape]:
    return {name: parse_picture(pic) for name, pic in pictures.items()}


def _numbered(prefix: str, n: int, width: int) -> dict[str, Shape]:
    return {f"{prefix}{i + 1:0{width}d}": s for i, s in enumerate(free_polyominoes(n))}


_SETS: dict[str, Callable[[], dict[str, Shape]]] = {
    "monominoes": lambda: {"O1": Shape([(0, 0)])},
    "dominoes": lambda: {"I2": Shape([(0, 0), (0, 1)])},
    "trominoes": lambda: _from_pictures(_TROMINOES),
    "tetrominoes": lambda: _from_pictures(_TETROMINOES),
    "pentominoes": lambda: _from_pictures(_PENTOMINOES),
    "hexominoes": lambda: _numbered("H", 6, 2),
    "heptominoes": lambda: _numbered("S", 7, 3),
    "cube-nets": lambda: {k: s for k, s in piece_set("hexominoes").items() if folds_into_cube(s)},
    "soma": lambda: {name: Shape(cells) for name, cells in _SOMA.items()},
}

_DESCRIPTIONS = {
    "monominoes": "the single cell (O1)",
    "dominoes": "the domino (I2)",
    "trominoes": "the 2 trominoes (I3 L3)",
    "tetrominoes": "the 5 free tetrominoes (I4 L4 O4 S4 T4)",
    "pentominoes": "the 12 pentominoes, by letter (F I L N P T U V W X Y Z)",
    "hexominoes": "the 35 free hexominoes (H01..H35, numbered by extent then shape)",
    "heptominoes": "the 108 free heptominoes (S001..S108; one has a hole)",
    "cube-nets": "the 11 hexominoes that fold into a cube (their hexomino names)",
    "soma": "the 7 Soma cubes (V L T Z A B P)",
}


def piece_set_names() -> dict[str, str]:
    """Every named set with a one-line description."""
    return dict(_DESCRIPTIONS)


@cache
def _piece_set(name: str) -> tuple[tuple[str, Shape], ...]:
    return tuple(_SETS[name]().items())


def piece_set(name: str) -> dict[str, Shape]:
    """The pieces of a named set, by their stable names, in a stable order."""
    if name not in _SETS:
        raise PuzzleError(f"unknown piece set {name!r} (known: {', '.join(_SETS)})")
    return dict(_piece_set(name))
