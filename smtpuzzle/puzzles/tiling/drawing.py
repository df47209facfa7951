"""Drawings of tilings: one solution, a contact sheet of many, the frames of an answer.

Each piece has one colour and one label throughout (its name when that is short, else a
letter from the text palette); 3D boards are drawn one panel per layer. Pieces that come
from no named set (drawn by hand in the puzzle file), and pieces whose label is not their
name, are drawn again in a legend with their names. On an edge grid the board's edges are
thin lines and each piece is a thick segment of its colour along its edges.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from smtpuzzle.geometry.edges import edge_ends, plane
from smtpuzzle.render.colours import INK, piece_colours
from smtpuzzle.render.layout import Drawing, LegendEntry, in_rows, sheet_columns
from smtpuzzle.render.outline import cell_shapes
from smtpuzzle.render.panel import NOBODY, THIN, THIN_OPACITY, Panel
from smtpuzzle.render.scene import Dot, Label, Path

MAX_LABEL = 4  # longer piece names are shown as one letter and named in the legend
_LARGE_SETS = ("hexominoes", "heptominoes", "cube-nets")  # numbered: looked at by name


def piece_labels(names: Sequence[str]) -> dict[str, str]:
    """The text on each piece: its name, or for long names the text pictures' letter."""
    from smtpuzzle.puzzles.tiling.text import piece_chars

    chars = piece_chars(list(names))
    return {n: n if len(n) <= MAX_LABEL else chars[n] for n in names}


def _from_a_set(piece: Any) -> bool:
    """Whether the piece is a named set's piece of that name (not drawn by hand); a
    one-sided set's mirror images (lower-case names) count."""
    from smtpuzzle.geometry.piecesets import piece_set, piece_set_names

    sets = [n for n in piece_set_names() if n not in _LARGE_SETS]
    if re.fullmatch(r"H\d\d", piece.name):
        sets.append("hexominoes")
    if re.fullmatch(r"S\d{3}", piece.name):
        sets.append("heptominoes")
    for name in sets:
        for one_sided in (False, True):
            if one_sided and name == "soma":
                continue
            shape = piece_set(name, one_sided).get(piece.name)
            if shape is None or shape.grid.name != piece.shape.grid.name or \
                    shape.dim > piece.shape.dim:
                continue
            flip = not one_sided
            if shape.lifted(piece.shape.dim).canonical(flip) == piece.shape.canonical(flip):
                return True
    return False


def _legend(pieces: Sequence[Any], used: set[str], colours: dict[str, str],
            labels: dict[str, str]) -> list[LegendEntry]:
    out = []
    for p in pieces:
        if p.name not in used or (labels[p.name] == p.name and _from_a_set(p)):
            continue
        text = p.name if labels[p.name] == p.name else f"{labels[p.name]} = {p.name}"
        cells = None
        if p.shape.dim == 2 and not p.shape.grid.edges:
            grid = cell_shapes(p.shape.grid.name)
            cells = [grid.polygon(tuple(c)) for c in p.shape.cells.tolist()]
        out.append(LegendEntry(text, colours[p.name], cells))
    return out


def layer_panels(board: Any, solution: Any, colours: dict[str, str],
                 labels: dict[str, str]) -> list[Panel]:
    """One panel per layer of ``board`` (one for a 2D board) showing ``solution``."""
    if board.grid.edges:
        return [_edge_panel(board, solution, colours, labels)]
    grid = cell_shapes(board.grid.name)
    owner_of = {cell: i for i, pl in enumerate(solution.placements) for cell in pl.cells}
    fills = {i: colours[pl.piece] for i, pl in enumerate(solution.placements)}
    texts = {i: labels[pl.piece] for i, pl in enumerate(solution.placements)}
    layers = [()] if board.dim == 2 else [(z,) for z in range(board.dims[2])]
    panels = []
    for z in layers:
        polygons, owner = [], []
        for r in range(board.dims[0]):
            for c in range(board.dims[1]):
                cell = (r, c, *z)
                if board.mask[cell]:
                    polygons.append(grid.polygon(cell))
                    owner.append(owner_of.get(cell, NOBODY))
        caption = f"z={z[0]}" if z else ""
        if board.wrap:  # pieces cut by a seam are drawn in two parts
            seams = " and ".join(board.wrap)
            caption = ", ".join(filter(None, [caption, f"{seams} wrap round"]))
        panels.append(Panel(polygons, owner, fills, texts, caption))
    return panels


def _segments(board: Any, edges: Any) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Edges as segments in cell units (an edge 1 long, y down)."""
    ends = plane(board.grid, edge_ends(board.grid, np.asarray(edges, dtype=np.int64)))
    return tuple((tuple(a), tuple(b)) for a, b in (ends * (1, -1)).tolist())


def _edge_panel(board: Any, solution: Any, colours: dict[str, str],
                labels: dict[str, str]) -> Panel:
    """A board of edges: thin lines, each piece a thick segment in its colour (outlined in
    ink), its label on its middle edge."""
    overlay: list[Any] = [Path(_segments(board, board.cells), stroke=INK, width=THIN,
                               closed=False, kind="grid", opacity=THIN_OPACITY)]
    pieces = [(pl, _segments(board, pl.cells)) for pl in solution.placements]
    for width, outline in ((0.3, True), (0.2, False)):  # all outlines under all colours
        overlay += [Path(segs, closed=False, kind="piece", width=width,
                         stroke=INK if outline else colours[pl.piece]) for pl, segs in pieces]
    for pl, segs in pieces:
        mids = np.array([((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in segs])
        # the edge nearest the middle, the first of those as near (rounded: no float noise)
        x, y = mids[int(np.argmin(np.round(((mids - mids.mean(axis=0)) ** 2).sum(axis=1), 9)))]
        text = labels[pl.piece]
        overlay.append(Dot(float(x), float(y), 0.2, colours[pl.piece], INK, 0.03, "label"))
        overlay.append(Label.centred(float(x), float(y), text, 0.3 / max(1, len(text) / 2),
                                     colour=INK, kind="label"))
    return Panel([], [], overlay=overlay)


def _panel_size(board: Any) -> tuple[float, float]:
    """A 2D panel's width and height in cells."""
    if board.grid.edges:
        pts = np.array(_segments(board, board.cells)).reshape(-1, 2)
        return tuple(pts.max(axis=0) - pts.min(axis=0))  # type: ignore[return-value]
    cells = cell_shapes(board.grid.name)
    return cells.width(board.dims[1]), board.dims[0] * cells.row_height


def tiling_drawing(board: Any, pieces: Sequence[Any], solutions: Sequence[Any],
                   caption: str = "", per_row: int | None = None, first: int = 1,
                   legend: bool = True) -> Drawing:
    """Solutions of tilings of ``board``: each one's layers side by side; with
    ``caption`` each is numbered (``solution 3``, counting from ``first``), and many make a
    contact sheet of about square shape (``per_row`` solutions to a row)."""
    names = [p.name for p in pieces]
    colours, labels = piece_colours(names), piece_labels(names)
    panels: list[Panel] = []
    for k, solution in enumerate(solutions):
        for panel in layer_panels(board, solution, colours, labels):
            if caption:
                panel.caption = f"{caption} {first + k}" + (f", {panel.caption}"
                                                            if panel.caption else "")
            panels.append(panel)
    layers = 1 if board.dim == 2 else board.dims[2]
    if per_row is None:
        width, height = _panel_size(board)
        width = width * layers + 0.8 * (layers - 1)
        per_row = sheet_columns(len(solutions), width, height)
    used = {pl.piece for s in solutions for pl in s.placements}
    return Drawing(in_rows(panels, per_row * layers),
                   _legend(pieces, used, colours, labels) if legend else [])


def solution_pages(board: Any, pieces: Sequence[Any], solutions: Sequence[Any]
                   ) -> list[Drawing]:
    """One numbered drawing per solution (for an HTML page), then the legend alone, if
    there is one."""
    pages = [tiling_drawing(board, pieces, [s], "solution", first=k + 1, legend=False)
             for k, s in enumerate(solutions)]
    key = tiling_drawing(board, pieces, solutions).legend
    return pages + ([Drawing([], key)] if key else [])


def frames_drawing(board: Any, pieces: Sequence[Any], answers: Sequence[Sequence[Any]]
                   ) -> Drawing:
    """The frames of each answer side by side (a row per answer, wrapped past six),
    captioned ``frame 1``... (``solution 2, frame 1``... when there are several)."""
    names = [p.name for p in pieces]
    colours, labels = piece_colours(names), piece_labels(names)
    rows: list[list[Panel]] = []
    n = max((len(a) for a in answers), default=1)
    per_row = -(-n // -(-n // 6))
    layers = 1 if board.dim == 2 else board.dims[2]
    for j, frames in enumerate(answers):
        panels = []
        for k, frame in enumerate(frames):
            head = f"solution {j + 1}, " if len(answers) > 1 else ""
            for panel in layer_panels(board, frame, colours, labels):
                panel.caption = f"{head}frame {k + 1}" + (f", {panel.caption}"
                                                          if panel.caption else "")
                panels.append(panel)
        rows += in_rows(panels, per_row * layers)  # each answer starts a new row
    used = {pl.piece for frames in answers for f in frames for pl in f.placements}
    return Drawing(rows, _legend(pieces, used, colours, labels))
