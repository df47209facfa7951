"""Numberlink (Arukone): join each pair of equal numbers by a line through cell centres;
lines never branch, cross or meet, and pass no other number. With ``F`` on the header line
every cell is on a line (the Flow Free rule); without it cells may stay empty. A solution
writes each cell by the sides its line leaves by (``se``, ``ew``...), a number by its one
side.

Model: the links between neighbouring cells; a number has one, any other cell two or none.
Each cell carries the label of its pair, equal along every link, so a line joins equal
numbers (a label a pair: one-hot literals, so a link copies its cell's pair by unit
propagation, which integer labels left to search). That no line closes on itself is one
SingleCycle: the lines, chained end to start
through one extra vertex per pair (pair k's second number to pair k + 1's first), form a
single loop."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Graph, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import CellLinks, LoopGenre, check_lines
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, PencilPuzzle, refuse, wrong

FILL = "F"


class Numberlink(LoopGenre):
    name = "numberlink"
    title = "Numberlink"
    rules_text = "join equal numbers by lines that never branch, cross or meet"
    flags = (FILL,)
    symbols = "a number (each twice) or -"
    puzzlekit = ""

    def check(self, puzzle: PencilPuzzle) -> None:
        for number, cells in pairs(puzzle).items():
            if len(cells) != 2:
                refuse(self, f"the number {number} appears {len(cells)} times, not twice",
                       *cells[-1])

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        line = CellLinks(m, rows, cols)
        ends = pairs(puzzle)
        degree = line.degree()
        numbered = puzzle.cells != EMPTY
        if FILL in puzzle.flags:
            m.add(degree[~numbered] == 2)
        else:
            passed = m.bool_array((rows, cols), name="passed", user=False)
            m.add(degree[~numbered] == 2 * passed[~numbered])
        if not ends:
            return line.link
        # label[cell, k]: the cell is on pair k's line (one pair a cell); equal along links
        label = m.bool_array((rows * cols, len(ends)), name="pair", user=False)
        m.add_exactly_one(label.ids)
        a, b = line.graph.edges.T
        link = np.broadcast_to(line.link.ids[:, None], label.ids[a].shape)
        for one, other in ((a, b), (b, a)):  # link and one's pair -> other's pair
            m.add_clauses(np.stack([-link, -label.ids[one], label.ids[other]], axis=-1)
                          .reshape(-1, 3))
        for k, cells in enumerate(ends.values()):
            for r, c in cells:
                with puzzle.given(m, named, r, c):
                    m.add(degree[r, c] == 1, label[r * cols + c, k])
        m.add(SingleCycle(*_chained(m, line, ends, cols)))
        return line.link

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        paths = check_lines(puzzle, grid, loop=False)
        joined = set()
        for path in paths:
            (r0, c0), (r1, c1) = path[0], path[-1]
            if len(path) < 2 or len(str(grid[r0, c0])) != 1:
                wrong(puzzle, "a line closes on itself", r0, c0)
            first, last = puzzle.cells[r0, c0], puzzle.cells[r1, c1]
            if first == EMPTY or first != last:
                wrong(puzzle, f"a line from {first} ends at {last}", r0, c0)
            for r, c in path[1:-1]:
                if puzzle.cells[r, c] != EMPTY:
                    wrong(puzzle, "a line passes a number", r, c)
            joined.add(first)
        for r, c, token in puzzle.clues():
            if token not in joined:
                wrong(puzzle, f"the {token}s are not joined", r, c)
        on = {cell for path in paths for cell in path}
        if FILL in puzzle.flags and len(on) < grid.size:
            r, c = next(cell for cell in np.ndindex(grid.shape) if cell not in on)
            wrong(puzzle, "a cell on no line", r, c)


def pairs(puzzle: PencilPuzzle) -> dict[str, list[tuple[int, int]]]:
    """The cells of each number, numbers in order of their first cell."""
    out: dict[str, list[tuple[int, int]]] = {}
    for r, c, token in puzzle.clues():
        out.setdefault(token, []).append((r, c))
    return out


def _chained(m: Model, line: CellLinks, ends: dict[str, list[tuple[int, int]]],
             cols: int) -> tuple[BoolArray, Graph]:
    """The links and, through one extra vertex per pair, the always-taken edges from each
    pair's second cell to the next pair's first: the edges and graph of the single loop."""
    graph, cells = line.graph, [[r * cols + c for r, c in two] for two in ends.values()]
    hub = graph.n + np.arange(len(cells))
    chain = [[cells[k][1], hub[k]] for k in range(len(cells))] + \
            [[hub[k], cells[(k + 1) % len(cells)][0]] for k in range(len(cells))]
    taken = m.bool_array(len(chain), name="chain", user=False)
    m.add(taken)
    edges = BoolArray(m, np.concatenate([line.link.ids, taken.ids]))
    return edges, Graph(graph.n + len(cells), np.concatenate([graph.edges, chain]))


GENRE = Numberlink()
