"""The README stays true: its Python example and every command it shows run as written."""

import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import ROOT, cli_chains, forked_chains

README = (ROOT / "README.md").read_text()


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.DOTALL)


def test_python_examples_run_and_print_what_they_say():
    code = blocks("python")
    assert len(code) == 8

    def block_run(block: str) -> Callable[[], None]:
        return lambda: exec(compile(block, "README.md", "exec"), {"__name__": "__main__"})

    out = []
    for [p] in forked_chains([[block_run(block)] for block in code], ROOT):
        assert p.returncode == 0, p.stderr
        out.append(p.stdout)
    session, tiling, grids, edges, nonogram, maze, own, reach = out
    assert own.splitlines() == [f"{b} sat [9, 5, 6, 7, 1, 0, 8, 2] True"
                                for b in ("cpsat", "z3", "sat")]
    first, verdict, core = session.splitlines()
    assert first.startswith("sat [True, ") and first.count("True") == 2
    assert verdict == "unsat" and core == "[2, 3]"
    assert "cpsat sat" in tiling and "z3 sat" in tiling
    assert grids.strip() == "156"
    assert edges.splitlines() == ["60 16", "72"]
    assert nonogram.splitlines() == ["multiple [['#.', '.#'], ['.#', '#.']]", "multiple",
                                     "[['rb', 'bb']]"]
    assert maze.splitlines() == ["10 True NESWNENWSEN", "unsat", "20 verified"]
    assert reach.splitlines() == ["optimal 9", "SolutionCount(count=22, complete=True)"]


def commented_lines() -> list[tuple[str, str]]:
    """Each ``smtpuzzle`` command in the README's shell blocks, with its comment."""
    lines = []
    for block in blocks("sh"):
        for line in block.splitlines():
            command, _, comment = line.partition("  #")
            if command.strip().startswith("smtpuzzle "):
                lines.append((command.strip(), comment.strip()))
    return lines


def command_lines() -> list[str]:
    return [command for command, _ in commented_lines()]


def _claims(comment: str) -> tuple[str, list[str]]:
    """What a command's comment promises, to look for: the number it opens with (in
    stdout, commas dropped), or the parts of an ``error: ... text ...`` (in stderr)."""
    if comment.startswith("error:"):
        return "stderr", [p.strip() for p in comment[len("error:"):].split("...") if p.strip()]
    number = re.match(r"(?:the reduced set: )?(\d[\d,]*)\b", comment)
    return "stdout", [number[1].replace(",", "")] if number else []


def _chains(lines: list[str]) -> list[list[str]]:
    """The commands in groups that run in order: ``solve-cnf`` and ``decode`` read what
    ``export-cnf`` and ``solve-cnf`` wrote, a ``frames`` run reads the sets that the one
    before cached, the bench runs write the same files, and ``maze check-bound`` reads the
    certificate ``maze bound`` wrote; every other command stands alone."""
    chains: dict[str, list[str]] = {}
    for i, line in enumerate(lines):
        words = shlex.split(line)
        verb = words[2] if words[1] == "maze" else words[1]
        key = {"export-cnf": "cnf", "solve-cnf": "cnf", "decode": "cnf",
               "check-bound": "bound"}.get(verb, verb)
        key = key if key in ("cnf", "frames", "bench", "bound") else str(i)
        chains.setdefault(key, []).append(line)
    return list(chains.values())


def _args(line: str) -> list[str]:
    """A command's arguments; files the README names live in the repository."""
    args = shlex.split(line)[1:]
    return [str(ROOT / a) if a.startswith("models/") else a for a in args]


# The README's commands that take 3 s or more (the maze research runs, frames' stages, the
# largest Untouchable, a Ray instance's start, the bench): run with --runslow, with all the
# rest.
EXPENSIVE = ("maze build --size 3x4", "maze bound --time-limit", "maze shorten",
             "--strategy local", "--ray local", "bench --suite", "bench quick",
             "frames pentahex-6x9x5", "frames hexomino-6x6x6", "untouchable-11-6x24")


def test_every_cheap_smtpuzzle_command_in_the_readme_runs(tmp_path):
    lines = command_lines()
    cheap = [line for line in lines if not any(e in line for e in EXPENSIVE)]
    assert len(lines) >= 8 and len(lines) - len(cheap) == 11
    run_and_check(cheap, tmp_path)


@pytest.mark.slow
def test_every_smtpuzzle_command_in_the_readme_runs(tmp_path):
    run_and_check(command_lines(), tmp_path)


def run_and_check(lines: list[str], tmp_path: Path) -> None:
    """Each command runs (in the chains of commands that depend on each other), exits 0
    (2 for the README's examples of refusals) and prints what its comment promises."""
    chains = _chains(lines)
    # Each in a process forked from this one (cli_chains): the same command line in a
    # process of its own, without a fresh interpreter's imports each time; two at a time.
    runs = cli_chains([[_args(line) for line in chain] for chain in chains], tmp_path)
    results = [(line, p.returncode, p.stdout, p.stderr)
               for chain, ps in zip(chains, runs, strict=True)
               for line, p in zip(chain, ps, strict=True)]
    assert [line for line, *_ in results] == [x for c in chains for x in c]
    comments = dict(commented_lines())
    checked = 0
    for line, code, stdout, stderr in results:
        expected = 2 if "pentomino-2x30" in line or "6x9-trapezoid" in line else 0
        assert code == expected, (line, stderr)
        where, claims = _claims(comments[line])
        text = (stdout if where == "stdout" else stderr).replace(",", "")
        for claim in claims:
            assert claim.replace(",", "") in text, (line, claim, text[:500])
            checked += 1
    assert checked >= 4  # 2339, 156, 10,772 and the 2x30 error
