"""Deciding a Sudoku: unique, multiple (two solutions shown), none or unknown; every
solution verified before it is returned."""

from __future__ import annotations

from smtpuzzle.puzzles.grid_answer import GridAnswer, decide_grid
from smtpuzzle.puzzles.sudoku.puzzle import Sudoku


class SudokuAnswer(GridAnswer):
    def _repr_svg_(self) -> str:
        from smtpuzzle.puzzles.sudoku.drawing import sudoku_svg

        return sudoku_svg(self.puzzle.givens, self.solutions[0] if self.solutions else None)


def solve_sudoku(puzzle: Sudoku, backend: str = "cpsat", solver: str | None = None,
                 time_limit: float | None = None, limit: int | None = 2) -> SudokuAnswer:
    """Find up to ``limit`` solutions (at least 2: uniqueness is decided; None for all)."""
    return decide_grid(puzzle, SudokuAnswer, backend, solver, time_limit, limit)
