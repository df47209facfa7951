"""Pencil puzzles side by side (issue 74): per genre, the largest instances of a local copy
of the puzzlekit collection through smtpuzzle's cpsat, sat and z3 and through puzzlekit's
own CP-SAT solvers (a bench-only extra, ``pip install -e '.[bench]'``), in one process,
interleaved (each instance's runs in a rotating order).

    python bench/pencil.py --dataset DIR [--genres nurikabe,lits] [--per-genre 3]
                           [--backends cpsat,sat,z3] [--time-limit 60] [--repeat 1]

DIR holds a folder per genre named as the collection names it (``Nurikabe``, ``LITS``),
with either the collection's JSON (``<Genre>_dataset.json``: a clone of
SmilingWayne/puzzlekit-dataset's ``assets/data``) or ``.problem`` / ``.solution`` files, one
puzzle each. The collection carries no licence, so none of it is shipped here.

For smtpuzzle: the wall time to the first solution (model built, solution verified by the
genre's verifier) and to the decision (uniqueness proved, or a second solution found), and
whether the first solution is the published one. For puzzlekit: the wall time of
``puzzlekit.solve`` (parse, build, first solution; it proves nothing about uniqueness).
Prints a Markdown table a genre (medians and maxima over its instances, the ratios of
cpsat's median to puzzlekit's, the graph-constraint strategy each back end used) and, with
``--detail``, one row an instance.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.pencil import parse_pencil
from smtpuzzle.model.graphs import CONNECTED, CYCLE
from smtpuzzle.puzzles.grid_answer import GridAnswer, decide_grid
from smtpuzzle.puzzles.pencil.genres import NAMES, genre_named
from smtpuzzle.puzzles.pencil.puzzle import PencilPuzzle
from smtpuzzle.result import Status


@dataclass
class Instance:
    genre: str
    key: str
    problem: str
    solution: str

    @property
    def cells(self) -> int:
        rows, cols = self.problem.split()[:2]
        return int(rows) * int(cols)


@dataclass
class Run:
    first: float | None = None  # seconds to the first solution; None: none found in time
    decided: float | None = None  # seconds to unique / multiple / none; None: not decided
    status: str = "unknown"
    published: bool | None = None  # the first solution is the published one


@dataclass
class Row:
    instance: Instance
    runs: dict[str, list[Run]] = field(default_factory=dict)


def instances(dataset: Path, genre: str, per_genre: int) -> list[Instance]:
    """The ``per_genre`` largest puzzles of ``genre`` in the local copy (largest first)."""
    folder = next((d for d in dataset.iterdir() if d.is_dir() and d.name.lower() == genre),
                  None)
    if folder is None:
        return []
    found = []
    for path in folder.glob("*_dataset.json"):
        data = json.loads(path.read_text())["data"]
        found += [Instance(genre, key, entry["problem"], entry.get("solution", ""))
                  for key, entry in data.items()]
    for path in folder.glob("*.problem"):
        sol = path.with_suffix(".solution")
        found.append(Instance(genre, path.stem, path.read_text(),
                              sol.read_text() if sol.exists() else ""))
    found = [i for i in found if i.problem.strip()]
    found.sort(key=lambda i: (-i.cells, i.key))
    return found[:per_genre]


def rows_of(text: str) -> list[list[str]]:
    return [line.split() for line in text.strip().splitlines() if line.strip()]


def ours(puzzle: PencilPuzzle, published: str, backend: str, time_limit: float) -> Run:
    """First solution and decision on one back end, as `smtpuzzle solve` decides."""
    started = time.perf_counter()
    run = Run()

    def first(grid: np.ndarray) -> None:
        if run.first is None:
            run.first = time.perf_counter() - started
            want = rows_of(published)
            if want:
                run.published = same_solution(puzzle.genre.name, grid,
                                              np.array(want[1:1 + puzzle.rows], dtype=object))

    try:
        answer = decide_grid(puzzle, GridAnswer, backend, None, time_limit, 2, on_found=first)
    except PuzzleError as exc:  # refused (a model too large for the back end's memory)
        run.status = f"refused: {str(exc)[:60]}"
        return run
    if answer.status is not Status.UNKNOWN:
        run.decided = time.perf_counter() - started
        run.status = answer.status.value
    return run


def same_solution(genre: str, grid: np.ndarray, want: np.ndarray) -> bool:
    """Whether ``grid`` is the published solution ``want``: token for token, except where
    the collection's spelling varies (Akari's black cells are written three ways: only
    the bulbs count; Shikaku's rectangles are numbered at will: the partition counts)."""
    if grid.shape != want.shape:
        return False
    if genre == "akari":
        return bool(((grid == "o") == (want == "o")).all())
    if genre == "shikaku":
        def canon(g: np.ndarray) -> np.ndarray:
            _, first, inverse = np.unique(g.ravel(), return_index=True, return_inverse=True)
            return np.argsort(np.argsort(first))[inverse]
        return bool((canon(grid) == canon(want)).all())
    return bool((grid.astype(str) == want.astype(str)).all())


# puzzlekit's inputs where they differ from the collection's (its Binairo takes 1 / 2)
PUZZLEKIT_INPUT = {"binairo": lambda text: text.replace("b", "1").replace("w", "2")}


def theirs(instance: Instance, time_limit: float) -> Run:
    import puzzlekit

    kind = genre_named(instance.genre).puzzlekit
    text = PUZZLEKIT_INPUT.get(instance.genre, str)(instance.problem)
    started = time.perf_counter()
    try:
        result = puzzlekit.solve(text, kind, solver_options={"time_limit_sec": time_limit})
    except Exception as exc:  # noqa: BLE001  a peer's failure is a row, not a crash
        return Run(status=f"error: {str(exc)[:40]}")
    took = time.perf_counter() - started
    status = str(result.solution_data.get("status", "?"))
    solved = status in ("Optimal", "Feasible")
    return Run(first=took if solved else None, status=status.lower())


def strategy(puzzle: PencilPuzzle) -> dict[str, str]:
    """How each back end holds the model's graph constraints (model/graphs.py)."""
    model, _ = puzzle.build()
    parts = model.parts
    eager = any(getattr(b, "name", "") == "distance" for b in model.ints.names.blocks)
    out = {}
    for backend in ("cpsat", "sat", "z3"):
        ways = []
        if parts.get(CYCLE):
            ways.append("circuit" if backend == "cpsat" else "loop: degrees + lazy cuts")
        if parts.get(CONNECTED) and not parts.get(CYCLE):
            ways.append("lazy cuts")
        if eager:
            ways.append("regions: eager distances")
        out[backend] = ", ".join(ways) or "none"
    return out


def median(xs: list[float | None], limit: float) -> str:
    if not xs:
        return "-"
    done = [x for x in xs if x is not None]
    if len(done) * 2 <= len(xs):  # the median is a time-out
        return f">{limit:g}"
    return f"{statistics.median([x if x is not None else float('inf') for x in xs]):.2f}"


def largest(xs: list[float | None], limit: float) -> str:
    if not xs:
        return "-"
    return f">{limit:g}" if None in xs else f"{max(xs):.2f}"


def ratio(a: list[float | None], b: list[float | None]) -> str:
    aa = [x for x in a if x is not None]
    bb = [x for x in b if x is not None]
    if len(aa) < len(a) or not bb or len(bb) < len(b):
        return "-"
    return f"{statistics.median(aa) / statistics.median(bb):.2f}x"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path, required=True)
    ap.add_argument("--genres", default=",".join(NAMES))
    ap.add_argument("--per-genre", type=int, default=3)
    ap.add_argument("--backends", default="cpsat,sat,z3")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-puzzlekit", action="store_true")
    ap.add_argument("--detail", action="store_true")
    args = ap.parse_args()
    backends = args.backends.split(",")
    tl = args.time_limit
    summary, detail = [], []
    for name in args.genres.split(","):
        genre = genre_named(name)
        runners = list(backends)
        if genre.puzzlekit and not args.no_puzzlekit:
            runners.append("puzzlekit")
        rows = []
        for k, instance in enumerate(instances(args.dataset, name, args.per_genre)):
            puzzle = parse_pencil(instance.problem, genre, f"{name}/{instance.key}")
            row = Row(instance, {r: [] for r in runners})
            for rep in range(args.repeat):
                turn = (k + rep) % len(runners)
                for runner in runners[turn:] + runners[:turn]:
                    run = theirs(instance, tl) if runner == "puzzlekit" else \
                        ours(puzzle, instance.solution, runner, tl)
                    row.runs[runner].append(run)
            rows.append(row)
            print(f"{name} {instance.key}: " + ", ".join(
                f"{r} {row.runs[r][0].status}" for r in runners), file=sys.stderr, flush=True)
            if args.detail:
                detail.append(_detail(row, runners, tl))
        if not rows:
            summary.append(f"| {name} | 0 | - | (no instances in {args.dataset}) |")
            continue
        summary.append(_summary(name, rows, backends, tl, strategy(parse_pencil(
            rows[0].instance.problem, genre))))
    print("| genre | n | largest | " + " | ".join(
        f"{b} first med / max | {b} decided med / max" for b in backends)
        + " | puzzlekit med / max | cpsat first / pk | cpsat decided / pk | unique (cpsat) "
          "| published | strategy (cpsat; sat; z3) |")
    print("| --- | ---: | --- | " + " | ".join("---: | ---:" for _ in backends)
          + " | ---: | ---: | ---: | ---: | ---: | --- |")
    print("\n".join(summary))
    if detail:
        print("\n| genre | instance | " + " | ".join(runners_header(backends)) + " |")
        print("| --- | --- | " + " | ".join("---" for _ in runners_header(backends)) + " |")
        print("\n".join(detail))


def runners_header(backends: list[str]) -> list[str]:
    return [f"{b} first / decided (status)" for b in backends] + ["puzzlekit"]


def _med(row: Row, runner: str, what: str) -> float | None:
    xs = [getattr(r, what) for r in row.runs.get(runner, [])]
    if not xs or None in xs:
        return None
    return float(np.median(xs))


def _summary(name: str, rows: list[Row], backends: list[str], tl: float,
             ways: dict[str, str]) -> str:
    size = max(rows, key=lambda r: r.instance.cells).instance
    head = size.problem.split()
    cells = [f"| {name} | {len(rows)} | {head[0]}x{head[1]}"]
    for b in backends:
        firsts = [_med(r, b, "first") for r in rows]
        decided = [_med(r, b, "decided") for r in rows]
        cells.append(f"{median(firsts, tl)} / {largest(firsts, tl)}")
        cells.append(f"{median(decided, tl)} / {largest(decided, tl)}")
    pk = [_med(r, "puzzlekit", "first") for r in rows if "puzzlekit" in r.runs]
    if pk:
        cells.append(f"{median(pk, tl)} / {largest(pk, tl)}")
        cp_first = [_med(r, "cpsat", "first") for r in rows]
        cp_dec = [_med(r, "cpsat", "decided") for r in rows]
        cells += [ratio(cp_first, pk), ratio(cp_dec, pk)]
    else:
        cells += ["no solver", "-", "-"]
    unique = sum(r.runs["cpsat"][0].status == "unique" for r in rows) if "cpsat" in backends \
        else 0
    published = sum(bool(r.runs[backends[0]][0].published) for r in rows)
    cells += [f"{unique}/{len(rows)}", f"{published}/{len(rows)}",
              "; ".join(ways[b] for b in ("cpsat", "sat", "z3"))]
    return " | ".join(cells) + " |"


def _detail(row: Row, runners: list[str], tl: float) -> str:
    def show(run: Run) -> str:
        first = f"{run.first:.2f}" if run.first is not None else f">{tl:g}"
        decided = f"{run.decided:.2f}" if run.decided is not None else f">{tl:g}"
        return f"{first} / {decided} ({run.status})"

    cells = [row.instance.genre, row.instance.key]
    for runner in runners:
        runs = row.runs[runner]
        if runner == "puzzlekit":
            cells.append(f"{runs[0].first:.2f}" if runs[0].first is not None
                         else runs[0].status)
        else:
            cells.append(show(runs[0]))
    if "puzzlekit" not in runners:
        cells.append("no solver")
    return "| " + " | ".join(cells) + " |"


if __name__ == "__main__":
    main()
