"""The modelling API against CPMpy on the same models, in one process, interleaved.

    python bench/modeller.py [--repeat 3] [--models sudoku9,sudoku25,pentomino,linear]
                             [--backends cpsat,z3,sat] [--cpsat-workers 8] [--build-only]

For each model and back end (CPMpy's ortools, z3 and pysat:cadical195 against smtpuzzle's
cpsat, z3 and sat:cadical195), each repeat builds the model with both APIs and solves it
once: build = the Python model plus handing it to the solver (smtpuzzle: Model and
Backend.open; CPMpy: Model and SolverLookup.get), solve = the first solution (a check;
CPMpy's solve(); the sat back end's loading of its solver counts as build, also when it
happens at the first check). ``--build-only`` skips the solves on z3 and cpsat (CPMpy's z3
does not finish the 25x25 Sudoku or the pentomino model in minutes; the sat back end still
checks once, since its loading may come then). Prints medians as Markdown rows. Needs the
bench extra (cpmpy).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

CPSAT_WORKERS: int | None = None  # --cpsat-workers
BUILD_ONLY = False  # --build-only
CPMPY_SOLVER = {"cpsat": "ortools", "z3": "z3", "sat": "pysat:cadical195"}
HARDEST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def sudoku_givens(name: str) -> np.ndarray:
    if name == "sudoku9":
        return np.array([0 if c == "." else int(c) for c in HARDEST]).reshape(9, 9)
    n, size = 5, 25  # a full 25x25 grid by the usual shifted pattern, half its cells blanked
    r, c = np.indices((size, size))
    grid = (n * (r % n) + r // n + c) % size + 1
    rng = np.random.default_rng(1)
    grid[rng.random((size, size)) < 0.55] = 0
    return grid


def placements() -> tuple[int, list[list[tuple[int, int]]]]:
    """Pentomino-8x8-square's pieces and, per cell, the (piece, placement) pairs covering it."""
    from smtpuzzle import load

    tiling = load("pentomino-8x8-square")
    model = tiling.build_model()
    piece = tiling.placement_pieces()
    order = np.zeros(len(piece), dtype=np.int64)
    for p in range(len(tiling.pieces)):
        rows = np.flatnonzero(piece == p)
        order[rows] = np.arange(len(rows))
    cover = [[(int(piece[v - 1]), int(order[v - 1])) for v in g.tolist()]
             for g in model.exactly_one[0]]
    return len(tiling.pieces), cover


def ours(name: str, backend: str, data: object) -> tuple[float, float, str]:
    from smtpuzzle import AllDifferent, Model, get_backend

    t0 = time.perf_counter()
    m = Model(name)
    if name.startswith("sudoku"):
        givens = data
        size = len(givens)
        n = int(round(size ** 0.5))
        x = m.int_array((size, size), 1, size)
        boxes = x.reshape(n, n, n, n).transpose(0, 2, 1, 3).reshape(size, size)
        m.add(AllDifferent(x, axis=1), AllDifferent(x, axis=0), AllDifferent(boxes, axis=1))
        given = givens > 0
        m.add(x[given] == givens[given])
    elif name == "pentomino":
        pieces, cover = data
        counts = np.bincount([p for cell in cover for p, _ in cell], minlength=pieces)
        top = max(k for cell in cover for _, k in cell)
        pl = m.int_array(pieces, 0, top)
        for cell in cover:
            ps, ks = np.array(cell).T
            m.add(pl[ps].eq(ks).sum() == 1)
        del counts
    else:
        coefs, total = data
        x = m.int_array(len(coefs), 0, 9, user=False)
        m.add((x * coefs).sum() == total)
    engine = get_backend(backend)
    if backend == "cpsat" and CPSAT_WORKERS is not None:
        engine.workers = CPSAT_WORKERS
    session = engine.open(m)
    build = time.perf_counter() - t0
    if BUILD_ONLY and backend != "sat":
        session.close()
        return build, float("nan"), "not solved"
    t0 = time.perf_counter()
    status = session.check()
    # The sat back end loads a large CNF into its solver (in a child process) at the first
    # check: that is building, as CPMpy's posting to PySAT is. A small CNF is loaded when the
    # session opens, and setup_s is then 0.
    solve = time.perf_counter() - t0 - session.setup_s
    build += session.setup_s
    session.close()
    return build, solve, status.value


def theirs(name: str, backend: str, data: object) -> tuple[float, float, str]:
    import cpmpy as cp

    t0 = time.perf_counter()
    if name.startswith("sudoku"):
        givens = data
        size = len(givens)
        n = int(round(size ** 0.5))
        x = cp.intvar(1, size, shape=(size, size), name="x")
        model = cp.Model([cp.AllDifferent(row) for row in x],
                         [cp.AllDifferent(col) for col in x.T],
                         [cp.AllDifferent(x[r:r + n, c:c + n])
                          for r in range(0, size, n) for c in range(0, size, n)],
                         x[givens > 0] == givens[givens > 0])
    elif name == "pentomino":
        pieces, cover = data
        top = max(k for cell in cover for _, k in cell)
        pl = cp.intvar(0, top, shape=pieces, name="pl")
        model = cp.Model([cp.sum([pl[p] == k for p, k in cell]) == 1 for cell in cover])
    else:
        coefs, total = data
        x = cp.intvar(0, 9, shape=len(coefs), name="x")
        model = cp.Model(cp.sum(coefs * x) == total)
    solver = cp.SolverLookup.get(CPMPY_SOLVER[backend], model)
    build = time.perf_counter() - t0
    if BUILD_ONLY and backend != "sat":
        return build, float("nan"), "not solved"
    t0 = time.perf_counter()
    found = solver.solve()
    solve = time.perf_counter() - t0
    return build, solve, "sat" if found else "unsat/unknown"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--models", default="sudoku9,sudoku25,pentomino,linear")
    ap.add_argument("--backends", default="cpsat,z3,sat")
    ap.add_argument("--cpsat-workers", type=int, default=None,
                    help="CP-SAT workers for smtpuzzle (default: the back end's, CP-SAT's own "
                         "one per core, as CPMpy leaves it; 8 was the back end's before "
                         "session 28)")
    ap.add_argument("--build-only", action="store_true",
                    help="time the builds alone on z3 and cpsat (no solve)")
    args = ap.parse_args()
    global CPSAT_WORKERS, BUILD_ONLY
    CPSAT_WORKERS, BUILD_ONLY = args.cpsat_workers, args.build_only
    rng = np.random.default_rng(0)
    coefs = rng.integers(1, 10, size=100_000)
    data = {"sudoku9": sudoku_givens("sudoku9"), "sudoku25": sudoku_givens("sudoku25"),
            "pentomino": placements(), "linear": (coefs, int(coefs.sum() * 4))}
    print("| model | back end | smtpuzzle build s | CPMpy build s | build ratio | "
          "smtpuzzle solve s | CPMpy solve s | solve ratio | total ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in args.models.split(","):
        for backend in args.backends.split(","):
            if name == "linear" and backend == "sat":
                continue  # a 10^5-term sum with CNF encodings is nobody's model
            runs: dict[str, list[tuple[float, float, str]]] = {"ours": [], "theirs": []}
            ours(name, backend, data[name])  # imports and first compiles are nobody's time
            theirs(name, backend, data[name])
            for _ in range(args.repeat):
                runs["ours"].append(ours(name, backend, data[name]))
                runs["theirs"].append(theirs(name, backend, data[name]))
            med = {k: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v))
                   for k, v in runs.items()}
            (ob, os_), (tb, ts) = med["ours"], med["theirs"]
            solved = (f"{os_:.3f} | {ts:.3f} | {os_ / ts:.2f} | {(tb + ts) / (ob + os_):.2f}x"
                      if os_ == os_ else "- | - | - | -")  # NaN: not solved (--build-only)
            print(f"| {name} | {backend} | {ob:.4f} | {tb:.4f} | {tb / ob:.1f}x | {solved} |",
                  flush=True)


if __name__ == "__main__":
    main()
