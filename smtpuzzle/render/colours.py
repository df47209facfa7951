"""Colours: one light colour per piece name (dark letters stay readable on it), and ink."""

from __future__ import annotations

import colorsys
from collections.abc import Sequence

# Light, clearly different colours for the first pieces (a set of 12 or 13 gets these).
_PALETTE = (
    "#f4a3a3", "#9fcdf2", "#b5dd85", "#fbd08a", "#c9b3ef", "#f3ec86", "#8fd8c2", "#f5b0da",
    "#cfae8e", "#a3b6ea", "#dbe78e", "#f2bf9c", "#b9c3cc", "#e6a6f0", "#9be0e8", "#e8d3b0",
    "#c2e8b8", "#f0a8bd", "#b0a3d9", "#d8d890",
)
INK = "#1a1a1a"  # lines and letters
PAPER = "#ffffff"
FILLED = "#262633"  # a filled nonogram cell


def piece_colours(names: Sequence[str]) -> dict[str, str]:
    """A colour per piece name: the palette first, then hues spread by the golden ratio."""
    out = {}
    for i, name in enumerate(names):
        if i < len(_PALETTE):
            out[name] = _PALETTE[i]
            continue
        hue = (i * 0.618033988749895) % 1.0
        light = (0.78, 0.70, 0.86)[i % 3]
        r, g, b = colorsys.hls_to_rgb(hue, light, 0.65)
        out[name] = hex_colour((r * 255, g * 255, b * 255))
    return out


def hex_colour(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{int(round(v)):02x}" for v in rgb)


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def ink_on(fill: str) -> str:
    """Dark text on light fills, white on dark ones."""
    r, g, b = rgb(fill)
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 120 else PAPER


def blend(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return hex_colour([x + (y - x) * t for x, y in zip(rgb(a), rgb(b), strict=True)])
