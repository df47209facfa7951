"""Binairo (Takuzu): fill every cell black or white so that each row and column holds as
many of one as of the other and no three in a line are alike. As the collection (janko.at)
has it, two rows or two columns may be the same (Takuzu's rule that they differ is not
part of it: its published solutions repeat rows)."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import ColourGenre
from smtpuzzle.puzzles.pencil.puzzle import PencilPuzzle, refuse, wrong


class Binairo(ColourGenre):
    name = "binairo"
    title = "Binairo"
    rules_text = "half black, half white each line; no three alike in a row"
    puzzlekit = "binairo"

    def check(self, puzzle: PencilPuzzle) -> None:
        if puzzle.rows % 2 or puzzle.cols % 2:
            refuse(self, f"a grid of {puzzle.rows}x{puzzle.cols}: sides are even")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        black = self.coloured(puzzle, m, named)
        m.add(black.sum(axis=1) == cols // 2, black.sum(axis=0) == rows // 2)
        for b in (black, black.T):
            three = b[:, :-2] + b[:, 1:-1] + b[:, 2:]
            m.add(three >= 1, three <= 2)
        return black

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        black = grid == "b"
        self.check_colours(puzzle, grid)
        for what, b in (("row", black), ("column", black.T)):
            if (b.sum(axis=1) * 2 != b.shape[1]).any():
                wrong(puzzle, f"a {what} not half black")
            three = b[:, :-2].astype(int) + b[:, 1:-1] + b[:, 2:]
            if ((three == 0) | (three == 3)).any():
                wrong(puzzle, f"three alike in a {what}")


GENRE = Binairo()
