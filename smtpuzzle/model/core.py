"""The backend-neutral model: boolean variables, finite-domain integers and constraints.

Variables are numbered 1..n and literals are signed variable numbers, as in DIMACS.
Constraints are stored per kind as :class:`Groups` (literal lists in CSR form: one flat
numpy array and offsets), so a model with millions of literals is built with a handful of
vectorised operations. Every model names its *user* variables; solutions are projected on
them, blocked on them and counted on them, never on auxiliary variables.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

LitArray = np.ndarray


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
            return cls(groups.reshape(-1), np.arange(n + 1, dtype=np.int64) * k)
        arrays = [np.asarray(g, dtype=np.int64).reshape(-1) for g in groups]
        sizes = np.array([len(a) for a in arrays], dtype=np.int64)
        flat = np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)
        return cls(flat, np.concatenate([[0], np.cumsum(sizes)]), owned=True)

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
        converted together: twice as fast as slicing one flat list."""
        out: list[list[int]] = [[]] * len(self)
        for idx, mat in self.by_size():
            for i, group in zip(idx.tolist(), mat.tolist(), strict=True):
                out[i] = group
        return out

    def by_size(self):
        """Yield ``(indices, matrix)``: the groups of each size stacked into a 2D array."""
        sizes = self.sizes
        for s in np.unique(sizes):
            idx = np.flatnonzero(sizes == s)
            starts = self.offsets[idx]
            yield idx, self.flat[starts[:, None] + np.arange(s)[None, :]]


def _frozen(a: Any, owned: bool = False) -> np.ndarray:
    """``a`` as a read-only contiguous int64 array; copied when someone else could still
    write to it."""
    arr = np.asarray(a, dtype=np.int64)
    if not arr.flags.c_contiguous or (arr.flags.writeable and not (owned and arr.base is None)):
        arr = np.array(arr, dtype=np.int64, order="C")
    arr.flags.writeable = False
    return arr


class Cmp(StrEnum):
    EQ = "=="
    LE = "<="
    GE = ">="


@dataclass
class Cardinality:
    """``sum(literals) <cmp> bound`` for every group; bounds per group."""

    groups: Groups
    cmp: Cmp
    bounds: np.ndarray


@dataclass
class IntVar:
    """A finite-domain integer: one literal per value, exactly one of them true."""

    name: str
    values: np.ndarray
    literals: np.ndarray

    def literal(self, value: int) -> int:
        hits = np.flatnonzero(self.values == value)
        if len(hits) == 0:
            raise ValueError(f"{value} is not in the domain of {self.name}")
        return int(self.literals[hits[0]])


@dataclass
class Automaton:
    """The word ``literals[0] .. literals[-1]`` (label 1 = true, 0 = false) is accepted by a
    deterministic automaton: ``transitions`` rows are (state, label, next state); a missing
    transition rejects. Back ends without a native automaton use
    :meth:`Model.lower_automata`."""

    literals: np.ndarray
    transitions: np.ndarray
    start: int
    finals: np.ndarray


@dataclass
class Model:
    """A puzzle compiled to variables and constraints, independent of any back end."""

    name: str = "model"
    num_vars: int = 0
    clauses: list[Groups] = field(default_factory=list)
    exactly_one: list[Groups] = field(default_factory=list)
    at_most_one: list[Groups] = field(default_factory=list)
    cardinalities: list[Cardinality] = field(default_factory=list)
    implications: list[np.ndarray] = field(default_factory=list)
    int_vars: list[IntVar] = field(default_factory=list)
    automata: list[Automaton] = field(default_factory=list)
    # Optional hint: pairs of neighbouring cells, as indices into the cell groups (the
    # exactly-one groups, then the at-most-one groups, in order). Search back ends use it to
    # spot regions that no row can fill; solvers ignore it.
    cell_adjacency: np.ndarray | None = None
    # Optional guesses: literals, most confident first, that a back end may assume while
    # it looks for a first solution, giving up those a conflict blames. They never change
    # an answer, only how soon it comes. The sat and z3 back ends use them (CP-SAT's
    # solution hints did not help: faase stayed undecided after 120 s with them).
    hints: np.ndarray | None = None
    _user_vars: list[np.ndarray] = field(default_factory=list)
    _user_names: list[Sequence[str]] = field(default_factory=list)

    # -- variables -------------------------------------------------------------------------

    def new_bools(self, n: int, user: bool = False, names: Sequence[str] | None = None) -> LitArray:
        """``n`` fresh boolean variables; user variables need names (any sequence of str)."""
        ids = np.arange(self.num_vars + 1, self.num_vars + n + 1, dtype=np.int64)
        self.num_vars += n
        if user:
            if names is None or len(names) != n:
                raise ValueError("user variables need one name each")
            self._user_vars.append(ids)
            self._user_names.append(names)
        return ids

    def new_int(self, name: str, values: Sequence[int], user: bool = False) -> IntVar:
        """A finite-domain integer over ``values``, with a literal per value."""
        values = np.asarray(values, dtype=np.int64)
        names = [f"{name}={v}" for v in values.tolist()] if user else None
        var = IntVar(name, values, self.new_bools(len(values), user=user, names=names))
        self.int_vars.append(var)
        return var

    @property
    def user_vars(self) -> np.ndarray:
        if not self._user_vars:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate(self._user_vars)

    def user_names(self) -> list[str]:
        return [n for names in self._user_names for n in names]

    # -- constraints -----------------------------------------------------------------------

    def add_clauses(self, groups: Any) -> None:
        """Each group: at least one literal true (a clause)."""
        self.clauses.append(Groups.of(groups))

    add_at_least_one = add_clauses

    def add_false(self) -> None:
        """The empty clause: the model has no solution."""
        self.clauses.append(Groups(np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64)))

    def add_exactly_one(self, groups: Any) -> None:
        self.exactly_one.append(Groups.of(groups))

    def add_at_most_one(self, groups: Any) -> None:
        self.at_most_one.append(Groups.of(groups))

    def add_cardinality(self, groups: Any, cmp: str | Cmp, bounds: Any) -> None:
        """``sum(group) cmp bound`` per group; ``bounds`` is one number or one per group."""
        g = Groups.of(groups)
        b = np.broadcast_to(np.asarray(bounds, dtype=np.int64), (len(g),)).copy()
        self.cardinalities.append(Cardinality(g, Cmp(cmp), b))

    def add_implications(self, a: Any, b: Any) -> None:
        """Literal ``a[i]`` implies literal ``b[i]`` for every i."""
        pairs = np.stack(np.broadcast_arrays(np.atleast_1d(a), np.atleast_1d(b)), axis=1)
        self.implications.append(pairs.astype(np.int64).reshape(-1, 2))

    def add_automaton(self, literals: Any, transitions: Any, start: int, finals: Any) -> None:
        """The assignment of ``literals``, read as a 0/1 word, is accepted by the automaton."""
        self.automata.append(Automaton(np.asarray(literals, dtype=np.int64),
                                       np.asarray(transitions, dtype=np.int64).reshape(-1, 3),
                                       int(start), np.asarray(finals, dtype=np.int64)))

    def num_constraints(self) -> int:
        """Constraints as written: one per clause, group, cardinality row, implication and
        automaton (back ends may expand them into more)."""
        groups = self.clauses + self.exactly_one + self.at_most_one
        return (sum(len(g) for g in groups) + sum(len(c.groups) for c in self.cardinalities)
                + sum(len(i) for i in self.implications) + len(self.automata))

    def copy(self) -> Model:
        """An independent copy: constraints or variables added to either one are not seen
        by the other (the immutable groups themselves are shared)."""
        return dataclasses.replace(
            self, clauses=list(self.clauses), exactly_one=list(self.exactly_one),
            at_most_one=list(self.at_most_one), cardinalities=list(self.cardinalities),
            implications=list(self.implications), int_vars=list(self.int_vars),
            automata=list(self.automata),
            hints=None if self.hints is None else self.hints.copy(),
            _user_vars=list(self._user_vars), _user_names=list(self._user_names))

    def projected(self, variables: np.ndarray, names: Sequence[str]) -> Model:
        """A copy whose user variables are ``variables`` (already in the model) instead:
        back ends then list solutions distinct on these alone (a projected enumeration)."""
        out = self.copy()
        out._user_vars, out._user_names = [np.asarray(variables, dtype=np.int64)], [names]
        return out

    def with_units(self, literals: Any) -> Model:
        """A copy that also asserts each literal (forces or forbids variables): how a
        search is split into sub-problems that every back end can solve."""
        out = self.copy()
        out.clauses.append(Groups.of(np.asarray(literals, dtype=np.int64).reshape(-1, 1)))
        return out

    # -- views for back ends ---------------------------------------------------------------

    def all_clauses(self) -> Groups:
        return Groups.concat(self.clauses)

    def all_exactly_one(self) -> Groups:
        """Exactly-one groups, including the one-hot literals of every integer."""
        return Groups.concat(self.exactly_one + [Groups.of([v.literals for v in self.int_vars])])

    def all_at_most_one(self) -> Groups:
        return Groups.concat(self.at_most_one)

    def all_implications(self) -> np.ndarray:
        if not self.implications:
            return np.zeros((0, 2), dtype=np.int64)
        return np.concatenate(self.implications)

    def lower_automata(self) -> Model:
        """A copy with every automaton unrolled into state literals and clauses, for back
        ends without a native automaton constraint (sat, z3, DIMACS)."""
        if not self.automata:
            return self
        out = self.copy()
        out.automata = []
        for a in self.automata:
            _unroll(out, a)
        return out


def _unroll(model: Model, a: Automaton) -> None:
    """One literal per (position, state) that some accepted word can be in; exactly one per
    position; (state, letter) -> next state as clauses; dead ends forbidden."""
    lits, n = a.literals, len(a.literals)
    q = int(max(a.transitions[:, [0, 2]].max(initial=0), a.start, a.finals.max(initial=0))) + 1
    delta = np.full((q, 2), -1, dtype=np.int64)
    delta[a.transitions[:, 0], a.transitions[:, 1]] = a.transitions[:, 2]
    alive = np.zeros((n + 1, q), dtype=bool)
    alive[0, a.start] = True
    for t in range(n):
        for b in (0, 1):
            d = delta[alive[t], b]
            alive[t + 1, d[d >= 0]] = True
    back = np.zeros((n + 1, q), dtype=bool)
    back[n, a.finals] = True
    for t in range(n - 1, -1, -1):
        for b in (0, 1):
            ok = delta[:, b] >= 0
            back[t, ok] |= back[t + 1, delta[ok, b]]
    alive &= back
    if not alive[0, a.start]:
        model.add_false()
        return
    var = np.zeros((n + 1, q), dtype=np.int64)
    var[alive] = model.new_bools(int(alive.sum()))
    model.add_exactly_one([var[t][alive[t]] for t in range(n + 1)])
    ts, qs = np.nonzero(alive[:-1])
    pred_keys, pred_members = [], []
    for b in (0, 1):
        word = lits if b else -lits  # "position t reads b"
        d = delta[qs, b]
        ok = d >= 0
        ok[ok] = alive[ts[ok] + 1, d[ok]]
        here, there = var[ts[ok], qs[ok]], var[ts[ok] + 1, d[ok]]
        model.add_clauses(np.stack([-here, -word[ts[ok]], there], axis=1))
        model.add_clauses(np.stack([-var[ts[~ok], qs[~ok]], -word[ts[~ok]]], axis=1))
        # Supports (redundant, for propagation): the letter needs a state that reads it,
        # and a state needs a predecessor.
        model.add_clauses(headed_groups(-word, ts[ok], here))
        pred_keys.append(there)
        pred_members.append(here)
    tgt_t, tgt_q = np.nonzero(alive[1:])
    targets = var[tgt_t + 1, tgt_q]
    slot = np.full(model.num_vars + 1, -1, dtype=np.int64)
    slot[targets] = np.arange(len(targets))
    model.add_clauses(headed_groups(-targets, slot[np.concatenate(pred_keys)],
                                    np.concatenate(pred_members)))


def headed_groups(heads: np.ndarray, keys: np.ndarray, members: np.ndarray) -> Groups:
    """Group i is ``[heads[i], *members[keys == i]]`` (a clause "head implies a member")."""
    order = np.argsort(keys, kind="stable")
    sizes = np.bincount(keys, minlength=len(heads)) + 1
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    flat = np.empty(offsets[-1], dtype=np.int64)
    is_head = np.zeros(len(flat), dtype=bool)
    is_head[offsets[:-1]] = True
    flat[is_head] = heads
    flat[~is_head] = members[order]
    return Groups(flat, offsets)
