"""Property-based tests (hypothesis): what must hold for every input, tried on many.

- every reader, given random bytes or a randomly damaged puzzle file, returns a puzzle or
  raises PuzzleError (a one-line error), never anything else;
- random small models (booleans, cardinalities, automata, integers: the generators of
  test_model.py, on seeds it does not try) have the same satisfiability and the same
  projected solutions on every back end as a brute force;
- ``decode`` never accepts an assignment that violates the CNF;
- ``count`` equals the raw solutions divided into symmetry orbits, on random small boards.

The default profile keeps CI fast; ``--runslow`` loads the "slow" profile (conftest.py),
which tries many more examples.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from smtpuzzle import Model, PuzzleError, Status, to_cnf
from smtpuzzle.backends.dimacs import decode_answer, read_cnf, read_output, write_dimacs
from smtpuzzle.library import load_puzzle
from tests.helpers import ANY_MODEL_BACKENDS, COVER_BACKENDS
from tests.test_model import (
    assert_agrees_with,
    brute_force_solutions,
    random_cover_model,
    random_rich_model,
    solutions_of,
)

# -- readers ---------------------------------------------------------------------------------

PUZZLE_EXTENSIONS = (".toml", ".non", ".nin", ".clues", ".sudoku", ".kenken")


def read_file(data: bytes, suffix: str) -> object:
    """Load ``data`` as a puzzle file of type ``suffix``: a puzzle, or a PuzzleError."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"p{suffix}"
        path.write_bytes(data)
        try:
            return load_puzzle(str(path), precheck=True)
        except PuzzleError as exc:
            assert str(exc).strip() and "\n" not in str(exc).strip(), str(exc)
            return exc


@given(st.binary(max_size=300), st.sampled_from(PUZZLE_EXTENSIONS))
def test_random_bytes_in_any_puzzle_file_are_a_puzzle_error(data, suffix):
    read_file(data, suffix)


# Pieces of valid puzzle files, joined at random and then damaged at random.
TOML_LINES = [
    "[board]", "size = [3, 4]", "size = [2, 2]", "size = [0, 3]", "size = [2, 2, 2]",
    "size = [1000000, 1000000]", "size = []", 'size = "3x4"', "holes = [[0, 0]]",
    "holes = [[9, 9]]", "holes = [[0]]", 'picture = "##\\n#."', 'picture = ""', "hole = 'search'",
    "[[pieces]]", 'set = "trominoes"', 'set = "dominoes"', 'set = "nothing"',
    'only = ["I3"]', 'only = "I3"', "only = [1]", 'name = "A"', 'name = "A B"',
    'picture = "##"', 'picture = "#.#"', "cells = [[0, 0], [0, 1]]", "cells = [[0]]",
    "cells = [[0, 0, 0], [0, 1]]", "count = 2", "count = -1", "max = 3", "max = true",
    "flip = false", "flip = 2", 'cover = "pack"', 'cover = "full"', 'touch = "none"',
    'touch_encoding = "pairs"', 'apart = ["A"]', "apart = 3", "frames = 2", "frames = 0",
    'method = "dive"', 'kind = "frames"', 'kind = "sudoku"', 'title = "t"', "[other]", "",
]
NON_LINES = ["width 2", "height 2", "width 0", "height x", "rows", "columns", "1", "1,1",
             "2", "0", "1 x", "-1", "goal 1001", "goal 10", 'title "t"', "catalogue c",
             "foo 3", ""]
NIN_LINES = ["2 2", "3 1", "0 2", "1", "1 1", "2", "x", "-1", "", "9999999999999999999999"]
CLUES_LINES = ["rows:", "columns:", "cols:", "title: t", "rows: 1", "1", "1 1", "2", "0",
               "-", "x", "# note", ""]
SUDOKU_LINES = ["1234341221434321", "1.3." + "." * 12, "." * 81, "1" * 81, "x" * 16, "12",
                "# comment", "", "0" * 256, "." * 625, "A" * 16]
KENKEN_LINES = ["size 4", "size 2", "size 0", "size x", "title t", "A A B B", "A B", "A A",
                "C C D D", "A 3+", "B 2/", "C 12*", "D 1-", "A 5", "B 0+", "Z 2", "# note", ""]
LINES = {".toml": TOML_LINES, ".non": NON_LINES, ".nin": NIN_LINES, ".clues": CLUES_LINES,
         ".sudoku": SUDOKU_LINES, ".kenken": KENKEN_LINES}


@st.composite
def damaged_files(draw) -> tuple[bytes, str]:
    suffix = draw(st.sampled_from(PUZZLE_EXTENSIONS))
    lines = draw(st.lists(st.sampled_from(LINES[suffix]), max_size=14))
    data = bytearray("\n".join(lines).encode())
    for _ in range(draw(st.integers(0, 3))):  # a few bytes changed, dropped or added
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["insert", "delete", "replace"]))
        byte = draw(st.integers(0, 255))
        if how == "insert" or at == len(data):
            data[at:at] = bytes([byte])
        elif how == "delete":
            del data[at]
        else:
            data[at] = byte
    return bytes(data), suffix


@given(damaged_files())
def test_damaged_puzzle_files_are_a_puzzle_or_a_puzzle_error(file):
    data, suffix = file
    puzzle = read_file(data, suffix)
    if getattr(puzzle, "family", "") in ("tiling", "nonogram"):
        puzzle.build_model()  # what was read is a puzzle the model builder accepts


@given(st.binary(max_size=300))
def test_random_bytes_as_a_cnf_or_a_solver_answer_are_read_or_a_one_line_error(data):
    # Any other exception fails the test: bad input must never become a traceback.
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "x"
        path.write_bytes(data)
        for reader in (read_cnf, read_output):
            try:
                reader(path)
            except PuzzleError as exc:
                assert str(exc).strip() and "\n" not in str(exc).strip(), str(exc)


# -- random models against brute force --------------------------------------------------------

SEEDS = st.integers(min_value=10_000, max_value=2**31)  # beyond the seeds test_model tries


@pytest.mark.parametrize("backend", ANY_MODEL_BACKENDS)
@given(seed=SEEDS)
def test_random_rich_models_agree_with_brute_force(backend, seed):
    model, checks = random_rich_model(seed)
    assert_agrees_with(brute_force_solutions(model, checks), backend, model)


@pytest.mark.parametrize("backend", COVER_BACKENDS)
@given(seed=SEEDS)
def test_random_cover_models_agree_with_brute_force(backend, seed):
    model, checks = random_cover_model(seed)
    assert_agrees_with(brute_force_solutions(model, checks), backend, model)


def test_exact_cover_keeps_a_zero_cap():
    # Found by the property test above (seed 25381): a cardinality allowing none of its
    # rows was ignored.
    m = Model("zero cap")
    a, b, c = m.new_bools(3, user=True, names=list("abc")).tolist()
    m.add_exactly_one([[a, b, c]])
    m.add_cardinality([[a, b]], "<=", 0)
    assert solutions_of("exact-cover", m) == {(False, False, True)}


# -- decode never accepts an assignment that violates the CNF ---------------------------------

def satisfies(clauses: list[list[int]], true: set[int]) -> bool:
    return all(any((lit > 0) == (abs(lit) in true) for lit in clause) for clause in clauses)


@st.composite
def answers(draw) -> tuple[int, str, list[int]]:
    """A random model's seed and an answer to its CNF: a true one (from a SAT solver, with
    random phases), damaged or not, or a random assignment, in either output format."""
    from pysat.solvers import Solver

    seed = draw(st.integers(0, 10_000))
    model, _ = random_rich_model(seed)
    cnf = to_cnf(model)
    n = cnf.num_vars
    phases = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    with Solver(name="minisat22", bootstrap_with=cnf.as_lists()) as s:
        s.set_phases([v if p else -v for v, p in zip(range(1, n + 1), phases, strict=True)])
        found = s.get_model() if s.solve() else None
    if found is None or draw(st.booleans()):
        lits = [v if p else -v for v, p in zip(range(1, n + 1), phases, strict=True)]
    else:
        lits = list(found)
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.sampled_from(["flip", "drop", "add", "beyond"]))
        i = draw(st.integers(0, max(len(lits) - 1, 0)))
        if how == "flip" and lits:
            lits[i] = -lits[i]
        elif how == "drop" and lits:
            del lits[i]
        elif how == "add" and lits:
            lits.append(-lits[i])
        elif how == "beyond":
            lits.append(draw(st.sampled_from([n + 1, -(n + 5), 10**9])))
    minisat = draw(st.booleans())
    head = "SAT\n" if minisat else "s SATISFIABLE\nv "
    closing = draw(st.sampled_from([" 0\n", " 0\n", "\n"]))
    return seed, head + " ".join(map(str, lits)) + closing, lits


@given(answers())
def test_decode_never_accepts_an_assignment_that_violates_the_cnf(answer):
    seed, text, lits = answer
    model, _ = random_rich_model(seed)
    clauses = to_cnf(model).as_lists()
    with tempfile.TemporaryDirectory() as d:
        cnf_path, out_path = Path(d) / "m.cnf", Path(d) / "m.out"
        write_dimacs(model, cnf_path)
        out_path.write_text(text)
        try:
            status, values = decode_answer(model, cnf_path, out_path)
        except PuzzleError as exc:
            event("refused: " + re.sub(r"-?\d+", "N", str(exc).split(": ", 1)[-1])[:30])
            return  # refused: fine, whatever the reason
    event("accepted")
    true = {x for x in lits if x > 0}
    assert status is Status.SAT
    assert satisfies(clauses, true), "an assignment that violates the CNF was accepted"
    assert not {-x for x in lits} & set(lits), "a variable both true and false was accepted"
    assert values.tolist() == [int(v) in true for v in model.user_vars.tolist()]


def test_decode_accepts_a_true_answer():
    from pysat.solvers import Solver

    accepted = 0
    for seed in range(8):  # the satisfiable ones among a few random models
        model, _ = random_rich_model(seed)
        with Solver(name="minisat22", bootstrap_with=to_cnf(model).as_lists()) as s:
            if not s.solve():
                continue
            lits = s.get_model()
        accepted += decoded(model, lits) is Status.SAT
    assert accepted >= 3


def decoded(model: Model, lits: list[int]) -> Status:
    with tempfile.TemporaryDirectory() as d:
        cnf_path, out_path = Path(d) / "m.cnf", Path(d) / "m.out"
        write_dimacs(model, cnf_path)
        out_path.write_text("s SATISFIABLE\nv " + " ".join(map(str, lits)) + " 0\n")
        return decode_answer(model, cnf_path, out_path)[0]


# -- count = raw solutions divided into symmetry orbits ---------------------------------------

PIECES = {"I2": "##", "I3": "###", "L3": "##\n#.", "O4": "##\n##", "T4": "###\n.#.",
          "S4": ".##\n##.", "L4": "###\n#.."}


@st.composite
def small_tilings(draw) -> str:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    holes = draw(st.lists(st.sampled_from(cells), max_size=2, unique=True))
    names = draw(st.lists(st.sampled_from(sorted(PIECES)), min_size=1, max_size=3,
                          unique=True))
    cover = draw(st.sampled_from(["exact", "exact", "pack"]))
    text = (f'cover = "{cover}"\n[board]\nsize = [{rows}, {cols}]\n'
            f"holes = {[list(h) for h in holes]}\n")
    for name in names:
        picture = PIECES[name].replace("\n", "\\n")
        how = draw(st.sampled_from(["count", "max"]))
        most = 2 if cover == "pack" else 4
        text += (f'\n[[pieces]]\nname = "{name}"\npicture = "{picture}"\n'
                 f"{how} = {draw(st.integers(1, most))}\n")
    return text


def mask_symmetries(mask: np.ndarray) -> list:
    """The maps of (row, column) of the 8 rotations and reflections of the cells' bounding
    box that keep the board's cells, in the box's frame (holes along an edge make a smaller
    board: two columns of a 2x3 box are a square). Independent of the code under test."""
    rows, cols = np.nonzero(mask)
    r0, c0 = int(rows.min()), int(cols.min())
    h, w = int(rows.max()) - r0 + 1, int(cols.max()) - c0 + 1
    maps = [lambda r, c: (r, c), lambda r, c: (h - 1 - r, w - 1 - c),
            lambda r, c: (h - 1 - r, c), lambda r, c: (r, w - 1 - c)]
    if h == w:
        maps += [lambda r, c: (c, r), lambda r, c: (w - 1 - c, h - 1 - r),
                 lambda r, c: (c, h - 1 - r), lambda r, c: (w - 1 - c, r)]
    boxed = [lambda r, c, g=g: g(r - r0, c - c0) for g in maps]
    cells = {tuple(x) for x in np.argwhere(mask).tolist()}
    return [f for f in boxed if {f(*x) for x in cells} == {boxed[0](*x) for x in cells}]


@given(small_tilings())
def test_count_is_the_number_of_orbits_of_the_raw_solutions(text):
    from smtpuzzle.puzzles.tiling.counting import count
    from smtpuzzle.puzzles.tiling.solve import list_tilings

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.toml"
        path.write_text(text)
        try:
            tiling = load_puzzle(str(path))
        except PuzzleError:
            assume(False)
    listing = list_tilings(tiling, "exact-cover", limit=3000)
    assume(listing.complete)
    event(f"{'no' if not listing.count else 'some'} solutions")
    raw = [frozenset((p.piece, frozenset(p.cells)) for p in s.placements)
           for s in listing.solutions]
    assert len(set(raw)) == len(raw)
    symmetries = mask_symmetries(tiling.board.mask)

    def canonical(solution) -> tuple:
        return min(tuple(sorted((name, tuple(sorted(f(*c) for c in cells)))
                                for name, cells in solution)) for f in symmetries)

    orbits = len({canonical(s) for s in raw})
    assert count(tiling, "exact-cover", distinct=False).count == len(raw)
    assert count(tiling, "exact-cover", distinct=True).count == orbits


def test_the_orbit_check_sees_symmetric_boards():
    # 2x2 with two dominoes: 2 raw solutions, one class under the square's symmetries.
    mask = np.ones((2, 2), dtype=bool)
    assert len(mask_symmetries(mask)) == 8
    assert len(mask_symmetries(np.array([[1, 1, 0]], dtype=bool))) == 4  # a 1x2 board
    assert len(mask_symmetries(np.array([[1, 1, 1]], dtype=bool))) == 4
    assert len(mask_symmetries(np.array([[1, 0, 1]], dtype=bool))) == 4
    assert len(mask_symmetries(np.array([[1, 1, 0], [1, 0, 0]], dtype=bool))) == 2
    # Holes down one side leave a square (found by hypothesis: two dominoes, one class).
    assert len(mask_symmetries(np.array([[0, 1, 1], [0, 1, 1]], dtype=bool))) == 8
    assert mask_symmetries(mask)[0](0, 1) == (0, 1)  # the identity first
