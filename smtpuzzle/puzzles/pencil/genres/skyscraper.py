"""Skyscrapers: fill the grid with buildings of heights 1..N, each once in every row and
column (cells left empty, 0, where N is less than the side); a clue outside the grid counts
the buildings seen from it, a taller one hiding those behind it. With ``D`` on the header
line the two diagonals hold each height once too. The clue lines run top, bottom, left,
right."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import AllDifferent, BoolArray, IntArray, Model
from smtpuzzle.puzzles.pencil.grids import number_tokens
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, Genre, PencilPuzzle, refuse, wrong

SIDES = ("top", "bottom", "left", "right")


class Skyscraper(Genre):
    name = "skyscraper"
    title = "Skyscrapers"
    rules_text = "heights 1..N once a row and column; outside clues count those seen"
    layout = (*SIDES, "cells")
    params = ("n",)
    flags = ("D",)
    cells_optional = True
    symbols = "a height or -"
    puzzlekit = "skyscraper"
    picture = {}
    written = True

    def check(self, puzzle: PencilPuzzle) -> None:
        n, side = puzzle.params[0], puzzle.rows
        if puzzle.rows != puzzle.cols or not 1 <= n <= side:
            refuse(self, f"a square grid with heights 1..N, N at most its side (not "
                         f"{puzzle.rows}x{puzzle.cols}, N {n})")
        for r, c, token in puzzle.clues():
            if int(token) > n:
                refuse(self, f"a height {token} past N = {n}", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> IntArray:
        n, side = puzzle.params[0], puzzle.rows
        h = m.int_array((side, side), 1 if n == side else 0, n, name="height")
        lines = [h[i] for i in range(side)] + [h[:, i] for i in range(side)]
        if "D" in puzzle.flags:
            idx = np.arange(side)
            lines += [h[idx, idx], h[idx, side - 1 - idx]]
        for line in lines:
            if n == side:
                m.add(AllDifferent(line))
            else:
                for v in range(1, n + 1):
                    m.add(line.eq(v).sum() == 1)
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(h[r, c] == int(token))
        views = _views(puzzle)
        if not views:
            return h
        lines = IntArray(m, np.stack([_line(h, side, k).ids for side, k, _ in views]))
        seen = np.array([int(token) for _, _, token in views])
        if named:  # each view in a group of its own, for explain
            for v, (side, k, token) in enumerate(views):
                with puzzle.group(m, named, f"{side} {k + 1}: {token}"):
                    m.add(_seen(m, lines[v:v + 1]).sum() == seen[v])
        else:  # every view at once (an 8x8's 20 views one by one: 30 ms to build)
            m.add(_seen(m, lines).sum(axis=1) == seen)
        return h

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return number_tokens(values)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        n = puzzle.params[0]
        h = np.array([[int(t) for t in row] for row in grid])
        lines = list(h) + list(h.T)
        if "D" in puzzle.flags:
            lines += [np.diag(h), np.diag(h[:, ::-1])]
        for line in lines:
            if sorted(line[line > 0].tolist()) != list(range(1, n + 1)):
                wrong(puzzle, f"a line without each height 1..{n} once")
        for r, c, token in puzzle.clues():
            if h[r, c] != int(token):
                wrong(puzzle, "a given height changed", r, c)
        for side_name, k, token in _views(puzzle):
            line = _line(h, side_name, k)
            tallest, seen = 0, 0
            for v in line:
                if v > tallest:
                    tallest, seen = v, seen + 1
            if seen != int(token):
                wrong(puzzle, f"{seen} buildings seen from {side_name} {k + 1}, not {token}")


def _views(puzzle: PencilPuzzle) -> list[tuple[str, int, str]]:
    """(side, line number, clue) of every clue outside the grid."""
    return [(s, k, t) for s in SIDES for k, t in enumerate(puzzle.edges[s]) if t != EMPTY]


def _line(h, side: str, k: int):  # noqa: ANN001, ANN202  either an IntArray or an array
    """The line of heights seen from clue ``k`` on ``side``, nearest first."""
    if side == "top":
        return h[:, k]
    if side == "bottom":
        return h[::-1, k]
    return h[k] if side == "left" else h[k, ::-1]


def _seen(m: Model, lines: IntArray) -> BoolArray:
    """Whether each building of each of ``lines`` (one a row, nearest first) is taller
    than all before it."""
    count, size = lines.shape
    i, j = np.tril_indices(size, -1)  # every building i and one before it, j
    taller = m.bool_array((count, size, size), name="taller", user=False)
    above = np.triu_indices(size, 1)
    m.add(~taller[:, above[0], above[1]])
    if len(i):
        m.add(taller[:, i, j] == (lines[:, i] > lines[:, j]))
    d = np.arange(size)
    m.add(taller[:, d, d] == (lines >= 1))  # taller than nothing: seen unless empty (0)
    return (taller.sum(axis=2) == d + 1).reified()


GENRE = Skyscraper()
