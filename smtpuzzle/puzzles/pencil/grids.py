"""What the genres share: the grid's neighbour pairs and its loops for their models (built
with the public modelling API), and plain grid walks for their verifiers (which never look
at a model)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from smtpuzzle.model import BoolArray, Model, grid_graph
from smtpuzzle.puzzles.pencil.puzzle import UNKNOWN

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # up, down, left, right


# -- models ---------------------------------------------------------------------------------

def shaded_tokens(values: np.ndarray, shape: tuple[int, int], on: str = "x",
                  off: str = "-") -> np.ndarray:
    """Booleans (None where unknown) as a grid of ``on`` / ``off`` / ``?`` tokens."""
    flat = np.asarray(values, dtype=object).reshape(shape)
    out = np.full(shape, UNKNOWN, dtype=object)
    out[flat == True] = on  # noqa: E712  elementwise on an object array
    out[flat == False] = off  # noqa: E712
    return out


def no_square(m: Model, s: BoolArray) -> None:
    """No 2x2 block of cells all in ``s`` (a rows x cols array)."""
    m.add(s[:-1, :-1] + s[1:, :-1] + s[:-1, 1:] + s[1:, 1:] <= 3)


def adjacent(rows: int, cols: int) -> np.ndarray:
    """The (E, 2) pairs of flat cell indices that share a side."""
    return grid_graph(rows, cols).edges


class CellLinks:
    """A path or loop through cell centres: a boolean per pair of neighbouring cells (the
    edges of ``grid_graph``) and one more, always false, that stands for the outside, so
    that ``left``, ``right``, ``up``, ``down`` (each a rows x cols BoolArray: whether the
    path leaves the cell that way) are plain index arrays."""

    def __init__(self, m: Model, rows: int, cols: int, name: str = "link") -> None:
        self.graph = grid_graph(rows, cols)
        e = len(self.graph.edges)
        self.all = m.bool_array(e + 1, name=name)
        m.add(~self.all[e])
        self.link = self.all[:e]
        across = np.full((rows, cols + 1), e)
        across[:, 1:cols] = np.arange(rows * (cols - 1)).reshape(rows, cols - 1)
        down = np.full((rows + 1, cols), e)
        down[1:rows] = rows * (cols - 1) + np.arange((rows - 1) * cols).reshape(rows - 1, cols)
        self.index = {"left": across[:, :-1], "right": across[:, 1:], "up": down[:-1],
                      "down": down[1:]}
        self.left, self.right = self.all[self.index["left"]], self.all[self.index["right"]]
        self.up, self.down = self.all[self.index["up"]], self.all[self.index["down"]]

    def degree(self):  # noqa: ANN201  a LinExpr, rows x cols
        return self.left + self.right + self.up + self.down

    def directions(self, values: np.ndarray) -> np.ndarray:
        """For each cell, the set of directions the path leaves it by ("up", ...), from the
        links' values (None where unknown)."""
        vals = np.append(np.asarray(values, dtype=object), False)
        rows, cols = self.index["left"].shape
        out = np.empty((rows, cols), dtype=object)
        for (r, c), _ in np.ndenumerate(out):
            got = {d: vals[self.index[d][r, c]] for d in self.index}
            out[r, c] = None if any(v is None for v in got.values()) else \
                {d for d, v in got.items() if v}
        return out


# -- verifiers ------------------------------------------------------------------------------

def inside(r: int, c: int, shape: tuple[int, ...]) -> bool:
    return 0 <= r < shape[0] and 0 <= c < shape[1]


def around(r: int, c: int, shape: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """The cells sharing a side with (r, c)."""
    for dr, dc in STEPS:
        if inside(r + dr, c + dc, shape):
            yield r + dr, c + dc


def components(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """The pieces of the cells where ``mask`` holds, joined through shared sides."""
    seen = np.zeros(mask.shape, dtype=bool)
    pieces = []
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        seen[start] = True
        piece, todo = [], [start]
        while todo:
            cell = todo.pop()
            piece.append((int(cell[0]), int(cell[1])))
            for nb in around(*cell, mask.shape):
                if mask[nb] and not seen[nb]:
                    seen[nb] = True
                    todo.append(nb)
        pieces.append(piece)
    return pieces


def any_square(mask: np.ndarray) -> tuple[int, int] | None:
    """The top-left cell of a 2x2 block all in ``mask``, or None."""
    block = mask[:-1, :-1] & mask[1:, :-1] & mask[:-1, 1:] & mask[1:, 1:]
    hits = np.argwhere(block)
    return (int(hits[0][0]), int(hits[0][1])) if len(hits) else None
