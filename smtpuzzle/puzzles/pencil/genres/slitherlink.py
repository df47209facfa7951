"""Slitherlink: draw one loop along the grid lines, never crossing or touching itself, so
that each number counts the sides of its cell the loop runs along. The collection writes a
solution as the cells inside the loop (``x``) and outside (``-``)."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model, SingleCycle, cell_edges, lattice_graph
from smtpuzzle.puzzles.pencil.grids import Padded, no_checkerboard, shaded_tokens
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, refuse, wrong


class Slitherlink(Genre):
    name = "slitherlink"
    title = "Slitherlink"
    rules_text = "one loop along the grid lines; a number counts its cell's sides on it"
    symbols = "a number 0-3 or -"
    puzzlekit = "slitherlink"
    picture = {}
    boundary = "x"

    def check(self, puzzle: PencilPuzzle) -> None:
        for r, c, token in puzzle.clues():
            if int(token) > 3:
                refuse(self, f"a number {token} (a loop runs along at most 3 sides)", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        graph = lattice_graph(puzzle.rows, puzzle.cols)
        sides = cell_edges(puzzle.rows, puzzle.cols)
        segment = m.bool_array(len(graph.edges), name="segment")
        m.add(SingleCycle(segment, graph))
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(segment[sides[r, c]].sum() == int(token))
        # Implied: each cell inside or outside the loop, a segment wherever the two sides
        # differ (the border's far side outside). CP-SAT proves uniqueness far sooner so.
        rows, cols = puzzle.rows, puzzle.cols
        inner = Padded(m, rows, cols, "inside", user=False)
        flat = segment[:(rows + 1) * cols].reshape(rows + 1, cols)
        tall = segment[(rows + 1) * cols:].reshape(rows, cols + 1)
        outside = inner.all[-1]
        _differ(m, flat[:rows], inner.all[inner.index(-1, 0)], inner.grid)  # above, below
        _differ(m, flat[rows], inner.grid[-1], outside)
        _differ(m, tall[:, :cols], inner.all[inner.index(0, -1)], inner.grid)  # left, right
        _differ(m, tall[:, cols], inner.grid[:, -1], outside)
        # Implied too: no 2x2 block of them a checkerboard (the loop would meet itself at
        # its middle corner). The 30x40's decision on CP-SAT: 9.2 -> 1.8 s.
        no_checkerboard(m, inner.grid)
        return segment

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        """Inside the loop: an odd number of its upright segments left of the cell."""
        rows, cols = puzzle.rows, puzzle.cols
        upright = values[(rows + 1) * cols:].reshape(rows, cols + 1)[:, :cols]
        known = np.cumsum(upright == None, axis=1) == 0  # noqa: E711
        odd = np.cumsum(upright == True, axis=1) % 2 == 1  # noqa: E712
        return shaded_tokens(np.where(known, odd, None), (rows, cols))

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        inner = np.pad(grid == "x", 1)  # the border ring is outside
        across = inner[:, :-1] != inner[:, 1:]  # (rows + 2, cols + 1): upright sides
        along = inner[:-1, :] != inner[1:, :]  # (rows + 1, cols + 2): flat sides
        for r, c, token in puzzle.clues():
            sides = int(across[r + 1, c]) + int(across[r + 1, c + 1]) + int(along[r, c + 1]) \
                + int(along[r + 1, c + 1])
            if sides != int(token):
                wrong(puzzle, f"the loop runs along {sides} sides, not {token}", r, c)
        # one loop: every corner point meets 0 or 2 sides (never 4: the loop touching
        # itself), and the inside is one piece with no hole (a second loop)
        up, down = across[:-1, :], across[1:, :]  # sides above and below each point
        left, right = along[:, :-1], along[:, 1:]
        degree = up.astype(int) + down + left + right
        if (degree == 4).any():
            wrong(puzzle, "the loop touches itself at a corner")
        from smtpuzzle.puzzles.pencil.grids import components

        if not (grid == "x").any() or len(components(grid == "x")) != 1 \
                or len(components(~inner)) != 1:
            wrong(puzzle, "not one loop")


def _differ(m: Model, seg: BoolArray, a: BoolArray, b: BoolArray) -> None:
    """``seg`` is ``a`` xor ``b``, elementwise, as four linear rows."""
    m.add(seg >= a - b, seg >= b - a, seg <= a + b, seg <= 2 - a - b)


GENRE = Slitherlink()
