"""The modelling examples of models/examples/ run as written and print their known answers
(each checks its solution against the puzzle's rules itself)."""

from __future__ import annotations

import runpy
import sys

import pytest

from tests.helpers import ROOT

EXAMPLES = {"job_shop.py": "optimal makespan 55", "killer_sudoku.py": "unique",
            "slitherlink.py": "unique"}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_example_prints_its_known_answer(name, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", [name, "cpsat"])
    runpy.run_path(str(ROOT / "models" / "examples" / name), run_name="__main__")
    assert capsys.readouterr().out.splitlines()[0] == EXAMPLES[name]


def test_every_example_is_tested():
    assert sorted(p.name for p in (ROOT / "models" / "examples").glob("*.py")) == \
        sorted(EXAMPLES)
