"""One self-contained HTML page: a run's summary as a table and its pictures as inline
SVG (no scripts, no links: it opens offline)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

_STYLE = """
body { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; margin: 2em; color: #1a1a1a; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
p.title { margin-top: 0; color: #555; }
table.summary { border-collapse: collapse; margin: 1em 0 1.5em; }
table.summary td { border-bottom: 1px solid #ddd; padding: 0.2em 1.2em 0.2em 0; }
table.summary td:first-child { color: #555; }
div.pictures { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { margin: 0; }
figure svg { max-width: 100%; height: auto; }
"""


def _flat(data: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """``key: value`` rows of a summary; nested objects give ``outer inner`` keys, long
    lists (the solutions themselves) are left out."""
    rows = []
    for key, value in data.items():
        name = f"{prefix}{key}".replace("_", " ")
        if isinstance(value, dict):
            rows += _flat(value, name + " ")
        elif isinstance(value, list | tuple):
            if len(value) <= 8 and all(isinstance(v, int | float | str) for v in value):
                rows.append((name, ", ".join(map(str, value))))
        elif value is not None:
            text = f"{value:.4g}" if isinstance(value, float) else str(value)
            rows.append((name, text))
    return rows


def html_page(title: str, summary: dict[str, Any], svgs: Sequence[str],
              subtitle: str = "") -> str:
    """The page: ``title``, the ``summary`` table, then every SVG picture."""
    rows = "\n".join(f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>"
                     for k, v in _flat(summary))
    figures = "\n".join(f"<figure>\n{svg}</figure>" for svg in svgs)
    sub = f'<p class="title">{escape(subtitle)}</p>\n' if subtitle else ""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{escape(title)}</h1>\n{sub}"
            f'<table class="summary">\n{rows}\n</table>\n'
            f'<div class="pictures">\n{figures}\n</div>\n</body>\n</html>\n')
