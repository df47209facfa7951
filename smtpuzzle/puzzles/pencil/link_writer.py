"""Pencil puzzles written as puzz.link links (``smtpuzzle solve FILE --link``): the
encodings of pzprjs (its ``Encode.js``), each genre's the inverse of its recipe in
``links.py``, so that reading the link gives the puzzle back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.pencil.genres import PIDS
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, PencilPuzzle

URL = "https://puzz.link/p?"


def _b36(v: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[v]


def run_length(values: list, write: Callable[[Any], str], offset: int, longest: int) -> str:
    """Each value written, and each run of k empty cells (None) between them as the base-36
    digit ``offset`` + k, runs cut at ``longest`` cells: the run-length codes of pzprjs."""
    out, run = [], 0
    for v in values:
        if v is None:
            run += 1
            if run == longest:
                out.append(_b36(offset + run))
                run = 0
            continue
        if run:
            out.append(_b36(offset + run))
            run = 0
        out.append(write(v))
    if run:
        out.append(_b36(offset + run))
    return "".join(out)


def numbers16(values: list[int | None]) -> str:
    """encodeNumber16: a number in hexadecimal ('-' two digits, '+' three), runs of up to
    20 empty cells as g-z."""
    return run_length(values, lambda v: f"{v:x}" if v < 16 else f"-{v:02x}" if v < 256
                      else f"+{v:03x}", 15, 20)


def four_cell(values: list[int | None]) -> str:
    """encode4Cell: 0-4 (a number, -2 '.' a black cell without one), 5-9 / a-e one / two
    empty cells after it, runs of up to 20 empty cells g-z."""
    out, c, n = [], 0, len(values)
    while c < n:
        v = values[c]
        if v is None:
            run = 1
            while c + run < n and values[c + run] is None and run < 20:
                run += 1
            out.append(_b36(15 + run))
            c += run
            continue
        after = 0  # past the last cell counts as empty, as pzprjs writes it
        while after < 2 and (c + 1 + after >= n or values[c + 1 + after] is None):
            after += 1
        if v == -2:
            out.append(".")
            after = 0
        else:
            out.append(str(v + 5 * after) if after < 2 else "abcde"[v])
        c += 1 + after
    return "".join(out)


def circles(values: list[int]) -> str:
    """encodeCircle: base-3 digits (0 none, 1 white, 2 black), three cells a character."""
    padded = list(values) + [0] * (-len(values) % 3)
    return "".join(_b36(9 * a + 3 * b + c) for a, b, c in zip(*[iter(padded)] * 3,
                                                              strict=True))


def bits(values: list[int]) -> str:
    """n bits, five a base-32 character, the first bit the highest."""
    padded = list(values) + [0] * (-len(values) % 5)
    return "".join(_b36(int("".join(map(str, padded[k:k + 5])), 2))
                   for k in range(0, len(padded), 5))


def walls(puzzle: PencilPuzzle) -> str:
    """encodeBorder: the walls between regions, right of each cell, then below each."""
    room = puzzle.regions
    if room is None or (room < 0).any():
        raise PuzzleError(f"{puzzle.genre.name}: a link has no cell outside every region")
    right = (room[:, :-1] != room[:, 1:]).astype(int).ravel().tolist()
    below = (room[:-1] != room[1:]).astype(int).ravel().tolist()
    return bits(right) + bits(below)


def _numbers(cells: np.ndarray) -> list[int | None]:
    return [None if t == EMPTY else int(t) for t in cells.ravel().tolist()]


def _edge(puzzle: PencilPuzzle, *sides: str) -> list[int | None]:
    return [None if t == EMPTY else int(t) for side in sides for t in puzzle.edges[side]]


# -- each genre's body ------------------------------------------------------------------------

def _room_numbers(puzzle: PencilPuzzle) -> str:
    """A number per room (Heyawake, Country Road), rooms in reading order."""
    found: list[int | None] = [None] * (int(puzzle.regions.max()) + 1)
    for r, c, token in puzzle.clues():
        found[puzzle.regions[r, c]] = int(token)
    return walls(puzzle) + numbers16(found)


def _akari(puzzle: PencilPuzzle) -> str:
    return four_cell([None if t == EMPTY else -2 if t == "x" else int(t)
                      for t in puzzle.cells.ravel().tolist()])


def _hitori(puzzle: PencilPuzzle) -> str:
    return "".join(_b36(int(t)) if int(t) < 36 else "-" + np.base_repr(int(t), 36).lower()
                   .rjust(2, "0") for t in puzzle.cells.ravel().tolist())


def _yajilin(puzzle: PencilPuzzle) -> str:
    """encodeArrowNumber16: a direction (1 up .. 4 right) and a number; runs a-z."""
    way = {"n": 1, "s": 2, "w": 3, "e": 4}

    def arrow(token: str) -> str:
        if token[-1:] not in way:
            raise PuzzleError(f"yajilin: a cell {token!r} has no link form (links give "
                              "arrows)")
        d, v = way[token[-1]], int(token[:-1])
        return f"{d}{v:x}" if v < 16 else f"{d + 5}{v:02x}" if v < 256 else f"-{d}{v:03x}"

    return run_length([None if t == EMPTY else t for t in puzzle.cells.ravel().tolist()],
                      arrow, 9, 26)


def _skyscraper(puzzle: PencilPuzzle) -> str:
    if puzzle.params[0] != puzzle.rows or puzzle.flags:
        raise PuzzleError("skyscraper: a link's heights run 1..side, without diagonals")
    cells = _numbers(puzzle.cells)  # left out when none is given, as pzprjs writes it
    return numbers16(_edge(puzzle, "top", "bottom", "left", "right")) + \
        (numbers16(cells) if any(v is not None for v in cells) else "")


def _tents(puzzle: PencilPuzzle) -> str:
    """The counts, then a character per cell and the up to 17 empty cells after it: the
    run's length for a tree, 18 more for an empty cell."""
    out, trees, c = [], puzzle.cells.ravel().tolist(), 0
    while c < len(trees):
        run = 0
        while run < 17 and c + 1 + run < len(trees) and trees[c + 1 + run] == EMPTY:
            run += 1
        out.append(_b36(run if trees[c] == "x" else 18 + run))
        c += 1 + run
    return numbers16(_edge(puzzle, "top", "left")) + "".join(out)


def _kakuro(puzzle: PencilPuzzle) -> str:
    def value(v: int) -> str:
        return str(v) if v < 10 else chr(ord("a") + v - 10) if v < 20 else \
            chr(ord("A") + v - 20)

    grid = puzzle.cells
    white = grid == "0"
    if white[0].any() or white[:, 0].any():
        raise PuzzleError("kakuro: a white cell in the first row or column has no link form")

    def sums(r: int, c: int) -> tuple[int, int]:
        down, _, across = str(grid[r, c]).partition(",")
        return (int(down) if down.isdigit() else 0), (int(across) if across.isdigit() else 0)

    def clue(r: int, c: int) -> str:
        down, across = sums(r, c)
        return value(down) + value(across) if down or across else "."

    inner = [None if white[r, c] else (r, c) for r in range(1, grid.shape[0])
             for c in range(1, grid.shape[1])]
    out = [run_length(inner, lambda cell: clue(*cell), 19, 16)]
    out += [value(sums(0, c)[0]) for c in range(1, grid.shape[1]) if white[1, c]]
    out += [value(sums(r, 0)[1]) for r in range(1, grid.shape[0]) if white[r, 1]]
    return "".join(out)


PIECE_CODE = {"x": 0, "n": 1, "s": 2, "w": 3, "e": 4, "m": 5, "o": 6}
FLEET_KEYS = {(3, 2, 1): "c", (4, 3, 2, 1): "d", (5, 4, 3, 2, 1): "e"}


def _battleship(puzzle: PencilPuzzle) -> str:
    fleet = tuple(puzzle.params)
    while fleet and not fleet[-1]:
        fleet = fleet[:-1]
    if fleet in FLEET_KEYS:
        bank = "/" + FLEET_KEYS[fleet]
    else:
        ships = [length for length, n in enumerate(fleet, 1) for _ in range(n)]
        bank = f"{len(ships)}/" + "/".join(
            (_b36(n) + "1" + bits([1] * n)).rstrip("0") for n in ships)
    cells = [None if t == EMPTY else PIECE_CODE[t] for t in puzzle.cells.ravel().tolist()]
    return numbers16(_edge(puzzle, "top", "left")) + numbers16(cells) + "/" + bank


BODIES: dict[str, Callable[[PencilPuzzle], str]] = {
    "akari": _akari, "slitherlink": lambda p: four_cell(_numbers(p.cells)),
    "hitori": _hitori, "kuromasu": lambda p: numbers16(_numbers(p.cells)),
    "nurikabe": lambda p: numbers16(_numbers(p.cells)),
    "shikaku": lambda p: numbers16(_numbers(p.cells)),
    "numberlink": lambda p: numbers16(_numbers(p.cells)),
    "fillomino": lambda p: numbers16(_numbers(p.cells)),
    "heyawake": _room_numbers, "countryroad": _room_numbers,
    "lits": walls, "norinori": walls,
    "starbattle": lambda p: f"{p.params[0]}/" + walls(p),
    "yinyang": lambda p: circles([" wb".index(t if t != EMPTY else " ")
                                  for t in p.cells.ravel().tolist()]),
    "masyu": lambda p: circles([" wb".index(t if t != EMPTY else " ")
                                for t in p.cells.ravel().tolist()]),
    "simpleloop": lambda p: bits([int(t == "x") for t in p.cells.ravel().tolist()]),
    "yajilin": _yajilin,
    "suguru": lambda p: walls(p) + numbers16(_numbers(p.cells)),
    "skyscraper": _skyscraper, "tent": _tents, "kakuro": _kakuro,
    "battleship": _battleship,
}


def write_link(puzzle: PencilPuzzle) -> str:
    """The puzz.link link of ``puzzle``; PuzzleError for a genre or a puzzle links cannot
    carry (Binairo, Hidato, Killer Sudoku; a Yajilin's blocked cell...)."""
    genre = puzzle.genre.name
    if not PIDS.get(genre) or genre not in BODIES:
        raise PuzzleError(f"{genre}: puzz.link has no such genre, so no link")
    rows, cols = puzzle.rows, puzzle.cols
    if genre == "kakuro":  # the link's grid leaves out the first row and column
        rows, cols = rows - 1, cols - 1
    return f"{URL}{PIDS[genre][0]}/{cols}/{rows}/{BODIES[genre](puzzle)}"
