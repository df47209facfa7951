"""`frames`: one piece set packed into n identical frames (list the sets that fill a frame,
choose n disjoint ones that use every piece, lay each one out)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

from smtpuzzle.backends import BACKENDS
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
from smtpuzzle.cli.pictures import CellSizeOpt, HtmlOpt, PictureFiles
from smtpuzzle.errors import PuzzleError, command_line_words
from smtpuzzle.library import load_frames, model_file
from smtpuzzle.puzzles.frames.puzzle import STAGE2_BACKENDS
from smtpuzzle.puzzles.tiling.text import frames_picture
from smtpuzzle.runtime.checks import MAX_SEED, is_digits

if TYPE_CHECKING:
    from smtpuzzle.puzzles.frames.solve import FramesAnswer
    from smtpuzzle.render.layout import Drawing


@friendly
def frames_cmd(
    model: ModelArg,
    backend: Annotated[str, typer.Option(
        help=f"Stages 1 and 3 (listing sets, laying them out): {', '.join(BACKENDS)}."
    )] = "exact-cover",
    solver: Annotated[str | None, typer.Option(help="As for solve.", callback=named)] = None,
    stage2: Annotated[str, typer.Option(
        help=f"Choosing the sets: {', '.join(STAGE2_BACKENDS)}.")] = "exact-cover",
    stage2_model: Annotated[str | None, typer.Option(
        callback=named,
        help="cover (a boolean per set), index (each piece's frame number), table (a "
             "table constraint per frame), seed (the source article's integers, an OR of "
             "'all pieces of a set in frame k' per frame) or cubes (the cover model split "
             "on its rarest piece, each part solved in a time slice); default: cover for "
             "exact-cover and sat, cubes for cpsat, index for z3.")] = None,
    all_solutions: Annotated[bool, typer.Option("--all", help="List every stage-2 answer.")]
    = False,
    limit: Annotated[int | None, typer.Option(help="List at most N answers.", min=1)] = None,
    workers: Annotated[int, typer.Option(
        help="Processes for stage 1, and for stage 2's cubes.", min=1)] = 1,
    ray: RayOpt = None,
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds of search; then report so far (pictures asked for are drawn after).")] = None,
    hole: Annotated[str | None, typer.Option(
        help="Frames with a hole to place: fix it at ROW,COL (default: try each place).")]
    = None,
    method: Annotated[str, typer.Option(
        help="enumerate (list every set that fills a frame), lazy (check the sets stage 2 "
             "proposes), dive (sample sets, choose frames by the LP relaxation) or auto "
             "(the puzzle file's method if it names one, else list and turn lazy past "
             "--max-sets).")] = "auto",
    seed: Annotated[int | None, typer.Option(
        help="The dive method's random choices (default 0).", min=0, max=MAX_SEED)] = None,
    max_sets: Annotated[int | None, typer.Option(
        help="Stop listing sets beyond this many (auto: 1,000,000, then lazy; enumerate: "
             "the answer may then be unknown).", min=1)] = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="List the sets again instead of reading the stage-1 cache.")]
    = False,
    svg: Annotated[Path | None, typer.Option(
        help="Write an SVG picture: the frames side by side, a row per answer.",
        parser=cli_path)] = None,
    png: Annotated[Path | None, typer.Option(
        help="Write a PNG picture: the frames side by side, a row per answer.",
        parser=cli_path)] = None,
    html: HtmlOpt = None,
    cell_size: CellSizeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pack one piece set into n identical frames.

    In stages: list the piece sets that fill one frame, choose n disjoint ones that use
    every piece, lay each one out."""
    from smtpuzzle.puzzles.frames.solve import FramesOptions, solve_frames  # scipy: on use

    files = PictureFiles(svg, png, html, cell_size)
    files.check({"the puzzle": model_file(model)})
    puzzle = load_frames(model)
    warn_same_shapes(puzzle)
    if all_solutions and limit is not None:
        raise PuzzleError("give --all or --limit, not both")
    check_workers(workers, ray)
    if seed is not None and "dive" not in (method, puzzle.method if method == "auto" else ""):
        raise PuzzleError(f"--seed draws the dive method's samples, and {puzzle.name} is not "
                          "solved by a dive here (give --method dive)")
    listing = all_solutions or limit is not None
    hole_at = _parse_cell(hole) if hole is not None else None
    options = FramesOptions(backend=backend, solver=solver, stage2=stage2,
                            stage2_model=stage2_model,
                            limit=None if all_solutions else (limit or 1), workers=workers,
                            time_limit=budget(time_limit), hole=hole_at, method=method,
                            max_sets=max_sets, cache=not no_cache, ray=ray, seed=seed or 0)
    columns = [TextColumn("[bold]{task.description}"), BarColumn(),
               TextColumn("{task.fields[info]}"), TimeElapsedColumn()]
    with progress(*columns, show=interactive(as_json)) as bar:
        task = bar.add_task(f"stage 1 {escape(puzzle.name)}", total=None, info="")

        def on_sets(sets: int, tilings: int, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total,
                       info=f"{done}/{total} sub-problems, {sets:,} sets from {tilings:,} "
                            "tilings")

        def lazy_progress(proposals: int, checked: int, tiling: int, blocked: int) -> None:
            bar.update(task, info=f"{proposals:,} proposals, {checked:,} sets checked, "
                                  f"{tiling:,} tile, {blocked:,} blocked")

        def dive_progress(dives: int, fixed: int, pool: int) -> None:
            bar.update(task, info=f"dive {dives}: {fixed}/{puzzle.n} frames chosen, "
                                  f"{pool:,} sets sampled")

        def note(text: str) -> None:
            bar.update(task, description=escape(text))

        def cubes_progress(decided: int, cubes: int, calls: int, found: int) -> None:
            bar.update(task, completed=decided, total=cubes,
                       info=f"{decided:,}/{cubes:,} cubes, {calls:,} solves, {found} found")

        answer = solve_frames(puzzle, options, progress=on_sets, lazy_progress=lazy_progress,
                              dive_progress=dive_progress, note=note,
                              cubes_progress=cubes_progress)
    board = (puzzle.with_hole(answer.hole) if answer.hole is not None else puzzle).frame
    names = [p.name for p in puzzle.pieces]
    if files:
        from smtpuzzle.puzzles.tiling.drawing import frames_drawing

        answers = [sol.frames for sol in answer.solutions]
        summary = {k: v for k, v in answer.as_json().items() if k not in ("frames", "solutions")}

        def drawing() -> Drawing:
            return frames_drawing(board, puzzle.pieces, answers)

        files.write(drawing if answers else None, lambda: [drawing()] if answers else [],
                    puzzle.name, summary, puzzle.title)
    if answer.lost and answer.status != "unknown":  # else the status line says it
        report_stopped(answer.lost, "the answers found so far are shown")
    if as_json:
        print_json({"model": puzzle.name, **answer.as_json()})
    else:
        s1 = answer.stage1
        why = ""
        if answer.status == "unknown":
            if answer.lost:
                why = f" (stopped: {answer.lost})"
            elif answer.interrupted:
                why = " (interrupted)"
            elif s1 is not None and s1.too_many and answer.lazy is None:
                why = " (too many sets to list: try --method lazy)"
            else:
                why = " (time limit reached)"
        out.print(f"[bold]{escape(puzzle.name)}[/bold]: {answer.status}{why} in "
                  f"{answer.time_s:.2f} s", markup=True)
        if answer.hole is not None:
            out.print(f"hole at {list(answer.hole)}")
        if s1 is not None:
            src = "read from the cache" if s1.cached else f"from {s1.tilings:,} tilings"
            state = "" if s1.complete else (
                " (too many to list)" if s1.too_many else " (INCOMPLETE)")
            out.print(f"stage 1: {len(s1.sets):,} sets fill a frame{state}, {src}, "
                      f"{s1.time_s:.2f} s")
        if answer.lazy is not None:
            lz = answer.lazy
            out.print(f"lazy stage 1: {lz.proposals:,} proposals, {lz.checked:,} sets checked "
                      f"({lz.tiling_sets:,} tile, {lz.blocked:,} blocked), {lz.time_s:.2f} s")
        if answer.dive is not None:
            dv = answer.dive
            out.print(f"dive: {dv.pool:,} sets sampled, {dv.dives} dives, {dv.lps} LPs, "
                      f"{dv.time_s:.2f} s")
        if answer.stage2 and answer.lazy is None and answer.dive is None:
            s2 = answer.stage2
            size = "not built" if s2["variables"] is None else \
                f"{s2['variables']:,} variables"
            out.print(f"stage 2: {s2['backend']} on the {s2['model']} model, {s2['time_s']:.2f} s"
                      f" ({size})")
            if "cubes" in s2:
                out.print(f"cubes: {s2['decided']:,} of {s2['cubes']:,} decided, "
                          f"{s2['calls']:,} solves")
        if answer.note:
            out.print(command_line_words(answer.note))
        for i, solution in enumerate(answer.solutions):
            if len(answer.solutions) > 1:
                out.print(f"[bold]solution {i + 1}[/bold]", markup=True)
            out.print(frames_picture(board, names, solution.frames), end="")
        if answer.solutions:
            listed = "" if not listing else f"; {_listing_note(answer, limit)}"
            out.print(f"[dim]{len(answer.solutions)} verified (every frame checked, every "
                      f"piece used once){escape(listed)}[/dim]", markup=True)
    # a listing cut short by Ctrl-C or the time limit is unknown, as solve --all's is
    if answer.status == "unknown" or (listing and answer.solutions and not answer.complete
                                      and not _at_limit(answer, limit)
                                      and not answer.untried_places):
        raise typer.Exit(EXIT_UNKNOWN)


def _at_limit(answer: FramesAnswer, limit: int | None) -> bool:
    return limit is not None and len(answer.solutions) >= limit


def _listing_note(answer: FramesAnswer, limit: int | None) -> str:
    if answer.complete:
        return "all of them"
    if _at_limit(answer, limit):
        return f"stopped at --limit {limit}: there may be more"
    if answer.untried_places:
        return "all of them at this hole place (the note above names the places not tried)"
    if answer.lost:
        return "stopped early: there may be more"
    if answer.interrupted:
        return "interrupted: there may be more"
    return "time limit reached: there may be more"


def _parse_cell(text: str) -> tuple[int, ...]:
    parts = text.split(",")
    cell = tuple(int(x) for x in parts) if all(
        is_digits(d := x.strip().removeprefix("-")) and len(d) <= 9 for x in parts) else ()
    if len(cell) not in (2, 3):
        raise PuzzleError(f"--hole takes ROW,COL (or X,Y,Z), got {text[:40]!r}")
    return cell
