"""The modeller's reach (issue 73): the same problems through smtpuzzle and CPMpy, in one
process, interleaved; native forms against their decompositions; the sat back end's
weighted optimisation.

    python bench/reach.py [--repeat 5] [--parts cpmpy,native,knapsack] [--models a,b]

- ``cpmpy``: job-shop ft06 and the Golomb ruler of 8 marks (optimum proved), SEND+MORE, a
  4x4 magic square, a 9x9 Killer Sudoku and a 7x7 Kakuro (first solution, and up to two
  solutions: the uniqueness question), each built and solved from nothing per repeat on
  cpsat and z3 against CPMpy's ortools and z3; the sat back end's times are reported
  alongside (CPMpy's pysat cannot take the optimisations). Ratio: ours / CPMpy's total.
- ``native``: models whose products, abs, NoOverlap or Circuit a back end takes natively,
  solved as they are and with those kinds decomposed first (ratio: decomposed / native;
  each solve stopped after 90 s).
- ``knapsack``: a 50-item knapsack (seeded) on the sat back end, time to the proved optimum.
- ``backbone``: ``m.determined(x)`` against ``m.uniqueness()`` on a 25x25 nonogram and the
  hardest Sudoku, per back end.

Prints Markdown rows of medians. Needs the bench extra (cpmpy).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

FT06 = """2 1 0 3 1 6 3 7 5 3 4 6
1 8 2 5 4 10 5 10 0 10 3 4
2 5 3 4 5 8 0 9 1 1 4 7
1 5 0 5 2 5 3 3 4 8 5 9
2 9 1 3 4 5 5 4 0 3 3 1
1 3 3 3 5 9 0 10 4 4 2 1"""  # per job, (machine, duration) in order (Fisher-Thompson)
KAKURO = ["#######", "#..#...", "#......", "#...#..", "#..#...", "#......", "#...#.."]


# -- data -----------------------------------------------------------------------------------

def ft06() -> tuple[np.ndarray, np.ndarray]:
    jobs = np.array([[int(v) for v in line.split()] for line in FT06.splitlines()])
    return jobs[:, 0::2], jobs[:, 1::2]


def killer_cages(seed: int = 4) -> list[tuple[list[tuple[int, int]], int]]:
    """A full Sudoku grid (the shifted pattern, digits permuted) cut into random cages of
    one to four cells; each cage's sum from the grid."""
    rng = np.random.default_rng(seed)
    r, c = np.indices((9, 9))
    grid = rng.permutation(9)[(3 * (r % 3) + r // 3 + c) % 9] + 1
    free = np.ones((9, 9), dtype=bool)
    cages = []
    for cell in zip(*np.nonzero(free), strict=True):
        if not free[cell]:
            continue
        cage = [tuple(int(v) for v in cell)]
        free[cell] = False
        size = int(rng.integers(1, 5))
        while len(cage) < size:
            nexts = [(a + da, b + db) for a, b in cage for da, db in
                     ((0, 1), (1, 0), (0, -1), (-1, 0))
                     if 0 <= a + da < 9 and 0 <= b + db < 9 and free[a + da, b + db]]
            if not nexts:
                break
            pick = nexts[int(rng.integers(len(nexts)))]
            cage.append(pick)
            free[pick] = False
        cages.append((cage, int(sum(grid[a, b] for a, b in cage))))
    return cages


def kakuro_runs(seed: int = 2) -> list[tuple[list[tuple[int, int]], int]]:
    """The runs of the KAKURO pattern, with sums from a random fill of distinct digits per
    run."""
    white = np.array([[ch == "." for ch in row] for row in KAKURO])
    runs = []
    for grid, flip in ((white, False), (white.T, True)):
        for a, row in enumerate(grid):
            b = 0
            while b < len(row):
                if row[b]:
                    e = b
                    while e < len(row) and row[e]:
                        e += 1
                    runs.append([(b2, a) if flip else (a, b2) for b2 in range(b, e)])
                    b = e
                b += 1
    rng = np.random.default_rng(seed)
    cells = [tuple(int(v) for v in x) for x in zip(*np.nonzero(white), strict=True)]
    while True:  # a random fill, retried until every run has distinct digits
        fill: dict[tuple[int, int], int] = {}
        for cell in cells:
            used = {fill[x] for run in runs if cell in run for x in run if x in fill}
            left = [d for d in range(1, 10) if d not in used]
            if not left:
                break
            fill[cell] = int(rng.choice(left))
        if len(fill) == len(cells):
            return [(run, sum(fill[x] for x in run)) for run in runs]


# -- the models, both ways ------------------------------------------------------------------

def ours(name: str, data: object) -> tuple[object, object]:
    from smtpuzzle import AllDifferent, Model, NoOverlap

    m = Model(name)
    if name == "ft06":
        machine, duration = data
        horizon = int(duration.sum())
        start = m.int_array((6, 6), 0, horizon, name="start")
        m.add(start[:, 1:] >= start[:, :-1] + duration[:, :-1])
        for k in range(6):
            m.add(NoOverlap(start[machine == k], duration[machine == k]))
        makespan = m.int_array((), 0, horizon, name="makespan")
        m.add(makespan >= start[:, -1] + duration[:, -1])
        m.minimize(makespan)
        return m, makespan
    if name == "golomb8":
        marks = m.int_array(8, 0, 50, name="mark")
        i, j = np.triu_indices(8, 1)
        m.add(marks[0] == 0, marks[1:] >= marks[:-1] + 1,
              AllDifferent(marks[j] - marks[i]), marks[1] - marks[0] <= marks[7] - marks[6])
        m.minimize(marks[7])
        return m, marks[7]
    if name == "sendmore":
        s, e, n, d, mm, o, r, y = (m.int_array((), 0, 9, name=c) for c in "sendmory")
        letters = [s, e, n, d, mm, o, r, y]
        m.add(AllDifferent(letters), s >= 1, mm >= 1,
              1000 * s + 100 * e + 10 * n + d + 1000 * mm + 100 * o + 10 * r + e
              == 10000 * mm + 1000 * o + 100 * n + 10 * e + y)
        return m, s
    if name == "magic4":
        x = m.int_array((4, 4), 1, 16, name="x")
        k = np.arange(4)
        m.add(AllDifferent(x), x.sum(axis=0) == 34, x.sum(axis=1) == 34,
              x[k, k].sum() == 34, x[k, 3 - k].sum() == 34)
        return m, x
    if name == "killer9":
        x = m.int_array((9, 9), 1, 9, name="x")
        boxes = x.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)
        m.add(AllDifferent(x, axis=1), AllDifferent(x, axis=0), AllDifferent(boxes, axis=1))
        for cage, total in data:
            cells = x[tuple(np.array(cage).T)]
            m.add(cells.sum() == total)
            if len(cage) > 1:
                m.add(AllDifferent(cells))
        return m, x
    # kakuro7
    x = m.int_array((7, 7), 1, 9, name="x")
    for run, total in data:
        cells = x[tuple(np.array(run).T)]
        m.add(cells.sum() == total, AllDifferent(cells))
    return m, x


def theirs(name: str, data: object) -> object:
    import cpmpy as cp

    if name == "ft06":
        machine, duration = data
        horizon = int(duration.sum())
        start = cp.intvar(0, horizon, shape=(6, 6), name="start")
        makespan = cp.intvar(0, horizon, name="makespan")
        model = cp.Model([start[:, 1:] >= start[:, :-1] + duration[:, :-1]],
                         [cp.NoOverlap(start[machine == k], duration[machine == k],
                                       start[machine == k] + duration[machine == k])
                          for k in range(6)],
                         makespan >= start[:, -1] + duration[:, -1])
        model.minimize(makespan)
        return model
    if name == "golomb8":
        marks = cp.intvar(0, 50, shape=8, name="mark")
        i, j = np.triu_indices(8, 1)
        model = cp.Model(marks[0] == 0, marks[1:] >= marks[:-1] + 1,
                         cp.AllDifferent([marks[b] - marks[a] for a, b in zip(i, j, strict=True)]),
                         marks[1] - marks[0] <= marks[7] - marks[6])
        model.minimize(marks[7])
        return model
    if name == "sendmore":
        s, e, n, d, mm, o, r, y = cp.intvar(0, 9, shape=8, name="sendmory")
        return cp.Model(cp.AllDifferent([s, e, n, d, mm, o, r, y]), s >= 1, mm >= 1,
                        1000 * s + 100 * e + 10 * n + d + 1000 * mm + 100 * o + 10 * r + e
                        == 10000 * mm + 1000 * o + 100 * n + 10 * e + y)
    if name == "magic4":
        x = cp.intvar(1, 16, shape=(4, 4), name="x")
        return cp.Model(cp.AllDifferent(x), [cp.sum(row) == 34 for row in x],
                        [cp.sum(col) == 34 for col in x.T],
                        cp.sum([x[k, k] for k in range(4)]) == 34,
                        cp.sum([x[k, 3 - k] for k in range(4)]) == 34)
    if name == "killer9":
        x = cp.intvar(1, 9, shape=(9, 9), name="x")
        cons = [cp.AllDifferent(row) for row in x] + [cp.AllDifferent(col) for col in x.T]
        cons += [cp.AllDifferent(x[r:r + 3, c:c + 3]) for r in range(0, 9, 3)
                 for c in range(0, 9, 3)]
        for cage, total in data:
            cells = [x[a, b] for a, b in cage]
            cons.append(cp.sum(cells) == total)
            if len(cage) > 1:
                cons.append(cp.AllDifferent(cells))
        return cp.Model(cons)
    x = cp.intvar(1, 9, shape=(7, 7), name="x")
    cons = []
    for run, total in data:
        cells = [x[a, b] for a, b in run]
        cons += [cp.sum(cells) == total, cp.AllDifferent(cells)]
    return cp.Model(cons)


DATA: dict[str, Callable[[], object]] = {
    "ft06": ft06, "golomb8": lambda: None, "sendmore": lambda: None, "magic4": lambda: None,
    "killer9": killer_cages, "kakuro7": kakuro_runs}
OPTIMA = {"ft06": 55, "golomb8": 34}
CPMPY_SOLVER = {"cpsat": "ortools", "z3": "z3"}
LIMIT = 90  # seconds per solve: z3 does not close the tour or the ruler sooner


def run_ours(name: str, data: object, backend: str, task: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    m, watch = ours(name, data)
    if task == "optimum":
        status = m.solve(backend, time_limit=LIMIT)
        assert status in ("optimal", "sat"), (name, backend, status)
        answer = str(m.objective_value()) + ("" if status == "optimal" else " (time-out)")
        assert status != "optimal" or m.objective_value() == OPTIMA[name]
    elif task == "first":
        answer = str(m.solve(backend))
    else:
        found, complete = m.count_up_to(2, backend)
        answer = "unique" if found == 1 and complete else f"{found}{'' if complete else '+'}"
    return time.perf_counter() - t0, answer


def run_theirs(name: str, data: object, backend: str, task: str) -> tuple[float, str]:
    import cpmpy as cp

    t0 = time.perf_counter()
    model = theirs(name, data)
    solver = cp.SolverLookup.get(CPMPY_SOLVER[backend], model)
    if task == "optimum":
        assert solver.solve(time_limit=LIMIT)
        optimal = solver.status().exitstatus == cp.solvers.solver_interface.ExitStatus.OPTIMAL
        answer = str(solver.objective_value()) + ("" if optimal else " (time-out)")
        assert not optimal or solver.objective_value() == OPTIMA[name]
    elif task == "first":
        answer = "sat" if solver.solve(time_limit=LIMIT) else "unsat"
    else:
        found = solver.solveAll(solution_limit=2, time_limit=LIMIT)
        answer = "unique" if found == 1 else str(found)
    return time.perf_counter() - t0, answer


def part_cpmpy(models: list[str], repeat: int) -> None:
    print("| model | task | back end | ours (s) | CPMpy (s) | ours / CPMpy | answer | sat (s) |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- | ---: |")
    for name in models:
        data = DATA[name]()
        tasks = ["optimum"] if name in OPTIMA else ["first", "unique"]
        for task in tasks:
            sat_times = [run_ours(name, data, "sat", task)[0] for _ in range(min(repeat, 3))]
            for backend in ("cpsat", "z3"):
                mine, other, answer = [], [], ""
                for k in range(repeat):
                    pair = [(mine, run_ours), (other, run_theirs)]
                    for times, run in (pair if k % 2 == 0 else pair[::-1]):
                        t, a = run(name, data, backend, task)
                        times.append(t)
                        answer = a if run is run_ours else answer
                    if max(mine + other) > 10:  # one round of a slow pair is enough
                        break
                a, b = statistics.median(mine), statistics.median(other)
                print(f"| {name} | {task} | {backend} | {a:.3f} | {b:.3f} | {a / b:.2f} | "
                      f"{answer} | {statistics.median(sat_times):.3f} |", flush=True)


# -- native forms against their decompositions ----------------------------------------------

def native_models() -> dict[str, Callable[[], tuple[object, str]]]:
    from smtpuzzle import Circuit, Element, Model

    def queens_abs():  # no two queens on a diagonal, written with abs: all 92 of 8
        m = Model("queens-abs")
        q = m.int_array(8, 0, 7, name="q")
        i, j = np.triu_indices(8, 1)
        m.add(q[i] != q[j], abs(q[i] - q[j]) != j - i)
        return m, "count"

    def products():  # a 5x5 grid of 1..6 with row and column products given
        rng = np.random.default_rng(5)
        grid = rng.integers(1, 7, size=(5, 5))
        m = Model("products")
        x = m.int_array((5, 5), 1, 6, name="x")
        for k in range(5):
            for line, want in ((x[k, :], grid[k].prod()), (x[:, k], grid[:, k].prod())):
                acc = line[0]
                for v in range(1, 5):
                    acc = acc * line[v]
                m.add(acc == int(want))
        return m, "unique"

    def tsp():  # the shortest tour of 12 seeded points, successor form
        rng = np.random.default_rng(6)
        pts = rng.integers(0, 100, size=(12, 2))
        dist = np.abs(pts[:, None, :] - pts[None, :, :]).sum(axis=2)
        m = Model("tsp12")
        succ = m.int_array(12, 0, 11, name="succ")
        m.add(Circuit(succ))
        m.minimize(sum(Element(dist[k], succ[k]) for k in range(12)))
        return m, "optimum"

    def jobshop():
        m, _ = ours("ft06", ft06())
        return m, "optimum"

    return {"queens-abs": queens_abs, "products": products, "tsp12": tsp, "ft06": jobshop}


def decomposed(m: object) -> object:
    from smtpuzzle.model.kinds import KINDS

    for name in ("arithmetic", "scheduling", "circuit"):
        m = KINDS[name].lower(m)
    return m


def part_native(models: list[str], repeat: int) -> None:
    print("| model | back end | native (s) | decomposed (s) | decomposed / native | answer |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for name, make in native_models().items():
        if models and name not in models:
            continue
        for backend in ("cpsat", "z3", "sat"):
            times: dict[str, list[float]] = {"native": [], "decomposed": []}
            answers = set()
            for k in range(repeat):
                order = ["native", "decomposed"] if k % 2 == 0 else ["decomposed", "native"]
                for how in order:
                    t0 = time.perf_counter()
                    m, task = make()
                    if how == "decomposed":
                        m = decomposed(m)
                    if task == "count":
                        found, complete = m.count(backend, time_limit=LIMIT)
                        answers.add(f"{found}{'' if complete else ' (time-out)'}")
                    elif task == "unique":
                        answers.add(str(m.uniqueness(backend, time_limit=LIMIT)))
                    else:
                        status = m.solve(backend, time_limit=LIMIT)
                        answers.add(f"{status} {m.objective_value()}" if status != "unknown"
                                    else "unknown")
                    times[how].append(time.perf_counter() - t0)
                if max(times["native"] + times["decomposed"]) > 10:  # one round is enough
                    break
            a, b = (statistics.median(times[h]) for h in ("native", "decomposed"))
            print(f"| {name} | {backend} | {a:.3f} | {b:.3f} | {b / a:.2f} | "
                  f"{' / '.join(sorted(answers))} |", flush=True)


def part_knapsack(repeat: int) -> None:
    from smtpuzzle import Model

    rng = np.random.default_rng(50)
    weight, value = rng.integers(10, 100, size=50), rng.integers(10, 100, size=50)
    times, best = [], set()
    for _ in range(repeat):
        t0 = time.perf_counter()
        m = Model("knapsack50")
        take = m.bool_array(50, name="take")
        m.add((take * weight).sum() <= int(weight.sum()) // 3)
        m.maximize((take * value).sum())
        status = m.solve("sat", time_limit=60)
        times.append(time.perf_counter() - t0)
        best.add(f"{status} {m.objective_value()}")
    check = Model("knapsack50-cpsat")
    take = check.bool_array(50, name="take")
    check.add((take * weight).sum() <= int(weight.sum()) // 3)
    check.maximize((take * value).sum())
    check.solve("cpsat")
    print(f"knapsack50 on sat: median {statistics.median(times):.2f} s, max {max(times):.2f} s,"
          f" answers {sorted(best)}; cpsat's optimum {check.objective_value()}")


def part_backbone(repeat: int) -> None:
    """determined() against uniqueness on the same puzzle and back end (medians)."""
    from pathlib import Path

    from smtpuzzle.formats.nonogram_files import load_nonogram
    from smtpuzzle.formats.sudoku import parse_line

    root = Path(__file__).resolve().parent.parent
    hardest = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2....."
               "1.4......")  # Norvig's hardest, the first of models/sudoku/norvig-top95
    puzzles = {"nonogram jwilk data005": lambda: load_nonogram(
                   root / "models/nonograms/jwilk/data005.nin").build(),
               "Sudoku, Norvig's hardest": lambda: parse_line(hardest, "hardest").build()}
    print("| puzzle | back end | determined (s) | uniqueness (s) | ratio |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, make in puzzles.items():
        for backend in ("sat", "cpsat", "z3"):
            back, unique = [], []
            for _ in range(repeat):
                m, x = make()
                t0 = time.perf_counter()
                m.determined(x, backend=backend)
                back.append(time.perf_counter() - t0)
                m, x = make()
                t0 = time.perf_counter()
                m.uniqueness(backend)
                unique.append(time.perf_counter() - t0)
            a, b = statistics.median(back), statistics.median(unique)
            print(f"| {name} | {backend} | {a:.3f} | {b:.3f} | {a / b:.2f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--parts", default="cpmpy,native,knapsack")
    ap.add_argument("--models", default="")
    args = ap.parse_args()
    models = [m for m in args.models.split(",") if m]
    parts = args.parts.split(",")
    if "cpmpy" in parts:
        part_cpmpy(models or list(DATA), args.repeat)
    if "native" in parts:
        part_native(models, args.repeat)
    if "knapsack" in parts:
        part_knapsack(args.repeat)
    if "backbone" in parts:
        part_backbone(args.repeat)


if __name__ == "__main__":
    main()
