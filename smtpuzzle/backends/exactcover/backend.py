"""Exact-cover back end: the compiled searches of this package.

It takes models whose constraints are cells (exactly-one / at-most-one groups over user
variables), multiplicities (cardinalities over disjoint groups) and unit clauses; it is the
fast way to enumerate and count tilings. A session takes more unit clauses (forced and
forbidden rows) and assumptions of the same kind; anything else is not an exact cover.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from smtpuzzle.backends.base import Backend, Capabilities, PartialCount, Session
from smtpuzzle.backends.exactcover.problem import (
    TAKES,
    NotExactCover,
    from_model,
    structure_key,
    unit_rows,
)
from smtpuzzle.backends.exactcover.search import CoverSearch
from smtpuzzle.model import Cmp, Groups, Model, require_model
from smtpuzzle.result import Enumeration, Result, SolutionCount, Stats, Status
from smtpuzzle.runtime.checks import checked_time_limit


class ExactCoverBackend(Backend):
    """Keeps the search arrays of the last model it saw, keyed on the model's content: the
    sub-problems of one count differ only in forced and forbidden rows, so each one just
    restarts the search. ``branching`` picks the kernel (see :class:`CoverSearch`)."""

    name = "exact-cover"
    capabilities = Capabilities(any_constraint=False, resumable=True)
    takes = TAKES

    def __init__(self, branching: str = "auto") -> None:
        self.branching = branching
        self._cache: dict[bool, tuple[bytes, CoverSearch]] = {}
        self._busy: set[int] = set()

    def cover_bytes(self, rows: int, items: int, incidences: int) -> float:
        return rows * items / 4  # a bitset over the items per row, and a copy

    def label(self) -> str:
        return self.name if self.branching == "auto" else f"{self.name}:{self.branching}"

    def _start(self, model: Model, stats: Stats, collect: bool) -> CoverSearch:
        t0 = time.perf_counter()
        key = structure_key(model)
        hit = self._cache.get(collect)
        if hit is not None and hit[0] == key and id(hit[1]) not in self._busy:
            search = hit[1]
            search.restart(*unit_rows(model))
        else:
            search = CoverSearch(from_model(model), collect=collect, branching=self.branching)
            self._cache[collect] = (key, search)
        stats.build_time += time.perf_counter() - t0
        stats.variables = search.problem.n_rows
        stats.constraints = len(search.problem.cells) + len(search.problem.group_need)
        return search

    def _open(self, model: Model, stats: Stats) -> ExactCoverSession:
        return ExactCoverSession(self, model, stats)

    def count(self, model: Model, time_limit: float | None = None,
              progress: Callable[[int], None] | None = None) -> SolutionCount:
        """Count solutions without listing them."""
        part = self._count(model, None, time_limit, progress, Stats(self.label()))
        return SolutionCount(part.count, part.done)

    def count_part(self, model: Model, state: dict[str, np.ndarray] | None = None,
                   time_limit: float | None = None,
                   progress: Callable[[int], None] | None = None) -> PartialCount:
        """SolutionCount for at most ``time_limit`` seconds, going on from ``state`` (the last
        part's), which must come from a search of the same model. A state that does not fit
        this search (another kernel, other arrays) raises ValueError."""
        return self._count(model, state, time_limit, progress, Stats(self.label()))

    def _count(self, model: Model, state: dict[str, np.ndarray] | None,
               time_limit: float | None, progress: Callable[[int], None] | None,
               stats: Stats) -> PartialCount:
        require_model(model, f"{self.name}.count")
        time_limit = checked_time_limit(time_limit)
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        search = self._start(model, stats, collect=False)
        if state is not None:
            search.resume(state)
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
        done = search.done
        return PartialCount(search.count, done, None if done else search.snapshot(),
                            search.share_done(), search.nodes)


class ExactCoverSession(Session):
    """Unit clauses and assumptions force or forbid rows; each check restarts the search."""

    capabilities = ExactCoverBackend.capabilities

    def __init__(self, backend: ExactCoverBackend, model: Model, stats: Stats) -> None:
        super().__init__(model.user_vars, model.num_vars, stats)
        self.backend = backend
        self.model = model
        self._found: np.ndarray | None = None
        stats.variables = len(self.user)

    def _add_clauses(self, groups: Groups) -> None:
        if (groups.sizes != 1).any():
            raise NotExactCover("exact cover takes unit clauses only (force or forbid rows)")
        self.model = self.model.with_units(groups.flat)

    def _add_cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None:
        raise NotExactCover("exact cover takes no cardinalities after opening")

    def _check(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        self._assumed = list(assumptions)
        self._found = None
        model = self.model.with_units(self._assumed) if self._assumed else self.model
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        search = self.backend._start(model, self.stats, collect=True)
        while not search.done:
            if deadline is not None and time.perf_counter() > deadline:
                return Status.UNKNOWN
            rows = search.step()
            if rows:
                self._found = self._values(rows[0])
                return Status.SAT
        return Status.UNSAT

    def _values(self, rows: np.ndarray) -> np.ndarray:
        values = np.zeros(len(self.user), dtype=bool)
        values[rows] = True
        return values

    def values(self) -> np.ndarray:
        if self._found is None:
            raise RuntimeError("values() needs a SAT check first")
        return self._found

    def _solutions(self, limit: int | None, deadline: float | None,
                   enum: Enumeration) -> Iterator[Result]:
        """The search lists solutions itself: no blocking clauses."""
        search = self.backend._start(self.model, self.stats, collect=True)
        busy = self.backend._busy
        busy.add(id(search))
        stats, found = self.stats, 0
        try:
            while not search.done:
                if deadline is not None and time.perf_counter() > deadline:
                    return
                t0 = time.perf_counter()
                rows = search.step()
                stats.solve_time += time.perf_counter() - t0
                for r in rows:
                    yield Result(Status.SAT, self._values(r), stats)
                    found += 1
                    if limit is not None and found >= limit:
                        return
            enum.complete = True
        finally:
            busy.discard(id(search))
