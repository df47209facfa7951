"""Yajilin: shade some cells and draw one loop through the centres of all the others
(clue cells aside); no two shaded cells share a side, and each arrow's number counts the
shaded cells in its direction. The collection writes a clue ``2s``: 2, looking south."""

from __future__ import annotations

import re

import numpy as np

from smtpuzzle.model import BoolArray, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import (
    STEP_OF,
    CellLinks,
    LoopGenre,
    apart,
    directions,
    line_tokens,
    one_loop,
    side_by_side,
)
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, UNKNOWN, PencilPuzzle, wrong

ARROW = re.compile(r"([0-9]+)([nsew])")
BLOCKED = "@"  # a cell outside the puzzle: neither shaded nor on the loop


class Yajilin(LoopGenre):
    name = "yajilin"
    title = "Yajilin"
    rules_text = "a loop through every cell not shaded; shaded apart; arrows count them"
    symbols = "an arrow clue such as 2s (2, looking n/s/e/w), @ (blocked) or -"
    puzzlekit = "yajilin"
    clue_picture = {BLOCKED: "black"}

    def clue_text(self, token: str) -> str:
        return "" if token == BLOCKED else token[:-1] + {"n": "↑", "s": "↓", "e": "→",
                                                         "w": "←"}[token[-1]]

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, BLOCKED) or ARROW.fullmatch(token) is not None

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        line = CellLinks(m, rows, cols)
        m.add(SingleCycle(line.link, line.graph))
        free = puzzle.cells == EMPTY
        shaded = m.bool_array((rows, cols), name="shaded", user=False)
        degree = line.degree()
        m.add(degree[free] == 2 - 2 * shaded[free], degree[~free] == 0, ~shaded[~free])
        apart(m, shaded)
        for r, c, token in puzzle.clues():
            if token == BLOCKED:
                continue
            with puzzle.given(m, named, r, c):
                m.add(shaded[_ray(r, c, token, shaded.shape)].sum() == int(token[:-1]))
        return line.link

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        out = line_tokens(directions(values, puzzle.rows, puzzle.cols), off="x")
        out[(puzzle.cells != EMPTY) & (out != UNKNOWN)] = EMPTY
        return out

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        free = puzzle.cells == EMPTY
        shaded = grid == "x"
        if (shaded & ~free).any():
            wrong(puzzle, "a shaded clue cell")
        on = one_loop(puzzle, grid)
        if ((on | shaded) != free).any() or (on & shaded).any():
            wrong(puzzle, "a cell neither shaded nor on the loop",
                  *np.argwhere((on | shaded) != free)[0])
        if side_by_side(shaded):
            wrong(puzzle, "two shaded cells side by side")
        for r, c, token in puzzle.clues():
            if token != BLOCKED and shaded[_ray(r, c, token, grid.shape)].sum() \
                    != int(token[:-1]):
                wrong(puzzle, f"the arrow {token} does not count its shaded cells", r, c)

    shown = {"x": "#"}


def _ray(r: int, c: int, token: str, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The cells an arrow clue at (r, c) looks at, to the border."""
    dr, dc = STEP_OF[token[-1]]
    cells = []
    r, c = r + dr, c + dc
    while 0 <= r < shape[0] and 0 <= c < shape[1]:
        cells.append((r, c))
        r, c = r + dr, c + dc
    return tuple(np.array(cells, dtype=np.int64).reshape(-1, 2).T)


GENRE = Yajilin()
