"""The independent check of a maze string: each maze is rebuilt from its id by row and
column arithmetic and walked, sharing no move table, edge list or case list with the
searches (cases.py) except, past 2x5, the list of canonical cases to walk.

Thin walls (R rows, C columns): bit ``e`` of a maze id opens the edge ``e``; the
left-right edges come first, row by row (``r * (C - 1) + c`` joins (r, c) to (r, c + 1)),
then the up-down ones (``R * (C - 1) + r * C + c`` joins (r, c) to (r + 1, c)). A case
is solved when the walk visits every cell reachable from its start. Blocked cells (the 4x4
variant): bit ``b`` of the id opens the ``b``-th cell other than the corners, the walk
starts top-left and must reach the bottom-right corner, in every maze where it can.
"""

from __future__ import annotations

import numpy as np

from smtpuzzle.errors import VerificationError
from smtpuzzle.puzzles.maze.cases import Size, all_cases, dims, every_case_checked

_CHUNK = 1 << 21  # cases walked at a time: a few arrays of this many int64s


def unsolved_cases(string: str, size: Size) -> int:
    """How many cases of ``size`` the move string ``string`` (letters N E S W) fails."""
    moves = ["NESW".index(ch) for ch in string]
    if size == 4:
        return _blocked_unsolved(moves)
    rows, cols = dims(size)
    if every_case_checked(size):
        edges = rows * (cols - 1) + (rows - 1) * cols
        cells = rows * cols
        n = (1 << edges) * cells
        return sum(_thin_unsolved(moves, rows, cols, i // cells, i % cells)
                   for i in (np.arange(lo, min(lo + _CHUNK, n), dtype=np.int64)
                             for lo in range(0, n, _CHUNK)))
    cases = all_cases(size)  # the canonical cases: one per class that walks alike
    return sum(_thin_unsolved(moves, rows, cols, cases.maze[lo:lo + _CHUNK].astype(np.int64),
                              cases.start[lo:lo + _CHUNK].astype(np.int64))
               for lo in range(0, len(cases), _CHUNK))


def verify_string(string: str, size: Size, pattern: str | None = None) -> None:
    """Raise VerificationError unless ``string`` solves every case (and fits ``pattern``)."""
    bad = unsolved_cases(string, size)
    if bad:
        raise VerificationError(f"found string fails {bad} cases: {string}")
    if pattern is not None and (len(pattern) != len(string) or any(
            p != "*" and p != ch for p, ch in zip(pattern, string, strict=True))):
        raise VerificationError(f"found string {string} does not match {pattern}")


def _grow(reach: np.ndarray, east: np.ndarray, south: np.ndarray, cols: int,
          cells: int) -> np.ndarray:
    """The cells reachable from ``reach`` (bitmasks) through the open edges: ``east`` has
    bit k where cell k opens to k + 1, ``south`` where it opens to k + cols."""
    for _ in range(cells):
        reach = (reach | ((reach & east) << 1) | ((reach >> 1) & east)
                 | ((reach & south) << cols) | ((reach >> cols) & south))
    return reach


def _step(at: np.ndarray, d: int, east: np.ndarray, south: np.ndarray,
          cols: int) -> np.ndarray:
    """Where move ``d`` (N E S W) takes walkers at cells ``at``; a wall keeps them."""
    if d == 0:    # N: the cell above opens south to this one
        go = (at >= cols) & (((south >> np.maximum(at - cols, 0)) & 1) == 1)
        return np.where(go, at - cols, at)
    if d == 1:
        return np.where(((east >> at) & 1) == 1, at + 1, at)
    if d == 2:
        return np.where(((south >> at) & 1) == 1, at + cols, at)
    go = (at % cols > 0) & (((east >> np.maximum(at - 1, 0)) & 1) == 1)  # W
    return np.where(go, at - 1, at)


def _thin_unsolved(moves: list[int], rows: int, cols: int, maze: np.ndarray,
                   start: np.ndarray) -> int:
    east = np.zeros(len(maze), dtype=np.int64)
    south = np.zeros(len(maze), dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            k = r * cols + c
            if c < cols - 1:
                east |= ((maze >> (r * (cols - 1) + c)) & 1) << k
            if r < rows - 1:
                south |= ((maze >> (rows * (cols - 1) + r * cols + c)) & 1) << k
    one = np.int64(1)
    reach = _grow(one << start, east, south, cols, rows * cols)
    at, seen = start.copy(), one << start
    for i, d in enumerate(moves):
        if i % 8 == 0:  # walk on with the cases not yet solved only
            left = seen != reach
            at, seen, reach, east, south = at[left], seen[left], reach[left], east[left], \
                south[left]
        at = _step(at, d, east, south, cols)
        seen |= one << at
    return int(np.count_nonzero(seen != reach))


def _blocked_unsolved(moves: list[int], n: int = 4) -> int:
    cells, goal = n * n, n * n - 1
    inner = [k for k in range(cells) if k not in (0, goal)]
    ids = np.arange(1 << len(inner), dtype=np.int64)
    open_ = np.full(len(ids), (1 << 0) | (1 << goal), dtype=np.int64)
    for b, k in enumerate(inner):
        open_ |= ((ids >> b) & 1) << k
    # a cell opens east / south when it and that neighbour are both open
    east = np.zeros(len(ids), dtype=np.int64)
    south = np.zeros(len(ids), dtype=np.int64)
    for k in range(cells):
        r, c = divmod(k, n)
        if c < n - 1:
            east |= ((open_ >> k) & (open_ >> (k + 1)) & 1) << k
        if r < n - 1:
            south |= ((open_ >> k) & (open_ >> (k + n)) & 1) << k
    reach = _grow(np.ones(len(ids), dtype=np.int64), east, south, n, cells)
    can = ((reach >> goal) & 1) == 1
    east, south = east[can], south[can]
    at = np.zeros(len(east), dtype=np.int64)
    done = at == goal
    for d in moves:
        at = _step(at, d, east, south, n)
        done |= at == goal
    return int(np.count_nonzero(~done))
