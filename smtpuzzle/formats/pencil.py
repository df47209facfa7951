"""The plain-text grids of pencil puzzles, as the public collection puzzlekit uses writes
them: a first line ``ROWS COLS`` and the genre's numbers (Star Battle's stars), then what
the genre's layout names, each token apart by spaces, ``-`` for an empty cell:

- ``cells``: ROWS lines of COLS tokens, the clue grid;
- ``regions``: ROWS lines of COLS region numbers;
- ``top`` / ``bottom``: a line of COLS clues along that side; ``left`` / ``right``: a
  line of ROWS clues.

The file's suffix names the genre (``puzzle.nurikabe``). Solutions are written the same
way: the size line, then the solution grid (``puzzle_text``, ``solution_text``). Every way
a file can be wrong is a one-line PuzzleError naming the file, the line and the column.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.pencil.genres import genre_named
from smtpuzzle.puzzles.pencil.grids import components
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, Genre, PencilPuzzle, grid_text
from smtpuzzle.runtime.files import read_text

MAX_SIDE = 200  # the collection's largest grids are 118 x 100


def load_pencil(path: Path) -> PencilPuzzle:
    """The puzzle of a plain-text file; its suffix names the genre."""
    genre = genre_named(Path(path).suffix[1:])
    return parse_pencil(read_text(path), genre, str(path), Path(path).stem)


def parse_pencil(text: str, genre: Genre, where: str = "", name: str = "") -> PencilPuzzle:
    """The puzzle ``text`` writes (see the module docstring)."""
    where = where or genre.name
    lines = [(k, line.split()) for k, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise PuzzleError(f"{genre.name}: an empty file (it starts with a line 'ROWS COLS')",
                          where)
    k, head = lines.pop(0)
    numbers = 2 + len(genre.params)
    if genre.more_params:  # the last one repeats: as many numbers as there are
        numbers = max(numbers, next((k for k, t in enumerate(head) if not t.isdigit()),
                                    len(head)))
    if len(head) < numbers or not all(t.isdigit() and len(t) <= 4 for t in head[:numbers]) \
            or not set(head[numbers:]) <= set(genre.flags) \
            or len(set(head[numbers:])) < len(head[numbers:]):
        params = "".join(f" {p.upper()}" for p in genre.params) \
            + "".join(f" [{f}]" for f in genre.flags)
        raise PuzzleError(f"{genre.name}: the first line is 'ROWS COLS{params}', found "
                          f"{' '.join(head)[:60]!r}", f"{where}:{k}")
    rows, cols = int(head[0]), int(head[1])
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise PuzzleError(f"{genre.name}: a grid of {rows}x{cols}; sides are 1 to {MAX_SIDE}",
                          f"{where}:{k}")
    parts: dict[str, list[list[str]]] = {}
    for part in genre.layout:
        if part == "cells" and genre.cells_optional and not lines:
            break  # a grid of no givens may be left out
        height = rows if part in ("cells", "regions") else 1
        width = rows if part in ("left", "right") else cols
        block = []
        for _ in range(height):
            if not lines:
                raise PuzzleError(f"{genre.name}: the file ends within {_part(part)} "
                                  f"({height} line{'s' * (height > 1)} of {width})",
                                  f"{where}:{k + 1}")
            k, tokens = lines.pop(0)
            if len(tokens) != width:
                raise PuzzleError(f"{genre.name}: {_part(part)}: a line of {len(tokens)} "
                                  f"tokens, not {width}", f"{where}:{k}")
            ok = _accepts(genre, part)
            for c, token in enumerate(tokens):
                if not ok(token):
                    raise PuzzleError(f"{genre.name}: {_part(part)}: unknown symbol "
                                      f"{token[:20]!r} at column {c + 1} (expected "
                                      f"{_expected(genre, part)})", f"{where}:{k}")
            block.append(tokens)
        parts[part] = block
    if lines:
        k, tokens = lines[0]
        raise PuzzleError(f"{genre.name}: more lines than the {rows}x{cols} puzzle takes",
                          f"{where}:{k}")
    regions = None
    if "regions" in parts:
        regions = _regions(np.array(parts["regions"]), genre)
    puzzle = PencilPuzzle(genre, np.array(parts.get("cells", [[EMPTY] * cols] * rows),
                                          dtype=object), regions,
                          {p: parts[p][0] for p in parts if p not in ("cells", "regions")},
                          tuple(int(t) for t in head[2:numbers]), name or "",
                          tuple(head[numbers:]))
    try:
        genre.check(puzzle)
    except PuzzleError as exc:
        raise exc.located(where) from None
    return puzzle


def _part(part: str) -> str:
    return {"cells": "the clue grid", "regions": "the region grid"}.get(
        part, f"the clues along the {part}")


def _accepts(genre: Genre, part: str):  # noqa: ANN202  a predicate on tokens
    if part == "cells":
        return genre.cell_ok
    if part == "regions":
        return lambda token: token != EMPTY
    return genre.edge_ok


def _expected(genre: Genre, part: str) -> str:
    if part == "cells":
        return genre.symbols
    return "a region's name" if part == "regions" else genre.edge_symbols


def _regions(ids: np.ndarray, genre: Genre) -> np.ndarray:
    """Regions numbered 0..k-1 in reading order, -1 for a cell in none (the genre's
    ``outside`` tokens). A region is a connected group of cells of one name: the collection
    reuses a name now and then for two rooms apart, which are two rooms."""
    regions = np.full(ids.shape, -1, dtype=np.int64)
    pieces = [piece for name in np.unique(ids) if name not in genre.outside
              for piece in components(ids == name)]
    for k, piece in enumerate(sorted(pieces)):  # a piece's first cell is its first in reading
        regions[tuple(np.array(piece).T)] = k
    return regions


def genre_outside(puzzle: PencilPuzzle) -> str:
    return puzzle.genre.outside[:1] or EMPTY


def puzzle_text(puzzle: PencilPuzzle) -> str:
    """The puzzle written as the collection writes it."""
    head = " ".join(str(v) for v in (puzzle.rows, puzzle.cols, *puzzle.params,
                                     *puzzle.flags))
    out = [head]
    for part in puzzle.genre.layout:
        if part == "cells":
            out.append(grid_text(puzzle.cells))
        elif part == "regions":
            assert puzzle.regions is not None
            out.append(grid_text(np.where(puzzle.regions < 0, genre_outside(puzzle),
                                          puzzle.regions + 1)))
        else:
            out.append(" ".join(puzzle.edges[part]))
    return "\n".join(out) + "\n"


def pencil_title(path: Path) -> str:
    """``Nurikabe 10x10``: the genre and the size on the file's first line."""
    genre = genre_named(Path(path).suffix[1:])
    head = read_text(path).split("\n", 1)[0].split()
    size = f" {head[0]}x{head[1]}" if len(head) >= 2 else ""
    return f"{genre.title}{size}"
