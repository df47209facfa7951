"""Nonogram presolve: exact line solving to a fixpoint, then probing (numba kernels).

A line is settled exactly: with F (prefixes that hold the first j runs) and B (suffixes that
hold runs j..k), a cell can be filled iff some run placement consistent with both covers
it, and empty iff some split leaves it in a gap; cells that can only be one thing are
fixed. Every fixed cell is a logical consequence of the clues, so a grid that this settles
completely is the unique solution, and a contradiction proves there is none.

Probing tries each unknown cell both ways: a value that leads to a contradiction fixes
the other one; cells that agree in both outcomes are fixed too.

Colour puzzles keep, per cell, the set of colours it may still take (bit c: colour c) and
settle a line the same way: a run j of colour c placed at s is followed by a background
cell only when run j + 1 has colour c too. A cell keeps the colours that some consistent
placement gives it. Probing tries each colour a cell may take; a cell keeps the colours
that some outcome without contradiction leaves it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from smtpuzzle.kernels import for_size, kernel
from smtpuzzle.puzzles.nonogram.clues import gaps
from smtpuzzle.puzzles.nonogram.puzzle import UNKNOWN, Nonogram

PROBE_CHUNK = 64  # probes between deadline checks, at most
CHECK_S = 0.05  # seconds of work between deadline checks, about
# Puzzles up to this many cells are line-solved in plain Python, faster than numba loads
# (bench/RESULTS.md, "Hardening (issue 23)"); larger ones by the compiled kernels.
LARGEST_IN_PYTHON = 400
# Colour lines cost more in plain Python (probing tries every colour of a cell): a 20x20 in
# three colours probes in 4.4 s there, 0.03 s compiled.
LARGEST_COLOUR_IN_PYTHON = 100


def largest_in_python(puzzle: Nonogram) -> int:
    """Cells up to which ``puzzle``'s kernels are best left in plain Python."""
    return LARGEST_COLOUR_IN_PYTHON if puzzle.coloured else LARGEST_IN_PYTHON


@kernel
def _solve_line(cells, clue):  # pragma: no cover - compiled
    """Settle one line in place; -1 on contradiction, else the number of cells fixed.

    The line is padded with one empty cell so that every run is followed by a gap: then
    f[j, i + 1] (i < n) always means a prefix ending with cell i empty."""
    n0 = cells.shape[0]
    line = np.zeros(n0 + 1, cells.dtype)
    line[:n0] = cells
    fixed = _settle(line, clue)
    cells[:] = line[:n0]
    return fixed


@kernel
def _settle(cells, clue):  # pragma: no cover - compiled
    n, k = cells.shape[0], clue.shape[0]
    emp = np.zeros(n + 1, np.int64)
    for i in range(n):
        emp[i + 1] = emp[i] + (1 if cells[i] == 0 else 0)
    f = np.zeros((k + 1, n + 1), np.bool_)
    f[0, 0] = True
    for j in range(k + 1):
        for i in range(n + 1):
            if not f[j, i]:
                continue
            if i < n and cells[i] != 1:
                f[j, i + 1] = True
            if j < k:
                e = i + clue[j]
                if e <= n and emp[e] == emp[i]:
                    if e == n:
                        f[j + 1, n] = True
                    elif cells[e] != 1:
                        f[j + 1, e + 1] = True
    if not f[k, n]:
        return -1
    b = np.zeros((k + 1, n + 1), np.bool_)
    b[k, n] = True
    for j in range(k, -1, -1):
        for i in range(n - 1, -1, -1):
            v = cells[i] != 1 and b[j, i + 1]
            if not v and j < k:
                e = i + clue[j]
                if e <= n and emp[e] == emp[i]:
                    if e == n:
                        v = b[j + 1, n]
                    elif cells[e] != 1:
                        v = b[j + 1, e + 1]
            b[j, i] = v
    cover = np.zeros(n + 1, np.int64)
    for j in range(k):
        r = clue[j]
        for s in range(n - r + 1):
            if not f[j, s] or emp[s + r] != emp[s]:
                continue
            e = s + r
            if (e == n and b[j + 1, n]) or (e < n and cells[e] != 1 and b[j + 1, e + 1]):
                cover[s] += 1
                cover[e] -= 1
    fixed = 0
    run = 0
    for i in range(n):
        run += cover[i]
        if cells[i] != -1:
            continue
        can_fill = run > 0
        can_empty = False
        for j in range(k + 1):
            if f[j, i + 1] and b[j, i + 1]:
                can_empty = True
                break
        if can_fill and not can_empty:
            cells[i] = 1
            fixed += 1
        elif can_empty and not can_fill:
            cells[i] = 0
            fixed += 1
        elif not can_fill:
            return -1
    return fixed


@kernel
def _sweep(lines, dirty, other_dirty, flat, offs, base):  # pragma: no cover - compiled
    """Line-solve the dirty lines of ``lines`` (rows of the grid, or of its transpose);
    a changed cell makes its crossing line dirty. -1 on contradiction, else 1 if any line
    was solved, 0 if none was dirty."""
    busy = 0
    for i in range(lines.shape[0]):
        if not dirty[i]:
            continue
        dirty[i] = False
        busy = 1
        line = lines[i, :].copy()
        got = _solve_line(line, flat[offs[base + i]:offs[base + i + 1]])
        if got < 0:
            return -1
        if got:
            for c in range(lines.shape[1]):
                if line[c] != lines[i, c]:
                    lines[i, c] = line[c]
                    other_dirty[c] = True
    return busy


@kernel
def _propagate(grid, flat, offs, row_dirty, col_dirty):  # pragma: no cover - compiled
    """Line-solve dirty lines until nothing changes; False on contradiction."""
    while True:
        rows = _sweep(grid, row_dirty, col_dirty, flat, offs, 0)
        if rows < 0:
            return False
        cols = _sweep(grid.T, col_dirty, row_dirty, flat, offs, grid.shape[0])
        if cols < 0:
            return False
        if rows == 0 and cols == 0:
            return True


@kernel
def _seeded(grid, r, c, v):  # pragma: no cover - compiled
    """A copy of ``grid`` with cell (r, c) set to ``v``, and the row and column flags that
    mark that cell's two lines dirty: where a probe starts, on either grid."""
    g = grid.copy()
    g[r, c] = v
    rd = np.zeros(grid.shape[0], np.bool_)
    cd = np.zeros(grid.shape[1], np.bool_)
    rd[r] = True
    cd[c] = True
    return g, rd, cd


@kernel
def _try(grid, flat, offs, r, c, v):  # pragma: no cover - compiled
    g, rd, cd = _seeded(grid, r, c, v)
    return _propagate(g, flat, offs, rd, cd), g


@kernel
def _probe(grid, flat, offs, first, max_probes):  # pragma: no cover - compiled
    """Probe unknown cells from cell index ``first`` on, at most ``max_probes`` of them.
    Returns (status, next cell index, learnt): status 0 contradiction, 1 ok."""
    h, w = grid.shape
    learnt = False
    probes = 0
    k = first
    while k < h * w and probes < max_probes:
        r, c = k // w, k % w
        k += 1
        if grid[r, c] != -1:
            continue
        probes += 1
        ok1, g1 = _try(grid, flat, offs, r, c, 1)
        ok0, g0 = _try(grid, flat, offs, r, c, 0)
        if not ok1 and not ok0:
            return 0, k, learnt
        if ok1 != ok0:
            grid[:, :] = g1 if ok1 else g0
            learnt = True
            continue
        rd = np.zeros(h, np.bool_)
        cd = np.zeros(w, np.bool_)
        agree = False
        for i in range(h):
            for j in range(w):
                if grid[i, j] == -1 and g1[i, j] == g0[i, j] and g1[i, j] != -1:
                    grid[i, j] = g1[i, j]
                    rd[i] = True
                    cd[j] = True
                    agree = True
        if agree:
            learnt = True
            if not _propagate(grid, flat, offs, rd, cd):
                return 0, k, learnt
    return 1, k, learnt


@kernel
def _settle_masks(cells, clue, ink, gap):  # pragma: no cover - compiled
    """Settle one colour line of masks in place; -1 on contradiction, else the number of
    cells narrowed. f[j, i]: cells [0, i) can hold runs 0..j-1 (and the gap after run j-1);
    b[j, i]: cells [i, n) can hold runs j..k-1."""
    n, k = cells.shape[0], clue.shape[0]
    place = np.zeros((k, n + 1), np.bool_)
    bad = np.zeros(n + 1, np.int64)
    for j in range(k):
        bit = np.int64(1) << ink[j]
        for i in range(n):
            bad[i + 1] = bad[i] + (1 if cells[i] & bit == 0 else 0)
        r, g = clue[j], gap[j]
        for s in range(n - r - g + 1):
            if bad[s + r] == bad[s] and (g == 0 or cells[s + r] & 1):
                place[j, s] = True
    f = np.zeros((k + 1, n + 1), np.bool_)
    f[0, 0] = True
    for i in range(n + 1):
        for j in range(k + 1):
            if not f[j, i]:
                continue
            if i < n and cells[i] & 1:
                f[j, i + 1] = True
            if j < k and place[j, i]:
                f[j + 1, i + clue[j] + gap[j]] = True
    if not f[k, n]:
        return -1
    b = np.zeros((k + 1, n + 1), np.bool_)
    b[k, n] = True
    for i in range(n - 1, -1, -1):
        for j in range(k, -1, -1):
            v = (cells[i] & 1) != 0 and b[j, i + 1]
            if not v and j < k and place[j, i]:
                v = b[j + 1, i + clue[j] + gap[j]]
            b[j, i] = v
    new = np.zeros(n, np.int64)
    cover = np.zeros(n + 1, np.int64)
    for j in range(k):
        r, g = clue[j], gap[j]
        cover[:] = 0
        for s in range(n - r - g + 1):
            if f[j, s] and place[j, s] and b[j + 1, s + r + g]:
                cover[s] += 1
                cover[s + r] -= 1
                if g:
                    new[s + r] |= 1
        bit = np.int64(1) << ink[j]
        run = 0
        for i in range(n):
            run += cover[i]
            if run > 0:
                new[i] |= bit
    narrowed = 0
    for i in range(n):
        if cells[i] & 1:
            for j in range(k + 1):
                if f[j, i] and b[j, i + 1]:
                    new[i] |= 1
                    break
        if new[i] == 0:
            return -1
        if new[i] != cells[i]:
            cells[i] = new[i]
            narrowed += 1
    return narrowed


@kernel
def _sweep_masks(lines, dirty, other_dirty, flat, inks, gaps, offs,
                 base):  # pragma: no cover - compiled
    """_sweep for colour lines of masks."""
    busy = 0
    for i in range(lines.shape[0]):
        if not dirty[i]:
            continue
        dirty[i] = False
        busy = 1
        line = lines[i, :].copy()
        a, z = offs[base + i], offs[base + i + 1]
        got = _settle_masks(line, flat[a:z], inks[a:z], gaps[a:z])
        if got < 0:
            return -1
        if got:
            for c in range(lines.shape[1]):
                if line[c] != lines[i, c]:
                    lines[i, c] = line[c]
                    other_dirty[c] = True
    return busy


@kernel
def _propagate_masks(grid, flat, inks, gaps, offs, row_dirty,
                     col_dirty):  # pragma: no cover - compiled
    """Line-solve dirty colour lines until nothing changes; False on contradiction."""
    while True:
        rows = _sweep_masks(grid, row_dirty, col_dirty, flat, inks, gaps, offs, 0)
        if rows < 0:
            return False
        cols = _sweep_masks(grid.T, col_dirty, row_dirty, flat, inks, gaps, offs,
                            grid.shape[0])
        if cols < 0:
            return False
        if rows == 0 and cols == 0:
            return True


@kernel
def _try_masks(grid, flat, inks, gaps, offs, r, c, bit):  # pragma: no cover - compiled
    """_try on a colour grid: cell (r, c) takes the colour of ``bit``."""
    g, rd, cd = _seeded(grid, r, c, bit)
    return _propagate_masks(g, flat, inks, gaps, offs, rd, cd), g


@kernel
def _probe_masks(grid, flat, inks, gaps, offs, first, max_probes):  # pragma: no cover
    """Probe open cells of a colour grid from cell index ``first`` on, at most
    ``max_probes``: each colour a cell may take is tried; the grid keeps, per cell, the
    colours some outcome without contradiction leaves. Returns (status, next cell index,
    learnt): status 0 contradiction, 1 ok."""
    h, w = grid.shape
    learnt = False
    probes = 0
    k = first
    while k < h * w and probes < max_probes:
        r, c = k // w, k % w
        k += 1
        m = grid[r, c]
        if m & (m - 1) == 0:
            continue
        probes += 1
        union = np.zeros((h, w), np.int64)
        for colour in range(63):
            bit = np.int64(1) << colour
            if bit > m:
                break
            if m & bit == 0:
                continue
            ok, g = _try_masks(grid, flat, inks, gaps, offs, r, c, bit)
            if ok:
                union |= g
        if not union.any():
            return 0, k, learnt
        rd = np.zeros(h, np.bool_)
        cd = np.zeros(w, np.bool_)
        narrowed = False
        for i in range(h):
            for j in range(w):
                if union[i, j] != grid[i, j]:
                    grid[i, j] = union[i, j]
                    rd[i] = True
                    cd[j] = True
                    narrowed = True
        if narrowed:
            learnt = True
            if not _propagate_masks(grid, flat, inks, gaps, offs, rd, cd):
                return 0, k, learnt
    return 1, k, learnt


@dataclass
class Presolve:
    """What line solving (and probing) settled: the grid of -1 (open) or each cell's colour
    (0/1 in two colours), and whether it is contradictory."""

    grid: np.ndarray
    contradiction: bool
    line_known: int  # cells fixed by line solving alone
    time_s: float
    probing_complete: bool = True  # False when a deadline cut probing short
    line_grid: np.ndarray | None = None  # the grid after line solving alone (before probing)

    @property
    def known(self) -> int:
        return int((self.grid != UNKNOWN).sum())

    @property
    def solved(self) -> bool:
        return not self.contradiction and self.known == self.grid.size


def clue_arrays(puzzle: Nonogram) -> tuple[np.ndarray, np.ndarray]:
    """Every line's clue (rows, then columns) as one flat array and its offsets."""
    clues = [c for _, _, c, _, _ in puzzle.lines()]
    sizes = np.array([len(c) for c in clues], dtype=np.int64)
    flat = np.array([v for c in clues for v in c], dtype=np.int64)
    return flat, np.concatenate([[0], np.cumsum(sizes)])


def ink_arrays(puzzle: Nonogram) -> tuple[np.ndarray, np.ndarray]:
    """Every run's colour and the gap after it, flat as :func:`clue_arrays`' lengths."""
    lines = puzzle.lines()
    inks = np.array([v for *_, k, _ in lines for v in k], dtype=np.int64)
    gap = np.concatenate([gaps(k) for *_, k, _ in lines] + [np.zeros(0, np.int64)])
    return inks, gap.astype(np.int64)


def colour_of(masks: np.ndarray) -> np.ndarray:
    """Per cell, the colour its mask leaves (-1 while several are possible)."""
    single = (masks & (masks - 1)) == 0
    out = np.full(masks.shape, UNKNOWN, dtype=np.int8)
    out[single] = np.log2(masks[single]).astype(np.int8)
    return out


def presolve(puzzle: Nonogram, probing: bool = True, deadline: float | None = None) -> Presolve:
    """Line-solve to a fixpoint, then (optionally) probe until nothing more is learnt or the
    ``deadline`` (a ``time.perf_counter()`` value) passes; probing stops early, never wrong.
    Colour puzzles are settled on the grid of colour sets."""
    t0 = time.perf_counter()
    for_size(__name__, puzzle.height * puzzle.width, largest_in_python(puzzle))
    flat, offs = clue_arrays(puzzle)
    rows, cols = np.ones(puzzle.height, np.bool_), np.ones(puzzle.width, np.bool_)
    if puzzle.coloured:
        inks, gap = ink_arrays(puzzle)
        grid = np.full((puzzle.height, puzzle.width), (1 << len(puzzle.colours)) - 1, np.int64)
        ok = _propagate_masks(grid, flat, inks, gap, offs, rows, cols)

        def probe(first: int, n: int) -> tuple[int, int, bool]:
            return _probe_masks(grid, flat, inks, gap, offs, first, n)

        def settled() -> np.ndarray:
            return colour_of(grid)
    else:
        grid = np.full((puzzle.height, puzzle.width), UNKNOWN, dtype=np.int8)
        ok = _propagate(grid, flat, offs, rows, cols)

        def probe(first: int, n: int) -> tuple[int, int, bool]:
            return _probe(grid, flat, offs, first, n)

        def settled() -> np.ndarray:
            return grid.copy()
    line_grid = settled()
    complete = True
    if ok and probing:
        ok, complete = _probe_rounds(probe, settled, grid.size, deadline)
    return Presolve(settled(), not ok, int((line_grid != UNKNOWN).sum()),
                    time.perf_counter() - t0, complete, line_grid)


def _probe_rounds(probe: Callable[[int, int], tuple[int, int, bool]],
                  settled: Callable[[], np.ndarray], size: int,
                  deadline: float | None) -> tuple[bool, bool]:
    """Probe the cells in rounds (``probe(first, n)``: n probes from cell ``first`` on) until
    a round learns nothing, no cell is open, a contradiction or the deadline: (no
    contradiction, probing complete)."""
    first, learnt, chunk = 0, False, 1
    while (settled() == UNKNOWN).any():
        now = time.perf_counter()
        if deadline is not None and now > deadline:
            return True, False
        status, after, got = probe(first, chunk)
        # As many probes as take about CHECK_S, at most PROBE_CHUNK, between deadline
        # checks: a large grid's probes take long, and the deadline must hold.
        per_probe = (time.perf_counter() - now) / max(after - first, 1)
        chunk = int(min(max(CHECK_S / max(per_probe, 1e-9), 1), PROBE_CHUNK))
        first = after
        learnt |= got
        if status == 0:
            return False, True
        if first >= size:
            if not learnt:
                break
            first, learnt = 0, False
    return True, True
