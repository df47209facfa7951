"""The triangle and hexagon grids, one-sided sets, wrap-around boards and counting groups:
polyform counts against OEIS, adjacency and symmetry against first principles, the shipped
models' counts against their published numbers, and bad input refused with its place."""

from pathlib import Path

import numpy as np
import pytest

from smtpuzzle import Board, Piece, Tiling, TilingSolution, load, parse_picture, piece_set
from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.geometry.board_shapes import shaped_cells
from smtpuzzle.geometry.grids import grid
from smtpuzzle.geometry.polyforms import polyforms
from smtpuzzle.puzzles.tiling.counting import count
from tests.helpers import cli

# OEIS A000577 / A006534 (polyiamonds), A000228 / A006535 (polyhexes), A000105 / A000988.
OEIS = {
    ("triangle", False): [1, 1, 1, 3, 4, 12, 24, 66],
    ("triangle", True): [1, 1, 1, 4, 6, 19, 43, 120],
    ("hexagon", False): [1, 1, 3, 7, 22, 82, 333],
    ("hexagon", True): [1, 1, 3, 10, 33, 147, 620],
    ("square", False): [1, 1, 2, 5, 12, 35, 108],
    ("square", True): [1, 1, 2, 7, 18, 60, 196],
}


@pytest.mark.parametrize("grid_name,one_sided", list(OEIS))
def test_polyform_counts_match_oeis(grid_name, one_sided):
    want = OEIS[(grid_name, one_sided)]
    assert [len(polyforms(grid_name, n, one_sided)) for n in range(1, len(want) + 1)] == want


def _triangle_vertices(r: int, c: int) -> set[tuple[int, int]]:
    """The lattice corners of triangle (r, c), from the picture: its centre is at x = c / 2
    and an up triangle's base is on the row's lower line."""
    up = (r + c) % 2 == 0
    # Corner x positions doubled (integers): apex at c, base ends at c -/+ 1.
    apex_y, base_y = (r, r + 1) if up else (r + 1, r)
    return {(c, apex_y), (c - 1, base_y), (c + 1, base_y)}


def test_triangle_neighbours_share_an_edge_and_touching_ones_a_corner():
    g = grid("triangle")
    points = [(r, c) for r in range(-3, 4) for c in range(-5, 6)]
    for cell in [(0, 0), (0, 1), (1, 0), (-1, 2)]:
        mine = _triangle_vertices(*cell)
        edge = {p for p in points if p != cell and len(_triangle_vertices(*p) & mine) == 2}
        corner = {p for p in points if p != cell and _triangle_vertices(*p) & mine}
        assert {tuple(x) for x in g.neighbours(np.array([cell]))[0].tolist()} == edge
        assert {tuple(x) for x in g.touching(np.array([cell]))[0].tolist()} == corner
        assert len(edge) == 3 and len(corner) == 12


@pytest.mark.parametrize("grid_name", ["triangle", "hexagon"])
def test_every_symmetry_keeps_neighbours_neighbours(grid_name):
    g = grid(grid_name)
    cells = g.box_points((7, 9))
    near = {(tuple(a), tuple(b)) for a, row in zip(cells.tolist(),
                                                   g.neighbours(cells).tolist(), strict=True)
            for b in row}
    assert len(g.group) == 12 and g.rotations() == 6
    for k in range(12):
        image = {tuple(a): tuple(b) for a, b in zip(cells.tolist(),
                                                     g.transform(cells, k).tolist(), strict=True)}
        assert all(g.is_cell(np.array(list(image.values()))))
        for a, b in near:
            if a in image and b in image:
                img_b = image[b]
                assert img_b in {tuple(x) for x in g.neighbours(np.array([image[a]]))[0].tolist()}


@pytest.mark.parametrize("name,grid_name,size", [
    ("tetriamonds", "triangle", 4), ("pentiamonds", "triangle", 5),
    ("hexiamonds", "triangle", 6), ("heptiamonds", "triangle", 7),
    ("trihexes", "hexagon", 3), ("tetrahexes", "hexagon", 4), ("pentahexes", "hexagon", 5),
])
def test_named_sets_are_all_the_polyforms_once(name, grid_name, size):
    free, one_sided = piece_set(name), piece_set(name, one_sided=True)
    assert {s.canonical() for s in free.values()} == set(polyforms(grid_name, size))
    assert len({s.canonical() for s in free.values()}) == len(free)
    assert {s.canonical(False) for s in one_sided.values()} == set(
        polyforms(grid_name, size, True))
    assert all(n.lower() in one_sided or n in one_sided for n in free)


def test_one_sided_sets_name_mirrors_in_lower_case_and_do_not_flip(tmp_path: Path):
    assert list(piece_set("pentiamonds", one_sided=True)) == ["I5", "C5", "L5", "l5", "P5",
                                                              "p5"]
    assert len(piece_set("pentominoes", one_sided=True)) == 18
    path = tmp_path / "one-sided.toml"
    path.write_text('cover = "pack"\n[board]\ngrid = "triangle"\nshape = "parallelogram"\n'
                    'size = [3, 5]\n\n[[pieces]]\nset = "pentiamonds"\none_sided = true\n'
                    'only = ["L5", "l5", "P5"]\n')
    t = load(str(path))
    assert all(p.flip is False for p in t.pieces)
    # A one-sided piece turns (6 ways) but never flips.
    assert all(len(p.shape.orientations(False)) == 6 for p in t.pieces)


@pytest.mark.parametrize("grid_name,shape,size,cells,symmetries", [
    ("triangle", "parallelogram", [6, 6], 72, 4),
    ("triangle", "parallelogram", [4, 9], 72, 2),
    ("triangle", "triangle", 5, 25, 6),
    ("triangle", "hexagon", 3, 54, 12),
    ("triangle", "trapezoid", [4, 11], 72, 2),
    ("hexagon", "hexagon", 4, 37, 12),
    ("hexagon", "triangle", 7, 28, 6),
    ("hexagon", "parallelogram", [4, 7], 28, 2),
    ("hexagon", "trapezoid", [3, 5], 12, 2),
])
def test_board_shapes_have_their_area_and_symmetries(grid_name, shape, size, cells,
                                                      symmetries):
    board = Board.from_cells(shaped_cells(grid_name, shape, size), grid_name)
    assert board.num_cells == len(board.cells) == cells
    assert len(board.symmetries()) == symmetries


def test_placements_are_every_fitting_translate():
    # Brute force: every orientation at every offset in a wide range, kept when it lands on
    # board cells (translations that keep the triangles' directions only).
    board = Board.from_cells(shaped_cells("triangle", "hexagon", 2), "triangle")
    pieces = [Piece(n, s) for n, s in piece_set("pentiamonds").items()]
    t = Tiling(board, pieces, cover="pack")
    cells = {tuple(c) for c in board.cells.tolist()}
    for p, got in zip(pieces, t.placement_counts().values(), strict=True):
        want = set()
        for o in p.shape.orientations():
            for dr in range(-6, 8):
                for dc in range(-8, 14):
                    if (dr + dc) % 2:
                        continue
                    moved = frozenset((r + dr, c + dc) for r, c in o.key)
                    if moved <= cells:
                        want.add(moved)
        assert got == len(want), p.name


# (model, published count up to the board's symmetries); all count in about a second.
MODELS = [
    ("hexiamond-6x6-rhombus", 156), ("hexiamond-4x9-parallelogram", 74),
    ("hexiamond-3x12-parallelogram", 0), ("hexiamond-4x11-trapezoid", 76),
    ("hexiamond-6x9-trapezoid", 0), ("hexiamond-4x10-long-hexagon", 856),
    ("hexiamond-5x8-stacked-long-hexagons", 378), ("hexiamond-crescent", 87),
    ("hexiamond-ring", 0), ("hexiamond-ring-offset", 11), ("hexiamond-trefoil", 640),
    ("tetrahex-4x7-parallelogram", 9), ("tetrahex-triangle-7", 0),
    ("tetrahex-3x10-clipped", 2), ("tetrahex-coin", 4), ("polyhex-34-hexagon", 12290),
    ("polyhex-34-hexagram", 167), ("polyhex-34-trilobed-crown", 127),
    ("tetromino-5x4-tube", 7), ("pentomino-3x20-loop", 2),
]


@pytest.mark.parametrize("name,published", MODELS)
def test_shipped_models_count_as_published(name, published):
    result = count(load(name, precheck=False))  # the search, not a colouring, says none
    assert result.complete and result.count == published


def test_distinct_counts_times_the_group_are_raw_counts_when_no_solution_is_symmetric():
    # 12 distinct pieces, none mapped onto another: no solution is its own image.
    for name, group in (("hexiamond-6x6-rhombus", 4), ("tetromino-5x4-tube", 20)):
        t = load(name)
        assert count(t, distinct=False).count == group * count(t).count


def test_dominoes_on_a_torus_count_as_oeis():
    assert count(load("domino-4x4-torus"), distinct=False).count == 272  # A335586(2)


def test_rotations_group_counts_mirror_images_apart():
    t = load("hexiamond-6x6-rhombus")
    rotations = count(t, group="rotations")
    assert rotations.count == 2 * 156 and rotations.up_to == "rotations"
    assert "reflection" not in rotations.group
    out = cli("count", "tetromino-5x4-tube", "--group", "rotations", "--json")
    assert out.returncode == 0 and '"up_to": "rotations"' in out.stdout


def test_wrapped_placements_verify_and_unwrapped_cells_do_not_fool_the_verifier():
    t = load("tetromino-5x4-tube")

    def wraps(solution: TilingSolution) -> bool:
        return any(max(c[1] for c in pl.cells) - min(c[1] for c in pl.cells) >= 4
                   for pl in solution.placements)

    solutions = [t.decode(r.values) for r in _solutions(t)]
    for solution in solutions:
        t.verify(solution)
    solution = next(s for s in solutions if wraps(s))
    flat = Tiling(Board([4, 5]), t.pieces, precheck=False)  # untileable flat (the T's parity)
    # the same cells on a flat board are no longer the piece's shape
    with pytest.raises(VerificationError, match="shape"):
        flat.verify(solution)


def test_a_piece_longer_than_the_board_winds_round_a_wrapping_axis():
    # Counts from an independent brute force (placements enumerated cell by cell). The
    # S shape is 4 long; round 3 columns it winds without landing on itself.
    s = Piece("S", parse_picture("##..\n.###"))
    cylinder = Tiling(Board([4, 3], wrap=["columns"]),
                      [s, Piece("L", parse_picture("###\n#..")), Piece("D", parse_picture("###"))])
    for backend in ("exact-cover", "cpsat", "sat"):
        assert count(cylinder, distinct=False, backend=backend).count == 12
    assert count(cylinder).count == 2
    for solution in (cylinder.decode(r.values) for r in _solutions(cylinder)):
        cylinder.verify(solution)
    packed = Tiling(Board([4, 3], wrap=["columns"]), [s], cover="pack")
    assert count(packed, distinct=False).count == 30 and count(packed).count == 4
    # too long for a flat axis still is refused at once, and 2x3 round the columns is not
    small = [s, Piece("M", parse_picture("#"))]
    with pytest.raises(PuzzleError, match="larger than the 2x3 board"):
        Tiling(Board([2, 3]), small)
    assert count(Tiling(Board([2, 3], wrap=["columns"]), small), distinct=False).count == 6
    torus = Tiling(Board([3, 2], wrap=["rows", "columns"]), small)
    assert count(torus, distinct=False).count == 6


def _solutions(t: Tiling):
    from smtpuzzle.backends import get_backend

    yield from get_backend("exact-cover").solutions(t.build_model(), limit=50)


@pytest.mark.parametrize("backend", ["cpsat", "sat", "z3"])
def test_other_backends_solve_a_hexagon_grid_model_and_agree_on_the_count(backend):
    t = load("tetrahex-4x7-parallelogram")
    assert count(t, backend=backend).count == 9
    out = cli("solve", "tetrahex-4x7-parallelogram", "--backend", backend)
    assert out.returncode == 0 and "verified" in out.stdout


def test_two_pieces_of_one_shape_are_warned_of(tmp_path: Path):
    path = tmp_path / "twice.toml"
    path.write_text('[board]\nsize = [2, 4]\n\n[[pieces]]\nname = "A"\npicture = "####"\n\n'
                    '[[pieces]]\nname = "B"\ncells = [[0, 0], [1, 0], [2, 0], [3, 0]]\n')
    out = cli("solve", str(path))
    assert out.returncode == 0 and "pieces A and B have the same shape" in out.stderr


def test_hexagon_pictures_are_read_on_alternate_columns():
    hexagon = grid("hexagon")
    # The same shape however far the picture is indented.
    assert parse_picture(" # #\n# # #", hexagon) == parse_picture("  # #\n # # #", hexagon)
    shape = parse_picture(" # #\n# # #", hexagon)
    assert shape.size == 5 and shape.is_connected()
    assert shape.key == ((0, 2), (0, 4), (1, 1), (1, 3), (1, 5))  # row + column even
    with pytest.raises(PuzzleError, match="alternate columns"):
        parse_picture("##", hexagon)


BAD = [
    ('[board]\ngrid = "pentagon"\nsize = [3, 3]\n', "unknown grid 'pentagon'", 2),
    ('[board]\ngrid = "hexagon"\ncells = [[0, 0], [0, 1]]\n', "not a cell of the hexagon", 3),
    ('[board]\ngrid = "hexagon"\npicture = """\n# #\n##\n"""\n', "alternate columns", 3),
    ('[board]\ngrid = "triangle"\nshape = "circle"\nsize = 3\n', "unknown board shape", 3),
    ('[board]\ngrid = "triangle"\nshape = "hexagon"\nsize = [2, 3]\n', "hexagon's size", 3),
    ('[board]\nsize = [3, 3]\nwrap = ["diagonals"]\n', "wrap must be", 3),
    ('[board]\ngrid = "triangle"\nsize = [3, 3]\nwrap = ["rows"]\n', "do not wrap", 4),
    ('[board]\nwrap = ["columns"]\ngrid = "hexagon"\nshape = "hexagon"\nsize = 2\n',
     "do not wrap", 2),
    ('[board]\ngrid = "triangle"\nsize = [3, 4]\n\n[[pieces]]\nset = "pentominoes"\n',
     "is for the square grid", 6),
    ('[board]\ngrid = "triangle"\nsize = [2, 4]\n\n[[pieces]]\nname = "A"\n'
     'picture = ".#\\n#."\n', "not connected (in a triangle picture", 7),
    ('[board]\nsize = [2, 4]\n\n[[pieces]]\nname = "A"\npicture = "##"\none_sided = true\n',
     "one_sided = true applies to a set", 7),
]


@pytest.mark.parametrize("text,message,line", BAD)
def test_bad_grid_input_is_one_line_with_file_and_line(tmp_path: Path, text, message, line):
    path = tmp_path / "bad.toml"
    if "[[pieces]]" not in text:
        text += '\n[[pieces]]\nset = "hexiamonds"\n'
    path.write_text(text)
    out = cli("solve", str(path))
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert f"bad.toml:{line}:" in out.stderr and message in out.stderr, out.stderr


@pytest.mark.parametrize("grid_name,set_name", [("hexagon", "trihexes"),
                                                ("triangle", "tetriamonds")])
def test_untouching_pieces_on_other_grids_count_as_brute_force(grid_name, set_name):
    # Two pieces that may not touch, even at a corner, in a hexagon of side 3 (hexagons) or 2
    # (triangles): every pair of placements checked cell by cell.
    import itertools

    side = 3 if grid_name == "hexagon" else 2
    board = Board.from_cells(shaped_cells(grid_name, "hexagon", side), grid_name)
    pieces = [Piece(n, s) for n, s in list(piece_set(set_name).items())[:2]]
    untouching = Tiling(board, pieces, cover="pack", touch="none")
    assert untouching.touch_encoding == "pairs"  # the corner-vertex encoding is square-only
    free = Tiling(board, pieces, cover="pack")
    cells, owner = free.placement_cells(), free.placement_pieces()
    touching = {tuple(p) for p in board.adjacent_pairs(touching=True).tolist()}
    want = 0
    for a, b in itertools.product(np.flatnonzero(owner == 0), np.flatnonzero(owner == 1)):
        ca, cb = set(cells[a].tolist()), set(cells[b].tolist())
        want += not (ca & cb) and not any((min(x, y), max(x, y)) in touching
                                          for x in ca for y in cb)
    assert want > 0 and count(untouching, distinct=False).count == want


def test_a_piece_of_another_grid_is_refused():
    hexagon_piece = piece_set("trihexes")["I3"]
    with pytest.raises(PuzzleError, match="hexagon grid but the board is on the square grid"):
        Tiling(Board([3, 3]), [Piece("I3", hexagon_piece, count=3)])


def test_the_verifier_refuses_pieces_that_touch_at_a_corner():
    from smtpuzzle.errors import VerificationError
    from smtpuzzle.puzzles.tiling.puzzle import Placement, TilingSolution

    domino = parse_picture("##")
    square = Tiling(Board([3, 4]), [Piece("A", domino), Piece("B", domino)], cover="pack",
                    touch="none")
    apart = TilingSolution([Placement("A", ((0, 0), (0, 1))), Placement("B", ((2, 2), (2, 3)))])
    square.verify(apart)
    corner = TilingSolution([Placement("A", ((0, 0), (0, 1))), Placement("B", ((1, 2), (1, 3)))])
    with pytest.raises(VerificationError, match="pieces A and B touch at"):
        square.verify(corner)
    # Hexagons: two neighbours across an edge, on the hexagon grid's coordinates.
    hexagon = grid("hexagon")
    board = Board.from_cells(shaped_cells("hexagon", "hexagon", 3), hexagon)
    one = parse_picture("#", hexagon)
    t = Tiling(board, [Piece("A", one), Piece("B", one)], cover="pack", touch="none")
    with pytest.raises(VerificationError, match="touch"):
        t.verify(TilingSolution([Placement("A", ((2, 2),)), Placement("B", ((2, 4),))]))
    t.verify(TilingSolution([Placement("A", ((2, 0),)), Placement("B", ((2, 4),))]))
