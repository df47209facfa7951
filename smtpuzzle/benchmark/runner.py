"""Runs benchmark suites: every entry on every chosen back end, interleaved (repeat, then
puzzle, then back end) so machine noise hits all back ends alike. Each run happens in a
forked child, which gives it its own peak-memory reading and lets a run that overstays its
time limit be killed without stopping the others."""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import asdict, dataclass
from typing import Any

from smtpuzzle.backends import BACKENDS, get_backend, preload
from smtpuzzle.benchmark.suites import Entry, Suite
from smtpuzzle.benchmark.tasks import UNDECIDED, Outcome, run_task, wrong_answer
from smtpuzzle.errors import PuzzleError
from smtpuzzle.runtime.child import Send, child_messages

DEFAULT_TIME_LIMIT = 60.0
GRACE_S = 30.0  # at least this long past the time limit before a run is killed


@dataclass
class Config:
    """A back end, and the solver inside it where it has a choice."""

    backend: str
    solver: str | None = None

    @property
    def label(self) -> str:
        if self.backend not in BACKENDS:  # a task's own engine (mdd: the maze diagrams)
            return self.backend
        return get_backend(self.backend, self.solver).label()


@dataclass
class Run:
    """One measured run (one repeat of one entry on one configuration)."""

    suite: str
    puzzle: str
    task: str
    backend: str
    repeat: int
    status: str
    time_s: float | None  # build + solve: the back end's work
    build_s: float | None
    solve_s: float | None
    wall_s: float  # the whole run, loading and verifying included
    peak_mb: float | None
    variables: int | None
    constraints: int | None
    detail: str
    wrong: str  # why the answer contradicts the suite ("" when it does not)
    time_limit: float
    anchor: str
    anchor_s: float | None

    def as_dict(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


@dataclass
class Summary:
    """The runs of one entry on one configuration, reduced to medians."""

    suite: str
    puzzle: str
    task: str
    backend: str
    status: str
    time_s: float | None
    build_s: float | None
    solve_s: float | None
    peak_mb: float | None
    variables: int | None
    constraints: int | None
    detail: str
    wrong: str
    ratio: float | None  # time over the fastest back end that decided this puzzle
    time_limit: float
    anchor: str
    anchor_s: float | None

    @property
    def decided(self) -> bool:
        return self.status not in UNDECIDED and not self.wrong


Report = Callable[[str], None]


def configs_for(backends: list[str], solvers: list[str]) -> list[Config]:
    """One configuration per back end, or per solver for the back ends that were given
    solvers (``--solver glucose4 --solver cadical195`` makes two sat configurations)."""
    from smtpuzzle.backends.exactcover.search import BRANCHINGS
    from smtpuzzle.backends.sat import solver_names
    from smtpuzzle.backends.z3 import SOLVER_KINDS
    from smtpuzzle.benchmark.suites import TASK_BACKENDS

    # Engines of one task alone (mdd, the maze diagrams) are no general back end.
    task_engines = {b for names in TASK_BACKENDS.values() for b in names} - set(BACKENDS)
    for b in backends:
        if b not in task_engines:
            get_backend(b)  # an unknown name fails here, as everywhere
    by_backend: dict[str, list[str]] = {}
    for s in solvers:
        owner = ("sat" if s in solver_names() else "z3" if s in SOLVER_KINDS
                 else "exact-cover" if s in BRANCHINGS else None)
        if owner is None:
            raise PuzzleError(f"unknown solver {s!r} (sat: {', '.join(solver_names())}; "
                              f"z3: {', '.join(SOLVER_KINDS)}; exact-cover: "
                              f"{', '.join(BRANCHINGS)})")
        if owner not in backends:
            raise PuzzleError(f"solver {s!r} belongs to the {owner} back end, which is not in "
                              f"`backends={','.join(backends)}`")
        by_backend.setdefault(owner, []).append(s)
    return [Config(b, s) for b in backends for s in by_backend.get(b, [None])]


def run_suites(suites: list[Suite], configs: list[Config], time_limit: float | None = None,
               repeat: int = 1, on_run: Callable[[Run, int, int], None] | None = None,
               note: Report | None = None) -> tuple[list[Run], bool]:
    """Every entry of ``suites`` on every applicable configuration, ``repeat`` times. Returns
    the runs and whether all of them were made (False after Ctrl-C)."""
    plan = [(suite, entry, config) for suite in suites for entry in suite.entries
            for config in configs]
    _prepare(suites, note, time_limit)
    runs: list[Run] = []
    total = len(plan) * repeat
    try:
        for k in range(repeat):
            for suite, entry, config in plan:
                limit = time_limit or entry.time_limit or DEFAULT_TIME_LIMIT
                if config.backend in entry.backends:
                    run = _measure(suite.name, entry, config, limit, k)
                else:
                    why = f"not run: {entry.task} runs on {', '.join(entry.backends)}"
                    run = _run(suite.name, entry, config, limit, k,
                               Outcome("n/a", None, 0.0, detail=why), 0.0, None)
                runs.append(run)
                if on_run:
                    on_run(run, len(runs), total)
    except KeyboardInterrupt:
        return runs, False
    return runs, True


def _prepare(suites: list[Suite], note: Report | None, time_limit: float | None) -> None:
    """Load every puzzle (bad input fails here, before any run), list frames' stage-1 sets
    into the cache, and compile the numba kernels, so no run pays for them. Stage 1 has
    the entry's time limit: sets not all listed by then are an error, not a frames run
    on part of them."""
    from smtpuzzle.library import load, load_frames, load_puzzle
    from smtpuzzle.puzzles.maze.cases import parse_string

    entries = [e for s in suites for e in s.entries]
    preload()  # imports are nobody's build time

    for e in entries:
        try:
            if e.task in ("solve", "count"):
                load(e.target, precheck=False)  # the back ends are measured refuting it
            elif e.task == "nonogram":
                load_puzzle(e.target)
            elif e.task == "maze":
                parse_string(e.target, allow_free=True)
        except PuzzleError as exc:
            raise PuzzleError(f"{exc}", f"{_suite_of(suites, e).path}: {e.label}") from None
    if any(e.task in ("solve", "count", "frames") for e in entries):
        if note:
            note("loading the exact-cover engine (compiled once, then cached)")
        get_backend("exact-cover").solve(load("pentomino-3x20").build_model())
    if any(e.task == "nonogram" for e in entries):
        from smtpuzzle.puzzles.nonogram.linesolve import presolve

        presolve(load_puzzle("data001"))
    from smtpuzzle.puzzles.frames.sets import enumerate_sets

    for e in entries:
        if e.task == "frames":
            frames = load_frames(e.target)
            limit = time_limit or e.time_limit or DEFAULT_TIME_LIMIT
            sets = enumerate_sets(frames, workers=2, time_limit=limit)
            if sets.stopped == "interrupted":
                raise KeyboardInterrupt
            if not sets.complete:
                raise PuzzleError(f"stage 1 did not list every set within {limit:g} s (it "
                                  f"found {len(sets.sets):,}); list them first with "
                                  f"smtpuzzle frames {e.target}, or give a longer time_limit",
                                  f"{_suite_of(suites, e).path}: {e.label}")
            if note:
                how = "from the cache" if sets.cached else f"listed in {sets.time_s:.1f} s"
                note(f"{e.label}: stage 1, {len(sets.sets)} sets {how} (not timed)")


def _suite_of(suites: list[Suite], entry: Entry) -> Suite:
    return next(s for s in suites if entry in s.entries)


def _measure(suite: str, entry: Entry, config: Config, limit: float, repeat: int) -> Run:
    def work(send: Send) -> None:
        t0 = time.perf_counter()
        outcome = run_task(entry, config.backend, config.solver, limit)
        wall = time.perf_counter() - t0
        peak_kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        send(("done", outcome, wall, peak_kb / 1024))

    grace = max(GRACE_S, limit)  # room to build the model and verify beyond the solver's limit
    started = time.perf_counter()
    outcome, wall, peak = None, None, None
    try:
        with closing(child_messages(work, started + limit + grace, nested=True)) as messages:
            _, outcome, wall, peak = next(messages, (None, None, None, None))
    except RuntimeError as exc:
        outcome = Outcome("error", None, 0.0, detail=str(exc))
    if outcome is None:
        outcome = Outcome("timeout", None, limit, detail=f"killed after {limit + grace:g} s")
    if wall is None:  # no word from the child: the whole time it had
        wall = time.perf_counter() - started
    return _run(suite, entry, config, limit, repeat, outcome, wall, peak)


def _run(suite: str, entry: Entry, config: Config, limit: float, repeat: int,
         outcome: Outcome, wall: float, peak: float | None) -> Run:
    wrong = wrong_answer(entry, outcome)
    if outcome.status == "error" and outcome.detail.startswith("VerificationError"):
        wrong = outcome.detail
    timed = None if outcome.status in ("error", "timeout", "n/a") else \
        (outcome.build_s or 0.0) + outcome.solve_s
    return Run(suite, entry.label, entry.task, config.label, repeat, outcome.status, timed,
               outcome.build_s, outcome.solve_s, wall, peak, outcome.variables,
               outcome.constraints, outcome.detail, wrong, limit, entry.anchor, entry.anchor_s)


def summarise(runs: list[Run]) -> list[Summary]:
    """Medians per (suite, puzzle, back end), in run order, with each back end's ratio to
    the fastest back end that decided the same puzzle."""
    groups: dict[tuple[str, str, str], list[Run]] = {}
    for r in runs:
        groups.setdefault((r.suite, r.puzzle, r.backend), []).append(r)
    out = []
    for rs in groups.values():
        first = rs[0]
        statuses = sorted({r.status for r in rs})
        out.append(Summary(
            first.suite, first.puzzle, first.task, first.backend, "/".join(statuses),
            _median([r.time_s for r in rs]), _median([r.build_s for r in rs]),
            _median([r.solve_s for r in rs]),
            max((r.peak_mb for r in rs if r.peak_mb is not None), default=None),
            first.variables, first.constraints, rs[-1].detail,
            next((r.wrong for r in rs if r.wrong), ""), None, first.time_limit, first.anchor,
            first.anchor_s))
    best: dict[tuple[str, str], float] = {}
    for s in out:
        if s.decided and s.time_s is not None:
            key = (s.suite, s.puzzle)
            best[key] = min(best.get(key, s.time_s), s.time_s)
    for s in out:
        fastest = best.get((s.suite, s.puzzle))
        if s.decided and s.time_s is not None and fastest is not None:
            s.ratio = s.time_s / max(fastest, 1e-6)
    return out


def _median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None
