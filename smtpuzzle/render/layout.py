"""Laying out a drawing: panels in rows with captions, and a legend, scaled to pixels."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from smtpuzzle.render.colours import INK
from smtpuzzle.render.outline import CellEdges
from smtpuzzle.render.panel import THICK, Panel
from smtpuzzle.render.scene import Dot, Item, Label, Loop, Path, Scene, text_width

DEFAULT_CELL = 32  # pixels per cell


@dataclass
class LegendEntry:
    """A key: the piece's shape in its colour (``cells``: polygons in cell units), or a
    swatch of ``colour`` (its border ``edge``), or a dot (``dot``: the colour of a mark),
    then ``text``."""

    text: str
    colour: str | None = None
    cells: list[Loop] | None = None
    dot: str | None = None
    edge: str | None = None


@dataclass
class Drawing:
    """What a picture shows, before it has a size: panels, how many to a row, a legend."""

    rows: list[list[Panel]]
    legend: list[LegendEntry] = field(default_factory=list)
    title: str = ""

    @property
    def panels(self) -> list[Panel]:
        return [p for row in self.rows for p in row]


def in_rows(panels: list[Panel], per_row: int = 0) -> list[list[Panel]]:
    """``panels`` cut into rows of ``per_row`` (0: one row)."""
    step = per_row or max(len(panels), 1)
    return [panels[i:i + step] for i in range(0, len(panels), step)]


def sheet_columns(n: int, width: float, height: float) -> int:
    """How many panels of ``width`` x ``height`` cells to a row, so ``n`` of them make a
    sheet of about 4:3, landscape (captions and gaps counted)."""
    if n <= 1:
        return 1
    return max(1, min(n, round(math.sqrt(n * 4 / 3 * (height + 1.5) / (width + 0.8)))))


def layout(drawing: Drawing, cell: float = DEFAULT_CELL) -> Scene:
    """The drawing at ``cell`` pixels per cell: a scene for svg.py and png.py."""
    margin = float(round(max(6.0, 0.35 * cell)))
    gap = float(round(max(10.0, 0.8 * cell)))
    cap_size = min(max(11.0, 0.4 * cell), 18.0)
    items: list[Item] = []
    y = margin
    if drawing.title:
        title_size = cap_size * 1.15
        items.append(Label(margin, y + title_size, drawing.title, title_size, "start",
                           bold=True, kind="title"))
        y += title_size * 1.6
    width = text_width(drawing.title, cap_size * 1.15) + 2 * margin if drawing.title else 0.0
    for row in drawing.rows:
        cap_h = cap_size * 1.5 if any(p.caption for p in row) else 0.0
        x, row_h = margin, 0.0
        for panel in row:
            left, top, right, bottom = panel.bounds()
            if panel.caption:
                items.append(Label(x, y + cap_size, panel.caption, cap_size, "start",
                                   kind="caption"))
            dx, dy = x - left * cell, y + cap_h - top * cell
            items += [item.moved(cell, dx, dy) for item in panel.items()]
            w = max((right - left) * cell, text_width(panel.caption, cap_size))
            x += w + gap
            row_h = max(row_h, (bottom - top) * cell)
        width = max(width, x - gap + margin)
        y += cap_h + row_h + gap
    if drawing.rows:
        y -= gap
    if drawing.legend:
        width = max(width, 16 * cap_size)
        legend_items, y = _legend(drawing.legend, cell, margin,
                                  y + (0.5 * gap if drawing.rows else 0), width - margin)
        items += legend_items
    y += margin
    return Scene(math.ceil(width), math.ceil(y), items, drawing.title)


def _legend(entries: list[LegendEntry], cell: float, x0: float, y0: float,
            right: float) -> tuple[list[Item], float]:
    """The legend's items flowing left to right from (x0, y0); and where it ends below."""
    unit = min(max(6.0, 0.4 * cell), 16.0)  # a piece's cell in the legend
    size = min(max(11.0, 0.38 * cell), 17.0)
    items: list[Item] = []
    x, y, line_h = x0, y0, 0.0
    for entry in entries:
        if entry.cells:
            edges = CellEdges(entry.cells)
            xs = [p[0] for poly in entry.cells for p in poly]
            ys = [p[1] for poly in entry.cells for p in poly]
            w, h = (max(xs) - min(xs)) * unit, (max(ys) - min(ys)) * unit
        else:
            w = h = size
        entry_w = w + 0.4 * size + text_width(entry.text, size)
        if x > x0 and x + entry_w > right:
            x, y, line_h = x0, y + line_h + 0.6 * size, 0.0
        h_line = max(h, size)
        top = y + (h_line - h) / 2
        if entry.cells:
            dx, dy = x - min(xs) * unit, top - min(ys) * unit
            loops = tuple(edges.loops(range(len(entry.cells))))
            items.append(Path(loops, fill=entry.colour, kind="legend").moved(unit, dx, dy))
            items.append(Path(loops, stroke=INK, width=THICK * 1.5, kind="legend")
                         .moved(unit, dx, dy))
        elif entry.dot:
            items.append(Dot(x + w / 2, top + h / 2, 0.22 * size, entry.dot, INK,
                             0.05 * size, kind="legend"))
        elif entry.colour:
            square = ((x, top), (x + w, top), (x + w, top + h), (x, top + h))
            items.append(Path((square,), fill=entry.colour, stroke=entry.edge or INK,
                              width=2.0 if entry.edge else 1.0, kind="legend"))
        items.append(Label(x + w + 0.4 * size, y + h_line / 2 + 0.36 * size, entry.text, size,
                           "start", kind="legend"))
        x += entry_w + 1.2 * size
        line_h = max(line_h, h_line)
    return items, y + line_h
