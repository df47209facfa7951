"""An optimum on a back end that only decides (sat; cpsat past 2^53): binary search on the
objective's bound. Solve; demand an objective halfway between the best found and the least
not yet ruled out; solve again, until the two meet (the best found is optimal) or the time
runs out (it is the best found).

Where the back end's sessions bound an answer integer by an assumed literal
(``Capabilities.bounds``), the search runs in one session on an integer equal to the
objective, each bound a few clauses and an assumption; else each bound is a linear row and
each solve a new build."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from smtpuzzle.result import Result, Stats, Status

if TYPE_CHECKING:
    from smtpuzzle.backends.base import Backend
    from smtpuzzle.model import Model


def search_optimum(engine: Backend, model: Model, time_limit: float | None) -> Result:
    """The best solution of ``model`` that ``engine`` finds by bisection (see the module
    docstring)."""
    low, high = model.ints.objective_range()
    if engine.capabilities.bounds and max(abs(low), abs(high)) <= LIMIT:
        work = _with_objective_integer(model, low, high)
        if work is not None:
            return _in_one_session(engine, model, work, time_limit, low)
    return _by_rebuilding(engine, model, time_limit, low)


LIMIT = 2**53  # an integer's bounds in the modelling API
# A bisection probe undecided after PROBE_S seconds makes way for one nearer the best found
# (halfway there, down to one better than it, whose time then doubles): a probe far below
# the optimum can be a long proof, while solutions just better than the best come quickly
# (a 50-item knapsack on the sat back end: 832 of the optimum 1,569 in 60 s with plain
# bisection, which spent the minute on one probe).
PROBE_S = 1.0


def _with_objective_integer(model: Model, low: int, high: int) -> Model | None:
    """A copy without the objective, with an answer integer (the last) equal to it; None
    where the row "z == objective" would pass 64-bit arithmetic (the objective alone fits,
    and so the rebuilding search takes it)."""
    from smtpuzzle.model.expr import LinExpr

    obj = model.ints.objective
    assert obj is not None
    work = model.copy()
    work.ints.objective = None
    z = work.int_array((), low, high, name="objective")
    try:
        work.add(z == LinExpr(obj.ints, obj.icoef, obj.bools, obj.bcoef,
                              np.asarray(obj.constant)))
    except ValueError:  # the row's terms can reach 2**62
        return None
    return work


def _in_one_session(engine: Backend, model: Model, work: Model, time_limit: float | None,
                    low: int) -> Result:
    """The bisection in one session on ``work``, whose last answer integer equals the
    objective."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    n_ints, n_bools = len(model.ints.user_ints()), len(model.user_vars)

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.perf_counter(), 0.0)

    opened = engine.open_in_time(work, deadline)
    if isinstance(opened, Result):  # out of time before the solver had the model
        return opened
    with opened as session:
        status = session._timed(lambda: session.first(left()), deadline)
        if status is not Status.SAT:
            return Result(status, None, session.stats)
        found = session._answer()
        best = int(found.ints[-1])
        step = PROBE_S  # a probe's time before it gives way to a nearer one
        mid = (low + best - 1) // 2
        while low < best:
            bound = session.at_most(n_ints, mid)
            rest = left()
            slice_ = step if rest is None else min(step, rest)
            status = session._timed(lambda b=bound, t=slice_: session.check([b], t), deadline)
            if status is Status.SAT:
                found = session._answer()
                best = int(found.ints[-1])
            elif status is Status.UNSAT:
                low = mid + 1
                # nothing at or below mid: kept as a clause (for a wide objective, "z >
                # mid"; for a narrow one only "not this bound", which costs nothing)
                session.add_clauses([[-bound]])
            elif rest is not None and rest <= slice_:
                break  # out of time: the best found
            elif mid < best - 1:  # undecided far down: ask for less, nearer the best
                mid = (mid + best) // 2
                continue
            else:  # undecided one below the best: give the next probe longer
                step *= 2
                continue
            mid = (low + best - 1) // 2
        ints = found.ints[:n_ints] if n_ints else None
        return Result(Status.SAT, np.asarray(found.values)[:n_bools], session.stats, ints,
                      optimal=low >= best)


def _by_rebuilding(engine: Backend, model: Model, time_limit: float | None,
                   low: int) -> Result:
    """The best solution of ``model`` that ``engine`` finds by bisection on the
    objective's bound (no solution is below ``low``), on the model's own answer variables;
    ``optimal`` when no better one exists. The bound is a linear row over the objective's
    own terms (no integer spans the objective's range, which may be 10^18 wide), whose
    variables are read as extra answers and dropped from the result."""
    from smtpuzzle.model import Groups
    from smtpuzzle.model.ints import LE, LinearRows

    obj = model.ints.objective
    assert obj is not None
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    work = model.copy()
    work.ints.objective = None
    # The objective's integers and booleans that are not answers become answers of the
    # copy, after the model's own, so that each solution's objective can be read.
    n_ints, n_bools = len(model.ints.user_ints()), len(model.user_vars)
    more_ints = np.setdiff1d(np.unique(obj.ints), model.ints.user_ints())
    if len(more_ints):
        work.ints.user.append(more_ints)
    more_bools = np.setdiff1d(np.unique(np.abs(obj.bools)), model.user_vars)
    if len(more_bools):
        work._user_vars.append(more_bools)
        work._user_names.append([f"objective-term-{v}" for v in more_bools.tolist()])
    int_at = {k: i for i, k in enumerate(work.ints.user_ints().tolist())}
    bool_at = {v: i for i, v in enumerate(work.user_vars.tolist())}
    i_pos = np.array([int_at[k] for k in obj.ints.tolist()], dtype=np.int64)
    b_pos = np.array([bool_at[abs(v)] for v in obj.bools.tolist()], dtype=np.int64)

    def value_of(result: Result) -> int:
        ints = np.zeros(0, dtype=np.int64) if result.ints is None else result.ints
        lits = np.asarray(result.values, dtype=bool)[b_pos] == (obj.bools > 0)
        return int(obj.constant) + sum(int(c) * int(v) for c, v in
                                       zip(obj.icoef.tolist(), ints[i_pos].tolist(),
                                           strict=True)) \
            + int(obj.bcoef[lits].sum())

    def at_most(bound: int) -> Model:
        trial = work.copy()
        trial.ints.linear.append(LinearRows(
            Groups.of(obj.ints[None]), obj.icoef.copy(), Groups.of(obj.bools[None]),
            obj.bcoef.copy(), np.array([LE]), np.array([bound - int(obj.constant)]),
            np.zeros(1, dtype=np.int64)))
        return trial

    stats = Stats(engine.label())
    found: Result | None = None
    best = None  # the best objective found
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
            trial = at_most(mid)
        result = engine.solve(trial, left)
        for key in ("build_time", "solve_time"):
            setattr(stats, key, getattr(stats, key) + getattr(result.stats, key))
        stats.variables, stats.constraints = result.stats.variables, result.stats.constraints
        status = result.status
        if status is Status.SAT:
            found = result
            best = value_of(result)
        elif status is Status.UNSAT and best is not None:
            low = mid + 1
        else:
            break  # no solution at all, or out of time
    if found is None:  # unsat, or no solution before the time limit
        return Result(status, None, stats)
    ints = None if found.ints is None or not n_ints else found.ints[:n_ints]
    return Result(Status.SAT, np.asarray(found.values)[:n_bools], stats, ints,
                  optimal=best is not None and low >= best)
