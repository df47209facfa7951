"""Picture files of solutions: SVG (text) and PNG (written here with zlib, no imaging library).

A picture is one or more grids of coloured cells side by side: the two solutions of a
nonogram that is not unique, or the layers of a 3D tiling. SVG also draws each cell's label
(a piece's letter), a caption per grid and a legend; PNG draws the colours only.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.nonogram.puzzle import grid_array

Colour = tuple[int, int, int]
FILLED: Colour = (20, 20, 30)
EMPTY: Colour = (255, 255, 255)
GRID_LINE: Colour = (200, 200, 200)
HOLE: Colour = (225, 225, 225)
GAP = 1  # cells of white between grids side by side


def nonogram_cells(solutions: Sequence[Sequence[str]]) -> list[np.ndarray]:
    """One (rows, cols, 3) colour array per solution grid of ``#`` / ``.``."""
    out = []
    for grid in solutions:
        filled = grid_array(grid)
        img = np.empty((*filled.shape, 3), dtype=np.uint8)
        img[filled], img[~filled] = FILLED, EMPTY
        out.append(img)
    return out



def piece_colours(names: Sequence[str]) -> dict[str, Colour]:
    """Distinct, fairly light colours: hues spread by the golden ratio."""
    import colorsys

    out = {}
    for i, name in enumerate(names):
        hue = (i * 0.618033988749895) % 1.0
        r, g, b = colorsys.hsv_to_rgb(hue, 0.55 if i % 2 else 0.75, 0.95 if i % 3 else 0.8)
        out[name] = (int(r * 255), int(g * 255), int(b * 255))
    return out


@dataclass
class Picture:
    grids: list[np.ndarray]  # (rows, cols, 3) colours each
    labels: list[np.ndarray] | None = None  # (rows, cols) text per cell, '' for none
    captions: list[str] | None = None
    legend: list[tuple[Colour, str]] | None = None
    columns: int = 0  # grids per row (0: all in one row)

    def rows(self) -> list[list[int]]:
        """Grid indices per row of the picture."""
        n = len(self.grids)
        step = self.columns or n
        return [list(range(i, min(i + step, n))) for i in range(0, n, step)]

    def offsets(self, caption: int = 0) -> tuple[list[tuple[int, int]], int, int]:
        """Top-left corner of each grid in cells (``caption`` extra rows above each picture
        row), and the width and height of the whole."""
        corners: list[tuple[int, int]] = [(0, 0)] * len(self.grids)
        y = width = 0
        for row in self.rows():
            x = 0
            for i in row:
                corners[i] = (x, y + caption)
                x += self.grids[i].shape[1] + GAP
            width = max(width, x - GAP)
            y += caption + max(self.grids[i].shape[0] for i in row) + GAP
        return corners, width, y - GAP


def _layer_grids(board: Any, owner: dict, colours: dict[str, Colour], chars: dict[str, str]
                 ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Colours and letters per cell, one grid per layer (one for a 2D board)."""
    dims, mask = board.dims, board.mask
    layers = [None] if len(dims) == 2 else list(range(dims[2]))
    grids, labels = [], []
    for z in layers:
        img = np.full((dims[0], dims[1], 3), 255, dtype=np.uint8)
        text = np.full((dims[0], dims[1]), "", dtype=object)
        for r in range(dims[0]):
            for c in range(dims[1]):
                cell = (r, c) if z is None else (r, c, z)
                if not mask[cell]:
                    img[r, c] = HOLE
                elif cell in owner:
                    img[r, c] = colours[owner[cell]]
                    text[r, c] = chars[owner[cell]]
        grids.append(img)
        labels.append(text)
    return grids, labels


def _legend(names: Sequence[str], used: set[str], colours: dict[str, Colour],
            chars: dict[str, str]) -> list[tuple[Colour, str]]:
    return [(colours[n], n if chars[n] == n else f"{chars[n]} = {n}") for n in names if n in used]


def tiling_picture_cells(tiling: Any, solution: Any) -> Picture:
    """A tiling solution: one colour and letter per piece; 3D boards one grid per layer."""
    return frames_picture_cells(tiling.board, [p.name for p in tiling.pieces], [solution],
                                numbered=False)


def frames_picture_cells(board: Any, names: Sequence[str], frames: Sequence[Any],
                         numbered: bool = True, caption: str = "frame",
                         per_row: int = 0) -> Picture:
    """Tilings of one board side by side (the frames of a frames answer, or the solutions of
    a listing), each piece in the same colour and letter throughout; 3D boards layer by
    layer. ``per_row`` tilings (all their layers) make one row of the picture."""
    from smtpuzzle.render.text import piece_chars

    colours, chars = piece_colours(names), piece_chars(list(names))
    grids, labels, captions = [], [], []
    for k, frame in enumerate(frames):
        owner = {cell: pl.piece for pl in frame.placements for cell in pl.cells}
        g, lab = _layer_grids(board, owner, colours, chars)
        grids += g
        labels += lab
        for z in range(len(g)):
            parts = ([f"{caption} {k + 1}"] if numbered else []) + \
                ([f"z={z}"] if len(g) > 1 else [])
            captions.append(" ".join(parts))
    used = {pl.piece for frame in frames for pl in frame.placements}
    layers = len(grids) // max(len(frames), 1)
    return Picture(grids, labels, captions if any(captions) else None,
                   _legend(names, used, colours, chars), per_row * layers)


def _hex(colour: Any) -> str:
    return "#" + "".join(f"{int(v):02x}" for v in colour)


def svg_text(picture: Picture | Sequence[np.ndarray], cell: int = 12) -> str:
    pic = picture if isinstance(picture, Picture) else Picture(list(picture))
    caption_px = 16 if pic.captions else 0
    caption = -(-caption_px // cell)  # caption space in whole cells
    corners, w, h = pic.offsets(caption)
    body = []
    for k, g in enumerate(pic.grids):
        gh, gw = g.shape[:2]
        cx, cy = corners[k]
        for r, c in zip(*np.nonzero((g != 255).any(axis=2)), strict=True):
            x, y = (cx + c) * cell, (cy + r) * cell
            body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                        f'fill="{_hex(g[r, c])}" stroke="#fff" stroke-width="0.5"/>')
            label = pic.labels[k][r, c] if pic.labels else ""
            if label:
                body.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.75}" font-size="'
                            f'{cell * 0.6:.1f}" text-anchor="middle" font-family="monospace">'
                            f'{escape(label)}</text>')
        body.append(f'<rect x="{cx * cell}" y="{cy * cell}" width="{gw * cell}" '
                    f'height="{gh * cell}" fill="none" stroke="#888" stroke-width="1"/>')
        if pic.captions:
            body.append(f'<text x="{cx * cell}" y="{cy * cell - 4}" font-size="11" '
                        f'font-family="sans-serif">{escape(pic.captions[k])}</text>')
    height = h * cell
    if pic.legend:
        y = height + 8
        for colour, text in pic.legend:
            body.append(f'<rect x="0" y="{y}" width="{cell}" height="{cell}" '
                        f'fill="{_hex(colour)}"/>')
            body.append(f'<text x="{cell + 4}" y="{y + cell - 2}" font-size="{cell - 1}" '
                        f'font-family="sans-serif">{escape(text)}</text>')
            y += cell + 3
        height = y
    width = max(w * cell, 160 if pic.legend else 0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n<rect width="100%" height="100%" '
            f'fill="white"/>\n' + "\n".join(body) + "\n</svg>\n")


def png_bytes(picture: Picture | Sequence[np.ndarray], cell: int = 12) -> bytes:
    pic = picture if isinstance(picture, Picture) else Picture(list(picture))
    corners, w, h = pic.offsets()
    image = np.full((h, w, 3), 255, dtype=np.uint8)
    for (x, y), g in zip(corners, pic.grids, strict=True):
        image[y:y + g.shape[0], x:x + g.shape[1]] = g
    big = np.repeat(np.repeat(image, cell, axis=0), cell, axis=1)
    # Thin grid lines inside each cell block make single cells countable.
    big[::cell][(big[::cell] == 255).all(axis=2)] = GRID_LINE
    big[:, ::cell][(big[:, ::cell] == 255).all(axis=2)] = GRID_LINE
    h, w = big.shape[:2]
    raw = b"".join(b"\x00" + big[r].tobytes() for r in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write_picture(grids: Picture | Sequence[np.ndarray], path: str | Path) -> None:
    """Write a picture (or bare grids side by side) as SVG or PNG, by the file's extension."""
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".svg":
            path.write_text(svg_text(grids), encoding="utf-8")
        elif suffix == ".png":
            path.write_bytes(png_bytes(grids))
        else:
            raise PuzzleError("picture files end in .svg or .png", str(path))
    except OSError as exc:
        raise PuzzleError(f"cannot write ({exc.strerror})", str(path)) from None
