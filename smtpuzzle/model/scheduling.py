"""Scheduling constraints: ``NoOverlap`` (tasks on one machine, one at a time) and
``Cumulative`` (tasks sharing a resource of limited capacity), over :class:`Intervals`.

A task is an interval: a start (an integer variable), a size (its duration: a whole number
or an integer, 0 or more) and, for an optional task, a presence literal; it runs from its
start up to, not including, its end (start + size), so a task of size 0 runs at no moment
and overlaps nothing. An absent task takes no part.

Both constraints are kept as records (the kind "scheduling" in model/kinds.py), which
CP-SAT takes as its interval constraints; for the other back ends each one's ``decompose``
posts its decomposition:

- NoOverlap: for each pair of present tasks that take time, one ends before the other
  starts;
- Cumulative (task-based): the usage peaks when some task starts, so at each present task's
  start, the demands of the tasks running then (started no later, not yet ended) plus its
  own stay within the capacity.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from smtpuzzle.model.core import Model
from smtpuzzle.model.expr import BoolArray, IntArray, LinExpr, _Global, whole

_I = np.int64
KIND = "scheduling"  # Model.parts[KIND]: NoOverlap and Cumulative constraints


class Intervals:
    """Tasks, one per element of ``starts`` (integers): each of size ``sizes`` (whole numbers,
    or integers, 0 or more) and, when ``present`` (literals) is given, there only where its
    literal is true. ``end`` is start + size."""

    def __init__(self, starts: IntArray, sizes: Any, present: BoolArray | None = None,
                 what: str = "Intervals") -> None:
        if not isinstance(starts, IntArray):
            raise TypeError(f"{what}'s starts are integer variables (an IntArray), got "
                            f"{type(starts).__name__}")
        self.model = starts.model
        self.starts = IntArray(starts.model, starts.ids.reshape(-1))
        n = self.starts.size
        self.sizes = _per_task(sizes, n, f"{what}'s durations")
        if present is not None and not isinstance(present, BoolArray):
            raise TypeError(f"{what}'s presences are literals (a BoolArray), got "
                            f"{type(present).__name__}")
        if present is not None and present.size != n:
            raise ValueError(f"{what}: {present.size} presences for {n} tasks")
        self.present = None if present is None else BoolArray(present.model,
                                                               present.ids.reshape(-1))

    def __len__(self) -> int:
        return self.starts.size

    @property
    def end(self) -> LinExpr:
        return self.starts + self.sizes

    @property
    def variable(self) -> bool:
        """Whether the sizes are variables."""
        return isinstance(self.sizes, IntArray)

    def on(self, model: Model) -> Intervals:
        """The same tasks, their helper variables made in ``model`` (a copy)."""
        out = copy.copy(self)
        out.model = model
        out.starts = self.starts.on(model)
        out.sizes = self.sizes.on(model) if self.variable else self.sizes
        out.present = None if self.present is None else self.present.on(model)
        return out

    def _end(self, k: Any) -> Any:
        return self.starts[k] + self.sizes[k]


def _per_task(x: Any, n: int, what: str) -> Any:
    """Durations or demands: integer variables (one per task), or whole numbers (one, or
    one per task), each 0 or more."""
    if isinstance(x, IntArray):
        if x.size != n:
            raise ValueError(f"{what}: {x.size} for {n} tasks")
        x = IntArray(x.model, x.ids.reshape(-1))
        low = x.model.ints.bounds()[0][x.ids] if x.size else np.zeros(0, _I)
        if (low < 0).any():
            k = int(np.argmax(low < 0))
            raise ValueError(f"{what} are 0 or more: variable {k} can be {int(low[k])} "
                             "(bound it below by 0)")
        return x
    values = np.broadcast_to(whole(x, what), (n,)).copy()
    if (values < 0).any():
        raise ValueError(f"{what} are 0 or more, got {int(values.min())}")
    return values


def _tasks(starts: Any, durations: Any, present: Any, what: str) -> Intervals:
    if isinstance(starts, Intervals):
        if durations is not None or present is not None:
            raise TypeError(f"{what} of Intervals takes no durations or presences apart")
        return starts
    if durations is None:
        raise TypeError(f"{what} takes starts and durations, or Intervals")
    return Intervals(starts, durations, present, what)


class NoOverlap(_Global):
    """The present tasks (``starts``, ``durations``, or one :class:`Intervals`) never run at
    the same time."""

    def __init__(self, starts: IntArray | Intervals, durations: Any = None,
                 present: BoolArray | None = None) -> None:
        self.tasks = _tasks(starts, durations, present, "NoOverlap")
        self.model = self.tasks.model

    def __len__(self) -> int:
        return 1

    def post(self, model: Any) -> None:
        model.parts.setdefault(KIND, []).append(self)

    def decompose(self, model: Model) -> None:
        t = self.tasks.on(model)
        i, j = np.triu_indices(len(t), 1)
        if not t.variable:  # a task of no time never overlaps
            keep = (t.sizes[i] > 0) & (t.sizes[j] > 0)
            i, j = i[keep], j[keep]
        if not len(i):
            return
        # per pair: i ends before j starts, or j before i, or one of them is absent or of
        # no time (a variable duration of 0)
        first = model.bool_array(len(i), name="before", user=False)
        second = model.bool_array(len(i), name="after", user=False)
        model.add(first.implies(t._end(i) <= t.starts[j]),
                  second.implies(t._end(j) <= t.starts[i]))
        either = [first.ids, second.ids]
        if t.present is not None:
            either += [-t.present.ids[i], -t.present.ids[j]]
        if t.variable:
            either += [(t.sizes[i] <= 0).reified().ids, (t.sizes[j] <= 0).reified().ids]
        model.add_clauses(np.stack(either, axis=1))


class Cumulative(_Global):
    """At every moment, the demands of the present tasks running then add up to at most
    ``capacity`` (a whole number or an integer)."""

    def __init__(self, starts: IntArray | Intervals, durations: Any = None,
                 demands: Any = None, capacity: Any = None,
                 present: BoolArray | None = None) -> None:
        if isinstance(starts, Intervals) and capacity is None:  # Cumulative(tasks, d, c)
            durations, demands, capacity = None, durations, demands
        self.tasks = _tasks(starts, durations, present, "Cumulative")
        self.model = self.tasks.model
        if demands is None or capacity is None:
            raise TypeError("Cumulative takes demands and a capacity")
        self.demands = _per_task(demands, len(self.tasks), "Cumulative's demands")
        self.capacity = capacity if isinstance(capacity, IntArray) else \
            int(whole(capacity, "Cumulative's capacity"))

    def __len__(self) -> int:
        return 1

    def post(self, model: Any) -> None:
        model.parts.setdefault(KIND, []).append(self)

    def decompose(self, model: Model) -> None:
        t = self.tasks.on(model)
        n = len(t)
        if not n:
            return
        demands = self.demands.on(model) if isinstance(self.demands, IntArray) \
            else self.demands
        capacity = self.capacity.on(model) if isinstance(self.capacity, IntArray) \
            else self.capacity
        # running[j, i]: task i runs when task j starts (i started no later, not yet ended)
        j, i = np.nonzero(~np.eye(n, dtype=bool))
        running = (t.starts[i] <= t.starts[j]).reified() & (t.starts[j] < t._end(i)).reified()
        if t.present is not None:
            running = running & t.present[i]
        for k in range(n):  # the usage as task k starts, its own demand included
            if not t.variable and t.sizes[k] == 0:
                continue  # a task of no time starts no usage
            others = running[j == k]
            row = (others * demands[i[j == k]]).sum() + demands[k] <= capacity
            when = [] if t.present is None else [t.present[k]]
            if t.variable:
                when.append((t.sizes[k] >= 1).reified())
            for literal in when[:-1]:  # several conditions: their conjunction
                when[-1] = when[-1] & literal
            model.add(when[-1].implies(row) if when else row)
