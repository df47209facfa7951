"""The ``smtpuzzle`` command: parse arguments, call the library, render the answer.

Exit codes: 0 answered (a solution, or a proof that there is none), 1 no answer (time
limit or Ctrl-C), 2 bad input, 3 a solution failed verification (a bug: please report).
"""

from __future__ import annotations

import functools
import json
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from smtpuzzle import library
from smtpuzzle.backends import BACKENDS, get_backend
from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.formats.dimacs import decode_answer, export_file
from smtpuzzle.model import Model
from smtpuzzle.puzzles.frames.puzzle import Frames
from smtpuzzle.puzzles.frames.solve import STAGE2_BACKENDS, FramesOptions, solve_frames
from smtpuzzle.puzzles.maze import cases as maze
from smtpuzzle.puzzles.maze import search as maze_search
from smtpuzzle.puzzles.nonogram.puzzle import DEFAULT_ENCODING, Nonogram
from smtpuzzle.puzzles.nonogram.solve import DEFAULT_BACKEND, solve_nonogram
from smtpuzzle.puzzles.tiling import counting
from smtpuzzle.puzzles.tiling.puzzle import Tiling, TilingSolution
from smtpuzzle.render.pictures import (
    frames_picture_cells,
    nonogram_cells,
    tiling_picture_cells,
    write_picture,
)
from smtpuzzle.render.text import (
    board_picture,
    frames_picture,
    nonogram_picture,
    pieces_picture,
    tiling_picture,
)
from smtpuzzle.result import Result, Status

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Model combinatorial puzzles once; solve them with Z3, CP-SAT, SAT or any DIMACS solver.",
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_UNKNOWN, EXIT_BAD_INPUT, EXIT_UNVERIFIED = 1, 2, 3
COUNT_LIMIT = 10_000

ModelArg = Annotated[str, typer.Argument(help="A model name from `smtpuzzle list`, or a file.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
RayOpt = Annotated[str | None, typer.Option(
    help="Run the sub-problems on a Ray cluster: its address, auto (the cluster this machine "
         "is in) or local (a private instance here); needs pip install 'smtpuzzle[ray]'.")]


def _friendly(fn):
    """Bad input becomes one line on stderr and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PuzzleError as exc:
            err.print(f"[red]error:[/red] {escape(str(exc))}", markup=True)
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except VerificationError as exc:
            err.print(f"[red]verification failed (a bug, please report):[/red] {exc}")
            raise typer.Exit(EXIT_UNVERIFIED) from None

    return wrapper


@app.command("list")
@_friendly
def list_cmd(as_json: JsonOpt = False) -> None:
    """List the puzzles in the model library."""
    entries = library.list_models()
    if as_json:
        print(json.dumps([{"name": e.name, "title": e.title, "path": str(e.path)}
                          for e in entries]))
        return
    table = Table(box=None, show_header=True, header_style="bold")
    table.add_column("model")
    table.add_column("title")
    for e in entries:
        table.add_row(e.name, e.title)
    out.print(table)


@app.command()
@_friendly
def show(model: ModelArg) -> None:
    """Draw a puzzle's board and pieces."""
    puzzle = library.load_puzzle(model, precheck=False)
    if isinstance(puzzle, Nonogram):
        raise PuzzleError(f"{model} is a nonogram: `smtpuzzle solve {model}` draws it")
    if isinstance(puzzle, Frames):
        hole = " (one hole, placed by the solver)" if puzzle.hole_search else ""
        out.print(f"[bold]{puzzle.name}[/bold]: {puzzle.title}")
        out.print(f"{puzzle.n} frames of {puzzle.frame.size_text}{hole}, "
                  f"{puzzle.frame_area} cells each; {len(puzzle.pieces)} pieces; a frame holds, "
                  f"of pieces of size {', '.join(map(str, puzzle.size_classes()[0].tolist()))}:"
                  f" {' or '.join(map(str, puzzle.compositions()))}", markup=False)
        tiling = puzzle.frame_tiling() if not puzzle.hole_search else \
            puzzle.with_hole(puzzle.hole_places()[0]).frame_tiling()
        out.print(pieces_picture(tiling), end="")
        return
    tiling = puzzle
    board = tiling.board
    area = sum(p.count * p.shape.size for p in tiling.pieces)
    out.print(f"[bold]{tiling.name}[/bold]: {tiling.title}")
    out.print(f"board {board.size_text}, {board.num_cells} cells, {len(board.holes())} holes; "
              f"{len(tiling.pieces)} pieces, {area} cells at most; cover: {tiling.cover}; "
              f"{tiling.num_placements} placements")
    out.print(board_picture(tiling), end="")
    out.print()
    out.print(pieces_picture(tiling), end="")


@app.command()
@_friendly
def solve(
    model: ModelArg,
    backend: Annotated[str | None, typer.Option(
        help=f"One of {', '.join(BACKENDS)}; default cpsat for one solution, exact-cover for "
             "--all / --limit.")] = None,
    solver: Annotated[str | None, typer.Option(
        help="sat: the PySAT solver (cadical195, minisat22, glucose4, lingeling...); "
             "z3: qffd or default; exact-cover: the kernel, auto, sweep or mrv.")] = None,
    time_limit: Annotated[float | None, typer.Option(help="Seconds; then answer unknown.")] = None,
    all_solutions: Annotated[bool, typer.Option("--all", help="List every solution.")] = False,
    limit: Annotated[int | None, typer.Option(help="List at most N solutions.", min=1)] = None,
    distinct: Annotated[bool, typer.Option(
        help="With --all / --limit: one solution per symmetry class.")] = False,
    encoding: Annotated[str | None, typer.Option(
        help="Nonograms: order (default), runs or automaton.")] = None,
    no_presolve: Annotated[bool, typer.Option(
        "--no-presolve", help="Nonograms: skip line solving and probing.")] = False,
    no_probing: Annotated[bool, typer.Option(
        "--no-probing", help="Nonograms: line solving only, no probing.")] = False,
    no_guess: Annotated[bool, typer.Option(
        "--no-guess", help="Nonograms: sat and z3 search without the "
                           "belief-propagation guesses.")] = False,
    count_solutions: Annotated[bool, typer.Option(
        "--count", help="Nonograms: count solutions (up to --limit, default 10000).")] = False,
    svg: Annotated[Path | None, typer.Option(
        help="Write an SVG picture of the solution (with --all / --limit: of each).")] = None,
    png: Annotated[Path | None, typer.Option(
        help="Write a PNG picture of the solution (with --all / --limit: of each).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Find one solution, or prove there is none; --all / --limit N list solutions.

    Nonograms (.non, .nin, .clues) answer unique, multiple, none or unknown."""
    puzzle = library.load_puzzle(model)
    if isinstance(puzzle, Frames):
        raise PuzzleError(f"{model} is a frames puzzle: use `smtpuzzle frames {model}`")
    if isinstance(puzzle, Nonogram):
        limit_n = None if all_solutions else (
            limit if limit is not None else (COUNT_LIMIT if count_solutions else 2))
        _solve_nonogram(puzzle, backend or DEFAULT_BACKEND, solver, encoding or DEFAULT_ENCODING,
                        not no_presolve, not no_probing, not no_guess, time_limit, limit_n,
                        count_solutions or all_solutions or limit is not None,
                        all_solutions or (limit is not None and not count_solutions), svg, png,
                        as_json)
        return
    nonogram_only = {"--encoding": encoding is not None, "--no-presolve": no_presolve,
                     "--no-probing": no_probing, "--no-guess": no_guess,
                     "--count": count_solutions}
    used = [k for k, v in nonogram_only.items() if v]
    if used:
        raise PuzzleError(f"{', '.join(used)}: for nonograms only ({model} is a tiling)")
    tiling = puzzle
    if all_solutions or limit is not None:
        _list_solutions(tiling, backend or "exact-cover", solver, None if all_solutions else limit,
                        distinct, time_limit, as_json, [p for p in (svg, png) if p])
        return
    if distinct:
        raise PuzzleError("--distinct goes with --all or --limit")
    engine = get_backend(backend or "cpsat", solver)
    started = time.perf_counter()
    model_obj = tiling.build_model()
    interrupted = False
    try:
        spinner = err.status(f"solving {tiling.name} with {engine.label()}...")
        with spinner if err.is_terminal and not as_json else nullcontext():
            result: Result = engine.solve(model_obj, time_limit)
    except KeyboardInterrupt:
        interrupted = True
        result = None  # type: ignore[assignment]
    elapsed = time.perf_counter() - started
    status = result.status if result else Status.UNKNOWN
    solutions = []
    if status is Status.SAT:
        solution = tiling.decode(result.values)
        tiling.verify(solution)
        solutions.append(solution)
        for path in (svg, png):
            if path is not None:
                write_picture(tiling_picture_cells(tiling, solution), path)
    if as_json:
        print(json.dumps({
            "model": tiling.name, "status": status.value, "backend": engine.label(),
            "time_s": round(elapsed, 4), "complete": status is not Status.UNKNOWN,
            "stats": result.stats.as_dict() if result else None,
            "solutions": [s.as_json() for s in solutions],
        }))
    else:
        # CP-SAT and Z3 catch Ctrl-C themselves and answer unknown early.
        timed_out = time_limit is not None and elapsed >= time_limit
        why = "" if status is not Status.UNKNOWN else (
            " (time limit reached)" if timed_out and not interrupted else " (interrupted)")
        line = f"[bold]{tiling.name}[/bold]: {status.value}{why} with {engine.label()} in " \
               f"{elapsed:.2f} s"
        if result:
            line += f" (build {result.stats.build_time:.2f} s, solve " \
                    f"{result.stats.solve_time:.2f} s; {result.stats.variables} variables, " \
                    f"{result.stats.constraints} constraints)"
        out.print(line)
        for s in solutions:
            out.print(tiling_picture(tiling, s), end="")
            out.print("[dim]verified[/dim]")
    if status is Status.UNKNOWN:
        raise typer.Exit(EXIT_UNKNOWN)


def _solve_nonogram(puzzle: Nonogram, backend: str, solver: str | None, encoding: str,
                    use_presolve: bool, probing: bool, guess: bool, time_limit: float | None,
                    limit: int | None, counting_: bool, listing: bool, svg: Path | None,
                    png: Path | None, as_json: bool) -> None:
    spinner = err.status(f"solving {puzzle.name} with {backend}...")
    with spinner if err.is_terminal and not as_json else nullcontext():
        ans = solve_nonogram(puzzle, backend, solver, encoding, use_presolve, probing,
                             time_limit, limit, guess)
    # --all / --limit draw every solution; --count reports the number and draws two.
    shown = ans.solutions if listing or (counting_ and as_json) else ans.solutions[:2]
    for path in (svg, png):
        if path is not None:
            write_picture(nonogram_cells(shown), path)
    if as_json:
        data = ans.as_json(with_solutions=False)
        data["solutions"] = shown
        print(json.dumps({"model": puzzle.name, **data}))
    else:
        pre = ans.presolve
        how = f"{ans.backend}, {ans.encoding} encoding" if ans.stats else "presolve"
        if ans.guesses:
            how += f", {ans.guesses} cells guessed"
        if pre is not None:
            how += f"; line solving settled {pre.line_known}, probing {pre.known} of " \
                   f"{pre.grid.size} cells"
        why = ""
        if ans.status == "unknown":
            why = " (interrupted)" if ans.interrupted else " (time limit reached)"
        out.print(f"[bold]{puzzle.name}[/bold]: {ans.status}{why} in {ans.time_s:.2f} s ({how})")
        for note in ans.notes:
            out.print(f"[dim]{note}[/dim]")
        if counting_:
            exact = "all of them" if ans.complete else "stopped at the limit or time: maybe more"
            out.print(f"{ans.count} solutions ({exact})")
        if shown:
            out.print(nonogram_picture(shown), end="")
            out.print("[dim]verified[/dim]")
    if ans.status == "unknown" or (counting_ and not ans.complete and limit is None):
        raise typer.Exit(EXIT_UNKNOWN)


def _list_solutions(tiling: Tiling, backend: str, solver: str | None, limit: int | None,
                    distinct: bool, time_limit: float | None, as_json: bool,
                    pictures: list[Path]) -> None:
    engine = get_backend(backend, solver)
    started = time.perf_counter()
    model_obj = tiling.build_model()
    if distinct:
        count_plan = counting.plan(tiling, distinct=True)
        enum = counting.iter_distinct(model_obj, count_plan, engine, time_limit)
    else:
        enum = engine.solutions(model_obj, limit=limit, time_limit=time_limit)
    stream = (r.values for r in enum)
    found: list[TilingSolution] = []  # kept for --json and pictures; text is printed at once
    n = 0
    complete, interrupted = False, False
    try:
        for values in stream:
            solution = tiling.decode(values)
            tiling.verify(solution)
            n += 1
            if as_json or pictures:
                found.append(solution)
            if not as_json:
                out.print(f"[bold]solution {n}[/bold]")
                out.print(tiling_picture(tiling, solution), end="")
            if limit is not None and n >= limit:
                break
        else:
            complete = True
    except KeyboardInterrupt:
        interrupted = True
    elapsed = time.perf_counter() - started
    listed_all = complete and enum.complete
    what = "distinct " if distinct else ""
    for path in pictures:  # every solution listed, several to a row
        write_picture(frames_picture_cells(tiling.board, [p.name for p in tiling.pieces], found,
                                           caption="solution", per_row=4), path)
    if as_json:
        print(json.dumps({"model": tiling.name, "backend": engine.label(), "distinct": distinct,
                          "complete": listed_all, "count": n,
                          "time_s": round(elapsed, 4),
                          "solutions": [s.as_json() for s in found]}))
    else:
        if listed_all:
            note = "all of them"
        elif interrupted:
            note = "interrupted: there may be more"
        elif limit is not None and n >= limit:
            note = f"stopped at --limit {limit}: there may be more"
        else:
            note = "time limit reached: there may be more"
        out.print(f"[bold]{tiling.name}[/bold]: {n} {what}solutions, each verified "
                  f"({note}; {engine.label()}, {elapsed:.2f} s)")
    if not listed_all and not (limit is not None and n >= limit):
        raise typer.Exit(EXIT_UNKNOWN)


@app.command()
@_friendly
def count(
    model: ModelArg,
    backend: Annotated[str, typer.Option(help=f"One of {', '.join(BACKENDS)}.")] = "exact-cover",
    solver: Annotated[str | None, typer.Option(help="As for solve.")] = None,
    raw: Annotated[bool, typer.Option(
        "--raw", help="Count every placement-distinct solution, not classes.")] = False,
    workers: Annotated[int, typer.Option(help="Processes sharing the sub-problems.", min=1)] = 1,
    time_limit: Annotated[float | None, typer.Option(help="Seconds; then report so far.")] = None,
    ray: RayOpt = None,
    checkpoint: Annotated[Path | None, typer.Option(
        help="Record each finished sub-problem in this JSON file, and resume from it: "
             "what it holds is not searched again.")] = None,
    limit: Annotated[int | None, typer.Option(
        help="Stop after N solutions, listing (and drawing) each.", min=1)] = None,
    svg: Annotated[Path | None, typer.Option(
        help="With --limit: an SVG picture of the solutions listed.")] = None,
    png: Annotated[Path | None, typer.Option(
        help="With --limit: a PNG picture of the solutions listed.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Count solutions, distinct up to the board's symmetries (or --raw)."""
    tiling = library.load(model)
    get_backend(backend, solver)  # reject bad names before any work
    if (svg or png) and limit is None:
        raise PuzzleError("--svg / --png draw the solutions of --limit N: give --limit")
    if limit is not None:
        if workers > 1 or ray or checkpoint:
            raise PuzzleError("--limit lists solutions in one process: leave out --workers, "
                              "--ray and --checkpoint")
        _list_solutions(tiling, backend, solver, limit, not raw, time_limit, as_json,
                        [p for p in (svg, png) if p])
        return
    show = err.is_terminal
    columns = [TextColumn("[bold]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TextColumn("sub-problems"),
               TextColumn("{task.fields[found]} solutions, {task.fields[rate]}/s"),
               TimeElapsedColumn()]
    with Progress(*columns, console=err, disable=not show, transient=True) as bar:
        task = bar.add_task(f"counting {tiling.name}", total=None, found=0, rate=0)
        t0 = time.perf_counter()

        def progress(found: int, done: int, total: int) -> None:
            rate = found / max(time.perf_counter() - t0, 1e-9)
            bar.update(task, completed=done, total=total, found=found, rate=f"{rate:,.0f}")

        result = counting.count(tiling, backend, solver, distinct=not raw, workers=workers,
                                time_limit=time_limit, progress=progress, ray=ray,
                                checkpoint=checkpoint)
    if as_json:
        print(json.dumps(result.as_json()))
    else:
        kind = "solutions" if raw else f"solutions distinct up to {result.group}"
        state = "" if result.complete else (
            f" so far: INCOMPLETE ({result.subproblems_done} of {result.subproblems} "
            "sub-problems finished)")
        out.print(f"[bold]{tiling.name}[/bold]: {result.count} {kind}{state} "
                  f"({result.backend}, {result.time_s:.2f} s)")
        if result.resumed:
            out.print(f"{result.resumed} sub-problems were taken from {checkpoint}; all runs "
                      f"together took {result.time_s + result.checkpoint_time_s:.0f} s")
    if not result.complete:
        raise typer.Exit(EXIT_UNKNOWN)


@app.command("frames")
@_friendly
def frames_cmd(
    model: ModelArg,
    backend: Annotated[str, typer.Option(
        help=f"Stages 1 and 3 (listing sets, laying them out): {', '.join(BACKENDS)}."
    )] = "exact-cover",
    solver: Annotated[str | None, typer.Option(help="As for solve.")] = None,
    stage2: Annotated[str, typer.Option(
        help=f"Choosing the sets: {', '.join(STAGE2_BACKENDS)}.")] = "exact-cover",
    stage2_model: Annotated[str | None, typer.Option(
        help="cover (a boolean per set) or index (each piece's frame number); "
             "default: cover for exact-cover and sat, index for z3 and cpsat.")] = None,
    all_solutions: Annotated[bool, typer.Option("--all", help="List every stage-2 answer.")]
    = False,
    limit: Annotated[int | None, typer.Option(help="List at most N answers.", min=1)] = None,
    workers: Annotated[int, typer.Option(help="Processes for stage 1.", min=1)] = 1,
    ray: RayOpt = None,
    time_limit: Annotated[float | None, typer.Option(help="Seconds; then report so far.")]
    = None,
    hole: Annotated[str | None, typer.Option(
        help="Frames with a hole to place: fix it at ROW,COL (default: try each place).")]
    = None,
    method: Annotated[str, typer.Option(
        help="enumerate (list every set that fills a frame), lazy (check the sets stage 2 "
             "proposes), dive (sample sets, choose frames by the LP relaxation) or auto "
             "(the puzzle file's method if it names one, else list and turn lazy past "
             "--max-sets).")] = "auto",
    seed: Annotated[int, typer.Option(help="The dive method's random choices.")] = 0,
    max_sets: Annotated[int | None, typer.Option(
        help="Stop listing sets beyond this many (auto: 1,000,000, then lazy; enumerate: "
             "the answer may then be unknown).", min=1)] = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="List the sets again instead of reading the stage-1 cache.")]
    = False,
    svg: Annotated[Path | None, typer.Option(help="Write an SVG picture.")] = None,
    png: Annotated[Path | None, typer.Option(help="Write a PNG picture.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Pack one piece set into n identical frames, in two stages: list the piece sets that
    fill one frame, choose n disjoint ones that use every piece, lay each one out."""
    puzzle = library.load_frames(model)
    if all_solutions and limit is not None:
        raise PuzzleError("give --all or --limit, not both")
    hole_at = _parse_cell(hole) if hole is not None else None
    options = FramesOptions(backend=backend, solver=solver, stage2=stage2,
                            stage2_model=stage2_model,
                            limit=None if all_solutions else (limit or 1), workers=workers,
                            time_limit=time_limit, hole=hole_at, method=method,
                            max_sets=max_sets, cache=not no_cache, ray=ray, seed=seed)
    show = err.is_terminal and not as_json
    columns = [TextColumn("[bold]{task.description}"), BarColumn(),
               TextColumn("{task.fields[info]}"), TimeElapsedColumn()]
    with Progress(*columns, console=err, disable=not show, transient=True) as bar:
        task = bar.add_task(f"stage 1 {puzzle.name}", total=None, info="")

        def progress(sets: int, tilings: int, done: int, total: int) -> None:
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
            bar.update(task, description=text)

        answer = solve_frames(puzzle, options, progress=progress, lazy_progress=lazy_progress,
                              dive_progress=dive_progress, note=note)
    board = (puzzle.with_hole(answer.hole) if answer.hole is not None else puzzle).frame
    names = [p.name for p in puzzle.pieces]
    if answer.solutions:  # one row of frames per answer listed
        frames_drawn = [f for sol in answer.solutions for f in sol.frames]
        for path in (svg, png):
            if path is not None:
                write_picture(frames_picture_cells(board, names, frames_drawn,
                                                   per_row=puzzle.n), path)
    if as_json:
        print(json.dumps({"model": puzzle.name, **answer.as_json()}))
    else:
        s1 = answer.stage1
        why = ""
        if answer.status == "unknown":
            why = " (interrupted)" if answer.interrupted else (
                " (too many sets to list: try --method lazy)"
                if s1 is not None and s1.too_many and answer.lazy is None
                else " (time limit reached)")
        out.print(f"[bold]{puzzle.name}[/bold]: {answer.status}{why} in {answer.time_s:.2f} s")
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
            out.print(f"stage 2: {s2['backend']} on the {s2['model']} model, {s2['time_s']:.2f} s"
                      f" ({s2['variables']:,} variables)")
        if answer.note:
            out.print(answer.note)
        for i, solution in enumerate(answer.solutions):
            if len(answer.solutions) > 1:
                out.print(f"[bold]solution {i + 1}[/bold]")
            out.print(frames_picture(board, names, solution.frames), end="")
        if answer.solutions:
            listed = "" if not (all_solutions or limit) else (
                "; all of them" if answer.complete else "; there may be more")
            out.print(f"[dim]{len(answer.solutions)} verified (every frame checked, every "
                      f"piece used once){listed}[/dim]")
    if answer.status == "unknown":
        raise typer.Exit(EXIT_UNKNOWN)


def _parse_cell(text: str) -> tuple[int, ...]:
    try:
        cell = tuple(int(x) for x in text.split(","))
    except ValueError:
        cell = ()
    if len(cell) not in (2, 3):
        raise PuzzleError(f"--hole takes ROW,COL (or X,Y,Z), got {text!r}")
    return cell


@app.command("export-cnf")
@_friendly
def export_cnf(
    model: ModelArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="The .cnf file to write.")],
    encoding: Annotated[str | None, typer.Option(
        help="Nonograms: runs (default) or automaton.")] = None,
) -> None:
    """Write the model as DIMACS CNF for any SAT solver (comments name the user variables)."""
    m = _build_any(library.load_puzzle(model, precheck=False), encoding)
    try:
        cnf = export_file(m, output)
    except OSError as exc:
        raise PuzzleError(f"cannot write ({exc.strerror})", str(output)) from None
    out.print(f"wrote {output}: {cnf.num_vars} variables, {len(cnf.clauses)} clauses, "
              f"{cnf.num_user_vars} user variables")


@app.command()
@_friendly
def decode(
    model: ModelArg,
    cnf_file: Annotated[Path, typer.Argument(help="The CNF written by export-cnf.")],
    solver_output: Annotated[Path, typer.Argument(help="The solver's answer (s/v lines).")],
    encoding: Annotated[str | None, typer.Option(
        help="Nonograms: the encoding the CNF was exported with.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Read an external solver's answer to an exported CNF, verify it and draw it."""
    puzzle = library.load_puzzle(model, precheck=False)
    for p in (cnf_file, solver_output):
        if not p.is_file():
            raise PuzzleError("no such file", str(p))
    status, values = decode_answer(_build_any(puzzle, encoding), cnf_file, solver_output)
    if isinstance(puzzle, Nonogram):
        grids = [] if status is not Status.SAT else [puzzle.decode(values)]
        for g in grids:
            puzzle.verify(g)
        if as_json:
            print(json.dumps({"model": puzzle.name, "status": status.value,
                              "backend": "dimacs", "solutions": grids}))
        else:
            out.print(f"[bold]{puzzle.name}[/bold]: {status.value} (from {solver_output})")
            if grids:
                out.print(nonogram_picture(grids), end="")
                out.print("[dim]verified[/dim]")
        if status is Status.UNKNOWN:
            raise typer.Exit(EXIT_UNKNOWN)
        return
    tiling = puzzle
    solutions = []
    if status is Status.SAT:
        solution = tiling.decode(values)
        tiling.verify(solution)
        solutions.append(solution)
    if as_json:
        print(json.dumps({"model": tiling.name, "status": status.value, "backend": "dimacs",
                          "solutions": [s.as_json() for s in solutions]}))
    else:
        out.print(f"[bold]{tiling.name}[/bold]: {status.value} (from {solver_output})")
        for s in solutions:
            out.print(tiling_picture(tiling, s), end="")
            out.print("[dim]verified[/dim]")
    if status is Status.UNKNOWN:
        raise typer.Exit(EXIT_UNKNOWN)


maze_app = typer.Typer(no_args_is_help=True, help="Universal move strings for mazes.")
app.add_typer(maze_app, name="maze")
SizeOpt = Annotated[int, typer.Option(help="3 (thin walls, visit every reachable cell) or 4 "
                                           "(blocked cells, reach the goal).")]


@maze_app.command("check")
@_friendly
def maze_check(string: Annotated[str, typer.Argument(help="Moves, N E S W.")],
               size: SizeOpt = 3, as_json: JsonOpt = False) -> None:
    """How many cases STRING fails; the first failing maze is drawn with its start."""
    result = maze.check(string, size)
    if as_json:
        print(json.dumps({"unsolved": result.unsolved, "cases": result.cases}))
        return
    what = "maze-start cases" if size == 3 else "mazes"
    out.print(f"{len(maze.parse_string(string))} moves: fails {result.unsolved} of "
              f"{result.cases} {what}")
    if result.first_failing is not None:
        cases = maze.all_cases(size)
        out.print("first failing case (S start" + (", G goal" if size == 4 else "") + "):")
        out.print(maze.draw(cases, result.first_failing))


@maze_app.command("stats")
@_friendly
def maze_stats(size: SizeOpt = 3, as_json: JsonOpt = False) -> None:
    """The reduced maze set a universal string is searched against."""
    cases = maze.reduced_cases(size)
    everything = maze.all_cases(size)
    sizes = maze.reachable_sizes(cases)
    by_size = {int(k): int((sizes == k).sum()) for k in np.unique(sizes)[::-1]}
    if as_json:
        print(json.dumps({"mazes": len(cases), "all_cases": len(everything), "size": size,
                          "by_reachable_cells": by_size}))
        return
    out.print(f"{len(cases)} mazes with starts (of {len(everything)} cases), added largest first")
    for k, n in by_size.items():
        out.print(f"  {k} reachable cells: {n}")


@maze_app.command("search")
@_friendly
def maze_search_cmd(
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
    show = err.is_terminal and not as_json
    columns = [TextColumn("[bold]{task.description}"), TextColumn("{task.fields[info]}"),
               TimeElapsedColumn()]
    with Progress(*columns, console=err, disable=not show, transient=True) as bar:
        task = bar.add_task("searching", info="")
        result = maze_search.search(
            pattern, size, backend, solver, time_limit,
            progress=lambda n, t: bar.update(task, info=f"{n} mazes added, solver {t:.1f} s"),
            export_cnf=export_cnf,
            local_progress=lambda r, b: bar.update(
                task, info=f"restart {r}, least cost {b} (0 solves every maze)"), seed=seed)
    if as_json:
        print(json.dumps(result.as_json()))
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


@app.command()
@_friendly
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
    time_limit: Annotated[float | None, typer.Option(
        help="Seconds per run (default: each suite's own, else 60).")] = None,
    repeat: Annotated[int, typer.Option(min=1, help="Runs of each; medians are shown.")] = 1,
    out_dir: Annotated[Path, typer.Option("--out", help="Where results.json, .csv, .png and "
                                                        ".svg go.")] = Path("bench-results"),
    list_suites: Annotated[bool, typer.Option("--list", help="List the suites.")] = False,
) -> None:
    """Time every puzzle of the suites on every back end, interleaved, in one run."""
    from smtpuzzle import benchmark
    from smtpuzzle.benchmark.report import tables, write_results

    if list_suites:
        for name in benchmark.suite_names():
            loaded = benchmark.load_suite(name)
            out.print(f"{name:14} {len(loaded.entries):3} puzzles  {loaded.title}")
        return
    names = [*(suites or []), *(suite or [])] or ["quick"]
    loaded = [benchmark.load_suite(n) for n in names]
    chosen = [b.strip() for b in backends.split(",") if b.strip()]
    configs = benchmark.configs_for(chosen, solver or [])
    started = time.perf_counter()
    columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn()]
    with Progress(*columns, console=err, disable=not err.is_terminal) as bar:
        task = bar.add_task("bench", total=None)

        def on_run(run: benchmark.Run, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total,
                       description=f"{run.puzzle} on {run.backend}")
            err.print(f"[dim]{run.suite} {run.puzzle} {run.backend}: {run.status} "
                      f"{run.wall_s:.2f} s[/dim]")

        runs, finished = benchmark.run_suites(loaded, configs, time_limit, repeat, on_run,
                                              note=lambda text: err.print(f"[dim]{text}[/dim]"))
    summaries = benchmark.summarise(runs)
    wide = out if out.is_terminal else Console(width=200, highlight=False)  # whole rows
    for table in tables(summaries, {s.name: s.title for s in loaded}):
        wide.print(table)
    meta = {"suites": names, "backends": [c.label for c in configs], "repeat": repeat,
            "time_limit": time_limit, "complete": finished,
            "elapsed_s": round(time.perf_counter() - started, 2)}
    paths = write_results(out_dir, runs, summaries, meta)
    out.print(f"{len(runs)} runs in {meta['elapsed_s']:.1f} s; wrote "
              + ", ".join(str(p) for p in paths))
    if any(s.wrong for s in summaries):
        err.print("[red]error:[/red] some answers contradict the suite (WRONG above): a bug")
        raise typer.Exit(EXIT_UNVERIFIED)
    if not finished:
        out.print("[yellow]INCOMPLETE: interrupted; the table shows the runs made[/yellow]")
        raise typer.Exit(EXIT_UNKNOWN)


def _build_any(puzzle: Tiling | Frames | Nonogram, encoding: str | None) -> Model:
    """The model export and decode share (they must agree variable for variable)."""
    if isinstance(puzzle, Frames):
        raise PuzzleError(f"{puzzle.name} is a frames puzzle: its models are built in "
                          f"stages (`smtpuzzle frames {puzzle.name}`)")
    if isinstance(puzzle, Nonogram):
        return puzzle.build_model(encoding or DEFAULT_ENCODING)
    if encoding is not None:
        raise PuzzleError(f"--encoding: for nonograms only ({puzzle.name} is a tiling)")
    return puzzle.build_model()


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
