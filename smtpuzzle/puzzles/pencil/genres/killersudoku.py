"""Killer Sudoku: a Sudoku (digits 1..n once in every row, column and box) without givens,
its cells in cages: the digits of a cage add up to its sum and differ. The collection
writes the sums (each at one cell of its cage), then the cage of every cell. Boxes are
2x2 (4x4 grids), 2 rows by 3 columns (6x6), 3x3 (9x9)."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import AllDifferent, IntArray, Model
from smtpuzzle.puzzles.pencil.grids import number_tokens
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, grid_text, refuse, wrong

BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4)}


class KillerSudoku(Genre):
    name = "killersudoku"
    title = "Killer Sudoku"
    rules_text = "a Sudoku whose cages add up to their sums, no digit twice in a cage"
    layout = ("cells", "regions")
    symbols = "a cage's sum or -"
    puzzlekit = "killer_sudoku"
    picture = {}
    written = True

    def check(self, puzzle: PencilPuzzle) -> None:
        if puzzle.rows != puzzle.cols or puzzle.rows not in BOXES:
            refuse(self, f"a grid of {puzzle.rows}x{puzzle.cols} (sides "
                         f"{', '.join(map(str, BOXES))})")
        for cage in range(int(puzzle.regions.max()) + 1):
            sums = [(r, c) for r, c, _ in puzzle.clues() if puzzle.regions[r, c] == cage]
            if len(sums) > 1:
                refuse(self, "a cage with two sums", *sums[1])

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> IntArray:
        n = puzzle.rows
        br, bc = BOXES[n]
        x = m.int_array((n, n), 1, n, name="digit")
        boxes = x.reshape(n // br, br, n // bc, bc).transpose(0, 2, 1, 3).reshape(n, n)
        m.add(AllDifferent(x, axis=1), AllDifferent(x, axis=0), AllDifferent(boxes, axis=1))
        for cage in range(int(puzzle.regions.max()) + 1):
            cells = x[puzzle.regions == cage]
            if cells.size > 1:
                m.add(AllDifferent(cells))
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(x[puzzle.regions == puzzle.regions[r, c]].sum() == int(token))
        return x

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return number_tokens(values)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        n = puzzle.rows
        br, bc = BOXES[n]
        x = np.array([[int(t) for t in row] for row in grid])
        boxes = x.reshape(n // br, br, n // bc, bc).transpose(0, 2, 1, 3).reshape(n, n)
        for what, lines in (("row", x), ("column", x.T), ("box", boxes)):
            for i, line in enumerate(lines):
                if sorted(line.tolist()) != list(range(1, n + 1)):
                    wrong(puzzle, f"{what} {i + 1} is not 1..{n}")
        for cage in range(int(puzzle.regions.max()) + 1):
            digits = x[puzzle.regions == cage].tolist()
            if len(set(digits)) != len(digits):
                wrong(puzzle, "a digit twice in a cage", *np.argwhere(puzzle.regions == cage)[0])
        for r, c, token in puzzle.clues():
            if x[puzzle.regions == puzzle.regions[r, c]].sum() != int(token):
                wrong(puzzle, f"a cage that does not add up to {token}", r, c)

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        return grid_text(grid)


GENRE = KillerSudoku()
