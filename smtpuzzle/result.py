"""What a back end returns (a Result: status, the user-variable assignment and statistics),
what every family's answer builds on (Answer), and the one shape of a count (SolutionCount)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

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


class SolutionCount(NamedTuple):
    """A number of solutions, and whether it is all of them (the search ended) rather than
    those found before a limit, the time or Ctrl-C stopped it."""

    count: int
    complete: bool


class Answer:
    """What every family's answer is: a dataclass with ``status`` (always a Status, whatever
    it was made with), ``time_s``, ``interrupted`` (stopped by Ctrl-C or a lost worker) and
    ``stats`` (the back end's, or None), each declared where its constructor wants it, and
    ``as_json`` made from its fields.

    A field's metadata steers its JSON: ``json=False`` leaves it out, ``key=`` renames it,
    ``omit=`` leaves it out while it holds that value. Floats are rounded to 0.1 ms, arrays
    become lists, and anything with an ``as_json`` (or a Stats) is written by it. A family
    adds what its fields do not say in ``json_extra``; ``json_keys`` orders the keys (those
    it does not name follow, fields first)."""

    json_keys: ClassVar[tuple[str, ...]] = ()
    status: Status
    time_s: float
    interrupted: bool
    stats: Stats | None

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            meta = f.metadata
            if meta.get("json", True) is False or f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if "omit" in meta and value == meta["omit"]:
                continue
            out[meta.get("key", f.name)] = json_value(value)
        out.update(self.json_extra())
        first = [k for k in self.json_keys if k in out]
        return {k: out[k] for k in [*first, *(k for k in out if k not in first)]}

    def json_extra(self) -> dict[str, Any]:
        """What the JSON says beyond the fields (derived values); none by default."""
        return {}


def json_value(value: Any) -> Any:
    """``value`` as JSON data (see Answer)."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, Stats):
        return value.as_dict()
    if hasattr(value, "as_json"):
        return value.as_json()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {k: json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    return value
