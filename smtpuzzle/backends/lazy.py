"""Constraints a session checks on each solution instead of encoding them (lazily): the
records of the kinds marked lazy (model/kinds.py), such as connected sets. Each record
names the literals it reads (``literals()``) and, for their values in a solution, gives the
clauses that solution breaks and every solution of the constraint meets (``cuts(values)``,
none when the solution keeps the constraint). A session that holds such records asks for
the cuts after each satisfiable check, adds them, and checks again until a solution keeps
every record or none is left: the cuts are implied by the constraints, so every answer
(a solution, none, a count, a core) stays what the eager encoding gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class LazyCuts:
    """The lazy records of one session, with what they read."""

    def __init__(self, records: Sequence[Any]) -> None:
        self.records = list(records)
        self._reads = [np.asarray(r.literals(), dtype=np.int64) for r in self.records]

    def __bool__(self) -> bool:
        return bool(self.records)

    def cuts(self, assignment: np.ndarray) -> list[list[int]]:
        """The cuts a solution calls for, given ``assignment`` (a bool per variable, indexed
        by the variable: entry 0 unused)."""
        out: list[list[int]] = []
        for record, lits in zip(self.records, self._reads, strict=True):
            values = assignment[np.abs(lits)] ^ (lits < 0)
            out += record.cuts(values)
        return out
