"""The untouchable rule: no two pieces share an edge or a corner."""

import pytest

from smtpuzzle import (
    Board,
    Piece,
    Placement,
    PuzzleError,
    Tiling,
    TilingSolution,
    VerificationError,
    get_backend,
    load,
    parse_picture,
    piece_set,
)
from smtpuzzle.puzzles.tiling.counting import count


def kings(n: int, board: Board, encoding: str = "vertex") -> Tiling:
    return Tiling(board, [Piece("K", parse_picture("#"), count=n)], cover="pack", touch="none",
                  touch_encoding=encoding)


@pytest.mark.parametrize("encoding", ["vertex", "pairs"])
def test_non_attacking_kings(cover_backend_name, encoding):
    # 36 pairs of cells on 3x3, 20 of them touch (6 + 6 across edges, 8 across corners).
    t = kings(2, Board([3, 3]), encoding)
    enum = get_backend(cover_backend_name).solutions(t.build_model())
    sols = [t.decode(r.values) for r in enum]
    assert enum.complete and len(sols) == 16
    for s in sols:
        t.verify(s)


def test_four_kings_on_4x4_up_to_symmetry():
    t = kings(4, Board([4, 4]))
    # Placements of 4 non-attacking kings on 4x4: 79 (OEIS A061995 row 4); classes by brute
    # de-duplication agree with the symmetry-broken count.
    assert count(t, distinct=False).count == 79
    from tests.test_counting import brute_distinct
    assert count(t, distinct=True).count == brute_distinct(t)


def test_3d_untouchable_uses_cube_corners():
    t = kings(2, Board([2, 2, 3]))
    # In a 2x2x3 box every cell touches every cell of its own and adjacent layers, so one
    # king goes in the first layer and one in the last: 4 x 4.
    assert count(t, distinct=False).count == 16


def test_verifier_rejects_touching_pieces():
    t = kings(2, Board([3, 3]))
    bad = TilingSolution([Placement("K", ((0, 0),)), Placement("K", ((1, 1),))])
    with pytest.raises(VerificationError, match="touch"):
        t.verify(bad)
    t.verify(TilingSolution([Placement("K", ((0, 0),)), Placement("K", ((0, 2),))]))


def test_touch_none_needs_packing():
    with pytest.raises(PuzzleError, match="pack"):
        Tiling(Board([3, 3]), [Piece("K", parse_picture("#"), count=2)], touch="none")


def test_untouchable_models_load_with_the_cube_nets():
    for size in ["12x12", "11x13", "9x16", "8x18", "6x24"]:
        t = load(f"untouchable-11-{size}")
        assert t.touch == "none" and t.cover == "pack" and len(t.pieces) == 11


@pytest.mark.parametrize("size,solutions", [  # 16 s to 4 min with 2 workers: --runslow
    *[pytest.param(size, n, marks=pytest.mark.slow) for size, n in
      [("6x24", 8), ("12x12", 7), ("11x13", 33), ("9x16", 174), ("8x18", 15)]]])
def test_untouchable_11_published_counts(size, solutions):
    # 1 to 8 minutes each with 2 workers for the slow ones (bench/RESULTS.md).
    r = count(load(f"untouchable-11-{size}"), distinct=True, workers=2)
    assert r.complete and r.count == solutions


@pytest.mark.parametrize("backend", ["exact-cover", "cpsat"])
def test_vertex_and_pair_encodings_agree_on_real_pieces(backend):
    nets = piece_set("cube-nets")
    pieces = [Piece(n, nets[n]) for n in list(nets)[:2]]
    pieces.append(Piece("L3", parse_picture("#.\n##")))
    counts = []
    for encoding in ("vertex", "pairs"):
        t = Tiling(Board([5, 7]), pieces, cover="pack", touch="none", touch_encoding=encoding)
        enum = get_backend(backend).solutions(t.build_model())
        sols = [t.decode(r.values) for r in enum]
        for sol in sols:
            t.verify(sol)
        assert enum.complete
        counts.append(len(sols))
    assert counts[0] == counts[1] > 0
