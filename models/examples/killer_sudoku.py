"""A Killer Sudoku: a Sudoku without givens whose cages (cells with the same letter) each
hold different digits adding up to the cage's sum. Made by this tool (cages cut at random
from a full grid until the solution was unique); public domain.

    python models/examples/killer_sudoku.py [cpsat|z3|sat]
"""

import sys

import numpy as np

from smtpuzzle import AllDifferent, Model

CAGES = """aaabcccdd
eafgghijk
eeflhhiim
noflppiqm
norspptuu
norsvvvwx
yozsABvww
yCzDABEEE
yCCDFBGEH"""
SUMS = dict(a=27, b=6, c=18, d=3, e=12, f=12, g=6, h=17, i=19, j=8, k=7, l=12, m=7, n=18,
            o=19, p=14, q=2, r=8, s=13, t=8, u=13, v=24, w=15, x=5, y=13, z=10, A=8, B=18,
            C=16, D=9, E=27, F=6, G=4, H=1)

cage = np.array([list(row) for row in CAGES.splitlines()])
m = Model("killer")
x = m.int_array((9, 9), 1, 9, name="cell")
boxes = x.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)
m.add(AllDifferent(x, axis=1), AllDifferent(x, axis=0), AllDifferent(boxes, axis=1))
for letter, total in SUMS.items():
    cells = x[cage == letter]
    m.add(cells.sum() == total, AllDifferent(cells))

backend = sys.argv[1] if len(sys.argv) > 1 else "cpsat"
print(m.uniqueness(backend))  # unique
m.solve(backend)
grid = x.value()
print("\n".join(" ".join(map(str, row)) for row in grid))
digits = np.arange(1, 10)  # the rules, checked on the grid apart from the model
assert all((np.sort(line) == digits).all() for line in [*grid, *grid.T,
                                                         *grid.reshape(3, 3, 3, 3)
                                                         .transpose(0, 2, 1, 3).reshape(9, 9)])
assert all(grid[cage == k].sum() == t and len(set(grid[cage == k])) == (cage == k).sum()
           for k, t in SUMS.items())
