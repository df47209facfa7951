"""The puzzle TOML format (documented in models/README.md) -> puzzle objects.

Every error names the file, the line where it can and the piece it is about.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.text import key_line as _key_line
from smtpuzzle.formats.text import line_of as _line_of
from smtpuzzle.formats.text import read_toml
from smtpuzzle.geometry.board import WRAPS, Board
from smtpuzzle.geometry.board_shapes import shaped_cells
from smtpuzzle.geometry.edges import CELL_GRID
from smtpuzzle.geometry.grids import GRIDS, Grid
from smtpuzzle.geometry.piecesets import piece_set
from smtpuzzle.geometry.shapes import Shape, parse_picture
from smtpuzzle.puzzles.frames.puzzle import METHODS, Frames
from smtpuzzle.puzzles.tiling.puzzle import COVERS, TOUCH, TOUCH_ENCODINGS, Piece, Tiling

_TOP_KEYS = {"name", "title", "description", "kind", "cover", "touch", "touch_encoding",
             "board", "pieces", "source", "apart", "frames", "method", "cross"}
_FRAMES_ONLY = {"frames", "method"}
_TILING_ONLY = {"cover", "touch", "touch_encoding", "cross"}
_BOARD_KEYS = {"size", "holes", "picture", "hole", "grid", "shape", "cells", "wrap"}
KINDS = ("tiling", "frames")
_PIECE_KEYS = {"set", "only", "name", "picture", "cells", "count", "max", "flip", "one_sided"}


def load_puzzle_file(path: Path, precheck: bool = True) -> Tiling | Frames:
    """Read a puzzle file; errors carry ``path:line``. ``precheck``: see :class:`Tiling`."""
    data, text = read_toml(path)
    try:
        return parse_puzzle(data, default_name=path.stem, text=text, precheck=precheck)
    except PuzzleError as exc:
        raise exc.located(str(path)) from None


def _fail(message: str, line: int | None) -> PuzzleError:
    return PuzzleError(message, line=line)


BOARD = r"^[ \t]*\[\s*board\s*\]"
PIECES = r"^[ \t]*\[\[\s*pieces\s*\]\]"


class _KeyError(PuzzleError):
    """An error about one key of a table, located at that key's line when it is found."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message, key=key)


def parse_puzzle(
    data: dict[str, Any], default_name: str = "puzzle", text: str = "", precheck: bool = True
) -> Tiling | Frames:
    """A puzzle (a tiling, or a frames puzzle) from parsed TOML data."""
    if not isinstance(data, dict):
        raise TypeError(f"parse_puzzle takes the puzzle as a dict (parsed TOML or JSON), "
                        f"not {type(data).__name__}")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise _fail(f"unknown key {key!r} (known: {', '.join(sorted(_TOP_KEYS))})",
                    _line_of(text, rf"^[ \t]*{re.escape(key)}\s*="))
    kind = data.get("kind", "frames" if "frames" in data else "tiling")
    if kind not in KINDS:
        raise _fail(f"unknown puzzle kind {kind!r} (known: {', '.join(KINDS)})",
                    _line_of(text, r"^[ \t]*kind"))
    wrong = sorted(set(data) & (_TILING_ONLY if kind == "frames" else _FRAMES_ONLY))
    if wrong:
        raise _fail(f"{wrong[0]!r} does not apply to a {kind} puzzle",
                    _line_of(text, rf"^[ \t]*{wrong[0]}\s*="))
    board, hole_search = _parse_board(data.get("board"), text, frames=kind == "frames")
    raw_pieces = data.get("pieces")
    if not isinstance(raw_pieces, list) or not raw_pieces:
        raise _fail("the puzzle needs a [[pieces]] table", None)
    pieces: list[Piece] = []
    table_of: dict[str, int] = {}  # piece name -> which [[pieces]] table gave it
    for i, entry in enumerate(raw_pieces):
        try:
            parsed = _parse_pieces(entry, i, board.grid)
        except _KeyError as exc:
            raise _fail(exc.message, _key_line(text, PIECES, exc.key, i)) from None
        line = _line_of(text, PIECES, i)
        for piece in parsed:
            if piece.name in table_of:
                where = _line_of(text, PIECES, table_of[piece.name])
                raise _fail(f"piece name {piece.name!r} is used twice (first "
                            f"{'at line ' + str(where) if where else 'above'}); give each "
                            "piece its own name", line)
            table_of[piece.name] = i
        pieces.extend(parsed)
    for key in ("name", "title"):
        if key in data and (not isinstance(data[key], str) or not data[key].isprintable()):
            raise _fail(f"{key} is one line of printable text in quotes, not {data[key]!r}",
                        _line_of(text, rf"^[ \t]*{key}\s*="))
    name, title = data.get("name", default_name), data.get("title", "")
    apart = _names(data.get("apart", []), "apart", text)
    missing = [n for n in apart if n not in table_of]
    if missing:
        raise _fail(f"apart: there is no piece {missing[0]!r}",
                    _line_of(text, r"^[ \t]*apart\s*="))
    if len(set(apart)) < len(apart):
        raise _fail(f"apart names {next(n for i, n in enumerate(apart) if n in apart[:i])!r} "
                    "twice", _line_of(text, r"^[ \t]*apart\s*="))
    if kind == "frames":
        n = data.get("frames")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise _fail("frames must be a whole number >= 1 (how many frames)",
                        _line_of(text, r"^[ \t]*frames\s*="))
        method = data.get("method", "auto")
        if method not in METHODS:
            raise _fail(f"method must be one of {', '.join(METHODS)}, got {method!r}",
                        _line_of(text, r"^[ \t]*method\s*="))
        try:
            return Frames(board, pieces, n, name=name, title=title, apart=apart,
                          hole_search=hole_search, precheck=precheck, method=method)
        except PuzzleError as exc:
            raise _fail(exc.message, _error_line(exc, text, table_of)) from None
    touch = data.get("touch", "any")
    cover = data.get("cover", "pack" if touch == "none" else "exact")
    touch_encoding = data.get("touch_encoding")
    for key, value, known in (("cover", cover, COVERS), ("touch", touch, TOUCH),
                              ("touch_encoding", touch_encoding or "pairs", TOUCH_ENCODINGS)):
        if value not in known:
            raise _fail(f"{key} must be one of {', '.join(map(repr, known))}, got {value!r}",
                        _line_of(text, rf"^[ \t]*{key}\s*="))
    if touch == "none" and cover == "exact":
        raise _fail('touch = "none" leaves cells empty: it needs cover = "pack"',
                    _line_of(text, r"^[ \t]*cover\s*="))
    cross = data.get("cross", False)
    if not isinstance(cross, bool) or (cross and not board.grid.edges):
        raise _fail("cross = true lets pieces of an edge grid cross at a vertex (a boolean, "
                    "for edge grids only)", _line_of(text, r"^[ \t]*cross\s*="))
    try:
        return Tiling(board, pieces, cover=cover, name=name, title=title, precheck=precheck,
                      touch=touch, touch_encoding=touch_encoding, apart=apart, cross=cross)
    except PuzzleError as exc:
        raise _fail(exc.message, _error_line(exc, text, table_of)) from None


def _error_line(exc: PuzzleError, text: str, table_of: dict[str, int]) -> int | None:
    """Where a puzzle's own check failed: its line, else the line of the piece it names
    (of the key it names in that piece's table, when the table has it)."""
    if exc.line is not None or exc.piece not in table_of:
        return exc.line
    return _key_line(text, PIECES, exc.key, table_of[exc.piece])


def _parse_board(raw: Any, text: str, frames: bool = False) -> tuple[Board, bool]:
    """The board (for frames: one frame) and whether its one hole is still to be placed."""
    if not isinstance(raw, dict):
        raise _fail("the puzzle needs a [board] table with size or picture",
                    _line_of(text, r"^[ \t]*board\s*="))

    def line(key: str | None = None) -> int | None:
        return _key_line(text, BOARD, key) or _line_of(text, r"^[ \t]*board\s*=")

    hole = raw.get("hole")
    if hole is not None and (not frames or hole != "search"):
        raise _fail('[board]: hole = "search" (one hole, placed by the solver, the same in '
                    "every frame) applies to frames puzzles only" if not frames else
                    '[board]: hole must be "search"', line("hole"))
    raw = {k: v for k, v in raw.items() if k != "hole"}
    unknown = set(raw) - _BOARD_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise _fail(f"[board]: unknown key {key!r} (known: {', '.join(sorted(_BOARD_KEYS))})",
                    line(key))
    grid_name = raw.get("grid", "square")
    if not isinstance(grid_name, str) or grid_name not in GRIDS:
        raise _fail(f"[board]: unknown grid {grid_name!r} (known: {', '.join(GRIDS)})",
                    line("grid"))
    wrap = raw.get("wrap", [])
    if not isinstance(wrap, list) or not all(isinstance(w, str) and w in WRAPS for w in wrap) \
            or len(set(wrap)) < len(wrap):
        raise _fail('[board]: wrap must be a list of "rows" and/or "columns" (each once), got '
                    f"{wrap!r}", line("wrap"))
    given = [k for k in ("picture", "size", "cells") if k in raw]
    if "shape" in raw and "size" not in raw:
        raise _fail(f"[board]: shape = {raw['shape']!r} needs a size", line("shape"))
    if len(given) > 1:
        raise _fail(f"[board]: give one of size, picture or cells, not {' and '.join(given)}",
                    line(given[1]))
    if not given:
        raise _fail("[board] needs size = [rows, columns] (or [x, y, z]), a picture or "
                    "cells", line())
    holes = raw.get("holes", [])
    if not isinstance(holes, list) or not all(_int_list(h) for h in holes):
        raise _fail("[board]: holes must be a list of cells, each a list of whole numbers",
                    line("holes"))
    key = given[0]
    try:
        if key == "picture":
            board = Board.from_picture(_text(raw["picture"], "picture"), grid_name, wrap)
        else:  # on an edge grid: the edges of these cells of its cell grid
            cell_grid = CELL_GRID.get(grid_name, grid_name)
            if key == "cells":
                cells = raw["cells"]
                if not isinstance(cells, list) or not all(_int_list(c) for c in cells):
                    raise PuzzleError("cells must be a list of cells, each a list of whole "
                                      "numbers")
                board = Board.from_cells(cells, cell_grid, wrap)
            elif "shape" in raw:
                key = "shape"
                board = Board.from_cells(shaped_cells(cell_grid, _text(raw["shape"], "shape"),
                                                      raw["size"]), cell_grid, wrap)
            elif not _int_list(raw["size"]):
                raise PuzzleError("size must be a list of whole numbers")
            else:
                board = Board(raw["size"], on=cell_grid, wrap=wrap)
            if cell_grid != grid_name:
                board = Board.edges_of(board, grid_name)
        if holes:
            key = "holes"
            board = board.drilled(holes)
        return board, hole is not None
    except PuzzleError as exc:
        msg = exc.message if exc.message.startswith("[board]") else f"[board]: {exc.message}"
        raise _fail(msg, line("wrap" if exc.message.startswith("wrap:") else key)) from None


def _names(raw: Any, key: str, text: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        raise _fail(f"{key} must be a list of piece names", _line_of(text, rf"^[ \t]*{key}\s*="))
    return list(raw)


def _int_list(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in x)


def _text(x: Any, what: str) -> str:
    if not isinstance(x, str):
        raise PuzzleError(f"{what} must be a string")
    return x


def _parse_pieces(entry: Any, i: int, on: Grid) -> list[Piece]:
    """The pieces of the ``i``-th [[pieces]] table; errors are _KeyError (with the key)."""
    where = f"pieces[{i}]"
    if not isinstance(entry, dict):
        raise _KeyError(f"{where} must be a table")
    unknown = set(entry) - _PIECE_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise _KeyError(f"{where}: unknown key {key!r} "
                        f"(known: {', '.join(sorted(_PIECE_KEYS))})", key)
    if "count" in entry and "max" in entry:
        raise _KeyError(f"{where}: give count (exactly) or max (at most), not both", "max")
    how = "max" if "max" in entry else "count"
    count = entry.get(how, 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise _KeyError(f"{where}: {how} must be a whole number >= 0, got {count!r}", how)
    flip = entry.get("flip")
    if flip is not None and not isinstance(flip, bool):
        raise _KeyError(f"{where}: flip must be true or false", "flip")
    one_sided = entry.get("one_sided", False)
    if not isinstance(one_sided, bool):
        raise _KeyError(f"{where}: one_sided must be true or false", "one_sided")
    if one_sided and ("set" not in entry or flip is not None):
        raise _KeyError(f"{where}: one_sided = true applies to a set (it adds the mirror "
                        "images and turns flipping off)" + (", without flip" if flip is
                                                            not None else ""), "one_sided")
    common = dict(count=count, at_most="max" in entry, flip=False if one_sided else flip)
    if "set" in entry:
        if {"name", "picture", "cells"} & set(entry):
            raise _KeyError(f"{where}: a set entry takes no name, picture or cells")
        try:
            shapes = piece_set(_text(entry["set"], f"{where} set"), one_sided)
        except PuzzleError as exc:
            raise _KeyError(exc.message, "set") from None
        grids = {s.grid.name for s in shapes.values()}
        if on.name not in grids:
            raise _KeyError(f"{where}: set {entry['set']!r} is for the {grids.pop()} grid, "
                            f"the board is on the {on.name} grid", "set")
        only = entry.get("only")
        if only is not None:
            if not isinstance(only, list) or not all(isinstance(n, str) for n in only):
                example = f'only = ["{only}"]' if isinstance(only, str) else 'only = ["F", "I"]'
                raise _KeyError(f"{where}: only must be a list of piece names ({example}), "
                                f"not {only!r}", "only")
            if not only:
                raise _KeyError(f"{where}: only = [] names no piece (leave the set out)",
                                "only")
            twice = [n for n in only if only.count(n) > 1]
            if twice:
                raise _KeyError(f"{where}: only names {twice[0]!r} twice (give the piece "
                                "count = 2 for two copies)", "only")
            missing = [n for n in only if n not in shapes]
            if missing:
                raise _KeyError(f"{where}: set {entry['set']!r} has no piece {missing[0]!r} "
                                f"(it has {' '.join(shapes)})", "only")
            shapes = {n: shapes[n] for n in only}
        return [Piece(name, shape, **common) for name, shape in shapes.items()]
    name = entry.get("name")
    if not isinstance(name, str) or not name or any(ch.isspace() for ch in name) \
            or not name.isprintable():
        raise _KeyError(f"{where}: a piece needs a name (printable, no spaces), or a set",
                        "name" if "name" in entry else None)
    where = f"piece {name}"
    if "only" in entry:
        raise _KeyError(f"{where}: only picks pieces of a set; a piece drawn by hand is one "
                        "piece already", "only")
    if ("picture" in entry) == ("cells" in entry):
        raise _KeyError(f"{where}: give exactly one of picture or cells",
                        "cells" if "cells" in entry else None)
    key = "picture" if "picture" in entry else "cells"
    try:
        if key == "picture":
            shape = parse_picture(_text(entry["picture"], "picture"), on)
        else:
            cells = entry["cells"]
            if not isinstance(cells, list) or not all(_int_list(c) for c in cells):
                raise PuzzleError("cells must be a list of [row, column] (or [x, y, z]) lists")
            if len({len(c) for c in cells}) != 1 or len(cells[0]) not in (2, 3):
                raise PuzzleError("cells must all have 2 or all have 3 coordinates")
            if on.name != "square" and len(cells[0]) != 2:
                raise PuzzleError(f"a cell of the {on.name} grid has 2 coordinates")
            shape = Shape(cells, on if on.name != "square" else None)
    except PuzzleError as exc:
        raise _KeyError(f"{where}: {exc.message}", key) from None
    if not shape.is_connected():
        hint = (" (in a triangle picture the first column of the first line points up and "
                "rows alternate; start a line with '.' to shift it)"
                if on.name == "triangle" and key == "picture" else "")
        raise _KeyError(f"{where}: the cells are not connected{hint}", key)
    return [Piece(name, shape, **common)]


def toml_title(path: Path) -> str:
    """A puzzle file's ``title`` (empty if none), for the library's list."""
    try:
        return str(read_toml(path)[0].get("title", ""))
    except PuzzleError:
        return "(unreadable)"
