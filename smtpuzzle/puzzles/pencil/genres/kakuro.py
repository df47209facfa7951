"""Kakuro: write a digit 1-9 in every white cell so that each run of white cells across or
down adds up to the clue before it, with no digit twice in a run. The collection writes a
white cell ``0`` and a clue cell ``D,R``: the sum of the run below it, then of the run to
its right (either may be left out: ``16,`` or ``,23``)."""

from __future__ import annotations

import itertools
import re
from functools import cache

import numpy as np

from smtpuzzle.model import AllDifferent, IntArray, Model
from smtpuzzle.puzzles.pencil.grids import number_tokens
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, Genre, PencilPuzzle, refuse, wrong

CLUE = re.compile(r"([0-9]*),([0-9]*)")
WHITE = "0"


class Kakuro(Genre):
    name = "kakuro"
    title = "Kakuro"
    rules_text = "digits 1-9; each run adds up to its clue, no digit twice in a run"
    symbols = "0 (a white cell), a clue D,R (down sum, right sum; either may be empty) or -"
    puzzlekit = "kakuro"
    picture = {EMPTY: "grey"}
    written = True

    def clue_text(self, token: str) -> str:
        return "" if token == WHITE else token.replace(",", "\\")

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, WHITE) or CLUE.fullmatch(token) is not None

    def check(self, puzzle: PencilPuzzle) -> None:
        for run, total, (r, c) in runs(puzzle):
            if not len(run):
                refuse(self, "a clue with no white cells after it", r, c)
            low, high = sum(range(1, len(run) + 1)), sum(range(10 - len(run), 10))
            if len(run) > 9 or not low <= total <= high:
                refuse(self, f"a run of {len(run)} cells cannot add up to {total}", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> IntArray:
        white = puzzle.cells == WHITE
        number = np.full(puzzle.cells.shape, -1)
        number[white] = np.arange(int(white.sum()))
        digit = m.int_array(int(white.sum()), 1, 9, name="digit")
        allowed = np.ones((len(digit), 10), dtype=bool)
        for run, total, (r, c) in runs(puzzle):
            index = number[tuple(np.array(run).T)]
            cells = digit[index]
            with puzzle.group(m, named, f"r{r + 1}c{c + 1}: {total}"):
                m.add(AllDifferent(cells), cells.sum() == total)
            allowed[index] &= run_digits(len(run), total)
        # Implied (the solver's search shrinks fivefold on a 29x39): a cell holds a digit of
        # some set of different digits that adds up to each of its runs' clues.
        allowed[:, 0] = False
        lo, hi = allowed.argmax(axis=1), 9 - allowed[:, ::-1].argmax(axis=1)
        m.add(digit >= lo, digit <= hi)
        cell, value = np.nonzero(~allowed & (np.arange(10) > lo[:, None])
                                 & (np.arange(10) < hi[:, None]))
        if len(cell):
            m.add(digit[cell] != value)
        return digit

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        out = np.full(puzzle.cells.shape, EMPTY, dtype=object)
        out[puzzle.cells == WHITE] = number_tokens(values[None])[0]
        return out

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        white = puzzle.cells == WHITE
        if not all(str(t) in "123456789" and len(str(t)) == 1 for t in grid[white]):
            wrong(puzzle, "a white cell without one digit 1-9")
        if (grid[~white] != EMPTY).any():
            wrong(puzzle, "a digit in a clue or black cell", *np.argwhere(
                (grid != EMPTY) & ~white)[0])
        for run, total, (r, c) in runs(puzzle):
            digits = [int(grid[cell]) for cell in run]
            if sum(digits) != total or len(set(digits)) != len(digits):
                wrong(puzzle, f"a run that does not add up to {total} in different digits",
                      r, c)

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        width = max(len(str(t)) for t in puzzle.cells.ravel())
        return "\n".join(" ".join((str(grid[r, c]) if puzzle.cells[r, c] == WHITE
                                   else str(puzzle.cells[r, c])).rjust(width)
                                  for c in range(puzzle.cols)) for r in range(puzzle.rows))


@cache
def run_digits(length: int, total: int) -> np.ndarray:
    """Which digits (index 0-9) some ``length`` different digits 1-9 adding up to ``total``
    use."""
    out = np.zeros(10, dtype=bool)
    for combo in itertools.combinations(range(1, 10), length):
        if sum(combo) == total:
            out[list(combo)] = True
    out.setflags(write=False)  # cached: shared by every call
    return out


def runs(puzzle: PencilPuzzle) -> list[tuple[list[tuple[int, int]], int, tuple[int, int]]]:
    """(the run's cells, its sum, the clue's cell) for each clue and direction."""
    out = []
    for r, c, token in puzzle.clues():
        match = CLUE.fullmatch(token)
        if match is None:
            continue
        for total, (dr, dc) in ((match.group(1), (1, 0)), (match.group(2), (0, 1))):
            if not total:
                continue
            run, rr, cc = [], r + dr, c + dc
            while rr < puzzle.rows and cc < puzzle.cols and puzzle.cells[rr, cc] == WHITE:
                run.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            out.append((run, int(total), (r, c)))
    return out


GENRE = Kakuro()
