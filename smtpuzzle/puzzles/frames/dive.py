"""Frames by diving on the LP relaxation, for puzzles whose one-frame sets are too many to
list and too sparse for the lazy loop (heptomino-8x8x12).

1. Pool: sets that fill one frame, sampled by restarts of the exact-cover search, each with
   a random placement at the first cell and a random part of the pieces allowed. A short
   first sample measures how often each piece is in a set; the main sample allows rare
   pieces more often, so that every piece is in enough sets (unbiased, the rarest piece is
   in 70 times fewer sets than the commonest, and then no choice of sets covers every piece).
2. Dive: solve the LP relaxation of "choose sets that cover each remaining piece exactly
   once" (phase one: slack on every piece, minimised). While it is infeasible, sample more
   sets among the remaining pieces, allowing more often the pieces the LP prices highest.
   Then the set with the largest LP value becomes a frame, and the dive goes on with the
   pieces left, after sampling more sets among them.
3. When ``FINISH_FRAMES`` frames are left, every set of the remaining pieces is listed and an
   exact cover over them ends the dive, or proves that this dive cannot end.
A dive that fails starts again from nothing, keeping the pool (the LP's tiny random costs
steer it elsewhere), until the time limit. A finish that proves its pieces cannot split is
remembered: later dives choose no set that leaves just those pieces, and a set whose
complement cannot split leaves the pool (else a small puzzle's dives can choose the same
few sets again and again, as they did). It finds answers; it proves there is none only
when the puzzle is small enough for the exact finish alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import csc_matrix, hstack, identity

from smtpuzzle.backends import get_backend
from smtpuzzle.backends.exactcover import CoverSearch, from_model
from smtpuzzle.puzzles.frames.puzzle import Frames
from smtpuzzle.puzzles.frames.sets import enumerate_sets, unique_rows
from smtpuzzle.puzzles.frames.stage2 import cover_model, decode_cover
from smtpuzzle.result import Answer, Stats, Status

FINISH_FRAMES = 4  # frames left when the dive lists every set and solves exactly
PROBE_S = 10.0  # the first, unbiased sample: how often each piece is in a set
POOL_S = 50.0  # the main sample, rare pieces favoured
REFILL_S = 8.0  # sampling among the remaining pieces, after each frame or infeasible LP
RESTART_NODES = 100_000  # search nodes per sampling restart
COMPACT_ROWS = 500_000  # sampled rows kept before repeats are dropped (inside the time)
ALLOWED = 0.4  # share of the pieces an average sampling restart allows
LP_RETRIES = 4  # refills of an infeasible LP before the dive gives up
FINISH_S = 120.0  # listing and exact cover at the end of a dive

# (dives begun, frames fixed in this dive, sets in the pool)
DiveProgress = Callable[[int, int, int], None]


@dataclass
class DiveResult(Answer):
    """Frames' stage 1 and 2 by LP dives (its JSON is the answer's ``stage1``)."""

    # sat | unknown; unsat only when the exact finish was the whole search
    status: Status = field(metadata={"json": False})
    sets: np.ndarray | None = field(metadata={"json": False})  # (n, pieces) bool, when sat
    dives: int
    pool: int = field(metadata={"key": "sets"})  # sets sampled
    lps: int  # LP relaxations solved
    time_s: float
    interrupted: bool = field(default=False, metadata={"json": False})
    stats: Stats | None = field(default=None, metadata={"json": False})


def _part(frames: Frames, pieces: np.ndarray) -> Frames:
    """The puzzle restricted to ``pieces``, with as many frames as their area fills."""
    return Frames(frames.frame, [frames.pieces[i] for i in pieces],
                  max(int(frames.sizes[pieces].sum()) // frames.frame_area, 1),
                  name=frames.name, precheck=False)


class _SampledSoFar(KeyboardInterrupt):
    """Ctrl-C during sampling, carrying the sets sampled until then (the report counts
    them)."""

    def __init__(self, sets: np.ndarray) -> None:
        super().__init__()
        self.sets = sets


class _Sampler:
    """Sets that fill one frame from some of the pieces, sampled by search restarts."""

    def __init__(self, frames: Frames, pieces: np.ndarray, rng: np.random.Generator) -> None:
        self.n_all = len(frames.pieces)
        self.pieces = pieces
        tiling = _part(frames, pieces).frame_tiling()
        self.search = CoverSearch(from_model(tiling.build_model()), collect=True, buffer=4096)
        self.piece_of_row = tiling.placement_pieces()
        self.first = tiling.placements_covering(int(tiling.sweep_order()[0]))
        self.rng = rng

    def sample(self, seconds: float, weight: np.ndarray | None = None,
               deadline: float | None = None) -> np.ndarray:
        """Distinct sets (bool rows over all the puzzle's pieces) found in ``seconds``;
        ``weight`` (per piece of this sampler) makes a piece allowed more often."""
        n = len(self.pieces)
        allow = np.full(n, ALLOWED) if weight is None else np.clip(
            ALLOWED * weight / weight.mean(), 0.03, 0.97)
        stop = time.monotonic() + seconds
        if deadline is not None:
            stop = min(stop, deadline)
        por, found, kept = self.piece_of_row, [], 0
        try:
            while time.monotonic() < stop and len(self.first):
                allowed = self.rng.random(n) < allow
                start = int(self.rng.choice(self.first))
                allowed[por[start]] = True
                self.search.restart([start], np.flatnonzero(~allowed[por]))
                while not self.search.done and self.search.nodes < RESTART_NODES:
                    mat = self.search.step_matrix(20_000)
                    if len(mat):
                        line, slot = np.nonzero(mat >= 0)
                        rows = np.zeros((len(mat), self.n_all), dtype=bool)
                        rows[line, self.pieces[por[mat[line, slot]]]] = True
                        found.append(np.packbits(rows, axis=1))
                        kept += len(rows)
                        if kept > COMPACT_ROWS:  # drop repeats while there is time
                            found = [unique_rows(np.concatenate(found))]
                            kept = len(found[0])
        except KeyboardInterrupt:
            raise _SampledSoFar(self._rows(found)) from None
        return self._rows(found)

    def _rows(self, found: list[np.ndarray]) -> np.ndarray:
        if not found:
            return np.zeros((0, self.n_all), dtype=bool)
        packed = unique_rows(np.concatenate(found))
        return np.unpackbits(packed, axis=1, count=self.n_all).astype(bool)


def _lp(sets: np.ndarray, remaining: np.ndarray, rng: np.random.Generator,
        time_limit: float | None) -> tuple[np.ndarray, float, np.ndarray] | None:
    """Phase one of the LP relaxation over ``sets`` (each within ``remaining``): the set
    values, the least total slack (0 when some fractional choice covers every piece once)
    and each piece's price; None when the LP did not finish."""
    n, k = len(sets), len(remaining)
    line, piece = np.nonzero(sets[:, remaining])
    a = csc_matrix((np.ones(len(line)), (piece, line)), shape=(k, n))
    a = hstack([a, identity(k), -identity(k)]).tocsc()
    cost = np.concatenate([rng.uniform(0, 1e-3, n), np.ones(2 * k)])
    options = {} if time_limit is None else {"time_limit": max(time_limit, 1.0)}
    r = linprog(cost, A_eq=a, b_eq=np.ones(k), bounds=(0, 1), method="highs",
                options=options)
    if r.status != 0:
        return None
    return r.x[:n], float(r.x[n:].sum()), np.abs(r.eqlin.marginals)


def _finish(frames: Frames, remaining: np.ndarray,
            time_limit: float) -> tuple[np.ndarray | None, bool]:
    """Every set among the ``remaining`` pieces, then an exact cover of them by those sets:
    the sets (bool rows over all pieces) or None, and whether None is a proof (both
    searches ran to their end)."""
    rest = _part(frames, remaining)
    started = time.monotonic()
    listed = enumerate_sets(rest, cache=False, time_limit=time_limit)
    if not len(listed.sets) or not listed.sets.any(axis=0).all():
        return None, listed.complete
    left = max(time_limit - (time.monotonic() - started), 1.0)
    result = get_backend("exact-cover").solve(cover_model(rest, listed.sets), time_limit=left)
    if result.status is not Status.SAT:
        return None, listed.complete and result.status is Status.UNSAT
    chosen = listed.sets[decode_cover(result.values)]
    out = np.zeros((len(chosen), len(frames.pieces)), dtype=bool)
    out[:, remaining] = chosen
    return out, True


def _key(mask: np.ndarray) -> bytes:
    return np.packbits(mask).tobytes()


def _choose(sets: np.ndarray, x: np.ndarray, remaining: np.ndarray, dead: set[bytes],
            sizes: np.ndarray, finish_area: int) -> np.ndarray | None:
    """The set of largest LP value among those that leave no dead end for the finish."""
    for i in np.argsort(-x, kind="stable"):
        if x[i] <= 1e-9:
            break
        left = remaining & ~sets[i]
        if sizes[left].sum() > finish_area or _key(left) not in dead:
            return sets[i]
    return None


def solve_dive(frames: Frames, time_limit: float | None = None, seed: int = 0,
               progress: DiveProgress | None = None,
               note: Callable[[str], None] | None = None) -> DiveResult:
    """One answer by LP-guided diving (see the module docstring), or unknown."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    rng = np.random.default_rng(seed)
    n_pieces = len(frames.pieces)
    finish_area = FINISH_FRAMES * frames.frame_area
    everything = np.arange(n_pieces)
    dives = lps = 0
    pool = np.zeros((0, n_pieces), dtype=bool)
    dead: set[bytes] = set()  # pieces left (packed masks) proven not to split into frames
    banned: set[bytes] = set()  # sets (packed) in no answer: their complement is dead

    def result(status: str, sets: np.ndarray | None = None, **kw) -> DiveResult:
        return DiveResult(status, sets, dives, len(pool), lps, time.monotonic() - started, **kw)

    def out_of_time() -> bool:
        return deadline is not None and time.monotonic() > deadline

    def add(new: np.ndarray) -> None:
        nonlocal pool
        packed = unique_rows(np.packbits(np.concatenate([pool, new]), axis=1))
        if banned:
            packed = packed[[row.tobytes() not in banned for row in packed]]
        pool = np.unpackbits(packed, axis=1, count=n_pieces).astype(bool)

    def inside(remaining: np.ndarray) -> np.ndarray:
        """Which pool sets use only ``remaining`` pieces."""
        return ~pool[:, np.setdiff1d(everything, remaining)].any(axis=1)

    try:
        whole = None
        if frames.sizes.sum() > finish_area:  # else the finish is the whole search
            whole = _Sampler(frames, everything, rng)
            add(whole.sample(PROBE_S, deadline=deadline))
            share = pool.sum(axis=0) / max(len(pool), 1) + 1.0 / max(len(pool), 1)
            add(whole.sample(POOL_S, 1.0 / share, deadline))
        while not out_of_time():
            dives += 1
            chosen: list[np.ndarray] = []
            remaining, sampler = everything, whole  # the sampler of the remaining pieces
            while frames.sizes[remaining].sum() > finish_area and not out_of_time():
                if progress:
                    progress(dives, len(chosen), len(pool))
                for _ in range(LP_RETRIES):
                    left = None if deadline is None else deadline - time.monotonic()
                    usable = inside(remaining)
                    lp = _lp(pool[usable], remaining, rng, left)
                    lps += 1
                    if lp is None or lp[1] < 1e-6:
                        break
                    add(sampler.sample(REFILL_S, lp[2] + 0.05, deadline))
                if lp is None or lp[1] >= 1e-6:
                    break
                x = lp[0]
                left = ~np.any(chosen, axis=0) if chosen else np.ones(n_pieces, dtype=bool)
                best = _choose(pool[usable], x, left, dead, frames.sizes, finish_area)
                if best is None:
                    break
                chosen.append(best)
                remaining = np.flatnonzero(~np.any(chosen, axis=0))
                if note:
                    names = " ".join(frames.pieces[i].name for i in np.flatnonzero(best))
                    note(f"dive {dives}, frame {len(chosen)} (LP value {x.max():.2f}): {names}")
                sampler = _Sampler(frames, remaining, rng)
                add(sampler.sample(REFILL_S, deadline=deadline))
            else:
                if out_of_time():
                    break
                left = FINISH_S if deadline is None else min(FINISH_S,
                                                            deadline - time.monotonic())
                rest, proof = _finish(frames, remaining, max(left, 1.0))
                if rest is None and proof and not chosen:  # the finish was the whole search
                    return result("unsat")
                if rest is None and proof:
                    dead.add(_key(~np.any(chosen, axis=0)))
                    if len(chosen) == 1:
                        banned.add(_key(chosen[0]))
                        add(pool[:0])
                if rest is not None:
                    fixed = np.array(chosen, dtype=bool).reshape(-1, n_pieces)
                    return result("sat", np.concatenate([fixed, rest]))
                if note:
                    note(f"dive {dives}: the last {len(remaining)} pieces do not split into "
                         "frames")
    except KeyboardInterrupt as stop:
        if isinstance(stop, _SampledSoFar):
            add(stop.sets)
        return result("unknown", interrupted=True)
    return result("unknown")
