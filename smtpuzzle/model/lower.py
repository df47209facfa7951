"""Decompositions: what a back end does not take natively, rewritten into what it does.

The table of constraint kinds (model/kinds.py) names each kind's rewrite here, and its
``lowered`` applies the rewrites of the kinds a back end does not take:
``lower_automata`` unrolls 0/1 automata into clauses; ``lower_regular`` turns automata over
integers into the same unrolling over "x == v" literals; ``lower_ints`` removes integers
altogether, for the sat back end and DIMACS: direct literals per integer (binary digits
for wide ones), order literals for those compared or summed, linear rows as decision
diagrams over partial sums, as cardinalities or as pseudo-booleans; AllDifferent as
at-most-one per value, tables by tuple selectors, element by implications.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from smtpuzzle.model.core import Model, WeightedSum, headed_groups
from smtpuzzle.model.groups import Groups
from smtpuzzle.model.ints import EQ, GE, LE, NE, Cmp, IntPart, LinearRows, RegularRows
from smtpuzzle.runtime.memory import check_fits_in_memory


def unroll(model: Model, letters: np.ndarray, transitions: np.ndarray, start: int,
           finals: np.ndarray) -> None:
    """The word whose letter at position t is the label b with ``letters[t, b]`` true (a
    literal; 0 where that label cannot be read there) is accepted by the automaton. One
    literal per (position, state) that an accepted word can be in; (state, letter) -> next
    state as clauses; dead ends forbidden; supports added for propagation."""
    n, labels = letters.shape
    # states renumbered 0..q-1: the tables below are q wide, and a state may be named 10**12
    k = len(finals) + 1
    names, renamed = np.unique(np.concatenate([[start], finals, transitions[:, [0, 2]].ravel()]),
                               return_inverse=True)
    q = len(names)
    start, finals, moves = int(renamed[0]), renamed[1:k], renamed[k:].reshape(-1, 2)
    transitions = np.column_stack([moves[:, 0], transitions[:, 1], moves[:, 1]])
    delta = np.full((q, labels), -1, dtype=np.int64)
    ok_t = (transitions[:, 1] >= 0) & (transitions[:, 1] < labels)
    delta[transitions[ok_t, 0], transitions[ok_t, 1]] = transitions[ok_t, 2]
    readable = letters != 0
    alive = np.zeros((n + 1, q), dtype=bool)
    alive[0, start] = True
    for t in range(n):
        for b in np.flatnonzero(readable[t]).tolist():
            d = delta[alive[t], b]
            alive[t + 1, d[d >= 0]] = True
    back = np.zeros((n + 1, q), dtype=bool)
    back[n, finals] = True
    for t in range(n - 1, -1, -1):
        for b in np.flatnonzero(readable[t]).tolist():
            ok = delta[:, b] >= 0
            back[t, ok] |= back[t + 1, delta[ok, b]]
    alive &= back
    if not alive[0, start]:
        model.add_false()
        return
    var = np.zeros((n + 1, q), dtype=np.int64)
    var[alive] = model.new_bools(int(alive.sum()))
    model.add_exactly_one([var[t][alive[t]] for t in range(n + 1)])
    ts, qs = np.nonzero(alive[:-1])
    pred_keys, pred_members = [], []
    for b in range(labels):
        word = letters[:, b]  # "position t reads b"
        can = word[ts] != 0
        t_b, q_b = ts[can], qs[can]
        d = delta[q_b, b]
        ok = d >= 0
        ok[ok] = alive[t_b[ok] + 1, d[ok]]
        here, there = var[t_b[ok], q_b[ok]], var[t_b[ok] + 1, d[ok]]
        model.add_clauses(np.stack([-here, -word[t_b[ok]], there], axis=1))
        model.add_clauses(np.stack([-var[t_b[~ok], q_b[~ok]], -word[t_b[~ok]]], axis=1))
        # Supports (redundant, for propagation): the letter needs a state that reads it.
        nz = np.flatnonzero(word)
        slot = np.full(n, -1, dtype=np.int64)
        slot[nz] = np.arange(len(nz))
        model.add_clauses(headed_groups(-word[nz], slot[t_b[ok]], here))
        pred_keys.append(there)
        pred_members.append(here)
    # ... and a state needs a predecessor.
    tgt_t, tgt_q = np.nonzero(alive[1:])
    targets = var[tgt_t + 1, tgt_q]
    slot = np.full(model.num_vars + 1, -1, dtype=np.int64)
    slot[targets] = np.arange(len(targets))
    model.add_clauses(headed_groups(-targets, slot[np.concatenate(pred_keys)],
                                    np.concatenate(pred_members)))


def lower_automata(model: Model) -> Model:
    """0/1 automata unrolled into state literals and clauses."""
    if not model.automata:
        return model
    out = model.copy()
    out.automata = []
    for a in model.automata:
        letters = np.stack([-a.literals, a.literals], axis=1)
        unroll(out, letters, a.transitions, a.start, a.finals)
    return out


def lower_regular(model: Model) -> Model:
    """Automata over integers as unrollings over "x == v" literals (channels)."""
    if not model.ints.regulars:
        return model
    out = model.copy()
    out.ints.regulars = []
    lo, hi = out.ints.bounds()
    for r in model.ints.regulars:
        _regular(out, out.eq_literals, lo, hi, r)
    return out


def _regular(out: Model, eq: Callable[[np.ndarray, np.ndarray], np.ndarray], lo: np.ndarray,
             hi: np.ndarray, r: RegularRows) -> None:
    """Each word of ``r`` accepted, unrolled over the literals ``eq(x, v)`` of the values
    its transitions read (never over every value between two far-apart ones); a letter
    reads one of those values."""
    labels, label_of = np.unique(r.transitions[:, 1], return_inverse=True)
    trans = r.transitions.copy()
    trans[:, 1] = label_of
    for word in r.words:
        inside = (labels[None, :] >= lo[word][:, None]) & (labels[None, :] <= hi[word][:, None])
        w, v = np.nonzero(inside)
        letters = np.zeros(inside.shape, dtype=np.int64)
        letters[w, v] = eq(word[w], labels[v])
        out.add_clauses([row[row != 0] for row in letters])  # some value a move reads
        unroll(out, letters, trans, r.start, r.finals)


class _Encoding:
    """The literals of every integer, laid out flat.

    A *narrow* integer (fewer than WIDE_FROM values) has direct ("x == v") literals and, if
    it is compared or summed (``ordered``), order ("x >= v") literals: integer x owns
    positions ``off[x] .. off[x + 1] - 1``, one per value from lo[x] up. An integer that is
    only ever equal or not equal to values (a placement number, a Sudoku cell) gets the
    direct encoding alone: its exactly-one already propagates all there is, and the order
    literals would only be more variables and clauses for the solver.

    A *wide* integer has binary digits of ``x - lo`` instead (a literal per value would cost
    gigabytes for 0..10^9): its "x == v" and "x >= v" literals are made when a constraint
    asks for one, each defined over the digits, and rows over it are sums of its digits."""

    def __init__(self, out: Model, ints: IntPart, ordered: np.ndarray) -> None:
        self.lo, self.hi = ints.bounds()
        size = self.hi - self.lo + 1
        self.wide = size >= WIDE_FROM
        self.ordered = ordered & ~self.wide
        narrow_size = np.where(self.wide, 0, size)
        self.off = np.concatenate([[0], np.cumsum(narrow_size)]).astype(np.int64)
        total = int(self.off[-1])
        self._out = out
        self.true = int(out.new_bools(1)[0])
        out.add_clauses([[self.true]])
        self._digits: dict[int, np.ndarray] = {}
        self._made: dict[tuple[str, int, int], int] = {}  # wide integers' literals
        for x in np.flatnonzero(self.wide).tolist():
            span = int(size[x]) - 1
            self._digits[x] = digits = out.new_bools(span.bit_length())
            if span + 1 < 1 << len(digits):  # digits past the range: x - lo <= span
                out.add_clauses([[-self._ge_chain(digits, span + 1)]])
        direct = np.zeros(total, dtype=np.int64)
        ci, cv, cl = ints.channels()
        inside = (cv >= self.lo[ci]) & (cv <= self.hi[ci])
        if (~inside).any():
            out.add_clauses(-cl[~inside][:, None])  # a value outside the range
        on_wide = inside & self.wide[ci]
        for x, v, lit in zip(ci[on_wide].tolist(), cv[on_wide].tolist(),
                             cl[on_wide].tolist(), strict=True):
            self._define_eq(x, v, lit)
        narrow = inside & ~self.wide[ci]
        direct[self.off[ci[narrow]] + cv[narrow] - self.lo[ci[narrow]]] = cl[narrow]
        missing = direct == 0
        direct[missing] = out.new_bools(int(missing.sum()))
        self.direct = direct
        out.add_exactly_one(Groups(direct, np.append(self.off[:-1][narrow_size > 0], total)))
        # order[p] = "x >= lo + k" at position p = off[x] + k; k = 0 is always true.
        # Integers without order literals keep 0 there.
        has = np.repeat(self.ordered, narrow_size)
        first = np.zeros(total, dtype=bool)
        first[self.off[:-1][narrow_size > 0]] = True
        last = np.zeros(total, dtype=bool)
        last[self.off[1:][narrow_size > 0] - 1] = True
        order = np.zeros(total, dtype=np.int64)
        order[has & first] = self.true
        inner = has & ~first
        order[inner] = out.new_bools(int(inner.sum()))
        self.order = order
        p = np.flatnonzero(inner)
        out.add_clauses(np.stack([-order[p], order[p - 1]], axis=1))  # x >= v -> x >= v-1
        out.add_clauses(np.stack([-direct[p], order[p]], axis=1))  # x == v -> x >= v
        p2 = np.flatnonzero(has & ~last)
        out.add_clauses(np.stack([-direct[p2], -order[p2 + 1]], axis=1))  # x == v -> x < v+1
        # x >= v and not x >= v+1 -> x == v
        p3 = np.flatnonzero(has)
        nxt = np.where(last[p3], -self.true, order[np.minimum(p3 + 1, max(total - 1, 0))])
        out.add_clauses(np.stack([-order[p3], nxt, direct[p3]], axis=1))

    def eq(self, x: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The literal "x == v" (false where v is out of range)."""
        x, v = np.broadcast_arrays(np.asarray(x), np.asarray(v))
        shape, x, v = x.shape, x.reshape(-1), v.reshape(-1)
        inside = (v >= self.lo[x]) & (v <= self.hi[x])
        out = np.full(x.shape, -self.true, dtype=np.int64)
        narrow = inside & ~self.wide[x]
        out[narrow] = self.direct[self.off[x[narrow]] + v[narrow] - self.lo[x[narrow]]]
        for i in np.flatnonzero(inside & self.wide[x]).tolist():
            out[i] = self._define_eq(int(x[i]), int(v[i]))
        return out.reshape(shape)

    def ge(self, x: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The literal "x >= v"."""
        x, v = np.broadcast_arrays(np.asarray(x), np.asarray(v))
        shape, x, v = x.shape, x.reshape(-1), v.reshape(-1)
        assert (self.ordered[x] | self.wide[x]).all(), "an integer compared without order " \
            "literals"
        out = np.where(v <= self.lo[x], self.true, -self.true).astype(np.int64)
        inside = (v > self.lo[x]) & (v <= self.hi[x])
        narrow = inside & ~self.wide[x]
        out[narrow] = self.order[self.off[x[narrow]] + v[narrow] - self.lo[x[narrow]]]
        for i in np.flatnonzero(inside & self.wide[x]).tolist():
            key = ("ge", int(x[i]), int(v[i]))
            if key not in self._made:
                self._made[key] = self._ge_chain(self._digits[key[1]],
                                                 key[2] - int(self.lo[key[1]]))
            out[i] = self._made[key]
        return out.reshape(shape)

    def _define_eq(self, x: int, v: int, lit: int | None = None) -> int:
        """The literal "x == v" of a wide integer (v in its range): each digit as v's,
        made once (``lit``, a channel literal of the model, is defined so if given)."""
        key = ("eq", x, v)
        if key in self._made and lit is None:
            return self._made[key]
        digits = self._digits[x]
        c = v - int(self.lo[x])
        spelled = np.where((c >> np.arange(len(digits))) & 1, digits, -digits)
        if key in self._made:  # a second channel literal of the same value: the same
            self._out.add_clauses([[-lit, self._made[key]], [lit, -self._made[key]]])
            return lit
        e = int(self._out.new_bools(1)[0]) if lit is None else lit
        self._out.add_clauses(np.stack([np.full(len(digits), -e), spelled], axis=1))
        self._out.add_clauses([[e, *(-spelled).tolist()]])
        self._made[key] = e
        return e

    def _ge_chain(self, digits: np.ndarray, c: int) -> int:
        """A literal equivalent to "the number the digits spell >= c" (0 <= c)."""
        out = self._out
        lit, clauses = digits_at_least(digits, c, lambda: int(out.new_bools(1)[0]))
        if clauses:
            out.add_clauses(clauses)
        return self.true if lit is True else -self.true if lit is False else lit

    def values(self, x: int) -> np.ndarray:
        return np.arange(self.lo[x], self.hi[x] + 1)

    def digits(self, x: int) -> np.ndarray:
        """Binary digit literals of ``x - lo`` (least significant first): a wide integer's
        own; for a narrow one made on first use, ``x == v`` fixing each digit to v's (so the
        exactly-one over the direct literals makes the digits spell x)."""
        if x not in self._digits:
            values = np.arange(int(self.hi[x] - self.lo[x]) + 1)
            width = max(int(values[-1]).bit_length(), 1)
            digits = self._out.new_bools(width)
            bits = (values[:, None] >> np.arange(width)[None, :]) & 1
            direct = self.direct[self.off[x]:self.off[x + 1]]
            lit = np.where(bits == 1, digits[None, :], -digits[None, :])
            self._out.add_clauses(np.stack([np.repeat(-direct, width), lit.ravel()], axis=1))
            self._digits[x] = digits
        return self._digits[x]


def digits_at_least(digits: np.ndarray, c: int, fresh: Callable[[], int]
                    ) -> tuple[int | bool, list[list[int]]]:
    """"The number the binary ``digits`` spell (least significant first) is at least c":
    True, False, or a literal with the clauses that make it so (``fresh()`` gives new
    variables). From the lowest digit up, g' = d and g where c has a 1, d or g where a 0."""
    if c <= 0:
        return True, []
    if c >> len(digits):
        return False, []
    g: int | bool = True
    clauses: list[list[int]] = []
    for i, d in enumerate(digits.tolist()):
        one = (c >> i) & 1
        if g is True:
            g = d if one else True
            continue
        n = fresh()
        if one:  # n <-> d and g
            clauses += [[-n, d], [-n, g], [n, -d, -g]]
        else:  # n <-> d or g
            clauses += [[n, -d], [n, -g], [-n, d, g]]
        g = n
    return g, clauses


@dataclass
class IntAnswer:
    """Where the answer integers sit among a lowered model's user variables, after its
    booleans: integer i's literals are ``offsets[i] .. offsets[i + 1] - 1`` of them, one
    per value from ``lo[i]`` up, or (``binary[i]``) the binary digits of ``x - lo[i]``,
    least significant first."""

    offsets: np.ndarray
    lo: np.ndarray
    binary: np.ndarray

    def decode(self, bits: np.ndarray) -> np.ndarray:
        """The integers' values from their literals' values (a bool array)."""
        out = np.empty(len(self.lo), dtype=np.int64)
        for i, (a, b) in enumerate(zip(self.offsets[:-1].tolist(), self.offsets[1:].tolist(),
                                       strict=True)):
            mine = np.asarray(bits[a:b], dtype=bool)
            if self.binary[i]:
                out[i] = self.lo[i] + sum(1 << k for k in np.flatnonzero(mine).tolist())
            else:
                out[i] = self.lo[i] + int(np.flatnonzero(mine)[0])
        return out

    def at_most(self, i: int, c: int, literals: np.ndarray, fresh: Callable[[], int]
                ) -> tuple[int | bool, list[list[int]]]:
        """"Answer integer i <= c", over its ``literals`` (its share of the user variables):
        True, False, or a literal that implies it, with the clauses that make it so."""
        v = c - int(self.lo[i])
        mine = literals[int(self.offsets[i]):int(self.offsets[i + 1])]
        if self.binary[i]:
            lit, clauses = digits_at_least(mine, v + 1, fresh)
            return (not lit if isinstance(lit, bool) else -lit), clauses
        if v < 0:
            return False, []
        if v >= len(mine) - 1:
            return True, []
        t = fresh()  # t -> one of the values up to c
        return t, [[-t, *mine[:v + 1].tolist()]]

    def encode(self, ints: np.ndarray) -> np.ndarray:
        """The literals' values (a bool array) that spell ``ints``."""
        bits = np.zeros(int(self.offsets[-1]), dtype=bool)
        for i, value in enumerate((np.asarray(ints) - self.lo).tolist()):
            a, b = int(self.offsets[i]), int(self.offsets[i + 1])
            if self.binary[i]:
                bits[a:b] = (value >> np.arange(b - a)) & 1
            else:
                bits[a + value] = True
        return bits


class _AnswerNames(Sequence[str]):
    """``x=v`` for every value v of every narrow answer integer x, ``x.bit=k`` for each
    binary digit of a wide one (worth 2^k above its lowest value), made when asked for."""

    def __init__(self, names: Sequence[str], ints: np.ndarray, layout: IntAnswer) -> None:
        self.names, self.ints, self.layout = names, ints.tolist(), layout
        self.starts = layout.offsets.tolist()

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        j = bisect.bisect_right(self.starts, i) - 1
        k = i - self.starts[j]
        if self.layout.binary[j]:
            return f"{self.names[self.ints[j]]}.bit={k}"
        return f"{self.names[self.ints[j]]}={int(self.layout.lo[j]) + k}"


def lower_ints(model: Model) -> Model:
    """A copy without integers (see the module docstring); the objective is dropped (the
    solving layer searches on its bound instead)."""
    ints = model.ints
    if ints.count == 0 and not ints.has_constraints():
        return model
    lo, hi = ints.bounds()
    size = hi - lo + 1
    narrow = size < WIDE_FROM
    values = int(size[narrow].sum()) + 64 * int((~narrow).sum())
    widest = int(size[narrow].max()) if narrow.any() else 0
    check_fits_in_memory(values * BYTES_PER_VALUE, (
        f"a literal per integer value ({values:,} values, {widest:,} in the widest integer "
        "given one; cpsat and z3 keep integers whole)"))
    out = model.copy()
    out.ints = IntPart()
    enc = _Encoding(out, ints, _compared(ints))
    user = ints.user_ints()
    if len(user):  # the answer integers, told apart by their literals
        parts = [enc.digits(x) if enc.wide[x] else enc.direct[enc.off[x]:enc.off[x + 1]]
                 for x in user.tolist()]
        layout = IntAnswer(np.concatenate([[0], np.cumsum([len(p) for p in parts])]),
                           enc.lo[user], enc.wide[user])
        out._user_vars.append(np.concatenate(parts))
        out._user_names.append(_AnswerNames(ints.names, user, layout))
        out.int_answer = layout
    _linear(out, enc, ints.linear)
    for g in ints.alldiff:
        _alldiff(out, enc, g)
    for t in ints.tables:
        _table(out, enc, t.scopes, t.tuples, t.forbidden)
    for e in ints.elements:
        _element(out, enc, e.index, e.arrays, e.targets)
    for r in ints.regulars:
        _regular(out, enc.eq, lo, hi, r)
    return out


def _compared(ints: IntPart) -> np.ndarray:
    """Per integer: does a decomposition need its order literals? Those of every linear row
    do, but for ``x == v`` and ``x != v`` (one integer, coefficient +-1, no literals), which
    are direct literals; so does the objective's (the sat back end bounds it by a row)."""
    ordered = np.zeros(ints.count, dtype=bool)
    for batch in ints.linear:
        n_ints = np.diff(batch.ints.offsets)
        n_bools = np.diff(batch.bools.offsets)
        first = batch.ints.offsets[:-1][n_ints == 1]
        unit = np.zeros(len(batch), dtype=bool)
        unit[n_ints == 1] = np.abs(batch.icoef[first]) == 1
        equality = unit & (n_bools == 0) & ((batch.cmp == EQ) | (batch.cmp == NE))
        rows = np.repeat(~equality, n_ints)
        ordered[batch.ints.flat[rows]] = True
    if ints.objective is not None:
        ordered[ints.objective.ints] = True
    return ordered


BYTES_PER_VALUE = 4000  # the direct and order literals of one integer value, their clauses
# and what the sat back end makes of them (measured: 8.3 GB peak for x0 + 2 x1 >= 7 over
# 0..1,000,000)
DIAGRAM_MAX_RANGE = 1000  # unit-coefficient sums spanning more than this go to pseudo-boolean
BINARY_FROM = 64  # pseudo-boolean rows take integers of this many values or more by digits
WIDE_FROM = 2048  # integers of this many values or more get binary digits, not a literal each


def _merged(ids: np.ndarray, coefs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Terms on the same variable added up (and zero coefficients dropped)."""
    u, inv = np.unique(ids, return_inverse=True)
    c = np.bincount(inv, weights=coefs, minlength=len(u)).astype(np.int64)
    keep = c != 0
    return u[keep], c[keep]


def _linear(out: Model, enc: _Encoding, batches: Sequence[LinearRows]) -> None:
    """Every linear row, normalised (terms merged, divided by their gcd, the first
    coefficient positive) and then the rows on the same terms under the same condition
    merged into one range: ``e <= 100`` and ``e >= 101`` are false outright, where their
    two pseudo-boolean encodings leave a SAT solver searching."""
    ranges: dict[tuple, list] = {}  # terms and condition -> [xs, xc, bs, bc, lo, hi, e]
    pending = _Pending()
    for batch in batches:
        unary = _unary(out, enc, batch)
        for i in np.flatnonzero(~unary).tolist():
            xs, xc = _merged(batch.ints[i],
                             batch.icoef[batch.ints.offsets[i]:batch.ints.offsets[i + 1]])
            bs, bc = _merged(batch.bools[i],
                             batch.bcoef[batch.bools.offsets[i]:batch.bools.offsets[i + 1]])
            code, rhs, e = int(batch.cmp[i]), int(batch.rhs[i]), int(batch.enforce[i])
            coefs = np.concatenate([xc, bc])
            g = int(np.gcd.reduce(np.abs(coefs))) if len(coefs) else 0
            if g > 1:  # 2x + 2y == 5 is false: a SAT solver cannot see parity
                if rhs % g and code in (EQ, NE):
                    if code == EQ:
                        out.add_clauses([[-e] if e else []])
                    continue
                xc, bc = xc // g, bc // g
                rhs = -(-rhs // g) if code == GE else rhs // g  # rounded inwards
            if len(coefs) and coefs[0] < 0:
                xc, bc, rhs, code = -xc, -bc, -rhs, {EQ: EQ, NE: NE, LE: GE, GE: LE}[code]
            if code == NE:
                _post(out, enc, xs, xc, bs, bc, code, rhs, e, pending)
                continue
            key = (xs.tobytes(), xc.tobytes(), bs.tobytes(), bc.tobytes(), e)
            row = ranges.setdefault(key, [xs, xc, bs, bc, None, None, e])
            if code != LE:
                row[4] = rhs if row[4] is None else max(row[4], rhs)
            if code != GE:
                row[5] = rhs if row[5] is None else min(row[5], rhs)
    for xs, xc, bs, bc, lo, hi, e in ranges.values():
        if lo is not None and hi is not None and lo >= hi:
            if lo > hi:
                out.add_clauses([[-e] if e else []])
            else:
                _post(out, enc, xs, xc, bs, bc, EQ, lo, e, pending)
            continue
        if lo is not None:
            _post(out, enc, xs, xc, bs, bc, GE, lo, e, pending)
        if hi is not None:
            _post(out, enc, xs, xc, bs, bc, LE, hi, e, pending)
    pending.write(out, enc)


def _unary(out: Model, enc: _Encoding, batch: LinearRows) -> np.ndarray:
    """Post the rows ``+-x <code> rhs`` of ``batch`` (one integer, no literals) at once, each
    a literal of x's encoding (a clause with its condition): a Nurikabe's "not this
    island here" rows are hundreds of thousands. Returns which rows they were."""
    n_ints = np.diff(batch.ints.offsets)
    first = batch.ints.offsets[:-1][n_ints == 1]
    unary = np.zeros(len(batch), dtype=bool)
    unary[n_ints == 1] = np.abs(batch.icoef[first]) == 1
    unary &= np.diff(batch.bools.offsets) == 0
    if not unary.any():
        return unary
    at = batch.ints.offsets[:-1][unary]
    lit = _unit_literals(enc, batch.ints.flat[at], batch.icoef[at], batch.cmp[unary],
                         batch.rhs[unary])
    e = batch.enforce[unary]
    out.add_clauses(lit[e == 0, None])
    out.add_clauses(np.stack([-e[e != 0], lit[e != 0]], axis=1))
    return unary


@dataclass
class _Pending:
    """Rows whose clauses are written together at the end: differences of two integers
    as (x, y, code, rhs, condition), and decision diagrams by their shape."""

    differences: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    diagrams: dict[tuple, list[np.ndarray]] = field(default_factory=dict)

    def write(self, out: Model, enc: _Encoding) -> None:
        _differences(out, enc, self.differences)
        for key, rows in self.diagrams.items():
            _write_diagrams(out, key, np.array(rows))


def _post(out: Model, enc: _Encoding, xs: np.ndarray, xc: np.ndarray, bs: np.ndarray,
          bc: np.ndarray, code: int, rhs: int, e: int, pending: _Pending | None = None
          ) -> None:
    """One normalised row ``sum <code> rhs`` where ``e`` holds (always, when 0); its
    clauses wait in ``pending`` (if given) where they are written with others at once."""
    if len(xs) == 1 and len(bs) == 0 and abs(int(xc[0])) == 1:
        lit = int(_unit_literals(enc, xs[:1], xc[:1], np.array([code]), np.array([rhs]))[0])
        out.add_clauses([[lit] if e == 0 else [-e, lit]])
        return
    if len(xs) == 2 and len(bs) == 0 and code != NE and sorted(xc.tolist()) == [-1, 1] \
            and not enc.wide[xs].any():
        x, y = (xs if xc[0] == 1 else xs[::-1]).tolist()
        if pending is None:
            _differences(out, enc, [(x, y, code, rhs, e)])
        else:
            pending.differences.append((x, y, code, rhs, e))
        return
    if len(xs) == 0 and e == 0 and code != NE and (bc == 1).all():
        out.add_cardinality([bs], Cmp(code), rhs)  # counts
        return
    # Unit coefficients over a small range: a decision diagram on partial sums (strong
    # propagation, small); anything else (SEND+MORE's weights) pseudo-boolean.
    span = int((enc.hi[xs] - enc.lo[xs]).sum()) + len(bs)
    diagram = (np.abs(xc) == 1).all() and (np.abs(bc) == 1).all() and \
        span <= DIAGRAM_MAX_RANGE

    def post(code: int, rhs: int, e: int) -> None:
        if diagram:
            _diagram(out, enc, xs, xc, bs, bc, code, rhs, e, pending)
        else:
            _pseudo_boolean(out, enc, xs, xc, bs, bc, code, rhs, e)

    if code == NE:  # e -> (sum <= rhs - 1 or sum >= rhs + 1)
        below, above = out.new_bools(2).tolist()
        out.add_clauses([[below, above] if e == 0 else [-e, below, above]])
        post(LE, rhs - 1, below)
        post(GE, rhs + 1, above)
        return
    post(code, rhs, e)


def _differences(out: Model, enc: _Encoding, rows: list[tuple[int, int, int, int, int]]
                 ) -> None:
    """Rows ``x - y <code> rhs`` where e holds (``rows`` of (x, y, code, rhs, e)), all at
    once: a clause per value of x on the order literals, x >= v -> y >= v - rhs (as a
    pseudo-boolean, x < y over two 13,710-value domains ran for minutes and took
    gigabytes)."""
    if not rows:
        return
    x, y, code, rhs, e = (np.array(col, dtype=np.int64) for col in zip(*rows, strict=True))
    le, ge = code != GE, code != LE  # EQ is both
    a = np.concatenate([x[le], y[ge]])  # a - b <= c
    b = np.concatenate([y[le], x[ge]])
    c = np.concatenate([rhs[le], -rhs[ge]])
    e = np.concatenate([e[le], e[ge]])
    size = enc.hi[a] - enc.lo[a] + 1
    row = np.repeat(np.arange(len(a)), size)
    v = enc.lo[a][row] + np.arange(len(row)) - np.repeat(np.cumsum(size) - size, size)
    clauses = np.stack([-e[row], -enc.ge(a[row], v), enc.ge(b[row], v - c[row])], axis=1)
    always = e[row] == 0
    out.add_clauses(clauses[always, 1:])
    out.add_clauses(clauses[~always])


def _pseudo_boolean(out: Model, enc: _Encoding, xs: np.ndarray, xc: np.ndarray,
                    bs: np.ndarray, bc: np.ndarray, code: int, rhs: int, enforce: int) -> None:
    """``sum <code> rhs`` where ``enforce`` holds, over the order literals (x = lo + the
    number of true "x >= v"), as weighted sums of literals (``Model.weighted``, which the
    CNF encodes as pseudo-booleans); the condition enters as a big-M term."""
    lits, weights = [bs], [bc]
    const = int((xc * enc.lo[xs]).sum())
    for x, c in zip(xs.tolist(), xc.tolist(), strict=True):
        if enc.hi[x] - enc.lo[x] >= BINARY_FROM or not enc.ordered[x]:
            # a wide integer by its binary digits: weights c * 2^k on a few literals, where
            # its order literals would put c on each of thousands (measured, RESULTS.md);
            # so is one without order literals (an element's entry beside a wide target)
            digits = enc.digits(x)
            lits.append(digits)
            weights.append(c << np.arange(len(digits), dtype=np.int64))
            continue
        order = enc.order[enc.off[x] + 1:enc.off[x + 1]]
        lits.append(order)
        weights.append(np.full(len(order), c, dtype=np.int64))
    lit, w = np.concatenate(lits), np.concatenate(weights)
    bound = rhs - const
    low, high = int(np.minimum(w, 0).sum()), int(np.maximum(w, 0).sum())
    for cmp in ((LE, GE) if code == EQ else (code,)):
        terms, weights_, b = lit, w, bound
        if cmp == LE:
            if high <= b:
                continue
            if enforce:  # not e: slack of high - b
                terms, weights_, b = np.append(lit, enforce), np.append(w, high - b), high
            out.weighted.append(WeightedSum(terms, weights_, Cmp.LE, int(b)))
        else:
            if low >= b:
                continue
            if enforce:
                terms, weights_, b = np.append(lit, enforce), np.append(w, low - b), low
            out.weighted.append(WeightedSum(terms, weights_, Cmp.GE, int(b)))


def _unit_literals(enc: _Encoding, x: np.ndarray, c: np.ndarray, code: np.ndarray,
                   rhs: np.ndarray) -> np.ndarray:
    """The literals of ``c * x <code> rhs`` (arrays alike, c = +-1), one each."""
    rhs = rhs * c
    flip = c < 0  # -x <= r is x >= -r
    code = np.where(flip & (code == LE), GE, np.where(flip & (code == GE), LE, code))
    lit = np.zeros(len(x), dtype=np.int64)
    for cmp, sign, shift, literal in ((EQ, 1, 0, enc.eq), (NE, -1, 0, enc.eq),
                                      (GE, 1, 0, enc.ge), (LE, -1, 1, enc.ge)):
        here = code == cmp  # x <= r is not x >= r + 1
        if here.any():
            lit[here] = sign * literal(x[here], rhs[here] + shift)
    return lit


def _diagram(out: Model, enc: _Encoding, xs: np.ndarray, xc: np.ndarray, bs: np.ndarray,
             bc: np.ndarray, code: int, rhs: int, enforce: int,
             pending: _Pending | None = None) -> None:
    """``sum <code> rhs`` (EQ, LE or GE) where ``enforce`` holds, as a decision diagram over
    partial sums: a literal per reachable, still undecided sum after each term. The
    diagram's shape depends only on the terms' weights, the comparison and the bound: it
    is made once (``_diagram_shape``) and written for every row that shares it, at once
    when the rows wait in ``pending``."""
    weights, lits = [], []
    for x, c in zip(xs.tolist(), xc.tolist(), strict=True):
        vals = enc.values(x)
        weights.append(tuple((vals * c).tolist()))
        lits.append(enc.eq(np.full(len(vals), x), vals))
    for b, c in zip(bs.tolist(), bc.tolist(), strict=True):
        weights.append((0, c))
        lits.append(np.array([-b, b]))
    key = (tuple(weights), code, rhs, bool(enforce))
    row = np.concatenate([[enforce or enc.true], *lits]).astype(np.int64)
    if pending is None:
        _write_diagrams(out, key, row[None, :])
    else:
        pending.diagrams.setdefault(key, []).append(row)


def _write_diagrams(out: Model, key: tuple, rows: np.ndarray) -> None:
    """The diagram of ``key`` for each row of ``rows`` (its condition, then its terms'
    literals), with fresh literals for its nodes."""
    nodes, clauses = _diagram_shape(*key)
    table = np.column_stack([rows, out.new_bools(len(rows) * nodes).reshape(len(rows), nodes)])
    for shape in clauses:  # clauses of one length: (clauses, length) signed columns + 1
        out.add_clauses((table[:, np.abs(shape) - 1] * np.sign(shape)).reshape(
            len(rows) * len(shape), shape.shape[1]))


@functools.lru_cache(maxsize=4096)
def _diagram_shape(weights: tuple[tuple[int, ...], ...], code: int, rhs: int,
                   enforced: bool) -> tuple[int, tuple[np.ndarray, ...]]:
    """A diagram's clauses over placeholders: 1 its condition, then the terms' literals
    in order (``weights[t]`` gives each of term t's literals its value), then its nodes;
    negative for a negated literal. Returns the number of nodes and the clauses, grouped
    by length (an (n, length) array each)."""
    n = len(weights)
    lo_rest = np.zeros(n + 1, dtype=np.int64)
    hi_rest = np.zeros(n + 1, dtype=np.int64)
    for t in range(n - 1, -1, -1):
        lo_rest[t] = lo_rest[t + 1] + min(weights[t])
        hi_rest[t] = hi_rest[t + 1] + max(weights[t])
    accept = {EQ: lambda s: s == rhs, LE: lambda s: s <= rhs, GE: lambda s: s >= rhs}[code]

    def settle(t: int, s: int) -> str:
        """'dead', 'done' (accepted whatever comes) or 'open'."""
        lo_s, hi_s = s + lo_rest[t], s + hi_rest[t]
        if code == LE:
            return "done" if hi_s <= rhs else ("dead" if lo_s > rhs else "open")
        if code == GE:
            return "done" if lo_s >= rhs else ("dead" if hi_s < rhs else "open")
        return "dead" if rhs < lo_s or rhs > hi_s else ("done" if lo_s == hi_s else "open")

    first_node = 2 + sum(len(w) for w in weights)
    nodes = 0
    clauses: list[list[int]] = []
    start = settle(0, 0)
    if start == "dead":
        clauses.append([-1] if enforced else [])
    layer = {0: 1 if enforced else None} if start == "open" else {}  # sum -> node
    lit = 2
    for t in range(n):
        nxt: dict[int, int] = {}
        for s, q in layer.items():
            pre = [] if q is None else [-q]
            for i, w in enumerate(weights[t]):
                s2 = s + w
                state = settle(t + 1, s2) if t + 1 < n else ("done" if accept(s2) else "dead")
                if state == "done":
                    continue
                if state == "dead":
                    clauses.append([*pre, -(lit + i)])
                    continue
                if s2 not in nxt:
                    nxt[s2] = first_node + nodes
                    nodes += 1
                clauses.append([*pre, -(lit + i), nxt[s2]])
        lit += len(weights[t])
        layer = nxt
    by_length: dict[int, list[list[int]]] = {}
    for clause in clauses:
        by_length.setdefault(len(clause), []).append(clause)
    return nodes, tuple(np.array(c, dtype=np.int64).reshape(len(c), length)
                        for length, c in sorted(by_length.items()))


def _alldiff(out: Model, enc: _Encoding, groups: Groups) -> None:
    """At most one member per value; every value taken where the members' values are
    exactly as many as the members. Groups of one size are done together, a chunk of
    groups at a time so that the (groups, values, members) literal array stays small.
    A group with a wide member is the members pairwise different instead."""
    for _, mat in groups.by_size():
        wide = enc.wide[mat].any(axis=1)
        for row in mat[wide]:
            i, j = np.triu_indices(len(row), 1)
            for a, b in zip(row[i].tolist(), row[j].tolist(), strict=True):
                if enc.wide[a] and enc.wide[b] and enc.lo[a] == enc.lo[b]:
                    _digits_differ(out, enc.digits(a), enc.digits(b))
                else:
                    _post(out, enc, np.array([a, b]), np.array([1, -1]), _NONE, _NONE, NE, 0,
                          0)
        mat = mat[~wide]
        if not len(mat):
            continue
        k = mat.shape[1]
        lo, hi = enc.lo[mat].min(axis=1), enc.hi[mat].max(axis=1)
        # Chunks of groups over one array of values: the values the chunk's members can
        # take (never every value between far-apart domains); groups sorted by their
        # lowest value, so a chunk's groups share theirs.
        order = np.argsort(lo, kind="stable")
        mat, lo, hi = mat[order], lo[order], hi[order]
        a = 0
        while a < len(mat):
            step = max(1, (1 << 22) // max(1, int(hi[a] - lo[a] + 1) * k * k))
            while True:
                g = mat[a:a + step]
                values = _union(enc.lo[g].ravel(), enc.hi[g].ravel())
                if step == 1 or len(g) * len(values) * k <= 1 << 22:
                    break
                step = max(1, step // 2)
            _alldiff_chunk(out, enc, g, lo[a:a + step], hi[a:a + step], values)
            a += len(g)


def _digits_differ(out: Model, a: np.ndarray, b: np.ndarray) -> None:
    """Two numbers spelt by binary digits (the same offset) differ: some digit differs, a
    literal per digit for "these two differ" (where a pseudo-boolean "a - b != 0" took two
    adders and 0.01 s to build each)."""
    k = max(len(a), len(b))
    n = out.new_bools(k)
    a = np.concatenate([a, np.zeros(k - len(a), dtype=np.int64)])
    b = np.concatenate([b, np.zeros(k - len(b), dtype=np.int64)])
    for d, x, y in zip(n.tolist(), a.tolist(), b.tolist(), strict=True):
        if x and y:  # d -> x xor y
            out.add_clauses([[-d, x, y], [-d, -x, -y]])
        else:  # a digit one of them lacks is 0 there: d -> the other's digit
            out.add_clauses([[-d, x or y]])
    out.add_clauses([n.tolist()])


def _union(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The values of the ranges lo[i]..hi[i], sorted, each once: ranges merged first, so
    that a Sudoku's 81 equal ranges cost one arange."""
    order = np.argsort(lo, kind="stable")
    lo, hi = lo[order], hi[order]
    reach = np.maximum.accumulate(hi)
    starts = np.flatnonzero(np.concatenate([[True], lo[1:] > reach[:-1] + 1]))
    ends = np.append(starts[1:], len(lo)) - 1
    return np.concatenate([np.arange(lo[a], reach[b] + 1)
                           for a, b in zip(starts.tolist(), ends.tolist(), strict=True)])


def _alldiff_chunk(out: Model, enc: _Encoding, g: np.ndarray, glo: np.ndarray,
                   ghi: np.ndarray, values: np.ndarray) -> None:
    """AllDifferent over each row of ``g`` (narrow members whose values are among
    ``values``)."""
    k = g.shape[1]
    lits = enc.eq(g[:, None, :], values[None, :, None])  # (groups, values, members)
    ok = lits != -enc.true
    n_ok = ok.sum(axis=2)
    own = (values >= glo[:, None]) & (values <= ghi[:, None])
    perm = own & (ghi - glo + 1 == k)[:, None]  # a permutation: every value taken
    for rows, add in ((n_ok > 1, out.add_at_most_one), (perm, out.add_clauses)):
        if rows.any():
            sizes = n_ok[rows]
            add(Groups(lits[rows][ok[rows]], np.concatenate([[0], np.cumsum(sizes)]),
                       owned=True))


def _table(out: Model, enc: _Encoding, scopes: np.ndarray, tuples: np.ndarray,
           forbidden: bool) -> None:
    m, k = scopes.shape
    n = len(tuples)
    lits = enc.eq(scopes[:, None, :], tuples[None, :, :])  # (m, n, k): "x_i == t_ji"
    if forbidden:
        out.add_clauses((-lits).reshape(m * n, k))
        return
    sel = out.new_bools(m * n).reshape(m, n)
    out.add_clauses(sel)  # some tuple
    out.add_clauses(np.stack([np.repeat(-sel.ravel(), k), lits.reshape(-1)], axis=1))
    # Supports: a value needs a tuple that has it. Per position j, a clause per scope and
    # value v its column holds (v in the integer's range): not "x == v", or one of the
    # tuples with v there.
    for j in range(k):
        values, which = np.unique(tuples[:, j], return_inverse=True)
        lit = enc.eq(scopes[:, j][:, None], values[None, :]).reshape(-1)  # (scope, value)
        keep = lit != -enc.true
        if not keep.any():  # no tuples, or no scopes
            continue
        order = np.argsort(which, kind="stable")  # the tuples by value, each in its order
        pair = (np.arange(m)[:, None] * len(values) + which[order][None, :]).reshape(-1)
        held = keep[pair]
        out.add_clauses(Groups.keyed(sel[:, order].reshape(-1)[held],
                                     (np.cumsum(keep) - 1)[pair[held]], int(keep.sum()),
                                     heads=-lit[keep][:, None]))


def _element(out: Model, enc: _Encoding, index: np.ndarray, arrays: np.ndarray,
             targets: np.ndarray) -> None:
    """Where the index is k, entry k equals the target: over the values both can take
    (never every value between two far-apart domains), or as a row ``entry - target ==
    0`` when either is wide."""
    length = arrays.shape[1]
    for i, arr, t in zip(index.tolist(), arrays, targets.tolist(), strict=True):
        ks = enc.values(i)
        out.add_clauses([[-int(lit)] for lit in enc.eq(np.full(len(ks), i), ks)[
            (ks < 0) | (ks >= length)].tolist()])
        for k in ks[(ks >= 0) & (ks < length)].tolist():
            pick = int(enc.eq(np.array([i]), np.array([k]))[0])
            a = int(arr[k])
            if a == t:
                continue
            if enc.wide[[a, t]].any():
                _post(out, enc, np.array([a, t]), np.array([1, -1]), _NONE, _NONE, EQ, 0, pick)
                continue
            lo, hi = max(enc.lo[a], enc.lo[t]), min(enc.hi[a], enc.hi[t])
            vals = np.arange(lo, hi + 1)
            at_a = enc.eq(np.full(len(vals), a), vals)
            at_t = enc.eq(np.full(len(vals), t), vals)
            # pick -> a takes a common value, and so does t; and each the other's
            out.add_clauses([[-pick, *at_a.tolist()], [-pick, *at_t.tolist()]])
            out.add_clauses(np.stack([np.full(len(vals), -pick), -at_a, at_t], axis=1))
            out.add_clauses(np.stack([np.full(len(vals), -pick), -at_t, at_a], axis=1))


_NONE = np.zeros(0, dtype=np.int64)
