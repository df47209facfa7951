"""`solve FILE.sudoku` and `solve FILE.kenken`: number-grid puzzles written with the
modelling API. Each puzzle of the file is decided in turn (unique, multiple, none or
unknown) and its solutions shown, each verified; with --json one object per line."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import typer
from rich.markup import escape

from smtpuzzle.cli.common import EXIT_UNKNOWN, listed, out, print_json
from smtpuzzle.cli.pictures import PictureFiles
from smtpuzzle.families import Family
from smtpuzzle.result import Status
from smtpuzzle.runtime.checks import plural


def solve_grids(puzzles: Sequence[Any], solve: Callable[..., Any],
                grid_text: Callable[[np.ndarray], str], backend: str, solver: str | None,
                time_limit: float | None, limit: int | None, counting: bool,
                as_json: bool, search_limit: int | None,
                draw: Callable[[Any, Any, list[np.ndarray]], None] | None = None) -> None:
    """``solve(puzzle, backend, solver, time_limit, search_limit)`` for each puzzle (the
    search goes one past ``limit`` when counting), the answer printed and (``draw``) its
    solutions shown drawn; exit code 1 when one was left undecided."""
    undecided = 0
    # one limit for the whole file, not one for each of its puzzles
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    for puzzle in puzzles:
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
        ans = solve(puzzle, backend, solver, left, search_limit)
        given, words, short = listed(len(ans.solutions), ans.complete,
                                     limit if counting else None, ans.interrupted)
        if ans.status is Status.UNKNOWN or (counting and short):
            undecided += 1
        shown = ans.solutions[:given] if counting else ans.solutions[:2]
        differ = _differ(ans.solutions) if ans.status is Status.MULTIPLE else []
        if draw is not None:
            draw(puzzle, ans, shown)
        if as_json:
            data = ans.as_json()
            data["solutions"] = [s.tolist() for s in shown]
            data["count"] = len(shown)
            if differ:
                data["differ"] = [[r + 1, c + 1] for r, c in differ]
            print_json(data)
            if ans.interrupted:
                break
            continue
        why = ""
        if ans.status is Status.UNKNOWN:
            why = " (interrupted)" if ans.interrupted else " (time limit reached)"
        out.print(f"[bold]{escape(puzzle.name)}[/bold]: {ans.status.value}{why} in "
                  f"{ans.time_s:.2f} s ({ans.backend})", markup=True)
        if counting:
            out.print(f"{plural(given, 'solution')} ({words})")
        for grid in shown[:2]:
            out.print(grid_text(grid))
            out.print("[dim]verified[/dim]", markup=True)
        if differ and not counting:
            out.print(f"the two differ at {len(differ)} cells: "
                      + ", ".join(f"r{r + 1}c{c + 1}" for r, c in differ[:20])
                      + (", ..." if len(differ) > 20 else ""))
        if ans.interrupted:
            break
    if undecided:
        raise typer.Exit(EXIT_UNKNOWN)


def _differ(solutions: Sequence[np.ndarray]) -> list[tuple[int, int]]:
    """The cells (row, column from 0) where the first two solutions differ."""
    a, b = (np.asarray(s) for s in solutions[:2])
    return [(int(r), int(c)) for r, c in np.argwhere(a != b)]


def solve_grid_file(puzzle: Any, family: Family, backend: str, solver: str | None,
                    time_limit: float | None, limit: int | None, counting: bool, as_json: bool,
                    search_limit: int | None, files: PictureFiles | None = None) -> None:
    """A file of grid puzzles decided in turn (a Sudoku file), or one grid puzzle (a
    KenKen): the family's solver decides each, its text shows each solution; ``files``
    (families that draw) the pictures asked for."""
    grids = getattr(puzzle, "puzzles", [puzzle])

    def draw(one: Any, ans: Any, shown: list[np.ndarray]) -> None:
        files.write((lambda: family.draw(one, shown)) if shown else None,
                    lambda: [family.draw(one, shown)] if shown else [], one.name,
                    ans.as_json(), "")

    solve_grids(grids, family.decide(), lambda grid: family.solution_text(puzzle, grid)
                .rstrip("\n"), backend, solver, time_limit, limit, counting, as_json,
                search_limit, draw if files else None)


def _determined_text(found: np.ndarray) -> str:
    """Forced cells filled, the rest blank: numbers with ``.`` for blank, spaced; cells
    that are filled or empty as ``#`` and ``.`` with ``?`` for blank, unspaced."""
    values = [v for v in found.ravel().tolist() if v is not None]
    if values and all(isinstance(v, bool) for v in values):
        return "\n".join("".join("?" if v is None else "#" if v else "." for v in row)
                         for row in found.tolist())
    return "\n".join(" ".join("." if v is None else str(v) for v in row)
                     for row in found.tolist())


def question_grid_file(puzzle: Any, family: Family, question: str, backend: str,
                       solver: str | None, time_limit: float | None, as_json: bool) -> None:
    """A designer's question of each grid puzzle of the file: ``determined`` (the cells
    every solution agrees on, the rest blank) or ``explain`` (for one with no solution, a
    minimal set of givens or cages that conflict). Exit code 1 when the time ran out."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    undecided = 0
    for grid_puzzle in getattr(puzzle, "puzzles", [puzzle]):
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
        model, cells = grid_puzzle.build(named=question == "explain")
        data: dict[str, Any] = {"name": grid_puzzle.name, "question": question}
        try:
            if question == "determined":
                found = model.determined(cells, backend, solver, left)
                if family.partial:  # the answer variables read back as the family's grid
                    found = grid_puzzle.decode(found)
                    if isinstance(found, list):  # rows of characters (a nonogram)
                        found = np.array([list(row) for row in found])
                data.update(status="determined", determined=found.tolist(),
                            forced=int(sum(v not in (None, "?") for v in found.ravel())),
                            cells=int(found.size))
                text = family.half_solved_text(grid_puzzle, found) if family.partial \
                    else _determined_text(found)
                said = f"{data['forced']} of {data['cells']} cells forced"
            else:
                conflict = model.explain(backend, solver, left)
                data.update(status="none", conflict=conflict)
                text = "the rules alone conflict" if not conflict else \
                    "these conflict (dropping any one leaves a solution): " + ", ".join(conflict)
                said = "no solution"
        except ValueError as exc:  # none to show (determined), or a solution (explain)
            data.update(status="none" if question == "determined" else "sat", note=str(exc))
            text, said = str(exc), data["status"]
        except TimeoutError as exc:
            undecided += 1
            data.update(status="unknown", note=str(exc))
            text, said = str(exc), "unknown (time limit reached)"
        if as_json:
            print_json(data)
            continue
        out.print(f"[bold]{escape(grid_puzzle.name)}[/bold]: {said}", markup=True)
        out.print(escape(text), markup=True)
    if undecided:
        raise typer.Exit(EXIT_UNKNOWN)
