"""Maze sequences: the checker, the reduced set, the counterexample-guided search."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smtpuzzle.puzzles.maze import mdd as maze_mdd
from smtpuzzle.puzzles.maze.cases import (
    KNOWN_79,
    LETTERS,
    all_cases,
    check,
    failing,
    reduced_cases,
    segments,
    walk,
)
from smtpuzzle.puzzles.maze.mdd import case_diagram, intersect
from smtpuzzle.puzzles.maze.search import search
from tests.helpers import cli as run


def test_known_string_solves_every_case_and_every_deletion_breaks_it():
    assert len(KNOWN_79) == 79
    result = check(KNOWN_79)
    assert (result.unsolved, result.cases) == (0, 36864)
    for i in range(len(KNOWN_79)):
        assert check(KNOWN_79[:i] + KNOWN_79[i + 1:]).unsolved > 0, i


def test_reduced_set_counts():
    assert len(reduced_cases(3)) == 10772
    assert len(all_cases(4)) == len(reduced_cases(4)) == 3828
    sizes = [bin(int(r)).count("1") for r in reduced_cases(3).reach]
    assert sizes == sorted(sizes, reverse=True) and min(sizes) == 5  # largest first


def test_the_reduced_set_decides_like_the_full_set():
    # A string solving the reduced set solves every case: checked on random near-misses.
    rng = np.random.default_rng(3)
    full, reduced = all_cases(3), reduced_cases(3)
    for _ in range(40):
        s = list(KNOWN_79)
        for i in rng.choice(len(s), 2, replace=False):
            s[i] = LETTERS[rng.integers(4)]
        s = "".join(s)
        assert (len(failing(full, s)) == 0) == (len(failing(reduced, s)) == 0)


def _solves_case(string: str, maze: int, start: int) -> bool:
    full = all_cases(3)
    k = np.flatnonzero((full.maze == maze) & (full.start == start))
    return len(failing(full.subset(k), string)) == 0


def test_cli_check_reports_the_failing_maze():
    broken = KNOWN_79[:-1]
    out = json.loads(run("maze", "check", broken, "--json").stdout)
    result = check(broken)
    assert out == {"moves": 78, "unsolved": result.unsolved, "cases": 36864,
                   "canonical_cases": False, "first_failing": list(result.first_case)}
    assert out["unsolved"] > 0 and not _solves_case(broken, *result.first_case)
    big = json.loads(run("maze", "check", "NNWS", "--size", "3x4", "--json").stdout)
    assert big["canonical_cases"] is True
    p = run("maze", "check", broken)
    assert p.returncode == 0 and "first failing case" in p.stdout and " S " in p.stdout
    assert run("maze", "check", "NEXT").returncode == 2


def test_cli_stats():
    out = json.loads(run("maze", "stats", "--json").stdout)
    assert out["mazes"] == 10772 and sum(out["by_reachable_cells"].values()) == 10772


@pytest.mark.parametrize("strategy,backend", [("mdd", None), ("cegar", "sat"),
                                              ("cegar", "z3"), ("cegar", "cpsat"),
                                              pytest.param("local", None,
                                                           marks=pytest.mark.slow)])
def test_a_few_stars_are_completed_to_a_verified_universal_string(strategy: str, backend):
    pattern = KNOWN_79[:20] + "*****" + KNOWN_79[25:]
    r = search(pattern, 3, strategy, backend, time_limit=120)
    assert r.status == "sat" and check(r.string).unsolved == 0
    assert all(p in ("*", c) for p, c in zip(pattern, r.string, strict=True))


def test_local_search_finds_a_4x4_string_from_scratch():
    r = search("*" * 31, 4, "local", time_limit=300)
    assert r.status == "sat" and check(r.string, 4).unsolved == 0 and len(r.string) == 31


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_local_search_never_claims_none_exists():
    # No 6-move string solves every 4x4 maze (brute force agrees, below): local says unknown.
    p = run("maze", "search", "*" * 6, "--size", "4", "--strategy", "local", "--time-limit", "2")
    assert p.returncode == 1 and "unknown (time limit reached)" in p.stdout
    assert "cannot prove" in p.stdout
    out = json.loads(run("maze", "search", "*" * 6, "--size", "4", "--strategy", "local",
                         "--time-limit", "2", "--json").stdout)
    assert out["status"] == "unknown" and out["string"] is None and out["best_failing"] > 0
    p = run("maze", "search", "*" * 6, "--strategy", "local", "--export-cnf", "x.cnf")
    assert p.returncode == 2 and "local search builds no formula" in p.stderr
    # ... unless nothing is free: the one string is checked, and that decides it at once
    fixed = search(KNOWN_79[:-1] + "*", 3, "local", time_limit=600)
    assert fixed.status == "sat" and fixed.string == KNOWN_79
    failing = search(KNOWN_79[:-1] + "N", 3, "local", time_limit=600)
    assert failing.status == "unsat" and "fails" in failing.note
    assert search(KNOWN_79[:-1] + "N", 3, "mdd").status == "unsat"  # the others agree
    p = run("maze", "search", "NNNN", "--strategy", "local")
    assert p.returncode == 0 and "no string fits the pattern (proved: no move is free" \
        in p.stdout and "cannot prove" not in p.stdout


def completions(pattern: str) -> Iterator[str]:
    """Every string that fits ``pattern``, in NESW order of its free letters."""
    free = [i for i, ch in enumerate(pattern) if ch == "*"]
    for fill in itertools.product(LETTERS, repeat=len(free)):
        s = list(pattern)
        for i, ch in zip(free, fill, strict=True):
            s[i] = ch
        yield "".join(s)


def brute_force(pattern: str, size: int) -> bool:
    cases = reduced_cases(size)
    return any(len(failing(cases, s)) == 0 for s in completions(pattern))


@pytest.mark.parametrize(("pattern", "size"), [
    (KNOWN_79[:40] + "***" + KNOWN_79[43:], 3),
    (KNOWN_79[:40] + "***" + KNOWN_79[44:], 3),   # one move short
    (KNOWN_79[:10] + "**" + KNOWN_79[12:60] + "**" + KNOWN_79[65:], 3),
    ("*" * 6, 4),
])
def test_search_agrees_with_brute_force(pattern: str, size: int):
    want = brute_force(pattern, size)
    for strategy, backend in (("mdd", None), ("cegar", "sat"), ("cegar", "z3")):
        r = search(pattern, size, strategy, backend, time_limit=120)
        assert r.status == ("sat" if want else "unsat"), backend
    # the diagrams taking the first failing case, as the bound does, decide alike
    status, string, _, _ = maze_mdd.mdd_search(pattern, size, None, sampled=False)
    assert status == ("sat" if want else "unsat")
    assert string is None or len(failing(reduced_cases(size), string)) == 0


@pytest.mark.parametrize(("pattern", "size"), [
    pytest.param(KNOWN_79[:30] + "**" + KNOWN_79[32:50] + "***" + KNOWN_79[53:], 3,
                 marks=pytest.mark.slow),
    ("E*S**" + "S" * 4 + "**", 4),
])
def test_decision_diagrams_hold_exactly_the_strings_that_solve_their_cases(pattern, size):
    cases = reduced_cases(size)
    strings = list(completions(pattern))
    solved = np.array([walk(cases, s) & cases.target == cases.target for s in strings])
    picks = np.random.default_rng(0).choice(len(cases), 12, replace=False)
    both = case_diagram(pattern, cases, int(picks[0]))
    for i, k in enumerate(picks.tolist()):
        one = case_diagram(pattern, cases, k)
        assert (one.count_strings() if one else 0) == solved[:, k].sum()
        if i:
            both = None if both is None or one is None else intersect(both, one)
        want = solved[:, picks[:i + 1]].all(axis=1).sum()
        assert (both.count_strings() if both else 0) == want
        if both:
            assert solved[strings.index(both.first_string(pattern)), picks[:i + 1]].all()
            drawn = both.sample(pattern, 4000, np.random.default_rng(i))
            held = {"".join(LETTERS[d] for d in row) for row in drawn}
            wanted = {s for s, ok in zip(strings, solved[:, picks[:i + 1]].all(axis=1),
                                         strict=True) if ok}
            assert held <= wanted  # drawn strings are the diagram's own
            if want <= 200:
                assert held == wanted  # and every one of a few is drawn
            # a cube of the diagram: the strings with one free move fixed, as split_search
            # goes on from them
            star = pattern.index("*")
            layer = [a for a, _, _ in segments(pattern)].index(star)
            for d, letter in enumerate(LETTERS):
                cube = both.fixed(layer, d)
                fits = sum(1 for s in wanted if s[star] == letter)
                assert (cube.count_strings() if cube else 0) == fits
    assert want > 0 or size == 4


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-2**62, 2**62 - 1), max_size=50), st.integers(0, 62),
       st.integers(0, 3))
def test_unique_inverse_is_np_unique(values, spread, repeat):
    # keys in a narrow band take the packed sort, wide ones np.unique itself
    keys = np.array(values * (repeat + 1), dtype=np.int64) >> spread
    want_keys, want_inv = np.unique(keys, return_inverse=True)
    got_keys, got_inv = maze_mdd.unique_inverse(keys)
    assert np.array_equal(got_keys, want_keys) and np.array_equal(got_inv, want_inv.ravel())


def test_an_unsatisfiable_window_by_diagrams_exports_an_unsatisfiable_formula(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    pattern = KNOWN_79[:30] + "*" * 11 + KNOWN_79[42:]  # 12 letters -> 11 stars
    cnf_path = tmp_path / "window.cnf"
    r = search(pattern, 3, "mdd", export_cnf=cnf_path)
    assert r.status == "unsat" and r.mazes_added > 1
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf_path))) as s:
        assert not s.solve()  # the same cases rule out every string for SAT too
    assert search(pattern, 3, backend="sat").status == "unsat"


@pytest.mark.slow  # the maze bound's research runs: --runslow
@pytest.mark.parametrize("offset", [0, 53])
def test_a_25_star_window_is_decided_unsatisfiable_by_diagrams(offset):
    pattern = KNOWN_79[:offset] + "*" * 25 + KNOWN_79[offset + 26:]
    r = search(pattern, 3)  # mdd, the default
    assert r.backend == "mdd" and r.status == "unsat" and r.mazes_added > 5


def test_a_diagram_search_stops_at_its_time_limit():
    # Stopped by the limit, not by the diagrams' cap (which says so in a note).
    r = search("*" * 36, 3, "mdd", time_limit=2)
    assert r.status == "unknown" and not r.note


def test_a_diagram_too_large_answers_unknown_and_says_why():
    # every cube outgrows the cap: each is set aside at the split depth, and the search goes
    # on to the next
    r = search("*" * 30, 4, "mdd", max_states=50, split_depth=1)
    assert r.status == "unknown" and "outgrew 50 states" in r.note
    assert r.cubes == 1 + 4  # the pattern, then its four cubes
    assert r.as_json()["note"] == r.note
    assert "in 4 of the 5 cubes searched, split 1 move deep" in r.note
    deeper = json.loads(run("maze", "search", "*" * 30, "--size", "4", "--max-states", "50",
                            "--split-depth", "2", "--json").stdout)
    assert deeper["status"] == "unknown" and deeper["cubes"] == 1 + 4 + 16
    assert "in 16 of the 21 cubes searched, split 2 moves deep" in deeper["note"]
    p = run("maze", "bound", "--start", "20", "--max-states", "50", "--json")
    assert p.returncode == 1 and "outgrew 50 states at 20 moves" in json.loads(p.stdout)["stopped"]


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_a_diagram_too_large_is_split_and_its_cubes_decide(tmp_path: Path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    # 12 letters -> 11 stars (no string) and 14 -> 14 (a string): each whole diagram
    # outgrows the cap, the patterns with their first free moves fixed do not
    unsat = KNOWN_79[:30] + "*" * 11 + KNOWN_79[42:]
    with pytest.raises(maze_mdd.DiagramTooLarge):
        maze_mdd.mdd_search(unsat, 3, None, max_states=100)
    cnf_path = tmp_path / "window.cnf"
    seen: list[int] = []
    r = search(unsat, 3, "mdd", max_states=100, export_cnf=cnf_path,
               progress=lambda n, _: seen.append(n))
    assert r.status == "unsat" and r.cubes > 4 and not r.note
    # cubes go on from their parent's cases, and siblings may take the same case: each
    # is counted once, as it goes and at the end
    assert max(seen) == r.mazes_added == len(r.added) == len(set(r.added))
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf_path))) as s:
        assert not s.solve()  # the cubes' cases together rule out every string
    out = json.loads(run("maze", "search", KNOWN_79[:30] + "*" * 14 + KNOWN_79[44:],
                         "--max-states", "300", "--json").stdout)
    assert out["status"] == "sat" and out["cubes"] > 4  # the string is verified before
    assert len(failing(reduced_cases(3), out["string"])) == 0


def test_a_cube_past_the_split_depth_is_set_aside_and_the_cubes_after_it_kept(
        tmp_path: Path):
    from smtpuzzle.puzzles.maze.bound.resume import load_cubes

    # at 100 states, the window's cube with E first outgrows the cap one move deep; N*, S*
    # and W* do not, and the two after E are searched and kept all the same
    window = KNOWN_79[:20] + "*" * 11 + KNOWN_79[32:]  # 12 letters to 11 moves
    path = tmp_path / "cubes.json"
    first = search(window, 3, "mdd", max_states=100, split_depth=1, checkpoint=path)
    assert first.status == "unknown" and first.cubes == 5
    assert "in 1 of the 5 cubes searched, split 1 move deep" in first.note
    assert sorted(c[20] for c in load_cubes(path, window, 3, False)) == ["N", "S", "W"]
    again = search(window, 3, "mdd", max_states=100, split_depth=3, checkpoint=path)
    assert again.status == "unsat" and again.checkpoint["resumed_cubes"] == 3
    assert search(window, 3, backend="sat").status == "unsat"


def test_a_time_limit_after_a_cube_was_set_aside_says_both(monkeypatch):
    from smtpuzzle.puzzles.maze import mdd

    # the searches: the window whole (outgrown, split), N* (proved), E* (set aside), then
    # S*, stopped by the deadline
    window = KNOWN_79[:20] + "*" * 11 + KNOWN_79[32:]
    real, calls = mdd.mdd_search, []

    def late_at_the_fourth(*args, **kwargs):
        calls.append(1)
        if len(calls) < 4:
            return real(*args, **kwargs)
        return "unknown", None, kwargs["added"], 0.0

    monkeypatch.setattr(mdd, "mdd_search", late_at_the_fourth)
    r = search(window, 3, "mdd", max_states=100, split_depth=1)
    assert r.status == "unknown" and r.cubes == 4
    assert r.note.startswith("time limit; the decision diagram outgrew 100 states after ")
    assert "in 1 of the 4 cubes searched, split 1 move deep" in r.note


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_a_split_search_stopped_and_resumed_takes_its_proved_cubes(tmp_path: Path):
    from smtpuzzle.errors import PuzzleError
    from smtpuzzle.puzzles.maze.bound.resume import load_cubes, save_cubes

    window = KNOWN_79[:30] + "*" * 11 + KNOWN_79[42:]
    whole = search(window, 3, "mdd", max_states=100)
    path = tmp_path / "cubes.json"

    def stop_once_a_cube_is_kept(_: int, __: float) -> None:
        if path.exists():
            raise KeyboardInterrupt

    first = search(window, 3, "mdd", max_states=100, checkpoint=path,
                   progress=stop_once_a_cube_is_kept)
    assert first.status == "unknown" and first.interrupted and path.exists()
    kept = load_cubes(path, window, 3, False)
    assert first.checkpoint == {"file": str(path), "resumed_cubes": 0,
                                "kept_cubes": len(kept)} and len(kept) >= 1
    assert all(c.count("*") < window.count("*") for c in kept)  # cubes, not the window
    out = run("maze", "search", window, "--max-states", "100", "--checkpoint", str(path))
    assert out.returncode == 0 and "no string fits the pattern (proved)" in out.stdout
    assert f"took {len(kept)} cubes proved by an earlier run" in " ".join(out.stdout.split())
    assert not path.exists()  # decided: nothing left to resume
    # the same cases as an unbroken run, in the same cubes
    save_cubes(path, window, 3, False, kept)
    again = search(window, 3, "mdd", max_states=100, checkpoint=path)
    assert again.status == "unsat" and set(again.added) == set(whole.added)
    assert again.cubes == whole.cubes and again.checkpoint["resumed_cubes"] == len(kept)
    # a file of another search, or a cube that does not fit the pattern, is refused
    save_cubes(path, window, 3, False, {window.replace("*", "N", 1): [0]})
    other = KNOWN_79[:31] + "*" * 11 + KNOWN_79[43:]
    with pytest.raises(PuzzleError, match="it searches"):
        search(other, 3, "mdd", checkpoint=path)
    save_cubes(path, window, 3, False, {other: [0]})
    with pytest.raises(PuzzleError, match="is not a cube of the pattern"):
        search(window, 3, "mdd", checkpoint=path)
    with pytest.raises(PuzzleError, match="mdd strategy, not cegar"):
        search(window, 3, backend="sat", checkpoint=path)
    # its size and mirror rule as a run names them: "3x3" is 3, "false" is no rule
    save_cubes(path, window, 3, False, kept)
    head = json.loads(path.read_text())
    path.write_text(json.dumps({**head, "size": "3x3"}))
    assert load_cubes(path, window, 3, False) == kept
    path.write_text(json.dumps({**head, "mirror": "false"}))
    with pytest.raises(PuzzleError, match="its mirror rule is 'false', not true or false"):
        load_cubes(path, window, 3, False)
    path.write_text("{")
    bad = run("maze", "search", window, "--checkpoint", str(path))
    assert bad.returncode == 2 and "unreadable" in bad.stderr


def test_a_checkpoint_write_that_fails_leaves_the_old_file_and_no_other(tmp_path: Path,
                                                                         monkeypatch):
    from smtpuzzle.puzzles.maze.bound.resume import save_cubes
    from smtpuzzle.runtime import files as outputs

    window = KNOWN_79[:30] + "*" * 11 + KNOWN_79[42:]
    path = tmp_path / "cubes.json"
    save_cubes(path, window, 3, False, {window.replace("*", "N", 1): [0]})
    kept = path.read_text()

    def full_disk(tmp: Path, _: Path) -> None:
        assert tmp.read_text()  # written whole, then the disk fills as it is synced
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs, "replace_whole", full_disk)
    with pytest.raises(OSError):
        save_cubes(path, window, 3, False, {window.replace("*", "E", 1): [0]})
    assert path.read_text() == kept and [p.name for p in tmp_path.iterdir()] == ["cubes.json"]


def test_export_cnf_of_the_final_formula(tmp_path: Path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    pattern = KNOWN_79[:30] + "****" + KNOWN_79[34:]
    cnf_path = tmp_path / "maze.cnf"
    p = run("maze", "search", pattern, "--export-cnf", str(cnf_path), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["status"] == "sat" and out["mazes_added"] >= 1
    names = {}
    for line in cnf_path.read_text().splitlines():
        if line.startswith("c user "):
            _, _, var, name = line.split()
            names[int(var)] = name
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf_path))) as s:
        assert s.solve()
        chosen = sorted((int(names[v][1:].split("=")[0]), names[v][-1])
                        for v in s.get_model() if v > 0 and v in names)
    string = "".join(ch for _, ch in chosen)
    assert len(string) == len(pattern)
    assert all(p in ("*", c) for p, c in zip(pattern, string, strict=True))


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_ctrl_c_during_a_search_says_so():
    import signal
    import subprocess
    import sys
    import time

    # SAT and z3 take minutes on this 25-star window; the diagrams decide it in a second,
    # but take minutes on 38 free moves. The three run at once: one wait, not three.
    procs = {}
    for backend in ("sat", "z3", "mdd"):
        pattern = "*" * 38 if backend == "mdd" else "*" * 25 + KNOWN_79[26:]
        procs[backend] = subprocess.Popen(
            [sys.executable, "-m", "smtpuzzle", "maze", "search", pattern,
             *(["--strategy", "mdd"] if backend == "mdd" else ["--backend", backend])],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The bound proves 30-odd moves in seconds, then works for minutes: what it proved is
    # said, and the exit is 1 as for any Ctrl-C.
    bound = subprocess.Popen([sys.executable, "-m", "smtpuzzle", "maze", "bound"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs["bound"] = bound
    try:
        time.sleep(10)  # past the imports, which a busy machine makes slow
        for p in procs.values():
            p.send_signal(signal.SIGINT)
        answers = {b: (p.communicate(timeout=60), p.returncode) for b, p in procs.items()}
    finally:
        for p in procs.values():
            p.kill()  # a search that missed the Ctrl-C must not outlive the test
    (out, err), code = answers.pop("bound")
    assert code == 1 and "stopped: interrupted" in out and "at least" in out, (out, err)
    for backend, ((out, err), code) in answers.items():
        assert code == 1, (backend, err)
        assert "unknown (interrupted)" in out and re.search(r"\d+ mazes? added", out), backend
        assert "Traceback" not in err, backend


# Thin-wall rectangles (--size RxC)

def test_rectangle_sizes_parse_and_bad_ones_are_one_line_errors():
    from smtpuzzle.puzzles.maze.cases import parse_size

    assert parse_size("2x4") == "2x4" and parse_size("3x3") == 3 and parse_size("4") == 4
    for bad in ("5x5", "1x1", "axb", "2x"):
        p = run("maze", "stats", "--size", bad)
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("size", ["2x3", "2x4"])
def test_the_canonical_rectangle_cases_judge_strings_as_every_case_does(size):
    """The searches use the canonical cases (open edges inside the reachable part, which
    touches the top row and the left column); the checker walks every maze from every
    start. Random strings and near-misses fail the one exactly when they fail the other."""
    from smtpuzzle.puzzles.maze.cases import all_cases, failing, reduced_cases

    every, canonical = all_cases(size), reduced_cases(size)
    assert len(canonical) < len(every)
    rng = np.random.default_rng(7)
    verdicts = set()
    for length in (10, 30, 60, 240, 480):
        for _ in range(30):
            s = "".join(rng.choice(list("NESW"), length))
            verdict = len(failing(every, s)) == 0
            assert verdict == (len(failing(canonical, s)) == 0), s
            verdicts.add(verdict)
    assert verdicts == {True, False}  # both kinds were seen


@pytest.mark.slow
def test_least_lengths_of_the_small_rectangles_are_proved():
    """2x2 needs 11 moves and 2x3 needs 25: the bound proves one fewer impossible, and the
    search finds a string of that length, verified on every maze from every start."""
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound
    from smtpuzzle.puzzles.maze.cases import check
    from smtpuzzle.puzzles.maze.search import search as search_maze

    for size, least in (("2x2", 11), ("2x3", 25)):
        proved = prove_bound(size, time_limit=120)
        assert proved.bound == least - 1 and "exists" in proved.note
        found = search_maze("*" * least, size)
        assert found.status == "sat" and check(found.string, size).unsolved == 0
    data = json.loads(run("maze", "show", "NESWNENWSEN", "--size", "2x3", "--json").stdout)
    assert data["size"] == "2x3" and data["cells"][0] == 0


@pytest.mark.parametrize("size", ["2x4", "2x5"])
def test_canonical_cases_are_those_of_the_definition(size):
    """The enumeration by connected edge sets lists exactly the cases whose open edges lie
    inside the part reachable from the start, of 2 cells or more, touching the top row and
    the left column (checked here on every maze from every start), largest part first."""
    from smtpuzzle.puzzles.maze.cases import (
        _popcount,
        _walled_in,
        all_cases,
        dims,
        reduced_cases,
    )

    every, canonical = all_cases(size), reduced_cases(size)
    keep = _walled_in(every.maze, every.reach, *dims(size))[0] & (_popcount(every.reach) >= 2)
    expected = set(zip(every.maze[keep].tolist(), every.start[keep].tolist(), strict=True))
    listed = list(zip(canonical.maze.tolist(), canonical.start.tolist(), strict=True))
    assert len(listed) == len(expected) and set(listed) == expected
    sizes = _popcount(canonical.reach)
    assert (np.diff(sizes) <= 0).all()
    for k in range(0, len(canonical), 997):  # each case walks its own maze's table
        j = int(np.flatnonzero((every.maze == canonical.maze[k])
                               & (every.start == canonical.start[k]))[0])
        assert np.array_equal(canonical.moves(k), every.moves(j))
        assert canonical.reach[k] == every.reach[j]


def test_failing_walks_in_chunks_and_stops_at_its_limit(monkeypatch):
    from smtpuzzle.puzzles.maze import cases as maze_cases

    every = maze_cases.all_cases(3)
    rng = np.random.default_rng(3)
    strings = ["".join(rng.choice(list("NESW"), n)) for n in (12, 40, 70)] + [KNOWN_79]
    whole = [maze_cases.failing(every, s) for s in strings]
    monkeypatch.setattr(maze_cases, "WALK_CHUNK", 1000)
    for s, expected in zip(strings, whole, strict=True):
        assert np.array_equal(maze_cases.failing(every, s), expected)
        assert np.array_equal(maze_cases.failing(every, s, limit=5), expected[:5])
    assert len(whole[0]) > 1000 and len(whole[-1]) == 0


@pytest.mark.slow
def test_four_by_four_thin_walls():
    """4x4 with thin walls: 48,775,286 canonical cases on 3,489,347 mazes; the diagrams
    prove 30 moves too few within minutes; local search refuses a case set this large."""
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound
    from smtpuzzle.puzzles.maze.cases import reduced_cases

    cases = reduced_cases("4x4")
    assert len(cases) == 48_775_286 and len(cases.table) == 3_489_347
    proved = prove_bound("4x4", up_to=30, time_limit=600)
    assert proved.bound == 30
    p = run("maze", "search", "*" * 60, "--size", "4x4", "--strategy", "local")
    assert p.returncode == 2 and "local search keeps every case" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_greedy_strings_solve_every_case_and_respect_the_least_lengths():
    """maze build: a verified string for every size, never shorter than the proven least
    length (2x2 11, 2x3 25, 3x3 at least 40, 4x4 blocked cells 29)."""
    from smtpuzzle.puzzles.maze.cases import check
    from smtpuzzle.puzzles.maze.greedy import build_string

    for size, least in (("2x2", 11), ("2x3", 25), (3, 40), (4, 29)):
        built = build_string(size)
        assert built.string is not None and check(built.string, size).unsolved == 0
        assert least <= built.moves <= built.greedy_moves
        assert built.unsolved == 0 and built.cases == len(reduced_cases(size))
    data = json.loads(run("maze", "build", "--size", "2x4", "--json").stdout)
    assert data["status"] == "sat" and check(data["string"], "2x4").unsolved == 0
    assert data["moves"] == len(data["string"]) >= 37  # 36 moves are proved too few


def test_a_greedy_completion_is_a_shortest_one():
    """Against every string up to its length, on cases of 2x3 and 3x3."""
    from smtpuzzle.puzzles.maze.cases import walk
    from smtpuzzle.puzzles.maze.greedy import shortest_completion

    for size in ("2x3", 3):
        cases = reduced_cases(size)
        for k in (0, len(cases) // 3, len(cases) - 1):
            one = cases.subset(np.array([k]))
            start, target = int(one.start[0]), int(one.target[0])
            found = "".join("NESW"[d] for d in shortest_completion(
                one.moves(0), start, target & ~(1 << start)))
            assert (walk(one, found)[0] & target) == target
            # every string of fewer moves, walked at once: 4^n (cell, visited) pairs
            moves = one.moves(0)
            cell, seen = np.array([start]), np.array([1 << start])
            for _ in range(len(found)):
                assert ((seen & target) != target).all()
                cell = moves[cell].ravel()
                seen = np.repeat(seen, 4) | (1 << cell)
            assert ((seen & target) == target).any()  # the brute force finds it too


def test_a_build_stopped_by_its_time_limit_says_it_is_incomplete():
    p = run("maze", "build", "--size", "3x4", "--time-limit", "0.01")
    assert p.returncode == 1 and "incomplete" in p.stdout


def test_an_export_cnf_that_cannot_be_written_is_refused_before_the_search(tmp_path):
    p = run("maze", "search", "*" * 10, "--size", "2x2", "--backend", "sat",
            "--export-cnf", "/proc/x.cnf")  # /proc takes no new files, even from root
    assert p.returncode == 2 and "cannot write the CNF here" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "found" not in p.stdout


@pytest.mark.parametrize("size", [3, 4, "2x1", "3x1", "5x1", "1x4", "2x2", "3x2", "2x3", "2x4",
                                  pytest.param("3x4", marks=pytest.mark.slow)])  # 3x4: 20 s
def test_the_independent_walk_counts_the_failures_the_case_tables_count(size):
    """verify.py rebuilds every maze from its id by row and column arithmetic; the move
    tables the searches use must fail exactly as many cases, on random strings and on
    strings that solve every case."""
    from smtpuzzle.puzzles.maze.cases import check
    from smtpuzzle.puzzles.maze.greedy import build_string
    from smtpuzzle.puzzles.maze.verify import unsolved_cases

    rng = np.random.default_rng(3)
    strings = ["".join(rng.choice(list("NESW"), n)) for n in (1, 5, 20, 60, 200)]
    # 3x4 grows its string in a few seconds and then drops letters until the limit; a
    # string that is not yet the shortest serves as well.
    universal = build_string(size, time_limit=20).string
    assert universal is not None
    strings += [universal, universal[:-1], universal[1:]]
    for s in strings:
        assert unsolved_cases(s, size) == check(s, size).unsolved, (size, s)
    assert unsolved_cases(universal, size) == 0


def test_a_one_column_maze_walks_up_and_down():
    """In one column, up-down neighbours are numbered one apart; they are still N and S."""
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound
    from smtpuzzle.puzzles.maze.cases import check

    assert check("NNSS", "3x1").unsolved == 0 and check("EEWW", "3x1").unsolved == 7
    assert check("EEWW", "1x3").unsolved == 0 and check("NNSS", "1x3").unsolved == 7
    proved = prove_bound("3x1", time_limit=60)
    assert proved.bound == 3 and set(proved.string) <= set("NS")


def test_a_time_limit_too_short_to_list_4x4_answers_unknown_at_once(monkeypatch):
    """Listing 4x4's 48.8 million canonical cases takes about 16 s and cannot be stopped:
    with less time than that, build, search and bound do not start."""
    from smtpuzzle.puzzles.maze import cases as maze_cases
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound
    from smtpuzzle.puzzles.maze.greedy import build_string

    monkeypatch.setattr(maze_cases, "_listed", set())
    why = maze_cases.listing_too_slow("4x4", 2)
    assert why is not None and "listing the 4x4 cases takes about" in why
    assert maze_cases.listing_too_slow("4x4", None) is None
    assert maze_cases.listing_too_slow("3x4", 2) is None  # 2**17 mazes: a fraction of 1 s
    built = build_string("4x4", time_limit=2)
    assert built.string is None and built.note == why
    for strategy in ("mdd", "local"):
        found = search("*" * 30, "4x4", strategy, time_limit=2)
        assert found.status == "unknown" and found.note == why
    proved = prove_bound("4x4", time_limit=2)
    assert proved.bound == 0 and proved.note == why
    p = run("maze", "build", "--size", "4x4", "--time-limit", "2")
    assert p.returncode == 1 and "unknown: not started: listing the 4x4 cases" in p.stdout


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_local_search_cut_short_by_ctrl_c_keeps_its_best_string():
    from smtpuzzle.puzzles.maze.cases import failing, reduced_cases
    from smtpuzzle.puzzles.maze.local import local_search

    calls = []

    def progress(restarts: int, best: int) -> None:
        calls.append(best)
        if len(calls) == 3:
            raise KeyboardInterrupt

    found = local_search("N" + "*" * 59, 3, None, progress, seed=1)
    assert found.interrupted and found.string is None and len(found.best_string) == 60
    assert 0 < found.best_failing == len(failing(reduced_cases(3), found.best_string))
    result = search("*" * 60, strategy="local", time_limit=1)
    assert result.as_json()["interrupted"] is False and result.best_failing > 0


@pytest.mark.slow  # the maze bound's research runs: --runslow
def test_shorten_rewrites_windows_in_one_move_fewer_and_stops_at_the_least_length():
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound
    from smtpuzzle.puzzles.maze.bound.shorten import shorten
    from smtpuzzle.puzzles.maze.greedy import build_string

    # 2x2: 10 moves are proved impossible, so shortening any universal string stops at 11,
    # and the last width's windows are all refuted.
    least = prove_bound("2x2", time_limit=60)
    assert least.bound == 10 and len(least.string) == 11
    r = shorten(least.string + "NESWNE", "2x2", widths=(4, 8), time_limit=120)
    assert len(r.string) == 11 and r.given == 17 and r.shortened == 6
    assert r.minimal_at == 8 and r.widths == [4, 8] and r.note == "every width tried"
    assert check(r.string, "2x2").unsolved == 0
    # 2x3: the greedy string (34 moves) comes down, a width at a time, near the least (25)
    built = build_string("2x3", time_limit=60).string
    narrow = shorten(built, "2x3", widths=(10,), time_limit=120)
    wide = shorten(built, "2x3", widths=(10, 14, 20), time_limit=300)
    assert len(built) > len(narrow.string) > len(wide.string) >= 25
    assert len(wide.string) <= 28 and check(wide.string, "2x3").unsolved == 0
    assert narrow.minimal_at == 10 and wide.minimal_at == 20
    data = wide.as_json()
    assert data["moves"] == len(wide.string) and data["verified"] and data["given_moves"] == 34


def test_shorten_refuses_a_string_that_is_not_universal_and_keeps_what_it_had_on_ctrl_c(
        monkeypatch):
    from smtpuzzle.errors import PuzzleError
    from smtpuzzle.puzzles.maze.bound import shorten as module

    with pytest.raises(PuzzleError, match="does not solve every case"):
        module.shorten("NESW", "2x3")
    with pytest.raises(PuzzleError, match="at least 2 letters"):
        module.shorten(KNOWN_79, 3, widths=(1,))
    calls = []

    def cut(*args, **kwargs):
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "mdd_search", cut)
    r = module.shorten(KNOWN_79, 3, widths=(12,))
    assert calls == [1] and r.interrupted and r.string == KNOWN_79
    assert r.as_json()["interrupted"] and r.note == "interrupted"
    # Ctrl-C keeps the rewrites made before it, and a rewrite voids what was said of the
    # string before it (minimal at a width)
    monkeypatch.undo()
    real, seen = module.mdd_search, []

    def some(*args, **kwargs):
        found = real(*args, **kwargs)
        seen.append(found[0])
        if found[0] == "sat" and seen.count("sat") == 3:
            raise KeyboardInterrupt
        return found

    monkeypatch.setattr(module, "mdd_search", some)
    start = "NESWNENWSEN" + "NESWNENWSEN"
    r = module.shorten(start, "2x2", widths=(3, 6, 22))
    assert r.interrupted and r.shortened == 2 and len(r.string) == len(start) - 2
    assert check(r.string, "2x2").unsolved == 0 and r.minimal_at == 0


def test_shorten_passes_over_windows_with_too_many_cases_and_leaves_a_cut_one_untallied(
        monkeypatch):
    from smtpuzzle.puzzles.maze.bound import shorten as module

    start = "NESWNENWSEN" + "NESWNENWSEN"
    # a cap of one case: only windows so late that one distinct case is left are searched
    built, walks = [], module._Walks
    monkeypatch.setattr(module, "_Walks", lambda cases: built.append(1) or walks(cases))
    calls = []
    capped = module.shorten(start, "2x2", widths=(6,), max_cases=1,
                            progress=lambda *call: calls.append(call))
    monkeypatch.undo()
    # the walk to the first window searched is shown, its unsolved cases falling, then the
    # windows searched, each with one case left before it
    walked = [u for n, w, k, r, u in calls if k == 0 and u > 1]
    assert walked and walked == sorted(walked, reverse=True) and walked[0] > 1
    assert all(u <= 1 for n, w, k, r, u in calls[len(walked):]) and calls[-1][2] > 0
    free = module.shorten(start, "2x2", widths=(6,))
    first = module._first_searched(reduced_cases("2x2"), start, 1, None)
    assert 0 < first.at and len(first.idx) <= 1 and capped.passed >= first.at
    assert capped.string[:first.at] == start[:first.at] and capped.minimal_at == 0
    assert built == [1]  # the letters before the first window searched: walked once
    assert len(free.string) < len(capped.string) and free.minimal_at == 6
    searched = []

    def late(pattern, size, deadline, **kwargs):  # a search the overall limit cuts
        searched.append(len(kwargs["cases"]))
        time.sleep(max(0.0, deadline - time.perf_counter()) + 0.01)
        return "unknown", None, 0, 0

    monkeypatch.setattr(module, "mdd_search", late)
    r = module.shorten(start, "2x2", widths=(6,), time_limit=0.5)
    assert len(searched) == 1 and r.note == "time limit"
    assert r.windows == 0 and r.passed == 0 and r.string == start


def test_cli_shorten_prints_a_verified_shorter_string():
    out = run("maze", "shorten", "NESWNENWSENNESW", "--size", "2x2", "--widths", "4,8",
              "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["moves"] == 11 and data["minimal_at_width"] == 8 and data["verified"]
    assert check(data["string"], "2x2").unsolved == 0
    text = run("maze", "shorten", "NESWNENWSENNESW", "--size", "2x2", "--widths", "4,8")
    assert "a string of 11 moves solves every 2x2 case (verified; 15 moves given" in text.stdout
    for bad, says in ((["NESW", "--size", "2x3"], "does not solve every case"),
                      (["NESWNENWSEN", "--size", "2x2", "--widths", "8,x"], "widths are")):
        out = run("maze", "shorten", *bad)
        assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr
