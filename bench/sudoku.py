"""Every shipped Sudoku set decided (uniqueness proven) by each back end: the side-by-side
table of z3, cpsat and sat on the same models.

    python bench/sudoku.py [--backends cpsat,sat,z3] [--time-limit 60]

One process; for each puzzle the back ends run one after another. Prints per set and back
end: puzzles decided, unique, median and largest time.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from smtpuzzle.formats.sudoku import load_sudokus
from smtpuzzle.puzzles.sudoku.solve import solve_sudoku

SETS = sorted((Path(__file__).resolve().parent.parent / "models" / "sudoku").glob("*.sudoku"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backends", default="cpsat,sat,z3")
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    backends = args.backends.split(",")
    print("| set | back end | puzzles | unique | median s | max s | slowest |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for path in SETS:
        puzzles = load_sudokus(path)
        times: dict[str, list[tuple[float, str, str]]] = {b: [] for b in backends}
        for p in puzzles:
            for b in backends:
                ans = solve_sudoku(p, b, time_limit=args.time_limit)
                times[b].append((ans.time_s, ans.status.value, p.name))
        for b in backends:
            t = times[b]
            slow = max(t)
            print(f"| {path.stem} | {b} | {len(t)} | {sum(s == 'unique' for _, s, _ in t)} | "
                  f"{statistics.median(x for x, _, _ in t):.3f} | {slow[0]:.2f} | "
                  f"{slow[2].split('/')[-1]} |", flush=True)


if __name__ == "__main__":
    main()
