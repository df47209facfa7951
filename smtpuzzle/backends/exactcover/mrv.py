"""The compiled search that branches on the most constrained item (Knuth's rule for dancing
links), over bitsets of rows, resumable like the sweep kernel.

Items are the uncovered primary cells and the pieces whose last copy is still to be placed.
Each search level keeps the set of rows still possible as a bitset; an item's options are
its rows in that set, counted by popcount. At each node the item with the fewest options is
branched on, and an item with none ends the branch at once. On boxes in 3D this visits over
a hundred times fewer nodes than sweeping cells in a fixed order (bench/RESULTS.md).

Rows are numbered here by their first cell, so a cell's rows sit in a short run of words.
The rule needs every row to be chosen through some item: each row covers a primary cell or
belongs to a piece placed exactly once (:func:`applies`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The state array, its fields and the return codes are the sweep kernel's (FILLED and
# AREA_NEEDED stay unused here), so callers read both kernels alike.
from smtpuzzle.backends.exactcover.kernel import (
    BUDGET,
    BUFFER_FULL,
    COUNT,
    DEPTH,
    DESCEND,
    DONE,
    FINISHED,
    NODES,
    NONE,
    claim_slot,
    needs_met,
)

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def applies(primary: np.ndarray, row_group: np.ndarray, group_need: np.ndarray,
            group_cap: np.ndarray, incid_rows: np.ndarray, incid_cells: np.ndarray,
            n_rows: int) -> bool:
    """Whether every row can be reached by branching on an item."""
    on_primary = np.zeros(n_rows, dtype=bool)
    on_primary[incid_rows[primary[incid_cells]]] = True
    once = (group_need == 1) & (group_cap == 1)
    grouped = row_group >= 0
    in_once = np.zeros(n_rows, dtype=bool)
    in_once[grouped] = once[row_group[grouped]]
    return bool((on_primary | in_once).all())


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True, inline="always")
def _lowest_bit(x):
    i = 0
    while not (x >> np.uint64(i)) & np.uint64(1):
        i += 1
    return i


@njit(cache=True, nogil=True)
def run(primary, cell_rows, cell_lo, cell_hi, group_rows, row_cells_start, row_cells, row_group,
        row_id, group_need, group_cap, alive, covered, used, stack_item, stack_ptr, stack_choice,
        st, budget, sols, collect):
    n_cells = primary.shape[0]
    n_groups = group_need.shape[0]
    n_words = alive.shape[1]
    nodes = 0
    while nodes < budget:
        depth = st[DEPTH]
        if st[DESCEND] == 1:
            st[DESCEND] = 0
            nodes += 1
            best = 1 << 62
            item = -1
            for c in range(n_cells):
                if primary[c] and not covered[c]:
                    k = 0
                    for w in range(cell_lo[c], cell_hi[c]):
                        k += _popcount(cell_rows[c, w] & alive[depth, w])
                    if k < best:
                        best = k
                        item = c
                        if k == 0:
                            break
            if best > 0:
                for g in range(n_groups):
                    if group_need[g] == group_cap[g] and used[g] == group_need[g] - 1:
                        k = 0
                        for w in range(n_words):
                            k += _popcount(group_rows[g, w] & alive[depth, w])
                        if k < best:
                            best = k
                            item = n_cells + g
                            if k == 0:
                                break
            if item < 0:  # every primary cell covered, every last copy placed
                if needs_met(used, group_need):
                    if collect:
                        k = claim_slot(st, sols, nodes)
                        if k < 0:
                            return BUFFER_FULL
                        for d in range(depth):
                            sols[k, d] = row_id[stack_choice[d]]
                        for j in range(depth, sols.shape[1]):
                            sols[k, j] = -1
                    st[COUNT] += 1
                continue
            if best == 0:
                continue
            stack_item[depth] = item
            stack_ptr[depth] = 64 * cell_lo[item] if item < n_cells else 0
            stack_choice[depth] = NONE
            st[DEPTH] = depth + 1
            depth += 1
        if depth == 0:
            st[DONE] = 1
            st[NODES] += nodes
            return FINISHED
        f = depth - 1
        r = stack_choice[f]
        if r >= 0:  # undo the last choice
            for i in range(row_cells_start[r], row_cells_start[r + 1]):
                covered[row_cells[i]] = False
            g = row_group[r]
            if g >= 0:
                used[g] -= 1
            stack_choice[f] = NONE
        # the next option of the item: a row in its set that is still possible
        item = stack_item[f]
        p = stack_ptr[f]
        end = 64 * cell_hi[item] if item < n_cells else 64 * n_words
        r = -1
        while p < end:
            w = p >> 6
            if item < n_cells:
                bits = cell_rows[item, w] & alive[f, w]
            else:
                bits = group_rows[item - n_cells, w] & alive[f, w]
            bits &= ALL << np.uint64(p & 63)
            if bits:
                r = 64 * w + _lowest_bit(bits)
                break
            p = 64 * (w + 1)
        if r < 0:
            st[DEPTH] = f
            continue
        stack_ptr[f] = r + 1
        stack_choice[f] = r
        # place r: the rows that share a cell with it, or whose piece it uses up, go
        for w in range(n_words):
            alive[f + 1, w] = alive[f, w]
        for i in range(row_cells_start[r], row_cells_start[r + 1]):
            x = row_cells[i]
            covered[x] = True
            for w in range(cell_lo[x], cell_hi[x]):
                alive[f + 1, w] &= ~cell_rows[x, w]
        g = row_group[r]
        if g >= 0:
            used[g] += 1
            if used[g] >= group_cap[g]:
                for w in range(n_words):
                    alive[f + 1, w] &= ~group_rows[g, w]
        st[DESCEND] = 1
    st[NODES] += nodes
    return BUDGET
