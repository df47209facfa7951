"""Nonogram benchmarks: every puzzle of webpbn-free and jwilk, decided (uniqueness included)
by each encoding x back end, with and without the presolve.

    python bench/nonogram.py [--time-limit 10] [--configs default,...] [--sets webpbn,jwilk]

One process; for each puzzle the configurations run one after another (interleaved), so
machine noise hits them alike. Prints one Markdown row per configuration: puzzles decided,
total and largest time, the undecided ones; then the per-puzzle times of webpbn-free.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.nonogram_files import load_nonogram
from smtpuzzle.puzzles.nonogram.puzzle import DEFAULT_ENCODING
from smtpuzzle.puzzles.nonogram.solve import DEFAULT_BACKEND, solve_nonogram

ROOT = Path(__file__).resolve().parent.parent / "models" / "nonograms"
SETS = {"webpbn": sorted((ROOT / "webpbn-free").glob("*.non")),
        "jwilk": sorted((ROOT / "jwilk").glob("*.nin"))}
# name: (backend, encoding, presolve, guess)
CONFIGS = {
    "default": (DEFAULT_BACKEND, DEFAULT_ENCODING, True, True),
    "default-noguess": (DEFAULT_BACKEND, DEFAULT_ENCODING, True, False),
    "sat-runs": ("sat", "runs", True, True),
    "sat-automaton": ("sat", "automaton", True, True),
    "cpsat-order": ("cpsat", "order", True, True),
    "cpsat-runs": ("cpsat", "runs", True, True),
    "cpsat-automaton": ("cpsat", "automaton", True, True),
    "z3-order": ("z3", "order", True, True),
    "z3-runs": ("z3", "runs", True, True),
    "z3-automaton": ("z3", "automaton", True, True),
    "sat-order-nopre": ("sat", "order", False, True),
    "sat-runs-nopre": ("sat", "runs", False, True),
    "cpsat-automaton-nopre": ("cpsat", "automaton", False, True),
    "z3-runs-nopre": ("z3", "runs", False, True),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--sets", default="webpbn,jwilk")
    args = ap.parse_args()
    configs = args.configs.split(",")
    files = [f for s in args.sets.split(",") for f in SETS[s]]
    solve_nonogram(load_nonogram(SETS["webpbn"][2]))  # load the compiled line solver once
    rows: dict[str, list[tuple[str, str, float]]] = {c: [] for c in configs}
    rejected = []
    for path in files:
        try:
            puzzle = load_nonogram(path)
        except PuzzleError as exc:
            rejected.append(str(exc))
            continue
        for c in configs:
            backend, encoding, pre, guess = CONFIGS[c]
            t0 = time.perf_counter()
            ans = solve_nonogram(puzzle, backend, encoding=encoding, use_presolve=pre,
                                 time_limit=args.time_limit, guess=guess)
            rows[c].append((puzzle.name, ans.status, time.perf_counter() - t0))
        print(f"{puzzle.name}: " + ", ".join(f"{c} {rows[c][-1][1]} {rows[c][-1][2]:.2f}s"
                                              for c in configs), flush=True)
    print(f"\n{len(rows[configs[0]])} puzzles, time limit {args.time_limit:g} s; "
          f"rejected: {rejected or 'none'}\n")
    print("| configuration | decided | unique | multiple | none | total s | max s | undecided |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for c in configs:
        r = rows[c]
        decided = [x for x in r if x[1] != "unknown"]
        by = {v: sum(1 for x in r if x[1] == v) for v in ("unique", "multiple", "none")}
        print(f"| {c} | {len(decided)}/{len(r)} | {by['unique']} | {by['multiple']} | "
              f"{by['none']} | {sum(x[2] for x in r):.1f} | {max(x[2] for x in r):.2f} | "
              f"{', '.join(x[0] for x in r if x[1] == 'unknown') or '-'} |")


if __name__ == "__main__":
    main()
