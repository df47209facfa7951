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

Back end ``mdd`` (the default, maze_mdd) runs the same loop over exact decision diagrams
instead of a solver. Back end ``local`` is the other way round: simulated annealing
(maze_local) finds strings fast where they are plentiful, and never proves that none
exists.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.backends.child import Send, child_messages
from smtpuzzle.backends.sat import DEFAULT_SOLVER
from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.formats.dimacs import export_file
from smtpuzzle.model import Groups, Model
from smtpuzzle.puzzles.maze.cases import (
    LETTERS,
    Cases,
    case_moves,
    check,
    failing,
    parse_string,
    reduced_cases,
    segments,
)
from smtpuzzle.puzzles.maze.local import LocalProgress, local_search
from smtpuzzle.puzzles.maze.mdd import DiagramTooLarge, mdd_search

SEARCH_BACKENDS = ("mdd", "sat", "z3", "cpsat", "local")
BATCH = 1  # failing cases added per round
DEAD_SET_SIZE = 3  # largest set of cells a dead-end clause names (bench/RESULTS.md)
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
    searched: str = ""  # the pattern after symmetry breaking
    interrupted: bool = False  # stopped by Ctrl-C
    restarts: int = 0  # local search: annealing runs begun
    best_failing: int | None = None  # local search, nothing found: cases its best string fails
    note: str = ""  # why an answer is unknown, where it is not the time limit or Ctrl-C

    def as_json(self) -> dict[str, Any]:
        data = {"status": self.status, "string": self.string, "mazes_added": self.mazes_added,
                "searched_pattern": self.searched,
                "time_s": round(self.time_s, 4), "solver_time_s": round(self.solver_time_s, 4),
                "backend": self.backend}
        if self.backend == "local":
            data["restarts"] = self.restarts
            data["best_failing"] = self.best_failing
        if self.note:
            data["note"] = self.note
        return data


class Encoder:
    """Clauses over letter variables 1..4L (move t, letter d -> 4t + d + 1) and fresh
    position variables per case."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.length = len(pattern)
        self.letters = np.arange(1, 4 * self.length + 1, dtype=np.int64).reshape(-1, 4)
        self.top = 4 * self.length
        self._shared: dict[Any, np.ndarray] = {}

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
        """Positions only at segment ends: a run of fixed letters is a known function of the
        position where it starts (simulated here), so it needs no literal per move."""
        moves, start, target = case_moves(cases, k), int(cases.start[k]), int(cases.target[k])
        n_cells = moves.shape[0]
        cells = np.arange(n_cells)
        segs = segments(self.pattern)
        can = [np.zeros(n_cells, dtype=bool)]
        can[0][start] = True
        pos = [np.zeros(n_cells, dtype=np.int64)]
        pos[0][start] = -1  # the start is known: a constant, not a literal
        parts: list[Groups] = []
        visit: list[list[np.ndarray]] = [[] for _ in range(n_cells)]  # literals per cell
        x = self.letters
        key: Any = ("start", start)
        steps: list[tuple[bool, np.ndarray, np.ndarray | None]] = []
        for i, (a, b, free) in enumerate(segs):
            here, lit = can[i], pos[i]
            nxt = np.zeros(n_cells, dtype=bool)
            if free:
                to = moves[:, :]  # (cells, 4)
                nxt[to[here].ravel()] = True
            else:
                to = cells.copy()
                seen = np.left_shift(1, cells)
                for ch in self.pattern[a:b]:
                    to = moves[to, LETTERS.index(ch)]
                    seen |= np.left_shift(1, to)
                nxt[to[here]] = True
            src = np.flatnonzero(here)
            # Cases whose walks agree on every string so far share their position literals
            # (and so what the solver learns about them): the key is the start and every
            # transition taken from the cells the walk can be in.
            key = (key, (to[src] if not free else moves[src]).tobytes())
            shared = self._shared.get(key)
            if shared is not None:
                nlit = shared
            else:
                nlit = np.zeros(n_cells, dtype=np.int64)
                count = int(nxt.sum())
                nlit[nxt] = np.arange(self.top + 1, self.top + count + 1)
                self.top += count
                self._shared[key] = nlit
            if free:
                q = np.repeat(src, 4)
                d = np.tile(np.arange(4), len(src))
                dst = nlit[moves[q, d]]
                if shared is not None:
                    pass  # the transitions are in the formula already
                elif lit[src[0]] == -1:  # from the known start: letter -> position
                    parts.append(Groups.of(np.stack([-x[a, d], dst], axis=1)))
                else:
                    parts.append(Groups.of(np.stack([-lit[q], -x[a, d], dst], axis=1)))
                for c in np.flatnonzero(nxt):
                    visit[c].append(nlit[c:c + 1])
            else:
                dst = nlit[to[src]]
                if shared is not None:
                    pass
                elif lit[src[0]] == -1:
                    parts.append(Groups.of(dst[:, None]))
                else:
                    parts.append(Groups.of(np.stack([-lit[src], dst], axis=1)))
                for q in src:
                    for c in np.flatnonzero((seen[q] >> cells) & 1):
                        if lit[q] == -1:
                            visit[c].append(np.array([0]))  # visited for sure
                        else:
                            visit[c].append(lit[q:q + 1])
            here_lits = nlit[nxt]
            if shared is None and len(here_lits) > 1:
                i2, j2 = np.triu_indices(len(here_lits), 1)
                parts.append(Groups.of(np.stack([-here_lits[i2], -here_lits[j2]], axis=1)))
            can.append(nxt)
            pos.append(nlit)
            steps.append((free, moves if free else to, None if free else seen))
        parts += self._lookahead(moves, start, target, steps, can, pos)
        goals = []
        for c in range(n_cells):
            if not (target >> c) & 1 or c == start:
                continue
            lits = np.concatenate(visit[c]) if visit[c] else np.zeros(0, dtype=np.int64)
            if (lits == 0).any():
                continue
            goals.append(lits)
        if goals:
            parts.append(Groups.of(goals))
        return parts

    def _lookahead(self, moves: np.ndarray, start: int, target: int,
                   steps: list[tuple[bool, np.ndarray, np.ndarray | None]],
                   can: list[np.ndarray], pos: list[np.ndarray]) -> list[Groups]:
        """``v[i][c]``: cell c was visited by segment end i (it needs a visit to become
        true). A walk at q after segment i with c unvisited, where c lies beyond every walk
        from q through the rest of the pattern, is a dead end: ``p[i][q] -> v[i][c]``."""
        n_cells = moves.shape[0]
        req = [c for c in range(n_cells) if (target >> c) & 1 and c != start]
        n = len(steps)
        if not req:
            return []
        later = np.zeros((n + 1, n_cells), dtype=np.int64)  # cells still visitable after i
        for i in range(n - 1, -1, -1):
            free, to, seen = steps[i]
            if free:
                for d in range(4):
                    nq = to[:, d]
                    later[i] |= np.left_shift(1, nq) | later[i + 1][nq]
            else:
                later[i] = seen | later[i + 1][to]
        v = np.zeros((n + 1, n_cells), dtype=np.int64)
        v[1:, req] = np.arange(self.top + 1, self.top + n * len(req) + 1).reshape(n, len(req))
        self.top += n * len(req)
        clauses: list[list[int]] = []
        for c in req:
            if not (later[0][start] >> c) & 1:
                clauses.append([])  # never visited: no string fits
            clauses.append([int(v[n, c])])
        for i in range(n):
            free, to, seen = steps[i]
            for c in req:
                head = [-int(v[i + 1, c])] + ([int(v[i, c])] if i else [])
                if free:
                    if can[i + 1][c]:
                        clauses.append(head + [int(pos[i + 1][c])])
                    else:
                        clauses.append(head)
                    continue
                sources = [q for q in np.flatnonzero(can[i]) if (seen[q] >> c) & 1]
                if i == 0:
                    if sources:  # visited for sure in the first run of fixed letters
                        continue
                    clauses.append(head)
                else:
                    clauses.append(head + [int(pos[i][q]) for q in sources])
        for i in range(1, n + 1):
            for q in np.flatnonzero(can[i]):
                for c in req:
                    if not (later[i][q] >> c) & 1:
                        clauses.append([-int(pos[i][q]), int(v[i, c])])
        if DEAD_SET_SIZE > 1 and len(req) > 1:
            clauses += _dead_sets(moves, steps, req, can, pos, v)
        sizes = np.array([len(cl) for cl in clauses], dtype=np.int64)
        flat = np.array([lit for cl in clauses for lit in cl], dtype=np.int64)
        return [Groups(flat, np.concatenate([[0], np.cumsum(sizes)]))]

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


def _dead_sets(moves: np.ndarray, steps: list[tuple[bool, np.ndarray, np.ndarray | None]],
               req: list[int], can: list[np.ndarray], pos: list[np.ndarray],
               v: np.ndarray) -> list[list[int]]:
    """Dead ends of 2 to DEAD_SET_SIZE cells: a walk at q after segment i with the cells M
    unvisited, where no walk from q through the rest of the pattern visits all of M (while
    it can visit any part of M smaller by one), is a dead end: ``p[i][q] -> OR v[i][c]``."""
    n_cells, n, r = moves.shape[0], len(steps), len(req)
    cells = np.arange(n_cells)
    bit = np.zeros(n_cells, dtype=np.int64)
    bit[req] = np.left_shift(1, np.arange(r))
    masks = np.arange(1 << r)
    # able[i][q, M]: some walk from q through segments i.. visits every cell of M.
    able = np.zeros((n + 1, n_cells, 1 << r), dtype=bool)
    able[n][:, 0] = True
    for i in range(n - 1, -1, -1):
        free, to, seen = steps[i]
        if free:
            for d in range(4):
                nq = to[:, d]
                able[i] |= able[i + 1][nq[:, None], masks[None, :] & ~bit[nq][:, None]]
        else:
            seen_bits = (((seen[:, None] >> cells[None, :]) & 1) * bit[None, :]).sum(axis=1)
            able[i] = able[i + 1][to[:, None], masks[None, :] & ~seen_bits[:, None]]
    size = np.array([bin(m).count("1") for m in masks])
    out: list[list[int]] = []
    for i in range(1, n):
        for q in np.flatnonzero(can[i]):
            row = able[i][q]
            for k in range(2, DEAD_SET_SIZE + 1):
                ms = masks[(size == k) & (masks & bit[q] == 0)]
                dead = ~row[ms]
                for j in range(r):
                    has = (ms >> j) & 1 == 1
                    dead &= ~has | row[ms ^ (1 << j)]
                for m in ms[dead].tolist():
                    out.append([-int(pos[i][q])] + [int(v[i, req[j]]) for j in range(r)
                                                    if (m >> j) & 1])
    return out


def _lists(parts: list[Groups]) -> list[list[int]]:
    return Groups.concat(parts).as_lists()


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
        new = [int(k) for k in bad[:BATCH]]
        add([g for k in new for g in enc.case(cases, k)])
        added.extend(new)
        report("progress", (len(added), solver_time))


def _sat_child(send: Send, solver_name: str, pattern: str, size: int) -> None:
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

        _loop(check, add, enc, cases, lambda kind, data: send((kind, data)), None)


def _run_sat(pattern: str, size: int, solver: str, deadline: float | None,
             progress: Progress | None) -> tuple[str, str | None, list[int], float]:
    """The incremental solver runs in a child process (CaDiCaL ignores interrupts), which
    is killed at the deadline."""
    solver_time = 0.0

    def work(send: Send) -> None:
        _sat_child(send, solver, pattern, size)

    with closing(child_messages(work, deadline)) as messages:
        for kind, data in messages:
            if kind == "done":
                return data
            solver_time = data[1]
            if progress:
                progress(*data)
    return "unknown", None, [], solver_time


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

    stop = [False]

    def check(left: float | None) -> tuple[str, set[int] | None]:
        if stop[0]:
            raise KeyboardInterrupt
        solver.set("timeout", 2**32 - 1 if left is None else max(1, int(left * 1000)))
        answer = solver.check()
        if stop[0]:
            raise KeyboardInterrupt
        if answer == z3.unsat:
            return "unsat", None
        if answer != z3.sat:
            return "unknown", None
        m = solver.model()
        return "sat", {int(d.name()[1:]) for d in m.decls() if z3.is_true(m[d])}

    def on_sigint(_signum: int, _frame: Any) -> None:
        # Raising here could land in a z3 object's __del__, where Python only prints the
        # exception and the search goes on: stop the solver and raise from check() instead.
        stop[0] = True
        ctx.interrupt()

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_sigint) if main else None
    try:
        return _drive(check, lambda parts: solver.from_string(text(parts)), enc, cases,
                      deadline, progress)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


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


def search(pattern: str, size: int = 3, backend: str = "mdd", solver: str | None = None,
           time_limit: float | None = None, progress: Progress | None = None,
           export_cnf: str | Path | None = None,
           local_progress: LocalProgress | None = None, seed: int = 0) -> SearchResult:
    """Complete ``pattern`` (letters and ``*``) to a string that solves every case, or prove
    that none exists. Found strings are verified on every case before they are returned.
    Back end ``local`` (simulated annealing, maze_local) only finds strings: it answers sat
    or unknown, never unsat, reports to ``local_progress`` and draws from ``seed``."""
    pattern = parse_string(pattern, allow_free=True)
    searched = _break_symmetry(pattern, size)
    if backend not in SEARCH_BACKENDS:
        raise PuzzleError(f"maze search back ends are {', '.join(SEARCH_BACKENDS)}, "
                          f"not {backend!r}")
    if backend == "local" and export_cnf is not None:
        raise PuzzleError("local search builds no formula: --export-cnf needs sat, z3 or cpsat")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    if backend == "local":
        return _search_local(pattern, searched, size, start, deadline, local_progress, seed)
    seen: list[Any] = [0, 0.0]  # mazes added and solver seconds, as last reported

    def tracked(n_added: int, solver_s: float) -> None:
        seen[0], seen[1] = n_added, solver_s
        if progress:
            progress(n_added, solver_s)

    label = f"sat:{solver or DEFAULT_SOLVER}" if backend == "sat" else backend
    interrupted, note = False, ""
    try:
        if backend == "mdd":
            status, string, added, solver_time = mdd_search(searched, size, deadline, tracked)
        elif backend == "sat":
            status, string, added, solver_time = _run_sat(
                searched, size, solver or DEFAULT_SOLVER, deadline, tracked)
        elif backend == "z3":
            status, string, added, solver_time = _run_z3(searched, size, deadline, tracked)
        else:
            status, string, added, solver_time = _run_cpsat(searched, size, deadline, tracked)
    except (KeyboardInterrupt, ctypes.ArgumentError) as exc:  # Ctrl-C: report how far it got
        if isinstance(exc, ctypes.ArgumentError) and "KeyboardInterrupt" not in str(exc):
            raise  # z3's ctypes calls wrap a Ctrl-C in ArgumentError; anything else is a bug
        status, string, added, solver_time = "unknown", None, [], seen[1]
        interrupted = True
    except DiagramTooLarge as exc:
        status, string, added, solver_time = "unknown", None, [], seen[1]
        note = f"{exc} after {seen[0]} mazes; try --backend sat"
    if string is not None:
        _verify(string, pattern, size)
    if export_cnf is not None and status != "unknown":
        export_file(Encoder(searched).model(reduced_cases(size), added), Path(export_cnf))
    return SearchResult(status, string, max(len(added), seen[0]), time.perf_counter() - start,
                        solver_time, label, added, searched, interrupted, note=note)


def _search_local(pattern: str, searched: str, size: int, start: float, deadline: float | None,
                  progress: LocalProgress | None, seed: int) -> SearchResult:
    seen = [0]  # restarts begun, as last reported

    def tracked(restarts: int, best: int) -> None:
        seen[0] = restarts
        if progress:
            progress(restarts, best)

    try:
        found = local_search(searched, size, deadline, tracked, seed)
        string, restarts, best, interrupted = (found.string, found.restarts, found.best_failing,
                                               False)
    except KeyboardInterrupt:
        string, restarts, best, interrupted = None, seen[0], None, True
    if string is not None:
        _verify(string, pattern, size)
    took = time.perf_counter() - start
    return SearchResult("sat" if string else "unknown", string, 0, took, took, "local",
                        searched=searched, interrupted=interrupted, restarts=restarts,
                        best_failing=None if string else best)


def _verify(string: str, pattern: str, size: int) -> None:
    verdict = check(string, size)
    if verdict.unsolved:
        raise VerificationError(f"found string fails {verdict.unsolved} cases: {string}")
    if any(p != "*" and p != ch for p, ch in zip(pattern, string, strict=True)):
        raise VerificationError(f"found string {string} does not match {pattern}")


def _break_symmetry(pattern: str, size: int) -> str:
    """From scratch (all ``*``) the first move can be fixed without loss. 3x3: the case set
    is closed under the square's rotations, which map any first move to N. 4x4: a first
    move N or W does nothing from the top-left start (drop it, append any move), and the
    transpose (N<->W, E<->S) maps the case set onto itself, so the first move is E."""
    if set(pattern) != {"*"}:
        return pattern
    return ("N" if size == 3 else "E") + pattern[1:]
