"""SAT back end through PySAT: any of its solvers by name, run in a child process
(:mod:`smtpuzzle.backends.child`) that streams solutions back and is killed at the deadline.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import closing
from functools import partial
from typing import Any

import numpy as np

from smtpuzzle.backends.base import Backend, guided
from smtpuzzle.backends.child import Send, child_messages
from smtpuzzle.backends.cnf import CNF, to_cnf
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Model
from smtpuzzle.result import Enumeration, Result, Stats, Status

DEFAULT_SOLVER = "cadical195"
# Solvers that cannot take clauses after a solve (Kissat then answers wrongly or aborts):
# each further solution is searched by a new solver with the blocking clauses so far.
NOT_INCREMENTAL = {"kissat404"}
NO_ASSUMPTIONS = {"kissat404"}  # these ignore a model's hints


def solver_names() -> list[str]:
    from pysat.solvers import SolverNames

    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


class SatBackend(Backend):
    name = "sat"

    def __init__(self, solver: str = DEFAULT_SOLVER) -> None:
        if solver not in solver_names():
            raise PuzzleError(
                f"unknown SAT solver {solver!r} (known: {', '.join(solver_names())})"
            )
        self.solver = solver

    def label(self) -> str:
        return f"sat:{self.solver}"

    @property
    def uses_hints(self) -> bool:  # type: ignore[override]
        return self.solver not in NO_ASSUMPTIONS

    def _enumerate(
        self, model: Model, limit: int | None, time_limit: float | None, stats: Stats,
        enum: Enumeration,
    ) -> Iterator[Result]:
        start = time.perf_counter()
        cnf = to_cnf(model)
        stats.variables = cnf.num_vars
        stats.constraints = len(cnf.clauses)
        cnf_time = time.perf_counter() - start
        deadline = None if time_limit is None else start + time_limit
        n_user = len(model.user_vars)
        loaded_at = None

        hints = model.hints.tolist() if model.hints is not None and self.uses_hints else None

        def work(send: Send) -> None:
            _child(self.solver, cnf, model.user_vars, limit, send, hints)

        with closing(child_messages(work, deadline)) as messages:
            for kind, *payload in messages:
                if kind == "loaded":
                    stats.build_time = cnf_time + payload[0]
                    loaded_at = time.perf_counter()
                elif kind == "sol":
                    bits, solve_time = payload
                    stats.solve_time = solve_time
                    values = np.unpackbits(np.frombuffer(bits, dtype=np.uint8), count=n_user)
                    yield Result(Status.SAT, values.astype(bool), stats)
                elif kind == "end":
                    exhausted, stats.solve_time = payload
                    enum.complete = exhausted
                    return
        if loaded_at is not None:  # stopped at the deadline
            stats.solve_time = time.perf_counter() - loaded_at


def _attempt(solver: Any, assumed: list[int]) -> tuple[Status, list[int]]:
    """One solve under assumptions, for ``guided``."""
    if solver.solve(assumptions=assumed):
        return Status.SAT, []
    return Status.UNSAT, solver.get_core() or []


def _child(name: str, cnf: CNF, user: np.ndarray, limit: int | None, send: Send,
           hints: list[int] | None = None) -> None:
    """Enumerate in the child process; ``hints`` (assumable literals) guide the first
    solve."""
    from pysat.solvers import Solver

    t0 = time.perf_counter()
    clauses = cnf.as_lists()
    solver = Solver(name=name, bootstrap_with=clauses)
    send(("loaded", time.perf_counter() - t0))
    solve_time, found = 0.0, 0
    while limit is None or found < limit:
        t0 = time.perf_counter()
        if found and name in NOT_INCREMENTAL:
            solver.delete()
            solver = Solver(name=name, bootstrap_with=clauses)
        if hints and not found:  # see Model.hints
            sat = guided(partial(_attempt, solver), hints) is Status.SAT
        else:
            sat = solver.solve()
        solve_time += time.perf_counter() - t0
        if not sat:
            send(("end", True, solve_time))
            return
        assignment = np.zeros(cnf.num_vars + 1, dtype=bool)
        lits = np.asarray(solver.get_model(), dtype=np.int64)
        assignment[lits[lits > 0]] = True
        values = assignment[user]
        send(("sol", np.packbits(values).tobytes(), solve_time))
        found += 1
        block = np.where(values, -user, user).tolist()
        if name in NOT_INCREMENTAL:
            clauses.append(block)
        else:
            solver.add_clause(block)
    send(("end", False, solve_time))
