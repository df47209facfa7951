"""Frames stages 2 and 3, and the whole two-stage solve.

Stage 2 chooses n of the stage-1 sets that are pairwise disjoint and use every piece, on
one of the neutral models of stage2.py (``cover``, ``index``, ``table``) or cube by cube
(cubes.py), by any back end.

Stage 3 lays out each chosen set in its frame (a tiling solve) and the whole answer is
verified before anyone sees it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from smtpuzzle.backends import Backend, get_backend
from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.frames.cubes import CubesProgress, solve_cubes
from smtpuzzle.puzzles.frames.dive import DiveProgress, DiveResult, solve_dive
from smtpuzzle.puzzles.frames.lazy import LazyProgress, LazyResult, solve_lazy
from smtpuzzle.puzzles.frames.puzzle import METHODS, STAGE2_BACKENDS, Frames, FramesSolution
from smtpuzzle.puzzles.frames.sets import (
    SetList,
    Stage1Progress,
    enumerate_sets,
    load_cached,
    piece_without_frame,
)
from smtpuzzle.puzzles.frames.stage2 import (
    cover_model,
    decode_cover,
    decode_index,
    decode_seed,
    decode_table,
    index_model,
    seed_model,
    table_model,
)
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.checks import MAX_SEED, checked_limit, checked_time_limit, checked_whole

STAGE2_MODELS = ("cover", "index", "table", "seed", "cubes")
DEFAULT_MODEL = {"exact-cover": "cover", "sat": "cover", "cpsat": "cubes", "z3": "index"}


_NO_JSON = {"json": False}


@dataclass
class FramesAnswer(Answer):
    """A frames puzzle answered, with what each stage did; solutions verified."""

    status: Status  # sat | unsat | unknown
    solutions: list[FramesSolution] = field(metadata=_NO_JSON)
    stage1: SetList | None = field(metadata=_NO_JSON)
    stage2: dict[str, Any] = field(default_factory=dict)
    stage3: dict[str, Any] = field(default_factory=dict)
    hole: tuple[int, ...] | None = field(default=None, metadata={"omit": None})
    complete: bool = False  # every stage-2 solution was listed (for --all)
    # when sets were checked as proposed, not listed; when sampled and chosen by LP dives
    lazy: LazyResult | None = field(default=None, metadata=_NO_JSON)
    dive: DiveResult | None = field(default=None, metadata=_NO_JSON)
    time_s: float = 0.0
    # by Ctrl-C or a worker that died (JSON: worker_lost says the latter)
    interrupted: bool = field(default=False, metadata=_NO_JSON)
    # a worker died: what happened to it
    lost: str = field(default="", metadata={"key": "worker_lost", "omit": ""})
    note: str = field(default="", metadata={"omit": ""})
    puzzle: Frames | None = field(default=None, repr=False, compare=False, metadata=_NO_JSON)
    # the answers are all of the first hole place that has any; this many were not tried
    untried_places: int = field(default=0, metadata=_NO_JSON)
    stats: Stats | None = field(default=None, metadata=_NO_JSON)
    json_keys = ("status", "frames", "stage1", "stage2", "stage3", "decided", "complete",
                 "answers", "verified", "time_s", "hole", "solutions", "worker_lost", "note",
                 "interrupted")

    def _repr_svg_(self) -> str | None:
        """The frames of each answer side by side (in a notebook)."""
        if self.puzzle is None or not self.solutions:
            return None
        from smtpuzzle.puzzles.tiling.drawing import frames_drawing
        from smtpuzzle.render.pictures import svg_text

        p = self.puzzle.with_hole(self.hole) if self.hole is not None else self.puzzle
        return svg_text(frames_drawing(p.frame, self.puzzle.pieces,
                                       [s.frames for s in self.solutions]))

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    def json_extra(self) -> dict[str, Any]:
        stage1 = self.lazy or self.dive or self.stage1
        extra: dict[str, Any] = {
            "frames": self.solutions[0].as_json()["frames"] if self.solutions else [],
            "stage1": stage1.as_json() if stage1 else None,
            # decided: an answer found or none proved; complete: every answer listed (a
            # single answer asked for is decided, not complete); every answer listed passed
            # Frames.verify in stage 3, or it would not be here
            "decided": self.status is not Status.UNKNOWN,
            "answers": len(self.solutions), "verified": bool(self.solutions)}
        if len(self.solutions) > 1:
            extra["solutions"] = [s.as_json()["frames"] for s in self.solutions]
        if self.interrupted and not self.lost:  # (a worker that died stops it too)
            extra["interrupted"] = True
        return extra


def lay_out(frames: Frames, sets: np.ndarray, chosen: list[int], backend: str = "exact-cover",
            solver: str | None = None) -> FramesSolution:
    """Stage 3: a tiling of each chosen set in its frame."""
    engine = get_backend(backend, solver)
    out = []
    for i in chosen:
        tiling = frames.frame_tiling(sets[i])
        result = engine.solve(tiling.build_model())
        if result.status is not Status.SAT:
            names = " ".join(p.name for p in tiling.pieces)
            raise PuzzleError(f"stage 3: {backend} did not lay out the set {names} "
                              f"({result.status.value})")
        out.append(tiling.decode(result.values))
    return FramesSolution(out)


AUTO_MAX_SETS = 1_000_000  # "auto" lists this many sets at most, then turns lazy


@dataclass
class FramesOptions:
    """How to solve a frames puzzle: the back ends and model of each stage, the method."""

    backend: str = "exact-cover"  # stages 1 (listing) and 3 (layout)
    solver: str | None = None
    stage2: str = "exact-cover"
    # The stage-2 back end's solver (a PySAT solver, a z3 kind); ``solver`` is stages 1
    # and 3's. None: ``solver`` when both stages run on one back end, else the default.
    stage2_solver: str | None = None
    stage2_model: str | None = None  # cover | index | table; None: the back end's default
    limit: int | None = 1  # stage-2 answers wanted (None: all)
    workers: int = 1
    time_limit: float | None = None
    hole: tuple[int, ...] | None = None  # fix the hole of a hole-search puzzle
    method: str = "auto"  # enumerate: list every set; lazy: check proposed sets; auto: both
    max_sets: int | None = None
    cache: bool = True
    ray: str | None = None  # stage 1 on a Ray cluster: an address, auto or local
    seed: int = 0  # the dive method's random choices

    def check(self) -> None:
        if self.stage2 not in STAGE2_BACKENDS:
            raise PuzzleError(f"`stage2` must be one of {', '.join(STAGE2_BACKENDS)}")
        if self.model_kind not in STAGE2_MODELS:
            raise PuzzleError(f"`stage2_model` must be one of {', '.join(STAGE2_MODELS)}, "
                              f"not {self.model_kind!r}")
        if self.model_kind not in ("cover", "cubes") and \
                not get_backend(self.stage2).capabilities.any_constraint:
            raise PuzzleError(f"the {self.model_kind} model has integers: exact cover takes the "
                              "cover model")
        if self.method not in METHODS:
            raise PuzzleError(f"`method` must be one of {', '.join(METHODS)}")
        if self.ray and get_backend(self.backend, self.solver).capabilities.any_constraint:
            raise PuzzleError("`ray` shares out stage 1 of the exact-cover back end only")
        get_backend(self.backend, self.solver)  # bad names fail before any work
        get_backend(self.stage2, self.stage2_solver_name)

    @property
    def stage2_solver_name(self) -> str | None:
        if self.stage2_solver is not None:
            return self.stage2_solver
        return self.solver if self.stage2 == self.backend else None

    @property
    def model_kind(self) -> str:
        return self.stage2_model or DEFAULT_MODEL.get(self.stage2, "cover")


@dataclass
class _Hooks:
    progress: Stage1Progress | None = None
    lazy_progress: LazyProgress | None = None
    dive_progress: DiveProgress | None = None
    note: Callable[[str], None] | None = None
    cubes_progress: CubesProgress | None = None

    def say(self, text: str) -> None:
        if self.note:
            self.note(text)


def solve_frames(frames: Frames, options: FramesOptions | None = None, *,
                 progress: Stage1Progress | None = None,
                 lazy_progress: LazyProgress | None = None,
                 dive_progress: DiveProgress | None = None,
                 note: Callable[[str], None] | None = None,
                 cubes_progress: CubesProgress | None = None, **settings: Any) -> FramesAnswer:
    """The two-stage solve: list the sets that fill one frame, choose n disjoint ones that
    use every piece, lay each out. When the sets are too many to list (method "auto" past
    AUTO_MAX_SETS, or "lazy"), proposed sets are checked instead (lazy.py). With a hole
    to place, each place (one per symmetry class) is tried in turn. ``settings`` are
    :class:`FramesOptions` fields, taken over ``options``'s where both are given."""
    if not isinstance(frames, Frames):
        raise TypeError(f"solve_frames takes a Frames, got {type(frames).__name__}")
    if options is not None and not isinstance(options, FramesOptions):
        raise TypeError(f"options is a FramesOptions, not {type(options).__name__}")
    opts = replace(options, **settings) if options else FramesOptions(**settings)
    opts.check()
    opts = replace(opts, limit=checked_limit(opts.limit, 1),
                   time_limit=checked_time_limit(opts.time_limit),
                   workers=checked_whole(opts.workers, "workers", 1),
                   seed=checked_whole(opts.seed, "seed", 0, MAX_SEED))
    if opts.method == "auto" and frames.method != "auto":
        opts = replace(opts, method=frames.method)
    hooks = _Hooks(progress, lazy_progress, dive_progress, note, cubes_progress)
    started = time.monotonic()
    deadline = None if opts.time_limit is None else started + opts.time_limit
    if frames.hole_search:
        places = [opts.hole] if opts.hole is not None else frames.hole_places()
    else:
        if opts.hole is not None:
            raise PuzzleError(f"{frames.name} has no hole to place (`hole`)")
        places = [None]
    answer = FramesAnswer("unsat", [], None)
    all_complete = True
    for k, place in enumerate(places):
        puzzle = frames.with_hole(place) if place is not None else frames
        if place is not None:
            hooks.say(f"hole at {list(place)}")
        left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        answer = _solve_one(puzzle, opts, left, hooks)
        answer.hole = place
        if answer.solutions and k + 1 < len(places):
            # The answers listed are this place's: the places after it were not tried.
            if answer.complete:
                answer.untried_places = len(places) - k - 1
            answer.complete = False
            answer.note = (f"answers with the hole at {list(place)}, the first place that has "
                           f"any; {len(places) - k - 1} more places were not tried (`hole` "
                           "lists another's)")
        if answer.solutions or answer.interrupted:
            break
        if answer.status == "unknown":
            all_complete = False
        if deadline is not None and time.monotonic() > deadline:
            all_complete = False
            break
    if not answer.solutions:
        answer.status = Status.UNSAT if all_complete and answer.status is Status.UNSAT \
            else Status.UNKNOWN
    answer.time_s = time.monotonic() - started
    answer.puzzle = frames
    return answer


def _solve_one(frames: Frames, opts: FramesOptions, time_limit: float | None,
               hooks: _Hooks) -> FramesAnswer:
    started = time.monotonic()
    # A cached list is complete, so the check below it would only repeat what it shows.
    sets = load_cached(frames) if opts.cache and opts.method in ("auto", "enumerate") else None
    if sets is None:
        lost = piece_without_frame(
            frames, deadline=None if time_limit is None else started + time_limit)
        if lost is not None:
            answer = FramesAnswer("unsat", [], None, complete=True)
            answer.note = _no_frame_for(lost)
            return answer
    # What the check above left of the limit.
    left = None if time_limit is None else max(time_limit - (time.monotonic() - started), 0.001)
    if opts.method == "lazy":
        return _solve_lazy(frames, opts, left, hooks, None)
    if opts.method == "dive":
        return _solve_dive(frames, opts, left, hooks)
    cap = opts.max_sets if opts.method == "enumerate" else (opts.max_sets or AUTO_MAX_SETS)
    if sets is None:
        sets = enumerate_sets(frames, opts.workers, left, cap, hooks.progress,
                              opts.cache, opts.backend, opts.solver, opts.ray)
    if sets.too_many and opts.method == "auto":
        hooks.say(f"more than {cap:,} sets: checking proposed sets instead")
        left = None if time_limit is None else max(time_limit - (time.monotonic() - started), 0)
        return _solve_lazy(frames, opts, left, hooks, sets)
    answer = FramesAnswer("unknown", [], sets, interrupted=sets.stopped == "interrupted",
                          lost=sets.lost)
    if answer.interrupted:
        return answer
    missing = np.flatnonzero(~sets.sets.any(axis=0)) if len(sets.sets) else np.arange(
        len(frames.pieces))
    if sets.complete and len(missing):
        answer.status = Status.UNSAT
        answer.note = _no_frame_for(frames.pieces[int(missing[0])].name)
        answer.complete = True
        return answer
    model_kind = opts.model_kind
    left = None if time_limit is None else max(time_limit - (time.monotonic() - started), 0.0)
    if left is not None and left <= 0.0:  # building stage 2's model alone would overrun
        answer.note = ("the time limit came before stage 2 began" if sets.cached else
                       "the time limit came during stage 1; stage 2 was not begun")
        return answer
    hooks.say(f"stage 2: {len(sets.sets)} sets, {opts.stage2} on the {model_kind} model")
    if model_kind == "cubes":
        return _solve_cubes(frames, opts, left, hooks, answer)
    t0 = time.monotonic()
    if model_kind == "table":
        model, inside = table_model(frames, sets.sets)
    elif model_kind == "seed":
        model, inside = seed_model(frames, sets.sets)
    else:
        model = (cover_model if model_kind == "cover" else index_model)(frames, sets.sets)
    engine = get_backend(opts.stage2, opts.stage2_solver_name)
    enum = engine.solutions(model, limit=opts.limit, time_limit=left)
    chosen_sets: list[list[int]] = []
    stats = enum.stats
    try:
        for result in enum:
            if model_kind in ("table", "seed"):
                model.take(result)
                value = np.asarray(inside.value())
                chosen_sets.append(decode_table(sets.sets, value) if model_kind == "table"
                                   else decode_seed(sets.sets, value, frames.n))
            elif model_kind == "cover":
                chosen_sets.append(decode_cover(result.values))
            else:
                chosen_sets.append(decode_index(frames, sets.sets, result.values))
    except KeyboardInterrupt:
        answer.interrupted = True
    answer.stage2 = {"backend": engine.label(), "model": model_kind,
                     "time_s": round(time.monotonic() - t0, 3),
                     "build_s": round(stats.build_time, 3), "solve_s": round(stats.solve_time, 3),
                     # None: Ctrl-C or the time limit came before the model was built
                     "variables": stats.variables or None,
                     "constraints": stats.constraints or None, "solutions": len(chosen_sets)}
    if "stopped" in stats.extra:  # the model was not built, or not to its end
        answer.note = stats.extra["stopped"]
    _stage3(frames, opts, answer, sets.sets, chosen_sets)
    answer.complete = enum.complete and sets.complete
    if answer.solutions:
        answer.status = Status.SAT
    elif enum.complete and sets.complete:
        answer.status = Status.UNSAT
    return answer


def _solve_cubes(frames: Frames, opts: FramesOptions, time_limit: float | None, hooks: _Hooks,
                 answer: FramesAnswer) -> FramesAnswer:
    assert answer.stage1 is not None
    sets = answer.stage1.sets
    result = solve_cubes(sets, opts.stage2, opts.limit, time_limit, opts.workers,
                         progress=hooks.cubes_progress)
    answer.interrupted, answer.lost = result.interrupted, result.lost
    answer.stage2 = {"backend": get_backend(opts.stage2).label(),
                     "model": "cubes", "time_s": round(result.time_s, 3),
                     "variables": len(sets), "solutions": len(result.answers),
                     **result.as_json()}
    _stage3(frames, opts, answer, sets, result.answers)
    answer.complete = result.complete and answer.stage1.complete
    answer.status = Status.SAT if answer.solutions else (
        Status.UNSAT if answer.complete else Status.UNKNOWN)
    return answer


def _no_frame_for(piece: str) -> str:
    return f"piece {piece} is in no set that fills a frame"


def _one_answer_only(opts: FramesOptions, method: str) -> None:
    if opts.limit != 1:
        raise PuzzleError(f"the {method} method finds one answer: leave out `limit` "
                          "(or use `method=enumerate`)")


def _stage3(frames: Frames, opts: FramesOptions, answer: FramesAnswer, sets: np.ndarray,
            chosen_sets: list[list[int]]) -> None:
    """Stage 3: each answer's chosen sets laid out, verified and added to ``answer``."""
    t0 = time.monotonic()
    for chosen in chosen_sets:
        solution = lay_out(frames, sets, sorted(chosen), opts.backend, opts.solver)
        frames.verify(solution)
        answer.solutions.append(solution)
    answer.stage3 = {"backend": opts.backend, "time_s": round(time.monotonic() - t0, 3)}


def _lay_out_found(frames: Frames, opts: FramesOptions, answer: FramesAnswer,
                   sets: np.ndarray | None) -> None:
    """Stage 3 for the one answer a lazy or dive search found (when it found one)."""
    if sets is not None:
        _stage3(frames, opts, answer, sets, [list(range(len(sets)))])


def _solve_lazy(frames: Frames, opts: FramesOptions, time_limit: float | None, hooks: _Hooks,
                listed: SetList | None) -> FramesAnswer:
    _one_answer_only(opts, "lazy")
    engine = _lazy_engine(opts)
    lazy = solve_lazy(frames, engine, time_limit, hooks.lazy_progress)
    answer = FramesAnswer(lazy.status, [], listed, lazy=lazy)
    answer.stage2 = {"backend": f"{engine.label()} (lazy)",
                     "model": "assignment", "time_s": round(lazy.time_s, 3),
                     "proposals": lazy.proposals}
    _lay_out_found(frames, opts, answer, lazy.sets)
    answer.complete = lazy.status == "unsat"
    return answer


def _lazy_engine(opts: FramesOptions) -> Backend:
    """The stage-2 back end proposes sets when it takes clauses and keeps what it learnt
    between proposals (sat, z3); otherwise (exact cover, cpsat) the sat back end does."""
    engine = get_backend(opts.stage2, opts.stage2_solver_name)
    caps = engine.capabilities
    if caps.any_constraint and caps.incremental:
        return engine
    return get_backend("sat", opts.solver if opts.backend == "sat" else None)


def _solve_dive(frames: Frames, opts: FramesOptions, time_limit: float | None,
                hooks: _Hooks) -> FramesAnswer:
    _one_answer_only(opts, "dive")
    dive = solve_dive(frames, time_limit, opts.seed, hooks.dive_progress, hooks.note)
    answer = FramesAnswer(dive.status, [], None, dive=dive, interrupted=dive.interrupted)
    answer.stage2 = {"backend": "lp-dive (scipy highs, exact cover to finish)",
                     "model": "set partitioning LP", "time_s": round(dive.time_s, 3),
                     "dives": dive.dives, "lps": dive.lps}
    _lay_out_found(frames, opts, answer, dive.sets)
    answer.complete = dive.status == "unsat"
    return answer
