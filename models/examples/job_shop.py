"""Job-shop scheduling: Fisher and Thompson's ft06 (six jobs of six steps on six machines),
whose least makespan is 55. Each job's steps run in order; each machine runs one step at a
time (NoOverlap: CP-SAT's interval constraint, a decomposition on the other back ends).

    python models/examples/job_shop.py [cpsat|z3|sat]
"""

import sys

import numpy as np

from smtpuzzle import Model, NoOverlap

FT06 = """2 1 0 3 1 6 3 7 5 3 4 6
1 8 2 5 4 10 5 10 0 10 3 4
2 5 3 4 5 8 0 9 1 1 4 7
1 5 0 5 2 5 3 3 4 8 5 9
2 9 1 3 4 5 5 4 0 3 3 1
1 3 3 3 5 9 0 10 4 4 2 1"""  # per job, (machine, duration) for each step in order

jobs = np.array([[int(v) for v in line.split()] for line in FT06.splitlines()])
machine, duration = jobs[:, 0::2], jobs[:, 1::2]
horizon = int(duration.sum())

m = Model("ft06")
start = m.int_array(machine.shape, 0, horizon, name="start")
end = start + duration
m.add(start[:, 1:] >= end[:, :-1])  # each job's steps in order
for k in range(machine.max() + 1):
    m.add(NoOverlap(start[machine == k], duration[machine == k]))
m.minimize(end[:, -1].max())  # the makespan: the last step to end

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"
print(m.solve(backend), "makespan", m.objective_value())
s = start.value()
for k in range(machine.max() + 1):  # each machine's steps, checked apart from the model
    spans = sorted(zip(s[machine == k], (s + duration)[machine == k], strict=True))
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
assert (s[:, 1:] >= (s + duration)[:, :-1]).all()
