"""The bench command: suites, every back end side by side, answers checked, files written."""

from __future__ import annotations

import json
import time

import pytest

from smtpuzzle.benchmark import (
    configs_for,
    load_suite,
    run_suites,
    runner,
    suite_names,
    summarise,
    tasks,
)
from smtpuzzle.errors import PuzzleError
from smtpuzzle.library import resolve
from smtpuzzle.puzzles.maze.cases import KNOWN_79, parse_string
from tests.helpers import cli

FIVE_STARS = KNOWN_79[:39] + "*" * 5 + KNOWN_79[44:]
SUITE = f"""
title = "tiny"
time_limit = 20

[[puzzle]]
task = "count"
model = "tetromino-5x4-tube"
expect = 7
anchor = "7 distinct"
anchor_s = 0.5

[[puzzle]]
task = "nonogram"
model = "webpbn-00006"
expect = "unique"
presolve = false

[[puzzle]]
task = "maze"
pattern = "{FIVE_STARS}"
expect = "sat"
backends = ["sat"]
"""


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(SUITE)
    return path


def test_every_back_end_runs_each_puzzle_it_can_and_the_answers_are_checked(tiny):
    configs = configs_for(["exact-cover", "cpsat", "sat"], [])
    runs, finished = run_suites([load_suite(str(tiny))], configs, repeat=2)
    assert finished and len(runs) == 2 * 3 * 3
    assert [r.repeat for r in runs] == [0] * 9 + [1] * 9  # repeats outermost: interleaved
    by = {(s.puzzle, s.backend): s for s in summarise(runs)}
    count = {b: by[("tetromino-5x4-tube", b)] for b in ("exact-cover", "cpsat", "sat:cadical195")}
    assert count["exact-cover"].status == "complete" and count["exact-cover"].detail == \
        "7 distinct"
    assert count["cpsat"].status == "complete"
    assert by[("webpbn-00006", "exact-cover")].status == "n/a"  # not a tiling
    assert by[("webpbn-00006", "sat:cadical195")].status == "unique"
    assert by[("webpbn-00006", "cpsat")].variables > 0
    assert by[("maze 3x3: 5 stars", "sat:cadical195")].status == "sat"
    assert by[("maze 3x3: 5 stars", "cpsat")].status == "n/a"  # the suite says sat only
    decided = [s for s in by.values() if s.decided]
    assert all(not s.wrong and s.peak_mb > 10 for s in decided)
    for puzzle in ("tetromino-5x4-tube", "webpbn-00006"):
        ratios = [s.ratio for (p, _), s in by.items() if p == puzzle and s.ratio is not None]
        assert min(ratios) == pytest.approx(1.0) and all(r >= 1.0 for r in ratios)


def test_an_answer_that_contradicts_the_suite_is_flagged_wrong(tmp_path):
    path = tmp_path / "wrong.toml"
    path.write_text('[[puzzle]]\ntask = "count"\nmodel = "pentomino-3x20"\nexpect = 3\n')
    runs, _ = run_suites([load_suite(str(path))], configs_for(["exact-cover"], []))
    (summary,) = summarise(runs)
    assert summary.wrong == "counted 2, expected 3" and not summary.decided
    p = cli("bench", str(path), "--backends", "exact-cover", "--out", str(tmp_path / "o"))
    assert p.returncode == 3 and "WRONG" in p.stdout


def test_a_puzzle_impossible_on_its_face_is_refuted_by_the_back_ends_under_test(tmp_path):
    """The tool refuses hexiamond-6x9-trapezoid at once (a colouring); a bench of it
    measures the back ends refuting it instead."""
    path = tmp_path / "impossible.toml"
    path.write_text('[[puzzle]]\ntask = "solve"\nmodel = "hexiamond-6x9-trapezoid"\n'
                    'expect = "unsat"\n\n[[puzzle]]\ntask = "count"\n'
                    'model = "hexiamond-6x9-trapezoid"\nraw = true\nexpect = 0\n')
    runs, _ = run_suites([load_suite(str(path))], configs_for(["exact-cover"], []))
    assert [(r.status, r.wrong) for r in runs] == [("unsat", ""), ("complete", "")]
    assert runs[1].detail.startswith("0 ")
    assert all(not s.wrong for s in summarise(runs))


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_a_run_past_its_limit_is_killed_and_marked(tiny, monkeypatch, tmp_path):
    woke = tmp_path / "woke"  # written only by a run that outlived its limit

    def sleepy(entry, backend, solver, limit):
        time.sleep(5)
        woke.touch()

    monkeypatch.setitem(tasks._TASKS, "count", sleepy)
    monkeypatch.setattr(runner, "GRACE_S", 0.5)
    suite = load_suite(str(tiny))
    suite.entries = suite.entries[:1]
    runs, _ = run_suites([suite], configs_for(["exact-cover"], []), time_limit=0.5)
    assert runs[0].status == "timeout" and runs[0].time_s is None
    time.sleep(6)  # past the sleeper's wake-up: a run left alive would have written
    assert not woke.exists()


def test_the_command_writes_json_csv_and_the_plot(tiny, tmp_path):
    out = tmp_path / "out"
    p = cli("bench", str(tiny), "--backends", "exact-cover,sat", "--solver", "glucose4",
            "--solver", "minisat22", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert "x fastest" in p.stdout and "7 distinct" in p.stdout  # the table, with the anchor
    data = json.loads((out / "results.json").read_text())
    backends = {s["backend"] for s in data["summary"]}
    assert backends == {"exact-cover", "sat:glucose4", "sat:minisat22"}
    assert len(data["runs"]) == 9 and data["meta"]["complete"] is True
    header = (out / "results.csv").read_text().splitlines()[0]
    assert header.startswith("suite,puzzle,task,backend,status")
    assert "| tetromino-5x4-tube | exact-cover | complete |" in (out / "results.md").read_text()
    assert (out / "results.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (out / "results.svg").read_text()


@pytest.mark.parametrize("text, message", [
    ('[[puzzle]]\ntask = "solve"\nmodel = "pentomino-6x10"\ncolour = 1\n',
     "bad.toml:4: puzzle 1: unknown key 'colour'"),
    ('[[puzzle]]\ntask = "paint"\nmodel = "x"\n', "bad.toml:2: puzzle 1: task must be one of"),
    ('[[puzzle]]\ntask = "nonogram"\nmodel = "data001"\nbackends = ["exact-cover"]\n',
     "back end 'exact-cover' cannot run a nonogram task"),
    ('[[puzzle]]\ntask = "solve"\nmodel = "no-such-model"\n', "no model named"),
    ('title = "x"\n', "a suite needs at least one [[puzzle]]"),
    ('[[puzzle]]\ntask = "maze"\npattern = "**********"\nsize = "2x5x"\n',
     "bad.toml:4: puzzle 1: size: maze size is 3, 4 or RxC"),
    # the suite's own defaults are blamed on the suite, not on its first puzzle
    ('task = "paint"\n[[puzzle]]\nmodel = "x"\n', "bad.toml:1: task must be one of"),
    ('time_limit = -1\n[[puzzle]]\ntask = "solve"\nmodel = "pentomino-6x10"\n',
     "bad.toml:1: time_limit must be a positive number of seconds, not -1"),
    ('time_limit = nan\n[[puzzle]]\ntask = "solve"\nmodel = "pentomino-6x10"\n',
     "not nan"),
    ('[[puzzle]]\ntask = "solve"\nmodel = "pentomino-6x10"\ntime_limit = true\n',
     "bad.toml:4: puzzle 1: time_limit must be a positive number of seconds, not True"),
    ('[[puzzle]]\ntask = "solve"\nmodel = "pentomino-6x10"\ntime_limit = inf\n',
     "bad.toml:4: puzzle 1: time_limit must be a positive number of seconds, not inf"),
    # a later puzzle's error is at its own line; a key it lacks, at its header's
    ('[[puzzle]]\ntask = "solve"\nmodel = "pentomino-6x10"\n\n[[puzzle]]\ntask = "solve"\n'
     'expect = "yes"\nmodel = "pentomino-6x10"\n', "bad.toml:7: puzzle 2: expect of a solve"),
    ('[[puzzle]]\ntask = "solve"\nmodel = "pentomino-6x10"\n[[puzzle]]\ntask = "solve"\n',
     "bad.toml:4: puzzle 2: a solve puzzle needs model"),
])
def test_bad_suites_are_one_line_errors(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    p = cli("bench", str(path), "--out", str(tmp_path / "o"))
    assert p.returncode == 2 and message in p.stderr and str(path) in p.stderr
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_solvers_attach_to_their_back_end():
    configs = configs_for(["sat", "z3"], ["glucose4", "qffd"])
    assert [(c.backend, c.solver) for c in configs] == [("sat", "glucose4"), ("z3", "qffd")]
    with pytest.raises(PuzzleError, match="not in `backends=cpsat`"):
        configs_for(["cpsat"], ["glucose4"])
    with pytest.raises(PuzzleError, match="unknown solver"):
        configs_for(["sat"], ["nosuch"])
    with pytest.raises(PuzzleError, match="unknown back end 'gurobi'"):
        configs_for(["sat", "gurobi"], [])


def test_the_shipped_suites_load_and_name_real_puzzles():
    names = suite_names()
    assert {"quick", "tiling-first", "tiling-count", "frames", "nonogram", "maze"} <= set(names)
    for name in names:
        for entry in load_suite(name).entries:
            if entry.task == "maze":
                parse_string(entry.target, allow_free=True)
            else:
                resolve(entry.target)


def test_ctrl_c_keeps_the_runs_made(tmp_path):
    import signal
    import subprocess
    import sys

    # Counting pentomino-6x10 takes exact-cover half a second and sat about four minutes (a
    # quarter in 60 s), within its ten, so the signal lands in the sat run however loaded the
    # machine is (pentomino-3x20, 7 s on sat, once saw the bench end first in CI).
    tiny = tmp_path / "tiny.toml"
    tiny.write_text(SUITE.replace('"tetromino-5x4-tube"\nexpect = 7\nanchor = "7 distinct"',
                                  '"pentomino-6x10"\nexpect = 2339\nanchor = "2339 distinct"')
                    .replace("time_limit = 20", "time_limit = 600"))
    assert "pentomino-6x10" in tiny.read_text() and "time_limit = 600" in tiny.read_text()
    out = tmp_path / "out"
    p = subprocess.Popen([sys.executable, "-m", "smtpuzzle", "bench", str(tiny), "--backends",
                          "exact-cover,sat", "--out", str(out)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not (p.stderr.readline().startswith("tiny pentomino-6x10 exact-cover")):
        assert time.time() < deadline and p.poll() is None
    p.send_signal(signal.SIGINT)  # during the sat count
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 1 and "INCOMPLETE" in stdout, (p.returncode, stdout[-500:],
                                                         stderr[-1500:])
    data = json.loads((out / "results.json").read_text())
    assert data["meta"]["complete"] is False
    assert [r["backend"] for r in data["runs"]] == ["exact-cover"]


def test_mazes_of_any_size_and_the_mdd_back_end_run(tmp_path):
    suite = tmp_path / "mazes.toml"
    suite.write_text('[[puzzle]]\ntask = "maze"\npattern = "***********"\nsize = "2x2"\n'
                     'expect = "sat"\n')
    p = cli("bench", str(suite), "--backends", "mdd,sat", "--out", str(tmp_path / "o"))
    assert p.returncode == 0, p.stderr
    runs = json.loads((tmp_path / "o" / "results.json").read_text())["runs"]
    assert {(r["backend"], r["status"]) for r in runs} == {("mdd", "sat"),
                                                          ("sat:cadical195", "sat")}
    assert "maze 2x2: 11 stars" in p.stdout
    p = cli("bench", str(suite), "--backends", " , ", "--out", str(tmp_path / "o"))
    assert p.returncode == 2 and "names no back end" in p.stderr


def test_a_frames_row_gives_the_solver_to_stage_2(tmp_path):
    """--solver glucose4 once reached the exact-cover stages: every frames row an error."""
    suite = tmp_path / "frames.toml"
    suite.write_text('[[puzzle]]\ntask = "frames"\nmodel = "pentomino-5x6x2"\n'
                     'expect = "sat"\n')
    p = cli("bench", str(suite), "--backends", "sat", "--solver", "glucose4", "--out",
            str(tmp_path / "o"))
    assert p.returncode == 0, p.stderr
    runs = json.loads((tmp_path / "o" / "results.json").read_text())["runs"]
    assert [(r["backend"], r["status"]) for r in runs] == [("sat:glucose4", "sat")]


def test_stage_1_that_does_not_finish_in_the_time_limit_is_an_error(tmp_path, monkeypatch):
    """Preparing a frames row lists its sets within the row's limit, or says it did not."""
    monkeypatch.setenv("SMTPUZZLE_CACHE", str(tmp_path / "cache"))  # not listed before
    suite = tmp_path / "frames.toml"
    suite.write_text('[[puzzle]]\ntask = "frames"\nmodel = "hexomino-6x6x6"\n'
                     'time_limit = 0.001\n')
    p = cli("bench", str(suite), "--backends", "exact-cover", "--out", str(tmp_path / "o"))
    assert p.returncode == 2, p.stderr
    error = p.stderr.strip().splitlines()[-1]  # after the notes on preparing
    assert error.startswith("error:") and "frames.toml: hexomino-6x6x6" in error
    assert "stage 1 did not list every set within 0.001 s" in error
