"""A second nonogram solution near a first one: a cheap way to show "multiple".

Puzzles with several solutions often differ in one small patch: faase's solutions differ
in a 2 x 2 switch (two rows and two columns whose dots trade places). For each window of
the grid, the cells outside keep the first solution's values and the cells inside are
line-solved again; each cell left open is then set against the first solution and the
window completed by a small depth-first search with line solving at every node. Whatever
this finds differs from the first solution and satisfies every clue (the caller verifies
it). Finding nothing proves nothing: the global search goes on.
"""

from __future__ import annotations

import time

import numpy as np

from smtpuzzle.kernels import for_size
from smtpuzzle.puzzles.nonogram import linesolve
from smtpuzzle.puzzles.nonogram.puzzle import Nonogram, grid_array, grid_strings

WINDOW = 16  # cells a side; windows overlap by 12, so any patch up to 13 x 13 fits one
STRIDE = 4
NODES = 64  # search nodes per window


def _offsets(n: int, size: int) -> list[int]:
    """Window starts every STRIDE cells, the last window flush with the end."""
    return sorted({min(i, n - size) for i in range(0, n - size + STRIDE, STRIDE)})


def _dirty(grid: np.ndarray, r0: int, r1: int, c0: int, c1: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """Line-solving work list: the rows and columns that cross the box."""
    rows = np.zeros(grid.shape[0], np.bool_)
    cols = np.zeros(grid.shape[1], np.bool_)
    rows[r0:r1] = True
    cols[c0:c1] = True
    return rows, cols


def _complete(grid: np.ndarray, flat: np.ndarray, offs: np.ndarray, box: tuple[int, ...],
              budget: list[int]) -> np.ndarray | None:
    """A full grid extending ``grid`` (propagated, open cells only inside ``box``), or None
    when there is none or the node budget runs out."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    r0, r1, c0, c1 = box
    open_cells = np.argwhere(grid[r0:r1, c0:c1] == -1)
    if not len(open_cells):
        return grid
    r, c = open_cells[0] + (r0, c0)
    for v in (1, 0):
        ok, g = linesolve._try(grid, flat, offs, r, c, v)
        if ok:
            done = _complete(g, flat, offs, box, budget)
            if done is not None:
                return done
    return None


def nearby_solution(puzzle: Nonogram, solution: list[str],
                    deadline: float | None = None) -> list[str] | None:
    """Another solution that differs from ``solution`` only inside one window, if the
    windows show one before ``deadline``."""
    for_size(linesolve.__name__, puzzle.height * puzzle.width, linesolve.LARGEST_IN_PYTHON)
    first = grid_array(solution).astype(np.int8)
    flat, offs = linesolve.clue_arrays(puzzle)
    h, w = first.shape
    size_r, size_c = min(WINDOW, h), min(WINDOW, w)
    for r0 in _offsets(h, size_r):
        for c0 in _offsets(w, size_c):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            box = (r0, r0 + size_r, c0, c0 + size_c)
            g = first.copy()
            g[box[0]:box[1], box[2]:box[3]] = -1
            if not linesolve._propagate(g, flat, offs, *_dirty(g, *box)):
                continue  # cannot happen for a true solution; nothing to learn here
            for r, c in np.argwhere(g == -1):
                ok, flipped = linesolve._try(g, flat, offs, r, c, 1 - int(first[r, c]))
                if not ok:
                    continue
                done = _complete(flipped, flat, offs, box, [NODES])
                if done is not None:
                    return grid_strings(done == 1)
    return None
