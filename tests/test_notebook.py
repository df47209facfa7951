"""In a notebook every family's answer shows itself as a picture (``_repr_svg_``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from smtpuzzle import load, load_frames, load_puzzle, solve_frames, solve_nonogram
from smtpuzzle.formats.sudoku import parse_line
from smtpuzzle.puzzles.sudoku.solve import solve_sudoku
from smtpuzzle.puzzles.tiling.solve import list_tilings, solve_tiling

HARDEST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _svg(answer: object) -> ET.Element:
    text = answer._repr_svg_()  # type: ignore[attr-defined]
    assert text is not None
    root = ET.fromstring(text)
    assert root.tag.endswith("svg")
    return root


def test_every_family_draws_its_answer():
    tiling = load("pentomino-6x10")
    _svg(solve_tiling(tiling))
    _svg(list_tilings(tiling, limit=3, keep=True))
    _svg(solve_nonogram(load_puzzle("webpbn-00001")))
    _svg(solve_frames(load_frames("pentomino-5x6x2")))
    sudoku = _svg(solve_sudoku(parse_line(HARDEST, "hardest")))
    digits = [t.text for t in sudoku.iter() if t.tag.endswith("text")]
    assert len(digits) == 81  # the givens and the solution's digits


def test_no_solution_no_picture():
    impossible = parse_line("11" + "." * 79, "two ones")
    answer = solve_sudoku(impossible)
    assert answer.status == "none" and answer.solutions == []
