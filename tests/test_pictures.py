"""Pictures of every family, checked as files: one closed outline per piece enclosing its
cells, letters once per piece, the PNG the same size and content as the SVG, clues, walks,
contact sheets and HTML pages."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from smtpuzzle.render.layout import Drawing, layout
from smtpuzzle.render.outline import CellEdges, SquareCells, loop_area
from smtpuzzle.render.panel import Panel
from smtpuzzle.render.svg import svg_text
from tests.helpers import ROOT, cli

SVG = "{http://www.w3.org/2000/svg}"


# -- reading the files back ---------------------------------------------------------------

def svg_root(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def of_class(root: ET.Element, cls: str, tag: str = "path") -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if e.get("class") == cls]


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    return [e.text or "" for e in root.iter(SVG + "text") if cls is None or e.get("class") == cls]


def loops(d: str) -> list[list[tuple[float, float]]]:
    """The subpaths of a path's d (M, L, H, V, Z, absolute), each a list of points."""
    out: list[list[tuple[float, float]]] = []
    x = y = 0.0
    for cmd, args in re.findall(r"([MLHVZ])([^MLHVZ]*)", d):
        nums = [float(v) for v in args.split()]
        if cmd == "M":
            x, y = nums
            out.append([(x, y)])
        elif cmd == "L":
            x, y = nums
            out[-1].append((x, y))
        elif cmd == "H":
            x = nums[0]
            out[-1].append((x, y))
        elif cmd == "V":
            y = nums[0]
            out[-1].append((x, y))
    return out


def closed(d: str) -> bool:
    return d.count("M") == d.count("Z") > 0


def area(d: str) -> float:
    """The area a closed path encloses (holes subtracted: they run the other way round)."""
    return sum(loop_area(tuple(lp)) for lp in loops(d))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def png_pixels(path: Path) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(path).convert("RGB")).astype(int)


def svg_size(root: ET.Element) -> tuple[int, int]:
    return int(root.get("width")), int(root.get("height"))


def hex_rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])


# -- geometry: any grid whose cells are polygons ------------------------------------------

def test_outlines_of_square_cells_merge_straight_runs_and_keep_holes():
    grid = SquareCells()
    ring = [grid.polygon((r, c)) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    edges = CellEdges(ring)
    rings = edges.loops(range(len(ring)))
    assert sorted(len(lp) for lp in rings) == [4, 4]  # the outer square and the hole
    assert sum(loop_area(lp) for lp in rings) == pytest.approx(8)
    assert len(edges.parts(range(len(ring)))) == 1
    l_shape = [grid.polygon(c) for c in [(0, 0), (1, 0), (2, 0), (2, 1)]]
    (outline,) = CellEdges(l_shape).loops(range(4))
    assert len(outline) == 6 and loop_area(outline) == pytest.approx(4)


def test_triangles_and_hexagons_outline_the_same_way():
    """Grids to come give cell polygons; the outlines need nothing else."""
    halves = [((0, 0), (1, 0), (1, 1)), ((0, 0), (1, 1), (0, 1))]  # a square cut in two
    (square,) = CellEdges(halves).loops([0, 1])
    assert len(square) == 4 and abs(loop_area(square)) == pytest.approx(1)
    s3 = 3 ** 0.5 / 2

    def hexagon(cx: float) -> tuple[tuple[float, float], ...]:
        return tuple((cx + np.cos(a), np.sin(a)) for a in np.arange(6) * np.pi / 3)

    pair = [hexagon(0.0), hexagon(1.5), hexagon(3.0)]
    pair[1] = tuple((x, y + s3) for x, y in pair[1])  # three hexagons in a zigzag
    edges = CellEdges(pair)
    (outline,) = edges.loops(range(3))
    assert len(outline) == 14  # 18 sides, 2 shared
    assert abs(loop_area(outline)) == pytest.approx(3 * 3 * 3 ** 0.5 / 2)
    panel = Panel(pair, [0, 0, 1], {0: "#ff0000", 1: "#00ff00"}, {0: "A", 1: "B"})
    root = ET.fromstring(svg_text(layout(Drawing([[panel]]), 40)))
    assert len(of_class(root, "outline")) == 2 and texts(root, "label") == ["A", "B"]


# -- tilings ----------------------------------------------------------------------------

def test_tiling_picture_outlines_each_piece_once_and_matches_the_png(tmp_path: Path):
    p = cli("solve", "pentomino-8x8-square", "--svg", "p.svg", "--png", "p.png", "--html",
            "p.html", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    svg_file = tmp_path / "p.svg"
    assert svg_file.stat().st_size < 30_000
    root = svg_root(svg_file)
    outlines, fills = of_class(root, "outline"), of_class(root, "piece")
    assert len(outlines) == len(fills) == 13
    assert all(closed(e.get("d")) for e in outlines)
    (board,) = of_class(root, "board")
    xs = [x for lp in loops(board.get("d")) for x, _ in lp]
    ys = [y for lp in loops(board.get("d")) for _, y in lp]
    cell = (max(xs) - min(xs)) / 8
    assert cell == pytest.approx(32)
    areas = sorted(round(area(e.get("d")) / cell ** 2, 6) for e in outlines)
    assert areas == [4] + [5] * 12  # each outline encloses its piece: 12 pentominoes, O4
    assert sorted(texts(root, "label")) == sorted([*"FILNPTUVWXYZ", "O4"])  # once each
    width, height = png_size(tmp_path / "p.png")
    assert (width, height) == svg_size(root) and width >= 256 and height >= 256
    # The PNG shows the SVG: each piece's colour inside it, dark lines where pieces meet.
    image = png_pixels(tmp_path / "p.png")
    x0, y0 = min(xs), min(ys)
    dark = 0
    for fill, outline in zip(fills, outlines, strict=True):
        (lp,) = loops(outline.get("d"))
        cells = [(rr, cc) for rr in range(8) for cc in range(8)
                 if _inside(lp, x0 + (cc + 0.5) * cell, y0 + (rr + 0.5) * cell)]
        assert len(cells) in (4, 5)
        for rr, cc in cells:
            px = image[int(y0 + (rr + 0.2) * cell), int(x0 + (cc + 0.2) * cell)]
            assert np.abs(px - hex_rgb(fill.get("fill"))).max() <= 12
        # the left side of its first cell is the board's edge or another piece: dark
        rr, cc = min(cells)
        dark += image[int(y0 + (rr + 0.5) * cell), int(x0 + cc * cell)].max() < 90
    assert dark == 13
    page = (tmp_path / "p.html").read_text()
    assert page.count("<svg") == 1 and "cpsat" in page and ">sat<" in page
    assert not re.search(r"<script|src=|<link", page)


def _inside(loop: list[tuple[float, float]], x: float, y: float) -> bool:
    hit = False
    for (x1, y1), (x2, y2) in zip(loop, loop[1:] + loop[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_cell_size_and_3d_layers(tmp_path: Path):
    p = cli("solve", "soma-3x3x3", "--svg", "s.svg", "--png", "s.png", "--cell-size", "20",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    root = svg_root(tmp_path / "s.svg")
    assert texts(root, "caption") == ["z=0", "z=1", "z=2"]
    assert png_size(tmp_path / "s.png") == svg_size(root)
    boards = of_class(root, "board")
    assert len(boards) == 3
    assert sum(area(e.get("d")) for e in of_class(root, "outline")) == \
        pytest.approx(27 * 20 ** 2)  # every cell of the cube in one piece's outline
    # each piece named in every layer it shows in, once per connected part there
    assert set(texts(root, "label")) == set("VLTZABP")


def test_contact_sheet_numbers_solutions_in_rows(tmp_path: Path):
    p = cli("solve", "pentomino-4x15", "--limit", "6", "--svg", "six.svg", "--png", "six.png",
            "--html", "six.html", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    root = svg_root(tmp_path / "six.svg")
    captions = [e for e in root.iter(SVG + "text") if e.get("class") == "caption"]
    assert [e.text for e in captions] == [f"solution {k}" for k in range(1, 7)]
    assert len({e.get("x") for e in captions}) == 2  # two to a row, three rows
    assert len({e.get("y") for e in captions}) == 3
    assert len(of_class(root, "outline")) == 6 * 12
    assert sorted(texts(root, "label")) == sorted("FILNPTUVWXYZ" * 6)
    assert png_size(tmp_path / "six.png") == svg_size(root)
    page = (tmp_path / "six.html").read_text()
    assert page.count("<svg") == 6 and "exact-cover" in page


def test_hand_drawn_pieces_get_a_legend(tmp_path: Path):
    path = tmp_path / "hand.toml"
    path.write_text('[board]\nsize = [2, 4]\n[[pieces]]\nname = "corner"\npicture = """\n'
                    '###\n#..\n"""\ncount = 2\n')
    p = cli("solve", str(path), "--svg", "h.svg", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    root = svg_root(tmp_path / "h.svg")
    assert len(of_class(root, "outline")) == 2  # two copies of one piece: two outlines
    label = texts(root, "label")
    assert len(label) == 2 and label[0] == label[1] == "c"  # a long name: its first letter
    assert "c = corner" in texts(root, "legend")
    assert len(of_class(root, "legend")) == 2  # the piece drawn: its fill and outline


def test_frames_side_by_side(tmp_path: Path):
    path = tmp_path / "halves.toml"
    path.write_text('frames = 2\n[board]\nsize = [5, 6]\n[[pieces]]\nset = "pentominoes"\n')
    p = cli("frames", str(path), "--stage2", "cpsat", "--svg", "f.svg", "--png", "f.png",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    root = svg_root(tmp_path / "f.svg")
    assert texts(root, "caption") == ["frame 1", "frame 2"]
    assert len(of_class(root, "outline")) == 12 and len(of_class(root, "board")) == 2
    assert png_size(tmp_path / "f.png") == svg_size(root)


# -- nonograms --------------------------------------------------------------------------

def test_nonogram_has_its_clues_and_marks_what_decided_each_cell(tmp_path: Path):
    p = cli("solve", "webpbn-00001", "--svg", "n.svg", "--png", "n.png", "--mark-cells",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    from smtpuzzle import load_puzzle

    puzzle = load_puzzle("webpbn-00001")
    root = svg_root(tmp_path / "n.svg")
    clues = texts(root, "clue")
    assert sorted(clues) == sorted(str(n) for line in puzzle.rows + puzzle.cols
                                   for n in (line or (0,)))
    marks = of_class(root, "mark", "circle")
    assert len(marks) == puzzle.height * puzzle.width  # all settled before any search
    assert "line solving" in texts(root, "legend")
    assert png_size(tmp_path / "n.png") == svg_size(root)


def test_two_nonogram_solutions_side_by_side_with_their_differences(tmp_path: Path):
    path = tmp_path / "two.clues"
    path.write_text("rows:\n1\n1\ncolumns:\n1\n1\n")
    p = cli("solve", str(path), "--svg", "two.svg", "--png", "two.png", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    root = svg_root(tmp_path / "two.svg")
    assert texts(root, "caption") == ["solution 1", "solution 2"]
    assert texts(root, "clue") == ["1"] * 8
    (differs,) = of_class(root, "differs")
    assert area(differs.get("d")) == pytest.approx(4 * 32 ** 2)  # all four cells differ
    assert png_size(tmp_path / "two.png") == svg_size(root)


# -- mazes ------------------------------------------------------------------------------

KNOWN = ("NNWSWNNSENESESWSSWNSEENWWNWSSEWWNENWEENWSWNWSSENENWNWNESENESESWNWSESEWWNENWNEES")


def test_maze_show_draws_the_walk(tmp_path: Path):
    p = cli("maze", "show", KNOWN, "--maze", "4095", "--start", "4", "--svg", "m.svg",
            "--png", "m.png", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    walk = json.loads(p.stdout)
    assert walk["solved"] and walk["visited"] == walk["to_visit"] == 9
    assert walk["cells"][0] == 4 and len(walk["cells"]) == len(KNOWN) + 1
    root = svg_root(tmp_path / "m.svg")
    moves = sum(a != b for a, b in zip(walk["cells"], walk["cells"][1:], strict=False))
    assert len(of_class(root, "walk")) == len(of_class(root, "arrow")) == moves
    assert len(of_class(root, "bump", "circle")) == len(KNOWN) - moves
    assert not of_class(root, "wall")  # maze 4095 has every edge open
    assert png_size(tmp_path / "m.png") == svg_size(root)
    p = cli("maze", "show", KNOWN[:25], "--svg", "f.svg", cwd=tmp_path)  # its first failure
    assert p.returncode == 0 and "FAILS" in p.stdout
    root = svg_root(tmp_path / "f.svg")
    assert of_class(root, "wall") and "to visit, missed" in texts(root, "legend")
    p = cli("maze", "show", "NESW", "--size", "4", "--maze", "0", cwd=tmp_path)
    assert p.returncode == 2 and "goal cannot be reached" in p.stderr


# -- the command line stays quick to start ----------------------------------------------

def test_pictures_load_only_when_drawing(tmp_path: Path):
    code = ("import sys, smtpuzzle, smtpuzzle.cli; "
            "print(sorted(m for m in ('matplotlib', 'PIL') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"
    p = cli("solve", "pentomino-6x10", "--svg", "x.txt", cwd=tmp_path)
    assert p.returncode == 2 and "--svg writes SVG: name the file" in p.stderr
    assert not (tmp_path / "x.txt").exists()


def test_an_answer_with_nothing_to_draw_says_which_pictures_it_did_not_write(tmp_path: Path):
    # the tetrahexes never fill this triangle, though the area and the colourings allow it
    pictures = [str(tmp_path / f"m.{ext}") for ext in ("svg", "png", "html")]
    out = cli("solve", "tetrahex-triangle-7", "--svg", pictures[0], "--png", pictures[1],
              "--html", pictures[2])
    assert out.returncode == 0 and "unsat" in out.stdout
    assert f"no solution to draw: {pictures[0]} and {pictures[1]} not written" in out.stderr
    assert [Path(p).exists() for p in pictures] == [False, False, True]


def test_a_piece_named_like_an_empty_cell_gets_a_letter_in_text_pictures():
    from smtpuzzle.puzzles.tiling.text import legend, piece_chars

    chars = piece_chars([".", ".b", "X"])
    assert chars["X"] == "X" and "." not in (chars["."], chars[".b"])
    assert len({*chars.values()}) == 3 and legend([".", "X"]) == f"{chars['.']}=."


def test_a_label_fits_its_cell_a_triangle_taking_a_smaller_one():
    def label_size(polygon) -> float:
        items = Panel([polygon], [0], labels={0: "D2"}).items()
        return next(i.size for i in items if getattr(i, "kind", "") == "label")

    square = label_size([(0, 0), (1, 0), (1, 1), (0, 1)])
    h = 3**0.5 / 2
    triangle = label_size([(0, h), (0.5, 0), (1, h)])
    assert square == pytest.approx(0.5) and triangle < 0.6 * square


def test_a_png_too_large_to_draw_is_refused_before_its_canvas_is_made():
    from smtpuzzle.errors import PuzzleError
    from smtpuzzle.render.png import png_bytes
    from smtpuzzle.render.scene import Scene

    with pytest.raises(PuzzleError, match="a PNG of 60,000 x 40,000 pixels: at most 200 million"):
        png_bytes(Scene(60_000, 40_000))
