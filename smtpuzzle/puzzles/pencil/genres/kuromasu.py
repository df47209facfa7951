"""Kurodoko (Kuromasu): shade cells so that no two shaded cells share a side, the unshaded
cells stay connected, and each number (never shaded) counts the unshaded cells it sees
along its row and column, itself included, up to the first shaded cell or the border."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import (
    STEPS,
    apart_and_connected,
    components,
    inside,
    shaded_tokens,
    side_by_side,
)
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, refuse, wrong


class Kuromasu(Genre):
    name = "kuromasu"
    title = "Kurodoko"
    rules_text = "shaded cells apart, the rest connected; a number counts the cells it sees"
    symbols = "a number or -"
    puzzlekit = "kuromasu"

    def check(self, puzzle: PencilPuzzle) -> None:
        for r, c, token in puzzle.clues():
            if not 1 <= int(token) <= puzzle.rows + puzzle.cols - 1:
                refuse(self, f"a number {token} (it sees 1 to {puzzle.rows + puzzle.cols - 1}"
                       " cells)", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        shaded = m.bool_array((rows, cols), name="shaded")
        apart_and_connected(m, shaded)
        clues = puzzle.clues()
        if not clues:
            return shaded
        rs, cs, ns = (np.array(v) for v in zip(*[(r, c, int(t)) for r, c, t in clues],
                                                 strict=True))
        m.add(~shaded[rs, cs])
        # free[cell]: unshaded; one more literal, always false, for cells past the border
        blocked = m.bool_array(1, name="border", user=False)
        m.add(~blocked)
        free = np.append((~shaded).ids.ravel(), blocked.ids)
        # each clue's chains: the cell k away is seen if it and all before it are free
        owner, seen = [], []
        for dr, dc in STEPS:
            at, chain = np.arange(len(clues)), None  # the clues still looking; their chains
            for k in range(1, int(ns.max()) + 1):
                rr, cc = rs[at] + k * dr, cs[at] + k * dc
                ok = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols) & (k <= ns[at])
                at, rr, cc = at[ok], rr[ok], cc[ok]
                if not len(at):
                    break
                here = BoolArray(m, free[rr * cols + cc])
                chain = here if chain is None else BoolArray(m, chain.ids[ok]) & here
                owner.append(at)
                seen.append(chain.ids)
        owner, seen = np.concatenate(owner), np.concatenate(seen)
        order = np.argsort(owner, kind="stable")
        width = np.bincount(owner, minlength=len(clues))
        table = np.full((len(clues), int(width.max())), blocked.ids[0])
        table[owner[order], np.arange(len(order)) - np.repeat(np.cumsum(width) - width,
                                                              width)] = seen[order]
        counts = BoolArray(m, table).sum(axis=1)
        puzzle.post_clues(m, named, list(zip(rs, cs, strict=True)), counts, ns - 1)
        return shaded

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        shaded = grid == "x"
        if side_by_side(shaded):
            wrong(puzzle, "two shaded cells side by side")
        if len(components(~shaded)) > 1:
            wrong(puzzle, "the unshaded cells fall apart")
        for r, c, token in puzzle.clues():
            if shaded[r, c]:
                wrong(puzzle, "a shaded number", r, c)
            if sees(shaded, r, c) != int(token):
                wrong(puzzle, f"the number sees {sees(shaded, r, c)} cells, not {token}", r, c)


def sees(shaded: np.ndarray, r: int, c: int) -> int:
    """The unshaded cells (r, c) sees along its row and column, itself included."""
    count = 1
    for dr, dc in STEPS:
        k = 1
        while inside(r + k * dr, c + k * dc, shaded.shape) and not shaded[r + k * dr,
                                                                          c + k * dc]:
            count += 1
            k += 1
    return count


GENRE = Kuromasu()
