"""The registry of puzzle families: the library finds, lists and loads a family's files by
what it registered, so a new family is its package plus one registration."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smtpuzzle import AllDifferent, Model, PuzzleError, VerificationError
from smtpuzzle.families import FAMILIES, Family, family_of, register
from smtpuzzle.library import list_models, load_puzzle
from smtpuzzle.puzzles.grid_answer import GridAnswer, decide_grid


def load_words(path: Path) -> list[str]:
    """A toy family's loader: the words of the file."""
    return path.read_text().split()


def first_word(path: Path) -> str:
    return path.read_text().split()[0]


@pytest.fixture
def words_family(tmp_path, monkeypatch):
    register(Family("words", "words", (".words",), "words", f"{__name__}:load_words",
                    f"{__name__}:first_word", "own"))
    (tmp_path / "words").mkdir()
    (tmp_path / "words" / "hello.words").write_text("Hello world\n")
    monkeypatch.setenv("SMTPUZZLE_MODELS", str(tmp_path))
    yield tmp_path
    del FAMILIES["words"]


def test_a_registered_family_is_listed_found_by_name_and_loaded(words_family):
    entry = next(e for e in list_models() if e.name == "hello")
    assert entry.title == "Hello" and entry.path.suffix == ".words"
    assert load_puzzle("hello") == ["Hello", "world"]
    assert load_puzzle(str(words_family / "words" / "hello.words")) == ["Hello", "world"]
    assert family_of(Path("x.WORDS")).name == "words"


def test_an_unknown_suffix_names_every_registered_one(tmp_path):
    (tmp_path / "p.xyz").write_text("x")
    with pytest.raises(PuzzleError, match=r"unknown puzzle file type '.xyz' \(known: .toml, "
                       r".non, .nin, .clues, .xml, .sudoku, .kenken, .akari, "):
        load_puzzle(str(tmp_path / "p.xyz"))


def test_a_suffix_or_a_name_taken_twice_is_refused():
    with pytest.raises(ValueError, match="the suffix .non is taken"):
        register(Family("other", "others", (".non",), "x", "m:f", "m:g", "own"))
    with pytest.raises(ValueError, match="'sudoku' is registered already"):
        register(Family("sudoku", "Sudoku", (".sdk",), "x", "m:f", "m:g", "own"))
    with pytest.raises(ValueError, match="treatment 'magic' is none of"):
        Family("x", "xs", (".x",), "x", "m:f", "m:g", "magic")
    with pytest.raises(ValueError, match="a grid family names its solver"):
        Family("x", "xs", (".x",), "x", "m:f", "m:g", "grid")


class Latin:
    """A toy grid family: fill an n x n square so that each row and column holds 1..n once,
    some cells given (0 = empty)."""

    family = "latin"

    def __init__(self, name: str, givens: np.ndarray) -> None:
        self.name, self.givens = name, givens

    def build(self):
        n = len(self.givens)
        model = Model(self.name)
        cells = model.int_array((n, n), 1, n, name="cell")
        model.add(AllDifferent(cells, axis=0), AllDifferent(cells, axis=1))
        given = self.givens > 0
        model.add(cells[given] == self.givens[given])
        return model, cells

    def verify(self, grid: np.ndarray) -> None:
        n = len(self.givens)
        for lines in (grid, grid.T):
            if any(sorted(line) != list(range(1, n + 1)) for line in lines.tolist()):
                raise VerificationError("a row or column repeats a number")
        if ((self.givens > 0) & (grid != self.givens)).any():
            raise VerificationError("a given was changed")


def load_latin(path: Path) -> Latin:
    return Latin(path.stem, np.array([[int(c) for c in row] for row in
                                      path.read_text().split()]))


def decide_latin(puzzle: Latin, backend: str = "cpsat", solver: str | None = None,
                 time_limit: float | None = None, limit: int | None = 2) -> GridAnswer:
    return decide_grid(puzzle, GridAnswer, backend, solver, time_limit, limit)


def latin_text(_puzzle: Latin, grid: np.ndarray) -> str:
    return "\n".join("".join(map(str, row)) for row in grid.tolist()) + "\n"


@pytest.fixture
def latin_family(tmp_path, monkeypatch):
    register(Family("latin", "Latin squares", (".latin",), "latin", f"{__name__}:load_latin",
                    f"{__name__}:first_word", "grid", text=f"{__name__}:latin_text",
                    solver=f"{__name__}:decide_latin"))
    (tmp_path / "latin").mkdir()
    (tmp_path / "latin" / "square.latin").write_text("120\n000\n002\n")
    (tmp_path / "latin" / "open.latin").write_text("000\n000\n000\n")
    monkeypatch.setenv("SMTPUZZLE_MODELS", str(tmp_path))
    yield tmp_path
    del FAMILIES["latin"]


def test_a_registered_grid_family_is_solved_and_counted_by_the_command_line(latin_family):
    # No command-line code knows of Latin squares: the registration says how to treat them.
    from typer.testing import CliRunner

    from smtpuzzle.cli.app import app

    runner = CliRunner()
    done = runner.invoke(app, ["solve", "square"])
    assert done.exit_code == 0, done.output
    assert "unique" in done.output and "123\n231\n312" in done.output
    counted = runner.invoke(app, ["solve", "open", "--count", "--json"])
    data = json.loads(counted.output)
    assert data["status"] == "multiple" and data["count"] == 12 and data["complete"]
    refused = runner.invoke(app, ["solve", "square", "--encoding", "runs"])
    assert refused.exit_code == 2
    assert "--encoding: for nonograms only (square is a latin puzzle)" in refused.output
