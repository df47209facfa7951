"""Literal lists in CSR form: the storage of every constraint kind."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np


class Groups:
    """A list of literal lists, stored as ``flat`` literals and ``offsets`` (len = n + 1).

    Immutable: the arrays are read-only (copied when they were someone else's writable
    arrays), so models can share groups between copies and key caches on their content."""

    __slots__ = ("_digest", "flat", "offsets")

    def __init__(self, flat: np.ndarray, offsets: np.ndarray, *, owned: bool = False) -> None:
        # ``owned``: the arrays were made for this object (no copy needed to freeze them)
        self.flat = _frozen(flat, owned)
        self.offsets = _frozen(offsets, owned)
        self._digest: bytes | None = None

    def digest(self) -> bytes:
        """A fingerprint of the content (computed once: the groups never change)."""
        if self._digest is None:
            h = hashlib.blake2b(digest_size=16)
            h.update(len(self.flat).to_bytes(8, "little"))
            h.update(self.flat.data)
            h.update(self.offsets.data)
            self._digest = h.digest()
        return self._digest

    @classmethod
    def of(cls, groups: Any) -> Groups:
        """Accept a Groups, a 2D array (one group per row) or a sequence of 1D arrays."""
        if isinstance(groups, Groups):
            return groups
        if isinstance(groups, np.ndarray) and groups.ndim == 2:
            n, k = groups.shape
            return cls(literal_array(groups).reshape(-1), np.arange(n + 1, dtype=np.int64) * k)
        if isinstance(groups, (str, bytes)) or not hasattr(groups, "__iter__"):
            raise TypeError(f"groups are lists of literals, not {type(groups).__name__}")
        arrays = [literal_array(g).reshape(-1) for g in groups]
        sizes = np.array([len(a) for a in arrays], dtype=np.int64)
        flat = np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)
        return cls(flat, np.concatenate([[0], np.cumsum(sizes)]), owned=True)

    @classmethod
    def of_lists(cls, lists: Sequence[Sequence[int]]) -> Groups:
        """Lists of Python ints (an encoder's clauses), read in one pass: ``of`` checks
        each list as an array, 20 s for the 6.6 million of a 50x50 Nurikabe's sums."""
        sizes = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        flat = np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64,
                           count=int(sizes.sum()))
        return cls(flat, np.concatenate([[0], np.cumsum(sizes)]), owned=True)

    @classmethod
    def keyed(cls, members: Any, keys: Any, n: int, heads: Any = None) -> Groups:
        """``n`` groups: group i is the row ``heads[i]`` (an (n, h) array, if given), then
        the ``members`` whose key is i, in their order (a clause per vertex: its head
        literals and the arcs into it)."""
        members = literal_array(members).reshape(-1)
        keys = np.asarray(keys, dtype=np.int64).reshape(-1)
        heads = np.zeros((n, 0), dtype=np.int64) if heads is None else \
            literal_array(heads).reshape(n, -1)
        width = heads.shape[1]
        offsets = np.concatenate([[0], np.cumsum(np.bincount(keys, minlength=n) + width)])
        flat = np.empty(offsets[-1], dtype=np.int64)
        head = np.zeros(len(flat), dtype=bool)
        head[(offsets[:-1, None] + np.arange(width)).reshape(-1)] = True
        flat[head] = heads.reshape(-1)
        flat[~head] = members[np.argsort(keys, kind="stable")]
        return cls(flat, offsets, owned=True)

    @classmethod
    def concat(cls, parts: Sequence[Groups]) -> Groups:
        if not parts:
            return cls(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64))
        if len(parts) == 1:
            return parts[0]
        flat = np.concatenate([p.flat for p in parts])
        sizes = np.concatenate([np.diff(p.offsets) for p in parts])
        return cls(flat, np.concatenate([[0], np.cumsum(sizes)]), owned=True)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.offsets)

    def __getitem__(self, i: int) -> np.ndarray:
        return self.flat[self.offsets[i] : self.offsets[i + 1]]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def as_lists(self) -> list[list[int]]:
        """The groups as Python lists, in order (what PySAT takes). Groups of one size are
        converted together: a run of them in one call when runs are long, else all of one
        size at once (either is at least twice as fast as slicing one flat list)."""
        if self._n_runs() * 8 <= len(self):
            out: list[list[int]] = []
            for mat in self.runs():
                out.extend(mat.tolist())
            return out
        out = [[]] * len(self)
        for idx, mat in self.by_size():
            for i, group in zip(idx.tolist(), mat.tolist(), strict=True):
                out[i] = group
        return out

    def _run_cuts(self) -> np.ndarray:
        sizes = self.sizes
        return np.flatnonzero(sizes[1:] != sizes[:-1]) + 1

    def _n_runs(self) -> int:
        return len(self._run_cuts()) + 1 if len(self) else 0

    def runs(self) -> Iterator[np.ndarray]:
        """The groups in order, as one 2D array (a view) per run of consecutive groups of
        one size."""
        if not len(self):
            return
        cuts = self._run_cuts().tolist()
        off = self.offsets
        for a, b in zip([0, *cuts], [*cuts, len(self)], strict=True):
            lo, hi = int(off[a]), int(off[b])
            yield self.flat[lo:hi].reshape(b - a, (hi - lo) // (b - a))

    def by_size(self, values: np.ndarray | None = None
                ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(indices, matrix)``: the groups of each size stacked into a 2D array (of
        ``values`` aligned with ``flat`` in their place, if given)."""
        values = self.flat if values is None else values
        sizes = self.sizes
        for s in np.unique(sizes):
            idx = np.flatnonzero(sizes == s)
            starts = self.offsets[idx]
            yield idx, values[starts[:, None] + np.arange(s)[None, :]]

    def joined(self, words: np.ndarray, sep: str = " ") -> list[str]:
        """Each group's ``words`` (an object array of strings aligned with ``flat``) joined
        by ``sep``: the groups of one size are gathered together, not sliced one by one."""
        out = [""] * len(self)
        for idx, rows in self.by_size(words):
            if rows.shape[1] == 1:  # most rows of many models: no list per row to join
                for i, word in zip(idx.tolist(), rows[:, 0].tolist(), strict=True):
                    out[i] = word
                continue
            for i, row in zip(idx.tolist(), rows.tolist(), strict=True):
                out[i] = sep.join(row)
        return out


def literal_array(values: Any) -> np.ndarray:
    """``values`` (literals or integer ids) as an int64 array; floats and booleans are
    refused, not truncated."""
    a = np.asarray(getattr(values, "ids", values))  # a BoolArray: its literals
    if a.dtype == object and a.size:  # a list of BoolArrays
        a = np.asarray([getattr(v, "ids", v) for v in a.reshape(-1).tolist()]).reshape(
            a.shape)
    if a.size == 0:
        return a.astype(np.int64)
    if a.dtype.kind not in "iu":
        first = a.reshape(-1)[0]
        raise TypeError(f"literals are whole numbers (variable ids, negative for not), not "
                        f"{a.dtype} values such as {getattr(first, 'item', lambda: first)()!r}")
    if a.dtype.kind == "u" and a.max() > np.iinfo(np.int64).max:  # would wrap to negative
        raise ValueError(f"literal {int(a.max())} is no variable (past any model's)")
    return a.astype(np.int64, copy=False)


def refuse_zero(lits: np.ndarray) -> np.ndarray:
    """``lits``, once none is 0 (DIMACS's end of clause, no variable)."""
    if lits.size and not lits.all():
        raise ValueError("0 is not a literal (variables are numbered from 1)")
    return lits


def _frozen(a: Any, owned: bool = False) -> np.ndarray:
    """``a`` as a read-only contiguous int64 array; copied when someone else could still
    write to it."""
    arr = np.asarray(a, dtype=np.int64)
    if not arr.flags.c_contiguous or (arr.flags.writeable and not (owned and arr.base is None)):
        arr = np.array(arr, dtype=np.int64, order="C")
    arr.flags.writeable = False
    return arr
