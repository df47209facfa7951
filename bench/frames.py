"""Frames benchmarks: stage 2 per back end and model, and the two-stage method against one
direct model of all frames at once.

    python bench/frames.py stage2 [MODEL] [--time-limit S]
    python bench/frames.py direct [MODEL] [--time-limit S]
    python bench/frames.py tilings [--time-limit S] [--repeat 3]
    python bench/frames.py cubes [MODEL] [--backends cpsat,z3] [--workers 1,2] [--repeat 3]

``stage2`` reads the stage-1 list (from the cache after the first run) and times each back
end on the cover, index and table models. ``direct`` tiles one board made of the n frames side by
side (a column of holes between them, so no piece crosses) with every back end.
``cubes`` times stage 2 by cube and conquer (cubes.py) per back end and worker count, each
answer laid out and verified.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from smtpuzzle.backends import get_backend
from smtpuzzle.geometry.board import Board
from smtpuzzle.library import load, load_frames
from smtpuzzle.puzzles.frames.puzzle import Frames
from smtpuzzle.puzzles.frames.sets import enumerate_sets
from smtpuzzle.puzzles.frames.solve import solve_frames
from smtpuzzle.puzzles.frames.stage2 import cover_model, index_model, seed_model, table_model
from smtpuzzle.puzzles.tiling.puzzle import Piece, Tiling
from smtpuzzle.puzzles.tiling.solve import solve_tiling


def stage2(name: str, time_limit: float) -> None:
    puzzle = load_frames(name)
    t0 = time.perf_counter()
    sets = enumerate_sets(puzzle, workers=2)
    print(f"{name}: stage 1 {len(sets.sets)} sets, {time.perf_counter() - t0:.1f} s "
          f"({'cache' if sets.cached else 'listed'})")
    print("| back end | model | status | build s | solve s | variables | constraints |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for backend, kind in [(b, k) for b in ("exact-cover", "cpsat", "sat", "z3")
                          for k in ("cover", "index", "table", "seed")
                          if b != "exact-cover" or k == "cover"]:
        if kind in ("table", "seed"):
            model = (table_model if kind == "table" else seed_model)(puzzle, sets.sets)[0]
        else:
            model = (cover_model if kind == "cover" else index_model)(puzzle, sets.sets)
        r = get_backend(backend).solve(model, time_limit=time_limit)
        print(f"| {backend} | {kind} | {r.status.value} | {r.stats.build_time:.1f} | "
              f"{r.stats.solve_time:.1f} | {r.stats.variables:,} | {r.stats.constraints:,} |",
              flush=True)


TILINGS = ["pentomino-6x10", "pentomino-8x8-square", "pentacube-3x4x5", "soma-3x3x3"]


def tilings(time_limit: float, repeat: int) -> None:
    """First tilings on both models: build and solve medians, status, model size."""
    print("| puzzle | back end | model | status | build s | solve s | variables | constraints |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: |")
    for name in TILINGS:
        tiling = load(name)
        for backend in ("cpsat", "z3", "sat"):
            for kind in ("placements", "index"):
                runs = []
                for _ in range(repeat):
                    answer = solve_tiling(tiling, backend, time_limit=time_limit, model=kind)
                    runs.append(answer)  # each solution verified by solve_tiling
                builds = [a.stats.build_time for a in runs if a.stats is not None]
                solves = [a.stats.solve_time for a in runs if a.stats is not None]
                stats = runs[-1].stats
                statuses = ", ".join(sorted({a.status.value for a in runs}))
                print(f"| {name} | {backend} | {kind} | {statuses} | "
                      f"{statistics.median(builds):.2f} | {statistics.median(solves):.2f} | "
                      f"{stats.variables:,} | {stats.constraints:,} |", flush=True)


def cubes(name: str, backends: list[str], workers: list[int], time_limit: float,
          repeat: int) -> None:
    """Stage 2 cube by cube: medians of ``repeat`` runs, stage 1 read from the cache."""
    puzzle = load_frames(name)
    enumerate_sets(puzzle, workers=2)  # fill the cache first
    print("| back end | workers | status | stage 2 s (median) | runs | top cubes decided | "
          "solves |")
    print("| --- | ---: | --- | ---: | --- | ---: | ---: |")
    for backend in backends:
        for w in workers:
            runs = [solve_frames(puzzle, stage2=backend, stage2_model="cubes", workers=w,
                                 time_limit=time_limit) for _ in range(repeat)]
            for a in runs:
                for solution in a.solutions:
                    puzzle.verify(solution)
            times = [a.stage2["time_s"] for a in runs]
            s2 = runs[-1].stage2
            print(f"| {backend} | {w} | {', '.join(sorted({a.status.value for a in runs}))} | "
                  f"{statistics.median(times):.1f} | {', '.join(f'{t:.1f}' for t in times)} | "
                  f"{s2['decided']:,} of {s2['cubes']:,} | {s2['calls']:,} |", flush=True)


def direct_tiling(puzzle: Frames) -> Tiling:
    """The n frames side by side on one board, separated by a column of holes."""
    rows, cols = puzzle.frame.dims[0], puzzle.frame.dims[1]
    width = puzzle.n * (cols + 1) - 1
    mask = np.zeros((rows, width), dtype=bool)
    for k in range(puzzle.n):
        mask[:, k * (cols + 1):k * (cols + 1) + cols] = puzzle.frame.mask
    board = Board((rows, width), [tuple(c) for c in np.argwhere(~mask).tolist()])
    pieces = [Piece(p.name, p.shape, 1, flip=p.flip) for p in puzzle.pieces]
    return Tiling(board, pieces, name=f"{puzzle.name}-direct", apart=list(puzzle.apart))


def direct(name: str, time_limit: float) -> None:
    tiling = direct_tiling(load_frames(name))
    model = tiling.build_model()
    print(f"{name}: one board of {tiling.board.size_text}, {tiling.num_placements} placements")
    print("| back end | status | build s | solve s |")
    print("| --- | --- | ---: | ---: |")
    for backend in ("exact-cover", "cpsat", "sat", "z3"):
        r = get_backend(backend).solve(model, time_limit=time_limit)
        if r.values is not None:
            tiling.verify(tiling.decode(r.values))
        print(f"| {backend} | {r.status.value} | {r.stats.build_time:.1f} | "
              f"{r.stats.solve_time:.1f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["stage2", "direct", "tilings", "cubes"])
    ap.add_argument("model", nargs="?", default="hexomino-6x6x6")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--backends", default="cpsat,z3")
    ap.add_argument("--workers", default="1,2")
    args = ap.parse_args()
    if args.what == "cubes":
        cubes(args.model, args.backends.split(","), [int(w) for w in args.workers.split(",")],
              args.time_limit, args.repeat)
    elif args.what == "tilings":
        tilings(args.time_limit, args.repeat)
    else:
        (stage2 if args.what == "stage2" else direct)(args.model, args.time_limit)


if __name__ == "__main__":
    main()
