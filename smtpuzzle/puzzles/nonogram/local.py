"""A second nonogram solution near a first one: a cheap way to show "multiple".

Puzzles with several solutions often differ in one small patch: faase's solutions differ
in a 2 x 2 switch (two rows and two columns whose dots trade places). For each window of
the grid, the cells outside keep the first solution's values and the cells inside are
line-solved again; each cell left open is then set against the first solution and the
window completed by a small depth-first search with line solving at every node. Whatever
this finds differs from the first solution and satisfies every clue (the caller verifies
it). Finding nothing proves nothing: the global search goes on. Two-colour puzzles are
searched on the line solver's grid of -1/0/1, colour ones on its grid of colour sets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from smtpuzzle.kernels import for_size
from smtpuzzle.puzzles.nonogram import linesolve
from smtpuzzle.puzzles.nonogram.puzzle import UNKNOWN, Nonogram

WINDOW = 16  # cells a side; windows overlap by 12, so any patch up to 13 x 13 fits one
STRIDE = 4
NODES = 64  # search nodes per window


@dataclass
class _Lines:
    """The line solver on one kind of grid: ``open`` the value of a cell not yet known,
    ``choices`` the values a cell's entry still allows, ``colours`` the grid's colour
    indices (UNKNOWN where open), ``attempt`` sets a cell and propagates, ``propagate``
    settles the dirty lines in place."""

    open: int
    choices: Callable[[int], list[int]]
    colours: Callable[[np.ndarray], np.ndarray]
    attempt: Callable[[np.ndarray, int, int, int], tuple[bool, np.ndarray]]
    propagate: Callable[[np.ndarray, np.ndarray, np.ndarray], bool]

    @classmethod
    def of(cls, puzzle: Nonogram) -> _Lines:
        flat, offs = linesolve.clue_arrays(puzzle)
        if not puzzle.coloured:
            return cls(UNKNOWN, lambda v: [1, 0] if v == UNKNOWN else [v], lambda g: g,
                       lambda g, r, c, v: linesolve._try(g, flat, offs, r, c, v),
                       lambda g, rows, cols: linesolve._propagate(g, flat, offs, rows, cols))
        inks, gaps = linesolve.ink_arrays(puzzle)
        return cls((1 << len(puzzle.colours)) - 1,
                   lambda m: [1 << k for k in range(m.bit_length()) if m >> k & 1],
                   linesolve.colour_of,
                   lambda g, r, c, v: linesolve._try_masks(g, flat, inks, gaps, offs, r, c, v),
                   lambda g, rows, cols: linesolve._propagate_masks(g, flat, inks, gaps, offs,
                                                                    rows, cols))

    def grid(self, colours: np.ndarray) -> np.ndarray:
        """The line solver's grid of a grid of colour indices."""
        if self.open == UNKNOWN:
            return colours.astype(np.int8)
        return np.left_shift(1, colours.astype(np.int64))


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


def _complete(lines: _Lines, grid: np.ndarray, box: tuple[int, ...], budget: list[int]
              ) -> np.ndarray | None:
    """A full grid extending ``grid`` (propagated, open cells only inside ``box``), or None
    when there is none or the node budget runs out."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    r0, r1, c0, c1 = box
    open_cells = np.argwhere(lines.colours(grid[r0:r1, c0:c1]) == UNKNOWN)
    if not len(open_cells):
        return grid
    r, c = open_cells[0] + (r0, c0)
    for v in lines.choices(int(grid[r, c])):
        ok, g = lines.attempt(grid, r, c, v)
        if ok:
            done = _complete(lines, g, box, budget)
            if done is not None:
                return done
    return None


def nearby_solution(puzzle: Nonogram, solution: list[str],
                    deadline: float | None = None) -> list[str] | None:
    """Another solution that differs from ``solution`` only inside one window, if the
    windows show one before ``deadline``."""
    for_size(linesolve.__name__, puzzle.height * puzzle.width,
             linesolve.largest_in_python(puzzle))
    lines = _Lines.of(puzzle)
    first = lines.grid(puzzle.indices(solution))
    h, w = first.shape
    size_r, size_c = min(WINDOW, h), min(WINDOW, w)
    for r0 in _offsets(h, size_r):
        for c0 in _offsets(w, size_c):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            box = (r0, r0 + size_r, c0, c0 + size_c)
            g = first.copy()
            g[box[0]:box[1], box[2]:box[3]] = lines.open
            if not lines.propagate(g, *_dirty(g, *box)):
                continue  # cannot happen for a true solution; nothing to learn here
            for r, c in np.argwhere(lines.colours(g) == UNKNOWN):
                for v in lines.choices(int(g[r, c])):
                    if v == first[r, c]:
                        continue
                    ok, flipped = lines.attempt(g, r, c, v)
                    if not ok:
                        continue
                    done = _complete(lines, flipped, box, [NODES])
                    if done is not None:
                        return puzzle.strings(lines.colours(done))
    return None
