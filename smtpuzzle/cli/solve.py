"""`solve`: one solution of a tiling or a proof there is none, solutions listed (--all,
--limit, --distinct), or a nonogram decided (unique, multiple, none) or counted."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from smtpuzzle.backends import BACKENDS
from smtpuzzle.cli.common import (
    EXIT_UNKNOWN,
    ModelArg,
    budget,
    cli_path,
    err,
    friendly,
    interactive,
    listed,
    named,
    out,
    print_json,
    spinner,
    time_limit_option,
    warn_same_shapes,
)
from smtpuzzle.cli.pictures import CellSizeOpt, HtmlOpt, PictureFiles
from smtpuzzle.errors import PuzzleError
from smtpuzzle.families import FAMILIES, Family, family_named
from smtpuzzle.library import load_puzzle, model_file
from smtpuzzle.runtime.checks import plural

if TYPE_CHECKING:
    from smtpuzzle.puzzles.nonogram.puzzle import Nonogram
    from smtpuzzle.puzzles.tiling.puzzle import Tiling, TilingSolution
    from smtpuzzle.render.layout import Drawing

COUNT_LIMIT = 10_000  # nonograms: --count stops here unless --limit says otherwise


@friendly
def solve(
    model: ModelArg,
    backend: Annotated[str | None, typer.Option(
        callback=named,
        help=f"One of {', '.join(BACKENDS)}; default cpsat for one solution, exact-cover for "
             "--all / --limit.")] = None,
    solver: Annotated[str | None, typer.Option(
        callback=named,
        help="sat: the PySAT solver (cadical195, minisat22, glucose4, lingeling...); "
             "z3: default, general or qffd; exact-cover: the kernel, auto, sweep or mrv.")] = None,
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds of search; then answer unknown (pictures asked for are drawn after).")] = None,
    all_solutions: Annotated[bool, typer.Option("--all", help="List every solution.")] = False,
    limit: Annotated[int | None, typer.Option(help="List at most N solutions.", min=1)] = None,
    distinct: Annotated[bool, typer.Option(
        help="With --all / --limit: one solution per symmetry class.")] = False,
    encoding: Annotated[str | None, typer.Option(
        help="Nonograms: order (default), runs or automaton.")] = None,
    tiling_model: Annotated[str | None, typer.Option(
        "--model", callback=named,
        help="Tilings, one solution: placements (a boolean per placement, the "
             "default) or index (an integer per piece: its placement number).")] = None,
    no_presolve: Annotated[bool, typer.Option(
        "--no-presolve", help="Nonograms: skip line solving and probing.")] = False,
    no_probing: Annotated[bool, typer.Option(
        "--no-probing", help="Nonograms: line solving only, no probing.")] = False,
    no_guess: Annotated[bool, typer.Option(
        "--no-guess", help="Nonograms: sat and z3 search without the "
                           "belief-propagation guesses.")] = False,
    count_solutions: Annotated[bool, typer.Option(
        "--count", help="Nonograms, Sudoku, KenKen, pencil puzzles: count solutions (up to "
                        "--limit, default 10000).")] = False,
    determined: Annotated[bool, typer.Option(
        "--determined", help="Sudoku, KenKen, pencil puzzles, nonograms: the cells every "
                             "solution agrees on, the rest left blank (what the clues "
                             "force).")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Sudoku, KenKen, pencil puzzles, nonograms without a solution: a "
                          "minimal set of givens, cages or clues that conflict (dropping any "
                          "one leaves a solution).")] = False,
    link: Annotated[bool, typer.Option(
        "--link", help="Pencil puzzles: print the puzzle's puzz.link link instead of "
                       "solving it.")] = False,
    svg: Annotated[Path | None, typer.Option(
        help="Write an SVG picture of the solution (with --all / --limit: a contact sheet "
             "of them, numbered).", parser=cli_path)] = None,
    png: Annotated[Path | None, typer.Option(
        help="Write a PNG picture of the solution (with --all / --limit: a contact sheet "
             "of them, numbered).", parser=cli_path)] = None,
    html: HtmlOpt = None,
    cell_size: CellSizeOpt = None,
    mark_cells: Annotated[bool, typer.Option(
        "--mark-cells", help="Nonogram pictures: a dot in each cell saying what decided it "
                             "(line solving, probing, a guess) (debug).")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the answer as one JSON object (a Sudoku file of several "
                       "puzzles: one a line, as each is decided).")] = False,
) -> None:
    """Find one solution, or prove there is none; --all / --limit N list solutions.

    Nonograms (.non, .nin, .clues), Sudoku files (.sudoku, one puzzle a line), KenKens
    (.kenken) and pencil puzzles (a file named by its genre, .nurikabe, or a puzz.link link)
    answer unique, multiple, none or unknown."""
    if all_solutions and limit is not None:
        raise PuzzleError("give --all or --limit, not both")
    files = PictureFiles(svg, png, html, cell_size)
    files.check({"the puzzle": model_file(model)})
    puzzle = load_puzzle(model)
    warn_same_shapes(puzzle)
    family = family_named(puzzle.family)
    if family.treatment == "own":
        raise PuzzleError(f"{model} is a {family.name} puzzle: use `smtpuzzle {family.name} "
                          f"{model}`")
    if count_solutions and family.treatment == "tiling":
        raise PuzzleError(f"--count: {model} is a tiling; count it with `smtpuzzle count "
                          f"{model}`")
    _refuse_options(model, family, {
        "--model": tiling_model is not None, "--distinct": distinct,
        "--encoding": encoding is not None, "--no-presolve": no_presolve,
        "--no-probing": no_probing, "--no-guess": no_guess, "--mark-cells": mark_cells,
        "--count": count_solutions, "--svg, --png, --html": bool(files) and not family.drawing,
        "--determined": determined, "--explain": explain})
    if link:
        written = family.link_of(puzzle)
        if as_json:
            print_json({"link": written})
        else:
            out.print(written)
        return
    if determined and explain:
        raise PuzzleError("give --determined or --explain, not both")
    if (determined or explain) and (all_solutions or limit is not None or count_solutions):
        raise PuzzleError(f"--{'determined' if determined else 'explain'} answers on its "
                          "own: leave out --all, --limit and --count")
    # Puzzles that are decided (unique, multiple, none) look for two solutions at least.
    limit_n = None if all_solutions else (
        limit if limit is not None else (COUNT_LIMIT if count_solutions else 2))
    counting = count_solutions or all_solutions or limit is not None
    if determined or explain:
        from smtpuzzle.cli.grids import question_grid_file

        question_grid_file(puzzle, family, "determined" if determined else "explain",
                           backend or "sat", solver, budget(time_limit), as_json)
        return
    if family.treatment == "grid":
        from smtpuzzle.cli.grids import solve_grid_file

        solve_grid_file(puzzle, family, backend or "cpsat", solver, budget(time_limit),
                        limit_n, counting, as_json, _past(limit_n, counting), files)
        return
    if family.treatment == "nonogram":
        _warn_of_the_goal(model, puzzle)
        _solve_nonogram(puzzle, backend, solver, encoding, not no_presolve, not no_probing,
                        not no_guess, budget(time_limit), limit_n, counting,
                        _past(limit_n, counting),
                        all_solutions or (limit is not None and not count_solutions), files,
                        mark_cells, as_json)
        return
    if all_solutions or limit is not None:
        if tiling_model not in (None, "placements"):
            raise PuzzleError(f"--model {tiling_model}: for one solution (lists use "
                              "placements)")
        list_solutions(puzzle, backend, solver, None if all_solutions else limit, distinct,
                       budget(time_limit), as_json, files)
        return
    if distinct:
        raise PuzzleError("--distinct goes with --all or --limit")
    _solve_tiling(puzzle, backend, solver, budget(time_limit), files, as_json,
                  tiling_model or "placements")


# The options of `solve` that only some treatments take (families.TREATMENTS); the rest
# (back end, solver, time limit, --all, --limit, --json) every family takes.
TAKEN_BY = {
    "--model": {"tiling"}, "--distinct": {"tiling"},
    "--encoding": {"nonogram"}, "--no-presolve": {"nonogram"}, "--no-probing": {"nonogram"},
    "--no-guess": {"nonogram"}, "--mark-cells": {"nonogram"},
    "--count": {"nonogram", "grid"}, "--svg, --png, --html": {"tiling", "nonogram"},
    "--determined": {"grid", "nonogram"}, "--explain": {"grid", "nonogram"},
}
PICTURES = "--svg, --png, --html"


def _refuse_options(model: str, family: Family, given: dict[str, bool]) -> None:
    """Options given that ``family``'s treatment does not take: one error naming them and
    the families that do take them."""
    refused = [option for option, used in given.items()
               if used and family.treatment not in TAKEN_BY[option]]
    if not refused:
        return
    if refused == [PICTURES]:
        drawn = sorted(f.plural for f in FAMILIES.values()
                       if f.treatment in TAKEN_BY[PICTURES] or f.drawing)
        raise PuzzleError(f"{PICTURES}: pictures are drawn for {', '.join(drawn)} and mazes, "
                          f"not for {family.name} puzzles yet")
    takers = {f.plural for f in FAMILIES.values()
              if all(f.treatment in TAKEN_BY[option] for option in refused)}
    who = ", ".join(sorted(takers)) or "no family"
    raise PuzzleError(f"{', '.join(refused)}: for {who} only ({model} is a {family.name} "
                      "puzzle)")


def _solve_tiling(tiling: Tiling, backend: str | None, solver: str | None,
                  time_limit: float | None, files: PictureFiles, as_json: bool,
                  tiling_model: str) -> None:
    from smtpuzzle.backends import get_backend
    from smtpuzzle.puzzles.tiling.drawing import tiling_drawing
    from smtpuzzle.puzzles.tiling.solve import DEFAULT_BACKEND, solve_tiling
    from smtpuzzle.puzzles.tiling.text import tiling_picture

    engine = get_backend(backend or DEFAULT_BACKEND, solver)
    with spinner(f"solving {tiling.name} with {engine.label()}...", interactive(as_json)):
        answer = solve_tiling(tiling, engine, time_limit=time_limit, model=tiling_model)
    if files:
        def drawing() -> Drawing:
            return tiling_drawing(tiling.board, tiling.pieces, answer.solutions)

        sols = answer.solutions
        files.write(drawing if sols else None, lambda: [drawing()] if sols else [],
                    tiling.name, _summary(answer.as_json()), tiling.title)
    if as_json:
        print_json(answer.as_json())
    else:
        # CP-SAT and Z3 catch Ctrl-C themselves and answer unknown early.
        timed_out = time_limit is not None and answer.time_s >= time_limit
        why = "" if answer.complete else (
            " (time limit reached)" if timed_out and not answer.interrupted else " (interrupted)")
        line = f"[bold]{escape(tiling.name)}[/bold]: {answer.status.value}{why} with " \
               f"{answer.backend} " \
               f"in {answer.time_s:.2f} s"
        if answer.stats is not None:
            stats = answer.stats
            line += f" (build {stats.build_time:.2f} s, solve {stats.solve_time:.2f} s; " \
                    f"{stats.variables} variables, {stats.constraints} constraints)"
        out.print(line, markup=True)
        for solution in answer.solutions:
            out.print(tiling_picture(tiling, solution), end="")
            out.print("[dim]verified[/dim]", markup=True)
    if not answer.complete:
        raise typer.Exit(EXIT_UNKNOWN)


def _summary(data: dict[str, Any]) -> dict[str, Any]:
    """A JSON answer without its solutions: the run's summary for an HTML page."""
    return {k: v for k, v in data.items() if k not in ("solutions", "frames")}


def list_solutions(tiling: Tiling, backend: str | None, solver: str | None, limit: int | None,
                   distinct: bool, time_limit: float | None, as_json: bool,
                   files: PictureFiles, group: str = "board") -> None:
    """List a tiling's solutions (solve --all / --limit, count --limit): each printed as it
    is found, or all in one JSON object; ``files`` draw them: a numbered contact sheet (SVG,
    PNG), a page with each one (HTML)."""
    from smtpuzzle.puzzles.tiling.drawing import solution_pages, tiling_drawing
    from smtpuzzle.puzzles.tiling.solve import DEFAULT_LIST_BACKEND, list_tilings
    from smtpuzzle.puzzles.tiling.text import tiling_picture

    def show(n: int, solution: TilingSolution) -> None:
        out.print(f"[bold]solution {n}[/bold]", markup=True)
        out.print(tiling_picture(tiling, solution), end="")

    # Solutions are kept for --json and pictures only: text is printed at once.
    listing = list_tilings(tiling, backend or DEFAULT_LIST_BACKEND, solver, limit, distinct,
                           time_limit, on_solution=None if as_json else show,
                           keep=as_json or bool(files), group=group)
    if files:
        board, pieces, found = tiling.board, tiling.pieces, listing.solutions

        def sheet() -> Drawing:
            return tiling_drawing(board, pieces, found, caption="solution")

        files.write(sheet if found else None, lambda: solution_pages(board, pieces, found),
                    tiling.name, _summary(listing.as_json()), tiling.title)
    if as_json:
        print_json(listing.as_json())
    else:
        if listing.complete:
            note = "all of them"
        elif listing.interrupted:
            note = "interrupted: there may be more"
        elif listing.more:
            note = f"stopped at --limit {limit}: there are more"
        elif listing.stopped_at_limit:
            note = f"stopped at --limit {limit}: there may be more"
        else:
            note = "time limit reached: there may be more"
        what = "distinct " if distinct else ""
        out.print(f"[bold]{escape(tiling.name)}[/bold]: "
                  f"{plural(listing.count, what + 'solution')}, each verified "
                  f"({note}; {listing.backend}, {listing.time_s:.2f} s)", markup=True)
    if not listing.complete and not listing.stopped_at_limit:
        raise typer.Exit(EXIT_UNKNOWN)


def _past(limit: int | None, counting: bool) -> int | None:
    """What a count or listing searches for: one past its limit, so that one that stops
    there can tell "all of them" from "there are more"."""
    return limit + 1 if counting and limit is not None else limit


def _solve_nonogram(puzzle: Nonogram, backend: str | None, solver: str | None,
                    encoding: str | None, use_presolve: bool, probing: bool, guess: bool,
                    time_limit: float | None, limit: int | None, counting: bool,
                    search_limit: int | None,
                    listing: bool, files: PictureFiles, mark_cells: bool,
                    as_json: bool) -> None:
    from smtpuzzle.puzzles.nonogram.drawing import nonogram_drawing, nonogram_picture
    from smtpuzzle.puzzles.nonogram.puzzle import DEFAULT_ENCODING
    from smtpuzzle.puzzles.nonogram.solve import DEFAULT_BACKEND, solve_nonogram

    backend = backend or DEFAULT_BACKEND
    with spinner(f"solving {puzzle.name} with {backend}...", interactive(as_json)):
        ans = solve_nonogram(puzzle, backend, solver, encoding or DEFAULT_ENCODING,
                             use_presolve, probing, time_limit, search_limit, guess)
    # --all / --limit draw every solution (up to the limit); --count reports the number and
    # draws two.
    given, words, short = listed(ans.count, ans.complete, limit if counting else None,
                                 ans.interrupted)
    listed_ones = ans.solutions[:given]
    shown = listed_ones if listing or (counting and as_json) else listed_ones[:2]
    if files:
        marks = ans.origins() if mark_cells and shown else None

        def drawing() -> Drawing:
            return nonogram_drawing(puzzle, shown, marks)

        files.write(drawing if shown else None, lambda: [drawing()] if shown else [],
                    puzzle.name, ans.as_json(with_solutions=False), puzzle.title)
    goal = puzzle.goal_report(shown)
    if as_json:
        data = ans.as_json(with_solutions=False)
        data["solutions"] = shown
        if counting:
            data["count"] = given
        if goal is not None:
            data["goal"] = goal[1]
        print_json({"model": puzzle.name, **data})
    else:
        pre = ans.presolve
        how = (f"{ans.backend}, {ans.encoding} encoding" if ans.stats
               else "presolve" if pre is not None else f"{ans.backend}, not started")
        if ans.guesses:
            how += f", {ans.guesses} cells guessed"
        if pre is not None:
            how += f"; line solving settled {pre.line_known}, probing {pre.known} of " \
                   f"{pre.grid.size} cells"
        why = ""
        if ans.status == "unknown":
            why = " (interrupted)" if ans.interrupted else " (time limit reached)"
        out.print(f"[bold]{escape(puzzle.name)}[/bold]: {ans.status}{why} in "
                  f"{ans.time_s:.2f} s ({how})", markup=True)
        for note in ans.notes:
            out.print(f"[dim]{escape(note)}[/dim]", markup=True)
        if counting:
            out.print(f"{plural(given, 'solution')} ({words})")
        if shown:
            out.print(nonogram_picture(shown, puzzle), end="")
            out.print("[dim]verified[/dim]", markup=True)
        if goal is not None:
            out.print(goal[0])
    if ans.status == "unknown" or (counting and short):
        raise typer.Exit(EXIT_UNKNOWN)


def _warn_of_the_goal(model: str, puzzle: Nonogram) -> None:
    """A file's goal picture that contradicts its clues: a warning (the clues are solved)."""
    mismatch = puzzle.goal_mismatch()
    if mismatch is not None:
        where = f"{model}:{puzzle.goal_line}" if puzzle.goal_line else model
        err.print(f"[yellow]warning:[/yellow] {escape(where)}: the goal contradicts the clues "
                  f"({mismatch}); the clues are solved", markup=True)
