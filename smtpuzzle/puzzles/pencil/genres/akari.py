"""Akari (Light Up): put bulbs in white cells so that every white cell is lit (a bulb
lights its row and column up to the nearest black cell), no bulb lights another, and each
numbered black cell has that many bulbs beside it."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import Padded, around
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, UNKNOWN, Genre, PencilPuzzle, refuse, wrong


class Akari(Genre):
    name = "akari"
    title = "Akari"
    rules_text = "bulbs light every white cell, none lights another; numbers count bulbs"
    symbols = "- (white), x (black) or a number 0-4 (black)"
    puzzlekit = "akari"
    picture = {"o": "dot"}
    clue_picture = {"*": "black"}

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, "x") or token.isdigit()

    def check(self, puzzle: PencilPuzzle) -> None:
        for r, c, token in puzzle.clues():
            if token.isdigit() and int(token) > 4:
                refuse(self, f"a black cell numbered {token} (at most 4 bulbs fit)", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        bulb = Padded(m, puzzle.rows, puzzle.cols, "bulb")
        white = puzzle.cells == EMPTY
        m.add(~bulb.grid[~white])
        runs = _runs(white)
        ids = bulb.grid.ids
        m.add_at_most_one([ids[tuple(np.array(run).T)] for run in runs])  # none lit twice
        lit_by: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for run in runs:
            for cell in run:
                lit_by.setdefault(cell, []).extend(run)
        m.add_clauses([ids[tuple(np.array(cells).T)] for cells in lit_by.values()])
        numbered = [(r, c, int(t)) for r, c, t in puzzle.clues() if t.isdigit()]
        if numbered:
            rs, cs, ns = (np.array(v) for v in zip(*numbered, strict=True))
            puzzle.post_clues(m, named, list(zip(rs, cs, strict=True)),
                              bulb.around()[rs, cs], ns)
        return bulb.grid

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        out = np.where(puzzle.cells == EMPTY, EMPTY, "x").astype(object)
        out[values == True] = "o"  # noqa: E712  elementwise on an object array
        out[(values == None) & (puzzle.cells == EMPTY)] = UNKNOWN  # noqa: E711
        return out

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        white = puzzle.cells == EMPTY
        bulb = grid == "o"
        if (bulb & ~white).any():
            wrong(puzzle, "a bulb on a black cell")
        odd = white & ~np.isin(grid, ["o", EMPTY])
        if odd.any():
            wrong(puzzle, "a white cell neither a bulb nor empty", *np.argwhere(odd)[0])
        lit = np.zeros_like(white)
        for run in _runs(white):
            on = [cell for cell in run if bulb[cell]]
            if len(on) > 1:
                wrong(puzzle, "two bulbs light each other", *on[1])
            if on:
                for cell in run:
                    lit[cell] = True
        if (white & ~lit).any():
            wrong(puzzle, "a dark cell", *np.argwhere(white & ~lit)[0])
        for r, c, token in puzzle.clues():
            if token.isdigit() and sum(bulb[nb] for nb in around(r, c, grid.shape)) \
                    != int(token):
                wrong(puzzle, f"not {token} bulbs around the number", r, c)


def _runs(white: np.ndarray) -> list[list[tuple[int, int]]]:
    """The maximal runs of white cells along rows and along columns."""
    runs = []
    for transpose in (False, True):
        grid = white.T if transpose else white
        for i, line in enumerate(grid):
            run: list[tuple[int, int]] = []
            for j, w in enumerate(list(line) + [False]):
                if w:
                    run.append((j, i) if transpose else (i, j))
                elif run:
                    runs.append(run)
                    run = []
    return runs


GENRE = Akari()
