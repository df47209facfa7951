"""Maze sequences: mazes as move tables, the checker, and the reduced maze set.

Size 3: thin walls. Each of the 12 inner edges of the 3x3 grid is a wall or open (maze id
bit e set = edge e open); a case is a maze with a start cell, and a string solves it when its
walk visits every cell reachable from the start. Size 4: each of the 14 cells other than the
top-left start and the bottom-right goal is open or blocked (maze id bit set = open); a
string solves a maze when its walk visits the goal, wherever the goal is reachable.

A move into a wall, a blocked cell or off the grid does nothing. Cells are numbered row by
row; moves are N, E, S, W.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError

LETTERS = "NESW"
_STEP = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
SIZES = (3, 4)
KNOWN_79 = ("NNWSWNNSENESESWSSWNSEENWWNWSSEWWNENWEENWSWNWSSENENWNWNESENESESWNWSESEWWNENW"
            "NEES")


@dataclass
class Cases:
    """Mazes with starts: per case its move table (C x 4), start, and cells to visit (mask)."""

    size: int
    maze: np.ndarray  # maze id per case
    start: np.ndarray
    target: np.ndarray  # bitmask of the cells the walk must visit
    moves: np.ndarray  # (cases, cells, 4) next cell
    reach: np.ndarray  # bitmask of the cells reachable from the start

    def __len__(self) -> int:
        return len(self.maze)

    def subset(self, idx: np.ndarray) -> Cases:
        return Cases(self.size, self.maze[idx], self.start[idx], self.target[idx],
                     self.moves[idx], self.reach[idx])


def parse_string(text: str, allow_free: bool = False) -> str:
    s = text.strip().upper()
    allowed = set(LETTERS) | ({"*"} if allow_free else set())
    what = "N, E, S, W" + (" and *" if allow_free else "")
    if not s:
        raise PuzzleError(f"the move string is empty: give moves, letters {what}")
    bad = sorted(set(s) - allowed)
    if bad:
        raise PuzzleError(f"a move string is made of {what}; found {''.join(bad)!r}")
    return s


def segments(pattern: str) -> list[tuple[int, int, bool]]:
    """(first move, end move, free) of ``pattern``: runs of fixed letters, and single free
    moves (``*``)."""
    out: list[tuple[int, int, bool]] = []
    t = 0
    while t < len(pattern):
        e = t + 1
        if pattern[t] != "*":
            while e < len(pattern) and pattern[e] != "*":
                e += 1
        out.append((t, e, pattern[t] == "*"))
        t = e
    return out


def case_moves(cases: Cases, k: int) -> np.ndarray:
    """Case ``k``'s move table (cells x 4). Where the case has one goal cell, the goal
    absorbs: once there, the case is solved whatever follows."""
    moves, target = cases.moves[k], int(cases.target[k])
    if target & (target - 1) == 0:
        goal = target.bit_length() - 1
        moves = moves.copy()
        moves[goal] = goal
    return moves


def _edges(n: int) -> list[tuple[int, int]]:
    out = [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)]
    return out + [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n)]


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    return sum(((x >> b) & 1) for b in range(16))


def _closure(moves: np.ndarray, start_mask: np.ndarray) -> np.ndarray:
    """Cells reachable from ``start_mask`` (bitmask per case) with ``moves`` (K, C, 4)."""
    cells = moves.shape[1]
    step = np.zeros(moves.shape[:2], dtype=np.int64)
    for d in range(4):
        step |= np.left_shift(1, moves[:, :, d])
    reach = start_mask.astype(np.int64)
    for _ in range(cells):
        new = reach.copy()
        for c in range(cells):
            new |= ((reach >> c) & 1) * step[:, c]
        if (new == reach).all():
            break
        reach = new
    return reach


@cache
def _thin_wall_moves() -> np.ndarray:
    """(4096, 9, 4): the next cell of every 3x3 maze, cell and move."""
    n, edges = 3, _edges(3)
    ids = np.arange(1 << len(edges))
    moves = np.repeat(np.arange(n * n)[None, :, None], len(ids), axis=0).repeat(4, axis=2)
    for e, (a, b) in enumerate(edges):
        is_open = ((ids >> e) & 1).astype(bool)
        forward, back = (1, 3) if b == a + 1 else (2, 0)
        moves[is_open, a, forward] = b
        moves[is_open, b, back] = a
    return moves


@cache
def _blocked_cell_moves() -> tuple[np.ndarray, np.ndarray]:
    """4x4 mazes with the goal reachable: (maze ids, moves (K, 16, 4))."""
    n = 4
    free = [c for c in range(n * n) if c not in (0, n * n - 1)]
    ids = np.arange(1 << len(free))
    is_open = np.ones((len(ids), n * n), dtype=bool)
    for b, c in enumerate(free):
        is_open[:, c] = ((ids >> b) & 1).astype(bool)
    moves = np.repeat(np.arange(n * n)[None, :, None], len(ids), axis=0).repeat(4, axis=2)
    for c in range(n * n):
        r, col = divmod(c, n)
        for d, (dr, dc) in _STEP.items():
            rr, cc = r + dr, col + dc
            if 0 <= rr < n and 0 <= cc < n:
                target = rr * n + cc
                moves[is_open[:, target], c, d] = target
    reach = _closure(moves, np.ones(len(ids), dtype=np.int64))
    ok = ((reach >> (n * n - 1)) & 1).astype(bool)
    return ids[ok], moves[ok]


@cache
def all_cases(size: int = 3) -> Cases:
    """Every case: 3x3, all 4096 mazes x 9 starts; 4x4, the 3,828 mazes with a reachable
    goal. Cached (check, stats and the reduced set all start from it): treat it as
    read-only."""
    if size == 3:
        moves = _thin_wall_moves()
        k, cells = moves.shape[0], moves.shape[1]
        maze = np.repeat(np.arange(k), cells)
        start = np.tile(np.arange(cells), k)
        big = moves[maze]
        target = _closure(big, np.left_shift(1, start))
        return Cases(3, maze, start, target, big, target)
    if size == 4:
        ids, moves = _blocked_cell_moves()
        n = len(ids)
        start = np.zeros(n, dtype=np.int64)
        return Cases(4, ids, start, np.full(n, 1 << 15, dtype=np.int64), moves,
                     _closure(moves, np.left_shift(1, start)))
    raise PuzzleError(f"maze size must be one of {SIZES}, not {size}")


def reduced_cases(size: int = 3) -> Cases:
    """The cases a universal string must be checked on, largest first.

    3x3: cases with 5 or more reachable cells; using a top-row and a left-column cell (else
    a shifted copy is in the set); with every cell outside the reachable part walled in;
    single-path parts (no cell with three open neighbours) of fewer than 8 cells dropped, as
    are 8-cell paths that a ninth cell extends into a path from the same start (each is part
    of a larger single-path case); paths start only at an end. 10,772 cases.
    4x4: all 3,828 mazes (the goal is one cell; nothing to reduce), most open first."""
    cases = all_cases(size)
    if size == 4:
        return cases.subset(np.argsort(-reachable_sizes(cases), kind="stable"))
    n, edges = 3, _edges(3)
    reach = cases.target
    size_r = _popcount(reach)
    ea = np.array([a for a, _ in edges])
    eb = np.array([b for _, b in edges])
    is_open = ((cases.maze[:, None] >> np.arange(len(edges))) & 1).astype(bool)
    inside = (((reach[:, None] >> ea) & 1) & ((reach[:, None] >> eb) & 1)).astype(bool)
    walled_in = ~(is_open & ~inside).any(axis=1)
    top, left = 0b000000111, 0b001001001
    keep = (size_r >= 5) & ((reach & top) != 0) & ((reach & left) != 0) & walled_in
    inner = is_open & inside
    degree = np.zeros((len(cases), n * n), dtype=np.int64)
    np.add.at(degree, (np.nonzero(inner)[0], ea[np.nonzero(inner)[1]]), 1)
    np.add.at(degree, (np.nonzero(inner)[0], eb[np.nonzero(inner)[1]]), 1)
    single = degree.max(axis=1) <= 2
    is_path = single & (inner.sum(axis=1) == size_r - 1)
    start_degree = degree[np.arange(len(cases)), cases.start]
    keep &= ~(single & (size_r < 8))
    keep &= ~(is_path & (start_degree != 1))
    # An 8-cell path whose missing cell neighbours its far end extends to a 9-cell path.
    eight = np.flatnonzero(keep & is_path & (size_r == 8))
    for k in eight:
        missing = int(np.flatnonzero(((reach[k] >> np.arange(9)) & 1) == 0)[0])
        ends = [c for c in range(9) if degree[k, c] == 1 and c != cases.start[k]]
        far = ends[0]
        if abs(far // n - missing // n) + abs(far % n - missing % n) == 1:
            keep[k] = False
    idx = np.flatnonzero(keep)
    order = np.argsort(-size_r[idx], kind="stable")
    return cases.subset(idx[order])


def reachable_sizes(cases: Cases) -> np.ndarray:
    """Per case, how many cells are reachable from its start."""
    return _popcount(cases.reach)


@dataclass
class CheckResult:
    unsolved: int
    cases: int
    first_failing: int | None  # index into the checked cases

    def as_json(self) -> dict[str, Any]:
        return {"unsolved": self.unsolved, "cases": self.cases}


@dataclass
class CaseStats:
    """The reduced case set of a size (what a search checks) against all its cases."""

    size: int
    mazes: int  # reduced cases
    all_cases: int
    by_reachable_cells: dict[int, int]  # reduced cases by reachable cells, largest first

    def as_json(self) -> dict[str, Any]:
        return {"mazes": self.mazes, "all_cases": self.all_cases, "size": self.size,
                "by_reachable_cells": self.by_reachable_cells}


def case_stats(size: int = 3) -> CaseStats:
    cases = reduced_cases(size)
    sizes = reachable_sizes(cases)
    by_size = {int(k): int((sizes == k).sum()) for k in np.unique(sizes)[::-1]}
    return CaseStats(size, len(cases), len(all_cases(size)), by_size)


def walk(cases: Cases, string: str) -> np.ndarray:
    """The visited-cell bitmask of every case after walking ``string``."""
    pos = cases.start.copy()
    visited = np.left_shift(1, pos)
    rows = np.arange(len(cases))
    for ch in string:
        pos = cases.moves[rows, pos, LETTERS.index(ch)]
        visited |= np.left_shift(1, pos)
    return visited


def failing(cases: Cases, string: str) -> np.ndarray:
    """Indices of the cases that ``string`` does not solve, in the cases' order."""
    return np.flatnonzero((walk(cases, string) & cases.target) != cases.target)


def check(string: str, size: int = 3) -> CheckResult:
    cases = all_cases(size)
    bad = failing(cases, parse_string(string))
    return CheckResult(len(bad), len(cases), int(bad[0]) if len(bad) else None)


def draw(cases: Cases, k: int) -> str:
    """ASCII picture of case ``k``: walls, the start (S) and, for size 4, the goal (G)."""
    n = cases.size
    start = int(cases.start[k])
    moves = cases.moves[k]
    mark = {start: "S"}
    if n == 4:
        mark[n * n - 1] = "G"
    lines = ["+" + "---+" * n]
    for r in range(n):
        row = "|"
        below = "+"
        for c in range(n):
            cell = r * n + c
            blocked = n == 4 and cell not in (0, n * n - 1) and not (
                (cases.maze[k] >> [x for x in range(n * n) if x not in (0, n * n - 1)]
                 .index(cell)) & 1)
            body = "###" if blocked else f" {mark.get(cell, ' ')} "
            east_open = c < n - 1 and moves[cell, 1] == cell + 1
            row += body + (" " if n == 3 and east_open else
                           " " if n == 4 and c < n - 1 else "|")
            south_open = r < n - 1 and moves[cell, 2] == cell + n
            below += ("   " if (n == 3 and south_open) or (n == 4 and r < n - 1) else "---") + "+"
        lines += [row, below]
    return "\n".join(lines)


def case_index(size: int, maze: int, start: int | None = None) -> int:
    """The index in ``all_cases(size)`` of ``maze`` (its id: size 3, bit e set = edge e open,
    edges numbered left-right pairs row by row, then up-down pairs; size 4, bit b set = the
    b-th cell other than start and goal open) from ``start`` (size 3: a cell 0-8, default
    0; size 4 always starts top-left)."""
    if size == 3:
        if not 0 <= maze < 4096:
            raise PuzzleError(f"a 3x3 maze id is 0 to 4095, not {maze}")
        start = 0 if start is None else start
        if not 0 <= start < 9:
            raise PuzzleError(f"a 3x3 maze starts at a cell 0 to 8, not {start}")
        return maze * 9 + start
    if size == 4:
        if start not in (None, 0):
            raise PuzzleError("4x4 mazes start at the top-left cell (0)")
        ids = all_cases(4).maze
        found = np.flatnonzero(ids == maze)
        if not 0 <= maze < 1 << 14:
            raise PuzzleError(f"a 4x4 maze id is 0 to 16383, not {maze}")
        if not len(found):
            raise PuzzleError(f"the goal cannot be reached in 4x4 maze {maze}")
        return int(found[0])
    raise PuzzleError(f"maze size must be one of {SIZES}, not {size}")


def trace(cases: Cases, k: int, string: str) -> list[int]:
    """The cells case ``k``'s walk is in: the start, then after each move (a move into a
    wall stays). Unlike the search's tables, the goal does not absorb here."""
    pos = [int(cases.start[k])]
    for ch in parse_string(string):
        pos.append(int(cases.moves[k, pos[-1], LETTERS.index(ch)]))
    return pos


def is_open_cell(cases: Cases, k: int, cell: int) -> bool:
    """Size 4: whether ``cell`` of case ``k`` is open (start and goal always are)."""
    n = cases.size
    if n == 3 or cell in (0, n * n - 1):
        return True
    free = [c for c in range(n * n) if c not in (0, n * n - 1)]
    return bool((int(cases.maze[k]) >> free.index(cell)) & 1)


@dataclass
class CaseWalk:
    """A string walked on one case: the cells it is in, step by step, and the verdict."""

    size: int
    maze: int
    start: int
    index: int  # into all_cases(size)
    cells: list[int]  # the start, then the cell after each move
    to_visit: int  # cells the walk must visit (3x3: all reachable; 4x4: the goal)
    visited: int  # of those, how many it visits

    @property
    def solved(self) -> bool:
        return self.visited == self.to_visit

    def as_json(self) -> dict[str, Any]:
        return {"size": self.size, "maze": self.maze, "start": self.start,
                "moves": len(self.cells) - 1, "cells": self.cells, "solved": self.solved,
                "visited": self.visited, "to_visit": self.to_visit}


def walk_case(string: str, size: int = 3, maze: int | None = None,
              start: int | None = None) -> CaseWalk:
    """Walk ``string`` on ``maze`` from ``start`` (see case_index). Without a maze: the first
    case the string fails, else the first case of the reduced set (a largest one)."""
    string = parse_string(string)
    cases = all_cases(size)
    if maze is not None:
        k = case_index(size, maze, start)
    else:
        if start is not None:
            raise PuzzleError("--start goes with --maze")
        bad = failing(cases, string)
        if len(bad):
            k = int(bad[0])
        else:
            first = reduced_cases(size)
            k = case_index(size, int(first.maze[0]), int(first.start[0]))
    cells = trace(cases, k, string)
    target = int(cases.target[k])
    seen = 0
    for c in set(cells):
        seen |= 1 << c
    return CaseWalk(size, int(cases.maze[k]), int(cases.start[k]), k, cells,
                    bin(target).count("1"), bin(target & seen).count("1"))
