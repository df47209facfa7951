"""`solve FILE.sudoku`: each puzzle of the file decided in turn (unique, multiple, none or
unknown), its solution shown; with --json one object per line."""

from __future__ import annotations

import typer

from smtpuzzle.cli.common import EXIT_UNKNOWN, out, print_json
from smtpuzzle.formats.sudoku import SudokuFile, grid_text
from smtpuzzle.puzzles.sudoku.solve import solve_sudoku
from smtpuzzle.result import Status


def solve_sudokus(file: SudokuFile, backend: str, solver: str | None,
                  time_limit: float | None, limit: int | None, counting: bool,
                  as_json: bool) -> None:
    undecided = 0
    for puzzle in file.puzzles:
        ans = solve_sudoku(puzzle, backend, solver, time_limit, limit)
        if ans.status is Status.UNKNOWN or (counting and limit is None and not ans.complete):
            undecided += 1
        if as_json:
            data = ans.as_json()
            if not counting:
                data["solutions"] = data["solutions"][:2]
            print_json(data)
            continue
        why = ""
        if ans.status is Status.UNKNOWN:
            why = " (interrupted)" if ans.interrupted else " (time limit reached)"
        out.print(f"[bold]{puzzle.name}[/bold]: {ans.status.value}{why} in {ans.time_s:.2f} s "
                  f"({ans.backend})")
        if counting:
            exact = "all of them" if ans.complete else "stopped at the limit or time: maybe more"
            out.print(f"{len(ans.solutions)} solutions ({exact})")
        for grid in ans.solutions[:2]:
            out.print(grid_text(grid))
            out.print("[dim]verified[/dim]")
        if ans.interrupted:
            break
    if undecided:
        raise typer.Exit(EXIT_UNKNOWN)
