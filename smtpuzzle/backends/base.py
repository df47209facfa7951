"""The interface every back end follows, and the generic solve / enumerate loop.

A back end compiles a model once (timed as build), then answers checks; enumeration
blocks each solution on the user variables and de-duplicates on them.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
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
            status, values = self._check(handle, model, left)
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


def blocking_literals(model: Model, values: np.ndarray) -> np.ndarray:
    """The clause that excludes exactly this projection of the user variables."""
    user = model.user_vars
    return np.where(values, -user, user)
