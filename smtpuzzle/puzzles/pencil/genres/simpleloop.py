"""Simple Loop: draw one loop through the centre of every cell that is not blocked."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import CellLinks, check_lines, directions, line_tokens
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, Genre, PencilPuzzle, wrong


class SimpleLoop(Genre):
    name = "simpleloop"
    title = "Simple Loop"
    rules_text = "one loop through every open cell"
    symbols = "- (open) or x (blocked)"
    pids = ("simpleloop",)
    puzzlekit = "simple_loop"

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, "x")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        line = CellLinks(m, puzzle.rows, puzzle.cols)
        m.add(SingleCycle(line.link, line.graph))
        open_ = puzzle.cells == EMPTY
        degree = line.degree()
        m.add(degree[open_] == 2, degree[~open_] == 0)
        return line.link

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return line_tokens(directions(values, puzzle.rows, puzzle.cols))

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        loops = check_lines(puzzle, grid, loop=True)
        if len(loops) != 1:
            wrong(puzzle, f"{len(loops)} loops, not one")
        on = np.zeros(grid.shape, dtype=bool)
        on[tuple(np.array(loops[0]).T)] = True
        if (on != (puzzle.cells == EMPTY)).any():
            wrong(puzzle, "the loop misses an open cell or passes a blocked one",
                  *np.argwhere(on != (puzzle.cells == EMPTY))[0])

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        from smtpuzzle.puzzles.pencil.drawing import line_text

        return line_text(puzzle, grid, {"x": "#"})


GENRE = SimpleLoop()
