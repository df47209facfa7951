"""Sudoku grids as SVG: thin cell lines, thick box lines, givens in bold."""

from __future__ import annotations

import numpy as np

DIGITS = "123456789ABCDEFGHIJKLMNOP"


def sudoku_svg(givens: np.ndarray, solution: np.ndarray | None = None, cell: int = 32) -> str:
    """The puzzle (and its solution, the filled-in digits in grey-blue) as an SVG page."""
    size = len(givens)
    n = int(round(size ** 0.5))
    side = size * cell
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{side + 4}" height="{side + 4}" '
             f'viewBox="-2 -2 {side + 4} {side + 4}" font-family="sans-serif" '
             f'font-size="{cell * 0.6:.0f}" text-anchor="middle">',
             f'<rect x="0" y="0" width="{side}" height="{side}" fill="white"/>']
    for i in range(size + 1):
        width = 2.5 if i % n == 0 else 0.6
        parts.append(f'<line x1="{i * cell}" y1="0" x2="{i * cell}" y2="{side}" '
                     f'stroke="black" stroke-width="{width}"/>')
        parts.append(f'<line x1="0" y1="{i * cell}" x2="{side}" y2="{i * cell}" '
                     f'stroke="black" stroke-width="{width}"/>')
    shown = givens if solution is None else solution
    for r in range(size):
        for c in range(size):
            v = int(shown[r, c])
            if not v:
                continue
            given = bool(givens[r, c])
            style = 'font-weight="bold"' if given else 'fill="#2a5caa"'
            parts.append(f'<text x="{(c + 0.5) * cell}" y="{(r + 0.72) * cell}" {style}>'
                         f'{DIGITS[v - 1]}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
