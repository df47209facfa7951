"""Frames stage 1: every distinct set of pieces that fills one frame (layouts not kept).

A projected enumeration: the exact-cover engine lists the tilings of one frame with each
piece at most once, and each tiling is reduced at once to its piece set (a bit row) and
de-duplicated in numpy. The search is split into sub-problems by the placements covering the
frame's first cell, which ``workers`` processes share. Sets are kept only when the frame
composition (pieces per size) can be part of a split of all pieces into the n frames.

A complete list is cached on disk, keyed by the frame and the pieces, so the next run of the
same puzzle starts at stage 2.
"""

from __future__ import annotations

import hashlib
import os
import time
import zipfile
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from smtpuzzle.backends import Backend, get_backend
from smtpuzzle.backends.exactcover import CoverSearch, from_model
from smtpuzzle.errors import ProcessDied
from smtpuzzle.model import Model, headed_groups
from smtpuzzle.puzzles.frames.puzzle import Frames
from smtpuzzle.puzzles.tiling.puzzle import Tiling
from smtpuzzle.runtime.taskpool import TaskTimeout, stop_asked, task_pool

CACHE_VERSION = 1
MERGE_EVERY = 1_000_000  # raw set rows gathered before de-duplicating
GRACE_S = 10.0  # how long past the deadline to wait for workers' partial lists
STOP_GRACE_S = 5.0  # after Ctrl-C: how long to wait for the workers' partial lists

# (sets so far, tilings so far, sub-problems done, sub-problems)
Stage1Progress = Callable[[int, int, int, int], None]


@dataclass
class SetList:
    """Distinct piece sets that fill one frame, as bool rows over the puzzle's pieces."""

    sets: np.ndarray  # (N, pieces) bool, rows sorted
    complete: bool  # every tiling was searched (else: a time limit, Ctrl-C or max_sets)
    time_s: float
    tilings: int  # tilings listed on the way (0 when read from the cache)
    cached: bool = False
    stopped: str = ""  # why an incomplete list stopped: interrupted, time limit, too many
    lost: str = ""  # a worker died (the list stopped as if interrupted): what happened to it

    @property
    def too_many(self) -> bool:
        return self.stopped == "too many"

    def as_json(self) -> dict:
        return {"sets": int(len(self.sets)), "complete": self.complete,
                "time_s": round(self.time_s, 3), "tilings": self.tilings,
                "cached": self.cached}


def unique_rows(packed: np.ndarray) -> np.ndarray:
    """``np.unique(packed, axis=0)`` for rows of bytes: the same rows in the same order,
    about five times faster (the rows are read as big-endian 64-bit words and lexsorted),
    which keeps the deadline of a search that collects millions of sets."""
    n, w = packed.shape
    if n < 2:
        return packed.copy()
    padded = np.zeros((n, -(-w // 8) * 8), dtype=np.uint8)
    padded[:, :w] = packed
    words = padded.view(">u8")  # big-endian: numeric order is the bytes' order
    order = np.lexsort(words.T[::-1])
    ordered = words[order]
    keep = np.ones(n, dtype=bool)
    keep[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return packed[order[keep]]


class _Collector:
    """Turns solution rows (placements) into distinct packed piece-set rows."""

    def __init__(self, piece_of_row: np.ndarray, n_pieces: int) -> None:
        self.piece_of_row = piece_of_row
        self.n_pieces = n_pieces
        self.nbytes = (n_pieces + 7) // 8
        self.kept = np.zeros((0, self.nbytes), dtype=np.uint8)
        self.pending: list[np.ndarray] = []
        self.pending_rows = 0
        self.tilings = 0

    def add(self, matrix: np.ndarray) -> None:
        if not len(matrix):
            return
        self.tilings += len(matrix)
        members = np.zeros((len(matrix), self.n_pieces), dtype=bool)
        line, slot = np.nonzero(matrix >= 0)
        members[line, self.piece_of_row[matrix[line, slot]]] = True
        self.pending.append(np.packbits(members, axis=1))
        self.pending_rows += len(matrix)
        if self.pending_rows >= MERGE_EVERY:
            self.merge()

    def merge(self) -> np.ndarray:
        if self.pending:
            self.kept = unique_rows(np.concatenate([self.kept, *self.pending]))
            self.pending, self.pending_rows = [], 0
        return self.kept


@dataclass
class _Job:
    frames: Frames
    tiling: Tiling  # the one-frame tiling, every piece at most once
    search: CoverSearch
    starts: list[int]  # sub-problems: the placement forced at the first cell
    piece_of_row: np.ndarray


_PREPARED: dict[str, _Job] = {}  # per process: the parent's, inherited, or built on a Ray node


def _prepare(frames: Frames) -> _Job:
    tiling = frames.frame_tiling()
    search = CoverSearch(from_model(tiling.build_model()), collect=True, buffer=65536)
    first = int(tiling.sweep_order()[0])
    return _Job(frames, tiling, search, tiling.placements_covering(first).tolist(),
                tiling.placement_pieces())


def _search_one(job: _Job, i: int, collector: _Collector, deadline: float | None,
                tick: Callable[[], bool] | None = None) -> bool:
    """Search sub-problem ``i`` into ``collector``; False when stopped early."""
    job.search.restart([job.starts[i]], [])
    while not job.search.done:
        if deadline is not None and time.monotonic() > deadline:
            return False
        collector.add(job.search.step_matrix())
        if tick is not None and not tick():
            return False
    return True


def _prepared(frames: Frames) -> _Job:
    key = cache_key(frames)
    if key not in _PREPARED:
        _PREPARED.clear()
        _PREPARED[key] = _prepare(frames)
    return _PREPARED[key]


def _work(spec: tuple[Frames, int | None], i: int, deadline: float | None,
          ) -> tuple[np.ndarray, int, bool]:
    """One sub-problem's distinct sets, its tilings, and whether it was searched to the end.
    Stopped (in a pool worker, Tasks.stop asks), it hands back the sets it had listed."""
    frames, max_sets = spec
    job = _prepared(frames)
    collector = _Collector(job.piece_of_row, len(job.frames.pieces))

    def tick() -> bool:
        return max_sets is None or len(collector.kept) + collector.pending_rows <= max_sets or \
            len(collector.merge()) <= max_sets

    try:
        ok = _search_one(job, i, collector, deadline, tick)
    except KeyboardInterrupt:
        if not stop_asked():  # not the pool's request: a failure, as it was
            raise
        ok = False
    return collector.merge(), collector.tilings, ok


def enumerate_sets(frames: Frames, workers: int = 1, time_limit: float | None = None,
                   max_sets: int | None = None, progress: Stage1Progress | None = None,
                   cache: bool = True, backend: str = "exact-cover",
                   solver: str | None = None, ray: str | None = None) -> SetList:
    """Every distinct piece set that fills one frame. Stops, marked incomplete, at the time
    limit, on Ctrl-C, or once more than ``max_sets`` sets are known. Back ends other than
    exact cover enumerate a projected model (solutions blocked on the pieces used).
    ``workers`` > 1 shares the sub-problems out to forked processes, ``ray`` (an address,
    ``auto`` or ``local``) to a Ray cluster."""
    started = time.monotonic()
    if cache:
        hit = load_cached(frames)
        if hit is not None:
            return hit
    engine = get_backend(backend, solver)
    if engine.capabilities.any_constraint:  # a solver: the projected model, blocked on sets
        result = _enumerate_projected(frames, engine, time_limit, max_sets, progress)
        if result.complete and cache:
            store(frames, result)
        return result
    deadline = None if time_limit is None else started + time_limit
    job = _prepared(frames)  # before any fork: workers inherit it
    n_sub = len(job.starts)
    collector = _Collector(job.piece_of_row, len(frames.pieces))
    done, stopped, lost = 0, "", ""
    found = 0  # sets so far (distinct within each sub-problem: an upper bound across them)

    def over() -> bool:
        return max_sets is not None and found > max_sets

    def report() -> None:
        if progress:
            progress(found, collector.tilings, done, n_sub)

    def tick() -> bool:
        nonlocal found
        found = len(collector.kept) + collector.pending_rows
        report()
        if over():
            collector.merge()
            found = len(collector.kept)
        return not over()

    try:
        with (task_pool(_work, (frames, max_sets), workers, ray) if workers > 1 or ray
              else nullcontext()) as tasks:
            if tasks is None:
                for i in range(n_sub):
                    if not _search_one(job, i, collector, deadline, tick):
                        break
                    done += 1
                    report()
            else:
                def take(kept: np.ndarray, tilings: int) -> None:
                    collector.pending.append(kept)
                    collector.pending_rows += len(kept)
                    collector.tilings += tilings

                def handed_back(grace: float) -> None:
                    """Ask the busy workers to stop, and keep the sets they hand back."""
                    nonlocal done
                    for kept, tilings, ok in tasks.stop(grace):
                        take(kept, tilings)
                        done += ok  # finished just as they were asked

                results = tasks.map(list(range(n_sub)), deadline)
                try:
                    for _ in range(n_sub):
                        # Workers stop at the deadline and send what they found: wait for it.
                        left = None if deadline is None else \
                            max(deadline - time.monotonic(), 0) + GRACE_S
                        try:
                            kept, tilings, ok = results.next(timeout=left)
                        except TaskTimeout:
                            # the clock ran on while the job was stopped (Ctrl-Z): the
                            # workers, just continued, are asked for their sets
                            handed_back(STOP_GRACE_S)
                            break
                        take(kept, tilings)
                        if not ok:
                            break
                        done += 1
                        if not tick():
                            break
                        report()
                except KeyboardInterrupt:  # the workers hand back the sets they had listed
                    handed_back(STOP_GRACE_S)
                    raise
    except KeyboardInterrupt:
        stopped = "interrupted"
    except ProcessDied as exc:  # likewise: the sets listed so far stand
        stopped, lost = "interrupted", str(exc)
    finally:
        _PREPARED.clear()
    packed = collector.merge()
    complete = done == n_sub and not stopped  # a Ctrl-C at the very end stops it all the same
    if not complete and not stopped:
        stopped = "too many" if over() else "time limit"
    sets = _filtered(frames, np.unpackbits(packed, axis=1, count=len(frames.pieces)).astype(bool))
    result = SetList(sets, complete, time.monotonic() - started, collector.tilings,
                     stopped=stopped, lost=lost)
    if complete and cache:
        store(frames, result)
    return result


def projected_model(frames: Frames) -> Model:
    """The one-frame tiling model with one 'piece used' variable per piece as the user
    variables: a back end that blocks each solution on them lists piece sets, not layouts."""
    tiling = frames.frame_tiling()
    model = tiling.build_model()
    placements = model.user_vars
    used = model.new_bools(len(tiling.pieces))
    piece_of = tiling.placement_pieces()
    model.add_implications(placements, used[piece_of])
    model.add_clauses(headed_groups(-used, piece_of, placements))
    return model.projected(used, [p.name for p in tiling.pieces])


def _enumerate_projected(frames: Frames, engine: Backend, time_limit: float | None,
                         max_sets: int | None, progress: Stage1Progress | None) -> SetList:
    started = time.monotonic()
    enum = engine.solutions(projected_model(frames), time_limit=time_limit)
    rows: list[np.ndarray] = []
    stopped = ""
    try:
        for result in enum:
            rows.append(result.values.astype(bool))
            if progress:
                progress(len(rows), len(rows), 0, 1)
            if max_sets is not None and len(rows) > max_sets:
                stopped = "too many"
                break
    except KeyboardInterrupt:
        stopped = "interrupted"
    complete = enum.complete and not stopped
    if not complete and not stopped:
        stopped = "time limit"
    sets = np.array(rows, dtype=bool).reshape(-1, len(frames.pieces))
    sets = _filtered(frames, sets[np.lexsort(np.packbits(sets, axis=1).T[::-1])])
    return SetList(sets, complete, time.monotonic() - started, len(rows), stopped=stopped)


def piece_without_frame(frames: Frames, budget: int = 500_000,
                        deadline: float | None = None) -> str | None:
    """A piece that is in no tiling of one frame (so the puzzle has no answer), found by one
    search per piece over that piece's placements; None when every piece is in some tiling
    or a search ran out of ``budget`` nodes or the ``deadline`` (a ``time.monotonic()``
    value) passed (nothing is claimed then). Cheap next to stage 1: it needs one tiling per
    piece, not all of them. It shares stage 1's search arrays (built once per process, and
    inherited by its workers)."""
    job = _prepared(frames)
    search = job.search
    for k, piece in enumerate(job.tiling.pieces):
        rows = np.flatnonzero(job.piece_of_row == k)
        spent, found = 0, False
        for r in rows.tolist():
            if deadline is not None and time.monotonic() > deadline:
                return None
            search.restart([r], [])
            while not search.done and search.count == 0 and spent + search.nodes < budget:
                search.step(100_000)
            spent += search.nodes
            if search.count:
                found = True
                break
            if not search.done:
                return None
        if not found:
            return piece.name
    return None


def _filtered(frames: Frames, sets: np.ndarray) -> np.ndarray:
    """Keep the sets whose composition (pieces per size) some split into n frames uses."""
    per_size = frames.set_compositions(sets)
    allowed = np.array(frames.compositions(), dtype=np.int64).reshape(-1, per_size.shape[1])
    ok = (per_size[:, None, :] == allowed[None, :, :]).all(axis=2).any(axis=1)
    return sets[ok]


# -- the cache ------------------------------------------------------------------------------

def cache_dir() -> Path:
    """$SMTPUZZLE_CACHE, else $XDG_CACHE_HOME/smtpuzzle, else ~/.cache/smtpuzzle."""
    if os.environ.get("SMTPUZZLE_CACHE"):
        return Path(os.environ["SMTPUZZLE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "smtpuzzle"


def cache_key(frames: Frames) -> str:
    """What the list depends on: the frame cells, each piece (name, shape, reflections),
    the apart rule, n (through the compositions kept) and the format version."""
    h = hashlib.sha256()
    h.update(f"v{CACHE_VERSION};n={frames.n};dims={frames.frame.dims};".encode())
    h.update(frames.frame.mask.tobytes())
    for p in frames.pieces:
        flip = p.reflections(frames.frame.dim)
        h.update(f"{p.name}:{flip}:".encode())
        h.update(np.ascontiguousarray(p.shape.canonical(flip).cells).tobytes())
    h.update(("apart:" + ",".join(sorted(frames.apart))).encode())
    return h.hexdigest()[:20]


def cache_path(frames: Frames) -> Path:
    return cache_dir() / "frames" / f"{frames.name}-{cache_key(frames)}.npz"


def store(frames: Frames, result: SetList) -> None:
    path = cache_path(frames)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # a name of this process's own: two runs storing the same list at once must not
        # write into one file, or the one replaced first is the other's half-written one
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez_compressed(tmp, sets=np.packbits(result.sets, axis=1),
                            pieces=np.array([p.name for p in frames.pieces]),
                            time_s=result.time_s, tilings=result.tilings)
        tmp.replace(path)
    except OSError:
        pass  # a cache that cannot be written costs time next run, nothing else


def load_cached(frames: Frames) -> SetList | None:
    path = cache_path(frames)
    try:
        if not path.is_file():
            return None
    except OSError:  # $SMTPUZZLE_CACHE a name too long: no cache, as if empty
        return None
    t0 = time.monotonic()
    try:
        with np.load(path) as data:
            names = [str(x) for x in data["pieces"]]
            if names != [p.name for p in frames.pieces]:
                return None
            sets = np.unpackbits(data["sets"], axis=1, count=len(names)).astype(bool)
            tilings = int(data["tilings"])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None
    return SetList(sets, True, time.monotonic() - t0, tilings, cached=True)
