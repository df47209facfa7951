"""Answering a nonogram: presolve, then a back end for what is left, then the verdict.

The verdict is ``unique``, ``multiple`` (two differing solutions shown), ``none`` or
``unknown`` (time limit or Ctrl-C). Uniqueness is proved by enumerating on the cell
variables with a limit of two; counting raises the limit. Every solution is verified.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from smtpuzzle.backends import get_backend
from smtpuzzle.puzzles.linesolve import Presolve, presolve
from smtpuzzle.puzzles.nonogram import Nonogram, grid_strings
from smtpuzzle.result import Stats

VERDICTS = ("unique", "multiple", "none", "unknown")
DEFAULT_BACKEND = "sat"


@dataclass
class NonogramAnswer:
    status: str
    solutions: list[list[str]]
    complete: bool  # the search ended: the count is exact
    time_s: float
    backend: str
    encoding: str
    presolve: Presolve | None = None
    stats: Stats | None = None
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        """Solutions found (all of them when complete)."""
        return len(self.solutions)

    def as_json(self, with_solutions: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "time_s": round(self.time_s, 4)}
        if with_solutions:
            out["solutions"] = self.solutions
        out.update(count=self.count, complete=self.complete, backend=self.backend,
                   encoding=self.encoding)
        if self.presolve is not None:
            out["presolve"] = {"cells": int(self.presolve.grid.size),
                               "line_solving": self.presolve.line_known,
                               "with_probing": self.presolve.known,
                               "time_s": round(self.presolve.time_s, 4)}
        if self.stats is not None:
            out["stats"] = self.stats.as_dict()
        return out


def _verdict(found: int, complete: bool) -> str:
    if found >= 2:
        return "multiple"
    if complete:
        return "unique" if found == 1 else "none"
    return "unknown"


def solve_nonogram(
    puzzle: Nonogram,
    backend: str = DEFAULT_BACKEND,
    solver: str | None = None,
    encoding: str = "runs",
    use_presolve: bool = True,
    probing: bool = True,
    time_limit: float | None = None,
    limit: int | None = 2,
) -> NonogramAnswer:
    """Decide ``puzzle``: find up to ``limit`` (at least 2; None for all) solutions, each
    verified. A larger limit counts solutions; ``complete`` says whether the count is exact
    (the search ended rather than stopping at the limit)."""
    limit = None if limit is None else max(limit, 2)
    engine = get_backend(backend, solver)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    pre: Presolve | None = None
    known = None

    def answer(status: str, sols: list[list[str]], complete: bool, **kw: Any) -> NonogramAnswer:
        for s in sols:
            puzzle.verify(s)
        return NonogramAnswer(status, sols, complete, time.perf_counter() - start,
                              engine.label(), encoding, pre, **kw)

    try:
        if use_presolve:
            pre = presolve(puzzle, probing=probing, deadline=deadline)
            if pre.contradiction:
                return answer("none", [], True)
            if pre.solved:
                return answer("unique", [grid_strings(pre.grid == 1)], True)
            known = pre.grid
        model = puzzle.build_model(encoding, known=known)
    except KeyboardInterrupt:
        return answer("unknown", [], False, interrupted=True)
    left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
    enum = engine.solutions(model, limit=limit, time_limit=left)
    found: list[list[str]] = []
    interrupted = False
    try:
        for r in enum:
            found.append(puzzle.decode(r.values))
    except KeyboardInterrupt:
        interrupted = True
    complete = enum.complete and not interrupted
    status = _verdict(len(found), complete or len(found) >= 2)
    return answer(status, found, complete, stats=enum.stats, interrupted=interrupted)
