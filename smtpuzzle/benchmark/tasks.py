"""The work one benchmark run times: one suite entry on one back end. Every answer is
verified by the task it calls (solutions, frames, nonogram grids, maze strings) before it
is measured, and checked here against the answer the suite expects."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from smtpuzzle.benchmark.suites import Entry
from smtpuzzle.library import load, load_frames, load_puzzle
from smtpuzzle.model import Model
from smtpuzzle.model.kinds import num_constraints
from smtpuzzle.result import Stats

UNDECIDED = ("unknown", "incomplete", "timeout", "error", "n/a")


@dataclass
class Outcome:
    status: str
    build_s: float | None
    solve_s: float
    variables: int | None = None
    constraints: int | None = None
    detail: str = ""
    answer: Any = None  # compared with the entry's ``expect``


def run_task(entry: Entry, backend: str, solver: str | None, time_limit: float) -> Outcome:
    return _TASKS[entry.task](entry, backend, solver, time_limit)


def wrong_answer(entry: Entry, outcome: Outcome) -> str:
    """Why ``outcome`` contradicts what the suite expects ("" when it does not)."""
    if entry.expect is None or outcome.status in UNDECIDED:
        return ""
    if entry.task == "count":
        complete = outcome.status == "complete"
        if (complete and outcome.answer != entry.expect) or outcome.answer > entry.expect:
            return f"counted {outcome.answer}, expected {entry.expect}"
        return ""
    if outcome.answer != entry.expect:
        return f"answered {outcome.answer}, expected {entry.expect}"
    return ""


def _sizes(stats: Stats | None) -> dict[str, Any]:
    if stats is None:
        return {}
    return {"variables": stats.variables, "constraints": stats.constraints}


def _neutral_sizes(model: Model) -> dict[str, Any]:
    return {"variables": model.num_vars + model.ints.count,
            "constraints": num_constraints(model)}


def _solve(entry: Entry, backend: str, solver: str | None, time_limit: float) -> Outcome:
    from smtpuzzle.backends import get_backend

    # A puzzle that is impossible on its face is kept: the back ends are measured refuting it.
    tiling = load(entry.target, precheck=False)
    t0 = time.perf_counter()
    model = tiling.build_model()
    model_s = time.perf_counter() - t0
    result = get_backend(backend, solver).solve(model, time_limit=time_limit)
    if result.values is not None:
        tiling.verify(tiling.decode(result.values))
    status = result.status.value
    return Outcome(status, model_s + result.stats.build_time, result.stats.solve_time,
                   answer=status, **_sizes(result.stats))


def _count(entry: Entry, backend: str, solver: str | None, time_limit: float) -> Outcome:
    from smtpuzzle.puzzles.tiling.counting import count

    r = count(load(entry.target, precheck=False), backend, solver,
              distinct=not entry.options.get("raw", False),
              workers=int(entry.options.get("workers", 1)), time_limit=time_limit)
    status = "complete" if r.complete else "incomplete"
    kind = "raw" if not r.distinct else "distinct"
    assert r.model is not None
    return Outcome(status, r.build_s, max(r.time_s - r.build_s, 0.0),
                   detail=f"{r.count} {kind}" + ("" if r.complete else " so far"),
                   answer=r.count, **_neutral_sizes(r.model))


def _frames(entry: Entry, backend: str, solver: str | None, time_limit: float) -> Outcome:
    from smtpuzzle.puzzles.frames.solve import FramesOptions, solve_frames

    frames = load_frames(entry.target)
    # The back end and solver under test answer stage 2; stage 1 lists the sets as usual.
    answer = solve_frames(frames, FramesOptions(stage2=backend, stage2_solver=solver,
                                                time_limit=time_limit, method="enumerate"))
    stage2 = answer.stage2
    build = stage2.get("build_s")
    solve = stage2.get("solve_s", stage2.get("time_s", answer.time_s))
    sets = answer.stage1.as_json()["sets"] if answer.stage1 else 0
    return Outcome(answer.status, build, solve, stage2.get("variables"),
                   stage2.get("constraints"), detail=f"{sets} sets, stage 2 {stage2.get('model')}",
                   answer=answer.status)


def _nonogram(entry: Entry, backend: str, solver: str | None, time_limit: float) -> Outcome:
    from smtpuzzle.puzzles.nonogram.puzzle import DEFAULT_ENCODING
    from smtpuzzle.puzzles.nonogram.solve import solve_nonogram

    puzzle = load_puzzle(entry.target)
    encoding = str(entry.options.get("encoding", DEFAULT_ENCODING))
    presolve = bool(entry.options.get("presolve", True))
    ans = solve_nonogram(puzzle, backend, solver, encoding=encoding, use_presolve=presolve,
                         time_limit=time_limit)
    st = ans.stats
    build = st.build_time if st else None
    solve = st.solve_time if st else ans.time_s
    detail = "presolve settled it" if st is None else f"{encoding}" + \
        ("" if presolve else ", no presolve")
    return Outcome(ans.status, build, solve, detail=detail, answer=ans.status, **_sizes(st))


def _maze(entry: Entry, backend: str, solver: str | None, time_limit: float) -> Outcome:
    from smtpuzzle.puzzles.maze.cases import reduced_cases
    from smtpuzzle.puzzles.maze.search import Encoder, search

    size = entry.options.get("size", 3)  # parsed when the suite was read
    # the maze's own strategy (mdd) runs in the table beside the solvers (the cegar strategy)
    r = search(entry.target, size, "mdd", time_limit=time_limit) if backend == "mdd" else \
        search(entry.target, size, "cegar", backend, solver, time_limit=time_limit)
    # the formula's size
    final = Encoder(r.searched, mirror=r.mirror).model(reduced_cases(size), r.added)
    return Outcome(r.status, r.time_s - r.solver_time_s, r.solver_time_s,
                   detail=f"{r.mazes_added} mazes added", answer=r.status,
                   **_neutral_sizes(final))


_TASKS = {"solve": _solve, "count": _count, "frames": _frames, "nonogram": _nonogram,
          "maze": _maze}
