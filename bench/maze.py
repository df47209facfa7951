"""Maze-sequence benchmarks: the windows of the known 79-move string (``--width`` letters
replaced by one fewer free moves: is there a 78-move string that differs from it only
there?), and the 4x4 searches from scratch.

    python bench/maze.py windows [--offsets 0,27,53|all] [--width 26] [--time-limit 60]
                                 [--backends mdd,sat]
    python bench/maze.py four [--lengths 28,29] [--time-limit 600]
    python bench/maze.py stars [--stars 5,10,15] [--time-limit 60] [--backends sat,z3,cpsat]
    python bench/maze.py seeds [--lengths 29] [--seeds 6] [--time-limit 600]   (local search)

One process; back ends interleaved per pattern. Prints Markdown rows.
"""

from __future__ import annotations

import argparse

from smtpuzzle.puzzles.maze.cases import KNOWN_79
from smtpuzzle.puzzles.maze.search import search


def row(label: str, backend: str, pattern: str, size: int, limit: float, seed: int = 0) -> None:
    r = search(pattern, size, backend, time_limit=limit, seed=seed)
    print(f"| {label} | {backend} | {r.status} | {r.mazes_added} | {r.time_s:.2f} | "
          f"{r.solver_time_s:.2f} | {r.string or '-'} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["windows", "four", "stars", "seeds"])
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--offsets", default="0,27,53")
    ap.add_argument("--width", type=int, default=26)
    ap.add_argument("--lengths", default="28,29")
    ap.add_argument("--stars", default="5,10,15")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--backends", default="sat")
    args = ap.parse_args()
    print("| pattern | back end | status | mazes added | time s | solver s | string |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- |")
    backends = args.backends.split(",")
    if args.what == "windows":
        w = args.width
        offsets = range(len(KNOWN_79) - w + 1) if args.offsets == "all" else \
            map(int, args.offsets.split(","))
        for a in offsets:
            pattern = KNOWN_79[:a] + "*" * (w - 1) + KNOWN_79[a + w:]
            for b in backends:
                row(f"window at {a} ({w} -> {w - 1} stars)", b, pattern, 3, args.time_limit)
    elif args.what == "stars":
        for n in map(int, args.stars.split(",")):
            pattern = KNOWN_79[:30] + "*" * n + KNOWN_79[30 + n:]
            for b in backends:
                row(f"{n} stars at 30", b, pattern, 3, args.time_limit)
    elif args.what == "seeds":
        for n in map(int, args.lengths.split(",")):
            for seed in range(args.seeds):
                row(f"4x4, {n} stars, seed {seed}", "local", "*" * n, 4, args.time_limit, seed)
    else:
        for n in map(int, args.lengths.split(",")):
            for b in backends:
                row(f"4x4, {n} stars", b, "*" * n, 4, args.time_limit)


if __name__ == "__main__":
    main()
