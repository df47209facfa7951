"""Numba kernels run as plain Python on small inputs (smtpuzzle/kernels.py): the two forms
must agree, and a small puzzle must not load numba at all."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from smtpuzzle.kernels import compile_kernels
from smtpuzzle.puzzles.nonogram import beliefs as beliefs_module
from smtpuzzle.puzzles.nonogram import linesolve
from smtpuzzle.puzzles.nonogram.puzzle import Nonogram, line_runs
from tests.helpers import ROOT

MODULES = (linesolve, beliefs_module)


def random_nonogram(h: int, w: int, seed: int, density: float) -> Nonogram:
    grid = np.random.default_rng(seed).random((h, w)) < density
    lines = ["".join("#" if v else "." for v in row) for row in grid]
    cols = ["".join(r[j] for r in lines) for j in range(w)]
    return Nonogram(rows=[line_runs(r) for r in lines], cols=[line_runs(c) for c in cols])


def plain(value):
    return getattr(value, "py_func", value)


def answers(puzzle: Nonogram):
    pre = linesolve.presolve(puzzle)
    belief = beliefs_module.beliefs(puzzle, pre.grid)
    return pre.grid.copy(), pre.line_known, pre.contradiction, belief


PUZZLES = [random_nonogram(h, w, seed, d) for h, w, seed, d in
           [(5, 10, 1, 0.5), (8, 8, 2, 0.35), (10, 12, 3, 0.45), (12, 12, 4, 0.3),
            (15, 9, 5, 0.55), (6, 6, 6, 0.2)]]


def test_python_and_compiled_kernels_agree(monkeypatch):
    for module in MODULES:
        compile_kernels(module.__name__)
    compiled = [answers(p) for p in PUZZLES]
    with monkeypatch.context() as m:
        for module in MODULES:
            for name, value in list(vars(module).items()):
                if getattr(plain(value), "__smtpuzzle_kernel__", False):
                    m.setattr(module, name, plain(value))
        assert not hasattr(linesolve._probe, "py_func")  # plain Python now
        python = [answers(p) for p in PUZZLES]
    assert any(c[1] < c[0].size for c in compiled)  # some need probing
    for (g1, k1, c1, b1), (g2, k2, c2, b2) in zip(compiled, python, strict=True):
        assert (g1 == g2).all() and k1 == k2 and c1 == c2
        assert (b1 is None) == (b2 is None)
        assert b1 is None or np.allclose(b1, b2)


def test_a_small_nonogram_is_solved_without_loading_numba(tmp_path):
    path = tmp_path / "tiny.clues"
    path.write_text("rows:\n1\n1\ncolumns:\n1\n1\n")
    code = ("import sys\nfrom smtpuzzle.cli.app import run\n"
            f"code = run(['solve', {str(path)!r}])\n"
            "assert code == 0, code\nassert 'numba' not in sys.modules, 'numba was loaded'\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert "multiple" in p.stdout


def test_a_large_nonogram_compiles_the_kernels():
    puzzle = random_nonogram(20, 21, 7, 0.5)
    assert puzzle.height * puzzle.width > linesolve.LARGEST_IN_PYTHON
    linesolve.presolve(puzzle)
    assert hasattr(linesolve._probe, "py_func")  # numba's dispatcher
