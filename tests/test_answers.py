"""The library answers the command line renders: a tiling solved or its solutions listed
(verified, with the JSON the CLI prints), the puzzle protocol (family, build_model), an
outside solver's answer read back, the model library's and the maze commands' JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pysat.formula import CNF as PysatCNF
from pysat.solvers import Solver

from smtpuzzle import (
    Board,
    Nonogram,
    Piece,
    PuzzleError,
    Status,
    Tiling,
    TilingAnswer,
    TilingListing,
    get_backend,
    list_models,
    list_tilings,
    load,
    load_frames,
    parse_picture,
    solve_tiling,
)
from smtpuzzle.backends.dimacs import write_dimacs
from smtpuzzle.formats.solver_answer import read_answer
from smtpuzzle.puzzles.maze import cases

SOLVE_KEYS = ["model", "status", "backend", "time_s", "complete", "stats", "solutions"]
LIST_KEYS = ["model", "status", "backend", "distinct", "complete", "more", "count", "time_s",
             "solutions"]


def test_solve_tiling_answers_sat_with_a_verified_solution():
    tiling = load("pentomino-6x10")
    answer = solve_tiling(tiling, "sat")
    assert isinstance(answer, TilingAnswer)
    assert answer.status is Status.SAT and answer.complete and not answer.interrupted
    assert len(answer.solutions) == 1
    tiling.verify(answer.solutions[0])
    data = json.loads(json.dumps(answer.as_json()))
    assert list(data) == SOLVE_KEYS
    assert data["status"] == "sat" and data["backend"].startswith("sat:")
    assert data["stats"]["variables"] > 0 and len(data["solutions"][0]["placements"]) == 12


def test_solve_tiling_proves_none_and_takes_a_backend_object():
    # A domino cannot fill a 1x3 strip (the precheck would say so at once: off).
    strip = Tiling(Board([1, 3]), [Piece("I2", parse_picture("##"), 1)], cover="exact",
                   precheck=False)
    answer = solve_tiling(strip, get_backend("exact-cover"))
    assert answer.status is Status.UNSAT and answer.complete and answer.solutions == []
    assert answer.as_json()["solutions"] == [] and answer.as_json()["complete"] is True
    with pytest.raises(ValueError):
        solve_tiling(strip, get_backend("sat"), solver="minisat22")


def test_list_tilings_streams_each_solution_verified():
    tiling = load("pentomino-3x20")
    seen = []
    listing = list_tilings(tiling, distinct=True, on_solution=lambda n, s: seen.append(n))
    assert isinstance(listing, TilingListing)
    assert seen == [1, 2] and listing.count == 2 and listing.complete
    assert not listing.stopped_at_limit and not listing.interrupted
    data = listing.as_json()
    assert list(data) == LIST_KEYS[:7] + ["group", "up_to"] + LIST_KEYS[7:]
    assert data["distinct"] and len(data["solutions"]) == 2 and data["up_to"] == "board"
    assert data["group"].startswith("4 symmetries")  # as count's JSON says it
    for s in listing.solutions:
        tiling.verify(s)


@pytest.mark.parametrize("group,classes", [("board", 2), ("rotations", 4)])
def test_a_distinct_listing_that_shows_a_class_twice_is_caught(monkeypatch, group, classes):
    """The classes are re-checked apart from the plan that de-duplicates them: a plan
    that let every raw solution through (pentomino-3x20 has 8: 2 classes under the board's
    4 symmetries, 4 under its 2 rotations) is stopped at the first repeat."""
    from smtpuzzle.errors import VerificationError
    from smtpuzzle.puzzles.tiling import counting

    tiling = load("pentomino-3x20")
    honest = list_tilings(tiling, distinct=True, group=group)
    assert honest.count == classes and honest.complete
    assert list_tilings(tiling, "exact-cover", keep=False).count == 8
    monkeypatch.setattr(counting, "iter_distinct", lambda model, plan, engine, left:
                        engine.solutions(model, time_limit=left))
    seen: list[int] = []
    words = "rotations" if group == "rotations" else "symmetries"
    with pytest.raises(VerificationError, match=rf"distinct solutions \d and \d are one up "
                                                rf"to the board's {words}") as caught:
        list_tilings(tiling, distinct=True, group=group, on_solution=lambda n, s:
                     seen.append(n))
    # the solution after one per class, at the latest, repeats one
    assert len(seen) <= classes and f"and {len(seen) + 1} are" in str(caught.value)

def test_list_tilings_stops_at_the_limit_and_keeps_nothing_if_asked():
    listing = list_tilings(load("pentomino-6x10"), "exact-cover", limit=3, keep=False)
    assert listing.count == 3 and listing.stopped_at_limit and not listing.complete
    assert listing.more  # the search found a fourth, not kept
    assert listing.solutions == [] and listing.as_json()["count"] == 3


def test_every_family_builds_through_one_method():
    tiling = load("soma-3x3x3")
    assert tiling.family == "tiling"
    assert len(tiling.build_model(None).user_vars) == tiling.num_placements
    with pytest.raises(PuzzleError, match="`encoding`: for nonograms only"):
        tiling.build_model("runs")
    frames = load_frames("hexomino-6x6x6")
    assert frames.family == "frames"
    with pytest.raises(PuzzleError, match="built in stages"):
        frames.build_model()
    ng = Nonogram(rows=[(1,), (1,)], cols=[(1,), (1,)])
    assert ng.family == "nonogram"
    assert ng.build_model(None).num_vars == ng.build_model().num_vars
    assert len(ng.build_model("runs").user_vars) == 4


def _external(cnf: Path, out: Path) -> None:
    with Solver(name="minisat22", bootstrap_with=PysatCNF(from_file=str(cnf)).clauses) as s:
        if s.solve():
            out.write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
        else:
            out.write_text("s UNSATISFIABLE\n")


@pytest.mark.parametrize("encoding", [None, "automaton"])
def test_read_answer_decodes_and_verifies_a_nonogram(tmp_path: Path, encoding):
    ng = Nonogram(rows=[(2,), (1,)], cols=[(2,), (1,)], name="corner")
    write_dimacs(ng.build_model(encoding), tmp_path / "c.cnf")
    _external(tmp_path / "c.cnf", tmp_path / "c.out")
    answer = read_answer(ng, tmp_path / "c.cnf", tmp_path / "c.out", encoding)
    assert answer.status is Status.SAT and answer.solutions == [["##", "#."]]
    data = answer.as_json()
    assert data.pop("claim").startswith("sat (verified")
    assert data == {"model": "corner", "status": "sat", "backend": "dimacs", "verified": True,
                    "solutions": [["##", "#."]]}


def test_read_answer_of_a_tiling_and_missing_files(tmp_path: Path):
    tiling = load("soma-3x3x3")
    write_dimacs(tiling.build_model(), tmp_path / "s.cnf")
    _external(tmp_path / "s.cnf", tmp_path / "s.out")
    answer = read_answer(tiling, tmp_path / "s.cnf", tmp_path / "s.out")
    assert answer.status is Status.SAT
    data = answer.as_json()
    assert data["backend"] == "dimacs" and len(data["solutions"][0]["placements"]) == 7
    with pytest.raises(PuzzleError, match="no such file"):
        read_answer(tiling, tmp_path / "s.cnf", tmp_path / "missing.out")


def test_library_and_maze_json():
    entry = next(e for e in list_models() if e.name == "pentomino-6x10")
    assert entry.as_json() == {"name": "pentomino-6x10", "title": entry.title,
                               "path": str(entry.path)}
    # 4 moves see at most 5 cells: only the cases with that few reachable are solved
    checked = cases.check("NNWS").as_json()
    assert (checked["moves"], checked["unsolved"], checked["cases"]) == (4, 26_256, 4096 * 9)
    stats = cases.case_stats(3).as_json()
    assert stats["mazes"] == 10_772 and stats["size"] == 3
    assert sum(stats["by_reachable_cells"].values()) == stats["mazes"]
    assert list(stats["by_reachable_cells"]) == sorted(stats["by_reachable_cells"],
                                                       reverse=True)


def test_every_familys_answer_is_an_answer_with_one_status_type_and_generated_json():
    import dataclasses

    from smtpuzzle.formats.solver_answer import DimacsAnswer
    from smtpuzzle.puzzles.frames.solve import FramesAnswer
    from smtpuzzle.puzzles.grid_answer import GridAnswer
    from smtpuzzle.puzzles.maze.bound.prove import BoundResult
    from smtpuzzle.puzzles.maze.bound.shorten import ShortenResult
    from smtpuzzle.puzzles.maze.greedy import BuildResult
    from smtpuzzle.puzzles.maze.search import SearchResult
    from smtpuzzle.puzzles.nonogram.solve import NonogramAnswer
    from smtpuzzle.puzzles.tiling.counting import CountResult
    from smtpuzzle.puzzles.tiling.solve import TilingListing
    from smtpuzzle.result import Answer

    answers = [TilingAnswer, TilingListing, CountResult, NonogramAnswer, GridAnswer,
               FramesAnswer, SearchResult, BoundResult, BuildResult, ShortenResult,
               DimacsAnswer]
    for cls in answers:
        assert issubclass(cls, Answer) and dataclasses.is_dataclass(cls), cls
        names = {f.name for f in dataclasses.fields(cls)}
        assert {"status", "time_s", "interrupted", "stats"} <= names, cls
        # the JSON is made from the fields (NonogramAnswer's only drops its solutions)
        assert cls.as_json is Answer.as_json or cls is NonogramAnswer, cls
    # a status given as a string is the enum all the same
    answer = SearchResult("unsat", None, 0, 0.0, 0.0, "mdd")
    assert answer.status is Status.UNSAT and answer.as_json()["status"] == "unsat"
    count = CountResult(0, True, False, "none", "exact-cover", 0.1, 1, 1)
    assert count.status is Status.UNSAT and "status" not in count.as_json()
