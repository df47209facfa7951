"""LITS: shade four cells in every region, forming an L, I, T or S tetromino (turned or
mirrored as may be); the shaded cells stay connected, no 2x2 block is shaded, and two
tetrominoes of the same letter never share a side across a region border. The collection
writes a solution's shaded cells by their tetromino's letter.

Model: every tetromino placement inside each region (a literal each, one per region),
each cell's letter from the placement covering it; the shading connected as the regions
joined where two shaded cells meet across a border; and, implied by the connected shading,
each placed tetromino touches a shaded cell of another region."""

from __future__ import annotations

import numpy as np

from smtpuzzle.model import BoolArray, Connected, Graph, Groups, Model
from smtpuzzle.puzzles.pencil.grids import (
    adjacent,
    any_square,
    around,
    components,
    no_square,
)
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, UNKNOWN, Genre, PencilPuzzle, wrong

LETTERS = "LITS"
SHAPES = {"L": ((0, 0), (1, 0), (2, 0), (2, 1)), "I": ((0, 0), (1, 0), (2, 0), (3, 0)),
          "T": ((0, 0), (0, 1), (0, 2), (1, 1)), "S": ((0, 1), (0, 2), (1, 0), (1, 1))}


def _orientations() -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """Each letter's shapes under turns and mirrors, as sorted cells from (0, 0)."""
    out = set()
    for letter, cells in SHAPES.items():
        pts = np.array(cells)
        for _ in range(4):
            pts = np.stack([pts[:, 1], -pts[:, 0]], axis=1)
            for mirror in (pts, pts * [1, -1]):
                norm = mirror - mirror.min(axis=0)
                out.add((letter, tuple(sorted(map(tuple, norm.tolist())))))
    return sorted(out)


ORIENTATIONS = _orientations()


def letter_of(cells: list[tuple[int, int]]) -> str | None:
    """The letter of a tetromino given by its four cells, None for none (the square)."""
    pts = np.array(cells)
    norm = tuple(sorted(map(tuple, (pts - pts.min(axis=0)).tolist())))
    return next((letter for letter, shape in ORIENTATIONS if shape == norm), None)


class Lits(Genre):
    name = "lits"
    title = "LITS"
    rules_text = "an L, I, T or S in every region; connected; no 2x2; like letters apart"
    layout = ("regions",)
    puzzlekit = "lits"
    picture = {letter: "shade" for letter in "LITS"}

    def rules(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        rows, cols = puzzle.rows, puzzle.cols
        regions = puzzle.regions
        places = []  # (region, letter, flat cells)
        for r0 in range(rows):
            for c0 in range(cols):
                for letter, shape in ORIENTATIONS:
                    cells = [(r0 + dr, c0 + dc) for dr, dc in shape]
                    if all(r < rows and c < cols for r, c in cells) and \
                            len({int(regions[cell]) for cell in cells}) == 1:
                        places.append((int(regions[cells[0]]), LETTERS.index(letter),
                                       [r * cols + c for r, c in cells]))
        placed = m.bool_array(len(places), name="tetromino", user=False)
        owner = np.array([p[0] for p in places], dtype=np.int64)
        for region in range(int(regions.max()) + 1):
            m.add(placed[owner == region].sum() == 1)
        # a cell's letter: implied by the placement over it; one letter at most
        letter = m.bool_array((rows * cols, 4), name="letter", user=False)
        pi = np.repeat(np.arange(len(places)), 4)
        ci = np.array([cell for p in places for cell in p[2]], dtype=np.int64)
        li = np.repeat([p[1] for p in places], 4)
        m.add_implications(placed[pi], letter[ci, li])
        shaded = m.bool_array((rows, cols), name="shaded")
        flat = shaded.ravel()
        m.add(flat == letter.sum(axis=1))
        for region in range(int(regions.max()) + 1):
            m.add(shaded[regions == region].sum() == 4)
        pairs = adjacent(rows, cols)
        flat_regions = regions.ravel()
        pairs = pairs[flat_regions[pairs[:, 0]] != flat_regions[pairs[:, 1]]]
        m.add(letter[pairs[:, 0]] + letter[pairs[:, 1]] <= 1)
        no_square(m, shaded)
        _connected_through_regions(m, flat, pairs, flat_regions)
        if regions.max() >= 1:  # (implied) each tetromino touches a shaded cell of another
            m.add_clauses([np.array([-placed.ids[k]] + _touching(cells, region, puzzle, flat))
                           for k, (region, _, cells) in enumerate(places)])
        return shaded

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        out = np.full(puzzle.cells.shape, UNKNOWN, dtype=object)
        values = values.reshape(puzzle.cells.shape)
        for region in range(int(puzzle.regions.max()) + 1):
            inside = puzzle.regions == region
            if any(v is None for v in values[inside]):
                out[inside & (values == False)] = EMPTY  # noqa: E712
                continue
            out[inside] = EMPTY
            cells = [tuple(rc) for rc in np.argwhere(inside & (values == True))]  # noqa: E712
            for cell in cells:
                out[cell] = letter_of(cells) or UNKNOWN
        return out

    def verify(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        shaded = grid != EMPTY
        for region in range(int(puzzle.regions.max()) + 1):
            cells = [tuple(rc) for rc in np.argwhere(shaded & (puzzle.regions == region))]
            if len(cells) != 4 or len(components(_mask(cells, grid.shape))) != 1 or \
                    letter_of(cells) is None or any(grid[c] != letter_of(cells) for c in cells):
                wrong(puzzle, "a region without an L, I, T or S (named by its letter)",
                      *np.argwhere(puzzle.regions == region)[0])
        if (square := any_square(shaded)) is not None:
            wrong(puzzle, "a shaded 2x2 block", *square)
        if len(components(shaded)) != 1:
            wrong(puzzle, "the shaded cells fall apart")
        for a, b in adjacent(*grid.shape):
            (ra, ca), (rb, cb) = divmod(int(a), grid.shape[1]), divmod(int(b), grid.shape[1])
            if puzzle.regions[ra, ca] != puzzle.regions[rb, cb] and shaded[ra, ca] and \
                    grid[ra, ca] == grid[rb, cb]:
                wrong(puzzle, f"two {grid[ra, ca]}s side by side", ra, ca)


def _connected_through_regions(m: Model, flat: BoolArray, pairs: np.ndarray,
                               regions: np.ndarray) -> None:
    """The shaded cells are connected. Each region's tetromino is one piece, so that says
    the regions are connected through the borders where two shaded cells meet: a graph of
    the regions, an edge "joined" between two that two shaded cells join (``pairs``: the
    neighbouring cells in different regions). A falling-apart solution so gets a cut on
    whole regions (some border of this group of regions is joined), not on its cells:
    CP-SAT decides a 31x45 in 21 rounds of cuts where cuts on cells took 52."""
    ends = np.sort(regions[pairs], axis=1)
    borders, which = np.unique(ends, axis=0, return_inverse=True)
    meet = m.bool_array(len(pairs), name="meet", user=False)  # both cells of a pair shaded
    m.add_implications(meet.ids, flat.ids[pairs[:, 0]])
    m.add_implications(meet.ids, flat.ids[pairs[:, 1]])
    joined = m.bool_array(len(borders), name="joined", user=False)
    # a clause a border: not joined, or one of its pairs meets
    m.add_clauses(Groups.keyed(meet.ids, which.ravel(), len(borders), -joined.ids[:, None]))
    every = m.bool_array(int(regions.max()) + 1, name="region", user=False)
    m.add(every)
    m.add(Connected(every, Graph(len(every), borders), joined))


def _mask(cells: list[tuple[int, int]], shape: tuple[int, ...]) -> np.ndarray:
    mask = np.zeros(shape, dtype=bool)
    for cell in cells:
        mask[cell] = True
    return mask


def _touching(cells: list[int], region: int, puzzle: PencilPuzzle, flat: BoolArray
              ) -> list[int]:
    """The literals "shaded" of the cells beside ``cells`` (flat) outside ``region``."""
    near = set()
    for cell in cells:
        r, c = divmod(cell, puzzle.cols)
        for rr, cc in around(r, c, puzzle.cells.shape):
            if puzzle.regions[rr, cc] != region:
                near.add(rr * puzzle.cols + cc)
    return [int(flat.ids[n]) for n in sorted(near)]


GENRE = Lits()
