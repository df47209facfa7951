"""Text pictures of boards, pieces and tilings: letter grids, coloured on a terminal."""

from __future__ import annotations

from collections import Counter

import numpy as np
from rich.text import Text

from smtpuzzle.geometry.board import Board
from smtpuzzle.geometry.edges import vertex_marks
from smtpuzzle.puzzles.tiling.puzzle import Tiling, TilingSolution

_PALETTE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_COLOURS = [
    "red", "green", "yellow", "blue", "magenta", "cyan", "bright_red", "bright_green",
    "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan", "dark_orange",
    "purple", "turquoise2", "gold1", "deep_pink2", "chartreuse3", "steel_blue", "orchid",
]
HOLE, EMPTY = " ", "."


def piece_chars(names: list[str]) -> dict[str, str]:
    """One character per piece: its name when that is one character, else its first
    character when no other piece starts with it (I6 -> I), else from a palette. Never the
    marks of a hole or an empty cell: a piece named ``.`` takes a letter."""
    marks = (HOLE, EMPTY)
    chars = {n: n for n in names if len(n) == 1 and n not in marks}
    firsts = Counter(n[0] for n in names if n)
    for n in names:
        if len(n) > 1 and firsts[n[0]] == 1 and n[0] not in chars.values() and \
                n[0] not in marks:
            chars[n] = n[0]
    free = [c for c in _PALETTE if c not in chars.values()]
    for i, n in enumerate(n for n in names if n not in chars):
        chars[n] = free[i % len(free)]
    return chars


def legend(names: list[str]) -> str:
    """``A=H01 I=I6 ...`` for pieces whose names are not single characters, else ''."""
    chars = piece_chars(names)
    return " ".join(f"{chars[n]}={n}" for n in names if chars[n] != n)


def _layers(dims: tuple[int, ...]) -> list[int | None]:
    return [None] if len(dims) == 2 else list(range(dims[2]))


def _grid_lines(board: Board, owner: dict[tuple[int, ...], str], chars: dict[str, str],
                colours: dict[str, str]) -> Text:
    rows, cols = board.dims[0], board.dims[1]
    layers = _layers(board.dims)
    out = Text()
    vertices = vertex_marks(board.grid, board.cells) if board.grid.edges else {}
    # the rows and columns that show something (an edge grid's box can start with an empty
    # row: its edges sit at picture points, the box at a translation of the grid)
    used = board.mask.reshape(rows, cols, -1).any(axis=2)
    for r, c in vertices:
        if 0 <= r < rows and 0 <= c < cols:
            used[r, c] = True
    row_range, col_range = _span(used.any(axis=1)), _span(used.any(axis=0))
    if layers != [None]:
        header = "  ".join(f"z={z}".ljust(len(col_range)) for z in layers)
        out.append(header.rstrip() + "\n", style="dim")
    for r in row_range:
        for li, z in enumerate(layers):
            if li:
                out.append("  ")
            for c in col_range:
                cell = (r, c) if z is None else (r, c, z)
                if cell in vertices:
                    out.append(vertices[cell], style="dim")
                elif not board.mask[cell]:
                    out.append(HOLE)
                elif cell in owner:
                    name = owner[cell]
                    out.append(chars[name], style=f"bold black on {colours[name]}")
                else:
                    out.append(EMPTY, style="dim")
        out.append("\n")
    return out


def _span(shown: np.ndarray) -> range:
    """From the first to the last index where ``shown`` holds (all of them when none does)."""
    at = np.flatnonzero(shown)
    return range(int(at[0]), int(at[-1]) + 1) if len(at) else range(len(shown))


def _colours(names: list[str]) -> dict[str, str]:
    return {n: _COLOURS[i % len(_COLOURS)] for i, n in enumerate(names)}


def tiling_picture(tiling: Tiling, solution: TilingSolution) -> Text:
    """The solution as a letter grid; 3D boards as layers side by side."""
    return frames_picture(tiling.board, [p.name for p in tiling.pieces], [solution])


def frames_picture(board: Board, names: list[str], frames: list[TilingSolution],
                   gap: str = "   ") -> Text:
    """Tilings of one board side by side (the frames of a frames answer), each piece with
    the same letter and colour throughout, and a legend of the pieces used."""
    chars, colours = piece_chars(names), _colours(names)
    grids = []
    for frame in frames:
        owner = {cell: pl.piece for pl in frame.placements for cell in pl.cells}
        grids.append(_grid_lines(board, owner, chars, colours).split("\n"))
    width = max(len(line) for g in grids for line in g)
    out = Text()
    for parts in zip(*grids, strict=True):
        for k, part in enumerate(parts):
            if k:
                out.append(gap + " " * (width - len(parts[k - 1])))
            out.append_text(part)
        out.append("\n")
    used = [n for n in names if any(pl.piece == n for f in frames for pl in f.placements)]
    key = legend(used)
    if key:
        out.append(key + "\n", style="dim")
    return out


def board_picture(tiling: Tiling) -> Text:
    return _grid_lines(tiling.board, {}, {}, {})


def pieces_picture(tiling: Tiling, width: int = 78) -> Text:
    """Every piece drawn once with its name, multiplicity, orientations and placements."""
    counts = tiling.placement_counts()
    names = [p.name for p in tiling.pieces]
    chars, colours = piece_chars(names), _colours(names)
    blocks = []
    for p in tiling.pieces:
        mult = f"<={p.count}" if p.at_most else f"x{p.count}"
        n_orient = len(p.shape.orientations(p.reflections(tiling.board.dim)))
        head = f"{p.name} {mult}"
        info = f"{n_orient} or, {counts[p.name]} pl"
        pic = p.shape.picture(chars[p.name]).split("\n")
        w = max(len(head), len(info), *(len(line) for line in pic))
        blocks.append((p.name, [head.ljust(w), info.ljust(w)] + [line.ljust(w) for line in pic], w))
    out = Text()
    row: list = []
    used = 0
    for block in blocks + [None]:
        if block is None or (row and used + block[2] + 3 > width):
            height = max(len(b[1]) for b in row)
            for i in range(height):
                for j, (name, lines, w) in enumerate(row):
                    if j:
                        out.append("   ")
                    line = lines[i] if i < len(lines) else " " * w
                    if i < 2:
                        out.append(line, style="bold" if i == 0 else "dim")
                    else:
                        for ch in line:
                            style = f"bold black on {colours[name]}" if ch not in " ." else "dim"
                            out.append(ch, style=style)
                out.append("\n")
            out.append("\n")
            row, used = [], 0
        if block is not None:
            row.append(block)
            used += block[2] + 3
    return out
