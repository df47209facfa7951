import numpy as np
import pytest

from smtpuzzle import Board, PuzzleError, Shape, free_polyominoes, parse_picture, piece_set
from smtpuzzle.geometry.polyforms import folds_into_cube
from smtpuzzle.geometry.symmetry import symmetry_group


def test_free_polyomino_counts():
    assert [len(free_polyominoes(n)) for n in range(1, 8)] == [1, 1, 2, 5, 12, 35, 108]


def test_generated_pentominoes_are_the_named_set():
    named = {s.canonical() for s in piece_set("pentominoes").values()}
    assert named == set(free_polyominoes(5))
    assert list(piece_set("pentominoes")) == list("FILNPTUVWXYZ")


def test_tetromino_and_tromino_sets_are_complete():
    assert {s.canonical() for s in piece_set("tetrominoes").values()} == set(free_polyominoes(4))
    assert {s.canonical() for s in piece_set("trominoes").values()} == set(free_polyominoes(3))


def test_named_sets_have_stable_sizes_and_names():
    assert len(piece_set("hexominoes")) == 35 and "H01" in piece_set("hexominoes")
    assert len(piece_set("heptominoes")) == 108 and "S108" in piece_set("heptominoes")
    assert list(piece_set("soma")) == list("VLTZABP")


def test_eleven_cube_nets():
    nets = piece_set("cube-nets")
    assert len(nets) == 11
    cross = parse_picture(".#..\n####\n.#..")  # the Latin cross folds; the 2x3 block does not
    assert folds_into_cube(cross)
    assert not folds_into_cube(parse_picture("###\n###"))
    assert not folds_into_cube(parse_picture("######"))


def test_group_sizes():
    assert len(symmetry_group(2, True)) == 8 and len(symmetry_group(2, False)) == 4
    assert len(symmetry_group(3, True)) == 48 and len(symmetry_group(3, False)) == 24
    assert all(round(np.linalg.det(m)) == 1 for m in symmetry_group(3, False))


@pytest.mark.parametrize("name,free,one_sided", [("F", 8, 4), ("I", 2, 2), ("X", 1, 1),
                                                  ("L", 8, 4), ("T", 4, 4), ("Z", 4, 2)])
def test_pentomino_orientations(name, free, one_sided):
    s = piece_set("pentominoes")[name]
    assert len(s.orientations(True)) == free
    assert len(s.orientations(False)) == one_sided


def test_soma_orientations_and_chirality():
    soma = piece_set("soma")
    assert len(soma["A"].orientations(False)) == 12
    # A and B are mirror images: congruent with reflections, not by rotations alone.
    assert soma["A"].canonical(True) == soma["B"].canonical(True)
    assert soma["A"].canonical(False) != soma["B"].canonical(False)
    # A flat piece in 3D: rotations already turn it over.
    assert len(piece_set("pentominoes")["F"].lifted(3).orientations(False)) == 24


def test_picture_parsing_2d_and_3d():
    assert parse_picture("  #.\n  ##") == Shape([(0, 0), (1, 0), (1, 1)])
    cube = parse_picture("##\n##\n\n##\n##")
    assert cube.dim == 3 and cube.size == 8 and cube.extent == (2, 2, 2)
    with pytest.raises(PuzzleError):
        parse_picture("...\n. .")


def test_board_with_holes_and_picture():
    b = Board([8, 8], holes=[(3, 3), (3, 4), (4, 3), (4, 4)])
    assert b.num_cells == 60 and (3, 3) in b.holes()
    p = Board.from_picture(".##\n###")
    assert p.dims == (2, 3) and p.num_cells == 5
    with pytest.raises(PuzzleError, match="outside"):
        Board([2, 2], holes=[(2, 0)])


@pytest.mark.parametrize("cells, holes, words", [
    ([], None, "the board has no cells"),
    ([(0, 0), (0, 1, 2)], None, "same number of coordinates"),
    ([(0, 0), (1, -1)], None, r"cell \[1, -1\] has a negative coordinate"),
    ([(0, 0), (1, 1), (0, 1), (1, 1), (0, 0)], None, r"cell \[0, 0\] is listed twice"),
    ([(0, 0), ("a", 1)], None, "whole numbers"),
    ([(0, 0), (1, 1)], [(0, 1), (0, 1, 0)], r"hole \[0, 1, 0\] has 3 coordinates; the board "
     "has 2"),
    ([(0, 0), (1, 1)], [(1, 0), (2, 0)], r"hole \[2, 0\] is outside the 2x2 board"),
    ([(0, 0), (1, 1)], [(1, 0), (1, 0)], r"hole \[1, 0\] is listed twice"),
    ([(0, 0), (1, 1)], [(0, 0), (0, 1)], r"hole \[0, 1\] is not a cell of the board"),
])
def test_board_cells_and_holes_are_refused_naming_the_first_bad_one(cells, holes, words):
    with pytest.raises(PuzzleError, match=words):
        board = Board.from_cells(cells)
        if holes is not None:
            board.drilled(holes)


def test_a_large_shaped_board_has_its_area_and_holes():
    from smtpuzzle.geometry.board_shapes import shaped_cells

    side = 200
    board = Board.from_cells(shaped_cells("triangle", "hexagon", side), "triangle")
    assert board.num_cells == len(board.cells) == 6 * side * side
    assert board.num_cells + len(board.holes()) == board.box_size
    drilled = board.drilled([tuple(board.cells[0]), tuple(board.cells[-1])])
    assert drilled.num_cells == board.num_cells - 2
    assert not drilled.mask[tuple(board.cells[0])] and board.mask[tuple(board.cells[0])]


@pytest.mark.parametrize("text, words", [
    ("##\n#\t#", "a tab on line 2"),
    ("#\r#\n##", "a carriage return on line 1"),
    ("#\u00a0#", "a no-break space on line 1"),
])
def test_a_picture_with_whitespace_other_than_spaces_is_refused(text, words):
    with pytest.raises(PuzzleError, match=words):
        parse_picture(text)
    assert parse_picture("##\r\n##\t\n") == parse_picture("##\n##")  # line ends are no cells
