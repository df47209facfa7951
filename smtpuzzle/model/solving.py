"""Solving from the model: ``model.solve()``, ``solutions()``, ``count()``, and the values
that ``x.value()`` reads, on any back end by name.

Solutions are told apart on the answer (user) variables; an integer's answer is read from its
"x == v" literals. An objective is optimised by ``solve`` (natively where the back end can,
cpsat and z3, elsewhere by linear search: see backends/optimum.py); ``solutions`` and
``count`` range over every solution of the constraints.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from smtpuzzle.backends import get_backend
from smtpuzzle.model.core import _MADE_SINCE, Model
from smtpuzzle.result import Result, Stats, Status

MISSING = np.iinfo(np.int64).min


def solve(model: Model, backend: str, solver: str | None, time_limit: float | None) -> Status:
    result = get_backend(backend, solver).solve(model, time_limit)
    _keep(model, result)
    return Status.OPTIMAL if result.optimal else result.status


def solutions(model: Model, limit: int | None, backend: str, solver: str | None,
              time_limit: float | None) -> Iterator[Model]:
    enum = get_backend(backend, solver).solutions(model, limit=limit, time_limit=time_limit)
    found = False
    for r in enum:
        found = True
        _keep(model, r)
        yield model
    if not found:
        _none(model, enum.complete)


def count(model: Model, backend: str, solver: str | None, time_limit: float | None,
          limit: int | None = None) -> tuple[int, bool]:
    enum = get_backend(backend, solver).solutions(model, limit=limit, time_limit=time_limit)
    n = 0
    for r in enum:
        n += 1
        _keep(model, r)
    if n == 0:
        _none(model, enum.complete)
    return n, enum.complete


def _none(model: Model, complete: bool) -> None:
    """No solution found: none is left to read from an earlier search."""
    _keep(model, Result(Status.UNSAT if complete else Status.UNKNOWN, None, Stats("")))


def _keep(model: Model, result: Result) -> None:
    """The result's answer, for ``x.value()``."""
    sat = result.status is Status.SAT
    model._values = result.values if sat else None
    model._ints = result.ints if sat else None
    model._last = result.status


def int_values(model: Model, ids: np.ndarray) -> np.ndarray | int:
    """The values of integers ``ids`` in the last solution (answer integers only)."""
    if model._values is None:
        raise model._no_values()
    ids = np.asarray(ids)
    if ids.size == 0:  # nothing to read, whatever answer integers the model has
        return np.zeros(ids.shape, dtype=np.int64)
    user = model.ints.user_ints()
    position = np.full(model.ints.count, -1, dtype=np.int64)
    position[user] = np.arange(len(user))
    where = position[ids]
    if (where < 0).any() or model._ints is None:
        raise ValueError("only answer integers have values (make them with user=True)")
    if (where >= len(model._ints)).any():
        raise ValueError(_MADE_SINCE)
    out = model._ints[where]
    return int(out) if out.ndim == 0 else out
