"""A scene as SVG text: one element per item, in order; ``class`` names what each shows."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from smtpuzzle.render.scene import Dot, Label, Path, Scene

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


def _n(v: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def path_data(path: Path) -> str:
    """The ``d`` attribute: absolute moves, H and V for straight lines; Z closes."""
    parts = []
    for loop in path.loops:
        (x0, y0), px, py = loop[0], loop[0][0], loop[0][1]
        parts.append(f"M{_n(x0)} {_n(y0)}")
        for x, y in loop[1:]:
            if _n(y) == _n(py):
                parts.append(f"H{_n(x)}")
            elif _n(x) == _n(px):
                parts.append(f"V{_n(y)}")
            else:
                parts.append(f"L{_n(x)} {_n(y)}")
            px, py = x, y
        if path.closed:
            parts.append("Z")
    return "".join(parts)


def _path(p: Path) -> str:
    attrs = [f'd="{path_data(p)}"']
    if p.kind:
        attrs.insert(0, f'class="{p.kind}"')
    attrs.append(f'fill="{p.fill}"' if p.fill else 'fill="none"')
    if p.stroke:
        attrs.append(f'stroke="{p.stroke}" stroke-width="{_n(p.width)}"')
        if p.opacity < 1:
            attrs.append(f'stroke-opacity="{_n(p.opacity)}"')
        if p.round:
            attrs.append('stroke-linejoin="round" stroke-linecap="round"')
        else:
            attrs.append('stroke-linecap="butt"')
        if p.dash:
            attrs.append(f'stroke-dasharray="{" ".join(_n(d) for d in p.dash)}"')
    return f"<path {' '.join(attrs)}/>"


def _label(t: Label) -> str:
    anchor = "" if t.anchor == "start" else f' text-anchor="{t.anchor}"'
    weight = ' font-weight="bold"' if t.bold else ""
    fill = "" if t.colour == "#1a1a1a" else f' fill="{t.colour}"'
    cls = f'class="{t.kind}" ' if t.kind else ""
    return (f'<text {cls}x="{_n(t.x)}" y="{_n(t.y)}" font-size="{_n(t.size)}"{anchor}'
            f'{weight}{fill}>{escape(t.text)}</text>')


def _dot(d: Dot) -> str:
    stroke = f' stroke="{d.stroke}" stroke-width="{_n(d.width)}"' if d.stroke else ""
    cls = f'class="{d.kind}" ' if d.kind else ""
    return (f'<circle {cls}cx="{_n(d.x)}" cy="{_n(d.y)}" r="{_n(d.r)}" fill="{d.fill}"'
            f'{stroke}/>')


def svg_text(scene: Scene) -> str:
    """The scene as a standalone SVG document (text in the default font colour #1a1a1a)."""
    body = []
    for item in scene.items:
        if isinstance(item, Path):
            body.append(_path(item))
        elif isinstance(item, Label):
            body.append(_label(item))
        else:
            body.append(_dot(item))
    title = f"<title>{escape(scene.title)}</title>\n" if scene.title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" '
            f'height="{scene.height}" viewBox="0 0 {scene.width} {scene.height}" '
            f'font-family={quoteattr(FONT)} fill="#1a1a1a">\n{title}'
            f'<rect width="100%" height="100%" fill="#ffffff"/>\n'
            + "\n".join(body) + "\n</svg>\n")
