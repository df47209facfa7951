"""SAT back end through PySAT: any of its solvers by name, run in a forked child process.

The session the caller holds (:class:`SatSession`) keeps the clauses and talks to a child
(:class:`~smtpuzzle.runtime.child.Child`) that holds the PySAT solver in a
:class:`PysatSession` and answers its checks; enumeration runs in the child, which streams
the solutions back and goes on searching while the caller looks at them. At a deadline or
on Ctrl-C the child is killed (CaDiCaL ignores interrupts); the session then starts a new
child from the clauses it kept, so it stays usable, having lost only what the solver learnt.

A small model also gets a solver in the caller's process, loaded when the session opens.
Each check tries it first, in rounds of a thousand conflicts for at most a quarter of a
second (PySAT cannot stop CaDiCaL, but a round ends by itself), and most checks of small
models end there; a check it does not decide goes to a child forked from it, so the child
starts with the clauses loaded and what the try learnt.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache, partial
from typing import Any

import numpy as np

from smtpuzzle.backends.base import Backend, Capabilities, Session
from smtpuzzle.backends.cnf import cardinality_clauses, to_cnf
from smtpuzzle.backends.lazy import LazyCuts
from smtpuzzle.backends.pysat_sigint import python_sigint
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Groups, Model
from smtpuzzle.model.graphs import CONNECTED
from smtpuzzle.model.kinds import BOOLEAN, lazy_records, lowered
from smtpuzzle.result import Enumeration, Result, Stats, Status
from smtpuzzle.runtime.child import Child

DEFAULT_SOLVER = "cadical195"
# Solvers that cannot take clauses after a solve (Kissat then answers wrongly or aborts):
# each further check is made by a new solver with the clauses so far.
NOT_INCREMENTAL = {"kissat404"}
NO_ASSUMPTIONS = {"kissat404"}  # these take no assumptions, and so no hints
NO_BUDGET = {"lingeling"}  # these cannot stop after a number of conflicts
# A model of at most this many clauses gets a solver in the caller's process too; each
# check tries it in rounds of LOCAL_CONFLICTS conflicts for up to LOCAL_SECONDS before it
# goes to the child (measured; bench/history/). A round on 60,000 clauses of random
# 3-SAT, the slowest kind measured, takes about 0.2 s, so a Ctrl-C or a time limit waits at
# most about 0.45 s for the try to end.
LOCAL_MAX_CLAUSES = 60_000
LOCAL_CONFLICTS = 1_000
LOCAL_SECONDS = 0.25


@cache
def solver_names() -> list[str]:
    """The PySAT solvers this installation can run. PySAT names some it may lack (cryptosat
    needs pycryptosat; minisatgh is not in every build): those are left out."""
    from pysat.solvers import Solver, SolverNames

    names = []
    for name in sorted(k for k in vars(SolverNames) if not k.startswith("_")):
        try:
            Solver(name=name).delete()
        except Exception:  # noqa: BLE001  NoSuchSolverError, or an ImportError of its module
            continue
        names.append(name)
    return names


def _capabilities(solver: str) -> Capabilities:
    # hints are assumed: a solver without assumptions is not guided
    return Capabilities(incremental=solver not in NOT_INCREMENTAL,
                        guided=solver not in NO_ASSUMPTIONS,
                        bounds=solver not in NO_ASSUMPTIONS | NOT_INCREMENTAL)


def _check_solver(solver: str) -> None:
    """A PuzzleError unless ``solver`` is a PySAT solver this installation runs."""
    if solver not in solver_names():
        raise PuzzleError(f"unknown SAT solver {solver!r} (known: {', '.join(solver_names())})")


def solve_clauses(clauses: Groups, num_vars: int, solver: str = DEFAULT_SOLVER,
                  time_limit: float | None = None) -> tuple[Status, np.ndarray | None]:
    """Plain clauses (a DIMACS file's) solved by a PySAT solver in this process: the status
    and, when SAT, every variable's value (UNKNOWN once ``time_limit`` seconds passed)."""
    import threading

    from pysat.solvers import Solver

    _check_solver(solver)
    with Solver(name=solver, bootstrap_with=clauses.as_lists()) as s:
        timer = None if time_limit is None else threading.Timer(time_limit, s.interrupt)
        if timer is not None:
            timer.start()
        try:
            with python_sigint():
                answer = s.solve_limited(expect_interrupt=True)
        finally:
            if timer is not None:
                timer.cancel()
        if answer is None:
            return Status.UNKNOWN, None
        if not answer:
            return Status.UNSAT, None
        values = np.zeros(num_vars, dtype=bool)
        model = np.asarray(s.get_model() or [], dtype=np.int64)
        model = model[np.abs(model) <= num_vars]
        values[np.abs(model[model > 0]) - 1] = True
        return Status.SAT, values


class SatBackend(Backend):
    name = "sat"
    takes = BOOLEAN | {CONNECTED}  # connected sets checked lazily (backends/lazy.py)
    bytes_per_incidence = 1150
    build_stops = True  # numpy and Python: lowering and the CNF (the solver is a child's)

    def __init__(self, solver: str = DEFAULT_SOLVER) -> None:
        _check_solver(solver)
        self.solver = solver
        self.capabilities = _capabilities(solver)

    def label(self) -> str:
        return f"sat:{self.solver}"

    def _open(self, model: Model, stats: Stats) -> SatSession:
        return SatSession(self.solver, model, stats, self.takes)


class SatSession(Session):
    """Clauses kept here, the solver in a child process (started at the first check)."""

    def __init__(self, solver: str, model: Model, stats: Stats,
                 takes: frozenset[str] = SatBackend.takes) -> None:
        t0 = time.perf_counter()
        flat = lowered(model, takes, "sat")  # integers by their literals
        cnf = to_cnf(flat, takes - BOOLEAN)
        self._lazy = LazyCuts(lazy_records(flat))
        super().__init__(flat.user_vars, cnf.num_vars, stats, model.hints,
                         model.ints.user_ints())
        self._n_bools = len(model.user_vars)
        self._layout = flat.int_answer
        self.solver = solver
        self.capabilities = _capabilities(solver)
        self._parts: list[Groups] = [cnf.clauses]
        self._sent = 0  # parts the child has
        self._child: Child | None = None
        self._values: np.ndarray | None = None
        self._core: list[int] = []
        self._local: PysatSession | None = None  # the solver in this process, if any
        self._local_has = 0  # parts it has
        if (len(cnf.clauses) <= LOCAL_MAX_CLAUSES and self.capabilities.incremental
                and solver not in NO_BUDGET):
            self._local = PysatSession(solver, self._parts, self.user, self.top, True,
                                       self._lazy)
            self._local_has = len(self._parts)
        stats.variables = cnf.num_vars
        stats.constraints = len(cnf.clauses)
        stats.build_time += time.perf_counter() - t0

    def _add_clauses(self, groups: Groups) -> None:
        self._parts.append(groups)

    def _add_cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None:
        clauses, self.top = cardinality_clauses(groups, cmp, bounds, self.top)
        if len(clauses):
            self._parts.append(clauses)

    def _start(self, deadline: float | None) -> Child | None:
        """The child, started (from every clause kept) if there is none."""
        if self._child is not None:
            return self._child
        t0 = time.perf_counter()
        if self._keeps_local():  # the child takes over the solver, loaded
            self._catch_up()
            make: Callable[[], PysatSession] = partial(lambda s: s, self._local)
        else:  # the forked child sees the clauses: nothing is sent
            make = partial(PysatSession, self.solver, list(self._parts), self.user, self.top,
                           self.capabilities.incremental, self._lazy)
        self._sent = len(self._parts)
        child = Child(partial(_serve, make))
        self._child = child
        try:
            message = self._receive(deadline)
        finally:
            loading = time.perf_counter() - t0
            self.setup_s += loading
            self.stats.build_time += loading
        return None if message is None else child

    def _pending(self) -> list[Groups]:
        new = self._parts[self._sent:]
        self._sent = len(self._parts)
        return new

    def _receive(self, deadline: float | None) -> tuple | None:
        """The child's next message; the child is dropped at the deadline, on Ctrl-C or
        when it fails."""
        assert self._child is not None
        try:
            message = self._child.receive(deadline)
        except BaseException:
            self._drop()
            raise
        if message is None:
            self._drop()
        return message

    def _drop(self) -> None:
        if self._child is not None:
            self._child.kill()
            self._child = None

    def _check(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        self._assumed = [int(a) for a in assumptions]
        self._values, self._core = None, []
        if self._child is None and self._keeps_local():
            status = self._check_locally(deadline)
            if status is not Status.UNKNOWN or (
                    deadline is not None and time.perf_counter() >= deadline):
                return status
        child = self._start(deadline)
        if child is None:
            return Status.UNKNOWN
        child.send(("check", self._pending(), self._assumed))
        message = self._receive(deadline)
        if message is None:
            return Status.UNKNOWN
        _, status, bits, core = message
        if status == Status.SAT:
            self._values = _unpack(bits, len(self.user))
        self._core = core
        return Status(status)

    def _catch_up(self) -> None:
        """Give the solver in this process the clauses added since it last checked."""
        assert self._local is not None
        for g in self._parts[self._local_has:]:
            self._local.add_clauses(g)
        self._local_has = len(self._parts)

    def _check_locally(self, deadline: float | None) -> Status:
        """The check, tried in this process in rounds of LOCAL_CONFLICTS conflicts until
        LOCAL_SECONDS or the deadline: UNKNOWN if undecided. A Ctrl-C is raised when the
        round it lands in ends."""
        assert self._local is not None
        stop = time.perf_counter() + LOCAL_SECONDS
        if deadline is not None:
            stop = min(stop, deadline)
        try:
            self._catch_up()
            status = self._local.check_briefly(self._assumed, LOCAL_CONFLICTS)
            while status is Status.UNKNOWN and time.perf_counter() < stop:
                status = self._local.check_briefly(self._assumed, LOCAL_CONFLICTS)
        except BaseException:
            self._local = None  # not trusted after an interruption: children start afresh
            raise
        if status is Status.SAT:
            self._values = self._local.values()
        elif status is Status.UNSAT:
            self._core = self._local.core()
        return status

    def values(self) -> np.ndarray:
        if self._values is None:
            raise RuntimeError("values() needs a SAT check first")
        return self._values[:self._n_bools]

    def int_values(self) -> np.ndarray | None:
        if self._values is None:
            raise RuntimeError("int_values() needs a SAT check first")
        return self._decode(self._values)

    def _decode(self, full: np.ndarray) -> np.ndarray | None:
        """The answer integers from their literals (after the booleans)."""
        if self._layout is None:
            return None
        return self._layout.decode(full[self._n_bools:])

    def at_most(self, i: int, c: int) -> int:
        """A literal that, assumed, holds answer integer i at c or below (made with its
        clauses now: an objective's bound, moved from check to check)."""
        assert self._layout is not None
        lit, clauses = self._layout.at_most(i, c, self.user[self._n_bools:],
                                            lambda: int(self.new_vars(1)[0]))
        if isinstance(lit, bool):  # a constant: a fresh literal, held or refuted
            holds, lit = lit, int(self.new_vars(1)[0])
            clauses = [[lit] if holds else [-lit]]
        if clauses:
            self.add_clauses(clauses)
        return int(lit)

    def block(self, values: np.ndarray, ints: np.ndarray | None) -> None:
        full = np.zeros(len(self.user), dtype=bool)
        full[:self._n_bools] = values
        if ints is not None and self._layout is not None:
            full[self._n_bools:] = self._layout.encode(ints)
        self.add_clauses([self.blocking(full)])

    def core(self) -> list[int]:
        return list(self._core)

    def _close(self) -> None:
        self._drop()
        self._drop_local()

    def _keeps_local(self) -> bool:
        """Whether there is a solver in this process; it is dropped once the clauses added
        since the open take the CNF past LOCAL_MAX_CLAUSES (a round would grow slow)."""
        if self._local is not None and sum(map(len, self._parts)) > LOCAL_MAX_CLAUSES:
            self._drop_local()
        return self._local is not None

    def _drop_local(self) -> None:
        if self._local is not None:
            self._local.close()
            self._local = None

    def _more(self, limit: int | None, deadline: float | None,
              enum: Enumeration) -> Iterator[Result]:
        """The child enumerates (the same blocking loop, on its own session) and streams;
        it starts now, before the caller has looked at the first solution."""
        child = self._start(deadline)
        if child is None:
            return iter(())
        child.send(("enumerate", self._pending(), limit))
        return self._stream(deadline, enum)

    def _stream(self, deadline: float | None, enum: Enumeration) -> Iterator[Result]:
        finished = False
        try:
            while True:
                t0 = time.perf_counter()
                message = self._receive(deadline)
                self.stats.solve_time += time.perf_counter() - t0
                if message is None:
                    return
                if message[0] == "end":
                    finished = True
                    enum.complete = message[1]
                    return
                full = _unpack(message[1], len(self.user))
                # The child blocked it already; kept here for a child started anew.
                self._parts.insert(self._sent, Groups.of([self.blocking(full)]))
                self._sent += 1
                yield Result(Status.SAT, full[:self._n_bools], self.stats, self._decode(full))
        finally:
            if not finished:  # the child is still enumerating: it cannot take requests
                self._drop()


def _unpack(bits: bytes, n: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(bits, dtype=np.uint8), count=n).astype(bool)


class PysatSession(Session):
    """A PySAT solver in this process. Used inside the child, where it can be killed: in the
    caller's process a solve could not be stopped."""

    def __init__(self, solver: str, parts: list[Groups], user: np.ndarray, top: int,
                 incremental: bool, lazy: LazyCuts | None = None) -> None:
        super().__init__(user, top, Stats(f"sat:{solver}"))
        self.name = solver
        self.incremental = incremental
        self.lazy = lazy  # checked on each solution (backends/lazy.py)
        self.parts = list(parts)  # the clauses, for a solver made afresh (not incremental)
        self._solver = self._new()
        self._solved = False
        self._values: np.ndarray | None = None

    def _new(self) -> Any:
        from pysat.solvers import Solver

        solver = Solver(name=self.name)
        # MapleSAT crashes (SIGSEGV) solving an empty clause set; a tautology keeps it busy.
        solver.add_clause([1, -1])
        for part in self.parts:
            _append(solver, part)
        return solver

    def _add_clauses(self, groups: Groups) -> None:
        if self.incremental:
            _append(self._solver, groups)
        else:
            self.parts.append(groups)

    def _add_cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None:
        clauses, self.top = cardinality_clauses(groups, cmp, bounds, self.top)
        if len(clauses):
            self._add_clauses(clauses)

    def _check(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        self._assumed = list(assumptions)
        self._values = None
        return self._solve_until_kept(lambda: self._solver.solve(assumptions=self._assumed))

    def check_briefly(self, assumptions: Sequence[int], conflicts: int) -> Status:
        """A check that gives up (UNKNOWN) after ``conflicts`` conflicts (a budget per
        solve); incremental solvers only. A Ctrl-C during it is raised when it returns."""
        self._assumed = list(assumptions)
        self._values = None

        def solve() -> bool | None:
            self._solver.conf_budget(conflicts)
            return self._solver.solve_limited(assumptions=self._assumed, expect_interrupt=True)

        return self._solve_until_kept(solve)

    def _solve_until_kept(self, solve: Callable[[], bool | None]) -> Status:
        """``solve()`` (True, False, or None when it gave up) until its solution keeps the
        lazy records: each solution that breaks one adds its cuts and solves again. A solver
        that is not incremental is made afresh, with every clause, before each solve but
        the first."""
        while True:
            if self._solved and not self.incremental:
                self._solver.delete()
                self._solver = self._new()
            self._solved = True
            t0 = time.perf_counter()
            with python_sigint():
                sat = solve()
            self.stats.solve_time += time.perf_counter() - t0
            status = Status.UNKNOWN if sat is None else self._took(sat)
            if status is not Status.SAT or not self._cut():
                return status

    def _took(self, sat: bool) -> Status:
        """The status of a finished solve; a model read off if SAT."""
        if not sat:
            return Status.UNSAT
        lits = np.asarray(self._solver.get_model(), dtype=np.int64)
        assignment = np.zeros(max(self.top, len(lits)) + 1, dtype=bool)
        assignment[lits[lits > 0]] = True
        self._values = assignment[self.user]
        self._assignment = assignment
        return Status.SAT

    def _cut(self) -> bool:
        """After a SAT check: add the cuts the lazy records ask of this solution; whether
        there were any (the solution is then no answer)."""
        if not self.lazy:
            return False
        cuts = self.lazy.cuts(self._assignment)
        if cuts:
            self._add_clauses(Groups.of(cuts))
            self._values = None
        return bool(cuts)

    def values(self) -> np.ndarray:
        if self._values is None:
            raise RuntimeError("values() needs a SAT check first")
        return self._values

    def core(self) -> list[int]:
        return list(self._solver.get_core() or []) if self._assumed else []

    def _close(self) -> None:
        self._solver.delete()


def _append(solver: Any, groups: Groups) -> None:
    """Give the clauses to a PySAT solver, in order: a run of clauses of one length becomes
    Python lists in one call (48,082 clauses: 29 ms as one list of lists, 18 ms so). The
    garbage collector is paused meanwhile: those lists hold no cycles, and each collection
    they set off would walk the caller's whole heap."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        for mat in groups.runs():
            solver.append_formula(mat.tolist())
    finally:
        if enabled:
            gc.enable()


def _serve(make: Callable[[], PysatSession], conn: Any) -> None:
    """The child: make the session (loading the clauses, unless it came loaded), then answer
    the parent's requests until it is killed."""
    t0 = time.perf_counter()
    session = make()
    conn.send(("loaded", time.perf_counter() - t0))
    while True:
        kind, adds, arg = conn.recv()
        for g in adds:
            session.add_clauses(g)
        if kind == "check":
            status = session.check(arg)
            bits = np.packbits(session.values()).tobytes() if status is Status.SAT else None
            core = session.core() if status is Status.UNSAT else []
            conn.send(("checked", status.value, bits, core))
        else:  # enumerate: up to ``arg`` more solutions, each blocked
            enum = Enumeration(iter(()), session.stats)
            for r in session._more(arg, None, enum):
                conn.send(("sol", np.packbits(r.values).tobytes()))
            conn.send(("end", enum.complete))
