"""A Sudoku and its model: a textbook one, written with the public modelling API only.

The grid has n^2 x n^2 cells for n = 2..5; each cell an integer 1..n^2; every row, column
and n x n box all different; the givens fixed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.model import AllDifferent, IntArray, Model


@dataclass
class Sudoku:
    givens: np.ndarray  # (N, N) ints, 0 for a blank
    name: str = "sudoku"
    family = "sudoku"

    def __post_init__(self) -> None:
        givens = np.asarray(self.givens)
        size = len(givens) if givens.ndim else 0
        box = int(round(size ** 0.5))
        if givens.shape != (size, size) or box * box != size or size == 0:
            raise PuzzleError(f"{self.name}: a Sudoku is an N x N grid with N a square "
                              f"(4, 9, 16...), not of shape {givens.shape}")
        if givens.dtype.kind not in "iu" or givens.min() < 0 or givens.max() > size:
            raise PuzzleError(f"{self.name}: givens are whole numbers 1..{size} (0 for a "
                              "blank)")
        self.givens = givens.astype(np.int64)

    @property
    def box(self) -> int:
        return int(round(len(self.givens) ** 0.5))

    def build(self, named: bool = False) -> tuple[Model, IntArray]:
        """The model and its cells; ``named``: each given a named group of its own
        (``r1c2=5``), for Model.explain."""
        n, size = self.box, len(self.givens)
        m = Model(self.name)
        x = m.int_array((size, size), 1, size, name="cell")
        boxes = x.reshape(n, n, n, n).transpose(0, 2, 1, 3).reshape(size, size)
        m.add(AllDifferent(x, axis=1), AllDifferent(x, axis=0), AllDifferent(boxes, axis=1))
        given = self.givens > 0
        if not named:
            m.add(x[given] == self.givens[given])
            return m, x
        for r, c in zip(*np.nonzero(given), strict=True):
            m.add(x[r, c] == self.givens[r, c], name=f"r{r + 1}c{c + 1}={self.givens[r, c]}")
        return m, x

    def build_model(self, encoding: str | None = None) -> Model:
        return self.build()[0]

    def verify(self, grid: np.ndarray) -> None:
        """Raise unless ``grid`` fills the puzzle by the rules (independent of any model)."""
        n, size = self.box, len(self.givens)
        grid = np.asarray(grid)
        if grid.shape != (size, size):
            raise VerificationError(f"{self.name}: a grid of shape {grid.shape}, not "
                                    f"{size}x{size}")
        full = np.arange(1, size + 1)
        boxes = grid.reshape(n, n, n, n).transpose(0, 2, 1, 3).reshape(size, size)
        for what, lines in (("row", grid), ("column", grid.T), ("box", boxes)):
            for i, line in enumerate(lines):
                if not np.array_equal(np.sort(line), full):
                    raise VerificationError(f"{self.name}: {what} {i + 1} is not 1..{size}")
        given = self.givens > 0
        if not np.array_equal(grid[given], self.givens[given]):
            raise VerificationError(f"{self.name}: a given was changed")
