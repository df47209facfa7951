"""Exact-cover back end: the compiled cell-first search of smtpuzzle.exactcover.

It takes models whose constraints are cells (exactly-one / at-most-one groups over user
variables), multiplicities (cardinalities over disjoint groups) and unit clauses; it is the
fast way to enumerate and count tilings.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from smtpuzzle.backends.base import Backend
from smtpuzzle.exactcover import CoverSearch, from_model
from smtpuzzle.model import Model
from smtpuzzle.result import Enumeration, Result, Stats, Status

SLICE = 1_000_000  # nodes between checks of the clock (a few hundredths of a second)


class ExactCoverBackend(Backend):
    name = "exact-cover"

    def _start(self, model: Model, stats: Stats, collect: bool) -> CoverSearch:
        t0 = time.perf_counter()
        problem = from_model(model)
        search = CoverSearch(problem, collect=collect)
        stats.build_time += time.perf_counter() - t0
        stats.variables = problem.n_rows
        stats.constraints = len(problem.cells) + len(problem.group_need)
        return search

    def _enumerate(
        self, model: Model, limit: int | None, time_limit: float | None, stats: Stats,
        enum: Enumeration,
    ) -> Iterator[Result]:
        start = time.perf_counter()
        search = self._start(model, stats, collect=True)
        deadline = None if time_limit is None else start + time_limit
        n, found = len(model.user_vars), 0
        while not search.done:
            if deadline is not None and time.perf_counter() > deadline:
                return
            t0 = time.perf_counter()
            rows = search.step(SLICE)
            stats.solve_time += time.perf_counter() - t0
            for r in rows:
                values = np.zeros(n, dtype=bool)
                values[r] = True
                yield Result(Status.SAT, values, stats)
                found += 1
                if limit is not None and found >= limit:
                    return
        enum.complete = True

    def count(self, model: Model, time_limit: float | None = None,
              progress: Callable[[int], None] | None = None) -> tuple[int, bool, Stats]:
        """Count solutions without listing them: (count, complete, stats)."""
        stats = Stats(self.label())
        t0 = time.perf_counter()
        deadline = None if time_limit is None else t0 + time_limit
        search = self._start(model, stats, collect=False)
        t0 = time.perf_counter()
        try:
            while not search.done:
                if deadline is not None and time.perf_counter() > deadline:
                    break
                search.step(SLICE)
                if progress:
                    progress(search.count)
        finally:
            stats.solve_time = time.perf_counter() - t0
            stats.extra["nodes"] = search.nodes
        return search.count, search.done, stats
