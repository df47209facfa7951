"""`count`: a tiling's solutions counted, distinct up to the board's symmetries or raw, on
local processes or Ray, resumable from a checkpoint; or the first N listed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from smtpuzzle.backends import BACKENDS, get_backend
from smtpuzzle.cli.common import (
    EXIT_UNKNOWN,
    JsonOpt,
    ModelArg,
    RayOpt,
    budget,
    check_workers,
    cli_path,
    friendly,
    interactive,
    named,
    out,
    print_json,
    progress,
    report_stopped,
    time_limit_option,
    warn_same_shapes,
)
from smtpuzzle.cli.pictures import CellSizeOpt, PictureFiles
from smtpuzzle.cli.solve import list_solutions
from smtpuzzle.errors import PuzzleError
from smtpuzzle.library import load, model_file
from smtpuzzle.puzzles.tiling.puzzle import GROUPS
from smtpuzzle.runtime.checks import plural


def _duration(seconds: float) -> str:
    """An estimate's duration, as coarse as the estimate: 40 s, 12 min, 3.5 h, 2.1 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


@friendly
def count(
    model: ModelArg,
    backend: Annotated[str, typer.Option(help=f"One of {', '.join(BACKENDS)}.",
                                         callback=named)] = "exact-cover",
    solver: Annotated[str | None, typer.Option(help="As for solve.", callback=named)] = None,
    raw: Annotated[bool, typer.Option(
        "--raw", help="Count every placement-distinct solution, not classes.")] = False,
    group: Annotated[str, typer.Option(
        help="Count classes up to the board's symmetries (board) or its rotations only "
             "(rotations: mirror images count apart).")] = "board",
    workers: Annotated[int, typer.Option(help="Processes sharing the sub-problems.", min=1)] = 1,
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds of search; then report so far (pictures asked for are drawn after).")] = None,
    ray: RayOpt = None,
    checkpoint: Annotated[Path | None, typer.Option(
        help="Record each finished sub-problem in this JSON file, and resume from it: "
             "what it holds is not searched again.", parser=cli_path)] = None,
    limit: Annotated[int | None, typer.Option(
        help="Stop after N solutions, listing (and drawing) each.", min=1)] = None,
    svg: Annotated[Path | None, typer.Option(
        help="With --limit: an SVG contact sheet of the solutions listed.",
        parser=cli_path)] = None,
    png: Annotated[Path | None, typer.Option(
        help="With --limit: a PNG contact sheet of the solutions listed.", parser=cli_path)] = None,
    html: Annotated[Path | None, typer.Option(
        help="With --limit: one self-contained HTML page, the run's summary and every "
             "solution listed drawn.", parser=cli_path)] = None,
    cell_size: CellSizeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Count solutions, distinct up to the board's symmetries.

    --group rotations counts mirror images apart, --raw every placement-distinct solution."""
    files = PictureFiles(svg, png, html, cell_size)
    files.check({"the puzzle": model_file(model)}, {"--checkpoint": checkpoint})
    if group not in GROUPS:
        raise PuzzleError(f"--group must be one of {', '.join(GROUPS)}, not {group!r}")
    if raw and group != "board":
        raise PuzzleError("give --raw or --group, not both")
    tiling = load(model)
    warn_same_shapes(tiling)
    get_backend(backend, solver)  # reject bad names before any work
    check_workers(workers, ray)
    if files and limit is None:
        raise PuzzleError("--svg / --png / --html draw the solutions of --limit N: give --limit")
    if limit is not None:
        if workers > 1 or ray or checkpoint:
            raise PuzzleError("--limit lists solutions in one process: leave out --workers, "
                              "--ray and --checkpoint")
        list_solutions(tiling, backend, solver, limit, not raw, budget(time_limit), as_json,
                       files, group)
        return
    from smtpuzzle.puzzles.tiling import counting

    # Short columns: the whole line fits 80 characters (the model is named at the end).
    columns = [TextColumn("[bold]{task.description}"), BarColumn(bar_width=12),
               MofNCompleteColumn(),
               TextColumn("{task.fields[found]} found, {task.fields[rate]}/s"),
               TextColumn("~{task.fields[share]} done{task.fields[eta]}"), TimeElapsedColumn()]
    with progress(*columns, show=interactive()) as bar:
        task = bar.add_task("counting", total=None, found=0, rate=0, share="0%", eta="")
        t0 = time.perf_counter()

        def on_progress(found: int, done: int, total: int, share: float) -> None:
            elapsed = max(time.perf_counter() - t0, 1e-9)
            bar.update(task, completed=done, total=total, found=found,
                       rate=f"{found / elapsed:,.0f}", share=f"{share:.1%}",
                       eta=f", ~{_duration(elapsed * (1 - share) / share)} left"
                       if 0.01 <= share < 1 else "")

        result = counting.count(tiling, backend, solver, distinct=not raw, workers=workers,
                                time_limit=budget(time_limit), progress=on_progress, ray=ray,
                                checkpoint=checkpoint, group=group)
    if result.lost:
        report_stopped(result.lost, "the count so far is kept"
                       + (f" in {checkpoint}" if checkpoint else ""))
    if as_json:
        print_json({"model": tiling.name, **result.as_json()})
    else:
        kind = "" if raw else f" distinct up to {result.group}"
        state = "" if result.complete else (
            f" so far: INCOMPLETE ({'interrupted; ' if result.interrupted else ''}"
            f"{result.subproblems_done} of {result.subproblems} "
            f"sub-problems finished, about {result.share:.1%} of the search by estimate)")
        out.print(f"[bold]{escape(tiling.name)}[/bold]: {plural(result.count, 'solution')}"
                  f"{kind}{state} ({result.backend}, {result.time_s:.2f} s)", markup=True)
        if result.ray_nodes:
            out.print(f"on Ray: {result.ray_nodes} nodes returned results; "
                      f"{result.ray_reruns} tasks ran again after their node was lost")
        if result.resumed:
            out.print(f"{result.resumed} sub-problems were taken from {checkpoint}; all runs "
                      f"together took {result.time_s + result.checkpoint_time_s:.0f} s")
    if not result.complete:
        raise typer.Exit(EXIT_UNKNOWN)
