"""A table of search states known to lead to no solution, for the sweep kernel.

Below a node of the sweep, the search depends only on the node's state: the occupancy of the
cells (every cell before the branching cell is decided, so the occupancy says where the
sweep is), how often each piece is used, and the rows allowed (fixed per sub-problem). When
pieces can be placed in different orders or places to leave the same occupancy, the same
state is reached again and again; on the untouchable packings most of them are dead ends.
The kernel remembers a state whose subtree held no solution and cuts the search the next
time it meets it (bench/RESULTS.md, issue 24).

Only dead ends are remembered, so listing solutions stays exact, and the whole key is kept,
so a lookup never confuses two states. The table is a cache: two entries per bucket, the one
with the smaller subtree is replaced. A lookup misses far more often than it hits, so a bit
per hash value, small enough to stay in the processor's cache, answers most misses without
reading the table. Where states rarely repeat (frames stage 1: one lookup in 50,000 hits),
lookups cost more than they save: after a window of lookups with too few hits the table is
turned off for the problem.

Entries carry the epoch of the rows they were found under: the rows a sub-problem forbids
that could still fit somewhere (forced rows are in the occupancy). Sub-problems that differ
only in other rows share an epoch, and so what was learnt; a sub-problem searched in slices,
with others in between, finds its entries again. The table is not part of a snapshot: a
search resumed in another process starts it afresh.
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit

ENABLED = True  # read when a search is built: bench/count.py deadends compares both ways
BUCKET_BITS = 21  # buckets of two entries: 2^22 entries, 160 MB on a board of 169 cells
FILTER_BITS = 24  # a bit per hash value (2 MB): most lookups end there, in the cache
FILTER_RESET = 1 << 22  # entries written before the filter is set afresh from the table
WINDOW = 1 << 20  # lookups after which the hit rate is judged
MIN_HIT_RATE = 1e-3  # below it, over a window, the table is turned off for this problem
MIN_NODES = 8  # subtrees smaller than this are searched again rather than remembered
FREE_SHARE = 0.3  # states with fewer free cells than this share are too deep to pay
CELL_BITS = 16  # the branching cell's bits in the packed word (boards below 65,536 cells)
SIZE_BITS = 6  # the subtree size class (log2 of its nodes) in the epoch word


class DeadEndTable:
    """The table, its filter, and which epoch the search is in, for one problem: the
    arguments the sweep kernel takes (:attr:`args`). Empty (and unused) when ``usable`` is
    false or the use counts do not fit beside the cell in a 64-bit word."""

    def __init__(self, n_words: int, n_cells: int, group_cap: np.ndarray,
                 usable: bool = True) -> None:
        bits = np.array([max(int(c), 0).bit_length() for c in group_cap], dtype=np.int64)
        shifts = CELL_BITS + np.cumsum(bits) - bits  # each piece's count above the cell
        usable = (ENABLED and usable and n_cells < 1 << CELL_BITS
                  and CELL_BITS + int(bits.sum()) <= 63)
        n_entries = 2 << BUCKET_BITS if usable else 0
        # np.zeros maps pages lazily: memory is only taken as entries are written
        table = np.zeros((n_entries, n_words + 2), dtype=np.uint64)
        filt = np.zeros(1 << (FILTER_BITS - 6) if usable else 1, dtype=np.uint64)
        # the epoch; entries since the filter was set; lookups and hits in this window; off
        self.info = np.zeros(5, dtype=np.int64)
        self.shifts = shifts if usable else np.zeros_like(shifts)
        self.args = (table, filt, self.info, self.shifts, int(np.ceil(FREE_SHARE * n_cells)))
        self._epochs: dict[bytes, int] = {}

    @property
    def active(self) -> bool:
        """Whether the kernel uses the table: it is usable and has not turned itself off."""
        return len(self.args[0]) > 0 and self.info[4] == 0

    def enter(self, excluded_rows: np.ndarray) -> None:
        """Search with these rows forbidden from now on (ones that could fit somewhere):
        entries found under other rows no longer hold; the ones found under these rows
        before are used again."""
        sig = hashlib.sha256(np.ascontiguousarray(excluded_rows, dtype=np.int64).data).digest()
        self.info[0] = self._epochs.setdefault(sig, len(self._epochs) + 1)


def used_key(used: np.ndarray, shifts: np.ndarray) -> int:
    """The use counts packed as the kernel keeps them (it adds and takes away 1 << shift as
    rows are placed and lifted, rather than packing the counts at every node)."""
    return int((used.astype(np.int64) << shifts).sum())


@njit(cache=True, nogil=True, inline="always")
def _packed(used_key, c):
    """The branching cell and the use counts in one word, plus one (zero marks a free slot)."""
    return (np.uint64(used_key) | np.uint64(c)) + np.uint64(1)


@njit(cache=True, nogil=True, inline="always")
def _hash(occ, key, epoch):
    h = (key ^ (np.uint64(epoch) << np.uint64(40))) * np.uint64(0x9E3779B97F4A7C15)
    for w in range(occ.shape[0]):
        h = (h ^ occ[w]) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True, nogil=True, inline="always")
def _bucket(table, h):
    return np.int64(h & np.uint64((table.shape[0] >> 1) - 1)) << 1


@njit(cache=True, nogil=True, inline="always")
def _filter_bit(filt, h):
    """The word and bit of the filter for hash h (from bits the bucket does not use)."""
    i = np.int64(h >> np.uint64(40)) & (filt.shape[0] * 64 - 1)
    return i >> 6, np.uint64(1) << np.uint64(i & 63)


@njit(cache=True, nogil=True, inline="always")
def _matches(table, e, occ, key, epoch):
    n = occ.shape[0]
    if table[e, n] != key or (table[e, n + 1] >> np.uint64(SIZE_BITS)) != np.uint64(epoch):
        return False
    for w in range(n):
        if table[e, w] != occ[w]:
            return False
    return True


@njit(cache=True, nogil=True)
def _rebuild_filter(table, filt):
    filt[:] = 0
    n = table.shape[1] - 2
    for e in range(table.shape[0]):
        if table[e, n] != 0:
            h = _hash(table[e, :n], table[e, n], table[e, n + 1] >> np.uint64(SIZE_BITS))
            w, bit = _filter_bit(filt, h)
            filt[w] |= bit


@njit(cache=True, nogil=True)
def known(table, filt, info, occ, used_key, c):
    """Whether this state is in the table as a dead end."""
    epoch = info[0]
    key = _packed(used_key, c)
    h = _hash(occ, key, epoch)
    info[2] += 1
    if info[2] >= WINDOW:
        if info[3] < MIN_HIT_RATE * info[2]:
            info[4] = 1  # lookups cost more than the few subtrees they save
        info[2] = info[3] = 0
    w, bit = _filter_bit(filt, h)
    if not filt[w] & bit:
        return False
    b = _bucket(table, h)
    if _matches(table, b, occ, key, epoch) or _matches(table, b + 1, occ, key, epoch):
        info[3] += 1
        return True
    return False


@njit(cache=True, nogil=True)
def remember(table, filt, info, occ, used_key, c, nodes):
    """Note this state as a dead end whose subtree took ``nodes`` nodes."""
    if nodes < MIN_NODES:
        return
    epoch = info[0]
    key = _packed(used_key, c)
    h = _hash(occ, key, epoch)
    info[1] += 1
    if info[1] > FILTER_RESET:  # bits of replaced entries pile up: set the live ones only
        _rebuild_filter(table, filt)
        info[1] = 0
    w, bit = _filter_bit(filt, h)
    filt[w] |= bit
    b = _bucket(table, h)
    n = occ.shape[0]
    size = np.uint64(min(63, int(np.log2(nodes))))
    stamp = (np.uint64(epoch) << np.uint64(SIZE_BITS)) | size
    mask = np.uint64((1 << SIZE_BITS) - 1)
    e = b
    for k in range(b, b + 2):
        if (table[k, n + 1] >> np.uint64(SIZE_BITS)) != np.uint64(epoch):
            e = k  # empty, or left from another sub-problem
            break
        if (table[k, n + 1] & mask) < (table[e, n + 1] & mask):
            e = k
    else:
        if (table[e, n + 1] & mask) > size:
            return  # both entries stand for larger subtrees: keep them
    for w in range(n):
        table[e, w] = occ[w]
    table[e, n] = key
    table[e, n + 1] = stamp
