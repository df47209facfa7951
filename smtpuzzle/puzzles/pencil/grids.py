"""What the genres share: the grid's neighbour pairs and its loops for their models (built
with the public modelling API), and plain grid walks for their verifiers (which never look
at a model)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import numpy as np

from smtpuzzle.model import BoolArray, Connected, Model, grid_graph
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, UNKNOWN, Genre, PencilPuzzle, wrong

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # up, down, left, right


# -- models ---------------------------------------------------------------------------------

def shaded_tokens(values: np.ndarray, shape: tuple[int, int], on: str = "x",
                  off: str = "-") -> np.ndarray:
    """Booleans (None where unknown) as a grid of ``on`` / ``off`` / ``?`` tokens."""
    flat = np.asarray(values, dtype=object).reshape(shape)
    out = np.full(shape, UNKNOWN, dtype=object)
    out[flat == True] = on  # noqa: E712  elementwise on an object array
    out[flat == False] = off  # noqa: E712
    return out


def number_tokens(values: np.ndarray) -> np.ndarray:
    """Integers (None where unknown) as a grid of number tokens and ``?``."""
    return np.array([[UNKNOWN if v is None else str(v) for v in row] for row in values],
                    dtype=object)


def apart(m: Model, shaded: BoolArray) -> None:
    """No two cells of ``shaded`` (rows x cols) share a side."""
    m.add(shaded[:-1] + shaded[1:] <= 1, shaded[:, :-1] + shaded[:, 1:] <= 1)


def apart_and_connected(m: Model, shaded: BoolArray) -> None:
    """No two cells of ``shaded`` (rows x cols) side by side, the other cells connected
    (Hitori, Heyawake, Kurodoko); and, implied by those on a grid at least 2 wide both
    ways, no unshaded cell walled in by shaded ones (one clause a cell, which spares a lazy
    round for each such cell)."""
    rows, cols = shaded.shape
    apart(m, shaded)
    m.add(Connected(~shaded.ravel(), grid_graph(rows, cols)))
    if rows < 2 or cols < 2:  # a line: one unshaded cell between two shaded ones may be all
        return
    off = m.bool_array(1, name="off-grid", user=False)
    m.add(~off)
    free = np.append((~shaded).ids.ravel(), off.ids)
    rr, cc = np.divmod(np.arange(rows * cols), cols)
    clause = [shaded.ids.ravel()]
    for dr, dc in STEPS:
        r2, c2 = rr + dr, cc + dc
        ok = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
        clause.append(free[np.where(ok, r2 * cols + c2, rows * cols)])
    m.add_clauses(np.stack(clause, axis=1))


def total(items: list) -> object:  # a LinExpr
    """The sum of model terms (BoolArrays, LinExprs), left to right."""
    out = items[0].lin() if hasattr(items[0], "lin") else items[0]
    for item in items[1:]:
        out = out + item
    return out


def by_key(keys: np.ndarray, n: int) -> np.ndarray:
    """For each key 0..n-1, the positions in ``keys`` that hold it: an (n, width) array,
    rows padded with len(keys) (one past the end, where callers keep a literal that is
    always false), so that ``x[by_key(k, n)].sum(axis=1)`` sums each key's terms."""
    keys = np.asarray(keys, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    counts = np.bincount(keys, minlength=n)
    out = np.full((n, max(int(counts.max(initial=0)), 1)), len(keys), dtype=np.int64)
    out[keys[order], np.arange(len(keys)) - np.repeat(np.cumsum(counts) - counts, counts)] = \
        order
    return out


def line_counts(puzzle: PencilPuzzle, m: Model, named: bool, on: BoolArray) -> None:
    """The numbers along the top and left (``puzzle.edges``) count the cells of ``on`` in
    each column and row: Tents' tents, Battleship's ship cells."""
    for side, axis in (("top", 0), ("left", 1)):
        for k, token in enumerate(puzzle.edges[side]):
            if token != EMPTY:
                with puzzle.group(m, named, f"{side} {k + 1}: {token}"):
                    m.add((on[:, k] if axis == 0 else on[k]).sum() == int(token))


def check_line_counts(puzzle: PencilPuzzle, on: np.ndarray, what: str) -> None:
    """A verifier's :func:`line_counts`: raise where a column or row holds another number
    of ``what`` (cells of ``on``) than its clue says."""
    for side, counts in (("top", on.sum(axis=0)), ("left", on.sum(axis=1))):
        for k, token in enumerate(puzzle.edges[side]):
            if token != EMPTY and counts[k] != int(token):
                wrong(puzzle, f"{counts[k]} {what} in {'column' if side == 'top' else 'row'} "
                              f"{k + 1}, not {token}")


def no_square(m: Model, s: BoolArray) -> None:
    """No 2x2 block of cells all in ``s`` (a rows x cols array)."""
    m.add(s[:-1, :-1] + s[1:, :-1] + s[:-1, 1:] + s[1:, 1:] <= 3)


def no_checkerboard(m: Model, s: BoolArray) -> None:
    """No 2x2 block of ``s`` (a rows x cols array) a checkerboard: two cells corner to corner
    in it, the other two out."""
    cross = s[:-1, :-1] + s[1:, 1:] - s[:-1, 1:] - s[1:, :-1]
    m.add(cross <= 1, cross >= -1)


def adjacent(rows: int, cols: int) -> np.ndarray:
    """The (E, 2) pairs of flat cell indices that share a side."""
    return grid_graph(rows, cols).edges


def link_index(rows: int, cols: int) -> dict[str, np.ndarray]:
    """For each direction ("up", "down", "left", "right"), the rows x cols array of the
    grid_graph edge each cell leaves by that way; E (the edge count) past the border."""
    e = rows * (cols - 1) + (rows - 1) * cols
    across = np.full((rows, cols + 1), e)
    across[:, 1:cols] = np.arange(rows * (cols - 1)).reshape(rows, cols - 1)
    down = np.full((rows + 1, cols), e)
    down[1:rows] = rows * (cols - 1) + np.arange((rows - 1) * cols).reshape(rows - 1, cols)
    return {"up": down[:-1], "down": down[1:], "left": across[:, :-1], "right": across[:, 1:]}


class CellLinks:
    """A path or loop through cell centres: a boolean per pair of neighbouring cells (the
    edges of ``grid_graph``, ``link``) and one more, always false, for the outside, so that
    ``left``, ``right``, ``up``, ``down`` (each a rows x cols BoolArray: whether the line
    leaves the cell that way) are plain index arrays."""

    def __init__(self, m: Model, rows: int, cols: int, name: str = "link") -> None:
        self.graph = grid_graph(rows, cols)
        e = len(self.graph.edges)
        self.all = m.bool_array(e + 1, name=name)
        m.add(~self.all[e])
        self.link = self.all[:e]
        self.index = link_index(rows, cols)
        self.left, self.right = self.all[self.index["left"]], self.all[self.index["right"]]
        self.up, self.down = self.all[self.index["up"]], self.all[self.index["down"]]

    def degree(self):  # noqa: ANN201  a LinExpr, rows x cols
        return self.left + self.right + self.up + self.down


def directions(values: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """For each cell, the set of directions a line leaves it by ("up", ...), from the
    links' values (CellLinks.link; None where unknown): None where any is unknown."""
    vals = np.append(np.asarray(values, dtype=object), False)
    index = link_index(rows, cols)
    out = np.empty((rows, cols), dtype=object)
    for (r, c), _ in np.ndenumerate(out):
        got = {d: vals[index[d][r, c]] for d in index}
        out[r, c] = None if any(v is None for v in got.values()) else \
            {d for d, v in got.items() if v}
    return out


# -- verifiers ------------------------------------------------------------------------------

def inside(r: int, c: int, shape: tuple[int, ...]) -> bool:
    return 0 <= r < shape[0] and 0 <= c < shape[1]


def around(r: int, c: int, shape: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """The cells sharing a side with (r, c)."""
    for dr, dc in STEPS:
        if inside(r + dr, c + dc, shape):
            yield r + dr, c + dc


def components(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """The pieces of the cells where ``mask`` holds, joined through shared sides."""
    seen = np.zeros(mask.shape, dtype=bool)
    pieces = []
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        seen[start] = True
        piece, todo = [], [start]
        while todo:
            cell = todo.pop()
            piece.append((int(cell[0]), int(cell[1])))
            for nb in around(*cell, mask.shape):
                if mask[nb] and not seen[nb]:
                    seen[nb] = True
                    todo.append(nb)
        pieces.append(piece)
    return pieces


def side_by_side(mask: np.ndarray) -> bool:
    """Whether two cells of ``mask`` share a side."""
    return bool((mask[:-1] & mask[1:]).any() or (mask[:, :-1] & mask[:, 1:]).any())


def any_square(mask: np.ndarray) -> tuple[int, int] | None:
    """The top-left cell of a 2x2 block all in ``mask``, or None."""
    block = mask[:-1, :-1] & mask[1:, :-1] & mask[:-1, 1:] & mask[1:, 1:]
    hits = np.argwhere(block)
    return (int(hits[0][0]), int(hits[0][1])) if len(hits) else None


# -- lines through cell centres, as the collection writes them ------------------------------

# A cell a line passes is written by the sides it leaves by, in this order: "se", "ew"...
LETTERS = (("up", "n"), ("down", "s"), ("right", "e"), ("left", "w"))
STEP_OF = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}
BACK = {"n": "s", "s": "n", "e": "w", "w": "e"}


def line_tokens(directions: np.ndarray, off: str = "-") -> np.ndarray:
    """CellLinks.directions as tokens: the letters of the sides left by, ``off`` for a cell
    the line misses, ``?`` where unknown."""
    out = np.full(directions.shape, UNKNOWN, dtype=object)
    for (r, c), ways in np.ndenumerate(directions):
        if ways is not None:
            out[r, c] = "".join(ch for d, ch in LETTERS if d in ways) or off
    return out


def line_sides(grid: np.ndarray) -> dict[tuple[int, int], set[str]]:
    """For each cell of a solution grid written with side letters, the letters it holds
    (cells of other tokens left out)."""
    return {(r, c): set(str(t)) for (r, c), t in np.ndenumerate(grid)
            if str(t) and set(str(t)) <= set(STEP_OF)}


def check_lines(puzzle: PencilPuzzle, grid: np.ndarray, loop: bool
                ) -> list[list[tuple[int, int]]]:
    """Check that the side letters of ``grid`` fit together (a cell's side leads to a cell
    that leads back) and return the lines they draw, each a list of cells in order: one
    closed loop for ``loop`` (every cell two sides), else paths (ends one side)."""
    sides = line_sides(grid)
    for (r, c), letters in sides.items():
        if len(letters) > 2 or (loop and len(letters) != 2):
            wrong(puzzle, f"a line with {len(letters)} ends in one cell", r, c)
        for ch in letters:
            dr, dc = STEP_OF[ch]
            other = (r + dr, c + dc)
            if BACK[ch] not in sides.get(other, set()):
                wrong(puzzle, "a line leads out of the cell to nowhere", r, c)
    lines, seen = [], set()
    starts = [cell for cell, letters in sides.items() if len(letters) == 1] + list(sides)
    for start in starts:
        if start in seen:
            continue
        line, cell, came = [start], start, None
        seen.add(start)
        while True:
            nxt = [ch for ch in sides[cell] if ch != came]
            if not nxt:
                break
            dr, dc = STEP_OF[nxt[0]]
            cell, came = (cell[0] + dr, cell[1] + dc), BACK[nxt[0]]
            if cell in seen:
                break
            seen.add(cell)
            line.append(cell)
        lines.append(line)
    return lines


def one_loop(puzzle: PencilPuzzle, grid: np.ndarray) -> np.ndarray:
    """The cells of the one closed loop ``grid``'s side letters draw (a mask); a broken rule
    (lines that do not fit, more than one loop) raises."""
    loops = check_lines(puzzle, grid, loop=True)
    if len(loops) != 1:
        wrong(puzzle, f"{len(loops)} loops, not one")
    on = np.zeros(grid.shape, dtype=bool)
    on[tuple(np.array(loops[0]).T)] = True
    return on


class LoopGenre(Genre):
    """A genre whose answer is one loop through cell centres (CellLinks.link): decoded to
    the side letters of each cell, drawn with box-drawing pieces (``shown``: how its other
    solution tokens draw)."""

    shown: ClassVar[dict[str, str]] = {}

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return line_tokens(directions(values, puzzle.rows, puzzle.cols))

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        from smtpuzzle.puzzles.pencil.drawing import line_text

        return line_text(puzzle, grid, self.shown)


class ColourGenre(Genre):
    """A genre whose answer colours every cell black (``b``) or white (``w``), some given
    (Binairo, Yin-Yang): the tokens, the givens posted (:meth:`coloured`) and checked
    (:meth:`check_colours`), decoding, drawing."""

    symbols = "b (black), w (white) or -"
    picture: ClassVar[dict[str, str]] = {"b": "disc", "w": "circle"}
    clue_picture: ClassVar[dict[str, str]] = picture

    def cell_ok(self, token: str) -> bool:
        return token in (EMPTY, "b", "w")

    def coloured(self, puzzle: PencilPuzzle, m: Model, named: bool) -> BoolArray:
        """A literal per cell, true for black, the givens posted."""
        black = m.bool_array(puzzle.cells.shape, name="black")
        for r, c, token in puzzle.clues():
            with puzzle.given(m, named, r, c):
                m.add(black[r, c] if token == "b" else ~black[r, c])
        return black

    def check_colours(self, puzzle: PencilPuzzle, grid: np.ndarray) -> None:
        """Raise unless every cell of ``grid`` is black or white and the givens stand."""
        if not np.isin(grid, ["b", "w"]).all():
            wrong(puzzle, "a cell neither black nor white")
        for r, c, token in puzzle.clues():
            if grid[r, c] != token:
                wrong(puzzle, "a given colour changed", r, c)

    def decode(self, puzzle: PencilPuzzle, values: np.ndarray) -> np.ndarray:
        return shaded_tokens(values, puzzle.cells.shape, "b", "w")

    def text(self, puzzle: PencilPuzzle, grid: np.ndarray) -> str:
        from smtpuzzle.puzzles.pencil.drawing import colours_text

        return colours_text(grid)


class Padded:
    """Booleans for the cells of a rows x cols grid and one more, always false, for the
    outside: ``grid`` is the cells, ``near[d]`` (d one of STEPS, or a diagonal step) the
    neighbour that way, false past the border."""

    def __init__(self, m: Model, rows: int, cols: int, name: str, user: bool = True) -> None:
        self.all = m.bool_array(rows * cols + 1, name=name, user=user)
        m.add(~self.all[rows * cols])
        self.grid = self.all[:rows * cols].reshape(rows, cols)
        self.rows, self.cols = rows, cols

    def index(self, dr: int, dc: int) -> np.ndarray:
        rr, cc = np.meshgrid(np.arange(self.rows) + dr, np.arange(self.cols) + dc,
                             indexing="ij")
        ok = (rr >= 0) & (rr < self.rows) & (cc >= 0) & (cc < self.cols)
        return np.where(ok, rr * self.cols + cc, self.rows * self.cols)

    def around(self):  # noqa: ANN201  a LinExpr, rows x cols
        """How many of each cell's side neighbours are true."""
        return self.all[np.stack([self.index(dr, dc) for dr, dc in STEPS], axis=-1)].sum(
            axis=2)
