"""Answering a nonogram: presolve, then a back end for what is left, then the verdict.

The verdict is ``unique``, ``multiple`` (two differing solutions shown), ``none`` or
``unknown`` (time limit or Ctrl-C). Uniqueness is proved by enumerating on the cell
variables with a limit of two; counting raises the limit. Every solution is verified.

The sat and z3 back ends start from guesses: belief propagation (beliefs.py) rates
every open cell, and the most confident half are assumed while the first solution is
searched, those a conflict blames given up. A guess never decides anything: the last resort is the
search that assumes nothing. On faase this turns minutes into seconds.

When the clues have a symmetry (symmetry.py), deciding uses it: solutions with that
symmetry are searched first (a much smaller search), and a solution that the symmetry moves
gives a second one, its image, so the verdict is ``multiple`` at once.
"""

from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from smtpuzzle.backends import general_backend
from smtpuzzle.model import Model
from smtpuzzle.puzzles.nonogram.beliefs import beliefs, guesses
from smtpuzzle.puzzles.nonogram.linesolve import Presolve, presolve
from smtpuzzle.puzzles.nonogram.local import nearby_solution
from smtpuzzle.puzzles.nonogram.puzzle import (
    DEFAULT_ENCODING,
    UNKNOWN,
    Nonogram,
    check_encoding,
    grid_array,
)
from smtpuzzle.puzzles.nonogram.symmetry import ClueSymmetry, clue_symmetries
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.checks import checked_limit, checked_time_limit

VERDICTS = ("unique", "multiple", "none", "unknown")
DEFAULT_BACKEND = "sat"  # CaDiCaL, guided by the guesses: bench/RESULTS.md, "Nonograms"
SYMMETRIC_TRY_S = 20.0  # first round's time per search when clues have symmetries
Guesses = tuple[np.ndarray, np.ndarray]  # cells (row-major) and the values guessed
GUESS_SHARE = 0.5  # the most confident share of the open cells that the back end assumes
PRESOLVE_SHARE = 0.7  # of a time limit, at most, for probing and beliefs


@dataclass
class NonogramAnswer(Answer):
    """A nonogram decided (unique, multiple, none or unknown), solutions verified."""

    status: Status  # unique | multiple | none | unknown
    solutions: list[list[str]]
    complete: bool  # the search ended: the count is exact
    time_s: float
    backend: str
    encoding: str
    presolve: Presolve | None = field(default=None, metadata={"json": False})
    stats: Stats | None = field(default=None, metadata={"omit": None})
    interrupted: bool = field(default=False, metadata={"omit": False})
    notes: list[str] = field(default_factory=list, metadata={"omit": []})
    guesses: int = 0  # literals offered to the back end as guesses (Model.hints)
    # those guesses, cells (row-major) and values: for origins() and the drawing
    guessed: Guesses | None = field(default=None, repr=False, metadata={"json": False})
    puzzle: Nonogram | None = field(default=None, repr=False, compare=False,
                                    metadata={"json": False})
    json_keys = ("status", "time_s", "solutions", "count", "complete", "backend", "encoding",
                 "guesses", "presolve", "stats", "notes", "interrupted")

    def _repr_svg_(self) -> str | None:
        """The puzzle with its clues and (up to two of) its solutions (in a notebook)."""
        if self.puzzle is None:
            return None
        from smtpuzzle.puzzles.nonogram.drawing import nonogram_drawing
        from smtpuzzle.render.pictures import svg_text

        return svg_text(nonogram_drawing(self.puzzle, self.solutions[:2]))

    def origins(self) -> np.ndarray:
        """What decided each cell of the first solution (H x W): 1 line solving, 2 probing,
        3 a guess offered to the back end that the solution kept, 4 one it gave up, 0 the
        back end's search."""
        first = (self.puzzle.indices(self.solutions[0]) if self.puzzle is not None
                 else grid_array(self.solutions[0]))
        out = np.zeros(first.shape, dtype=np.int8)
        if self.guessed is not None:
            cells, values = self.guessed
            kept = first.ravel()[cells] == np.asarray(values)
            out.ravel()[cells] = np.where(kept, 3, 4)
        pre = self.presolve
        if pre is not None and not pre.contradiction:
            out[pre.grid != UNKNOWN] = 2
            if pre.line_grid is not None:
                out[pre.line_grid != UNKNOWN] = 1
        return out

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    @property
    def count(self) -> int:
        """Solutions found (all of them when complete)."""
        return len(self.solutions)

    def as_json(self, with_solutions: bool = True) -> dict[str, Any]:
        out = super().as_json()
        if not with_solutions:  # a file of many: the solutions are printed apart
            del out["solutions"]
        return out

    def json_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"count": self.count}
        if self.presolve is not None:
            extra["presolve"] = {"cells": int(self.presolve.grid.size),
                                 "line_solving": self.presolve.line_known,
                                 "with_probing": self.presolve.known,
                                 "time_s": round(self.presolve.time_s, 4)}
        return extra


def _verdict(found: int, complete: bool) -> str:
    if found >= 2:
        return "multiple"
    if complete:
        return "unique" if found == 1 else "none"
    return "unknown"


def solve_nonogram(
    puzzle: Nonogram,
    backend: str = DEFAULT_BACKEND,
    solver: str | None = None,
    encoding: str = DEFAULT_ENCODING,
    use_presolve: bool = True,
    probing: bool = True,
    time_limit: float | None = None,
    limit: int | None = 2,
    guess: bool = True,
) -> NonogramAnswer:
    """Decide ``puzzle``: find up to ``limit`` (at least 2; None for all) solutions, each
    verified. A larger limit counts solutions; ``complete`` says whether the count is exact
    (the search ended rather than stopping at the limit). ``guess`` lets the back end
    start from the cells' beliefs (beliefs.py), which never changes the answer."""
    if not isinstance(puzzle, Nonogram):
        raise TypeError(f"solve_nonogram takes a Nonogram, got {type(puzzle).__name__}")
    puzzle.validate()  # what a file's reader refuses is refused here too
    puzzle.check_fits_in_memory()
    limit, time_limit = checked_limit(limit, 1), checked_time_limit(time_limit)
    limit = None if limit is None else max(limit, 2)  # deciding uniqueness takes 2
    check_encoding(encoding)
    engine = general_backend(backend, solver, puzzle.family)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    # Probing and the beliefs stop in time to leave the model and the back end a share.
    early = None if time_limit is None else start + PRESOLVE_SHARE * time_limit
    pre: Presolve | None = None
    known = None
    guess_cells: Guesses | None = None

    def answer(status: str, sols: list[list[str]], complete: bool, **kw: Any) -> NonogramAnswer:
        for s in sols:
            puzzle.verify(s)
        offered = 0 if guess_cells is None else len(guess_cells[0])
        return NonogramAnswer(status, sols, complete, time.perf_counter() - start,
                              engine.label(), encoding, pre, guesses=offered,
                              guessed=guess_cells, **kw, puzzle=puzzle)

    try:
        if use_presolve:
            pre = presolve(puzzle, probing=probing, deadline=early)
            if pre.contradiction:
                return answer("none", [], True)
            if pre.solved:
                return answer("unique", [puzzle.strings(pre.grid)], True)
            known = pre.grid
        if guess and engine.capabilities.guided:
            grid = known if known is not None else np.full(
                (puzzle.height, puzzle.width), UNKNOWN, dtype=np.int8)
            belief = beliefs(puzzle, grid, early)
            if belief is not None:
                guess_cells = guesses(grid, belief, GUESS_SHARE)
    except KeyboardInterrupt:
        return answer("unknown", [], False, interrupted=True)
    if deadline is not None and time.perf_counter() >= deadline:
        return answer("unknown", [], False)  # no time left to build a model
    symmetries = clue_symmetries(puzzle) if limit == 2 else []
    if symmetries:
        notes: list[str] = []
        try:
            status, sols, complete, stats = _decide_by_symmetry(
                puzzle, engine, encoding, known, guess_cells, symmetries, deadline, notes)
        except KeyboardInterrupt:
            return answer("unknown", [], False, interrupted=True, notes=notes)
        return answer(status, sols, complete, stats=stats, notes=notes)
    try:
        model = _guided(puzzle.build_model(encoding, known=known), guess_cells, puzzle.inks)
    except KeyboardInterrupt:
        return answer("unknown", [], False, interrupted=True)
    left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
    too_slow = engine.too_slow_to_build(model, left)
    if too_slow is not None:
        return answer("unknown", [], False, notes=[too_slow])
    enum = engine.solutions(model, limit=limit, time_limit=left)
    found: list[list[str]] = []
    notes: list[str] = []
    interrupted = False
    try:
        with closing(iter(enum)) as results:
            for r in results:
                found.append(puzzle.decode(r.values))
                if limit == 2 and len(found) == 1:
                    # The sat back end's child process goes on searching meanwhile.
                    near = _nearby(puzzle, found[0], deadline, notes)
                    if near is not None:
                        found.append(near)
                        break
    except KeyboardInterrupt:
        interrupted = True
    complete = enum.complete and not interrupted
    status = _verdict(len(found), complete or len(found) >= 2)
    return answer(status, found, complete, stats=enum.stats, interrupted=interrupted,
                  notes=notes)


def _nearby(puzzle: Nonogram, first: list[str], deadline: float | None,
            notes: list[str]) -> list[str] | None:
    """A second solution that differs from ``first`` in one small patch, if there is one
    (local.py searches the windows with the line solver)."""
    near = nearby_solution(puzzle, first, deadline)
    if near is not None:
        cells = int((puzzle.indices(first) != puzzle.indices(near)).sum())
        notes.append(f"second solution found next to the first: they differ in {cells} cells")
    return near


def _moved_image(puzzle: Nonogram, solution: list[str], symmetries: list[ClueSymmetry],
                 notes: list[str]) -> list[str] | None:
    """The image of ``solution`` under the first clue symmetry that moves it (a second
    solution), or None when every symmetry fixes it."""
    grid = puzzle.indices(solution)
    for g in symmetries:
        image = g.apply(grid)
        if (image != grid).any():
            notes.append(f"the clues are unchanged by {g.name}: the second solution is the "
                         "first one's image")
            return puzzle.strings(image)
    return None


def _guided(model: Model, guess_cells: Guesses | None, inks: int) -> Model:
    """``model`` with the guessed cells' literals as its hints (none without guesses), most
    confident first: a cell's ink literal, or for the background each of its ink literals
    negated (``inks`` per cell)."""
    if guess_cells is not None:
        cells, colour = guess_cells
        per_cell = np.asarray(model.user_vars).reshape(-1, inks)[cells]  # (guesses, inks)
        want = np.arange(1, inks + 1)[None, :] == np.asarray(colour)[:, None]
        said = want | (np.asarray(colour) == 0)[:, None]  # the literals a guess speaks of
        model.hints = np.where(want, per_cell, -per_cell)[said]
    return model


def _restricted(puzzle: Nonogram, encoding: str, known: np.ndarray | None,
                guess_cells: Guesses | None, g: ClueSymmetry | None,
                avoid: list[str] | None) -> Model:
    """The puzzle's model restricted to solutions that ``g`` fixes (built as the quotient:
    a quarter of the lines for a rotation of 90), and/or with some cell differing from
    ``avoid``."""
    model = puzzle.build_model(encoding, known=known,
                               same=None if g is None else g.orbits())
    if avoid is not None:
        cells = np.asarray(model.user_vars)
        ink = puzzle.indices(avoid).reshape(-1, 1) == np.arange(1, puzzle.inks + 1)
        model.add_clauses([np.where(ink.ravel(), -cells, cells).tolist()])
    return _guided(model, guess_cells, puzzle.inks)


def _decide_by_symmetry(puzzle: Nonogram, engine: Any, encoding: str,
                        known: np.ndarray | None, guess_cells: Guesses | None,
                        symmetries: list[ClueSymmetry],
                        deadline: float | None, notes: list[str],
                        ) -> tuple[str, list[list[str]], bool, Stats | None]:
    """Decide a puzzle whose clues have symmetries, in rounds. Each round runs the searches
    restricted to one symmetry (smallest first), then the whole puzzle, each for at most
    the round's time, which doubles from round to round: a symmetric solution is found
    fast when there is one, and the whole search still gets ever longer turns. The first
    solution found ends the phase; if a symmetry moves it, its image is the second one,
    else the same rounds look for a second solution."""
    # Fewest orbits of cells first (rotation 90 before 180): the smallest search. Symmetries
    # with the same orbits (rotations 90 and 270) restrict alike: one of them is enough.
    by_orbits = {(orbits := g.orbits()).tobytes(): (len(np.unique(orbits)), g)
                 for g in reversed(symmetries)}
    searches: list[ClueSymmetry | None] = [
        g for _, g in sorted(by_orbits.values(), key=lambda pair: pair[0])]
    searches.append(None)  # the whole puzzle
    budget = SYMMETRIC_TRY_S
    first: list[str] | None = None
    settled: set[int] = set()  # searches of this phase proved to have no solution
    stats: Stats | None = None
    while True:
        for i, g in enumerate(searches):
            if i in settled:
                continue
            if deadline is not None and deadline <= time.perf_counter():
                return "unknown", [first] if first else [], False, stats
            model = _restricted(puzzle, encoding, known, guess_cells, g, first)
            left = budget if deadline is None else min(budget, deadline - time.perf_counter())
            too_slow = engine.too_slow_to_build(model, left if deadline else None)
            if left <= 0 or too_slow is not None:  # no time left to build or solve it
                if too_slow is not None:
                    notes.append(too_slow)
                return "unknown", [first] if first else [], False, stats
            result = engine.solve(model, time_limit=left)
            stats = result.stats
            if result.status is Status.UNSAT:
                if g is None:  # nothing (else) anywhere
                    return ("unique", [first], True, stats) if first else ("none", [], True,
                                                                            stats)
                settled.add(i)
                continue
            if result.status is not Status.SAT:
                continue
            where = f"among those unchanged by {g.name}" if g else "in the whole puzzle"
            solution = puzzle.decode(result.values)
            if first is not None:
                notes.append(f"second solution found {where}")
                return "multiple", [first, solution], False, stats
            first = solution
            notes.append(f"first solution found {where}")
            image = _moved_image(puzzle, first, symmetries, notes)
            if image is not None:
                return "multiple", [first, image], False, stats
            near = _nearby(puzzle, first, deadline, notes)
            if near is not None:
                return "multiple", [first, near], False, stats
            settled = set()
            break  # now a second solution, from the smallest search again
        else:
            budget *= 2
