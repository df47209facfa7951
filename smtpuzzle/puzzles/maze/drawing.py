"""Drawing a move string walked on one maze: walls, blocked cells, the cells visited (and
those it should have visited but missed), the walk from blue to red, moves into a wall as
dots against that wall."""

from __future__ import annotations

from typing import Any

from smtpuzzle.render.colours import INK, blend
from smtpuzzle.render.layout import Drawing, LegendEntry, in_rows
from smtpuzzle.render.outline import SquareCells
from smtpuzzle.render.panel import NOBODY, Panel
from smtpuzzle.render.scene import Dot, Item, Label, Path

VISITED, MISSED, BLOCKED, UNREACHED = 1, 2, 3, 4
COLOURS = {VISITED: "#cfe8c6", MISSED: "#f6b3b3", BLOCKED: "#4a4a55", UNREACHED: "#ececec"}
FIRST, LAST = "#1f5fbf", "#d62728"  # the walk's colour at its start and at its end
_STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}  # N E S W as (dx, dy)
LANE = 0.085  # how far apart repeated passes along one edge are drawn, in cells
MAZE_CELL = 100  # pixels per maze cell unless told: a maze has only 9 or 16 cells


def _walls(cases: Any, k: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    from smtpuzzle.puzzles.maze.cases import dims

    moves, segs = cases.moves(k), []
    if cases.size == 4:  # blocked cells, no thin walls
        return segs
    rows, cols = dims(cases.size)
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            if c < cols - 1 and moves[cell, 1] != cell + 1:
                segs.append(((c + 1, r), (c + 1, r + 1)))
            if r < rows - 1 and moves[cell, 2] != cell + cols:
                segs.append(((c, r + 1), (c + 1, r + 1)))
    return segs


def _walk(cells: list[int], directions: list[int], n: int) -> list[Item]:
    """The walk (``cells`` after each of the ``directions``) as one short path per move,
    coloured along the way, repeated passes along an edge side by side; moves into a wall
    as dots against it."""
    items: list[Item] = []
    passes: dict[tuple[int, int], int] = {}
    moves = len(cells) - 1
    ends = []  # (start, end) point of each real move, offset to its lane
    colours = []
    for t in range(moves):
        a, b = cells[t], cells[t + 1]
        colour = blend(FIRST, LAST, t / max(moves - 1, 1))
        ax, ay = a % n + 0.5, a // n + 0.5
        if a == b:
            continue
        bx, by = b % n + 0.5, b // n + 0.5
        edge = (min(a, b), max(a, b))
        m = passes.get(edge, 0)
        passes[edge] = m + 1
        lane = ((m + 2) % 5 - 2) * LANE
        px, py = -(by - ay) * lane, (bx - ax) * lane  # perpendicular to the move
        ends.append(((ax + px, ay + py), (bx + px, by + py)))
        colours.append(colour)
    for i, ((p, q), colour) in enumerate(zip(ends, colours, strict=True)):
        points = (p, q) + ((ends[i + 1][0],) if i + 1 < len(ends) else ())
        items.append(Path((points,), stroke=colour, width=0.05, closed=False, kind="walk"))
    for (p, q), colour in zip(ends, colours, strict=True):  # which way each move goes
        items.append(_arrowhead(p, q, colour))
    for t in range(moves):  # bumps on top of the lines
        a, b = cells[t], cells[t + 1]
        if a == b:
            d = _STEP[directions[t]]
            x, y = a % n + 0.5 + d[0] * 0.36, a // n + 0.5 + d[1] * 0.36
            items.append(Dot(x, y, 0.05, blend(FIRST, LAST, t / max(moves - 1, 1)),
                             kind="bump"))
    return items


def _arrowhead(p: tuple[float, float], q: tuple[float, float], colour: str) -> Path:
    """A small triangle halfway from ``p`` to ``q``, pointing at ``q``."""
    (px, py), (qx, qy) = p, q
    length = ((qx - px) ** 2 + (qy - py) ** 2) ** 0.5
    ux, uy = (qx - px) / length, (qy - py) / length
    mx, my, a = (px + qx) / 2, (py + qy) / 2, 0.06
    tip = (mx + ux * a, my + uy * a)
    left = (mx - ux * a - uy * a * 0.8, my - uy * a + ux * a * 0.8)
    right = (mx - ux * a + uy * a * 0.8, my - uy * a - ux * a * 0.8)
    return Path(((tip, left, right),), fill=colour, kind="arrow")


def maze_drawing(walk: Any, string: str) -> Drawing:
    """``string`` walked on one maze (``walk``: a puzzles.maze.cases.CaseWalk)."""
    from smtpuzzle.puzzles.maze.cases import LETTERS, all_cases, dims, is_open_cell, parse_string

    cases, k = all_cases(walk.size), walk.index
    rows, n = dims(walk.size)  # n: columns, which cell numbers wrap at
    string = parse_string(string)
    cells = walk.cells
    visited = set(cells)
    target, reach = int(cases.target[k]), int(cases.reach[k])
    verdict = "solved" if walk.solved else "FAILS"
    caption = (f"maze {walk.maze}, start {walk.start}: {verdict}, {len(string)} moves"
               if walk.size != 4 else f"maze {walk.maze}: {verdict}, {len(string)} moves")
    grid = SquareCells()
    polygons, owner = [], []
    for cell in range(rows * n):
        polygons.append(grid.polygon(divmod(cell, n)))
        if not is_open_cell(cases, k, cell):
            owner.append(BLOCKED)
        elif cell in visited:
            owner.append(VISITED)
        elif (target >> cell) & 1:
            owner.append(MISSED)
        elif not (reach >> cell) & 1:
            owner.append(UNREACHED)
        else:
            owner.append(NOBODY)
    walls = _walls(cases, k)
    over: list[Item] = []
    if walls:
        over.append(Path(tuple(walls), stroke=INK, width=0.07, closed=False, kind="wall"))
    start = cells[0]
    over.append(Label(start % n + 0.2, start // n + 0.32, "S", 0.26, bold=True, kind="mark"))
    if walk.size == 4:
        goal = n * n - 1
        over.append(Label(goal % n + 0.8, goal // n + 0.32, "G", 0.26, bold=True,
                          kind="mark"))
    moves = _walk(cells, [LETTERS.index(ch) for ch in string], n)
    ends = [Dot(start % n + 0.5, start // n + 0.5, 0.11, FIRST, "#ffffff", 0.03,
                kind="start"),
            Dot(cells[-1] % n + 0.5, cells[-1] // n + 0.5, 0.11, "#ffffff", LAST, 0.05,
                kind="end")]
    panel = Panel(polygons, owner, {r: COLOURS[r] for r in COLOURS}, caption=caption,
                  outlines=False, grid="all", overlay=over + moves + ends)
    legend = [LegendEntry("visited", COLOURS[VISITED])]
    if MISSED in owner:
        legend.append(LegendEntry("to visit, missed", COLOURS[MISSED]))
    if UNREACHED in owner:
        legend.append(LegendEntry("not reachable", COLOURS[UNREACHED]))
    if BLOCKED in owner:
        legend.append(LegendEntry("blocked", COLOURS[BLOCKED]))
    legend += [LegendEntry("first move", dot=FIRST), LegendEntry("last move", dot=LAST)]
    return Drawing(in_rows([panel]), legend)
