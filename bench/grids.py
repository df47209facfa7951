"""The triangle-grid, hexagon-grid and wrap-around models (issue 22), or the edge polyform
ones (``--set edges``, issue 76), counted as a user counts them: ``smtpuzzle count MODEL
--workers 2 --json``, each a fresh process.

    python bench/grids.py [--set cells|edges] [--workers 2] [--repeat 1]

Prints a Markdown table for bench/RESULTS.md: the count, the published number, whether
they agree, and the wall time of the whole command (start-up included; median of
``--repeat`` runs). The target is 60 s a model with 2 workers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

MODELS = {  # model -> published count up to the board's symmetries
    "hexiamond-6x6-rhombus": 156, "hexiamond-4x9-parallelogram": 74,
    "hexiamond-3x12-parallelogram": 0, "hexiamond-4x11-trapezoid": 76,
    "hexiamond-6x9-trapezoid": 0, "hexiamond-4x10-long-hexagon": 856,
    "hexiamond-5x8-stacked-long-hexagons": 378, "hexiamond-crescent": 87,
    "hexiamond-ring": 0, "hexiamond-ring-offset": 11, "hexiamond-trefoil": 640,
    "tetrahex-4x7-parallelogram": 9, "tetrahex-triangle-7": 0, "tetrahex-3x10-clipped": 2,
    "tetrahex-coin": 4, "polyhex-34-hexagon": 12290, "polyhex-34-hexagram": 167,
    "polyhex-34-trilobed-crown": 127, "tetromino-5x4-tube": 7, "pentomino-3x20-loop": 2,
}
EDGE_MODELS = {  # Polyform Puzzler's counts up to the board's symmetries (models/README.md)
    "polysticks-123-4x4-clipped-1": 21, "polysticks-123-4x4-clipped-2": 132,
    "polysticks-123-4x4-centre": 0, "polysticks-123-4x4-sides": 0,
    "tetrasticks-6x6-no-h": 72, "tetrasticks-6x6-no-j": 382, "tetrasticks-6x6-no-l": 607,
    "tetrasticks-6x6-no-n": 530, "tetrasticks-6x6-no-y": 204, "tetrasticks-6x6": 1795,
    "tetrasticks-aztec-diamond": 3, "tetrasticks-7x7-unbordered": 0,
    "tetrasticks-3x5-diamond-lattice": 0, "tetrasticks-parallelogram-5x5": 0,
    "welded-tetrasticks-5x5": 3, "welded-tetrasticks-triangle": 9,
    "welded-tetrasticks-trapezoid": 7, "welded-tetrasticks-5x2-diamond-lattice": 0,
    "welded-tetrasticks-6x6-unbordered": 0,
    "polytwigs-1234-hexagon-1": 1175, "polytwigs-1234-hexagon-2": 1506,
    "pentatwigs-triangle": 56, "pentatwigs-staggered-rectangle": 145,
    "pentatwigs-butterfly": 8, "tetratwigs-arch": 2, "tetratwigs-arch-3": 1,
    "tetratwigs-arch-4": 1, "polytwigs-123-triangle": 3, "tetratwigs-3x1": 0,
    "tetratwigs-triangle-1": 2, "tetratwigs-triangle-2": 1, "tetratwigs-triangle-3": 2,
    "tetratwigs-triangle-4": 1,
    "tritrigs-hexagon-ring": 1, "tritrigs-trapezoid-ring": 1, "tritrigs-stacked-hexagons": 9,
    "tritrigs-jagged-trapezoid": 1, "tritrigs-parallelogram": 9, "tritrigs-trapezoid": 8,
    "tritrigs-heart-1": 50, "tritrigs-heart-2": 52, "tritrigs-hexagon-2-ring": 0,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--set", choices=("cells", "edges"), default="cells")
    args = ap.parse_args()
    models = EDGE_MODELS if args.set == "edges" else MODELS
    print(f"| model | count | published | agree | wall s (median of {args.repeat}) |")
    print("| --- | ---: | ---: | :---: | ---: |")
    for model, published in models.items():
        times, found = [], None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            run = subprocess.run([sys.executable, "-m", "smtpuzzle", "count", model,
                                  "--workers", str(args.workers), "--json"],
                                 capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            data = json.loads(run.stdout) if run.returncode == 0 else {}
            found = data.get("count") if data.get("complete") else None
            if run.returncode == 2 and "no solution" in run.stdout + run.stderr:
                found = 0  # refused at once (a colouring or the area says none)
        agree = "yes" if found == published else "NO"
        print(f"| {model} | {found} | {published} | {agree} | {statistics.median(times):.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
