"""Colour nonograms: the line solver, beliefs and every back end against brute force, the
readers (webpbn XML, colour .non) and their errors, shipped puzzles, the command line."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.nonogram_files import load_nonogram
from smtpuzzle.puzzles.nonogram import beliefs, linesolve
from smtpuzzle.puzzles.nonogram.clues import Colour, gaps
from smtpuzzle.puzzles.nonogram.local import nearby_solution
from smtpuzzle.puzzles.nonogram.puzzle import Nonogram, clue_automaton
from smtpuzzle.puzzles.nonogram.solve import solve_nonogram
from tests.helpers import ROOT
from tests.helpers import cli as run

COLOUR = ROOT / "models" / "nonograms" / "colour"
WEBPBN = ROOT / "models" / "nonograms" / "webpbn-free"
PALETTE = (Colour("white", ".", "#ffffff"), Colour("red", "r", "#ff0000"),
           Colour("blue", "b", "#0000ff"), Colour("green", "g", "#00ff00"))


def runs(line) -> list[tuple[int, int]]:
    """The (length, colour) runs a line of colour indices reads (0 the background)."""
    return [(len(list(g)), int(c)) for c, g in itertools.groupby(line) if c]


def puzzle_of(grid: np.ndarray, colours: int) -> Nonogram:
    return Nonogram([runs(r) for r in grid], [runs(c) for c in grid.T],
                    colours=PALETTE[:colours])


def brute_force(puzzle: Nonogram) -> list[np.ndarray]:
    """Every grid of colour indices whose lines read the clues."""
    h, w, c = puzzle.height, puzzle.width, len(puzzle.colours)
    want_rows = [list(zip(a, b, strict=True)) for a, b in zip(puzzle.rows, puzzle.row_inks,
                                                              strict=True)]
    want_cols = [list(zip(a, b, strict=True)) for a, b in zip(puzzle.cols, puzzle.col_inks,
                                                              strict=True)]
    found = []
    for flat in itertools.product(range(c), repeat=h * w):
        g = np.array(flat).reshape(h, w)
        if [runs(r) for r in g] == want_rows and [runs(col) for col in g.T] == want_cols:
            found.append(g)
    return found


def test_a_run_of_each_colour_needs_a_gap_only_before_its_own_colour():
    p = Nonogram([[(2, "r"), (1, "b")], [(1, "r"), (1, "r")]], [[(2, "r")], [(1, "r")],
                                                               [(1, "b"), (1, "r")]],
                 colours=PALETTE[:3])
    assert p.spelled(p.rows[1], p.row_inks[1]) == "1r 1r"
    assert list(gaps(p.row_inks[0])) == [0, 0] and list(gaps(p.row_inks[1])) == [1, 0]
    ans = solve_nonogram(p)
    assert ans.status == "unique" and ans.solutions == [["rrb", "r.r"]]
    with pytest.raises(PuzzleError, match="row 1 clue 2r 2r needs 5 cells, the row has 4"):
        Nonogram([[(2, "r"), (2, "r")]], [[(1, "r")], [(1, "r")], [], [(1, "r")]],
                 colours=PALETTE[:3]).validate()
    with pytest.raises(PuzzleError, match="the row clues fill 0 red cells, the column clues 1"):
        Nonogram([[(1, "b")]], [[(1, "r")]], colours=PALETTE[:3]).validate()
    with pytest.raises(PuzzleError, match="colour 'purple' is not one of the puzzle's"):
        Nonogram([[(1, "purple")]], [[1]], colours=PALETTE[:3])


def test_the_colour_automaton_accepts_exactly_the_lines_of_its_clue():
    """Every line of up to 5 cells in three colours: the clue's automaton accepts it iff the
    line reads that clue (the gap between runs is optional between two colours)."""
    lines = [line for n in range(6) for line in itertools.product(range(3), repeat=n)]
    clues = {tuple(runs(line)) for line in lines}
    for clue in clues:
        transitions, finals = clue_automaton(tuple(r for r, _ in clue),
                                             tuple(c for _, c in clue))
        delta = {(a, b): t for a, b, t in transitions.tolist()}
        assert len(delta) == len(transitions)  # deterministic
        for line in lines:
            state = 0
            for letter in line:
                state = delta.get((state, letter))
                if state is None:
                    break
            accepted = state is not None and state in finals.tolist()
            assert accepted == (tuple(runs(line)) == clue), (clue, line)


def test_line_solver_and_beliefs_match_brute_force_on_random_colour_lines():
    rng = random.Random(1)
    for _ in range(400):
        n, c = rng.randint(1, 6), rng.randint(2, 4)
        truth = [rng.randrange(c) for _ in range(n)]
        clue = np.array([r for r, _ in runs(truth)], np.int64)
        ink = np.array([k for _, k in runs(truth)], np.int64)
        known = np.array([rng.choice([-1, -1, truth[i], rng.randrange(c)]) for i in range(n)],
                         np.int8)
        possible = np.zeros(n, np.int64)
        counts = np.zeros((n, c))
        for word in itertools.product(range(c), repeat=n):
            if runs(word) == runs(truth) and all(k < 0 or k == v for k, v in zip(known, word,
                                                                              strict=True)):
                for i, v in enumerate(word):
                    possible[i] |= 1 << v
                    counts[i, v] += 1
        masks = np.where(known < 0, (1 << c) - 1, 1 << np.maximum(known, 0)).astype(np.int64)
        settled = linesolve._settle_masks(masks, clue, ink, gaps(ink))
        out = np.zeros((n, c))
        placed = beliefs._colour_messages(known, clue, ink, gaps(ink), np.full((n, c), 1 / c),
                                          out)
        if not possible.any():
            assert settled == -1 and not placed
            continue
        assert settled >= 0 and (masks == possible).all()
        assert placed and np.allclose(out, counts / counts.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("seed", range(6))
def test_every_back_end_and_encoding_counts_as_brute_force(seed: int):
    rng = np.random.default_rng(seed)
    h, w, c = int(rng.integers(2, 4)), int(rng.integers(2, 4)), int(rng.integers(3, 5))
    grid = rng.integers(0, c, (h, w))
    if seed % 2:  # a symmetric one: deciding takes the symmetric searches first
        grid = np.maximum(grid, np.rot90(grid, 2))
    p = puzzle_of(grid, c)
    want = brute_force(p)
    for backend in ("cpsat", "z3", "sat"):
        for encoding in ("runs", "order", "automaton"):
            for presolve in (True, False):
                ans = solve_nonogram(p, backend, encoding=encoding, use_presolve=presolve,
                                     limit=None)
                assert ans.complete and ans.count == len(want), (backend, encoding, presolve)
                assert sorted(p.indices(s).tobytes() for s in ans.solutions) == \
                    sorted(g.astype(np.int8).tobytes() for g in want)
        verdict = solve_nonogram(p, backend).status
        assert verdict == ("unique" if len(want) == 1 else "multiple")


def test_a_second_solution_is_found_next_to_the_first():
    """On small random colour puzzles the windows find a second solution exactly when brute
    force has one (a 3x3 fits one window, and its search budget is never short there);
    on the shipped ones: next to the sparse 20x20's first solution, none next to a unique
    puzzle's."""
    for seed in range(18):
        rng = np.random.default_rng(seed)
        grid = rng.choice(3, size=(3, 3), p=[0.5, 0.3, 0.2])
        p = puzzle_of(grid, 3)
        want = {g.astype(np.int8).tobytes() for g in brute_force(p)}
        near = nearby_solution(p, p.strings(grid))
        if len(want) == 1:
            assert near is None
        else:
            assert near is not None and p.indices(near).tobytes() in want - {
                grid.astype(np.int8).tobytes()}
    sparse = load_nonogram(COLOUR / "made-sparse-20x20.xml")
    first = solve_nonogram(sparse).solutions[0]
    near = nearby_solution(sparse, first)
    assert near is not None and near != first
    sparse.verify(near)
    for unique in (WEBPBN / "webpbn-color-00047.xml", WEBPBN / "webpbn-color-00220.xml"):
        p = load_nonogram(unique)
        assert nearby_solution(p, p.goal) is None


def test_probing_and_guesses_keep_the_answer():
    """A sparse 6x6 in three colours with several solutions: every back end, with and without
    probing and guesses, says multiple; what decided each cell is reported."""
    rng = np.random.default_rng(3)
    p = puzzle_of(rng.choice(3, size=(6, 6), p=[0.5, 0.3, 0.2]), 3)
    count = solve_nonogram(p, "cpsat", limit=None).count
    assert count > 1
    for backend in ("sat", "z3"):
        for probing in (True, False):
            ans = solve_nonogram(p, backend, probing=probing)
            assert ans.status == "multiple"
            assert set(np.unique(ans.origins())) <= {0, 1, 2, 3, 4}


def test_webpbn_colour_puzzles_reproduce_their_goals():
    for name in ("webpbn-color-00047", "webpbn-color-00220"):
        p = load_nonogram(WEBPBN / f"{name}.xml")
        assert p.coloured and [c.name for c in p.colours] == ["white", "black", "red",
                                                               "green", "blue"]
        for backend in ("sat", "cpsat"):
            ans = solve_nonogram(p, backend)
            assert ans.status == "unique" and ans.solutions == [p.goal]
        ans = solve_nonogram(p, "z3", use_presolve=False)
        assert ans.status == "unique" and ans.solutions == [p.goal]


@pytest.mark.parametrize("path", sorted(p for p in COLOUR.glob("*") if p.suffix != ".md"),
                         ids=lambda p: p.stem)
def test_shipped_colour_puzzles_are_decided(path: Path):
    p = load_nonogram(path)
    ans = solve_nonogram(p, "cpsat")
    assert ans.status == ("multiple" if "sparse" in path.stem else "unique")
    if p.goal is not None and ans.status == "unique":
        assert ans.solutions == [p.goal]
    assert p.coloured


def test_uk_flag_reads_from_the_colour_non_format():
    p = load_nonogram(COLOUR / "uk-flag.non")
    assert (p.width, p.height) == (31, 15)
    assert [c.char for c in p.colours] == [".", "b", "r"]
    assert p.spelled(p.rows[0], p.row_inks[0]) == "3r 11b 3r 11b 3r"
    ans = solve_nonogram(p)
    assert ans.status == "unique" and ans.solutions[0][7] == "r" * 31


def test_colour_non_goal_and_default_ink(tmp_path: Path):
    path = tmp_path / "c.non"
    path.write_text("width 3\nheight 2\ncolor r #ff0000\nrows\n1r,2\n1,1r\ncolumns\n"
                    "1r,1\n1,1r\n1\ngoal \"r111r0\"\n")
    p = load_nonogram(path)
    assert p.chars == ".#r" and p.goal == ["r##", "#r."]
    assert solve_nonogram(p).solutions == [p.goal]
    path.write_text("width 1\nheight 1\ncolor r ff00\nrows\n1r\ncolumns\n1r\n")
    with pytest.raises(PuzzleError, match=r"c.non:3: a colour is 'color LETTER #rrggbb'"):
        load_nonogram(path)


XML_HEAD = '<?xml version="1.0"?>\n<puzzleset>\n<puzzle type="grid" defaultcolor="black">\n'


@pytest.mark.parametrize(("body", "where", "message"), [
    ('<color name="red" char="r">f00</color>\n<clues type="columns"><line>'
     '<count color="red">1</count></line></clues>\n<clues type="rows"><line>\n'
     '<count color="pink">1</count></line></clues>\n</puzzle></puzzleset>',
     ":7:1", "clue colour 'pink' is not defined"),
    ('<clues type="columns">' + "<line><count>1</count></line>" * 3 + '</clues>\n'
     '<clues type="rows"><line><count>1</count></line></clues>\n</puzzle></puzzleset>',
     "", "the row clues fill 1 cells, the column clues 3"),
    ('<clues type="columns"><line><count>1</count></line></clues>\n<clues type="rows">'
     "\n<line><count>1</count><count>1</count></line></clues>\n</puzzle></puzzleset>",
     ":6", "row 1 clue 1 1 needs 3 cells, the row has 1"),
    ("<clues type=\"columns\"><line><count>1</count></line>\n</puzzle>",
     ":5:3", "malformed XML: mismatched tag"),
    ('<color name="red">f00</color></puzzle></puzzleset>', ":4:1", "needs a char"),
    ('<clues type="columns"><line><count>x</count></line></clues></puzzle></puzzleset>',
     ":4:29", "a count is a positive whole number, not 'x'"),
])
def test_xml_errors_say_where(tmp_path: Path, body: str, where: str, message: str):
    path = tmp_path / "bad.xml"
    path.write_text(XML_HEAD + body)
    with pytest.raises(PuzzleError) as err:
        load_nonogram(path)
    assert message in str(err.value) and str(err.value).startswith(f"{path}{where}:")


def test_command_line_json_pictures_and_errors(tmp_path: Path):
    xml = WEBPBN / "webpbn-color-00047.xml"
    done = run("solve", str(xml), "--json", "--svg", str(tmp_path / "m.svg"))
    data = json.loads(done.stdout)
    goal = load_nonogram(xml).goal
    assert done.returncode == 0 and data["status"] == "unique" and data["solutions"] == [goal]
    svg = (tmp_path / "m.svg").read_text()
    assert "#4040ff" in svg.lower() and "clue-box" in svg
    done = run("solve", str(xml), "--encoding", "automaton", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["solutions"] == [goal]
    bad = tmp_path / "bad.xml"
    bad.write_text(XML_HEAD + "<clues>")
    done = run("solve", str(bad), "--json")
    assert done.returncode == 2 and json.loads(done.stdout)["error"].startswith(f"{bad}:")


def test_determined_and_dimacs_round_trip(tmp_path: Path):
    """--determined agrees with the cells every brute-force solution shares; a colour
    puzzle's CNF, solved outside and decoded, is verified."""
    rng = np.random.default_rng(11)
    p = puzzle_of(rng.choice(3, size=(3, 3), p=[0.4, 0.3, 0.3]), 3)
    sols = brute_force(p)
    assert len(sols) >= 1
    path = tmp_path / "p.non"
    letters = {1: "r", 2: "b"}
    path.write_text("width 3\nheight 3\ncolor r #ff0000\ncolor b #0000ff\nrows\n" + "".join(
        ",".join(f"{n}{letters[k]}" for n, k in zip(c, i, strict=True)) + "\n"
        for c, i in zip(p.rows, p.row_inks, strict=True)) + "columns\n" + "".join(
        ",".join(f"{n}{letters[k]}" for n, k in zip(c, i, strict=True)) + "\n"
        for c, i in zip(p.cols, p.col_inks, strict=True)))
    done = run("solve", str(path), "--determined", "--json")
    found = json.loads(done.stdout)["determined"]
    stack = np.array(sols)
    chars = np.array(list(".rb"))
    want = np.where((stack == stack[0]).all(axis=0), chars[stack[0]], "?")
    assert found == want.tolist()
    cnf, answer = tmp_path / "p.cnf", tmp_path / "p.out"
    assert run("export-cnf", str(path), "-o", str(cnf)).returncode == 0
    answer.write_text(run("solve-cnf", str(cnf)).stdout)
    done = run("decode", str(path), str(cnf), str(answer), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "sat"
