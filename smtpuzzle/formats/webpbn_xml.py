"""webpbn's XML puzzle format (``.xml``), as webpbn.com exports it and pbnsolve reads it.

A ``<puzzleset>`` holds one ``<puzzle type="grid">`` with its ``<color name=".." char="..">``
definitions (RGB in hex), ``<clues type="columns">`` and ``<clues type="rows">`` of
``<line><count color="..">N</count>...</line>``, and optionally a ``<solution>`` whose
``<image>`` draws the goal as rows framed by ``|``. The background colour is the puzzle's
``backgroundcolor`` (default ``white``); a count without a colour has the puzzle's
``defaultcolor`` (default ``black``). White and black may be used without a definition
(then written ``.`` and ``X``), as pbnsolve allows.

Elements are read with their line and column (expat), so every error says where it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.parsers import expat

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.nonogram.clues import Colour
from smtpuzzle.puzzles.nonogram.puzzle import Nonogram

_IMPLIED = {"white": Colour("white", ".", "#ffffff"), "black": Colour("black", "X", "#000000")}


@dataclass
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int
    column: int  # from 1
    children: list[_Element] = field(default_factory=list)
    text: str = ""

    def error(self, message: str) -> PuzzleError:
        return PuzzleError(message, line=self.line, column=self.column)

    def all(self, tag: str) -> list[_Element]:
        return [c for c in self.children if c.tag == tag]

    def one(self, tag: str) -> _Element | None:
        found = self.all(tag)
        if len(found) > 1:
            raise found[1].error(f"<{tag}> given twice in <{self.tag}>")
        return found[0] if found else None


def _parse(text: str) -> _Element:
    """The document's elements with their positions (tag names in lower case, as
    pbnsolve matches them)."""
    parser = expat.ParserCreate()
    root = _Element("", {}, 1, 1)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        element = _Element(tag.lower(), {k.lower(): v for k, v in attrs.items()},
                           parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        stack[-1].children.append(element)
        stack.append(element)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise PuzzleError(f"malformed XML: {expat.ErrorString(exc.code)}", line=exc.lineno,
                          column=exc.offset + 1) from None
    return root


def _rgb(element: _Element) -> str:
    value = element.text.strip().lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{3}|[0-9a-fA-F]{6}", value):
        raise element.error(f"colour {element.attrs.get('name', '')!r}: {value!r} is not an "
                            "RGB colour in hex (3 or 6 digits)")
    if len(value) == 3:
        value = "".join(ch * 2 for ch in value)
    return "#" + value.lower()


def _colours(puzzle: _Element) -> dict[str, Colour]:
    """The defined colours by name, in the file's order."""
    out: dict[str, Colour] = {}
    for element in puzzle.all("color"):
        name = element.attrs.get("name", "").strip()
        if not name:
            raise element.error("a <color> needs a name")
        if name in out:
            raise element.error(f"colour {name!r} defined twice")
        char = element.attrs.get("char")
        if char is None:
            if name not in _IMPLIED:
                raise element.error(f"colour {name!r} needs a char (its character in "
                                    "solution images)")
            char = _IMPLIED[name].char
        if len(char) != 1 or char.isspace() or char in "|[]?":
            raise element.error(f"colour {name!r}: its char is one character other than "
                                f"space, |, [, ] and ?, not {char!r}")
        out[name] = Colour(name, char, _rgb(element))
    return out


def _clues(puzzle: _Element, kind: str, colours: dict[str, Colour], default: str,
           used: list[str]) -> tuple[list[list[tuple[int, str]]], list[int]]:
    """One ``<clues type=kind>`` section: per line its (length, colour name) runs, and the
    line of the file where each starts; ``used`` collects colour names in order."""
    sections = [c for c in puzzle.all("clues") if c.attrs.get("type", "").lower() == kind]
    if not sections:
        raise puzzle.error(f'no <clues type="{kind}"> in the puzzle')
    if len(sections) > 1:
        raise sections[1].error(f'<clues type="{kind}"> given twice')
    lines, where = [], []
    for line in sections[0].all("line"):
        runs = []
        for count in line.all("count"):
            value = count.text.strip()
            if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) == 0:
                raise count.error(f"a count is a positive whole number, not {value!r}")
            name = count.attrs.get("color", default).strip()
            if name not in colours and name not in _IMPLIED:
                raise count.error(f"clue colour {name!r} is not defined (defined: "
                                  f"{', '.join(colours) or 'none'})")
            if name not in used:
                used.append(name)
            runs.append((int(value), name))
        lines.append(runs)
        where.append(line.line)
    if not lines:
        raise sections[0].error(f"the {kind} clues have no <line>")
    return lines, where


def _goal(puzzle: _Element, chars: dict[str, int], height: int,
          width: int) -> tuple[list[list[int]] | None, int | None]:
    """The goal image as colour indices per row (None when the file has none, or one with
    undecided cells) and its line."""
    for solution in puzzle.all("solution"):
        if solution.attrs.get("type", "goal").lower() not in ("goal", "solution"):
            continue
        image = solution.one("image")
        if image is None:
            raise solution.error("a <solution> needs an <image>")
        body = re.sub(r"\s", "", image.text)
        if "[" in body or "?" in body:
            return None, None  # a partial grid: nothing to compare with
        rows = re.findall(r"\|([^|]*)\|", body)
        if "".join(f"|{r}|" for r in rows) != body:
            raise image.error("an image is rows framed by |, nothing between them")
        if len(rows) != height or any(len(r) != width for r in rows):
            raise image.error(f"the image is not {height} rows of {width} cells")
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch not in chars:
                    raise image.error(f"image row {r + 1}, cell {c + 1}: {ch!r} is no "
                                      "colour's char")
        return [[chars[ch] for ch in row] for row in rows], image.line
    return None, None


def read_xml(text: str, name: str) -> Nonogram:
    """The one grid puzzle of a webpbn XML file."""
    root = _parse(text)
    top = root.children[0]
    puzzles = [top] if top.tag == "puzzle" else top.all("puzzle")
    if top.tag not in ("puzzle", "puzzleset"):
        raise top.error(f"expected <puzzleset> or <puzzle>, found <{top.tag}>")
    if not puzzles:
        raise top.error("the puzzle set holds no <puzzle>")
    if len(puzzles) > 1:
        raise puzzles[1].error(f"the file holds {len(puzzles)} puzzles; one file is one "
                               "puzzle here (split the set)")
    puzzle = puzzles[0]
    if puzzle.attrs.get("type", "grid").lower() != "grid":
        raise puzzle.error(f"a {puzzle.attrs['type']!r} puzzle: only grid puzzles are read")
    defined = _colours(puzzle)
    background = puzzle.attrs.get("backgroundcolor", "white").strip()
    default = puzzle.attrs.get("defaultcolor", "black").strip()
    used: list[str] = []
    cols, col_lines = _clues(puzzle, "columns", defined, default, used)
    rows, row_lines = _clues(puzzle, "rows", defined, default, used)
    if background not in defined and background not in _IMPLIED:
        raise puzzle.error(f"the background colour {background!r} is not defined")
    if background in used:
        raise puzzle.error(f"a clue has the background colour {background!r}")

    def colour(n: str) -> Colour:
        return defined.get(n) or _IMPLIED[n]

    # The background first, then the inks in the file's order (the implied ones last).
    inks = [n for n in defined if n != background and n in used]
    inks += [n for n in used if n not in inks]
    palette = [colour(background)] + [colour(n) for n in inks]
    index = {n: k for k, n in enumerate([background] + inks)}
    chars = {colour(n).char: k for n, k in index.items()}
    for c in defined.values():  # an unused colour in the goal: a contradiction, said below
        chars.setdefault(c.char, -1)

    def meta(tag: str) -> str:
        element = puzzle.one(tag) or (top.one(tag) if top is not puzzle else None)
        return " ".join(element.text.split()) if element is not None else ""

    goal, goal_line = _goal(puzzle, chars, len(rows), len(cols))
    kept_chars = "".join(c.char for c in palette) if len(palette) > 2 else ".#"
    goal_rows = None
    if goal is not None:
        if any(v < 0 for row in goal for v in row):
            raise PuzzleError("the goal image uses a colour no clue has", line=goal_line)
        goal_rows = ["".join(kept_chars[v] for v in row) for row in goal]
    title = meta("title")
    ident = meta("id")
    return Nonogram(rows=[[(n, index[c]) for n, c in line] for line in rows],
                    cols=[[(n, index[c]) for n, c in line] for line in cols],
                    name=name, title=title or (f"webpbn {ident}" if ident else ""),
                    author=meta("author"), copyright=meta("copyright"), goal=goal_rows,
                    goal_line=goal_line, row_lines=row_lines, col_lines=col_lines,
                    colours=tuple(palette))
