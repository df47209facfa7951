"""The registry of puzzle families: the library finds, lists and loads a family's files by
what it registered, so a new family is its package plus one registration."""

from __future__ import annotations

from pathlib import Path

import pytest

from smtpuzzle import PuzzleError
from smtpuzzle.families import FAMILIES, Family, family_of, register
from smtpuzzle.library import list_models, load_puzzle


def load_words(path: Path) -> list[str]:
    """A toy family's loader: the words of the file."""
    return path.read_text().split()


def first_word(path: Path) -> str:
    return path.read_text().split()[0]


@pytest.fixture
def words_family(tmp_path, monkeypatch):
    register(Family("words", (".words",), "words", f"{__name__}:load_words",
                    f"{__name__}:first_word"))
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
                       r".non, .nin, .clues, .sudoku, .kenken\)"):
        load_puzzle(str(tmp_path / "p.xyz"))


def test_a_suffix_or_a_name_taken_twice_is_refused():
    with pytest.raises(ValueError, match="the suffix .non is taken"):
        register(Family("other", (".non",), "x", "m:f", "m:g"))
    with pytest.raises(ValueError, match="'sudoku' is registered already"):
        register(Family("sudoku", (".sdk",), "x", "m:f", "m:g"))
