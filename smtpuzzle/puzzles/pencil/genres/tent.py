"""Tents: put a tent beside (by a side) each tree, one tree to a tent and one tent to a
tree, no two tents touching (not even at a corner), and as many tents in each row and
column as the numbers along the top and left say. The collection writes the column counts,
then the row counts, then the grid: ``x`` a tree; a solution's ``o`` a tent."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import (
    around,
    by_key,
    check_line_counts,
    line_counts,
    shaded_tokens,
)
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, UNKNOWN, Genre, PencilPuzzle, wrong

TREE, TENT = "x", "o"


class Tent(Genre):
    name = "tent"
    title = "Tents"
    rules_text = "a tent beside each tree, one to one; tents never touch; line counts"
    layout = ("top", "left", "cells")
    symbols = "x (a tree) or -"
    puzzlekit = "tent"
    picture = {"o": "dot"}
    clue_picture = {"x": "tree"}

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, TREE)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        shape = puzzle.cells.shape
        tent = m.bool_array(shape, name="tent")
        trees = [(r, c) for r, c, _ in puzzle.clues()]
        pairs = [(t, cell) for t, (r, c) in enumerate(trees)
                 for cell in around(r, c, shape) if puzzle.cells[cell] != TREE]
        # pitch[k]: pair k's tree has its tent on pair k's cell; one more, always false
        pitch = m.bool_array(len(pairs) + 1, name="pitch", user=False)
        m.add(~pitch[len(pairs)])
        tree_of = np.array([t for t, _ in pairs], dtype=np.int64)
        cell_of = np.array([r * shape[1] + c for _, (r, c) in pairs], dtype=np.int64)
        m.add(pitch[by_key(tree_of, len(trees))].sum(axis=1) == 1)  # a tent a tree
        m.add(tent.ravel() == pitch[by_key(cell_of, tent.size)].sum(axis=1))  # a tree a tent
        m.add(tent[:-1, :-1] + tent[1:, :-1] + tent[:-1, 1:] + tent[1:, 1:] <= 1)
        line_counts(puzzle, m, named, tent)
        return tent

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        out = shaded_tokens(values, puzzle.cells.shape, TENT, EMPTY)
        out[(puzzle.cells == TREE) & (out != UNKNOWN)] = TREE
        return out

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        tent = grid == TENT
        if (tent & (puzzle.cells == TREE)).any():
            wrong(puzzle, "a tent on a tree")
        odd = (puzzle.cells != TREE) & ~np.isin(grid, [TENT, EMPTY])
        if odd.any():
            wrong(puzzle, f"{grid[tuple(np.argwhere(odd)[0])]!r} where a tent or nothing "
                          "stands", *np.argwhere(odd)[0])
        check_line_counts(puzzle, tent, "tents")
        for r, c in zip(*np.nonzero(tent), strict=True):
            if tent[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].sum() > 1:
                wrong(puzzle, "two tents touch", r, c)
        trees = [(int(r), int(c)) for r, c in zip(*np.nonzero(puzzle.cells == TREE),
                                                  strict=True)]
        if len(trees) != int(tent.sum()) or not _matched(trees, tent):
            wrong(puzzle, "trees and tents do not pair off one to one, side by side")

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        return "\n".join(" ".join({TREE: "T", TENT: "^", EMPTY: "."}.get(str(t), str(t))
                                  for t in row) for row in grid)


def _matched(trees: list[tuple[int, int]], tent: np.ndarray) -> bool:
    """Whether every tree gets a tent of its own beside it (augmenting paths)."""
    partner: dict[tuple[int, int], tuple[int, int]] = {}

    def place(tree: tuple[int, int], seen: set[tuple[int, int]]) -> bool:
        for cell in around(*tree, tent.shape):
            if tent[cell] and cell not in seen:
                seen.add(cell)
                if cell not in partner or place(partner[cell], seen):
                    partner[cell] = tree
                    return True
        return False

    return all(place(tree, set()) for tree in trees)


GENRE = Tent()
