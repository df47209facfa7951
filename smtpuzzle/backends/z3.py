"""Z3 back end: booleans with PbEq / AtMost / AtLeast, bounded integers, a choice of solver."""

from __future__ import annotations

from typing import Any

import numpy as np

from smtpuzzle.backends.base import Backend, blocking_literals
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Model
from smtpuzzle.result import Stats, Status

SOLVER_KINDS = ("qffd", "default")


class Z3Backend(Backend):
    """``kind`` picks ``z3.SolverFor("QF_FD")`` (the default, measured faster on tilings:
    see bench/RESULTS.md) or z3's general ``Solver()``."""

    name = "z3"

    def __init__(self, kind: str = "qffd") -> None:
        if kind not in SOLVER_KINDS:
            raise PuzzleError(f"unknown z3 solver kind {kind!r} (known: {', '.join(SOLVER_KINDS)})")
        self.kind = kind

    def label(self) -> str:
        return f"z3:{self.kind}"

    def _compile(self, model: Model, stats: Stats) -> Any:
        import z3

        ctx = z3.Context()
        solver = z3.SolverFor("QF_FD", ctx=ctx) if self.kind == "qffd" else z3.Solver(ctx=ctx)
        bools = [None] + [z3.Bool(f"v{i}", ctx) for i in range(1, model.num_vars + 1)]
        negs: dict[int, Any] = {}

        def lits(arr: np.ndarray) -> list:
            out = []
            for x in arr.tolist():
                if x > 0:
                    out.append(bools[x])
                else:
                    if x not in negs:
                        negs[x] = z3.Not(bools[-x], ctx)
                    out.append(negs[x])
            return out

        add = solver.add
        for g in model.all_clauses():
            add(z3.Or(lits(g), ctx)) if len(g) else add(z3.BoolVal(False, ctx))
        for g in model.all_exactly_one():
            add(z3.PbEq([(x, 1) for x in lits(g)], 1, ctx)) if len(g) else add(
                z3.BoolVal(False, ctx)
            )
        for g in model.all_at_most_one():
            if len(g) > 1:
                add(z3.AtMost(*lits(g), 1))
        for a, b in model.all_implications().tolist():
            add(z3.Implies(lits(np.array([a]))[0], lits(np.array([b]))[0]))
        for card in model.cardinalities:
            for g, k in zip(card.groups, card.bounds.tolist(), strict=True):
                terms = lits(g)
                if not terms:
                    ok = (k == 0) if card.cmp is Cmp.EQ else (k <= 0 if card.cmp is Cmp.GE else k >= 0)
                    add(z3.BoolVal(ok, ctx))
                elif card.cmp is Cmp.EQ:
                    add(z3.PbEq([(x, 1) for x in terms], k, ctx))
                elif card.cmp is Cmp.LE:
                    add(z3.AtMost(*terms, k))
                else:
                    add(z3.AtLeast(*terms, k))
        for iv in model.int_vars:
            x = z3.Int(iv.name, ctx)
            add(x >= int(iv.values.min()), x <= int(iv.values.max()))
            for v, lit in zip(iv.values.tolist(), iv.literals.tolist(), strict=True):
                add(bools[lit] == (x == v))
        stats.variables = model.num_vars
        stats.constraints = len(solver.assertions())
        user = model.user_vars
        position = np.full(model.num_vars + 1, -1, dtype=np.int64)
        position[user] = np.arange(len(user))
        return {"z3": z3, "ctx": ctx, "solver": solver, "bools": bools, "position": position,
                "lits": lits}

    def _check(self, h: Any, model: Model, time_left: float | None) -> tuple[Status, Any]:
        z3, solver = h["z3"], h["solver"]
        solver.set("timeout", 2**32 - 1 if time_left is None else max(1, int(time_left * 1000)))
        answer = solver.check()
        if answer == z3.unsat:
            return Status.UNSAT, None
        if answer != z3.sat:
            return Status.UNKNOWN, None
        m = solver.model()
        values = np.zeros(len(model.user_vars), dtype=bool)
        position = h["position"]
        for d in m.decls():
            name = d.name()
            if name.startswith("v") and z3.is_true(m[d]):
                p = position[int(name[1:])]
                if p >= 0:
                    values[p] = True
        return Status.SAT, values

    def _block(self, h: Any, model: Model, values: np.ndarray) -> None:
        h["solver"].add(h["z3"].Or(h["lits"](blocking_literals(model, values)), h["ctx"]))
