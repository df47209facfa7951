"""The ``.kenken`` format: a ``size N`` line, then N rows naming each cell's cage (one
letter or digit per cell, spaces between them optional), then one clue per cage: its name,
its target and its operation (``+``, ``-``, ``*`` or ``x``, ``/``, ``=``; a one-cell cage
may leave the operation out). A ``#`` starts a comment, to the end of its line; blank
lines are skipped; an optional ``title ...`` line before the size names the puzzle. For
example::

    size 3
    A B B
    A C D
    E E D
    A 3+
    B 3*
    C 3
    D 1-
    E 1-
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.kenken.puzzle import Cage, KenKen
from smtpuzzle.runtime.files import read_text

MAX_SIZE = 16
CLUE = re.compile(r"(\S+)\s+([0-9]+)\s*(\S*)")
SIZE = re.compile(r"size\s+([0-9]+)")
OPS = {"+": "+", "-": "-", "*": "*", "x": "*", "X": "*", "/": "/", "=": "=", "": ""}


def _lines(text: str, where: str) -> list[tuple[str, str]]:
    """(line, "file:number") for each line with something before its comment."""
    kept = ((line.split("#", 1)[0].strip(), k) for k, line in enumerate(text.splitlines(), 1))
    return [(line, f"{where}:{k}") for line, k in kept if line]


def _size(lines: list[tuple[str, str]], where: str) -> tuple[int, str]:
    if not lines:
        raise PuzzleError("no KenKen in the file (it starts with a 'size N' line)", where)
    line, at = lines.pop(0)
    m = SIZE.fullmatch(line)
    if m is None:
        raise PuzzleError(f"expected 'size N', found {line!r}", at)
    digits = m.group(1)
    if len(digits) > 3 or not 1 <= int(digits) <= MAX_SIZE:
        raise PuzzleError(f"size {digits[:20]}: a KenKen has 1 to {MAX_SIZE} rows", at)
    n = int(digits)
    return n, at


def _connected(cells: list[tuple[int, int]]) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def _cage(name: str, cells: list[tuple[int, int]], line: str, at: str, n: int) -> Cage:
    m = CLUE.fullmatch(line)
    if m is None or m.group(3) not in OPS:
        raise PuzzleError(f"expected a clue like 'A 12+' (a cage, a number, one of "
                          f"+ - * x / =), found {line!r}", at)
    op = OPS[m.group(3)]
    k = len(cells)
    reach = {"+": n * k, "*": n**k, "-": n - 1, "/": n, "=": n}[op or "="]
    digits = m.group(2).lstrip("0")
    # more digits than reach and 2**53 (see below): refused before int() is asked to read it
    if len(digits) > max(len(str(reach)), len(str(2**53))):
        raise PuzzleError(f"no solution: cage {name} ({k} cells of 1..{n}) reaches at most "
                          f"{reach} with '{op or '='}', not a number of {len(digits)} digits",
                          at)
    target = int(m.group(2))
    if op == "" and len(cells) != 1:
        raise PuzzleError(f"cage {name} has {len(cells)} cells: its clue needs an "
                          f"operation (+ - * /)", at)
    op = op or "="
    if op in "-/" and len(cells) != 2:
        raise PuzzleError(f"cage {name}: '{op}' takes two cells, it has {len(cells)}", at)
    if op == "=" and len(cells) != 1:
        raise PuzzleError(f"cage {name}: '=' takes one cell, it has {len(cells)}", at)
    if target < 1:
        raise PuzzleError(f"cage {name}: the target must be at least 1", at)
    # Past what the model's numbers hold (2**53), a target makes no model: refused here,
    # as obviously impossible. Smaller ones out of reach are the solvers' to answer none.
    if target > max(reach, 2**53):
        raise PuzzleError(f"no solution: cage {name} ({k} cells of 1..{n}) reaches at most "
                          f"{reach} with '{op}', not {target}", at)
    return Cage(name, tuple(cells), target, op)


def parse_kenken(text: str, where: str, name: str | None = None) -> KenKen:
    """A KenKen from the text of a ``.kenken`` file; errors name ``where`` and the line."""
    lines = _lines(text, where)
    title = None
    if lines and lines[0][0].split(maxsplit=1)[0] == "title":
        title = lines.pop(0)[0][len("title"):].strip() or None
    n, size_at = _size(lines, where)
    if len(lines) < n:
        raise PuzzleError(f"size {n} needs {n} rows of cages, the file has {len(lines)}",
                          size_at)
    cells: dict[str, list[tuple[int, int]]] = {}
    first_at: dict[str, str] = {}
    for r, (line, at) in enumerate(lines[:n]):
        row = line.replace(" ", "").replace("\t", "")
        if len(row) != n or not row.isalnum():
            raise PuzzleError(f"a row of cages has {n} letters or digits (one per cell), "
                              f"found {line!r}", at)
        for c, ch in enumerate(row):
            cells.setdefault(ch, []).append((r, c))
            first_at.setdefault(ch, at)
    cages: dict[str, Cage] = {}
    for line, at in lines[n:]:
        cage_name = line.split()[0]
        if cage_name not in cells:
            raise PuzzleError(f"a clue for cage {cage_name!r}, which is not in the grid", at)
        if cage_name in cages:
            raise PuzzleError(f"cage {cage_name} has a second clue", at)
        cages[cage_name] = _cage(cage_name, cells[cage_name], line, at, n)
    for cage_name, members in cells.items():
        if cage_name not in cages:
            raise PuzzleError(f"cage {cage_name} has no clue", first_at[cage_name])
        if not _connected(members):
            raise PuzzleError(f"cage {cage_name}: its cells are not connected (side by "
                              f"side)", first_at[cage_name])
    return KenKen(n, list(cages.values()), title or name or where)


def load_kenken(path: Path) -> KenKen:
    """The KenKen of a ``.kenken`` file (named after the file unless it has a title)."""
    text = read_text(path)
    return parse_kenken(text, str(path), path.stem)


def grid_text(grid: np.ndarray) -> str:
    """A solved grid, a row per line."""
    return "\n".join(" ".join(str(v) for v in row) for row in np.asarray(grid).tolist())


def solution_text(_puzzle: object, grid: np.ndarray) -> str:
    """A solved grid as text, for the family registry."""
    return grid_text(grid) + "\n"
