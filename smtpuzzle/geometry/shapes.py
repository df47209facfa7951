"""Shapes: finite sets of cells of one grid, their orientations and canonical forms."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.edges import edge_picture, picture_edges
from smtpuzzle.geometry.grids import Grid, grid

EMPTY_MARKS = frozenset(" .")
COORDINATE_LIMIT = 1 << 40  # far beyond any board that fits in memory


def coordinate_array(given: Iterable[Iterable[int]] | np.ndarray, what: str) -> np.ndarray:
    """``given`` points (an array, or rows of numbers) as an int64 (n, k) array: whole numbers
    (whole floats too) of at most COORDINATE_LIMIT in size. Anything else is a PuzzleError
    naming the first bad value, or, for rows of unequal length, the first row unlike the
    first (``what`` names a point: "hole", "cell")."""
    if isinstance(given, np.ndarray):
        rows = given
    else:
        try:
            rows = [list(r) for r in given]
        except TypeError:
            raise PuzzleError(f"a {what} is a list of coordinates, got "
                              f"{next(r for r in given if not isinstance(r, Iterable))!r}") \
                from None
    try:
        a = np.asarray(rows)
    except ValueError:  # ragged
        bad = next(r for r in rows if len(r) != len(rows[0]))
        raise PuzzleError(f"{what} {bad} has {len(bad)} coordinate"
                          f"{'' if len(bad) == 1 else 's'}, {rows[0]} has {len(rows[0])}") \
            from None
    if a.size == 0:
        return a.astype(np.int64).reshape(len(a), -1 if a.ndim == 2 else 0)
    if a.ndim != 2:
        raise PuzzleError(f"a {what} is a list of coordinates, got {rows[0]!r}")
    flat = a.reshape(-1)
    if a.dtype.kind in "iuf":
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(flat) | (np.mod(flat, 1) != 0) if a.dtype.kind == "f" else \
                np.zeros(flat.shape, dtype=bool)
            bad |= np.abs(flat.astype(np.float64)) > COORDINATE_LIMIT
    else:  # bools, text, None, integers too large for int64
        bad = np.array([isinstance(v, bool) or not isinstance(v, int | np.integer)
                        or abs(v) > COORDINATE_LIMIT for v in flat.tolist()])
    if bad.any():
        i = int(np.argmax(bad))
        value, point = flat[i], rows[i // a.shape[1]]
        value = value.item() if isinstance(value, np.generic) else value
        point = point.tolist() if isinstance(point, np.ndarray) else point
        if isinstance(value, int | float) and not isinstance(value, bool) and (
                np.isfinite(float(value)) and float(value) % 1 == 0):
            raise PuzzleError(f"{what} {point} is too far out: coordinates are at most "
                              f"{COORDINATE_LIMIT:,} in size")
        raise PuzzleError(f"{what} {point}: coordinates are whole numbers, not {value!r}")
    return a.astype(np.int64)


def normalize(cells: np.ndarray, on: Grid | None = None) -> np.ndarray:
    """Translate to the grid's canonical place (every axis from 0 on the square grid) and
    sort the cells lexicographically."""
    on = on or grid("square", cells.shape[1])
    cells = cells - on.origin_shift(cells)
    order = np.lexsort(cells.T[::-1])
    return cells[order]


class Shape:
    """An immutable set of cells of one grid (square by default), kept normalized
    (translated to the origin, sorted)."""

    __slots__ = ("cells", "_key", "grid", "_keys")

    def __init__(self, cells: Iterable[Iterable[int]] | np.ndarray,
                 on: Grid | str | None = None) -> None:
        arr = coordinate_array(cells, "cell")
        if len(arr) == 0:
            raise PuzzleError("a shape needs at least one cell")
        if len({tuple(c) for c in arr.tolist()}) != len(arr):
            raise PuzzleError("a shape lists the same cell twice")
        self.grid = grid(on, arr.shape[1]) if isinstance(on, str) else (
            on or grid("square", arr.shape[1]))
        bad = ~self.grid.is_cell(arr)
        if bad.any():
            raise PuzzleError(self.grid.off_grid_reason(tuple(arr[np.argmax(bad)].tolist()))
                              or "a cell is off the grid")
        self.cells = normalize(arr, self.grid)
        self.cells.setflags(write=False)
        self._key = tuple(map(tuple, self.cells.tolist()))
        self._keys: dict[bool, frozenset] = {}  # orientation_keys, made on first use

    @property
    def dim(self) -> int:
        return self.cells.shape[1]

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def extent(self) -> tuple[int, ...]:
        return tuple(int(x) + 1 for x in self.cells.max(axis=0))

    @property
    def key(self) -> tuple[tuple[int, ...], ...]:
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and self._key == other._key and \
            self.grid.name == other.grid.name

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        where = "" if self.grid.name == "square" else f", {self.grid.name!r}"
        return f"Shape({list(self._key)}{where})"

    def lifted(self, dim: int) -> Shape:
        """The same cells in a higher dimension (a flat piece lying in the first layer)."""
        if dim == self.dim:
            return self
        if self.grid.name != "square":
            raise PuzzleError(f"a piece of the {self.grid.name} grid cannot go in 3D")
        pad = np.zeros((self.size, dim - self.dim), dtype=np.int64)
        return Shape(np.hstack([self.cells, pad]))

    def orientations(self, reflections: bool = True) -> list[Shape]:
        """The distinct images of this shape under the grid's rotations (and reflections)."""
        seen: dict[tuple, Shape] = {}
        kinds = len(self.grid.group) if reflections else self.grid.rotations()
        for k in range(kinds):
            s = Shape(self.grid.transform(self.cells, k), self.grid)
            seen.setdefault(s.key, s)
        return list(seen.values())

    def orientation_keys(self, reflections: bool = True) -> frozenset:
        """The keys of :meth:`orientations` (kept: verifying a listing asks them of each
        piece for each solution)."""
        if reflections not in self._keys:
            self._keys[reflections] = frozenset(o.key for o in self.orientations(reflections))
        return self._keys[reflections]

    def canonical(self, reflections: bool = True) -> Shape:
        """The least orientation: two shapes are congruent iff their canonical forms match."""
        return min(self.orientations(reflections), key=lambda s: s.key)

    def is_connected(self) -> bool:
        cells = set(self._key)
        near = {c: [tuple(n) for n in row]
                for c, row in zip(self._key, self.grid.neighbours(self.cells).tolist(),
                                  strict=True)}
        start = next(iter(cells))
        stack, seen = [start], {start}
        while stack:
            for n in near[stack.pop()]:
                if n in cells and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return len(seen) == len(cells)

    def picture(self, mark: str = "#") -> str:
        """ASCII picture (a cell's coordinates are its line and column); 3D shapes as
        layers separated by a blank line."""
        ext = self.extent
        if self.grid.edges:
            return edge_picture(self.grid, self.cells,
                                None if mark == "#" else [mark] * self.size)
        if self.dim == 2:
            gap = " " if self.grid.parity else "."
            rows = [[gap if self.grid.parity and (r + c) % 2 else "."
                     for c in range(ext[1])] for r in range(ext[0])]
            for r, c in self._key:
                rows[r][c] = mark
            return "\n".join("".join(row).rstrip() for row in rows)
        layers = []
        for z in range(ext[2]):
            grid = [["." for _ in range(ext[1])] for _ in range(ext[0])]
            for x, y, zz in self._key:
                if zz == z:
                    grid[x][y] = mark
            layers.append("\n".join("".join(row) for row in grid))
        return "\n\n".join(layers)


_WHITESPACE = {"\t": "tab", "\r": "carriage return", "\f": "form feed", "\v": "vertical tab",
               "\xa0": "no-break space"}


MAX_PICTURE_CELLS = 4_000_000  # a bounding box beyond this is a mistake, not a puzzle


def _picture_lines(text: str) -> list[str]:
    """A picture's lines; a tab or another odd space in one is an error."""
    lines = text.strip("\n").split("\n")
    for number, line in enumerate(lines, 1):
        odd = next((ch for ch in line.rstrip() if ch.isspace() and ch != " "), None)
        if odd is not None:
            raise PuzzleError(f"the picture has a {_WHITESPACE.get(odd, repr(odd))} on line "
                              f"{number}: draw with spaces, whose width is one cell")
    return lines


def picture_cells(text: str) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Parse an ASCII picture into (filled cells, empty cells) within its bounding box.

    Any character but space and ``.`` marks a cell. Layers of a 3D picture are separated by
    a blank line (or a line of dashes); cells are then ``(row, column, layer)``.
    """
    lines = _picture_lines(text)
    layers: list[list[str]] = [[]]
    for line in lines:
        if line.strip() == "" or set(line.strip()) == {"-"}:
            if layers[-1]:
                layers.append([])
        else:
            layers[-1].append(line.rstrip())
    layers = [layer for layer in layers if layer]
    if not layers:
        raise PuzzleError("the picture is empty")
    # Common indentation is not part of the picture.
    indent = min(len(line) - len(line.lstrip(" ")) for layer in layers for line in layer)
    layers = [[line[indent:] for line in layer] for layer in layers]
    rows = max(len(layer) for layer in layers)
    cols = max(len(line) for layer in layers for line in layer)
    if rows * cols * len(layers) > MAX_PICTURE_CELLS:  # before building a tuple per cell
        size = f"{rows:,} lines of up to {cols:,} columns" + (
            f" in {len(layers):,} layers" if len(layers) > 1 else "")
        raise PuzzleError(f"the picture is {size} ({rows * cols * len(layers):,} cells); a "
                          f"picture holds at most {MAX_PICTURE_CELLS:,}")
    filled, empty = [], []
    three_d = len(layers) > 1
    for z, layer in enumerate(layers):
        for r in range(rows):
            line = layer[r] if r < len(layer) else ""
            for c in range(cols):
                ch = line[c] if c < len(line) else " "
                cell = (r, c, z) if three_d else (r, c)
                (empty if ch in EMPTY_MARKS else filled).append(cell)
    return filled, empty


def grid_picture_cells(text: str, on: Grid) -> tuple[list[tuple[int, ...]],
                                                     list[tuple[int, ...]]]:
    """:func:`picture_cells` on grid ``on``. A hexagon picture draws cells on alternate
    columns: every mark must be on the same alternate columns (they are moved to row +
    column even), and the spaces between them are no cells."""
    if on.edges:
        return _edge_picture_cells(text, on)
    filled, empty = picture_cells(text)
    if not on.parity:
        return filled, empty
    if len((filled + empty)[0]) != 2:
        raise PuzzleError(f"a {on.name} picture has one layer (a blank line or a line of "
                          "dashes starts a layer of a 3D picture)")
    parities = {(r + c) % 2 for r, c in filled}
    if len(parities) > 1:
        odd = next(c for c in filled if (c[0] + c[1]) % 2 != (filled[0][0] + filled[0][1]) % 2)
        raise PuzzleError(f"not a hexagon picture: the marks on line {filled[0][0] + 1} and "
                          f"line {odd[0] + 1} are not on alternate columns (draw hexagons as "
                          "'# # #' over ' # #')")
    shift = parities.pop() if parities else 0
    filled = [(r, c + shift) for r, c in filled]
    rows = max(r for r, _ in filled + empty) + 1
    cols = max(c for _, c in filled + empty) + 1 + shift
    taken = set(filled)
    empty = [(r, c) for r in range(rows) for c in range(cols)
             if (r + c) % 2 == 0 and (r, c) not in taken]
    return filled, empty


def _edge_picture_cells(text: str, on: Grid) -> tuple[list[tuple[int, ...]],
                                                     list[tuple[int, ...]]]:
    """:func:`grid_picture_cells` on an edge grid (edges.py): the edges drawn, and the other
    edges of the picture's box."""
    lines = _picture_lines(text)
    indent = min((len(x) - len(x.lstrip(" ")) for x in lines if x.strip()), default=0)
    marks = [(r, c, ch) for r, line in enumerate(lines) for c, ch in enumerate(line[indent:])
             if ch not in EMPTY_MARKS]
    edges = picture_edges(marks, on)
    if not edges:
        return [], []
    taken = set(edges)
    dims = np.array(edges).max(axis=0) + 1
    empty = [tuple(p) for p in on.box_points(tuple(int(d) for d in dims)).tolist()
             if tuple(p) not in taken]
    return edges, empty


def parse_picture(text: str, on: Grid | str | None = None) -> Shape:
    """A shape from an ASCII picture (see :func:`picture_cells`) on grid ``on``."""
    on = grid(on) if isinstance(on, str) else (on or grid("square"))
    filled, _ = grid_picture_cells(text, on)
    if not filled:
        raise PuzzleError("the picture has no cells (use '#' or letters for cells)")
    return Shape(filled, on if len(filled[0]) == on.dim else None)
