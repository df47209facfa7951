"""Solving a tiling: one solution or a proof that there is none (solve_tiling), or solutions
listed, every one, the first N or one per symmetry class (list_tilings).

Every solution is verified against the puzzle's definition before it is returned or handed
on. Counting without listing is smtpuzzle.puzzles.tiling.counting.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from smtpuzzle.backends import Backend, get_backend
from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.puzzles.tiling.index_model import index_model
from smtpuzzle.puzzles.tiling.puzzle import Tiling, TilingSolution, require_tiling
from smtpuzzle.result import Answer, Result, Stats, Status
from smtpuzzle.runtime.checks import checked_limit, checked_time_limit

DEFAULT_BACKEND = "cpsat"  # for one solution
DEFAULT_LIST_BACKEND = "exact-cover"  # for listing


@dataclass
class TilingAnswer(Answer):
    """One solution, verified (status sat), a proof that there is none (unsat), or unknown:
    the time limit, or Ctrl-C (``interrupted``; no stats then)."""

    model: str  # the puzzle's name
    status: Status
    solutions: list[TilingSolution]
    backend: str  # the back end's label, e.g. sat:cadical195
    time_s: float  # building the model and solving it
    interrupted: bool = field(default=False, metadata={"omit": False})
    stats: Stats | None = None
    puzzle: Tiling | None = field(default=None, repr=False, compare=False,
                                  metadata={"json": False})
    json_keys = ("model", "status", "backend", "time_s", "complete", "stats", "solutions")

    @property
    def complete(self) -> bool:
        """The back end decided: sat or unsat, not unknown."""
        return self.status is not Status.UNKNOWN

    def _repr_svg_(self) -> str | None:
        """The solution as a picture (in a notebook)."""
        return _tiling_svg(self.puzzle, self.solutions)

    def json_extra(self) -> dict[str, Any]:
        return {"complete": self.complete}


@dataclass
class TilingListing(Answer):
    """Solutions listed by list_tilings, each verified: every one, the first ``limit``, or
    one per class of the board's symmetries (``distinct``). Status sat once one is listed,
    unsat when the search ended with none, else unknown."""

    model: str  # the puzzle's name
    backend: str  # the back end's label
    distinct: bool
    limit: int | None = field(default=None, metadata={"json": False})
    count: int = 0  # solutions listed
    complete: bool = False  # the search ended: every solution (or class) was listed
    # stopped at the limit, and another solution (or class) was found
    more: bool = field(default=False, metadata={"json": False})
    # distinct: the symmetry group, in words (as count's), and which group: "board",
    # "rotations", or "none" (every solution)
    group: str = field(default="", metadata={"json": False})
    up_to: str = field(default="none", metadata={"json": False})
    interrupted: bool = field(default=False, metadata={"omit": False})  # stopped by Ctrl-C
    time_s: float = 0.0
    solutions: list[TilingSolution] = field(default_factory=list)  # those kept (keep=True)
    puzzle: Tiling | None = field(default=None, repr=False, compare=False,
                                  metadata={"json": False})
    status: Status = Status.UNKNOWN
    stats: Stats | None = field(default=None, metadata={"json": False})
    json_keys = ("model", "status", "backend", "distinct", "complete", "more", "count",
                 "group", "up_to", "time_s", "solutions")

    def _repr_svg_(self) -> str | None:
        """The solutions kept, as a contact sheet (in a notebook)."""
        return _tiling_svg(self.puzzle, self.solutions, "solution")

    @property
    def stopped_at_limit(self) -> bool:
        return self.limit is not None and self.count >= self.limit

    def json_extra(self) -> dict[str, Any]:
        # more: true, one more was found past the limit; false, none is left (the search
        # ended); null, not known (stopped by the time or by Ctrl-C)
        return {"more": True if self.more else (False if self.complete else None),
                **({"group": self.group, "up_to": self.up_to} if self.distinct else {})}


def engine_for(backend: str | Backend, solver: str | None) -> Backend:
    """The back end a name (with ``solver``) names, or ``backend`` itself if it is one."""
    if isinstance(backend, Backend):
        if solver is not None:
            raise ValueError("solver goes with a back end's name, not with a Backend")
        return backend
    return get_backend(backend, solver)


def _left(time_limit: float | None, started: float) -> float | None:
    """What is left of ``time_limit`` (from ``started``) after building the model: the
    limit is the whole command's, not the back end's alone."""
    if time_limit is None:
        return None
    return max(time_limit - (time.perf_counter() - started), 0.001)


TILING_MODELS = ("placements", "index")


def solve_tiling(tiling: Tiling, backend: str | Backend = DEFAULT_BACKEND,
                 solver: str | None = None, time_limit: float | None = None,
                 model: str = "placements") -> TilingAnswer:
    """Find one solution of ``tiling`` and verify it, or prove there is none.

    ``model``: ``placements`` (a boolean per placement) or ``index`` (an integer per
    piece, its placement number: smtpuzzle/puzzles/tiling/index_model.py).

    ``backend`` is a name (with ``solver``, see get_backend) or a Backend. Ctrl-C while the
    back end searches answers unknown, ``interrupted`` (CP-SAT and Z3 catch it themselves
    and answer unknown early, with stats)."""
    if model not in TILING_MODELS:
        raise PuzzleError(f"`model={model}`: expected one of {', '.join(TILING_MODELS)}")
    time_limit = checked_time_limit(time_limit)
    require_tiling(tiling, "solve_tiling")
    engine = engine_for(backend, solver)
    if model == "index" and not engine.capabilities.any_constraint:
        raise PuzzleError("`model=index`: the exact-cover engine takes placements only "
                          "(use cpsat, z3 or sat)")
    tiling.check_memory(engine)
    started = time.perf_counter()
    indexed = index_model(tiling) if model == "index" else None
    neutral = indexed.model if indexed is not None else tiling.build_model()
    interrupted = False
    result: Result | None = None
    try:
        result = engine.solve(neutral, _left(time_limit, started))
    except KeyboardInterrupt:
        interrupted = True
    elapsed = time.perf_counter() - started
    status = result.status if result is not None else Status.UNKNOWN
    solutions = []
    if result is not None and status is Status.SAT:
        if indexed is not None:
            indexed.model.take(result)
            values = indexed.values(tiling.num_placements)
        else:
            values = result.values
        solution = tiling.decode(values)
        tiling.verify(solution)
        solutions.append(solution)
    return TilingAnswer(tiling.name, status, solutions, engine.label(), elapsed, interrupted,
                        result.stats if result is not None else None, puzzle=tiling)


def list_tilings(tiling: Tiling, backend: str | Backend = DEFAULT_LIST_BACKEND,
                 solver: str | None = None, limit: int | None = None, distinct: bool = False,
                 time_limit: float | None = None,
                 on_solution: Callable[[int, TilingSolution], None] | None = None,
                 keep: bool = True, group: str = "board") -> TilingListing:
    """List the solutions of ``tiling``: every one, or the first ``limit``; with
    ``distinct``, one per class of the board's symmetries (``group``: see
    Tiling.symmetries).

    Each solution is verified, then handed to ``on_solution(n, solution)`` as soon as it is
    found (n counts from 1) and, with ``keep``, kept in the listing (leave it out to list
    millions). The time limit or Ctrl-C (in the search or in ``on_solution``) ends the
    listing early: ``complete`` is then false, and ``interrupted`` tells Ctrl-C."""
    require_tiling(tiling, "list_tilings")
    limit, time_limit = checked_limit(limit, 1), checked_time_limit(time_limit)
    engine = engine_for(backend, solver)
    tiling.check_memory(engine)
    started = time.perf_counter()
    model = tiling.build_model()
    if distinct:
        from smtpuzzle.puzzles.tiling import counting  # the exact-cover engine: on first use

        count_plan = counting.plan(tiling, distinct=True, group=group)
        enum = counting.iter_distinct(model, count_plan, engine, _left(time_limit, started))
    else:
        # one past the limit: a listing that stops there can tell "all" from "more"
        enum = engine.solutions(model, limit=None if limit is None else limit + 1,
                                time_limit=_left(time_limit, started))
    listing = TilingListing(tiling.name, engine.label(), distinct, limit, puzzle=tiling)
    classes = None
    if distinct:
        listing.group, listing.up_to = count_plan.group, count_plan.up_to
        classes = _Classes(tiling, group)
    exhausted = False
    try:
        for result in enum:
            if listing.stopped_at_limit:  # one past the limit: there are more
                listing.more = True
                break
            solution = tiling.decode(result.values)
            tiling.verify(solution)
            listing.count += 1
            if classes is not None:
                classes.add(result.values, listing.count)
            if keep:
                listing.solutions.append(solution)
            if on_solution is not None:
                on_solution(listing.count, solution)
        else:
            exhausted = True
    except KeyboardInterrupt:
        listing.interrupted = True
    listing.time_s = time.perf_counter() - started
    listing.complete = exhausted and enum.complete
    listing.status = Status.SAT if listing.count else \
        Status.UNSAT if listing.complete else Status.UNKNOWN
    return listing


def canonical_key(rows: np.ndarray, perms: np.ndarray) -> bytes:
    """A solution's class under the placement permutations ``perms`` (a group, or a
    sub-problem's stabilizer): the least of its images' sorted placements."""
    return min(np.sort(p[rows]).tobytes() for p in perms)


class _Classes:
    """The symmetry classes of the solutions a distinct listing has shown, to check, apart
    from the search's plan (sub-problems, orbits, stabilizers), that it shows each class
    once: a solution's class is the least of its images' sorted placements under the whole
    group (``canonical_key``, as a stabilizer's classes are told apart), kept as a 16-byte
    digest (about 100 bytes a solution in all, so a listing of millions fits)."""

    def __init__(self, tiling: Tiling, group: str) -> None:
        self.perms = np.stack([p for _, p in tiling.symmetries(group)])
        self.group = "rotations" if group == "rotations" else "symmetries"
        self.seen: dict[bytes, int] = {}

    def add(self, values: np.ndarray, n: int) -> None:
        least = canonical_key(np.flatnonzero(values), self.perms)
        key = hashlib.blake2b(least, digest_size=16).digest()
        first = self.seen.setdefault(key, n)
        if first != n:
            raise VerificationError(f"distinct solutions {first} and {n} are one up to the "
                                    f"board's {self.group}")


def _tiling_svg(tiling: Tiling | None, solutions: list[TilingSolution],
                caption: str = "") -> str | None:
    if tiling is None or not solutions:
        return None
    from smtpuzzle.puzzles.tiling.drawing import tiling_drawing
    from smtpuzzle.render.pictures import svg_text

    return svg_text(tiling_drawing(tiling.board, tiling.pieces, solutions, caption))
