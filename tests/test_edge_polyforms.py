"""Edge polyforms (polysticks, polytwigs, polytrigs): the edge grids, their pictures, the
no-crossing rule against an independent check, the catalogue's counts, files and pictures."""

from __future__ import annotations

import collections
import itertools
import json

import numpy as np
import pytest

from smtpuzzle import Board, Piece, Tiling, polyforms
from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.formats.puzzle_toml import parse_puzzle
from smtpuzzle.geometry.edges import crossing_at
from smtpuzzle.geometry.grids import EDGE_GRIDS, grid
from smtpuzzle.geometry.piecesets import piece_set
from smtpuzzle.geometry.shapes import Shape, parse_picture
from smtpuzzle.library import load
from smtpuzzle.puzzles.tiling.counting import count
from smtpuzzle.puzzles.tiling.solve import list_tilings, solve_tiling
from tests.helpers import cli

# Free and one-sided counts, n = 1.. (Goodger's tables in Polyform Puzzler's notes;
# polysticks also OEIS A019988 and A151537).
POLYFORMS = {
    "square-edges": ([1, 2, 5, 16, 55, 222], [1, 2, 7, 25, 99, 416]),
    "hexagon-edges": ([1, 1, 3, 4, 12, 27, 78], [1, 1, 4, 6, 19, 49, 143]),
    "triangle-edges": ([1, 3, 12, 60, 375], [1, 3, 19, 104, 719]),
}


@pytest.mark.parametrize("name", EDGE_GRIDS)
def test_edge_polyforms_count_as_published(name: str):
    free, one_sided = POLYFORMS[name]
    upto = 4 if name == "triangle-edges" else len(free)  # 375 pentatrigs: --runslow
    assert [len(polyforms(name, n)) for n in range(1, upto + 1)] == free[:upto]
    assert [len(polyforms(name, n, one_sided=True))
            for n in range(1, upto + 1)] == one_sided[:upto]


@pytest.mark.slow
def test_heptasticks_and_pentatrigs_count_as_published():
    assert len(polyforms("square-edges", 7)) == 950  # A019988
    assert len(polyforms("square-edges", 7, one_sided=True)) == 1854  # A151537
    assert len(polyforms("triangle-edges", 5)) == 375
    assert len(polyforms("triangle-edges", 5, one_sided=True)) == 719


@pytest.mark.parametrize("name", EDGE_GRIDS)
def test_an_edge_grid_maps_edges_to_edges(name: str):
    """Cells of a box counted two ways; every symmetry maps edges onto edges and keeps
    sharing a vertex; translations move vertices onto vertices."""
    g = grid(name)
    for dims in ((5, 7), (8, 9), (4, 12)):
        assert g.cells_in_box(dims) == len(g.box_points(dims))
    cells = g.box_points((8, 12))
    near = g.neighbours(cells)
    assert g.is_cell(near).all()
    degree = {"square-edges": 6, "triangle-edges": 10, "hexagon-edges": 4}[name]
    assert near.shape[1] == degree
    inside = {tuple(c) for c in cells.tolist()}
    pairs = {(tuple(a), tuple(b)) for a, row in zip(cells.tolist(), near.tolist(), strict=True)
             for b in row if tuple(b) in inside}
    assert all((b, a) in pairs for a, b in pairs)  # sharing a vertex is symmetric
    for k in range(len(g.group)):
        image = g.transform(cells, k)
        assert g.is_cell(image).all()
        moved = g.transform(near.reshape(-1, 2), k).reshape(near.shape)
        assert (np.sort(moved, axis=1) == np.sort(g.neighbours(image), axis=1)).all()


@pytest.mark.parametrize("name", EDGE_GRIDS)
def test_pictures_of_edge_pieces_read_back(name: str):
    for n in (1, 2, 3, 4):
        for shape in polyforms(name, n):
            assert parse_picture(shape.picture(), name) == shape
    with pytest.raises(PuzzleError, match="where the edge drawn is"):
        parse_picture("+-+\n-", "square-edges")


def test_named_sets_are_the_free_edge_polyforms_with_the_catalogue_letters():
    def sizes(name: str) -> collections.Counter:
        return collections.Counter(s.size for s in piece_set(name).values())

    for name, grid_name, by_size in (("polysticks-1-4", "square-edges", {1: 1, 2: 2, 3: 5, 4: 16}),
                                     ("polytwigs-1-4", "hexagon-edges", {1: 1, 2: 1, 3: 3, 4: 4}),
                                     ("pentatwigs", "hexagon-edges", {5: 12}),
                                     ("tritrigs", "triangle-edges", {3: 12}),
                                     ("pentasticks", "square-edges", {5: 55})):
        assert sizes(name) == by_size
        for size in by_size:
            mine = {s.canonical().key for s in piece_set(name).values() if s.size == size}
            assert mine == {s.key for s in polyforms(grid_name, size)}
    assert list(piece_set("tetrasticks")) == "F H I J L N O P R T U V W X Y Z".split()
    assert len(piece_set("tetrasticks", one_sided=True)) == 25  # Puzzler's one-sided set
    assert piece_set("tetrasticks")["X"].picture() == "  +\n  |\n+-+-+\n  |\n  +"


def _packing(board: Board, shapes: list[Shape], cross: bool) -> Tiling:
    return Tiling(board, [Piece(f"p{i}", s) for i, s in enumerate(shapes)], cover="pack",
                  cross=cross, precheck=False)


@pytest.mark.parametrize("name,cells", [
    ("square-edges", [(0, 0), (0, 1), (1, 0), (1, 1)]),
    ("triangle-edges", [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (1, 3)]),
    ("hexagon-edges", [(0, 0)]),
])
def test_no_crossing_rule_agrees_with_the_independent_check(name, cells):
    """Small boards, two straight pieces and two of random shapes packed: the packings with
    the rule are exactly the packings without it that the verifier's crossing check (angles
    round each vertex) lets through, on the exact-cover engine and on cpsat."""
    cell_grid = {"square-edges": "square", "triangle-edges": "triangle",
                 "hexagon-edges": "hexagon"}[name]
    board = Board.edges_of(Board.from_cells(cells, cell_grid), name)
    rng = np.random.default_rng(7)
    straight = max(polyforms(name, 2), key=lambda s: max(s.extent))
    refused = 0
    for _ in range(2):
        shapes = [straight, straight] + [polyforms(name, n)[int(rng.integers(len(
            polyforms(name, n))))] for n in (1, 2)]
        free = list_tilings(_packing(board, shapes, True), "exact-cover")
        want = sum(crossing_at(board.grid, [list(p.cells) for p in s.placements]) is None
                   for s in free.solutions)
        for backend in ("exact-cover", "cpsat"):
            ruled = list_tilings(_packing(board, shapes, False), backend)
            assert ruled.complete and len(ruled.solutions) == want, (backend, shapes)
        refused += len(free.solutions) - want
    assert (refused == 0) == (name == "hexagon-edges")  # three edges a vertex: no crossing


def test_pieces_kept_from_meeting_at_all():
    """touch = "none" on an edge grid: no two pieces share a vertex, checked against the
    packings with no rule filtered by their vertices."""
    board = Board.edges_of(Board([2, 3]), "square-edges")
    shapes = [parse_picture("+-+-+", "square-edges"), parse_picture("+\n|\n+-+", "square-edges")]
    pieces = [Piece(f"p{i}", s) for i, s in enumerate(shapes)]
    apart = list_tilings(Tiling(board, pieces, cover="pack", touch="none", precheck=False))
    free = list_tilings(Tiling(board, pieces, cover="pack", cross=True, precheck=False))

    def vertices(cells: list) -> set:
        from smtpuzzle.geometry.edges import edge_ends

        ends = edge_ends(board.grid, np.array(cells)).reshape(-1, 2)
        return {tuple(v) for v in np.rint(ends).astype(int).tolist()}

    want = [s for s in free.solutions
            if not vertices(list(s.placements[0].cells)) & vertices(list(s.placements[1].cells))]
    assert apart.complete and 0 < len(apart.solutions) == len(want) < len(free.solutions)


def test_the_verifier_refuses_crossing_pieces():
    board = Board.edges_of(Board([2, 2]), "square-edges")
    plus = parse_picture("  +\n  |\n+-+-+\n  |\n  +", "square-edges")
    t = Tiling(board, [Piece("X", plus), Piece("I", parse_picture("+-+", "square-edges"),
                                                  count=8)], precheck=False)
    good = solve_tiling(t, "exact-cover")
    assert good.status == "sat"
    t.verify(good.solutions[0])
    # Two straight pieces through the centre, one each way: they cross.
    bar = parse_picture("+-+-+", "square-edges")
    t2 = Tiling(board, [Piece("A", bar, count=2), Piece("I", parse_picture("+-+", "square-edges"),
                                                        count=8)], cover="pack",
                precheck=False, cross=True)
    crossing = next(s for s in list_tilings(t2, "exact-cover").solutions
                    if crossing_at(board.grid, [list(p.cells) for p in s.placements]))
    with pytest.raises(VerificationError, match="cross at"):
        Tiling(board, t2.pieces, cover="pack", precheck=False).verify(crossing)


# (model, Polyform Puzzler's count up to the board's symmetries, seconds here about)
CATALOGUE = [
    ("polysticks-123-4x4-clipped-1", 21), ("polysticks-123-4x4-clipped-2", 132),
    ("polysticks-123-4x4-centre", 0), ("polysticks-123-4x4-sides", 0),
    ("tetrasticks-6x6-no-h", 72), ("tetrasticks-6x6-no-j", 382),
    ("tetrasticks-6x6-no-l", 607), ("tetrasticks-6x6-no-n", 530),
    ("tetrasticks-6x6-no-y", 204), ("tetrasticks-7x7-unbordered", 0),
    ("tetrasticks-3x5-diamond-lattice", 0), ("welded-tetrasticks-5x5", 3),
    ("welded-tetrasticks-triangle", 9), ("welded-tetrasticks-trapezoid", 7),
    ("welded-tetrasticks-5x2-diamond-lattice", 0), ("welded-tetrasticks-6x6-unbordered", 0),
    ("polytwigs-1234-hexagon-1", 1175), ("polytwigs-1234-hexagon-2", 1506),
    ("pentatwigs-triangle", 56), ("pentatwigs-staggered-rectangle", 145),
    ("pentatwigs-butterfly", 8), ("tetratwigs-arch", 2), ("tetratwigs-arch-3", 1),
    ("tetratwigs-arch-4", 1), ("polytwigs-123-triangle", 3), ("tetratwigs-3x1", 0),
    ("tetratwigs-triangle-1", 2), ("tetratwigs-triangle-2", 1), ("tetratwigs-triangle-3", 2),
    ("tetratwigs-triangle-4", 1),
    ("tritrigs-hexagon-ring", 1), ("tritrigs-trapezoid-ring", 1),
    ("tritrigs-stacked-hexagons", 9), ("tritrigs-jagged-trapezoid", 1),
    ("tritrigs-parallelogram", 9), ("tritrigs-trapezoid", 8), ("tritrigs-heart-1", 50),
    ("tritrigs-heart-2", 52), ("tritrigs-hexagon-2-ring", 0),
]
SLOW_CATALOGUE = [  # 7-35 s each
    ("tetrasticks-6x6", 1795), ("tetrasticks-aztec-diamond", 3),
    ("tetrasticks-parallelogram-5x5", 0),
]


@pytest.mark.parametrize("name,published", CATALOGUE)
def test_catalogue_puzzles_count_as_published(name: str, published: int):
    result = count(load(name, precheck=False))
    assert result.complete and result.count == published


@pytest.mark.slow
@pytest.mark.parametrize("name,published", SLOW_CATALOGUE)
def test_larger_catalogue_puzzles_count_as_published(name: str, published: int):
    result = count(load(name, precheck=False))
    assert result.complete and result.count == published


@pytest.mark.slow
@pytest.mark.parametrize("hexagon,published", [(1, 1175), (3, 2019), (4, 2007), (5, 958),
                                               (6, 962)])
def test_puzzlers_polytwig_hexagons_count_p4_in_three_rotations(hexagon: int, published: int):
    """Puzzler's Polytwigs1234Hex3..6 inherit Hex1's restriction (P4 in three rotations,
    unflipped), which breaks Hex1's four symmetries but not theirs: its counts are the
    solutions with P4 so placed, not counts up to symmetry. Every solution listed, those
    with P4 in three consecutive rotations (the same three for all five) are its count."""
    t = load(f"polytwigs-1234-hexagon-{hexagon}", precheck=False)
    g = t.board.grid
    p4 = next(p for p in t.pieces if p.name == "P4").shape
    orientation = {Shape(g.transform(p4.cells, k), g).key: k for k in range(12)}
    seen = collections.Counter(
        orientation[Shape(list(next(p for p in s.placements if p.piece == "P4").cells),
                          g).key] for s in list_tilings(t).solutions)
    assert sum(seen[k] for k in (4, 5, 0)) == published


def test_back_ends_agree_on_an_edge_puzzle():
    t = load("polysticks-123-4x4-clipped-1", precheck=False)
    want = count(t, distinct=False).count
    for backend in ("cpsat", "sat", "z3"):
        assert count(t, backend, distinct=False).count == want, backend


def test_edge_boards_from_files(tmp_path):
    """size, shape and cells name cells of the cell grid; the board is their edges; holes
    are edges; cross applies to edge grids only."""
    rect = parse_puzzle({"board": {"grid": "square-edges", "size": [5, 5]},
                         "pieces": [{"set": "tetrasticks"}]}, precheck=False)
    assert rect.board.num_cells == 60
    hexagon = parse_puzzle({"board": {"grid": "hexagon-edges", "shape": "hexagon", "size": 2},
                            "pieces": [{"set": "polytwigs-1-4"}]}, precheck=False)
    assert hexagon.board.num_cells == 30
    tri = parse_puzzle({"board": {"grid": "triangle-edges", "shape": "parallelogram",
                                  "size": [5, 2]}, "pieces": [{"set": "tritrigs"}]},
                       precheck=False)
    assert tri.board.num_cells == 37
    with pytest.raises(PuzzleError, match="for edge grids only"):
        parse_puzzle({"board": {"size": [2, 2]}, "pieces": [{"set": "dominoes"}],
                      "cross": True})
    crossing = parse_puzzle({"board": {"grid": "square-edges", "size": [2, 2]},
                             "pieces": [{"name": "A", "picture": "+-+-+", "count": 2},
                                        {"name": "B", "picture": "+-+", "count": 8}],
                             "cross": True})
    assert crossing.cross and crossing.board.num_cells == 12
    bad = tmp_path / "bad.toml"
    bad.write_text('[board]\ngrid = "square-edges"\npicture = """\n+-+\n-\n"""\n\n'
                   '[[pieces]]\nset = "tetrasticks"\n')
    done = cli("solve", str(bad))
    assert done.returncode == 2 and "square-edges picture" in done.stderr
    assert "Traceback" not in done.stderr


def test_command_line_solves_counts_and_draws_edge_puzzles(tmp_path):
    done = cli("solve", "tritrigs-heart-1", "--json", "--svg", str(tmp_path / "h.svg"))
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "sat"
    svg = (tmp_path / "h.svg").read_text()
    assert svg.count('class="piece"') >= 24  # each of 12 pieces outlined, then coloured
    done = cli("count", "welded-tetrasticks-5x5", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["count"] == 3
    text = cli("solve", "tetrasticks-6x6-no-h").stdout
    assert "+" in text and "verified" in text
    # a hexagon-edge board's picture starts at its first row of edges, not a blank row
    lines = cli("solve", "polytwigs-123-triangle").stdout.splitlines()
    assert lines[1].strip() and not lines[1].startswith(" " * 4)
    listing = cli("list").stdout
    assert all(n in listing for n in ("tetrasticks-6x6", "pentatwigs-triangle",
                                      "tritrigs-heart-1"))


def test_crossing_pairs_are_the_interleaving_chords():
    from smtpuzzle.geometry.edges import crossing_pairs

    assert crossing_pairs(4) == ((0, 2, 1, 3),)
    assert len(crossing_pairs(6)) == 15  # one per four of the six directions
    assert crossing_pairs(3) == ()
    for a1, a2, b1, b2 in crossing_pairs(6):
        assert len({a1, a2, b1, b2}) == 4
        assert sorted(itertools.chain((a1, a2), (b1, b2))) != [a1, a2, b1, b2]
