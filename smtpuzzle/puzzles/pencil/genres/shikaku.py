"""Shikaku: divide the grid into rectangles, each holding exactly one number, its area.
The collection writes a solution as each cell's rectangle, numbered 1, 2... in the reading
order of their top-left cells.

Model: for each number, every rectangle of its area around it that holds no other number
(one literal each); one chosen per number, every cell covered exactly once."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.puzzle import UNKNOWN, Genre, PencilPuzzle, refuse, wrong


class Shikaku(Genre):
    name = "shikaku"
    title = "Shikaku"
    rules_text = "rectangles, each holding one number, its area"
    symbols = "a number (its rectangle's area) or -"
    puzzlekit = "shikaku"
    picture = {}
    groups = True

    def check(self, puzzle: PencilPuzzle) -> None:
        for r, c, token in puzzle.clues():
            if int(token) < 1:
                refuse(self, "a rectangle's area is 1 or more", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        boxes, owner = rectangles(puzzle)
        chosen = m.bool_array(len(boxes), name="rectangle")
        for k, (r, c, _) in enumerate(puzzle.clues()):
            with puzzle.given(m, named, r, c):
                m.add(chosen[owner == k].sum() == 1)
        cover: list[list[int]] = [[] for _ in range(puzzle.cells.size)]
        for i, (r0, c0, r1, c1) in enumerate(boxes):
            for r in range(r0, r1):
                for c in range(c0, c1):
                    cover[r * puzzle.cols + c].append(i)
        ids = chosen.ids
        m.add_exactly_one([ids[np.array(at, dtype=np.int64)] for at in cover])
        return chosen

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        boxes, _ = rectangles(puzzle)
        out = np.full(puzzle.cells.shape, UNKNOWN, dtype=object)
        on = [b for b, v in zip(boxes, values.tolist(), strict=True) if v is True]
        for number, (r0, c0, r1, c1) in enumerate(sorted(on), 1):
            out[r0:r1, c0:c1] = str(number)
        return out

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        if (grid == UNKNOWN).any():
            wrong(puzzle, "a cell in no rectangle", *np.argwhere(grid == UNKNOWN)[0])
        for name in set(grid.ravel().tolist()):
            cells = np.argwhere(grid == name)
            (r0, c0), (r1, c1) = cells.min(axis=0), cells.max(axis=0) + 1
            if (r1 - r0) * (c1 - c0) != len(cells):
                wrong(puzzle, "a piece that is no rectangle", *cells[0])
            numbers = [(r, c) for r, c in cells.tolist() if puzzle.number(r, c) is not None]
            if len(numbers) != 1 or puzzle.number(*numbers[0]) != len(cells):
                wrong(puzzle, f"a rectangle of {len(cells)} cells holding "
                              f"{[puzzle.number(*n) for n in numbers]}", *cells[0])

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        width = max(len(str(t)) for t in grid.ravel())
        return "\n".join(" ".join(str(t).rjust(width) for t in row) for row in grid)


def rectangles(puzzle: PencilPuzzle) -> tuple[list[tuple[int, int, int, int]], np.ndarray]:
    """Every rectangle (top, left, bottom, right; the last two past the end) that a number
    may take, and the number (its index among the clues) of each."""
    clues = puzzle.clues()
    numbered = np.zeros(puzzle.cells.shape, dtype=np.int64)
    for r, c, _ in clues:
        numbered[r, c] = 1
    sums = np.pad(numbered.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    boxes, owner = [], []
    for k, (r, c, token) in enumerate(clues):
        area = int(token)
        for h in range(1, area + 1):
            if area % h:
                continue
            w = area // h
            for r0 in range(max(r - h + 1, 0), min(r, puzzle.rows - h) + 1):
                for c0 in range(max(c - w + 1, 0), min(c, puzzle.cols - w) + 1):
                    inside = sums[r0 + h, c0 + w] - sums[r0, c0 + w] - sums[r0 + h, c0] \
                        + sums[r0, c0]
                    if inside == 1:
                        boxes.append((r0, c0, r0 + h, c0 + w))
                        owner.append(k)
    return boxes, np.array(owner, dtype=np.int64)


GENRE = Shikaku()
