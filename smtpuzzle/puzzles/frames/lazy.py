"""Frames with a lazy stage 1, for puzzles whose one-frame sets are too many to list.

Counterexample-guided: an incremental SAT solver proposes which frame each piece goes to
(each frame with the composition the puzzle's one split of sizes gives it; frames of one
composition ordered by their smallest piece), and a tiling search checks each proposed set.
A set that fills its frame is remembered; a set that does not is blocked for every frame of
its composition, and the solver proposes again. The solver keeps its saved phases between
proposals, so frames that tiled tend to stay while the others change.

The loop runs in a forked child (CaDiCaL ignores interrupts); the parent lays out and
verifies the answer. "unsat" is only claimed when no set check was cut short by its budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass

import numpy as np

from smtpuzzle.backends.child import Send, child_messages
from smtpuzzle.backends.cnf import to_cnf
from smtpuzzle.backends.exactcover import CoverSearch, from_model
from smtpuzzle.backends.sat import DEFAULT_SOLVER
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Model
from smtpuzzle.puzzles.frames.puzzle import Frames

CHECK_BUDGET = 5_000_000  # search nodes per set check before it counts as "not known"

# (proposals, sets checked, sets that tile, sets blocked)
LazyProgress = Callable[[int, int, int, int], None]


@dataclass
class LazyResult:
    status: str  # "sat" | "unsat" | "unknown"
    sets: np.ndarray | None  # (n, pieces) bool: the chosen sets, when sat
    proposals: int
    checked: int
    tiling_sets: int
    blocked: int
    cut_short: int  # set checks stopped by their budget (counted as blocked)
    time_s: float

    def as_json(self) -> dict:
        return {"method": "lazy", "proposals": self.proposals, "checked": self.checked,
                "sets": self.tiling_sets, "blocked": self.blocked,
                "cut_short": self.cut_short, "time_s": round(self.time_s, 3),
                "complete": self.status != "unknown"}


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
    x = model.new_bools(m * n).reshape(m, n)
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


def _lazy_child(send: Send, frames: Frames, solver_name: str, budget: int) -> None:
    from pysat.solvers import Solver

    model, x, comps = assignment_model(frames)
    checker = _SetChecker(frames)
    kinds: dict[tuple[int, ...], list[int]] = {}
    for k, comp in enumerate(comps):
        kinds.setdefault(comp, []).append(k)
    proposals = blocked = 0

    def stats() -> tuple[int, int, int, int, int]:
        return proposals, checker.checked, checker.tiling, blocked, checker.cut_short

    last = time.perf_counter()
    with Solver(name=solver_name, bootstrap_with=to_cnf(model).as_lists()) as sat:
        while True:
            if not sat.solve():
                send(("done", ("unknown" if checker.cut_short else "unsat", None, stats())))
                return
            proposals += 1
            assignment = np.array(sat.get_model(), dtype=np.int64)
            where = (assignment[x - 1] > 0)  # (pieces, frames)
            failed = [k for k in range(frames.n) if not checker.tiles(where[:, k], budget)]
            if not failed:
                send(("done", ("sat", where.T.copy(), stats())))
                return
            for k in failed:  # that set, in no frame of its composition
                pieces = np.flatnonzero(where[:, k])
                for j in kinds[comps[k]]:
                    sat.add_clause((-x[pieces, j]).tolist())
                blocked += 1
            now = time.perf_counter()
            if now - last > 0.2:
                last = now
                send(("progress", stats()))


def solve_lazy(frames: Frames, solver: str | None = None, time_limit: float | None = None,
               progress: LazyProgress | None = None, budget: int = CHECK_BUDGET) -> LazyResult:
    """Find one answer by the lazy loop (see the module docstring)."""
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    stats = (0, 0, 0, 0, 0)  # proposals, checked, tiling, blocked, cut short

    def work(send: Send) -> None:
        _lazy_child(send, frames, solver or DEFAULT_SOLVER, budget)

    try:
        with closing(child_messages(work, deadline)) as messages:
            for kind, data in messages:
                if kind == "progress":
                    stats = data
                    if progress:
                        progress(*stats[:4])
                    continue
                status, sets, stats = data
                return LazyResult(status, sets, *stats, time.perf_counter() - started)
    except KeyboardInterrupt:
        pass
    return LazyResult("unknown", None, *stats, time.perf_counter() - started)
