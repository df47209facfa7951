"""Lower bounds for the 3x3 maze string: the proof loop, certificates written and re-checked
from scratch, and tampered certificates rejected."""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.maze.bound.certificate import (
    CNF,
    JSON,
    check_certificate,
    encode,
    maze_moves,
    mirror_case,
    symmetry_closure,
    turn_case,
    write_certificate,
)
from smtpuzzle.puzzles.maze.bound.prove import prove_bound
from smtpuzzle.puzzles.maze.bound.resume import FORMAT, covers, load, load_cube
from smtpuzzle.puzzles.maze.cases import KNOWN_79, all_cases, check, walk
from smtpuzzle.puzzles.maze.mdd import samples
from tests.helpers import cli as run

MIRROR = str.maketrans("EW", "WE")


def _solves(maze: int, start: int, string: str) -> bool:
    """By the search's own checker (cases.py), not the certificate's code."""
    case = all_cases(3).subset(np.array([9 * maze + start]))
    return bool(walk(case, string)[0] == case.target[0])


def test_the_checkers_mazes_are_the_searchs_mazes():
    cases = all_cases(3)
    for maze in range(4096):
        assert np.array_equal(np.array(maze_moves(maze)), cases.moves(9 * maze))


def test_a_turned_string_solves_the_turned_case():
    rng = random.Random(7)
    turn = str.maketrans("NESW", "ESWN")
    for _ in range(2000):
        maze, start = rng.randrange(4096), rng.randrange(9)
        string = "".join(rng.choice("NESW") for _ in range(rng.randrange(5, 40)))
        assert _solves(maze, start, string) == _solves(*turn_case(maze, start),
                                                       string.translate(turn))
        assert _solves(maze, start, string) == _solves(*mirror_case(maze, start),
                                                       string.translate(MIRROR))
    assert len(symmetry_closure([(4095, 4)])) == 1  # the open maze from the centre
    assert len(symmetry_closure([(4095, 0)])) == 4
    assert len(symmetry_closure([(4095, 0)], mirror=True)) == 4  # its mirror is a turn
    path = (0b000011110011, 4)  # a path whose mirror images are not its turns
    assert len(symmetry_closure([path], mirror=True)) == 2 * len(symmetry_closure([path]))


def test_the_mirror_rule_keeps_exactly_the_strings_whose_first_e_or_w_is_e():
    from smtpuzzle.puzzles.maze.mdd import rule_diagram
    from smtpuzzle.puzzles.maze.rules import FLIP_RULE, MIRROR_RULE, mirror_rule

    assert mirror_rule(3) is MIRROR_RULE and mirror_rule("4x4") is MIRROR_RULE
    assert mirror_rule("2x4") is FLIP_RULE and mirror_rule("4x3") is FLIP_RULE
    for rule, patterns, ns in ((MIRROR_RULE, ("N*****", "NS**E*", "N**W**", "NNSS"), False),
                               (FLIP_RULE, ("******", "S*****", "*W****", "EN**", "NS**E*"),
                                True)):
        for pattern in patterns:
            strings = ["".join(p) for p in itertools.product(*[
                "NESW" if ch == "*" else ch for ch in pattern])]
            keep = [s for s in strings if s.replace("N", "").replace("S", "")[:1] in ("", "E")
                    and (not ns or s.replace("E", "").replace("W", "")[:1] in ("", "N"))]
            diagram = rule_diagram(pattern, rule)
            if not keep:
                assert diagram is None, pattern
                continue
            assert diagram.count_strings() == len(keep), pattern
            rows = diagram.sample(pattern, 200, np.random.default_rng(0))
            assert {"".join("NESW"[i] for i in r) for r in rows} <= set(keep)


def test_search_from_scratch_keeps_the_mirror_rule_in_every_back_end():
    # Letters alone (no case added): the search formula admits exactly the strings that
    # begin with N and obey the rule; from scratch, the strings found obey it too.
    from pysat.solvers import Solver

    from smtpuzzle.model import Groups
    from smtpuzzle.puzzles.maze.search import Encoder, search

    base = Groups.concat(Encoder("N" + "*" * 5, mirror=True).base())
    clauses = [base.flat[a:b].tolist()
               for a, b in zip(base.offsets[:-1], base.offsets[1:], strict=True)]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for rest in map("".join, itertools.product("NESW", repeat=5)):
            letters = [4 * t + "NESW".index(ch) + 1 for t, ch in enumerate("N" + rest)]
            want = rest.translate(str.maketrans("", "", "NS"))[:1] != "W"
            assert solver.solve(assumptions=letters) == want, rest
    for backend in (None, "sat"):  # the diagrams, and a solver
        found = search("*" * 11, "2x2", backend=backend)
        assert found.status == "sat" and found.mirror and found.searched == "N" + "*" * 10
        assert found.string.translate(str.maketrans("", "", "NS"))[0] == "E"
        assert search("*" * 10, "2x2", backend=backend).status == "unsat"
    # A rectangle's flip rule: its first N or S is N too; 2x3 needs 25 moves all the same.
    base = Groups.concat(Encoder("*" * 6, mirror=True).base())
    clauses = [base.flat[a:b].tolist()
               for a, b in zip(base.offsets[:-1], base.offsets[1:], strict=True)]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for string in map("".join, itertools.product("NESW", repeat=6)):
            letters = [4 * t + "NESW".index(ch) + 1 for t, ch in enumerate(string)]
            want = (string.translate(str.maketrans("", "", "NS"))[:1] != "W"
                    and string.translate(str.maketrans("", "", "EW"))[:1] != "S")
            assert solver.solve(assumptions=letters) == want, string
    # (the clauses above are the other back ends'; their searches of 25 moves take minutes)
    found = search("*" * 25, "2x3", "mdd")
    assert found.status == "sat" and found.mirror and found.searched == "*" * 25
    assert found.string.translate(str.maketrans("", "", "NS"))[0] == "E"
    assert found.string.translate(str.maketrans("", "", "EW"))[0] == "N"
    assert found.as_json()["first_n_or_s"] == "N"
    assert search("*" * 24, "2x3").status == "unsat"
    assert not search("S" + "*" * 24, "2x3").mirror  # a pattern given is searched as it is


def test_the_formula_holds_exactly_the_strings_that_solve_its_cases():
    # Brute force on short strings: every assignment of the letters, completed by unit
    # propagation of the states, satisfies the formula exactly when the string (first move
    # N) solves every case.
    from pysat.solvers import Solver

    # With the mirror rule, also exactly when the first E or W is an E.
    cases = symmetry_closure([(0b111111111111, 0), (0b000011110011, 4)])
    length = 7
    for mirror in (False, True):
        clauses = encode(length, cases, mirror).clauses.as_lists()
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            for rest in map("".join, itertools.product("NESW", repeat=length - 1)):
                string = "N" + rest
                letters = [4 * t + "NESW".index(ch) + 1 for t, ch in enumerate(string)]
                want = all(_solves(m, s, string) for m, s in cases) and (
                    not mirror or string.translate(str.maketrans("", "", "NS"))[:1] != "W")
                assert solver.solve(assumptions=letters) == want, string


RECTANGLES = [(2, 3), (3, 2), (2, 4), (3, 4), (4, 4)]


def _rect_solves(size: str, maze: int, start: int, string: str) -> bool:
    """By the search's own move tables (cases.py), not the certificate's code."""
    from smtpuzzle.puzzles.maze.cases import _thin_wall_table

    rows, cols = map(int, size.split("x"))
    moves = _thin_wall_table(np.array([maze]), rows, cols)[0].tolist()
    cell, seen = start, {start}
    for ch in string:
        cell = moves[cell]["NESW".index(ch)]
        seen.add(cell)
    return seen == _reached(moves, start)


def _reached(moves: list[list[int]], start: int) -> set[int]:
    """The cells a walk on ``moves`` (per cell, its next cell per letter) can reach."""
    reach, todo = {start}, [start]
    while todo:
        for nxt in moves[todo.pop()]:
            if nxt not in reach:
                reach.add(nxt)
                todo.append(nxt)
    return reach


@pytest.mark.parametrize("rows,cols", RECTANGLES)
def test_a_rectangles_mazes_and_flips_are_the_searchs(rows, cols):
    from smtpuzzle.puzzles.maze.bound.certificate import Grid, flip_case
    from smtpuzzle.puzzles.maze.cases import _thin_wall_table

    grid, size = Grid(rows, cols), f"{rows}x{cols}"
    rng = random.Random(rows * 10 + cols)
    flip = str.maketrans("NS", "SN")
    edges = len(grid.edges())
    for _ in range(300):
        maze, start = rng.randrange(1 << edges), rng.randrange(grid.cells)
        want = _thin_wall_table(np.array([maze]), rows, cols)[0].tolist()
        assert maze_moves(maze, grid) == want
        string = "".join(rng.choice("NESW") for _ in range(rng.randrange(3, 30)))
        solved = _rect_solves(size, maze, start, string)
        assert solved == _rect_solves(size, *flip_case(maze, start, grid),
                                      string.translate(flip))
        assert solved == _rect_solves(size, *mirror_case(maze, start, grid),
                                      string.translate(MIRROR))
        closed = symmetry_closure([(maze, start)], True, grid)
        assert symmetry_closure(closed, True, grid) == closed and len(closed) in (
            (1, 2, 4) if rows != cols else (1, 2, 4, 8))
        assert symmetry_closure([(maze, start)], False, grid) == (
            [(maze, start)] if rows != cols else symmetry_closure([(maze, start)], grid=grid))


def test_a_rectangles_formula_holds_exactly_the_strings_that_solve_its_cases():
    # The first move is free; with the rule, the first N or S is an N and the first E or
    # W an E (the flip rule), and the cases are closed under both flips.
    from pysat.solvers import Solver

    from smtpuzzle.puzzles.maze.bound.certificate import Grid

    grid = Grid(2, 3)
    length = 6
    for mirror in (False, True):
        cases = symmetry_closure([(0b1111111, 0), (0b0010011, 1)], mirror, grid)
        assert len(cases) == (8 if mirror else 2)  # neither is its own flip
        clauses = encode(length, cases, mirror, grid=grid).clauses.as_lists()
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            for string in map("".join, itertools.product("NESW", repeat=length)):
                letters = [4 * t + "NESW".index(ch) + 1 for t, ch in enumerate(string)]
                want = all(_rect_solves("2x3", m, s, string) for m, s in cases) and (
                    not mirror or (string.translate(str.maketrans("", "", "NS"))[:1] != "W"
                                   and string.translate(str.maketrans("", "", "EW"))[:1]
                                   != "S"))
                assert solver.solve(assumptions=letters) == want, (mirror, string)


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_cli_bound_writes_a_rectangles_certificate_and_check_bound_verifies_it(tmp_path):
    # With the flip rule and without it. (2x3 needs 25 moves; the proof of 24 checks in
    # minutes, not seconds: bench/RESULTS.md.)
    out = run("maze", "bound", "--size", "2x3", "--start", "18", "--up-to", "18",
              "--certificate", str(tmp_path / "c"), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["bound"] == 18 and data["first_n_or_s"] == "N"
    meta = json.loads((tmp_path / "c" / JSON).read_text())
    assert meta["size"] == "2x3" and meta["symmetry"] == "flips"
    assert meta["first_move"] == "any" and data["certificate_cases"] == len(meta["cases"])
    out = run("maze", "check-bound", str(tmp_path / "c"), "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    checked = json.loads(out.stdout)
    assert checked["verdict"] == "verified" and "every 2x3 case" in checked["reason"]
    plain = run("maze", "bound", "--size", "2x3", "--start", "14", "--up-to", "14",
                "--no-mirror", "--certificate", str(tmp_path / "p"))
    assert plain.returncode == 0 and "wrote" in plain.stdout, plain.stderr
    assert json.loads((tmp_path / "p" / JSON).read_text())["symmetry"] == "none"
    assert check_certificate(tmp_path / "p", time_limit=120).verdict == "verified"
    # Tampered: a case dropped from the flips' closure, the rule dropped, the rule's name
    # taken from the square.
    for edit, reason in ((lambda d: {**d, "cases": d["cases"][1:], "proof_cases": 1},
                          "not closed under the flips"),
                         (lambda d: {**d, "symmetry": "none"}, "is not the formula"),
                         (lambda d: {**d, "symmetry": "rotations and mirror"},
                          "the symmetry of size 2x3 is"),
                         (lambda d: {**d, "first_move": "N"}, "first_move any")):
        shutil.rmtree(tmp_path / "tampered", ignore_errors=True)
        checked = check_certificate(_tampered(tmp_path / "c", tmp_path, data=edit),
                                    time_limit=120)
        assert checked.verdict == "rejected" and reason in checked.reason, checked.reason
    # Too few cases for the length: no proof (a string solves them).
    fake = json.loads((tmp_path / "c" / JSON).read_text())
    from smtpuzzle.puzzles.maze.bound.certificate import write_certificate

    write_certificate(tmp_path / "few", 18, [tuple(c) for c in fake["cases"][:2]], True,
                      size="2x3")
    few = check_certificate(tmp_path / "few", time_limit=120)
    assert few.verdict == "rejected" and "solves" in few.reason, few.reason


def test_the_bound_rises_past_the_trivial_one_and_the_known_string_is_consistent():
    heard = []
    result = prove_bound(3, start=14, up_to=24, time_limit=60,
                         progress=lambda n, _, k, done: heard.append((n, k, done)))
    assert result.bound == 24 and [s.length for s in result.steps] == list(range(14, 25))
    # each case added is heard of, then each length proved, with its cases
    assert [n for n, _, done in heard if done] == list(range(14, 25))
    assert heard[-1] == (24, len(result.cases), True) and heard[-2] == (24, len(result.cases),
                                                                        False)
    assert all(s.status == "unsat" for s in result.steps) and result.mirror
    # The mirror rule changes the proofs, not what they prove.
    plain = prove_bound(3, start=14, up_to=24, time_limit=60, mirror=False)
    assert plain.bound == 24 and not plain.mirror and plain.cases != result.cases
    # 2x2 needs 11 moves: with the rule, 10 is still proved and an 11 found.
    small = prove_bound("2x2", time_limit=60)
    assert small.mirror and small.bound == 10 and small.complete
    # ... and the 11 is given, a string that solves every 2x2 case
    assert len(small.string) == 11 and check(small.string, "2x2").unsolved == 0
    assert small.as_json()["string"] == small.string and result.string is None
    # The cases of the proof are genuine: the known 79-move string solves them all.
    assert check(KNOWN_79, 3).unsolved == 0
    assert all(_solves(m, s, KNOWN_79) for m, s in result.cases)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("bound")
    result = prove_bound(3, start=16, up_to=16)
    assert result.bound == 16
    write_certificate(directory, 16, result.cases)
    return directory


def test_a_certificate_is_verified_from_scratch(certificate: Path):
    checked = check_certificate(certificate, time_limit=120)
    assert checked.verdict == "verified" and checked.length == 16
    out = run("maze", "check-bound", str(certificate), "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["verdict"] == "verified"
    by_minisat = check_certificate(certificate, time_limit=120, checker="minisat")
    assert by_minisat.verdict == "verified" and by_minisat.lemmas == checked.lemmas
    bad = run("maze", "check-bound", str(certificate), "--checker", "kissat")
    assert bad.returncode == 2 and "--checker" in bad.stderr
    # out of time: unknown, naming the limit rather than what the command line left of it
    late = check_certificate(certificate, time_limit=1e-6)
    assert late.verdict == "unknown" and "not checked within the time limit" in late.reason


def _tampered(certificate: Path, tmp_path: Path, data=None, cnf=None) -> Path:
    copy = tmp_path / "tampered"
    copy.mkdir()
    meta = json.loads((certificate / JSON).read_text())
    text = (certificate / CNF).read_text()
    (copy / JSON).write_text(json.dumps(data(meta) if data else meta))
    (copy / CNF).write_text(cnf(text) if cnf else text)
    return copy


def _drop_last_clause(text: str) -> str:
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("p "))
    _, _, variables, count = lines[head].split()
    lines[head] = f"p cnf {variables} {int(count) - 1}"
    return "\n".join(lines[:-1]) + "\n"


@pytest.mark.parametrize("how,reason", [
    (dict(cnf=_drop_last_clause), "is not the formula"),
    (dict(cnf=lambda t: t.replace("\n1 0\n", "\n2 0\n", 1)), "is not the formula"),
    (dict(data=lambda d: {**d, "length": d["length"] + 1}), "is not the formula"),
    (dict(data=lambda d: {**d, "cases": d["cases"][1:]}), "not closed under the rotations"),
    (dict(data=lambda d: {**d, "cases": d["cases"] + [[5000, 0]]}), "no 3x3 maze"),
    # a field that int() would have truncated or parsed is no case
    (dict(data=lambda d: {**d, "cases": [[d["cases"][0][0] + 0.5, d["cases"][0][1]]]
                          + d["cases"][1:]}), "each case is [maze id, start], two integers"),
    (dict(data=lambda d: {**d, "cases": [[str(d["cases"][0][0]), d["cases"][0][1]]]
                          + d["cases"][1:]}), "two integers"),
    (dict(data=lambda d: {**d, "cases": [[d["cases"][0][0], True]] + d["cases"][1:]}),
     "two integers"),
    (dict(data=lambda d: {**d, "cases": [d["cases"][0] + [0]] + d["cases"][1:]}),
     "two integers"),
    (dict(data=lambda d: {**d, "first_move": "E"}), "first_move N"),
    (dict(data=lambda d: {**d, "symmetry": "rotations"}), "is not the formula"),
    (dict(data=lambda d: {**d, "symmetry": "none"}), "the symmetry of size 3 is"),
    (dict(data=lambda d: {**d, "symmetry": "flips"}), "the symmetry of size 3 is"),
    (dict(data=lambda d: {**d, "size": 4}), "the size is 3 or"),
    (dict(data=lambda d: {**d, "size": "1x17"}), "the size is 3 or"),
    (dict(data=lambda d: {**d, "size": "3x3"}), "the size is 3 or"),  # one name a grid
    (dict(data=lambda d: {**d, "size": "03x3"}), "the size is 3 or"),
    (dict(data=lambda d: {**d, "size": "3x4"}), "first_move any"),
    (dict(data=lambda d: {**d, "size": "4x4"}), "not closed under the rotations and mirror"),
    (dict(data=lambda d: {**d, "length": 5000}), "is not the formula"),  # not built in full
    (dict(data=lambda d: {**d, "length": 2**63 - 1}), "is not the formula"),  # nor at all
    (dict(data=lambda d: {**d, "length": 10**7},  # a header raised to match: still not built
          cnf=lambda t: re.sub(r"(?m)^p cnf \d+", "p cnf 2147483647", t)), "is not the formula"),
    # ... nor with the file padded by comments to the size such a formula would take
    (dict(data=lambda d: {**d, "length": 10**5},
          cnf=lambda t: re.sub(r"(?m)^p cnf \d+", "p cnf 2147483647", t).replace(
              "\np ", "\n" + ("c" * 99 + "\n") * 60_000 + "p ", 1)), "is not the formula"),
    (dict(cnf=lambda t: re.sub(r"(?m)^p cnf \d+", "p cnf " + "9" * 5000, t)),
     "malformed header"),
    (dict(cnf=lambda t: t.replace("\n1 0\n", "\n1 99999999999999999999 0\n", 1)),
     "is not a literal"),
    (dict(cnf=lambda t: t.replace("\n-1 -2 0\n", "\n-1 -3 0\n", 1)), "is not the formula"),
])
def test_a_tampered_certificate_is_rejected(certificate: Path, tmp_path: Path, how, reason):
    checked = check_certificate(_tampered(certificate, tmp_path, **how), time_limit=60)
    assert checked.verdict == "rejected" and reason in checked.reason, checked.reason
    out = run("maze", "check-bound", str(tmp_path / "tampered"))
    assert out.returncode == 3 and "rejected" in out.stdout


@pytest.mark.parametrize("text,reason", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"size": 3, "length": ' + "9" * 5000 + "}", "bound.json is not JSON"),
])
def test_a_json_python_cannot_read_is_rejected(certificate: Path, tmp_path: Path, text, reason):
    copy = _tampered(certificate, tmp_path)
    (copy / JSON).write_text(text)
    checked = check_certificate(copy, time_limit=60)
    assert checked.verdict == "rejected" and reason in checked.reason, checked.reason


def test_a_certificate_cut_short_is_rejected_and_a_missing_one_is_bad_input(
        certificate: Path, tmp_path: Path):
    copy = _tampered(certificate, tmp_path)
    (copy / JSON).write_text((copy / JSON).read_text()[:-10])
    out = run("maze", "check-bound", str(copy))
    assert out.returncode == 3 and "bound.json is not JSON" in out.stdout, out.stdout
    out = run("maze", "check-bound", str(tmp_path / "nowhere"))
    assert out.returncode == 2 and "not a bound certificate" in out.stderr, out.stderr
    (copy / JSON).write_bytes(b"\xff\xfe")
    out = run("maze", "check-bound", str(copy))
    assert out.returncode == 3 and "bound.json is not UTF-8 text" in out.stdout, out.stdout
    (copy / JSON).write_text((certificate / JSON).read_text())
    (copy / CNF).unlink()
    out = run("maze", "check-bound", str(copy))
    assert out.returncode == 2 and "no bound.cnf" in out.stderr, out.stderr


def test_a_bad_case_reads_whole_and_bound_refuses_an_empty_range(certificate, tmp_path):
    copy = _tampered(certificate, tmp_path, data=lambda d: {**d, "cases": [["x", 0]]})
    out = run("maze", "check-bound", str(copy))
    assert out.returncode == 3 and "each case is [maze id, start]" in out.stdout, out.stdout
    out = run("maze", "bound", "--size", "2x2", "--start", "8", "--up-to", "5")
    assert out.returncode == 2 and "--up-to 5 is below --start 8" in out.stderr


def test_a_claim_that_is_false_is_rejected(tmp_path: Path):
    # Too few cases for 16 moves: the product of their diagrams does not run empty, and
    # its string, walked by the rules, solves them.
    write_certificate(tmp_path, 16, [(4095, 4)])
    checked = check_certificate(tmp_path, time_limit=60)
    assert checked.verdict == "rejected" and "the formula is satisfiable" in checked.reason
    assert "solves every case it lists" in checked.reason, checked.reason
    string = checked.reason.split(": ")[1].split()[0]
    assert len(string) == 16 and _solves(4095, 4, string)


def test_too_few_proof_cases_are_rejected(certificate: Path, tmp_path: Path):
    # The first case alone admits strings of 16 moves: the check says so, it does not
    # take the other cases on trust.
    copy = _tampered(certificate, tmp_path, data=lambda d: {**d, "proof_cases": 1})
    checked = check_certificate(copy, time_limit=60)
    # the string solves the one case, not all: the proof is refuted, the formula is not
    reason = checked.reason
    assert checked.verdict == "rejected" and "the cases the proof uses (1 of " in reason
    assert ") admit a string: " in reason and "satisfiable" not in reason, reason


def test_a_lemma_that_does_not_follow_is_rejected(certificate: Path, monkeypatch):
    # A proof with one lemma that is true of no solution yet not implied: "the second
    # move is not N" (nothing says so). The checker must refuse it.
    import smtpuzzle.puzzles.maze.bound.certificate as cert
    from smtpuzzle.puzzles.maze.bound.proof import Block

    real = cert.diagram_proof

    def forged(length, cases, top, first_n):
        blocks = real(length, cases, top, first_n)
        first = next(blocks)
        yield first
        yield Block("lemma", [[-5]], "forged", first.level)
        yield from blocks

    monkeypatch.setattr(cert, "diagram_proof", forged)
    for checker in ("cadical", "minisat"):
        checked = check_certificate(certificate, time_limit=60, checker=checker)
        assert checked.verdict == "rejected" and "[-5] (forged)" in checked.reason


def test_the_proof_defines_each_new_variable_once_above_the_formula(certificate: Path):
    # Definitions keep satisfiability only if their variables are fresh: each define
    # block's variables are new, in increasing order, and no lemma comes before its
    # variables are defined.
    from smtpuzzle.puzzles.maze.bound.certificate import encode
    from smtpuzzle.puzzles.maze.bound.proof import diagram_proof

    meta = json.loads((certificate / JSON).read_text())
    pairs = [tuple(c) for c in meta["cases"]]
    assert meta["symmetry"] == "rotations and mirror"
    formula = encode(16, sorted(pairs), mirror=True)
    index = {c: i for i, c in enumerate(sorted(pairs))}
    order = [len(pairs)] + [index[c] for c in pairs[:meta["proof_cases"]]]
    top = formula.variables
    kinds = set()
    for block in diagram_proof(16, [formula.cases[i] for i in order], formula.variables):
        kinds.add(block.kind)
        used = {abs(lit) for clause in block.clauses for lit in clause}
        if block.kind == "define":
            new = sorted(v for v in used if v > top)
            assert new and new[0] == top + 1 and new == list(range(top + 1, new[-1] + 1))
            top = new[-1]
        else:
            assert max(used, default=0) <= top
    assert kinds == {"define", "lemma"} and block.clauses == [[]]


def test_cli_bound_writes_a_certificate_and_check_bound_verifies_it(tmp_path: Path):
    out = run("maze", "bound", "--start", "12", "--up-to", "15", "--certificate",
              str(tmp_path / "c"), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["bound"] == 15 and data["shortest_at_least"] == 16
    assert data["certificate_cases"] == len(json.loads((tmp_path / "c" / JSON).read_text())
                                            ["cases"])
    assert run("maze", "check-bound", str(tmp_path / "c")).returncode == 0
    # Without the mirror rule: a certificate of the turns alone, verified as well.
    out = run("maze", "bound", "--start", "15", "--up-to", "15", "--no-mirror",
              "--certificate", str(tmp_path / "r"), "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["first_e_or_w"] == "any"
    assert json.loads((tmp_path / "r" / JSON).read_text())["symmetry"] == "rotations"
    assert run("maze", "check-bound", str(tmp_path / "r")).returncode == 0
    bad = run("maze", "bound", "--size", "4", "--certificate", str(tmp_path / "d"))
    assert bad.returncode == 2 and "for the thin-wall sizes (3 or RxC), not size 4" in \
        bad.stderr


def _states_by_the_rules(length: int, maze: int, start: int) -> tuple[list[int], list]:
    """case_states as plain Python sets of (cell, cells left) by the rules, for comparison:
    (states per layer, per layer the successor index of each state and letter)."""
    moves = maze_moves(maze)
    reach = _reached(moves, start)

    def step(state, d):
        nxt = moves[state[0]][d]
        return nxt, state[1] - {nxt}

    layers = [{(start, frozenset(reach - {start}))}]
    for t in range(length):
        layers.append({s for q in layers[-1] for d in range(4)
                       if len((s := step(q, d))[1]) <= length - t - 1})
    alive = [set() for _ in range(length + 1)]
    alive[length] = {q for q in layers[length] if not q[1]}
    for t in range(length - 1, -1, -1):
        alive[t] = {q for q in layers[t] if any(step(q, d) in alive[t + 1] for d in range(4))}
    key = [sorted(a, key=lambda q: (q[0], sum(1 << c for c in q[1]))) for a in alive]
    index = [{q: i for i, q in enumerate(states)} for states in key]
    tables = [[[index[t + 1].get(step(q, d), -1) for d in range(4)] for q in key[t]]
              for t in range(length)]
    return [len(a) for a in key], tables


def test_a_cases_states_are_the_states_its_walks_can_finish_from():
    from smtpuzzle.puzzles.maze.bound.certificate import case_states

    rng = random.Random(3)
    for _ in range(120):
        maze, start, length = rng.randrange(4096), rng.randrange(9), rng.randrange(1, 20)
        sizes, tables = _states_by_the_rules(length, maze, start)
        states = case_states(length, maze, start, top=40)
        assert states.sizes == sizes, (maze, start, length)
        assert [t.tolist() for t in states.tables] == tables, (maze, start, length)
        assert states.base[0] == 41 and np.diff(states.base).tolist() == sizes[:-1]


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_the_bound_keeps_time_back_for_its_certificate_and_its_writing_stops_in_time(
        tmp_path: Path):
    from smtpuzzle.backends.rup import OutOfTime
    from smtpuzzle.puzzles.maze.bound.certificate import write_seconds

    asked = []

    def reserve(length, cases):
        asked.append((length, len(cases)))
        return 1e6  # more than the limit: the next length is not searched

    result = prove_bound(3, start=10, time_limit=600, reserve=reserve)
    assert result.bound == 10 and asked == [(11, len(result.cases))]
    assert result.steps[-1].length == 11 and result.steps[-1].status == "unknown"
    assert "kept to write the certificate" in result.note
    assert prove_bound(3, start=10, up_to=12, reserve=reserve).bound == 12  # no limit
    # the estimate grows with the length and the cases, closed under the symmetry
    assert 0 < write_seconds(20, result.cases) < write_seconds(40, result.cases)
    assert write_seconds(20, result.cases, mirror=False) <= write_seconds(20, result.cases)
    # a write past its deadline stops and leaves nothing
    import time

    with pytest.raises(OutOfTime):
        write_certificate(tmp_path / "late", 10, result.cases, deadline=time.perf_counter())
    assert list((tmp_path / "late").iterdir()) == []
    # The command keeps the time, and writes the certificate within the limit or says not.
    out = run("maze", "bound", "--start", "12", "--time-limit", "8", "--certificate",
              str(tmp_path / "c"), "--json")
    data = json.loads(out.stdout)
    if data.get("certificate_late"):
        assert out.returncode == 1 and not (tmp_path / "c" / CNF).exists()
    else:
        assert out.returncode == 0 and data["certificate_cases"] > 0, out.stderr
        assert (tmp_path / "c" / CNF).exists()
    assert "kept to write the certificate" in data["stopped"] or data["bound"] >= 40


def test_an_intersection_that_empties_before_the_last_move_is_none():
    # 7 and 8 free moves on 4x4: two cases' diagrams have no common state after some move
    # (the product's next layer was empty and minimising it raised IndexError).
    from smtpuzzle.puzzles.maze.search import search

    for length in (7, 8):
        assert search("*" * length, 4).status == "unsat"
    assert prove_bound(4, start=1, up_to=12).bound == 12


def _stop_at(cases: int):
    """A progress hook that presses Ctrl-C once the search holds ``cases`` cases."""
    def hook(_: int, __: float, k: int, done: bool) -> None:
        if k == cases and not done:
            raise KeyboardInterrupt
    return hook


def test_a_bound_stopped_and_resumed_proves_what_an_unbroken_run_does(tmp_path: Path):
    whole = prove_bound(3, start=30, up_to=30)
    path = tmp_path / "search.npz"
    first = prove_bound(3, start=30, up_to=30, checkpoint=path, progress=_stop_at(10))
    assert first.interrupted and first.bound == 0 and path.exists()
    assert first.saved == {"file": str(path), "length": 30, "cases": 10}
    assert len(whole.cases) > 10
    second = prove_bound(3, start=30, up_to=30, checkpoint=path)
    # the same cases in the same order: the search went on from exactly where it stopped
    assert second.bound == 30 and second.cases == whole.cases
    assert second.resumed is not None and second.resumed["cases"] == 10
    assert second.steps[0].time_s >= second.resumed["seconds"] > 0
    assert not path.exists()  # its length is proved: nothing left to resume
    # Saved as it goes: with no pause between saves, a file after each case.
    heard = []

    def look(_: int, __: float, k: int, done: bool) -> None:
        if not done and k in (3, 7):
            heard.append(len(load(path, 3, True).cubes[0].added))

    again = prove_bound(3, start=28, up_to=29, checkpoint=path, progress=look, save_every=0)
    assert again.bound == 29 and heard == [3, 7, 3, 7] and not path.exists()


@pytest.fixture(scope="module")
def saved_search(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("resume") / "search.npz"
    prove_bound(3, start=26, up_to=26, checkpoint=path, progress=_stop_at(8))
    return path


def _rewritten(path: Path, to: Path, header=None, layers=None) -> Path:
    """The checkpoint at ``path`` (one cube) with its header and its cube's layers changed."""
    with np.load(path) as data:
        head = json.loads(str(data["header"]))
        trans = [data[f"cube0_layer{i}"] for i in range(len(data.files) - 1)]
    head = header(head) if header else head
    trans = layers(trans) if layers else trans
    np.savez(to, header=np.array(json.dumps(head)),
             **{f"cube0_layer{i}": t for i, t in enumerate(trans)})
    return to


def _cases(change):
    def changed(head):
        head["cubes"][0]["cases"] = change(head["cubes"][0]["cases"])
        return head
    return changed


# cases the diagram was never cut by: some of its strings fail them
_other_cases = _cases(lambda pairs: [[4095, 0], [4095, 4]] + pairs[2:])


def _dead_state(trans):
    trans[5] = trans[5].copy()
    trans[5][0] = -1
    return trans


@pytest.mark.parametrize("how, reason", [
    (lambda p, t: _rewritten(p, t, header=_other_cases), "fail its own cases"),
    (lambda p, t: _rewritten(p, t, layers=lambda tr: tr[:-1],
                             header=lambda h: {**h, "cubes": [{**h["cubes"][0],
                                                        "layers": h["cubes"][0]["layers"] - 1}]}),
     "layers for a pattern"),
    (lambda p, t: _rewritten(p, t, layers=_dead_state), "does not fit"),
    (lambda p, t: _rewritten(p, t, header=lambda h: {**h, "format": "x"}), "its format"),
    (lambda p, t: _rewritten(p, t, header=_cases(lambda _: [[1, 9]])),
     "not one of the search's cases"),
    (lambda p, t: t.write_bytes(p.read_bytes()[:1000]) and t, "unreadable"),
    (lambda p, t: _rewritten(p, t, header=lambda h: [h]), "unreadable"),
    (lambda p, t: _rewritten(p, t, header=lambda h: {k: v for k, v in h.items()
                                                     if k != "size"}), "unreadable"),
    (lambda p, t: _rewritten(p, t, header=_cases(lambda _: [[1]])),
     "not \\[maze id, start\\] pairs"),
    (lambda p, t: _rewritten(p, t, header=lambda h: {**h, "cubes": [
        {**h["cubes"][0], "pattern": "S" + "*" * 25}]}), "is not a cube of the pattern"),
    (lambda p, t: _rewritten(p, t, header=lambda h: {**h, "cubes": [
        {**h["cubes"][0], "pattern": "NS" + "*" * 24}], "proved": {
            f"N{c}" + "*" * 24: [] for c in "NEW"}}), "outside the cube NS"),
    (lambda p, t: _rewritten(p, t, header=lambda h: {**h, "cubes": []}),
     "leave strings of the pattern out"),
    (lambda p, t: _rewritten(p, t, header=lambda h: {**h, "cubes": [
        {**h["cubes"][0], "pattern": "NS" + "*" * 24}], "proved": {
            f"N{c}" + "*" * 24: [] for c in "NE"}}), "leave strings of the pattern out"),
    (lambda p, t: _rewritten(p, t, header=lambda h: {**h, "proved": {"N*": []}}),
     "N\\* is not a cube"),
    (lambda p, t: _rewritten(p, t, layers=lambda tr: [x.astype(float) for x in tr]),
     "does not fit"),
    (lambda p, t: _rewritten(p, t, layers=lambda tr: [np.pad(x, ((0, 0), (0, 1)),
                                                             constant_values=-1)
                                                      for x in tr]), "does not fit"),
])
def test_a_damaged_or_foreign_checkpoint_is_refused(saved_search: Path, tmp_path: Path, how,
                                                    reason):
    bad = how(saved_search, tmp_path / "bad.npz")
    with pytest.raises(PuzzleError, match=reason):
        prove_bound(3, start=26, up_to=26, checkpoint=bad)


def test_a_checkpoint_is_taken_up_only_by_its_own_search(saved_search: Path):
    assert load(saved_search, 3, True).length == 26
    with pytest.raises(PuzzleError, match="without the mirror rule, this run size 3 with"):
        load(_rewritten(saved_search, saved_search.with_name("plain.npz"),
                        header=lambda h: {**h, "mirror": False}), 3, True)
    with pytest.raises(PuzzleError, match="with the mirror rule, this run size 3 without"):
        prove_bound(3, start=26, checkpoint=saved_search, mirror=False)
    with pytest.raises(PuzzleError, match="`start=27` is past it"):
        prove_bound(3, start=27, checkpoint=saved_search)
    with pytest.raises(PuzzleError, match="holds a search at 26 moves; `up_to=25` is below"):
        prove_bound(3, start=20, up_to=25, checkpoint=saved_search)


@pytest.mark.slow  # the maze bound's research runs: --runslow
@pytest.mark.parametrize("name", ["search.npz", "search.json"])
def test_cli_bound_saves_at_the_time_limit_and_goes_on_from_there(tmp_path: Path, name: str):
    path = tmp_path / name
    first = run("maze", "bound", "--start", "35", "--up-to", "35", "--time-limit", "2",
                "--checkpoint", str(path))
    assert first.returncode == 1 and path.exists(), first.stdout + first.stderr
    assert f"run again with --checkpoint {path}" in " ".join(first.stdout.split())
    second = run("maze", "bound", "--start", "35", "--up-to", "35", "--checkpoint", str(path),
                 "--json")
    data = json.loads(second.stdout)
    assert second.returncode == 0 and data["bound"] == 35 and data["resumed"]["length"] == 35
    assert not path.exists()
    path.write_text("not a checkpoint")
    bad = run("maze", "bound", "--checkpoint", str(path))
    assert bad.returncode == 2 and "unreadable" in bad.stderr and len(bad.stderr.splitlines()) == 1


class _WatchedFirstDiagram:
    """A 20-move 3x3 pattern's first diagram, made once, and whether it is still held
    (collected first): the searches must let it go once they have a later one."""

    def __init__(self) -> None:
        from smtpuzzle.puzzles.maze.rules import break_symmetry

        self.pattern = break_symmetry("*" * 20, 3)
        self._ref: Any = None

    def make(self) -> Any:
        import weakref

        from smtpuzzle.puzzles.maze.mdd import rule_diagram
        from smtpuzzle.puzzles.maze.rules import MIRROR_RULE

        diagram = rule_diagram(self.pattern, MIRROR_RULE)
        self._ref = weakref.ref(diagram)
        return diagram

    def held(self) -> bool:
        import gc

        gc.collect()
        return self._ref() is not None


def test_the_search_lets_go_of_its_first_diagram():
    # a resumed 45-move diagram is over a GB: held all search long, it doubled the peak
    from smtpuzzle.puzzles.maze.mdd import mdd_search

    first, alive = _WatchedFirstDiagram(), []
    status, *_ = mdd_search(first.pattern, 3, None, sampled=False, start=first.make(),
                            kept=lambda *_: alive.append(first.held()))
    assert status == "unsat" and len(alive) > 3 and not any(alive)


def test_a_workers_cube_search_lets_go_of_its_first_diagram(monkeypatch):
    # a worker once held its cube's first diagram all search long: twice the memory
    from smtpuzzle.puzzles.maze import mdd
    from smtpuzzle.puzzles.maze.bound import prove as bound
    from smtpuzzle.puzzles.maze.bound.resume import Cube
    from smtpuzzle.puzzles.maze.mdd import MAX_STATES

    first, alive = _WatchedFirstDiagram(), []
    product = mdd.intersect

    def watched(diagram, *args):  # each product: from the second on, of a later diagram
        alive.append(first.held())
        return product(diagram, *args)

    monkeypatch.setattr(mdd, "intersect", watched)
    cube = Cube(first.pattern, [], first.make())
    answer = bound._search_cube(bound._CubeJob(3, 20, True, False, MAX_STATES, 0, None),
                                cube, None)
    assert answer[0] == "unsat" and len(alive) > 3 and alive[0] and not any(alive[1:])


def test_a_checkpoint_that_cannot_be_written_is_refused_or_noted(tmp_path: Path, monkeypatch):
    with pytest.raises(PuzzleError, match="no directory"):
        prove_bound(3, start=20, up_to=20, checkpoint=tmp_path / "missing" / "s.npz")
    with pytest.raises(PuzzleError, match="is a directory"):
        prove_bound(3, start=20, up_to=20, checkpoint=tmp_path)
    bad = run("maze", "bound", "--up-to", "3", "--checkpoint", str(tmp_path / "no" / "s"))
    assert bad.returncode == 2 and "no directory" in bad.stderr
    # a disk that fills up mid-search: the search goes on and says so
    from smtpuzzle.puzzles.maze.bound import prove as bound

    saves = []

    def full(path, size, length, mirror, cubes, *_):
        saves.append((length, len(cubes[0].added)))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bound, "save", full)
    result = prove_bound(3, start=20, up_to=21, checkpoint=tmp_path / "s.npz",
                         )
    assert result.bound == 21 and "saves of the checkpoint failed" in result.note
    assert "No space left on device" in result.note
    # each length is saved as it begins (so a proved length is not searched again)
    assert saves == [(20, 0), (21, 0)]
    stopped = prove_bound(3, start=20, up_to=21, checkpoint=tmp_path / "s.npz",
                          progress=_stop_at(5))
    assert stopped.interrupted and stopped.saved is None and saves[-1] == (20, 5)


def test_a_stop_by_the_state_cap_keeps_the_search_for_a_larger_one(tmp_path: Path):
    path = tmp_path / "s.npz"
    out = run("maze", "bound", "--start", "24", "--up-to", "24", "--max-states", "2000",
              "--checkpoint", str(path))
    assert out.returncode == 1 and path.exists(), out.stdout + out.stderr
    assert "and a larger --max-states or --split-depth to go on" in " ".join(out.stdout.split())
    again = prove_bound(3, start=24, up_to=24, checkpoint=path)
    assert again.bound == 24 and again.resumed and again.resumed["cases"] >= 1


def _parts_made(monkeypatch) -> list:
    """Weak references to every diagram Diagram.fixed makes from here on (a cube's part of
    its parent's diagram)."""
    import weakref

    from smtpuzzle.puzzles.maze import mdd

    made = []
    fixed = mdd.Diagram.fixed

    def tracked(self, layer, letter):
        d = fixed(self, layer, letter)
        if d is not None:
            made.append(weakref.ref(d))
        return d

    monkeypatch.setattr(mdd.Diagram, "fixed", tracked)
    return made


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_split_search_lets_go_of_each_cubes_first_diagram(monkeypatch):
    import gc
    import weakref

    from smtpuzzle.puzzles.maze import mdd

    made = _parts_made(monkeypatch)
    parents = []  # the diagrams split into cubes: each is held until its last cube

    def split_at(exc, diagram):
        exc.__dict__["split"] = diagram
        parents.append(weakref.ref(diagram))

    monkeypatch.setattr(mdd.DiagramTooLarge, "diagram",
                        property(lambda exc: exc.__dict__.get("split"), split_at))
    held = []

    def heard(_: int, __: float) -> None:
        gc.collect()
        parent = {id(r()) for r in parents if r() is not None}
        held.append(sum(r() is not None and id(r()) not in parent for r in made))

    window = KNOWN_79[:30] + "*" * 11 + KNOWN_79[42:]
    status, *_ = mdd.split_search(window, 3, None, heard, max_states=100)
    # a case is heard of once a cube's first product is built: by then its first diagram is
    # gone, unless it was split itself
    assert status == "unsat" and len(made) > 4 and len(held) > 10 and max(held) == 0


def _refuted(length: int, pairs: list[tuple[int, int]], size=3) -> bool:
    """Whether no string of ``length`` moves (the first move fixed, the mirror rule where
    it holds) solves every case of ``pairs``, by diagrams built from scratch."""
    from smtpuzzle.puzzles.maze.cases import reduced_cases
    from smtpuzzle.puzzles.maze.mdd import cube_diagram
    from smtpuzzle.puzzles.maze.rules import break_symmetry, mirrors, strings_rule

    pattern = break_symmetry("*" * length, size)
    cases = reduced_cases(size)
    index = {(int(m), int(s)): k for k, (m, s) in enumerate(zip(cases.maze, cases.start,
                                                                      strict=True))}
    return cube_diagram(pattern, pattern, strings_rule(size, mirrors(size)), cases,
                        [index[pair] for pair in pairs], max_states=10**9) is None


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_a_bound_split_into_cubes_proves_the_length_with_the_union_of_their_cases(
        tmp_path: Path):
    whole = prove_bound(3, start=26, up_to=26, max_states=6000)
    assert whole.bound == 0 and whole.outgrown
    split = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8)
    assert split.bound == 26 and split.steps[0].cubes > 3 and not split.outgrown
    assert _refuted(26, split.cases) and not _refuted(26, split.cases[:3])
    # stopped while the cubes are searched, and taken up: the same cases in the same order
    path = tmp_path / "s.npz"
    first = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                        checkpoint=path, progress=_stop_at(len(split.cases) - 3))
    saved = load(path, 3, True)
    assert first.interrupted and saved.proved and len(saved.cubes) > 1
    assert saved.cubes[0].diagram is not None and saved.cubes[1].diagram is None
    assert all(c.pattern.startswith("N") and c.pattern != "N" + "*" * 25 for c in saved.cubes)
    assert first.saved == {"file": str(path), "length": 26, "cases": len(split.cases) - 3,
                           "cubes_left": len(saved.cubes)}
    # a damaged cube is refused on loading, though it waits its turn in the file
    with np.load(path) as data:
        members = {name: data[name] for name in data.files}
    last = f"cube{len(saved.cubes) - 1}_layer5"
    members[last] = members[last].copy()
    members[last][0] = -1
    np.savez(tmp_path / "bad.npz", **members)
    damaged = re.escape(f"cube {saved.cubes[-1].pattern}: layer 5 does not fit")
    with pytest.raises(PuzzleError, match=damaged):
        load(tmp_path / "bad.npz", 3, True)
    second = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                         checkpoint=path)
    assert second.bound == 26 and second.cases == split.cases and not path.exists()
    assert second.steps[0].cubes == split.steps[0].cubes
    assert second.resumed is not None and second.resumed["cubes"] == len(saved.cubes) + len(
        saved.proved)
    out = run("maze", "bound", "--start", "26", "--up-to", "26", "--max-states", "6000",
              "--split-depth", "8")
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{len(split.cases)} cases in {split.steps[0].cubes} cubes" in " ".join(
        out.stdout.split())


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_a_checkpoint_of_cases_alone_is_taken_up_by_building_its_diagrams(tmp_path: Path,
                                                                         monkeypatch):
    whole = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8)
    path = tmp_path / "s.json"
    first = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                        checkpoint=path, progress=_stop_at(len(whole.cases) - 3))
    saved = load(path, 3, True)
    assert first.interrupted and saved.proved and len(saved.cubes) > 1
    assert all(c.diagram is None for c in saved.cubes) and path.stat().st_size < 10_000
    # the cube's diagram, built from its cases, is the one the search had (which a file of
    # diagrams, saved at the same point, holds)
    npz = tmp_path / "s.npz"
    prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, checkpoint=npz,
                progress=_stop_at(len(whole.cases) - 3))
    had = load(npz, 3, True).cubes[0]
    built = load_cube(path, 3, 26, True, saved.cubes[0])
    assert had.added == saved.cubes[0].added and built is not None and had.diagram is not None
    assert [t.shape for t in built.trans] == [t.shape for t in had.diagram.trans]
    assert built.count_strings() == had.diagram.count_strings() > 0
    second = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                         checkpoint=path)
    assert second.bound == 26 and second.cases == whole.cases and not path.exists()
    assert second.steps[0].cubes == whole.steps[0].cubes
    # A cap below the one it was saved under, and a deadline, while a diagram is built:
    # the run stops there, searches nothing, and leaves the file as it was.
    from smtpuzzle.puzzles.maze.bound import prove as bound

    prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, checkpoint=path,
                progress=_stop_at(len(whole.cases) - 3))
    kept = path.read_text()
    search = bound.mdd_search
    monkeypatch.setattr(bound, "mdd_search", lambda *a, **k: pytest.fail("searched"))
    small = prove_bound(3, start=26, up_to=26, max_states=50, split_depth=8,
                        checkpoint=path)
    assert small.outgrown and small.bound == 0 and small.saved is not None
    assert "take the search up with the `max_states` it was saved under" in small.note
    late = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                       checkpoint=path, time_limit=1e-9)
    assert late.bound == 0 and late.saved is not None
    assert late.note.startswith(f"time limit while cube {saved.cubes[0].pattern}'s diagram")
    head = json.loads(kept)
    assert json.loads(path.read_text())["cubes"] == head["cubes"]
    # A cube its own cases rule out is proved as its diagram is built: no search for it.
    calls = []
    monkeypatch.setattr(bound, "mdd_search", lambda *a, **k: calls.append(1) or search(*a, **k))
    prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, checkpoint=path)
    searched = len(calls)
    cube, pairs = next(iter(head["proved"].items()))
    moved = {**head, "cubes": [{"pattern": cube, "cases": pairs}, *head["cubes"]],
             "proved": {c: ks for c, ks in head["proved"].items() if c != cube}}
    path.write_text(json.dumps(moved))
    calls.clear()
    again = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, checkpoint=path)
    assert again.bound == 26 and len(calls) == searched > 0 and not path.exists()
    monkeypatch.setattr(bound, "mdd_search", search)
    # refused: not a checkpoint of cases, another size, a foreign case
    for change, reason in [({"format": FORMAT}, "its format"),
                           ({"size": "2x3"}, "it searches size 2x3"),
                           ({"proved": {"N" + "*" * 25: [[1, 9]]}}, "not one of the search")]:
        (tmp_path / "bad.json").write_text(json.dumps({**head, **change}))
        with pytest.raises(PuzzleError, match=reason):
            prove_bound(3, start=26, up_to=26, checkpoint=tmp_path / "bad.json")
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(PuzzleError, match="its format is None"):
        load(tmp_path / "bad.json", 3, True)
    for change, reason in [({"length": 1e20}, "a length of 1e\\+20 moves, not a whole"),
                           ({"length": 26.5}, "a length of 26.5"),
                           ({"mirror": "false"}, "its mirror rule is 'false'"),
                           ({"size": "5"}, "its size: maze size is 3, 4 or RxC")]:
        (tmp_path / "bad.json").write_text(json.dumps({**head, **change}))
        with pytest.raises(PuzzleError, match=reason):
            load(tmp_path / "bad.json", 3, True)
    # a size written as a run would take it ("3x3" is 3) is that size
    (tmp_path / "named.json").write_text(json.dumps({**head, "size": "3x3"}))
    (tmp_path / "as-saved.json").write_text(json.dumps(head))
    assert [(c.pattern, c.added) for c in load(tmp_path / "named.json", 3, True).cubes] == [
        (c.pattern, c.added) for c in load(tmp_path / "as-saved.json", 3, True).cubes]
    (tmp_path / "bad.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(PuzzleError, match="unreadable"):
        load(tmp_path / "bad.json", 3, True)
    shutil.copy(npz, tmp_path / "diagrams.json")
    with pytest.raises(PuzzleError, match="name it .npz"):
        load(tmp_path / "diagrams.json", 3, True)


def test_a_run_with_a_checkpoint_of_cases_keeps_its_diagrams_and_builds_none(
        tmp_path: Path, monkeypatch):
    from smtpuzzle.puzzles.maze.bound import resume

    monkeypatch.setattr(resume, "cube_diagram", lambda *a, **k: pytest.fail("built"))
    result = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                         checkpoint=tmp_path / "s.json", save_every=0)
    assert result.bound == 26 and result.steps[0].cubes > 3


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_workers_search_a_split_lengths_cubes_and_prove_what_one_process_does(tmp_path: Path):
    one = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8)
    two = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, workers=2)
    # a cube's search is the same in whichever process: the same cubes and the same cases
    assert two.bound == 26 and two.steps[0].cubes == one.steps[0].cubes > 3
    assert sorted(two.cases) == sorted(one.cases) and _refuted(26, two.cases)
    # Ctrl-C: the cubes being searched come back with their cases so far, and the file
    # holds every cube not proved
    path = tmp_path / "s.json"

    def stop(_: int, __: float, k: int, done: bool) -> None:
        if k >= len(one.cases) - 6 and not done:
            raise KeyboardInterrupt

    first = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, workers=2,
                        checkpoint=path, progress=stop)
    saved = load(path, 3, True)
    assert first.interrupted and first.bound == 0 and saved.proved and len(saved.cubes) > 1
    assert covers([*saved.proved, *(c.pattern for c in saved.cubes)], "N" + "*" * 25)
    assert not set(saved.proved) & {c.pattern for c in saved.cubes}
    kept = path.read_text()
    # past the deadline, no cube is sent, and the file stays as it was
    late = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, workers=2,
                       checkpoint=path, time_limit=1e-9)
    assert late.bound == 0 and late.note == "time limit"
    assert json.loads(path.read_text())["cubes"] == json.loads(kept)["cubes"]
    # taken up by two processes (each builds its cube's diagram from its cases), or by one
    shutil.copy(path, tmp_path / "t.json")
    for file, workers in [(path, 2), (tmp_path / "t.json", 1)]:
        again = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                            workers=workers, checkpoint=file)
        assert again.bound == 26 and sorted(again.cases) == sorted(one.cases)
        assert again.steps[0].cubes == one.steps[0].cubes and not file.exists()
    out = run("maze", "bound", "--start", "26", "--up-to", "26", "--max-states", "6000",
              "--split-depth", "8", "--workers", "2")
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{len(one.cases)} cases in {one.steps[0].cubes} cubes" in " ".join(
        out.stdout.split())


def test_workers_stop_at_a_string_and_when_one_dies(tmp_path: Path, monkeypatch):
    import os

    from smtpuzzle.puzzles.maze.bound import prove as bound

    found = prove_bound("2x2", start=10, max_states=50, split_depth=8, workers=2)
    assert found.bound == 10 and found.complete and found.string is not None
    assert len(found.string) == 11 and check(found.string, "2x2").unsolved == 0
    for kwargs, reason in [({}, "only `split_depth` makes cubes"),
                           ({"split_depth": 8, "checkpoint": tmp_path / "s.npz"},
                            "name it .json")]:
        with pytest.raises(PuzzleError, match=reason):
            prove_bound(3, start=26, up_to=26, workers=2, **kwargs)
    # a worker killed (by the kernel, out of memory): the length is left unknown, and its
    # cube waits in the checkpoint with the cases it was sent with
    search = bound._search_cube

    def dies(job, cube, deadline):
        if cube.pattern.startswith("NS"):
            os._exit(9)
        return search(job, cube, deadline)

    monkeypatch.setattr(bound, "_search_cube", dies)
    path = tmp_path / "s.json"
    died = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, workers=2,
                       checkpoint=path)
    assert died.bound == 0 and not died.complete and "a worker process died" in died.note
    saved = load(path, 3, True)
    assert any(c.pattern.startswith("NS") for c in saved.cubes)
    monkeypatch.setattr(bound, "_search_cube", search)
    assert prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, workers=2,
                       checkpoint=path).bound == 26


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_an_npz_checkpoint_carried_as_json_is_taken_up_to_a_proof(tmp_path: Path):
    split = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8)
    heavy, light = tmp_path / "s.npz", tmp_path / "s.json"
    prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, checkpoint=heavy,
                progress=_stop_at(len(split.cases) - 3))
    saved = load(heavy, 3, True)
    assert saved.proved and len(saved.cubes) > 1
    out = run("maze", "checkpoint-json", str(heavy), str(light))
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"wrote {light}: 26 moves, {len(split.cases) - 3} cases, {len(saved.cubes)} cubes " \
        f"to search and {len(saved.proved)} proved" in " ".join(out.stdout.split())
    carried = load(light, 3, True)
    shutil.copy(light, tmp_path / "kept.json")  # the run below removes it when done
    assert [(c.pattern, c.added) for c in carried.cubes] == \
        [(c.pattern, c.added) for c in saved.cubes]
    assert carried.proved == saved.proved and carried.seconds == saved.seconds
    assert all(c.diagram is None for c in carried.cubes)
    again = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                        checkpoint=light)
    assert again.bound == 26 and again.resumed["cubes"] == len(saved.cubes) + len(saved.proved)
    assert _refuted(26, again.cases) and not light.exists()
    # what it refuses: one line each, exit 2, and no file written
    (tmp_path / "junk.npz").write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip
    (tmp_path / "w.json.tmp").mkdir()  # where the write's temporary file goes
    (tmp_path / "text.npz").write_text("not a zip")
    for args, why in [((tmp_path / "kept.json", tmp_path / "t.json"), "it is named .json"),
                      ((heavy, tmp_path / "t.txt"), "cases alone is named .json"),
                      ((heavy, tmp_path / "w.json"), "cannot write the checkpoint"),
                      ((tmp_path / "text.npz", tmp_path / "t.json"), "not a zip file"),
                      ((tmp_path / "junk.npz", tmp_path / "t.json"), "unreadable"),
                      ((tmp_path / "none.npz", tmp_path / "t.json"), "")]:
        bad = run("maze", "checkpoint-json", *map(str, args))
        assert bad.returncode == 2 and why in bad.stderr, bad.stderr
        assert len(bad.stderr.splitlines()) == 1 and not args[1].exists()


def test_a_length_proved_as_the_run_is_stopped_is_not_called_undecided():
    def stop(_: int, __: list) -> float:  # Ctrl-C as the next length's certificate is reckoned
        raise KeyboardInterrupt

    result = prove_bound(3, start=20, up_to=21, time_limit=600, reserve=stop)
    assert result.bound == 20 and result.interrupted and result.undecided is None


@pytest.mark.parametrize("workers", [1, 2])
def test_a_cube_that_may_not_be_split_deeper_is_set_aside_while_the_rest_are_searched(
        tmp_path: Path, workers: int):
    # at 26 moves and 6,000 states, NE* (searched first) outgrows the cap one move deep; NN*,
    # NS* and NW* do not
    path = tmp_path / "s.json"
    deep = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=1, workers=workers,
                       checkpoint=path)
    assert deep.outgrown and deep.bound == 0 and not deep.complete
    assert deep.note == ("the decision diagram outgrew 6,000 states at 26 moves, in cube NE* "
                         "split 1 move deep, as deep as `split_depth=1` allows")
    saved = load(path, 3, True)
    assert [c.pattern[:2] for c in saved.cubes] == ["NE"]
    assert sorted(p[:2] for p in saved.proved) == ["NN", "NS", "NW"]
    assert deep.saved == {"file": str(path), "length": 26, "cubes_left": 1,
                          "cases": len({k for c in saved.cubes for k in c.added}
                                       | {k for ks in saved.proved.values() for k in ks})}
    assert deep.undecided == {"length": 26, "cubes_proved": 3, "cubes_left": 1}
    # taken up a move deeper, only NE* is searched, and the length is proved
    again = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                        workers=workers, checkpoint=path)
    assert again.bound == 26 and not again.outgrown and not path.exists()
    assert _refuted(26, again.cases)
    out = run("maze", "bound", "--start", "26", "--up-to", "26", "--max-states", "6000",
              "--split-depth", "1", "--workers", str(workers))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "stopped: the decision diagram outgrew 6,000 states at 26 moves, in cube NE*" \
        in out.stdout
    # no checkpoint, and still how far the split came
    assert "nothing proved" in out.stdout
    assert "at 26 moves, split: 3 of 4 cubes proved, 1 left" in out.stdout


@pytest.mark.parametrize("stop", ["time limit", "interrupted"])
def test_a_search_stopped_after_a_cube_was_set_aside_still_names_it(tmp_path: Path,
                                                                    monkeypatch, stop: str):
    from smtpuzzle.puzzles.maze.bound import prove as bound

    # the searches: the length whole (outgrown, split), NN* (proved), NE* (set aside), then
    # NS*, stopped
    search, calls = bound.mdd_search, []

    def stopped_at_the_fourth(*args, **kwargs):
        calls.append(1)
        if len(calls) < 4:
            return search(*args, **kwargs)
        if stop == "interrupted":
            raise KeyboardInterrupt
        return "unknown", None, kwargs["added"], 0.0

    monkeypatch.setattr(bound, "mdd_search", stopped_at_the_fourth)
    path = tmp_path / "s.json"
    late = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=1,
                       checkpoint=path)
    assert late.outgrown and late.bound == 0 and late.interrupted == (stop == "interrupted")
    assert late.note == (f"{stop}; the decision diagram outgrew 6,000 states at 26 moves, in "
                         "cube NE* split 1 move deep, as deep as `split_depth=1` allows")
    # NS* first, NE* set aside last (NW* was ruled out at the split)
    assert [c.pattern[:2] for c in load(path, 3, True).cubes] == ["NS", "NE"]


@pytest.mark.parametrize("size, mirror, cube", [(3, False, "NE*S"), ("2x3", True, "*W*N"),
                                                 ("2x3", False, "S**E"), (3, True, "N*WW")])
def test_a_cubes_diagram_built_from_scratch_is_its_part_of_the_searchs(size, mirror, cube):
    from smtpuzzle.puzzles.maze.cases import free_layers, reduced_cases
    from smtpuzzle.puzzles.maze.mdd import case_diagram, cube_diagram, intersect, rule_diagram
    from smtpuzzle.puzzles.maze.rules import break_symmetry, strings_rule

    length = 16
    pattern = break_symmetry("*" * length, size)
    cube = (cube + "*" * length)[:length]
    cube = "".join(p if p != "*" else c for p, c in zip(pattern, cube, strict=True))
    cases = reduced_cases(size)
    layer_of = free_layers(pattern)

    def fixed(d):
        for at, (c, p) in enumerate(zip(cube, pattern, strict=True)):
            if c != p and d is not None:
                d = d.fixed(layer_of[at], "NESW".index(c))
        return d

    part = fixed(rule_diagram(pattern, strings_rule(size, mirror)))
    added = []  # five cases that leave strings of the cube, spread over the case list
    for k in range(0, len(cases.maze), max(1, len(cases.maze) // 200)):
        one = case_diagram(pattern, cases, k)
        both = None if one is None or part is None else intersect(part, one)
        if both is not None and len(added) < 5:
            part = both
            added.append(k)
    assert len(added) == 5
    # the search's order: the cases on the whole pattern, then the cube's part of it
    whole = rule_diagram(pattern, strings_rule(size, mirror))
    for k in added:
        whole = intersect(whole, case_diagram(pattern, cases, k))
    whole = fixed(whole)
    built = cube_diagram(pattern, cube, strings_rule(size, mirror), cases, added)
    assert built is not None and whole is not None
    assert built.count_strings() == whole.count_strings() > 0
    assert [t.shape for t in built.trans] == [t.shape for t in whole.trans]
    assert intersect(built, whole).count_strings() == whole.count_strings()


def test_a_checkpoint_of_the_first_format_is_taken_up(saved_search: Path, tmp_path: Path):
    old = tmp_path / "old.npz"
    with np.load(saved_search) as data:
        head = json.loads(str(data["header"]))
        trans = [data[f"cube0_layer{i}"] for i in range(len(data.files) - 1)]
    head = {**{k: v for k, v in head.items() if k not in ("cubes", "proved")},
            "format": "smtpuzzle maze bound checkpoint 1", "cases": head["cubes"][0]["cases"]}
    np.savez(old, header=np.array(json.dumps(head)),
             **{f"layer{i}": t for i, t in enumerate(trans)})
    saved = load(old, 3, True)
    assert [c.pattern for c in saved.cubes] == ["N" + "*" * 25] and not saved.proved
    assert saved.cubes[0].added == load(saved_search, 3, True).cubes[0].added
    assert prove_bound(3, start=26, up_to=26, checkpoint=old).bound == 26


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_the_cubes_waiting_their_turn_wait_in_the_checkpoint_not_in_memory(tmp_path: Path,
                                                                           monkeypatch):
    import gc

    parts = _parts_made(monkeypatch)

    def held_parts(checkpoint):
        held = []

        def heard(_: int, __: float, k: int, done: bool) -> None:
            gc.collect()
            held.append(sum(r() is not None for r in parts))

        result = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                             checkpoint=checkpoint, progress=heard)
        assert result.bound == 26 and result.steps[0].cubes > 3
        return held

    # a part is heard of once its cube's first product is built: by then its own first
    # diagram is gone, and its siblings' are in memory only without a checkpoint
    assert max(held_parts(None)) >= 2
    assert max(held_parts(tmp_path / "s.npz")) == 0


def test_a_save_that_fails_midway_leaves_the_last_file_and_no_half_one(saved_search: Path,
                                                                       tmp_path: Path,
                                                                       monkeypatch):
    from smtpuzzle.puzzles.maze.bound import resume

    path = tmp_path / "s.npz"
    path.write_bytes(saved_search.read_bytes())
    saved = load(path, 3, True)
    written = []

    def full_disk(zf, name, array):
        if written:
            raise OSError(28, "No space left on device")
        written.append(name)

    monkeypatch.setattr(resume, "_put", full_disk)
    with pytest.raises(OSError):
        resume.save(path, 3, saved.length, True, saved.cubes, saved.proved, 1.0)
    assert not path.with_name(path.name + ".tmp").exists()
    assert path.read_bytes() == saved_search.read_bytes()


def test_a_part_of_a_diagram_is_the_diagram_merged_whole_would_give():
    # Diagram.fixed merges only the layers up to the one it fixes
    from smtpuzzle.puzzles.maze.mdd import _minimize, intersect, mdd_search, rule_diagram
    from smtpuzzle.puzzles.maze.rules import MIRROR_RULE, break_symmetry

    pattern = break_symmetry("*" * 26, 3)
    kept = []
    mdd_search(pattern, 3, None, sampled=False, start=rule_diagram(pattern, MIRROR_RULE),
               kept=lambda d, added: kept.append(d) if len(added) == 6 else None)
    diagram = kept[0]
    last = len(diagram.trans) - 1
    for layer, letter in [(1, 0), (1, 1), (1, 3), (2, 2), (9, 1), (last, 0), (last, 2)]:
        part = diagram.fixed(layer, letter)
        trans = list(diagram.trans)
        trans[layer] = np.where(np.arange(4) == letter, trans[layer], -1).astype(trans[0].dtype)
        whole = _minimize(trans, np.ones(1, dtype=bool))
        if whole is None:
            assert part is None
            continue
        assert part is not None and part.count_strings() == whole.count_strings() > 0
        # minimal diagrams of the same strings: the same states, layer by layer
        assert [t.shape for t in part.trans] == [t.shape for t in whole.trans]
        both = intersect(part, whole, max_states=10**9)
        assert both is not None and both.count_strings() == part.count_strings()


def test_a_lemma_that_needs_a_long_search_is_refused_not_searched_for():
    # The pigeonhole formula of 9 pigeons in 8 holes is unsatisfiable, so the empty clause
    # follows from it, but only after a search of more than LEMMA_CONFLICTS conflicts (it is
    # accepted with no budget), where a lemma written for the check needs one. Neither the
    # deadline nor Ctrl-C could stop a longer such search, so the checker gives up on it.
    from smtpuzzle.backends.rup import ProofChecker

    var = {(p, h): 8 * p + h + 1 for p in range(9) for h in range(8)}
    clauses = [[var[p, h] for h in range(8)] for p in range(9)]
    clauses += [[-var[p, h], -var[q, h]] for h in range(8)
                for p, q in itertools.combinations(range(9), 2)]
    checker = ProofChecker(clauses)
    try:
        assert checker.first_not_implied([clauses[0], []]) == 1  # the first follows at once
    finally:
        checker.close()


def test_cli_bound_prints_the_string_that_ends_it():
    out = run("maze", "bound", "--size", "2x2")
    assert out.returncode == 0, out.stderr
    line = out.stdout.splitlines()[-1]
    assert line.startswith("a string of 11 moves solves every case (verified), so it is the "
                           "least length: ")
    assert check(line.split()[-1], "2x2").unsolved == 0
    # started past the least length, the string found says nothing of the least
    out = run("maze", "bound", "--size", "2x2", "--start", "14", "--json")
    data = json.loads(out.stdout)
    assert data["bound"] == 0 and data["verified"] and len(data["string"]) == 14
    text = run("maze", "bound", "--size", "2x2", "--start", "14").stdout
    assert "(verified): " in text and "least" not in text


def test_clause_order_is_no_part_of_a_certificate(certificate: Path, tmp_path: Path):
    def shuffled(text: str) -> str:
        lines = text.splitlines()
        head = next(i for i, line in enumerate(lines) if line.startswith("p "))
        clauses = [" ".join(reversed(line.split()[:-1])) + " 0" for line in lines[head + 1:]]
        return "\n".join(lines[:head + 1] + clauses[::-1]) + "\n"

    checked = check_certificate(_tampered(certificate, tmp_path, cnf=shuffled), time_limit=120)
    assert checked.verdict == "verified", checked.reason


def test_a_certificate_write_cut_short_leaves_the_old_one_whole(certificate: Path,
                                                               tmp_path: Path, monkeypatch):
    from smtpuzzle.puzzles.maze.bound import certificate as module

    copy = _tampered(certificate, tmp_path)
    before = {p.name: p.read_bytes() for p in copy.iterdir()}

    def cut(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "write_dimacs", cut)
    with pytest.raises(KeyboardInterrupt):
        write_certificate(copy, 17, [(1, 0)])
    assert {p.name: p.read_bytes() for p in copy.iterdir()} == before
    with pytest.raises(KeyboardInterrupt):
        write_certificate(tmp_path / "new", 17, [(1, 0)])
    assert list((tmp_path / "new").iterdir()) == []


def test_either_pick_proves_a_bound_and_auto_samples_on_blocked_4x4():
    # The sampled case cut the blocked 4x4's proof at 28 moves from 43 s to 0.8 s (78
    # cases to 25), while on 3x3 the first failing case is 3x faster, and on 4x4 with thin
    # walls it reaches 54 moves where sampling outgrows the cap at 52 (bench/RESULTS.md).
    assert [samples(s) for s in (3, 4, "4x4", "3x4", "2x3")] == [False, True, False, False,
                                                                   False]
    first = prove_bound(4, start=20, up_to=20, pick="first")
    sampled = prove_bound(4, start=20, up_to=20, pick="sampled")
    assert first.bound == sampled.bound == 20
    assert (first.pick, sampled.pick, prove_bound(4, start=20, up_to=20).pick) == (
        "first", "sampled", "sampled")
    assert _refuted(20, first.cases, 4) and _refuted(20, sampled.cases, 4)
    assert len(sampled.cases) < len(first.cases)
    assert not _refuted(20, sampled.cases[:-1], 4)  # the last case added was needed
    three = prove_bound(3, start=16, up_to=16)
    assert three.pick == "first" and three.as_json()["pick"] == "first"
    with pytest.raises(PuzzleError, match="`pick` is auto, first, sampled, not 'best'"):
        prove_bound(3, pick="best")
    out = run("maze", "bound", "--up-to", "3", "--pick", "best")
    assert out.returncode == 2 and "--pick is auto, first, sampled" in out.stderr


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_a_search_of_free_moves_alone_picks_its_cases_as_the_bound_does():
    from smtpuzzle.puzzles.maze.search import search

    # 3x3: the first failing case, so the search adds the bound's cases (3x faster at 32
    # moves than sampling them); 4x4 blocked: the sampled one, half as many as the first.
    assert search("*" * 28, 3).mazes_added == len(prove_bound(3, start=28, up_to=28).cases)
    assert search("*" * 24, 4).mazes_added < len(prove_bound(4, start=24, up_to=24,
                                                             pick="first").cases)


def test_a_check_or_a_build_stopped_by_ctrl_c_says_so_in_its_json(certificate: Path,
                                                                   monkeypatch):
    from smtpuzzle.puzzles.maze import greedy
    from smtpuzzle.puzzles.maze.bound import certificate as module

    def cut(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "_check_proof", cut)
    checked = check_certificate(certificate, time_limit=120)
    assert checked.verdict == "unknown" and checked.as_json()["interrupted"] is True
    monkeypatch.setattr(greedy, "shortest_completion", cut)
    built = greedy.build_string(3, time_limit=60)
    assert built.string is None and built.as_json()["interrupted"] is True


def test_a_run_stopped_as_a_length_is_proved_saves_it_and_goes_on_from_the_next(
        tmp_path: Path):
    path = tmp_path / "search.json"

    def stop_once_proved(length: int, _: float, __: int, done: bool) -> None:
        if done and length == 6:
            raise KeyboardInterrupt

    first = prove_bound("2x2", start=5, up_to=8, checkpoint=path, progress=stop_once_proved)
    assert first.interrupted and first.bound == 6 and path.exists()
    assert first.saved is not None and first.saved["length"] == 6
    assert first.saved["cubes_left"] == 0 and first.undecided is None
    # taken up without --start: the length saved holds nothing to search, then 7 and 8
    second = prove_bound("2x2", up_to=8, checkpoint=path)
    assert second.resumed["length"] == 6 and second.bound == 8
    assert [s.length for s in second.steps] == [6, 7, 8] and not path.exists()
    assert second.cases == prove_bound("2x2", start=8, up_to=8).cases


def test_an_error_in_a_split_search_saves_what_was_proved_first(tmp_path: Path,
                                                                monkeypatch):
    from smtpuzzle.puzzles.maze.bound import prove as bound

    search = bound.mdd_search
    calls = []

    def fails_third(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise MemoryError
        return search(*args, **kwargs)

    monkeypatch.setattr(bound, "mdd_search", fails_third)
    path = tmp_path / "s.json"
    with pytest.raises(MemoryError):
        prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8, checkpoint=path)
    saved = load(path, 3, True)
    assert len(saved.proved) == 2 and saved.cubes
    monkeypatch.setattr(bound, "mdd_search", search)
    again = prove_bound(3, start=26, up_to=26, max_states=6000, split_depth=8,
                        checkpoint=path)
    assert again.bound == 26 and again.resumed["cubes"] >= 3


def test_covers_says_whether_split_cubes_hold_every_string():
    """Against every string of the pattern, on random split trees with cubes taken out,
    put twice, or put in that no split makes."""
    rng = random.Random(25)
    pattern = "N*S***"
    free = [i for i, p in enumerate(pattern) if p == "*"]
    strings = ["".join(t) for t in itertools.product(*[
        "NESW" if p == "*" else p for p in pattern])]

    def fits(string: str, cube: str) -> bool:
        return all(c in ("*", s) for s, c in zip(string, cube, strict=True))

    for _ in range(300):
        leaves, open_ = [], [pattern]
        while open_:
            cube = open_.pop()
            at = cube.find("*")
            if at >= 0 and rng.random() < 0.6:
                open_ += [cube[:at] + m + cube[at + 1:] for m in "NESW"]
            else:
                leaves.append(cube)
        cubes = list(leaves)
        if rng.random() < 0.5:
            cubes.remove(rng.choice(cubes))
        if cubes and rng.random() < 0.3:
            cubes.append(rng.choice(cubes))
        stray = rng.random() < 0.5
        if stray:  # its fixed moves not the first free ones: never made by a split
            made = list(pattern)
            for i in rng.sample(free, 2):
                made[i] = rng.choice("NESW")
            cubes.append("".join(made))
        truth = all(any(fits(s, c) for c in cubes) for s in strings)
        got = covers(cubes, pattern)
        assert got <= truth and (stray or got == truth), cubes


def test_a_checkpoint_save_that_fails_leaves_the_cubes_where_the_file_has_them(
        tmp_path: Path):
    from smtpuzzle.puzzles.maze.bound.resume import Cube, save

    pattern = "N" + "*" * 25
    waiting = [Cube(pattern[:1] + m + pattern[2:], [], None, stored=j + 1)
               for j, m in enumerate("NESW")]
    # its diagrams are to be copied from a file that is not there
    with pytest.raises(OSError):
        save(tmp_path / "gone.npz", 3, 26, True, waiting, {}, 1.0)
    assert [c.stored for c in waiting] == [1, 2, 3, 4] and not list(tmp_path.iterdir())
    # cubes that leave strings out are never written: the last good file stays
    path = tmp_path / "s.json"
    save(path, 3, 26, True, waiting, {}, 1.0)
    kept = path.read_text()
    with pytest.raises(ValueError, match="would leave strings out"):
        save(path, 3, 26, True, waiting[1:], {}, 2.0)
    assert path.read_text() == kept and len(list(tmp_path.iterdir())) == 1


def test_the_cli_says_a_checkpoint_saved_as_a_length_is_proved_goes_on_from_the_next(
        tmp_path: Path, monkeypatch):
    from typer.testing import CliRunner

    from smtpuzzle.cli.app import app
    from smtpuzzle.puzzles.maze.bound import prove as bound

    real = bound.prove_bound

    def stopped_at_6(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        def shown(length: int, seconds: float, k: int, done: bool) -> None:
            progress(length, seconds, k, done)
            if done and length == 6:
                raise KeyboardInterrupt
        return real(*args, progress=shown, **kwargs)

    monkeypatch.setattr(bound, "prove_bound", stopped_at_6)
    path = tmp_path / "search.json"
    out = CliRunner().invoke(app, ["maze", "bound", "--size", "2x2", "--start", "5",
                                   "--up-to", "8", "--checkpoint", str(path)])
    assert out.exit_code == 1, out.output
    assert "saved the search at 6 moves" in out.output
    assert "proved: a run taking it up begins at 7" in out.output
    assert "cubes left" not in out.output and path.exists()


def test_public_api_takes_sizes_as_the_command_line_writes_them(tmp_path):
    import smtpuzzle

    square = smtpuzzle.prove_maze_bound("3x3", up_to=16)
    assert square.size == 3 and square.bound == 16 and square.first_move == "N"
    assert square.cases == prove_bound(3, up_to=16).cases
    assert square.write_certificate(str(tmp_path / "c")) >= len(square.cases)
    with pytest.raises(TimeoutError, match="not written within 0.0 s"):
        square.write_certificate(tmp_path / "late", time_limit=0)
    assert not (tmp_path / "late" / JSON).exists() and not (tmp_path / "late" / CNF).exists()
    checked = smtpuzzle.check_maze_bound(str(tmp_path / "c"))
    assert isinstance(checked, smtpuzzle.MazeBoundCheck)
    assert (checked.verdict, checked.length) == ("verified", 16)
    for call in (lambda: smtpuzzle.prove_maze_bound("3by3"),
                 lambda: smtpuzzle.build_maze_string("1x1"),
                 lambda: smtpuzzle.shorten_maze_string(KNOWN_79, "big")):
        with pytest.raises(PuzzleError, match="maze size is|maze rectangle"):
            call()
    nothing = smtpuzzle.prove_maze_bound(3, time_limit=1e-9)
    with pytest.raises(PuzzleError, match="no bound was proved"):
        nothing.write_certificate(tmp_path / "none")
    blocked = smtpuzzle.prove_maze_bound(4, up_to=3)
    with pytest.raises(PuzzleError, match="blocked cells have no certificate"):
        blocked.write_certificate(tmp_path / "blocked")
    assert not (tmp_path / "none").exists() and not (tmp_path / "blocked").exists()
