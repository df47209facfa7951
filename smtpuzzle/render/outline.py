"""Outlines of regions of cells on any grid whose cells are polygons sharing whole edges.

A grid gives each cell's polygon (squares, triangles, hexagons: see ``CellShapes`` and
``cell_shapes``); everything here works on those polygons alone: the closed loops around a
region (a piece, the board), the edges inside a region, its connected parts and a cell near
each part's centre (where its letter goes).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Protocol

from smtpuzzle.render.scene import Loop, Point

Key = tuple[int, int]
_GRAIN = 4096  # vertices closer than 1/_GRAIN of a cell are the same vertex


class CellShapes(Protocol):
    """A grid that can draw: each cell's polygon in cell units (y down)."""

    def polygon(self, cell: tuple[int, ...]) -> Loop: ...


class SquareCells:
    """Square cells: ``(row, column)`` is the unit square with its top-left at (column, row)."""

    row_height = 1.0

    def polygon(self, cell: tuple[int, ...]) -> Loop:
        r, c = cell[0], cell[1]
        return ((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1))

    def width(self, columns: int) -> float:
        return float(columns)


_H = math.sqrt(3) / 2  # the height of a unit triangle, and the rows of hexagons one wide


class TriangleCells:
    """Unit triangles: ``(row, column)`` is centred at x = (column + 1) / 2, pointing up when
    row + column is even."""

    row_height = _H

    def polygon(self, cell: tuple[int, ...]) -> Loop:
        r, c = cell[0], cell[1]
        x, top, bottom = (c + 1) / 2, r * _H, (r + 1) * _H
        if (r + c) % 2 == 0:
            return ((x, top), (x + 0.5, bottom), (x - 0.5, bottom))
        return ((x - 0.5, top), (x + 0.5, top), (x, bottom))

    def width(self, columns: int) -> float:
        return (columns + 1) / 2


class HexagonCells:
    """Hexagons one unit wide, pointing up: ``(row, column)`` (row + column even) is centred
    at x = (column + 1) / 2, rows sqrt(3)/2 apart."""

    row_height = _H

    def polygon(self, cell: tuple[int, ...]) -> Loop:
        r, c = cell[0], cell[1]
        side = 1 / math.sqrt(3)
        x, y = (c + 1) / 2, r * _H + side
        return ((x, y - side), (x + 0.5, y - side / 2), (x + 0.5, y + side / 2),
                (x, y + side), (x - 0.5, y + side / 2), (x - 0.5, y - side / 2))

    def width(self, columns: int) -> float:
        return (columns + 1) / 2


def cell_shapes(grid_name: str) -> SquareCells | TriangleCells | HexagonCells:
    """How to draw the cells of the grid called ``grid_name``."""
    return {"square": SquareCells, "triangle": TriangleCells,
            "hexagon": HexagonCells}[grid_name]()


def _key(p: Point) -> Key:
    return round(p[0] * _GRAIN), round(p[1] * _GRAIN)


def _area2(poly: Sequence[Point]) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]],
                                                                 strict=True))


class CellEdges:
    """The edges of a set of cell polygons, each edge knowing the cells on its sides."""

    def __init__(self, polygons: Sequence[Loop]) -> None:
        self.polygons = polygons
        self.points: dict[Key, Point] = {}
        self.edges: list[list[tuple[Key, Key]]] = []  # per cell, directed, one orientation
        self.sides: dict[tuple[Key, Key], list[int]] = defaultdict(list)  # undirected edge
        for i, poly in enumerate(polygons):
            pts = list(poly) if _area2(poly) > 0 else list(reversed(poly))
            keys = [_key(p) for p in pts]
            for k, p in zip(keys, pts, strict=True):
                self.points.setdefault(k, p)
            directed = list(zip(keys, [*keys[1:], keys[0]], strict=True))
            self.edges.append(directed)
            for a, b in directed:
                self.sides[(a, b) if a < b else (b, a)].append(i)

    def loops(self, cells: Iterable[int]) -> list[Loop]:
        """The closed loops around the union of ``cells`` (outer ones and holes, opposite
        ways round, so a nonzero fill is right), straight runs merged."""
        inside = set(cells)
        out_edges: dict[Key, list[Key]] = defaultdict(list)
        for i in inside:
            for a, b in self.edges[i]:
                if not any(j != i and j in inside for j in self.sides[(a, b) if a < b else (b, a)]):
                    out_edges[a].append(b)
        loops = []
        for start in list(out_edges):
            while out_edges[start]:
                walk, here = [start], out_edges[start].pop()
                while here != start:
                    walk.append(here)
                    here = out_edges[here].pop()
                loops.append(self._straight(walk))
        return loops

    def _straight(self, keys: list[Key]) -> Loop:
        n, kept = len(keys), []
        for i, k in enumerate(keys):
            (ax, ay), (bx, by) = keys[i - 1], keys[(i + 1) % n]
            if (k[0] - ax) * (by - k[1]) - (k[1] - ay) * (bx - k[0]) != 0:
                kept.append(self.points[k])
        return tuple(kept)

    def segments(self, owner: Sequence[int], inside_only: bool) -> list[tuple[Point, Point]]:
        """Every edge once; with ``inside_only`` just those with the same owner on both
        sides (the thin lines inside a piece)."""
        out = []
        for (a, b), cells in self.sides.items():
            if inside_only and (len(cells) < 2 or owner[cells[0]] != owner[cells[1]]):
                continue
            out.append((self.points[a], self.points[b]))
        return out

    def parts(self, cells: Iterable[int]) -> list[list[int]]:
        """The connected parts of ``cells`` (cells sharing an edge), each sorted."""
        inside = set(cells)
        parent = {i: i for i in inside}

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in inside:
            for a, b in self.edges[i]:
                for j in self.sides[(a, b) if a < b else (b, a)]:
                    if j != i and j in inside:
                        parent[root(j)] = root(i)
        groups: dict[int, list[int]] = defaultdict(list)
        for i in sorted(inside):
            groups[root(i)].append(i)
        return list(groups.values())

    def centre(self, cell: int) -> Point:
        poly = self.polygons[cell]
        return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))

    def central_cell(self, cells: Sequence[int]) -> int:
        """The cell of ``cells`` nearest their middle (where a piece's letter goes)."""
        centres = [self.centre(i) for i in cells]
        mx = sum(c[0] for c in centres) / len(centres)
        my = sum(c[1] for c in centres) / len(centres)
        best = min(range(len(cells)),
                   key=lambda k: ((centres[k][0] - mx) ** 2 + (centres[k][1] - my) ** 2, k))
        return cells[best]


def loop_area(loop: Loop) -> float:
    """The signed area a loop encloses (positive clockwise on screen, y down)."""
    return _area2(loop) / 2
