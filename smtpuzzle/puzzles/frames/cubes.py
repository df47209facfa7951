"""Frames stage 2 by cube and conquer: the cover model split into cubes, each decided by the
stage-2 back end in a time slice.

A cube fixes one listed set of the piece left in the fewest sets; what remains is a smaller
cover model (the sets disjoint from every fixed one, over the pieces not yet used). Cubes
are taken least constraining first: the set that leaves the most sets. Measured on
hexomino-6x6x6 (bench/RESULTS.md), 35 of the rarest piece's 2,571 sets lead to answers, and
this order puts two of them 4th and 5th. A cube the back end does not decide in its slice is
split again on its own rarest piece, so the slice bounds the time lost on any one cube.

Why it pays: on a set-partitioning model the linear relaxation is strong. CP-SAT, told so
(``Model.relaxation_decides``: its LP at every node, no presolve), refutes almost every cube at the
root in milliseconds, where the whole model was unknown after minutes. The first cubes run
on ``workers`` processes; each keeps splitting its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice

import numpy as np

from smtpuzzle.backends import Backend, get_backend
from smtpuzzle.errors import ProcessDied
from smtpuzzle.model import Groups, Model
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.taskpool import TaskTimeout, task_pool

SLICE_S = 1.0  # a cube's time before it is split (measured: 0.3 to 6 s all about as good)
DEADLINE_GRACE_S = 0.5  # at the deadline, how long to wait for the workers' answers
STOP_GRACE_S = 2.0  # after Ctrl-C, likewise

# (top-level cubes decided, top-level cubes, back-end calls, answers so far)
CubesProgress = Callable[[int, int, int, int], None]


@dataclass
class CubesResult(Answer):
    """Frames' stage 2 by cubes (its JSON is the cube counts in the answer's ``stage2``)."""

    # sat (answers found) | unsat (every cube refuted) | unknown
    status: Status = field(metadata={"json": False})
    answers: list[list[int]] = field(metadata={"json": False})  # listed-set numbers per answer
    cubes: int = 0  # top-level cubes
    decided: int = 0  # ... of which decided (refuted or searched to the end)
    calls: int = 0  # back-end solves, every level
    time_s: float = field(default=0.0, metadata={"json": False})
    # by Ctrl-C or a worker that died (lost: what happened to it); complete: every answer
    # was listed (all cubes decided)
    interrupted: bool = field(default=False, metadata={"json": False})
    complete: bool = field(default=False, metadata={"json": False})
    lost: str = field(default="", metadata={"json": False})
    stats: Stats | None = field(default=None, metadata={"json": False})


@dataclass
class _Cubes:
    """The listed sets as bit words (piece p: bit p % 64 of word p // 64) and the search
    settings shared by every cube; the job a pool's workers inherit."""

    sets: np.ndarray  # (sets, pieces) bool
    words: np.ndarray  # (sets, words) uint64
    backend: str
    slice_s: float
    want: int | None  # answers wanted (None: all)
    calls: int = 0
    answers: list[list[int]] = field(default_factory=list)

    @classmethod
    def of(cls, sets: np.ndarray, backend: str, slice_s: float, want: int | None) -> _Cubes:
        n, pieces = sets.shape
        padded = np.zeros((n, -(-pieces // 64) * 64), dtype=np.uint64)
        padded[:, :pieces] = sets
        weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
        words = (padded.reshape(n, -1, 64) * weights).sum(axis=2, dtype=np.uint64)
        return cls(sets, words, backend, slice_s, want)

    def children(self, rows: np.ndarray, left: np.ndarray,
                 counts: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
        """The cubes of a part (``counts``: the rows holding each left piece): each set of
        its rarest piece, with the rows it leaves, most rows first (rows of a cube are
        computed as it is reached, not all at once)."""
        piece = left[int(np.argmin(counts))]
        chosen = rows[self.sets[rows, piece]]
        sizes = np.array([self._free(rows, c).sum() for c in chosen])
        for i in np.argsort(-sizes, kind="stable"):
            c = int(chosen[i])
            yield c, rows[self._free(rows, c)]

    @cached_property
    def engine(self) -> Backend:
        return get_backend(self.backend)

    def _free(self, rows: np.ndarray, c: int) -> np.ndarray:
        return ~(self.words[rows] & self.words[c]).any(axis=1)

    @staticmethod
    def model(rows: np.ndarray, sub: np.ndarray, counts: np.ndarray) -> Model:
        """Every left piece (a column of ``sub``, the part's rows by its left pieces; held
        by ``counts`` rows) in exactly one chosen row, rarest piece first."""
        model = Model("stage2-cube", relaxation_decides=True)
        y = model.new_bools(len(rows), user=True, names=[f"set:{r}" for r in rows.tolist()])
        order = np.argsort(counts, kind="stable")
        piece, member = np.nonzero(sub[:, order].T)
        sizes = counts[order]
        model.add_exactly_one(Groups(y[member], np.concatenate([[0], np.cumsum(sizes)])))
        return model

    def decide(self, chosen: list[int], rows: np.ndarray, used: np.ndarray,
               deadline: float | None) -> bool:
        """Search one part (``chosen`` sets fixed, ``rows`` still free): its answers go to
        ``self.answers``. False when the deadline came first."""
        left = np.flatnonzero(~used)
        if not len(left):
            self.answers.append(sorted(chosen))
            return True
        sub = self.sets[np.ix_(rows, left)]
        counts = sub.sum(axis=0)
        if not counts.all():  # a piece no set can take
            return True
        now = time.monotonic()
        if deadline is not None and now >= deadline:
            return False
        limit = self.slice_s if deadline is None else min(self.slice_s, deadline - now)
        wanted = None if self.want is None else self.want - len(self.answers)
        found: list[list[int]] = []
        enum = self.engine.solutions(self.model(rows, sub, counts), limit=wanted,
                                     time_limit=limit)
        self.calls += 1
        for result in enum:
            found.append(sorted(chosen + rows[np.asarray(result.values)].tolist()))
        if enum.complete or (wanted is not None and len(found) >= wanted):
            self.answers += found
            return True
        for c, free in self.children(rows, left, counts):  # undecided in the slice: split
            if not self.decide(chosen + [c], free, used | self.sets[c], deadline):
                return False
            if self.want is not None and len(self.answers) >= self.want:
                return True
        return True


def _work(job: _Cubes, cube: int, deadline: float | None
          ) -> tuple[list[list[int]], int, bool, bool]:
    """One top-level cube: (answers, back-end calls, decided, stopped by Ctrl-C). Stopped,
    it hands back the answers it had found (in a pool worker, Tasks.stop asks for them)."""
    job.answers, job.calls = [], 0
    rows = np.arange(len(job.sets))
    try:
        ok = job.decide([cube], rows[job._free(rows, cube)], job.sets[cube].copy(), deadline)
    except KeyboardInterrupt:
        return job.answers, job.calls, False, True
    return job.answers, job.calls, ok, False


def solve_cubes(sets: np.ndarray, backend: str, limit: int | None = 1,
                time_limit: float | None = None, workers: int = 1,
                slice_s: float = SLICE_S, progress: CubesProgress | None = None) -> CubesResult:
    """Up to ``limit`` answers (None: all) to the cover model over ``sets``, cube by cube."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    job = _Cubes.of(np.asarray(sets, dtype=bool), backend, slice_s, limit)
    rows = np.arange(len(sets))
    if not len(sets) or not job.sets.any(axis=0).all():
        return CubesResult(Status.UNSAT, [], complete=True, time_s=time.monotonic() - started)
    cubes = [c for c, _ in job.children(rows, np.arange(job.sets.shape[1]),
                                        job.sets.sum(axis=0))]
    answers: list[list[int]] = []
    decided = calls = 0
    interrupted, lost = False, ""

    def enough() -> bool:
        return limit is not None and len(answers) >= limit

    def report() -> None:
        if progress:
            progress(decided, len(cubes), calls, len(answers))

    def take(result: tuple[list[list[int]], int, bool, bool]) -> bool:
        """Count a cube's outcome in; whether Ctrl-C stopped it."""
        nonlocal calls, decided
        found, n, ok, stopped = result
        answers.extend(found)
        calls += n
        decided += ok
        report()
        return stopped

    try:
        with (task_pool(_work, job, workers) if workers > 1 else nullcontext()) as tasks:
            if tasks is None:
                for c in cubes:
                    before = decided
                    if take(_work(job, c, deadline)):
                        raise KeyboardInterrupt
                    if decided == before or enough():
                        break
            else:
                # A few cubes in flight, not all: an interrupted pool then has little queued
                # work to drop (with all 2,571 queued, a worker sometimes outlived the pool).
                queued = iter(cubes)
                for c in islice(queued, 2 * workers):
                    tasks.submit(c, deadline)
                try:
                    while tasks.pending and not enough():
                        if deadline is not None and time.monotonic() > deadline:
                            # each worker stops at the deadline too: what it found counts
                            for result in tasks.stop(DEADLINE_GRACE_S):
                                take(result)
                            break
                        try:
                            result = tasks.next(timeout=0.5)
                        except TaskTimeout:
                            report()
                            continue
                        for c in islice(queued, 1):
                            tasks.submit(c, deadline)
                        take(result)
                except KeyboardInterrupt:  # the workers hand back the answers they found
                    for result in tasks.stop(STOP_GRACE_S):
                        take(result)
                    raise
    except KeyboardInterrupt:
        interrupted = True
    except ProcessDied as exc:  # likewise: the answers found so far stand
        interrupted, lost = True, str(exc)
    answers = answers[:limit] if limit is not None else answers
    complete = decided == len(cubes)
    status = Status.SAT if answers else (Status.UNSAT if complete else Status.UNKNOWN)
    return CubesResult(status, answers, len(cubes), decided, calls,
                       time.monotonic() - started, interrupted, complete and not interrupted,
                       lost)
