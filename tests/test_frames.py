"""Frames puzzles: stage-1 oracles, back ends agreeing on stage 1 and stage 2, the cache,
hole placement, verification and the command line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from smtpuzzle import (
    Board,
    Model,
    Piece,
    PuzzleError,
    Status,
    VerificationError,
    count,
    parse_picture,
    piece_set,
)
from smtpuzzle.cli.app import run
from smtpuzzle.library import load_frames
from smtpuzzle.puzzles.frames import cubes as frames_cubes
from smtpuzzle.puzzles.frames import dive as frames_dive
from smtpuzzle.puzzles.frames import sets as frames_sets
from smtpuzzle.puzzles.frames import solve as frames_solve
from smtpuzzle.puzzles.frames.cubes import solve_cubes
from smtpuzzle.puzzles.frames.puzzle import Frames, FramesSolution
from smtpuzzle.puzzles.frames.sets import cache_path, enumerate_sets
from smtpuzzle.puzzles.frames.solve import FramesOptions, lay_out, solve_frames
from smtpuzzle.puzzles.tiling.puzzle import Placement, Tiling, TilingSolution
from tests.helpers import ROOT, cli


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SMTPUZZLE_CACHE", str(tmp_path / "cache"))


def pentominoes_in(rows: int, cols: int, n: int) -> Frames:
    pieces = [Piece(k, s) for k, s in piece_set("pentominoes").items()]
    return Frames(Board((rows, cols)), pieces, n, name=f"pentomino-{rows}x{cols}x{n}")


def test_compositions_follow_area_and_the_split():
    pentahex = load_frames("pentahex-6x9x5")
    assert pentahex.compositions() == [(0, 9), (6, 4)]  # 5a + 6b = 54
    assert pentahex.splits() == [((0, 9), (0, 9), (0, 9), (6, 4), (6, 4))]
    hexo = load_frames("hexomino-6x6x6")
    assert hexo.compositions() == [(0, 6), (2, 5)]  # both trominoes share a square


def test_parity_filter():
    hexo = load_frames("hexomino-6x6x6")
    imbalance = hexo._colour_imbalance[:35]  # hexominoes: 0 or 2 on a checkerboard
    assert sorted(Counter(imbalance.tolist()).items()) == [(0, 24), (2, 11)]
    unbalanced, balanced = np.flatnonzero(imbalance == 2), np.flatnonzero(imbalance == 0)
    members = np.zeros(len(hexo.pieces), dtype=bool)
    members[unbalanced[:3]] = True  # +-2 +-2 +-2 is never 0
    members[balanced[:3]] = True
    assert not hexo.parity_ok(members)
    members[unbalanced[2]] = False
    members[balanced[3]] = True
    assert hexo.parity_ok(members)


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_hexomino_stage1_reproduces_hamlyn():
    puzzle = load_frames("hexomino-6x6x6")
    sets = enumerate_sets(puzzle, workers=2)
    assert sets.complete
    assert Counter(sets.sets.sum(axis=1).tolist()) == {6: 13_710, 7: 60_729}


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_hexomino_6x6x6_solved_and_rerun_from_cache():
    puzzle = load_frames("hexomino-6x6x6")
    answer = solve_frames(puzzle, workers=2)
    assert answer.status == "sat" and not answer.stage1.cached
    puzzle.verify(answer.solutions[0])
    again = solve_frames(load_frames("hexomino-6x6x6"))
    assert again.stage1.cached and len(again.stage1.sets) == 74_439
    assert again.status == "sat"


def test_a_half_written_cache_is_listed_again():
    # Two runs storing one list at the same moment could leave a truncated file behind.
    puzzle = pentominoes_in(5, 6, 2)
    first = enumerate_sets(puzzle)
    path = cache_path(puzzle)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    again = enumerate_sets(puzzle)
    assert not again.cached and np.array_equal(again.sets, first.sets)
    assert enumerate_sets(puzzle).cached and not list(path.parent.glob("*.tmp.npz"))


@pytest.mark.slow
def test_hexomino_6x6x6_stage2_by_cpsat_cubes():
    # The answer SMT and CP-SAT could not give on the whole model: 16 s with two workers.
    puzzle = load_frames("hexomino-6x6x6")
    answer = solve_frames(puzzle, stage2="cpsat", workers=2)
    assert answer.status == "sat" and answer.stage2["model"] == "cubes"
    assert answer.stage2["decided"] >= 1 and answer.stage2["calls"] > answer.stage2["decided"]
    puzzle.verify(answer.solutions[0])


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_hexomino_stage2_interrupted_says_unknown_and_exits(backend):
    # Ctrl-C while the cubes run on two workers: the answer is "unknown (interrupted)" and
    # the process ends (the pool's workers are stopped, none is left for exit to wait on).
    enumerate_sets(load_frames("hexomino-6x6x6"), workers=2)  # stage 1 cached for the CLI
    proc = subprocess.Popen([sys.executable, "-m", "smtpuzzle", "frames", "hexomino-6x6x6",
                             "--stage2", backend, "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(5)  # start-up and the cached stage 1 take about 1 s; no cube is done in 5
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "Traceback" not in err, err
    assert "unknown (interrupted)" in out + err


@pytest.mark.slow
def test_hexomino_stage1_without_the_apart_rule():
    puzzle = load_frames("hexomino-6x6x6")
    puzzle.apart = []
    sets = enumerate_sets(puzzle, workers=2, cache=False)
    assert Counter(sets.sets.sum(axis=1).tolist()) == {6: 13_710, 7: 70_904}


def test_stage1_the_same_for_every_backend_and_worker_count():
    puzzle = pentominoes_in(5, 6, 2)
    ref = enumerate_sets(puzzle, cache=False)
    assert ref.complete and len(ref.sets) == 172
    assert np.array_equal(enumerate_sets(puzzle, workers=2, cache=False).sets, ref.sets)
    got = enumerate_sets(puzzle, backend="sat", cache=False)
    assert got.complete and np.array_equal(got.sets, ref.sets)
    # CP-SAT took 50 s on the 172 sets above; 4x5 frames have 26 sets.
    small = pentominoes_in(4, 5, 3)
    ref = enumerate_sets(small, cache=False)
    assert ref.complete and len(ref.sets) == 26
    got = enumerate_sets(small, backend="cpsat", cache=False)
    assert got.complete and np.array_equal(got.sets, ref.sets)


@pytest.mark.parametrize("stage2,model", [("exact-cover", "cover"), ("sat", "cover"),
                                          ("sat", "index"), ("cpsat", "cover"),
                                          ("cpsat", "index"), ("z3", "cover"), ("z3", "index"),
                                          ("sat", "table"), ("cpsat", "table"),
                                          ("z3", "table"), ("exact-cover", "cubes"),
                                          ("cpsat", "cubes"), ("sat", "cubes"),
                                          ("z3", "cubes"), ("cpsat", "seed"),
                                          ("z3", "seed"), ("sat", "seed")])
def test_stage2_backends_agree(stage2, model):
    # One answer, not two: the frames are interchangeable and each model breaks that.
    puzzle = pentominoes_in(5, 6, 2)  # the two halves split one way only
    answer = solve_frames(puzzle, stage2=stage2, stage2_model=model, limit=None)
    assert answer.status == "sat" and answer.complete
    assert len(answer.solutions) == 1
    halves = {frozenset(pl.piece for pl in f.placements) for f in answer.solutions[0].frames}
    assert halves == {frozenset("ILTWYZ"), frozenset("FNPUVX")}


def _exact_covers(sets: np.ndarray) -> set[tuple[int, ...]]:
    """Every choice of rows that covers each column once, by plain recursion."""
    found: set[tuple[int, ...]] = set()

    def walk(chosen: list[int], used: np.ndarray) -> None:
        if used.all():
            found.add(tuple(sorted(chosen)))
            return
        col = int(np.flatnonzero(~used)[0])
        for r in np.flatnonzero(sets[:, col]):
            if not (sets[r] & used).any():
                walk(chosen + [int(r)], used | sets[r])

    walk([], np.zeros(sets.shape[1], dtype=bool))
    return found


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("slice_s", [1.0, 0.0])
def test_cubes_find_every_exact_cover(seed, slice_s):
    # A slice of 0 leaves every part undecided: the split then runs to the leaves.
    rng = np.random.default_rng(seed)
    sets = rng.random((40, 9)) < 0.3
    sets = sets[sets.any(axis=1)]
    truth = _exact_covers(sets)
    for backend in ("cpsat", "exact-cover"):
        got = solve_cubes(sets, backend, limit=None, slice_s=slice_s)
        assert got.complete and not got.interrupted
        assert {tuple(a) for a in got.answers} == truth and len(got.answers) == len(truth)
        assert got.status == ("sat" if truth else "unsat")
        if truth:
            one = solve_cubes(sets, backend, limit=1, slice_s=slice_s)
            assert one.status == "sat" and tuple(one.answers[0]) in truth


def test_cubes_split_over_two_workers_and_stop_at_the_time_limit():
    rng = np.random.default_rng(3)
    sets = rng.random((60, 10)) < 0.3
    truth = _exact_covers(sets)
    got = solve_cubes(sets, "cpsat", limit=None, workers=2, slice_s=0.0)
    assert got.complete and {tuple(a) for a in got.answers} == truth
    late = solve_cubes(sets, "cpsat", limit=None, time_limit=0.0)
    assert late.status == "unknown" and not late.complete


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("stop", ["ctrl-c", "time limit"])
def test_cubes_keep_the_answers_a_stopped_search_had_found(monkeypatch, workers, stop):
    # At the deadline and on Ctrl-C the pool was closed at once: the answers its workers
    # had found in their cubes were lost with them.
    import threading

    def found_then_waits(self, chosen, rows, used, deadline):
        self.answers.append([chosen[0]])
        end = time.monotonic() + 60 if deadline is None else deadline
        while time.monotonic() < end:
            time.sleep(0.05)
        return False

    monkeypatch.setattr(frames_cubes._Cubes, "decide", found_then_waits)
    sets = np.eye(6, dtype=bool)[[0, 1, 2, 3, 4, 5] * 2]  # two cubes: a set of piece 0 each
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    if stop == "ctrl-c":
        timer.start()
    try:
        got = solve_cubes(sets, "cpsat", limit=None, workers=workers,
                          time_limit=None if stop == "ctrl-c" else 2.0)
    finally:
        timer.cancel()
    assert len(got.answers) == workers and got.status == "sat" and not got.complete
    assert got.interrupted == (stop == "ctrl-c")


def _worker_dies_on_its_second_task(module, monkeypatch) -> None:
    """The pool's workers run ``module._work``; a worker given its second task is SIGKILLed
    there, as the kernel kills a process out of memory."""
    work, calls = module._work, [0]

    def dying(*args):
        calls[0] += 1  # per worker: each has its own copy
        if calls[0] == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return work(*args)

    monkeypatch.setattr(module, "_work", dying)


def test_a_worker_killed_in_stage_2_keeps_the_answers_found(monkeypatch):
    rng = np.random.default_rng(3)
    sets = rng.random((60, 10)) < 0.3
    truth = _exact_covers(sets)
    _worker_dies_on_its_second_task(frames_cubes, monkeypatch)
    got = solve_cubes(sets, "cpsat", limit=None, workers=2, slice_s=0.0)
    assert got.interrupted and not got.complete and got.decided < got.cubes
    assert got.lost == "a worker process died (SIGKILL)"
    assert got.calls > 0  # the first task's result came before the death and was kept
    assert {tuple(a) for a in got.answers} <= truth


@pytest.mark.parametrize("workers", [1, 2])
def test_stage_1_stopped_by_ctrl_c_keeps_the_sets_its_workers_had_listed(monkeypatch,
                                                                        workers):
    # On Ctrl-C the pool was closed at once: the sets its workers had listed in the
    # sub-problems under way were lost with them, and the list came back empty.
    import threading

    search_one = frames_sets._search_one

    def listed_then_waits(job, i, collector, deadline, tick=None):
        search_one(job, i, collector, deadline, tick)
        time.sleep(60)  # Ctrl-C comes here, with this sub-problem's sets collected
        return True

    puzzle = pentominoes_in(5, 6, 2)
    listed = {r.tobytes() for r in enumerate_sets(puzzle, cache=False).sets}
    monkeypatch.setattr(frames_sets, "_search_one", listed_then_waits)
    timer = threading.Timer(3.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        got = enumerate_sets(puzzle, workers=workers, cache=False)
    finally:
        timer.cancel()
    assert not got.complete and got.stopped == "interrupted"
    assert got.tilings > 0 and len(got.sets) > 0
    assert all(r.tobytes() in listed for r in got.sets)


def test_stage_1_workers_late_past_the_deadline_are_asked_for_their_sets(monkeypatch):
    # As after Ctrl-Z: the clock ran on while the job was stopped, and the workers, just
    # continued, had not answered by the deadline's grace. Their sets were dropped.
    search_one = frames_sets._search_one

    def listed_then_late(job, i, collector, deadline, tick=None):
        search_one(job, i, collector, None, tick)
        time.sleep(60)  # past the deadline, as a stopped worker is
        return True

    puzzle = pentominoes_in(5, 6, 2)
    listed = {r.tobytes() for r in enumerate_sets(puzzle, cache=False).sets}
    monkeypatch.setattr(frames_sets, "_search_one", listed_then_late)
    monkeypatch.setattr(frames_sets, "GRACE_S", 0.5)
    got = enumerate_sets(puzzle, workers=2, cache=False, time_limit=2.0)
    assert not got.complete and got.stopped == "time limit"
    assert got.tilings > 0 and len(got.sets) > 0
    assert all(r.tobytes() in listed for r in got.sets)


def test_a_worker_killed_in_stage_1_stops_the_frames_as_interrupted(monkeypatch, capsys,
                                                                     tmp_path):
    puzzle = pentominoes_in(5, 6, 2)
    listed = {r.tobytes() for r in enumerate_sets(puzzle, cache=False).sets}
    _worker_dies_on_its_second_task(frames_sets, monkeypatch)
    got = enumerate_sets(puzzle, workers=2, cache=False)
    assert not got.complete and got.stopped == "interrupted"
    assert got.lost == "a worker process died (SIGKILL)"
    assert got.tilings > 0  # the first task's tilings came before the death and were kept
    assert all(r.tobytes() in listed for r in got.sets)  # what was listed stands
    answer = solve_frames(puzzle, workers=2, cache=False)
    assert answer.status == "unknown" and answer.interrupted
    assert answer.as_json()["worker_lost"] == got.lost
    path = tmp_path / "halves.toml"
    path.write_text('frames = 2\n[board]\nsize = [5, 6]\n[[pieces]]\nset = "pentominoes"\n')
    capsys.readouterr()
    assert run(["frames", str(path), "--workers", "2", "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert "unknown (stopped: a worker process died (SIGKILL))" in out, out
    # Answers found before a death are shown, and a line on stderr says why there may be
    # more (which answers come before a worker dies is up to the pool: the answer is made).
    solve = frames_solve.solve_frames

    def cut_short(*args, **kwargs):
        answer = solve(*args, **kwargs)
        answer.complete, answer.lost = False, got.lost
        return answer

    monkeypatch.setattr(frames_solve, "solve_frames", cut_short)
    code = run(["frames", str(path), "--stage2", "cpsat", "--all"])
    out, err = capsys.readouterr()
    assert code == 1 and "1 verified" in out and "stopped early: there may be more" in out, \
        (out, err)
    assert "stopped: a worker process died (SIGKILL); the answers found so far are shown" \
        in err, err


def test_exact_cover_takes_the_cover_model_only():
    with pytest.raises(PuzzleError, match="the table model has integers"):
        solve_frames(pentominoes_in(5, 6, 2), stage2="exact-cover", stage2_model="table")


def test_no_solution_when_a_piece_fills_no_frame():
    answer = solve_frames(pentominoes_in(4, 5, 3))
    assert answer.status == "unsat" and "X" in answer.note
    data = answer.as_json()
    assert data["decided"] and data["complete"] and not data["verified"] and not data["answers"]


def test_stage1_time_limit_gives_unknown_not_unsat():
    answer = solve_frames(load_frames("pentahex-6x9x5"), time_limit=1, cache=False)
    assert answer.status == "unknown" and not answer.stage1.complete
    assert not answer.as_json()["decided"] and not answer.as_json()["complete"]


def test_hole_is_searched_and_must_be_the_same_in_every_frame():
    p = parse_picture("##\n##\n#.")
    u = parse_picture("#.#\n###")
    two_p = Frames(Board((2, 3)), [Piece("P1", p), Piece("P2", p)], 2, hole_search=True)
    answer = solve_frames(two_p)
    assert answer.status == "sat"
    assert answer.hole in {(0, 0), (0, 2), (1, 0), (1, 2)}
    two_p.verify(answer.solutions[0])
    # P leaves a corner free, U the middle of a long side: no common hole.
    mixed = Frames(Board((2, 3)), [Piece("P", p), Piece("U", u)], 2, hole_search=True)
    assert solve_frames(mixed).status == "unsat"
    assert len(mixed.hole_places()) == 2  # corner, middle of a long side


def test_verify_rejects_bad_answers():
    puzzle = pentominoes_in(5, 6, 2)
    good = solve_frames(puzzle).solutions[0]
    first, second = good.frames
    with pytest.raises(VerificationError, match="used 2 times"):
        puzzle.verify(FramesSolution([first, first]))
    moved = [Placement(pl.piece, tuple((r, c + 1) for r, c in pl.cells))
             for pl in first.placements]
    with pytest.raises(VerificationError, match="frame 1"):
        puzzle.verify(FramesSolution([TilingSolution(moved), second]))
    with pytest.raises(VerificationError, match="1 frames"):
        puzzle.verify(FramesSolution([first]))
    # a piece moved to the other frame: the answer is wrong, not the puzzle impossible (the
    # frame's area precheck once said "no solution", a PuzzleError)
    swapped = [TilingSolution(first.placements[1:]),
               TilingSolution([*second.placements, first.placements[0]])]
    with pytest.raises(VerificationError, match="frame 1: .* cells are left uncovered"):
        puzzle.verify(FramesSolution(swapped))


def test_verify_reads_hole_search_cells_given_as_lists():
    p = parse_picture("##\n##\n#.")
    two_p = Frames(Board((2, 3)), [Piece("P1", p), Piece("P2", p)], 2, hole_search=True)
    answer = solve_frames(two_p).solutions[0]
    as_lists = FramesSolution([TilingSolution([Placement(pl.piece, [list(c) for c in pl.cells])
                                               for pl in f.placements])
                               for f in answer.frames])
    two_p.verify(as_lists)  # as as_json writes them (a set of lists failed: unhashable)


@pytest.mark.parametrize("backend", ["exact-cover", "cpsat", "sat"])
def test_apart_pieces_may_not_touch(backend):
    bar = parse_picture("###")
    pieces = [Piece("A", bar), Piece("B", bar)]
    free = Tiling(Board((3, 3)), pieces, cover="pack")
    apart = Tiling(Board((3, 3)), pieces, cover="pack", apart=["A", "B"])
    # Two disjoint bars: 3 pairs of rows and 3 of columns, A and B either way round;
    # apart leaves only rows 0 and 2 or columns 0 and 2.
    assert count(free, backend, distinct=False).count == 12
    assert count(apart, backend, distinct=False).count == 4
    touching = TilingSolution([Placement("A", ((0, 0), (0, 1), (0, 2))),
                               Placement("B", ((1, 0), (1, 1), (1, 2)))])
    free.verify(touching)
    with pytest.raises(VerificationError, match="touch"):
        apart.verify(touching)


def test_obvious_impossibilities_reported_at_once():
    pieces = [Piece(k, s) for k, s in piece_set("pentominoes").items()]
    with pytest.raises(PuzzleError, match="cover 60 cells but 3 frames of 21 cells"):
        Frames(Board((3, 7)), pieces, 3)
    with pytest.raises(PuzzleError, match="larger than the 2x3 frame"):
        Frames(Board((2, 3)), [Piece("I6", parse_picture("#" * 6))], 1)
    with pytest.raises(PuzzleError, match="exactly once"):
        Frames(Board((5, 6)), [Piece("P", parse_picture("##\n##\n#."), count=12)], 2)


def test_toml_errors(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('frames = 0\n[board]\nsize = [5, 6]\n[[pieces]]\nset = "pentominoes"\n')
    r = cli("frames", str(path))
    assert r.returncode == 2 and "bad.toml:1: frames must be" in r.stderr
    path.write_text('frames = 2\ntouch = "none"\n[board]\nsize = [5, 6]\n'
                    '[[pieces]]\nset = "pentominoes"\n')
    r = cli("frames", str(path))
    assert r.returncode == 2 and "does not apply to a frames puzzle" in r.stderr
    path.write_text('[board]\nsize = [5, 6]\nhole = "search"\n[[pieces]]\nset = "pentominoes"\n')
    r = cli("solve", str(path))
    assert r.returncode == 2 and "frames puzzles only" in r.stderr
    path.write_text('frames = 2\nmethod = "fast"\n[board]\nsize = [5, 6]\n'
                    '[[pieces]]\nset = "pentominoes"\n')
    r = cli("frames", str(path))
    assert r.returncode == 2 and "bad.toml:2: method must be one of" in r.stderr


def test_cli_frames_json(tmp_path):
    path = tmp_path / "halves.toml"
    path.write_text('frames = 2\n[board]\nsize = [5, 6]\n[[pieces]]\nset = "pentominoes"\n')
    r = cli("frames", str(path), "--json", "--stage2", "cpsat", "--png", str(tmp_path / "h.png"))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["status"] == "sat" and len(data["frames"]) == 2
    # one answer asked for: decided and verified, not the whole list
    assert data["decided"] and data["verified"] and data["answers"] == 1
    assert not data["complete"]
    assert data["stage1"]["sets"] == 172 and data["stage2"]["backend"] == "cpsat"
    cells = [tuple(c) for f in data["frames"] for p in f["placements"] for c in p["cells"]]
    assert len(cells) == 60 and len(set(cells)) == 30  # each frame's 30 cells once
    assert (tmp_path / "h.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = cli("solve", "hexomino-6x6x6")
    assert r.returncode == 2 and "smtpuzzle frames hexomino-6x6x6" in r.stderr


@pytest.mark.parametrize("method", ["lazy", "enumerate"])
def test_lazy_and_listed_methods_agree(method):
    halves = solve_frames(pentominoes_in(5, 6, 2), method=method)
    assert halves.status == "sat" and (halves.lazy is not None) == (method == "lazy")
    pentominoes_in(5, 6, 2).verify(halves.solutions[0])
    # X fits in no 4x5 frame with three other pentominoes: every proposal fails its check.
    none = solve_frames(pentominoes_in(4, 5, 3), method=method)
    assert none.status == "unsat"


def test_auto_turns_lazy_when_the_sets_are_too_many():
    answer = solve_frames(pentominoes_in(5, 6, 2), max_sets=10)
    assert answer.status == "sat" and answer.stage1.too_many and answer.lazy is not None
    with pytest.raises(PuzzleError, match="one answer"):
        solve_frames(pentominoes_in(5, 6, 2), method="lazy", limit=None)


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_dive_chooses_frames_by_the_lp_and_finishes_exactly(monkeypatch):
    # Short samples, and frames fixed by the LP down to one left (else the dive would
    # go straight to its exact finish on a puzzle this small).
    for name, value in (("PROBE_S", 0.2), ("POOL_S", 0.5), ("REFILL_S", 0.2),
                        ("FINISH_FRAMES", 1)):
        monkeypatch.setattr(frames_dive, name, value)
    puzzle = pentominoes_in(5, 6, 2)  # exactly one pair of sets splits the pieces
    answer = solve_frames(puzzle, method="dive", time_limit=120)
    assert answer.status == "sat" and answer.dive is not None and answer.dive.lps >= 1
    puzzle.verify(answer.solutions[0])
    assert answer.as_json()["stage1"]["dives"] == answer.dive.dives
    # These seeds' dives chose the same few dead-end sets until the limit, before failed
    # finishes were remembered.
    for seed in (2, 3, 11):
        assert frames_dive.solve_dive(puzzle, time_limit=120, seed=seed).status == "sat"
    # Mixed sizes: the hexominoes and the tromino pair in six 6x6 squares, one frame chosen
    # by the LP (with three, the dive took 6-44 s over seeds; with five, 1.5-17 s).
    hexominoes = load_frames("hexomino-6x6x6")
    monkeypatch.setattr(frames_dive, "FINISH_FRAMES", 5)
    answer = solve_frames(hexominoes, method="dive", time_limit=300)
    assert answer.status == "sat" and answer.dive.lps >= 1
    hexominoes.verify(answer.solutions[0])
    with pytest.raises(PuzzleError, match="one answer"):
        solve_frames(puzzle, method="dive", limit=None)
    # A puzzle file's method is what auto does; the heptomino layers name the dive.
    assert load_frames("heptomino-8x8x12").method == "dive"
    named = solve_frames(replace(puzzle, method="dive"), time_limit=120)
    assert named.status == "sat" and named.dive is not None
    # Small enough for the exact finish alone: no answer is a proof. A 2x3 frame takes two
    # L trominoes or two straight ones, and three of each do not pair up.
    odd = Frames(Board((2, 3)), [Piece(f"{k}{i}", parse_picture(pic)) for i in range(3)
                                 for k, pic in (("L", "##\n#."), ("I", "###"))], 3)
    assert solve_frames(odd, method="dive", time_limit=60).status == "unsat"
    assert solve_frames(odd, method="enumerate").status == "unsat"


# The first heptomino-8x8x12 answer the dive found (hole at (3, 3)): the piece set per layer.
HEPTOMINO_LAYERS = [
    "S016 S019 S036 S047 S065 S079 S091 S103 S105", "S002 S010 S018 S051 S052 S064 S083 S092 S099",
    "S005 S026 S031 S037 S039 S053 S061 S086 S107", "S003 S021 S027 S034 S054 S076 S088 S100 S108",
    "S012 S017 S022 S060 S068 S069 S077 S087 S089", "S008 S013 S035 S058 S085 S093 S094 S096 S106",
    "S014 S015 S023 S057 S066 S074 S080 S090 S098", "S004 S024 S029 S050 S055 S072 S073 S081 S082",
    "S001 S011 S028 S038 S040 S045 S059 S063 S084", "S007 S033 S042 S043 S046 S067 S095 S097 S102",
    "S020 S032 S041 S044 S049 S062 S071 S078 S104", "S006 S009 S025 S030 S048 S056 S070 S075 S101",
]


def test_heptomino_layers_found_by_the_dive_lay_out_and_verify():
    puzzle = load_frames("heptomino-8x8x12").with_hole((3, 3))
    names = [p.name for p in puzzle.pieces]
    sets = np.array([[n in layer.split() for n in names] for layer in HEPTOMINO_LAYERS])
    assert (sets.sum(axis=0) == 1).all()  # every heptomino in exactly one layer
    solution = lay_out(puzzle, sets, list(range(12)))
    puzzle.verify(solution)
    swapped = sets.copy()  # two pieces traded between layers: some layer no longer tiles
    swapped[0, names.index("S016")], swapped[1, names.index("S016")] = False, True
    swapped[1, names.index("S002")], swapped[0, names.index("S002")] = False, True
    with pytest.raises(PuzzleError, match="stage 3"):
        lay_out(puzzle, swapped, list(range(12)))


@pytest.mark.slow
def test_heptomino_8x8x12_solved_by_the_dive():
    puzzle = load_frames("heptomino-8x8x12")
    answer = solve_frames(puzzle, hole=(3, 3), time_limit=3600)
    assert answer.status == "sat" and answer.dive is not None
    puzzle.with_hole((3, 3)).verify(answer.solutions[0])


@pytest.mark.slow
def test_pentahex_6x9x5_solved_lazily():
    puzzle = load_frames("pentahex-6x9x5")
    answer = solve_frames(puzzle, method="lazy")
    assert answer.status == "sat"
    puzzle.verify(answer.solutions[0])


def test_unique_rows_is_numpys_unique_on_packed_rows():
    from smtpuzzle.puzzles.frames.sets import unique_rows

    rng = np.random.default_rng(7)
    for width in (1, 5, 8, 9, 17):
        rows = rng.integers(0, 4, size=(500, width), dtype=np.uint8)  # many repeats
        assert np.array_equal(unique_rows(rows), np.unique(rows, axis=0))
    assert unique_rows(np.zeros((0, 3), dtype=np.uint8)).shape == (0, 3)


def test_listing_at_the_first_hole_place_is_not_called_complete():
    """With the hole searched, the answers listed are one place's; the places after it
    are not tried, so the listing is not all of them (it once said it was)."""
    shapes = piece_set("pentominoes")
    puzzle = Frames(Board((3, 7)), [Piece(n, shapes[n]) for n in "ILNPTUVY"], 2,
                    hole_search=True)
    answer = solve_frames(puzzle, limit=None, cache=False)
    assert answer.hole == (0, 2) and answer.solutions and not answer.complete
    assert "4 more places were not tried" in answer.note == answer.as_json()["note"]
    assert answer.untried_places == 4
    other = solve_frames(puzzle, limit=None, cache=False, hole=(1, 1))  # one place: all of it
    assert other.complete and other.solutions
    puzzle.verify(other.solutions[0])


@pytest.mark.parametrize(("cut", "code", "note"), [
    ("interrupted", 1, "interrupted: there may be more"),
    ("time", 1, "time limit reached: there may be more"),
    ("limit", 0, "stopped at --limit 1: there may be more"),
    ("complete", 0, "all of them")])
def test_frames_listing_cut_short_says_why_and_exits_as_solve_all_does(monkeypatch, capsys,
                                                                      cut, code, note):
    # A listing (--all, --limit) that Ctrl-C or the time limit stops is incomplete: exit 1,
    # as solve --all's is; stopped by --limit it is what was asked for: exit 0.
    solve = frames_solve.solve_frames

    def cut_short(*args, **kwargs):
        answer = solve(*args, **kwargs)
        answer.solutions = answer.solutions[:1]
        answer.complete = cut == "complete"
        answer.interrupted = cut == "interrupted"
        return answer

    monkeypatch.setattr(frames_solve, "solve_frames", cut_short)
    got = run(["frames", "pentomino-5x6x2", "--all"] if cut != "limit"
              else ["frames", "pentomino-5x6x2", "--limit", "1"])
    out = capsys.readouterr().out
    assert got == code and f"1 verified (every frame checked, every piece used once); {note}" \
        in out, out


def test_dive_stopped_by_ctrl_c_while_sampling_counts_the_sets_sampled(monkeypatch):
    # Ctrl-C lands inside the first sampling (where a dive spends its first seconds): the
    # report counts the sets sampled before it, not 0.
    calls = []

    class CutSearch(frames_dive.CoverSearch):
        def step_matrix(self, *args, **kwargs):
            calls.append(1)
            if len(calls) == 30:
                raise KeyboardInterrupt
            return super().step_matrix(*args, **kwargs)

    monkeypatch.setattr(frames_dive, "CoverSearch", CutSearch)
    answer = frames_dive.solve_dive(load_frames("hexomino-6x6x6"), time_limit=60)
    assert answer.status == "unknown" and answer.interrupted and len(calls) == 30
    assert answer.pool > 0 and answer.dives == 0


def test_stage2_stopped_before_its_model_is_built_does_not_claim_0_variables(monkeypatch,
                                                                           capsys):
    from smtpuzzle.backends.z3 import Z3Backend

    def cut(self, model, limit, deadline, enum):
        raise KeyboardInterrupt  # Ctrl-C while z3 builds: no size counted yet
        yield

    monkeypatch.setattr(Z3Backend, "_enumerate", cut)
    assert run(["frames", "pentomino-5x6x2", "--stage2", "z3"]) == 1
    out = capsys.readouterr().out
    assert "unknown (interrupted)" in out and "(not built)" in out, out
    assert "0 variables" not in out
    answer = solve_frames(pentominoes_in(5, 6, 2), stage2="z3")
    assert answer.interrupted and answer.as_json()["stage2"]["variables"] is None
    assert answer.as_json()["interrupted"] is True


@pytest.mark.parametrize("backend", ["z3", "cpsat"])
def test_a_stage2_build_that_cannot_end_in_time_is_not_started(monkeypatch, capsys, backend):
    from smtpuzzle.backends import get_backend

    engine = type(get_backend(backend))
    monkeypatch.setattr(engine, "build_seconds", lambda self, model: 1e4)
    model = Model("any")
    model.add_clauses([model.new_bools(2, user=True, names=["a", "b"])])
    result = engine().solve(model, time_limit=60)
    assert result.status is Status.UNKNOWN
    assert result.stats.extra["stopped"].startswith(f"not started: {backend} would take")
    listing = engine().solutions(model, time_limit=60)
    assert list(listing) == [] and not listing.complete
    assert "not started" in listing.stats.extra["stopped"]
    assert engine().solve(model).status is Status.SAT  # no limit: nothing to overrun
    assert run(["frames", "pentomino-5x6x2", "--stage2", backend, "--stage2-model", "index",
                "--time-limit", "60"]) == 1
    out = capsys.readouterr().out
    assert "unknown" in out and "(not built)" in out and "about 10000 s to build" in out, out


def test_frames_all_at_the_first_hole_place_says_so_and_exits_0(monkeypatch, capsys):
    # The listing is all of one place's answers by design, not cut short: exit 0.
    import smtpuzzle.cli.frames as frames_cli

    shapes = piece_set("pentominoes")
    puzzle = Frames(Board((3, 7)), [Piece(n, shapes[n]) for n in "ILNPTUVY"], 2,
                    hole_search=True)
    monkeypatch.setattr(frames_cli, "load_frames", lambda _: puzzle)
    assert run(["frames", "holes", "--all", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "; all of them at this hole place (the note above names the places not tried)" \
        in out and "4 more places were not tried" in out, out


def test_stage_2_is_not_begun_once_stage_1_used_up_the_time_limit():
    # Building stage 2's model past the limit overran it by half (8 s asked, 12 s taken).
    answer = solve_frames(load_frames("pentahex-6x9x5"),
                          FramesOptions(time_limit=0.5, method="enumerate", cache=False))
    assert answer.status is Status.UNKNOWN and not answer.stage1.complete
    assert answer.stage2 == {} and "stage 2 was not begun" in answer.note
    p = cli("frames", "pentahex-6x9x5", "--method", "enumerate", "--no-cache",
            "--time-limit", "0.5", "--json")
    out = json.loads(p.stdout)
    assert p.returncode == 1 and out["status"] == "unknown" and "not begun" in out["note"]
