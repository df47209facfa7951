"""Pencil puzzles as text: the solution grid with the clues kept (a shaded cell ``#``, an
unshaded one ``.``, a clue as itself), as a solver of such puzzles reads it."""

from __future__ import annotations

import numpy as np

from smtpuzzle.puzzles.pencil.puzzle import EMPTY, PencilPuzzle


def solution_text(puzzle: PencilPuzzle, grid: np.ndarray) -> str:
    """The solution drawn over the clues, a row a line."""
    return puzzle.genre.text(puzzle, np.asarray(grid, dtype=object)) + "\n"


def overlay(puzzle: PencilPuzzle, grid: np.ndarray, shown: dict[str, str]) -> str:
    """Each cell its clue, else its solution token as ``shown`` maps it; columns as wide as
    the widest token."""
    cells = [[str(puzzle.cells[r, c]) if puzzle.cells[r, c] != EMPTY
              else shown.get(str(grid[r, c]), str(grid[r, c]))
              for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    width = max(len(t) for row in cells for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in cells)


def colours_text(grid: np.ndarray) -> str:
    """A grid of black (``b``) and white (``w``) cells as ``#`` and ``o``."""
    return "\n".join(" ".join({"b": "#", "w": "o"}.get(str(t), str(t)) for t in row)
                     for row in grid)


# a cell a line passes, by the sides it leaves by (the collection's letters)
BOX = {"se": "┌", "sw": "┐", "ne": "└", "nw": "┘", "ew": "─", "ns": "│", "n": "╵", "s": "╷",
       "e": "╶", "w": "╴"}


def line_text(puzzle: PencilPuzzle, grid: np.ndarray, shown: dict[str, str] | None = None
              ) -> str:
    """A solution of lines through cell centres: box-drawing pieces, clues kept, other
    tokens as ``shown`` maps them."""
    return overlay(puzzle, grid, {**BOX, EMPTY: ".", **(shown or {})})
