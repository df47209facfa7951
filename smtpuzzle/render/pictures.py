"""Picture files: a drawing written as SVG or PNG (chosen by the file's extension), and a
self-contained HTML page of several drawings with a run's summary.

Drawings come from tilings.py, nonograms.py and mazes.py; layout.py gives them a size in
pixels (``cell`` pixels per cell, DEFAULT_CELL unless told), svg.py and png.py write them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.render.layout import DEFAULT_CELL, Drawing, layout

SUFFIXES = (".svg", ".png")


def svg_text(drawing: Drawing, cell: float | None = None) -> str:
    from smtpuzzle.render.svg import svg_text as scene_svg

    return scene_svg(layout(drawing, cell or DEFAULT_CELL))


def png_bytes(drawing: Drawing, cell: float | None = None) -> bytes:
    from smtpuzzle.render.png import png_bytes as scene_png

    return scene_png(layout(drawing, cell or DEFAULT_CELL))


def _write(path: Path, write: Callable[[Path], Any]) -> None:
    try:
        write(path)
    except OSError as exc:
        raise PuzzleError(f"cannot write ({exc.strerror})", str(path)) from None


def check_picture_path(path: str | Path) -> None:
    """Refuse a picture file name that is neither .svg nor .png (before any solving)."""
    if Path(path).suffix.lower() not in SUFFIXES:
        raise PuzzleError("picture files end in .svg or .png", str(path))


def write_drawing(drawing: Drawing, path: str | Path, cell: float | None = None) -> None:
    """Write ``drawing`` as SVG or PNG, by the file's extension."""
    path = Path(path)
    check_picture_path(path)
    if path.suffix.lower() == ".svg":
        text = svg_text(drawing, cell)
        _write(path, lambda p: p.write_text(text, encoding="utf-8"))
    else:
        data = png_bytes(drawing, cell)
        _write(path, lambda p: p.write_bytes(data))


def write_page(path: str | Path, title: str, summary: dict[str, Any],
               drawings: Sequence[Drawing], cell: float | None = None,
               subtitle: str = "") -> None:
    """One HTML page: ``title``, the ``summary`` (a run's JSON answer: status, back end,
    times...) as a table, then every drawing as inline SVG."""
    from smtpuzzle.render.html import html_page

    page = html_page(title, summary, [svg_text(d, cell) for d in drawings], subtitle)
    _write(Path(path), lambda p: p.write_text(page, encoding="utf-8"))
