"""Nonograms: the clues, their validation, its three encodings and an independent verifier.

A solution is a list of row strings, ``#`` filled and ``.`` empty. Models have one user
variable per cell (row-major), so every back end projects, blocks and counts on the grid.

Encodings:
- ``runs``: a boolean per possible start of every run; each run starts exactly once; run
  j+1 starts after run j and a gap (clauses both ways, the second one redundant but a
  help to propagation); a filled cell lies in a chosen run, a chosen run fills its cells.
- ``order``: the same runs, each start an integer spelled by bound literals ("run j starts
  at t or later"), see order.py; what SAT solvers learn from it generalises better.
- ``automaton``: each line is a word of a small deterministic automaton
  (``0* 1^r1 0+ 1^r2 ... 0*``); CP-SAT takes it natively, sat and z3 unroll it.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.model import BoolArray, Groups, Model, headed_groups
from smtpuzzle.puzzles.nonogram.order import add_order_line
from smtpuzzle.runtime.memory import check_fits_in_memory

Clue = tuple[int, ...]
ENCODINGS = ("runs", "order", "automaton")
DEFAULT_ENCODING = "order"  # see bench/RESULTS.md, "Nonograms": decides knotty and faase
UNKNOWN, EMPTY, FILLED = -1, 0, 1
MAX_CELLS = 4_000_000  # 2000 x 2000: far beyond published nonograms (webpbn's reach 99 x 99)
BYTES_PER_RUN_CELL = 64  # measured: a random 400 x 400 took 1.7 GB over 31M run-cells


def _clue(runs: object, kind: str, i: int) -> Clue:
    """A line's clue as a tuple of run lengths (``(0,)``, the files' empty line, is ``()``);
    anything else is a located PuzzleError, as a file's bad clue is."""
    if isinstance(runs, str | bytes) or not isinstance(runs, Iterable):
        raise PuzzleError(f"{kind} {i + 1}: a clue is a sequence of run lengths, not {runs!r}")
    try:
        clue = tuple(operator.index(r) for r in runs)
    except TypeError:
        raise PuzzleError(f"{kind} {i + 1}: run lengths are whole numbers, got "
                          f"{tuple(runs)!r}") from None
    if clue == (0,):
        return ()
    if any(r <= 0 for r in clue):
        raise PuzzleError(f"{kind} {i + 1}: run lengths are positive, got {clue!r}")
    return clue


@dataclass
class Nonogram:
    """A nonogram: the clues of its rows and columns, with where they came from."""

    family: ClassVar[str] = "nonogram"
    rows: list[Clue]
    cols: list[Clue]
    name: str = "nonogram"
    title: str = ""
    author: str = ""
    copyright: str = ""
    goal: list[str] | None = None  # the picture the file says the clues come from
    goal_line: int | None = None  # its line in the file
    # Source lines of the clues (for error messages), when read from a file.
    row_lines: list[int] = field(default_factory=list)
    col_lines: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rows = [_clue(c, "row", i) for i, c in enumerate(self.rows)]
        self.cols = [_clue(c, "column", j) for j, c in enumerate(self.cols)]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.cols)

    def lines(self) -> list[tuple[str, int, Clue, int]]:
        """(kind, index, clue, length) for every row, then every column."""
        return ([("row", i, c, self.width) for i, c in enumerate(self.rows)]
                + [("column", j, c, self.height) for j, c in enumerate(self.cols)])

    def validate(self) -> None:
        """Raise a located PuzzleError for a clue that cannot fit or mismatched totals."""
        if not self.rows or not self.cols:
            raise PuzzleError("a nonogram needs at least one row and one column")
        if self.width * self.height > MAX_CELLS:
            raise PuzzleError(f"the nonogram is {self.width:,} x {self.height:,} "
                              f"({self.width * self.height:,} cells); at most {MAX_CELLS:,} "
                              "are taken")
        for kind, i, clue, n in self.lines():
            need = sum(clue) + len(clue) - 1
            if need > n:
                src = (self.row_lines if kind == "row" else self.col_lines)
                line = src[i] if i < len(src) else None
                spelled = " ".join(map(str, clue))
                raise PuzzleError(f"{kind} {i + 1} clue {spelled} needs {need} cells, the "
                                  f"{kind} has {n}", line=line)
        by_rows, by_cols = sum(map(sum, self.rows)), sum(map(sum, self.cols))
        if by_rows != by_cols:
            raise PuzzleError(f"the row clues fill {by_rows} cells, the column clues {by_cols}")

    def check_fits_in_memory(self) -> None:
        """Refuse a nonogram whose model would not fit in memory: a line's encodings take
        a little per run and cell (each run has a start among the line's cells)."""
        run_cells = sum((len(clue) + 1) * n for _, _, clue, n in self.lines())
        check_fits_in_memory(run_cells * BYTES_PER_RUN_CELL,
                             f"solving the {self.width} x {self.height} nonogram")

    def goal_mismatch(self) -> str | None:
        """Where the file's goal breaks the clues, in words (None: no goal, or it fits)."""
        if self.goal is None:
            return None
        for kind, i, clue, _ in self.lines():
            line = self.goal[i] if kind == "row" else "".join(r[i] for r in self.goal)
            runs = line_runs(line)
            if runs != clue:
                return (f"{kind} {i + 1} of the goal reads {' '.join(map(str, runs)) or '0'}, "
                        f"its clue is {' '.join(map(str, clue)) or '0'}")
        return None

    def goal_report(self, solutions: Sequence[Sequence[str]]) -> tuple[str, dict] | None:
        """Whether the file's goal is among ``solutions`` (those an answer shows): a sentence
        and its JSON (``fits_clues``, ``solution``: its number among them, or None); None
        without a goal."""
        if self.goal is None:
            return None
        at = next((k for k, s in enumerate(solutions, 1) if list(s) == list(self.goal)), None)
        fits = self.goal_mismatch() is None
        data = {"fits_clues": fits, "solution": at}
        shown = "the solution shown is" if len(solutions) == 1 else "the solutions shown are"
        if at is not None:
            text = ("the solution is the file's goal" if len(solutions) == 1 else
                    f"the file's goal is solution {at} of those shown")
        elif not fits:
            text = f"{shown} not the file's goal, which contradicts the clues" if solutions \
                else "the file's goal contradicts the clues"
        elif solutions:
            text = f"{shown} not the file's goal (which is another solution)"
        else:
            text = "the file's goal fits the clues"
        return text, data

    # -- models ----------------------------------------------------------------------------

    def cell_vars(self, model: Model) -> np.ndarray:
        names = _CellNames(self.height, self.width)
        return model.new_bools(self.height * self.width, user=True, names=names).reshape(
            self.height, self.width)

    def build_model(self, encoding: str | None = DEFAULT_ENCODING,
                    known: np.ndarray | None = None, same: np.ndarray | None = None,
                    named: bool = False) -> Model:
        """The puzzle as a neutral model; ``known`` (H x W of -1/0/1) fixes presolved cells;
        ``named``: each line's clue a named group of its own (``row 3 (2 1)``).

        ``same`` (per cell, row-major, the cell it must equal: a symmetry's orbits) builds
        the quotient: lines speak of one variable per orbit, and a line that reads the same
        variables with the same clue as one already built (its image) is built once.
        ``encoding`` None is the default one (DEFAULT_ENCODING)."""
        if encoding is None:
            encoding = DEFAULT_ENCODING
        check_encoding(encoding)
        if known is None:
            known = np.full((self.height, self.width), UNKNOWN, dtype=np.int8)
        model = Model(name=self.name)
        cells = self.cell_vars(model)
        fixed = known != UNKNOWN
        if fixed.any():
            lits = cells[fixed]
            model.add_clauses(np.where(known[fixed] == FILLED, lits, -lits)[:, None])
        built: set[tuple[tuple[int, ...], Clue]] = set()
        if same is not None:
            flat = cells.ravel()
            moved = np.flatnonzero(same != np.arange(flat.size))
            a, b = flat[moved], flat[same[moved]]
            model.add_clauses(np.concatenate([np.stack([-a, b], axis=1),
                                              np.stack([a, -b], axis=1)]))
            cells = flat[same].reshape(cells.shape)
        for kind, i, clue, _ in self.lines():
            line_vars = cells[i] if kind == "row" else cells[:, i]
            line_known = known[i] if kind == "row" else known[:, i]
            if same is not None:
                # Known-empty ends say nothing; without them a line and its image match.
                inside = np.flatnonzero(line_known != EMPTY)
                lo, hi = (inside[0], inside[-1] + 1) if len(inside) else (0, 0)
                line_vars, line_known = line_vars[lo:hi], line_known[lo:hi]
                key = min((tuple(line_vars.tolist()), tuple(clue)),
                          (tuple(line_vars[::-1].tolist()), tuple(clue[::-1])))
                if key in built:
                    continue
                built.add(key)
                if not len(line_vars):
                    if clue:
                        model.add_false()
                    continue
            name = f"{kind} {i + 1} ({' '.join(map(str, clue)) or '0'})"
            with model.named(name) if named else contextlib.nullcontext():
                add_line(model, encoding, line_vars, line_known, clue)
        return model

    def build(self, named: bool = False) -> tuple[Model, BoolArray]:
        """The model and its cells (for Model.determined); ``named``: each line's clue a
        named group of its own, for Model.explain."""
        model = self.build_model(named=named)
        return model, BoolArray(model, model.user_vars.reshape(self.height, self.width))

    # -- solutions -------------------------------------------------------------------------

    def decode(self, values: np.ndarray) -> list[str]:
        grid = np.asarray(values, dtype=bool).reshape(self.height, self.width)
        return grid_strings(grid)

    def verify(self, solution: Sequence[str]) -> None:
        """Independent check: the grid's size and every line's runs against its clue."""
        if isinstance(solution, str) or not all(isinstance(r, str) for r in solution):
            raise VerificationError(f"{self.name}: a grid is its rows, strings of # and .")
        if len(solution) != self.height or any(len(r) != self.width for r in solution):
            raise VerificationError(f"{self.name}: grid is not {self.height}x{self.width}")
        if any(set(r) - {"#", "."} for r in solution):
            raise VerificationError(f"{self.name}: grid has characters other than # and .")
        for kind, i, clue, _ in self.lines():
            line = solution[i] if kind == "row" else "".join(r[i] for r in solution)
            if line_runs(line) != clue:
                raise VerificationError(f"{self.name}: {kind} {i + 1} reads "
                                        f"{line_runs(line)}, clue {clue}")


class _CellNames(Sequence[str]):
    """``r1c1`` ... names made on demand."""

    def __init__(self, height: int, width: int) -> None:
        self.h, self.w = height, width

    def __len__(self) -> int:
        return self.h * self.w

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        r, c = divmod(int(i) % len(self), self.w)
        return f"r{r + 1}c{c + 1}"


def line_runs(line: str) -> Clue:
    """The clue a line of ``#`` / ``.`` reads."""
    return tuple(len(run) for run in line.split(".") if run)


def grid_strings(grid: np.ndarray) -> list[str]:
    return ["".join("#" if v else "." for v in row) for row in np.asarray(grid).tolist()]


def grid_array(solution: Sequence[str]) -> np.ndarray:
    """The bool grid of ``#`` / ``.`` rows (the inverse of :func:`grid_strings`)."""
    return np.array([[ch == "#" for ch in row] for row in solution], dtype=bool)


def clue_automaton(clue: Clue) -> tuple[np.ndarray, np.ndarray]:
    """Transitions (state, letter, next) and final states of ``0* 1^r1 0+ ... 1^rk 0*``.

    State i means element i of the pattern ``Z O..O Z O..O ... Z`` has just been read
    (Z: a zero loop, O: one filled cell); state 0 is the leading loop."""
    is_zero = [True]
    for r in clue:
        is_zero += [False] * r + [True]
    z = np.array(is_zero)
    n = len(z)
    idx = np.arange(n)
    loops = np.stack([idx[z], np.zeros(z.sum(), dtype=np.int64), idx[z]], axis=1)
    step = idx[:-1]
    letter = (~z[1:]).astype(np.int64)  # into a filled cell reads 1, into a gap reads 0
    moves = np.stack([step, letter, step + 1], axis=1)
    finals = np.array([n - 1] if not clue else [n - 2, n - 1], dtype=np.int64)
    return np.concatenate([loops, moves]), finals


def _ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(starts[i], stops[i])``."""
    lengths = np.maximum(stops - starts, 0)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    first = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.arange(total, dtype=np.int64) + first


def run_starts(clue: Clue, known: np.ndarray) -> list[np.ndarray]:
    """Per run, the starts that fit its place in the clue and the known cells around it."""
    n, k = len(known), len(clue)
    r = np.asarray(clue, dtype=np.int64)
    empties = np.concatenate([[0], np.cumsum(known == EMPTY)])
    filled = known == FILLED
    before = np.concatenate([[0], np.cumsum(r + 1)])[:-1]
    after = n - (np.cumsum(r[::-1])[::-1] + (k - 1 - np.arange(k)))
    out = []
    for j in range(k):
        s = np.arange(before[j], after[j] + 1)
        e = s + r[j]
        ok = empties[e] == empties[s]
        ok &= (s == 0) | ~filled[np.maximum(s - 1, 0)]
        ok &= (e == n) | ~filled[np.minimum(e, n - 1)]
        out.append(s[ok])
    # Order: each run starts after the earliest end of the one before, ends before the latest
    # start of the one after.
    for j in range(1, k):
        if len(out[j - 1]):
            out[j] = out[j][out[j] >= out[j - 1][0] + r[j - 1] + 1]
    for j in range(k - 2, -1, -1):
        if len(out[j + 1]):
            out[j] = out[j][out[j] + r[j] + 1 <= out[j + 1][-1]]
    return out


def add_line(model: Model, encoding: str, cells: np.ndarray, known: np.ndarray,
             clue: Clue) -> None:
    """Constrain the literals ``cells`` to spell a line that fits ``clue``, in the given
    encoding. ``known`` (-1/0/1 per cell) only narrows the run starts; fixing those cells
    is the caller's job (build_model adds them as unit clauses)."""
    if encoding == "automaton":
        transitions, finals = clue_automaton(clue)
        model.add_automaton(cells, transitions, 0, finals)
        return
    if not clue:
        model.add_clauses(-cells[:, None])
        return
    starts = run_starts(clue, known)
    if any(len(s) == 0 for s in starts):
        model.add_false()
    elif encoding == "order":
        add_order_line(model, cells, clue, starts)
    else:
        _add_runs(model, cells, clue, starts)


def _add_runs(model: Model, cells: np.ndarray, clue: Clue, starts: list[np.ndarray]) -> None:
    xs = [model.new_bools(len(s)) for s in starts]
    model.add_exactly_one(xs)
    pos = [_ranges(s, s + r) for s, r in zip(starts, clue, strict=True)]
    who = [np.repeat(x, r) for x, r in zip(xs, clue, strict=True)]
    pos_all, who_all = np.concatenate(pos), np.concatenate(who)
    model.add_implications(who_all, cells[pos_all])
    model.add_clauses(headed_groups(-cells, pos_all, who_all))
    order = []
    for j in range(len(clue) - 1):
        s, t, gap = starts[j], starts[j + 1], clue[j] + 1
        first_ok = np.searchsorted(t, s + gap)  # run j at s: run j+1 at t[first_ok:]
        keys = np.repeat(np.arange(len(s)), len(t) - first_ok)
        tails = _ranges(first_ok, np.full(len(s), len(t)))
        order.append(headed_groups(-xs[j], keys, xs[j + 1][tails]))
        last_ok = np.searchsorted(s, t - gap, side="right")  # run j+1 at t: run j at s[:last_ok]
        keys = np.repeat(np.arange(len(t)), last_ok)
        order.append(headed_groups(-xs[j + 1], keys, xs[j][_ranges(np.zeros(len(t), np.int64),
                                                             last_ok)]))
    if order:
        model.add_clauses(Groups.concat(order))


def check_encoding(encoding: str) -> None:
    """Refuse a name that is not one of ENCODINGS."""
    if encoding not in ENCODINGS:
        raise PuzzleError(f"unknown nonogram encoding {encoding!r} "
                          f"(known: {', '.join(ENCODINGS)})")
