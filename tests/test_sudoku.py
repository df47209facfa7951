"""The shipped hard-Sudoku sets (models/sudoku/, sources in its README.md): every puzzle
loads, has exactly one solution (uniqueness proven, not just one found) and that solution
passes the independent verifier; cpsat, sat and z3 agree on a few. The full sets are slow
(run with --runslow); a few representatives run by default."""

from __future__ import annotations

import numpy as np
import pytest

from smtpuzzle.errors import VerificationError
from smtpuzzle.formats.sudoku import load_sudokus, parse_line
from smtpuzzle.puzzles.sudoku.puzzle import Sudoku
from smtpuzzle.puzzles.sudoku.solve import solve_sudoku
from smtpuzzle.result import Status
from tests.helpers import ANY_MODEL_BACKENDS, ROOT

SETS = ROOT / "models" / "sudoku"
# file name -> (number of puzzles, side of the grid), as README.md lists them
SHIPPED = {"norvig-top95.sudoku": (95, 9), "norvig-hardest.sudoku": (11, 9),
           "royle-17clue-first40.sudoku": (40, 9), "janko-16x16.sudoku": (12, 16)}
# The solution Norvig's essay prints for its "grid2", the first line of top95.txt.
TOP95_FIRST = ("417369825632158947958724316825437169791586432346912758289643571573291684"
               "164875293")


def _puzzles(name: str) -> list[Sudoku]:
    return load_sudokus(SETS / name)


def _assert_unique(puzzle: Sudoku, backend: str = "cpsat") -> np.ndarray:
    ans = solve_sudoku(puzzle, backend, time_limit=300)
    assert ans.status is Status.UNIQUE, (puzzle.name, ans.status)
    assert ans.complete and len(ans.solutions) == 1
    grid = ans.solutions[0]
    puzzle.verify(grid)  # again, outside solve_sudoku: the verifier is the judge
    assert grid.shape == puzzle.givens.shape
    given = puzzle.givens > 0
    assert (grid[given] == puzzle.givens[given]).all()
    return grid


def test_every_shipped_set_is_listed_and_loads_with_its_count():
    on_disk = {p.name for p in SETS.glob("*.sudoku")}
    assert on_disk == set(SHIPPED)
    readme = (SETS / "README.md").read_text(encoding="utf-8")
    for name, (count, side) in SHIPPED.items():
        puzzles = _puzzles(name)
        assert len(puzzles) == count, name
        assert all(p.givens.shape == (side, side) for p in puzzles), name
        assert name in readme
        lines = {p.givens.tobytes() for p in puzzles}
        assert len(lines) == count, f"{name}: a puzzle appears twice"


def test_the_17_clue_sample_has_17_givens_each():
    assert {int((p.givens > 0).sum()) for p in _puzzles("royle-17clue-first40.sudoku")} == {17}


def test_norvigs_first_top95_puzzle_has_his_published_solution():
    grid = _assert_unique(_puzzles("norvig-top95.sudoku")[0])
    assert "".join(map(str, grid.ravel().tolist())) == TOP95_FIRST


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_first_puzzle_of_each_set_is_unique_and_verified(name):
    _assert_unique(_puzzles(name)[0])


@pytest.mark.parametrize("name, index", [("norvig-hardest.sudoku", 1),
                                         ("royle-17clue-first40.sudoku", 4)])
def test_back_ends_agree_on_a_few(name, index):
    puzzle = _puzzles(name)[index]
    grids = [_assert_unique(puzzle, backend) for backend in ANY_MODEL_BACKENDS]
    for grid in grids[1:]:
        assert np.array_equal(grid, grids[0])


def test_the_verifier_rejects_a_broken_solution():
    puzzle = _puzzles("norvig-hardest.sudoku")[0]
    grid = _assert_unique(puzzle).copy()
    blank = np.argwhere(puzzle.givens == 0)
    (r1, c1), (r2, c2) = [tuple(b) for b in blank[:2]]
    assert r1 == r2  # two blanks of one row: swapping them keeps the row a permutation
    grid[r1, c1], grid[r2, c2] = grid[r2, c2], grid[r1, c1]
    with pytest.raises(VerificationError):
        puzzle.verify(grid)


def test_a_puzzle_without_a_solution_and_one_with_many():
    givens = np.zeros((9, 9), dtype=np.int64)
    assert solve_sudoku(Sudoku(givens.copy(), "empty")).status is Status.MULTIPLE
    givens[0, :2] = 5  # two 5s in one row
    assert solve_sudoku(Sudoku(givens, "clash")).status is Status.NONE


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_puzzle_of_the_set_is_unique_and_verified(name):
    for puzzle in _puzzles(name):
        _assert_unique(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sat", "z3"])
def test_other_back_ends_agree_on_the_hardest_set(backend):
    for puzzle in _puzzles("norvig-hardest.sudoku"):
        assert np.array_equal(_assert_unique(puzzle, backend), _assert_unique(puzzle))


def test_odd_characters_and_a_tab_before_the_name(tmp_path):
    from smtpuzzle.errors import PuzzleError
    from smtpuzzle.formats.sudoku import parse_line

    with pytest.raises(PuzzleError, match="cell 1: 'ﬀ' is not a value"):
        parse_line("\ufb00" + "." * 79 + "1", "ligature")  # upper-cases to two letters
    with pytest.raises(PuzzleError, match="this one 0"):
        parse_line("", "empty")
    assert parse_line("." * 81 + "\tnamed", "tab").name == "named"



def test_a_search_stopped_by_ctrl_c_is_unknown_and_says_so_in_its_json(monkeypatch):
    puzzle = _puzzles("norvig-hardest.sudoku")[0]

    def cut(self, grid):
        raise KeyboardInterrupt  # Ctrl-C as the first solution is checked

    monkeypatch.setattr(Sudoku, "verify", cut)
    ans = solve_sudoku(puzzle, "cpsat", time_limit=300)
    assert ans.status is Status.UNKNOWN and not ans.complete and ans.solutions == []
    assert ans.interrupted and ans.as_json()["interrupted"] is True


CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def _question(tmp_path, line: str, *options: str) -> dict:
    import json

    from typer.testing import CliRunner

    from smtpuzzle.cli.app import app

    path = tmp_path / "q.sudoku"
    path.write_text(line + "\n")
    done = CliRunner().invoke(app, ["solve", str(path), "--json", *options])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_determined_cells_are_those_every_solution_agrees_on(tmp_path, backend):
    line = CLASSIC[:-9] + "." * 9  # the last row's givens gone: several solutions
    data = _question(tmp_path, line, "--determined", "--backend", backend)
    answer = solve_sudoku(parse_line(line, "q"), limit=None)
    assert answer.complete and len(answer.solutions) > 1
    stack = np.stack(answer.solutions)
    agreed = (stack == stack[0]).all(axis=0)
    want = np.where(agreed, stack[0], None).tolist()
    assert data["determined"] == want and data["forced"] == int(agreed.sum()) < 81


def test_explain_names_a_minimal_set_of_conflicting_givens(tmp_path):
    line = CLASSIC[:2] + "1" + CLASSIC[3:]  # r1c3 is 4 in the one solution
    data = _question(tmp_path, line, "--explain")
    assert data["status"] == "none" and "r1c3=1" in data["conflict"]
    givens = {name: int(name.split("=")[1]) for name in data["conflict"]}

    def solvable(names) -> bool:
        grid = ["."] * 81
        for name in names:
            r, c = (int(v) for v in name[1:].split("=")[0].split("c"))
            grid[(r - 1) * 9 + c - 1] = str(givens[name])
        return solve_sudoku(parse_line("".join(grid), "q"), limit=1).status != "none"

    assert not solvable(givens)
    assert all(solvable([n for n in givens if n != name]) for name in givens)
    # a puzzle with a solution has nothing to explain
    assert _question(tmp_path, CLASSIC, "--explain")["status"] == "sat"
