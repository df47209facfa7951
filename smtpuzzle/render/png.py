"""A scene as PNG, drawn by matplotlib's Agg renderer (imported here, on first use).

One pixel is one point (72 dpi), so line widths and font sizes mean what they mean in the
SVG. Text is in matplotlib's DejaVu Sans, the SVG's first font.
"""

from __future__ import annotations

import io
from typing import Any

from smtpuzzle.render.colours import rgb
from smtpuzzle.render.scene import Dot, Label, Path, Scene

COMPRESS_LEVEL = 3  # zlib level: measured in bench/RESULTS.md, "Pictures (issue 26)"


def _rgba(colour: str | None, alpha: float = 1.0) -> Any:
    if colour is None:
        return "none"
    r, g, b = rgb(colour)
    return (r / 255, g / 255, b / 255, alpha)


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


def _artist(item: Path | Label | Dot) -> Any:
    from matplotlib.patches import Circle, PathPatch
    from matplotlib.text import Text

    if isinstance(item, Path):
        style = ("round", "round") if item.round else ("miter", "butt")
        dash = "solid" if not item.dash or item.width <= 0 else (
            0, tuple(d / item.width for d in item.dash))
        return PathPatch(_mpl_path(item), facecolor=_rgba(item.fill),
                         edgecolor=_rgba(item.stroke, item.opacity),
                         linewidth=item.width if item.stroke else 0,
                         joinstyle=style[0], capstyle=style[1], linestyle=dash)
    if isinstance(item, Label):
        ha = {"start": "left", "middle": "center", "end": "right"}[item.anchor]
        return Text(item.x, item.y, item.text, fontsize=item.size, ha=ha, va="baseline",
                    color=_rgba(item.colour), fontweight="bold" if item.bold else "normal",
                    fontfamily="DejaVu Sans")
    return Circle((item.x, item.y), item.r, facecolor=_rgba(item.fill),
                  edgecolor=_rgba(item.stroke), linewidth=item.width if item.stroke else 0)


def render_rgb(scene: Scene) -> Any:
    """The scene as an (height, width, 3) uint8 array."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(scene.width / 72, scene.height / 72), dpi=72, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(scene.height, 0)
    ax.set_axis_off()
    for item in scene.items:
        artist = _artist(item)
        artist.set_clip_on(False)
        ax.add_artist(artist)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3]


def png_bytes(scene: Scene) -> bytes:
    """The scene as a PNG file's bytes (width x height pixels)."""
    from PIL import Image  # matplotlib's own dependency

    buf = io.BytesIO()
    Image.fromarray(render_rgb(scene)).save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()
