"""Country Road: draw one loop through cell centres that passes through every room exactly
once (entering and leaving it once); a room's number counts the cells of it the loop
passes; two cells the loop misses never sit side by side across a room's border."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import (
    CellLinks,
    adjacent,
    check_lines,
    directions,
    line_tokens,
)
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, wrong


class CountryRoad(Genre):
    name = "countryroad"
    title = "Country Road"
    rules_text = "one loop through each room once; numbers count its cells in the room"
    layout = ("cells", "regions")
    symbols = "a number (its room's cells on the loop) or -"
    pids = ("country",)
    puzzlekit = "country_road"

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        rooms = puzzle.regions
        line = CellLinks(m, rows, cols)
        m.add(SingleCycle(line.link, line.graph))
        visited = m.bool_array((rows, cols), name="visited", user=False)
        m.add(line.degree() == 2 * visited)
        ends = line.graph.edges
        flat_rooms = rooms.ravel()
        crossing = flat_rooms[ends[:, 0]] != flat_rooms[ends[:, 1]]
        for room in range(int(rooms.max()) + 1):
            at_border = crossing & ((flat_rooms[ends[:, 0]] == room)
                                    | (flat_rooms[ends[:, 1]] == room))
            m.add(line.link[at_border].sum() == 2)
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(visited[rooms == rooms[r, c]].sum() == int(token))
        pairs = adjacent(rows, cols)
        pairs = pairs[flat_rooms[pairs[:, 0]] != flat_rooms[pairs[:, 1]]]
        flat = visited.ravel()
        m.add(flat[pairs[:, 0]] | flat[pairs[:, 1]])
        return line.link

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return line_tokens(directions(values, puzzle.rows, puzzle.cols))

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        loops = check_lines(puzzle, grid, loop=True)
        if len(loops) != 1:
            wrong(puzzle, f"{len(loops)} loops, not one")
        rooms = puzzle.regions
        on = np.zeros(grid.shape, dtype=bool)
        on[tuple(np.array(loops[0]).T)] = True
        path = [int(rooms[cell]) for cell in loops[0]]
        entered = [room for k, room in enumerate(path) if room != path[k - 1]]
        if sorted(entered) != list(range(int(rooms.max()) + 1)):
            wrong(puzzle, "a room the loop misses or passes twice")
        for r, c, token in puzzle.clues():
            if on[rooms == rooms[r, c]].sum() != int(token):
                wrong(puzzle, f"the loop passes not {token} cells of the room", r, c)
        for a, b in adjacent(*grid.shape):
            ra, ca = divmod(int(a), grid.shape[1])
            rb, cb = divmod(int(b), grid.shape[1])
            if rooms[ra, ca] != rooms[rb, cb] and not on[ra, ca] and not on[rb, cb]:
                wrong(puzzle, "two cells off the loop side by side across a border", ra, ca)

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        from smtpuzzle.puzzles.pencil.drawing import line_text

        return line_text(puzzle, grid)


GENRE = CountryRoad()
