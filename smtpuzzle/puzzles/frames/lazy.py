"""Frames with a lazy stage 1, for puzzles whose one-frame sets are too many to list.

Counterexample-guided: an incremental SAT solver proposes which frame each piece goes to
(each frame with the composition the puzzle's one split of sizes gives it; frames of one
composition ordered by their smallest piece), and a tiling search checks the proposed sets.
A set that fills its frame is remembered; the first set that does not is blocked for every
frame of its composition, and the solver proposes again. The solver keeps its saved phases
between proposals, so frames that tiled tend to stay while the others change.

The loop is a client of a solver session (any back end that takes clauses; the sat back
end keeps its solver in a child process that a deadline or Ctrl-C can stop). The caller
lays out and verifies the answer. "unsat" is only claimed when no set check was cut short
by its budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from smtpuzzle.backends import Backend
from smtpuzzle.backends.exactcover import CoverSearch, from_model
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Model
from smtpuzzle.puzzles.frames.puzzle import Frames
from smtpuzzle.result import Answer, Stats, Status

CHECK_BUDGET = 5_000_000  # search nodes per set check before it counts as "not known"

# (proposals, sets checked, sets that tile, sets blocked)
LazyProgress = Callable[[int, int, int, int], None]


@dataclass
class LazyResult(Answer):
    """Frames' stage 1 and 2 by lazily checked proposals (its JSON is the answer's
    ``stage1``)."""

    status: Status = field(metadata={"json": False})  # sat | unsat | unknown
    # (n, pieces) bool: the chosen sets, when sat
    sets: np.ndarray | None = field(metadata={"json": False})
    proposals: int
    checked: int
    tiling_sets: int = field(metadata={"key": "sets"})
    blocked: int
    cut_short: int  # set checks stopped by their budget (counted as blocked)
    time_s: float
    interrupted: bool = field(default=False, metadata={"json": False})
    stats: Stats | None = field(default=None, metadata={"json": False})
    json_keys = ("method",)

    def json_extra(self) -> dict[str, Any]:
        return {"method": "lazy", "complete": self.status != "unknown"}


def assignment_model(frames: Frames) -> tuple[Model, np.ndarray, list[tuple[int, ...]]]:
    """Piece-to-frame booleans ``x[p, k]``, each piece in one frame, each frame with its
    composition, frames of one composition ordered by their smallest piece."""
    splits = frames.splits()
    if len(splits) != 1:
        raise PuzzleError("the lazy stage 1 needs one way to split the piece sizes into "
                          f"frames; {frames.name} has {len(splits)}")
    comps = list(splits[0])
    n, m = frames.n, len(frames.pieces)
    model = Model(f"{frames.name}-assignment")
    names = [f"{p.name}@{k + 1}" for p in frames.pieces for k in range(n)]
    x = model.new_bools(m * n, user=True, names=names).reshape(m, n)
    model.add_exactly_one(list(x))
    sizes, _ = frames.size_classes()
    for k, comp in enumerate(comps):
        groups = [x[frames.sizes == s, k] for s in sizes]
        model.add_cardinality(groups, Cmp.EQ, list(comp))
    for k in range(1, n):
        if comps[k] != comps[k - 1]:
            continue
        prefix = model.new_bools(m)  # prefix[p]: frame k-1 holds some piece <= p
        model.add_implications(x[:, k - 1], prefix)
        model.add_implications(prefix[:-1], prefix[1:])
        model.add_clauses(np.stack([-prefix[1:], prefix[:-1], x[1:, k - 1]], axis=1))
        model.add_clauses([[-prefix[0], x[0, k - 1]]])
        model.add_clauses([[-x[0, k]]])
        model.add_implications(x[1:, k], prefix[:-1])
    return model, x, comps


class _SetChecker:
    """Does a piece set fill one frame? The parity test, then one exact-cover search,
    restarted per set; every answer is remembered and counted."""

    def __init__(self, frames: Frames) -> None:
        tiling = frames.frame_tiling()
        self.frames = frames
        self.search = CoverSearch(from_model(tiling.build_model()), collect=False)
        self.piece_of_row = tiling.placement_pieces()
        self.known: dict[bytes, bool | None] = {}
        self.checked = self.tiling = self.cut_short = 0

    def tiles(self, members: np.ndarray, budget: int) -> bool | None:
        key = np.packbits(members).tobytes()
        if key in self.known:
            return self.known[key]
        answer: bool | None = False
        if self.frames.parity_ok(members):
            self.search.restart([], np.flatnonzero(~members[self.piece_of_row]))
            while not self.search.done and self.search.count == 0 and \
                    self.search.nodes < budget:
                self.search.step(200_000)
            answer = True if self.search.count else (False if self.search.done else None)
        self.known[key] = answer
        self.checked += 1
        self.tiling += answer is True
        self.cut_short += answer is None
        return answer


def solve_lazy(frames: Frames, engine: Backend, time_limit: float | None = None,
               progress: LazyProgress | None = None, budget: int = CHECK_BUDGET) -> LazyResult:
    """Find one answer by the lazy loop (see the module docstring) on a session of
    ``engine``."""
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    model, x, comps = assignment_model(frames)
    checker = _SetChecker(frames)
    kinds: dict[tuple[int, ...], list[int]] = {}
    for k, comp in enumerate(comps):
        kinds.setdefault(comp, []).append(k)
    proposals = blocked = 0

    def result(status: str, sets: np.ndarray | None) -> LazyResult:
        return LazyResult(status, sets, proposals, checker.checked, checker.tiling, blocked,
                          checker.cut_short, time.perf_counter() - started)

    last = time.perf_counter()
    try:
        with engine.open(model) as session:
            while True:
                left = None if deadline is None else deadline - time.perf_counter()
                if left is not None and left <= 0:
                    return result("unknown", None)
                status = session.check(time_limit=left)
                if status is Status.UNKNOWN:
                    return result("unknown", None)
                if status is Status.UNSAT:
                    return result("unknown" if checker.cut_short else "unsat", None)
                proposals += 1
                where = session.values().reshape(x.shape)  # (pieces, frames)
                # Stop at the first set that fails: its block sends the solver elsewhere,
                # and checks (a tiling search each) cost far more than proposals.
                # pentahex-6x9x5: 2,665 proposals and 2,775 checks, 6.2 s, against 851 and
                # 2,177 (every frame checked), 34.8 s.
                failed = next((k for k in range(frames.n)
                               if not checker.tiles(where[:, k], budget)), None)
                if failed is None:
                    return result("sat", where.T.copy())
                pieces = np.flatnonzero(where[:, failed])  # in no frame of its composition
                session.add_clauses([-x[pieces, j] for j in kinds[comps[failed]]])
                blocked += 1
                now = time.perf_counter()
                if progress and now - last > 0.2:
                    last = now
                    progress(proposals, checker.checked, checker.tiling, blocked)
    except KeyboardInterrupt:
        return result("unknown", None)
