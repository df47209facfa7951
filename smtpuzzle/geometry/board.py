"""Boards: the cells a tiling must fill, in 2D or 3D, with holes."""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cached_property

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.shapes import picture_cells
from smtpuzzle.geometry.symmetry import signed_permutations
from smtpuzzle.memory import check_fits_in_memory


class Board:
    """A finite set of cells inside a box of size ``dims``; cells are numbered row-major.

    Only the size and the holes are kept at first: the cell arrays (``mask``, ``cells``,
    ``index``) are built on first use, so that what needs no board (the area, checked
    against the pieces' before any search) is answered at once for any size."""

    def __init__(self, dims: Iterable[int], holes: Iterable[Iterable[int]] = ()) -> None:
        self.dims = tuple(int(d) for d in dims)
        if len(self.dims) not in (2, 3) or min(self.dims) < 1:
            raise PuzzleError(f"a board size needs 2 or 3 positive numbers, got {list(self.dims)}")
        kept: set[tuple[int, ...]] = set()
        for hole in holes:
            hole = tuple(int(x) for x in hole)
            if len(hole) != len(self.dims) or not all(
                0 <= h < d for h, d in zip(hole, self.dims, strict=True)
            ):
                raise PuzzleError(f"hole {list(hole)} is outside the {self.size_text} board")
            kept.add(hole)
        self._holes = sorted(kept)

    @classmethod
    def from_picture(cls, text: str) -> Board:
        """A board drawn in ASCII: marks are cells, ``.`` and spaces are holes."""
        filled, empty = picture_cells(text)
        if not filled:
            raise PuzzleError("the board picture has no cells")
        dims = tuple(max(c[i] for c in filled + empty) + 1 for i in range(len(filled[0])))
        return cls(dims, holes=empty)

    @property
    def box_size(self) -> int:
        """Cells of the bounding box, holes included."""
        return math.prod(self.dims)

    @property
    def num_cells(self) -> int:
        return self.box_size - len(self._holes)

    @cached_property
    def mask(self) -> np.ndarray:
        """True on the board's cells, False on holes (read-only)."""
        # The mask (1 byte a cell), the index (8) and the cells' coordinates (8 per axis).
        check_fits_in_memory(self.box_size * (9 + 8 * self.dim),
                             f"the {self.size_text} board's cell arrays")
        mask = np.ones(self.dims, dtype=bool)
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
        """Each box cell's number, -1 on holes (read-only)."""
        index = np.full(self.dims, -1, dtype=np.int64)
        index[self.mask] = np.arange(len(self.cells))
        index.setflags(write=False)
        return index

    @property
    def dim(self) -> int:
        return len(self.dims)

    @property
    def size_text(self) -> str:
        return "x".join(map(str, self.dims))

    def symmetries(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The rotations and reflections that map the board (holes included) onto itself,
        each as ``(matrix, cell permutation)``; the identity is among them."""
        box = np.indices(self.dims).reshape(self.dim, -1).T
        out = []
        for m in signed_permutations(self.dim):
            img_box = box @ m.T
            shift = -img_box.min(axis=0)
            if tuple(img_box.max(axis=0) + shift + 1) != self.dims:
                continue
            img = self.cells @ m.T + shift
            if self.mask[tuple(img.T)].all():
                out.append((m, self.index[tuple(img.T)]))
        return out

    def holes(self) -> list[tuple[int, ...]]:
        return list(self._holes)
