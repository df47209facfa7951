"""Random small models written through the modelling API, with their brute-force answers.

A model draws a few integers (small domains, domains far from 0 and from each other, and
now and then one wide enough for the sat back end's binary digits), a few booleans, empty
arrays, and 1 to 5 constraints of every kind: linear rows with small and huge coefficients
and bounds out of reach, reified rows, counts of booleans with negative and oversized
bounds, clauses, AllDifferent, Table, Element (constant and variable arrays, indices out of
range), Count and Regular over far-apart values, a product, abs, Min, Max, // or % of two
integers, NoOverlap (durations 0 too), Circuit or SubCircuit over the integers, Connected
booleans on a small graph; then maybe an objective, hints, and unit literals by
``with_units``. Some integers and booleans are auxiliary (not answers).

The brute force enumerates every assignment of every variable the generator made (numpy,
all at once) and keeps those that pass each constraint's own check, written from its
meaning, not from the model: the answers are their projections on the answer variables,
and with an objective, its optimum.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from smtpuzzle import (
    AllDifferent,
    Circuit,
    Connected,
    Count,
    Element,
    Max,
    Min,
    Model,
    NoOverlap,
    Regular,
    SubCircuit,
    Table,
)
from smtpuzzle.model.expr import BoolArray, IntArray
from smtpuzzle.model.graphs import Graph

OPS = {"==": np.equal, "!=": np.not_equal, "<=": np.less_equal, ">=": np.greater_equal}


@dataclass
class FuzzModel:
    """A model and what its brute force says of it."""

    model: Model
    ints: IntArray  # the answer integers, in the order of ``answers`` tuples
    bools: Any  # the answer booleans (a BoolArray), after the integers in each tuple
    answers: set[tuple[int, ...]]  # every solution, projected on the answers
    objective: list[int] | None = None  # its coefficient per entry of an answer tuple
    sense: str = ""  # "min" or "max"
    optimum: int | None = None  # the brute force's optimum
    empty: list[Any] = field(default_factory=list)  # arrays of no variable
    kinds: set[str] = field(default_factory=set)  # what the model has, for the census

    def answer_of(self) -> tuple[int, ...]:
        """The last solution read from the model, as a tuple like ``answers``'."""
        ints = np.atleast_1d(self.ints.value()).tolist() if self.ints.size else []
        bools = np.atleast_1d(self.bools.value()).astype(int).tolist() if self.bools.size \
            else []
        return (*ints, *bools)

    def value_of(self, answer: tuple[int, ...]) -> int:
        """The objective's value at ``answer``."""
        assert self.objective is not None
        return sum(c * v for c, v in zip(self.objective, answer, strict=True))


def _domain(rng: np.random.Generator, wide_ok: bool) -> tuple[int, int, str]:
    style = rng.choice(["small", "small", "far", "wide" if wide_ok else "small"])
    if style == "small":
        lo = int(rng.integers(-3, 4))
        return lo, lo + int(rng.integers(0, 4)), "small"
    if style == "far":
        lo = int(rng.choice([-1, 1])) * 10 ** int(rng.choice([6, 9, 12])) + int(
            rng.integers(-2, 3))
        return lo, lo + int(rng.integers(0, 3)), "far"
    lo = int(rng.choice([0, -10**6, 10**9]))
    return lo, lo + 2047 + int(rng.integers(0, 4)), "wide"


def _arith(op: str, a: Any, b: Any, in_model: bool) -> Any:
    """``a op b``, for integers of a model or for the brute force's columns of values."""
    if op in ("min", "max"):
        if in_model:
            return (Min if op == "min" else Max)([a, b])
        return (np.minimum if op == "min" else np.maximum)(a, b)
    return {"*": lambda: a * b, "abs": lambda: abs(a - b), "//": lambda: a // b,
            "%": lambda: a % b}[op]()


def _cycles(succ: np.ndarray, sub: bool) -> np.ndarray:
    """Per row of successors: one cycle through every node (or, with ``sub``, through the
    nodes that are not their own successor; all may be)."""
    n = succ.shape[1]
    out = np.zeros(len(succ), dtype=bool)
    for r, row in enumerate(succ.tolist()):
        if not all(0 <= v < n for v in row) or len(set(row)) != n:
            continue
        inside = [i for i in range(n) if row[i] != i]
        if not sub and len(inside) != n:
            continue
        if not inside:
            out[r] = True
            continue
        seen, v = 0, inside[0]
        while True:
            v, seen = row[v], seen + 1
            if v == inside[0]:
                break
        out[r] = seen == len(inside)
    return out


def _connected_rows(chosen: np.ndarray, edges: list[tuple[int, int]]) -> np.ndarray:
    """Per row of 0/1 vertex values: whether the chosen vertices are connected."""
    out = np.zeros(len(chosen), dtype=bool)
    for r, row in enumerate(chosen.tolist()):
        on = {v for v, x in enumerate(row) if x}
        if not on:
            out[r] = True
            continue
        seen, todo = set(), [min(on)]
        while todo:
            v = todo.pop()
            if v in seen:
                continue
            seen.add(v)
            todo += [b if a == v else a for a, b in edges if v in (a, b) and
                     (b if a == v else a) in on]
        out[r] = seen == on
    return out


def random_fuzz_model(seed: int) -> FuzzModel:
    """The model of ``seed`` with its brute-force answers (see the module docstring)."""
    rng = np.random.default_rng(seed)
    m = Model(f"fuzz{seed}")
    kinds: set[str] = set()
    # Now and then a pure cover model (booleans counted, no integer): exact cover's kind.
    cover_only = rng.random() < 0.2
    # Variables: each integer its own array (domains differ), booleans one array.
    n_ints = 0 if cover_only else int(rng.integers(0, 4))
    doms, ids, user_int = [], [], []
    wide_left = rng.random() < 0.15
    for i in range(n_ints):
        lo, hi, style = _domain(rng, wide_left)
        wide_left = wide_left and style != "wide"
        kinds.add(style)
        user = bool(rng.random() < 0.8)
        x = m.int_array((), lo, hi, name=f"x{i}", user=user)
        doms.append(np.arange(lo, hi + 1))
        ids.append(int(x.ids))
        user_int.append(user)
    n_bools = int(rng.integers(2 if cover_only else 0 if n_ints else 1, 5 if cover_only else 4))
    b_user = m.bool_array(n_bools, name="b")
    b_aux = m.bool_array(0 if cover_only else int(rng.integers(0, 2)), name="a", user=False)
    empty = []
    if rng.random() < 0.2:
        empty = [m.int_array(0, 0, 3, name="none"), m.bool_array((0, 2), name="nob")]
        kinds.add("empty")
    xs = IntArray(m, np.array(ids, dtype=np.int64))
    bs = b_user.ids.tolist() + b_aux.ids.tolist()
    nb = len(bs)

    # Every assignment: integer columns, then boolean columns.
    grid = list(itertools.product(*doms)) if n_ints else [()]
    ivals = np.array(grid, dtype=np.int64).reshape(len(grid), n_ints)
    bvals = np.array(list(itertools.product((0, 1), repeat=nb)), dtype=np.int64).reshape(
        2**nb, nb)
    iv = np.repeat(ivals, len(bvals), axis=0)
    bv = np.tile(bvals, (len(ivals), 1))
    ok = np.ones(len(iv), dtype=bool)

    def bool_term(j: int, neg: bool) -> tuple[Any, np.ndarray]:
        lit = BoolArray(m, np.array(bs[j]))
        return (~lit, 1 - bv[:, j]) if neg else (lit, bv[:, j])

    def linear() -> tuple[Any, np.ndarray]:
        """A random linear expression and its value on every assignment."""
        expr, value = 0, np.zeros(len(iv), dtype=object)
        for i in range(n_ints):
            if rng.random() < 0.7:
                c = int(rng.integers(-3, 4)) or 1
                if rng.random() < 0.1:
                    c *= 10 ** int(rng.choice([3, 6]))
                expr = expr + c * xs[i]
                value = value + c * iv[:, i].astype(object)
        for j in range(nb):
            if rng.random() < 0.5:
                c = int(rng.integers(-2, 3)) or 1
                term, val = bool_term(j, bool(rng.random() < 0.3))
                expr = expr + c * term
                value = value + c * val
        return expr, value

    def bound_near(value: np.ndarray) -> int:
        """A bound inside the expression's reach, or (now and then) outside it."""
        lo, hi = int(value.min()), int(value.max())
        r = rng.random()
        if r < 0.06:
            k = lo - int(rng.integers(1, 10**13))
        elif r < 0.12:
            k = hi + int(rng.integers(1, 10**13))
        else:
            k = int(rng.integers(lo - 1, hi + 2)) if hi - lo < 10**6 else \
                int(rng.choice(value.astype(np.int64)))
        return max(-2**53, min(k, 2**53))  # the constants a model takes

    counted: set[int] = set()
    if cover_only:  # every row in a cell: the booleans exactly one or at most one
        exactly = rng.random() < 0.7
        m.add(b_user.sum() == 1 if exactly else b_user.sum() <= 1)
        ok &= bv.sum(axis=1) == 1 if exactly else bv.sum(axis=1) <= 1
    for _ in range(int(rng.integers(1, 5))):
        kind = str(rng.choice(["linear", "reified", "count", "clause", "alldiff", "table",
                               "element", "countv", "regular", "cover", "arith", "nooverlap",
                               "circuit", "connected"]))
        if cover_only:
            kind = "cover"
        if kind in ("arith", "nooverlap", "circuit") and n_ints < 2:
            kind = "connected"
        if kind == "connected" and nb < 2:
            kind = "linear" if n_ints < 1 else "countv"
        if kind in ("alldiff", "table", "element", "countv", "regular") and n_ints < 1:
            kind = "count"
        if kind in ("count", "cover") and nb == 0:
            kind = "linear"
        if kind in ("linear", "reified"):
            expr, value = linear()
            if isinstance(expr, int):
                continue
            op = str(rng.choice(list(OPS)))
            k = bound_near(value)
            cons = {"==": expr == k, "!=": expr != k, "<=": expr <= k, ">=": expr >= k}[op]
            holds = OPS[op](value, k).astype(bool)
            try:
                if kind == "reified" and nb:
                    j = int(rng.integers(nb))
                    lit, lv = bool_term(j, bool(rng.random() < 0.5))
                    if rng.random() < 0.5:
                        m.add(lit.implies(cons))
                        ok &= (lv == 0) | holds
                    else:
                        m.add(lit == cons)
                        ok &= (lv == 1) == holds
                else:
                    m.add(cons)
                    ok &= holds
            except ValueError as exc:  # past 64-bit arithmetic: refused, as it should be
                assert "2**62" in str(exc)
        elif kind == "count":  # a count of literals, with bounds out of 0..n too
            js = rng.choice(nb, size=int(rng.integers(1, nb + 1)), replace=False)
            terms = [bool_term(int(j), bool(rng.random() < 0.3)) for j in js]
            total = sum(t for t, _ in terms)
            value = sum(v for _, v in terms)
            k = int(rng.integers(-2, len(js) + 3))
            op = str(rng.choice(["==", "<=", ">="]))
            m.add({"==": total == k, "<=": total <= k, ">=": total >= k}[op])
            ok &= OPS[op](value, k).astype(bool)
        elif kind == "cover":  # positive literals counted, bounds out of 0..n too
            free = [j for j in range(nb) if j not in counted] if cover_only else range(nb)
            if not free:
                continue
            js = rng.choice(free, size=int(rng.integers(1, len(free) + 1)), replace=False)
            counted.update(js.tolist())  # disjoint groups, as exact cover takes them
            total = sum(BoolArray(m, np.array(bs[int(j)])) for j in js)
            value = bv[:, js].sum(axis=1)
            k = int(rng.integers(-1, len(js) + 2))
            op = str(rng.choice(["==", "==", "<=", ">="]))
            m.add({"==": total == k, "<=": total <= k, ">=": total >= k}[op])
            ok &= OPS[op](value, k).astype(bool)
        elif kind == "clause" and nb:
            js = rng.choice(nb, size=int(rng.integers(1, nb + 1)), replace=False)
            terms = [bool_term(int(j), bool(rng.random() < 0.5)) for j in js]
            clause = terms[0][0]
            for t, _ in terms[1:]:
                clause = clause | t
            m.add(clause)
            ok &= np.any([v == 1 for _, v in terms], axis=0)
        elif kind == "alldiff" and n_ints >= 2:
            sub = rng.choice(n_ints, size=int(rng.integers(2, n_ints + 1)), replace=False)
            m.add(AllDifferent(xs[sub]))
            cols = iv[:, sub]
            ok &= np.array([len(set(r)) == len(r) for r in cols.tolist()], dtype=bool)
        elif kind == "table":
            sub = rng.choice(n_ints, size=int(rng.integers(1, min(n_ints, 2) + 1)),
                             replace=False)
            tuples = np.array([[int(rng.choice(doms[i])) if rng.random() < 0.85 else
                                int(doms[i][-1]) + 10**12 for i in sub]
                               for _ in range(int(rng.integers(0, 4)))],
                              dtype=np.int64).reshape(-1, len(sub))
            forbidden = bool(rng.random() < 0.3)
            m.add(Table(xs[sub], tuples, forbidden=forbidden))
            hit = (iv[:, sub][:, None, :] == tuples[None, :, :]).all(axis=2).any(axis=1)
            ok &= ~hit if forbidden else hit
        elif kind == "element":
            i = int(rng.integers(n_ints))
            length = int(rng.integers(1, 4))
            # the index: an integer of the model (any domain: out of range rules values out)
            if rng.random() < 0.5 and n_ints >= 2:
                t = int(rng.choice([j for j in range(n_ints) if j != i]))
                arr = np.array([int(rng.choice(doms[t])) if rng.random() < 0.7 else
                                int(rng.integers(-10**12, 10**12)) for _ in range(length)])
                m.add(Element(arr, xs[i]) == xs[t])
                idx = iv[:, i]
                inside = (idx >= 0) & (idx < length)
                ok &= inside & (arr[np.clip(idx, 0, length - 1)] == iv[:, t])
            else:
                target = int(rng.choice([*doms[0].tolist(), 10**12]))
                differ = bool(rng.random() < 0.3)
                arr_ids = rng.choice(n_ints, size=length)
                arr = xs[arr_ids]
                m.add((Element(arr, xs[i]) != target) if differ else
                      (Element(arr, xs[i]) == target))
                idx = iv[:, i]
                inside = (idx >= 0) & (idx < length)
                picked = iv[np.arange(len(iv))[:, None], arr_ids[None, :]][
                    np.arange(len(iv)), np.clip(idx, 0, length - 1)]
                ok &= inside & ((picked != target) if differ else (picked == target))
            kinds.add("element")
        elif kind == "countv":
            v = int(rng.choice(doms[int(rng.integers(n_ints))]))
            k = int(rng.integers(-1, n_ints + 2))
            op = str(rng.choice(list(OPS)))
            c = Count(xs, v)
            m.add({"==": c == k, "!=": c != k, "<=": c <= k, ">=": c >= k}[op])
            ok &= OPS[op]((iv == v).sum(axis=1), k).astype(bool)
        elif kind == "regular":
            sub = rng.choice(n_ints, size=int(rng.integers(1, n_ints + 1)), replace=True)
            labels = sorted({int(rng.choice(doms[i])) for i in sub} |
                            {int(rng.integers(-10**12, 10**12))})
            states = int(rng.integers(1, 4))
            trans = {(s, v): int(rng.integers(states)) for s in range(states) for v in labels
                     if rng.random() < 0.8}
            finals = sorted({int(rng.integers(states)) for _ in range(2)})
            m.add(Regular(xs[sub], [(s, v, t) for (s, v), t in trans.items()], 0, finals))
            words = iv[:, sub]
            accepted = np.zeros(len(iv), dtype=bool)
            for r, word in enumerate(words.tolist()):
                s: int | None = 0
                for v in word:
                    s = trans.get((s, v))
                    if s is None:
                        break
                accepted[r] = s is not None and s in finals
            ok &= accepted
        elif kind == "arith":  # a product, abs, min, max, // or % of two integers, compared
            i, j = (int(v) for v in rng.choice(n_ints, size=2, replace=False))
            a, b = xs[i], xs[j]
            va, vb = iv[:, i].astype(object), iv[:, j].astype(object)
            op = str(rng.choice(["*", "abs", "min", "max", "//", "%"]))
            defined = np.ones(len(iv), dtype=bool)
            if op in ("//", "%"):
                defined = vb != 0
                vb = np.where(defined, vb, 1)
            value = _arith(op, va, vb, False)
            cmp = str(rng.choice(list(OPS)))
            reach = max(abs(int(value.min())), abs(int(value.max())))
            k = bound_near(value) if reach < 2**62 else 0  # past it, refused below
            try:
                e = _arith(op, a, b, True)
                m.add({"==": e == k, "!=": e != k, "<=": e <= k, ">=": e >= k}[cmp])
                ok &= defined & OPS[cmp](value, k).astype(bool)
            except ValueError as exc:  # past 64-bit arithmetic, or a divisor only 0: refused
                assert "2**62" in str(exc) or "can only be 0" in str(exc), exc
        elif kind == "nooverlap":  # tasks at integer starts with fixed durations, 0 too
            sub = rng.choice(n_ints, size=int(rng.integers(2, n_ints + 1)), replace=False)
            dur = rng.integers(0, 4, size=len(sub))
            m.add(NoOverlap(xs[sub], dur))
            st = iv[:, sub].astype(object)
            for p_, q_ in itertools.combinations(range(len(sub)), 2):
                if dur[p_] and dur[q_]:  # a task of no time overlaps nothing
                    ok &= (st[:, p_] + int(dur[p_]) <= st[:, q_]) | \
                        (st[:, q_] + int(dur[q_]) <= st[:, p_])
        elif kind == "circuit":  # successors through every integer (domains cut to 0..n-1)
            succ = iv.copy()
            sub_circuit = bool(rng.random() < 0.5)
            m.add((SubCircuit if sub_circuit else Circuit)(xs))
            ok &= _cycles(succ, sub_circuit)
        elif kind == "connected":  # booleans on a path with a chord or two
            js = rng.choice(nb, size=int(rng.integers(2, nb + 1)), replace=False)
            k = len(js)
            edges = [(v, v + 1) for v in range(k - 1)] + \
                [(int(a_), int(b_)) for a_, b_ in rng.integers(0, k, size=(2, 2)) if a_ < b_ - 1]
            mask = BoolArray(m, np.array([bs[int(j)] for j in js], dtype=np.int64))
            m.add(Connected(mask, Graph(k, np.array(edges, dtype=np.int64))))
            ok &= _connected_rows(bv[:, js], edges)
        kinds.add(kind)

    units = []
    if nb and rng.random() < 0.2:  # with_units: some literals forced
        j = int(rng.integers(nb))
        neg = bool(rng.random() < 0.5)
        units.append(-bs[j] if neg else bs[j])
        ok &= bv[:, j] == (0 if neg else 1)
        kinds.add("units")

    user_cols = [i for i in range(n_ints) if user_int[i]]
    answer_ints = IntArray(m, np.array([ids[i] for i in user_cols], dtype=np.int64))
    proj = np.concatenate([iv[:, user_cols], bv[:, :len(b_user.ids)]], axis=1)
    answers = {tuple(r) for r in proj[ok].tolist()}
    if not proj.shape[1]:
        kinds.add("no answers")

    objective, sense, optimum = None, "", None
    if rng.random() < 0.3 and proj.shape[1]:
        coefs = [(int(rng.integers(-3, 4)) or 1) * (10**12 if rng.random() < 0.2 else 1)
                 for _ in user_cols] + [int(rng.integers(-3, 4)) for _ in b_user.ids]
        expr = sum(c * answer_ints[k] for k, c in enumerate(coefs[:len(user_cols)])) + sum(
            c * b_user[j] for j, c in enumerate(coefs[len(user_cols):]))
        if not isinstance(expr, int):
            sense = str(rng.choice(["min", "max"]))
            try:
                (m.minimize if sense == "min" else m.maximize)(expr)
            except ValueError:  # past 64-bit arithmetic: refused, as it should be
                expr = 0
        if not isinstance(expr, int):
            objective = coefs
            if ok.any():
                value = proj[ok].astype(object) @ np.array(coefs, dtype=object)
                optimum = int((min if sense == "min" else max)(value.tolist()))
            kinds.add("objective")

    if rng.random() < 0.3:  # hints: guesses that must not change any answer
        pool = bs + ([int(lit) for lit in xs.eq(int(doms[0][0])).ids.reshape(-1)]
                     if n_ints else [])
        if pool:
            pick = rng.choice(pool, size=int(rng.integers(1, len(pool) + 1)))
            m.hints = np.asarray(pick, dtype=np.int64) * rng.choice([-1, 1], size=len(pick))
            kinds.add("hints")
    if units:
        hints = m.hints
        m = m.with_units(units)
        m.hints = hints
        answer_ints = IntArray(m, answer_ints.ids)
        b_user = BoolArray(m, b_user.ids)
        empty = [type(e)(m, e.ids) for e in empty]
    return FuzzModel(m, answer_ints, b_user, answers, objective, sense, optimum, empty, kinds)
