"""Solving from the model: ``model.solve()``, ``solutions()``, ``count()``, and the values
that ``x.value()`` reads, on any back end by name.

Solutions are told apart on the answer (user) variables; an integer's answer is read from its
"x == v" literals. An objective is optimised natively where the back end can (cpsat, z3),
and elsewhere by linear search: solve, demand a better objective, solve again.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from smtpuzzle.backends import get_backend
from smtpuzzle.model.core import Model
from smtpuzzle.model.expr import LinExpr
from smtpuzzle.model.ints import Objective
from smtpuzzle.result import Result, Status

MISSING = np.iinfo(np.int64).min


def solve(model: Model, backend: str, solver: str | None, time_limit: float | None) -> Status:
    engine = get_backend(backend, solver)
    obj = model.ints.objective
    if obj is None or engine.capabilities.optimises:
        result = engine.solve(model, time_limit)
        _keep(model, result)
        return result.status
    return _linear_search(model, engine, obj, time_limit)


def _linear_search(model: Model, engine: object, obj: Objective,
                   time_limit: float | None) -> Status:
    """Solve; then ask for an objective one better than the last, until there is none."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    lo, hi = model.ints.bounds()
    at_lo, at_hi = obj.icoef * lo[obj.ints], obj.icoef * hi[obj.ints]
    bound_lo = int(obj.constant + np.minimum(at_lo, at_hi).sum() + np.minimum(obj.bcoef, 0).sum())
    bound_hi = int(obj.constant + np.maximum(at_lo, at_hi).sum() + np.maximum(obj.bcoef, 0).sum())
    work = model.copy()
    work.ints.objective = None
    z = work.int_array((), bound_lo, bound_hi, name="objective")
    expr = LinExpr(obj.ints, obj.icoef, obj.bools, obj.bcoef, np.asarray(obj.constant))
    work.add(z == expr)
    n_ints = len(model.ints.user_ints())
    found = None
    status = Status.UNKNOWN
    while True:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            break
        result = engine.solve(work, left)  # type: ignore[attr-defined]
        status = result.status
        if status is not Status.SAT:
            break
        found = result
        _keep(work, result)
        best = int(int_values(work, z.ids))
        work = work.copy()
        work.add(z <= best - 1)
    if found is None:  # unsat, or no solution before the time limit
        model._values = None
        return status
    model._values = found.values
    model._ints = None if found.ints is None else found.ints[:n_ints]
    return Status.SAT  # optimal when the last search said unsat, else the best found


def solutions(model: Model, limit: int | None, backend: str, solver: str | None,
              time_limit: float | None) -> Iterator[Model]:
    enum = get_backend(backend, solver).solutions(model, limit=limit, time_limit=time_limit)
    for r in enum:
        _keep(model, r)
        yield model


def count(model: Model, backend: str, solver: str | None, time_limit: float | None,
          limit: int | None = None) -> tuple[int, bool]:
    enum = get_backend(backend, solver).solutions(model, limit=limit, time_limit=time_limit)
    n = 0
    for r in enum:
        n += 1
        _keep(model, r)
    return n, enum.complete


def _keep(model: Model, result: Result) -> None:
    """The result's answer, for ``x.value()``."""
    sat = result.status is Status.SAT
    model._values = result.values if sat else None
    model._ints = result.ints if sat else None


def int_values(model: Model, ids: np.ndarray) -> np.ndarray | int:
    """The values of integers ``ids`` in the last solution (answer integers only)."""
    if model._values is None:
        raise ValueError("no solution yet: call solve() first")
    user = model.ints.user_ints()
    position = np.full(model.ints.count, -1, dtype=np.int64)
    position[user] = np.arange(len(user))
    where = position[np.asarray(ids)]
    if (where < 0).any() or model._ints is None:
        raise ValueError("only answer integers have values (make them with user=True)")
    out = model._ints[where]
    return int(out) if out.ndim == 0 else out
