"""Counting and listing solutions, raw or distinct up to the puzzle's symmetries.

Symmetry is broken inside the model: one piece, mapped to itself by every symmetry, is
restricted to one placement per orbit. Each kept placement is a sub-problem (that placement
forced, the piece's others forbidden) that any back end can solve, and the sub-problems are
what ``workers`` share out. A kept placement that some symmetries fix (its stabilizer) can
still see one class several times, so that sub-problem lists its solutions and counts their
canonical forms under the stabilizer.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from smtpuzzle.backends import get_backend
from smtpuzzle.backends.base import Backend
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Model
from smtpuzzle.puzzles.tiling.puzzle import Tiling
from smtpuzzle.result import Enumeration, Result, Stats
from smtpuzzle.taskpool import Tasks, TaskTimeout, task_pool


@dataclass
class SubProblem:
    forced: np.ndarray  # user-variable indices forced true
    forbidden: np.ndarray  # user-variable indices forced false
    stabilizer: np.ndarray | None  # placement permutations to de-duplicate under


@dataclass
class CountPlan:
    distinct: bool
    group: str  # the symmetry group, in words
    up_to: str  # which group: "board", "rotations", or "none" (raw)
    group_size: int
    piece: str | None  # the piece whose placements split the search
    subproblems: list[SubProblem]


@dataclass
class CountResult:
    count: int
    complete: bool
    distinct: bool
    group: str
    backend: str
    time_s: float
    subproblems_done: int
    subproblems: int
    build_s: float = 0.0  # building the model, part of time_s
    model: Model | None = field(default=None, repr=False)  # the model counted over
    resumed: int = 0  # sub-problems whose counts came from a checkpoint
    checkpoint_time_s: float = 0.0  # time the runs before this one spent, from a checkpoint
    up_to: str = "board"  # which group: "board", "rotations", or "none" (raw)
    ray_nodes: int = 0  # on Ray: the nodes that returned results
    ray_reruns: int = 0  # on Ray: tasks run again because their node or worker was lost

    def as_json(self) -> dict:
        return {"count": self.count, "distinct": self.distinct, "complete": self.complete,
                "backend": self.backend, "time_s": round(self.time_s, 4), "group": self.group,
                "up_to": self.up_to,
                "subproblems": self.subproblems, "subproblems_done": self.subproblems_done,
                **({"resumed": self.resumed,
                    "total_time_s": round(self.time_s + self.checkpoint_time_s, 1)}
                   if self.resumed else {}),
                **({"ray": {"nodes": self.ray_nodes, "reruns": self.ray_reruns}}
                   if self.ray_nodes else {})}


def plan(tiling: Tiling, distinct: bool, split: bool = True, group: str = "board") -> CountPlan:
    """Choose the splitting piece and the sub-problems (``split``: finer, for workers);
    ``distinct``: up to ``group`` (see Tiling.symmetries)."""
    up_to = group if distinct else "none"
    if distinct:
        perms = np.stack([p for _, p in tiling.symmetries(group)])
        group = tiling.symmetry_description(group)
    else:
        perms, group = np.arange(tiling.num_placements)[None, :], "none (raw count)"
    best = None
    for k, piece in enumerate(tiling.pieces):
        s, e = tiling.placement_range(k)
        if piece.at_most or piece.count != 1 or e == s:
            continue
        if distinct:
            img = perms[:, s:e]
            if (img < s).any() or (img >= e).any():
                continue  # some symmetry turns this piece into another
            reps = img.min(axis=0)
            kept = np.unique(reps)
            fixed = int(sum((perms[:, r] == r).sum() > 1 for r in kept))
        else:
            kept, fixed = np.arange(s, e), 0
        score = (-(e - s) / len(kept), fixed, len(kept))
        if best is None or score < best[0]:
            best = (score, k, kept, s, e)
    if best is None:  # no piece to split on: list everything, de-duplicate under the group
        stab = perms if distinct and len(perms) > 1 else None
        empty = np.zeros(0, dtype=np.int64)
        return CountPlan(distinct, group, up_to, len(perms), None,
                         [SubProblem(empty, empty, stab)])
    _, k, kept, s, e = best
    subs = []
    for r in kept.tolist():
        others = np.setdiff1d(np.arange(s, e), [r])
        stab = perms[perms[:, r] == r] if distinct else None
        sp = SubProblem(np.array([r]), others, stab if stab is not None and len(stab) > 1
                        else None)
        subs.extend(_refine(tiling, sp) if split else [sp])
    return CountPlan(distinct, group, up_to, len(perms), tiling.pieces[k].name, subs)


def _refine(tiling: Tiling, sp: SubProblem) -> list[SubProblem]:
    """Split a sub-problem by its first uncovered cell (in sweep order): one part per
    placement that covers it, and, where cells may stay empty, one where none does. That is
    an exact partition. Sub-problems that de-duplicate under a stabilizer stay whole (a class
    may span the parts)."""
    if sp.stabilizer is not None:
        return [sp]
    cells = tiling.placement_cells()
    taken = np.zeros(tiling.board.num_cells, dtype=bool)
    for r in sp.forced.tolist():
        taken[cells[r]] = True
    order = tiling.sweep_order()
    free = order[~taken[order]]
    if not len(free):
        return [sp]
    covering = tiling.placements_covering(free[0])
    banned = np.zeros(tiling.num_placements, dtype=bool)
    banned[sp.forbidden] = True
    parts = []
    for q in covering.tolist():
        if banned[q] or taken[cells[q]].any():
            continue
        parts.append(SubProblem(np.append(sp.forced, q), sp.forbidden, None))
    if tiling.cover != "exact":
        parts.append(SubProblem(sp.forced, np.union1d(sp.forbidden, covering), None))
    return parts


def submodel(model: Model, sp: SubProblem) -> Model:
    user = model.user_vars
    return model.with_units(np.concatenate([-user[sp.forbidden], user[sp.forced]]))


def canonical_key(rows: np.ndarray, stabilizer: np.ndarray) -> bytes:
    return min(np.sort(p[rows]).tobytes() for p in stabilizer)


def _distinct_stream(model: Model, sp: SubProblem, backend: Backend,
                     time_left: float | None) -> tuple[Iterator[Result], Enumeration]:
    """The sub-problem's solutions, one per class under its stabilizer (if any)."""
    enum = backend.solutions(submodel(model, sp), time_limit=time_left)

    def stream() -> Iterator[Result]:
        seen: set[bytes] = set()
        for r in enum:
            if sp.stabilizer is not None:
                key = canonical_key(np.flatnonzero(r.values), sp.stabilizer)
                if key in seen:
                    continue
                seen.add(key)
            yield r

    return stream(), enum


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.monotonic(), 0.0)


def solve_subproblem(model: Model, sp: SubProblem, backend: Backend, deadline: float | None,
                     progress: Callable[[int], None] | None = None) -> tuple[int, bool]:
    """Solutions of one sub-problem (distinct under its stabilizer): (count, complete)."""
    if sp.stabilizer is None:
        count, complete, _ = backend.count(submodel(model, sp), _left(deadline), progress)
        return count, complete
    stream, enum = _distinct_stream(model, sp, backend, _left(deadline))
    n = 0
    for _ in stream:
        n += 1
        if progress:
            progress(n)
    return n, enum.complete


def iter_distinct(model: Model, count_plan: CountPlan, backend: Backend,
                  time_limit: float | None = None) -> Enumeration:
    """One solution per class (per the plan's symmetry); ``complete`` once every
    sub-problem has been searched to the end."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    enum = Enumeration(iter(()), Stats(backend.label()))

    def gen() -> Iterator[Result]:
        for sp in count_plan.subproblems:
            stream, sub = _distinct_stream(model, sp, backend, _left(deadline))
            yield from stream
            if not sub.complete:
                return
        enum.complete = True

    enum._gen = gen()
    return enum


ProgressFn = Callable[[int, int, int], None]  # (solutions so far, sub-problems done, total)

_ENGINES: dict[tuple[str, str | None], Backend] = {}  # per worker process, kept across tasks


def _work(job: tuple, i: int, deadline: float | None) -> tuple[int, int, bool]:
    model, count_plan, name, solver = job
    if (name, solver) not in _ENGINES:
        _ENGINES[name, solver] = get_backend(name, solver)
    return (i, *solve_subproblem(model, count_plan.subproblems[i], _ENGINES[name, solver],
                                 deadline))


class Checkpoint:
    """The counts of finished sub-problems, kept in a JSON file so that a long count can be
    stopped and resumed (in another process, with any number of workers). The file names the
    plan it belongs to by a digest of its sub-problems; another plan's file is refused."""

    def __init__(self, path: Path, name: str, count_plan: CountPlan) -> None:
        self.path, self.name = path, name
        digest = hashlib.sha256(repr((count_plan.distinct, count_plan.group)).encode())
        for sp in count_plan.subproblems:
            for a in (sp.forced, sp.forbidden, sp.stabilizer):
                digest.update(b"|" if a is None else np.ascontiguousarray(a, np.int64).data)
        self.plan_digest = digest.hexdigest()[:32]
        self.size = len(count_plan.subproblems)
        self.counts: dict[int, int] = {}
        self.time_s = 0.0  # searching, summed over earlier runs
        if path.exists():
            self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text())
            counts = {int(i): int(n) for i, n in data["done"].items()}
            digest, time_s = data["plan"], float(data["time_s"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise PuzzleError(f"{self.path}: not a count checkpoint ({e})") from None
        if digest != self.plan_digest:
            raise PuzzleError(f"{self.path}: a checkpoint of another count "
                              f"({data.get('model', '?')}, {data.get('subproblems', '?')} "
                              "sub-problems); give a new file")
        if any(not 0 <= i < self.size for i in counts):
            raise PuzzleError(f"{self.path}: sub-problem numbers out of range")
        self.counts, self.time_s = counts, time_s

    def record(self, i: int, n: int, run_s: float) -> None:
        self.counts[i] = n
        self.save(run_s)

    def save(self, run_s: float) -> None:
        data = {"model": self.name, "plan": self.plan_digest, "subproblems": self.size,
                "time_s": self.time_s + run_s,
                "count_so_far": sum(self.counts.values()), "done": self.counts}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=0))
        os.replace(tmp, self.path)  # a stop mid-write leaves the old file whole


def count(tiling: Tiling, backend: str = "exact-cover", solver: str | None = None,
          distinct: bool = True, workers: int = 1, time_limit: float | None = None,
          progress: ProgressFn | None = None, ray: str | None = None,
          checkpoint: Path | None = None, group: str = "board") -> CountResult:
    """Count the solutions of ``tiling`` (``distinct``: up to ``group``, see
    Tiling.symmetries); stops at the time limit or on Ctrl-C and then
    returns what it has, marked incomplete. ``workers`` > 1 shares the sub-problems out to
    forked processes; ``ray`` (an address, ``auto`` or ``local``) to a Ray cluster.
    ``checkpoint``: a file recording each finished sub-problem; the sub-problems it already
    holds are not searched again."""
    engine = get_backend(backend, solver)
    tiling.check_memory(engine.name)
    started = time.monotonic()
    model = tiling.build_model()
    build_s = time.monotonic() - started
    count_plan = plan(tiling, distinct, split=workers > 1 or bool(ray) or bool(checkpoint),
                      group=group)
    subs = count_plan.subproblems
    saved = Checkpoint(checkpoint, tiling.name, count_plan) if checkpoint else None
    todo = [i for i in range(len(subs)) if saved is None or i not in saved.counts]
    resumed = len(subs) - len(todo)
    deadline = None if time_limit is None else started + time_limit
    total = sum(saved.counts.values()) if saved else 0
    done, complete = resumed, False
    partial = 0  # solutions found so far in the sub-problem under way (one worker)
    ray_nodes = ray_reruns = 0

    def report(found: int = 0) -> None:
        nonlocal partial
        partial = found
        if progress:
            progress(total + found, done, len(subs))

    def serial() -> Iterator[tuple[int, int, bool]]:
        for i in todo:
            yield (i, *solve_subproblem(model, subs[i], engine, deadline, progress=report))

    def parallel(tasks: Tasks) -> Iterator[tuple[int, int, bool]]:
        results = tasks.map(todo, deadline)
        for _ in todo:
            try:
                yield results.next(timeout=_left(deadline))
            except TaskTimeout:
                return

    try:
        job = (model, count_plan, backend, solver)
        with (task_pool(_work, job, workers, ray) if workers > 1 or ray else nullcontext()
              ) as tasks:
            report()
            for i, n, ok in parallel(tasks) if tasks is not None else serial():
                partial = 0
                total += n
                if not ok:
                    break
                done += 1
                if saved:
                    saved.record(i, n, time.monotonic() - started)
                report()
            if ray:
                ray_nodes, ray_reruns = len(tasks.nodes), tasks.reruns
        complete = done == len(subs)
    except KeyboardInterrupt:
        complete = False
        total += partial  # solutions of the interrupted sub-problem, each found and counted
    elapsed = time.monotonic() - started
    if saved:
        saved.save(elapsed)
    return CountResult(total, complete, distinct, count_plan.group, engine.label(), elapsed,
                       done, len(subs), build_s, model=model, resumed=resumed,
                       checkpoint_time_s=saved.time_s if saved else 0.0,
                       up_to=count_plan.up_to, ray_nodes=ray_nodes, ray_reruns=ray_reruns)
