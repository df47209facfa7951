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
    whole = CoverSearch(problem, collect=True, branching=branching, dead_ends=False)
    expected = {tuple(sorted(r.tolist())) for r in _drain(whole)}

    def fresh() -> CoverSearch:
        return CoverSearch(problem, collect=True, branching=branching, dead_ends=False)

    # A few hundred stops on each tree (every 37 nodes on the small ones): the soma tree
    # stopped every 37 nodes took 52 s in CI.
    every = max(37, whole.nodes // 400)
    search, found, shares = fresh(), [], []
    while not search.done:
        found += [tuple(sorted(r.tolist())) for r in search.step(every)]
        state = search.snapshot()
        shares.append(search.share_done())
        search = fresh()
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


def _edits(state: dict, branching: str) -> dict[str, dict]:
    """One edit per kind a hand (or a damaged file with its checksum made anew) could make
    to a snapshot's arrays, each leaving their shapes and types as they were."""
    def edited(key: str, change) -> dict:
        out = {k: v.copy() for k, v in state.items()}
        change(out[key])
        return out

    top = int(state["st"][0]) - 1  # the top frame (every frame has chosen between steps)

    def at(i, v):
        def change(a):
            a[i] = v
        return change

    edits = {
        "depth past the stack": edited("st", at(0, len(state["stack_choice"]) + 5)),
        "a negative count": edited("st", at(5, -1)),
        "a row number past the rows": edited("stack_choice", at(top, 10**9)),
        "another row at a frame": edited("stack_choice", lambda a: a.__setitem__(
            top, (a[top] + 1) % 50)),
        "a piece count": edited("used", lambda a: a.__setitem__(0, a[0] + 1)),
        # between steps every frame has chosen: a frame without, whose level below nothing
        # could check, would let forged live rows or cells through
        "the top frame's choice taken back": edited("stack_choice", at(top, -1)),
    }
    if branching == "sweep":
        edits["an occupied cell freed"] = edited("occ", lambda a: a.__setitem__(
            0, a[0] & (a[0] - np.uint64(1))))
        edits["a frame's candidates"] = edited("stack_end", at(0, 10**9))
        edits["a frame's place in them"] = edited("stack_ptr", lambda a: a.__setitem__(
            0, a[0] + 1))
    else:
        edits["a covered cell freed"] = edited("covered", lambda a: a.__setitem__(
            np.flatnonzero(a)[-1], False))
        edits["a level's live rows"] = edited("alive", lambda a: a.__setitem__(
            (1, 0), ~a[1, 0]))
        edits["an item past the items"] = edited("stack_item", at(0, 10**6))
        # the second level's row at the first (live there, but it cannot cover the first
        # level's item, which the first row did), its place in the rows to match
        other = edited("stack_choice", at(0, state["stack_choice"][1]))
        other["stack_ptr"][0] = other["stack_choice"][0] + 1
        edits["a row that is no live option"] = other
    return edits


@pytest.mark.parametrize("branching", [pytest.param("sweep", marks=pytest.mark.slow), "mrv"])
def test_a_snapshot_edited_in_any_array_is_refused(branching):
    """The compiled kernels trust their indices, so a snapshot is checked against its own
    choices before they run on it: every edit is refused, the honest one goes on."""
    problem = from_model(load("pentomino-6x10").build_model())
    search = CoverSearch(problem, branching=branching, dead_ends=False)
    search.step(20_000)
    state = search.snapshot()
    assert int(state["st"][0]) >= 3 and not search.done
    for what, bad in _edits(state, branching).items():
        other = CoverSearch(problem, branching=branching, dead_ends=False)
        with pytest.raises(ValueError, match="no search of this problem could have left"):
            other.resume(bad)
        assert other.nodes == 0, what  # left as restarted
    # a finished search (restart finds the forced rows clash) is no state a kernel runs on
    clash = CoverSearch(problem, branching=branching, dead_ends=False)
    clash.restart(np.array([0, 1]), np.array([], dtype=np.int64))
    assert clash.done
    again = CoverSearch(problem, branching=branching, dead_ends=False)
    again.resume(clash.snapshot())
    assert again.done and again.count == 0
    honest = CoverSearch(problem, branching=branching, dead_ends=False)
    honest.resume(state)
    whole = CoverSearch(problem, branching=branching, dead_ends=False)
    assert honest.run() == whole.run() == 9356 and honest.nodes == whole.nodes


def untouchable_nets(k: int, size: list[int]) -> Tiling:
    nets = piece_set("cube-nets")
    return Tiling(Board(size), [Piece(n, nets[n]) for n in list(nets)[:k]], cover="pack",
                  touch="none")


def _listed(search: CoverSearch) -> set[tuple[int, ...]]:
    found = [tuple(sorted(r.tolist())) for r in _drain(search)]
    assert search.count == len(found) == len(set(found))
    return set(found)


@pytest.mark.parametrize("case", ["5 cube nets untouchable on 8x9",
                                  "tetrominoes at most 3 each, holes"])
def test_the_dead_end_table_keeps_every_solution_and_cuts_the_search(case):
    model = (untouchable_nets(5, [8, 9]) if case.startswith("5 cube nets")
             else CASES[case]()).build_model()
    problem = from_model(model)
    plain = CoverSearch(problem, collect=True, branching="sweep", dead_ends=False)
    table = CoverSearch(problem, collect=True, branching="sweep")
    assert _listed(table) == _listed(plain)
    assert table.count == plain.count > 0 and table.nodes <= plain.nodes
    if case.startswith("5 cube nets"):
        assert table.count == 8376 and table.nodes * 3 < plain.nodes  # 4.4M nodes -> 0.9M


def test_sub_problems_that_share_a_search_share_its_dead_ends_soundly():
    """One search restarted for every sub-problem of a count (as a worker does) learns
    across them; each sub-problem's count is still its own, and the total is right."""
    from smtpuzzle.puzzles.tiling.counting import plan

    tiling = untouchable_nets(4, [8, 8])
    problem = from_model(tiling.build_model())
    shared = CoverSearch(problem, branching="sweep")
    counts = {}
    for mode, subs in (("raw", plan(tiling, False, split=False).subproblems),
                       ("split", plan(tiling, False, split=True).subproblems)):
        counts[mode] = []
        for sp in subs:
            shared.restart(sp.forced, sp.forbidden)
            fresh = CoverSearch(problem, branching="sweep", dead_ends=False)
            fresh.restart(sp.forced, sp.forbidden)
            counts[mode].append((shared.run(), fresh.run()))
        assert all(a == b for a, b in counts[mode])
        assert sum(a for a, _ in counts[mode]) == 40576
    assert len(counts["split"]) > len(counts["raw"])


def test_a_search_with_its_dead_end_table_resumed_from_snapshots_finds_every_solution():
    problem = from_model(untouchable_nets(4, [8, 8]).build_model())
    whole = _listed(CoverSearch(problem, collect=True, branching="sweep", dead_ends=False))
    search, found = CoverSearch(problem, collect=True, branching="sweep"), []
    while not search.done:
        found += [tuple(sorted(r.tolist())) for r in search.step(20_000)]
        state = search.snapshot()
        search = CoverSearch(problem, collect=True, branching="sweep")
        search.resume(state)
    assert sorted(found) == sorted(whole) and len(found) == 40576


@pytest.mark.parametrize("branching", ["mrv", "sweep"])
def test_a_group_capped_at_zero_stays_forbidden_in_every_search(branching):
    # Its rows used to be forbidden only in the first search: a restarted one (the next
    # count on the same back end, or a count's next sub-problem) let them in.
    from smtpuzzle import Model, get_backend

    m = Model()
    m.new_bools(3, user=True, names=list("abc"))
    m.add_exactly_one([[1, 2, 3]])
    m.add_cardinality([[1, 2]], "==", 0)
    backend = get_backend("exact-cover", branching)
    assert [backend.count(m)[:2] for _ in range(3)] == [(1, True)] * 3
    assert [[r.values.tolist() for r in backend.solutions(m)] for _ in range(2)] == \
        [[[False, False, True]]] * 2


def test_a_piece_of_count_zero_is_never_placed_by_exact_cover():
    from smtpuzzle import Shape, count, get_backend, list_tilings, solve_tiling

    def tiling() -> Tiling:
        return Tiling(Board((2, 4)), [Piece("L", Shape([(0, 0), (1, 0), (1, 1)]), 1),
                                      Piece("D", Shape([(0, 0), (0, 1)]), 2),
                                      Piece("M", Shape([(0, 0)]), 0)], precheck=False)

    # without M, 3 + 2*2 = 7 cells never fill 8: no tiling
    for backend in ("exact-cover", "sat"):
        assert count(tiling(), backend=backend, distinct=False).count == 0
        assert count(tiling(), backend=backend).count == 0
        assert list_tilings(tiling(), distinct=True).solutions == []
    shared = get_backend("exact-cover")
    assert [solve_tiling(tiling(), backend=shared).status.value for _ in range(2)] == \
        ["unsat", "unsat"]


def test_a_false_model_has_no_cover():
    from smtpuzzle import Model, get_backend

    m = Model()
    m.add_exactly_one([m.bool_array(3)])
    m.add_false()  # was refused: "clauses longer than one literal"
    backend = get_backend("exact-cover")
    assert backend.solve(m).status.value == "unsat" and backend.count(m)[:2] == (0, True)
    assert backend.count(m.copy())[:2] == get_backend("sat").count(m)[:2]
