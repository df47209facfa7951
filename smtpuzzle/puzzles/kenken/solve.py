"""Deciding a KenKen: unique, multiple (two solutions shown), none or unknown; every
solution verified before it is returned."""

from __future__ import annotations

from smtpuzzle.puzzles.grid_answer import GridAnswer, decide_grid
from smtpuzzle.puzzles.kenken.puzzle import KenKen


class KenKenAnswer(GridAnswer):
    pass


def solve_kenken(puzzle: KenKen, backend: str = "cpsat", solver: str | None = None,
                 time_limit: float | None = None, limit: int | None = 2) -> KenKenAnswer:
    """Find up to ``limit`` solutions (at least 2: uniqueness is decided; None for all)."""
    return decide_grid(puzzle, KenKenAnswer, backend, solver, time_limit, limit)
