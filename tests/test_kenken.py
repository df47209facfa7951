"""KenKen: the shipped puzzles (models/kenken/) have their known solutions on every back end,
uniqueness proven; random small KenKens count as many solutions as a brute force over all
4x4 Latin squares; impossible cages answer none; bad files give one-line errors naming the
file and line."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

import smtpuzzle.formats.kenken as kenken_format
from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.formats.kenken import load_kenken, parse_kenken
from smtpuzzle.puzzles.kenken.puzzle import Cage, KenKen
from smtpuzzle.puzzles.kenken.solve import solve_kenken
from smtpuzzle.result import Status
from tests.helpers import ROOT, cli

MODELS = ROOT / "models" / "kenken"
# The solutions each shipped puzzle was made from (an independent backtracking search
# also finds exactly these, and nothing else).
KNOWN = {
    "kenken-4x4": "1324 3241 4132 2413",
    "kenken-6x6": "325461 456213 142356 513642 634125 261534",
    "kenken-9x9": "946238175 395742681 879621453 158964732 724185369 283576914 "
                  "431897526 612359847 567413298",
}


def _grid(text: str) -> np.ndarray:
    return np.array([[int(ch) for ch in row] for row in text.split()])


def _latin_squares(n: int) -> list[np.ndarray]:
    rows = list(itertools.permutations(range(1, n + 1)))
    out: list[list[tuple[int, ...]]] = [[]]
    for _ in range(n):
        out = [sq + [r] for sq in out for r in rows
               if all(all(a != b for a, b in zip(r, prev, strict=True)) for prev in sq)]
    return [np.array(sq) for sq in out]


LATIN4 = _latin_squares(4)


def _brute(puzzle: KenKen) -> set[bytes]:
    ok = set()
    for sq in LATIN4:
        if all(c.holds([int(sq[r, k]) for r, k in c.cells]) for c in puzzle.cages):
            ok.add(sq.tobytes())
    return ok


def _random_kenken(seed: int) -> KenKen:
    """Random cages over a random 4x4 Latin square, clues from its values (in a third of
    them one clue of a larger cage is one more, so some have no solution)."""
    rng = random.Random(seed)
    sq = LATIN4[rng.randrange(len(LATIN4))]
    owner = {(r, c): r * 4 + c for r in range(4) for c in range(4)}
    for _ in range(rng.randrange(5, 11)):  # merge neighbouring cages
        r, c = rng.randrange(4), rng.randrange(4)
        nb = rng.choice([(r + 1, c), (r, c + 1)])
        if nb in owner and owner[nb] != owner[(r, c)]:
            old = owner[nb]
            for cell, k in owner.items():
                if k == old:
                    owner[cell] = owner[(r, c)]
    cages = []
    for k in sorted(set(owner.values())):
        cells = tuple(sorted(cell for cell, o in owner.items() if o == k))
        vals = [int(sq[cell]) for cell in cells]
        if len(cells) == 1:
            op, target = "=", vals[0]
        elif len(cells) == 2 and rng.random() < 0.5:
            op = rng.choice("-/")
            a, b = max(vals), min(vals)
            target = a - b if op == "-" else (a // b if a % b == 0 else 2)
        else:
            op = rng.choice("+*")
            target = sum(vals) if op == "+" else int(np.prod(vals))
        cages.append(Cage(str(k), cells, target, op))
    larger = [i for i, c in enumerate(cages) if len(c.cells) > 1]
    if larger and rng.random() < 1 / 3:
        i = rng.choice(larger)
        cages[i] = Cage(cages[i].name, cages[i].cells, cages[i].target + 1, cages[i].op)
    return KenKen(4, cages, f"random-{seed}")


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_solution_found_verified_and_unique(name, backend_name):
    puzzle = load_kenken(MODELS / f"{name}.kenken")
    ans = solve_kenken(puzzle, backend_name, time_limit=120)
    assert ans.status is Status.UNIQUE and ans.complete
    assert len(ans.solutions) == 1
    assert np.array_equal(ans.solutions[0], _grid(KNOWN[name]))
    puzzle.verify(ans.solutions[0])


def test_every_shipped_puzzle_has_a_known_solution():
    assert {p.stem for p in MODELS.glob("*.kenken")} == set(KNOWN)


@pytest.mark.parametrize("seed", range(8))
def test_random_4x4_kenkens_agree_with_a_brute_force(seed, backend_name):
    puzzle = _random_kenken(seed)
    expected = _brute(puzzle)
    ans = solve_kenken(puzzle, backend_name, limit=None)
    assert ans.complete
    assert {g.astype(LATIN4[0].dtype).tobytes() for g in ans.solutions} == expected
    assert len(ans.solutions) == len(expected)
    want = {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)
    assert ans.status is want


def test_the_random_puzzles_cover_none_unique_and_multiple():
    counts = {min(len(_brute(_random_kenken(s))), 2) for s in range(8)}
    assert counts == {0, 1, 2}


IMPOSSIBLE = "size 4\nA A B B\nB B B B\nB B B B\nB B B B\nB 37+\n"


@pytest.mark.parametrize("clue", ["A 7*", "A 9+", "A 5-", "A 5/"])
def test_a_cage_with_no_solution_gives_none(clue, backend_name):
    # Two cells of one row, values 1..4: no pair multiplies to 7, adds to 9, differs by 5
    # or has quotient 5. The same grid with "A 3+" has solutions.
    ans = solve_kenken(parse_kenken(IMPOSSIBLE + clue, "t.kenken"), backend_name)
    assert ans.status is Status.NONE and ans.complete and not ans.solutions
    control = solve_kenken(parse_kenken(IMPOSSIBLE + "A 3+", "t.kenken"), backend_name)
    assert control.status is Status.MULTIPLE


@pytest.mark.parametrize("backend", ["cpsat", "sat", "z3"])
def test_a_given_outside_1_to_n_gives_none(backend):
    # the out-of-range given in the last cell: sat fails when that integer comes last
    text = "size 4\nA B B B\nB B B B\nB B B B\nB B B C\nA 1\nB 34+\nC 5\n"
    puzzle = parse_kenken(text, "t.kenken")
    assert solve_kenken(puzzle, backend).status is Status.NONE


def test_several_solutions_answer_multiple_with_two_verified():
    rows = "size 3\nA A A\nB B B\nC C C\nA 6+\nB 6+\nC 6+\n"
    puzzle = parse_kenken(rows, "rows.kenken")
    ans = solve_kenken(puzzle)
    assert ans.status is Status.MULTIPLE and len(ans.solutions) == 2
    assert not np.array_equal(*ans.solutions)
    assert len(solve_kenken(puzzle, limit=None).solutions) == 12  # every 3x3 Latin square


def test_the_format_docstring_example_is_a_unique_puzzle():
    doc = kenken_format.__doc__
    ans = solve_kenken(parse_kenken(doc[doc.index("    size"):], "doc"))
    assert ans.status is Status.UNIQUE
    assert np.array_equal(ans.solutions[0], _grid("213 132 321"))


def test_the_readme_example_is_the_same_puzzle():
    readme = (ROOT / "models" / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## KenKen"):]
    text = section[section.index("```text") + len("```text"):section.index("```\n\n")]
    puzzle = parse_kenken(text, "README")
    assert puzzle.name == "A 3x3 KenKen"
    doc = kenken_format.__doc__
    assert puzzle.cages == parse_kenken(doc[doc.index("    size"):], "doc").cages


def test_answer_as_json():
    ans = solve_kenken(load_kenken(MODELS / "kenken-4x4.kenken"))
    data = json.loads(json.dumps(ans.as_json()))
    assert data["status"] == "unique" and data["count"] == 1
    assert data["name"] == "A 4x4 KenKen"
    assert data["solutions"] == [_grid(KNOWN["kenken-4x4"]).tolist()]


def test_the_verifier_rejects_a_latin_square_that_breaks_a_cage():
    puzzle = load_kenken(MODELS / "kenken-4x4.kenken")
    grid = _grid(KNOWN["kenken-4x4"])[[1, 0, 2, 3]]  # rows swapped: still Latin
    with pytest.raises(VerificationError, match="cage"):
        puzzle.verify(grid)
    with pytest.raises(VerificationError, match="column"):
        puzzle.verify(np.array([[1, 2, 3, 4]] * 4))


def test_x_and_star_both_multiply_and_a_single_cell_needs_no_operation():
    a = parse_kenken("size 2\nA B\nA C\nA 2x\nB 2\nC 1=\n", "t")
    b = parse_kenken("size 2\nA B\nA C\nA 2*\nB 2\nC 1\n", "t")
    assert a.cages == b.cages


GOOD = "size 2\nA B\nA C\nA 2*\nB 2\nC 1\n"


@pytest.mark.parametrize("text, line, words", [
    ("", None, "no KenKen"),
    ("# only a comment\n", None, "no KenKen"),
    ("size two\n", 1, "expected 'size N'"),
    ("size \u00b2\n", 1, "expected 'size N'"),
    ("\n# c\nsize 2 2\n", 3, "expected 'size N'"),
    ("size 0\n", 1, "1 to 16"),
    ("size 2\nA B\n", 1, "needs 2 rows"),
    ("size 2\nA B C\nA C\nA 2*\n", 2, "2 letters or digits"),
    ("size 2\nA B\nA -\nA 2*\n", 3, "2 letters or digits"),
    ("size 2\nA B\nA C\nA 2*\nB 2\nC 1\nD 3+\n", 7, "cage 'D', which is not"),
    ("size 2\nA B\nA C\nA 2*\nB 2\nC 1\nB 1\n", 7, "second clue"),
    ("size 2\nA B\nA C\nA 2*\nB 2\n", 3, "cage C has no clue"),
    ("size 2\nA B\nB A\nA 3+\nB 3+\n", 2, "not connected"),
    ("size 2\nA B\nA C\nA two*\nB 2\nC 1\n", 4, "expected a clue like"),
    ("size 2\nA B\nA C\nA \u00b2*\nB 2\nC 1\n", 4, "expected a clue like"),
    ("size 2\nA B\nA C\nA\nB 2\nC 1\n", 4, "expected a clue like"),
    ("size 2\nA B\nA C\nA 2%\nB 2\nC 1\n", 4, "expected a clue like"),
    ("size 2\nA B\nA C\nA 3\nB 2\nC 1\n", 4, "needs an operation"),
    ("size 3\nA A A\nB C D\nE F G\nA 2-\n", 5, "'-' takes two cells"),
    ("size 2\nA B\nA C\nA 3=\nB 2\nC 1\n", 4, "'=' takes one cell"),
    ("size 2\nA B\nA C\nA 0+\nB 2\nC 1\n", 4, "at least 1"),
    # targets no cage can reach: refused at once (past 2**53 they made no model at all)
    ("size 2\nA A\nB B\nA 99999999999999999999999+\nB 3+\n", 4,
     "no solution: cage A (2 cells of 1..2) reaches at most 4 with '+', not a number of 23 "
     "digits"),
])
def test_a_bad_file_gives_a_one_line_error_naming_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.kenken"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PuzzleError) as err:
        load_kenken(path)
    message = str(err.value)
    assert "\n" not in message and words in message
    where = str(path) if line is None else f"{path}:{line}"
    assert message.startswith(f"{where}: ")


def test_a_missing_or_binary_file_is_a_puzzle_error(tmp_path):
    with pytest.raises(PuzzleError, match="bad.kenken"):
        load_kenken(tmp_path / "bad.kenken")
    (tmp_path / "bin.kenken").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PuzzleError, match="bin.kenken:1: not UTF-8"):
        load_kenken(tmp_path / "bin.kenken")
    assert load_kenken(_write(tmp_path, GOOD)).name == "good"


def _write(tmp_path, text: str):
    path = tmp_path / "good.kenken"
    path.write_text(text, encoding="utf-8")
    return path


# -- the command line ----------------------------------------------------------------------

@pytest.mark.parametrize("backend", ["cpsat", "sat", "z3"])
def test_solve_by_library_name_prints_the_known_grid(backend):
    p = cli("solve", "kenken-6x6", "--backend", backend, "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["status"] == "unique" and data["complete"]
    assert np.array_equal(np.array(data["solutions"][0]), _grid(KNOWN["kenken-6x6"]))


def test_solve_counts_and_lists_them_in_text():
    p = cli("solve", str(MODELS / "kenken-4x4.kenken"), "--count")
    assert p.returncode == 0, p.stderr
    assert "unique" in p.stdout and "1 solution (all of them)" in p.stdout
    assert "1 3 2 4" in p.stdout and "verified" in p.stdout


def test_the_library_lists_the_kenkens_and_pictures_are_refused(tmp_path):
    listing = cli("list", "--json")
    names = {m["name"] for m in json.loads(listing.stdout)}
    assert set(KNOWN) <= names and "norvig-top95" in names
    p = cli("solve", "kenken-4x4", "--svg", str(tmp_path / "k.svg"))
    assert p.returncode == 2 and "not for kenken puzzles" in p.stderr
    assert not (tmp_path / "k.svg").exists()


def test_a_bad_kenken_file_on_the_command_line_is_one_line_exit_2(tmp_path):
    path = tmp_path / "bad.kenken"
    path.write_bytes(b"size 4\n\xff\n")
    p = cli("solve", str(path))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "bad.kenken:2" in p.stderr and "UTF-8" in p.stderr


def test_cage_tuples_keep_the_latin_rule_inside_the_cage():
    from smtpuzzle.puzzles.kenken.puzzle import allowed

    row = Cage("A", ((0, 0), (0, 1), (0, 2)), 4, "*")
    assert allowed(row, 4) == []  # 1*1*4 and 1*2*2 repeat a value in the row
    ell = Cage("B", ((0, 0), (0, 1), (1, 0)), 4, "*")
    # the two ends share neither row nor column: they may be equal
    assert sorted(allowed(ell, 4)) == [(1, 2, 2), (4, 1, 1)]
    pair = Cage("C", ((0, 0), (0, 1)), 1, "/")
    assert allowed(pair, 4) == []  # a == b in one row


@pytest.mark.parametrize("seed", range(8))
def test_product_cages_that_count_their_values_agree_with_a_brute_force(
        seed, backend_name, monkeypatch):
    from smtpuzzle.puzzles.kenken import puzzle as kenken_puzzle

    monkeypatch.setattr(kenken_puzzle, "MAX_TUPLES", 0)  # every product cage counts
    puzzle = _random_kenken(seed)
    ans = solve_kenken(puzzle, backend_name, limit=None)
    assert ans.complete
    assert {g.astype(LATIN4[0].dtype).tobytes() for g in ans.solutions} == _brute(puzzle)


def test_factor_counts_are_the_multisets_a_brute_force_finds():
    from smtpuzzle.puzzles.kenken.puzzle import allowed, factor_counts

    rng = random.Random(5)
    for _ in range(300):
        n, k = rng.randint(2, 5), rng.randint(1, 4)
        cells: set[tuple[int, int]] = set()
        while len(cells) < k:
            cells.add((rng.randrange(n), rng.randrange(n)))
        target = rng.choice([1, 1, 2, 7]) * int(np.prod([rng.randint(1, n) for _ in cells]))
        cage = Cage("A", tuple(sorted(cells)), target, "*")
        most = min(len({r for r, _ in cells}), len({c for _, c in cells}))
        brute = set()
        for t in itertools.product(range(1, n + 1), repeat=k):
            counts = tuple(t.count(v) for v in range(1, n + 1))
            if int(np.prod(t)) == target and max(counts) <= most:
                brute.add(counts)
        assert sorted(factor_counts(cage, n)) == sorted(brute), cage
        assert {tuple(t.count(v) for v in range(1, n + 1)) for t in allowed(cage, n)} <= brute


def test_a_row_cage_of_nine_factorial_is_a_few_multisets_not_362880_tuples(backend_name):
    rows = "\n".join(" ".join("ABCDEFGHI"[i] * 9) for i in range(9))
    clues = "\n".join(f"{c} 362880*" for c in "ABCDEFGHI")
    puzzle = parse_kenken(f"size 9\n{rows}\n{clues}\n", "rows.kenken", "rows")
    model, _ = puzzle.build()
    assert sum(len(t.tuples) for t in model.ints.tables) < 100
    ans = solve_kenken(puzzle, backend_name, time_limit=60)
    assert ans.status is Status.MULTIPLE and len(ans.solutions) == 2
