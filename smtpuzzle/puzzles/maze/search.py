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

Back end ``mdd`` (the default, mdd.py) runs the same loop over exact decision diagrams
instead of a solver. Back end ``local`` is the other way round: simulated annealing
(local.py) finds strings fast where they are plentiful, and never proves that none
exists.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.backends import Backend, get_backend
from smtpuzzle.backends.dimacs import write_dimacs
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Groups, Model

# the split search's checkpoints are the bound prover's
from smtpuzzle.puzzles.maze.bound.resume import Saves, load_cubes, save_cubes
from smtpuzzle.puzzles.maze.cases import (
    LETTERS,
    MAX_MOVES,
    Cases,
    Size,
    case_moves,
    check,
    failing,
    listing_too_slow,
    parse_size,
    parse_string,
    reduced_cases,
    segments,
)
from smtpuzzle.puzzles.maze.local import LocalProgress, local_search
from smtpuzzle.puzzles.maze.mdd import (
    MAX_STATES,
    SPLIT_DEPTH,
    DiagramTooLarge,
    rule_diagram,
    samples,
    split_search,
)
from smtpuzzle.puzzles.maze.rules import break_symmetry, mirror_rule, mirrors
from smtpuzzle.puzzles.maze.verify import verify_string
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.checks import MAX_SEED, checked_time_limit, checked_whole, plural
from smtpuzzle.runtime.files import writable

# How a string is searched for: exact decision diagrams (mdd.py), a solver that learns the
# cases its strings fail (counterexample-guided, on one of SOLVER_BACKENDS), or simulated
# annealing (local.py: finds strings, never proves there is none).
STRATEGIES = ("mdd", "cegar", "local")
SOLVER_BACKENDS = ("sat", "z3", "cpsat")
BATCH = 1  # failing cases added per round
DEAD_SET_SIZE = 3  # largest set of cells a dead-end clause names (bench/RESULTS.md)
Progress = Callable[[int, float], None]  # (cases added, solver seconds so far)


_NO_JSON = {"json": False}


@dataclass
class SearchResult(Answer):
    """A maze string search: a string verified on every case, or proof there is none."""

    status: Status  # sat | unsat | unknown
    string: str | None
    mazes_added: int
    time_s: float
    solver_time_s: float
    backend: str  # what searched: the solver's label (cegar), else the strategy's name
    # indices into the reduced cases
    added: list[int] = field(default_factory=list, metadata=_NO_JSON)
    # the pattern after symmetry breaking
    searched: str = field(default="", metadata={"key": "searched_pattern"})
    # stopped by Ctrl-C (JSON: said of an unknown answer only)
    interrupted: bool = field(default=False, metadata=_NO_JSON)
    restarts: int = field(default=0, metadata=_NO_JSON)  # local search: annealing runs begun
    # local search, nothing found: cases its best string fails
    best_failing: int | None = field(default=None, metadata=_NO_JSON)
    # why an answer is unknown, where it is not the time limit or Ctrl-C
    note: str = field(default="", metadata={"omit": ""})
    # mdd: patterns searched (more than one where a diagram was split)
    cubes: int = field(default=1, metadata=_NO_JSON)
    # the strings searched also obeyed the mirror rule
    mirror: bool = field(default=False, metadata=_NO_JSON)
    # mdd: file, cubes resumed, cubes kept there
    checkpoint: dict[str, Any] | None = field(default=None, metadata={"omit": None})
    # why the CNF asked for could not be written (the answer stands)
    export_error: str = field(default="", metadata={"omit": ""})
    strategy: str = "mdd"
    stats: Stats | None = field(default=None, metadata=_NO_JSON)
    json_keys = ("status", "string", "mazes_added", "searched_pattern", "first_n_or_s",
                 "first_e_or_w", "time_s", "solver_time_s", "strategy", "backend",
                 "interrupted", "restarts", "best_failing", "cubes", "checkpoint", "note",
                 "export_error")

    def json_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {
            "first_n_or_s": "N" if self.mirror or self.searched[:1] == "N" else "any",
            "first_e_or_w": "E" if self.mirror else "any"}
        if self.status is Status.UNKNOWN:
            extra["interrupted"] = self.interrupted  # else a time limit or the note's reason
        if self.strategy == "local":
            extra["restarts"] = self.restarts
            extra["best_failing"] = self.best_failing
        if self.strategy == "mdd":
            extra["cubes"] = self.cubes
        return extra


class Encoder:
    """Clauses over letter variables 1..4L (move t, letter d -> 4t + d + 1) and fresh
    position variables per case."""

    def __init__(self, pattern: str, fresh: Callable[[int], np.ndarray] | None = None,
                 mirror: bool = False) -> None:
        self.pattern = pattern
        self.mirror = mirror  # add the mirror rule's clauses
        self.length = len(pattern)
        self.letters = np.arange(1, 4 * self.length + 1, dtype=np.int64).reshape(-1, 4)
        self.top = 4 * self.length
        # Where fresh position variables come from: a solver session's new_vars, or a
        # counter here (for the exported formula).
        self.fresh = fresh or self._count
        self._shared: dict[Any, np.ndarray] = {}

    def _count(self, n: int) -> np.ndarray:
        ids = np.arange(self.top + 1, self.top + n + 1, dtype=np.int64)
        self.top += n
        return ids

    def base(self) -> list[Groups]:
        x = self.letters
        i, j = np.triu_indices(4, 1)
        parts = [Groups.of(x), Groups.of(np.stack([-x[:, i], -x[:, j]], axis=2).reshape(-1, 2))]
        fixed = [(t, LETTERS.index(ch)) for t, ch in enumerate(self.pattern) if ch != "*"]
        if fixed:
            t, d = np.array(fixed).T
            parts.append(Groups.of(x[t, d][:, None]))
        if self.mirror:  # a W at move t only after an E or a W
            parts.append(Groups.of([np.concatenate([[-x[t, 3]], x[:t, [1, 3]].ravel()])
                                    for t in range(self.length)]))
            # and an S only after an N or an S, which a fixed N or S already says from
            # there on (a square's first move is N: no clause)
            known = next((t for t, ch in enumerate(self.pattern) if ch in "NS"), self.length)
            moves = [t for t in range(min(known + 1, self.length)) if self.pattern[t] != "N"]
            if moves:
                parts.append(Groups.of([np.concatenate([[-x[t, 2]], x[:t, [0, 2]].ravel()])
                                        for t in moves]))
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
                nlit[nxt] = self.fresh(int(nxt.sum()))
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
        v[1:, req] = self.fresh(n * len(req)).reshape(n, len(req))
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

    def decode(self, letters: np.ndarray) -> str:
        """The string that the letter variables' values (one-hot per move) spell."""
        picked = np.asarray(letters, dtype=bool).reshape(self.length, 4).argmax(axis=1)
        return "".join(LETTERS[d] for d in picked.tolist())

    def model(self, cases: Cases | None = None, added: Sequence[int] = ()) -> Model:
        """The letters (the user variables, named ``m1=N`` ...) and the pattern, with the
        constraints of the ``added`` cases: the final formula, for DIMACS export."""
        again = Encoder(self.pattern, mirror=self.mirror)
        m = Model(name="maze-search")
        names = [f"m{t + 1}={ch}" for t in range(self.length) for ch in LETTERS]
        m.new_bools(4 * self.length, user=True, names=names)
        parts = again.base()
        for k in added:
            assert cases is not None
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


def _run_session(pattern: str, size: Size, engine: Backend, deadline: float | None,
                 progress: Progress | None, mirror: bool
                 ) -> tuple[str, str | None, list[int], float]:
    """The CEGAR loop on one solver session: check, walk the candidate through the cases,
    add the first case it fails, check again."""
    cases = reduced_cases(size)
    enc = Encoder(pattern, mirror=mirror)
    added: list[int] = []
    solver_time = 0.0
    with engine.open(enc.model()) as session:
        enc.fresh = session.new_vars
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return "unknown", None, added, solver_time
            t0 = time.perf_counter()
            status = session.check(time_limit=left)
            solver_time += time.perf_counter() - t0
            if status is not Status.SAT:
                return status.value, None, added, solver_time
            string = enc.decode(session.values())
            bad = failing(cases, string, limit=BATCH)
            if len(bad) == 0:
                return "sat", string, added, solver_time
            new = [int(k) for k in bad[:BATCH]]
            session.add_clauses(Groups.concat([g for k in new for g in enc.case(cases, k)]))
            added.extend(new)
            if progress:
                progress(len(added), solver_time)


def search(pattern: str, size: Size = 3, strategy: str | None = None,
           backend: str | None = None, solver: str | None = None,
           time_limit: float | None = None, progress: Progress | None = None,
           export_cnf: str | Path | None = None,
           local_progress: LocalProgress | None = None, seed: int | None = None,
           max_states: int = MAX_STATES, split_depth: int = SPLIT_DEPTH,
           checkpoint: Path | None = None) -> SearchResult:
    """Complete ``pattern`` (letters and ``*``) to a string that solves every case, or prove
    that none exists. Found strings are verified on every case before they are returned.
    ``strategy`` is one of STRATEGIES: ``mdd`` (the default) splits a pattern whose
    diagram outgrows ``max_states`` states on up to ``split_depth`` free moves, and answers
    unknown past that; with ``checkpoint``, the cubes proved so far are kept in that file as
    they are proved, a later run of the same search takes them from it, and the file is
    removed once the search is decided. ``cegar`` (the default when a ``backend`` is named)
    runs ``backend`` (sat unless told; ``solver`` picks sat's or z3's). ``local`` (simulated
    annealing) only finds strings: it answers sat or unknown, never unsat, reports to
    ``local_progress`` and draws from ``seed`` (0 unless told)."""
    if not isinstance(pattern, str):
        raise TypeError(f"a pattern is a string of N, E, S, W and *, not {pattern!r}")
    pattern, size = parse_string(pattern, allow_free=True), parse_size(size)
    time_limit = checked_time_limit(time_limit)
    max_states, split_depth = checked_whole(max_states, "max_states", 1), \
        checked_whole(split_depth, "split_depth")
    if seed is not None:
        seed = checked_whole(seed, "seed", 0, MAX_SEED)
    if len(pattern) > MAX_MOVES:  # the solvers' formulas grow with its square
        raise PuzzleError(f"a pattern of {len(pattern):,} moves: at most {MAX_MOVES:,} are "
                          "searched (the known 3x3 string has 79)")
    searched = break_symmetry(pattern, size)
    strategy, backend = _strategy(strategy, backend)
    # from scratch on thin walls, the mirror rule too (not for local search: it only finds
    # strings, and any string it finds will do)
    mirror = set(pattern) == {"*"} and mirrors(size) and strategy != "local"
    if strategy == "local" and export_cnf is not None:
        raise PuzzleError("local search builds no formula: `export_cnf` needs the mdd or "
                          "cegar strategy")
    if solver is not None and backend not in ("sat", "z3"):
        raise PuzzleError(f"`solver` picks the sat or z3 solver of the cegar strategy; "
                          f"{backend or strategy} has none")
    if seed is not None and strategy != "local":
        raise PuzzleError(f"`seed` draws the local search's moves; the {strategy} strategy "
                          "draws none")
    if checkpoint is not None and strategy != "mdd":
        raise PuzzleError(f"`checkpoint` keeps the cubes of the mdd strategy, not {strategy}")

    if checkpoint is not None:
        writable(checkpoint)
    if export_cnf is not None:
        writable(Path(export_cnf), "the CNF")

    proved = {} if checkpoint is None or not checkpoint.exists() else \
        load_cubes(checkpoint, searched, size, mirror)
    resumed = len(proved)

    saves = Saves()

    def save_proved(cube: str, cases: list[int]) -> None:
        assert checkpoint is not None
        proved[cube] = cases
        saves.run(lambda: save_cubes(checkpoint, searched, size, mirror, proved))
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    if why := listing_too_slow(size, time_limit):
        return SearchResult("unknown", None, 0, time.perf_counter() - start, 0.0,
                            backend or strategy, searched=searched, note=why,
                            strategy=strategy)
    if strategy == "local":
        return _search_local(pattern, searched, size, start, deadline, local_progress,
                             seed or 0)
    seen: list[Any] = [0, 0.0]  # mazes added and solver seconds, as last reported

    def tracked(n_added: int, solver_s: float) -> None:
        seen[0], seen[1] = n_added, solver_s
        if progress:
            progress(n_added, solver_s)

    engine = None if backend is None else get_backend(backend, solver)
    label = strategy if engine is None else engine.label()
    interrupted, note, cubes = False, "", 1
    try:
        if engine is None:
            status, string, added, solver_time, cubes = split_search(
                searched, size, deadline, tracked, max_states=max_states, depth=split_depth,
                start=rule_diagram(searched, mirror_rule(size)) if mirror else None,
                proved=dict(proved), on_proved=save_proved if checkpoint else None,
                sampled=set(pattern) != {"*"} or samples(size))
        else:
            status, string, added, solver_time = _run_session(searched, size, engine,
                                                              deadline, tracked, mirror)
    except (KeyboardInterrupt, ctypes.ArgumentError) as exc:  # Ctrl-C: report how far it got
        if isinstance(exc, ctypes.ArgumentError) and "KeyboardInterrupt" not in str(exc):
            raise  # z3's ctypes calls wrap a Ctrl-C in ArgumentError; anything else is a bug
        status, string, added, solver_time = "unknown", None, [], seen[1]
        interrupted = True
    except DiagramTooLarge as exc:
        status, string, added, solver_time = "unknown", None, [], seen[1]
        cubes = exc.cubes
        aside = f", in {exc.aside:,} of the {exc.cubes:,} cubes searched, split " \
            f"{plural(split_depth, 'move')} deep" if split_depth else ""
        note = ("time limit; " if exc.late else "") + f"{exc} after " \
            f"{plural(seen[0], 'maze')}{aside}; try a larger `split_depth` or `backend=sat`"
    if string is not None:
        verify_string(string, size, pattern)
    kept_at = None
    if checkpoint is not None:
        if status != "unknown":
            checkpoint.unlink(missing_ok=True)
        kept_at = {"file": str(checkpoint), "resumed_cubes": resumed,
                   "kept_cubes": len(load_cubes(checkpoint, searched, size, mirror))
                   if status == "unknown" and checkpoint.exists() else 0}
        note = saves.note(note)
    export_error = ""
    if export_cnf is not None and status != "unknown":
        try:
            write_dimacs(Encoder(searched, mirror=mirror).model(reduced_cases(size), added),
                         Path(export_cnf))
        except OSError as exc:  # a full disk: the answer found is still the answer
            export_error = f"{export_cnf}: cannot write the CNF ({exc.strerror})"
    return SearchResult(status, string, max(len(added), seen[0]), time.perf_counter() - start,
                        solver_time, label, added, searched, interrupted, note=note,
                        cubes=cubes, mirror=mirror, checkpoint=kept_at,
                        export_error=export_error, strategy=strategy)


def _search_local(pattern: str, searched: str, size: Size, start: float, deadline: float | None,
                  progress: LocalProgress | None, seed: int) -> SearchResult:
    if "*" not in searched:
        # nothing to search: the one string is checked, and that decides it either way
        # (annealing would only run the whole time limit on a string that fails)
        fails = check(searched, size).unsolved
        took = time.perf_counter() - start
        return SearchResult("unsat" if fails else "sat", None if fails else searched, 0, took,
                            took, "local", searched=searched, strategy="local",
                            note=f"no move is free, and the one string fails {fails} cases"
                            if fails else "")
    seen = [0]  # restarts begun, as last reported

    def tracked(restarts: int, best: int) -> None:
        seen[0] = restarts
        if progress:
            progress(restarts, best)

    try:
        found = local_search(searched, size, deadline, tracked, seed)
        string, restarts, interrupted = found.string, found.restarts, found.interrupted
        best = found.best_failing if found.restarts else None
    except KeyboardInterrupt:  # before the search began, or after it
        string, restarts, best, interrupted = None, seen[0], None, True
    if string is not None:
        verify_string(string, size, pattern)
    took = time.perf_counter() - start
    return SearchResult("sat" if string else "unknown", string, 0, took, took, "local",
                        searched=searched, interrupted=interrupted, restarts=restarts,
                        best_failing=None if string else best, strategy="local")


def _strategy(strategy: str | None, backend: str | None) -> tuple[str, str | None]:
    """The strategy (mdd unless a back end is named: cegar then) and its back end (cegar
    only: sat unless named), checked."""
    if strategy is None:
        strategy = "mdd" if backend is None else "cegar"
    if strategy not in STRATEGIES:
        hint = f" (a back end: `backend={strategy}`)" if strategy in SOLVER_BACKENDS else ""
        raise PuzzleError(f"`strategy` is one of {', '.join(STRATEGIES)}, not "
                          f"{strategy!r}{hint}")
    if strategy != "cegar":
        if backend is not None:
            hint = f" (`strategy={backend}`)" if backend in STRATEGIES else ""
            raise PuzzleError(f"`backend` runs the cegar strategy, not {strategy}{hint}")
        return strategy, None
    if backend is None:
        return strategy, "sat"
    if backend not in SOLVER_BACKENDS:
        hint = f" (a strategy: `strategy={backend}`)" if backend in STRATEGIES else ""
        raise PuzzleError(f"maze search back ends are {', '.join(SOLVER_BACKENDS)}, not "
                          f"{backend!r}{hint}")
    return strategy, backend
