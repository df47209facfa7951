"""Hidato (Hidoku): write the numbers 1..N, each once, in the grid's N cells so that each
number and the next touch (by a side or a corner); the givens stay."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import AllDifferent, IntArray, Model, Table
from smtpuzzle.puzzles.pencil.puzzle import UNKNOWN, Genre, PencilPuzzle, refuse, wrong


class Hidoku(Genre):
    name = "hidoku"
    title = "Hidato"
    rules_text = "1..N once each, each number touching the next (corners count)"
    symbols = "a number or -"
    puzzlekit = "hidoku"
    picture = {}
    written = True

    def check(self, puzzle: PencilPuzzle) -> None:
        n = puzzle.cells.size
        seen: dict[int, tuple[int, int]] = {}
        for r, c, token in puzzle.clues():
            if not 1 <= int(token) <= n:
                refuse(self, f"a number {token} past 1..{n}", r, c)
            if int(token) in seen:
                refuse(self, f"{token} given twice", r, c)
            seen[int(token)] = (r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> IntArray:
        rows, cols = puzzle.rows, puzzle.cols
        n = rows * cols
        at = m.int_array(n, 0, n - 1, name="cell_of")  # the cell holding number k + 1
        m.add(AllDifferent(at))
        touching = _touching(rows, cols)
        if n > 1:
            m.add(Table(_pairs(at), touching))
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(at[int(token) - 1] == r * cols + c)
        return at

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        out = np.full(puzzle.cells.size, UNKNOWN, dtype=object)
        for k, cell in enumerate(values.tolist()):
            if cell is not None:
                out[cell] = str(k + 1)
        return out.reshape(puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        n = grid.size
        try:
            where = {int(t): divmod(i, grid.shape[1]) for i, t in enumerate(grid.ravel())}
        except ValueError:
            wrong(puzzle, "a cell without a number")
        if sorted(where) != list(range(1, n + 1)):
            wrong(puzzle, f"not the numbers 1..{n} once each")
        for k in range(1, n):
            (r1, c1), (r2, c2) = where[k], where[k + 1]
            if max(abs(r1 - r2), abs(c1 - c2)) != 1:
                wrong(puzzle, f"{k} and {k + 1} do not touch", r1, c1)
        for r, c, token in puzzle.clues():
            if grid[r, c] != token:
                wrong(puzzle, "a given number changed", r, c)


def _pairs(at: IntArray) -> IntArray:
    """Each number's cell beside the next one's: an (N - 1) x 2 array of integers."""
    n = at.shape[0]
    return at[np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)]


def _touching(rows: int, cols: int) -> np.ndarray:
    """Every ordered pair of cells that touch by a side or a corner."""
    rr, cc = np.divmod(np.arange(rows * cols), cols)
    a, b = np.meshgrid(np.arange(rows * cols), np.arange(rows * cols), indexing="ij")
    near = (np.abs(rr[a] - rr[b]) <= 1) & (np.abs(cc[a] - cc[b]) <= 1) & (a != b)
    return np.stack([a[near], b[near]], axis=1)


GENRE = Hidoku()
