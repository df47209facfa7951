"""Deciding a grid puzzle written with the modelling API (Sudoku, KenKen, the pencil
puzzles): unique, multiple (two solutions shown), none or unknown; every solution verified
before it is returned. A puzzle gives ``build() -> (model, answer variables)``,
``verify(grid)`` and ``name``, and ``decode(values) -> grid`` where the answer variables'
values are not the grid itself (a pencil puzzle's loop segments). A puzzle may also give
``build_to_decide()``, a model of its solutions in a normal form, and ``unreduced(grid)``,
a solution that one move takes to ``grid``: deciding then searches the normal form."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from smtpuzzle.backends import general_backend
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.checks import checked_limit, checked_time_limit


@dataclass
class GridAnswer(Answer):
    """A grid puzzle decided: unique, multiple, none or unknown, with the solutions found."""

    puzzle: Any = field(metadata={"json": False})
    status: Status  # unique | multiple | none | unknown
    solutions: list[np.ndarray]
    complete: bool
    backend: str
    time_s: float
    interrupted: bool = field(default=False, metadata={"omit": False})
    stats: Stats | None = field(default=None, metadata={"json": False})

    def json_extra(self) -> dict[str, Any]:
        return {"name": self.puzzle.name, "count": len(self.solutions)}


A = TypeVar("A", bound=GridAnswer)


def decide_grid(puzzle: Any, answer: type[A], backend: str, solver: str | None,
                time_limit: float | None, limit: int | None,
                on_found: Callable[[np.ndarray], None] | None = None) -> A:
    """Find up to ``limit`` solutions (at least 2: uniqueness is decided; None for all);
    ``on_found`` sees each solution grid as soon as it is verified."""
    limit, time_limit = checked_limit(limit, 1), checked_time_limit(time_limit)
    limit = None if limit is None else max(limit, 2)
    engine = general_backend(backend, solver, puzzle.family)
    started = time.perf_counter()
    decode = getattr(puzzle, "decode", np.asarray)
    normal = limit == 2 and hasattr(puzzle, "build_to_decide")  # deciding, not listing
    model, x = puzzle.build_to_decide() if normal else puzzle.build()
    enum = engine.solutions(model, limit=limit, time_limit=time_limit)
    found: list[np.ndarray] = []
    interrupted = False

    def take(grid: np.ndarray) -> None:
        puzzle.verify(grid)
        found.append(grid)
        if on_found is not None:
            on_found(grid)

    try:
        for r in enum:
            model.take(r)
            take(decode(x.value()))
    except KeyboardInterrupt:
        interrupted = True
    complete = enum.complete and not interrupted
    if normal and complete and len(found) == 1:
        # the one solution in normal form: any other solution reaches it, the last move
        # from one that a move takes to it
        other = puzzle.unreduced(found[0])
        if other is not None:
            take(other)
    if len(found) >= 2:
        status = Status.MULTIPLE
    elif complete:
        status = Status.UNIQUE if found else Status.NONE
    else:
        status = Status.UNKNOWN
    return answer(puzzle, status, found, complete, engine.label(),
                  time.perf_counter() - started, interrupted)
