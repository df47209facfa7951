"""Scheduling constraints (model/scheduling.py): random small task sets against brute
force on every back end that takes integers, and the job-shop ft06 at its published
optimum, a makespan of 55 (Fisher and Thompson, 1963)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from smtpuzzle import Cumulative, Model, NoOverlap

BACKENDS = ["sat", "cpsat", "z3"]

FT06 = """2 1 0 3 1 6 3 7 5 3 4 6
1 8 2 5 4 10 5 10 0 10 3 4
2 5 3 4 5 8 0 9 1 1 4 7
1 5 0 5 2 5 3 3 4 8 5 9
2 9 1 3 4 5 5 4 0 3 3 1
1 3 3 3 5 9 0 10 4 4 2 1"""  # per job, (machine, duration) in order


def _usage_ok(starts, durations, demands, present, capacity) -> bool:
    end = max(s + d for s, d in zip(starts, durations, strict=True)) + 1
    return all(sum(q for s, d, q, p in zip(starts, durations, demands, present, strict=True)
                   if p and s <= t < s + d) <= capacity for t in range(end))


@pytest.mark.parametrize("backend", ["sat", "cpsat", pytest.param("z3", marks=pytest.mark.slow)])
def test_random_task_sets_agree_with_a_brute_force(backend):
    rng = np.random.default_rng(3)
    for case in range(12):
        n = 3
        durations = rng.integers(0, 3, size=n).tolist()
        demands = rng.integers(1, 3, size=n).tolist()
        capacity = int(rng.integers(1, 4))
        optional = bool(rng.integers(2))
        m = Model()
        s = m.int_array(n, 0, 3, name="start")
        p = m.bool_array(n, name="present") if optional else None
        kind = ("no-overlap", "cumulative")[case % 2]
        m.add(NoOverlap(s, durations, p) if kind == "no-overlap"
              else Cumulative(s, durations, demands, capacity, p))
        presences = list(itertools.product([0, 1], repeat=n)) if optional else [(1,) * n]
        want = 0
        for starts in itertools.product(range(4), repeat=n):
            for present in presences:
                if kind == "no-overlap":
                    want += _usage_ok(starts, durations, [1] * n, present, 1)
                else:
                    want += _usage_ok(starts, durations, demands, present, capacity)
        assert m.count(backend) == (want, True), (case, kind, durations, demands, capacity)


@pytest.mark.parametrize("backend", BACKENDS)
def test_durations_may_be_variables(backend):
    for kind in ("no-overlap", "cumulative"):
        m = Model()
        s = m.int_array(2, 0, 2, name="start")
        d = m.int_array(2, 0, 2, name="duration")
        m.add(NoOverlap(s, d) if kind == "no-overlap" else Cumulative(s, d, [2, 1], 2))
        want = sum(_usage_ok(starts, durations, [1, 1] if kind == "no-overlap" else [2, 1],
                             (1, 1), 1 if kind == "no-overlap" else 2)
                   for starts in itertools.product(range(3), repeat=2)
                   for durations in itertools.product(range(3), repeat=2))
        assert m.count(backend) == (want, True), kind


@pytest.mark.parametrize("backend", BACKENDS)
def test_job_shop_ft06_has_a_makespan_of_55(backend):
    jobs = np.array([[int(v) for v in line.split()] for line in FT06.splitlines()])
    machine, duration = jobs[:, 0::2], jobs[:, 1::2]
    horizon = int(duration.sum())
    m = Model("ft06")
    start = m.int_array((6, 6), 0, horizon, name="start")
    m.add(start[:, 1:] >= start[:, :-1] + duration[:, :-1])  # each job's steps in order
    for k in range(6):
        m.add(NoOverlap(start[machine == k], duration[machine == k]))
    makespan = m.int_array(1, 0, horizon, name="makespan")
    m.add(makespan[0] >= start[:, -1] + duration[:, -1])
    m.minimize(makespan[0])
    assert m.solve(backend, time_limit=120) == "optimal" and makespan.value().tolist() == [55]
    # the schedule found keeps every machine to one step at a time
    s = start.value()
    for k in range(6):
        spans = sorted(zip(s[machine == k].tolist(), (s + duration)[machine == k].tolist(),
                           strict=True))
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
