"""Showing solutions: text on a terminal, SVG and PNG pictures."""
