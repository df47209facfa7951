"""`export-cnf`, `solve-cnf` and `decode`: a puzzle's model as DIMACS CNF for any SAT
solver, a solver the install ships run on it, and a solver's answer read back, verified and
drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.text import Text

from smtpuzzle.backends.dimacs import write_dimacs
from smtpuzzle.cli.common import (
    EXIT_UNKNOWN,
    JsonOpt,
    ModelArg,
    budget,
    cli_path,
    err,
    friendly,
    out,
    print_json,
    time_limit_option,
)
from smtpuzzle.errors import PuzzleError
from smtpuzzle.families import family_named
from smtpuzzle.formats.solver_answer import read_answer
from smtpuzzle.library import load_puzzle, model_file
from smtpuzzle.puzzles import Puzzle
from smtpuzzle.result import Status
from smtpuzzle.runtime.files import distinct_files


@friendly
def export_cnf(
    model: ModelArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="The .cnf file to write.",
        parser=cli_path)],
    encoding: Annotated[str | None, typer.Option(
        help="Nonograms: order (default), runs or automaton.")] = None,
) -> None:
    """Write the model as DIMACS CNF for any SAT solver (comments name the user variables).

    A puzzle impossible on its face is written too (a solver then refutes it), with a
    warning that says why."""
    distinct_files({"-o": output}, {"the puzzle": model_file(model)})
    try:
        puzzle = load_puzzle(model)
    except PuzzleError as exc:
        if not exc.message.startswith("no solution"):
            raise
        err.print(f"warning: {exc.for_command_line()}; the CNF is written all the same")
        puzzle = load_puzzle(model, precheck=False)
    m = puzzle.build_model(encoding)
    try:
        cnf = write_dimacs(m, output)
    except OSError as exc:
        raise PuzzleError(f"cannot write ({exc.strerror})", str(output)) from None
    out.print(f"wrote {output}: {cnf.num_vars} variables, {len(cnf.clauses)} clauses, "
              f"{cnf.num_user_vars} user variables")


@friendly
def solve_cnf(
    cnf_file: Annotated[Path, typer.Argument(help="A DIMACS CNF file.", parser=cli_path)],
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="Write the answer here (default: print it).",
        parser=cli_path)] = None,
    solver: Annotated[str, typer.Option(
        help="A PySAT solver by name (as for solve --backend sat).")] = "cadical195",
    time_limit: Annotated[float | None, time_limit_option(
        "Seconds; then the answer is s UNKNOWN.")] = None,
) -> None:
    """Run a SAT solver the install ships (PySAT's) on any DIMACS CNF.

    The answer is written as SAT solvers write theirs (an s line, and v lines with the
    model), for decode to read back."""
    from smtpuzzle.backends.dimacs import answer_text, read_cnf
    from smtpuzzle.backends.sat import solve_clauses

    distinct_files({"-o": output}, {"the CNF": cnf_file})
    cnf = read_cnf(cnf_file, exported=False)
    status, values = solve_clauses(cnf.clauses, cnf.num_vars, solver, budget(time_limit))
    text = answer_text(status, values, cnf.num_vars)
    if output is None:
        out.print(text, end="", markup=False, highlight=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise PuzzleError(f"cannot write ({exc.strerror})", str(output)) from None
    out.print(f"wrote {output}: {text.splitlines()[0]}", markup=False, highlight=False)


@friendly
def decode(
    model: ModelArg,
    cnf_file: Annotated[Path, typer.Argument(help="The CNF written by export-cnf.",
        parser=cli_path)],
    solver_output: Annotated[Path, typer.Argument(help="The solver's answer (s/v lines).",
        parser=cli_path)],
    encoding: Annotated[str | None, typer.Option(
        help="Nonograms: the encoding the CNF was exported with.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Read an external solver's answer to an exported CNF, verify it and draw it."""
    puzzle = load_puzzle(model, precheck=False)
    answer = read_answer(puzzle, cnf_file, solver_output, encoding,
                         grid=family_named(puzzle.family).treatment == "grid")
    if as_json:
        print_json(answer.as_json())
    else:
        out.print(f"[bold]{escape(puzzle.name)}[/bold]: {escape(answer.claim)} (from "
                  f"{escape(str(solver_output))})", markup=True)
        for solution in answer.solutions:
            out.print(_picture(puzzle, solution), end="")
            out.print("[dim]verified[/dim]", markup=True)
    if answer.status is Status.UNKNOWN:
        raise typer.Exit(EXIT_UNKNOWN)


def _picture(puzzle: Puzzle, solution: Any) -> Text | str:
    return family_named(puzzle.family).solution_text(puzzle, solution)
