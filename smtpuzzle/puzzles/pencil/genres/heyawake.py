"""Heyawake: shade cells so that no two shaded cells share a side, the unshaded cells stay
connected, a room's number counts its shaded cells, and no straight run of unshaded cells
crosses two room borders (spans three rooms)."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import (
    apart_and_connected,
    components,
    shaded_tokens,
    side_by_side,
)
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, wrong


class Heyawake(Genre):
    name = "heyawake"
    title = "Heyawake"
    rules_text = "shaded cells apart, the rest connected; rooms' numbers; no run past 2 rooms"
    layout = ("cells", "regions")
    symbols = "a number (its room's shaded cells) or -"
    puzzlekit = "heyawake"

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        rooms = puzzle.regions
        shaded = m.bool_array((rows, cols), name="shaded")
        apart_and_connected(m, shaded)
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(shaded[rooms == rooms[r, c]].sum() == int(token))
        for run in _spans(rooms):
            m.add(shaded[tuple(np.array(run).T)].sum() >= 1)
        return shaded

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        shaded = grid == "x"
        rooms = puzzle.regions
        if side_by_side(shaded):
            wrong(puzzle, "two shaded cells side by side")
        if len(components(~shaded)) > 1:
            wrong(puzzle, "the unshaded cells fall apart")
        for r, c, token in puzzle.clues():
            if shaded[rooms == rooms[r, c]].sum() != int(token):
                wrong(puzzle, f"the room does not hold {token} shaded cells", r, c)
        for line in list(np.where(shaded, -1, rooms)) + list(np.where(shaded, -1, rooms).T):
            run: list[int] = []
            for room in list(line) + [-1]:
                if room < 0:
                    run = []
                    continue
                if not run or run[-1] != room:
                    run.append(int(room))
                if len(run) > 2:
                    wrong(puzzle, "a run of unshaded cells spans three rooms")


def _spans(rooms: np.ndarray) -> list[list[tuple[int, int]]]:
    """Each shortest straight run of cells that spans three rooms: from the last cell
    before one border to the first cell after the next border."""
    spans = []
    for transpose in (False, True):
        grid = rooms.T if transpose else rooms
        for i, line in enumerate(grid):
            borders = [j for j in range(len(line) - 1) if line[j] != line[j + 1]]
            for a, b in zip(borders, borders[1:], strict=False):
                spans.append([(j, i) if transpose else (i, j) for j in range(a, b + 2)])
    return spans


GENRE = Heyawake()
