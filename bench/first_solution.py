"""First solution per back end on the tiling benchmarks, build and solve timed apart.

    python bench/first_solution.py [--repeat 3] [--time-limit 60] [PUZZLE ...]

All runs happen in one process, interleaved (repeat outer, back ends inner), so noise on a
shared machine hits every back end alike; the table reports medians and each back end's
ratio to the fastest on the same puzzle. Prints a Markdown table for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import statistics
import time

from smtpuzzle import get_backend, load

PUZZLES = ["pentomino-6x10", "pentomino-8x8-square", "pentacube-3x4x5"]
CONFIGS = [("cpsat", None), ("sat", "cadical195"), ("sat", "glucose4"), ("sat", "minisat22"),
           ("z3", "default"), ("z3", "qffd")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzles", nargs="*", default=PUZZLES)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    import ortools.sat.python.cp_model  # noqa: F401  imports are not build time
    import pysat.solvers  # noqa: F401
    import z3  # noqa: F401

    rows = []
    for name in args.puzzles:
        tiling = load(name)
        runs: dict[str, list[tuple[float, float, float, str]]] = {}
        for _ in range(args.repeat):
            for backend, solver in CONFIGS:
                t0 = time.perf_counter()
                model = tiling.build_model()
                model_time = time.perf_counter() - t0
                engine = get_backend(backend, solver)
                r = engine.solve(model, time_limit=args.time_limit)
                if r.values is not None:
                    tiling.verify(tiling.decode(r.values))
                runs.setdefault(engine.label(), []).append(
                    (model_time, r.stats.build_time, r.stats.solve_time, r.status.value))
        med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v),
                   statistics.median(x[2] for x in v), "/".join(sorted({x[3] for x in v})))
               for k, v in runs.items()}
        best = min(m[1] + m[2] for m in med.values())
        for label, (mt, bt, st, status) in med.items():
            rows.append((name, label, mt, bt, st, status, (bt + st) / best))
        print(f"done {name}", flush=True)
    print(f"\nmedian of {args.repeat} runs, time limit {args.time_limit:g} s\n")
    print("| puzzle | back end | model build s | back-end build s | solve s | status |"
          " (build+solve) / fastest |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
    for name, label, mt, bt, st, status, ratio in rows:
        print(f"| {name} | {label} | {mt:.4f} | {bt:.3f} | {st:.2f} | {status} | {ratio:.1f} |")


if __name__ == "__main__":
    main()
