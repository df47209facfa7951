"""A resumable exact-cover search: set up the compiled kernel's arrays, run it in slices."""

from __future__ import annotations

import numpy as np

from smtpuzzle.exactcover import kernel
from smtpuzzle.exactcover.problem import CoverProblem


class CoverSearch:
    """One search over one problem. ``step`` runs up to ``budget`` nodes and returns the
    solutions found in that slice (row indices, when collecting); ``done`` tells when the
    whole tree has been searched; ``count`` is the number of solutions so far.

    The arrays that describe the problem are built once; :meth:`restart` starts a new search
    with other forced and forbidden rows (a sub-problem) without rebuilding them."""

    def __init__(self, problem: CoverProblem, collect: bool = False, buffer: int = 1024) -> None:
        self.problem = p = problem
        n_cells = len(p.cells)
        incid_rows = p.cells.flat
        incid_cells = np.repeat(np.arange(n_cells), p.cells.sizes)
        n_words = max(1, (n_cells + 63) // 64)
        masks = np.zeros((p.n_rows, n_words), dtype=np.uint64)
        np.bitwise_or.at(masks, (incid_rows, incid_cells >> 6),
                         np.left_shift(np.uint64(1), (incid_cells & 63).astype(np.uint64)))
        row_size = np.bincount(incid_rows, minlength=p.n_rows).astype(np.int64)
        first = np.full(p.n_rows, n_cells, dtype=np.int64)
        np.minimum.at(first, incid_rows, incid_cells)
        everything = np.arange(p.n_rows)
        order = everything[np.lexsort((p.row_group, first))]
        keys, list_start, list_rows, list_skip = _candidate_lists(
            order, first, p.row_group, incid_rows, incid_cells, n_cells)
        by_row = np.argsort(incid_rows, kind="stable")
        row_cells = incid_cells[by_row].astype(np.int64)
        row_cells_start = np.concatenate([[0], np.cumsum(row_size)]).astype(np.int64)
        nbr, min_size, graph_exact = _neighbours(p, n_cells, incid_rows, incid_cells)
        n_groups = len(p.group_need)
        group_min = np.full(n_groups, np.iinfo(np.int64).max, dtype=np.int64)
        grouped = p.row_group >= 0
        np.minimum.at(group_min, p.row_group[grouped], row_size[grouped])
        row_area = np.zeros(p.n_rows, dtype=np.int64)
        row_area[grouped] = group_min[p.row_group[grouped]]
        self._masks, self._row_size = masks, row_size
        self._group_area = np.where(group_min == np.iinfo(np.int64).max, 0, group_min)
        self.row_ok = np.ones(p.n_rows, dtype=np.bool_)
        self._args = (n_cells, p.primary.astype(np.bool_), keys, list_start, list_rows,
                      list_skip, masks, p.row_group.astype(np.int64),
                      row_size, row_area, p.group_need.astype(np.int64),
                      p.group_cap.astype(np.int64), row_cells_start, row_cells, nbr, min_size,
                      graph_exact, self.row_ok)
        self.occ = np.zeros(n_words, dtype=np.uint64)
        self.used = np.zeros(n_groups, dtype=np.int64)
        self.stack_cell = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_ptr = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_end = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_choice = np.full(n_cells + 1, kernel.NONE, dtype=np.int64)
        self.st = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self.collect = collect
        self._mark = np.zeros(n_cells, dtype=np.int64)
        self._stamp = np.zeros(1, dtype=np.int64)
        self._queue = np.zeros(n_cells + 1, dtype=np.int64)
        self.sols = np.zeros((buffer if collect else 1, n_cells + 1), dtype=np.int64)
        self.restart(p.forced, p.forbidden)

    def restart(self, forced: np.ndarray, forbidden: np.ndarray) -> None:
        """A fresh search with these rows forced and forbidden (and the rest free)."""
        p, masks = self.problem, self._masks
        self.forced = np.unique(np.asarray(forced, dtype=np.int64))
        self.row_ok[:] = True
        self.row_ok[np.asarray(forbidden, dtype=np.int64)] = False
        self.row_ok[self.forced] = False
        self.occ[:] = 0
        self.used[:] = 0
        self.st[:] = 0
        self.stack_choice[:] = kernel.NONE
        self.st[kernel.DESCEND] = 1
        possible = True
        for r in self.forced.tolist():  # forced rows are placed before the search starts
            if (self.occ & masks[r]).any():
                possible = False
            self.occ |= masks[r]
            g = p.row_group[r]
            if g >= 0:
                self.used[g] += 1
                if self.used[g] > p.group_cap[g]:
                    possible = False
            self.st[kernel.FILLED] += self._row_size[r]
        short = np.maximum(np.maximum(p.group_need, 0) - self.used, 0)
        self.st[kernel.AREA_NEEDED] = int((short * self._group_area).sum())
        if not possible:
            self.st[kernel.DONE] = 1

    @property
    def done(self) -> bool:
        return bool(self.st[kernel.DONE])

    @property
    def count(self) -> int:
        return int(self.st[kernel.COUNT])

    @property
    def nodes(self) -> int:
        return int(self.st[kernel.NODES])

    def step(self, budget: int = 2_000_000) -> list[np.ndarray]:
        """Search on for at most ``budget`` nodes; return the solutions found meanwhile."""
        return [row[row >= 0] for row in self.step_matrix(budget)]

    def step_matrix(self, budget: int = 2_000_000) -> np.ndarray:
        """Like :meth:`step`, as one array: a line per solution, its rows padded with -1."""
        if not self.done:
            kernel.run(*self._args, self.occ, self.used, self.stack_cell, self.stack_ptr,
                       self.stack_end, self.stack_choice, self.st, budget, self.sols,
                       self.collect, self._mark, self._stamp, self._queue)
        if not self.collect:
            return np.zeros((0, len(self.forced)), dtype=np.int64)
        k = int(self.st[kernel.N_SOLS])
        self.st[kernel.N_SOLS] = 0
        forced = np.broadcast_to(self.forced, (k, len(self.forced)))
        return np.concatenate([self.sols[:k], forced], axis=1)

    def run(self) -> int:
        """Search to the end (no interruption points); the number of solutions."""
        while not self.done:
            self.step(50_000_000)
        return self.count


def _neighbours(p: CoverProblem, n_cells: int, incid_rows: np.ndarray,
                incid_cells: np.ndarray) -> tuple[np.ndarray, int, bool]:
    """Padded neighbour lists for the dead-region test, the least number of graph cells a
    row covers (0: no test) and whether every graph cell must be covered. The test needs
    rows that cover connected sets of cells in the adjacency given; items outside the graph
    (secondary constraints such as "these pieces may not touch") do not count."""
    if p.adjacency is None or p.n_rows == 0:
        return np.full((n_cells, 1), -1, dtype=np.int64), 0, True
    a, b = p.adjacency[:, 0], p.adjacency[:, 1]
    src, dst = np.concatenate([a, b]), np.concatenate([b, a])
    deg = np.bincount(src, minlength=n_cells)
    nbr = np.full((n_cells, max(1, int(deg.max()))), -1, dtype=np.int64)
    order = np.argsort(src, kind="stable")
    src, dst = src[order], dst[order]
    slot = np.arange(len(src)) - np.concatenate([[0], np.cumsum(deg)])[src]
    nbr[src, slot] = dst
    in_graph = deg > 0
    graph_size = np.bincount(incid_rows[in_graph[incid_cells]], minlength=p.n_rows)
    return nbr, int(graph_size.min()), bool(p.primary[in_graph].all())


KEY_CELLS = 6  # cells per bucket whose occupancy selects the candidate list (2^6 lists)


def _candidate_lists(order: np.ndarray, first: np.ndarray, row_group: np.ndarray,
                     incid_rows: np.ndarray, incid_cells: np.ndarray, n_cells: int):
    """For every cell: its key cells (the ones its rows cover most often) and, for every
    occupancy pattern of them, the rows that avoid all occupied key cells, in group order,
    with skip pointers past each group's run. All vectorised and sparse (row-cell pairs,
    never a rows x cells matrix): this runs per sub-problem, and on large boards."""
    n_lists = 1 << KEY_CELLS
    anchor = first[order]  # the cell whose bucket each candidate row is in
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    own = first[incid_rows]
    other = incid_cells != own
    cand, own, cell = position[incid_rows[other]], own[other], incid_cells[other]
    # How often the rows of each bucket cover each other cell; the most frequent are keys
    # (ties to the lower cell).
    pair, freq = np.unique(own * n_cells + cell, return_counts=True)
    p_anchor, p_cell = pair // n_cells, pair % n_cells
    by = np.lexsort((p_cell, -freq, p_anchor))
    p_anchor, p_cell = p_anchor[by], p_cell[by]
    rank = np.arange(len(by)) - np.searchsorted(p_anchor, p_anchor)
    top = rank < KEY_CELLS
    keys = np.full((n_cells, KEY_CELLS), -1, dtype=np.int64)
    keys[p_anchor[top], rank[top]] = p_cell[top]
    # Each candidate's pattern: which of its bucket's key cells it covers.
    bits = ((keys[own] == cell[:, None]) * (1 << np.arange(KEY_CELLS))).sum(axis=1)
    pattern = np.bincount(cand, weights=bits, minlength=len(order)).astype(np.int64)
    # List (cell, o) holds the candidates whose pattern avoids o, in bucket order.
    cand_idx, o = np.nonzero((pattern[:, None] & np.arange(n_lists)[None, :]) == 0)
    slot = anchor[cand_idx] * n_lists + o
    by_slot = np.lexsort((cand_idx, slot))
    slot, cand_idx = slot[by_slot], cand_idx[by_slot]
    list_rows = order[cand_idx].astype(np.int64)
    starts = np.zeros(n_cells * n_lists + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(slot, minlength=n_cells * n_lists))
    groups = row_group[list_rows]
    new_run = np.ones(len(list_rows) + 1, dtype=bool)
    new_run[1:-1] = (groups[1:] != groups[:-1]) | (slot[1:] != slot[:-1])
    run_starts = np.flatnonzero(new_run)
    list_skip = run_starts[np.searchsorted(run_starts, np.arange(len(list_rows)), "right")]
    return keys.astype(np.int64), starts, list_rows, list_skip.astype(np.int64)
