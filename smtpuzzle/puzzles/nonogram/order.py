"""The order encoding of a nonogram line: each run's start is an integer whose values are
spelled by bound literals, ``G[j, t]`` = "run j starts at t or later".

Clauses (all of them short):
- the bounds are monotone: G[j, t+1] -> G[j, t];
- starts that the known cells rule out are holes: G[j, s] -> G[j, s+1];
- runs keep their order: G[j, t] -> G[j+1, t + r_j + g_j], the gap g_j 1 when run j+1 has
  run j's colour, else 0;
- a run covering a cell gives it the run's colour: G[j, c-r_j+1] and not G[j, c+1] -> cell c
  has colour j;
- a cell of colour k lies in the last run started by then: if runs 0..j-1 have started by c
  and run j has not, cell c of colour k means run j-1 has colour k and still covers it (no
  run started, or run j-1 of another colour: the cell is not of colour k).

A conflict then teaches the solver a clause about where runs may start ("run 3 starts
after 40 or run 4 before 52"), which generalises across the many placements that the
position encoding must refute one by one. On faase (80 x 95) CaDiCaL finds a solution
without guesses in minutes with this encoding, and none in 25 minutes with the position
encoding.
"""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import Groups, Model
from smtpuzzle.puzzles.nonogram.clues import gaps

_TRUE = np.int64(1) << np.int64(60)  # stands for a constant literal while clauses are built


def _simplified(clauses: np.ndarray) -> Groups | None:
    """Drop the clauses that hold a constant true literal, strip the constant false ones;
    None when some clause is left empty (the line cannot be satisfied)."""
    keep = ~(clauses == _TRUE).any(axis=1)
    clauses = clauses[keep]
    live = clauses != -_TRUE
    sizes = live.sum(axis=1)
    if (sizes == 0).any():
        return None
    return Groups(clauses[live], np.concatenate([[0], np.cumsum(sizes)]))


def add_order_line(model: Model, cells: np.ndarray, clue: tuple[int, ...], col: np.ndarray,
                   starts: list[np.ndarray]) -> None:
    """Constrain the line ``cells`` (literals, n x inks: "cell i has ink k") to ``clue``,
    run j of ink ``col[j]``, each run starting at one of ``starts[j]`` (ascending,
    non-empty: see ``run_starts``)."""
    n, k = len(cells), len(clue)
    r = np.asarray(clue, dtype=np.int64)
    col = np.asarray(col, dtype=np.int64)
    space = r + gaps(col)
    lo = np.array([s[0] for s in starts], dtype=np.int64)
    hi = np.array([s[-1] for s in starts], dtype=np.int64)
    # ge[j, t] for t = 0 .. n + 1; row k (run k never starts) is constant true.
    t = np.arange(n + 2)
    ge = np.where(t[None, :] <= lo[:, None], _TRUE, -_TRUE)
    free = (t[None, :] > lo[:, None]) & (t[None, :] <= hi[:, None])
    ge[free] = model.new_bools(int(free.sum()))
    ge = np.vstack([ge, np.full((1, n + 2), _TRUE)])

    def at(j: np.ndarray, t: np.ndarray) -> np.ndarray:
        return ge[j, np.clip(t, 0, n + 1)]

    runs = np.arange(k)
    jj, tt = np.repeat(runs, n + 1), np.tile(np.arange(n + 1), k)
    allowed = np.zeros((k, n + 1), dtype=bool)
    allowed[np.repeat(runs, [len(s) for s in starts]), np.concatenate(starts)] = True
    hole = ~allowed.ravel()
    parts = [
        np.stack([-at(jj, tt + 1), at(jj, tt)], axis=1),
        np.stack([-at(jj[hole], tt[hole]), at(jj[hole], tt[hole] + 1)], axis=1),
    ]
    if k > 1:
        inner = jj < k - 1
        j1, t1 = jj[inner], tt[inner]
        parts.append(np.stack([-at(j1, t1), at(j1 + 1, t1 + space[j1])], axis=1))
    jc, cc = np.repeat(runs, n), np.tile(np.arange(n), k)
    lit = cells[cc, col[jc]]
    parts.append(np.stack([at(jc, cc + 1), -at(jc, cc - r[jc] + 1), lit], axis=1))
    # Between runs j-1 and j at cell c (j = 0: none started; j = k: all started).
    jb, cb = np.repeat(np.arange(k + 1), n), np.tile(np.arange(n), k + 1)
    prev = np.maximum(jb - 1, 0)
    started = np.where(jb > 0, at(prev, cb + 1), -_TRUE)
    covers = np.where(jb > 0, at(prev, cb - r[prev] + 1), -_TRUE)
    for ink in range(cells.shape[1]):
        yes = (jb > 0) & (col[prev] == ink)
        parts.append(np.stack([started, -at(jb, cb + 1), -cells[cb, ink],
                               np.where(yes, covers, -_TRUE)], axis=1))
    groups = [_simplified(p) for p in parts]
    if any(g is None for g in groups):
        model.add_false()
        return
    model.add_clauses(Groups.concat([g for g in groups if g is not None and len(g)]))
