"""The symmetry rules a maze string may be held to without losing an answer: the first
move fixed (break_symmetry) and the mirror or flip rule (an automaton over N E S W) on the
moves after it. The searches and the bound prover share them."""

from __future__ import annotations

import numpy as np

from smtpuzzle.puzzles.maze.cases import Size, dims

# The mirror rule: "the first E or W move is E" as an automaton over N E S W. State 0: no E
# or W yet; state 1: one seen. A W before any E is lost.
MIRROR_RULE = np.array([[0, 1, 0, -1], [1, 1, 1, 1]])
# A rectangle's: "the first N or S is N, and the first E or W is E". States: 0 neither seen,
# 1 an N or S seen, 2 an E or W seen, 3 both. After a first N it is the mirror rule.
FLIP_RULE = np.array([[1, 2, -1, -1], [1, 3, 1, -1], [3, 2, -1, 2], [3, 3, 3, 3]])


def mirrors(size: Size) -> bool:
    """Whether the mirror rule (mirror_rule) may be added to a pattern of free moves, the
    first fixed by break_symmetry: on every grid of thin walls. A square's case set the
    left-right mirror (E <-> W, N and S kept) maps onto itself: a string that solves every
    case, turned to begin with N and mirrored if its first E or W is a W, still solves
    every case and obeys the rule, so the rule halves the strings without losing any answer
    (measured; bench/history/). A rectangle's first move is free, but both its flips
    (N <-> S, and E <-> W) map its case set onto itself: flipped where its first N or S is
    an S, and where its first E or W is a W, any universal string obeys the flip rule,
    which keeps a quarter of the strings. Not the blocked-cell 4x4, whose goal is a
    corner."""
    return size != 4


def mirror_rule(size: Size) -> np.ndarray:
    """The automaton of the rule ``mirrors(size)`` allows: the mirror rule on a square, the
    flip rule on a rectangle that is not one."""
    rows, cols = dims(size)
    return MIRROR_RULE if rows == cols else FLIP_RULE


ANY = np.zeros((1, 4), dtype=np.int64)  # the rule that every string obeys


def strings_rule(size: Size, mirror: bool) -> np.ndarray:
    """The rule the strings of a search obey: mirror_rule(size) with ``mirror``, else ANY."""
    return mirror_rule(size) if mirror else ANY


def break_symmetry(pattern: str, size: Size) -> str:
    """From scratch (all ``*``) the first move can be fixed without loss. 3x3 (and any
    square of thin walls): the case set is closed under the square's rotations, which map
    any first move to N. 4x4: a first move N or W does nothing from the top-left start (drop
    it, append any move), and the transpose (N<->W, E<->S) maps the case set onto itself, so
    the first move is E. A rectangle that is not square keeps all four: its flips map N to
    S and E to W, but nothing maps N to E."""
    if set(pattern) != {"*"}:
        return pattern
    if size == 4:
        return "E" + pattern[1:]
    rows, cols = dims(size)
    return "N" + pattern[1:] if rows == cols else pattern
