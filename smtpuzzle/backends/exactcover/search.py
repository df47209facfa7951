"""A resumable exact-cover search: set up the compiled kernel's arrays, run it in slices."""

from __future__ import annotations

import hashlib
import time
from functools import cached_property

import numpy as np

from smtpuzzle.backends.exactcover import deadends, kernel, mrv
from smtpuzzle.backends.exactcover.problem import CoverProblem

BRANCHINGS = ("auto", "sweep", "mrv")
SLICE_S = 0.05  # seconds of search per default slice: time limits and Ctrl-C act this often


class CoverSearch:
    """One search over one problem. ``step`` runs up to ``budget`` nodes and returns the
    solutions found in that slice (row indices, when collecting); ``done`` tells when the
    whole tree has been searched; ``count`` is the number of solutions so far.

    ``branching`` picks the kernel: ``sweep`` takes cells in a fixed order (with the
    dead-region test), ``mrv`` the most constrained cell or piece (falling back to sweep
    where some row could not be reached that way). ``auto`` takes mrv when every cell must
    be covered and every piece has a set count, and sweep otherwise (see :func:`_mrv_pays`).

    ``dead_ends``: the sweep remembers states that led to no solution and does not search
    them twice (see :mod:`deadends`); a search resumed from a snapshot starts that memory
    afresh, so only without it does it visit exactly the nodes of an unbroken search.

    The arrays that describe the problem are built once; :meth:`restart` starts a new search
    with other forced and forbidden rows (a sub-problem) without rebuilding them."""

    def __init__(self, problem: CoverProblem, collect: bool = False, buffer: int = 1024,
                 branching: str = "auto", dead_ends: bool = True) -> None:
        if branching not in BRANCHINGS:
            raise ValueError(f"unknown branching {branching!r}: one of {', '.join(BRANCHINGS)}")
        self.problem = p = problem
        n_cells = len(p.cells)
        incid_rows = p.cells.flat
        incid_cells = np.repeat(np.arange(n_cells), p.cells.sizes)
        if branching == "auto":
            branching = "mrv" if _mrv_pays(p) else "sweep"
        if branching == "mrv" and not mrv.applies(
                p.primary, p.row_group, p.group_need, p.group_cap, incid_rows, incid_cells,
                p.n_rows):
            branching = "sweep"
        self.branching = branching
        self.row_ok = np.ones(p.n_rows, dtype=np.bool_)  # shared with the engine
        if branching == "mrv":
            self._engine = _Mrv(p, incid_rows, incid_cells, self.row_ok)
        else:
            self._engine = _Sweep(p, incid_rows, incid_cells, self.row_ok, dead_ends)
        self.collect = collect
        self.sols = np.zeros((buffer if collect else 1, n_cells + len(p.group_need) + 1),
                             dtype=np.int64)
        self._rate = 1e6  # nodes per second, as measured by the last slice
        self.restart(p.forced, p.forbidden)

    @cached_property
    def _fingerprint(self) -> str:
        """What a snapshot must have been taken of: the kernel and the problem (computed
        only when snapshots are used, not for every search built)."""
        p = self.problem
        digest = hashlib.sha256(self.branching.encode())
        for a in (p.cells.flat, p.cells.offsets, p.primary, p.row_group, p.group_need,
                  p.group_cap):
            digest.update(np.ascontiguousarray(a).data)
            digest.update(b"|")
        return digest.hexdigest()[:32]

    @cached_property
    def _capped_out(self) -> np.ndarray:
        """The rows of groups that may take none: the kernels check a cap only as a row
        joins its group, after the first is in, so these are forbidden in every search."""
        p = self.problem
        grouped = np.flatnonzero(p.row_group >= 0)
        return grouped[p.group_cap[p.row_group[grouped]] == 0]

    def restart(self, forced: np.ndarray, forbidden: np.ndarray) -> None:
        """A fresh search with these rows forced and forbidden (and the rest free)."""
        self.forced = np.unique(np.asarray(forced, dtype=np.int64))
        forbidden = np.concatenate([np.asarray(forbidden, dtype=np.int64), self._capped_out])
        self.row_ok[:] = True
        self.row_ok[forbidden] = False
        self.row_ok[self.forced] = False
        self._engine.restart(self.forced)
        if np.isin(self.forced, forbidden).any():  # a row both forced and forbidden
            self._engine.st[kernel.DONE] = 1

    @property
    def done(self) -> bool:
        return bool(self._engine.st[kernel.DONE])

    @property
    def count(self) -> int:
        return int(self._engine.st[kernel.COUNT])

    @property
    def nodes(self) -> int:
        return int(self._engine.st[kernel.NODES])

    def step(self, budget: int | None = None) -> list[np.ndarray]:
        """Search on for at most ``budget`` nodes (by default, about :data:`SLICE_S` seconds'
        worth at the rate measured so far); return the solutions found meanwhile."""
        return [row[row >= 0] for row in self.step_matrix(budget)]

    def step_matrix(self, budget: int | None = None) -> np.ndarray:
        """Like :meth:`step`, as one array: a line per solution, its rows padded with -1."""
        e = self._engine
        if not self.done:
            if budget is None:
                budget = int(min(max(self._rate * SLICE_S, 1000), 50_000_000))
            before, t0 = self.nodes, time.perf_counter()
            e.run(budget, self.sols, self.collect)
            spent = time.perf_counter() - t0
            if spent > 1e-3 and self.nodes - before > 100:
                self._rate = (self.nodes - before) / spent
        if not self.collect:
            return np.zeros((0, len(self.forced)), dtype=np.int64)
        k = int(e.st[kernel.N_SOLS])
        e.st[kernel.N_SOLS] = 0
        forced = np.broadcast_to(self.forced, (k, len(self.forced)))
        return np.concatenate([self.sols[:k], forced], axis=1)

    def snapshot(self) -> dict[str, np.ndarray]:
        """The search state between two steps (copies): :meth:`resume` on a search of the same
        problem and sub-problem continues from there, in this process or another."""
        e = self._engine
        return {"kernel": np.array(self.branching), "problem": np.array(self._fingerprint),
                **{k: getattr(e, k).copy() for k in e.STATE}}

    def resume(self, state: dict[str, np.ndarray]) -> None:
        """Continue from a :meth:`snapshot` of this problem, after :meth:`restart` with the
        same forced and forbidden rows. A snapshot of another kernel or shape, or one whose
        arrays do not agree with its own choices (edited, say, with its file's checksum
        made anew: the compiled kernels do not check their indices), is refused
        (ValueError) and the search is left as restarted."""
        e = self._engine
        if str(state.get("kernel")) != self.branching:
            raise ValueError(f"a snapshot of the {state.get('kernel')} kernel, "
                             f"not {self.branching}")
        if str(state.get("problem")) != self._fingerprint:
            raise ValueError("a snapshot of another problem: it does not fit this search")
        for k in e.STATE:
            mine, theirs = getattr(e, k), state.get(k)
            if theirs is None or theirs.shape != mine.shape or theirs.dtype != mine.dtype:
                raise ValueError(f"snapshot array {k} does not fit this search")
        n_sols = int(state["st"][kernel.N_SOLS])
        wrong = (e.inconsistency(state) if 0 <= n_sols <= self.sols.shape[0]
                 else "solutions waiting in no buffer")
        if wrong:
            raise ValueError(f"a snapshot no search of this problem could have left: {wrong}")
        for k in e.STATE:
            getattr(e, k)[...] = state[k]

    def share_done(self) -> float:
        """An estimate of the part of the search tree done: each open level's finished
        siblings, weighted as if sibling subtrees were of equal size."""
        if self.done:
            return 1.0
        completed, total = self._engine.level_progress()
        total = np.maximum(total, 1).astype(float)
        weight = np.concatenate([[1.0], np.cumprod(1.0 / total)[:-1]])
        return float(np.clip((weight * np.minimum(completed, total) / total).sum(), 0.0, 1.0))

    def run(self) -> int:
        """Search to the end (no interruption points); the number of solutions."""
        while not self.done:
            self.step(50_000_000)
        return self.count


MRV_WORDS = 1 << 24  # cells x row words of the mrv bitsets (128 MB) above which auto sweeps


def _mrv_pays(p: CoverProblem) -> bool:
    """Measured (bench/RESULTS.md): on exact tilings (every cell covered, every piece used a
    set number of times) mrv visits 2x to 160x fewer nodes than the sweep and is as fast or
    faster on every oracle, up to 12x on a 3D box. Where cells may stay empty (untouchable,
    packings) its only items are pieces and it is far slower; where pieces are optional
    (frames: a subset of a large piece set fills each frame) it was 2x to 8x slower."""
    n_words = (p.n_rows + 63) // 64
    return (bool(len(p.primary) and p.primary.all())
            and bool((p.group_need == p.group_cap).all())
            and len(p.primary) * n_words <= MRV_WORDS)


def _row_cells(n_rows: int, incid_rows: np.ndarray,
               incid_cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: its size, and its cells as a flat list with starts."""
    row_size = np.bincount(incid_rows, minlength=n_rows).astype(np.int64)
    by_row = np.argsort(incid_rows, kind="stable")
    row_cells = incid_cells[by_row].astype(np.int64)
    return row_size, np.concatenate([[0], np.cumsum(row_size)]).astype(np.int64), row_cells


class _Sweep:
    """State and arguments of the sweep kernel."""

    STATE = ("occ", "used", "stack_cell", "stack_start", "stack_ptr", "stack_end",
             "stack_choice", "stack_count", "stack_nodes", "st")

    def __init__(self, p: CoverProblem, incid_rows: np.ndarray, incid_cells: np.ndarray,
                 row_ok: np.ndarray, dead_ends: bool) -> None:
        self.problem = p
        n_cells = len(p.cells)
        n_words = max(1, (n_cells + 63) // 64)
        masks = np.zeros((p.n_rows, n_words), dtype=np.uint64)
        np.bitwise_or.at(masks, (incid_rows, incid_cells >> 6),
                         np.left_shift(np.uint64(1), (incid_cells & 63).astype(np.uint64)))
        row_size, row_cells_start, row_cells = _row_cells(p.n_rows, incid_rows, incid_cells)
        first = np.full(p.n_rows, n_cells, dtype=np.int64)
        np.minimum.at(first, incid_rows, incid_cells)
        everything = np.arange(p.n_rows)
        order = everything[np.lexsort((p.row_group, first))]
        keys, list_start, list_rows, list_skip = _candidate_lists(
            order, first, p.row_group, incid_rows, incid_cells, n_cells)
        nbr, min_size, graph_exact = _neighbours(p, n_cells, incid_rows, incid_cells)
        n_groups = len(p.group_need)
        group_min = np.full(n_groups, np.iinfo(np.int64).max, dtype=np.int64)
        grouped = p.row_group >= 0
        np.minimum.at(group_min, p.row_group[grouped], row_size[grouped])
        row_area = np.zeros(p.n_rows, dtype=np.int64)
        row_area[grouped] = group_min[p.row_group[grouped]]
        self._masks, self._row_size = masks, row_size
        self._keys, self._list_start, self._list_rows = keys, list_start, list_rows
        self._group_area = np.where(group_min == np.iinfo(np.int64).max, 0, group_min)
        self._args = (n_cells, p.primary.astype(np.bool_), keys, list_start, list_rows,
                      list_skip, masks, p.row_group.astype(np.int64),
                      row_size, row_area, p.group_need.astype(np.int64),
                      p.group_cap.astype(np.int64),
                      *_borders(row_cells_start, row_cells, nbr, min_size), nbr, min_size,
                      graph_exact, row_ok)
        self._row_ok = row_ok
        self.occ = np.zeros(n_words, dtype=np.uint64)
        self.used = np.zeros(n_groups, dtype=np.int64)
        self.stack_cell = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_start = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_ptr = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_end = np.zeros(n_cells + 1, dtype=np.int64)
        self.stack_choice = np.full(n_cells + 1, kernel.NONE, dtype=np.int64)
        self.stack_count = np.zeros(n_cells + 1, dtype=np.int64)  # solutions when entered
        self.stack_nodes = np.zeros(n_cells + 1, dtype=np.int64)  # nodes when entered
        self.st = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self._dead = deadends.DeadEndTable(n_words, n_cells, p.group_cap, dead_ends)
        self._mark = np.zeros(n_cells, dtype=np.int64)
        self._stamp = np.zeros(1, dtype=np.int64)
        self._queue = np.zeros(n_cells + 1, dtype=np.int64)

    def restart(self, forced: np.ndarray) -> None:
        p, masks = self.problem, self._masks
        self.occ[:] = 0
        self.used[:] = 0
        self.st[:] = 0
        self.stack_choice[:] = kernel.NONE
        self.st[kernel.DESCEND] = 1
        possible = True
        for r in forced.tolist():  # forced rows are placed before the search starts
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
        self.st[kernel.USED_KEY] = deadends.used_key(self.used, self._dead.shifts)
        if not possible:
            self.st[kernel.DONE] = 1
        if self._dead.active:
            # Rows that clash with the forced ones, or whose piece the forced ones use up,
            # fit in no state of this search: whether they are allowed changes nothing below
            # any node, so sub-problems that differ only in such rows share what the table
            # has learnt.
            excluded = np.flatnonzero(~self._row_ok)
            g = p.row_group[excluded]
            full = np.zeros(len(excluded), dtype=bool)
            full[g >= 0] = self.used[g[g >= 0]] >= p.group_cap[g[g >= 0]]
            self._dead.enter(excluded[~(masks[excluded] & self.occ).any(axis=1) & ~full])

    def run(self, budget: int, sols: np.ndarray, collect: bool) -> None:
        kernel.run(*self._args, self.occ, self.used, self.stack_cell, self.stack_start,
                   self.stack_ptr, self.stack_end, self.stack_choice, self.st, budget, sols,
                   collect, self._mark, self._stamp, self._queue, *self._dead.args,
                   self.stack_count, self.stack_nodes)

    def level_progress(self) -> tuple[np.ndarray, np.ndarray]:
        """Per open level: candidates finished before the current one, and candidates."""
        d = int(self.st[kernel.DEPTH])
        start, ptr, choice = self.stack_start[:d], self.stack_ptr[:d], self.stack_choice[:d]
        total = self.stack_end[:d] - start
        completed = np.where(choice == kernel.EMPTY, total,
                             ptr - start - (choice >= 0))
        return completed, total

    def inconsistency(self, state: dict[str, np.ndarray]) -> str:
        """What in ``state`` (a snapshot's arrays, shapes checked) no run of this search
        from its restart could have left, or "": its frames' cells, candidate runs and
        choices in range, and its occupancy, piece counts and totals those its choices
        make from the arrays restart left."""
        p, st = self.problem, state["st"]
        n_cells = len(p.cells)
        depth = int(st[kernel.DEPTH])
        if not 0 <= depth <= n_cells:
            return f"depth {depth} outside 0..{n_cells}"
        if _bad_totals(st, state["stack_count"][:depth], state["stack_nodes"][:depth]):
            return "its flags or counts out of range"
        if st[kernel.DONE]:  # no kernel runs on a finished search (restart may leave one)
            return ""
        cell, choice = state["stack_cell"][:depth], state["stack_choice"][:depth]
        start, ptr, end = (state[k][:depth] for k in ("stack_start", "stack_ptr", "stack_end"))
        if depth and (cell.min() < 0 or cell.max() >= n_cells or (np.diff(cell) <= 0).any()):
            return "its frames' cells out of order or range"
        per_cell = 1 << self._keys.shape[1]  # lists of a cell, one per pattern of its keys
        slots = cell[:, None] * per_cell + np.arange(per_cell)
        runs = self._list_start
        if not ((runs[slots] == start[:, None]) & (runs[slots + 1] == end[:, None])).any(
                axis=1).all() or (ptr < start).any() or (ptr > end).any():
            return "a frame's candidates are none of its cell's lists"
        if _bad_choices(choice, empty=True):
            return "a choice out of range"
        chose = choice >= 0
        rows, empty = choice[chose], cell[choice == kernel.EMPTY]
        if (rows >= p.n_rows).any() or (ptr[chose] <= start[chose]).any() or (
                self._list_rows[ptr[chose] - 1] != rows).any():
            return "a frame's row is not the candidate it stopped at"
        if not self._row_ok[rows].all() or p.primary[empty].any():
            return "a forbidden row chosen, or a cell that must be covered left empty"
        occ = self.occ | np.bitwise_or.reduce(self._masks[rows], axis=0)
        np.bitwise_or.at(occ, empty >> 6, np.left_shift(np.uint64(1), (empty & 63).astype(
            np.uint64)))
        filled = int(self.st[kernel.FILLED] + self._row_size[rows].sum() + len(empty))
        groups = p.row_group[rows]
        used = self.used + np.bincount(groups[groups >= 0], minlength=len(self.used))
        if (not np.array_equal(occ, state["occ"])
                or int(np.unpackbits(occ.view(np.uint8)).sum()) != filled
                or not np.array_equal(used, state["used"]) or (used > p.group_cap).any()):
            return "its cells or piece counts are not those of its choices"
        area = int((np.maximum(np.maximum(p.group_need, 0) - used, 0) * self._group_area).sum())
        if (st[kernel.FILLED], st[kernel.AREA_NEEDED], st[kernel.USED_KEY]) != (
                filled, area, deadends.used_key(used, self._dead.shifts)):
            return "its totals are not those of its choices"
        return ""


class _Mrv:
    """State and arguments of the most-constrained-item kernel."""

    STATE = ("alive", "covered", "used", "stack_item", "stack_ptr", "stack_choice", "st")

    def __init__(self, p: CoverProblem, incid_rows: np.ndarray, incid_cells: np.ndarray,
                 row_ok: np.ndarray) -> None:
        n_cells, n_groups = len(p.cells), len(p.group_need)
        n_words = max(1, (p.n_rows + 63) // 64)
        first = np.full(p.n_rows, n_cells, dtype=np.int64)
        np.minimum.at(first, incid_rows, incid_cells)
        row_id = np.lexsort((p.row_group, first)).astype(np.int64)  # ours -> the problem's
        ours = np.empty(p.n_rows, dtype=np.int64)
        ours[row_id] = np.arange(p.n_rows)
        rows = ours[incid_rows]
        bit = np.left_shift(np.uint64(1), (rows & 63).astype(np.uint64))
        cell_rows = np.zeros((n_cells, n_words), dtype=np.uint64)
        np.bitwise_or.at(cell_rows, (incid_cells, rows >> 6), bit)
        nonzero = cell_rows != 0
        any_row = nonzero.any(axis=1)
        cell_lo = np.where(any_row, nonzero.argmax(axis=1), 0).astype(np.int64)
        cell_hi = np.where(any_row, n_words - nonzero[:, ::-1].argmax(axis=1), 0).astype(np.int64)
        row_group = p.row_group[row_id].astype(np.int64)
        group_rows = np.zeros((n_groups, n_words), dtype=np.uint64)
        mine = np.flatnonzero(row_group >= 0)
        np.bitwise_or.at(group_rows, (row_group[mine], mine >> 6),
                         np.left_shift(np.uint64(1), (mine & 63).astype(np.uint64)))
        _, row_cells_start, row_cells = _row_cells(p.n_rows, rows, incid_cells)
        self._ours, self._cell_rows, self._group_rows = ours, cell_rows, group_rows
        self._row_cells = (row_cells_start, row_cells)
        self._row_group, self._cap = row_group, p.group_cap.astype(np.int64)
        self._static = (p.primary.astype(np.bool_), cell_rows, cell_lo, cell_hi, group_rows,
                        row_cells_start, row_cells, row_group, row_id,
                        p.group_need.astype(np.int64), self._cap)
        depth = n_cells + n_groups + 1
        self.alive = np.zeros((depth + 1, n_words), dtype=np.uint64)
        self.covered = np.zeros(n_cells, dtype=np.bool_)
        self.used = np.zeros(n_groups, dtype=np.int64)
        self.stack_item = np.zeros(depth, dtype=np.int64)
        self.stack_ptr = np.zeros(depth, dtype=np.int64)
        self.stack_choice = np.full(depth, kernel.NONE, dtype=np.int64)
        self.st = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self._row_ok = row_ok

    def restart(self, forced: np.ndarray) -> None:
        start, cells = self._row_cells
        ok = np.flatnonzero(self._row_ok)
        root = np.zeros(self.alive.shape[1], dtype=np.uint64)
        np.bitwise_or.at(root, self._ours[ok] >> 6,
                         np.left_shift(np.uint64(1), (self._ours[ok] & 63).astype(np.uint64)))
        self.covered[:] = False
        self.used[:] = 0
        self.st[:] = 0
        self.stack_choice[:] = kernel.NONE
        possible = True
        for r in self._ours[forced].tolist():  # placed before the search starts
            mine = cells[start[r]:start[r + 1]]
            g = self._row_group[r]
            if self.covered[mine].any() or (g >= 0 and self.used[g] >= self._cap[g]):
                possible = False
            self.covered[mine] = True
            root &= ~np.bitwise_or.reduce(self._cell_rows[mine], axis=0)
            if g >= 0:
                self.used[g] += 1
                if self.used[g] >= self._cap[g]:
                    root &= ~self._group_rows[g]
        self.alive[0] = root
        self.st[kernel.DESCEND] = 1
        if not possible:
            self.st[kernel.DONE] = 1

    def run(self, budget: int, sols: np.ndarray, collect: bool) -> None:
        mrv.run(*self._static, self.alive, self.covered, self.used, self.stack_item,
                self.stack_ptr, self.stack_choice, self.st, budget, sols, collect)

    def level_progress(self) -> tuple[np.ndarray, np.ndarray]:
        """Per open level: the item's rows tried before the current one, and its rows."""
        d = int(self.st[kernel.DEPTH])
        n_cells = len(self.covered)
        completed, total = np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64)
        for f in range(d):
            item = int(self.stack_item[f])
            rows = self._cell_rows[item] if item < n_cells else self._group_rows[item - n_cells]
            bits = np.unpackbits((rows & self.alive[f]).view(np.uint8), bitorder="little")
            choice = int(self.stack_choice[f])
            upto = choice if choice >= 0 else int(self.stack_ptr[f])
            total[f], completed[f] = bits.sum(), bits[:max(upto, 0)].sum()
        return completed, total

    def inconsistency(self, state: dict[str, np.ndarray]) -> str:
        """Like the sweep's: what in ``state`` no run of this search from its restart could
        have left, or "" (each level's live rows replayed from the choices above it)."""
        st, n_cells, n_rows = state["st"], len(self.covered), len(self._ours)
        depth = int(st[kernel.DEPTH])
        if not 0 <= depth <= len(self.stack_item):
            return f"depth {depth} outside 0..{len(self.stack_item)}"
        if _bad_totals(st):
            return "its flags or counts out of range"
        if st[kernel.DONE]:
            return ""
        item, ptr, choice = (state[k][:depth] for k in ("stack_item", "stack_ptr",
                                                         "stack_choice"))
        if ((item < 0) | (item >= n_cells + len(self.used))).any() or _bad_choices(
                choice) or (choice >= n_rows).any() or (ptr != choice + 1).any():
            return "an item, choice or place in its rows out of range"
        alive = state["alive"]
        if not np.array_equal(alive[0], self.alive[0]):
            return "its live rows are not those restart left"
        start, cells = self._row_cells
        covered, used = self.covered.copy(), self.used.copy()
        for f in range(depth):
            r = int(choice[f])
            word, bit = r >> 6, np.uint64(1) << np.uint64(r & 63)
            options = (self._cell_rows[item[f]] if item[f] < n_cells
                       else self._group_rows[item[f] - n_cells])
            if not options[word] & alive[f, word] & bit:
                return f"a choice at level {f} is no live row of its item"
            mine, g = cells[start[r]:start[r + 1]], self._row_group[r]
            if covered[mine].any():
                return f"the row chosen at level {f} covers a covered cell"
            covered[mine] = True
            gone = np.bitwise_or.reduce(self._cell_rows[mine], axis=0)
            if g >= 0:
                used[g] += 1
                if used[g] >= self._cap[g]:
                    gone |= self._group_rows[g]
            if not np.array_equal(alive[f + 1], alive[f] & ~gone):
                return f"its live rows at level {f + 1} are not those of its choices"
        if not (np.array_equal(covered, state["covered"]) and np.array_equal(
                used, state["used"])) or (used > self._cap).any():
            return "its cells or piece counts are not those of its choices"
        return ""


def _bad_totals(st: np.ndarray, counts: np.ndarray | None = None,
                nodes: np.ndarray | None = None) -> bool:
    """Whether a snapshot's flags are not 0 or 1, or its counts negative (or, per frame, the
    counts and nodes it was entered at, past the totals)."""
    flags = st[[kernel.DESCEND, kernel.DONE]]
    bad = ((flags < 0) | (flags > 1)).any() or min(st[kernel.COUNT], st[kernel.NODES]) < 0
    if counts is not None and nodes is not None:
        bad = bad or ((counts < 0) | (counts > st[kernel.COUNT])).any() or (
            (nodes < 0) | (nodes > st[kernel.NODES])).any()
    return bool(bad)


def _bad_choices(choice: np.ndarray, empty: bool = False) -> bool:
    """Whether some frame's choice is neither a row (>= 0) nor, with ``empty``, the sweep's
    EMPTY. Between two steps no frame is without a choice (NONE): a frame pushed chooses,
    or is popped, in the same turn of the kernel's loop, so a NONE frame (whose level past
    it nothing could check) is an edit."""
    return bool(((choice < 0) & ~np.isin(choice, [kernel.EMPTY] if empty else [])).any())


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


def _borders(row_cells_start: np.ndarray, row_cells: np.ndarray, nbr: np.ndarray,
             min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the cells next to it (not in it, not past its last cell in sweep order)
    from which the dead-region test floods, in the order it used to meet them; flat with
    starts. Pockets form behind the sweep's frontier: cells past the row's last cell are
    almost always in the open part of the board, and skipping a test is sound."""
    n_rows = len(row_cells_start) - 1
    if min_size <= 1 or n_rows == 0:
        return np.zeros(n_rows + 1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    n_cells = len(nbr)
    size = np.diff(row_cells_start)
    owner = np.repeat(np.arange(n_rows), size)
    last = row_cells[row_cells_start[1:] - 1]  # rows list their cells in sweep order
    pair_row = np.repeat(owner, nbr.shape[1])
    y = nbr[row_cells].ravel()
    keep = (y >= 0) & (y <= last[pair_row])
    pair_row, y = pair_row[keep], y[keep]
    code = pair_row * n_cells + y
    keep = ~np.isin(code, owner * n_cells + row_cells)
    code = code[keep]
    # first occurrence of each (row, cell), in the order met
    _, first = np.unique(code, return_index=True)
    first = np.sort(first)
    code = code[first]
    rows, cells = code // n_cells, code % n_cells
    starts = np.zeros(n_rows + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(rows, minlength=n_rows))
    return starts, cells.astype(np.int64)


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
