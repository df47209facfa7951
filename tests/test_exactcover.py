"""The two exact-cover kernels (sweep and most-constrained item) find the same solutions."""

import json

import numpy as np
import pytest

from smtpuzzle import Board, Piece, Tiling, load, parse_picture, piece_set
from smtpuzzle.backends.exactcover import CoverSearch, from_model
from smtpuzzle.backends.exactcover.search import _mrv_pays
from smtpuzzle.benchmark.runner import configs_for
from tests.helpers import cli


def solutions(problem, branching: str, forced=(), forbidden=()) -> set[tuple[int, ...]]:
    search = CoverSearch(problem, collect=True, buffer=7, branching=branching)
    search.restart(np.array(forced, dtype=np.int64), np.array(forbidden, dtype=np.int64))
    found: list[tuple[int, ...]] = []
    while not search.done:
        found += [tuple(sorted(r.tolist())) for r in search.step(5000)]
    assert search.count == len(found) == len(set(found))
    return set(found)


def tetrominoes(**kw) -> list[Piece]:
    return [Piece(n, s, **kw) for n, s in piece_set("tetrominoes").items()]


CASES = {
    "pentominoes 3x20": lambda: load("pentomino-3x20"),
    "soma cube (3D)": lambda: load("soma-3x3x3"),
    "each tetromino twice": lambda: Tiling(Board([5, 8]), tetrominoes(count=2)),
    "tetrominoes at most 3 each, holes": lambda: Tiling(
        Board([4, 6], holes=[(0, 0), (3, 5), (1, 2), (2, 3)]), tetrominoes(count=3, at_most=True)),
    "dominoes, 7 of them": lambda: Tiling(Board([4, 4], holes=[(0, 0), (0, 3)]),
                                         [Piece("I2", parse_picture("##"), count=7)]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_kernels_find_the_same_solutions(case):
    problem = from_model(CASES[case]().build_model())
    sweep, mrv = solutions(problem, "sweep"), solutions(problem, "mrv")
    assert sweep and sweep == mrv


def test_kernels_agree_on_forced_and_forbidden_rows():
    t = load("pentomino-4x15")
    problem = from_model(t.build_model())
    rows = range(*t.placement_range(0))
    forced, forbidden = [rows[3]], list(rows[10:40])
    sweep = solutions(problem, "sweep", forced, forbidden)
    assert sweep == solutions(problem, "mrv", forced, forbidden)
    assert all(forced[0] in s and not set(forbidden) & set(s) for s in sweep)
    # forced rows that overlap: no solution, on either kernel
    clash = [r for r in rows if r != rows[3] and
             set(t.placement(r)[1]) & set(t.placement(rows[3])[1])][0]
    for branching in ("sweep", "mrv"):
        assert solutions(problem, branching, [rows[3], clash]) == set()


def test_auto_picks_mrv_for_tilings_and_sweep_where_cells_or_pieces_are_optional():
    assert CoverSearch(from_model(load("pentomino-6x10").build_model())).branching == "mrv"
    assert _mrv_pays(from_model(CASES["each tetromino twice"]().build_model()))
    optional = from_model(CASES["tetrominoes at most 3 each, holes"]().build_model())
    assert not _mrv_pays(optional) and CoverSearch(optional).branching == "sweep"
    untouchable = from_model(load("untouchable-11-6x24").build_model())
    assert CoverSearch(untouchable).branching == "sweep"
    # pieces only as items would miss nothing here, but asked for, mrv must still be right
    pack = Tiling(Board([3, 4]), tetrominoes(at_most=True), cover="pack")
    problem = from_model(pack.build_model())
    assert CoverSearch(problem, branching="mrv").branching == "sweep"  # rows not reachable
    with pytest.raises(ValueError, match="branching"):
        CoverSearch(problem, branching="fastest")


def test_solver_option_picks_the_kernel():
    for kernel in ("sweep", "mrv"):
        out = json.loads(cli("count", "pentacube-2x3x10", "--solver", kernel, "--json").stdout)
        assert out["count"] == 12 and out["complete"] and out["backend"] == f"exact-cover:{kernel}"
    p = cli("count", "pentacube-2x3x10", "--solver", "fastest")
    assert p.returncode == 2 and "unknown exact-cover kernel 'fastest'" in p.stderr
    configs = configs_for(["exact-cover", "sat"], ["sweep", "mrv"])
    assert [(c.backend, c.solver) for c in configs] == [
        ("exact-cover", "sweep"), ("exact-cover", "mrv"), ("sat", None)]


@pytest.mark.parametrize("branching", ["sweep", "mrv"])
@pytest.mark.parametrize("case", ["pentominoes 3x20", "tetrominoes at most 3 each, holes",
                                  "soma cube (3D)"])
def test_a_search_resumed_from_snapshots_visits_the_same_tree(case, branching):
    """Stopped every few nodes and continued by a new search object (as in another process)
    from the snapshot alone: the same solutions, counted once, and the same nodes."""
    problem = from_model(CASES[case]().build_model())
    whole = CoverSearch(problem, collect=True, branching=branching)
    expected = {tuple(sorted(r.tolist())) for r in _drain(whole)}
    search, found, shares = CoverSearch(problem, collect=True, branching=branching), [], []
    while not search.done:
        found += [tuple(sorted(r.tolist())) for r in search.step(37)]
        state = search.snapshot()
        shares.append(search.share_done())
        search = CoverSearch(problem, collect=True, branching=branching)
        search.resume(state)
    assert sorted(found) == sorted(expected) and search.count == whole.count == len(found)
    assert search.nodes == whole.nodes
    assert shares[-1] == 1.0 and all(0.0 <= s <= 1.0 for s in shares)


def _drain(search: CoverSearch) -> list[np.ndarray]:
    rows = []
    while not search.done:
        rows += search.step(5000)
    return rows


def test_a_snapshot_of_another_kernel_or_problem_is_refused():
    problem = from_model(load("pentomino-3x20").build_model())
    sweep = CoverSearch(problem, branching="sweep")
    sweep.step(100)
    with pytest.raises(ValueError, match="sweep kernel"):
        CoverSearch(problem, branching="mrv").resume(sweep.snapshot())
    other = CoverSearch(from_model(load("pentomino-6x10").build_model()), branching="sweep")
    with pytest.raises(ValueError, match="does not fit"):
        other.resume(sweep.snapshot())
