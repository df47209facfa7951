"""The rule that pieces of an edge grid do not cross, as at-most-one groups of placements.

Per vertex and per pair of chords that interleave round it (geometry/edges.py), the
placements holding either chord: at most one may be chosen. The exact-cover engine takes
each group as an optional item; the other back ends as at-most-one constraints.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from smtpuzzle.geometry.edges import crossing_pairs, degree_of, directions
from smtpuzzle.geometry.grids import Grid
from smtpuzzle.model import Groups


def crossing_groups(edge_grid: Grid, placements: list[np.ndarray], owners: list[np.ndarray]
                    ) -> Groups:
    """At most one of each group may be chosen, so that no two pieces cross: per vertex and
    per pair of interleaving chords, the placements (``owners``, one literal per row of each
    ``placements`` array of edge coordinates (rows, k, 2)) that hold either chord."""
    pairs = crossing_pairs(degree_of(edge_grid))
    if not pairs or not placements:
        return Groups.of([])
    verts, bits, who = [], [], []  # per edge end: its vertex, direction bit, placement
    for cells, lits in zip(placements, owners, strict=True):
        if not len(cells):
            continue
        n, k = cells.shape[:2]
        v, d = directions(edge_grid, cells.reshape(-1, 2))
        verts.append(v.reshape(n * 2 * k, 2))
        bits.append(np.left_shift(1, d).reshape(-1))
        who.append(np.repeat(np.asarray(lits, dtype=np.int64), 2 * k))
    if not verts:
        return Groups.of([])
    _, vertex = np.unique(np.concatenate(verts), axis=0, return_inverse=True)
    lit = np.concatenate(who)
    # Each placement's direction mask at each of its vertices: OR over its edge ends there.
    pv, inverse = np.unique(np.stack([lit, vertex.reshape(-1)], axis=1), axis=0,
                            return_inverse=True)
    mask = np.zeros(len(pv), dtype=np.int64)
    np.bitwise_or.at(mask, inverse.reshape(-1), np.concatenate(bits))
    many = (mask & (mask - 1)) != 0  # two edges or more of the placement meet there
    pv, mask = pv[many], mask[many]
    row, q = np.nonzero(_holds(degree_of(edge_grid))[mask])
    key = pv[row, 1] * len(pairs) + q  # (vertex, chord pair)
    order = np.argsort(key, kind="stable")
    _, sizes = np.unique(key, return_counts=True)
    keep = np.repeat(sizes > 1, sizes)  # a group of one placement says nothing
    return Groups(pv[row, 0][order][keep], np.concatenate([[0], np.cumsum(sizes[sizes > 1])]))


@cache
def _holds(degree: int) -> np.ndarray:
    """For each direction mask at a vertex (2^degree rows), which pairs of crossing chords
    it holds one of (columns: ``crossing_pairs(degree)``)."""
    out = np.array([[bool(m >> a1 & 1 and m >> a2 & 1 or m >> b1 & 1 and m >> b2 & 1)
                     for a1, a2, b1, b2 in crossing_pairs(degree)]
                    for m in range(1 << degree)], dtype=bool)
    out.setflags(write=False)
    return out
