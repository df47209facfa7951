"""Nurikabe: shade cells so that the shaded ones form one connected wall with no 2x2 block
shaded, and the unshaded cells fall into islands, each holding exactly one number, its
size. Numbered cells stay unshaded.

Model: each cell's island (one per clue; one more value for the wall), each island
connected around its clue (ConnectedRegions), the wall connected, islands of different
clues never side by side. Implied: each island stays within its clue's reach and keeps a
cell at every step of the way out to its farthest cell."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Connected, ConnectedRegions, Model, grid_graph
from smtpuzzle.puzzles.pencil.grids import (
    Padded,
    any_square,
    by_key,
    components,
    no_square,
    shaded_tokens,
)
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, refuse, wrong


class Nurikabe(Genre):
    name = "nurikabe"
    title = "Nurikabe"
    rules_text = "a connected wall, no 2x2 of it; each island one number, its size"
    symbols = "a number (an island's size) or -"
    puzzlekit = ""  # no Nurikabe solver in puzzlekit 0.3.4

    def check(self, puzzle: PencilPuzzle) -> None:
        for r, c, token in puzzle.clues():
            if int(token) < 1:
                refuse(self, "an island's size is 1 or more", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        graph = grid_graph(rows, cols)
        clues = puzzle.clues()
        wall_label = len(clues)
        island = m.int_array(rows * cols, 0, wall_label, name="island", user=False)
        walls = Padded(m, rows, cols, "wall")  # (false past the border)
        wall = walls.all[:rows * cols]
        m.add(wall == island.eq(wall_label))
        # an island of s cells reaches s - 1 steps from its clue at most
        depth = max((int(t) - 1 for _, _, t in clues), default=0)
        m.add(ConnectedRegions(island, graph, [r * cols + c for r, c, _ in clues],
                               outside=True, depth=depth))
        m.add(Connected(wall, graph))
        no_square(m, wall.reshape(rows, cols))
        # a cell is in clue k's island only within its reach (size - 1 steps, around the
        # other clues and their sides: a 20x20 on CP-SAT 7.2 -> 5.0 s)
        steps = _steps(rows, cols, clues).reshape(len(clues), -1)
        mine = []  # per clue: its island's literals over its reach, and their steps
        for k, (r, c, token) in enumerate(clues):
            with puzzle.given(m, named, r, c):
                if (steps[k] < 0).any():
                    m.add(island[steps[k] < 0] != k)
                within = np.flatnonzero(steps[k] >= 0)
                mine.append((island[within].eq(k), steps[k, within]))
                m.add(mine[-1][0].sum() == int(token))
                if named:  # (each clue's rows in its own group, for explain)
                    _path_cost(m, mine[-1:], [int(token)])
        if not named:
            _path_cost(m, mine, [int(t) for _, _, t in clues])
        # (implied) a wall cell has a wall cell beside it (the wall is one piece of two or
        # more), and so has every island cell but a 1's (its island is one piece of two or
        # more): fewer rounds of cuts for the lazy wall
        near = walls.around()
        if rows * cols - sum(int(t) for _, _, t in clues) >= 2:
            m.add(near >= walls.grid)
        ones = np.zeros((rows, cols), dtype=bool)
        for r, c, token in clues:
            ones[r, c] = int(token) == 1
        # the land beside a cell: its neighbours on the grid, less the wall among them
        rr, cc = np.divmod(np.arange(rows * cols), cols)
        beside = ((rr > 0).astype(int) + (rr < rows - 1) + (cc > 0) + (cc < cols - 1)
                  ).reshape(rows, cols)
        m.add(near[~ones] - walls.grid[~ones] <= beside[~ones] - 1)
        u, v = graph.edges[:, 0], graph.edges[:, 1]
        m.add((~wall[u] & ~wall[v]).implies(island[u] == island[v]))
        return walls.grid

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        wall = grid == "x"
        for r, c, _ in puzzle.clues():
            if wall[r, c]:
                wrong(puzzle, "a number in the wall", r, c)
        if (square := any_square(wall)) is not None:
            wrong(puzzle, "a 2x2 block of wall", *square)
        if len(components(wall)) > 1:
            wrong(puzzle, "the wall falls apart")
        for island in components(~wall):
            numbers = [(r, c) for r, c in island if puzzle.number(r, c) is not None]
            if len(numbers) != 1:
                wrong(puzzle, f"an island holding {len(numbers)} numbers", *island[0])
            if puzzle.number(*numbers[0]) != len(island):
                wrong(puzzle, f"an island of {len(island)} cells", *numbers[0])


def _path_cost(m: Model, mine: list[tuple[BoolArray, np.ndarray]], sizes: list[int]) -> None:
    """(implied) An island reaching j steps from its clue has a cell at each step before,
    so at most size - j of its cells lie j or more steps out: the path it takes costs cells
    (the 16x21 of islands of 19: CP-SAT >300 -> 14-24 s, sat 120 -> 13 s). ``mine``: per
    clue, its literals over its reach and their steps. A row per clue and step j of
    1..size - 1, posted at once: out[row] (the island reaches step j) needs a cell at
    step j, and bounds the cells at j or more."""
    base = np.concatenate([[0], np.cumsum([max(s - 1, 0) for s in sizes])])
    count = int(base[-1])
    if count == 0:  # islands of 1
        return
    out = m.bool_array(count + 1, name="reaches", user=False)  # one more, always false
    m.add(~out[count])
    lits = np.concatenate([lit.ids for lit, _ in mine] + [out.ids[count:]])
    step = np.concatenate([st for _, st in mine] + [[0]])
    row0 = np.concatenate([np.full(len(st), base[k] - 1) for k, (_, st) in enumerate(mine)]
                          + [[0]])
    at = np.flatnonzero(step >= 1)  # each cell counts at its own step...
    m.add(BoolArray(m, lits[_rows(row0[at] + step[at], at, count, len(lits) - 1)]
                    ).sum(axis=1) >= out[:count])
    past = np.repeat(at, step[at])  # ... and at every step up to it
    j = np.arange(len(past)) - np.repeat(np.cumsum(step[at]) - step[at], step[at]) + 1
    budget = np.concatenate([np.arange(s - 1, 0, -1) for s in sizes if s > 1] + [[]])
    m.add(BoolArray(m, lits[_rows(row0[past] + j, past, count, len(lits) - 1)]
                    ).sum(axis=1) <= out[:count] * budget.astype(np.int64))


def _rows(keys: np.ndarray, items: np.ndarray, n: int, pad: int) -> np.ndarray:
    """For each row 0..n-1, the ``items`` whose key it is: an (n, width) array padded with
    ``pad``."""
    at = by_key(keys, n)
    return np.append(items, pad)[at]


def _steps(rows: int, cols: int, clues: list[tuple[int, int, str]]) -> np.ndarray:
    """For each clue, how many steps from it each cell lies (a (clues, rows, cols) array,
    -1 beyond its island's reach): steps through cells that are neither another clue nor
    beside one (islands never touch), size - 1 of them at most. Each search runs in the
    window of size - 1 around its clue."""
    crosses = [[(r + dr, c + dc) for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols] for r, c, _ in clues]
    covered = np.zeros((rows, cols), dtype=np.int64)  # how many clues' crosses hold a cell
    for cross in crosses:
        covered[tuple(np.array(cross).T)] += 1
    out = np.full((len(clues), rows, cols), -1, dtype=np.int64)
    for k, (r, c, token) in enumerate(clues):
        steps = int(token) - 1
        r0, r1 = max(r - steps, 0), min(r + steps + 1, rows)
        c0, c1 = max(c - steps, 0), min(c + steps + 1, cols)
        others = covered[r0:r1, c0:c1].copy()
        for rr, cc in crosses[k]:
            if r0 <= rr < r1 and c0 <= cc < c1:
                others[rr - r0, cc - c0] -= 1
        free = others == 0
        window = out[k, r0:r1, c0:c1]
        seen = np.zeros_like(free)
        seen[r - r0, c - c0] = free[r - r0, c - c0]
        window[seen] = 0
        for step in range(1, steps + 1):
            grown = seen.copy()
            grown[1:] |= seen[:-1]
            grown[:-1] |= seen[1:]
            grown[:, 1:] |= seen[:, :-1]
            grown[:, :-1] |= seen[:, 1:]
            grown &= free
            window[grown & ~seen] = step
            seen = grown
    return out


GENRE = Nurikabe()
