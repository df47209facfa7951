"""OR-Tools CP-SAT back end: native exactly-one / bool-or / linear constraints, integer vars.

Enumeration runs CP-SAT's own solution enumeration with one worker (several workers lose
and repeat solutions) and de-duplicates on the user variables all the same.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from smtpuzzle.backends.base import BlockingBackend, blocking_literals
from smtpuzzle.model import Cmp, Model
from smtpuzzle.result import Enumeration, Result, Stats, Status


class CpSatBackend(BlockingBackend):
    """``workers`` applies to single solves; enumeration always uses one worker.

    Eight workers on two cores: the wider portfolio cuts the heavy tail of first-solution
    times (pentacube-3x4x5: 4.6 s with the default two, 1.25 s with eight; bench/RESULTS.md).
    """

    name = "cpsat"

    def __init__(self, workers: int = 8) -> None:
        self.workers = workers

    def _compile(self, model: Model, stats: Stats) -> Any:
        from ortools.sat.python import cp_model

        m = cp_model.CpModel()
        bools = [None] + [m.new_bool_var(f"v{i}") for i in range(1, model.num_vars + 1)]
        negs = [None] + [b.negated() for b in bools[1:]]

        def lits(arr: np.ndarray) -> list:
            return [bools[x] if x > 0 else negs[-x] for x in arr.tolist()]

        for g in model.all_clauses():
            m.add_bool_or(lits(g))
        for g in model.all_exactly_one():
            m.add_exactly_one(lits(g))
        for g in model.all_at_most_one():
            m.add_at_most_one(lits(g))
        for a, b in model.all_implications().tolist():
            m.add_implication(lits(np.array([a]))[0], lits(np.array([b]))[0])
        for card in model.cardinalities:
            for g, k in zip(card.groups, card.bounds.tolist(), strict=True):
                expr = cp_model.LinearExpr.sum(lits(g))
                if card.cmp is Cmp.EQ:
                    m.add(expr == k)
                elif card.cmp is Cmp.LE:
                    m.add(expr <= k)
                else:
                    m.add(expr >= k)
        for a in model.automata:
            word = [bools[x] if x > 0 else 1 - bools[-x] for x in a.literals.tolist()]
            m.add_automaton(word, a.start, a.finals.tolist(),
                            [tuple(t) for t in a.transitions.tolist()])
        for iv in model.int_vars:
            x = m.new_int_var_from_domain(cp_model.Domain.from_values(iv.values.tolist()), iv.name)
            for v, lit in zip(iv.values.tolist(), iv.literals.tolist(), strict=True):
                m.add(x == v).only_enforce_if(bools[lit])
        stats.variables = model.num_vars
        stats.constraints = len(m.proto.constraints)
        user = [bools[x] for x in model.user_vars.tolist()]
        return {"cp_model": cp_model, "model": m, "user": user, "lits": lits}

    def _solver(self, h: Any, time_left: float | None, workers: int) -> Any:
        solver = h["cp_model"].CpSolver()
        if time_left is not None:
            solver.parameters.max_time_in_seconds = max(time_left, 0.001)
        solver.parameters.num_workers = workers
        return solver

    def _check(self, h: Any, model: Model, time_left: float | None) -> tuple[Status, Any]:
        cp_model = h["cp_model"]
        solver = self._solver(h, time_left, self.workers)
        code = solver.solve(h["model"])
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Status.SAT, np.array([solver.boolean_value(v) for v in h["user"]], dtype=bool)
        if code == cp_model.INFEASIBLE:
            return Status.UNSAT, None
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the model: {h['model'].validate()}")
        return Status.UNKNOWN, None

    def _block(self, h: Any, model: Model, values: np.ndarray) -> None:
        h["model"].add_bool_or(h["lits"](blocking_literals(model, values)))

    def _enumerate(
        self, model: Model, limit: int | None, time_limit: float | None, stats: Stats,
        enum: Enumeration,
    ) -> Iterator[Result]:
        if limit == 1:  # a single solve may use every worker
            yield from super()._enumerate(model, limit, time_limit, stats, enum)
            return
        start = time.perf_counter()
        h = self._compile(model, stats)
        stats.build_time = time.perf_counter() - start
        cp_model = h["cp_model"]
        left = None if time_limit is None else time_limit - stats.build_time
        solver = self._solver(h, left, 1)
        solver.parameters.enumerate_all_solutions = True
        found: list[np.ndarray] = []
        seen: set[bytes] = set()
        user = h["user"]

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                values = np.fromiter((self.boolean_value(v) for v in user), dtype=bool,
                                     count=len(user))
                key = np.packbits(values).tobytes()
                if key not in seen:
                    seen.add(key)
                    found.append(values)
                if limit is not None and len(found) >= limit:
                    self.stop_search()

        t0 = time.perf_counter()
        code = solver.solve(h["model"], Collector())
        stats.solve_time = time.perf_counter() - t0
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the model: {h['model'].validate()}")
        stopped_by_limit = limit is not None and len(found) >= limit
        enum.complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not stopped_by_limit
        for values in found:
            yield Result(Status.SAT, values, stats)
