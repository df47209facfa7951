"""Tents: put a tent beside (by a side) each tree, one tree to a tent and one tent to a
tree, no two tents touching (not even at a corner), and as many tents in each row and
column as the numbers along the top and left say. The collection writes the column counts,
then the row counts, then the grid: ``x`` a tree; a solution's ``o`` a tent."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import around, shaded_tokens
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
        pitch = m.bool_array(len(pairs), name="pitch", user=False)  # tree t's tent there
        for t in range(len(trees)):
            m.add(pitch[np.array([k for k, (u, _) in enumerate(pairs) if u == t],
                                 dtype=np.int64)].sum() == 1)
        into: dict[tuple[int, int], list[int]] = {}
        for k, (_, cell) in enumerate(pairs):
            into.setdefault(cell, []).append(k)
        for (r, c), _ in np.ndenumerate(puzzle.cells):
            if (r, c) in into:
                m.add(tent[r, c] == pitch[np.array(into[(r, c)])].sum())
            else:
                m.add(~tent[r, c])
        m.add(tent[:-1, :-1] + tent[1:, :-1] + tent[:-1, 1:] + tent[1:, 1:] <= 1)
        for side, axis in (("top", 0), ("left", 1)):
            for k, token in enumerate(puzzle.edges[side]):
                if token != EMPTY:
                    line = tent[:, k] if axis == 0 else tent[k]
                    with puzzle.group(m, named, f"{side} {k + 1}: {token}"):
                        m.add(line.sum() == int(token))
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
        for side, counts in (("top", tent.sum(axis=0)), ("left", tent.sum(axis=1))):
            for k, token in enumerate(puzzle.edges[side]):
                if token != EMPTY and counts[k] != int(token):
                    wrong(puzzle, f"{counts[k]} tents in {'column' if side == 'top' else 'row'}"
                                  f" {k + 1}, not {token}")
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
