"""Shapes: finite sets of grid cells in 2D or 3D, their orientations and canonical forms."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.symmetry import symmetry_group

EMPTY_MARKS = frozenset(" .")


def normalize(cells: np.ndarray) -> np.ndarray:
    """Translate so every axis starts at 0 and sort the cells lexicographically."""
    cells = cells - cells.min(axis=0)
    order = np.lexsort(cells.T[::-1])
    return cells[order]


class Shape:
    """An immutable set of cells, kept normalized (translated to the origin, sorted)."""

    __slots__ = ("cells", "_key")

    def __init__(self, cells: Iterable[Iterable[int]] | np.ndarray) -> None:
        arr = np.asarray(cells if isinstance(cells, np.ndarray) else list(cells), dtype=np.int64)
        if arr.ndim != 2 or len(arr) == 0:
            raise PuzzleError("a shape needs at least one cell")
        if len({tuple(c) for c in arr.tolist()}) != len(arr):
            raise PuzzleError("a shape lists the same cell twice")
        self.cells = normalize(arr)
        self.cells.setflags(write=False)
        self._key = tuple(map(tuple, self.cells.tolist()))

    @property
    def dim(self) -> int:
        return self.cells.shape[1]

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def extent(self) -> tuple[int, ...]:
        return tuple(int(x) + 1 for x in self.cells.max(axis=0))

    @property
    def key(self) -> tuple[tuple[int, ...], ...]:
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Shape({list(self._key)})"

    def lifted(self, dim: int) -> Shape:
        """The same cells in a higher dimension (a flat piece lying in the first layer)."""
        if dim == self.dim:
            return self
        pad = np.zeros((self.size, dim - self.dim), dtype=np.int64)
        return Shape(np.hstack([self.cells, pad]))

    def orientations(self, reflections: bool = True) -> list[Shape]:
        """The distinct images of this shape under the grid's rotations (and reflections)."""
        seen: dict[tuple, Shape] = {}
        for m in symmetry_group(self.dim, reflections):
            s = Shape(self.cells @ m.T)
            seen.setdefault(s.key, s)
        return list(seen.values())

    def canonical(self, reflections: bool = True) -> Shape:
        """The least orientation: two shapes are congruent iff their canonical forms match."""
        return min(self.orientations(reflections), key=lambda s: s.key)

    def is_connected(self) -> bool:
        cells = set(self._key)
        start = next(iter(cells))
        stack, seen = [start], {start}
        while stack:
            c = stack.pop()
            for axis in range(self.dim):
                for step in (-1, 1):
                    n = c[:axis] + (c[axis] + step,) + c[axis + 1 :]
                    if n in cells and n not in seen:
                        seen.add(n)
                        stack.append(n)
        return len(seen) == len(cells)

    def picture(self, mark: str = "#") -> str:
        """ASCII picture; 3D shapes as layers separated by a blank line."""
        ext = self.extent
        if self.dim == 2:
            grid = [["." for _ in range(ext[1])] for _ in range(ext[0])]
            for r, c in self._key:
                grid[r][c] = mark
            return "\n".join("".join(row) for row in grid)
        layers = []
        for z in range(ext[2]):
            grid = [["." for _ in range(ext[1])] for _ in range(ext[0])]
            for x, y, zz in self._key:
                if zz == z:
                    grid[x][y] = mark
            layers.append("\n".join("".join(row) for row in grid))
        return "\n\n".join(layers)


def picture_cells(text: str) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Parse an ASCII picture into (filled cells, empty cells) within its bounding box.

    Any character but space and ``.`` marks a cell. Layers of a 3D picture are separated by
    a blank line (or a line of dashes); cells are then ``(row, column, layer)``.
    """
    lines = text.strip("\n").split("\n")
    layers: list[list[str]] = [[]]
    for line in lines:
        if line.strip() == "" or set(line.strip()) == {"-"}:
            if layers[-1]:
                layers.append([])
        else:
            layers[-1].append(line.rstrip())
    layers = [layer for layer in layers if layer]
    if not layers:
        raise PuzzleError("the picture is empty")
    # Common indentation is not part of the picture.
    indent = min(len(line) - len(line.lstrip(" ")) for layer in layers for line in layer)
    layers = [[line[indent:] for line in layer] for layer in layers]
    rows = max(len(layer) for layer in layers)
    cols = max(len(line) for layer in layers for line in layer)
    filled, empty = [], []
    three_d = len(layers) > 1
    for z, layer in enumerate(layers):
        for r in range(rows):
            line = layer[r] if r < len(layer) else ""
            for c in range(cols):
                ch = line[c] if c < len(line) else " "
                cell = (r, c, z) if three_d else (r, c)
                (empty if ch in EMPTY_MARKS else filled).append(cell)
    return filled, empty


def parse_picture(text: str) -> Shape:
    """A shape from an ASCII picture (see :func:`picture_cells`)."""
    filled, _ = picture_cells(text)
    if not filled:
        raise PuzzleError("the picture has no cells (use '#' or letters for cells)")
    return Shape(filled)
