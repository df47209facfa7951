"""Nonograms: readers, the exact line solver, encodings on every back end, verdicts, CLI."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from smtpuzzle.backends import get_backend
from smtpuzzle.backends.dimacs import decode_answer, write_dimacs
from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.nonogram_files import load_nonogram
from smtpuzzle.library import resolve
from smtpuzzle.model import Model
from smtpuzzle.puzzles.nonogram.beliefs import _line_messages, beliefs, guesses
from smtpuzzle.puzzles.nonogram.linesolve import _solve_line, presolve
from smtpuzzle.puzzles.nonogram.local import nearby_solution
from smtpuzzle.puzzles.nonogram.puzzle import (
    ENCODINGS,
    Nonogram,
    add_line,
    grid_array,
    grid_strings,
    line_runs,
)
from smtpuzzle.puzzles.nonogram.solve import solve_nonogram
from smtpuzzle.puzzles.nonogram.symmetry import clue_symmetries
from smtpuzzle.result import Status
from tests.helpers import PYSAT_SOLVERS, ROOT, variant_id
from tests.helpers import cli as run

WEBPBN = ROOT / "models" / "nonograms" / "webpbn-free"
JWILK = ROOT / "models" / "nonograms" / "jwilk"
WITH_GOAL = sorted(p for p in WEBPBN.glob("*.non") if "goal" in p.read_text())
# The same, 00016's decision (7-8 s of the test command) with --runslow only.
GOALS = [pytest.param(p, marks=pytest.mark.slow) if p.stem == "webpbn-00016" else p
         for p in WITH_GOAL]
# Small jwilk puzzles (at most 225 cells), for the full back end x encoding matrix.
SMALL_JWILK = sorted(
    p for p in JWILK.glob("*.nin")
    if np.prod([int(v) for v in p.read_text().split("\n", 1)[0].split()]) <= 225)


def from_grid(rows: list[str], name: str = "grid") -> Nonogram:
    cols = ["".join(r[j] for r in rows) for j in range(len(rows[0]))]
    return Nonogram([line_runs(r) for r in rows], [line_runs(c) for c in cols], name=name)


def brute_force_count(puzzle: Nonogram) -> int:
    h, w = puzzle.height, puzzle.width
    n = 0
    for bits in itertools.product(".#", repeat=h * w):
        rows = ["".join(bits[r * w:(r + 1) * w]) for r in range(h)]
        if all(line_runs(r) == c for r, c in zip(rows, puzzle.rows, strict=True)) and all(
                line_runs("".join(r[j] for r in rows)) == c
                for j, c in enumerate(puzzle.cols)):
            n += 1
    return n


# -- readers -----------------------------------------------------------------------------

def test_non_reader_reads_metadata_and_goal():
    p = load_nonogram(WEBPBN / "webpbn-00001.non")
    assert (p.width, p.height, p.title, p.author) == (5, 10, "Dancer", "Jan Wolter")
    assert p.rows[1] == (2, 1) and p.cols[2] == (7,)
    assert p.goal is not None and p.goal[0] == ".##.."


def test_nin_and_clues_readers_agree(tmp_path: Path):
    nin = tmp_path / "x.nin"
    nin.write_text("3 2\n1 1\n\n1\n\n1\n")
    clues = tmp_path / "x.clues"
    clues.write_text("# a comment\ntitle: x\nrows:\n1, 1\n0\ncolumns:\n1\n-\n1\n")
    a, b = load_nonogram(nin), load_nonogram(clues)
    assert a.rows == b.rows == [(1, 1), ()]
    assert a.cols == b.cols == [(1,), (), (1,)]
    assert b.title == "x"


@pytest.mark.parametrize(("name", "text", "message"), [
    ("a.non", "width 3\nheight 1\nrows\n2,2\ncolumns\n1\n1\n1\n", "a.non:4: row 1 clue 2 2"),
    ("b.nin", "2 2\n1\n1\nx\n1\n", "b.nin:4: bad clue 'x'"),
    ("c.nin", "2 2\n1\n-1\n1\n1\n", "c.nin:3: bad clue '-1': negative run -1"),
    ("d.nin", "2 2\n2\n\n1\n\n", "d.nin: the row clues fill 2 cells, the column clues 1"),
    ("e.nin", "2 2\n1\n1\n1\n1\n1\n1\n", "e.nin:6: 6 clue lines for 2 rows + 2 columns"),
    ("f.nin", "3 3\n1\n1\n1\n1\n", "f.nin:5: 4 clue lines for 3 rows + 3 columns"),
    ("f.non", "width 2\nheight 2\nrows\n1\ncolumns\n1\n1\n", "f.non:5: rows: expected 2"),
    ("g.non", "width 2\nheight 2\nfoo 3\n", "g.non:3: unknown key 'foo'"),
    ("h.puz", "whatever", "unknown puzzle file type '.puz'"),
])
def test_bad_files_give_one_line_errors(tmp_path: Path, name: str, text: str, message: str):
    path = tmp_path / name
    path.write_text(text)
    p = run("solve", str(path), cwd=tmp_path)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def test_a_malformed_jwilk_file_is_reported_not_guessed():
    # data142.nin holds its clue block five times, run together: we refuse it.
    p = run("solve", str(JWILK / "data142.nin"))
    assert p.returncode == 2 and "data142.nin:47" in p.stderr


# -- line solver -------------------------------------------------------------------------

def random_lines(seed: int, count: int, longest: int = 9):
    """(clue, known cells, every fitting line) for random short lines: the clue of a random
    line, some of its cells known, and sometimes one known cell wrong (nothing fits)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(1, longest + 1))
        truth = "".join(rng.choice(["#", "."], n))
        clue = line_runs(truth)
        cells = np.full(n, -1, np.int8)
        for i in np.flatnonzero(rng.random(n) < 0.35):
            cells[i] = truth[i] == "#"
        if rng.random() < 0.3:
            i = int(rng.integers(n))
            cells[i] = 1 - max(int(cells[i]), 0)
        fits = [w for w in itertools.product("#.", repeat=n)
                if line_runs("".join(w)) == clue
                and all(cells[i] == -1 or (cells[i] == 1) == (w[i] == "#") for i in range(n))]
        yield clue, cells, fits


def test_line_solver_matches_brute_force_on_random_lines():
    for clue, cells, fits in random_lines(7, 1500):
        n = len(cells)
        got = cells.copy()
        fixed = _solve_line(got, np.array(clue, np.int64))
        if not fits:
            assert fixed == -1
            continue
        want = cells.copy()
        for i in range(n):
            seen = {w[i] for w in fits}
            if len(seen) == 1 and cells[i] == -1:
                want[i] = 1 if seen == {"#"} else 0
        assert fixed == int((want != cells).sum()) and (got == want).all()


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_one_line_models_have_exactly_the_fitting_lines(encoding: str):
    # The model's solutions are exactly the words that fit the clue and the known cells
    # (the order encoding's holes and constant bounds come from the known cells).
    rng = np.random.default_rng(11)
    sat = get_backend("sat")
    for _ in range(60):
        n = int(rng.integers(1, 9))
        truth = "".join(rng.choice(["#", "."], n))
        clue = line_runs(truth)
        known = np.full((1, n), -1, np.int8)
        for i in np.flatnonzero(rng.random(n) < 0.3):
            known[0, i] = truth[i] == "#"
        want = {"".join(w) for w in itertools.product("#.", repeat=n)
                if line_runs("".join(w)) == clue
                and all(known[0, i] == -1 or (known[0, i] == 1) == (w[i] == "#")
                        for i in range(n))}
        model = Model()
        cells = model.new_bools(n, user=True, names=[f"c{i}" for i in range(n)])
        fixed = known[0] != -1
        model.add_clauses(np.where(known[0][fixed] == 1, cells[fixed], -cells[fixed])[:, None])
        add_line(model, encoding, cells, known[0], clue)
        got = {grid_strings(np.asarray([r.values]))[0]
               for r in sat.solutions(model, limit=None)}
        assert got == want, (clue, known.tolist(), encoding)


# -- verdicts ----------------------------------------------------------------------------

@pytest.mark.parametrize("path", GOALS, ids=lambda p: p.stem)
def test_every_webpbn_goal_is_reproduced_and_unique(path: Path):
    p = load_nonogram(path)
    ans = solve_nonogram(p)
    assert ans.status == "unique" and ans.solutions == [p.goal]


@pytest.mark.parametrize("path", WITH_GOAL[:4], ids=lambda p: p.stem)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_goals_without_presolve_on_sat(path: Path, encoding: str):
    p = load_nonogram(path)
    ans = solve_nonogram(p, "sat", encoding=encoding, use_presolve=False)
    assert ans.status == "unique" and ans.solutions == [p.goal]


def test_two_solutions_are_declared_multiple_and_both_shown():
    p = from_grid(["#.", ".#"])
    ans = solve_nonogram(p, use_presolve=True)
    assert ans.status == "multiple"
    assert sorted(map(tuple, ans.solutions)) == [("#.", ".#"), (".#", "#.")]


# -- clue symmetries ---------------------------------------------------------------------

def _symmetrised(rng: np.random.Generator, h: int, w: int, kind: int) -> np.ndarray:
    g = rng.random((h, w)) < 0.4
    if kind == 1 and h == w:
        g = g | np.rot90(g, 1) | np.rot90(g, 2) | np.rot90(g, 3)
    elif kind == 2:
        g = g | np.fliplr(g)
    elif kind == 3:
        g = g | np.rot90(g, 2)
    return g


def test_clue_symmetries_map_every_solution_to_a_solution():
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(400):
        h, w, kind = int(rng.integers(1, 7)), int(rng.integers(1, 7)), int(rng.integers(4))
        grid = _symmetrised(rng, h, w, kind)
        if rng.random() < 0.3:  # an empty line on one side only hides nothing
            grid = np.vstack([grid, np.zeros((1, w), dtype=bool)])
        puzzle = from_grid(grid_strings(grid))
        names = set()
        for s in clue_symmetries(puzzle):
            puzzle.verify(grid_strings(s.apply(grid)))  # raises unless a solution
            names.add(s.name)
        if kind == 1 and h == w and grid.any():
            assert "rotation 90" in names
        if kind == 2 and grid.any():
            assert "mirror left-right" in names
        seen |= names
    assert {"rotation 90", "rotation 180", "mirror left-right", "transpose"} <= seen


@pytest.mark.parametrize("seed", range(3))
def test_verdicts_on_symmetric_clues_agree_with_brute_force(seed: int):
    rng = np.random.default_rng(seed)
    for kind in (1, 2, 3):
        puzzle = from_grid(grid_strings(_symmetrised(rng, 4, 4, kind)))
        if not clue_symmetries(puzzle):
            continue
        want = brute_force_count(puzzle)
        for backend in ("sat", "cpsat", "z3"):
            for pre in (True, False):
                ans = solve_nonogram(puzzle, backend, use_presolve=pre)
                assert ans.status == ("unique" if want == 1 else "multiple"), (backend, pre)
                assert len({tuple(s) for s in ans.solutions}) == len(ans.solutions)


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_symmetric_quotient_models_have_exactly_the_symmetric_solutions(seed: int):
    # The quotient (one variable per orbit, image lines built once, known-empty ends
    # trimmed) against every solution of the whole model that the symmetry fixes.
    rng = np.random.default_rng(seed)
    sat = get_backend("sat")
    tried = 0
    while tried < 6:
        h, w, kind = int(rng.integers(2, 6)), int(rng.integers(2, 6)), int(rng.integers(1, 4))
        grid = _symmetrised(rng, h, w, kind)
        if rng.random() < 0.5:
            grid = np.vstack([grid, np.zeros((1, w), dtype=bool)])
        puzzle = from_grid(grid_strings(grid))
        if not clue_symmetries(puzzle):
            continue
        tried += 1
        every = [np.asarray(r.values, dtype=bool)
                 for r in sat.solutions(puzzle.build_model(), limit=None)]
        for g, known in itertools.product(clue_symmetries(puzzle),
                                          (None, presolve(puzzle, probing=False).grid)):
            want = {v.tobytes() for v in every if (v[g.source] == v).all()}
            for backend, encoding in itertools.product(("sat", "cpsat"), ENCODINGS):
                model = puzzle.build_model(encoding, known=known, same=g.orbits())
                got = {np.asarray(r.values, dtype=bool).tobytes()
                       for r in get_backend(backend).solutions(model, limit=None)}
                assert got == want, (g.name, backend, encoding, known is None)


def test_knotty_is_multiple_through_its_rotational_symmetry():
    # Row clue i is column clue i reversed, inside a 39x39 core (row and column 40 are
    # empty): the clues are unchanged by rotation 90. Two different rotation-symmetric
    # solutions exist.
    puzzle = load_nonogram(WEBPBN / "knotty.non")
    assert "rotation 90" in {s.name for s in clue_symmetries(puzzle)}
    ans = solve_nonogram(puzzle)
    assert ans.status == "multiple" and len(ans.solutions) == 2
    assert ans.solutions[0] != ans.solutions[1]
    for s in ans.solutions:
        puzzle.verify(s)
    # The symmetric rounds respect a time limit too: too short to decide (the runs encoding
    # without guesses needs about 20 s here), so unknown.
    short = solve_nonogram(puzzle, "sat", encoding="runs", time_limit=2, guess=False)
    assert short.status == "unknown" and not short.complete


def test_contradiction_is_none_with_and_without_presolve():
    p = Nonogram(rows=[(2,), ()], cols=[(), (2,)])  # row 1 is full, column 1 is empty
    for pre in (True, False):
        ans = solve_nonogram(p, use_presolve=pre)
        assert ans.status == "none" and ans.solutions == []


@pytest.mark.parametrize("seed", range(6))
def test_counts_agree_with_brute_force_on_every_back_end_and_encoding(seed: int):
    rng = np.random.default_rng(seed)
    rows = ["".join(rng.choice(["#", "."], 4, p=[0.45, 0.55])) for _ in range(3)]
    p = from_grid(rows)
    want = brute_force_count(p)
    for backend in ("sat", "cpsat", "z3"):
        for encoding in ENCODINGS:
            for pre in (True, False):
                for guess in ((True, False) if backend == "sat" else (True,)):
                    ans = solve_nonogram(p, backend, encoding=encoding, use_presolve=pre,
                                         limit=None, guess=guess)
                    assert ans.complete and ans.count == want, (backend, encoding, pre, guess)


@pytest.mark.parametrize("path", SMALL_JWILK, ids=lambda p: p.stem)
def test_back_ends_and_encodings_agree_on_small_jwilk_puzzles(path: Path):
    p = load_nonogram(path)
    verdicts = {(b, e): solve_nonogram(p, b, encoding=e, use_presolve=False).status
                for b in ("sat", "cpsat", "z3") for e in ENCODINGS}
    verdicts[("presolve", "")] = solve_nonogram(p).status
    assert len(set(verdicts.values())) == 1, verdicts
    assert next(iter(verdicts.values())) in ("unique", "multiple")


def test_presolve_settles_line_solvable_puzzles_outright():
    pre = presolve(load_nonogram(WEBPBN / "webpbn-00016.non"), probing=False)
    assert pre.solved and pre.line_known == pre.grid.size


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_dimacs_round_trip(tmp_path: Path, encoding: str):
    from pysat.solvers import Solver

    p = load_nonogram(WEBPBN / "webpbn-00006.non")
    model = p.build_model(encoding)
    cnf_path = tmp_path / "cat.cnf"
    cnf = write_dimacs(model, cnf_path)
    with Solver(name="cadical195", bootstrap_with=cnf.as_lists()) as s:
        assert s.solve()
        lits = s.get_model()
    answer = tmp_path / "cat.out"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, lits)) + " 0\n")
    status, values = decode_answer(model, cnf_path, answer)
    assert status.value == "sat" and p.decode(values) == p.goal


# -- command line ------------------------------------------------------------------------

def test_cli_json_unique_by_library_name():
    out = json.loads(run("solve", "webpbn-00001", "--json").stdout)
    assert out["status"] == "unique" and out["solutions"] == [load_nonogram(
        resolve("webpbn-00001")).goal]
    assert isinstance(out["time_s"], float)


def test_cli_multiple_draws_both_and_writes_pictures(tmp_path: Path):
    path = tmp_path / "two.clues"
    path.write_text("rows:\n1\n1\ncolumns:\n1\n1\n")
    p = run("solve", str(path), "--svg", "two.svg", "--png", "two.png", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "multiple" in p.stdout
    assert "#.   .#" in p.stdout or ".#   #." in p.stdout
    svg = ET.parse(tmp_path / "two.svg").getroot()
    assert svg.tag.endswith("svg") and len(svg) > 4
    png = (tmp_path / "two.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (int(svg.get("width")), int(svg.get("height")))
    assert width > 2 * 2 * 32 and height > 2 * 32  # two grids of 32-pixel cells, with clues


def test_cli_count_and_export_decode(tmp_path: Path):
    out = json.loads(run("solve", "data001", "--count", "--json").stdout)
    assert out["status"] == "multiple" and out["complete"] and out["count"] >= 2
    assert len(out["solutions"]) == out["count"]
    from pysat.formula import CNF as PysatCNF
    from pysat.solvers import Solver

    cnf_path, answer = tmp_path / "d.cnf", tmp_path / "d.out"
    p = run("export-cnf", "webpbn-00001", "-o", str(cnf_path), "--encoding", "automaton")
    assert p.returncode == 0, p.stderr
    with Solver(name="minisat22", bootstrap_with=PysatCNF(from_file=str(cnf_path))) as s:
        assert s.solve()
        answer.write_text("SAT\n" + " ".join(map(str, s.get_model())) + " 0\n")
    p = run("decode", "webpbn-00001", str(cnf_path), str(answer), "--encoding", "automaton",
            "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["solutions"] == [load_nonogram(resolve("webpbn-00001")).goal]


def test_cli_counts_stop_at_the_limit_asked_and_say_why_they_stopped(tmp_path: Path):
    # every clue 1 on 5x5: the 120 permutation matrices
    perm = tmp_path / "perm5.non"
    perm.write_text("width 5\nheight 5\nrows\n" + "1\n" * 5 + "columns\n" + "1\n" * 5)
    exact = run("solve", str(perm), "--count", "--limit", "120")
    assert exact.returncode == 0 and "120 solutions (all of them)" in exact.stdout
    fewer = run("solve", str(perm), "--count", "--limit", "119", "--json")
    data = json.loads(fewer.stdout)
    assert fewer.returncode == 0 and data["count"] == len(data["solutions"]) == 119
    one = run("solve", str(perm), "--limit", "1")
    assert one.returncode == 0 and "1 solution (stopped at the limit of 1: there are more)" \
        in one.stdout and one.stdout.count("#") == 5  # one grid drawn, not two
    # a blank 4x4 Sudoku has 288: a count cut by the time limit says so and exits 1
    blank = tmp_path / "blank.sudoku"
    blank.write_text("." * 16 + " blank\n" + "." * 16 + " again\n")
    out = run("solve", str(blank), "--count", "--limit", "1", "--json")
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert out.returncode == 0 and [x["count"] for x in lines] == [1, 1]
    assert all(x["status"] == "multiple" for x in lines)
    cut = run("solve", str(blank), "--count", "--time-limit", "0.01")
    assert cut.returncode == 1 and "(stopped by the time limit: there may be more)" in cut.stdout


def test_cli_rejects_nonogram_options_for_tilings_sudoku_and_kenken():
    from typer.testing import CliRunner

    from smtpuzzle.cli.app import app

    def refused(*args: str) -> str:  # in this process: fourteen commands, no start-ups
        done = CliRunner().invoke(app, list(args))
        assert done.exit_code == 2, (args, done.output)
        return done.output

    for model in ("pentomino-6x10", "kenken-6x6", "norvig-hardest"):
        for option in ("--encoding=runs", "--no-guess", "--no-presolve", "--mark-cells"):
            assert "for nonograms only" in refused("solve", model, option), (model, option)
    assert "--distinct: for tilings only" in refused("solve", "kenken-6x6", "--distinct")
    assert "smtpuzzle count pentomino-6x10" in refused("solve", "pentomino-6x10", "--count")


def test_option_values_are_checked_even_when_the_presolve_answers():
    # Line solving alone settles 00006: the options must be refused all the same.
    for args, says in ((["--encoding", "foo"], "unknown nonogram encoding 'foo'"),
                       (["--backend", "exact-cover"], "exact cover solves tilings, not "
                        "nonogram puzzles"),
                       (["--distinct", "--limit", "2"], "--distinct: for tilings only")):
        p = run("solve", "webpbn-00006", *args)
        assert p.returncode == 2 and says in p.stderr and "Traceback" not in p.stderr, args
    p = run("solve", "kenken-4x4", "--backend", "exact-cover")
    assert p.returncode == 2 and "not kenken puzzles (try cpsat, sat, z3)" in p.stderr


def test_cli_reports_guesses_and_switches_them_off():
    # Line solving alone leaves most of 00803 open: the back end gets guesses, or none.
    on = json.loads(run("solve", "webpbn-00803", "--no-probing", "--json").stdout)
    off = json.loads(run("solve", "webpbn-00803", "--no-probing", "--no-guess",
                         "--json").stdout)
    assert on["status"] == off["status"] == "unique"
    assert on["solutions"] == off["solutions"]
    load_nonogram(resolve("webpbn-00803")).verify(on["solutions"][0])
    assert on["guesses"] > 1000 and off["guesses"] == 0
    text = run("solve", "webpbn-00803", "--no-probing").stdout
    assert f"{on['guesses']} cells guessed" in text


# -- guesses ---------------------------------------------------------------------------

def test_line_messages_match_weighted_brute_force():
    # Each open cell's message: the weight of the fitting placements that fill it, each
    # weighted by the incoming probabilities of the line's other open cells.
    rng = np.random.default_rng(11)
    for clue, cells, fits in random_lines(11, 600, longest=8):
        n = len(cells)
        incoming = rng.uniform(0.05, 0.95, n)
        out = np.zeros(n)
        ok = _line_messages(cells.copy(), np.array(clue, np.int64), incoming, out)
        assert ok == bool(fits)
        if not fits:
            continue
        filled = np.array([[c == "#" for c in w] for w in fits])
        factors = np.where(cells == -1, np.where(filled, incoming, 1 - incoming), 1.0)
        for i in range(n):
            if cells[i] != -1:
                assert out[i] == cells[i]
                continue
            others = np.prod(np.delete(factors, i, axis=1), axis=1)
            assert out[i] == pytest.approx(others[filled[:, i]].sum() / others.sum())


def test_beliefs_of_a_switch_are_undecided_and_guesses_come_most_confident_first():
    # A 2x2 switch inside a picture: its four cells could go either way (belief near 1/2);
    # the other open cells lean hard one way, and the guesses list those first.
    rows = ["#####.....", "#.........", "#...#.....", "#....#....", "#.........",
            "##########"]
    p = from_grid(rows)
    known = np.full((p.height, p.width), -1, np.int8)
    known[0] = grid_array(rows)[0]
    belief = beliefs(p, known)
    assert belief is not None and (belief[0] == known[0]).all()
    switch = np.zeros(known.shape, bool)
    switch[2:4, 4:6] = True
    assert belief[switch] == pytest.approx(0.5, abs=0.02)
    assert (np.minimum(belief, 1 - belief)[~switch] < 0.01).all()
    cells, filled = guesses(known, belief, 1.0)
    assert sorted(cells.tolist()) == np.flatnonzero(known.ravel() == -1).tolist()
    assert set(cells[-4:].tolist()) == set(np.flatnonzero(switch.ravel()).tolist())
    confidence = np.abs(belief.ravel()[cells] - 0.5)
    assert (np.diff(confidence) <= 1e-12).all()
    assert (filled == (belief.ravel()[cells] > 0.5)).all()
    assert len(guesses(known, belief, 0.5)[0]) == len(cells) // 2


@pytest.mark.parametrize("solver_variant", [*(("sat", s) for s in PYSAT_SOLVERS),
                                            ("z3", None), ("cpsat", None)], ids=variant_id)
def test_wrong_guesses_never_change_the_answer(solver_variant: tuple[str, str | None]):
    # Every cell guessed wrong, and every cell guessed right: the goal, proved unique, all
    # the same; a contradictory puzzle with guesses is still none.
    p = load_nonogram(WEBPBN / "webpbn-00065.non")
    goal = grid_array(p.goal).ravel()
    backend = get_backend(*solver_variant)
    for wrong in (True, False):
        model = p.build_model("order")
        cells = model.user_vars
        model.hints = np.where(goal != wrong, cells, -cells)
        enum = backend.solutions(model, limit=None)
        sols = [p.decode(r.values) for r in enum]
        assert sols == [p.goal] and enum.complete
    bad = Nonogram(rows=[(2,), ()], cols=[(), (2,)]).build_model("order")
    bad.hints = bad.user_vars
    assert backend.solve(bad).status is Status.UNSAT


# -- second solutions next to a first ----------------------------------------------------

def test_faase_has_several_solutions_and_each_has_a_neighbour():
    # Three stored solutions of faase (each from a SAT run); far apart from each other,
    # and each one has another solution in a small patch next to it.
    puzzle = load_nonogram(WEBPBN / "faase.non")
    stored = json.loads((ROOT / "tests" / "data" / "faase-solutions.json").read_text())
    sols = stored["solutions"]
    assert len({tuple(s) for s in sols}) == 3
    for s in sols:
        puzzle.verify(s)
        near = nearby_solution(puzzle, s)
        assert near is not None and near != s
        puzzle.verify(near)
        diff = np.argwhere(grid_array(near) != grid_array(s))
        assert (np.ptp(diff, axis=0) < 16).all()  # inside one window


@pytest.mark.parametrize("path", WITH_GOAL, ids=lambda p: p.stem)
def test_unique_puzzles_have_no_neighbouring_solution(path: Path):
    p = load_nonogram(path)
    assert nearby_solution(p, p.goal) is None


def test_a_switch_is_found_next_to_a_solution():
    # Dots on the diagonal of a 2x2 block inside a larger picture: the anti-diagonal fits
    # the same clues.
    rows = ["#####.....", "#.........", "#...#.....", "#....#....", "#.........",
            "##########"]
    p = from_grid(rows)
    near = nearby_solution(p, rows)
    assert near is not None and near != rows
    p.verify(near)
    ans = solve_nonogram(p)
    assert ans.status == "multiple"


def test_a_solver_that_is_not_incremental_still_proves_uniqueness():
    # Kissat aborts when given a blocking clause after a solve on this puzzle; the sat back
    # end starts a new solver for each further solution instead.
    p = load_nonogram(WEBPBN / "webpbn-06574.non")
    ans = solve_nonogram(p, "sat", "kissat404", use_presolve=False)
    assert ans.status == "unique" and ans.solutions == [p.goal]


def test_faase_is_decided_multiple_from_guesses():
    # Seconds: the guesses lead CaDiCaL to a first solution, a switch next to it is the
    # second (bench/RESULTS.md, "Session 10").
    puzzle = load_nonogram(WEBPBN / "faase.non")
    ans = solve_nonogram(puzzle, time_limit=300)
    assert ans.status == "multiple" and ans.solutions[0] != ans.solutions[1]
    assert ans.guesses > 1000
    for s in ans.solutions:
        puzzle.verify(s)
    short = solve_nonogram(puzzle, time_limit=0.5)  # the presolve alone takes longer
    assert short.status == "unknown" and not short.complete


@pytest.mark.slow
def test_faase_is_decided_multiple_without_guesses():
    # Minutes: the first solution is the hard part (bench/RESULTS.md, "Session 9").
    puzzle = load_nonogram(WEBPBN / "faase.non")
    ans = solve_nonogram(puzzle, time_limit=1800, guess=False)
    assert ans.status == "multiple" and ans.solutions[0] != ans.solutions[1]
    for s in ans.solutions:
        puzzle.verify(s)


def test_a_build_that_cannot_end_in_time_is_not_started():
    puzzle = load_nonogram(resolve("webpbn-00001"))  # any model with clauses
    model = puzzle.build_model("automaton")
    z3, cpsat, sat = (get_backend(name) for name in ("z3", "cpsat", "sat"))
    assert z3.build_seconds(model) > cpsat.build_seconds(model) > 0
    assert sat.build_seconds(model) == 0  # it builds in its child, which is killed
    assert z3.too_slow_to_build(model, None) is None
    assert z3.too_slow_to_build(model, 60.0) is None
    note = z3.too_slow_to_build(model, 1e-6)
    assert note is not None and note.startswith("not started: z3 would take")


def test_a_nonogram_made_in_python_is_checked_like_a_file():
    from smtpuzzle import Nonogram, load, solve_nonogram
    from smtpuzzle.errors import PuzzleError

    answer = solve_nonogram(Nonogram(rows=[[1], [1]], cols=[[1], [1]]))  # lists are clues
    assert answer.status == "multiple" and len(answer.solutions) == 2
    assert solve_nonogram(Nonogram(rows=[(0,), (1,)], cols=[(1,), ()])).solutions == \
        [["..", "#."]]  # (0,) is an empty line, as in the files
    bad = {"the row clues fill 2 cells, the column clues 3":
           dict(rows=[(1,), (1,)], cols=[(2,), (1,)]),
           "at least one row": dict(rows=[], cols=[]),
           "row 1: a clue is a sequence": dict(rows=[1, 1], cols=[(1,), (1,)]),
           "row 1: run lengths are whole": dict(rows=[(1.5,)], cols=[(1,)]),
           "column 2: run lengths are positive": dict(rows=[(1,)], cols=[(1,), (-1,)])}
    for message, clues in bad.items():
        with pytest.raises(PuzzleError, match=message):
            solve_nonogram(Nonogram(**clues))
    with pytest.raises(TypeError, match="takes a Nonogram, got Tiling"):
        solve_nonogram(load("soma-3x3x3"))


def test_a_width_in_other_digits_is_a_located_error(tmp_path):
    path = tmp_path / "sup.non"
    path.write_text("width \u00b2\nheight 1\n", encoding="utf-8")
    p = run("solve", str(path))
    assert p.returncode == 2 and "width must be a positive integer" in p.stderr
    assert "Traceback" not in p.stderr


def test_a_key_given_twice_in_a_non_file_is_a_located_error(tmp_path):
    path = tmp_path / "twice.non"
    path.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\nrows\n0\n", encoding="utf-8")
    p = run("solve", str(path))
    assert p.returncode == 2 and "twice.non:7: rows given twice (first on line 3)" in p.stderr


@pytest.mark.parametrize("text, where", [
    ("height 2\nrows\n1\n1\ncolumns\n1\n1\n", "f.non:5: columns needs a width line before it"),
    ("rows\n1\n1\nheight 2\nwidth 2\ncolumns\n1\n1\n", "f.non:1: rows before height (given "
     "on line 4)"),
    ('width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal "10\n01"\n', "f.non:9: goal: its "
     "quote is not closed"),
])
def test_a_non_file_out_of_order_or_with_an_open_goal_points_at_the_line(tmp_path, text, where):
    path = tmp_path / "f.non"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PuzzleError) as caught:
        load_nonogram(path)
    assert where in str(caught.value)


def test_a_solve_stopped_by_ctrl_c_is_unknown_and_says_so_in_its_json(monkeypatch):
    from smtpuzzle.puzzles.nonogram import solve as module

    def cut(*args, **kwargs):
        raise KeyboardInterrupt  # Ctrl-C while the line solver works

    monkeypatch.setattr(module, "presolve", cut)
    ans = solve_nonogram(load_nonogram(resolve("webpbn-00001")))
    assert ans.status == "unknown" and not ans.complete and ans.solutions == []
    assert ans.as_json()["interrupted"] is True


def test_determined_cells_and_conflicting_clues_on_the_command_line(tmp_path: Path):
    """--determined: the cells every solution agrees on (brute force over a small puzzle
    with several solutions); --explain: a minimal set of line clues with no solution."""
    from typer.testing import CliRunner

    from smtpuzzle.cli.app import app

    puzzle = from_grid(["#.#.", ".#.#", "....", "####"], "several")
    grids = []
    for bits in itertools.product(".#", repeat=16):
        rows = ["".join(bits[r * 4:(r + 1) * 4]) for r in range(4)]
        if [line_runs(r) for r in rows] == puzzle.rows and \
                [line_runs("".join(r[j] for r in rows)) for j in range(4)] == puzzle.cols:
            grids.append([[ch == "#" for ch in r] for r in rows])
    stack = np.array(grids)
    assert len(stack) > 1
    agreed = (stack == stack[0]).all(axis=0)
    path = tmp_path / "several.non"
    path.write_text("width 4\nheight 4\nrows\n" + "".join(
        ",".join(map(str, c)) + "\n" for c in puzzle.rows) + "columns\n" + "".join(
        ",".join(map(str, c)) + "\n" for c in puzzle.cols))
    done = CliRunner().invoke(app, ["solve", str(path), "--json", "--determined"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["determined"] == np.where(agreed, np.where(stack[0], "#", "."), "?").tolist()
    path.write_text("width 3\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n1\n")
    done = CliRunner().invoke(app, ["solve", str(path), "--json", "--explain"])
    assert json.loads(done.output)["conflict"] == ["row 1 (2)", "column 2 (0)"]
