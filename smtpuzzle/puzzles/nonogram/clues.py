"""A nonogram's colours and clues: the vocabulary every other module of the family uses.

A clue is a line's runs in order: their lengths (``Clue``) and their colours (``Inks``,
indices into the puzzle's colours, the background being 0). Two runs of the same colour
need a background cell between them; runs of different colours may touch.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from smtpuzzle.errors import PuzzleError

Clue = tuple[int, ...]  # run lengths
Inks = tuple[int, ...]  # the colour of each run (an index into the puzzle's colours, >= 1)
MAX_COLOURS = 32  # background included; the line solver keeps a cell's colours as bits


@dataclass(frozen=True)
class Colour:
    """A colour of a nonogram: its name, the character that writes it in a solution, and
    how pictures paint it (``#rrggbb``)."""

    name: str
    char: str
    rgb: str = "#000000"


# Two-colour puzzles: the background and one ink, written ``.`` and ``#``.
TWO_COLOURS = (Colour("white", ".", "#ffffff"), Colour("black", "#", "#000000"))


def _colour_index(colour: object, colours: Sequence[Colour], where: str) -> int:
    """The index (>= 1) of a run's ink given by index, name or character."""
    if isinstance(colour, str):
        for k, c in enumerate(colours):
            if k and colour in (c.name, c.char):
                return k
        raise PuzzleError(f"{where}: colour {colour!r} is not one of the puzzle's "
                          f"({', '.join(c.name for c in colours[1:])})")
    try:
        k = operator.index(colour)  # type: ignore[arg-type]
    except TypeError:
        raise PuzzleError(f"{where}: a run's colour is a name or an index, not "
                          f"{colour!r}") from None
    if not 1 <= k < len(colours):
        raise PuzzleError(f"{where}: colour index {k} is not an ink (1 to "
                          f"{len(colours) - 1})")
    return k


def parse_clue(runs: object, kind: str, i: int, colours: Sequence[Colour]) -> tuple[Clue, Inks]:
    """A line's clue as run lengths and their inks (``(0,)``, the files' empty line, is
    ``()``). A run is a length (the first ink) or a (length, colour) pair; anything else is
    a located PuzzleError, as a file's bad clue is."""
    where = f"{kind} {i + 1}"
    if isinstance(runs, str | bytes) or not isinstance(runs, Iterable):
        raise PuzzleError(f"{where}: a clue is a sequence of run lengths, not {runs!r}")
    lengths, inks = [], []
    for run in runs:
        colour: object = 1
        if isinstance(run, tuple | list) and len(run) == 2:
            run, colour = run
        try:
            lengths.append(operator.index(run))
        except TypeError:
            raise PuzzleError(f"{where}: run lengths are whole numbers, got "
                              f"{tuple(runs)!r}") from None
        inks.append(_colour_index(colour, colours, where))
    if lengths == [0]:
        return (), ()
    if any(r <= 0 for r in lengths):
        raise PuzzleError(f"{where}: run lengths are positive, got {tuple(lengths)!r}")
    return tuple(lengths), tuple(inks)


def gaps(inks: Sequence[int]) -> np.ndarray:
    """Per run, the background cells it needs before the next run: 1 when the next run has
    its colour, else 0 (and 0 after the last run)."""
    c = np.asarray(inks, dtype=np.int64)
    out = np.zeros(len(c), dtype=np.int64)
    if len(c) > 1:
        out[:-1] = c[:-1] == c[1:]
    return out


def check_colours(colours: Sequence[Colour]) -> tuple[Colour, ...]:
    colours = tuple(colours)
    if not 2 <= len(colours) <= MAX_COLOURS:
        raise PuzzleError(f"a nonogram has 2 to {MAX_COLOURS} colours (background included), "
                          f"not {len(colours)}")
    for what in ("name", "char"):
        seen: dict[str, int] = {}
        for k, c in enumerate(colours):
            v = getattr(c, what)
            if what == "char" and (len(v) != 1 or v.isspace() or v == "?"):
                raise PuzzleError(f"colour {c.name!r}: its character is one printable "
                                  f"character other than '?', not {v!r}")
            if v in seen:
                raise PuzzleError(f"colours {seen[v] + 1} and {k + 1} have the same "
                                  f"{what} {v!r}")
            seen[v] = k
    return colours
