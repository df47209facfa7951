"""Boards: the cells a tiling must fill, on any grid, with holes, possibly wrapping round."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cached_property

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.edges import CELL_GRID, cell_edges
from smtpuzzle.geometry.grids import Grid, grid
from smtpuzzle.geometry.shapes import coordinate_array, grid_picture_cells
from smtpuzzle.runtime.memory import check_fits_in_memory

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
        if np.prod(self.dims, dtype=float) >= 2.0**62:  # past 64-bit cell numbers
            check_fits_in_memory(np.prod(self.dims, dtype=float) * (9 + 8 * len(self.dims)),
                                 f"the {self.size_text} board's cell arrays")
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
        holes = _points(holes, "hole", self.dim)
        if holes.shape[1] != self.dim:
            many = "coordinate" if holes.shape[1] == 1 else "coordinates"
            raise PuzzleError(f"hole {holes[0].tolist()} has {holes.shape[1]} {many}; the "
                              f"board has {self.dim}")
        outside = ((holes < 0) | (holes >= np.array(self.dims))).any(axis=1)
        off = ~self.grid.is_cell(holes)
        if (outside | off).any():
            first = int(np.argmax(outside | off))
            if outside[first]:
                raise PuzzleError(f"hole {holes[first].tolist()} is outside the "
                                  f"{self.size_text} board")
            raise PuzzleError(f"hole: {self.grid.off_grid_reason(tuple(holes[first].tolist()))}")
        # sorted and each once, as (n, dim): row-major order is the order of box numbers
        numbers = np.unique(np.ravel_multi_index(tuple(holes.T), self.dims))
        self._holes = np.stack(np.unravel_index(numbers, self.dims), axis=1).astype(np.int64)

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
        pts = _points(cells, "cell", None)
        if not len(pts):
            raise PuzzleError("the board has no cells")
        on = grid(on, pts.shape[1]) if isinstance(on, str) else on
        why = on.off_grid_reason(tuple(pts[0].tolist())) if pts.shape[1] != on.dim else None
        if why:
            raise PuzzleError(f"cell {pts[0].tolist()}: {why}")
        off, negative = ~on.is_cell(pts), (pts < 0).any(axis=1)
        if (off | negative).any():
            first = int(np.argmax(off | negative))
            if off[first]:
                raise PuzzleError(f"cell {pts[first].tolist()}: "
                                  f"{on.off_grid_reason(tuple(pts[first].tolist()))}")
            raise PuzzleError(f"cell {pts[first].tolist()} has a negative coordinate (they "
                              "start at 0)")
        dims = tuple(int(d) for d in pts.max(axis=0) + 1)
        check_fits_in_memory(np.prod(dims, dtype=float) * (9 + 8 * len(dims)),
                             f"a board of {len(pts):,} cells in a {'x'.join(map(str, dims))} box")
        numbers = np.ravel_multi_index(tuple(pts.T), dims)
        filled = np.bincount(numbers, minlength=int(np.prod(dims)))
        if (filled > 1).any():
            dup = pts[int(np.argmax(filled[numbers] > 1))]
            raise PuzzleError(f"cell {dup.tolist()} is listed twice")
        box = np.moveaxis(np.indices(dims), 0, -1).reshape(-1, len(dims))
        holes = box[(filled == 0) & on.is_cell(box)]
        return cls(dims, holes, on, wrap)

    @classmethod
    def edges_of(cls, cells: Board, edge_grid: Grid | str) -> Board:
        """The board of every edge of the cells of ``cells`` (a board of the edge grid's
        cell grid), moved by a translation of the grid to coordinates from 0."""
        on = grid(edge_grid) if isinstance(edge_grid, str) else edge_grid
        if CELL_GRID.get(on.name) != cells.grid.name:
            raise PuzzleError(f"the {on.name} grid has the edges of the "
                              f"{CELL_GRID.get(on.name, '?')} grid's cells, not of the "
                              f"{cells.grid.name} grid's")
        if cells.wrap:
            raise PuzzleError("wrap: boards of edges do not wrap round")
        edges = np.unique(cell_edges(on, cells.cells).reshape(-1, 2), axis=0)
        return cls.from_cells(edges - on.origin_shift(edges), on)

    def reshaped(self, holes: Iterable[Iterable[int]]) -> Board:
        """The same box, grid and wrap with other ``holes``."""
        return Board(self.dims, holes, self.grid, self.wrap)

    def drilled(self, holes: Iterable[Iterable[int]]) -> Board:
        """The board with ``holes`` made in it, each one of its cells, each once (a hole
        that is no cell is a typo, not a no-op)."""
        new = _points(holes, "hole", self.dim)
        board = self.reshaped(np.concatenate([self._holes, new]) if new.shape[1] == self.dim
                              else new)  # checks each is in the box and on the grid
        numbers = np.ravel_multi_index(tuple(new.T), self.dims)
        _, first, seen = np.unique(numbers, return_index=True, return_counts=True)
        if (seen > 1).any():
            twice = np.isin(numbers, numbers[first[seen > 1]])
            raise PuzzleError(f"hole {new[int(np.argmax(twice))].tolist()} is listed twice")
        gone = np.isin(numbers, np.ravel_multi_index(tuple(self._holes.T), self.dims))
        if gone.any():
            raise PuzzleError(f"hole {new[int(np.argmax(gone))].tolist()} is not a cell of "
                              "the board")
        if board.num_cells == 0:
            raise PuzzleError("the board has no cells (its holes take every one)")
        return board

    @property
    def box_size(self) -> int:
        """Points of the bounding box, holes (and, on the hexagon grid, the points between
        cells) included."""
        return int(np.prod(self.dims))

    @property
    def unit(self) -> str:
        """What the board's cells are, in words: ``cells``, or ``edges`` on an edge grid."""
        return "edges" if self.grid.edges else "cells"

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
        mask[tuple(self._holes.T)] = False
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
        return [tuple(h) for h in self._holes.tolist()]


def _points(given: Iterable[Iterable[int]], what: str, dim: int | None) -> np.ndarray:
    """``given`` points as an int64 (n, k) array (an empty one has ``dim`` columns); points
    of unequal lengths are refused, naming the first whose length is not ``dim`` (or, with
    no ``dim``, not the first point's)."""
    rows = given if isinstance(given, np.ndarray) else [
        list(r) if isinstance(r, Iterable) else r for r in given]
    if not len(rows):
        return np.zeros((0, dim or 0), dtype=np.int64)
    lists = [] if isinstance(rows, np.ndarray) else [r for r in rows if isinstance(r, list)]
    if dim is None and len({len(r) for r in lists}) > 1:
        raise PuzzleError(f"board {what}s must all have the same number of coordinates")
    bad = None if dim is None else next((r for r in lists if len(r) != dim), None)
    if bad is not None:
        many = "coordinate" if len(bad) == 1 else "coordinates"
        raise PuzzleError(f"{what} {bad} has {len(bad)} {many}; the board has {dim}")
    return coordinate_array(rows, what)
