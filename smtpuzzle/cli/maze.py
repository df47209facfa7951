"""`maze check`, `maze stats`, `maze search`, `maze build`, `maze shorten`, `maze bound`,
`maze check-bound`, `maze checkpoint-json`, `maze show`: universal move strings for mazes
(one string that solves every maze of a size), checked, searched for or proved impossible,
built greedily and shortened, lower bounds on their length proved and re-checked (their
checkpoints made light enough to carry), and walked on one maze."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

from smtpuzzle.cli.common import (
    EXIT_UNKNOWN,
    EXIT_UNVERIFIED,
    JsonOpt,
    budget,
    check_workers,
    cli_path,
    friendly,
    interactive,
    named,
    out,
    print_json,
    progress,
    time_limit_option,
    unwritten,
    winding_down,
)
from smtpuzzle.cli.pictures import CellSizeOpt, HtmlOpt, PictureFiles
from smtpuzzle.errors import PuzzleError, command_line_words
from smtpuzzle.puzzles.maze import cases
from smtpuzzle.puzzles.maze.mdd import MAX_STATES, SPLIT_DEPTH
from smtpuzzle.runtime.checks import MAX_SEED, is_digits, plural
from smtpuzzle.runtime.files import distinct_files, output_directory, writable

if TYPE_CHECKING:
    from smtpuzzle.render.layout import Drawing

app = typer.Typer(no_args_is_help=True, help="Universal move strings for mazes.")
MaxStatesOpt = Annotated[int, typer.Option(
    help="mdd: the cap on a decision diagram's states; a diagram that reaches it holds "
         "about 55 bytes a state at the peak (60,000,000: about 3.3 GB). A diagram that "
         "outgrows it is split (--split-depth; bound: 0 by default, and it stops there).",
    min=1)]
SizeOpt = Annotated[str, typer.Option(
    help="3 (thin walls, visit every reachable cell), 4 (blocked cells, reach the goal), or "
         "RxC: a thin-wall rectangle of R rows and C columns (2 to 16 cells, e.g. 2x4, 3x4, "
         "4x4).")]


@app.command("check")
@friendly
def check(string: Annotated[str, typer.Argument(help="Moves, N E S W.")],
          size: SizeOpt = "3", as_json: JsonOpt = False) -> None:
    """How many cases STRING fails; the first failing maze is drawn with its start."""
    size = cases.parse_size(size)
    result = cases.check(string, size)
    if as_json:
        print_json(result.as_json())
        return
    what = "mazes" if size == 4 else "maze-start cases" + (
        " (one per class of the rectangle's symmetries)" if result.canonical else "")
    out.print(f"{result.moves} moves: fails {result.unsolved:,} of {result.cases:,} {what}")
    if result.first_failing is not None:
        out.print("first failing case (S start" + (", G goal" if size == 4 else "") + "):")
        out.print(cases.draw(cases.all_cases(size), result.first_failing))


@app.command("stats")
@friendly
def stats(size: SizeOpt = "3", as_json: JsonOpt = False) -> None:
    """The reduced maze set a universal string is searched against."""
    size = cases.parse_size(size)
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
    size: SizeOpt = "3",
    strategy: Annotated[str | None, typer.Option(
        help="mdd (exact decision diagrams; the default), cegar (a solver that learns the "
             "mazes its strings fail; the default with --backend) or local (annealing: finds "
             "strings, cannot prove none exists).", callback=named)] = None,
    backend: Annotated[str | None, typer.Option(
        help="cegar: sat (incremental; the default), z3 (incremental) or cpsat (re-solve).",
        callback=named)] = None,
    solver: Annotated[str | None, typer.Option(help="cegar: the sat or z3 solver.",
                                               callback=named)] = None,
    time_limit: Annotated[float | None, time_limit_option("Seconds; then unknown.")] = None,
    export_cnf: Annotated[Path | None, typer.Option(
        "--export-cnf", help="Write the final formula as DIMACS CNF.", parser=cli_path)] = None,
    seed: Annotated[int | None, typer.Option(help="local: the random seed (default 0).",
                                             min=0, max=MAX_SEED)] = None,
    max_states: MaxStatesOpt = MAX_STATES,
    split_depth: Annotated[int, typer.Option(
        help="mdd: how many free moves a pattern whose diagram outgrows --max-states may be "
             "split on (4 cubes a move), before the search answers unknown.", min=0)] = SPLIT_DEPTH,
    checkpoint: Annotated[Path | None, typer.Option(
        help="mdd: keep the cubes proved so far in this file as they are proved; a run of "
             "the same search given the file takes them as proved. Removed once the search "
             "is decided.", parser=cli_path)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Complete PATTERN to a string that solves every maze, or prove none exists."""
    from smtpuzzle.puzzles.maze.search import search as search_maze

    distinct_files({"--export-cnf": export_cnf, "--checkpoint": checkpoint})
    size = cases.parse_size(size)
    columns = [TextColumn("[bold]{task.description}"), TextColumn("{task.fields[info]}"),
               TimeElapsedColumn()]
    with progress(*columns, show=interactive(as_json)) as bar:
        task = bar.add_task("searching", info="")
        result = search_maze(
            pattern, size, strategy, backend, solver, budget(time_limit),
            progress=lambda n, t: bar.update(
                task, info=f"{plural(n, 'maze')} added, solver {t:.1f} s"),
            export_cnf=export_cnf,
            local_progress=lambda r, b: bar.update(
                task, info=f"restart {r}, least cost {b} (0 solves every maze)"), seed=seed,
            max_states=max_states, split_depth=split_depth, checkpoint=checkpoint)
    if as_json:
        print_json(result.as_json())
    else:
        if result.status == "sat":
            line = f"found (verified on every case): {result.string}"
        elif result.status == "unsat":
            line = "no string fits the pattern (proved" + (
                f": {command_line_words(result.note)})" if result.note else ")")
        elif result.note:
            line = f"unknown ({command_line_words(result.note)}): no string found yet"
        else:
            stopped = result.interrupted or time_limit is None  # z3 answers unknown on Ctrl-C
            line = "unknown (" + ("interrupted" if stopped else "time limit reached") \
                + "): no string found yet"
        if result.strategy == "local":
            if result.status == "unknown":
                line += " (local search cannot prove that none exists)"
                if result.best_failing is not None:
                    line += f"; the best string so far fails {result.best_failing:,} cases"
            out.print(f"{line}\n{plural(result.restarts, 'annealing run')}, {result.time_s:.2f} s "
                      "(local)")
        else:
            cubes = f" in {result.cubes} cubes" if result.cubes > 1 else ""
            out.print(f"{line}\n{plural(result.mazes_added, 'maze')} added{cubes}, "
                      f"{result.time_s:.2f} s "
                      f"(solver {result.solver_time_s:.2f} s, {result.backend})")
        if export_cnf is not None and result.status != "unknown" and not result.export_error:
            out.print(f"wrote {export_cnf}")
        if result.checkpoint:
            c = result.checkpoint
            if c["resumed_cubes"]:
                out.print(f"took {c['resumed_cubes']} cubes proved by an earlier run from "
                          f"{c['file']}")
            if c["kept_cubes"]:
                out.print(f"{c['kept_cubes']} cubes proved so far are kept in {c['file']}: "
                          f"run again with --checkpoint {c['file']} to go on")
    if result.export_error:
        unwritten(result.export_error)
    if result.status == "unknown":
        raise typer.Exit(EXIT_UNKNOWN)


@app.command("bound")
@friendly
def bound(
    size: SizeOpt = "3",
    start: Annotated[int, typer.Option(help="The first length to try.", min=1,
                                       max=cases.MAX_MOVES)] = 1,
    up_to: Annotated[int | None, typer.Option(
        help="Stop once this length is proved (its certificate checks in minutes at 30: "
             "see bench/RESULTS.md).", min=1, max=cases.MAX_MOVES)] = None,
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds; then the bound proved so far. With --certificate, the search leaves time "
        "to write the certificate of its last proof (an estimate), and the writing stops "
        "at the limit.")] = None,
    certificate: Annotated[Path | None, typer.Option(
        help="Write the last proof as a certificate here (thin walls: size 3 or RxC): the "
             "cases and the CNF that no string satisfies; `maze check-bound DIR` re-checks "
             "it.",
        parser=cli_path)] = None,
    max_states: MaxStatesOpt = MAX_STATES,
    mirror: Annotated[bool, typer.Option(
        help="On thin walls, search only strings whose first E or W is an E (any universal "
             "string mirrors into one), and on a rectangle whose first N or S is an N too "
             "(the flip rule): half the strings, a quarter on rectangles.")] = True,
    split_depth: Annotated[int, typer.Option(
        help="How many free moves a diagram that outgrows --max-states may be split on (a "
             "cube a letter, each searched on from its part of the diagram): more time, and "
             "less memory with a --checkpoint that is not .json, where the cubes waiting their "
             "turn wait. 0: stop there.", min=0)] = 0,
    checkpoint: Annotated[Path | None, typer.Option(
        help="Save the search in progress to this file as each length begins, every 10 "
             "minutes, as a diagram is split and when the run stops short of a proof; a run "
             "given the same file goes on from it (at its length). Removed when the run ends "
             "with nothing left to search. A .json file keeps the cases alone (kilobytes, to "
             "carry; the run taking it up builds the diagrams again from them), any other "
             "name the diagrams too (GBs near the frontier).", parser=cli_path)] = None,
    pick: Annotated[str, typer.Option(
        help="The failing case each proof adds next: first (the first in the case list), "
             "sampled (the one that cuts most from strings drawn at random) or auto (sampled "
             "on --size 4, first elsewhere: the better, as measured).")] = "auto",
    workers: Annotated[int, typer.Option(
        help="Processes searching a split length's cubes at once (with --split-depth; a "
             "--checkpoint must then be .json). Each holds the diagram of its cube.",
        min=1)] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Prove that no universal string has L moves, for the largest L reached in time."""
    from smtpuzzle.backends.rup import OutOfTime
    from smtpuzzle.puzzles.maze.bound.certificate import grid_of, write_certificate, write_seconds
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound

    size = cases.parse_size(size)
    check_workers(workers, None)
    if up_to is not None and up_to < start:
        raise PuzzleError(f"--up-to {up_to} is below --start {start}: nothing to prove")
    if certificate is not None:
        grid_of(size)  # size 4 (blocked cells) has none: said before any search
    if checkpoint is not None:  # before the certificate's directory is made
        writable(checkpoint)
    if certificate is not None:
        output_directory(certificate, "the certificate")
    columns = [TextColumn("[bold]{task.description}"), TextColumn("{task.fields[info]}"),
               TimeElapsedColumn()]
    with progress(*columns, show=interactive(as_json)) as bar:
        task = bar.add_task("proving", info="")
        proved = [0, 0]  # the last length proved, and its cases

        def shown(length: int, _: float, k: int, done: bool) -> None:
            if done:
                proved[:] = [length, k]
            last = f"no string of {proved[0]} moves ({proved[1]} cases); " if proved[0] else ""
            bar.update(task, info=last + (f"next {length + 1}" if done else
                                          f"{length} moves: {k} cases so far"))

        left = budget(time_limit)
        deadline = None if left is None else time.perf_counter() + left
        result = prove_bound(size, start, left, up_to, progress=shown,
                             max_states=max_states, mirror=mirror, checkpoint=checkpoint,
                             split_depth=split_depth, pick=pick, workers=workers,
                             reserve=None if certificate is None else
                             lambda n, found: write_seconds(n, found, mirror, size))
    written, cut, late = 0, False, False
    if certificate is not None and result.bound:
        try:
            written = write_certificate(certificate, result.bound, result.cases, result.mirror,
                                        deadline, size)
        except KeyboardInterrupt:  # the bound stands; only its certificate is lost
            cut = True
        except OutOfTime:
            late = True
    if as_json:
        print_json({**result.as_json(), **({"certificate": str(certificate),
                                            "certificate_cases": written} if written else {}),
                    **({"certificate": None, "interrupted": True} if cut else {}),
                    **({"certificate": None, "certificate_late": True} if late else {})})
    else:
        if result.resumed:
            r = result.resumed
            cubes = f" in {r['cubes']} cubes" if "cubes" in r else ""
            out.print(f"resumed {r['file']}: {r['length']} moves, {r['cases']} cases{cubes}, "
                      f"{r['seconds']:,.1f} s before this run")
        if result.bound:
            rules = [f"first move {result.first_move}"] if result.first_move != "*" else []
            if result.mirror:  # a rectangle's flip rule fixes the first N or S too
                rules += ["first N or S an N"] * (result.first_move == "*") + \
                    ["first E or W an E"]
            fixed = ", ".join(rules) or "no move fixed"
            split = result.steps[-1].cubes if result.steps[-1].status == "unsat" else \
                result.steps[-2].cubes
            cubes = f" in {split} cubes" if split > 1 else ""
            out.print(f"no string of {plural(result.bound, 'move')} or fewer solves every "
                      f"{cases.describe(size)} case: a universal string has at least "
                      f"{result.bound + 1} (proved with "
                      f"{plural(len(result.cases), 'case')}{cubes}, "
                      f"{fixed}{',' if result.mirror else ''} by symmetry; "
                      f"{result.time_s:.1f} s)")
        else:
            out.print(f"nothing proved ({result.time_s:.1f} s)")
        if result.undecided:
            u = result.undecided
            out.print(f"at {u['length']} moves, split: {u['cubes_proved']} of "
                      f"{u['cubes_proved'] + u['cubes_left']} cubes proved, "
                      f"{u['cubes_left']} left")
        out.print(f"stopped: {command_line_words(result.note)}")
        if result.string:
            least = ", so it is the least length" if result.bound == len(result.string) - 1 \
                else ""
            out.print(f"a string of {len(result.string)} moves solves every case "
                      f"(verified){least}: {result.string}")
        if result.saved:
            r = result.saved
            larger = " and a larger --max-states or --split-depth" if result.outgrown else ""
            left = f", {r['cubes_left']} cubes left" if "cubes_left" in r else ""
            if r.get("cubes_left") == 0:  # stopped as the next length was to begin
                left = f", proved: a run taking it up begins at {r['length'] + 1}"
            out.print(f"saved the search at {r['length']} moves ({r['cases']} cases{left}) to "
                      f"{r['file']}: run again with --checkpoint {r['file']}{larger} to go on")
        if written:
            images = {"rotations": " and their turns", "none": "",
                      "rotations and mirror": " and their turns and mirror images",
                      "flips": " and their flips"}[grid_of(size).symmetry(result.mirror)]
            out.print(f"wrote {certificate} ({written} cases: the proof's "
                      f"{len(set(result.cases))}{images}); check it with "
                      f"`smtpuzzle maze check-bound {certificate}`")
        if cut:
            out.print(f"interrupted while writing the certificate: {certificate} was not "
                      "written (the bound above stands)")
        if late:
            out.print(f"the time limit came while the certificate was written: {certificate} "
                      "was not written (the bound above stands; a larger --time-limit, or "
                      "--up-to, leaves it time)")
    # Ctrl-C, or a certificate asked for and not written: what was proved, then exit 1
    if not result.bound or result.interrupted or cut or late:
        raise typer.Exit(EXIT_UNKNOWN)


@app.command("build")
@friendly
def build(
    size: SizeOpt = "3",
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds; a string found by then is shortened until the limit.")] = None,
    seed: Annotated[int, typer.Option(help="The random seed of the cases drawn.", min=0,
                                      max=MAX_SEED)] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Build a universal string greedily: an upper bound on the least length, for any size.

    Letters are then dropped while time is left; the string printed is verified on every
    case."""
    from smtpuzzle.puzzles.maze.greedy import build_string

    size = cases.parse_size(size)
    columns = [TextColumn("[bold]{task.description}"), TextColumn("{task.fields[info]}"),
               TimeElapsedColumn()]
    with progress(*columns, show=interactive(as_json)) as bar:
        task = bar.add_task("building", info="")
        result = build_string(size, budget(time_limit), seed=seed, progress=lambda n, u, k:
                              bar.update(task, info=f"{n} moves, {u:,} of {k:,} cases "
                                                    "unsolved"))
    if as_json:
        print_json(result.as_json())
    elif result.string:
        out.print(f"a {result.moves}-move string solves every {cases.describe(size)} case "
                  f"(verified; {result.greedy_moves} moves before letters were dropped; "
                  f"{result.time_s:.1f} s): {result.string}")
        out.print(f"stopped: {command_line_words(result.note)}")
    elif not result.cases:  # not started
        out.print(f"unknown: {command_line_words(result.note)}")
    else:
        out.print(f"unknown ({command_line_words(result.note)}): {result.moves} moves so far leave "
                  f"{result.unsolved:,} of {result.cases:,} cases unsolved; the build is "
                  "incomplete")
    if not result.string:
        raise typer.Exit(EXIT_UNKNOWN)


def _widths(text: str) -> tuple[int, ...]:
    """--widths as numbers (shorten itself refuses a width below 2)."""
    words = [w.strip() for w in text.split(",")]
    if not all(is_digits(w) and len(w) <= 4 for w in words):
        raise typer.BadParameter(f"widths are whole numbers of letters separated by commas, "
                                 f"not {text[:40]!r}")
    return tuple(int(w) for w in words)


@app.command("shorten")
@friendly
def shorten_string(
    string: Annotated[str, typer.Argument(help="A universal string (letters N E S W), e.g. "
                                               "from maze build.")],
    size: SizeOpt = "3",
    widths: Annotated[str, typer.Option(
        help="Window widths, comma-separated: each window of W letters is rewritten in W - "
             "1 moves where it can be, and the next width is taken once a whole round of "
             "windows has none.")] = "12,16,20,24,28,32",
    window_limit: Annotated[float, typer.Option(
        help="Seconds one window's search may take before it is passed over.",
        min=0.001, max=1e6)] = 20.0,
    max_states: Annotated[int, typer.Option(
        help="The state cap of one window's decision diagrams; a window past it is passed "
             "over.", min=1)] = 5_000_000,
    max_cases: Annotated[int, typer.Option(
        help="Windows that the letters before them leave more cases unsolved than this "
             "are passed over unsearched (4x4's first windows leave millions).",
        min=1)] = 1_000_000,
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds; then the shortest string so far.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Shorten a universal string by rewriting its windows in one move fewer.

    The decision diagrams rewrite windows while any can be; the string printed is verified
    on every case."""
    from smtpuzzle.puzzles.maze.bound.shorten import shorten

    size = cases.parse_size(size)
    columns = [TextColumn("[bold]{task.description}"), TextColumn("{task.fields[info]}"),
               TimeElapsedColumn()]
    with progress(*columns, show=interactive(as_json)) as bar:
        task = bar.add_task("shortening", info="")
        result = shorten(string, size, _widths(widths), budget(time_limit), window_limit,
                         max_states, max_cases, progress=lambda n, w, k, r, u: bar.update(
                             task, info=f"{n} moves, windows of {w}: {k:,} searched, "
                                        f"{r:,} in a row without a rewrite; {u:,} cases "
                                        "unsolved before the next"))
    if as_json:
        print_json(result.as_json())
    else:
        minimal = (f"; no window of {result.minimal_at} letters can be rewritten in "
                   f"{result.minimal_at - 1}" if result.minimal_at else "")
        out.print(f"a string of {len(result.string)} moves solves every "
                  f"{cases.describe(size)} case (verified; {result.given} moves given, "
                  f"{result.shortened} windows rewritten of {result.windows:,} searched"
                  f"{minimal}; {result.time_s:.1f} s): {result.string}")
        passed = f" ({result.passed} windows passed over: state cap, --window-limit or " \
            "--max-cases)" if result.passed else ""
        out.print(f"stopped: {command_line_words(result.note)}{passed}")
    if result.interrupted:
        raise typer.Exit(EXIT_UNKNOWN)


@app.command("check-bound")
@friendly
def check_bound(
    directory: Annotated[Path, typer.Argument(help="A certificate from maze bound.",
        parser=cli_path)],
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds for the check; then unknown.")] = None,
    checker: Annotated[str, typer.Option(
        help="Who derives the proof's lemmas: cadical (a solve per lemma) or minisat (unit "
             "propagation alone, faster on long proofs).")] = "cadical",
    as_json: JsonOpt = False,
) -> None:
    """Re-check a bound certificate from scratch.

    Its cases, its formula and the diagram proof are checked again, every lemma derived by
    the --checker down to the empty clause.

    Exit 0 verified, 1 unknown (not checked in time, or interrupted), 2 unreadable (no such
    directory or file), 3 rejected (whatever is wrong in the files)."""
    from smtpuzzle.puzzles.maze.bound.certificate import check_certificate

    columns = [TextColumn("[bold]{task.description}"), BarColumn(),
               TextColumn("{task.fields[info]}"), TimeElapsedColumn()]
    with progress(*columns, show=interactive(as_json)) as bar:
        task = bar.add_task("checking", info="", total=None)

        def shown(level: int, levels: int, lemmas: int) -> None:
            bar.update(task, total=levels, completed=level - 1,
                       info=f"case {level} of at most {levels}, {lemmas:,} lemmas")

        result = check_certificate(directory, budget(time_limit), shown, checker)
        winding_down()
    if as_json:
        print_json(result.as_json())
    else:
        out.print(f"{result.verdict}: {result.reason} ({result.cases} cases, "
                  f"{result.time_s:.1f} s)")
    if result.verdict != "verified":
        raise typer.Exit(EXIT_UNKNOWN if result.verdict == "unknown" else EXIT_UNVERIFIED)


@app.command("checkpoint-json")
@friendly
def checkpoint_json(
    source: Annotated[Path, typer.Argument(
        help="An .npz checkpoint of maze bound (diagrams and cases).", parser=cli_path)],
    target: Annotated[Path, typer.Argument(
        help="The .json checkpoint to write (the cases alone); replaced whole if it "
             "exists, as every file the tool writes is.", parser=cli_path)],
) -> None:
    """Write a bound checkpoint's cases without its diagrams.

    The .json file is kilobytes, to carry to another machine or commit; `maze bound
    --checkpoint` takes it up by building each cube's diagram again from its cases (give it
    the same --max-states). Only the header is read and checked.

    Exit 0 written, 2 unreadable or not a checkpoint."""
    from smtpuzzle.puzzles.maze.bound.resume import cases_of, to_cases_only

    writable(target)
    saved = to_cases_only(source, target)
    cases_in = len(cases_of(saved.cubes, saved.proved))
    out.print(f"wrote {target}: {saved.length} moves, {plural(cases_in, 'case')}, "
              f"{plural(len(saved.cubes), 'cube')} to search and {len(saved.proved)} proved, "
              f"{saved.seconds:,.1f} s before")


@app.command("show")
@friendly
def show(
    string: Annotated[str, typer.Argument(help="Moves, N E S W.")],
    maze: Annotated[int | None, typer.Option(
        help="The maze's id. 3x3: bit e set = edge e open, the edges numbered left-right "
             "pairs row by row (0-5), then up-down pairs (6-11). 4x4: bit b set = the b-th "
             "cell (row by row, start and goal left out) open. Default: the first case "
             "the string fails, else the first of the reduced set.")] = None,
    start: Annotated[int | None, typer.Option(
        help="With --maze, 3x3: the start cell, 0-8 row by row (default 0).")] = None,
    size: SizeOpt = "3",
    svg: Annotated[Path | None, typer.Option(help="Write an SVG picture of the walk.",
        parser=cli_path)] = None,
    png: Annotated[Path | None, typer.Option(help="Write a PNG picture of the walk.",
        parser=cli_path)] = None,
    html: HtmlOpt = None,
    cell_size: CellSizeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Walk STRING on one maze: the cells it visits, drawn (the picture shows the walk)."""
    from smtpuzzle.puzzles.maze.drawing import MAZE_CELL

    files = PictureFiles(svg, png, html, cell_size or MAZE_CELL)
    files.check()
    size = cases.parse_size(size)
    walk = cases.walk_case(string, size, maze, start)
    if files:
        from smtpuzzle.puzzles.maze.drawing import maze_drawing

        def drawing() -> Drawing:
            return maze_drawing(walk, string)

        files.write(drawing, lambda: [drawing()], f"maze {walk.maze}", walk.as_json())
    if as_json:
        print_json(walk.as_json())
        return
    verdict = "solved" if walk.solved else "FAILS"
    moves = len(walk.cells) - 1
    if size != 4:
        out.print(f"maze {walk.maze}, start {walk.start}: {verdict}, {moves} moves visit "
                  f"{walk.visited} of the {walk.to_visit} reachable cells")
    else:
        reached = "reach the goal" if walk.solved else "never reach the goal"
        out.print(f"maze {walk.maze}: {verdict}, {moves} moves {reached}")
    out.print(cases.draw(cases.all_cases(size), walk.index))
    out.print("cells visited, numbered row by row from 0: " + " ".join(map(str, walk.cells)))
