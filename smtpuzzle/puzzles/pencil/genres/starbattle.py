"""Star Battle: place stars so that every row, column and region holds the same number of
them (the puzzle's), and no two stars touch, not even at a corner."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import shaded_tokens
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, refuse, wrong


class StarBattle(Genre):
    name = "starbattle"
    title = "Star Battle"
    rules_text = "STARS stars in every row, column and region; stars never touch"
    layout = ("regions",)
    params = ("stars",)
    outside = "@#"
    puzzlekit = "starbattle"
    picture = {"x": "disc"}

    def check(self, puzzle: PencilPuzzle) -> None:
        if not puzzle.params or puzzle.params[0] < 1:
            refuse(self, "the number of stars is 1 or more")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        k = puzzle.params[0]
        star = m.bool_array(puzzle.cells.shape, name="star")
        m.add(~star[puzzle.regions < 0])
        m.add(star.sum(axis=1) == k, star.sum(axis=0) == k)
        for region in range(int(puzzle.regions.max()) + 1):
            m.add(star[puzzle.regions == region].sum() == k)
        m.add(star[:-1, :-1] + star[1:, :-1] + star[:-1, 1:] + star[1:, 1:] <= 1)
        return star

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        k = puzzle.params[0]
        star = grid == "x"
        if (star & (puzzle.regions < 0)).any():
            wrong(puzzle, "a star outside every region")
        for what, counts in (("row", star.sum(axis=1)), ("column", star.sum(axis=0)),
                             ("region", np.bincount(puzzle.regions[star], minlength=int(
                                 puzzle.regions.max()) + 1))):
            if (counts != k).any():
                wrong(puzzle, f"{what} {int(np.argmax(counts != k)) + 1} holds "
                              f"{int(counts[counts != k][0])} stars, not {k}")
        for r, c in zip(*np.nonzero(star), strict=True):
            block = star[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2]
            if block.sum() > 1:
                wrong(puzzle, "two stars touch", r, c)

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        from smtpuzzle.puzzles.pencil.drawing import overlay

        return overlay(puzzle, grid, {"x": "*", "-": "."})


GENRE = StarBattle()
