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

if TYPE_CHECKING:
    from smtpuzzle.model.core import Model

_lookup: Callable[[str, str | None], Any] | None = None

MADE_SINCE = "a variable made after the last search has no value yet: solve again"


def use_backends(lookup: Callable[[str, str | None], Any]) -> None:
    """Set how a back end is found by name (``smtpuzzle.backends.get_backend``)."""
    global _lookup
    _lookup = lookup


def _backend(name: str, solver: str | None) -> Any:
    if _lookup is None:
        importlib.import_module("smtpuzzle.backends")  # calls use_backends
    assert _lookup is not None
    return _lookup(name, solver)


def solve(model: Model, backend: str, solver: str | None, time_limit: float | None) -> Status:
    result = _backend(backend, solver).solve(model, time_limit)
    keep(model, result)
    return Status.OPTIMAL if result.optimal else result.status


def solutions(model: Model, limit: int | None, backend: str, solver: str | None,
              time_limit: float | None) -> Iterator[Model]:
    enum = _backend(backend, solver).solutions(model, limit=limit, time_limit=time_limit)
    found = False
    for r in enum:
        found = True
        keep(model, r)
        yield model
    if not found:
        _none(model, enum.complete)


def count(model: Model, backend: str, solver: str | None, time_limit: float | None,
          limit: int | None = None) -> SolutionCount:
    enum = _backend(backend, solver).solutions(model, limit=limit, time_limit=time_limit)
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
