"""Fillomino: write a number in every cell so that each group of equal numbers joined by
sides has as many cells as its number (so two groups of one size never share a side); the
givens stay. A group may hold no given at all.

Model: each group is a tree grown from its first cell in reading order (its root): every
other cell picks a parent beside it with its number, and the size of the subtree under a
cell is one more than its children's; the root's subtree has the group's number of cells.
Every cell carries its root (``label``), equal between neighbours of equal numbers, so a
group is one tree, never two side by side."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import IntArray, Model
from smtpuzzle.puzzles.pencil.grids import adjacent, by_key, components, number_tokens
from smtpuzzle.puzzles.pencil.puzzle import Genre, PencilPuzzle, refuse, wrong


class Fillomino(Genre):
    name = "fillomino"
    title = "Fillomino"
    rules_text = "numbers in every cell; each group of equal numbers has that many cells"
    symbols = "a number or -"
    puzzlekit = ""
    picture = {}
    groups = True
    written = True

    def check(self, puzzle: PencilPuzzle) -> None:
        for r, c, token in puzzle.clues():
            if not 1 <= int(token) <= puzzle.cells.size:
                refuse(self, f"a number {token} past 1..{puzzle.cells.size}", r, c)

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> IntArray:
        n = puzzle.cells.size
        number = m.int_array((puzzle.rows, puzzle.cols), 1, n, name="number")
        v = number.reshape(n)
        edges = adjacent(puzzle.rows, puzzle.cols)
        a, b = edges.T
        same = m.bool_array(len(edges), name="same", user=False)  # one group
        m.add(same.implies(v[a] == v[b]), (~same).implies(v[a] != v[b]))
        label = m.int_array(n, 0, n - 1, name="root", user=False)
        m.add(label <= np.arange(n), same.implies(label[a] == label[b]))
        root = label.eq(np.arange(n))
        # arcs: child -> parent, each edge both ways; a cell's arcs padded with a false one
        child, parent = np.concatenate([a, b]), np.concatenate([b, a])
        arc = m.bool_array(len(child) + 1, name="parent", user=False)
        m.add(~arc[len(child)])
        m.add_implications(arc[:len(child)], same[np.tile(np.arange(len(edges)), 2)])
        size = m.int_array(n, 1, n, name="subtree", user=False)
        carried = m.int_array(len(child) + 1, 0, n, name="carried", user=False)
        m.add(carried[len(child)] == 0,
              arc[:len(child)].implies(carried[:len(child)] == size[child]),
              (~arc[:len(child)]).implies(carried[:len(child)] == 0))
        up, down = by_key(child, n), by_key(parent, n)
        m.add(root + arc[up].sum(axis=1) == 1)
        m.add(size == carried[down].sum(axis=1) + 1)
        m.add(root.implies(size == v))
        # (implied) a subtree lies within its group, and below the root it leaves the root
        # out: the 20x36 decided on CP-SAT in 20-25 s, nothing in 90 s without. (Implied too
        # but dropped: "the root at most v - 1 rows above", 26-36 s with it.)
        m.add(size <= v, (~root).implies(size <= v - 1))
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(number[r, c] == int(token))
        return number

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return number_tokens(values)

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        for (r, c), token in np.ndenumerate(grid):
            if not str(token).isdigit() or int(token) < 1:
                wrong(puzzle, f"{token!r} where a number stands", r, c)
        x = grid.astype(np.int64)
        for value in np.unique(x):
            for group in components(x == value):
                if len(group) != value:
                    wrong(puzzle, f"a group of {len(group)} cells of {value}s", *group[0])
        for r, c, token in puzzle.clues():
            if grid[r, c] != token:
                wrong(puzzle, "a given number changed", r, c)


GENRE = Fillomino()
