"""How large a model each back end handles: the first solution of ever larger boards.

    python bench/scale.py [--sizes 16,32,64,128,256] [--backends ...] [--time-limit 300]

The board is N x N, tiled by the five tetrominoes in any numbers (so the model grows as N^2:
about 19 N^2 placement variables and N^2 cell constraints). Each run goes through the bench
runner, in a forked child with its peak resident memory recorded; a back end that fails a
size (no answer in the limit, or an error) is not tried on larger ones. Prints a Markdown
table for RESULTS.md.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from smtpuzzle.benchmark import configs_for, run_suites
from smtpuzzle.benchmark.suites import Entry, Suite

MODEL = """title = "{n}x{n} board, tetrominoes in any numbers"
[board]
size = [{n}, {n}]
[[pieces]]
set = "tetrominoes"
max = {most}
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="16,32,64,128,256")
    ap.add_argument("--backends", default="exact-cover,cpsat,sat,z3")
    ap.add_argument("--time-limit", type=float, default=300.0)
    args = ap.parse_args()
    live = configs_for(args.backends.split(","), [])
    print("| N | back end | status | variables | constraints | build s | solve s | peak MB |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for n in map(int, args.sizes.split(",")):
            path = Path(tmp) / f"tetrominoes-{n}x{n}.toml"
            path.write_text(MODEL.format(n=n, most=n * n // 4))
            entry = Entry("solve", str(path), f"{n}x{n}", expect="sat",
                          backends=tuple(c.backend for c in live))
            runs, _ = run_suites([Suite("scale", "scale", [entry], path)], live,
                                 args.time_limit)
            for run, config in zip(runs, list(live), strict=True):
                print(f"| {n} | {run.backend} | {run.status} | {run.variables or '-'} | "
                      f"{run.constraints or '-'} | {run.build_s or 0:.1f} | "
                      f"{run.solve_s or 0:.1f} | {run.peak_mb or 0:.0f} |", flush=True)
                if run.status != "sat" or run.wrong:
                    live.remove(config)
            if not live:
                break


if __name__ == "__main__":
    main()
