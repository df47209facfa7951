"""Yin-Yang: colour every cell black or white so that the black cells form one connected
group, the white cells another, and no 2x2 block is all one colour.

Two rules follow from those on a plane grid and are said too (they spare the search the
many colourings that fall apart): no 2x2 block is a checkerboard (two black cells corner to
corner, joined, would cut the two white ones apart), and going round the border the colour
changes at most twice (black, white, black, white along it would cut one colour in two)."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Connected, Model, grid_graph
from smtpuzzle.puzzles.pencil.grids import (
    ColourGenre,
    any_square,
    components,
    no_checkerboard,
    no_square,
)
from smtpuzzle.puzzles.pencil.puzzle import PencilPuzzle, wrong


class YinYang(ColourGenre):
    name = "yinyang"
    title = "Yin-Yang"
    rules_text = "black cells connected, white cells connected, no 2x2 of one colour"
    puzzlekit = "yin_yang"

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        black = self.coloured(puzzle, m, named)
        graph = grid_graph(rows, cols)
        m.add(Connected(black.ravel(), graph), Connected(~black.ravel(), graph))
        no_square(m, black)
        no_square(m, ~black)
        no_checkerboard(m, black)  # (implied)
        if rows > 1 and cols > 1:  # (implied) round the border, two changes at most
            ring = _ring(rows, cols)
            here, after = black.ravel()[ring], black.ravel()[np.roll(ring, -1)]
            change = m.bool_array(len(ring), name="change", user=False)
            m.add(change >= here - after, change >= after - here, change.sum() <= 2)
        return black

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        self.check_colours(puzzle, grid)
        for colour in ("b", "w"):
            mask = grid == colour
            if (square := any_square(mask)) is not None:
                wrong(puzzle, "a 2x2 block of one colour", *square)
            if len(components(mask)) > 1:
                wrong(puzzle, f"the {'black' if colour == 'b' else 'white'} cells fall apart")


def _ring(rows: int, cols: int) -> np.ndarray:
    """The border cells (flat), once round clockwise from the top-left corner."""
    top = [c for c in range(cols)]
    right = [r * cols + cols - 1 for r in range(1, rows)]
    bottom = [(rows - 1) * cols + c for c in range(cols - 2, -1, -1)]
    left = [r * cols for r in range(rows - 2, 0, -1)]
    return np.array(top + right + bottom + left, dtype=np.int64)


GENRE = YinYang()
