"""The Python API refuses what it cannot mean, with a message that names the mistake:
limits and time limits, literals of no variable, a puzzle where a model belongs (and the
other way round), answers of another model, shapes and boards given loosely. Where the
input has a meaning (a board's sizes, a piece's picture), it is taken."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

from smtpuzzle import (
    Board,
    Element,
    Frames,
    FramesOptions,
    Model,
    Piece,
    PuzzleError,
    Shape,
    Status,
    Tiling,
    TilingSolution,
    VerificationError,
    build_maze_string,
    check_maze_bound,
    count,
    free_polyominoes,
    get_backend,
    list_tilings,
    load,
    load_frames,
    load_nonogram,
    parse_picture,
    parse_puzzle,
    prove_maze_bound,
    search_maze,
    shorten_maze_string,
    solve_frames,
    solve_nonogram,
    solve_tiling,
    to_cnf,
    write_dimacs,
)
from smtpuzzle.backends.exactcover.problem import NotExactCover
from smtpuzzle.puzzles.tiling.puzzle import Placement
from tests.helpers import ANY_MODEL_BACKENDS, ROOT


def _three() -> tuple[Model, object]:
    """Exactly one of three: 3 solutions."""
    m = Model("three")
    x = m.bool_array(3)
    m.add_exactly_one([x])
    return m, x


def test_a_limit_of_0_lists_nothing_and_bad_limits_are_refused(cover_backend_name):
    m, _ = _three()
    assert m.count_up_to(0, backend=cover_backend_name) == (0, False)
    assert list(m.solutions(0, backend=cover_backend_name)) == []
    assert m.count_up_to(2, backend=cover_backend_name) == (2, False)
    assert m.count_up_to(4, backend=cover_backend_name) == (3, True)
    with pytest.raises(ValueError, match="0 or more, not -1"):
        m.count_up_to(-1, backend=cover_backend_name)
    for bad in (1.5, True, "2"):
        with pytest.raises(TypeError, match="limit is a whole number"):
            m.count_up_to(bad, backend=cover_backend_name)
    with pytest.raises(ValueError, match="time_limit is a number of seconds, 0 or more"):
        m.solve(backend=cover_backend_name, time_limit=-1)
    with pytest.raises(TypeError, match="time_limit is a number of seconds"):
        m.solve(backend=cover_backend_name, time_limit="1")
    with pytest.raises(ValueError, match="time_limit"):
        get_backend(cover_backend_name).count(m, time_limit=float("nan"))


def _brute(n: int, holds) -> int:
    return sum(holds(np.array(bits)) for bits in itertools.product([0, 1], repeat=n))


@pytest.mark.parametrize("kind", ["exactly_one", "at_most_one"])
def test_a_literal_twice_in_a_group_counts_twice_or_exact_cover_refuses(kind):
    """sum(a + a + ...) counts a twice: exactly one of (a, a) forces a false, as does at
    most one of them. The exact-cover engine reads a group as a set, so it refuses."""
    m = Model("twice")
    a, b, c = m.bool_array(3)
    getattr(m, f"add_{kind}")([[a.ids, a.ids], [b.ids, c.ids]])
    want = _brute(3, lambda v: (2 * v[0] == 1 if kind == "exactly_one" else 2 * v[0] <= 1)
                  and (v[1] + v[2] == 1 if kind == "exactly_one" else v[1] + v[2] <= 1))
    assert want == (0 if kind == "exactly_one" else 3)
    for backend in ANY_MODEL_BACKENDS:
        assert m.count(backend=backend) == (want, True), backend
    with pytest.raises(NotExactCover, match="name a literal twice"):
        m.count(backend="exact-cover")


def test_literals_of_no_variable_are_refused_where_they_are_added():
    m, x = _three()
    for add in (m.add_clauses, m.add_exactly_one, m.add_at_most_one):
        with pytest.raises(ValueError, match="0 is not a literal"):
            add([[1, 0]])
        with pytest.raises(ValueError, match="literal -4 is no variable of this model .it has 3"):
            add([[1, -4]])
        with pytest.raises(TypeError, match="whole numbers .* such as 1.5"):
            add([[1.5]])
        with pytest.raises(TypeError, match="whole numbers .* such as True"):
            add([[True]])
    with pytest.raises(ValueError, match="literal 7"):
        m.add_cardinality([[1, 7]], "<=", 1)
    with pytest.raises(ValueError, match="literal 9"):
        m.add_implications(1, 9)
    with pytest.raises(ValueError, match="0 is not a literal"):
        m.with_units([0])
    m.add_clauses([x])  # a BoolArray (or a list of them) gives its literals
    m.add_at_most_one([list(x)])
    assert m.count("sat") == (3, True)


def test_a_session_refuses_literal_0_and_work_after_it_is_closed(backend_name):
    m, _ = _three()
    session = get_backend(backend_name).open(m)
    with pytest.raises(ValueError, match="0 is not a literal"):
        session.add_clauses([[0, 1]])
    with pytest.raises(ValueError, match="assumption 0 is no literal"):
        session.check([0])
    with pytest.raises(ValueError, match="assumption 8 is no literal of this session's 3"):
        session.check([8])
    assert session.check([-1, -2]) is Status.SAT
    session.close()
    session.close()  # twice does nothing more
    with pytest.raises(RuntimeError, match="session is closed"):
        session.check()
    with pytest.raises(RuntimeError, match="session is closed"):
        session.add_units([1])


def test_a_puzzle_where_a_model_belongs_names_build_model(tmp_path):
    tiling = load("pentomino-6x10")
    for backend in ("sat", "cpsat", "z3", "exact-cover"):
        engine = get_backend(backend)
        for call in (engine.solve, engine.solutions, engine.open, engine.count):
            with pytest.raises(TypeError, match=r"takes a Model, got Tiling \(make one with "
                                                r"Tiling.build_model\(\)\)"):
                call(tiling)
    with pytest.raises(TypeError, match="to_cnf takes a Model, got Tiling"):
        to_cnf(tiling)
    with pytest.raises(TypeError, match="write_dimacs takes a Model, got Tiling"):
        write_dimacs(tiling, tmp_path / "x.cnf")
    assert not (tmp_path / "x.cnf").exists()
    with pytest.raises(TypeError, match="solve_frames takes a Frames, got Tiling"):
        solve_frames(tiling)


def test_reading_a_variable_made_after_the_last_search_says_solve_again():
    m = Model("later")
    x = m.bool_array(2)
    y = m.int_array(1, 0, 2)
    m.add(x[0] | x[1])
    assert m.solve() is Status.SAT
    z = m.bool_array(1)
    w = m.int_array(1, 0, 3)
    for later in (z, w):
        with pytest.raises(ValueError, match="made after the last search has no value yet"):
            later.value()
    assert x.value().any() and 0 <= int(y.value()[0]) <= 2
    m.solve()
    assert z.value().shape == (1,) and 0 <= int(w.value()[0]) <= 3


def test_take_refuses_another_models_result():
    m, _ = _three()
    other = Model("other")
    other.add_clauses([other.bool_array(5)])
    result = get_backend("sat").solve(other)
    with pytest.raises(ValueError, match="answers 5 variables, not this model's 3"):
        m.take(result)
    with pytest.raises(TypeError, match="takes a back end's Result, got NoneType"):
        m.take(None)
    m.take(get_backend("sat").solve(m))


def test_decode_takes_one_bool_per_placement_and_verify_reads_json_cells():
    tiling = Tiling([2, 3], [Piece("I", "###", count=2)])
    result = get_backend("cpsat").solve(tiling.build_model())
    with pytest.raises(TypeError, match=r"got Result \(pass its .values\)"):
        tiling.decode(result)
    with pytest.raises(TypeError, match="got NoneType"):
        tiling.decode(None)
    with pytest.raises(ValueError, match=rf"one bool per placement \({tiling.num_placements}\)"):
        tiling.decode(result.values[:-1])
    with pytest.raises(TypeError, match="verify takes a TilingSolution, got NoneType"):
        tiling.verify(None)
    solution = tiling.decode(result.values)
    tiling.verify(solution)
    as_json = solution.as_json()["placements"]  # cells as lists
    tiling.verify(TilingSolution([Placement(p["piece"], p["cells"]) for p in as_json]))
    bent = [Placement("I", [[0, 0], [0, 1], [1, 1]]), Placement("I", [[1, 0], [0, 2], [1, 2]])]
    with pytest.raises(VerificationError, match="does not have its shape"):
        tiling.verify(TilingSolution(bent))
    with pytest.raises(VerificationError, match="not lists of whole numbers"):
        tiling.verify(TilingSolution([Placement("I", [[0.5, 0]])]))


def test_boards_pieces_and_shapes_given_loosely_are_taken_or_refused():
    piece = Piece("I", "##")  # a picture, as in a puzzle file
    assert piece.shape == Shape([(0, 0), (0, 1)])
    assert Tiling([1, 2], [piece]).num_placements == 1  # a board by its sizes
    assert Frames([1, 2], [piece], 1).frame.dims == (1, 2)
    assert parse_picture("# #", on="hexagon").size == 2  # a grid by its name
    assert Shape([(1.0, 0), (0, 1)]) == Shape([(1, 0), (0, 1)])
    with pytest.raises(TypeError, match="its shape is a Shape or a picture"):
        Piece("I", 3)
    with pytest.raises(TypeError, match="a Board or its sizes such as"):
        Tiling("2x2", [piece])
    with pytest.raises(TypeError, match="number of frames is a whole number, not 1.5"):
        Frames([1, 2], [piece], 1.5)
    with pytest.raises(PuzzleError, match=r"cell \[0.5, 0\]: coordinates are whole numbers"):
        Shape([(0.5, 0), (0, 1)])
    with pytest.raises(TypeError, match="number of cells is a whole number, not 1.5"):
        free_polyominoes(1.5)
    with pytest.raises(TypeError, match="takes the puzzle as a dict"):
        parse_puzzle(None)
    with pytest.raises(ValueError, match="a shape is sizes of 0 or more"):
        Model("m").int_array(2.0, 0, 1)


def test_exact_cover_says_it_does_not_optimise():
    m, x = _three()
    m.maximize(x[0] + 2 * x[1])
    with pytest.raises(PuzzleError, match="exact-cover cannot optimise"):
        m.solve("exact-cover")
    assert m.solve("cpsat") is Status.OPTIMAL and x.value().tolist() == [False, True, False]


# -- found by an adversarial review of the Python API (helper-21, session 45) ----------------

def test_numbers_that_would_be_truncated_are_refused_not_read_as_others():
    m = Model()
    v = m.new_bools(2, user=True, names=["a", "b"])
    for bad in (1.5, "1", [1.5]):
        with pytest.raises(TypeError, match="cardinality bounds must be whole numbers"):
            m.add_cardinality([v], ">=", bad)
    with pytest.raises(TypeError, match="a number of variables is a whole number"):
        m.new_bools(2.0)
    with pytest.raises(ValueError, match="literal 18446744073709551615 is no variable"):
        m.add_clauses(np.array([[2**64 - 1]], dtype=np.uint64))
    with pytest.raises(ValueError, match="Element's array must be a regular array"):
        Element([[1, 2], [3]], Model().int_array((), 0, 1))
    m.add_cardinality([v], ">=", 2.0)  # a whole float is its number
    m.add_cardinality([v], "<=", 10**30)  # past any sum: no bound
    assert m.count("sat") == (1, True)


def test_an_automaton_is_checked_and_its_state_numbers_cost_nothing(backend_name):
    m = Model()
    v = m.new_bools(3, user=True, names=list("abc"))
    with pytest.raises(ValueError, match="states are numbered from 0, got -1"):
        m.add_automaton(v[:2], [[0, 1, -1], [-1, 0, 0]], 0, [0])
    with pytest.raises(ValueError, match="read the labels"):
        m.add_automaton(v[:2], [[0, 2, 1]], 0, [1])
    with pytest.raises(ValueError, match="deterministic"):
        m.add_automaton(v[:2], [[0, 1, 1], [0, 1, 0]], 0, [1])
    # words with no two 1s in a row, their states named far apart: the unrolling is as
    # large as for states 0 and 1 (it once allocated a table 10**12 states wide)
    big = 10**12
    m.add_automaton(v, [[0, 0, 0], [0, 1, big], [big, 0, 0]], 0, [0, big])
    assert get_backend(backend_name).count(m)[:2] == (5, True)


def test_callers_limits_are_checked_alike_by_every_entry_point():
    t = load("pentomino-3x20")
    frames = load_frames("pentomino-5x6x2")
    nonogram = load_nonogram(ROOT / "models" / "nonograms" / "webpbn-free" / "faase.non")
    session = get_backend("sat").open(_three()[0])
    for call in (lambda **kw: solve_tiling(t, **kw), lambda **kw: list_tilings(t, **kw),
                 lambda **kw: count(t, **kw), lambda **kw: solve_frames(frames, **kw),
                 lambda **kw: search_maze("N*", **kw), lambda **kw: solve_nonogram(nonogram, **kw),
                 lambda **kw: session.check(**kw), lambda **kw: session.first(**kw),
                 lambda **kw: prove_maze_bound("2x2", **kw),
                 lambda **kw: build_maze_string("2x2", **kw),
                 lambda **kw: shorten_maze_string("NESWNENWSEN", "2x2", **kw),
                 lambda **kw: check_maze_bound("no-such-certificate", **kw),
                 lambda **kw: prove_maze_bound("2x2", up_to=4).write_certificate(
                     "never-written", **kw)):
        for bad in (-1, float("nan")):
            with pytest.raises(ValueError, match="time_limit is a number of seconds"):
                call(time_limit=bad)
        with pytest.raises(TypeError, match="time_limit is a number of seconds"):
            call(time_limit="5")
    for call in (lambda **kw: list_tilings(t, **kw), lambda **kw: solve_frames(frames, **kw),
                 lambda **kw: solve_nonogram(nonogram, **kw)):
        with pytest.raises(ValueError, match="limit is a number of solutions, 1 or more"):
            call(limit=0)
        with pytest.raises(TypeError, match="limit is a whole number"):
            call(limit="2")
    for bad, error in ((None, TypeError), (0, ValueError), (1.5, TypeError)):
        with pytest.raises(error, match="workers is a whole number"):
            count(t, workers=bad)
    with pytest.raises(TypeError, match="a pattern is a string"):
        search_maze(None)
    with pytest.raises(ValueError, match="max_states is a whole number, 1 or more"):
        search_maze("N*", max_states=-1)
    with pytest.raises(TypeError, match="split_depth is a whole number"):
        search_maze("N*", split_depth=2.5)
    with pytest.raises(ValueError, match="seed is a whole number, 0 to"):
        search_maze("N*", strategy="local", seed=-1)
    for bad, error, what in ((0, ValueError, "start"), (-1, ValueError, "max_states"),
                             (2.5, TypeError, "split_depth"), (0, ValueError, "workers"),
                             (-1, ValueError, "up_to")):
        with pytest.raises(error, match=f"{what} is a whole number"):
            prove_maze_bound("2x2", **{what: bad})
    with pytest.raises(ValueError, match="up_to 2 is below start 5"):
        prove_maze_bound("2x2", start=5, up_to=2)
    with pytest.raises(ValueError, match="seed is a whole number, 0 to"):
        build_maze_string("2x2", seed=-1)
    for what in ("max_states", "max_cases"):
        with pytest.raises(ValueError, match=f"{what} is a whole number, 1 or more"):
            shorten_maze_string("NESWNENWSEN", "2x2", **{what: 0})
    with pytest.raises(ValueError, match="time_limit is a number of seconds"):
        shorten_maze_string("NESWNENWSEN", "2x2", window_limit=-1)
    # sizes as the CLI reads them ("1X2" once failed in int())
    assert search_maze("****", size="1X2").string == search_maze("****", size="1x2").string


@pytest.mark.slow
def test_count_takes_a_backend_object_and_frames_settings_join_the_options():
    t = load("pentomino-3x20")
    assert count(t, backend=get_backend("sat")).count == 2
    with pytest.raises(ValueError, match="go with a back end's name"):
        count(t, backend=get_backend("sat"), workers=2)
    frames = load_frames("pentomino-5x6x2")
    options = FramesOptions(cache=False, stage2="sat")
    joined = solve_frames(frames, options, stage2="cpsat")  # settings over the options
    assert joined.status == "sat" and joined.stage2["backend"] == "cpsat"
    with pytest.raises(TypeError, match="options is a FramesOptions"):
        solve_frames(frames, {"cache": False})


def test_numpy_counts_and_names_for_dimacs():
    d = Shape([(0, 0), (0, 1)])
    tiling = Tiling(Board((2, 2)), [Piece("D", d, np.int8(100), at_most=True)])
    assert solve_tiling(tiling).status.value == "sat"  # np.int8(100) * 2 cells once wrapped
    m = Model()
    for bad in ("a\nb", "", " x"):
        with pytest.raises(ValueError, match="a variable's name is printable text"):
            m.bool_array(2, name=bad)
    with pytest.raises(TypeError, match="a variable's name is a str"):
        m.new_bools(1, user=True, names=[5])


def test_two_arrays_of_one_name_round_trip_through_dimacs(tmp_path):
    from pysat.solvers import Solver

    from smtpuzzle.backends.dimacs import decode_answer, read_cnf

    m = Model()
    a, b = m.bool_array(2, name="b"), m.bool_array(2, name="b")
    m.add_exactly_one([[*a.ids.tolist(), *b.ids.tolist()]])
    m.add_clauses([[int(b.ids[1])]])
    write_dimacs(m, tmp_path / "m.cnf")
    cnf = read_cnf(tmp_path / "m.cnf")
    with Solver(bootstrap_with=[cnf.clauses[i].tolist() for i in range(len(cnf.clauses))]) as s:
        assert s.solve()
        model = s.get_model()
    (tmp_path / "m.out").write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    status, values = decode_answer(m, tmp_path / "m.cnf", tmp_path / "m.out")
    assert status is Status.SAT and values.tolist() == [False, False, False, True]


def test_polyforms_past_their_cap_and_python_made_grid_puzzles_are_refused():
    from smtpuzzle.puzzles.kenken.puzzle import Cage
    from smtpuzzle.puzzles.sudoku.puzzle import Sudoku

    with pytest.raises(ValueError, match="at most 14 are grown"):
        free_polyominoes(5000)
    with pytest.raises(PuzzleError, match="one of"):
        Cage("a", ((0, 0), (0, 1)), 2, "%")
    with pytest.raises(PuzzleError, match="'-' takes 2 cells, it has 3"):
        Cage("a", ((0, 0), (0, 1), (1, 1)), 2, "-")
    for grid in (np.zeros((5, 5), int), np.zeros((4, 9), int)):
        with pytest.raises(PuzzleError, match="an N x N grid with N a square"):
            Sudoku(grid)
    with pytest.raises(PuzzleError, match="givens are whole numbers 1..4"):
        Sudoku(np.full((4, 4), -1))
    assert Sudoku([[0] * 4] * 4).givens.shape == (4, 4)  # lists are taken


def test_grid_verifiers_name_a_grid_of_the_wrong_shape_and_kenken_cages_are_checked():
    from smtpuzzle.puzzles.kenken.puzzle import Cage, KenKen
    from smtpuzzle.puzzles.sudoku.puzzle import Sudoku

    with pytest.raises(VerificationError, match="a grid of shape \\(3, 4\\), not 4x4"):
        Sudoku(np.zeros((4, 4), int)).verify(np.ones((3, 4), int))
    nonogram = load_nonogram(ROOT / "models" / "nonograms" / "webpbn-free" / "faase.non")
    with pytest.raises(VerificationError, match="a grid is its rows, strings of # and ."):
        nonogram.verify([["#"]])
    cages = [Cage("a", ((0, 0), (0, 1)), 3, "+"), Cage("b", ((1, 0), (1, 1)), 3, "+")]
    with pytest.raises(VerificationError, match="not 2x2"):
        KenKen(2, cages).verify(np.ones((3, 3), int))
    with pytest.raises(PuzzleError, match="cage c has the cell \\(2, 0\\)"):
        KenKen(2, [*cages, Cage("c", ((2, 0),), 1, "=")])
    with pytest.raises(PuzzleError, match="cell \\(0, 0\\) is in cages a and c"):
        KenKen(2, [*cages, Cage("c", ((0, 0),), 1, "=")])
    with pytest.raises(PuzzleError, match="2 cells are in no cage"):
        KenKen(2, cages[:1])


def test_library_errors_name_the_python_argument_and_the_cli_its_flag(tmp_path):
    from smtpuzzle.errors import PuzzleError, command_line_words
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound

    with pytest.raises(PuzzleError) as caught:
        prove_bound(3, pick="best")
    assert "`pick` is" in str(caught.value) and "--pick" not in str(caught.value)
    assert caught.value.for_command_line().startswith("--pick is")
    assert command_line_words("try `split_depth` or `backend=sat` (`cell`)") == \
        "try --split-depth or --backend sat (--cell-size)"
    p = subprocess.run([sys.executable, "-m", "smtpuzzle", "maze", "bound", "--pick", "best"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "--pick is auto, first, sampled, not 'best'" in p.stderr
    assert "`" not in p.stderr
