"""`maze check`, `maze stats`, `maze search`: universal move strings for mazes (one string
that solves every maze of a size), checked, and searched for or proved impossible."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import TextColumn, TimeElapsedColumn

from smtpuzzle.cli.common import (
    EXIT_UNKNOWN,
    JsonOpt,
    friendly,
    interactive,
    out,
    print_json,
    progress,
)
from smtpuzzle.puzzles.maze import cases

app = typer.Typer(no_args_is_help=True, help="Universal move strings for mazes.")
SizeOpt = Annotated[int, typer.Option(help="3 (thin walls, visit every reachable cell) or 4 "
                                           "(blocked cells, reach the goal).")]


@app.command("check")
@friendly
def check(string: Annotated[str, typer.Argument(help="Moves, N E S W.")],
          size: SizeOpt = 3, as_json: JsonOpt = False) -> None:
    """How many cases STRING fails; the first failing maze is drawn with its start."""
    result = cases.check(string, size)
    if as_json:
        print_json(result.as_json())
        return
    what = "maze-start cases" if size == 3 else "mazes"
    out.print(f"{len(cases.parse_string(string))} moves: fails {result.unsolved} of "
              f"{result.cases} {what}")
    if result.first_failing is not None:
        out.print("first failing case (S start" + (", G goal" if size == 4 else "") + "):")
        out.print(cases.draw(cases.all_cases(size), result.first_failing))


@app.command("stats")
@friendly
def stats(size: SizeOpt = 3, as_json: JsonOpt = False) -> None:
    """The reduced maze set a universal string is searched against."""
    result = cases.case_stats(size)
    if as_json:
        print_json(result.as_json())
        return
    out.print(f"{result.mazes} mazes with starts (of {result.all_cases} cases), added largest "
              "first")
    for k, n in result.by_reachable_cells.items():
        out.print(f"  {k} reachable cells: {n}")


@app.command("search")
@friendly
def search(
    pattern: Annotated[str, typer.Argument(help="Letters N E S W fixed, * free.")],
    size: SizeOpt = 3,
    backend: Annotated[str, typer.Option(help="mdd (exact decision diagrams), sat "
                                              "(incremental), z3 (incremental), cpsat "
                                              "(re-solve) or local (annealing: finds "
                                              "strings, cannot prove none exists).")] = "mdd",
    solver: Annotated[str | None, typer.Option(help="sat: the PySAT solver.")] = None,
    time_limit: Annotated[float | None, typer.Option(help="Seconds; then unknown.")] = None,
    export_cnf: Annotated[Path | None, typer.Option(
        "--export-cnf", help="Write the final formula as DIMACS CNF.")] = None,
    seed: Annotated[int, typer.Option(help="local: the random seed.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Complete PATTERN to a string that solves every maze, or prove none exists."""
    from smtpuzzle.puzzles.maze.search import search as search_maze

    columns = [TextColumn("[bold]{task.description}"), TextColumn("{task.fields[info]}"),
               TimeElapsedColumn()]
    with progress(*columns, show=interactive(as_json)) as bar:
        task = bar.add_task("searching", info="")
        result = search_maze(
            pattern, size, backend, solver, time_limit,
            progress=lambda n, t: bar.update(task, info=f"{n} mazes added, solver {t:.1f} s"),
            export_cnf=export_cnf,
            local_progress=lambda r, b: bar.update(
                task, info=f"restart {r}, least cost {b} (0 solves every maze)"), seed=seed)
    if as_json:
        print_json(result.as_json())
    else:
        if result.status == "sat":
            line = f"found (verified on every case): {result.string}"
        elif result.status == "unsat":
            line = "no string fits the pattern (proved)"
        elif result.note:
            line = f"unknown ({result.note}): no string found yet"
        else:
            stopped = result.interrupted or time_limit is None  # z3 answers unknown on Ctrl-C
            line = "unknown (" + ("interrupted" if stopped else "time limit reached") \
                + "): no string found yet"
        if result.backend == "local":
            if result.status != "sat":
                line += " (local search cannot prove that none exists)"
            out.print(f"{line}\n{result.restarts} annealing runs, {result.time_s:.2f} s (local)")
        else:
            out.print(f"{line}\n{result.mazes_added} mazes added, {result.time_s:.2f} s "
                      f"(solver {result.solver_time_s:.2f} s, {result.backend})")
        if export_cnf is not None and result.status != "unknown":
            out.print(f"wrote {export_cnf}")
    if result.status == "unknown":
        raise typer.Exit(EXIT_UNKNOWN)
