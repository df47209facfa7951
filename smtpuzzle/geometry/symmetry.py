"""The orthogonal symmetry groups of the square and cubic grids, as integer matrices."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np


@cache
def signed_permutations(dim: int) -> np.ndarray:
    """All ``dim x dim`` signed permutation matrices, rotations (det +1) first.

    In 2D these are the 8 symmetries of the square, in 3D the 48 of the cube.
    """
    mats = []
    for perm in itertools.permutations(range(dim)):
        for signs in itertools.product((1, -1), repeat=dim):
            m = np.zeros((dim, dim), dtype=np.int64)
            m[np.arange(dim), perm] = signs
            mats.append(m)
    mats.sort(key=lambda m: -round(np.linalg.det(m)))
    return np.stack(mats)


def symmetry_group(dim: int, reflections: bool) -> np.ndarray:
    """Rotations only (4 in 2D, 24 in 3D) or rotations and reflections (8, 48)."""
    mats = signed_permutations(dim)
    return mats if reflections else mats[: len(mats) // 2]
