"""Maze strings: one move string that solves every small maze (cases, search, bounds)."""
