"""Symmetries of a nonogram's clues, which map every solution to a solution.

A rotation or reflection g of the grid is a clue symmetry when every line of g(S) has the
clue of its own line whatever S is: the line of S it reads (a row or a column, forwards or
backwards) carries that clue, reversed when read backwards. Lines with no filled cell at the
edges of the grid (clue ``0``) are left out first, so that a picture framed by an empty row
on one side only (knotty: 39x39 inside 40x40) still shows its symmetry.

What they are good for: a solution S with g(S) != S proves ``multiple`` at once (g(S) is a
second solution), and a search restricted to solutions with S = g(S) is much smaller, so
symmetric pictures are found fast.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smtpuzzle.puzzles.nonogram.puzzle import Nonogram

# name -> the grid transform (on an h x w index grid); square-only ones need h == w
_TRANSFORMS = {
    "rotation 180": (lambda g: np.rot90(g, 2), False),
    "mirror left-right": (np.fliplr, False),
    "mirror top-bottom": (np.flipud, False),
    "rotation 90": (lambda g: np.rot90(g, -1), True),
    "rotation 270": (lambda g: np.rot90(g, 1), True),
    "transpose": (np.transpose, True),
    "anti-transpose": (lambda g: np.rot90(g, 2).T, True),
}


@dataclass(frozen=True)
class ClueSymmetry:
    """g(S) = S.ravel()[source].reshape(H, W): ``source[c]`` is the cell whose value lands
    on cell c (cells outside the non-empty core stay put: they are empty)."""

    name: str
    source: np.ndarray

    def apply(self, grid: np.ndarray) -> np.ndarray:
        return grid.ravel()[self.source].reshape(grid.shape)

    def orbits(self) -> np.ndarray:
        """Per cell, the smallest cell of its cycle under the symmetry: the cells that a
        symmetric solution must fill alike share a label."""
        label = np.arange(len(self.source))
        step = self.source.copy()
        while True:  # a cycle of a rotation or reflection has at most 4 cells
            merged = np.minimum(label, label[step])
            if (merged == label).all():
                return label
            label, step = merged, self.source[step]


def _core(puzzle: Nonogram) -> tuple[int, int, int, int] | None:
    """First and last non-empty row and column (inclusive), or None for an empty grid."""
    rows = [i for i, c in enumerate(puzzle.rows) if sum(c)]
    cols = [j for j, c in enumerate(puzzle.cols) if sum(c)]
    if not rows or not cols:
        return None
    return rows[0], rows[-1], cols[0], cols[-1]


def clue_symmetries(puzzle: Nonogram) -> list[ClueSymmetry]:
    """The non-identity rotations and reflections of the non-empty core under which the
    clues are invariant."""
    core = _core(puzzle)
    if core is None:
        return []
    r0, r1, c0, c1 = core
    h, w = r1 - r0 + 1, c1 - c0 + 1
    H, W = puzzle.height, puzzle.width
    index = np.arange(h * w).reshape(h, w)
    # a clue as (length, colour) runs: reading a line backwards reverses both
    rows = [tuple(zip(c, k, strict=True)) for c, k in zip(puzzle.rows, puzzle.row_inks,
                                                           strict=True)]
    cols = [tuple(zip(c, k, strict=True)) for c, k in zip(puzzle.cols, puzzle.col_inks,
                                                           strict=True)]
    out = []
    for name, (transform, square_only) in _TRANSFORMS.items():
        if square_only and h != w:
            continue
        image = transform(index)  # image[i, j]: the core cell of S that lands on (i, j)
        lines = [(image[i], rows[r0 + i]) for i in range(h)]
        lines += [(image[:, j], cols[c0 + j]) for j in range(w)]
        if all(_read_clue(cells, h, w, r0, c0, rows, cols) == want for cells, want in lines):
            source = np.arange(H * W).reshape(H, W)
            source[r0:r1 + 1, c0:c1 + 1] = (r0 + image // w) * W + c0 + image % w
            out.append(ClueSymmetry(name, source.ravel()))
    return out


def _read_clue(cells: np.ndarray, h: int, w: int, r0: int, c0: int,
               rows: list[tuple], cols: list[tuple]) -> tuple:
    """The clue S gives the line of core cells ``cells`` (a row or a column of S, in either
    direction: a rotation or reflection maps lines to lines). A one-cell line of a core one
    row high is a column of S (the rest of that column is empty), and the other way round."""
    r, c = cells // w, cells % w
    if len(cells) > 1 and (r == r[0]).all() or len(cells) == 1 and h > 1:
        clue, forwards = rows[r0 + int(r[0])], len(c) < 2 or c[1] > c[0]
    else:
        clue, forwards = cols[c0 + int(c[0])], len(r) < 2 or r[1] > r[0]
    return clue if forwards else clue[::-1]
