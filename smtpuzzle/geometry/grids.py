"""The grids cells live on: square (2D and 3D), triangular and hexagonal.

Every grid numbers its cells by integer ``(row, column)`` (``(row, column, layer)`` in 3D)
where a cell's coordinates are its line and column in a picture of it:

- square: every point is a cell;
- triangle: every point is a triangle, pointing up when ``row + column`` is even (its
  neighbours in the row point the other way; an up triangle's base touches the row below);
- hexagon: the points with ``row + column`` even are hexagons, drawn on alternate columns
  (``# # #`` over `` # #``); a hexagon touches the two beside it in its row (two columns
  away) and two in each neighbouring row (one column away).

Rotations and reflections act linearly on *lattice* coordinates, which each grid converts
to and from: the identity for squares; for hexagons the axial coordinates of their centres;
for triangles three times their centroid (a sum of three lattice vertices). Translations are
the grid's own (on the triangle and hexagon grids those keep ``row + column`` even), so a
shape's canonical position is its least translate.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.symmetry import signed_permutations

GRIDS = ("square", "triangle", "hexagon")

# A turn by 60 degrees and a mirror of the triangular lattice, in axial coordinates (the
# basis: one step along a row, one step down-right).
_TURN = np.array([[0, -1], [1, 1]])
_MIRROR = np.array([[0, 1], [1, 0]])


@cache
def _hex_lattice_group() -> np.ndarray:
    """The 12 symmetries of the triangular lattice: 6 rotations first (identity first),
    then 6 reflections."""
    turns = [np.linalg.matrix_power(_TURN, k) for k in range(6)]
    return np.stack(turns + [t @ _MIRROR for t in turns])


@dataclass(frozen=True)
class Grid:
    """One grid: its cells, neighbours, translations and symmetries."""

    name: str
    dim: int
    _group: np.ndarray = field(repr=False, compare=False, hash=False)

    # -- cells -----------------------------------------------------------------------------

    @property
    def parity(self) -> bool:
        """Whether only points with ``row + column`` even are cells (hexagons)."""
        return self.name == "hexagon"

    def is_cell(self, cells: np.ndarray) -> np.ndarray:
        """Which points (rows of ``cells``) are cells of this grid."""
        cells = np.asarray(cells)
        if self.parity:
            return (cells[..., 0] + cells[..., 1]) % 2 == 0
        return np.ones(cells.shape[:-1], dtype=bool)

    def cells_in_box(self, dims: tuple[int, ...]) -> int:
        """How many cells a box of ``dims`` (from the origin) holds."""
        total = int(np.prod(dims))
        if not self.parity:
            return total
        rows, cols = dims
        return ((rows + 1) // 2) * ((cols + 1) // 2) + (rows // 2) * (cols // 2)

    def box_points(self, dims: tuple[int, ...]) -> np.ndarray:
        """The grid's cells in a box of ``dims``, row-major, as (n, dim)."""
        points = np.indices(dims).reshape(len(dims), -1).T
        return points[self.is_cell(points)]

    def off_grid_reason(self, cell: tuple[int, ...]) -> str | None:
        """Why a point is no cell of this grid, or None."""
        if len(cell) != self.dim:
            return f"a cell of the {self.name} grid has {self.dim} coordinates, not {len(cell)}"
        if self.parity and (cell[0] + cell[1]) % 2:
            return (f"{list(cell)} is not a cell of the hexagon grid (hexagons are at row + "
                    "column even)")
        return None

    # -- translations ----------------------------------------------------------------------

    def shifts(self, room: tuple[int, ...], start: np.ndarray | None = None) -> np.ndarray:
        """The ``t`` with ``0 <= t < room`` such that ``start + t`` maps cells onto cells,
        as (n, dim)."""
        pos = np.indices(room).reshape(len(room), -1).T
        if self.name == "square":
            return pos
        first = 0 if start is None else int(start[0] + start[1])
        return pos[(pos[:, 0] + pos[:, 1] + first) % 2 == 0]

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """The translation that moves ``cells`` to their canonical place: the least row
        and column at 0, or at column 1 where the grid's parity forbids column 0."""
        low = cells.min(axis=0)
        if self.name != "square" and (low[0] + low[1]) % 2:
            low = low.copy()
            low[1] -= 1
        return low

    # -- symmetry --------------------------------------------------------------------------

    @property
    def group(self) -> np.ndarray:
        """The grid's rotations and reflections (rotations first, identity first), as
        matrices on lattice coordinates."""
        return self._group

    def rotations(self) -> int:
        """How many of ``group`` are rotations (they come first)."""
        return len(self._group) // 2

    def transform(self, cells: np.ndarray, k: int) -> np.ndarray:
        """The image of ``cells`` under ``group[k]`` (not translated back to the origin)."""
        if self.name == "square":
            return cells @ self._group[k].T
        return self._from_lattice(self._to_lattice(cells) @ self._group[k].T)

    def _to_lattice(self, cells: np.ndarray) -> np.ndarray:
        r, c = cells[:, 0], cells[:, 1]
        if self.name == "hexagon":
            return np.stack([(c - r) // 2, r], axis=1)
        up = ((r + c) % 2 == 0).astype(np.int64)
        i = (c - r - 1 - up) // 2
        return np.stack([3 * i + 1 + up, 3 * r + 1 + up], axis=1)

    def _from_lattice(self, points: np.ndarray) -> np.ndarray:
        x, y = points[:, 0], points[:, 1]
        if self.name == "hexagon":
            return np.stack([y, 2 * x + y], axis=1)
        up = (x % 3 == 2).astype(np.int64)
        r, i = (y - 1 - up) // 3, (x - 1 - up) // 3
        return np.stack([r, 2 * i + r + 1 + up], axis=1)

    def describe(self, k: int) -> str:
        """``identity``, ``rotation 90``, ``reflection``... for ``group[k]``."""
        if k >= self.rotations():
            return "reflection"
        if k == 0:
            return "identity"
        if self.name != "square":
            return f"rotation {60 * k}"
        if self.dim == 3:
            return "rotation"
        v = self._group[k] @ np.array([0, 1])  # where the column axis goes, on (row, col)
        return "rotation " + str({(1, 0): 90, (0, -1): 180, (-1, 0): 270}[(int(v[0]),
                                                                           int(v[1]))])

    # -- neighbours ------------------------------------------------------------------------

    def neighbours(self, cells: np.ndarray) -> np.ndarray:
        """The cells sharing an edge (a face in 3D) with each cell: (n, degree, dim)."""
        cells = np.asarray(cells)
        if self.name == "square":
            steps = np.concatenate([np.eye(self.dim, dtype=np.int64),
                                    -np.eye(self.dim, dtype=np.int64)])
            return cells[:, None, :] + steps[None]
        if self.name == "hexagon":
            steps = np.array([(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)])
            return cells[:, None, :] + steps[None]
        up = (cells[:, 0] + cells[:, 1]) % 2 == 0
        vertical = np.where(up, 1, -1)  # an up triangle's base is on the row below
        out = np.repeat(cells[:, None, :], 3, axis=1)
        out[:, 0, 1] += 1
        out[:, 1, 1] -= 1
        out[:, 2, 0] += vertical
        return out

    def touching(self, cells: np.ndarray) -> np.ndarray:
        """The cells sharing at least a corner with each cell: (n, k, dim)."""
        cells = np.asarray(cells)
        if self.name == "square":
            steps = np.array([d for d in itertools.product((-1, 0, 1), repeat=self.dim)
                              if any(d)])
            return cells[:, None, :] + steps[None]
        if self.name == "hexagon":
            return self.neighbours(cells)
        # A triangle touches 12 others: 4 in its own row, 5 in the row its base is on and
        # 3 in the row beyond its apex; listed for an up triangle, mirrored for down ones.
        up_steps = np.array([(0, -2), (0, -1), (0, 1), (0, 2),
                             (1, -2), (1, -1), (1, 0), (1, 1), (1, 2),
                             (-1, -1), (-1, 0), (-1, 1)])
        up = (cells[:, 0] + cells[:, 1]) % 2 == 0
        steps = np.repeat(up_steps[None], len(cells), axis=0)
        steps[~up, :, 0] *= -1
        return cells[:, None, :] + steps


@cache
def grid(name: str = "square", dim: int = 2) -> Grid:
    """The grid called ``name`` (``square`` in 2 or 3 dimensions, ``triangle``,
    ``hexagon``)."""
    if name not in GRIDS:
        raise PuzzleError(f"unknown grid {name!r} (known: {', '.join(GRIDS)})")
    if name == "square":
        if dim not in (2, 3):
            raise PuzzleError(f"the square grid has 2 or 3 dimensions, not {dim}")
        return Grid(name, dim, signed_permutations(dim))
    if dim != 2:
        raise PuzzleError(f"the {name} grid is flat: its cells have 2 coordinates")
    return Grid(name, 2, _hex_lattice_group())
