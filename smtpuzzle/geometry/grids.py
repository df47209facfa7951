r"""The grids cells live on: square (2D and 3D), triangular and hexagonal, and the edges
of the three flat ones (the cells of edge polyforms: polysticks, polytrigs, polytwigs).

Every grid numbers its cells by integer ``(row, column)`` (``(row, column, layer)`` in 3D)
where a cell's coordinates are its line and column in a picture of it:

- square: every point is a cell;
- triangle: every point is a triangle, pointing up when ``row + column`` is even (its
  neighbours in the row point the other way; an up triangle's base touches the row below);
- hexagon: the points with ``row + column`` even are hexagons, drawn on alternate columns
  (``# # #`` over `` # #``); a hexagon touches the two beside it in its row (two columns
  away) and two in each neighbouring row (one column away).

An edge grid's cells are the midpoints of the edges, in a picture where the vertices are
points too (see ``edges.py`` for the pictures):

- square-edges: vertices at (even, even), edges between them at ``row + column`` odd
  (``+-+`` over ``| |``);
- triangle-edges: the triangular lattice's vertices at even rows and columns 4 apart,
  shifted by 2 on alternate rows (``*---*`` over `` \ / `` over ``  *``); the edges'
  midpoints are the other points with ``row + column`` even;
- hexagon-edges: the same midpoints, each the edge of the hexagon grid that crosses the
  triangle edge there at right angles (hexagons centred on the triangles' vertices).

Rotations and reflections act linearly on *lattice* coordinates, which each grid converts
to and from: the identity for squares (and the doubled coordinates of square-edges); for
hexagons the axial coordinates of their centres (doubled axial coordinates for the
triangle and hexagon edges); for triangles three times their centroid (a sum of three
lattice vertices). Translations are the grid's own (on the triangle and hexagon grids
those keep ``row + column`` even; on an edge grid they move vertices onto vertices), so a
shape's canonical position is its least translate.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.symmetry import signed_permutations

CELL_GRIDS = ("square", "triangle", "hexagon")
EDGE_GRIDS = ("square-edges", "triangle-edges", "hexagon-edges")
GRIDS = CELL_GRIDS + EDGE_GRIDS
# The unit steps of the triangular lattice in axial coordinates, turning by 60 degrees.
UNITS = np.array([(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)])

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
    def edges(self) -> bool:
        """Whether the cells are the edges of a grid (edge polyforms)."""
        return self.name in EDGE_GRIDS

    @property
    def parity(self) -> bool:
        """Whether some points are no cells (hexagons, and every edge grid)."""
        return self.name == "hexagon" or self.edges

    def _pattern(self) -> np.ndarray:
        """Which points are cells, by (row mod 4, column mod 4)."""
        r, c = np.indices((4, 4))
        if self.name == "hexagon":
            return (r + c) % 2 == 0
        if self.name == "square-edges":
            return (r + c) % 2 == 1
        if self.edges:  # row + column even, less the vertices
            return ((r + c) % 2 == 0) & ~((r % 2 == 0) & ((c - r) % 4 == 0))
        return np.ones((4, 4), dtype=bool)

    def is_cell(self, cells: np.ndarray) -> np.ndarray:
        """Which points (rows of ``cells``) are cells of this grid."""
        cells = np.asarray(cells)
        if not self.parity:
            return np.ones(cells.shape[:-1], dtype=bool)
        return self._pattern()[cells[..., 0] % 4, cells[..., 1] % 4]

    def cells_in_box(self, dims: tuple[int, ...]) -> int:
        """How many cells a box of ``dims`` (from the origin) holds."""
        if not self.parity:
            return int(np.prod(dims))
        pattern = self._pattern()
        rows = [len(range(a, dims[0], pattern.shape[0])) for a in range(pattern.shape[0])]
        cols = [len(range(b, dims[1], pattern.shape[1])) for b in range(pattern.shape[1])]
        return int(np.asarray(rows) @ pattern.astype(np.int64) @ np.asarray(cols))

    def box_points(self, dims: tuple[int, ...]) -> np.ndarray:
        """The grid's cells in a box of ``dims``, row-major, as (n, dim)."""
        points = np.indices(dims).reshape(len(dims), -1).T
        return points[self.is_cell(points)]

    def off_grid_reason(self, cell: tuple[int, ...]) -> str | None:
        """Why a point is no cell of this grid, or None."""
        if len(cell) != self.dim:
            return f"a cell of the {self.name} grid has {self.dim} coordinates, not {len(cell)}"
        if self.is_cell(np.array(cell)):
            return None
        if self.name == "hexagon":
            return (f"{list(cell)} is not a cell of the hexagon grid (hexagons are at row + "
                    "column even)")
        if self.name == "square-edges":
            return (f"{list(cell)} is no edge of the square-edges grid (edges are at row + "
                    "column odd; vertices at even row and column)")
        kind = "a vertex" if (cell[0] + cell[1]) % 2 == 0 else "between vertices"
        return (f"{list(cell)} is no edge of the {self.name} grid ({kind}: edge midpoints are "
                "at row + column even, vertices at even rows and columns 4 apart)")

    # -- translations ----------------------------------------------------------------------

    def is_translation(self, steps: np.ndarray) -> np.ndarray:
        """Which rows of ``steps`` are translations of the grid (map cells onto cells, and
        on an edge grid vertices onto vertices)."""
        steps = np.asarray(steps)
        if self.name == "square":
            return np.ones(steps.shape[:-1], dtype=bool)
        r, c = steps[..., 0], steps[..., 1]
        if self.name == "square-edges":
            return (r % 2 == 0) & (c % 2 == 0)
        if self.edges:
            return (r % 2 == 0) & ((c - r) % 4 == 0)
        return (r + c) % 2 == 0

    def shifts(self, room: tuple[int, ...], start: np.ndarray | None = None) -> np.ndarray:
        """The ``t`` with ``0 <= t < room`` such that ``start + t`` is a translation of the
        grid, as (n, dim)."""
        pos = np.indices(room).reshape(len(room), -1).T
        if self.name == "square":
            return pos
        return pos[self.is_translation(pos if start is None else pos + np.asarray(start))]

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """The translation that moves ``cells`` to their canonical place: the greatest
        translation of the grid at or before their least row, then least column."""
        low = cells.min(axis=0).copy()
        if self.name == "square":
            return low
        if self.name == "square-edges":
            return low - low % 2
        if self.edges:
            low[0] -= low[0] % 2
            low[1] -= (low[1] - low[0]) % 4
        elif (low[0] + low[1]) % 2:
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
        if self.name in ("square", "square-edges"):
            return cells @ self._group[k].T
        return self.from_lattice(self.to_lattice(cells) @ self._group[k].T)

    def to_lattice(self, cells: np.ndarray) -> np.ndarray:
        """Lattice coordinates of points (rows of ``cells``; the triangle and hexagon grids,
        and their edges: doubled axial coordinates there)."""
        r, c = cells[..., 0], cells[..., 1]
        if self.name == "hexagon" or self.edges:
            return np.stack([(c - r) // 2, r], axis=-1)
        up = ((r + c) % 2 == 0).astype(np.int64)
        i = (c - r - 1 - up) // 2
        return np.stack([3 * i + 1 + up, 3 * r + 1 + up], axis=-1)

    def from_lattice(self, points: np.ndarray) -> np.ndarray:
        """The points of lattice coordinates (the inverse of :meth:`to_lattice`)."""
        x, y = points[..., 0], points[..., 1]
        if self.name == "hexagon" or self.edges:
            return np.stack([y, 2 * x + y], axis=-1)
        up = (x % 3 == 2).astype(np.int64)
        r, i = (y - 1 - up) // 3, (x - 1 - up) // 3
        return np.stack([r, 2 * i + r + 1 + up], axis=-1)

    def describe(self, k: int) -> str:
        """``identity``, ``rotation 90``, ``reflection``... for ``group[k]``."""
        if k >= self.rotations():
            return "reflection"
        if k == 0:
            return "identity"
        if self.name not in ("square", "square-edges"):
            return f"rotation {60 * k}"
        if self.dim == 3:
            return "rotation"
        v = self._group[k] @ np.array([0, 1])  # where the column axis goes, on (row, col)
        return "rotation " + str({(1, 0): 90, (0, -1): 180, (-1, 0): 270}[(int(v[0]),
                                                                           int(v[1]))])

    # -- neighbours ------------------------------------------------------------------------

    def neighbours(self, cells: np.ndarray) -> np.ndarray:
        """The cells sharing an edge (a face in 3D; a vertex on an edge grid) with each
        cell: (n, degree, dim)."""
        cells = np.asarray(cells)
        if self.edges:
            return self._edge_neighbours(cells)
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

    def _edge_neighbours(self, cells: np.ndarray) -> np.ndarray:
        """The edges that share a vertex with each edge."""
        if self.name == "square-edges":
            along = np.where((cells[:, 0] % 2 == 0)[:, None], [[0, 2]], [[2, 0]])
            steps = np.stack([along, -along] + [np.broadcast_to(d, along.shape) for d in
                                                ((1, 1), (1, -1), (-1, 1), (-1, -1))], axis=1)
            return cells[:, None, :] + steps
        m = self.to_lattice(cells)  # doubled axial coordinates
        if self.name == "hexagon-edges":  # the four unit steps that land on a midpoint
            near = m[:, None, :] + UNITS[None]
            keep = ((near % 2) != 0).any(axis=2)
            return self.from_lattice(near[keep].reshape(len(m), 4, 2))
        ends = edge_ends_lattice(m)  # (n, 2, 2): the edge's two vertices, doubled
        u = (ends[:, 1] - ends[:, 0]) // 2
        out = []
        for end, away in ((ends[:, 0], u), (ends[:, 1], -u)):
            near = end[:, None, :] + UNITS[None]  # the six edges at this vertex
            keep = (UNITS[None, :, :] != away[:, None, :]).any(axis=2)
            out.append(near[keep].reshape(len(m), 5, 2))
        return self.from_lattice(np.concatenate(out, axis=1))

    def touching(self, cells: np.ndarray) -> np.ndarray:
        """The cells sharing at least a corner with each cell: (n, k, dim)."""
        cells = np.asarray(cells)
        if self.edges:
            return self.neighbours(cells)
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


def edge_ends_lattice(m: np.ndarray) -> np.ndarray:
    """The two vertices of each triangle-grid edge, its midpoint ``m`` in doubled axial
    coordinates: ``m = 2p + u`` with u the unit step whose parities m has; (n, 2, 2)."""
    odd = m % 2
    u = np.where((odd == (1, 1)).all(axis=-1)[..., None], np.array([-1, 1]), odd)
    return np.stack([m - u, m + u], axis=-2)


@cache
def grid(name: str = "square", dim: int = 2) -> Grid:
    """The grid called ``name`` (``square`` in 2 or 3 dimensions, ``triangle``,
    ``hexagon``, and their edges: ``square-edges``, ``triangle-edges``,
    ``hexagon-edges``)."""
    if name not in GRIDS:
        raise PuzzleError(f"unknown grid {name!r} (known: {', '.join(GRIDS)})")
    if name == "square":
        if dim not in (2, 3):
            raise PuzzleError(f"the square grid has 2 or 3 dimensions, not {dim}")
        return Grid(name, dim, signed_permutations(dim))
    if dim != 2:
        raise PuzzleError(f"the {name} grid is flat: its cells have 2 coordinates")
    if name == "square-edges":
        return Grid(name, 2, signed_permutations(2))
    return Grid(name, 2, _hex_lattice_group())
