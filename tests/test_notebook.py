"""In a notebook every family's answer shows itself as a picture (``_repr_svg_``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from smtpuzzle import (
    load,
    load_frames,
    load_puzzle,
    parse_puzzle,
    solve_frames,
    solve_nonogram,
)
from smtpuzzle.formats.sudoku import parse_line
from smtpuzzle.puzzles.sudoku.solve import solve_sudoku
from smtpuzzle.puzzles.tiling.solve import list_tilings, solve_tiling
from tests.helpers import HARDEST


def _svg(answer: object) -> ET.Element:
    text = answer._repr_svg_()  # type: ignore[attr-defined]
    assert text is not None
    root = ET.fromstring(text)
    assert root.tag.endswith("svg")
    return root


def _texts(root: ET.Element) -> list[str | None]:
    return [t.text for t in root.iter() if t.tag.endswith("text")]


def test_every_family_draws_its_answer():
    tiling = load("pentomino-6x10")
    assert "".join(_texts(_svg(solve_tiling(tiling)))) == "FILNPTUVWXYZ"
    sheet = _texts(_svg(list_tilings(tiling, limit=3, keep=True)))
    assert [t for t in sheet if t and t.startswith("solution")] == [
        "solution 1", "solution 2", "solution 3"] and len(sheet) == 3 + 3 * 12
    nonogram = load_puzzle("webpbn-00001")
    title, *numbers = _texts(_svg(solve_nonogram(nonogram)))
    assert title == "Dancer" and sorted(numbers) == sorted(
        str(n) for clue in [*nonogram.rows, *nonogram.cols] for n in clue)
    frames = _texts(_svg(solve_frames(load_frames("pentomino-5x6x2"))))
    assert [t for t in frames if t and t.startswith("frame")] == ["frame 1", "frame 2"]
    assert sorted(t for t in frames if t and len(t) == 1) == sorted("FILNPTUVWXYZ")
    sudoku = _svg(solve_sudoku(parse_line(HARDEST, "hardest")))
    assert len(_texts(sudoku)) == 81  # the givens and the solution's digits


def test_without_a_solution_a_sudoku_draws_its_givens_and_a_tiling_nothing():
    # The first row lacks only a 9, and the 9 below its gap rules a 9 out there.
    impossible = parse_line("12345678." + "........9" + "." * 63, "no nine")
    answer = solve_sudoku(impossible)
    assert answer.status == "none" and answer.solutions == []
    assert sorted(_texts(_svg(answer))) == list("123456789")
    # No 3x3 square is tiled by L-trominoes: it has four corners, a tromino covers one.
    tiling = parse_puzzle({"board": {"size": [3, 3]},
                           "pieces": [{"name": "L", "picture": "#.\n##", "count": 3}]})
    answer = solve_tiling(tiling)
    assert answer.status == "unsat" and answer._repr_svg_() is None
