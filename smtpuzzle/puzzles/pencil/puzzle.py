"""A pencil puzzle (Nurikabe, Slitherlink, Kakuro...): its genre, its size and its clues as
the tokens of the plain-text collection puzzlekit uses (``-`` for an empty cell), and the
:class:`Genre` each genre module subclasses.

A genre says how its puzzle is laid out in a file (``layout``: the clue grid, a region
grid, lines of clues along the edges), which tokens a cell may hold, its rules as a model
(``rules``: written with the public modelling API only), how an answer reads back as the
collection's solution grid (``decode``) and its own checker of a solution grid
(``verify``: the rules read off the grid, never through the model). Links (puzz.link)
decode into the same tokens, so each genre's model reads one representation.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.model import Model

EMPTY = "-"  # an empty cell, in problems and solutions alike
UNKNOWN = "?"  # a cell of a half-solved grid (--determined) that solutions disagree on


@dataclass
class PencilPuzzle:
    """One puzzle of a genre. ``cells`` is the clue grid, (rows, cols) tokens; ``regions``
    the region of each cell (0..k-1) for genres with regions; ``edges`` the lines of clues
    along the grid's sides, by name ("top", "left"...); ``params`` the numbers after the size
    on the header line (Star Battle's stars)."""

    genre: Genre
    cells: np.ndarray
    regions: np.ndarray | None = None
    edges: dict[str, list[str]] = field(default_factory=dict)
    params: tuple[int, ...] = ()
    name: str = ""
    flags: tuple[str, ...] = ()
    family: ClassVar[str] = "pencil"

    def __post_init__(self) -> None:
        self.cells = np.asarray(self.cells, dtype=object)
        if not self.name:
            self.name = f"{self.genre.name} {self.rows}x{self.cols}"

    @property
    def rows(self) -> int:
        return int(self.cells.shape[0])

    @property
    def cols(self) -> int:
        return int(self.cells.shape[1])

    def clues(self) -> list[tuple[int, int, str]]:
        """(row, column, token) of every cell that is not empty, row by row."""
        return [(r, c, str(t)) for (r, c), t in np.ndenumerate(self.cells) if t != EMPTY]

    def number(self, r: int, c: int) -> int | None:
        """The number in cell (r, c), or None."""
        token = str(self.cells[r, c])
        return int(token) if token.isdigit() else None

    def build(self, named: bool = False) -> tuple[Model, Any]:
        """The model and its answer variables; ``named``: each clue a named group of its
        own (``r3c5=4``), for Model.explain."""
        m = Model(self.name)
        return m, self.genre.rules(self, m, named)

    def build_to_decide(self) -> tuple[Model, Any]:
        """The model of the genre's normal form (Genre.normal_rules): what deciding takes."""
        m = Model(self.name)
        return m, self.genre.normal_rules(self, m, False)

    def unreduced(self, grid: np.ndarray) -> np.ndarray | None:
        """A solution other than ``grid`` that one of the genre's moves takes to it."""
        return self.genre.unreduced(self, grid)

    def build_model(self, encoding: str | None = None) -> Model:
        return self.build()[0]

    def decode(self, values: Any) -> np.ndarray:
        """The solution grid (tokens) the answer variables' values say; a value None (a
        half-solved grid) leaves its cells ``?``."""
        return self.genre.decode(self, np.asarray(values, dtype=object))

    def verify(self, grid: np.ndarray) -> None:
        """Raise unless ``grid`` solves the puzzle by the genre's rules (not the model's)."""
        grid = np.asarray(grid, dtype=object)
        if grid.shape != self.cells.shape:
            raise VerificationError(f"{self.name}: a grid of shape {grid.shape}, not "
                                    f"{self.rows}x{self.cols}")
        self.genre.verify(self, grid)

    def given(self, m: Model, named: bool, r: int, c: int) -> AbstractContextManager[None]:
        """Within it, what is posted is the clue of cell (r, c): a named group when
        ``named``."""
        return self.group(m, named, f"r{r + 1}c{c + 1}={self.cells[r, c]}")

    def post_clues(self, m: Model, named: bool, cells: list[tuple[int, int]], lhs: Any,
                   rhs: Any) -> None:
        """``lhs == rhs``, a row per clue cell of ``cells``: in one go, or (``named``) each
        row as its clue's named group."""
        if not named:
            m.add(lhs == rhs)
            return
        rhs = np.broadcast_to(np.asarray(rhs), (len(cells),))
        for k, (r, c) in enumerate(cells):
            with self.given(m, named, r, c):
                m.add(lhs[k] == int(rhs[k]))

    def group(self, m: Model, named: bool, name: str) -> AbstractContextManager[None]:
        """Within it, what is posted is the clue called ``name``: a named group when
        ``named``."""
        return m.named(name) if named else nullcontext()


class Genre:
    """What a genre module defines (see the module docstring). Subclasses set the class
    attributes and the methods; one instance of each is registered in ``genres``."""

    name: ClassVar[str]  # the file suffix, as the collection spells the genre in lower case
    title: ClassVar[str]  # "Nurikabe"
    rules_text: ClassVar[str] = ""  # the rules in one sentence, for `smtpuzzle list`
    # what follows the header line: "cells" (the clue grid), "regions" (a grid of region
    # numbers), or a line of clues along a side ("top", "left", "bottom", "right")
    layout: ClassVar[tuple[str, ...]] = ("cells",)
    params: ClassVar[tuple[str, ...]] = ()  # names of the header's numbers after the size
    more_params: ClassVar[bool] = False  # the last of params repeats (Battleship's fleet)
    flags: ClassVar[tuple[str, ...]] = ()  # words that may follow them (Skyscrapers' D)
    cells_optional: ClassVar[bool] = False  # a clue grid of no clues may be left out
    outside: ClassVar[str] = ""  # region-grid tokens of a cell in no region (one char each)
    symbols: ClassVar[str] = ""  # the cell tokens, in words, for error messages
    puzzlekit: ClassVar[str] = ""  # puzzlekit's name of the genre ("" if it has none)
    edge_symbols: ClassVar[str] = "a number or -"
    # pictures (pictures.py): how a solution token is marked ("shade", "dot", "disc",
    # "circle"...), how a clue is ("*": any clue), whether the solution is groups drawn in
    # thick borders (Shikaku), whether its other tokens are numbers written in the cells,
    # and the token whose cells the loop runs around (Slitherlink)
    picture: ClassVar[dict[str, str]] = {"x": "shade"}
    clue_picture: ClassVar[dict[str, str]] = {}
    groups: ClassVar[bool] = False
    written: ClassVar[bool] = False
    boundary: ClassVar[str] = ""

    def cell_ok(self, token: str) -> bool:
        """Whether ``token`` may stand in a cell of the clue grid."""
        return token == EMPTY or token.isdigit()

    def edge_ok(self, token: str) -> bool:
        return token == EMPTY or token.isdigit()

    def clue_text(self, token: str) -> str:
        """How a clue reads in a picture (no text for a clue drawn as a mark alone)."""
        mark = self.clue_picture.get(token, self.clue_picture.get("*"))
        if mark in ("disc", "circle", "tree") or (mark == "black" and not token[:1].isdigit()):
            return ""
        return token

    def check(self, puzzle: PencilPuzzle) -> None:
        """Refuse what the file's grammar lets through but the genre cannot take (a clue
        out of range): PuzzleError naming the cell."""

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> Any:
        raise NotImplementedError

    def normal_rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> Any:
        """The rules, plus any that keep only the solutions in a normal form: one that
        every solution reaches by moves that each make another solution, so that deciding
        needs these alone (none in normal form: none at all; one, and no solution that one
        move takes to it: unique). By default the rules themselves."""
        return self.rules(puzzle, m, named)

    def unreduced(self, puzzle: PencilPuzzle, grid: np.ndarray) -> np.ndarray | None:
        """A solution other than ``grid`` that one move takes to it (None if none, or if
        the genre has no normal form)."""
        return None

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        raise NotImplementedError

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        """The solution as text for a person (the command line's answer): shaded cells
        ``#``, unshaded ``.``, clues kept. Loop genres draw their lines instead."""
        from smtpuzzle.puzzles.pencil.drawing import overlay

        return overlay(puzzle, grid, {"x": "#", EMPTY: "."})


def wrong(puzzle: PencilPuzzle, what: str, r: int | None = None, c: int | None = None) -> None:
    """Raise the VerificationError of a broken rule, at cell (r, c) if given."""
    at = f" at row {r + 1}, column {c + 1}" if r is not None and c is not None else ""
    raise VerificationError(f"{puzzle.name}: {what}{at}")


def refuse(genre: Genre, what: str, r: int | None = None, c: int | None = None) -> None:
    at = f" at row {r + 1}, column {c + 1}" if r is not None and c is not None else ""
    raise PuzzleError(f"{genre.name}: {what}{at}")


def grid_text(grid: np.ndarray) -> str:
    """A grid of tokens, a row a line, tokens apart by spaces."""
    return "\n".join(" ".join(str(t) for t in row) for row in np.asarray(grid).tolist())


def solution_text(puzzle: PencilPuzzle, grid: np.ndarray) -> str:
    """A solution as the collection writes one: the size line, then the grid."""
    head = " ".join(str(v) for v in (puzzle.rows, puzzle.cols, *puzzle.params,
                                     *puzzle.flags))
    return f"{head}\n{grid_text(grid)}"
