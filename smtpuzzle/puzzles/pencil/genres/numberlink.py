"""Numberlink (Arukone): join each pair of equal numbers by a line through cell centres;
lines never branch, cross or meet, and pass no other number. With ``F`` on the header line
every cell is on a line (the Flow Free rule); without it cells may stay empty. A solution
writes each cell by the sides its line leaves by (``se``, ``ew``...), a number by its one
side.

Model: the links between neighbouring cells; a number has one, any other cell two or none.
Each cell on a line carries the label of its pair, equal along every link, so a line joins
equal numbers (a label a pair: one-hot literals, so a link copies its cell's pair by unit
propagation, which integer labels left to search). That no line closes on itself is one
SingleCycle: the lines, chained end to start through one extra vertex per pair (pair k's
second number to pair k + 1's first), form a single loop.

Deciding searches a normal form (``normal_rules``, where cells may stay empty): lines
that wander through empty cells are what a search drowns in, and each of them shortens
or shifts into one that does not (Janko's 19x25: no first solution in 40 s, decided in
11 s on sat)."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Graph, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import (
    BACK,
    LETTERS,
    STEP_OF,
    CellLinks,
    LoopGenre,
    around,
    check_lines,
    components,
    line_sides,
)
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
        return self._lines(puzzle, m, named, normal=False)

    def normal_rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        """The rules and, where cells may stay empty, a normal form every solution reaches
        by moves that each make another solution and lower the sum of the cells' indices
        on lines: a shortcut (a line running beside itself goes straight across, the
        cells between left empty) and a corner flip (a line turning round the corner of a
        2x2 block turns round the opposite corner instead when that cell is empty and
        comes earlier, row by row). No solution in normal form means none at all; one,
        and no solution one move takes to it (:meth:`unreduced`), a unique puzzle."""
        return self._lines(puzzle, m, named, normal=FILL not in puzzle.flags)

    def _lines(self, puzzle: PencilPuzzle, m: Model, named: bool, normal: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        line = CellLinks(m, rows, cols)
        ends = pairs(puzzle)
        degree = line.degree()
        numbered = puzzle.cells != EMPTY
        passed = m.bool_array((rows, cols), name="passed", user=False)  # on a line
        m.add(passed[numbered])
        m.add(degree[~numbered] == 2 * passed[~numbered])
        if FILL in puzzle.flags:
            m.add(passed)
        if not ends:
            return line.link
        # label[cell, k]: the cell is on pair k's line (none for a cell on no line);
        # equal along links
        label = m.bool_array((rows * cols, len(ends)), name="pair", user=False)
        m.add(label.sum(axis=1) == passed.ravel())
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
        if normal:
            # no shortcut: two cells of one line side by side are linked
            m.add_clauses(np.stack([-label.ids[a], -label.ids[b], link], axis=-1)
                          .reshape(-1, 3))
            _no_square_corner(m, line)
            _no_corner_flip(m, line, passed)
            # (implied, for every solution) a line between two cells of one checkerboard
            # colour holds one more cell of that colour, one between two colours as many
            # of each: so many more cells of one colour than of the other are on lines
            sign = 1 - 2 * (np.add.outer(np.arange(rows), np.arange(cols)) % 2)
            m.add((passed * sign).sum() == sum(
                (sign[r0, c0] + sign[r1, c1]) // 2 for (r0, c0), (r1, c1) in ends.values()))
        return line.link

    def unreduced(self, puzzle: PencilPuzzle, grid: np.ndarray) -> np.ndarray | None:
        """A solution other than ``grid`` (a solution in normal form) that one move takes
        to it, or None: the line of a link detoured through two or more empty cells, or
        a corner flipped back to a later empty cell."""
        sides = line_sides(grid)
        rows, cols = grid.shape
        empty = np.ones(grid.shape, dtype=bool)
        for cell in sides:
            empty[cell] = False
        for r in range(rows - 1):  # a corner of a 2x2 block whose opposite cell is later
            for c in range(cols - 1):
                block = {"nw": (r, c), "ne": (r, c + 1), "sw": (r + 1, c), "se": (r + 1, c + 1)}
                for corner, far, turn in (("nw", "se", "es"), ("ne", "sw", "ws")):
                    if empty[block[far]] and sides.get(block[corner]) == set(turn):
                        return _flipped(sides, block[corner], block[far], grid)
        piece = np.zeros(grid.shape, dtype=np.int64)  # the empty cells' pieces, from 1
        for k, cells in enumerate(components(empty), start=1):
            for cell in cells:
                piece[cell] = k
        for (r, c), letters in sides.items():
            for ch in letters & {"s", "e"}:  # each link once
                dr, dc = STEP_OF[ch]
                other = (r + dr, c + dc)
                starts = [x for x in around(r, c, grid.shape) if empty[x]]
                for start in starts:
                    for goal in around(*other, grid.shape):
                        if goal != start and empty[goal] and piece[goal] == piece[start]:
                            path = _path(empty, start, goal)
                            return _detoured(sides, [(r, c), *path, other], grid)
        return None

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


def _no_square_corner(m: Model, line: CellLinks) -> None:
    """(implied by "no shortcut") Where a line turns, the cell diagonally inside the turn
    is linked to neither of the turn's two cells: it would be on the line and beside both,
    so linked to both, closing a square."""
    sides = {"left": line.left.ids, "right": line.right.ids, "up": line.up.ids,
             "down": line.down.ids}
    back = {"left": "right", "right": "left", "up": "down", "down": "up"}
    rows, cols = sides["left"].shape
    for across, dc in (("left", -1), ("right", 1)):
        for along, dr in (("up", -1), ("down", 1)):
            turn = (slice(max(0, -dr), rows - max(0, dr)), slice(max(0, -dc), cols - max(0, dc)))
            inside = (slice(max(0, dr), rows - max(0, -dr)),
                      slice(max(0, dc), cols - max(0, -dc)))
            for way in (back[across], back[along]):
                m.add_clauses(np.stack([-sides[across][turn].ravel(),
                                        -sides[along][turn].ravel(),
                                        -sides[way][inside].ravel()], axis=1))


def _no_corner_flip(m: Model, line: CellLinks, passed: BoolArray) -> None:
    """No line turns round the south-east (south-west) cell of a 2x2 block whose north-west
    (north-east) cell, an earlier one, is empty."""
    right, down, on = line.right.ids, line.down.ids, passed.ids
    m.add_clauses(np.stack([on[:-1, :-1].ravel(), -down[:-1, 1:].ravel(),
                            -right[1:, :-1].ravel()], axis=1))
    m.add_clauses(np.stack([on[:-1, 1:].ravel(), -down[:-1, :-1].ravel(),
                            -right[1:, :-1].ravel()], axis=1))


def _tokens(sides: dict[tuple[int, int], set[str]], shape: tuple[int, ...]) -> np.ndarray:
    out = np.full(shape, EMPTY, dtype=object)
    for cell, letters in sides.items():
        if letters:
            out[cell] = "".join(ch for _, ch in LETTERS if ch in letters)
    return out


def _flipped(sides: dict[tuple[int, int], set[str]], corner: tuple[int, int],
             far: tuple[int, int], grid: np.ndarray) -> np.ndarray:
    """The line turning at ``corner`` turned at ``far`` (the opposite cell) instead."""
    new = {cell: set(letters) for cell, letters in sides.items()}
    new[far] = set()
    for ch in sides[corner]:  # the corner's two neighbours now lead to far
        dr, dc = STEP_OF[ch]
        side = (corner[0] + dr, corner[1] + dc)
        toward = _letter(side, far)
        new[side] = (new[side] - {BACK[ch]}) | {toward}
        new[far].add(BACK[toward])
    del new[corner]
    return _tokens(new, grid.shape)


def _detoured(sides: dict[tuple[int, int], set[str]], cells: list[tuple[int, int]],
              grid: np.ndarray) -> np.ndarray:
    """The link between the first and last of ``cells`` replaced by a line through them."""
    new = {cell: set(letters) for cell, letters in sides.items()}
    first, last = cells[0], cells[-1]
    new[first].discard(_letter(first, last))
    new[last].discard(_letter(last, first))
    for one, other in zip(cells, cells[1:], strict=False):
        new.setdefault(one, set()).add(_letter(one, other))
        new.setdefault(other, set()).add(_letter(other, one))
    return _tokens(new, grid.shape)


def _letter(cell: tuple[int, int], beside: tuple[int, int]) -> str:
    """The side of ``cell`` that ``beside`` lies on."""
    step = (beside[0] - cell[0], beside[1] - cell[1])
    return next(ch for ch, s in STEP_OF.items() if s == step)


def _path(free: np.ndarray, start: tuple[int, int], goal: tuple[int, int]
          ) -> list[tuple[int, int]]:
    """A shortest path from start to goal through ``free`` cells (both free, connected)."""
    came = {start: start}
    todo = [start]
    for cell in todo:
        if cell == goal:
            break
        for nxt in around(*cell, free.shape):
            if free[nxt] and nxt not in came:
                came[nxt] = cell
                todo.append(nxt)
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


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
