"""Boards of the triangle and hexagon grids by shape and size: parallelogram (rhombus),
trapezoid, triangle and hexagon.

Each is defined on the lattice as Polyform Puzzler defines it (its x runs along a row, its y
down the rows at 60 degrees, a triangle's z is 0 for the one below-left of the lattice point
pair and 1 for the other), then put in the grid's coordinates and moved to the origin.
"""

from __future__ import annotations

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.grids import grid
from smtpuzzle.runtime.memory import check_fits_in_memory

BYTES_PER_POINT = 100  # the lattice box and the board's arrays (measured: 680 MB peak for the
# 8,000,000 lattice points of a triangle-grid hexagon of side 1,000)

SHAPES = ("parallelogram", "trapezoid", "triangle", "hexagon")
_SIZES = {  # what ``size`` is for each shape, in words
    "parallelogram": "[rows, cells per row] (a rhombus when equal; on triangles, "
                     "[rows, rhombi per row])",
    "trapezoid": "[rows, length of the longer side]",
    "triangle": "the side, a whole number",
    "hexagon": "the side, a whole number",
}


def _lattice(shape: str, size: tuple[int, ...], triangles: bool) -> np.ndarray:
    """The shape's cells as lattice (x, y, z) (z = 0 on the hexagon grid)."""
    def box(width: int, rows: int) -> np.ndarray:
        # the box the shape is cut from, then the board's arrays: about BYTES_PER_POINT
        # each, refused at once where that cannot fit
        points = width * rows * (2 if triangles else 1)
        given = list(size) if len(size) > 1 else size[0]
        check_fits_in_memory(points * BYTES_PER_POINT,
                             f"a {shape} board of size {given} ({points:,} lattice points)")
        y, x, z = np.meshgrid(np.arange(rows), np.arange(width),
                              np.arange(2 if triangles else 1), indexing="ij")
        return np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)

    if shape == "parallelogram":
        rows, width = size
        return box(width, rows)
    if shape in ("trapezoid", "triangle"):
        rows, base = size if shape == "trapezoid" else (size[0], size[0])
        if rows > base:
            raise PuzzleError(f"a trapezoid of {rows} rows needs a longer side of at least "
                              f"{rows}, not {base}")
        cells = box(base, rows)
        return cells[cells.sum(axis=1) <= base - 1]
    n = size[0]
    if triangles:
        cells = box(2 * n, 2 * n)
        total = cells.sum(axis=1)
        return cells[(n <= total) & (total <= 3 * n - 1)]
    cells = box(2 * n - 1, 2 * n - 1)
    total = cells.sum(axis=1)
    return cells[(n - 1 <= total) & (total <= 3 * n - 3)]


def shaped_cells(grid_name: str, shape: str, size: list[int] | int) -> np.ndarray:
    """The cells of a board of ``shape`` and ``size`` on the triangle or hexagon grid, in
    the grid's coordinates, moved to the origin, as (cells, 2)."""
    if grid_name not in ("triangle", "hexagon"):
        raise PuzzleError(f"shape = {shape!r} is for the triangle and hexagon grids (a "
                          "square-grid board is size = [rows, columns], a picture or cells)")
    if shape not in SHAPES:
        raise PuzzleError(f"unknown board shape {shape!r} (known: {', '.join(SHAPES)})")
    sizes = [size] if isinstance(size, int) and not isinstance(size, bool) else size
    want = 2 if shape in ("parallelogram", "trapezoid") else 1
    if not isinstance(sizes, list) or len(sizes) != want or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in sizes):
        raise PuzzleError(f"a {shape}'s size is {_SIZES[shape]}, got {size!r}")
    cells = _lattice(shape, tuple(sizes), grid_name == "triangle")
    x, y, z = cells.T
    rc = np.stack([-y, 2 * x + y + (z if grid_name == "triangle" else 0)], axis=1)
    return rc - grid(grid_name).origin_shift(rc)
