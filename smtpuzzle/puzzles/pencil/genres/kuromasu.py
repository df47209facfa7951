"""Kurodoko (Kuromasu): shade cells so that no two shaded cells share a side, the unshaded
cells stay connected, and each number (never shaded) counts the unshaded cells it sees
along its row and column, itself included, up to the first shaded cell or the border."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Connected, Model, grid_graph
from smtpuzzle.puzzles.pencil.grids import (
    STEPS,
    apart,
    components,
    inside,
    shaded_tokens,
    side_by_side,
    total,
)
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, refuse, wrong


class Kuromasu(Genre):
    name = "kuromasu"
    title = "Kurodoko"
    rules_text = "shaded cells apart, the rest connected; a number counts the cells it sees"
    symbols = "a number or -"
    puzzlekit = "kuromasu"

    def check(self, puzzle: PencilPuzzle) -> None:
        for r, c, token in puzzle.clues():
            if not 1 <= int(token) <= puzzle.rows + puzzle.cols - 1:
                refuse(self, f"a number {token} (it sees 1 to {puzzle.rows + puzzle.cols - 1}"
                       " cells)", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        shaded = m.bool_array((rows, cols), name="shaded")
        apart(m, shaded)
        m.add(Connected(~shaded.ravel(), grid_graph(rows, cols)))
        for r, c, token in puzzle.clues():
            n = int(token)
            m.add(~shaded[r, c])
            seen = []
            for dr, dc in STEPS:  # the chain of cells seen: each seen if the one before is
                k, before = 1, None
                while k <= n and inside(r + k * dr, c + k * dc, (rows, cols)):
                    free = ~shaded[r + k * dr, c + k * dc]
                    before = free if before is None else before & free
                    seen.append(before)
                    k += 1
            with puzzle.given(m, named, r, c):
                if seen:
                    m.add(total(seen) == n - 1)
                elif n != 1:
                    m.add(shaded[r, c])  # a lone cell sees only itself: no solution
        return shaded

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        shaded = grid == "x"
        if side_by_side(shaded):
            wrong(puzzle, "two shaded cells side by side")
        if len(components(~shaded)) > 1:
            wrong(puzzle, "the unshaded cells fall apart")
        for r, c, token in puzzle.clues():
            if shaded[r, c]:
                wrong(puzzle, "a shaded number", r, c)
            if sees(shaded, r, c) != int(token):
                wrong(puzzle, f"the number sees {sees(shaded, r, c)} cells, not {token}", r, c)


def sees(shaded: np.ndarray, r: int, c: int) -> int:
    """The unshaded cells (r, c) sees along its row and column, itself included."""
    count = 1
    for dr, dc in STEPS:
        k = 1
        while inside(r + k * dr, c + k * dc, shaded.shape) and not shaded[r + k * dr,
                                                                          c + k * dc]:
            count += 1
            k += 1
    return count


GENRE = Kuromasu()
