"""Generation of all polyforms (polyominoes, polyiamonds, polyhexes) of a given size, free
or one-sided, and the cube-net test."""

from __future__ import annotations

from functools import cache

import numpy as np

from smtpuzzle.geometry.grids import grid
from smtpuzzle.geometry.shapes import Shape

MAX_CELLS = 14


@cache
def polyforms(grid_name: str, n: int, one_sided: bool = False) -> tuple[Shape, ...]:
    """All n-cell shapes of a grid, connected through edges (an edge grid's through
    vertices), in canonical form, sorted; free (rotations and reflections identified) or
    ``one_sided`` (rotations only).

    Grown cell by cell from the (n-1)-cell ones. The order (by extent, then by cells) is
    stable: named sets number pieces by it. Free polyominoes: 1, 1, 2, 5, 12, 35, 108 for
    n = 1..7; polyiamonds 1, 1, 1, 3, 4, 12, 24, 66; polyhexes 1, 1, 3, 7, 22, 82, 333;
    polysticks 1, 2, 5, 16, 55, 222, 950; polytwigs 1, 1, 3, 4, 12, 27, 78; polytrigs 1, 3,
    12, 60, 375.
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer):
        raise TypeError(f"a polyform's number of cells is a whole number, not {n!r}")
    if n < 1:
        raise ValueError("polyforms have at least one cell")
    if n > MAX_CELLS:  # each cell more takes about 4 times as long (10 cells: 6 s)
        raise ValueError(f"polyforms of {n} cells: at most {MAX_CELLS} are grown (free "
                         f"{MAX_CELLS}-ominoes are 901,971 shapes)")
    on = grid(grid_name)
    if n == 1:
        return (Shape(on.box_points((2, 4))[:1], on),)
    found: dict[tuple, Shape] = {}
    for smaller in polyforms(grid_name, n - 1, one_sided):
        cells = set(smaller.key)
        for row in on.neighbours(smaller.cells).tolist():
            for new in map(tuple, row):
                if new not in cells:
                    canon = Shape([*cells, new], on).canonical(not one_sided)
                    found.setdefault(canon.key, canon)
    return tuple(sorted(found.values(), key=lambda s: (sorted(s.extent), s.extent, s.key)))


def free_polyominoes(n: int) -> tuple[Shape, ...]:
    """All free n-ominoes in canonical form, sorted (see :func:`polyforms`)."""
    return polyforms("square", n)


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
