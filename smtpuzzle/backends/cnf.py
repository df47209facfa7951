"""Model -> CNF, vectorised: the one clause set that the sat back end solves and DIMACS writes.

At-most-one groups use pairwise clauses when small and a sequential counter (3n clauses,
n-1 auxiliary variables) when large; general cardinalities use pysat.card, with the
encoding chosen by size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smtpuzzle.backends.pysat_sigint import python_sigint
from smtpuzzle.model import Cmp, Groups, Model, require_model
from smtpuzzle.model.kinds import BOOLEAN, lowered

PAIRWISE_MAX = 6  # larger at-most-one groups get a sequential counter


@dataclass
class CNF:
    """A model lowered to clauses over ``num_vars`` variables (DIMACS numbering)."""

    num_vars: int
    clauses: Groups
    num_user_vars: int

    def as_lists(self) -> list[list[int]]:
        return self.clauses.as_lists()


class _Builder:
    def __init__(self, num_vars: int) -> None:
        self.top = num_vars
        self.parts: list[Groups] = []

    def fresh(self, shape: tuple[int, ...]) -> np.ndarray:
        n = int(np.prod(shape))
        ids = np.arange(self.top + 1, self.top + n + 1, dtype=np.int64).reshape(shape)
        self.top += n
        return ids

    def add(self, groups: Groups | np.ndarray) -> None:
        g = Groups.of(groups)
        if len(g):
            self.parts.append(g)

    def add_columns(self, *columns: np.ndarray) -> None:
        """Clauses whose j-th literal is ``columns[j][i]``."""
        self.add(np.stack(columns, axis=1))

    def at_most_one(self, groups: Groups) -> None:
        for _, mat in groups.by_size():
            m, n = mat.shape
            if n <= 1:
                continue
            if n <= PAIRWISE_MAX:
                i, j = np.triu_indices(n, 1)
                self.add(np.stack([-mat[:, i], -mat[:, j]], axis=2).reshape(-1, 2))
                continue
            s = self.fresh((m, n - 1))
            x = mat
            self.add_columns(-x[:, 0], s[:, 0])
            self.add_columns(-x[:, -1], -s[:, -1])
            mid_x, prev_s, next_s = x[:, 1:-1], s[:, :-1], s[:, 1:]
            self.add_columns(-mid_x.ravel(), next_s.ravel())
            self.add_columns(-prev_s.ravel(), next_s.ravel())
            self.add_columns(-mid_x.ravel(), -prev_s.ravel())

    def weighted(self, lits: np.ndarray, weights: np.ndarray, cmp: Cmp,
                  bound: int) -> None:
        """``sum(weights * lits) <cmp> bound`` by pysat's BDD encoding where the diagram is
        small (its default, a totalizer, made 5.4 million clauses for SEND+MORE=MONEY, the
        BDD 11 thousand), else by its adder (z == 1000 x over order literals of z in
        0..100,000: the BDD ran for minutes, then crashed the process; the adder takes a
        fraction of a second)."""
        from pysat.pb import EncType, PBEnc

        # Positive weights only (pysat refused some sums with negative ones: "Wrong bound:
        # -1" on x - y <= -1 over order literals): w * l = w + |w| * -l for w < 0.
        negative = weights < 0
        lits = np.where(negative, -lits, lits)
        bound -= int(weights[negative].sum())
        weights = np.abs(weights)
        keep = weights != 0
        lits, weights = lits[keep], weights[keep]
        total = int(weights.sum())
        if (cmp is Cmp.LE and bound >= total) or (cmp is Cmp.GE and bound <= 0):
            return  # always true
        if (cmp is Cmp.LE and bound < 0) or (cmp is Cmp.GE and bound > total):
            self.add(Groups(np.zeros(0, dtype=np.int64), np.array([0, 0])))  # never true
            return
        make = PBEnc.atmost if cmp is Cmp.LE else PBEnc.atleast
        small = _diagram_fits(weights, bound if cmp is Cmp.LE else total - bound)
        cnf = make(lits=lits.tolist(), weights=weights.tolist(), bound=bound, top_id=self.top,
                   encoding=EncType.bdd if small else EncType.adder)
        self.top = max(self.top, cnf.nv)
        if cnf.clauses:
            self.add(Groups.of_lists(cnf.clauses))

    def cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None:
        with python_sigint():  # PySAT's encoders are compiled calls
            self._cardinality(groups, cmp, bounds)

    def _cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None:
        from pysat.card import CardEnc, EncType

        sizes = groups.sizes
        for i in range(len(groups)):
            lits, n, k = groups[i], int(sizes[i]), int(bounds[i])
            lo = k if cmp in (Cmp.EQ, Cmp.GE) else 0
            hi = k if cmp in (Cmp.EQ, Cmp.LE) else n
            if lo > hi or lo > n or hi < 0:
                self.add(Groups(np.zeros(0, dtype=np.int64), np.array([0, 0])))  # empty clause
                continue
            lo, hi = max(lo, 0), min(hi, n)
            if lo == n:
                self.add(lits[:, None])
                continue
            if hi == 0:
                self.add(-lits[:, None])
                continue
            one = Groups(lits, np.array([0, n]))
            if hi == 1:
                self.at_most_one(one)
                if lo == 1:
                    self.add(one)
                continue
            if lo == 1 and hi == n:
                self.add(one)
                continue
            # kmtotalizer counts up to k + 1 only: the plain totalizer counts to n, and made
            # 9.8 M clauses in 9 s for 800 of 3,120 (dominoes on 40x40) against 0.39 M in 0.3 s
            enc = EncType.seqcounter if n * k <= 2000 else EncType.kmtotalizer
            args = dict(lits=lits.tolist(), top_id=self.top, encoding=enc)
            if lo > 0 and hi < n and lo == hi:
                cnf = CardEnc.equals(bound=lo, **args)
            elif lo > 0 and hi < n:
                a = CardEnc.atleast(bound=lo, **args)
                self.top = max(self.top, a.nv)
                self.add(Groups.of_lists(a.clauses))
                cnf = CardEnc.atmost(bound=hi, lits=args["lits"], top_id=self.top, encoding=enc)
            elif lo > 0:
                cnf = CardEnc.atleast(bound=lo, **args)
            else:
                cnf = CardEnc.atmost(bound=hi, **args)
            self.top = max(self.top, cnf.nv)
            self.add(Groups.of_lists(cnf.clauses))


def cardinality_clauses(groups: Groups, cmp: Cmp, bounds: np.ndarray,
                        top: int) -> tuple[Groups, int]:
    """``sum(group) cmp bound`` per group as clauses, with auxiliary variables from
    ``top + 1`` on: (clauses, new top)."""
    b = _Builder(top)
    b.cardinality(groups, cmp, bounds)
    return Groups.concat(b.parts), b.top


def to_cnf(model: Model, checked: frozenset[str] = frozenset()) -> CNF:
    """Encode every constraint of ``model`` as clauses over its variables (plus auxiliaries);
    integers, automata and the other kinds a CNF lacks are decomposed first, except the lazy
    kinds named in ``checked``, which the caller checks on each solution itself."""
    require_model(model, "to_cnf")
    model = lowered(model, BOOLEAN | checked, "a CNF")
    b = _Builder(model.num_vars)
    b.add(model.all_clauses())
    eo = model.all_exactly_one()
    b.add(eo)
    b.at_most_one(eo)
    b.at_most_one(model.all_at_most_one())
    imp = model.all_implications()
    if len(imp):
        b.add_columns(-imp[:, 0], imp[:, 1])
    for card in model.cardinalities:
        b.cardinality(card.groups, card.cmp, card.bounds)
    for lits, weights, cmp, bound in model.weighted:
        b.weighted(lits, weights, cmp, bound)
    return CNF(b.top, Groups.concat(b.parts), len(model.user_vars))


BDD_MAX_NODES = 200_000


def _diagram_fits(weights: np.ndarray, bound: int) -> bool:
    """Whether a decision diagram of "sum(weights * x) <= bound" over 0/1 x stays within
    BDD_MAX_NODES: its nodes at each level are at most the distinct partial sums up to
    the bound (sums past it are one dead node). The sums only grow from level to level,
    so once the levels left times the sums so far pass the budget, it cannot fit: most
    rows over binary digits are settled after a few levels (counting every level took
    1.5 s for a few such rows)."""
    ws = sorted(weights.tolist(), reverse=True)
    sums, nodes = {0}, 0
    for i, w in enumerate(ws):
        sums |= {s + w for s in sums if s + w <= bound}
        nodes += len(sums)
        if nodes + len(sums) * (len(ws) - i - 1) > BDD_MAX_NODES:
            return False
    return True
