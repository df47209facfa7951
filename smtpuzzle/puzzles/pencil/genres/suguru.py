"""Suguru: fill each region of n cells with the numbers 1..n so that equal numbers never
touch, not even at a corner; the givens stay."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import AllDifferent, IntArray, Model
from smtpuzzle.puzzles.pencil.grids import number_tokens
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, grid_text, refuse, wrong


class Suguru(Genre):
    name = "suguru"
    title = "Suguru"
    rules_text = "a region of n cells holds 1..n; equal numbers never touch"
    layout = ("cells", "regions")
    symbols = "a number or -"
    puzzlekit = "suguru"
    picture = {}
    written = True

    def check(self, puzzle: PencilPuzzle) -> None:
        size = np.bincount(puzzle.regions.ravel())
        for r, c, token in puzzle.clues():
            if not 1 <= int(token) <= size[puzzle.regions[r, c]]:
                refuse(self, f"a number {token} in a region of {size[puzzle.regions[r, c]]} "
                             "cells", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> IntArray:
        rows, cols = puzzle.rows, puzzle.cols
        size = np.bincount(puzzle.regions.ravel())
        x = m.int_array((rows, cols), 1, int(size.max()), name="number")
        m.add(x <= size[puzzle.regions])
        for region in range(len(size)):
            if size[region] > 1:
                m.add(AllDifferent(x[puzzle.regions == region]))
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):  # every touching pair once
            a = x[max(-dr, 0):rows - max(dr, 0), max(-dc, 0):cols - max(dc, 0)]
            b = x[max(dr, 0):rows - max(-dr, 0) or None,
                  max(dc, 0):cols - max(-dc, 0) or None]
            m.add(a != b)
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(x[r, c] == int(token))
        return x

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return number_tokens(values)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        x = np.array([[int(t) for t in row] for row in grid])
        for region in range(int(puzzle.regions.max()) + 1):
            got = sorted(x[puzzle.regions == region].tolist())
            if got != list(range(1, len(got) + 1)):
                wrong(puzzle, "a region without 1..n", *np.argwhere(puzzle.regions == region)[0])
        rows, cols = x.shape
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if 0 <= r + dr < rows and 0 <= c + dc < cols and x[r, c] == x[r + dr,
                                                                                   c + dc]:
                        wrong(puzzle, f"two {x[r, c]}s touch", r, c)
        for r, c, token in puzzle.clues():
            if grid[r, c] != token:
                wrong(puzzle, "a given number changed", r, c)

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        return grid_text(grid)


GENRE = Suguru()
