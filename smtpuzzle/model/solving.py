"""Solving from the model: ``model.solve()``, ``solutions()``, ``count()``, and the values
that ``x.value()`` reads, on any back end by name.

The model names back ends only by their names and never imports them (they import it): the
layers point one way. ``smtpuzzle.backends`` hands its lookup to :func:`use_backends` when it
is imported; a model solved before anything imported it loads that package by name, as a
plug-in (``smtpuzzle`` itself stays light to import, so the command line's Ctrl-C guard is in
place before numpy and the solvers load).

Solutions are told apart on the answer (user) variables; an integer's answer is read from its
"x == v" literals. An objective is optimised by ``solve`` (natively where the back end can,
cpsat and z3, elsewhere by linear search: see backends/optimum.py); ``solutions`` and
``count`` range over every solution of the constraints. The model keeps the last answer a
back end gave (a Result) and nothing else of a search.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from smtpuzzle.result import Result, SolutionCount, Stats, Status
from smtpuzzle.runtime.checks import deadline_for, time_left

if TYPE_CHECKING:
    from smtpuzzle.model.core import Model

_lookup: Callable[[str, str | None], Any] | None = None

MADE_SINCE = "a variable made after the last search has no value yet: solve again"


def use_backends(lookup: Callable[[str, str | None], Any]) -> None:
    """Set how a back end is found by name (``smtpuzzle.backends.get_backend``)."""
    global _lookup
    _lookup = lookup


def _backend(name: str, solver: str | None, params: dict[str, Any] | None = None) -> Any:
    if _lookup is None:
        importlib.import_module("smtpuzzle.backends")  # calls use_backends
    assert _lookup is not None
    return _lookup(name, solver).set_params(params or {})


def solve(model: Model, backend: str, solver: str | None, time_limit: float | None,
          params: dict[str, Any] | None = None) -> Status:
    result = _backend(backend, solver, params).solve(model, time_limit)
    keep(model, result)
    return Status.OPTIMAL if result.optimal else result.status


def solutions(model: Model, limit: int | None, backend: str, solver: str | None,
              time_limit: float | None, params: dict[str, Any] | None = None
              ) -> Iterator[Model]:
    enum = _backend(backend, solver, params).solutions(model, limit=limit, time_limit=time_limit)
    found = False
    for r in enum:
        found = True
        keep(model, r)
        yield model
    if not found:
        _none(model, enum.complete)


def count(model: Model, backend: str, solver: str | None, time_limit: float | None,
          limit: int | None = None, params: dict[str, Any] | None = None) -> SolutionCount:
    enum = _backend(backend, solver, params).solutions(model, limit=limit, time_limit=time_limit)
    n = 0
    for r in enum:
        n += 1
        keep(model, r)
    if n == 0:
        _none(model, enum.complete)
    return SolutionCount(n, enum.complete)


def take(model: Model, result: Any) -> None:
    """Make ``result`` (a back end's answer on ``model``) the one ``x.value()`` reads,
    refusing another model's."""
    if not isinstance(result, Result):
        raise TypeError(f"take() takes a back end's Result, got {type(result).__name__}")
    ints = 0 if result.ints is None else len(result.ints)
    if result.values is not None and (len(result.values) != len(model.user_vars)
                                      or ints != len(model.ints.user_ints())):
        raise ValueError(f"the result answers {len(result.values)} variables, not this "
                         f"model's {len(model.user_vars)}: it is another model's")
    keep(model, result)


def _none(model: Model, complete: bool) -> None:
    """No solution found: none is left to read from an earlier search."""
    keep(model, Result(Status.UNSAT if complete else Status.UNKNOWN, None, Stats("")))


def keep(model: Model, result: Result) -> None:
    """The result's answer, for ``x.value()``."""
    model._answer = result


def _solution(model: Model) -> Result:
    """The last answer, when it has a solution to read; why not otherwise."""
    answer = model._answer
    if answer is None:
        raise ValueError("no solution yet: call solve() first")
    if answer.status is not Status.SAT or answer.values is None:
        raise ValueError(f"the last search found no solution ({answer.status}): no values")
    return answer


def bool_values(model: Model, lits: np.ndarray) -> Any:
    """The values of literals ``lits`` in the last solution (answer variables only)."""
    values = _solution(model).values
    position = np.full(model.num_vars + 1, -1, dtype=np.int64)
    position[model.user_vars] = np.arange(len(model.user_vars))
    where = position[np.abs(lits)]
    if (where < 0).any():
        raise ValueError("only answer (user) variables have values")
    if (where >= len(values)).any():
        raise ValueError(MADE_SINCE)
    out = values[where] == (lits > 0)
    return bool(out) if out.ndim == 0 else out


def int_values(model: Model, ids: np.ndarray) -> np.ndarray | int:
    """The values of integers ``ids`` in the last solution (answer integers only)."""
    ints = _solution(model).ints
    ids = np.asarray(ids)
    if ids.size == 0:  # nothing to read, whatever answer integers the model has
        return np.zeros(ids.shape, dtype=np.int64)
    user = model.ints.user_ints()
    position = np.full(model.ints.count, -1, dtype=np.int64)
    position[user] = np.arange(len(user))
    where = position[ids]
    if (where < 0).any() or ints is None:
        raise ValueError("only answer integers have values (make them with user=True)")
    if (where >= len(ints)).any():
        raise ValueError(MADE_SINCE)
    out = ints[where]
    return int(out) if out.ndim == 0 else out


def determined(model: Model, x: Any, backend: str, solver: str | None,
               time_limit: float | None) -> np.ndarray:
    """For the answer variables ``x`` (a BoolArray or IntArray of ``model``): an object
    array shaped like ``x``, each entry the value every solution gives it, or None where
    two solutions differ (the backbone). One session decides it: a first solution names
    each variable's candidate value; then, while candidates are left, one check asks for a
    solution that contradicts any of them (none: they are all forced; one: the candidates
    it contradicts are dropped). A unique puzzle takes two checks. The objective plays no
    part."""
    from smtpuzzle.model.expr import BoolArray, IntArray

    if not isinstance(x, BoolArray | IntArray) or x.model is not model:
        raise TypeError("determined() takes a BoolArray or IntArray of this model")
    deadline = deadline_for(time_limit)
    engine = _backend(backend, solver)
    work = model.copy()
    work.ints.objective = None  # the backbone of the constraints, whatever is optimised
    first = engine.solve(work, time_left(deadline))
    if first.status is Status.UNSAT:
        raise ValueError("the model has no solution: every value is forced, none is shown")
    if first.status is not Status.SAT:
        raise TimeoutError("no solution was found in the time given: nothing is determined")
    ids = x.ids.reshape(-1)
    if isinstance(x, BoolArray):
        where = _positions(model.user_vars, np.abs(ids), "answer (user) variables")
        value = first.values[where] == (ids > 0)
        candidates = np.where(value, ids, -ids)  # the literal each solution may keep
    else:
        where = _positions(model.ints.user_ints(), ids, "answer integers (user=True)")
        value = first.ints[where]
        candidates = work.eq_literals(ids, value)  # "x == its first value"
    session = engine.open(work)
    alive = np.ones(len(ids), dtype=bool)  # candidates no solution has contradicted yet
    try:
        # Ask at once whether a solution differs from the candidates anywhere left: none
        # does (unsat), and every candidate left is forced; one does, and each candidate
        # it contradicts is dropped. A selector literal asks it; once answered, the
        # selector is set false, which retires the clause.
        while alive.any():
            selector = int(session.new_vars(1)[0])
            session.add_clauses([np.concatenate([[-selector], -candidates[alive]])])
            status = session.check([selector], time_left(deadline))
            session.add_units([-selector])
            if status is Status.UNSAT:
                break
            if status is not Status.SAT:
                raise TimeoutError(f"the time ran out with {int(alive.sum())} of the "
                                   "variables still undecided")
            if isinstance(x, BoolArray):
                now = session.values()[where] == (ids > 0)
            else:
                now = session.int_values()[where]
            alive &= now == value
    finally:
        session.close()
    out = np.full(len(ids), None, dtype=object)  # what is still alive is forced
    out[alive] = [bool(v) if isinstance(x, BoolArray) else int(v) for v in value[alive]]
    return out.reshape(x.shape)


def _positions(answers: np.ndarray, ids: np.ndarray, what: str) -> np.ndarray:
    position = np.full(int(max(answers.max(initial=0), ids.max(initial=0))) + 1, -1,
                       dtype=np.int64)
    position[answers] = np.arange(len(answers))
    where = position[ids]
    if (where < 0).any():
        raise ValueError(f"determined() reads {what} only")
    return where


def explain(model: Model, backend: str, solver: str | None,
            time_limit: float | None) -> list[str]:
    """A minimal set of ``model``'s named groups with no solution (Model.explain): each
    group in turn is dropped for good where the rest still have none (deletion), so every
    group kept is needed. One solve a group, on a model without the groups left out."""
    names = list(model._named)
    if not names:
        raise ValueError("explain() names groups of constraints: post them with "
                         "m.add(..., name=...)")
    deadline = deadline_for(time_limit)
    engine = _backend(backend, solver)

    def solvable(kept: list[str]) -> bool:
        sub = model.without([n for n in names if n not in kept])
        sub.ints.objective = None
        status = engine.solve(sub, time_left(deadline)).status
        if status is Status.UNKNOWN:
            raise TimeoutError("the time ran out before a minimal conflicting set was found")
        return status is Status.SAT

    if solvable(names):
        raise ValueError("the model has a solution: nothing to explain")
    if not solvable([]):
        return []  # the unnamed constraints have no solution on their own
    kept = names
    for name in names:
        trial = [k for k in kept if k != name]
        if not solvable(trial):
            kept = trial
    return kept
