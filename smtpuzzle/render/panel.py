"""A panel: one grid of cells drawn as printed puzzles are, in cell units.

Cells are polygons (any grid: see outline.CellShapes), each owned by a region (a piece, or
filled / empty) or by nobody. A panel draws each region's fill, thin lines inside regions,
a thick closed outline around each region and around the whole board (holes included), the
region's label once per connected part at a cell near its middle, and whatever the family
adds on top (clues, walls, a walk, marks).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from smtpuzzle.render.colours import INK, ink_on
from smtpuzzle.render.outline import CellEdges
from smtpuzzle.render.scene import Item, Label, Loop, Path

NOBODY = -1  # a cell no region owns (an empty cell of a packing)
THICK, THIN, BOARD = 0.08, 0.03, 0.1  # line widths in cells
THIN_OPACITY = 0.3


@dataclass
class Panel:
    polygons: list[Loop]  # one per cell, in cell units, y down
    owner: list[int]  # the region of each cell, or NOBODY
    fills: dict[int, str] = field(default_factory=dict)  # region -> colour
    labels: dict[int, str] = field(default_factory=dict)  # region -> text
    caption: str = ""
    outlines: bool = True  # a thick line around each region (pieces), else only the board's
    grid: str = "inside"  # thin lines: "inside" regions, "all" edges, or "none"
    overlay: list[Item] = field(default_factory=list)  # drawn last, in cell units
    margin: tuple[float, float, float, float] = (0, 0, 0, 0)  # left, top, right, bottom

    def bounds(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in cells, margins included."""
        points = [p for poly in self.polygons for p in poly] or [
            p for item in self.overlay if isinstance(item, Path) for loop in item.loops
            for p in loop]  # a panel of lines alone (a board of edges)
        xs = [p[0] for p in points] or [0.0]
        ys = [p[1] for p in points] or [0.0]
        left, top, right, bottom = self.margin
        return min(xs) - left, min(ys) - top, max(xs) + right, max(ys) + bottom

    def items(self) -> list[Item]:
        """What to draw, in order, in cell units."""
        edges = CellEdges(self.polygons)
        regions: dict[int, list[int]] = {}
        for i, r in enumerate(self.owner):
            if r != NOBODY:
                regions.setdefault(r, []).append(i)
        loops = {r: edges.loops(cells) for r, cells in regions.items()}
        out: list[Item] = []
        for r in regions:
            if r in self.fills:
                out.append(Path(tuple(loops[r]), fill=self.fills[r], kind="piece"))
        if self.grid != "none":
            inside = self.grid == "inside" and self.outlines
            segs = edges.segments(self.owner, inside_only=inside)
            if segs:
                out.append(Path(tuple(segs), stroke=INK, width=THIN, closed=False,
                                kind="grid", opacity=THIN_OPACITY, round=False))
        if self.outlines:
            out += [Path(tuple(loops[r]), stroke=INK, width=THICK, kind="outline")
                    for r in regions]
        if self.polygons:
            out.append(Path(tuple(edges.loops(range(len(self.polygons)))), stroke=INK,
                            width=BOARD, kind="board"))
        for r, text in self.labels.items():
            if r not in regions:
                continue
            size = min(0.5, 0.75 / (0.62 * max(len(text), 1)))  # fits in one square cell
            colour = ink_on(self.fills[r]) if r in self.fills else INK
            for part in edges.parts(regions[r]):
                cell = edges.central_cell(part)
                x, y = edges.centre(cell)
                # smaller cells (a triangle's circle is narrower than a square's) take a
                # smaller label
                fit = min(1.0, _inradius(self.polygons[cell], (x, y)) / 0.5)
                out.append(Label.centred(x, y, text, size * fit, colour=colour,
                                         kind="label"))
        return out + self.overlay


def _inradius(polygon: Loop, centre: tuple[float, float]) -> float:
    """The distance from ``centre`` to the nearest side of ``polygon``."""
    cx, cy = centre
    out = float("inf")
    for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        if length:
            out = min(out, abs((bx - ax) * (ay - cy) - (ax - cx) * (by - ay)) / length)
    return out
