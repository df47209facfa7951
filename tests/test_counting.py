"""Counting against published numbers; symmetry breaking against brute de-duplication."""

import base64
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

from smtpuzzle import Board, Piece, Tiling, get_backend, load, parse_picture, piece_set
from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.tiling.counting import (
    _decode_state,
    _encode_state,
    _progress_digest,
    count,
    plan,
)
from smtpuzzle.puzzles.tiling.solve import canonical_key
from tests.helpers import ROOT, cli

FAST = [  # (model, distinct, raw)
    ("pentomino-3x20", 2, 8),
    ("pentomino-4x15", 368, 1472),
    ("pentomino-6x10", 2339, 9356),
    ("pentomino-8x8-center-hole", 65, 520),
    ("pentacube-2x3x10", 12, 96),
    ("soma-3x3x3", 240, 11520),
]
SLOW = [
    ("pentomino-5x12", 1010, 4040),
    ("pentomino-8x8-no-corners", 2170, 17360),
    ("pentomino-8x8-square", 16146, 129168),
    ("pentacube-2x5x6", 264, 2112),
    ("pentacube-3x4x5", 3940, 31520),
]


@pytest.mark.parametrize("name,distinct,raw", FAST)
def test_published_counts(name, distinct, raw):
    t = load(name)
    assert count(t, distinct=True).count == distinct
    if raw <= 20000:
        assert count(t, distinct=False).count == raw


@pytest.mark.slow
@pytest.mark.parametrize("name,distinct,raw", SLOW)
def test_published_counts_slow(name, distinct, raw):
    t = load(name)
    r = count(t, distinct=True, workers=2)
    assert r.complete and r.count == distinct
    assert count(t, distinct=False, workers=2).count == raw


def brute_distinct(t: Tiling) -> int:
    """Every raw solution, canonicalised under the whole symmetry group."""
    perms = np.stack([p for _, p in t.symmetries()])
    enum = get_backend("exact-cover").solutions(t.build_model())
    return len({canonical_key(np.flatnonzero(r.values), perms) for r in enum})


@pytest.mark.parametrize("name", ["pentomino-3x20", "pentomino-8x8-center-hole",
                                  "pentacube-2x3x10", "soma-3x3x3"])
def test_symmetry_breaking_matches_deduplication(name):
    t = load(name)
    assert count(t, distinct=True).count == brute_distinct(t)


def test_fixed_placements_are_deduplicated_under_their_stabilizer():
    # X in a 3x3 board's centre is fixed by all 8 symmetries; a monomino packing around it
    # has classes seen several times in that sub-problem.
    t = Tiling(Board([3, 3]), [Piece("X", piece_set("pentominoes")["X"]),
                               Piece("O1", parse_picture("#"), count=2)], cover="pack")
    p = plan(t, distinct=True)
    assert p.group_size == 8 and any(sp.stabilizer is not None for sp in p.subproblems)
    # corners pairs up to symmetry: adjacent corners or opposite corners
    assert count(t, distinct=True).count == brute_distinct(t) == 2
    assert count(t, distinct=False).count == 6


def test_soma_symmetries_exchange_the_mirror_pieces():
    t = load("soma-3x3x3")
    syms = t.symmetries()
    assert len(syms) == 48
    names = [p.name for p in t.pieces]
    a_start, a_end = t.placement_range(names.index("A"))
    b_start, b_end = t.placement_range(names.index("B"))
    mirror = next(p for k, p in syms if t.board.grid.describe(k) == "reflection")
    images = mirror[a_start:a_end]
    assert ((b_start <= images) & (images < b_end)).all()


def test_one_sided_pieces_keep_only_rotations():
    pieces = [Piece(n, s, flip=False) for n, s in piece_set("tetrominoes").items()]
    t = Tiling(Board([4, 5]), pieces, precheck=False)  # no tiling (the T's parity)
    assert len(t.symmetries()) == 2  # identity and the half turn


def test_other_backends_count_the_same(backend_name):
    pent = piece_set("pentominoes")
    t = Tiling(Board([4, 5]), [Piece(n, pent[n]) for n in "FLUY"])
    assert count(t, distinct=False).count == 12  # the exact-cover engine
    assert count(t, backend=backend_name, distinct=True).count == 3
    assert count(t, backend=backend_name, distinct=False).count == 12


def test_two_workers_count_on_every_backend_and_leave_no_process(backend_name):
    # A pool worker solving with the sat back end starts a solver process of its own
    # (pool workers were daemons and could not); stopped workers must take it with them.
    pent = piece_set("pentominoes")
    t = Tiling(Board([4, 5]), [Piece(n, pent[n]) for n in "FLUY"])
    assert count(t, backend=backend_name, distinct=True, workers=2).count == 3
    cut = count(load("pentomino-6x10"), backend=backend_name, workers=2, time_limit=1.5)
    assert not cut.complete
    time.sleep(0.5)  # SIGKILL from a dying parent is asynchronous
    assert multiprocessing.active_children() == []
    assert _descendants(os.getpid()) == []


def _descendants(pid: int) -> list[int]:
    """Live processes under ``pid``, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


@pytest.mark.parametrize("workers", [1, 2])
def test_count_is_the_same_for_every_worker_count(workers):
    t = load("pentomino-8x8-center-hole")
    assert count(t, distinct=True, workers=workers).count == 65
    assert count(t, distinct=False, workers=workers).count == 520


@pytest.mark.parametrize("touch,n_pieces", [("any", 5), ("none", 3)])
def test_packings_split_into_an_exact_partition(touch, n_pieces):
    # Where cells may stay empty, a split sub-problem also has a part with its first cell
    # empty: the parts add up to the whole, distinct and raw.
    pieces = [Piece(n, s) for n, s in piece_set("tetrominoes").items()][:n_pieces]
    t = Tiling(Board([5, 6]), pieces, cover="pack", touch=touch)
    sp = plan(t, distinct=False, split=False).subproblems[0]
    from smtpuzzle.puzzles.tiling.counting import _refine
    parts = _refine(t, sp)
    assert len(parts[-1].forced) == 1 and len(parts[-1].forbidden) > len(sp.forbidden)
    for distinct in (True, False):
        whole = count(t, distinct=distinct).count
        assert whole > 0 and count(t, distinct=distinct, workers=2).count == whole


def test_time_limit_reports_incomplete():
    r = count(load("pentomino-8x8-square"), distinct=True, time_limit=0.5)
    assert not r.complete and r.subproblems_done < r.subproblems


def test_a_checkpoint_resumes_without_searching_again(tmp_path):
    cut = count(load("pentomino-8x8-square"), checkpoint=tmp_path / "cut.json",
                time_limit=0.5)
    saved = json.loads((tmp_path / "cut.json").read_text())
    assert not cut.complete and len(saved["done"]) == cut.subproblems_done
    t, path = load("pentomino-8x8-center-hole"), tmp_path / "count.json"
    first = count(t, checkpoint=path)
    saved = json.loads(path.read_text())
    kept = dict(list(saved["done"].items())[::2])
    path.write_text(json.dumps({**saved, "done": kept,
                                "check": _progress_digest(kept, saved["running"])}))
    full = count(t, checkpoint=path, workers=2)
    assert full.complete and full.count == first.count == 65 and full.resumed == len(kept)
    # The sub-problems in the file are taken from it, not searched: a count changed there
    # changes the total, and a finished file settles the count without any search.
    saved = json.loads(path.read_text())
    assert len(saved["done"]) == full.subproblems and saved["count_so_far"] == 65
    key = next(iter(saved["done"]))
    saved["done"][key] += 1000
    path.write_text(json.dumps(saved))
    with pytest.raises(PuzzleError, match="damaged count checkpoint .its counts"):
        count(t, checkpoint=path)  # an edit the checksum catches
    path.write_text(json.dumps({k: v for k, v in saved.items() if k != "check"}))
    with pytest.raises(PuzzleError, match="or its checksum removed"):
        count(t, checkpoint=path)  # the same edit, the checksum taken out (once trusted)
    path.write_text(json.dumps({**saved, "check": _progress_digest(saved["done"], {})}))
    again = count(t, checkpoint=path)
    assert again.count == 1065 and again.resumed == again.subproblems


@pytest.mark.parametrize("damage,words", [
    (lambda d: {**d, "done": {**d["done"], "0": -5}}, "negative counts"),
    (lambda d: {**d, "running": {"1": {"count": 0, "share": 2.0, "nodes": 0,
                                               "state": _encode_state({"a": np.zeros(1)})}}},
     "outside 0..1"),
    # a search state that is no saved search (zlib data that is no zip of arrays)
    (lambda d: {**d, "running": {"1": {"count": 0, "share": 0.5, "nodes": 0, "state":
                                       base64.b64encode(zlib.compress(b"PK junk")).decode()}}},
     "not a count checkpoint"),
])
def test_a_damaged_checkpoint_is_refused_in_one_line(tmp_path, damage, words):
    path = tmp_path / "count.json"
    assert count(load("pentomino-3x20"), checkpoint=path).count == 2
    saved = damage(json.loads(path.read_text()))
    path.write_text(json.dumps({**saved, "check": _progress_digest(saved["done"],
                                                                   saved["running"])}))
    p = cli("count", "pentomino-3x20", "--checkpoint", str(path))
    assert p.returncode == 2 and words in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_a_checkpoint_of_another_count_is_refused(tmp_path):
    path = tmp_path / "count.json"
    assert count(load("pentomino-3x20"), checkpoint=path).count == 2
    p = cli("count", "pentomino-4x15", "--checkpoint", str(path))
    assert p.returncode == 2 and "checkpoint of another count (pentomino-3x20" in p.stderr
    path.write_text("{")
    p = cli("count", "pentomino-3x20", "--checkpoint", str(path))
    assert p.returncode == 2 and "not a count checkpoint" in p.stderr
    assert "Traceback" not in p.stderr


def test_count_cli_json_and_incomplete_exit_code():
    p = cli("count", "pentomino-6x10", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["count"] == 2339 and out["distinct"] and out["complete"]
    assert out["backend"] == "exact-cover" and "4 symmetries" in out["group"]
    raw = json.loads(cli("count", "pentomino-3x20", "--raw", "--json").stdout)
    assert raw["count"] == 8 and raw["distinct"] is False
    p = cli("count", "pentomino-8x8-square", "--time-limit", "0.3")
    assert p.returncode == 1 and "INCOMPLETE" in p.stdout


def test_solve_all_lists_verified_solutions():
    out = json.loads(cli("solve", "pentomino-3x20", "--all", "--json").stdout)
    assert out["count"] == 8 and out["complete"]
    keys = {json.dumps(s, sort_keys=True) for s in out["solutions"]}
    assert len(keys) == 8
    out = json.loads(cli("solve", "pentomino-3x20", "--all", "--distinct", "--json").stdout)
    assert out["count"] == 2 and out["complete"]
    out = json.loads(cli("solve", "pentomino-6x10", "--limit", "3", "--json").stdout)
    assert out["count"] == 3 and not out["complete"]


def test_exact_cover_backend_reuses_its_arrays_safely():
    t = load("pentomino-3x20")
    model = t.build_model()
    engine = get_backend("exact-cover")
    from smtpuzzle.puzzles.tiling.counting import submodel

    subs = plan(t, distinct=False, split=False).subproblems
    assert sum(engine.count(submodel(model, sp))[0] for sp in subs) == 8
    # Two enumerations alive at once on one engine must not share a search.
    a, b = iter(engine.solutions(model)), iter(engine.solutions(model))
    first = next(a)
    assert len(list(b)) == 8
    rest = list(a)
    assert len(rest) == 7
    keys = {r.values.tobytes() for r in [first, *rest]}
    assert len(keys) == 8


def test_distinct_listing_cut_by_the_time_limit_says_incomplete():
    p = cli("solve", "pentomino-8x8-square", "--all", "--distinct", "--time-limit", "1",
            "--json")
    out = json.loads(p.stdout)
    assert out["complete"] is False and out["count"] < 16146
    assert p.returncode == 1


@pytest.fixture
def long_subproblems(monkeypatch):
    """Sub-problems of tens of milliseconds searched in steps of about 2 ms (forked workers
    inherit the settings), so that short time limits cut inside them, and slices of 50 ms,
    each handing its search state back."""
    from smtpuzzle.backends.exactcover import search
    from smtpuzzle.puzzles.tiling import counting

    monkeypatch.setattr(counting, "SLICE_S", 0.05)
    monkeypatch.setattr(counting, "_refine", lambda tiling, sp: [sp])
    monkeypatch.setattr(search, "SLICE_S", 0.002)


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_a_count_cut_often_resumes_inside_its_sub_problems(tmp_path, long_subproblems):
    """Cut by short time limits again and again, with 1 or 2 workers in turn: each run goes
    on from the search states in the checkpoint, and the count comes out right."""
    t, path = load("pentomino-8x8-square"), tmp_path / "count.json"
    shares: dict[str, float] = {}
    mid_subproblem = False
    for run in range(400):
        # 0.1 s cuts, longer after 100 runs: on a loaded machine a run gets less done
        r = count(t, distinct=False, checkpoint=path, time_limit=0.1 * (1 + run // 100),
                  workers=1 + run % 2)
        if r.complete:
            break
        saved = json.loads(path.read_text())
        for i, part in saved["running"].items():
            # a sub-problem under way never goes back to the start
            assert part["share"] >= shares.get(i, 0.0) - 1e-9
            shares[i] = part["share"]
            mid_subproblem |= part["count"] > 0
        # 0: a run on a loaded machine may end before its first node (seen with four
        # searches on the two cores)
        assert r.count == saved["count_so_far"] and 0 <= r.share < 1
    assert r.complete and r.count == 129168 and run >= 2
    assert mid_subproblem  # some run stopped inside a sub-problem with solutions found


def test_states_of_another_kernel_in_a_checkpoint_are_searched_again(tmp_path,
                                                                     long_subproblems):
    t, path = load("pentomino-8x8-square"), tmp_path / "count.json"
    cut = count(t, distinct=False, checkpoint=path, time_limit=0.3, solver="sweep")
    assert not cut.complete and json.loads(path.read_text())["running"]
    full = count(t, distinct=False, checkpoint=path, solver="mrv")
    assert full.complete and full.count == 129168


def test_a_damaged_search_state_is_refused(tmp_path, long_subproblems):
    t, path = load("pentomino-8x8-square"), tmp_path / "count.json"
    count(t, distinct=False, checkpoint=path, time_limit=0.3)
    saved = json.loads(path.read_text())
    assert saved["running"]
    next(iter(saved["running"].values()))["state"] = "not base64 zlib"
    path.write_text(json.dumps(saved))
    p = cli("count", "pentomino-8x8-square", "--raw", "--checkpoint", str(path))
    assert p.returncode == 2 and "not a count checkpoint" in p.stderr
    assert "Traceback" not in p.stderr



@pytest.mark.slow  # the kernel-mismatch test below covers a checkpoint searched again
def test_a_search_state_edited_under_a_new_checksum_is_searched_again(tmp_path,
                                                                      long_subproblems):
    """The checksum catches accidents; an edit made with its checksum made anew reaches
    the state check, which refuses a row past the rows (the compiled kernel would read
    outside its arrays), so the sub-problem is searched from its start: the count is right."""
    t, path = load("pentomino-8x8-square"), tmp_path / "count.json"
    count(t, distinct=False, checkpoint=path, time_limit=0.3, solver="sweep")
    saved = json.loads(path.read_text())
    part = next(p for p in saved["running"].values())
    state = _decode_state(part["state"])
    depth = int(state["st"][0])
    assert depth > 0
    state["stack_choice"][depth - 1] = 10**12
    part["state"] = _encode_state(state)
    path.write_text(json.dumps({**saved, "check": _progress_digest(saved["done"],
                                                                   saved["running"])}))
    full = count(t, distinct=False, checkpoint=path, solver="sweep")
    assert full.complete and full.count == 129168

def _cut_then_resumed(tmp_path, cut, done: int) -> tuple[int, str, str]:
    """Count pentacube-3x4x5 raw with two workers and a checkpoint; once ``done``
    sub-problems are saved, ``cut(proc)``; then resume from the checkpoint, which must end
    with the published total (31,520) without searching the saved ones again. Returns the
    cut run's exit code, stdout and stderr."""
    path = tmp_path / "count.json"
    args = [sys.executable, "-m", "smtpuzzle", "count", "pentacube-3x4x5", "--raw",
            "--checkpoint", str(path), "--workers", "2"]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    stop = time.monotonic() + 120
    while time.monotonic() < stop and proc.poll() is None:
        if path.exists() and len(json.loads(path.read_text())["done"]) >= done:
            break
        time.sleep(0.1)
    cut(proc)
    out, err = proc.communicate(timeout=60)
    assert len(json.loads(path.read_text())["done"]) >= done
    p = subprocess.run([*args, "--json"], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    data = json.loads(p.stdout)
    assert p.returncode == 0 and data["count"] == 31520 and data["complete"]
    assert data["resumed"] >= done
    return proc.returncode, out, err


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_ctrl_c_keeps_the_checkpoint_and_the_resumed_count_is_exact(tmp_path):
    """A real Ctrl-C in the middle of a count with two workers: exit 1, INCOMPLETE, and a
    second run from the checkpoint ends with the published total."""
    code, out, err = _cut_then_resumed(tmp_path, lambda p: p.send_signal(signal.SIGINT), 100)
    assert code == 1 and "INCOMPLETE" in out and "Traceback" not in err, err


def test_ctrl_c_takes_the_workers_counts_so_far(monkeypatch):
    """Ctrl-C with two workers: each hands back what its sub-problem found so far (they
    were killed with it, and a sat count of pentomino-6x10 said 0 at 8 s)."""
    import threading

    from smtpuzzle.puzzles.tiling import counting

    def slow(model, sp, engine, state, deadline, progress=None):
        progress(5)  # five found, and the search goes on
        time.sleep(120)

    monkeypatch.setattr(counting, "_slice", slow)  # the forked workers inherit it
    tiling = load("pentomino-6x10")
    subs = plan(tiling, True).subproblems
    timer = threading.Timer(3.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = count(tiling, "sat", workers=2)
    finally:
        timer.cancel()
    assert result.interrupted and not result.complete and result.as_json()["interrupted"]
    assert result.count == 5 * (subs[0].weight + subs[1].weight)


def test_workers_late_past_the_deadline_are_asked_for_their_counts_so_far(monkeypatch):
    """As after Ctrl-Z: the clock ran on while the job was stopped, and the workers, just
    continued, had not answered by the deadline's grace. Their counts were dropped."""
    from smtpuzzle.puzzles.tiling import counting

    def slow(model, sp, engine, state, deadline, progress=None):
        progress(5)
        time.sleep(120)  # past the deadline, as a stopped worker is

    monkeypatch.setattr(counting, "_slice", slow)
    monkeypatch.setattr(counting, "GRACE_S", 0.5)
    tiling = load("pentomino-6x10")
    subs = plan(tiling, True).subproblems
    result = count(tiling, "sat", workers=2, time_limit=2.0)
    assert not result.interrupted and not result.complete
    assert result.count == 5 * (subs[0].weight + subs[1].weight)


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_a_worker_killed_mid_count_stops_it_with_the_checkpoint_kept(tmp_path):
    """A worker killed from outside (as the kernel does out of memory): exit 1, one line
    saying so, INCOMPLETE, and a second run from the checkpoint ends with the total."""
    def kill_a_worker(proc: subprocess.Popen) -> None:
        os.kill(_descendants(proc.pid)[0], signal.SIGKILL)  # a worker: the first child

    code, out, err = _cut_then_resumed(tmp_path, kill_a_worker, 50)
    assert code == 1 and "INCOMPLETE" in out, (out, err)
    assert "stopped: a worker process died (SIGKILL)" in err and "Traceback" not in err, err


def test_a_solver_process_killed_mid_count_stops_it_like_a_worker():
    # The sat back end solves in a child of its own; the kernel may kill that one instead.
    proc = subprocess.Popen([sys.executable, "-m", "smtpuzzle", "count", "pentomino-6x10",
                             "--backend", "sat"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    stop = time.monotonic() + 60
    while time.monotonic() < stop and not _descendants(proc.pid):
        time.sleep(0.1)
    time.sleep(1.0)  # into the count, past the solver's start
    os.kill(_descendants(proc.pid)[0], signal.SIGKILL)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "INCOMPLETE" in out, (out, err)
    assert "stopped: the solver process died (SIGKILL)" in err and "Traceback" not in err, err


def _three_dominoes(**board: object) -> Tiling:
    domino = parse_picture("##")
    return Tiling(Board([2, 3], **board), [Piece(n, domino) for n in "ABC"])


def test_pieces_drawn_alike_are_told_apart_by_the_symmetries():
    """Three named dominoes on 2x3: 18 tilings; 6 classes under the board's 4 symmetries
    (Burnside: 18 fixed by the identity, 6 by the mirror that keeps each domino of the
    three upright ones), 9 under its 2 rotations. Each symmetry maps a piece onto itself
    (once, onto another piece of the same shape: the count came out 5)."""
    t = _three_dominoes()
    assert (count(t, distinct=False).count, count(t).count,
            count(t, group="rotations").count) == (18, 6, 9)
    for _, perm in t.symmetries():
        for k in range(3):
            s, e = t.placement_range(k)
            assert ((s <= perm[s:e]) & (perm[s:e] < e)).all()


def test_pieces_whose_placements_share_cells_keep_the_identity():
    """On a wrapping board an L and a T tetromino can cover the same four cells; the
    identity still maps each piece onto itself (it once found no symmetry at all)."""
    tet = piece_set("tetrominoes")
    t = Tiling(Board([2, 3], wrap=("columns",)),
               [Piece("L4", tet["L4"]), Piece("T4", tet["T4"], count=1, at_most=True),
                Piece("D", parse_picture("##"))])
    assert len(t.symmetries()) == 12
    raw = count(t, distinct=False).count
    assert raw == count(t, distinct=False, backend="cpsat").count == 6
    assert count(t).count == 1


def test_a_checkpoint_of_a_puzzle_with_other_rules_is_refused(tmp_path):
    """Same name, same pieces, same plan, another rule (two pieces kept apart)."""
    path = tmp_path / "count.json"
    t = load("pentomino-3x20")
    assert count(t, checkpoint=path).count == 2
    apart = Tiling(t.board, t.pieces, name=t.name, apart=["I", "X"])
    with pytest.raises(Exception, match="checkpoint of another count"):
        count(apart, checkpoint=path)
    assert count(apart).count == 0


def test_touch_none_with_a_piece_that_fits_nowhere():
    tet = piece_set("tetrominoes")
    t = Tiling(Board([2, 3]), [Piece("I4", tet["I4"], count=1, at_most=True),
                               Piece("D", parse_picture("##"), count=1, at_most=True)],
               cover="pack", touch="none")
    # the domino alone, or nothing: 7 placements and the empty packing
    assert count(t, distinct=False).count == count(t, distinct=False, backend="sat").count == 8


def test_the_cli_counts_pieces_drawn_alike_and_warns_once(tmp_path):
    path = tmp_path / "dominoes.toml"
    path.write_text('[board]\nsize = [2, 3]\n' + "".join(
        f'[[pieces]]\nname = "{n}"\npicture = "##"\n' for n in "ABC"), encoding="utf-8")
    p = cli("count", str(path))
    assert p.returncode == 0 and "6 solutions distinct" in p.stdout
    assert p.stderr.count("warning") == 1 and "pieces A, B and C have the same shape" in p.stderr


def test_a_sub_problem_queued_past_the_deadline_is_not_built(monkeypatch):
    from smtpuzzle.puzzles.tiling import counting

    def never(*args, **kwargs):
        raise AssertionError("a search began after the deadline")

    monkeypatch.setattr(counting, "solve_subproblem", never)
    tiling = load("pentomino-6x10")
    sp = plan(tiling, True).subproblems[0]
    part = counting._slice(tiling.build_model(), sp, get_backend("z3"), None,
                           time.monotonic() - 1.0)
    assert (part.count, part.done, part.state) == (0, False, None)
