"""Bounded integers and the constraints over them, stored by kind as numpy arrays.

Integers are numbered 0..n-1 (apart from the boolean variables). Each kind keeps whole
batches: a linear batch is rows of terms in CSR form, a table batch is many scopes sharing
one list of tuples, so that posting 10^5 terms or a 25 x 25 Sudoku is a handful of array
operations. Back ends take what they can natively (z3 and CP-SAT: all of it) and the rest is
decomposed (see :mod:`smtpuzzle.model.lower`).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum

import numpy as np

from smtpuzzle.model.groups import Groups


class Cmp(IntEnum):
    """How a constraint compares its sum with its bound: the one comparison type of
    cardinalities, weighted sums and linear rows (whose arrays of codes hold these values;
    LT and GT are posted as LE and GE with the bound moved). ``Cmp("<=")`` reads a symbol,
    and ``str`` writes it."""

    EQ = 0
    NE = 1
    LE = 2
    GE = 3

    @classmethod
    def _missing_(cls, value: object) -> Cmp | None:
        return {"==": cls.EQ, "!=": cls.NE, "<=": cls.LE, ">=": cls.GE}.get(value)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return ("==", "!=", "<=", ">=")[self.value]


EQ, NE, LE, GE = Cmp.EQ, Cmp.NE, Cmp.LE, Cmp.GE
# The metadata of a field that lists constraint records (Model.records_of).
RECORDS = {"records": True}
NEGATED = np.array([NE, EQ, GE, LE])  # the code of "not (row)", with LE <-> GE shifted by one


@dataclass
class LinearRows:
    """Rows ``sum(icoef * ints) + sum(bcoef * literals) <cmp> rhs``, each enforced only when
    its ``enforce`` literal is true (0: always)."""

    ints: Groups  # integer ids per row
    icoef: np.ndarray  # aligned with ints.flat
    bools: Groups  # literals per row (a literal counts 1 when true)
    bcoef: np.ndarray  # aligned with bools.flat
    cmp: np.ndarray  # code per row
    rhs: np.ndarray
    enforce: np.ndarray  # literal per row, 0 for none

    def __len__(self) -> int:
        return len(self.rhs)

    @classmethod
    def concat(cls, batches: Sequence[LinearRows]) -> LinearRows:
        """The rows of all ``batches``, in order, as one batch."""
        if len(batches) == 1:
            return batches[0]
        return cls(Groups.concat([b.ints for b in batches]),
                   np.concatenate([b.icoef for b in batches]),
                   Groups.concat([b.bools for b in batches]),
                   np.concatenate([b.bcoef for b in batches]),
                   np.concatenate([b.cmp for b in batches]),
                   np.concatenate([b.rhs for b in batches]),
                   np.concatenate([b.enforce for b in batches]))

    def terms(self) -> tuple[Groups, np.ndarray, np.ndarray]:
        """Each row's terms in one list, its integers first: (integer ids and literals as
        Groups, their coefficients, and whether each term is an integer)."""
        n = len(self)
        rows = np.concatenate([2 * np.repeat(np.arange(n), self.ints.sizes),
                               2 * np.repeat(np.arange(n), self.bools.sizes) + 1])
        order = np.argsort(rows, kind="stable")
        ids = np.concatenate([self.ints.flat, self.bools.flat])[order]
        coefs = np.concatenate([self.icoef, self.bcoef])[order]
        is_int = (np.arange(len(rows)) < len(self.ints.flat))[order]
        offsets = np.concatenate([[0], np.cumsum(self.ints.sizes + self.bools.sizes)])
        return Groups(ids, offsets, owned=True), coefs, is_int


@dataclass
class TableRows:
    """Each row of ``scopes`` (m, k) takes one of the ``tuples`` (n, k) (``forbidden``: none)."""

    scopes: np.ndarray
    tuples: np.ndarray
    forbidden: bool = False


@dataclass
class ElementRows:
    """``targets[i] == arrays[i, index[i]]`` (integer ids; the index counts from 0)."""

    index: np.ndarray
    arrays: np.ndarray
    targets: np.ndarray


@dataclass
class RegularRows:
    """Each row of ``words`` (m, n), read as a word of integer values, is accepted by the
    automaton: ``transitions`` rows are (state, value, next state)."""

    words: np.ndarray
    transitions: np.ndarray
    start: int
    finals: np.ndarray


@dataclass
class Objective:
    """Minimise ``sum(icoef * ints) + sum(bcoef * literals)`` (maximising is minimising its
    negation; ``sense`` says which the user asked for)."""

    ints: np.ndarray
    icoef: np.ndarray
    bools: np.ndarray
    bcoef: np.ndarray
    constant: int
    sense: str  # "min" | "max"


class Names:
    """The integers' names, kept as the blocks they were made in (each a sequence, often a
    lazy one): a million integers do not make a million strings."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.blocks: list[Sequence[str]] = []
        self.count = 0

    def add(self, block: Sequence[str]) -> None:
        self.starts.append(self.count)
        self.blocks.append(block)
        self.count += len(block)

    def __getitem__(self, k: int) -> str:
        i = bisect.bisect_right(self.starts, k) - 1
        return self.blocks[i][k - self.starts[i]]

    def copy(self) -> Names:
        out = Names()
        out.starts, out.blocks, out.count = list(self.starts), list(self.blocks), self.count
        return out


@dataclass
class IntPart:
    """Every integer of a model and the constraints over integers."""

    lo: list[int] = field(default_factory=list)
    hi: list[int] = field(default_factory=list)
    names: Names = field(default_factory=Names)
    # Channels: literal ``eq_lits[i]`` is true exactly when integer ``eq_ints[i]`` equals
    # ``eq_values[i]``. User integers have one per value (their answer is read from them);
    # decompositions ask for more.
    eq_ints: list[np.ndarray] = field(default_factory=list)
    eq_values: list[np.ndarray] = field(default_factory=list)
    eq_lits: list[np.ndarray] = field(default_factory=list)
    linear: list[LinearRows] = field(default_factory=list, metadata=RECORDS)
    alldiff: list[Groups] = field(default_factory=list, metadata=RECORDS)
    tables: list[TableRows] = field(default_factory=list, metadata=RECORDS)
    elements: list[ElementRows] = field(default_factory=list, metadata=RECORDS)
    regulars: list[RegularRows] = field(default_factory=list, metadata=RECORDS)
    objective: Objective | None = None
    user: list[np.ndarray] = field(default_factory=list)  # user integers, in order
    far: int = 0  # no bound any integer was made with is larger in magnitude
    _eq_cache: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.lo)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(self.lo, dtype=np.int64), np.asarray(self.hi, dtype=np.int64)

    def copy(self) -> IntPart:
        return replace(self, lo=list(self.lo), hi=list(self.hi), names=self.names.copy(),
                       eq_ints=list(self.eq_ints), eq_values=list(self.eq_values),
                       eq_lits=list(self.eq_lits), linear=list(self.linear),
                       alldiff=list(self.alldiff), tables=list(self.tables),
                       elements=list(self.elements), regulars=list(self.regulars),
                       user=list(self.user), _eq_cache=dict(self._eq_cache))

    def constants(self, c: np.ndarray) -> np.ndarray:
        """Ids of new integers fixed at the values ``c`` (any shape): constants where a
        constraint record wants integers."""
        first = self.count
        ids = np.arange(first, first + c.size, dtype=np.int64)
        self.lo.extend(c.ravel().tolist())
        self.hi.extend(c.ravel().tolist())
        if c.size:
            self.far = max(self.far, int(np.abs(c).max()))
        self.names.add([f"const{v}" for v in c.ravel().tolist()])
        return ids.reshape(c.shape)

    def tighten(self, x: np.ndarray, c: np.ndarray, code: int, rhs: np.ndarray) -> bool:
        """Apply ``c * x <code> rhs`` (single terms, code EQ, LE or GE) to the bounds of x.
        False when one of them cannot hold: the model has no solution."""
        holds = True
        zero = c == 0
        if zero.any():  # 0 <code> rhs holds or fails whatever x is
            holds = bool({EQ: rhs == 0, LE: rhs >= 0, GE: rhs <= 0}[code][zero].all())
            x, c, rhs = x[~zero], c[~zero], rhs[~zero]
        lo, hi = self.bounds()
        was = lo.copy()
        q_floor, q_ceil = np.floor_divide(rhs, c), -np.floor_divide(-rhs, c)
        if code == EQ:
            exact = q_floor * c == rhs
            new_lo = np.where(exact, q_floor, hi[x] + 1)  # no whole solution: empty
            new_hi = np.where(exact, q_floor, lo[x] - 1)
            np.maximum.at(lo, x, new_lo)
            np.minimum.at(hi, x, new_hi)
        else:
            up = (code == LE) == (c > 0)  # x <= rhs / c (else x >= rhs / c)
            np.minimum.at(hi, x[up], q_floor[up])
            np.maximum.at(lo, x[~up], q_ceil[~up])
        empty = lo > hi
        if empty.any():  # no value left: no solution (one value kept, for the back ends: one
            # the domain had, not the bound, which may be far past anything else)
            holds = False
            lo[empty] = hi[empty] = was[empty]
        self.lo, self.hi = lo.tolist(), hi.tolist()
        return holds

    def check_magnitude(self, ints: np.ndarray, icoef: np.ndarray, bcoef: np.ndarray,
                        rhs: np.ndarray) -> None:
        """Refuse rows whose terms can reach 2**62: a back end sums them in 64 bits, and a
        sum past that would wrap (a wrong answer) rather than fail."""
        # At once for the usual small numbers: every term at most the largest coefficient
        # times the largest bound any integer has had (tightening only narrows them; an
        # empty domain is one past, hence the + 1).
        peak = max((float(np.abs(a).max()) for a in (icoef, bcoef, rhs) if a.size),
                   default=0.0)
        terms = icoef.shape[-1] + bcoef.shape[-1] + 1
        if peak * (self.far + 1) * terms < 2.0**62:
            return
        reach = 0.0
        if ints.size:  # the bounds of the integers named only: a post stays cheap
            named = np.unique(ints)
            far = np.array([max(abs(self.lo[i]), abs(self.hi[i])) for i in named.tolist()],
                           dtype=float)
            reach = far[np.searchsorted(named, ints)]
        size = (np.abs(icoef.astype(float)) * reach).sum(axis=-1) \
            + np.abs(bcoef.astype(float)).sum(axis=-1) + np.abs(rhs.astype(float))
        if (size >= 2.0**62).any():
            raise ValueError("a linear constraint whose terms can reach 2**62: too large "
                             "for 64-bit arithmetic (scale its coefficients or domains down)")

    def has_constraints(self) -> bool:
        return bool(self.linear or self.alldiff or self.tables or self.elements
                    or self.regulars or self.objective is not None)

    def num_constraints(self) -> int:
        return (sum(len(x) for x in self.linear) + sum(len(g) for g in self.alldiff)
                + sum(len(t.scopes) for t in self.tables) + sum(len(e.index) for e in self.elements)
                + sum(len(r.words) for r in self.regulars))

    def table_cells(self) -> int:
        """The cells of every table, once per scope."""
        return sum(t.tuples.size * len(t.scopes) for t in self.tables)

    def num_terms(self) -> int:
        """The terms of every constraint over integers, channels counted one each: a
        measure of what building them costs."""
        return (sum(len(e) for e in self.eq_ints)
                + sum(len(x.ints.flat) + len(x.bools.flat) for x in self.linear)
                + sum(len(g.flat) for g in self.alldiff)
                + self.table_cells() + sum(e.arrays.size for e in self.elements)
                + sum(r.words.size for r in self.regulars))

    def channels(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(integers, values, literals) of every channel."""
        if not self.eq_ints:
            z = np.zeros(0, dtype=np.int64)
            return z, z, z
        return (np.concatenate(self.eq_ints), np.concatenate(self.eq_values),
                np.concatenate(self.eq_lits))

    def objective_range(self) -> tuple[int, int]:
        """The least and the greatest value the objective can take by its terms' bounds
        (Python integers: exact past 2**63)."""
        obj = self.objective
        assert obj is not None
        lo, hi = self.bounds()
        low = high = int(obj.constant)
        for c, a, b in zip(obj.icoef.tolist(), lo[obj.ints].tolist(), hi[obj.ints].tolist(),
                           strict=True):
            low += min(c * a, c * b)
            high += max(c * a, c * b)
        for c in obj.bcoef.tolist():
            low += min(c, 0)
            high += max(c, 0)
        return low, high

    def user_ints(self) -> np.ndarray:
        return np.concatenate(self.user) if self.user else np.zeros(0, dtype=np.int64)
