"""Counting and listing solutions, raw or distinct up to the puzzle's symmetries.

Symmetry is broken inside the model: one piece, mapped to itself by every symmetry, is
restricted to one placement per orbit. Each kept placement is a sub-problem (that placement
forced, the piece's others forbidden) that any back end can solve, and the sub-problems are
what ``workers`` share out. A kept placement that some symmetries fix (its stabilizer) can
still see one class several times, so that sub-problem lists its solutions and counts their
canonical forms under the stabilizer.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import time
import zipfile
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.backends import Backend, PartialCount, get_backend
from smtpuzzle.errors import ProcessDied, PuzzleError
from smtpuzzle.model import Model
from smtpuzzle.puzzles.tiling.puzzle import Tiling, require_tiling
from smtpuzzle.puzzles.tiling.solve import canonical_key, engine_for
from smtpuzzle.result import Answer, Enumeration, Result, Stats, Status
from smtpuzzle.runtime.checks import checked_time_limit, checked_whole
from smtpuzzle.runtime.files import read_text, writable, write_whole
from smtpuzzle.runtime.taskpool import TaskTimeout, stop_asked, task_pool


@dataclass
class SubProblem:
    forced: np.ndarray  # user-variable indices forced true
    forbidden: np.ndarray  # user-variable indices forced false
    stabilizer: np.ndarray | None  # placement permutations to de-duplicate under
    weight: int = 1  # solutions each one found stands for (raw counts by orbits)


@dataclass
class CountPlan:
    distinct: bool
    group: str  # the symmetry group, in words
    up_to: str  # which group: "board", "rotations", or "none" (raw)
    group_size: int
    piece: str | None  # the piece whose placements split the search
    subproblems: list[SubProblem]


_NO_JSON = {"json": False}


@dataclass
class CountResult(Answer):
    """A count of a tiling's solutions: exact when ``complete``, else what was found. Status
    sat when it found any, unsat when the search ended with none, else unknown."""

    count: int
    complete: bool
    distinct: bool
    group: str
    backend: str
    time_s: float
    subproblems_done: int
    subproblems: int
    build_s: float = field(default=0.0, metadata=_NO_JSON)  # building the model, in time_s
    # the model counted over
    model: Model | None = field(default=None, repr=False, metadata=_NO_JSON)
    # sub-problems whose counts came from a checkpoint
    resumed: int = field(default=0, metadata={"omit": 0})
    # time the runs before this one spent, from a checkpoint
    checkpoint_time_s: float = field(default=0.0, metadata=_NO_JSON)
    up_to: str = "board"  # which group: "board", "rotations", or "none" (raw)
    # on Ray: the nodes that returned results, and tasks run again because their node or
    # worker was lost
    ray_nodes: int = field(default=0, metadata=_NO_JSON)
    ray_reruns: int = field(default=0, metadata=_NO_JSON)
    # estimated share of the search done (1 when complete)
    share: float = field(default=1.0, metadata=_NO_JSON)
    # a worker died: what happened to it (the count stopped short)
    lost: str = field(default="", metadata={"key": "worker_lost", "omit": ""})
    interrupted: bool = field(default=False, metadata={"omit": False})  # Ctrl-C stopped it
    stats: Stats | None = field(default=None, metadata=_NO_JSON)
    status: Status = field(default=Status.UNKNOWN, metadata=_NO_JSON)
    json_keys = ("count", "distinct", "complete", "backend", "time_s", "group", "up_to",
                 "subproblems", "subproblems_done", "resumed", "total_time_s", "ray",
                 "estimated_share_done", "worker_lost", "interrupted")

    def __post_init__(self) -> None:
        if self.status is Status.UNKNOWN:
            self.status = Status.SAT if self.count else \
                Status.UNSAT if self.complete else Status.UNKNOWN
        super().__post_init__()

    def json_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.resumed:
            extra["total_time_s"] = round(self.time_s + self.checkpoint_time_s, 1)
        if self.ray_nodes:
            extra["ray"] = {"nodes": self.ray_nodes, "reruns": self.ray_reruns}
        if not self.complete:
            extra["estimated_share_done"] = round(self.share, 4)
        return extra


def plan(tiling: Tiling, distinct: bool, split: bool = True, group: str = "board",
         orbits: bool = False) -> CountPlan:
    """Choose the splitting piece and the sub-problems (``split``: finer, for workers);
    ``distinct``: up to ``group`` (see Tiling.symmetries).

    ``orbits`` (raw counts only): the board's symmetries map the solutions with the splitting
    piece at placement r one to one onto those with it at any image of r, so only one
    placement per orbit is searched, and its count weighs as many as the orbit has
    placements. The sub-problems then count solutions, not classes, and the raw count takes
    about as long as the distinct one. Without ``orbits`` every placement is searched, as a
    listing of raw solutions needs."""
    up_to = group if distinct else "none"
    if distinct or orbits:
        perms = np.stack([p for _, p in tiling.symmetries(group if distinct else "board")])
    else:
        perms = np.arange(tiling.num_placements)[None, :]
    described = tiling.symmetry_description(group) if distinct else "none (raw count)"
    best = None
    for k, piece in enumerate(tiling.pieces):
        s, e = tiling.placement_range(k)
        if piece.at_most or piece.count != 1 or e == s:
            continue
        img = perms[:, s:e]
        if (img < s).any() or (img >= e).any():
            continue  # some symmetry turns this piece into another
        kept = np.unique(img.min(axis=0))
        fixed = int(sum((perms[:, r] == r).sum() > 1 for r in kept)) if distinct else 0
        score = (-(e - s) / len(kept), fixed, len(kept))
        if best is None or score < best[0]:
            best = (score, k, kept, s, e)
    if best is None and orbits and not distinct and len(perms) > 1:
        return plan(tiling, distinct, split, group)  # no piece to weigh by: every placement
    if best is None:  # no piece to split on: list everything, de-duplicate under the group
        stab = perms if distinct and len(perms) > 1 else None
        empty = np.zeros(0, dtype=np.int64)
        return CountPlan(distinct, described, up_to, len(perms), None,
                         [SubProblem(empty, empty, stab)])
    _, k, kept, s, e = best
    subs = []
    for r in kept.tolist():
        others = np.setdiff1d(np.arange(s, e), [r])
        stab = perms[perms[:, r] == r] if distinct else None
        weight = 1 if distinct else len(np.unique(perms[:, r]))
        sp = SubProblem(np.array([r]), others, stab if stab is not None and len(stab) > 1
                        else None, weight)
        subs.extend(_refine(tiling, sp) if split else [sp])
    return CountPlan(distinct, described, up_to, len(perms), tiling.pieces[k].name, subs)


def _refine(tiling: Tiling, sp: SubProblem, by: str = "auto") -> list[SubProblem]:
    """Split a sub-problem into one part per way to settle one item, which is an exact
    partition. Where every cell must be covered and every piece placed a set number of
    times, the item is the one the most-constrained search would branch on first (the cell,
    or the last copy of a piece, with the fewest placements that still fit), so the parts
    together search no more nodes than the whole. Elsewhere it is the first uncovered cell
    in sweep order: one part per placement that covers it, and one where none does.
    Sub-problems that de-duplicate under a stabilizer stay whole (a class may span the
    parts). ``by = "cell"`` takes the first uncovered cell everywhere (for comparison)."""
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
    fits = np.ones(tiling.num_placements, dtype=bool)
    fits[sp.forbidden] = False
    fits[sp.forced] = False
    exact = tiling.cover == "exact" and not any(p.at_most for p in tiling.pieces)
    if not exact or by == "cell":
        parts = [SubProblem(np.append(sp.forced, q), sp.forbidden, None, sp.weight)
                 for q in tiling.placements_covering(free[0]).tolist()
                 if fits[q] and not taken[cells[q]].any()]
        if tiling.cover != "exact":
            parts.append(SubProblem(sp.forced, np.union1d(
                sp.forbidden, tiling.placements_covering(free[0])), None, sp.weight))
        return parts
    sizes = np.fromiter((len(c) for c in cells), dtype=np.int64, count=len(cells))
    flat = np.concatenate(cells)
    owner = np.repeat(np.arange(len(cells)), sizes)
    clash = np.zeros(len(cells), dtype=bool)
    np.logical_or.at(clash, owner, taken[flat])
    piece_of = tiling.placement_pieces()
    used = np.bincount(piece_of[sp.forced], minlength=len(tiling.pieces))
    copies = np.array([p.count for p in tiling.pieces])
    fits &= ~clash & (used < copies)[piece_of]
    per_cell = np.bincount(flat[fits[owner]], minlength=tiling.board.num_cells)
    best = free[np.argmin(per_cell[free])]  # the first such cell in sweep order
    options = np.intersect1d(tiling.placements_covering(best), np.flatnonzero(fits))
    for k, piece in enumerate(tiling.pieces):
        if used[k] == piece.count - 1:  # its last copy: a piece item, as in the search
            mine = np.flatnonzero(fits & (piece_of == k))
            if len(mine) < len(options):
                options = mine
    return [SubProblem(np.append(sp.forced, q), sp.forbidden, None, sp.weight)
            for q in options.tolist()]


def submodel(model: Model, sp: SubProblem) -> Model:
    user = model.user_vars
    return model.with_units(np.concatenate([-user[sp.forbidden], user[sp.forced]]))


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
        count, complete = backend.count(submodel(model, sp), _left(deadline), progress)
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


# (solutions so far, sub-problems done, sub-problems, estimated share of the search done)
ProgressFn = Callable[[int, int, int, float], None]

SLICE_S = 5.0  # seconds a sub-problem is searched before its state comes back to be saved
GRACE_S = 10.0  # how long past the deadline to wait for the workers' last states
STOP_GRACE_S = 2.0  # how long after Ctrl-C to wait for the workers' counts so far

_ENGINES: dict[tuple[str, str | None], Backend] = {}  # per worker process, kept across tasks


def _engine(name: str, solver: str | None) -> Backend:
    if (name, solver) not in _ENGINES:
        _ENGINES[name, solver] = get_backend(name, solver)
    return _ENGINES[name, solver]


def _slice(model: Model, sp: SubProblem, engine: Backend, state: dict | None,
           deadline: float | None, progress: Callable[[int], None] | None = None,
           ) -> PartialCount:
    """Search one sub-problem on from ``state`` for a slice (or to the deadline, if sooner).
    A sub-problem that de-duplicates under a stabilizer, or a back end that cannot resume,
    is searched whole, to the deadline."""
    left = _left(deadline)
    if state is None and left == 0.0:  # queued past the deadline: not built to search nothing
        return PartialCount(0, False, None, 0.0)
    if not engine.capabilities.resumable or sp.stabilizer is not None:
        n, ok = solve_subproblem(model, sp, engine, deadline, progress)
        return PartialCount(n, ok, None, 1.0 if ok else 0.0)
    until = SLICE_S if left is None else min(SLICE_S, left)
    sub = submodel(model, sp)
    try:
        return engine.count_part(sub, state, until, progress)
    except ValueError:  # a state of another version or kernel, or one that contradicts its
        # own choices (CoverSearch.resume): start the sub-problem over
        return engine.count_part(sub, None, until, progress)


def _work(job: tuple, item: tuple[int, dict | None], deadline: float | None,
          ) -> tuple[int, PartialCount | int | None]:
    """A worker's slice of sub-problem ``i``: (i, its PartialCount), or after Ctrl-C
    (Tasks.stop) the sub-problem's count so far, its state lost (None: nothing reported)."""
    model, count_plan, name, solver = job
    i, state = item
    seen: list[int | None] = [None]

    def progress(n: int) -> None:
        seen[0] = n

    try:
        return i, _slice(model, count_plan.subproblems[i], _engine(name, solver), state,
                         deadline, progress)
    except KeyboardInterrupt:
        if not stop_asked():  # not the pool's request: a failure, raised in the parent
            raise
        return i, seen[0]


def _encode_state(state: dict[str, np.ndarray]) -> str:
    buf = io.BytesIO()
    np.savez(buf, **state)
    return base64.b64encode(zlib.compress(buf.getvalue())).decode()


def _decode_state(text: str) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(zlib.decompress(base64.b64decode(text)))) as data:
        return {k: data[k] for k in data.files}


def _progress_digest(done: object, running: object) -> str:
    """A checksum of a checkpoint's progress (keyed by strings, as JSON reads it back),
    which catches a file damaged or edited by accident. Past it the counts are trusted; a
    search state is still checked against its own choices before a kernel runs on it."""
    def keyed(d: object) -> object:
        return {str(k): v for k, v in d.items()} if isinstance(d, dict) else d

    text = json.dumps([keyed(done), keyed(running)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class Checkpoint:
    """A long count's progress in a JSON file, so that it can be stopped and resumed (in
    another process, with any number of workers): the counts of finished sub-problems, and
    for each sub-problem under way its count so far and its search state (the exact-cover
    kernel's stack, compressed), so that it goes on where it stopped. The file names the count
    it belongs to by a digest of the model and of the plan's sub-problems; another count's
    file is refused (two puzzles may share a name and a plan, yet not their rules)."""

    def __init__(self, path: Path, name: str, count_plan: CountPlan, model: Model) -> None:
        self.path, self.name = path, name
        digest = hashlib.sha256(repr((count_plan.distinct, count_plan.group,
                                      model.num_vars)).encode())
        for groups in (model.all_clauses(), model.all_exactly_one(), model.all_at_most_one(),
                       *(c.groups for c in model.cardinalities)):
            digest.update(groups.digest())
        for c in model.cardinalities:
            digest.update(f"{c.cmp}".encode() + np.ascontiguousarray(c.bounds, np.int64).data)
        for sp in count_plan.subproblems:
            for a in (sp.forced, sp.forbidden, sp.stabilizer):
                digest.update(b"|" if a is None else np.ascontiguousarray(a, np.int64).data)
            if sp.weight != 1:
                digest.update(f"*{sp.weight}".encode())
        self.plan_digest = digest.hexdigest()[:32]
        self.size = len(count_plan.subproblems)
        self.counts: dict[int, int] = {}  # solutions each finished sub-problem stands for
        self.running: dict[int, PartialCount] = {}
        self.time_s = 0.0  # searching, summed over earlier runs
        if path.exists():
            self._load()

    def _load(self) -> None:
        try:
            data = json.loads(read_text(self.path))
            counts = {int(i): int(n) for i, n in data["done"].items()}
            running = {int(i): PartialCount(int(r["count"]), False, _decode_state(r["state"]),
                                            float(r["share"]), int(r.get("nodes", 0)))
                       for i, r in data.get("running", {}).items()}
            digest, time_s = data["plan"], float(data["time_s"])
            check = data.get("check")
        except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError,
                zlib.error, zipfile.BadZipFile) as e:
            raise PuzzleError(f"{self.path}: not a count checkpoint ({e})") from None
        if check != _progress_digest(data["done"], data.get("running", {})):
            raise PuzzleError(f"{self.path}: a damaged count checkpoint (its counts or search "
                              "states were changed after it was written, or its checksum "
                              "removed)")
        if any(n < 0 for n in counts.values()) or any(
                r.count < 0 or r.nodes < 0 or not 0 <= r.share <= 1 for r in running.values()):
            raise PuzzleError(f"{self.path}: a damaged count checkpoint (negative counts or "
                              "a share of the search outside 0..1)")
        if digest != self.plan_digest:
            raise PuzzleError(f"{self.path}: a checkpoint of another count "
                              f"({data.get('model', '?')}, {data.get('subproblems', '?')} "
                              "sub-problems); give a new file")
        if any(not 0 <= i < self.size for i in (*counts, *running)):
            raise PuzzleError(f"{self.path}: sub-problem numbers out of range")
        self.counts, self.time_s = counts, time_s
        self.running = {i: r for i, r in running.items() if i not in counts}

    def save(self, run_s: float, count_so_far: int) -> None:
        data = {"model": self.name, "plan": self.plan_digest, "subproblems": self.size,
                "time_s": self.time_s + run_s, "count_so_far": count_so_far,
                "done": self.counts,
                "running": {i: {"count": r.count, "share": round(r.share, 6), "nodes": r.nodes,
                                "state": _encode_state(r.state)}
                            for i, r in self.running.items() if r.state is not None}}
        data["check"] = _progress_digest(data["done"], data["running"])
        write_whole(self.path, json.dumps(data, indent=0))


def count(tiling: Tiling, backend: str | Backend = "exact-cover", solver: str | None = None,
          distinct: bool = True, workers: int = 1, time_limit: float | None = None,
          progress: ProgressFn | None = None, ray: str | None = None,
          checkpoint: Path | None = None, group: str = "board") -> CountResult:
    """Count the solutions of ``tiling`` (``distinct``: up to ``group``, see
    Tiling.symmetries); stops at the time limit or on Ctrl-C and then
    returns what it has, marked incomplete. ``workers`` > 1 shares the sub-problems out to
    forked processes; ``ray`` (an address, ``auto`` or ``local``) to a Ray cluster.
    ``checkpoint``: a file recording the count's progress; a run with the file goes on from
    it. On the exact-cover back end every sub-problem is searched in slices of
    :data:`SLICE_S` seconds that hand back its search state, so a stop loses at most the
    slice under way; other back ends search each sub-problem whole. ``backend`` is a name
    (with ``solver``, see get_backend) or, in one process, a Backend."""
    require_tiling(tiling, "count")
    if not distinct and group != "board":
        raise ValueError(f"group {group!r} is for distinct counts: a raw count has no group")
    workers = checked_whole(workers, "workers", 1)
    time_limit = checked_time_limit(time_limit)
    if isinstance(backend, Backend) and (workers > 1 or ray):
        raise ValueError("workers and ray go with a back end's name, not with a "
                         "Backend (each process makes its own)")
    engine = engine_for(backend, solver)
    tiling.check_memory(engine)
    if checkpoint is not None:
        writable(checkpoint)
    started = time.monotonic()
    model = tiling.build_model()
    build_s = time.monotonic() - started
    count_plan = plan(tiling, distinct, split=workers > 1 or bool(ray) or bool(checkpoint),
                      group=group, orbits=True)
    subs = count_plan.subproblems
    saved = Checkpoint(checkpoint, tiling.name, count_plan, model) if checkpoint else None
    # the checkpoint's own records, kept up to date as slices come back
    finished: dict[int, int] = saved.counts if saved else {}
    running: dict[int, PartialCount] = saved.running if saved else {}
    resumed = len(finished)
    todo = [i for i in range(len(subs)) if i not in finished]
    deadline = None if time_limit is None else started + time_limit
    ray_nodes = ray_reruns = 0
    lost = ""
    interrupted = False
    last_save = time.monotonic()
    unsaved = 0  # solutions of slices whose state is lost (under way, or stopped by Ctrl-C)

    def found() -> int:
        return sum(finished.values()) + sum(r.count * subs[i].weight for i, r in running.items())

    def share() -> float:
        return (len(finished) + sum(r.share for r in running.values())) / max(len(subs), 1)

    def report() -> None:
        if progress:
            progress(found(), len(finished), len(subs), share())

    def save(force: bool = False) -> None:
        nonlocal last_save
        if saved and (force or time.monotonic() - last_save >= 1.0):
            saved.save(time.monotonic() - started, found())
            last_save = time.monotonic()

    def take(i: int, part: PartialCount) -> bool:
        """Record a slice's outcome; whether the sub-problem is to be searched on."""
        if part.done:
            running.pop(i, None)
            finished[i] = part.count * subs[i].weight
            save(force=True)
        elif part.state is not None or i not in running:  # keep a state over none
            running[i] = part
            save()
        report()
        over = deadline is not None and time.monotonic() >= deadline
        return not part.done and part.state is not None and not over

    try:
        report()
        if workers > 1 or ray:
            # Locally, a worker gets one task at a time, and a sub-problem's next slice goes
            # before the others: the worker that just searched it takes it on, with what its
            # dead-end table learnt (bench/RESULTS.md). Ray gets everything at once.
            waiting = deque((i, running[i].state if i in running else None) for i in todo)
            workers = min(workers, max(len(waiting), 1))  # an idle process is no help
            limit = len(waiting) if ray else workers
            with task_pool(_work, (model, count_plan, backend, solver), workers, ray) as tasks:
                def handed_back(grace: float) -> None:
                    """Ask the busy workers to stop, and keep what they hand back."""
                    nonlocal unsaved
                    for i, part in tasks.stop(grace):
                        if isinstance(part, PartialCount):
                            take(i, part)
                        elif part is not None:  # a count so far, beyond the state kept
                            unsaved += (part - (running[i].count if i in running else 0)) \
                                * subs[i].weight

                try:
                    while waiting or tasks.pending:
                        while waiting and tasks.pending < limit:
                            tasks.submit(waiting.popleft(), deadline)
                        # workers stop at the deadline and send their states back: wait
                        left = None if deadline is None else _left(deadline) + GRACE_S
                        try:
                            i, part = tasks.next(timeout=left)
                        except TaskTimeout:
                            # the clock ran on while the job was stopped (Ctrl-Z): the
                            # workers, just continued, are asked for their states
                            handed_back(STOP_GRACE_S)
                            break
                        if take(i, part):
                            waiting.appendleft((i, part.state))
                except KeyboardInterrupt:  # the workers hand back what they found
                    handed_back(STOP_GRACE_S)
                    raise
                if ray:
                    ray_nodes, ray_reruns = len(tasks.nodes), tasks.reruns
        else:
            for i in todo:
                state = running[i].state if i in running else None
                while True:
                    def partial(n: int, i: int = i) -> None:
                        nonlocal unsaved
                        unsaved = (n - (running[i].count if i in running else 0)) * \
                            subs[i].weight
                        if progress:
                            progress(found() + unsaved, len(finished), len(subs), share())

                    part = _slice(model, subs[i], engine, state, deadline, partial)
                    unsaved = 0
                    if not take(i, part):
                        break
                    state = part.state
                if not part.done:
                    break
    except KeyboardInterrupt:  # the count so far, marked incomplete
        interrupted = True
    except ProcessDied as exc:  # likewise: the other sub-problems are intact
        lost = str(exc)
    elapsed = time.monotonic() - started
    save(force=True)
    complete = len(finished) == len(subs)
    # An interrupted slice's solutions were found and count, though its state is lost.
    return CountResult(found() + unsaved, complete, distinct, count_plan.group, engine.label(),
                       elapsed, len(finished), len(subs), build_s, model=model, resumed=resumed,
                       checkpoint_time_s=saved.time_s if saved else 0.0,
                       up_to=count_plan.up_to, ray_nodes=ray_nodes, ray_reruns=ray_reruns,
                       share=1.0 if complete else share(), lost=lost,
                       interrupted=interrupted)
