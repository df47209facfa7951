"""What a picture is made of: paths, labels and dots in pixel coordinates (y down).

Every picture is laid out once as a Scene and then written by svg.py or png.py, so the SVG
and the PNG show the same thing. Colours are ``#rrggbb`` strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

Point = tuple[float, float]
Loop = tuple[Point, ...]


@dataclass(frozen=True)
class Path:
    """Subpaths (``loops``), closed or open, with a fill and/or a stroke. ``kind`` names
    what it shows (piece, outline, grid, board, wall, walk...): the SVG's class."""

    loops: tuple[Loop, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    closed: bool = True
    kind: str = ""
    opacity: float = 1.0  # of the stroke
    dash: tuple[float, ...] | None = None
    round: bool = True  # round joins and caps, else miter joins and butt caps

    def moved(self, scale: float, dx: float, dy: float) -> Path:
        loops = tuple(tuple((x * scale + dx, y * scale + dy) for x, y in loop)
                      for loop in self.loops)
        dash = None if self.dash is None else tuple(d * scale for d in self.dash)
        return replace(self, loops=loops, width=self.width * scale, dash=dash)


@dataclass(frozen=True)
class Label:
    """Text at (x, y): ``y`` is the baseline; ``anchor`` start, middle or end."""

    x: float
    y: float
    text: str
    size: float
    anchor: str = "middle"
    colour: str = "#1a1a1a"
    bold: bool = False
    kind: str = ""

    def moved(self, scale: float, dx: float, dy: float) -> Label:
        return replace(self, x=self.x * scale + dx, y=self.y * scale + dy,
                       size=self.size * scale)

    @classmethod
    def centred(cls, x: float, y: float, text: str, size: float, **kw: object) -> Label:
        """A label whose letters are centred on (x, y) (the baseline a little lower)."""
        return cls(x, y + 0.36 * size, text, size, "middle", **kw)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    r: float
    fill: str
    stroke: str | None = None
    width: float = 0.0
    kind: str = ""

    def moved(self, scale: float, dx: float, dy: float) -> Dot:
        return replace(self, x=self.x * scale + dx, y=self.y * scale + dy, r=self.r * scale,
                       width=self.width * scale)


Item = Path | Label | Dot


@dataclass
class Scene:
    """A whole picture: its size in pixels and its items, drawn in order."""

    width: int
    height: int
    items: list[Item] = field(default_factory=list)
    title: str = ""


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is at font ``size`` in a sans-serif face (for layout)."""
    return 0.62 * size * len(text)
