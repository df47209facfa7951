"""Deciding a pencil puzzle: unique, multiple (two solutions shown), none or unknown, each
solution checked by the genre's verifier; its JSON carries the first solution as the
collection writes one (``"solution"``), to compare with a published one line by line."""

from __future__ import annotations

from typing import Any

from smtpuzzle.puzzles.grid_answer import GridAnswer, decide_grid
from smtpuzzle.puzzles.pencil.puzzle import PencilPuzzle, solution_text


class PencilAnswer(GridAnswer):
    def json_extra(self) -> dict[str, Any]:
        data = super().json_extra()
        data["genre"] = self.puzzle.genre.name
        if self.solutions:
            data["solution"] = solution_text(self.puzzle, self.solutions[0])
        return data


def solve_pencil(puzzle: PencilPuzzle, backend: str = "cpsat", solver: str | None = None,
                 time_limit: float | None = None, limit: int | None = 2) -> PencilAnswer:
    """Find up to ``limit`` solutions (at least 2: uniqueness is decided; None for all)."""
    return decide_grid(puzzle, PencilAnswer, backend, solver, time_limit, limit)
