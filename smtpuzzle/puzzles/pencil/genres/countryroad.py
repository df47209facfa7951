"""Country Road: draw one loop through cell centres that passes through every room exactly
once (entering and leaving it once); a room's number counts the cells of it the loop
passes; two cells the loop misses never sit side by side across a room's border."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model, SingleCycle
from smtpuzzle.puzzles.pencil.grids import CellLinks, LoopGenre, adjacent, check_lines, one_loop
from smtpuzzle.puzzles.pencil.puzzle import PencilPuzzle, wrong


class CountryRoad(LoopGenre):
    name = "countryroad"
    title = "Country Road"
    rules_text = "one loop through each room once; numbers count its cells in the room"
    layout = ("cells", "regions")
    symbols = "a number (its room's cells on the loop) or -"
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

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        on = one_loop(puzzle, grid)
        rooms = puzzle.regions
        path = [int(rooms[cell]) for cell in check_lines(puzzle, grid, loop=True)[0]]
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


GENRE = CountryRoad()
