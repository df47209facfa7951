"""Scheduling constraints: ``NoOverlap`` (tasks on one machine, one at a time) and
``Cumulative`` (tasks sharing a resource of limited capacity). A task is a start (an
integer variable), a duration and, for Cumulative, a demand (whole numbers, or integers);
an optional task counts only where its presence literal is true.

Both are posted as decompositions every back end takes:

- NoOverlap: for each pair of present tasks that take time, one ends before the other
  starts (a task of no time runs at no moment, so it overlaps nothing);
- Cumulative (task-based): the usage peaks when some task starts, so at each present task's
  start, the demands of the tasks running then (started no later, not yet ended) plus its
  own stay within the capacity.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smtpuzzle.model.expr import BoolArray, IntArray, _Global, whole

_I = np.int64


class _Tasks:
    """Starts, durations and presences, checked: one task per element of ``starts``."""

    def __init__(self, starts: IntArray, durations: Any, present: Any, what: str) -> None:
        if not isinstance(starts, IntArray):
            raise TypeError(f"{what}'s starts are integer variables (an IntArray), got "
                            f"{type(starts).__name__}")
        self.model = starts.model
        self.starts = IntArray(starts.model, starts.ids.reshape(-1))
        n = self.starts.size
        self.durations = _per_task(durations, n, f"{what}'s durations")
        if present is not None and not isinstance(present, BoolArray):
            raise TypeError(f"{what}'s presences are literals (a BoolArray), got "
                            f"{type(present).__name__}")
        if present is not None and present.size != n:
            raise ValueError(f"{what}: {present.size} presences for {n} tasks")
        self.present = None if present is None else BoolArray(present.model,
                                                               present.ids.reshape(-1))

    def _end(self, k: Any) -> Any:
        return self.starts[k] + self.durations[k]


def _per_task(x: Any, n: int, what: str) -> Any:
    """Durations or demands: integer variables (one per task), or whole numbers (one, or
    one per task, 0 or more) as an array."""
    if isinstance(x, IntArray):
        if x.size != n:
            raise ValueError(f"{what}: {x.size} for {n} tasks")
        return IntArray(x.model, x.ids.reshape(-1))
    values = np.broadcast_to(whole(x, what), (n,)).copy()
    if (values < 0).any():
        raise ValueError(f"{what} are 0 or more, got {int(values.min())}")
    return values


class NoOverlap(_Global):
    """The present tasks (``starts``, ``durations``) never run at the same time."""

    def __init__(self, starts: IntArray, durations: Any, present: BoolArray | None = None
                 ) -> None:
        self.tasks = _Tasks(starts, durations, present, "NoOverlap")
        self.model = self.tasks.model

    def post(self, model: Any) -> None:
        t = self.tasks
        i, j = np.triu_indices(t.starts.size, 1)
        if isinstance(t.durations, np.ndarray):  # a task of no time never overlaps
            keep = (t.durations[i] > 0) & (t.durations[j] > 0)
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
        if isinstance(t.durations, IntArray):
            either += [(t.durations[i] <= 0).reified().ids, (t.durations[j] <= 0).reified().ids]
        model.add_clauses(np.stack(either, axis=1))


class Cumulative(_Global):
    """At every moment, the demands of the present tasks running then add up to at most
    ``capacity`` (a whole number or an integer)."""

    def __init__(self, starts: IntArray, durations: Any, demands: Any, capacity: Any,
                 present: BoolArray | None = None) -> None:
        self.tasks = _Tasks(starts, durations, present, "Cumulative")
        self.model = self.tasks.model
        self.demands = _per_task(demands, self.tasks.starts.size, "Cumulative's demands")
        self.capacity = capacity if isinstance(capacity, IntArray) else \
            int(whole(capacity, "Cumulative's capacity"))

    def post(self, model: Any) -> None:
        t = self.tasks
        n = t.starts.size
        if not n:
            return
        # running[j, i]: task i runs when task j starts (i started no later, not yet ended)
        j, i = np.nonzero(~np.eye(n, dtype=bool))
        running = (t.starts[i] <= t.starts[j]).reified() & (t.starts[j] < t._end(i)).reified()
        if t.present is not None:
            running = running & t.present[i]
        variable = isinstance(t.durations, IntArray)
        for k in range(n):  # the usage as task k starts, its own demand included
            if not variable and t.durations[k] == 0:
                continue  # a task of no time starts no usage
            others = running[j == k]
            demand = self.demands[i[j == k]]
            row = (others * demand).sum() + self.demands[k] <= self.capacity
            when = [] if t.present is None else [t.present[k]]
            if variable:
                when.append((t.durations[k] >= 1).reified())
            for literal in when[:-1]:  # several conditions: their conjunction
                when[-1] = when[-1] & literal
            model.add(when[-1].implies(row) if when else row)
