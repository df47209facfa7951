"""An optimum on a back end that only decides (sat, exact cover): binary search on the
objective's bound. Solve; demand an objective halfway between the best found and the least
not yet ruled out; solve again, until the two meet (the best found is optimal) or the time
runs out (it is the best found)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from smtpuzzle.result import Result, Stats, Status

if TYPE_CHECKING:
    from smtpuzzle.backends.base import Backend
    from smtpuzzle.model import Model


def search_optimum(engine: Backend, model: Model, time_limit: float | None) -> Result:
    """The best solution of ``model`` that ``engine`` finds by linear search, on the
    model's own answer variables; ``optimal`` when no better one exists."""
    from smtpuzzle.model.expr import LinExpr
    from smtpuzzle.model.solving import int_values

    obj = model.ints.objective
    assert obj is not None
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    lo, hi = model.ints.bounds()
    at_lo, at_hi = obj.icoef * lo[obj.ints], obj.icoef * hi[obj.ints]
    bound_lo = int(obj.constant + np.minimum(at_lo, at_hi).sum() + np.minimum(obj.bcoef, 0).sum())
    bound_hi = int(obj.constant + np.maximum(at_lo, at_hi).sum() + np.maximum(obj.bcoef, 0).sum())
    work = model.copy()
    work.ints.objective = None
    # An answer integer of the copy, after the model's own: read, then cut off the answer.
    z = work.int_array((), bound_lo, bound_hi, name="objective")
    work.add(z == LinExpr(obj.ints, obj.icoef, obj.bools, obj.bcoef, np.asarray(obj.constant)))
    n_ints = len(model.ints.user_ints())
    stats = Stats(engine.label())
    found: Result | None = None
    best, low = None, bound_lo  # the best objective found; no solution is below low
    status = Status.UNKNOWN
    while best is None or low < best:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            break
        # bisect between what is proved impossible and the best found: a few dozen solves
        # for any range, not one per value the objective improves by
        trial = work
        if best is not None:
            mid = (low + best - 1) // 2
            trial = work.copy()
            trial.add(z <= mid)
        result = engine.solve(trial, left)
        for key in ("build_time", "solve_time"):
            setattr(stats, key, getattr(stats, key) + getattr(result.stats, key))
        stats.variables, stats.constraints = result.stats.variables, result.stats.constraints
        status = result.status
        if status is Status.SAT:
            found = result
            trial.take(result)
            best = int(int_values(trial, z.ids))
        elif status is Status.UNSAT and best is not None:
            low = mid + 1
        else:
            break  # no solution at all, or out of time
    if found is None:  # unsat, or no solution before the time limit
        return Result(status, None, stats)
    ints = None if found.ints is None else found.ints[:n_ints]
    return Result(Status.SAT, found.values, stats, ints, optimal=best is not None and low >= best)
