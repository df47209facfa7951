"""Edge grids: the edges of cells, where edges meet, and the rule that pieces do not cross.

An edge grid's cells are edge midpoints in picture coordinates (grids.py): square-edges
has its vertices at (even, even); triangle-edges and hexagon-edges share their midpoints,
the triangle lattice's vertices being the hexagons' centres. A picture of an edge board or
piece draws each edge at its midpoint (``+-+`` over ``| |``; ``*---*`` over `` \\ /``);
every other position is decoration.

Two pieces cross at a vertex when their edges there interleave around it (A, B, A, B in
turn): on the square grid, one goes straight through each way; on the triangle grid, also
bends that straddle each other. Hexagon vertices have three edges, so nothing crosses.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np

from smtpuzzle.geometry.grids import UNITS, Grid, edge_ends_lattice

# The cell grid whose edges each edge grid has.
CELL_GRID = {"square-edges": "square", "triangle-edges": "triangle",
             "hexagon-edges": "hexagon"}
# A picture's column and row steps in the plane, in edge lengths: a square edge spans 2
# columns, a triangle edge 4, and a hexagon edge is 1/sqrt(3) of the triangle edge that
# joins its hexagons' centres.
_STEP = {"square-edges": (0.5, 0.5), "triangle-edges": (0.25, math.sqrt(3) / 4),
         "hexagon-edges": (math.sqrt(3) / 4, 0.75)}


def cell_edges(edge_grid: Grid, cells: np.ndarray) -> np.ndarray:
    """The edges (midpoints on ``edge_grid``) of each cell of its cell grid: (n, k, 2)."""
    r, c = np.asarray(cells)[:, 0:1], np.asarray(cells)[:, 1:2]
    if edge_grid.name == "square-edges":
        rows = np.concatenate([2 * r, 2 * r + 2, 2 * r + 1, 2 * r + 1], axis=1)
        cols = np.concatenate([2 * c + 1, 2 * c + 1, 2 * c, 2 * c + 2], axis=1)
        return np.stack([rows, cols], axis=2)
    if edge_grid.name == "hexagon-edges":  # centred on the triangle lattice's vertex (2r, 2c)
        steps = np.array([(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)])
        return np.stack([2 * r, 2 * c], axis=2) + steps[None]
    # A triangle (r, c): up (r + c even) has its apex at vertex (r, c) and its base on the
    # row below; down has its top side on row r. Vertices (R, C) sit at (2R, 2C), an edge
    # at the sum of its ends.
    up = (r + c) % 2 == 0
    a = np.where(up[..., None], np.stack([r, c], axis=2), np.stack([r + 1, c], axis=2))
    b = np.where(up[..., None], np.stack([r + 1, c - 1], axis=2), np.stack([r, c - 1], axis=2))
    d = np.where(up[..., None], np.stack([r + 1, c + 1], axis=2), np.stack([r, c + 1], axis=2))
    return np.concatenate([a + b, a + d, b + d], axis=1)


def edge_ends(edge_grid: Grid, edges: np.ndarray) -> np.ndarray:
    """Each edge's two vertices in picture coordinates, (n, 2, 2) floats (a hexagon's
    vertices sit a third of the way between picture points)."""
    edges = np.asarray(edges)
    if edge_grid.name == "square-edges":
        along = np.where((edges[:, 0] % 2 == 0)[:, None], [[0, 1]], [[1, 0]])
        return np.stack([edges - along, edges + along], axis=1).astype(float)
    ends = edge_ends_lattice(edge_grid.to_lattice(edges))  # the triangle edge's vertices
    if edge_grid.name == "triangle-edges":
        return edge_grid.from_lattice(ends).astype(float)
    # The hexagon edge crossing it joins the centres of the two triangles on either side.
    a, b = ends[:, 0], ends[:, 1]
    k = ((b - a)[:, None, :] // 2 == UNITS[None]).all(axis=2).argmax(axis=1)  # the unit a->b
    side = [a + b + a + 2 * UNITS[(k + turn) % 6] for turn in (1, -1)]  # three centres
    return edge_grid.from_lattice(np.stack(side, axis=1) / 3.0)


def plane(edge_grid: Grid, points: np.ndarray) -> np.ndarray:
    """Picture points (rows, columns; floats welcome) in the plane: x right, y up, an edge
    1 long."""
    points = np.asarray(points, dtype=float)
    across, down = _STEP[edge_grid.name]
    return np.stack([points[..., 1] * across, -points[..., 0] * down], axis=-1)


def vertex_keys(edge_grid: Grid, points: np.ndarray) -> np.ndarray:
    """Whole-number keys of vertices (picture coordinates, three times over for the
    hexagon grid's thirds), as (..., 2) int64."""
    return np.rint(np.asarray(points) * 3).astype(np.int64)


@cache
def crossing_pairs(degree: int) -> tuple[tuple[int, int, int, int], ...]:
    """The pairs of chords (a1, a2), (b1, b2) between a vertex's ``degree`` directions that
    interleave around it."""
    chords = list(itertools.combinations(range(degree), 2))
    return tuple((a1, a2, b1, b2) for (a1, a2), (b1, b2) in itertools.combinations(chords, 2)
                 if len({a1, a2, b1, b2}) == 4 and (a1 < b1 < a2) != (a1 < b2 < a2))


def directions(edge_grid: Grid, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each edge, its two vertices' keys (n, 2, 2) and its direction at each, an index
    counter-clockwise from east among the vertex's ``degree`` directions (n, 2). Square and
    triangle grids only: the hexagon grid's vertices (where nothing crosses) are of two
    kinds, their edges not at multiples of 120 degrees from east."""
    ends = edge_ends(edge_grid, edges)
    mids = plane(edge_grid, np.asarray(edges, dtype=float))[:, None, :]
    away = mids - plane(edge_grid, ends)
    angle = np.degrees(np.arctan2(away[..., 1], away[..., 0])) % 360
    degree = degree_of(edge_grid)
    return vertex_keys(edge_grid, ends), np.rint(angle / (360 / degree)).astype(np.int64) % degree


def degree_of(edge_grid: Grid) -> int:
    """How many edges meet at a vertex of the grid."""
    return {"square-edges": 4, "triangle-edges": 6, "hexagon-edges": 3}[edge_grid.name]


def crossing_at(edge_grid: Grid, pieces: list[list[tuple[int, int]]]) -> tuple | None:
    """The first vertex where two of ``pieces`` (lists of edges) cross, as (vertex in picture
    coordinates, piece index, piece index), or None. Independent of the model's chord
    tables: the pieces round each vertex are read in angle order, and two cross when the
    cyclic sequence of their labels changes more than twice."""
    at: dict[tuple[int, int], list[tuple[float, int]]] = {}
    for i, edges in enumerate(pieces):
        if not edges:
            continue
        arr = np.array(edges, dtype=np.int64)
        ends = edge_ends(edge_grid, arr)
        mids = plane(edge_grid, arr.astype(float))
        for e in range(len(arr)):
            for end in ends[e]:
                p = plane(edge_grid, end)
                angle = math.atan2(mids[e][1] - p[1], mids[e][0] - p[0])
                at.setdefault(tuple(vertex_keys(edge_grid, end).tolist()), []).append((angle, i))
    for v, legs in at.items():
        legs.sort()
        for a, b in itertools.combinations(sorted({i for _, i in legs}), 2):
            seq = [i for _, i in legs if i in (a, b)]
            changes = sum(x != y for x, y in zip(seq, seq[1:] + seq[:1], strict=True))
            if changes > 2:
                return (tuple(x / 3 for x in v), a, b)
    return None


# -- pictures ----------------------------------------------------------------------------

_GLYPHS = "-|/\\"
_VERTEX_MARK = {"square-edges": "+", "triangle-edges": "*"}  # hexagon vertices: no point


def vertex_marks(edge_grid: Grid, edges: np.ndarray) -> dict[tuple[int, int], str]:
    """The picture points of the vertices ``edges`` meet, each with its mark (``+`` on the
    square grid, ``*`` on the triangle grid; none on the hexagon grid, whose vertices lie
    between picture points)."""
    mark = _VERTEX_MARK.get(edge_grid.name)
    if mark is None or not len(edges):
        return {}
    ends = np.rint(edge_ends(edge_grid, np.asarray(edges))).astype(np.int64).reshape(-1, 2)
    return {(r, c): mark for r, c in ends.tolist()}


def glyphs(edge_grid: Grid, edges: np.ndarray) -> np.ndarray:
    """The character that draws each edge: ``-`` or ``|`` on the square grid; ``-``, ``\\``
    or ``/`` on the triangle grid; on the hexagon grid the one at right angles to the
    triangle edge there (``|``, ``/``, ``\\``)."""
    r, c = np.asarray(edges)[:, 0], np.asarray(edges)[:, 1]
    if edge_grid.name == "square-edges":
        return np.where(r % 2 == 0, "-", "|")
    down = (c - r) % 4 == 0  # from upper left to lower right
    if edge_grid.name == "triangle-edges":
        return np.where(r % 2 == 0, "-", np.where(down, "\\", "/"))
    return np.where(r % 2 == 0, "|", np.where(down, "/", "\\"))


def picture_edges(marks: list[tuple[int, int, str]], edge_grid: Grid) -> list[tuple[int, int]]:
    """The edges an edge picture draws, from its marks (row, column, character; spaces and
    ``.`` left out). The picture may sit anywhere: it is moved by the translation (of at
    most 3 rows and columns) that puts the most line characters (``- | / \\``) on edges they
    draw; there, every mark on an edge position is an edge (a line character must draw it),
    and marks elsewhere are vertices or decoration (``+---+``)."""
    from smtpuzzle.errors import PuzzleError

    if not marks:
        return []
    pts = np.array([(r, c) for r, c, _ in marks], dtype=np.int64)
    chars = np.array([ch for _, _, ch in marks])
    line = np.isin(chars, list(_GLYPHS))
    best, best_score = (0, 0), -1
    for dr, dc in itertools.product(range(4), range(4)):
        moved = pts + (dr, dc)
        on = edge_grid.is_cell(moved)
        score = int((on & line & (glyphs(edge_grid, moved) == chars)).sum()) if on.any() else 0
        if score > best_score:
            best, best_score = (dr, dc), score
    moved = pts + best
    on = edge_grid.is_cell(moved)
    wrong = on & line & (glyphs(edge_grid, np.where(on[:, None], moved, 0)) != chars)
    if wrong.any():
        i = int(np.argmax(wrong))
        raise PuzzleError(f"the {edge_grid.name} picture has {chars[i]!r} on line "
                          f"{marks[i][0] + 1}, column {marks[i][1] + 1}, where the edge drawn "
                          f"is {glyphs(edge_grid, moved[i:i + 1])[0]!r} (see edges.py for "
                          "the pictures)")
    return [tuple(p) for p in moved[on].tolist()]


def edge_picture(edge_grid: Grid, edges: np.ndarray, marks: list[str] | None = None) -> str:
    """A picture of ``edges`` (each drawn by its line character, or by ``marks``), with the
    vertices they meet (``+`` on the square grid, ``*`` on the triangle grid)."""
    edges = np.asarray(edges, dtype=np.int64)
    points = vertex_marks(edge_grid, edges)
    drawn = glyphs(edge_grid, edges) if marks is None else marks
    for (r, c), ch in zip(edges.tolist(), drawn, strict=True):
        points[(r, c)] = ch
        if edge_grid.name == "triangle-edges" and r % 2 == 0 and marks is None:
            points.setdefault((r, c - 1), "-")
            points.setdefault((r, c + 1), "-")
    low = edge_grid.origin_shift(np.array(list(points)))  # vertices may lie before the edges
    points = {(r - int(low[0]), c - int(low[1])): ch for (r, c), ch in points.items()}
    rows = max(r for r, _ in points) + 1
    cols = max(c for _, c in points) + 1
    out = [[" "] * cols for _ in range(rows)]
    for (r, c), ch in points.items():
        out[r][c] = ch
    return "\n".join("".join(row).rstrip() for row in out).strip("\n")
