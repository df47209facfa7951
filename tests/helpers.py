"""Helpers shared by the tests: running the command line as a user would, and the sets of
back ends that the fixtures in conftest.py run tests on."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A Sudoku of Norvig's top95 (the first in models/sudoku/norvig-top95.sudoku): unique.
HARDEST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

# The back ends that take any model (integers, implications, automata, auxiliary variables).
ANY_MODEL_BACKENDS = ("cpsat", "sat", "z3")
# The back ends that take pure cover models: the ones above and the exact-cover engine.
COVER_BACKENDS = ("exact-cover", *ANY_MODEL_BACKENDS)
# PySAT solvers the tests try by name (kissat404 is not incremental: each further solution
# gets a new solver).
PYSAT_SOLVERS = ("cadical195", "glucose4", "minisat22", "kissat404")
# (back end, solver) pairs for the model-level tests: every back end, the sat back end with
# a few PySAT solvers and z3 with both solver kinds.
SOLVER_VARIANTS = (("cpsat", None), ("sat", None), ("sat", "minisat22"), ("sat", "kissat404"),
                   ("z3", None), ("z3", "qffd"))


def variant_id(variant: tuple[str, str | None]) -> str:
    """``sat:minisat22`` for ("sat", "minisat22"), ``cpsat`` for ("cpsat", None)."""
    name, solver = variant
    return name if solver is None else f"{name}:{solver}"


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``smtpuzzle ARGS`` in a fresh interpreter; output captured as text."""
    return subprocess.run([sys.executable, "-m", "smtpuzzle", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
