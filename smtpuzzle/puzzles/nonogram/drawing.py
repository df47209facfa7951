"""Drawings of nonograms as printed: the grid, a heavier line every five cells, the column
clues stacked above and the row clues to the left; filled cells dark. In a colour puzzle
each cell has its colour and each clue number sits on a box of its run's colour.

Several solutions are drawn side by side, the cells where one differs from the first
outlined in red. Marks (a debug view) put a dot in each cell saying what decided it: line
solving, probing, a guess the back end was offered, or (no dot) the search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from smtpuzzle.render.colours import FILLED, INK
from smtpuzzle.render.layout import Drawing, LegendEntry, in_rows, sheet_columns
from smtpuzzle.render.outline import CellEdges, SquareCells
from smtpuzzle.render.panel import Panel
from smtpuzzle.render.scene import Dot, Item, Label, Path, text_width

CLUE = 0.5  # clue font size, in cells
CLUE_STEP = 0.62  # vertical distance between stacked column clues, in cells
DIFFERS = "#d62728"
# What decided a cell (the codes of NonogramAnswer.origins), its dot's colour and name.
MARKS = {1: ("#3b7dd8", "line solving"), 2: ("#2ca02c", "probing"),
         3: ("#ff9f1c", "guessed right"), 4: ("#c23bd4", "guessed wrong (given up)")}


def _dark(rgb: str) -> bool:
    """Whether white text reads better than black on ``rgb`` (#rrggbb)."""
    r, g, b = (int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def _clue_label(x: float, y: float, text: str, anchor: str, rgb: str | None) -> list[Item]:
    """A clue number with its baseline at y; on a box of ``rgb`` (a colour clue's run)."""
    if rgb is None:
        return [Label(x, y, text, CLUE, anchor, kind="clue")]
    width = text_width(text, CLUE)
    x0 = x - width if anchor == "end" else x - width / 2
    box = ((x0 - 0.07, y - 0.44), (x0 + width + 0.07, y - 0.44), (x0 + width + 0.07, y + 0.1),
           (x0 - 0.07, y + 0.1))
    ink = "#ffffff" if _dark(rgb) else INK
    return [Path((box,), fill=rgb, stroke=INK, width=0.02, kind="clue-box"),
            Label(x, y, text, CLUE, anchor, colour=ink, kind="clue")]


def _clues(puzzle: Any) -> tuple[list[Item], float, float]:
    """Clue labels around a grid at (0, 0), and the left and top margins they need."""
    items: list[Item] = []
    colours = puzzle.colours if puzzle.coloured else None

    def runs(clue: Sequence[int], inks: Sequence[int]) -> list[tuple[str, str | None]]:
        if not clue:
            return [("0", None)]
        return [(str(n), colours[k].rgb if colours else None)
                for n, k in zip(clue, inks, strict=True)]

    left = 0.0
    for r, (clue, inks) in enumerate(zip(puzzle.rows, puzzle.row_inks, strict=True)):
        x = -0.3
        for text, rgb in reversed(runs(clue, inks)):
            items += _clue_label(x, r + 0.5 + 0.36 * CLUE, text, "end", rgb)
            x -= text_width(text, CLUE) + 0.28
        left = max(left, -x)
    top = 0.0
    for c, (clue, inks) in enumerate(zip(puzzle.cols, puzzle.col_inks, strict=True)):
        numbers = runs(clue, inks)
        for i, (text, rgb) in enumerate(reversed(numbers)):
            items += _clue_label(c + 0.5, -0.25 - i * CLUE_STEP, text, "middle", rgb)
        top = max(top, 0.25 + len(numbers) * CLUE_STEP)
    return items, left + 0.1, top + 0.1


def _fives(height: int, width: int) -> Path | None:
    segs = [((0, y), (width, y)) for y in range(5, height, 5)]
    segs += [((x, 0), (x, height)) for x in range(5, width, 5)]
    if not segs:
        return None
    return Path(tuple(segs), stroke=INK, width=0.05, closed=False, kind="grid5",
                opacity=0.75, round=False)


def nonogram_drawing(puzzle: Any, solutions: Sequence[Sequence[str]],
                     marks: Any = None) -> Drawing:
    """``solutions`` (rows of the colours' characters) of ``puzzle`` with its clues; ``marks`` (an
    H x W array of the codes in MARKS, 0 for the search: what decided each cell of the
    first solution) puts the debug dots in the first one."""
    grid = SquareCells()
    h, w = puzzle.height, puzzle.width
    polygons = [grid.polygon((r, c)) for r in range(h) for c in range(w)]
    edges = CellEdges(polygons)
    clues, left, top = _clues(puzzle)
    fives = _fives(h, w)
    fills = ({k: c.rgb for k, c in enumerate(puzzle.colours) if k} if puzzle.coloured
             else {1: FILLED})
    panels = []
    for k, sol in enumerate(solutions):
        owner = puzzle.indices(sol).ravel().tolist()
        overlay: list[Item] = [fives] if fives else []
        if k:
            differ = [r * w + c for r in range(h) for c in range(w)
                      if solutions[0][r][c] != sol[r][c]]
            if differ:
                overlay.append(Path(tuple(edges.loops(differ)), stroke=DIFFERS, width=0.1,
                                    kind="differs"))
        if marks is not None and k == 0:  # how the first solution was found
            for i in range(h * w):
                code = int(marks[i // w, i % w])
                if code in MARKS:
                    x, y = edges.centre(i)
                    overlay.append(Dot(x, y, 0.14, MARKS[code][0], "#ffffff", 0.04,
                                       kind="mark"))
        caption = f"solution {k + 1}" if len(solutions) > 1 else ""
        panels.append(Panel(polygons, owner, fills, caption=caption, outlines=False,
                            grid="all", overlay=overlay + clues, margin=(left, top, 0, 0)))
    legend = []
    if marks is not None:
        used = {int(v) for v in marks.ravel()}
        legend = [LegendEntry(name, dot=colour) for code, (colour, name) in MARKS.items()
                  if code in used]
        legend.append(LegendEntry("no dot: decided by the search"))
    if len(solutions) > 1 and any(a != b for s in solutions[1:]
                                  for a, b in zip(solutions[0], s, strict=True)):
        legend.append(LegendEntry("differs from solution 1", colour="#ffffff", edge=DIFFERS))
    per_row = sheet_columns(len(panels), w + left, h + top)
    return Drawing(in_rows(panels, per_row), legend, title=_title(puzzle))


def _title(puzzle: Any) -> str:
    return getattr(puzzle, "title", "") or ""


def nonogram_picture(solutions: list[list[str]], puzzle: Any = None) -> Text:
    """Nonogram grids side by side, one character per cell: ``#`` filled and ``.`` empty,
    or (a colour ``puzzle``) each colour's character on its colour."""
    out = Text()
    if not solutions:
        return out
    styles = {"#": "bold", ".": "dim"}
    if puzzle is not None and puzzle.coloured:
        styles = {c.char: (f"{'white' if _dark(c.rgb) else 'black'} on {c.rgb}" if k
                           else "dim") for k, c in enumerate(puzzle.colours)}
    height = max(len(s) for s in solutions)
    for r in range(height):
        for k, grid in enumerate(solutions):
            if k:
                out.append("   ")
            row = grid[r] if r < len(grid) else " " * len(grid[0])
            for ch in row:
                out.append(ch, style=styles.get(ch, ""))
        out.append("\n")
    return out


def solution_text(puzzle: object, rows: list[str]) -> Text:
    """One solved grid as text, for the family registry."""
    return nonogram_picture([rows], puzzle)
