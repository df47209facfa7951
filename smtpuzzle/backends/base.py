"""The interface every back end follows, and the generic solve / enumerate loop.

A back end compiles a model once (timed as build), then answers checks; enumeration
blocks each solution on the user variables and de-duplicates on them.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

import numpy as np

from smtpuzzle.model import Model
from smtpuzzle.result import Enumeration, Result, Stats, Status


class Backend(ABC):
    """``solve`` finds one solution or proves there is none; ``solutions`` enumerates."""

    name: str = "?"
    uses_hints: bool = False  # whether the search starts from Model.hints

    def solve(self, model: Model, time_limit: float | None = None) -> Result:
        enum = self.solutions(model, limit=1, time_limit=time_limit)
        it = iter(enum)
        found = next(it, None)
        it.close()  # release the solver (a sat child process) now, not at garbage collection
        if found is not None:
            return found
        status = Status.UNSAT if enum.complete else Status.UNKNOWN
        return Result(status, None, enum.stats)

    def solutions(
        self, model: Model, limit: int | None = None, time_limit: float | None = None
    ) -> Enumeration:
        stats = Stats(self.label())
        enum = Enumeration(iter(()), stats)
        enum._gen = self._enumerate(model, limit, time_limit, stats, enum)
        return enum

    def label(self) -> str:
        return self.name

    @abstractmethod
    def _enumerate(
        self, model: Model, limit: int | None, time_limit: float | None, stats: Stats,
        enum: Enumeration,
    ) -> Iterator[Result]:
        """Yield distinct SAT results; set ``enum.complete`` when the search is exhausted."""


class BlockingBackend(Backend):
    """A back end that enumerates by re-solving after blocking each solution."""

    @abstractmethod
    def _compile(self, model: Model, stats: Stats) -> Any: ...

    @abstractmethod
    def _check(self, handle: Any, model: Model, time_left: float | None) -> tuple[Status, Any]:
        """Status and, when SAT, the user-variable values (bool array)."""

    @abstractmethod
    def _block(self, handle: Any, model: Model, values: np.ndarray) -> None: ...

    def _check_assuming(self, handle: Any, model: Model, time_left: float | None,
                        assumed: list[int]) -> tuple[Status, Any, list[int]]:
        """As ``_check`` under assumed literals, with the ones blamed when UNSAT (back ends
        whose ``uses_hints`` is true)."""
        raise NotImplementedError

    def _first_check(self, handle: Any, model: Model,
                     deadline: float | None) -> tuple[Status, Any]:
        """The search for a first solution, guided by the model's hints when this back end
        uses them."""
        left = None if deadline is None else deadline - time.perf_counter()
        if model.hints is None or not len(model.hints) or not self.uses_hints:
            return self._check(handle, model, left)
        found: list[Any] = [None]

        def attempt(assumed: list[int]) -> tuple[Status, list[int]]:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return Status.UNKNOWN, []
            status, found[0], core = self._check_assuming(handle, model, left, assumed)
            return status, core

        return guided(attempt, model.hints.tolist()), found[0]

    def _enumerate(
        self, model: Model, limit: int | None, time_limit: float | None, stats: Stats,
        enum: Enumeration,
    ) -> Iterator[Result]:
        start = time.perf_counter()
        handle = self._compile(model, stats)
        stats.build_time = time.perf_counter() - start
        deadline = None if time_limit is None else start + time_limit
        seen: set[bytes] = set()
        while limit is None or len(seen) < limit:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return
            t0 = time.perf_counter()
            if seen:
                status, values = self._check(handle, model, left)
            else:
                status, values = self._first_check(handle, model, deadline)
            stats.solve_time += time.perf_counter() - t0
            if status is Status.UNSAT:
                enum.complete = True
                return
            if status is Status.UNKNOWN:
                return
            key = np.packbits(values).tobytes()
            if key in seen:
                raise RuntimeError(f"{self.name} returned the same solution twice")
            seen.add(key)
            yield Result(Status.SAT, values, stats)
            self._block(handle, model, values)


HINTS_KEPT = 0.75  # after a failed guess, the share of the surviving hints assumed again


def guided(attempt: Callable[[list[int]], tuple[Status, Collection[int]]],
           hints: Sequence[int]) -> Status:
    """Search assuming the hints (Model.hints), then fewer and fewer of them.

    ``attempt(assumed)`` solves under the assumed literals and returns the status and,
    when UNSAT, the assumed literals it blames (the core). Those are given up, with the
    least confident quarter of the rest, and the search runs again. UNSAT counts only
    with an empty core or nothing assumed, so the answer is always the model's own."""
    assumed = list(hints)
    while assumed:
        status, core = attempt(assumed)
        if status is not Status.UNSAT:
            return status
        if not core:
            return Status.UNSAT
        blamed = set(core)
        kept = [a for a in assumed if a not in blamed]
        assumed = kept[: int(len(kept) * HINTS_KEPT)]
    return attempt([])[0]


def blocking_literals(model: Model, values: np.ndarray) -> np.ndarray:
    """The clause that excludes exactly this projection of the user variables."""
    user = model.user_vars
    return np.where(values, -user, user)
