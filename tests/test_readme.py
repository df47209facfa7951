"""The README stays true: its Python example and every command it shows run as written."""

import re
import shlex
import subprocess
import sys

from pysat.formula import CNF
from pysat.solvers import Solver

from tests.helpers import ROOT, cli

README = (ROOT / "README.md").read_text()


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.DOTALL)


def test_python_example_runs():
    code = blocks("python")
    assert code
    for block in code:
        p = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True,
                           text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        assert "cpsat sat" in p.stdout and "z3 sat" in p.stdout


def command_lines() -> list[str]:
    lines = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("smtpuzzle "):
                lines.append(line)
    return lines


def test_every_smtpuzzle_command_in_the_readme_runs(tmp_path):
    lines = command_lines()
    assert len(lines) >= 8
    for line in lines:
        args = shlex.split(line)[1:]
        for i, a in enumerate(args):  # files the README names live in the repository
            if a.startswith("models/"):
                args[i] = str(ROOT / a)
        if args[0] == "decode":  # stands for "run any SAT solver on soma.cnf"
            with Solver(name="glucose4",
                        bootstrap_with=CNF(from_file=str(tmp_path / "soma.cnf")).clauses) as s:
                assert s.solve()
                (tmp_path / "soma.out").write_text(
                    "s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
        p = cli(*args, cwd=tmp_path)
        expected = 2 if "pentomino-2x30" in line else 0
        assert p.returncode == expected, (line, p.stderr)
