"""`bench`: every puzzle of the benchmark suites timed on every back end, interleaved, in
one run; tables on the terminal, results.json, .csv and plots written."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from smtpuzzle.cli.common import (
    EXIT_UNKNOWN,
    EXIT_UNVERIFIED,
    cli_path,
    err,
    friendly,
    interactive,
    out,
    progress,
    time_limit_option,
    winding_down,
)
from smtpuzzle.errors import PuzzleError
from smtpuzzle.runtime.checks import plural
from smtpuzzle.runtime.files import output_directory


@friendly
def bench(
    suites: Annotated[list[str] | None, typer.Argument(
        help="Suites: names of bench/*.toml or files (default: quick).")] = None,
    suite: Annotated[list[str] | None, typer.Option(
        "--suite", help="A suite, as the arguments (repeatable).")] = None,
    backends: Annotated[str, typer.Option(
        help="Comma-separated back ends.")] = "exact-cover,cpsat,sat,z3",
    solver: Annotated[list[str] | None, typer.Option(
        help="A solver of the sat or z3 back end or an exact-cover kernel (repeatable: one "
             "configuration each).")] = None,
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds per run (default: each suite's own, else 60).")] = None,
    repeat: Annotated[int, typer.Option(min=1, max=1000,
                                        help="Runs of each; medians are shown.")] = 1,
    out_dir: Annotated[Path, typer.Option(
        "--out", help="Where results.json, .csv, .png and .svg go.",
        parser=cli_path)] = Path("bench-results"),
    list_suites: Annotated[bool, typer.Option("--list", help="List the suites.")] = False,
) -> None:
    """Time every puzzle of the suites on every back end, interleaved, in one run."""
    import smtpuzzle.benchmark as benchmark
    from smtpuzzle.benchmark.report import tables, write_results

    if list_suites:
        for name in benchmark.suite_names():
            try:  # a stray .toml among the suites is listed as such, as `list` does
                loaded = benchmark.load_suite(name)
            except PuzzleError as exc:
                out.print(f"{name:14}   - puzzles  (unreadable: {exc.for_command_line()})")
                continue
            out.print(f"{name:14} {len(loaded.entries):3} puzzles  {loaded.title}")
        return
    names = [*(suites or []), *(suite or [])] or ["quick"]
    loaded = [benchmark.load_suite(n) for n in names]
    chosen = [b.strip() for b in backends.split(",") if b.strip()]
    if not chosen:
        raise PuzzleError(f"--backends {backends!r} names no back end")
    twice = benchmark.repeated(chosen)
    if twice:
        raise PuzzleError(f"--backends names {twice!r} twice")
    configs = benchmark.configs_for(chosen, solver or [])
    output_directory(out_dir, "the results")
    started = time.perf_counter()
    columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn()]
    with progress(*columns, show=interactive(), transient=False) as bar:
        task = bar.add_task("bench", total=None)

        def on_run(run: benchmark.Run, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total,
                       description=f"{escape(run.puzzle)} on {run.backend}")
            err.print(f"[dim]{escape(run.suite)} {escape(run.puzzle)} {run.backend}: "
                      f"{run.status} {run.wall_s:.2f} s[/dim]", markup=True)

        def note(text: str) -> None:
            err.print(f"[dim]{escape(text)}[/dim]", markup=True)

        runs, finished = benchmark.run_suites(loaded, configs, time_limit, repeat, on_run,
                                              note=note)
        winding_down()
    summaries = benchmark.summarise(runs)
    # whole rows
    wide = out if out.is_terminal else Console(width=200, highlight=False, emoji=False,
                                                markup=False)
    for table in tables(summaries, {s.name: s.title for s in loaded}):
        wide.print(table)
    meta = {"suites": names, "backends": [c.label for c in configs], "repeat": repeat,
            "time_limit": time_limit, "complete": finished,
            "elapsed_s": round(time.perf_counter() - started, 2)}
    paths = write_results(out_dir, runs, summaries, meta)
    out.print(f"{len(runs)} runs in {meta['elapsed_s']:.1f} s; wrote "
              + ", ".join(str(p) for p in paths))
    if any(s.wrong for s in summaries):
        err.print("[red]error:[/red] some answers contradict the suite (WRONG above): a bug",
                  markup=True)
        raise typer.Exit(EXIT_UNVERIFIED)
    if not finished:
        out.print("[yellow]INCOMPLETE: interrupted; the table shows the runs made[/yellow]",
                  markup=True)
        raise typer.Exit(EXIT_UNKNOWN)
    failed = sum(r.status == "error" for r in runs)
    if failed:
        err.print(f"[red]error:[/red] {plural(failed, 'run')} ended in an error (the error "
                  "rows above say why): the benchmark is incomplete", markup=True)
        raise typer.Exit(EXIT_UNKNOWN)
