"""puzz.link (pzv.jp) links read into pencil puzzles: ``https://puzz.link/p?PID/COLS/ROWS/
BODY``, the body in the encodings of pzprjs (its ``Encode.js``): numbers in hexadecimal with
runs of empty cells as letters g-z, region walls as 5 bits a character, circles as base-3
digits three cells a character. Each genre's link is a sequence of those codecs (RECIPES);
the clues come out as the plain-text collection's tokens, so one model reads both."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.pencil.genres import genre_of_pid
from smtpuzzle.puzzles.pencil.puzzle import EMPTY, Genre, PencilPuzzle

LINK = re.compile(r"(?:https?://)?[^?]*\?([^/]+)/(.*)")
MAX_SIDE = 200


class Body:
    """The rest of a link's body, read left to right by the codecs."""

    def __init__(self, text: str, genre: Genre) -> None:
        self.text, self.genre = text, genre

    def fail(self, what: str) -> PuzzleError:
        return PuzzleError(f"{self.genre.name}: a malformed link: {what}")


def _b36(ch: str) -> int:
    return int(ch, 36)


def numbers16(body: Body, n: int) -> list[int | None]:
    """decodeNumber16: n cells, a number (hex; '-' two digits, '+' three, '.' unknown) or a
    run of empty cells (g = 1 .. z = 20). None for an empty cell, -2 for '?'."""
    s, out, i = body.text, [None] * n, 0
    c = 0
    widths = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "*": (4, 12240),
              "$": (5, 77776)}
    while i < len(s) and c < n:
        ch = s[i]
        if ch in "0123456789abcdef":
            out[c], c, i = int(ch, 16), c + 1, i + 1
        elif ch in widths:
            k, base = widths[ch]
            try:
                out[c] = int(s[i + 1:i + 1 + k], 16) + base
            except ValueError:
                raise body.fail(f"a number after {ch!r} at {i + 1}") from None
            c, i = c + 1, i + 1 + k
        elif ch == ".":
            out[c], c, i = -2, c + 1, i + 1
        elif "g" <= ch <= "z":
            c, i = c + _b36(ch) - 15, i + 1
        else:
            raise body.fail(f"unexpected {ch!r} at {i + 1}")
    body.text = s[i:]
    return out


def four_cell(body: Body, n: int) -> list[int | None]:
    """decode4Cell: 0-4, with 5-9 and a-e one or two empty cells after; g-z runs; '.'."""
    s, out, c, i = body.text, [None] * n, 0, 0
    while i < len(s) and c < n:
        ch = s[i]
        if ch in "01234":
            out[c] = int(ch)
        elif ch in "56789":
            out[c], c = int(ch) - 5, c + 1
        elif ch in "abcde":
            out[c], c = int(ch, 16) - 10, c + 2
        elif "g" <= ch <= "z":
            c += _b36(ch) - 16
        elif ch == ".":
            out[c] = -2
        else:
            raise body.fail(f"unexpected {ch!r} at {i + 1}")
        c, i = c + 1, i + 1
    body.text = s[i:]
    return out


def circles(body: Body, n: int) -> list[int]:
    """decodeCircle: base-3 digits, three cells a character (1 white, 2 black)."""
    k = math.ceil(n / 3)
    s, out = body.text[:k], []
    for ch in s:
        v = int(ch, 27)
        out += [v // 9 % 3, v // 3 % 3, v % 3]
    body.text = body.text[k:]
    return (out + [0] * n)[:n]


def bits(body: Body, n: int) -> list[int]:
    """n bits, five a base-32 character, the first bit the highest."""
    k = math.ceil(n / 5)
    out = []
    for ch in body.text[:k]:
        try:
            v = int(ch, 32)
        except ValueError:
            raise body.fail(f"unexpected {ch!r} among the walls") from None
        out += [(v >> b) & 1 for b in (4, 3, 2, 1, 0)]
    body.text = body.text[k:]
    return (out + [0] * n)[:n]


def rooms(body: Body, rows: int, cols: int) -> np.ndarray:
    """decodeBorder: the walls between cells, as each cell's room (0.. in reading order)."""
    right = np.array(bits(body, (cols - 1) * rows), dtype=bool).reshape(rows, cols - 1)
    below = np.array(bits(body, cols * (rows - 1)), dtype=bool).reshape(rows - 1, cols)
    room = np.full((rows, cols), -1, dtype=np.int64)
    k = 0
    for start in np.ndindex(rows, cols):
        if room[start] >= 0:
            continue
        room[start], todo = k, [start]
        while todo:
            r, c = todo.pop()
            for rr, cc, wall in ((r, c + 1, c + 1 < cols and right[r, c]),
                                 (r, c - 1, c > 0 and right[r, c - 1]),
                                 (r + 1, c, r + 1 < rows and below[r, c]),
                                 (r - 1, c, r > 0 and below[r - 1, c])):
                if 0 <= rr < rows and 0 <= cc < cols and not wall and room[rr, cc] < 0:
                    room[rr, cc] = k
                    todo.append((rr, cc))
        k += 1
    return room


def arrows(body: Body, n: int) -> list[str | None]:
    """decodeArrowNumber16: a direction digit (1 up .. 4 right) and a number; a-z runs."""
    s, out, c, i = body.text, [None] * n, 0, 0
    way = {1: "n", 2: "s", 3: "w", 4: "e"}
    while i < len(s) and c < n:
        ch = s[i]
        if ch in "01234":
            d, value, i = int(ch), s[i + 1:i + 2], i + 1
            out[c] = f"{int(value, 16)}{way.get(d, '')}" if value not in ("", ".") else "?"
        elif ch in "56789":
            d, value, i = int(ch) - 5, s[i + 1:i + 3], i + 2
            out[c] = f"{int(value, 16)}{way.get(d, '')}"
        elif ch == "-":
            d, value, i = int(s[i + 1], 16), s[i + 2:i + 5], i + 4
            out[c] = f"{int(value, 16)}{way.get(d, '')}"
        elif "a" <= ch <= "z":
            c += _b36(ch) - 10
        else:
            raise body.fail(f"unexpected {ch!r} at {i + 1}")
        c, i = c + 1, i + 1
    body.text = s[i:]
    return out


def tokens(values: list, rows: int, cols: int, show: Callable[[object], str] = str
           ) -> np.ndarray:
    return np.array([EMPTY if v is None else show(v) for v in values],
                    dtype=object).reshape(rows, cols)


def _number(v: object) -> str:
    if v == -2:
        raise PuzzleError("a '?' clue (a number not given): smtpuzzle reads given numbers only")
    return str(v)


# -- each genre's link ------------------------------------------------------------------------

def _numbers(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    return PencilPuzzle(genre, tokens(numbers16(body, rows * cols), rows, cols, _number))


def _akari(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    return PencilPuzzle(genre, tokens(four_cell(body, rows * cols), rows, cols,
                                      lambda v: "x" if v == -2 else str(v)))


def _slither(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    return PencilPuzzle(genre, tokens(four_cell(body, rows * cols), rows, cols, _number))


def _hitori(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    s, out, i = body.text, [], 0
    while i < len(s) and len(out) < rows * cols:
        if s[i] == "-":
            out.append(str(int(s[i + 1:i + 3], 36)))
            i += 3
        else:
            out.append(str(_b36(s[i])) if s[i].isalnum() else EMPTY)
            i += 1
    if len(out) < rows * cols:
        raise body.fail(f"{len(out)} numbers for {rows * cols} cells")
    body.text = s[i:]
    return PencilPuzzle(genre, np.array(out, dtype=object).reshape(rows, cols))


def _circled(letters: str) -> Callable[..., PencilPuzzle]:
    def read(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
        found = circles(body, rows * cols)
        return PencilPuzzle(genre, np.array([EMPTY if v == 0 else letters[v - 1]
                                             for v in found], dtype=object).reshape(rows, cols))
    return read


def _walls(numbered: bool, first: bool = False) -> Callable[..., PencilPuzzle]:
    """Rooms from the walls, then (``numbered``) one number per room, at its first cell."""
    def read(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
        stars = ()
        if first:  # Star Battle: the stars, then a '/'
            head, _, body.text = body.text.partition("/")
            if not head.isdigit():
                raise body.fail("Star Battle's link starts with its number of stars")
            stars = (int(head),)
        room = rooms(body, rows, cols)
        cells = np.full((rows, cols), EMPTY, dtype=object)
        if numbered:
            found = numbers16(body, int(room.max()) + 1)
            for k, v in enumerate(found):
                if v is not None:
                    r, c = np.argwhere(room == k)[0]
                    cells[r, c] = _number(v)
        return PencilPuzzle(genre, cells, room, params=stars)
    return read


def _suguru(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    room = rooms(body, rows, cols)
    return PencilPuzzle(genre, tokens(numbers16(body, rows * cols), rows, cols, _number), room)


def _simpleloop(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    blocked = bits(body, rows * cols)
    return PencilPuzzle(genre, np.array(["x" if b else EMPTY for b in blocked],
                                        dtype=object).reshape(rows, cols))


def _yajilin(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    found = arrows(body, rows * cols)
    if any(v is not None and not v[-1:].isalpha() for v in found):
        raise PuzzleError("yajilin: a clue without an arrow: smtpuzzle reads arrow clues only")
    return PencilPuzzle(genre, tokens(found, rows, cols))


def _skyscraper(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    clues = numbers16(body, 2 * (rows + cols))  # the clues outside the grid
    edges = {}
    at = 0
    for side, n in (("top", cols), ("bottom", cols), ("left", rows), ("right", rows)):
        edges[side] = [EMPTY if v is None else _number(v) for v in clues[at:at + n]]
        at += n
    cells = tokens(numbers16(body, rows * cols), rows, cols, _number)
    return PencilPuzzle(genre, cells, edges=edges, params=(rows,))


def _tents(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    counts = numbers16(body, rows + cols)  # the clues outside the grid
    edges = {"top": [EMPTY if v is None else _number(v) for v in counts[:cols]],
             "left": [EMPTY if v is None else _number(v) for v in counts[cols:]]}
    s, trees, c = body.text, [EMPTY] * (rows * cols), 0
    body.text = ""
    for i, ch in enumerate(s):
        v = _b36(ch)
        if v <= 17:
            trees[c] = "x"
            c += v
        else:
            c += v - 18
        c += 1
        if c >= rows * cols:
            body.text = s[i + 1:]
            break
    return PencilPuzzle(genre, np.array(trees, dtype=object).reshape(rows, cols), edges=edges)


def _fillomino(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    puzzle = _numbers(genre, body, rows, cols)
    if body.text.strip("/") and len(np.unique(rooms(body, rows, cols))) > 1:
        raise PuzzleError("fillomino: the link gives walls between cells, a variant smtpuzzle "
                          "does not read")
    return puzzle


# Battleship: a cell's number as the collection's piece; the fleets of the link's presets
PIECE_OF = {0: "x", 1: "n", 2: "s", 3: "w", 4: "e", 5: "m", 6: "o"}
FLEETS = {"c": (3, 2, 1), "d": (4, 3, 2, 1), "e": (5, 4, 3, 2, 1)}


def _battleship(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    edges, cells = {"top": [EMPTY] * cols, "left": [EMPTY] * rows}, \
        np.full((rows, cols), EMPTY, dtype=object)
    if not body.text.startswith("/"):
        counts = numbers16(body, rows + cols)  # ship cells per column, then per row
        edges = {"top": [EMPTY if v is None else _number(v) for v in counts[:cols]],
                 "left": [EMPTY if v is None else _number(v) for v in counts[cols:]]}

        def piece(v: object) -> str:
            if v not in PIECE_OF:
                raise PuzzleError(f"battleship: a cell given as {v} (a ship piece of no "
                                  "straight ship, or of unknown shape) is not read")
            return PIECE_OF[v]

        cells = tokens(numbers16(body, rows * cols), rows, cols, piece)
    bank, body.text = body.text, ""
    if bank.startswith("//"):
        if bank[2:] not in FLEETS:
            raise PuzzleError(f"battleship: the link's fleet {bank[2:]!r} is not read (only "
                              f"the fleets {', '.join(FLEETS)} and lists of straight ships)")
        fleet = FLEETS[bank[2:]]
    else:
        fleet = _fleet(bank[1:].split("/"), body)
    return PencilPuzzle(genre, cells, edges=edges, params=fleet)


def _fleet(parts: list[str], body: Body) -> tuple[int, ...]:
    """decodePieceBank's own list: a count, then each piece as its width, height (base 36)
    and bits; the ships (straight pieces) counted by length."""
    if not parts or not parts[0].isdigit() or len(parts) != int(parts[0]) + 1:
        raise body.fail(f"a fleet of {'/'.join(parts)[:30]!r}")
    lengths = []
    for code in parts[1:]:
        w, h = _b36(code[0]), _b36(code[1])
        if min(w, h) != 1 or bits(Body(code[2:], body.genre), w * h).count(1) != w * h:
            raise PuzzleError(f"battleship: a piece {code!r} that is no straight ship")
        lengths.append(max(w, h))
    return tuple(lengths.count(n) for n in range(1, max(lengths) + 1))


def _kakuro(genre: Genre, body: Body, rows: int, cols: int) -> PencilPuzzle:
    """The link's grid is the white area and the clue cells in it; the collection's has a
    row above and a column to the left for the first clues."""
    def value(ch: str) -> int:
        if ch.isdigit():
            return int(ch)
        if "a" <= ch <= "j":
            return _b36(ch)
        return _b36(ch.lower()) + 10 if "A" <= ch <= "Z" else 0

    s, i, c = body.text, 0, 0
    grid = np.full((rows + 1, cols + 1), EMPTY, dtype=object)
    down, across = np.zeros((rows + 1, cols + 1), int), np.zeros((rows + 1, cols + 1), int)
    white = np.zeros((rows + 1, cols + 1), dtype=bool)
    while i < len(s) and c < rows * cols:
        ch = s[i]
        if "k" <= ch <= "z":
            for k in range(_b36(ch) - 19):
                white[1 + (c + k) // cols, 1 + (c + k) % cols] = True
            c += _b36(ch) - 19
        else:
            r, cc = 1 + c // cols, 1 + c % cols
            if ch != ".":
                down[r, cc], across[r, cc] = value(ch), value(s[i + 1])
                i += 1
            c += 1
        i += 1
    for x in range(cols):
        if white[1, 1 + x]:
            down[0, 1 + x] = value(s[i]) if i < len(s) else 0
            i += 1
    for y in range(rows):
        if white[1 + y, 1]:
            across[1 + y, 0] = value(s[i]) if i < len(s) else 0
            i += 1
    body.text = s[i:]
    for (r, cc), w in np.ndenumerate(white):
        if w:
            grid[r, cc] = "0"
        elif down[r, cc] or across[r, cc]:
            grid[r, cc] = f"{down[r, cc] or ''},{across[r, cc] or ''}"
    return PencilPuzzle(genre, grid)


RECIPES: dict[str, Callable[[Genre, Body, int, int], PencilPuzzle]] = {
    "akari": _akari, "hitori": _hitori, "kuromasu": _numbers, "nurikabe": _numbers,
    "heyawake": _walls(True), "lits": _walls(False), "norinori": _walls(False),
    "starbattle": _walls(False, first=True), "yinyang": _circled("wb"),
    "slitherlink": _slither, "masyu": _circled("wb"), "countryroad": _walls(True),
    "simpleloop": _simpleloop, "yajilin": _yajilin, "shikaku": _numbers,
    "kakuro": _kakuro, "skyscraper": _skyscraper, "suguru": _suguru, "tent": _tents,
    "numberlink": _numbers, "fillomino": _fillomino, "battleship": _battleship,
}


def is_link(text: str) -> bool:
    """Whether ``text`` is a puzz.link-style link rather than a file or name."""
    return "?" in text and ("://" in text or text.startswith("p?"))


def read_link(link: str) -> PencilPuzzle:
    """The puzzle a puzz.link / pzv.jp link gives."""
    m = LINK.fullmatch(link.strip())
    if m is None:
        raise PuzzleError(f"a malformed link (expected https://puzz.link/p?GENRE/COLS/ROWS/..."
                          f"): {link[:80]!r}")
    pid = re.sub(r"_(edit|test|play)$", "", m.group(1))
    genre = genre_of_pid(pid)
    parts = m.group(2).split("/")
    while parts and parts[0] and not parts[0].isdigit():  # flags such as v: or e
        flags = parts.pop(0)
        if genre.name == "countryroad" and "e" in flags:
            raise PuzzleError("countryroad: the link's 'e' flag (rooms the loop may miss) is "
                              "a variant smtpuzzle does not read")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        raise PuzzleError(f"{genre.name}: a malformed link: no COLS/ROWS after the genre")
    cols, rows = int(parts[0]), int(parts[1])
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise PuzzleError(f"{genre.name}: a link of {cols}x{rows}; sides are 1 to {MAX_SIDE}")
    recipe = RECIPES.get(genre.name)
    if recipe is None:
        raise PuzzleError(f"{genre.name}: its links are not read yet")
    body = Body("/".join(parts[2:]), genre)
    try:
        puzzle = recipe(genre, body, rows, cols)
    except (IndexError, ValueError) as exc:
        raise body.fail(str(exc)) from None
    if body.text.strip("/"):
        raise body.fail(f"{body.text[:20]!r} after the puzzle's {cols}x{rows} cells")
    puzzle.name = f"{genre.name} {puzzle.rows}x{puzzle.cols} (link)"
    genre.check(puzzle)
    return puzzle
