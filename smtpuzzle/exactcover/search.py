"""A resumable exact-cover search: set up the compiled kernel's arrays, run it in slices."""

from __future__ import annotations

import numpy as np

from smtpuzzle.exactcover import kernel
from smtpuzzle.exactcover.problem import CoverProblem


class CoverSearch:
    """One search over one problem. ``step`` runs up to ``budget`` nodes and returns the
    solutions found in that slice (row indices, when collecting); ``done`` tells when the
    whole tree has been searched; ``count`` is the number of solutions so far."""

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
        live = np.ones(p.n_rows, dtype=bool)
        live[p.forbidden] = False
        live[p.forced] = False
        cand = np.flatnonzero(live)
        # Bucket rows by first cell and, within a bucket, by group, so that the rows of a
        # used-up group are skipped in one jump (bucket_skip: the end of each run).
        order = cand[np.lexsort((p.row_group[cand], first[cand]))]
        bucket_start = np.searchsorted(first[order], np.arange(n_cells + 1)).astype(np.int64)
        key_first, key_group = first[order], p.row_group[order]
        new_run = np.ones(len(order) + 1, dtype=bool)
        new_run[1:-1] = (key_first[1:] != key_first[:-1]) | (key_group[1:] != key_group[:-1])
        run_starts = np.flatnonzero(new_run)
        bucket_skip = run_starts[np.searchsorted(run_starts, np.arange(len(order)), "right")]
        by_row = np.argsort(incid_rows, kind="stable")
        row_cells = incid_cells[by_row].astype(np.int64)
        row_cells_start = np.concatenate([[0], np.cumsum(row_size)]).astype(np.int64)
        nbr, min_size = _neighbours(p, n_cells, row_size, live)
        n_groups = len(p.group_need)
        group_min = np.full(n_groups, np.iinfo(np.int64).max, dtype=np.int64)
        grouped = p.row_group >= 0
        np.minimum.at(group_min, p.row_group[grouped], row_size[grouped])
        row_area = np.zeros(p.n_rows, dtype=np.int64)
        row_area[grouped] = group_min[p.row_group[grouped]]

        self._args = (n_cells, p.primary.astype(np.bool_), bucket_start, order.astype(np.int64),
                      bucket_skip.astype(np.int64), masks, p.row_group.astype(np.int64),
                      row_size, row_area, p.group_need.astype(np.int64),
                      p.group_cap.astype(np.int64), row_cells_start, row_cells, nbr, min_size)
        self.occ = np.zeros(n_words, dtype=np.uint64)
        self.used = np.zeros(n_groups, dtype=np.int64)
        self.stack_cell = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_ptr = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_choice = np.full(n_cells + 1, kernel.NONE, dtype=np.int64)
        self.st = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self.collect = collect
        self._mark = np.zeros(n_cells, dtype=np.int64)
        self._stamp = np.zeros(1, dtype=np.int64)
        self._queue = np.zeros(n_cells + 1, dtype=np.int64)
        max_rows = n_cells + 1
        self.sols = np.zeros((buffer if collect else 1, max_rows), dtype=np.int64)
        self.forced = p.forced
        self.st[kernel.DESCEND] = 1
        self.st[kernel.DONE] = 0
        # forced rows are placed before the search starts
        need = np.maximum(p.group_need, 0)
        possible = True
        for r in p.forced.tolist():
            if (self.occ & masks[r]).any():
                possible = False
            self.occ |= masks[r]
            g = p.row_group[r]
            if g >= 0:
                self.used[g] += 1
                if self.used[g] > p.group_cap[g]:
                    possible = False
            self.st[kernel.FILLED] += row_size[r]
        short = np.maximum(need - self.used, 0)
        self.st[kernel.AREA_NEEDED] = int((short * np.where(group_min == np.iinfo(np.int64).max,
                                                            0, group_min)).sum())
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
        if self.done:
            return []
        kernel.run(*self._args, self.occ, self.used, self.stack_cell, self.stack_ptr,
                   self.stack_choice, self.st, budget, self.sols, self.collect,
                   self._mark, self._stamp, self._queue)
        if not self.collect:
            return []
        k = int(self.st[kernel.N_SOLS])
        self.st[kernel.N_SOLS] = 0
        out = []
        for i in range(k):
            row = self.sols[i]
            out.append(np.concatenate([row[row >= 0], self.forced]))
        return out

    def run(self) -> int:
        """Search to the end (no interruption points); the number of solutions."""
        while not self.done:
            self.step(50_000_000)
        return self.count


def _neighbours(p: CoverProblem, n_cells: int, row_size: np.ndarray,
                live: np.ndarray) -> tuple[np.ndarray, int]:
    """Padded neighbour lists for the dead-region test, and the least row size (0: no test).
    The test needs rows that cover connected sets of cells in the adjacency given."""
    if p.adjacency is None or not live.any():
        return np.full((n_cells, 1), -1, dtype=np.int64), 0
    a, b = p.adjacency[:, 0], p.adjacency[:, 1]
    src, dst = np.concatenate([a, b]), np.concatenate([b, a])
    deg = np.bincount(src, minlength=n_cells)
    nbr = np.full((n_cells, max(1, int(deg.max()))), -1, dtype=np.int64)
    order = np.argsort(src, kind="stable")
    src, dst = src[order], dst[order]
    slot = np.arange(len(src)) - np.concatenate([[0], np.cumsum(deg)])[src]
    nbr[src, slot] = dst
    return nbr, int(row_size[live].min())
