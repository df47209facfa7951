"""Maze sequences: mazes as move tables, the checker, and the reduced maze set.

Size 3: thin walls. Each of the 12 inner edges of the 3x3 grid is a wall or open (maze id
bit e set = edge e open); a case is a maze with a start cell, and a string solves it when its
walk visits every cell reachable from the start. Size 4: each of the 14 cells other than the
top-left start and the bottom-right goal is open or blocked (maze id bit set = open); a
string solves a maze when its walk visits the goal, wherever the goal is reachable.

Rectangles ``RxC`` (R rows, C columns, at most 16 cells, e.g. ``2x4``, ``3x4`` or ``4x4``,
which is not size 4): thin walls, as size 3. Searches use their canonical cases: a case is
kept when every open edge lies inside the part reachable from the start (walls elsewhere
change no walk), that part has at least 2 cells and touches the top row and the left column
(a shifted copy walks alike). A string solves every case of a rectangle exactly when it
solves these. The checker walks every maze from every start where they number at most
200,000 (2x5 and smaller), and the canonical cases beyond (3x4: 380,094 of 1.6 million;
4x4: 48,775,286 of 268 million, which share the move tables of their 3,489,347 mazes).

A move into a wall, a blocked cell or off the grid does nothing. Cells are numbered row by
row; moves are N, E, S, W.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.kernels import for_size, kernel
from smtpuzzle.runtime.checks import is_digits

LETTERS = "NESW"
_STEP = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
SIZES = (3, 4)
Size = int | str  # 3, 4, or "RxC" (a thin-wall rectangle)
MAX_RECTANGLE_CELLS = 16
# The longest string a search or a bound takes on: past every known universal string (3x3:
# 79 moves), a search only finds one, and its formulas and diagrams grow with the length.
MAX_MOVES = 1000


def parse_size(text: str | int) -> Size:
    """3, 4 or a thin-wall rectangle "RxC" (R rows, C columns, 2 to 16 cells); "3x3" is 3."""
    value = str(text).strip().lower()
    if value in ("3", "4"):
        return int(value)
    rows, sep, cols = value.partition("x")
    if not sep or not is_digits(rows) or not is_digits(cols) or len(rows + cols) > 6:
        raise PuzzleError(f"maze size is 3, 4 or RxC (a thin-wall rectangle, e.g. 2x4), "
                          f"not {str(text)[:30]!r}")
    r, c = int(rows), int(cols)
    if (r, c) == (3, 3):
        return 3
    if r < 1 or c < 1 or not 2 <= r * c <= MAX_RECTANGLE_CELLS:
        raise PuzzleError(f"a maze rectangle has 2 to {MAX_RECTANGLE_CELLS} cells, "
                          f"not {r}x{c}")
    return f"{r}x{c}"


def dims(size: Size) -> tuple[int, int]:
    """(rows, columns) of a size."""
    if isinstance(size, str):
        r, _, c = size.partition("x")
        return int(r), int(c)
    return size, size


def describe(size: Size) -> str:
    r, c = dims(size)
    return f"{r}x{c}"
KNOWN_79 = ("NNWSWNNSENESESWSSWNSEENWWNWSSEWWNENWEENWSWNWSSENENWNWNESENESESWNWSESEWWNENW"
            "NEES")


@dataclass
class Cases:
    """Mazes with starts: per case its start, cells to visit (mask) and a row of ``table``,
    the move tables (C x 4) of the mazes. Cases share their maze's table: 4x4 thin walls
    have 48.8 million cases on 3.5 million mazes."""

    size: Size
    maze: np.ndarray  # maze id per case
    start: np.ndarray
    target: np.ndarray  # bitmask of the cells the walk must visit
    table: np.ndarray  # (mazes, cells, 4) next cell
    row: np.ndarray  # per case, its maze's row of ``table``
    reach: np.ndarray  # bitmask of the cells reachable from the start

    def __len__(self) -> int:
        return len(self.maze)

    def subset(self, idx: np.ndarray) -> Cases:
        return Cases(self.size, self.maze[idx], self.start[idx], self.target[idx],
                     self.table, self.row[idx], self.reach[idx])

    def moves(self, k: int) -> np.ndarray:
        """Case ``k``'s move table (cells x 4)."""
        return self.table[self.row[k]].astype(np.int64)


def parse_string(text: str, allow_free: bool = False) -> str:
    s = text.strip()
    # checked before upper(), which makes "S" of "ſ" and "SS" of "ß"
    allowed = set(LETTERS + LETTERS.lower()) | ({"*"} if allow_free else set())
    what = "N, E, S, W" + (" and *" if allow_free else "")
    if not s:
        raise PuzzleError(f"the move string is empty: give moves, letters {what}")
    bad = sorted(set(s) - allowed)
    if bad:
        raise PuzzleError(f"a move string is made of {what}; found {''.join(bad)!r}")
    return s.upper()


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


def free_layers(pattern: str) -> dict[int, int]:
    """Each free move of ``pattern`` -> its layer in a diagram of the pattern's strings (its
    place among the segments)."""
    return {a: i for i, (a, _, free) in enumerate(segments(pattern)) if free}


def case_moves(cases: Cases, k: int) -> np.ndarray:
    """Case ``k``'s move table (cells x 4). Where the case has one goal cell, the goal
    absorbs: once there, the case is solved whatever follows."""
    moves, target = cases.moves(k), int(cases.target[k])
    if target & (target - 1) == 0:
        goal = target.bit_length() - 1
        moves[goal] = goal
    return moves


def _edges(rows: int, cols: int | None = None) -> list[tuple[int, int]]:
    """Inner edges: left-right pairs row by row, then up-down pairs."""
    cols = rows if cols is None else cols
    out = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    return out + [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1)
                  for c in range(cols)]


def _edge_ends(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """The inner edges' two cells, as two arrays (the order of ``_edges``)."""
    ends = np.array(_edges(rows, cols), dtype=np.int64).reshape(-1, 2)
    return ends[:, 0].copy(), ends[:, 1].copy()


def _border_masks(rows: int, cols: int) -> tuple[int, int]:
    """Bitmasks of the top row and of the left column."""
    return (1 << cols) - 1, sum(1 << (r * cols) for r in range(rows))


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    return sum(((x >> b) & 1) for b in range(16))


def _closure(moves: np.ndarray, start_mask: np.ndarray) -> np.ndarray:
    """Cells reachable from ``start_mask`` (bitmask per case) with ``moves`` (K, C, 4)."""
    cells = moves.shape[1]
    step = np.zeros(moves.shape[:2], dtype=np.int64)
    for d in range(4):
        step |= np.left_shift(1, moves[:, :, d].astype(np.int64))
    reach = start_mask.astype(np.int64)
    for _ in range(cells):
        new = reach.copy()
        for c in range(cells):
            new |= ((reach >> c) & 1) * step[:, c]
        if (new == reach).all():
            break
        reach = new
    return reach


def _thin_wall_table(ids: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """(mazes, cells, 4): the next cell of thin-wall mazes ``ids``, per cell and move."""
    moves = np.empty((len(ids), rows * cols, 4), dtype=np.int8)
    moves[:] = np.arange(rows * cols, dtype=np.int8)[None, :, None]
    across = rows * (cols - 1)  # the left-right edges come first
    for e, (a, b) in enumerate(_edges(rows, cols)):
        is_open = ((ids >> e) & 1).astype(bool)
        # by the edge's place, not by b == a + 1: in one column, up-down neighbours differ by 1
        forward, back = (1, 3) if e < across else (2, 0)
        moves[is_open, a, forward] = b
        moves[is_open, b, back] = a
    return moves


@cache
def _thin_wall_moves(rows: int = 3, cols: int = 3) -> np.ndarray:
    """(mazes, cells, 4): the next cell of every thin-wall maze, cell and move."""
    return _thin_wall_table(np.arange(1 << len(_edges(rows, cols))), rows, cols)


FULL_RECTANGLE_CASES = 200_000  # up to this many maze-start cases, all_cases lists them all


def _every_thin_wall_case(size: Size) -> Cases:
    """Every maze of a thin-wall size (3 or a rectangle) with every start."""
    rows, cols = dims(size)
    moves = _thin_wall_moves(rows, cols)
    cells = rows * cols
    maze = np.repeat(np.arange(len(moves)), cells)
    start = np.tile(np.arange(cells), len(moves))
    target = _closure(moves[maze], np.left_shift(1, start))
    return Cases(size, maze, start, target, moves, maze, target)


def _walled_in(maze: np.ndarray, reach: np.ndarray, rows: int, cols: int,
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per thin-wall case: whether it is canonical (every open edge inside the reachable
    part, which touches the top row and the left column), and its open inner edges."""
    ea, eb = _edge_ends(rows, cols)
    is_open = ((maze[:, None] >> np.arange(len(ea))) & 1).astype(bool)
    inside = (((reach[:, None] >> ea) & 1) & ((reach[:, None] >> eb) & 1)).astype(bool)
    top, left = _border_masks(rows, cols)
    canonical = (~(is_open & ~inside).any(axis=1) & ((reach & top) != 0)
                 & ((reach & left) != 0))
    return canonical, is_open & inside


@kernel
def _connected_mazes(ea: np.ndarray, eb: np.ndarray, top: int, left: int,
                     out_maze: np.ndarray, out_reach: np.ndarray) -> int:
    """Fill ``out_maze`` / ``out_reach`` with the canonical mazes (open edges all in one
    part, which touches the top row and the left column) and that part; their number.
    With empty outputs, only count."""
    edges, n = len(ea), 0
    for maze in range(1, 1 << edges):
        ends, reach = 0, 0
        for e in range(edges):
            if (maze >> e) & 1:
                ends |= (1 << ea[e]) | (1 << eb[e])
                if reach == 0:
                    reach = 1 << ea[e]
        grown = True
        while grown:
            grown = False
            for e in range(edges):
                if (maze >> e) & 1 and ((reach >> ea[e]) & 1) != ((reach >> eb[e]) & 1):
                    reach |= (1 << ea[e]) | (1 << eb[e])
                    grown = True
        if ends & ~reach or reach & top == 0 or reach & left == 0:
            continue
        if len(out_maze):
            out_maze[n], out_reach[n] = maze, reach
        n += 1
    return n


@cache
def _rectangle_cases(size: str) -> Cases:
    """The canonical cases of a thin-wall rectangle (see the module's docstring): a maze
    whose open edges form one part touching the top row and the left column, from every
    start in that part; largest part first, then by maze id and start. Mazes and cases
    are counted first, so that 4x4's 48.8 million cases take arrays of their size alone."""
    rows, cols = dims(size)
    ea, eb = _edge_ends(rows, cols)
    top, left = _border_masks(rows, cols)
    for_size(__name__, 1 << len(ea), 1 << 10)
    none = np.zeros(0, dtype=np.int64)
    count = _connected_mazes(ea, eb, top, left, none, none)
    ids, reach = np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
    _connected_mazes(ea, eb, top, left, ids, reach)
    row, start = np.nonzero((reach[:, None] >> np.arange(rows * cols)) & 1)
    largest = np.argsort(-_popcount(reach)[row], kind="stable")
    row, start = row[largest].astype(np.int32), start[largest].astype(np.int32)
    case_reach = reach.astype(np.int32)[row]
    _listed.add(size)
    return Cases(size, ids.astype(np.int32)[row], start, case_reach,
                 _thin_wall_table(ids, rows, cols), row, case_reach)


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


def every_case_checked(size: Size) -> bool:
    """Whether all_cases holds every case of ``size``, not one per symmetry class."""
    if not isinstance(size, str):
        return True
    rows, cols = dims(parse_size(size))
    return (1 << len(_edges(rows, cols))) * rows * cols <= FULL_RECTANGLE_CASES


@cache
def all_cases(size: Size = 3) -> Cases:
    """Every case: 3x3, all 4096 mazes x 9 starts; 4x4, the 3,828 mazes with a reachable
    goal; a rectangle, every maze with every start up to FULL_RECTANGLE_CASES of them (2x5
    and smaller), else its canonical cases. Cached (check, stats and the reduced set all
    start from it): treat it as read-only."""
    if isinstance(size, str):
        if every_case_checked(size):
            return _every_thin_wall_case(size)
        return _rectangle_cases(size)
    if size == 3:
        return _every_thin_wall_case(3)
    if size == 4:
        ids, moves = _blocked_cell_moves()
        n = len(ids)
        start = np.zeros(n, dtype=np.int64)
        return Cases(4, ids, start, np.full(n, 1 << 15, dtype=np.int64),
                     moves.astype(np.int8), np.arange(n), _closure(moves, np.left_shift(1, start)))
    raise PuzzleError(f"maze size must be one of {SIZES}, not {size}")


LISTING_S_PER_MAZE = 1e-6  # canonical cases of a rectangle: measured 16 s for 4x4's 2**24
_listed: set[Size] = set()  # rectangles whose canonical cases this process has listed


def listing_too_slow(size: Size, time_limit: float | None) -> str | None:
    """Why a search of ``size`` limited to ``time_limit`` seconds should not start (None
    when it may): listing a large rectangle's canonical cases cannot be stopped, and takes
    longer than the limit."""
    if time_limit is None or not isinstance(size, str) or every_case_checked(size) \
            or size in _listed:
        return None
    rows, cols = dims(size)
    need = LISTING_S_PER_MAZE * (1 << len(_edges(rows, cols)))
    if need <= time_limit + 0.5:  # the slack every time limit has (README)
        return None
    return (f"not started: listing the {describe(size)} cases takes about {need:.0f} s, "
            f"more than the {max(time_limit, 0):.1f} s left of the time limit")


@cache
def reduced_cases(size: Size = 3) -> Cases:
    """The cases a universal string must be checked on, largest first.

    3x3: cases with 5 or more reachable cells; using a top-row and a left-column cell (else
    a shifted copy is in the set); with every cell outside the reachable part walled in;
    single-path parts (no cell with three open neighbours) of fewer than 8 cells dropped, as
    are 8-cell paths that a ninth cell extends into a path from the same start (each is part
    of a larger single-path case); paths start only at an end. 10,772 cases.
    4x4: all 3,828 mazes (the goal is one cell; nothing to reduce), most open first.
    Rectangles: their canonical cases, largest first. Cached: treat it as read-only."""
    if isinstance(size, str):
        return _rectangle_cases(size)
    cases = all_cases(size)
    if size != 3:
        return cases.subset(np.argsort(-reachable_sizes(cases), kind="stable"))
    n = 3
    ea, eb = _edge_ends(n, n)
    reach = cases.target
    size_r = _popcount(reach)
    canonical, inner = _walled_in(cases.maze, reach, 3, 3)
    keep = (size_r >= 5) & canonical
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
    moves: int = 0
    canonical: bool = False  # the cases are one per symmetry class (large rectangles)
    first_case: tuple[int, int] | None = None  # the first failing case: (maze id, start)

    def as_json(self) -> dict[str, Any]:
        return {"moves": self.moves, "unsolved": self.unsolved, "cases": self.cases,
                "canonical_cases": self.canonical,
                "first_failing": None if self.first_case is None else list(self.first_case)}


@dataclass
class CaseStats:
    """The reduced case set of a size (what a search checks) against all its cases."""

    size: Size
    mazes: int  # reduced cases
    all_cases: int
    by_reachable_cells: dict[int, int]  # reduced cases by reachable cells, largest first

    def as_json(self) -> dict[str, Any]:
        return {"mazes": self.mazes, "all_cases": self.all_cases, "size": self.size,
                "by_reachable_cells": self.by_reachable_cells}


def case_stats(size: Size = 3) -> CaseStats:
    cases = reduced_cases(size)
    sizes = reachable_sizes(cases)
    by_size = {int(k): int((sizes == k).sum()) for k in np.unique(sizes)[::-1]}
    return CaseStats(size, len(cases), len(all_cases(size)), by_size)


WALK_CHUNK = 1 << 20  # cases walked at once: 4x4 thin walls walk 48.8 million in chunks


def step(cases: Cases, rows: np.ndarray, pos: np.ndarray, d: int | np.ndarray
         ) -> np.ndarray:
    """The next cell (int64) of walks in maze rows ``rows`` (of ``cases.table``) at cells
    ``pos`` on letter ``d`` (one letter, or one per walk, broadcast like ``pos``)."""
    cells = cases.table.shape[1]
    at = rows.astype(np.int64) * (4 * cells) + 4 * np.asarray(pos, dtype=np.int64) + d
    return cases.table.reshape(-1)[at].astype(np.int64)


def state_step(moves: np.ndarray, states: np.ndarray) -> np.ndarray:
    """One maze's walk states packed as ``cell << cells | cells still to visit`` (int64),
    per state and letter (``moves`` is cells x 4): the packed states one letter on."""
    cells = moves.shape[0]
    bit = np.left_shift(1, np.arange(cells, dtype=np.int64))
    to = moves[states >> cells].astype(np.int64)
    return to << cells | ((states & ((1 << cells) - 1))[:, None] & ~bit[to])


def _walk_chunk(cases: Cases, string: str, lo: int, hi: int) -> np.ndarray:
    rows = cases.row[lo:hi]
    pos = cases.start[lo:hi].astype(np.int64)
    visited = np.left_shift(1, pos)
    for ch in string:
        pos = step(cases, rows, pos, LETTERS.index(ch))
        visited |= np.left_shift(1, pos)
    return visited


def walk(cases: Cases, string: str) -> np.ndarray:
    """The visited-cell bitmask of every case after walking ``string``."""
    return np.concatenate([_walk_chunk(cases, string, lo, lo + WALK_CHUNK)
                           for lo in range(0, len(cases), WALK_CHUNK)] or [np.zeros(0, int)])


def failing(cases: Cases, string: str, limit: int | None = None) -> np.ndarray:
    """Indices of the cases that ``string`` does not solve, in the cases' order; with a
    ``limit``, the first ``limit`` of them (the walk stops there). Solved cases are dropped
    from the walk as it goes: most are solved long before a long string ends."""
    letters = [LETTERS.index(ch) for ch in string]
    found: list[np.ndarray] = []
    for lo in range(0, len(cases), WALK_CHUNK):
        idx = np.arange(lo, min(lo + WALK_CHUNK, len(cases)))
        rows = cases.row[idx]
        pos = cases.start[idx].astype(np.int64)
        left = cases.target[idx].astype(np.int64) & ~np.left_shift(1, pos)
        for t, d in enumerate(letters):
            pos = step(cases, rows, pos, d)
            left &= ~np.left_shift(1, pos)
            if t % 16 == 15:
                keep = left != 0
                idx, rows, pos, left = idx[keep], rows[keep], pos[keep], left[keep]
        found.append(idx[left != 0])
        if limit is not None and sum(len(f) for f in found) >= limit:
            break
    out = np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
    return out if limit is None else out[:limit]


def solved_by(cases: Cases, strings: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Strings x cases: whether each string (a row of letter indices; all one length)
    solves each case of ``idx``."""
    shape = (len(strings), len(idx))
    rows = np.broadcast_to(cases.row[idx], shape)
    pos = np.broadcast_to(cases.start[idx].astype(np.int64), shape)
    left = np.broadcast_to(cases.target[idx].astype(np.int64), shape) & ~np.left_shift(1, pos)
    for t in range(strings.shape[1]):
        pos = step(cases, rows, pos, strings[:, t:t + 1])
        left = left & ~np.left_shift(1, pos)
    return left == 0


def check(string: str, size: Size = 3) -> CheckResult:
    cases = all_cases(size)
    moves = parse_string(string)
    bad = failing(cases, moves)
    first = int(bad[0]) if len(bad) else None
    return CheckResult(len(bad), len(cases), first, len(moves), not every_case_checked(size),
                       None if first is None else (int(cases.maze[first]),
                                                   int(cases.start[first])))


def draw(cases: Cases, k: int) -> str:
    """ASCII picture of case ``k``: walls, the start (S) and, for size 4, the goal (G)."""
    rows, n = dims(cases.size)
    thin = cases.size != 4
    start = int(cases.start[k])
    moves = cases.moves(k)
    mark = {start: "S"}
    if not thin:
        mark[n * n - 1] = "G"
    lines = ["+" + "---+" * n]
    for r in range(rows):
        row = "|"
        below = "+"
        for c in range(n):
            cell = r * n + c
            blocked = not thin and cell not in (0, n * n - 1) and not (
                (cases.maze[k] >> [x for x in range(n * n) if x not in (0, n * n - 1)]
                 .index(cell)) & 1)
            body = "###" if blocked else f" {mark.get(cell, ' ')} "
            east_open = c < n - 1 and moves[cell, 1] == cell + 1
            row += body + (" " if thin and east_open else
                           " " if not thin and c < n - 1 else "|")
            south_open = r < rows - 1 and moves[cell, 2] == cell + n
            below += ("   " if (thin and south_open) or (not thin and r < rows - 1)
                      else "---") + "+"
        lines += [row, below]
    return "\n".join(lines)


def case_index(size: Size, maze: int, start: int | None = None) -> int:
    """The index in ``all_cases(size)`` of ``maze`` (its id: size 3, bit e set = edge e open,
    edges numbered left-right pairs row by row, then up-down pairs; size 4, bit b set = the
    b-th cell other than start and goal open; a rectangle, as size 3) from ``start`` (size 3
    and rectangles: a cell numbered row by row, default 0; size 4 always starts top-left).
    A rectangle knows its canonical cases only (see the module's docstring)."""
    if isinstance(size, str):
        rows, cols = dims(size)
        edges = len(_edges(rows, cols))
        if not 0 <= maze < 1 << edges:
            raise PuzzleError(f"a {size} maze id is 0 to {(1 << edges) - 1}, not {maze}")
        start = 0 if start is None else start
        if not 0 <= start < rows * cols:
            raise PuzzleError(f"a {size} maze starts at a cell 0 to {rows * cols - 1}, "
                              f"not {start}")
        cases = all_cases(size)
        found = np.flatnonzero((cases.maze == maze) & (cases.start == start))
        if not len(found):  # only where all_cases holds the canonical cases alone
            raise PuzzleError(f"{size} maze {maze} from {start} is not a canonical case (its "
                              "open edges must lie inside the part reachable from the start, "
                              "which must touch the top row and the left column)")
        return int(found[0])
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
        pos.append(int(cases.table[cases.row[k], pos[-1], LETTERS.index(ch)]))
    return pos


def is_open_cell(cases: Cases, k: int, cell: int) -> bool:
    """Size 4: whether ``cell`` of case ``k`` is open (start and goal always are)."""
    if cases.size != 4:
        return True
    n = 4
    if cell in (0, n * n - 1):
        return True
    free = [c for c in range(n * n) if c not in (0, n * n - 1)]
    return bool((int(cases.maze[k]) >> free.index(cell)) & 1)


@dataclass
class CaseWalk:
    """A string walked on one case: the cells it is in, step by step, and the verdict."""

    size: Size
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


def walk_case(string: str, size: Size = 3, maze: int | None = None,
              start: int | None = None) -> CaseWalk:
    """Walk ``string`` on ``maze`` from ``start`` (see case_index). Without a maze: the first
    case the string fails, else the first case of the reduced set (a largest one)."""
    string = parse_string(string)
    cases = all_cases(size)
    if maze is not None:
        k = case_index(size, maze, start)
    else:
        if start is not None:
            raise PuzzleError("`start` goes with `maze`")
        bad = failing(cases, string, limit=1)
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
