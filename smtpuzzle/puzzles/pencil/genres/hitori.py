"""Hitori: shade cells so that no number is left twice in a row or column, no two shaded
cells share a side, and the unshaded cells stay connected."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import (
    apart_and_connected,
    components,
    shaded_tokens,
    side_by_side,
)
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, refuse, wrong


class Hitori(Genre):
    name = "hitori"
    title = "Hitori"
    rules_text = "no number twice unshaded in a line; shaded cells apart; the rest connected"
    symbols = "a number"
    puzzlekit = "hitori"

    def cell_ok(self, token: str) -> bool:
        return token.isdigit()

    def check(self, puzzle: PencilPuzzle) -> None:
        if not puzzle.cells.size:
            refuse(self, "an empty grid")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        shaded = m.bool_array((rows, cols), name="shaded")
        for line, cells in _repeats(puzzle.cells):
            with puzzle.group(m, named, f"{line}: {puzzle.cells[cells[0]]}"):
                m.add((~shaded[tuple(np.array(cells).T)]).sum() <= 1)
        apart_and_connected(m, shaded)
        return shaded

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        shaded = grid == "x"
        for _, cells in _repeats(puzzle.cells):
            kept = [cell for cell in cells if not shaded[cell]]
            if len(kept) > 1:
                wrong(puzzle, f"{puzzle.cells[kept[0]]} twice unshaded in a line", *kept[1])
        if side_by_side(shaded):
            wrong(puzzle, "two shaded cells side by side")
        if len(components(~shaded)) > 1:
            wrong(puzzle, "the unshaded cells fall apart")


def _repeats(cells: np.ndarray) -> list[tuple[str, list[tuple[int, int]]]]:
    """For each row and column, each number it holds more than once: the cells holding it."""
    found = []
    for axis, lines in ((0, cells), (1, cells.T)):
        for i, line in enumerate(lines):
            by: dict[str, list[tuple[int, int]]] = {}
            for j, token in enumerate(line):
                by.setdefault(str(token), []).append((i, j) if axis == 0 else (j, i))
            found += [(f"{'row' if axis == 0 else 'column'} {i + 1}", at)
                      for at in by.values() if len(at) > 1]
    return found


GENRE = Hitori()
