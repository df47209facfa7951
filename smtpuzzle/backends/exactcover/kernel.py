"""The compiled search: exact cover with multiplicities, over bitsets, resumable.

Cells are branched on in a fixed order (the caller picks a sweep order): the first undecided
cell is either covered by a row whose first cell it is, or, if the cell is secondary and
area allows, left empty. Rows belong to groups (pieces) with a minimum and maximum count;
``row_area`` is the least row size in a row's group, so the area still needed is a sound
lower bound.
The search state lives in arrays owned by the caller, so a call runs at most ``budget``
nodes and returns; the next call continues where it stopped. That makes progress reports,
time limits and Ctrl-C possible around compiled code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from smtpuzzle.backends.exactcover import deadends

# st (int64 state array) fields
DEPTH, FILLED, AREA_NEEDED, DESCEND, DONE, COUNT, NODES, N_SOLS, USED_KEY = range(9)
STATE_SIZE = 9
EMPTY = -2  # stack_choice: the cell was left empty
NONE = -1  # stack_choice: nothing chosen yet

# return codes
FINISHED, BUDGET, BUFFER_FULL = 0, 1, 2


@njit(cache=True, nogil=True, inline="always")
def claim_slot(st, sols, nodes):
    """The solution buffer's next line for a leaf, or -1 when the buffer is full: then the
    search is to stop (return BUFFER_FULL) and revisit the leaf once it has been drained."""
    k = st[N_SOLS]
    if k >= sols.shape[0]:
        st[DESCEND] = 1
        st[NODES] += nodes
        return -1
    st[N_SOLS] = k + 1
    return k


@njit(cache=True, nogil=True, inline="always")
def needs_met(used, group_need):
    """Whether every piece is placed at least as often as it must be."""
    for g in range(group_need.shape[0]):
        if used[g] < group_need[g]:
            return False
    return True


@njit(cache=True, nogil=True)
def _cut_off(r, occ, border_start, border, nbr, min_size, limit, mark, stamp, queue):
    """Cells in the empty regions smaller than min_size that placing row r (already in occ)
    cut off: no row fits there, so they stay empty. Stops counting once above ``limit``.
    ``border`` lists, per row, the cells next to it where a region can be cut off."""
    base = stamp[0]  # marks above base were made by this call's fills
    total = 0
    for i in range(border_start[r], border_start[r + 1]):
        y = border[i]
        if mark[y] > base or (occ[y >> 6] >> np.uint64(y & 63)) & np.uint64(1):
            continue
        # bounded flood fill from y over empty cells
        stamp[0] += 1
        s = stamp[0]
        mark[y] = s
        queue[0] = y
        head, tail = 0, 1
        while head < tail and tail < min_size:
            z = queue[head]
            head += 1
            for k in range(nbr.shape[1]):
                w = nbr[z, k]
                if w >= 0 and mark[w] != s and not (
                        (occ[w >> 6] >> np.uint64(w & 63)) & np.uint64(1)):
                    mark[w] = s
                    queue[tail] = w
                    tail += 1
                    if tail >= min_size:
                        break
        if tail < min_size:
            total += tail
            if total > limit:
                return total
    return total


@njit(cache=True, nogil=True)
def run(n_cells, primary, keys, list_start, list_rows, list_skip, masks, row_group, row_size,
        row_area, group_need, group_cap, border_start, border, nbr, min_size, exact, row_ok,
        occ, used, stack_cell, stack_start, stack_ptr, stack_end, stack_choice, st, budget,
        sols, collect, mark, stamp, queue, dead, dead_filter, dead_info, dead_shifts, dead_free,
        stack_count, stack_nodes):
    n_words = masks.shape[1]
    nodes = 0
    prune = min_size > 1
    memo = dead.shape[0] > 0 and dead_info[4] == 0
    while nodes < budget:
        depth = st[DEPTH]
        if st[DESCEND] == 1:
            st[DESCEND] = 0
            nodes += 1
            # first undecided cell after the parent's cell
            c = stack_cell[depth - 1] + 1 if depth > 0 else 0
            while c < n_cells and (occ[c >> 6] >> np.uint64(c & 63)) & np.uint64(1):
                c += 1
            if c == n_cells:
                if needs_met(used, group_need):
                    if collect:
                        k = claim_slot(st, sols, nodes)
                        if k < 0:
                            return BUFFER_FULL
                        m = 0
                        for d in range(depth):
                            if stack_choice[d] >= 0:
                                sols[k, m] = stack_choice[d]
                                m += 1
                        for j in range(m, sols.shape[1]):
                            sols[k, j] = -1
                    st[COUNT] += 1
                continue  # backtrack: the top frame advances below on the next turn
            if n_cells - st[FILLED] < st[AREA_NEEDED]:
                continue
            if memo and n_cells - st[FILLED] >= dead_free:
                if deadends.known(dead, dead_filter, dead_info, occ, st[USED_KEY], c):
                    continue
                memo = dead_info[4] == 0
            stack_count[depth] = st[COUNT]
            stack_nodes[depth] = st[NODES] + nodes
            # The candidate list for this cell and the occupancy of its key cells: rows that
            # need an occupied key cell are never scanned.
            pattern = 0
            for j in range(keys.shape[1]):
                k = keys[c, j]
                if k >= 0 and (occ[k >> 6] >> np.uint64(k & 63)) & np.uint64(1):
                    pattern |= 1 << j
            slot = c * (1 << keys.shape[1]) + pattern
            stack_cell[depth] = c
            stack_start[depth] = list_start[slot]
            stack_ptr[depth] = list_start[slot]
            stack_end[depth] = list_start[slot + 1]
            stack_choice[depth] = NONE
            st[DEPTH] = depth + 1
            depth += 1
        # advance the top frame: undo its choice, try the next one
        if depth == 0:
            st[DONE] = 1
            st[NODES] += nodes
            return FINISHED
        f = depth - 1
        c = stack_cell[f]
        r = stack_choice[f]
        if r >= 0:
            for w in range(n_words):
                occ[w] ^= masks[r, w]
            g = row_group[r]
            if g >= 0:
                used[g] -= 1
                st[USED_KEY] -= 1 << dead_shifts[g]
                if used[g] < group_need[g]:
                    st[AREA_NEEDED] += row_area[r]
            st[FILLED] -= row_size[r]
        elif r == EMPTY:
            occ[c >> 6] ^= np.uint64(1) << np.uint64(c & 63)
            st[FILLED] -= 1
            stack_choice[f] = NONE
            st[DEPTH] = f  # the empty option is the last one: pop
            if memo and st[COUNT] == stack_count[f] and n_cells - st[FILLED] >= dead_free:
                deadends.remember(dead, dead_filter, dead_info, occ, st[USED_KEY], c,
                                  st[NODES] + nodes - stack_nodes[f])
            continue
        stack_choice[f] = NONE
        end = stack_end[f]
        p = stack_ptr[f]
        chosen = -1
        while p < end:
            r = list_rows[p]
            g = row_group[r]
            if g >= 0 and used[g] >= group_cap[g]:
                p = list_skip[p]  # the rest of this group's rows here
                continue
            p += 1
            if not row_ok[r]:
                continue
            fits = True
            for w in range(n_words):
                if occ[w] & masks[r, w]:
                    fits = False
                    break
            if fits:
                if prune:
                    # cells that may still stay empty once r is placed
                    spare = n_cells - st[FILLED] - row_size[r] - st[AREA_NEEDED]
                    if g >= 0 and used[g] < group_need[g]:
                        spare += row_area[r]
                    if exact:
                        spare = 0
                    for w in range(n_words):
                        occ[w] |= masks[r, w]
                    lost = _cut_off(r, occ, border_start, border, nbr, min_size, spare,
                                    mark, stamp, queue)
                    for w in range(n_words):
                        occ[w] ^= masks[r, w]
                    if lost > spare:
                        continue
                chosen = r
                break
        stack_ptr[f] = p
        if chosen >= 0:
            for w in range(n_words):
                occ[w] |= masks[chosen, w]
            g = row_group[chosen]
            if g >= 0:
                if used[g] < group_need[g]:
                    st[AREA_NEEDED] -= row_area[chosen]
                used[g] += 1
                st[USED_KEY] += 1 << dead_shifts[g]
            st[FILLED] += row_size[chosen]
            stack_choice[f] = chosen
            st[DESCEND] = 1
            continue
        # rows exhausted: leave the cell empty if it may be, else pop
        if not primary[c] and n_cells - st[FILLED] - 1 >= st[AREA_NEEDED]:
            occ[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
            st[FILLED] += 1
            stack_choice[f] = EMPTY
            st[DESCEND] = 1
            continue
        st[DEPTH] = f
        if memo and st[COUNT] == stack_count[f] and n_cells - st[FILLED] >= dead_free:
            deadends.remember(dead, dead_filter, dead_info, occ, st[USED_KEY], c,
                              st[NODES] + nodes - stack_nodes[f])
    st[NODES] += nodes
    return BUDGET
