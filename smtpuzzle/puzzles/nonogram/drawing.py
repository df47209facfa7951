"""Drawings of nonograms as printed: the grid, a heavier line every five cells, the column
clues stacked above and the row clues to the left; filled cells dark.

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


def _clues(rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]]
           ) -> tuple[list[Item], float, float]:
    """Clue labels around a grid at (0, 0), and the left and top margins they need."""
    items: list[Item] = []
    left = 0.0
    for r, clue in enumerate(rows):
        x = -0.3
        for number in reversed(list(clue) or [0]):
            text = str(number)
            items.append(Label(x, r + 0.5 + 0.36 * CLUE, text, CLUE, "end", kind="clue"))
            x -= text_width(text, CLUE) + 0.28
        left = max(left, -x)
    top = 0.0
    for c, clue in enumerate(cols):
        numbers = list(clue) or [0]
        for i, number in enumerate(reversed(numbers)):
            y = -0.25 - i * CLUE_STEP
            items.append(Label(c + 0.5, y, str(number), CLUE, "middle", kind="clue"))
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
    """``solutions`` (rows of ``#`` / ``.``) of ``puzzle`` with its clues; ``marks`` (an
    H x W array of the codes in MARKS, 0 for the search: what decided each cell of the
    first solution) puts the debug dots in the first one."""
    grid = SquareCells()
    h, w = puzzle.height, puzzle.width
    polygons = [grid.polygon((r, c)) for r in range(h) for c in range(w)]
    edges = CellEdges(polygons)
    clues, left, top = _clues(puzzle.rows, puzzle.cols)
    fives = _fives(h, w)
    panels = []
    for k, sol in enumerate(solutions):
        owner = [1 if sol[r][c] == "#" else 0 for r in range(h) for c in range(w)]
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
        panels.append(Panel(polygons, owner, {1: FILLED}, caption=caption, outlines=False,
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


def nonogram_picture(solutions: list[list[str]]) -> Text:
    """Nonogram grids (``#`` filled, ``.`` empty) side by side, one character per cell."""
    out = Text()
    if not solutions:
        return out
    height = max(len(s) for s in solutions)
    for r in range(height):
        for k, grid in enumerate(solutions):
            if k:
                out.append("   ")
            row = grid[r] if r < len(grid) else " " * len(grid[0])
            for ch in row:
                out.append(ch, style="bold" if ch == "#" else "dim")
        out.append("\n")
    return out


def solution_text(_puzzle: object, rows: list[str]) -> Text:
    """One solved grid as text, for the family registry."""
    return nonogram_picture([rows])
