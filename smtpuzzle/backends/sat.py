"""SAT back end through PySAT: any of its solvers by name, run in a child process.

CaDiCaL, Kissat and Lingeling ignore PySAT's interrupt, so a time limit or Ctrl-C could
not stop them in-process; a forked child streams solutions back and is killed at the
deadline, which works the same for every solver.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from smtpuzzle.backends.base import Backend
from smtpuzzle.backends.cnf import CNF, to_cnf
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Model
from smtpuzzle.result import Enumeration, Result, Stats, Status

DEFAULT_SOLVER = "cadical195"


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
        ctx = multiprocessing.get_context("fork")
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(
            target=_child, args=(self.solver, cnf, model.user_vars, limit, send), daemon=True
        )
        proc.start()
        send.close()
        n_user = len(model.user_vars)
        loaded_at = None
        try:
            while True:
                left = None if deadline is None else deadline - time.perf_counter()
                if left is None or left > 0:
                    ready = recv.poll(left)
                else:
                    ready = False
                if not ready:  # the deadline: the child is stopped without a last word
                    if loaded_at is not None:
                        stats.solve_time = time.perf_counter() - loaded_at
                    return
                try:
                    kind, *payload = recv.recv()
                except EOFError:
                    raise RuntimeError(f"the {self.solver} process died") from None
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
                elif kind == "error":
                    raise RuntimeError(payload[0])
        finally:
            proc.kill()
            proc.join()
            recv.close()


def _child(name: str, cnf: CNF, user: np.ndarray, limit: int | None, send: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    try:
        from pysat.solvers import Solver

        t0 = time.perf_counter()
        solver = Solver(name=name, bootstrap_with=cnf.as_lists())
        send.send(("loaded", time.perf_counter() - t0))
        solve_time, found = 0.0, 0
        while limit is None or found < limit:
            t0 = time.perf_counter()
            sat = solver.solve()
            solve_time += time.perf_counter() - t0
            if not sat:
                send.send(("end", True, solve_time))
                return
            assignment = np.zeros(cnf.num_vars + 1, dtype=bool)
            lits = np.asarray(solver.get_model(), dtype=np.int64)
            assignment[lits[lits > 0]] = True
            values = assignment[user]
            send.send(("sol", np.packbits(values).tobytes(), solve_time))
            found += 1
            solver.add_clause(np.where(values, -user, user).tolist())
        send.send(("end", False, solve_time))
    except Exception as exc:  # reported by the parent as a RuntimeError
        send.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        send.close()
        os._exit(0)  # skip the inherited interpreter state's clean-up (the parent's objects)
