"""Generation of all free polyominoes of a given size, and the cube-net test."""

from __future__ import annotations

from functools import cache

import numpy as np

from smtpuzzle.geometry.shapes import Shape

_STEPS_2D = ((0, 1), (1, 0), (0, -1), (-1, 0))


@cache
def free_polyominoes(n: int) -> tuple[Shape, ...]:
    """All free n-ominoes (rotations and reflections identified) in canonical form, sorted.

    Grown cell by cell from the (n-1)-ominoes; 1, 1, 2, 5, 12, 35, 108 for n = 1..7.
    The order (by extent, then by cells) is stable: named sets number pieces by it.
    """
    if n < 1:
        raise ValueError("polyominoes have at least one cell")
    if n == 1:
        return (Shape([(0, 0)]),)
    found: dict[tuple, Shape] = {}
    for smaller in free_polyominoes(n - 1):
        cells = set(smaller.key)
        for r, c in smaller.key:
            for dr, dc in _STEPS_2D:
                new = (r + dr, c + dc)
                if new not in cells:
                    canon = Shape([*cells, new]).canonical()
                    found.setdefault(canon.key, canon)
    return tuple(sorted(found.values(), key=lambda s: (sorted(s.extent), s.extent, s.key)))


# Rolling a cube one step along +row / +column / -row / -column: rotation matrices acting on
# the cube's orientation (columns say where the cube's own axes point in the world).
_ROLLS = {
    (1, 0): np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]),
    (-1, 0): np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]]),
    (0, 1): np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]),
    (0, -1): np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]),
}


def folds_into_cube(shape: Shape) -> bool:
    """Whether a hexomino is a net of the cube: rolling a cube over it touches six faces."""
    if shape.dim != 2 or shape.size != 6:
        return False
    cells = set(shape.key)
    start = shape.key[0]
    orient = {start: np.eye(3, dtype=np.int64)}
    stack = [start]
    while stack:
        cell = stack.pop()
        for step, roll in _ROLLS.items():
            nxt = (cell[0] + step[0], cell[1] + step[1])
            if nxt in cells and nxt not in orient:
                orient[nxt] = roll @ orient[cell]
                stack.append(nxt)
    down = np.array([0, 0, -1])
    faces = {tuple(m.T @ down) for m in orient.values()}
    return len(faces) == 6
