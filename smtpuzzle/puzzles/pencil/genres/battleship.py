"""Battleship: place the fleet (the header's numbers after the size: how many ships of
length 1, 2, 3...) in the grid, each ship a straight line of cells, no two ships touching,
not even at a corner; the numbers along the top and left count the ship cells in each
column and row. Given cells stay: ``x`` water, ``o`` a ship of one cell, ``n`` / ``s`` the
top / bottom end of an upright ship, ``w`` / ``e`` the left / right end of a lying one,
``m`` a middle piece. A solution writes each ship cell so, water ``-``.

Model: a literal per place a ship of a fleet length may take; a cell is a ship cell when
one place covers it (at most one may), every cell around a place is water, and each length
has its number of places."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Model
from smtpuzzle.puzzles.pencil.grids import (
    Padded,
    by_key,
    check_line_counts,
    components,
    line_counts,
)
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, UNKNOWN, Genre, PencilPuzzle, refuse, wrong

WATER = "x"
PIECES = "onswem"
# a piece's neighbours up, down, left, right: True a ship cell, False water, None either
SHAPES = {"o": (False, False, False, False), "n": (False, True, False, False),
          "s": (True, False, False, False), "w": (False, False, False, True),
          "e": (False, False, True, False)}
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


class Battleship(Genre):
    name = "battleship"
    title = "Battleship"
    rules_text = "place the fleet; ships never touch; line counts"
    layout = ("top", "left", "cells")
    params = ("fleet",)
    more_params = True
    symbols = "x (water), o, n, s, w, e, m (ship pieces) or -"
    puzzlekit = "battleship"
    picture = {piece: "shade" for piece in PIECES}

    def clue_text(self, token: str) -> str:
        return "~" if token == WATER else ""

    def cell_ok(self, token: str) -> bool:
        return token == EMPTY or token == WATER or token in PIECES

    def check(self, puzzle: PencilPuzzle) -> None:
        if not any(puzzle.params):
            refuse(self, "a fleet of no ships")

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        ship = Padded(m, rows, cols, "ship")
        places = [(length, cells) for length, count in enumerate(puzzle.params, 1) if count
                  for cells in _places(rows, cols, length)]
        # a literal a place, and one more never taken, to pad each cell's places with
        chosen = m.bool_array(len(places) + 1, name="place", user=False)
        m.add(~chosen[len(places)])
        halos = [_halo(cells, rows, cols) for _, cells in places]
        owner = np.repeat(np.arange(len(places)), [len(h) for h in halos])
        m.add_implications(chosen[owner], ~ship.all[np.concatenate(halos)])  # water around
        covered = np.concatenate([cells for _, cells in places])  # each place's cells
        place_of = np.append(np.repeat(np.arange(len(places)), [len(c) for _, c in places]),
                             len(places))
        m.add(ship.all[:rows * cols] ==
              chosen[place_of[by_key(covered, rows * cols)]].sum(axis=1))
        for length, count in enumerate(puzzle.params, 1):
            ks = np.array([k for k, (n, _) in enumerate(places) if n == length], np.int64)
            with puzzle.group(m, named, f"{count} ships of {length}"):
                m.add(chosen[ks].sum() == count)
        near = [ship.all[ship.index(dr, dc)] for dr, dc in STEPS]
        line_counts(puzzle, m, named, ship.grid)
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                if token == WATER:
                    m.add(~ship.grid[r, c])
                    continue
                m.add(ship.grid[r, c])
                if token == "m":
                    m.add((near[2][r, c] & near[3][r, c]) | (near[0][r, c] & near[1][r, c]))
                for there, want in zip(near, SHAPES.get(token, ()), strict=False):
                    m.add(there[r, c] if want else ~there[r, c])
        return ship.grid

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        v = np.asarray(values, dtype=object).reshape(puzzle.cells.shape)
        out = np.full(v.shape, UNKNOWN, dtype=object)
        for (r, c), on in np.ndenumerate(v):
            if on is False:
                out[r, c] = EMPTY
            elif on is True:
                sides = tuple(v[r + dr, c + dc] if 0 <= r + dr < v.shape[0]
                              and 0 <= c + dc < v.shape[1] else False for dr, dc in STEPS)
                if None not in sides:
                    out[r, c] = piece(*sides)
        return out

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        odd = ~np.isin(grid, [EMPTY, *PIECES])
        if odd.any():
            wrong(puzzle, f"{grid[tuple(np.argwhere(odd)[0])]!r} where a ship piece or water "
                          "stands", *np.argwhere(odd)[0])
        ship = grid != EMPTY
        fleet = [0] * len(puzzle.params)
        for group in components(ship):
            rs, cs = {r for r, _ in group}, {c for _, c in group}
            if len(rs) > 1 and len(cs) > 1:
                wrong(puzzle, "a ship that is not straight", *group[0])
            if len(group) > len(fleet):
                wrong(puzzle, f"a ship of {len(group)} cells, longer than the fleet's",
                      *group[0])
            fleet[len(group) - 1] += 1
        if tuple(fleet) != tuple(puzzle.params):
            wrong(puzzle, f"a fleet of {fleet}, not {list(puzzle.params)}")
        for (r, c), token in np.ndenumerate(grid):
            if ship[r, c]:
                sides = tuple(bool(ship[r + dr, c + dc]) if 0 <= r + dr < grid.shape[0]
                              and 0 <= c + dc < grid.shape[1] else False for dr, dc in STEPS)
                if token != piece(*sides):
                    wrong(puzzle, f"a piece {token!r} where {piece(*sides)!r} is", r, c)
                corners = ship[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].sum()
                if corners > 1 + sum(sides):
                    wrong(puzzle, "two ships touch at a corner", r, c)
        check_line_counts(puzzle, ship, "ship cells")
        for r, c, token in puzzle.clues():
            if grid[r, c] != (EMPTY if token == WATER else token):
                wrong(puzzle, "a given cell changed", r, c)

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        shown = {"o": "●", "n": "▲", "s": "▼", "w": "◀", "e": "▶", "m": "■", EMPTY: "."}
        return "\n".join(" ".join(shown.get(str(t), str(t)) for t in row) for row in grid)


def piece(up: bool, down: bool, left: bool, right: bool) -> str:
    """The piece of a ship cell with ship cells on the given sides."""
    for token, sides in SHAPES.items():
        if sides == (up, down, left, right):
            return token
    return "m"


def _places(rows: int, cols: int, length: int) -> list[list[int]]:
    """The cells (flat) of every straight place of ``length`` cells, lying then upright
    (one way only for a ship of one)."""
    out = [[r * cols + c + k for k in range(length)]
           for r in range(rows) for c in range(cols - length + 1)]
    if length > 1:
        out += [[(r + k) * cols + c for k in range(length)]
                for r in range(rows - length + 1) for c in range(cols)]
    return out


def _halo(cells: list[int], rows: int, cols: int) -> np.ndarray:
    """The cells (flat) touching a place, by a side or a corner, not in it."""
    rr, cc = np.divmod(np.array(cells), cols)
    near = {(r + dr, c + dc) for r, c in zip(rr.tolist(), cc.tolist(), strict=True)
            for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    return np.array(sorted(r * cols + c for r, c in near if 0 <= r < rows and 0 <= c < cols
                           and r * cols + c not in cells), dtype=np.int64)


GENRE = Battleship()
