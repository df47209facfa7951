"""Nonogram benchmarks: every puzzle of webpbn-free and jwilk, decided (uniqueness included)
by each encoding x back end, with and without the presolve; ``--sets colour``: the shipped
colour puzzles and colour pictures made here from fixed seeds (sparse noise, which has many
solutions and needs search; smoothed colour fields, up to 80 x 80).

    python bench/nonogram.py [--time-limit 10] [--configs default,...] [--sets webpbn,jwilk]

One process; for each puzzle the configurations run one after another (interleaved), so
machine noise hits them alike. Prints one Markdown row per configuration: puzzles decided,
total and largest time, the undecided ones; then the per-puzzle times of webpbn-free.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.nonogram_files import load_nonogram
from smtpuzzle.puzzles.nonogram.clues import Colour
from smtpuzzle.puzzles.nonogram.puzzle import DEFAULT_ENCODING, Nonogram
from smtpuzzle.puzzles.nonogram.solve import DEFAULT_BACKEND, solve_nonogram

ROOT = Path(__file__).resolve().parent.parent / "models" / "nonograms"
SETS = {"webpbn": sorted((ROOT / "webpbn-free").glob("*.non")),
        "jwilk": sorted((ROOT / "jwilk").glob("*.nin")),
        "colour": sorted((ROOT / "webpbn-free").glob("*.xml"))
        + sorted(p for p in (ROOT / "colour").glob("*") if p.suffix != ".md")}
PALETTE = tuple(Colour(n, ch, rgb) for n, ch, rgb in [
    ("white", ".", "#ffffff"), ("black", "X", "#000000"), ("red", "r", "#e41a1c"),
    ("blue", "b", "#377eb8"), ("green", "g", "#4daf4a"), ("orange", "o", "#ff7f00")])
# Made colour pictures: (size, colours, share of background or None, smoothing passes, seed).
MADE = [(30, 3, 0.6, 0, 1), (40, 3, 0.6, 0, 1), (40, 4, 0.7, 0, 1), (50, 3, 0.6, 0, 1),
        (60, 5, None, 2, 1), (80, 4, None, 1, 1)]


def made_colour(size: int, colours: int, background: float | None, smooth: int,
                seed: int) -> Nonogram:
    """A colour picture: noise with the given share of background, or a colour field (noise
    smoothed by 3x3 majority ``smooth`` times), read as a nonogram."""
    rng = np.random.default_rng(seed)
    if background is None:
        grid = rng.integers(0, colours, (size, size))
    else:
        share = [background] + [(1 - background) / (colours - 1)] * (colours - 1)
        grid = rng.choice(colours, size=(size, size), p=share)
    for _ in range(smooth):
        pad = np.pad(grid, 1, mode="edge")
        near = np.stack([pad[1 + dr:size + 1 + dr, 1 + dc:size + 1 + dc]
                         for dr in (-1, 0, 1) for dc in (-1, 0, 1)])
        grid = np.stack([(near == c).sum(0) for c in range(colours)]).argmax(0)

    def runs(line: np.ndarray) -> list[tuple[int, int]]:
        return [(len(list(g)), int(c)) for c, g in itertools.groupby(line.tolist()) if c]

    kind = "field" if background is None else f"noise{int(100 * (1 - background))}"
    return Nonogram([runs(r) for r in grid], [runs(c) for c in grid.T],
                    name=f"made-{kind}-{size}x{size}-{colours}c", colours=PALETTE[:colours])
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
    sets = args.sets.split(",")
    files: list[Path | Nonogram] = [f for s in sets for f in SETS[s]]
    if "colour" in sets:
        files += [made_colour(*m) for m in MADE]
    # load the compiled line solvers once
    solve_nonogram(load_nonogram(SETS["webpbn"][2]))
    solve_nonogram(load_nonogram(SETS["colour"][0]))
    rows: dict[str, list[tuple[str, str, float]]] = {c: [] for c in configs}
    rejected = []
    for path in files:
        try:
            puzzle = path if isinstance(path, Nonogram) else load_nonogram(path)
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
