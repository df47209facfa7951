"""`list` and `show`: the model library, and a puzzle's board and pieces drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from smtpuzzle.cli.common import JsonOpt, ModelArg, friendly, out, print_json
from smtpuzzle.errors import PuzzleError
from smtpuzzle.library import list_models, load_puzzle
from smtpuzzle.puzzles.tiling.text import board_picture, pieces_picture
from smtpuzzle.runtime.checks import plural

if TYPE_CHECKING:
    from smtpuzzle.puzzles.frames.puzzle import Frames
    from smtpuzzle.puzzles.tiling.puzzle import Tiling


@friendly
def list_cmd(
    genres: Annotated[bool, typer.Option(
        "--genres", help="Only the pencil-puzzle genres: file suffix, rules, puzz.link "
                         "names.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List the puzzles in the model library, then the pencil-puzzle genres."""
    if genres:
        rows = genre_rows()
        if as_json:
            print_json(rows)
        else:
            out.print(_genre_table(rows))
        return
    entries = list_models()
    if as_json:
        print_json([e.as_json() for e in entries])
        return
    table = Table(box=None, show_header=True, header_style="bold")
    table.add_column("model")
    table.add_column("title")
    for e in entries:
        table.add_row(e.name, e.title)
    out.print(table)
    out.print()
    out.print(_genre_table(genre_rows()))


def genre_rows() -> list[dict[str, object]]:
    """Each pencil-puzzle genre: its file suffix, title, rules and puzz.link names."""
    from smtpuzzle.puzzles.pencil.genres import NAMES, PIDS, genre_named

    return [{"genre": name, "title": genre_named(name).title,
             "rules": genre_named(name).rules_text, "links": list(PIDS[name])}
            for name in NAMES]


def _genre_table(rows: list[dict[str, object]]) -> Table:
    table = Table(box=None, show_header=True, header_style="bold",
                  title="pencil-puzzle genres (a file's suffix, or a puzz.link link)",
                  title_justify="left")
    for column in ("genre", "title", "rules", "links"):
        table.add_column(column)
    for row in rows:
        table.add_row(str(row["genre"]), str(row["title"]), str(row["rules"]),
                      ", ".join(row["links"]) or "-")  # type: ignore[arg-type]
    return table


@friendly
def show(model: ModelArg) -> None:
    """Draw a puzzle's board and pieces."""
    puzzle = load_puzzle(model, precheck=False)
    if puzzle.family not in ("tiling", "frames"):
        raise PuzzleError(f"{model} is a {puzzle.family} puzzle: `smtpuzzle solve {model}` "
                          "shows it solved (show draws tilings and frames)")
    if puzzle.family == "frames":
        _show_frames(puzzle)
    else:
        _show_tiling(puzzle)


def _show_frames(puzzle: Frames) -> None:
    hole = " (one hole, placed by the solver)" if puzzle.hole_search else ""
    out.print(f"[bold]{escape(puzzle.name)}[/bold]: {escape(puzzle.title)}", markup=True)
    out.print(f"{plural(puzzle.n, 'frame')} of {puzzle.frame.size_text}{hole}, "
              f"{puzzle.frame_area} cells each; {len(puzzle.pieces)} pieces; a frame holds, "
              f"of pieces of size {', '.join(map(str, puzzle.size_classes()[0].tolist()))}:"
              f" {' or '.join(map(str, puzzle.compositions()))}")
    frame = puzzle.with_hole(puzzle.hole_places()[0]) if puzzle.hole_search else puzzle
    out.print(pieces_picture(frame.frame_tiling()), end="")


def _show_tiling(tiling: Tiling) -> None:
    board = tiling.board
    area = sum(p.count * p.shape.size for p in tiling.pieces)
    out.print(f"[bold]{escape(tiling.name)}[/bold]: {escape(tiling.title)}", markup=True)
    out.print(f"board {board.describe()}, {board.num_cells} {board.unit}, "
              f"{len(board.holes())} holes; {len(tiling.pieces)} pieces, {area} {board.unit} "
              f"at most; cover: {tiling.cover}; "
              f"{tiling.num_placements} placements")
    out.print(board_picture(tiling), end="")
    out.print()
    out.print(pieces_picture(tiling), end="")
