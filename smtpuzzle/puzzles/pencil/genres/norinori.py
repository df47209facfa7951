"""Norinori: shade exactly two cells in every region so that the shaded cells form
dominoes: each shaded cell has exactly one shaded cell beside it."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import Padded, around, shaded_tokens
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, wrong


class Norinori(Genre):
    name = "norinori"
    title = "Norinori"
    rules_text = "two shaded cells a region; shaded cells in dominoes"
    layout = ("cells", "regions")
    symbols = "-"
    puzzlekit = "norinori"

    def cell_ok(self, token: str) -> bool:
        return token == "-"

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        shaded = Padded(m, puzzle.rows, puzzle.cols, "shaded")
        for k in range(int(puzzle.regions.max()) + 1):
            m.add(shaded.grid[puzzle.regions == k].sum() == 2)
        m.add(shaded.grid.implies(shaded.around() == 1))
        return shaded.grid

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        shaded = grid == "x"
        for k in range(int(puzzle.regions.max()) + 1):
            if shaded[puzzle.regions == k].sum() != 2:
                r, c = np.argwhere(puzzle.regions == k)[0]
                wrong(puzzle, "a region without exactly two shaded cells", r, c)
        for r, c in zip(*np.nonzero(shaded), strict=True):
            if sum(shaded[nb] for nb in around(r, c, shaded.shape)) != 1:
                wrong(puzzle, "a shaded cell not in a domino", r, c)


GENRE = Norinori()
