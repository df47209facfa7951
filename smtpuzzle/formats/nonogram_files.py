"""Nonogram readers: Simpson's ``.non``, Wilk's ``.nin``, a plain ``.clues`` text form, and
webpbn's ``.xml`` (formats/webpbn_xml.py).

Each reader returns a validated :class:`~smtpuzzle.puzzles.nonogram.Nonogram`; any problem
is a :class:`PuzzleError` naming the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.webpbn_xml import read_xml
from smtpuzzle.puzzles.nonogram.clues import TWO_COLOURS, Colour
from smtpuzzle.puzzles.nonogram.puzzle import Clue, Nonogram
from smtpuzzle.runtime.checks import is_digits
from smtpuzzle.runtime.files import read_text

EXTENSIONS = (".non", ".nin", ".clues", ".xml")
_NON_KEYS = {"catalogue", "title", "by", "copyright", "license", "goal", "width", "height",
             "rows", "columns", "color"}
# Colours for letters a colour .non file uses without a ``color`` key (as its format allows).
_PALETTE = ("#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#ffd92f", "#a65628",
            "#f781bf", "#999999", "#66c2a5")


def _clue(text: str, line: int, sep: str, letters: bool = False) -> list:
    """A clue line's runs: lengths, or with ``letters`` (length, colour letter or None)
    pairs (``3b,1d`` in a colour ``.non`` file)."""
    text = text.strip()
    if text in ("", "0", "-"):
        return []
    if "," in sep and any(not p.strip() for p in text.split(",")):
        raise PuzzleError(f"bad clue {text!r}: a comma with no number before or after it",
                          line=line)
    parts = [p for p in re.split(sep, text) if p != ""]
    runs: list = []
    for p in parts:
        m = re.fullmatch(r"([+-]?[0-9]+)([^0-9\s,])?" if letters else r"([+-]?[0-9]+)()", p)
        if not m:
            raise PuzzleError(f"bad clue {text!r}: {p!r} is not a number"
                              + (" with an optional colour letter" if letters else ""),
                              line=line)
        if len(m[1]) > 9:
            raise PuzzleError(f"bad clue {text[:30]!r}: a run of {len(m[1])} digits is "
                              "longer than any line", line=line)
        v = int(m[1])
        if v < 0:
            raise PuzzleError(f"bad clue {text!r}: negative run {v}", line=line)
        if v > 0:
            runs.append((v, m[2] or None) if letters else v)
        elif len(parts) > 1:
            raise PuzzleError(f"bad clue {text!r}: a run of length 0 among others", line=line)
    return runs


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def _goal(text: str, width: int, height: int, line: int,
          chars: dict[str, str] | None = None) -> list[str]:
    """The goal's rows in solution characters: ``0`` empty, ``1`` filled, or (``chars``, a
    colour file) each letter's colour."""
    chars = chars or {"0": ".", "1": "#"}
    bits = re.sub(r"\s", "", _unquote(text))
    if len(bits) != width * height or set(bits) - set(chars):
        raise PuzzleError(f"goal must be {width * height} characters of "
                          f"{' '.join(sorted(chars))}, found {len(bits)}"
                          + (f" with {sorted(set(bits) - set(chars))[0]!r}"
                             if set(bits) - set(chars) else ""), line=line)
    cells = "".join(chars[b] for b in bits)
    return [cells[r * width:(r + 1) * width] for r in range(height)]


def _non_colours(defined: dict[str, tuple[str, int]], sections: dict) -> tuple | None:
    """A colour .non file's colours (background, an unlettered run's ink, then the
    letters: defined first, then by first use), or None for a two-colour file."""
    used: list[str | None] = []
    for clues, _ in sections.values():
        for clue in clues:
            for _, letter in clue:
                if letter not in used:
                    used.append(letter)
    letters = [c for c in defined if c in used] + [c for c in used if c and c not in defined]
    if not letters:
        return None
    colours = [Colour("background", ".", "#ffffff")]
    if None in used:
        colours.append(Colour("black", "#", "#000000"))
    free = iter(c for c in _PALETTE if c not in {rgb for rgb, _ in defined.values()})
    for c in letters:
        colours.append(Colour(c, c, defined[c][0] if c in defined else next(free, "#777777")))
    return tuple(colours)


def _is_key_line(line: str) -> bool:
    """Whether a line of a .non file starts a key (``goal ...``) rather than giving a clue;
    a clue with a stray letter (``1 a``) is a bad clue, not a key."""
    word = line.strip().partition(" ")[0].lower()
    return word in _NON_KEYS


def read_non(text: str, name: str) -> Nonogram:
    """Steve Simpson's format: ``key value`` lines; ``rows`` / ``columns``, one clue a line.
    With nonogram-db's colour extension: ``color a #ff0000`` keys, runs written ``3a``
    (a run without a letter has the default ink, ``1`` in the goal, ``#`` in solutions)."""
    lines = text.splitlines()
    meta: dict[str, str] = {}
    dims: dict[str, int] = {}
    sections: dict[str, tuple[list[Clue], list[int]]] = {}
    goal_at: tuple[str, int] | None = None
    defined: dict[str, tuple[str, int]] = {}  # colour letter -> (#rrggbb, its line)
    seen: dict[str, int] = {}  # the line of each key that may appear once
    i = 0
    while i < len(lines):
        raw = lines[i].strip()
        i += 1
        if not raw or raw.startswith("#"):
            continue
        key, _, value = raw.partition(" ")
        key = key.lower()
        if key not in _NON_KEYS:
            raise PuzzleError(f"unknown key {key!r} (known: {', '.join(sorted(_NON_KEYS))})",
                              line=i)
        if key in ("width", "height", "rows", "columns", "goal"):
            if key in seen:  # a second one would silently replace the first
                raise PuzzleError(f"{key} given twice (first on line {seen[key]})", line=i)
            seen[key] = i
        if key in ("width", "height"):
            if not is_digits(value.strip()) or len(value.strip()) > 9 or int(value) <= 0:
                raise PuzzleError(f"{key} must be a positive integer (at most 9 digits), not "
                                  f"{value.strip()[:30]!r}", line=i)
            dims[key] = int(value)
        elif key in ("rows", "columns"):
            size = "height" if key == "rows" else "width"
            want = dims.get(size)
            if want is None:
                later = next((j + 1 for j in range(i, len(lines))
                              if lines[j].strip().partition(" ")[0].lower() == size), None)
                raise PuzzleError(f"{key} before {size} (given on line {later})" if later
                                  else f"{key} needs a {size} line before it; there is none",
                                  line=i)
            clues, where = [], []
            while len(clues) < want:
                if i >= len(lines) or _is_key_line(lines[i]):
                    raise PuzzleError(f"{key}: expected {want} clue lines, found {len(clues)}",
                                      line=i + 1 if i < len(lines) else i)
                clues.append(_clue(lines[i], i + 1, r"[,\s]+", letters=True))
                where.append(i + 1)
                i += 1
            sections[key] = (clues, where)
        elif key == "goal":
            if value.strip().count('"') % 2:
                raise PuzzleError('goal: its quote is not closed on this line (a goal is one '
                                  'line of 0s and 1s)', line=i)
            goal_at = (value, i)
        elif key == "color":
            m = re.fullmatch(r"\s*([^0-9\s,])\s+#?([0-9a-fA-F]{6})\s*", value)
            if not m:
                raise PuzzleError(f"a colour is 'color LETTER #rrggbb', not 'color "
                                  f"{value.strip()[:30]}'", line=i)
            if m[1] in defined:
                raise PuzzleError(f"colour {m[1]!r} defined twice (first on line "
                                  f"{defined[m[1]][1]})", line=i)
            defined[m[1]] = ("#" + m[2].lower(), i)
        else:
            meta[key] = _unquote(value)
    for key in ("width", "height", "rows", "columns"):
        if key not in dims and key not in sections:
            raise PuzzleError(f"missing {key!r}")
    colours = _non_colours(defined, sections)
    chars = None
    if colours is None:  # two colours: runs are plain lengths
        rows, cols = ([[n for n, _ in c] for c in sections[k][0]] for k in ("rows", "columns"))
    else:
        ink = {c.char: k for k, c in enumerate(colours)}

        def lettered(key: str) -> list:
            return [[(n, ink["#" if c is None else c]) for n, c in clue]
                    for clue in sections[key][0]]
        rows, cols = lettered("rows"), lettered("columns")
        chars = {"0": "."} | {c.char: c.char for c in colours[1:]}
        if colours[1].char == "#":
            chars["1"] = chars.pop("#")
    goal = _goal(goal_at[0], dims["width"], dims["height"], goal_at[1], chars) \
        if goal_at else None
    return Nonogram(rows=rows, cols=cols, name=name,
                    title=meta.get("title", ""), author=meta.get("by", ""),
                    copyright=meta.get("copyright", ""), goal=goal,
                    goal_line=goal_at[1] if goal_at else None,
                    row_lines=sections["rows"][1], col_lines=sections["columns"][1],
                    colours=colours or TWO_COLOURS)


def read_nin(text: str, name: str) -> Nonogram:
    """Jakub Wilk's format: ``WIDTH HEIGHT``, then the row clues, then the column clues."""
    lines = text.splitlines()
    first = next((k for k, s in enumerate(lines) if s.strip()), None)
    if first is None:
        raise PuzzleError("empty file")
    m = re.fullmatch(r"\s*([0-9]{1,9})\s+([0-9]{1,9})\s*", lines[first])
    if not m or int(m[1]) == 0 or int(m[2]) == 0:
        raise PuzzleError(f"first line must be 'WIDTH HEIGHT' (positive, at most 9 digits), "
                          f"not {lines[first].strip()[:30]!r}", line=first + 1)
    width, height = int(m[1]), int(m[2])
    body = list(range(first + 1, len(lines)))
    if len(body) < width + height:  # a file cut short, not empty clues (blank lines)
        raise PuzzleError(f"{len(body)} clue lines for {height} rows + {width} columns "
                          "(an empty clue is a blank line)", line=len(lines))
    while len(body) > width + height and not lines[body[-1]].strip():
        body.pop()  # trailing blank lines; a blank line inside is an empty clue
    if len(body) > width + height:
        raise PuzzleError(f"{len(body)} clue lines for {height} rows + {width} columns",
                          line=body[width + height] + 1)
    clues = [_clue(lines[k], k + 1, r"\s+") for k in body]
    return Nonogram(rows=clues[:height], cols=clues[height:], name=name,
                    row_lines=[k + 1 for k in body[:height]],
                    col_lines=[k + 1 for k in body[height:]])


def read_clues(text: str, name: str) -> Nonogram:
    """The plain form: optional ``title: ...``, then ``rows:`` and ``columns:`` sections with
    one clue per line (numbers separated by spaces or commas; ``0`` or ``-`` for none)."""
    section: str | None = None
    found: dict[str, tuple[list[Clue], list[int]]] = {"rows": ([], []), "columns": ([], [])}
    title = ""
    seen: dict[str, int] = {}  # the line of each header: a second would merge silently
    for k, raw in enumerate(text.splitlines(), start=1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        head = re.fullmatch(r"(rows|columns|cols|title)\s*:\s*(.*)", s, flags=re.IGNORECASE)
        if head:
            key = head[1].lower()
            kind = "columns" if key == "cols" else key
            if kind in seen:
                raise PuzzleError(f"{kind} given twice (first on line {seen[kind]})", line=k)
            seen[kind] = k
            if key == "title":
                title = head[2].strip()
                continue
            section = kind
            if head[2].strip():
                raise PuzzleError(f"put the {section} clues on the lines after {key}:", line=k)
            continue
        if section is None:
            raise PuzzleError("a clue before any 'rows:' or 'columns:' header", line=k)
        found[section][0].append(_clue(s, k, r"[,\s]+"))
        found[section][1].append(k)
    for key in ("rows", "columns"):
        if not found[key][0]:
            raise PuzzleError(f"no {key} clues (a '{key}:' section is required)")
    return Nonogram(rows=found["rows"][0], cols=found["columns"][0], name=name, title=title,
                    row_lines=found["rows"][1], col_lines=found["columns"][1])


def load_nonogram(path: str | Path) -> Nonogram:
    """Read and validate a nonogram file; the reader is chosen by extension."""
    path = Path(path)
    readers = {".non": read_non, ".nin": read_nin, ".clues": read_clues, ".xml": read_xml}
    reader = readers.get(path.suffix.lower())
    if reader is None:
        raise PuzzleError(f"unknown nonogram file type {path.suffix!r} "
                          f"(known: {', '.join(EXTENSIONS)})", str(path))
    text = read_text(path)
    try:
        puzzle = reader(text, path.stem)
        puzzle.validate()
    except PuzzleError as exc:
        raise exc.located(str(path)) from None
    return puzzle


def nonogram_title(path: Path) -> str:
    """A nonogram file's title, else its size, for the library's list."""
    try:
        ng = load_nonogram(path)
    except PuzzleError:
        return "(unreadable)"
    return ng.title or f"nonogram {ng.width}x{ng.height}"
