"""Counterexample-guided search for a universal move string.

Start with the letters only (one-hot per move, fixed where the pattern says so); solve;
walk the candidate through every case of the reduced set; add the constraints of the first
case it fails (largest first) to the *same* solver; repeat until a candidate solves every
case (found) or the formula is unsatisfiable (no string fits the pattern: a subset of the
cases already rules every string out).

A case's constraints: one literal per (move t, cell c) the walk can be in after t moves
(only cells within t steps of the start get one); at most one position per move; the
position after move t and letter t give the position after move t + 1; every cell to visit
is the position after some move.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.model import Groups, Model
from smtpuzzle.puzzles.maze import LETTERS, Cases, failing, parse_string, reduced_cases

SEARCH_BACKENDS = ("sat", "z3", "cpsat")
Progress = Callable[[int, float], None]  # (cases added, solver seconds so far)


@dataclass
class SearchResult:
    status: str  # sat | unsat | unknown
    string: str | None
    mazes_added: int
    time_s: float
    solver_time_s: float
    backend: str
    added: list[int] = field(default_factory=list)  # indices into the reduced cases

    def as_json(self) -> dict[str, Any]:
        return {"status": self.status, "string": self.string, "mazes_added": self.mazes_added,
                "time_s": round(self.time_s, 4), "solver_time_s": round(self.solver_time_s, 4),
                "backend": self.backend}


class Encoder:
    """Clauses over letter variables 1..4L (move t, letter d -> 4t + d + 1) and fresh
    position variables per case."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.length = len(pattern)
        self.letters = np.arange(1, 4 * self.length + 1, dtype=np.int64).reshape(-1, 4)
        self.top = 4 * self.length

    def base(self) -> list[Groups]:
        x = self.letters
        i, j = np.triu_indices(4, 1)
        parts = [Groups.of(x), Groups.of(np.stack([-x[:, i], -x[:, j]], axis=2).reshape(-1, 2))]
        fixed = [(t, LETTERS.index(ch)) for t, ch in enumerate(self.pattern) if ch != "*"]
        if fixed:
            t, d = np.array(fixed).T
            parts.append(Groups.of(x[t, d][:, None]))
        return parts

    def case(self, cases: Cases, k: int) -> list[Groups]:
        moves, start, target = cases.moves[k], int(cases.start[k]), int(cases.target[k])
        n_cells, length = moves.shape[0], self.length
        # Cells within t steps of the start: where the walk can be after move t.
        can = np.zeros((length + 1, n_cells), dtype=bool)
        can[0, start] = True
        for t in range(length):
            can[t + 1] = can[t]
            can[t + 1, moves[can[t]].ravel()] = True
        pos = np.zeros((length + 1, n_cells), dtype=np.int64)
        count = int(can[1:].sum())
        pos[1:][can[1:]] = np.arange(self.top + 1, self.top + count + 1)
        self.top += count
        x = self.letters
        parts = []
        # Move 0 from the start.
        d = np.arange(4)
        parts.append(Groups.of(np.stack([-x[0, d], pos[1, moves[start, d]]], axis=1)))
        # Moves 1..L-1: (position, letter) -> next position.
        t, c = np.nonzero(can[1:length])
        t = t + 1
        tt, dd = np.repeat(t, 4), np.tile(d, len(t))
        cc = np.repeat(c, 4)
        parts.append(Groups.of(np.stack([-pos[tt, cc], -x[tt, dd],
                                         pos[tt + 1, moves[cc, dd]]], axis=1)))
        # At most one position after each move.
        pairs = []
        for step in range(1, length + 1):
            here = pos[step][can[step]]
            if len(here) > 1:
                i, j = np.triu_indices(len(here), 1)
                pairs.append(np.stack([-here[i], -here[j]], axis=1))
        if pairs:
            parts.append(Groups.of(np.concatenate(pairs)))
        # Every cell to visit is visited.
        goals = [c for c in range(n_cells) if (target >> c) & 1 and c != start]
        parts.append(Groups.of([pos[1:, c][can[1:, c]] for c in goals]))
        return parts

    def decode(self, true_vars: set[int]) -> str:
        return "".join(LETTERS[next(d for d in range(4) if int(self.letters[t, d]) in true_vars)]
                       for t in range(self.length))

    def model(self, cases: Cases, added: list[int]) -> Model:
        """The final formula as a neutral model (for DIMACS export); letters are the user
        variables, named ``m1=N`` ..."""
        again = Encoder(self.pattern)
        m = Model(name="maze-search")
        names = [f"m{t + 1}={ch}" for t in range(self.length) for ch in LETTERS]
        m.new_bools(4 * self.length, user=True, names=names)
        parts = again.base()
        for k in added:
            parts += again.case(cases, k)
        m.num_vars = again.top
        m.add_clauses(Groups.concat(parts))
        return m


def _lists(parts: list[Groups]) -> list[list[int]]:
    g = Groups.concat(parts)
    flat, offs = g.flat.tolist(), g.offsets.tolist()
    return [flat[a:b] for a, b in zip(offs[:-1], offs[1:], strict=True)]


def _loop(check: Callable[[float | None], tuple[str, set[int] | None]],
          add: Callable[[list[Groups]], None], enc: Encoder, cases: Cases,
          report: Callable[[str, Any], None], deadline: float | None) -> None:
    """The CEGAR loop shared by the back ends; ``report`` gets progress and the result."""
    added: list[int] = []
    solver_time = 0.0
    while True:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            report("done", ("unknown", None, added, solver_time))
            return
        t0 = time.perf_counter()
        status, true_vars = check(left)
        solver_time += time.perf_counter() - t0
        if status != "sat":
            report("done", (status, None, added, solver_time))
            return
        string = enc.decode(true_vars)
        bad = failing(cases, string)
        if len(bad) == 0:
            report("done", ("sat", string, added, solver_time))
            return
        k = int(bad[0])
        add(enc.case(cases, k))
        added.append(k)
        report("progress", (len(added), solver_time))


def _sat_child(conn: Any, solver_name: str, pattern: str, size: int) -> None:
    from pysat.solvers import Solver

    cases = reduced_cases(size)
    enc = Encoder(pattern)
    with Solver(name=solver_name, bootstrap_with=_lists(enc.base())) as s:
        def check(_left: float | None) -> tuple[str, set[int] | None]:
            if not s.solve():
                return "unsat", None
            return "sat", {v for v in s.get_model() if v > 0}

        def add(parts: list[Groups]) -> None:
            s.append_formula(_lists(parts))

        _loop(check, add, enc, cases, lambda kind, data: conn.send((kind, data)), None)


def _run_sat(pattern: str, size: int, solver: str, deadline: float | None,
             progress: Progress | None) -> tuple[str, str | None, list[int], float]:
    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_sat_child, args=(send, solver, pattern, size), daemon=True)
    child.start()
    send.close()
    last = (0, 0.0)
    try:
        while True:
            wait = None if deadline is None else max(deadline - time.perf_counter(), 0)
            if not recv.poll(wait if wait is None else min(wait, 0.5)):
                if deadline is not None and time.perf_counter() >= deadline:
                    return "unknown", None, [], last[1]
                continue
            try:
                kind, data = recv.recv()
            except EOFError:
                raise RuntimeError("the SAT child process died") from None
            if kind == "progress":
                last = data
                if progress:
                    progress(*data)
            else:
                status, string, added, solver_time = data
                return status, string, added, solver_time
    finally:
        if child.is_alive():
            child.kill()
        child.join()


def _run_z3(pattern: str, size: int, deadline: float | None, progress: Progress | None,
            ) -> tuple[str, str | None, list[int], float]:
    import z3

    cases = reduced_cases(size)
    enc = Encoder(pattern)
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    declared = [0]

    def text(parts: list[Groups]) -> str:
        lines = [f"(declare-fun v{i} () Bool)" for i in range(declared[0] + 1, enc.top + 1)]
        declared[0] = enc.top
        for clause in _lists(parts):
            words = " ".join(f"v{v}" if v > 0 else f"(not v{-v})" for v in clause)
            lines.append(f"(assert (or {words} false))")
        return "\n".join(lines)

    solver.from_string(text(enc.base()))

    def check(left: float | None) -> tuple[str, set[int] | None]:
        solver.set("timeout", 2**32 - 1 if left is None else max(1, int(left * 1000)))
        answer = solver.check()
        if answer == z3.unsat:
            return "unsat", None
        if answer != z3.sat:
            return "unknown", None
        m = solver.model()
        return "sat", {int(d.name()[1:]) for d in m.decls() if z3.is_true(m[d])}

    return _drive(check, lambda parts: solver.from_string(text(parts)), enc, cases, deadline,
                  progress)


def _run_cpsat(pattern: str, size: int, deadline: float | None, progress: Progress | None,
               ) -> tuple[str, str | None, list[int], float]:
    from ortools.sat.python import cp_model

    cases = reduced_cases(size)
    enc = Encoder(pattern)
    m = cp_model.CpModel()
    bools: list[Any] = [None]

    def add(parts: list[Groups]) -> None:
        while len(bools) <= enc.top:
            bools.append(m.new_bool_var(f"v{len(bools)}"))
        for clause in _lists(parts):
            m.add_bool_or([bools[v] if v > 0 else bools[-v].negated() for v in clause])

    add(enc.base())

    def check(left: float | None) -> tuple[str, set[int] | None]:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 8
        if left is not None:
            solver.parameters.max_time_in_seconds = max(left, 0.001)
        code = solver.solve(m)
        if code == cp_model.INFEASIBLE:
            return "unsat", None
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "unknown", None
        return "sat", {v for v in range(1, 4 * enc.length + 1) if solver.boolean_value(bools[v])}

    return _drive(check, add, enc, cases, deadline, progress)


def _drive(check: Any, add: Any, enc: Encoder, cases: Cases, deadline: float | None,
           progress: Progress | None) -> tuple[str, str | None, list[int], float]:
    result: list[Any] = []

    def report(kind: str, data: Any) -> None:
        if kind == "progress":
            if progress:
                progress(*data)
        else:
            result.append(data)

    _loop(check, add, enc, cases, report, deadline)
    return result[0]


def search(pattern: str, size: int = 3, backend: str = "sat", solver: str | None = None,
           time_limit: float | None = None, progress: Progress | None = None,
           export_cnf: str | Path | None = None) -> SearchResult:
    """Complete ``pattern`` (letters and ``*``) to a string that solves every case, or prove
    that none exists. Found strings are verified on every case before they are returned."""
    from smtpuzzle.formats.dimacs import export_file
    from smtpuzzle.puzzles.maze import check as check_all

    pattern = parse_string(pattern, allow_free=True)
    if backend not in SEARCH_BACKENDS:
        raise PuzzleError(f"maze search back ends are {', '.join(SEARCH_BACKENDS)}, "
                          f"not {backend!r}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    seen = [0]

    def tracked(n_added: int, solver_s: float) -> None:
        seen[0] = n_added
        if progress:
            progress(n_added, solver_s)

    if backend == "sat":
        label = f"sat:{solver or 'cadical195'}"
        status, string, added, solver_time = _run_sat(pattern, size, solver or "cadical195",
                                                      deadline, tracked)
    elif backend == "z3":
        label = "z3"
        status, string, added, solver_time = _run_z3(pattern, size, deadline, tracked)
    else:
        label = "cpsat"
        status, string, added, solver_time = _run_cpsat(pattern, size, deadline, tracked)
    if string is not None:
        verdict = check_all(string, size)
        if verdict.unsolved:
            raise VerificationError(f"found string fails {verdict.unsolved} cases: {string}")
        if any(p != "*" and p != ch for p, ch in zip(pattern, string, strict=True)):
            raise VerificationError(f"found string {string} does not match {pattern}")
    if export_cnf is not None and status != "unknown":
        export_file(Encoder(pattern).model(reduced_cases(size), added), Path(export_cnf))
    return SearchResult(status, string, max(len(added), seen[0]), time.perf_counter() - start,
                        solver_time, label, added)
