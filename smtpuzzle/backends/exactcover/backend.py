"""Exact-cover back end: the compiled searches of smtpuzzle.backends.exactcover.

It takes models whose constraints are cells (exactly-one / at-most-one groups over user
variables), multiplicities (cardinalities over disjoint groups) and unit clauses; it is the
fast way to enumerate and count tilings.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from smtpuzzle.backends.base import Backend
from smtpuzzle.backends.exactcover import CoverSearch, from_model
from smtpuzzle.backends.exactcover.problem import structure_key, unit_rows
from smtpuzzle.model import Model
from smtpuzzle.result import Enumeration, Result, Stats, Status


class ExactCoverBackend(Backend):
    """Keeps the search arrays of the last model it saw: the sub-problems of one count differ
    only in forced and forbidden rows, so each one just restarts the search. ``branching``
    picks the kernel (see :class:`CoverSearch`)."""

    name = "exact-cover"

    def __init__(self, branching: str = "auto") -> None:
        self.branching = branching
        self._cache: dict[bool, tuple[tuple, Model, CoverSearch]] = {}
        self._busy: set[int] = set()

    def _start(self, model: Model, stats: Stats, collect: bool) -> CoverSearch:
        t0 = time.perf_counter()
        key = structure_key(model)
        hit = self._cache.get(collect)
        if hit is not None and hit[0] == key and id(hit[2]) not in self._busy:
            search = hit[2]
            search.restart(*unit_rows(model))
        else:
            search = CoverSearch(from_model(model), collect=collect, branching=self.branching)
            self._cache[collect] = (key, model, search)  # the model keeps the key's ids alive
        stats.build_time += time.perf_counter() - t0
        stats.variables = search.problem.n_rows
        stats.constraints = len(search.problem.cells) + len(search.problem.group_need)
        return search

    def label(self) -> str:
        return self.name if self.branching == "auto" else f"{self.name}:{self.branching}"

    def _enumerate(
        self, model: Model, limit: int | None, time_limit: float | None, stats: Stats,
        enum: Enumeration,
    ) -> Iterator[Result]:
        start = time.perf_counter()
        search = self._start(model, stats, collect=True)
        self._busy.add(id(search))
        try:
            yield from self._collect(search, model, limit, start, time_limit, stats, enum)
        finally:
            self._busy.discard(id(search))

    def _collect(self, search: CoverSearch, model: Model, limit: int | None, start: float,
                 time_limit: float | None, stats: Stats, enum: Enumeration) -> Iterator[Result]:
        deadline = None if time_limit is None else start + time_limit
        n, found = len(model.user_vars), 0
        while not search.done:
            if deadline is not None and time.perf_counter() > deadline:
                return
            t0 = time.perf_counter()
            rows = search.step()
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
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        search = self._start(model, stats, collect=False)
        t0 = time.perf_counter()
        try:
            while not search.done:
                if deadline is not None and time.perf_counter() > deadline:
                    break
                search.step()
                if progress:
                    progress(search.count)
        finally:
            stats.solve_time = time.perf_counter() - t0
            stats.extra["nodes"] = search.nodes
        return search.count, search.done, stats
