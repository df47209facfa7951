"""Z3 back end: booleans with pbeq / at-most / at-least, bounded integers, a choice of solver.

The model is handed to Z3 as SMT-LIB text built with a few joins per constraint, which Z3's
C parser reads far faster than the same terms made one by one through the Python API.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smtpuzzle.backends.base import BlockingBackend, blocking_literals
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Groups, Model
from smtpuzzle.result import Stats, Status

SOLVER_KINDS = ("default", "qffd")
_OPS = {Cmp.EQ: "pbeq", Cmp.LE: "pble", Cmp.GE: "pbge"}


class Z3Backend(BlockingBackend):
    """``kind`` picks z3's general ``Solver()`` (the default: measured faster on the tiling
    benchmarks, see bench/RESULTS.md) or ``SolverFor("QF_FD")``."""

    name = "z3"

    def __init__(self, kind: str = "default") -> None:
        if kind not in SOLVER_KINDS:
            raise PuzzleError(f"unknown z3 solver kind {kind!r} (known: {', '.join(SOLVER_KINDS)})")
        self.kind = kind

    def label(self) -> str:
        return f"z3:{self.kind}"

    def _compile(self, model: Model, stats: Stats) -> Any:
        import z3

        model = model.lower_automata()
        ctx = z3.Context()
        solver = z3.SolverFor("QF_FD", ctx=ctx) if self.kind == "qffd" else z3.Solver(ctx=ctx)
        text = _Smt(model.num_vars)
        lines = [f"(declare-fun v{i} () Bool)" for i in range(1, model.num_vars + 1)]
        asserts = text.clauses(model.all_clauses())
        asserts += text.pbs(model.all_exactly_one(), Cmp.EQ, 1)
        most = model.all_at_most_one()
        keep = np.flatnonzero(most.sizes > 1)
        asserts += [f"((_ at-most 1) {t})" for t in text.terms(most, keep)]
        imp = model.all_implications()
        if len(imp):
            asserts += [f"(=> {a} {b})" for a, b in zip(text.words(imp[:, 0]).tolist(),
                                                        text.words(imp[:, 1]).tolist(),
                                                        strict=True)]
        for card in model.cardinalities:
            asserts += text.pbs(card.groups, card.cmp, card.bounds)
        for i, iv in enumerate(model.int_vars):
            lines.append(f"(declare-fun i{i} () Int)")
            lo, hi = int(iv.values.min()), int(iv.values.max())
            asserts.append(f"(and (>= i{i} {lo}) (<= i{i} {hi}))")
            for v, lit in zip(iv.values.tolist(), iv.literals.tolist(), strict=True):
                asserts.append(f"(= v{lit} (= i{i} {v}))")
        lines.extend(f"(assert {a})" for a in asserts)
        solver.from_string("\n".join(lines))
        stats.variables = model.num_vars + len(model.int_vars)
        stats.constraints = len(asserts)
        user = model.user_vars
        position = np.full(model.num_vars + 1, -1, dtype=np.int64)
        position[user] = np.arange(len(user))
        return {"z3": z3, "solver": solver, "position": position, "text": text}

    uses_hints = True

    def _check(self, h: Any, model: Model, time_left: float | None) -> tuple[Status, Any]:
        status, values, _ = self._check_assuming(h, model, time_left, [])
        return status, values

    def _check_assuming(self, h: Any, model: Model, time_left: float | None,
                        assumed: list[int]) -> tuple[Status, Any, list[int]]:
        z3, solver = h["z3"], h["solver"]
        solver.set("timeout", 2**32 - 1 if time_left is None else max(1, int(time_left * 1000)))
        exprs = []
        for a in assumed:
            v = z3.Bool(f"v{abs(a)}", solver.ctx)
            exprs.append(v if a > 0 else z3.Not(v, solver.ctx))
        answer = solver.check(*exprs)
        if answer == z3.unsat:
            literal = {e.sexpr(): a for e, a in zip(exprs, assumed, strict=True)}
            return Status.UNSAT, None, [literal[e.sexpr()] for e in solver.unsat_core()]
        if answer != z3.sat:
            return Status.UNKNOWN, None, []
        m = solver.model()
        values = np.zeros(len(model.user_vars), dtype=bool)
        position = h["position"]
        for d in m.decls():
            name = d.name()
            if name.startswith("v") and z3.is_true(m[d]):
                p = position[int(name[1:])]
                if p >= 0:
                    values[p] = True
        return Status.SAT, values, []

    def _block(self, h: Any, model: Model, values: np.ndarray) -> None:
        lits = blocking_literals(model, values)
        h["solver"].from_string(f"(assert {h['text'].clause(lits)})")


class _Smt:
    """SMT-LIB spellings of literals and constraints over variables ``v1..vn``, built a whole
    group list at a time (groups of one size together), not one numpy call per group."""

    def __init__(self, num_vars: int) -> None:
        ids = np.arange(num_vars + 1)
        self.pos = np.array([f"v{i}" for i in ids.tolist()], dtype=object)
        self.neg = np.array([f"(not v{i})" for i in ids.tolist()], dtype=object)

    def words(self, lits: np.ndarray) -> np.ndarray:
        return np.where(lits > 0, self.pos[np.abs(lits)], self.neg[np.abs(lits)])

    def terms(self, groups: Groups, which: np.ndarray | None = None) -> list[str]:
        """Each group's literals, space-separated (only the groups ``which``, in order)."""
        words = self.words(groups.flat)
        sizes = groups.sizes
        out = [""] * len(groups)
        for size in np.unique(sizes).tolist():
            idx = np.flatnonzero(sizes == size)
            rows = words[groups.offsets[idx][:, None] + np.arange(size)[None, :]]
            for i, row in zip(idx.tolist(), rows.tolist(), strict=True):
                out[i] = " ".join(row)
        return out if which is None else [out[i] for i in which.tolist()]

    def clauses(self, groups: Groups) -> list[str]:
        sizes = groups.sizes.tolist()
        return [f"(or {t})" if n > 1 else (t if n == 1 else "false")
                for t, n in zip(self.terms(groups), sizes, strict=True)]

    def clause(self, lits: np.ndarray) -> str:
        return self.clauses(Groups.of([lits]))[0]

    def pbs(self, groups: Groups, cmp: Cmp, bounds: Any) -> list[str]:
        """``sum(group) cmp bound`` per group; ``bounds`` one per group or one for all."""
        sizes = groups.sizes.tolist()
        ks = np.broadcast_to(np.asarray(bounds), (len(sizes),)).tolist()
        out = []
        for t, n, k in zip(self.terms(groups), sizes, ks, strict=True):
            if n == 0:
                ok = k == 0 if cmp is Cmp.EQ else (k <= 0 if cmp is Cmp.GE else k >= 0)
                out.append("true" if ok else "false")
            else:
                out.append(f"((_ {_OPS[cmp]} {k}{' 1' * n}) {t})")
        return out


__all__ = ["SOLVER_KINDS", "Z3Backend"]
