"""Picture files of solutions: SVG (text) and PNG (written here with zlib, no imaging library).

A picture is a grid of coloured cells, several grids side by side (the two solutions of a
puzzle that is not unique). Colours are RGB triples.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from smtpuzzle.errors import PuzzleError

Colour = tuple[int, int, int]
FILLED: Colour = (20, 20, 30)
EMPTY: Colour = (255, 255, 255)
GRID_LINE: Colour = (200, 200, 200)
GAP = 1  # cells of white between grids side by side


def nonogram_cells(solutions: Sequence[Sequence[str]]) -> list[np.ndarray]:
    """One (rows, cols, 3) colour array per solution grid of ``#`` / ``.``."""
    out = []
    for grid in solutions:
        filled = np.array([[ch == "#" for ch in row] for row in grid], dtype=bool)
        img = np.empty((*filled.shape, 3), dtype=np.uint8)
        img[filled], img[~filled] = FILLED, EMPTY
        out.append(img)
    return out


def _side_by_side(grids: Sequence[np.ndarray]) -> np.ndarray:
    h = max(g.shape[0] for g in grids)
    parts = []
    for i, g in enumerate(grids):
        if i:
            parts.append(np.full((h, GAP, 3), 255, dtype=np.uint8))
        pad = np.full((h - g.shape[0], g.shape[1], 3), 255, dtype=np.uint8)
        parts.append(np.concatenate([g, pad]))
    return np.concatenate(parts, axis=1)


def svg_text(grids: Sequence[np.ndarray], cell: int = 12) -> str:
    image = _side_by_side(grids)
    h, w = image.shape[:2]
    rects = []
    for r, c in zip(*np.nonzero((image != 255).any(axis=2)), strict=True):
        colour = "#" + "".join(f"{int(v):02x}" for v in image[r, c])
        rects.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
                     f'fill="{colour}"/>')
    outlines = []
    x0 = 0
    for g in grids:
        gh, gw = g.shape[:2]
        outlines.append(f'<rect x="{x0 * cell}" y="0" width="{gw * cell}" '
                        f'height="{gh * cell}" fill="none" stroke="#888" stroke-width="1"/>')
        x0 += gw + GAP
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * cell}" height="{h * cell}" '
            f'viewBox="0 0 {w * cell} {h * cell}">\n<rect width="100%" height="100%" '
            f'fill="white"/>\n' + "\n".join(rects + outlines) + "\n</svg>\n")


def png_bytes(grids: Sequence[np.ndarray], cell: int = 12) -> bytes:
    image = _side_by_side(grids)
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


def write_picture(grids: Sequence[np.ndarray], path: str | Path) -> None:
    """Write ``grids`` side by side as SVG or PNG, chosen by the file's extension."""
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
