"""Simple Loop: draw one loop through the centre of every cell that is not blocked."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import CellLinks, LoopGenre, one_loop
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, PencilPuzzle, wrong


class SimpleLoop(LoopGenre):
    name = "simpleloop"
    title = "Simple Loop"
    rules_text = "one loop through every open cell"
    symbols = "- (open) or x (blocked)"
    puzzlekit = "simple_loop"
    clue_picture = {"x": "black"}
    shown = {"x": "#"}

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, "x")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        line = CellLinks(m, puzzle.rows, puzzle.cols)
        m.add(SingleCycle(line.link, line.graph))
        open_ = puzzle.cells == EMPTY
        degree = line.degree()
        m.add(degree[open_] == 2, degree[~open_] == 0)
        return line.link

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        on = one_loop(puzzle, grid)
        if (on != (puzzle.cells == EMPTY)).any():
            wrong(puzzle, "the loop misses an open cell or passes a blocked one",
                  *np.argwhere(on != (puzzle.cells == EMPTY))[0])


GENRE = SimpleLoop()
