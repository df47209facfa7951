"""Pictures of pencil puzzles as printed ones look (``solve FILE --svg / --png / --html``):
the grid, rooms inside thick borders, the clues (numbers, circles, black cells, the counts
along the sides), and the solution over them: shaded cells, loops and paths as lines
through cell centres (Slitherlink's along the grid lines), groups of a Shikaku or Fillomino
inside thick borders, the numbers a solver writes in blue.

A genre says how its tokens look (Genre.picture, clue_picture, clue_text, groups,
written); everything else here is the same for every genre."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from smtpuzzle.puzzles.pencil.grids import STEP_OF, LoopGenre, components
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, PencilPuzzle
from smtpuzzle.render.colours import FILLED, INK, PAPER
from smtpuzzle.render.layout import Drawing, in_rows, sheet_columns
from smtpuzzle.render.outline import CellEdges, SquareCells
from smtpuzzle.render.panel import NOBODY, Panel
from smtpuzzle.render.scene import Dot, Item, Label, Path

WRITTEN = "#1f5fbf"  # numbers the solver wrote
LINE = "#2a6fdb"  # loops and paths
GREY = "#b8b8c0"
TREE = "#3c8c3c"
DIFFERS = "#d62728"
CLUE = 0.55  # font sizes, in cells
SIDE = 0.5


def pencil_drawing(puzzle: PencilPuzzle, solutions: Sequence[np.ndarray]) -> Drawing:
    """Each solution (a grid of the genre's tokens) drawn over the puzzle's clues, side by
    side; cells where one differs from the first outlined in red."""
    polygons = [SquareCells().polygon((r, c)) for r in range(puzzle.rows)
                for c in range(puzzle.cols)]
    edges = CellEdges(polygons)
    sides, margin = _side_clues(puzzle)
    panels = []
    for k, grid in enumerate(solutions or [np.full(puzzle.cells.shape, EMPTY, dtype=object)]):
        grid = np.asarray(grid, dtype=object)
        dark = {(int(r), int(c)) for r, c in np.argwhere(np.isin(
            grid, [t for t, kind in puzzle.genre.picture.items() if kind == "shade"]))}
        marks, labels = _clues(puzzle, dark)
        overlay: list[Item] = marks + _solution(puzzle, grid, edges) + labels + sides
        if k:
            differ = [r * puzzle.cols + c for r, c in np.argwhere(grid != solutions[0])]
            if differ:
                overlay.append(Path(tuple(edges.loops(differ)), stroke=DIFFERS, width=0.1,
                                    kind="differs"))
        owner, outlines = _owners(puzzle, grid)
        caption = f"solution {k + 1}" if len(solutions) > 1 else ""
        panels.append(Panel(polygons, owner, caption=caption, outlines=outlines,
                            grid="all", overlay=overlay, margin=margin))
    per_row = sheet_columns(len(panels), puzzle.cols + margin[0] + margin[2],
                            puzzle.rows + margin[1] + margin[3])
    return Drawing(in_rows(panels, per_row), title=puzzle.name)


def _owners(puzzle: PencilPuzzle, grid: np.ndarray) -> tuple[list[int], bool]:
    """Each cell's room (thick borders between rooms), or its group for genres whose
    solution is groups (Shikaku's rectangles, Fillomino's numbers); all one, without
    borders, otherwise."""
    if puzzle.genre.groups:  # a group: equal tokens joined by sides
        ids = np.zeros(grid.shape, dtype=np.int64)
        pieces = [p for t in dict.fromkeys(grid.ravel().tolist()) for p in components(grid == t)]
        for k, piece in enumerate(pieces):
            ids[tuple(np.array(piece).T)] = k
        return ids.ravel().tolist(), True
    if puzzle.regions is not None:
        return [int(v) if v >= 0 else NOBODY for v in puzzle.regions.ravel()], True
    return [0] * puzzle.cells.size, False


def _mark(kind: str, r: int, c: int) -> list[Item]:
    """A cell's mark: a fill, a disc, a circle or a dot."""
    square = (((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)),)
    x, y = c + 0.5, r + 0.5
    if kind in ("shade", "black"):
        return [Path(square, fill=FILLED, kind="shaded")]
    if kind == "grey":
        return [Path(square, fill=GREY, kind="shaded")]
    if kind == "disc":
        return [Dot(x, y, 0.36, FILLED, INK, 0.05, kind="disc")]
    if kind == "circle":
        return [Dot(x, y, 0.36, PAPER, INK, 0.06, kind="circle")]
    if kind == "tree":
        return [Dot(x, y, 0.3, TREE, kind="tree")]
    if kind == "dot":
        return [Dot(x, y, 0.24, LINE, kind="mark")]
    return []


def _solution(puzzle: PencilPuzzle, grid: np.ndarray, edges: CellEdges) -> list[Item]:
    genre = puzzle.genre
    items: list[Item] = []
    lines = isinstance(genre, LoopGenre)
    segments = []
    for (r, c), token in np.ndenumerate(grid):
        token = str(token)
        if token in genre.picture:
            items += _mark(genre.picture[token], r, c)
        elif lines and token != EMPTY and set(token) <= set(STEP_OF):
            for ch in token:
                dr, dc = STEP_OF[ch]
                segments.append(((c + 0.5, r + 0.5), (c + 0.5 + dc / 2, r + 0.5 + dr / 2)))
        elif genre.written and token not in (EMPTY, "?") and puzzle.cells[r, c] != token:
            items.append(Label.centred(c + 0.5, r + 0.5, token, _size(token), colour=WRITTEN,
                                       kind="written"))
    if segments:
        items.append(Path(tuple(segments), stroke=LINE, width=0.14, closed=False, kind="line"))
    if genre.boundary:  # the loop along the grid lines around the cells of that token
        inside = grid == genre.boundary
        cells = [r * puzzle.cols + c for r, c in np.argwhere(inside)]
        if cells:
            items.append(Path(tuple(edges.loops(cells)), stroke=LINE, width=0.12,
                              kind="line"))
    return items


def _clues(puzzle: PencilPuzzle, dark: set[tuple[int, int]]) -> tuple[list[Item], list[Item]]:
    """The clues' marks (under the solution) and their texts (over it; white on a dark
    cell, as on the cells of ``dark`` the solution shades)."""
    genre = puzzle.genre
    marks: list[Item] = []
    labels: list[Item] = []
    for r, c, token in puzzle.clues():
        kind = genre.clue_picture.get(token, genre.clue_picture.get("*", ""))
        marks += _mark(kind, r, c)
        text = genre.clue_text(token)
        if text:
            colour = PAPER if kind in ("black", "disc") or (r, c) in dark else INK
            labels.append(Label.centred(c + 0.5, r + 0.5, text, _size(text), colour=colour,
                                        bold=True, kind="clue"))
    return marks, labels


def _size(text: str) -> float:
    return min(CLUE, 0.9 / (0.62 * max(len(text), 1)))


def _side_clues(puzzle: PencilPuzzle) -> tuple[list[Item], tuple[float, float, float, float]]:
    """The numbers along the sides, and the margins (left, top, right, bottom) they take."""
    items: list[Item] = []
    rows, cols = puzzle.rows, puzzle.cols
    at = {"top": lambda k: (k + 0.5, -0.5), "bottom": lambda k: (k + 0.5, rows + 0.5),
          "left": lambda k: (-0.5, k + 0.5), "right": lambda k: (cols + 0.5, k + 0.5)}
    for side, tokens in puzzle.edges.items():
        for k, token in enumerate(tokens):
            if token != EMPTY:
                x, y = at[side](k)
                items.append(Label.centred(x, y, token, min(SIDE, _size(token)), kind="clue"))
    margin = tuple(1.0 if side in puzzle.edges else 0.0
                   for side in ("left", "top", "right", "bottom"))
    return items, margin  # type: ignore[return-value]
