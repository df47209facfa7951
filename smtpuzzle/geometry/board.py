"""Boards: the cells a tiling must fill, on any grid, with holes, possibly wrapping round."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cached_property

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.grids import Grid, grid
from smtpuzzle.geometry.shapes import grid_picture_cells
from smtpuzzle.memory import check_fits_in_memory

WRAPS = ("rows", "columns")


class Board:
    """The cells of a grid inside a box of size ``dims``, less ``holes``; cells are
    numbered row-major.

    ``wrap`` glues opposite sides of the box (square grid): ``"rows"`` makes the last row a
    neighbour of the first, ``"columns"`` the last column of the first; both make a torus.

    Only the size and the holes are kept at first: the cell arrays (``mask``, ``cells``,
    ``index``) are built on first use, so that what needs no board (the area, checked
    against the pieces' before any search) is answered at once for any size."""

    def __init__(self, dims: Iterable[int], holes: Iterable[Iterable[int]] = (),
                 on: Grid | str = "square", wrap: Iterable[str] = ()) -> None:
        given = dims if isinstance(dims, str) else list(dims)
        if isinstance(given, str) or not all(
                isinstance(d, int | np.integer) and not isinstance(d, bool) for d in given):
            raise PuzzleError(f"a board size is 2 or 3 whole numbers, got {given!r}")
        self.dims = tuple(int(d) for d in given)
        if len(self.dims) not in (2, 3) or min(self.dims) < 1:
            raise PuzzleError(f"a board size needs 2 or 3 positive numbers, got {list(self.dims)}")
        self.grid = grid(on, len(self.dims)) if isinstance(on, str) else on
        if self.grid.dim != len(self.dims):
            raise PuzzleError(f"a board of the {self.grid.name} grid has {self.grid.dim} "
                              f"sizes, not {len(self.dims)}")
        self.wrap = tuple(sorted(set(wrap)))
        bad = [w for w in self.wrap if w not in WRAPS]
        if bad:
            raise PuzzleError(f"wrap: {bad[0]!r} is neither 'rows' nor 'columns'")
        if self.wrap and self.grid.name != "square":
            raise PuzzleError(f"wrap: boards of the {self.grid.name} grid do not wrap round "
                              "(square grid only)")
        kept: set[tuple[int, ...]] = set()
        for hole in holes:
            hole = tuple(int(x) for x in hole)
            if len(hole) != len(self.dims):
                many = "coordinate" if len(hole) == 1 else "coordinates"
                raise PuzzleError(f"hole {list(hole)} has {len(hole)} {many}; the board has "
                                  f"{len(self.dims)}")
            if not all(
                0 <= h < d for h, d in zip(hole, self.dims, strict=True)
            ):
                raise PuzzleError(f"hole {list(hole)} is outside the {self.size_text} board")
            why = self.grid.off_grid_reason(hole)
            if why:
                raise PuzzleError(f"hole: {why}")
            kept.add(hole)
        self._holes = sorted(kept)

    @classmethod
    def from_picture(cls, text: str, on: Grid | str = "square",
                     wrap: Iterable[str] = ()) -> Board:
        """A board drawn in ASCII: marks are cells, ``.`` and spaces are holes."""
        on = grid(on) if isinstance(on, str) else on
        filled, empty = grid_picture_cells(text, on)
        if not filled:
            raise PuzzleError("the board picture has no cells")
        dims = tuple(max(c[i] for c in filled + empty) + 1 for i in range(len(filled[0])))
        return cls(dims, holes=empty, on=grid(on.name, len(dims)), wrap=wrap)

    @classmethod
    def from_cells(cls, cells: Iterable[Iterable[int]], on: Grid | str = "square",
                   wrap: Iterable[str] = ()) -> Board:
        """A board of exactly ``cells`` (coordinates from 0; the box is their extent)."""
        pts = [tuple(int(x) for x in c) for c in cells]
        if not pts:
            raise PuzzleError("the board has no cells")
        if len({len(p) for p in pts}) != 1:
            raise PuzzleError("board cells must all have the same number of coordinates")
        on = grid(on, len(pts[0])) if isinstance(on, str) else on
        for p in pts:
            why = on.off_grid_reason(p)
            if why:
                raise PuzzleError(f"cell {list(p)}: {why}")
            if min(p) < 0:
                raise PuzzleError(f"cell {list(p)} has a negative coordinate (they start at 0)")
        if len(set(pts)) != len(pts):
            dup = next(p for p in pts if pts.count(p) > 1)
            raise PuzzleError(f"cell {list(dup)} is listed twice")
        dims = tuple(max(p[i] for p in pts) + 1 for i in range(len(pts[0])))
        inside = set(pts)
        holes = [tuple(p) for p in on.box_points(dims).tolist() if tuple(p) not in inside]
        return cls(dims, holes, on, wrap)

    def reshaped(self, holes: Iterable[Iterable[int]]) -> Board:
        """The same box, grid and wrap with other ``holes``."""
        return Board(self.dims, holes, self.grid, self.wrap)

    def drilled(self, holes: Iterable[Iterable[int]]) -> Board:
        """The board with ``holes`` made in it, each one of its cells, each once (a hole
        that is no cell is a typo, not a no-op)."""
        had = set(self._holes)
        new: list[tuple[int, ...]] = []
        for hole in holes:
            hole = tuple(int(x) for x in hole)
            if hole in new:
                raise PuzzleError(f"hole {list(hole)} is listed twice")
            new.append(hole)
        board = self.reshaped(self._holes + new)  # checks each is in the box and on the grid
        gone = next((h for h in new if h in had), None)
        if gone is not None:
            raise PuzzleError(f"hole {list(gone)} is not a cell of the board")
        return board

    @property
    def box_size(self) -> int:
        """Points of the bounding box, holes (and, on the hexagon grid, the points between
        cells) included."""
        return int(np.prod(self.dims))

    @property
    def num_cells(self) -> int:
        return self.grid.cells_in_box(self.dims) - len(self._holes)

    @cached_property
    def mask(self) -> np.ndarray:
        """True on the board's cells, False on holes and points that are no cells
        (read-only)."""
        # The mask (1 byte a cell), the index (8) and the cells' coordinates (8 per axis).
        check_fits_in_memory(self.box_size * (9 + 8 * self.dim),
                             f"the {self.size_text} board's cell arrays")
        mask = np.ones(self.dims, dtype=bool)
        if self.grid.parity:
            mask &= self.grid.is_cell(np.moveaxis(np.indices(self.dims), 0, -1))
        if self._holes:
            mask[tuple(np.array(self._holes).T)] = False
        mask.setflags(write=False)
        return mask

    @cached_property
    def cells(self) -> np.ndarray:
        """The cells' coordinates, (n, dim), in row-major order."""
        return np.argwhere(self.mask)

    @cached_property
    def index(self) -> np.ndarray:
        """Each box point's cell number, -1 off the board (read-only)."""
        index = np.full(self.dims, -1, dtype=np.int64)
        index[self.mask] = np.arange(len(self.cells))
        index.setflags(write=False)
        return index

    @property
    def dim(self) -> int:
        return len(self.dims)

    @property
    def wrapped_axes(self) -> list[int]:
        return [WRAPS.index(w) for w in self.wrap]

    @property
    def size_text(self) -> str:
        return "x".join(map(str, self.dims))

    @property
    def plain(self) -> bool:
        """A square-grid board that does not wrap (what the corner-vertex encodings of
        touching assume)."""
        return self.grid.name == "square" and not self.wrap

    def describe(self) -> str:
        """``6x10``, ``6x10 torus``, ``rhombus on the triangle grid``... in words."""
        text = self.size_text
        if self.wrap:
            text += " torus" if len(self.wrap) == 2 else f" cylinder ({self.wrap[0]} wrap)"
        if self.grid.name != "square":
            text += f" ({self.grid.name} grid)"
        return text

    def lookup(self, points: np.ndarray) -> np.ndarray:
        """The cell numbers of ``points`` (..., dim), wrapped where the board wraps, -1 for
        points off the board."""
        points = np.array(points, dtype=np.int64, copy=True)
        for a in self.wrapped_axes:
            points[..., a] %= self.dims[a]
        inside = ((points >= 0) & (points < np.array(self.dims))).all(axis=-1)
        out = np.full(points.shape[:-1], -1, dtype=np.int64)
        out[inside] = self.index[tuple(points[inside].T)]
        return out

    def adjacent_pairs(self, touching: bool = False) -> np.ndarray:
        """Each pair of cells sharing an edge (``touching``: at least a corner) once, as
        (pairs, 2) cell numbers."""
        near = self.grid.touching(self.cells) if touching else self.grid.neighbours(self.cells)
        other = self.lookup(near)
        mine = np.broadcast_to(np.arange(len(self.cells))[:, None], other.shape)
        keep = (other >= 0) & (other != mine)
        pairs = np.stack([mine[keep], other[keep]], axis=1)
        pairs = np.sort(pairs, axis=1)
        return np.unique(pairs, axis=0) if len(pairs) else pairs.reshape(0, 2)

    def symmetries(self) -> list[tuple[int, np.ndarray]]:
        """The grid symmetries (rotations, reflections and, on a wrapping board, the
        translations round it) that map the board (holes included) onto itself, each as
        ``(index into grid.group, cell permutation)``; the identity comes first."""
        cells, out = self.cells, []
        wrapped = self.wrapped_axes
        for k in range(len(self.grid.group)):
            if wrapped and not self._keeps_wrapping(k):
                continue
            img = self.grid.transform(cells, k)
            # Axes that do not wrap: the least translate; axes that wrap: every turn.
            low = self.grid.origin_shift(img) - self.grid.origin_shift(cells)
            for a in wrapped:
                low[a] = 0
            img = img - low
            turns = itertools.product(*[range(self.dims[a]) for a in wrapped])
            for turn in turns:
                moved = img.copy()
                for a, t in zip(wrapped, turn, strict=True):
                    moved[:, a] += t
                perm = self.lookup(moved)
                if (perm >= 0).all() and len(np.unique(perm)) == len(perm):
                    out.append((k, perm))
        return out

    def _keeps_wrapping(self, k: int) -> bool:
        """Whether ``group[k]`` maps each wrapping axis onto a wrapping axis of the same
        length (and each plain one onto a plain one)."""
        m = self.grid.group[k]
        for a in range(self.dim):
            src = int(np.flatnonzero(m[a])[0])
            if (a in self.wrapped_axes) != (src in self.wrapped_axes):
                return False
            if a in self.wrapped_axes and self.dims[a] != self.dims[src]:
                return False
        return True

    def holes(self) -> list[tuple[int, ...]]:
        return list(self._holes)
