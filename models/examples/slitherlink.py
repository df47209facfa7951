"""A Slitherlink: draw one closed loop along the grid lines so that each number counts the
loop's sides around its cell. The loop is a SingleCycle on the segments of the grid's
lattice graph; cell_edges names each cell's four sides. Made by this tool (a random loop,
clues taken away while the solution stayed unique); public domain.

    python models/examples/slitherlink.py [cpsat|z3|sat]
"""

import sys

import numpy as np

from smtpuzzle import Model, SingleCycle, cell_edges, lattice_graph

PUZZLE = """.2222.
.1..23
22..12
.1..2.
.3....
3.1..."""

rows = PUZZLE.splitlines()
R, C = len(rows), len(rows[0])
graph = lattice_graph(R, C)
sides = cell_edges(R, C)  # (R, C, 4): top, bottom, left, right
m = Model("slitherlink")
segment = m.bool_array(len(graph.edges), name="segment")
m.add(SingleCycle(segment, graph))
for r, c in ((r, c) for r in range(R) for c in range(C) if rows[r][c] != "."):
    m.add(segment[sides[r, c]].sum() == int(rows[r][c]))

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"
print(m.uniqueness(backend))  # unique
m.solve(backend)
on = segment.value()
across, down = on[:(R + 1) * C].reshape(R + 1, C), on[(R + 1) * C:].reshape(R, C + 1)
for r in range(R + 1):  # the loop drawn: + corners, - and | the segments on it
    print("+" + "+".join("-" if a else " " for a in across[r]) + "+")
    if r < R:
        print("".join(("|" if down[r, c] else " ") + (rows[r][c] if c < C else "")
                      for c in range(C + 1)).replace(".", " "))
# the rules, checked on the segments apart from the model: clues, degrees, one loop
assert all(on[sides[r, c]].sum() == int(rows[r][c])
           for r in range(R) for c in range(C) if rows[r][c] != ".")
ends = graph.edges[on]
degree = np.bincount(ends.ravel(), minlength=graph.n)
assert set(degree.tolist()) <= {0, 2}
seen, todo = set(), [int(ends[0, 0])]
while todo:
    v = todo.pop()
    if v not in seen:
        seen.add(v)
        todo += [int(w) for a, b in ends for w in (a, b) if v in (a, b) and w != v]
assert seen == set(np.flatnonzero(degree).tolist())
