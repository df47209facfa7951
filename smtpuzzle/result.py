"""What a back end returns: status, the user-variable assignment and statistics."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np


class Status(StrEnum):
    """What an answer says. A solver answers sat, unsat or unknown (``Model.solve`` says
    optimal for a proved optimum of its objective); a puzzle that is decided
    (a nonogram, a Sudoku) answers unique, multiple, none or unknown. Every family's answer
    carries one of these (a str, so it compares and prints as its value)."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"
    OPTIMAL = "optimal"  # a solution, and no better one exists (a model with an objective)
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"


@dataclass
class Stats:
    """What a back end reports of one solve: its times and the sizes of what it built."""

    backend: str
    build_time: float = 0.0
    solve_time: float = 0.0
    variables: int = 0
    constraints: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "build_s": round(self.build_time, 4),
            "solve_s": round(self.solve_time, 4),
            "variables": self.variables,
            "constraints": self.constraints,
            **self.extra,
        }


@dataclass
class Result:
    """One answer. ``values`` holds the user variables (bool array) when status is SAT;
    ``optimal`` says that no better one exists, for a model with an objective (when False,
    it is the best found in the time given)."""

    status: Status
    values: np.ndarray | None
    stats: Stats
    ints: np.ndarray | None = None  # the user integers' values (Model.int_array), when SAT
    optimal: bool = False


class Enumeration:
    """An iterator of SAT results; after it is exhausted, ``complete`` tells whether every
    solution was listed (the search ended) rather than stopped by a limit."""

    def __init__(self, gen: Iterator[Result], stats: Stats) -> None:
        self._gen = gen
        self.stats = stats
        self.complete = False
        self.count = 0

    def __iter__(self) -> Iterator[Result]:
        try:
            for r in self._gen:
                self.count += 1
                yield r
        finally:
            if hasattr(self._gen, "close"):  # a generator (not the empty default)
                self._gen.close()
