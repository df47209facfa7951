"""Yin-Yang: colour every cell black or white so that the black cells form one connected
group, the white cells another, and no 2x2 block is all one colour."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Connected, Model, grid_graph
from smtpuzzle.puzzles.pencil.drawing import colours_text
from smtpuzzle.puzzles.pencil.grids import any_square, components, no_square, shaded_tokens
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, Genre, PencilPuzzle, wrong


class YinYang(Genre):
    name = "yinyang"
    title = "Yin-Yang"
    rules_text = "black cells connected, white cells connected, no 2x2 of one colour"
    symbols = "b (black), w (white) or -"
    puzzlekit = "yin_yang"
    picture = clue_picture = {"b": "disc", "w": "circle"}

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, "b", "w")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        black = m.bool_array((rows, cols), name="black")
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(black[r, c] if token == "b" else ~black[r, c])
        graph = grid_graph(rows, cols)
        m.add(Connected(black.ravel(), graph), Connected(~black.ravel(), graph))
        no_square(m, black)
        no_square(m, ~black)
        return black

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape, "b", "w")

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        if not np.isin(grid, ["b", "w"]).all():
            wrong(puzzle, "a cell neither black nor white")
        for r, c, token in puzzle.clues():
            if grid[r, c] != token:
                wrong(puzzle, "a given colour changed", r, c)
        for colour in ("b", "w"):
            mask = grid == colour
            if (square := any_square(mask)) is not None:
                wrong(puzzle, "a 2x2 block of one colour", *square)
            if len(components(mask)) > 1:
                wrong(puzzle, f"the {'black' if colour == 'b' else 'white'} cells fall apart")

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        return colours_text(grid)


GENRE = YinYang()
