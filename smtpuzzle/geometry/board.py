"""Boards: the cells a tiling must fill, in 2D or 3D, with holes."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.shapes import picture_cells
from smtpuzzle.geometry.symmetry import signed_permutations


class Board:
    """A finite set of cells inside a box of size ``dims``; cells are numbered row-major."""

    def __init__(self, dims: Iterable[int], holes: Iterable[Iterable[int]] = ()) -> None:
        self.dims = tuple(int(d) for d in dims)
        if len(self.dims) not in (2, 3) or min(self.dims) < 1:
            raise PuzzleError(f"a board size needs 2 or 3 positive numbers, got {list(self.dims)}")
        mask = np.ones(self.dims, dtype=bool)
        for hole in holes:
            hole = tuple(int(x) for x in hole)
            if len(hole) != len(self.dims) or not all(
                0 <= h < d for h, d in zip(hole, self.dims, strict=True)
            ):
                raise PuzzleError(f"hole {list(hole)} is outside the {self.size_text} board")
            mask[hole] = False
        self._set_mask(mask)

    @classmethod
    def from_picture(cls, text: str) -> Board:
        """A board drawn in ASCII: marks are cells, ``.`` and spaces are holes."""
        filled, empty = picture_cells(text)
        if not filled:
            raise PuzzleError("the board picture has no cells")
        dims = tuple(max(c[i] for c in filled + empty) + 1 for i in range(len(filled[0])))
        return cls(dims, holes=empty)

    def _set_mask(self, mask: np.ndarray) -> None:
        self.mask = mask
        self.mask.setflags(write=False)
        self.cells = np.argwhere(mask)  # (n, dim), row-major order
        self.index = np.full(self.dims, -1, dtype=np.int64)
        self.index[mask] = np.arange(len(self.cells))
        self.index.setflags(write=False)

    @property
    def dim(self) -> int:
        return len(self.dims)

    @property
    def num_cells(self) -> int:
        return len(self.cells)

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
        return [tuple(h) for h in np.argwhere(~self.mask).tolist()]
