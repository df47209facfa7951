"""Guessing a nonogram's open cells by belief propagation (numba kernels).

Each line is a factor over its cells and each cell lies in two lines, a row and a column.
A line tells each of its cells how likely it is filled, given the clue and what the
crossing lines say of its other cells: a weighted count of the line's placements (the
forward/backward sums of line solving, with products of probabilities in place of
booleans). Messages go back and forth until they settle; a cell's belief combines its
row's and its column's message.

Beliefs are guesses, never inferences: the solver takes the most confident ones as
assumptions and gives up those that a conflict blames (see Model.hints and ``guided`` in
backends/base.py). On puzzles with many solutions, such as faase, this finds the first
one in seconds where an unguided CDCL search needs minutes: the beliefs point at one
consistent region of the huge solution space, and the search no longer wanders between
several.
"""

from __future__ import annotations

import time

import numpy as np

from smtpuzzle.kernels import for_size, kernel
from smtpuzzle.puzzles.nonogram.linesolve import clue_arrays, ink_arrays, largest_in_python
from smtpuzzle.puzzles.nonogram.puzzle import UNKNOWN, Nonogram

SWEEPS = 200  # at most; messages usually settle much sooner
SWEEPS_PER_CHECK = 10  # sweeps between deadline checks, at most
CHECK_S = 0.05  # seconds of work between deadline checks, about
DAMPING = 0.5  # share of the old message kept: loopy propagation oscillates without it
SETTLED = 1e-4  # largest change of a message that counts as settled
_FLOOR = 1e-4  # messages stay inside [_FLOOR, 1 - _FLOOR]: no guess is ever certain


@kernel
def _line_messages(cells, clue, incoming, out):  # pragma: no cover - compiled
    """``out[i]``: the probability that cell i is filled, from this line's placements
    weighted by ``incoming`` (the crossing lines' messages) at every cell but i. False
    when no placement fits the known cells.

    The line is padded with one empty cell, so every run is followed by a gap; f[j, i]
    weighs cells [0, i) holding runs 0..j-1 and ending empty (or i = 0), b[j, i] cells
    [i, n] holding runs j..k-1."""
    n, k = cells.shape[0], clue.shape[0]
    m = n + 1
    w1 = np.zeros(m)
    w0 = np.ones(m)
    for i in range(n):
        if cells[i] == 1:
            w1[i], w0[i] = 1.0, 0.0
        elif cells[i] == 0:
            w1[i], w0[i] = 0.0, 1.0
        else:
            q = min(max(incoming[i], _FLOOR), 1.0 - _FLOOR)
            w1[i], w0[i] = q, 1.0 - q
    # placed[j, s]: the weight of run j starting at s (its cells filled, the next empty).
    placed = np.zeros((k, m))
    for j in range(k):
        r = clue[j]
        for s in range(m - r):
            p = w0[s + r]
            for t in range(s, s + r):
                p *= w1[t]
            placed[j, s] = p
    f = np.zeros((k + 1, m + 1))
    f[0, 0] = 1.0
    for i in range(m):
        for j in range(k + 1):
            v = f[j, i]
            if v == 0.0:
                continue
            f[j, i + 1] += v * w0[i]
            if j < k and i + clue[j] < m:
                f[j + 1, i + clue[j] + 1] += v * placed[j, i]
    total = f[k, m]
    if total <= 0.0:
        return False
    b = np.zeros((k + 1, m + 1))
    b[k, m] = 1.0
    for i in range(m - 1, -1, -1):
        for j in range(k, -1, -1):
            v = w0[i] * b[j, i + 1]
            if j < k and i + clue[j] < m:
                v += placed[j, i] * b[j + 1, i + clue[j] + 1]
            b[j, i] = v
    cover = np.zeros(m + 1)
    for j in range(k):
        r = clue[j]
        for s in range(m - r):
            p = f[j, s] * placed[j, s] * b[j + 1, s + r + 1]
            cover[s] += p
            cover[s + r] -= p
    covered = 0.0
    for i in range(n):
        covered += cover[i]
        if cells[i] != -1:
            out[i] = cells[i]
            continue
        filled = min(max(covered / total, 0.0), 1.0)
        # Take the cell's own incoming weight back out: the message is what the line says.
        a, z = filled / w1[i], (1.0 - filled) / w0[i]
        out[i] = a / (a + z)
    return True


@kernel
def _propagate_beliefs(grid, flat, offs, rows, cols, sweeps, damping,
                       settled):  # pragma: no cover - compiled
    """Rows update their messages from the columns', then columns from the rows', at most
    ``sweeps`` times. Returns 1 once no message moves by more than ``settled``, 2 if they
    still move, 0 if some line has no placement."""
    h, w = grid.shape
    out = np.zeros(max(h, w))
    for _ in range(sweeps):
        moved = 0.0
        for i in range(h):
            if not _line_messages(grid[i, :].copy(), flat[offs[i]:offs[i + 1]],
                                  cols[i, :].copy(), out[:w]):
                return 0
            for c in range(w):
                new = damping * rows[i, c] + (1.0 - damping) * out[c]
                moved = max(moved, abs(new - rows[i, c]))
                rows[i, c] = new
        for c in range(w):
            if not _line_messages(grid[:, c].copy(), flat[offs[h + c]:offs[h + c + 1]],
                                  rows[:, c].copy(), out[:h]):
                return 0
            for i in range(h):
                new = damping * cols[i, c] + (1.0 - damping) * out[i]
                moved = max(moved, abs(new - cols[i, c]))
                cols[i, c] = new
        if moved < settled:
            return 1
    return 2


@kernel
def _colour_messages(cells, clue, ink, gap, incoming, out):  # pragma: no cover - compiled
    """``out[i, c]``: the probability that cell i has colour c, from this line's placements
    weighted by ``incoming`` (n x colours, the crossing lines' messages) at every cell but
    i. False when no placement fits the known cells (-1 open, else the colour)."""
    n, k, m = cells.shape[0], clue.shape[0], incoming.shape[1]
    w = np.zeros((n, m))
    for i in range(n):
        if cells[i] >= 0:
            w[i, cells[i]] = 1.0
        else:
            for c in range(m):
                w[i, c] = min(max(incoming[i, c], _FLOOR), 1.0 - _FLOOR)
    placed = np.zeros((k, n + 1))
    for j in range(k):
        r, g = clue[j], gap[j]
        for s in range(n - r - g + 1):
            p = w[s + r, 0] if g else 1.0
            for t in range(s, s + r):
                p *= w[t, ink[j]]
            placed[j, s] = p
    f = np.zeros((k + 1, n + 1))
    f[0, 0] = 1.0
    for i in range(n + 1):
        for j in range(k + 1):
            v = f[j, i]
            if v == 0.0:
                continue
            if i < n:
                f[j, i + 1] += v * w[i, 0]
            if j < k and i + clue[j] + gap[j] <= n:
                f[j + 1, i + clue[j] + gap[j]] += v * placed[j, i]
    total = f[k, n]
    if total <= 0.0:
        return False
    b = np.zeros((k + 1, n + 1))
    b[k, n] = 1.0
    for i in range(n - 1, -1, -1):
        for j in range(k, -1, -1):
            v = w[i, 0] * b[j, i + 1]
            if j < k and i + clue[j] + gap[j] <= n:
                v += placed[j, i] * b[j + 1, i + clue[j] + gap[j]]
            b[j, i] = v
    marg = np.zeros((n + 1, m))
    for i in range(n):
        for j in range(k + 1):
            marg[i, 0] += f[j, i] * w[i, 0] * b[j, i + 1]
    cover = np.zeros(n + 1)
    for j in range(k):
        r, g = clue[j], gap[j]
        cover[:] = 0.0
        for s in range(n - r - g + 1):
            p = f[j, s] * placed[j, s] * b[j + 1, s + r + g]
            cover[s] += p
            cover[s + r] -= p
            if g:
                marg[s + r, 0] += p
        run = 0.0
        for i in range(n):
            run += cover[i]
            marg[i, ink[j]] += run
    for i in range(n):
        if cells[i] >= 0:
            for c in range(m):
                out[i, c] = 1.0 if c == cells[i] else 0.0
            continue
        # Take the cell's own incoming weight back out: the message is what the line says.
        z = 0.0
        for c in range(m):
            out[i, c] = max(marg[i, c], 0.0) / total / w[i, c]
            z += out[i, c]
        for c in range(m):
            out[i, c] = out[i, c] / z if z > 0.0 else 1.0 / m
    return True


@kernel
def _propagate_colour_beliefs(grid, flat, inks, gaps, offs, rows, cols, sweeps, damping,
                              settled):  # pragma: no cover - compiled
    """_propagate_beliefs for colour messages (H x W x colours)."""
    h, w, m = rows.shape
    out = np.zeros((max(h, w), m))
    for _ in range(sweeps):
        moved = 0.0
        for i in range(h):
            a, z = offs[i], offs[i + 1]
            if not _colour_messages(grid[i, :].copy(), flat[a:z], inks[a:z], gaps[a:z],
                                    cols[i, :, :].copy(), out[:w]):
                return 0
            for c in range(w):
                for q in range(m):
                    new = damping * rows[i, c, q] + (1.0 - damping) * out[c, q]
                    moved = max(moved, abs(new - rows[i, c, q]))
                    rows[i, c, q] = new
        for c in range(w):
            a, z = offs[h + c], offs[h + c + 1]
            if not _colour_messages(grid[:, c].copy(), flat[a:z], inks[a:z], gaps[a:z],
                                    rows[:, c, :].copy(), out[:h]):
                return 0
            for i in range(h):
                for q in range(m):
                    new = damping * cols[i, c, q] + (1.0 - damping) * out[i, q]
                    moved = max(moved, abs(new - cols[i, c, q]))
                    cols[i, c, q] = new
        if moved < settled:
            return 1
    return 2


def beliefs(puzzle: Nonogram, known: np.ndarray,
            deadline: float | None = None) -> np.ndarray | None:
    """Per cell (H x W), the belief that it is filled: 0 or 1 where ``known`` says so,
    else between; in colour (H x W x colours), per cell its colours' probabilities. None
    when some line cannot be placed at all (then there is no solution; line solving would
    have found that first). At the ``deadline`` (a
    ``time.perf_counter()`` value) the messages so far make the beliefs."""
    for_size(__name__, puzzle.height * puzzle.width, largest_in_python(puzzle))
    flat, offs = clue_arrays(puzzle)
    grid = np.asarray(known, dtype=np.int8)
    if puzzle.coloured:
        inks, gaps = ink_arrays(puzzle)
        shape = grid.shape + (len(puzzle.colours),)
        rows, cols = np.full(shape, 1.0 / shape[2]), np.full(shape, 1.0 / shape[2])

        def sweep(n: int) -> int:
            return _propagate_colour_beliefs(grid, flat, inks, gaps, offs, rows, cols, n,
                                             DAMPING, SETTLED)
    else:
        rows, cols = np.full(grid.shape, 0.5), np.full(grid.shape, 0.5)

        def sweep(n: int) -> int:
            return _propagate_beliefs(grid, flat, offs, rows, cols, n, DAMPING, SETTLED)
    done, chunk = 0, 1
    while done < SWEEPS:
        started = time.perf_counter()
        state = sweep(chunk)
        done += chunk
        if state == 0:
            return None
        now = time.perf_counter()
        if state == 1 or (deadline is not None and now > deadline):
            break
        # As many sweeps as take about CHECK_S, at most SWEEPS_PER_CHECK, between deadline
        # checks: a sweep of a large grid takes long, and the deadline must hold.
        per_sweep = (now - started) / chunk
        chunk = int(min(max(CHECK_S / max(per_sweep, 1e-9), 1), SWEEPS_PER_CHECK,
                        SWEEPS - done))
    if puzzle.coloured:  # per cell, its colours' probabilities
        both = rows * cols
        out = both / np.maximum(both.sum(axis=2, keepdims=True), 1e-300)
        known_cells = grid != UNKNOWN
        out[known_cells] = np.eye(out.shape[2])[grid[known_cells]]
        return out
    both, neither = rows * cols, (1.0 - rows) * (1.0 - cols)
    out = both / (both + neither)
    out[grid != UNKNOWN] = grid[grid != UNKNOWN]
    return out


def guesses(known: np.ndarray, belief: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray]:
    """The most confident ``share`` of the open cells, most confident first: their indices
    (row-major) and the values believed (the colour; 1 filled, 0 empty in two colours)."""
    open_cells = np.flatnonzero(np.asarray(known).ravel() == UNKNOWN)
    if belief.ndim == 3:  # colours: the likeliest one, as sure as its probability
        b = belief.reshape(-1, belief.shape[2])[open_cells]
        sure, value = b.max(axis=1), b.argmax(axis=1)
    else:
        b = belief.ravel()[open_cells]
        sure, value = np.abs(b - 0.5), (b > 0.5).astype(np.int64)
    order = np.argsort(-sure, kind="stable")[: int(len(open_cells) * share)]
    return open_cells[order], value[order]
