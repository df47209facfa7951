"""A scene as PNG, drawn by matplotlib's Agg renderer (imported here, on first use).

Items go straight to the renderer (its public draw_path / draw_text), without figures or
artists: a 100-solution contact sheet draws in a fraction of the time. One pixel is one
point (72 dpi), so line widths and font sizes mean what they mean in the SVG; text is in
matplotlib's DejaVu Sans, the SVG's first font. Pillow (matplotlib's own dependency)
writes the file.
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.render.colours import rgb
from smtpuzzle.render.scene import Dot, Label, Path, Scene

MAX_PIXELS = 200_000_000  # 800 MB of canvas; a 5,000-solution sheet at 32 px is ~20 million
COMPRESS_LEVEL = 6  # files a third smaller than levels 1-3, as fast: bench/RESULTS.md


def _rgba(colour: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    r, g, b = rgb(colour)
    return r / 255, g / 255, b / 255, alpha


@cache
def _font(size: float, bold: bool) -> Any:
    from matplotlib.font_manager import FontProperties

    return FontProperties(family="DejaVu Sans", size=size, weight="bold" if bold else "normal")


def _mpl_path(path: Path) -> Any:
    from matplotlib.path import Path as MPath

    vertices: list[tuple[float, float]] = []
    codes: list[int] = []
    for loop in path.loops:
        vertices += loop
        codes += [MPath.MOVETO] + [MPath.LINETO] * (len(loop) - 1)
        if path.closed:
            vertices.append(loop[0])
            codes.append(MPath.CLOSEPOLY)
    return MPath(vertices, codes)


def render_rgb(scene: Scene) -> Any:
    """The scene as an (height, width, 3) uint8 array."""
    import numpy as np
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.path import Path as MPath
    from matplotlib.transforms import Affine2D

    pixels = scene.width * scene.height
    if pixels > MAX_PIXELS:  # Agg's buffer is 4 bytes a pixel, allocated at once
        raise PuzzleError(f"a PNG of {scene.width:,} x {scene.height:,} pixels: at most "
                          f"{MAX_PIXELS // 10**6} million are drawn (give a smaller `cell`, "
                          "fewer solutions, or an SVG)")
    renderer = RendererAgg(scene.width, scene.height, 72)
    flip = Affine2D().scale(1, -1).translate(0, scene.height)  # y down, as in the SVG
    gc = renderer.new_gc()
    gc.set_antialiased(True)
    page = MPath([(0, 0), (scene.width, 0), (scene.width, scene.height), (0, scene.height),
                  (0, 0)], closed=True)
    gc.set_linewidth(0)
    renderer.draw_path(gc, page, flip, (1, 1, 1, 1))
    for item in scene.items:
        if isinstance(item, Path):
            stroke = item.stroke is not None and item.width > 0
            gc.set_linewidth(item.width if stroke else 0)
            if stroke:
                gc.set_foreground(_rgba(item.stroke, item.opacity), isRGBA=True)
            gc.set_joinstyle("round" if item.round else "miter")
            gc.set_capstyle("round" if item.round else "butt")
            gc.set_dashes(0, list(item.dash) if item.dash else None)
            face = _rgba(item.fill) if item.fill else None
            renderer.draw_path(gc, _mpl_path(item), flip, face)
        elif isinstance(item, Label):
            font = _font(item.size, item.bold)
            x = item.x
            if item.anchor != "start":
                width = renderer.get_text_width_height_descent(item.text, font, False)[0]
                x -= width if item.anchor == "end" else width / 2
            gc.set_foreground(_rgba(item.colour), isRGBA=True)
            y = item.y if renderer.flipy() else scene.height - item.y  # text's y: flipy
            renderer.draw_text(gc, x, y, item.text, font, 0)
        elif isinstance(item, Dot):
            circle = MPath.circle((item.x, item.y), item.r)
            stroke = item.stroke is not None and item.width > 0
            gc.set_linewidth(item.width if stroke else 0)
            if stroke:
                gc.set_foreground(_rgba(item.stroke), isRGBA=True)
            gc.set_dashes(0, None)
            renderer.draw_path(gc, circle, flip, _rgba(item.fill))
    gc.restore()
    return np.asarray(renderer.buffer_rgba())[:, :, :3]


def png_bytes(scene: Scene) -> bytes:
    """The scene as a PNG file's bytes (width x height pixels)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(render_rgb(scene)).save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()
