import pytest

from smtpuzzle import (
    BACKENDS,
    Board,
    Piece,
    Placement,
    PuzzleError,
    Status,
    Tiling,
    TilingSolution,
    VerificationError,
    count,
    get_backend,
    load,
    parse_picture,
    piece_set,
)
from smtpuzzle.puzzles.tiling.solve import solve_tiling
from tests.helpers import ANY_MODEL_BACKENDS, variant_id


def pentominoes(**kw):
    return [Piece(n, s, **kw) for n, s in piece_set("pentominoes").items()]


def test_placement_counts_on_the_8x8_board():
    t = load("pentomino-8x8-square")
    assert t.placement_counts() == {
        "F": 288, "I": 64, "L": 280, "N": 280, "P": 336, "T": 144, "U": 168, "V": 144,
        "W": 144, "X": 36, "Y": 280, "Z": 144, "O4": 49,
    }


@pytest.mark.parametrize("name", ["pentomino-6x10", "pentomino-8x8-square", "soma-3x3x3"])
def test_every_backend_finds_a_verified_tiling(name, backend_name):
    t = load(name)
    r = get_backend(backend_name).solve(t.build_model(), time_limit=120)
    assert r.status is Status.SAT
    solution = t.decode(r.values)
    t.verify(solution)
    assert len(solution.placements) == len(t.pieces)


@pytest.mark.parametrize("solver_variant", [(b, None) for b in ANY_MODEL_BACKENDS]
                         + [("sat", "glucose4")], ids=variant_id)
def test_twelve_pentominoes_on_a_2x30_strip_are_unsat(solver_variant):
    # precheck=False: the back end must prove it (the file-level check refuses it at once).
    t = Tiling(Board([2, 30]), pentominoes(), precheck=False)
    r = get_backend(*solver_variant).solve(t.build_model(), time_limit=120)
    assert r.status is Status.UNSAT


def test_mutilated_board_of_the_right_area_is_unsat(backend_name):
    board = Board([4, 4], holes=[(0, 0), (3, 3)])
    # precheck=False: the back end must prove it (the colouring check refuses it at once).
    t = Tiling(board, [Piece("I2", parse_picture("##"), count=7)], precheck=False)
    r = get_backend(backend_name).solve(t.build_model(), time_limit=60)
    assert r.status is Status.UNSAT


def test_a_colouring_refuses_what_parity_rules_out_and_nothing_that_tiles():
    dominoes = [Piece("I2", parse_picture("##"), count=31)]
    with pytest.raises(PuzzleError, match=r"by colouring: the board has 30 cells where \(row "
                       r"\+ column\) mod 2 is 0, and the pieces, however placed, never"):
        Tiling(Board([8, 8], holes=[(0, 0), (7, 7)]), dominoes)
    tiles = Tiling(Board([8, 8], holes=[(0, 0), (7, 6)]), dominoes)  # opposite colours
    assert get_backend("exact-cover").solve(tiles.build_model()).status is Status.SAT
    # Polyform Puzzler's "none by parity": refused at once; the search agrees.
    with pytest.raises(PuzzleError, match="by colouring"):
        load("hexiamond-6x9-trapezoid")
    assert count(load("hexiamond-6x9-trapezoid", precheck=False)).count == 0
    # No shipped tiling that has solutions is refused (they all load).
    for name in ("pentomino-8x8-square", "hexiamond-4x11-trapezoid", "soma-3x3x3",
                 "polyhex-34-hexagon", "tetromino-5x4-tube", "domino-4x4-torus"):
        load(name)


def test_packing_leaves_cells_empty_and_respects_at_most(backend_name):
    t = Tiling(Board([3, 3]), [Piece("X", piece_set("pentominoes")["X"], count=1),
                               Piece("O1", parse_picture("#"), count=2, at_most=True)],
               cover="pack")
    enum = get_backend(backend_name).solutions(t.build_model())
    sols = [t.decode(r.values) for r in enum]
    assert enum.complete
    for s in sols:
        t.verify(s)
    # X in the middle; 0, 1 or 2 monominoes in the 4 corners: 1 + 4 + 6.
    assert len(sols) == 11


def test_multiplicities_exactly_k():
    t = Tiling(Board([2, 4]), [Piece("O4", parse_picture("##\n##"), count=2)])
    sols = list(get_backend("cpsat").solutions(t.build_model()))
    assert len(sols) == 1
    assert len(t.decode(sols[0].values).placements) == 2


def test_verifier_rejects_broken_solutions():
    t = load("pentomino-6x10")
    r = get_backend("cpsat").solve(t.build_model())
    good = t.decode(r.values)
    t.verify(good)
    pls = good.placements
    with pytest.raises(VerificationError, match="uncovered|times"):
        t.verify(TilingSolution(pls[1:]))
    with pytest.raises(VerificationError, match="twice"):
        t.verify(TilingSolution(pls + [pls[0]]))
    i_cells = next(p.cells for p in pls if p.piece == "I")
    relabelled = [Placement("L", i_cells) if p.piece == "L" else
                  Placement("I", next(q.cells for q in pls if q.piece == "L"))
                  if p.piece == "I" else p for p in pls]
    with pytest.raises(VerificationError, match="does not have its shape"):
        t.verify(TilingSolution(relabelled))
    off = Placement(pls[0].piece, tuple((r + 10, c) for r, c in pls[0].cells))
    with pytest.raises(VerificationError, match="leaves the board"):
        t.verify(TilingSolution([off] + pls[1:]))


def test_obvious_impossibilities_are_reported_with_the_reason():
    with pytest.raises(PuzzleError, match="60 cells but the board has 64"):
        Tiling(Board([8, 8]), pentominoes())
    with pytest.raises(PuzzleError, match="larger than the 2x30 board"):
        Tiling(Board([2, 30]), pentominoes())
    with pytest.raises(PuzzleError, match="used twice"):
        Tiling(Board([2, 5]), [Piece("I", parse_picture("#####")), Piece("I", parse_picture(
            "#####"))])


# -- the finite-domain model: an integer per piece ------------------------------------------

def test_the_index_model_has_the_placement_models_solutions(backend_name):
    from smtpuzzle.puzzles.tiling.counting import count
    from smtpuzzle.puzzles.tiling.index_model import index_model

    pent = piece_set("pentominoes")
    t = Tiling(Board([4, 5]), [Piece(n, pent[n]) for n in "FLUY"])
    indexed = index_model(t)
    seen = set()
    for _ in indexed.model.solutions(backend=backend_name):
        solution = t.decode(indexed.values(t.num_placements))
        t.verify(solution)
        seen.add(tuple(sorted(indexed.placements().tolist())))
    assert len(seen) == count(t, distinct=False).count == 12


def test_copies_of_a_piece_are_counted_once(backend_name):
    from smtpuzzle.puzzles.tiling.index_model import index_model

    # Three dominoes tile a 2x3 board in 3 ways; their copies are interchangeable.
    t = Tiling(Board([2, 3]), [Piece("I2", parse_picture("##"), count=3)])
    assert index_model(t).model.count(backend=backend_name) == (3, True)  # (count, complete)


@pytest.mark.parametrize("name,backend", [("pentomino-8x8-square", "cpsat"),
                                          ("pentomino-8x8-square", "sat"),
                                          ("soma-3x3x3", "z3")])
def test_solve_with_the_index_model_gives_a_verified_tiling(name, backend):
    answer = solve_tiling(load(name), backend, model="index")
    assert answer.status is Status.SAT and len(answer.solutions) == 1


def test_the_index_model_refuses_what_it_cannot_say():
    with pytest.raises(PuzzleError, match="for exact covers"):
        solve_tiling(load("untouchable-11-12x12"), "cpsat", model="index")
    with pytest.raises(PuzzleError, match="placements only"):
        solve_tiling(load("pentomino-6x10"), "exact-cover", model="index")
    with pytest.raises(PuzzleError, match="expected one of placements, index"):
        solve_tiling(load("pentomino-6x10"), "cpsat", model="indices")


def test_a_model_too_large_for_the_memory_is_refused_by_each_back_ends_estimate(monkeypatch):
    tiling = load("pentomino-6x10")
    monkeypatch.setattr("smtpuzzle.runtime.memory.available_bytes", lambda: 100_000)
    for name in BACKENDS:
        with pytest.raises(PuzzleError,
                           match=f"^{name} on pentomino-6x10's 2,056 placements would need"):
            tiling.check_memory(get_backend(name))
    monkeypatch.setattr("smtpuzzle.runtime.memory.available_bytes", lambda: 10**9)
    for name in BACKENDS:
        tiling.check_memory(get_backend(name))


def test_a_piece_the_holes_leave_no_room_is_refused_at_once():
    from smtpuzzle import Board, Piece, Tiling, piece_set
    from smtpuzzle.errors import PuzzleError

    tet = piece_set("tetrominoes")
    ring = Board([3, 3], holes=[(1, 1)])
    with pytest.raises(PuzzleError, match="piece O4 fits nowhere on the 3x3 board"):
        Tiling(ring, [Piece("O4", tet["O4"]), Piece("L4", tet["L4"])])
    # at most one O4: not impossible, so not refused (two L4s tile the ring)
    t = Tiling(ring, [Piece("O4", tet["O4"], at_most=True), Piece("L4", tet["L4"], count=2)])
    assert t.num_placements > 0


def test_odd_arguments_of_the_tiling_api_are_refused():
    from smtpuzzle import Board, Piece, Tiling, count, list_tilings, load, parse_picture
    from smtpuzzle.errors import PuzzleError

    t = load("pentomino-3x20")
    for limit in (0, -1):
        with pytest.raises(ValueError, match="limit is a number of solutions, 1 or more"):
            list_tilings(t, limit=limit)
    with pytest.raises(ValueError, match="raw count has no group"):
        count(t, distinct=False, group="rotations")
    for dims in ("22", [2.7, 2], [True, 2]):
        with pytest.raises(PuzzleError, match="whole numbers"):
            Board(dims)
    assert Board(d for d in (2, 3)).dims == (2, 3)
    for bad in (2.5, "2"):
        with pytest.raises(PuzzleError, match="count must be a whole number"):
            Tiling(Board([2, 5]), [Piece("D", parse_picture("##"), count=bad)])


@pytest.mark.parametrize("distinct", [False, True])
def test_a_listing_that_reaches_its_limit_tells_all_from_more(distinct):
    from smtpuzzle import list_tilings, load

    t = load("pentomino-3x20")  # 2 classes, 8 raw solutions
    n = 2 if distinct else 8
    exact = list_tilings(t, limit=n, distinct=distinct)
    assert exact.count == n and exact.complete and not exact.more
    short = list_tilings(t, limit=n - 1, distinct=distinct)
    assert short.count == n - 1 and not short.complete and short.more
    assert short.as_json()["more"] and len(short.solutions) == n - 1
    assert exact.as_json()["more"] is False


def test_a_listing_stopped_by_the_time_does_not_say_there_are_no_more():
    from smtpuzzle import list_tilings, load

    cut = list_tilings(load("pentomino-6x10"), time_limit=0.5)  # 9,356 solutions
    assert 0 < cut.count < 9356 and not cut.complete and not cut.more
    assert cut.as_json()["more"] is None


def test_the_colouring_sums_match_a_brute_force():
    import random

    import numpy as np

    from smtpuzzle.puzzles.tiling.puzzle import _reachable

    rng = random.Random(7)
    for _ in range(400):
        pieces = [(np.array(sorted(rng.sample(range(5), rng.randint(1, 3)))), rng.randint(0, 3))
                  for _ in range(rng.randint(1, 3))]
        area = sum(int(v[-1]) * c for v, c in pieces) + 2
        sums = {0}
        for values, copies in pieces:
            for _ in range(copies):
                sums = {a + b for a in sums for b in values.tolist()}
        assert [_reachable(pieces, w, area) for w in range(area + 1)] == \
            [w in sums for w in range(area + 1)], pieces


def test_verify_refuses_a_piece_wound_onto_itself_round_a_wrapping_board():
    from smtpuzzle import Placement, TilingSolution, VerificationError

    # On a 2x3 cylinder an I5 moved along a row lands on its own cells: as a set, 3 cells.
    # The model has no such placement; the verifier once took two of them as a cover.
    i5, d = parse_picture("#####"), parse_picture("##")
    t = Tiling(Board([2, 3], wrap=["columns"]),
               [Piece("I", i5, count=2, at_most=True), Piece("D", d, count=3, at_most=True)])
    assert t.placement_counts()["I"] == 0
    wound = TilingSolution([Placement("I", ((0, 0), (0, 1), (0, 2))),
                            Placement("I", ((1, 0), (1, 1), (1, 2)))])
    with pytest.raises(VerificationError, match="a placement of I does not have its shape"):
        t.verify(wound)
    with pytest.raises(VerificationError, match="does not have its shape"):
        t.verify(TilingSolution([Placement("D", ())]))
    with pytest.raises(VerificationError, match="not lists of whole numbers"):
        t.verify(TilingSolution([Placement("D", ((0, False), (0, True)))]))
    dominoes = TilingSolution([Placement("D", ((r, c), (r, (c + 1) % 3)))
                               for r in range(2) for c in (0, 2)][:3])
    with pytest.raises(VerificationError, match="cell .* is covered twice"):
        t.verify(dominoes)
