"""Regenerate the pictures the README shows: ``python docs/make_pictures.py``.

The first solution the exact-cover engine lists is drawn, so the picture only changes
when the drawing code (or the engine's order) does.
"""

from __future__ import annotations

from pathlib import Path

from smtpuzzle import list_tilings, load
from smtpuzzle.puzzles.tiling.drawing import tiling_drawing
from smtpuzzle.render.pictures import write_drawing

DOCS = Path(__file__).resolve().parent


def main() -> None:
    tiling = load("pentomino-8x8-square")
    listing = list_tilings(tiling, "exact-cover", limit=1)
    drawing = tiling_drawing(tiling.board, tiling.pieces, listing.solutions)
    for suffix in (".png", ".svg"):
        path = DOCS / f"pentomino-8x8-square{suffix}"
        write_drawing(drawing, path)
        print(f"wrote {path.relative_to(DOCS.parent)}")


if __name__ == "__main__":
    main()
