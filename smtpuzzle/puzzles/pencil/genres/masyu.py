"""Masyu: draw one loop through cell centres that passes every circle: straight through a
white one and turning in the cell before or after it (or both); turning on a black one and
going straight through both cells after the turn's two legs."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import CellLinks, LoopGenre, check_lines
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, PencilPuzzle, wrong


class Masyu(LoopGenre):
    name = "masyu"
    title = "Masyu"
    rules_text = "one loop through every circle: straight on white, turning on black"
    symbols = "w (white circle), b (black circle) or -"
    puzzlekit = "masyu"
    clue_picture = {"w": "circle", "b": "disc"}

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, "w", "b")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        line = CellLinks(m, rows, cols)
        m.add(SingleCycle(line.link, line.graph))
        m.add(line.degree() <= 2)  # (the loop's own rule; said here for the clues below)
        way = {"left": line.left, "right": line.right, "up": line.up, "down": line.down}

        def step(d: str, r: int, c: int) -> BoolArray:
            """The link leaving the cell ``d``-ward from (r, c), false off the grid."""
            if not (0 <= r < rows and 0 <= c < cols):
                return line.all[len(line.link)]
            return way[d][r, c]

        for r, c, token in puzzle.clues():
            flat, tall = line.left[r, c] & line.right[r, c], line.up[r, c] & line.down[r, c]
            with puzzle.given(m, named, r, c):
                if token == "w":
                    m.add(flat | tall)
                    m.add(flat.implies(~step("left", r, c - 1) | ~step("right", r, c + 1)))
                    m.add(tall.implies(~step("up", r - 1, c) | ~step("down", r + 1, c)))
                else:
                    m.add(line.left[r, c] | line.right[r, c], line.up[r, c] | line.down[r, c])
                    m.add(line.left[r, c].implies(step("left", r, c - 1)),
                          line.right[r, c].implies(step("right", r, c + 1)),
                          line.up[r, c].implies(step("up", r - 1, c)),
                          line.down[r, c].implies(step("down", r + 1, c)))
        return line.link

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        loops = check_lines(puzzle, grid, loop=True)
        if len(loops) != 1:
            wrong(puzzle, f"{len(loops)} loops, not one")
        sides = {cell: str(grid[cell]) for cell in loops[0]}

        def straight(cell: tuple[int, int]) -> bool:
            return sides.get(cell) in ("ns", "ew")

        for r, c, token in puzzle.clues():
            here = sides.get((r, c))
            if here is None:
                wrong(puzzle, "the loop misses a circle", r, c)
            ends = [(r + dr, c + dc) for ch, (dr, dc) in
                    (("n", (-1, 0)), ("s", (1, 0)), ("e", (0, 1)), ("w", (0, -1)))
                    if ch in here]
            if token == "w" and (not straight((r, c)) or all(straight(e) for e in ends)):
                wrong(puzzle, "a white circle not passed straight, with a turn beside it",
                      r, c)
            if token == "b" and (straight((r, c)) or not all(straight(e) for e in ends)):
                wrong(puzzle, "a black circle not turned on, straight on both legs", r, c)


GENRE = Masyu()
