"""The README stays true: its Python example and every command it shows run as written."""

import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pysat.formula import CNF
from pysat.solvers import Solver

from tests.helpers import ROOT, cli

README = (ROOT / "README.md").read_text()


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.DOTALL)


def test_python_examples_run_and_print_what_they_say():
    code = blocks("python")
    assert len(code) == 5
    out = []
    for block in code:
        p = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True,
                           text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        out.append(p.stdout)
    session, tiling, grids, nonogram, own = out
    assert own.splitlines() == [f"{b} sat [9, 5, 6, 7, 1, 0, 8, 2] True"
                                for b in ("cpsat", "z3", "sat")]
    first, verdict, core = session.splitlines()
    assert first.startswith("sat [True, ") and first.count("True") == 2
    assert verdict == "unsat" and core == "[2, 3]"
    assert "cpsat sat" in tiling and "z3 sat" in tiling
    assert grids.strip() == "156"
    assert nonogram.splitlines() == ["multiple [['#.', '.#'], ['.#', '#.']]", "multiple"]


def command_lines() -> list[str]:
    lines = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("smtpuzzle "):
                lines.append(line)
    return lines


def _chains(lines: list[str]) -> list[list[str]]:
    """The commands in groups that run in order: ``decode`` reads what ``export-cnf``
    wrote, a ``frames`` run reads the sets that the one before cached, the bench runs
    write the same files, and ``maze check-bound`` reads the certificate ``maze bound``
    wrote; every other command stands alone."""
    chains: dict[str, list[str]] = {}
    for i, line in enumerate(lines):
        words = shlex.split(line)
        verb = words[2] if words[1] == "maze" else words[1]
        key = {"export-cnf": "cnf", "decode": "cnf", "check-bound": "bound"}.get(verb, verb)
        key = key if key in ("cnf", "frames", "bench", "bound") else str(i)
        chains.setdefault(key, []).append(line)
    return list(chains.values())


def _run_chain(chain: list[str], cwd: Path) -> list[tuple[str, int, str]]:
    done = []
    for line in chain:
        args = shlex.split(line)[1:]
        for i, a in enumerate(args):  # files the README names live in the repository
            if a.startswith("models/"):
                args[i] = str(ROOT / a)
        if args[0] == "decode":  # stands for "run any SAT solver on soma.cnf"
            with Solver(name="glucose4",
                        bootstrap_with=CNF(from_file=str(cwd / "soma.cnf")).clauses) as s:
                assert s.solve()
                (cwd / "soma.out").write_text(
                    "s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
        p = cli(*args, cwd=cwd)
        done.append((line, p.returncode, p.stderr))
    return done


def test_every_smtpuzzle_command_in_the_readme_runs(tmp_path):
    lines = command_lines()
    assert len(lines) >= 8
    chains = _chains(lines)
    # Two at a time: most commands use one core, and this test is the suite's longest.
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = [r for chain in pool.map(lambda c: _run_chain(c, tmp_path), chains)
                   for r in chain]
    assert [line for line, _, _ in results] == [x for c in chains for x in c]
    for line, code, stderr in results:
        expected = 2 if "pentomino-2x30" in line else 0
        assert code == expected, (line, stderr)
