"""Nonograms: the clues, their validation, its three encodings and an independent verifier.

A nonogram has two colours (background and ink) or more. A line's clue is its runs in
order, each a length and a colour; two runs of the same colour need a background cell
between them, runs of different colours need none. A solution is a list of row strings:
``#`` filled and ``.`` empty in a two-colour puzzle, each colour's own character in a colour
one. Models have one user variable per cell and ink colour (row-major; a cell with none
of them true is background), so every back end projects, blocks and counts on the grid.

Encodings:
- ``runs``: a boolean per possible start of every run; each run starts exactly once; run
  j+1 starts after run j and a gap (clauses both ways, the second one redundant but a
  help to propagation); a filled cell lies in a chosen run, a chosen run fills its cells.
- ``order``: the same runs, each start an integer spelled by bound literals ("run j starts
  at t or later"), see order.py; what SAT solvers learn from it generalises better.
- ``automaton``: each line is a word of a small deterministic automaton
  (``0* 1^r1 0+ 1^r2 ... 0*``); CP-SAT takes it natively, sat and z3 unroll it. In colour
  the word is over the line's colours: an integer per cell of the line, channelled to the
  cell's ink literals, read by a Regular constraint.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.model import BoolArray, Groups, Model, Regular, headed_groups
from smtpuzzle.puzzles.nonogram.clues import (
    TWO_COLOURS,
    Clue,
    Colour,
    Inks,
    check_colours,
    gaps,
    parse_clue,
)
from smtpuzzle.puzzles.nonogram.order import add_order_line
from smtpuzzle.runtime.memory import check_fits_in_memory

ENCODINGS = ("runs", "order", "automaton")
DEFAULT_ENCODING = "order"  # see bench/RESULTS.md, "Nonograms": decides knotty and faase
UNKNOWN, EMPTY, FILLED = -1, 0, 1
MAX_CELLS = 4_000_000  # 2000 x 2000: far beyond published nonograms (webpbn's reach 99 x 99)
BYTES_PER_RUN_CELL = 64  # measured: a random 400 x 400 took 1.7 GB over 31M run-cells
@dataclass
class Nonogram:
    """A nonogram: the clues of its rows and columns, its colours (the background first),
    with where they came from.

    A clue's runs are lengths, or (length, colour) pairs with the colour an index, name or
    character of ``colours``; ``rows`` and ``cols`` keep the lengths, ``row_inks`` and
    ``col_inks`` the colours (all 1 in a two-colour puzzle)."""

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
    colours: tuple[Colour, ...] = TWO_COLOURS
    row_inks: list[Inks] = field(init=False, repr=False)
    col_inks: list[Inks] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.colours = check_colours(self.colours)
        rows = [parse_clue(c, "row", i, self.colours) for i, c in enumerate(self.rows)]
        cols = [parse_clue(c, "column", j, self.colours) for j, c in enumerate(self.cols)]
        self.rows, self.row_inks = [r for r, _ in rows], [c for _, c in rows]
        self.cols, self.col_inks = [r for r, _ in cols], [c for _, c in cols]

    @property
    def coloured(self) -> bool:
        """More than one ink: cells are read as colours, not filled or empty."""
        return len(self.colours) > 2

    @property
    def inks(self) -> int:
        """How many colours a cell may take besides the background."""
        return len(self.colours) - 1

    @property
    def chars(self) -> str:
        """The character of each colour in a solution (``.#`` for two colours)."""
        return "".join(c.char for c in self.colours) if self.coloured else ".#"

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.cols)

    def lines(self) -> list[tuple[str, int, Clue, Inks, int]]:
        """(kind, index, clue, its inks, length) for every row, then every column."""
        return ([("row", i, c, k, self.width)
                 for i, (c, k) in enumerate(zip(self.rows, self.row_inks, strict=True))]
                + [("column", j, c, k, self.height)
                   for j, (c, k) in enumerate(zip(self.cols, self.col_inks, strict=True))])

    def spelled(self, clue: Clue, inks: Inks) -> str:
        """A clue as written: ``2 1`` (``0`` for none); in colour ``2r 1b`` (the colours'
        characters)."""
        if not clue:
            return "0"
        if not self.coloured:
            return " ".join(map(str, clue))
        return " ".join(f"{r}{self.colours[k].char}" for r, k in zip(clue, inks, strict=True))

    def read_line(self, line: str) -> tuple[Clue, Inks]:
        """The clue a line of the solution's characters reads."""
        clue, inks = [], []
        for ch, run in itertools.groupby(line):
            k = self.chars.find(ch)
            if k > 0:
                clue.append(len(list(run)))
                inks.append(k)
        return tuple(clue), tuple(inks)

    def validate(self) -> None:
        """Raise a located PuzzleError for a clue that cannot fit or mismatched totals."""
        if not self.rows or not self.cols:
            raise PuzzleError("a nonogram needs at least one row and one column")
        if self.width * self.height > MAX_CELLS:
            raise PuzzleError(f"the nonogram is {self.width:,} x {self.height:,} "
                              f"({self.width * self.height:,} cells); at most {MAX_CELLS:,} "
                              "are taken")
        for kind, i, clue, inks, n in self.lines():
            need = sum(clue) + int(gaps(inks).sum())
            if need > n:
                src = (self.row_lines if kind == "row" else self.col_lines)
                line = src[i] if i < len(src) else None
                raise PuzzleError(f"{kind} {i + 1} clue {self.spelled(clue, inks)} needs "
                                  f"{need} cells, the {kind} has {n}", line=line)
        for k in range(1, len(self.colours)):
            by_rows, by_cols = (sum(r for c, i in zip(clues, inks, strict=True)
                                    for r, ink in zip(c, i, strict=True) if ink == k)
                                for clues, inks in ((self.rows, self.row_inks),
                                                    (self.cols, self.col_inks)))
            if by_rows != by_cols:
                what = f" {self.colours[k].name}" if self.coloured else ""
                raise PuzzleError(f"the row clues fill {by_rows}{what} cells, the column "
                                  f"clues {by_cols}")

    def check_fits_in_memory(self) -> None:
        """Refuse a nonogram whose model would not fit in memory: a line's encodings take
        a little per run and cell (each run has a start among the line's cells)."""
        run_cells = sum((len(clue) + self.inks) * n for _, _, clue, _, n in self.lines())
        check_fits_in_memory(run_cells * BYTES_PER_RUN_CELL,
                             f"solving the {self.width} x {self.height} nonogram")

    def goal_mismatch(self) -> str | None:
        """Where the file's goal breaks the clues, in words (None: no goal, or it fits)."""
        if self.goal is None:
            return None
        for kind, i, clue, inks, _ in self.lines():
            line = self.goal[i] if kind == "row" else "".join(r[i] for r in self.goal)
            read = self.read_line(line)
            if read != (clue, inks):
                return (f"{kind} {i + 1} of the goal reads {self.spelled(*read)}, "
                        f"its clue is {self.spelled(clue, inks)}")
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
        """The user variables: H x W (two colours: the cell is filled) or H x W x inks (the
        cell has ink k + 1; none of them: background)."""
        names = _CellNames(self.height, self.width,
                           [c.name for c in self.colours[1:]] if self.coloured else None)
        cells = model.new_bools(self.height * self.width * self.inks, user=True, names=names)
        if not self.coloured:
            return cells.reshape(self.height, self.width)
        cells = cells.reshape(self.height, self.width, self.inks)
        model.add_at_most_one(cells.reshape(-1, self.inks))
        return cells

    def build_model(self, encoding: str | None = DEFAULT_ENCODING,
                    known: np.ndarray | None = None, same: np.ndarray | None = None,
                    named: bool = False) -> Model:
        """The puzzle as a neutral model; ``known`` (H x W: -1 open, else the colour; 0/1 in
        two colours) fixes presolved cells; ``named``: each line's clue a named group of
        its own (``row 3 (2 1)``).

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
        cells = self.cell_vars(model).reshape(self.height, self.width, self.inks)
        fixed = known != UNKNOWN
        if fixed.any():
            lits = cells[fixed]  # (fixed cells, inks)
            ink = np.arange(1, self.inks + 1)[None, :] == known[fixed][:, None]
            model.add_clauses(np.where(ink, lits, -lits).reshape(-1, 1))
        built: set[tuple] = set()
        if same is not None:
            flat = cells.reshape(-1, self.inks)
            moved = np.flatnonzero(same != np.arange(len(flat)))
            a, b = flat[moved].ravel(), flat[same[moved]].ravel()
            model.add_clauses(np.concatenate([np.stack([-a, b], axis=1),
                                              np.stack([a, -b], axis=1)]))
            cells = flat[same].reshape(cells.shape)
        for kind, i, clue, inks, _ in self.lines():
            line_vars = cells[i] if kind == "row" else cells[:, i]
            line_known = known[i] if kind == "row" else known[:, i]
            if same is not None:
                # Known-empty ends say nothing; without them a line and its image match.
                inside = np.flatnonzero(line_known != EMPTY)
                lo, hi = (inside[0], inside[-1] + 1) if len(inside) else (0, 0)
                line_vars, line_known = line_vars[lo:hi], line_known[lo:hi]
                key = min((tuple(line_vars.ravel().tolist()), clue, inks),
                          (tuple(line_vars[::-1].ravel().tolist()), clue[::-1], inks[::-1]))
                if key in built:
                    continue
                built.add(key)
                if not len(line_vars):
                    if clue:
                        model.add_false()
                    continue
            name = f"{kind} {i + 1} ({self.spelled(clue, inks)})"
            with model.named(name) if named else contextlib.nullcontext():
                add_line(model, encoding, line_vars, line_known, clue, inks)
        return model

    def build(self, named: bool = False) -> tuple[Model, BoolArray]:
        """The model and its cells (for Model.determined; H x W x inks in colour);
        ``named``: each line's clue a named group of its own, for Model.explain."""
        model = self.build_model(named=named)
        shape = (self.height, self.width) + ((self.inks,) if self.coloured else ())
        return model, BoolArray(model, model.user_vars.reshape(shape))

    # -- solutions -------------------------------------------------------------------------

    def colour_grid(self, values: np.ndarray) -> np.ndarray:
        """The H x W colour indices of the user variables' values (0 background)."""
        v = np.asarray(values, dtype=bool).reshape(self.height, self.width, self.inks)
        return np.where(v.any(axis=2), v.argmax(axis=2) + 1, 0)

    def decode(self, values: np.ndarray) -> list[str]:
        """The solution rows of the user variables' values; of Model.determined's answer
        (None where solutions differ), rows with ``?`` where a cell's colour is open."""
        values = np.asarray(values)
        if values.dtype != object:
            return self.strings(self.colour_grid(values))
        v = values.reshape(self.height, self.width, self.inks)
        on, off = v == True, v == False  # noqa: E712 - elementwise on None/True/False
        settled = on.any(axis=2) | off.all(axis=2)
        return self.strings(np.where(settled, self.colour_grid(on), len(self.chars)))

    def strings(self, grid: np.ndarray) -> list[str]:
        """Rows of the colours' characters of an H x W grid of colour indices (the index
        ``len(chars)`` writes ``?``, an open cell)."""
        chars = np.array(list(self.chars + "?"))
        return ["".join(row) for row in chars[np.asarray(grid, dtype=np.int64)].tolist()]

    def indices(self, solution: Sequence[str]) -> np.ndarray:
        """The H x W colour indices of a solution's rows (the inverse of :meth:`strings`)."""
        lookup = {ch: k for k, ch in enumerate(self.chars)}
        return np.array([[lookup[ch] for ch in row] for row in solution], dtype=np.int8)

    def verify(self, solution: Sequence[str]) -> None:
        """Independent check: the grid's size and characters, and every line's runs
        against its clue."""
        if isinstance(solution, str) or not all(isinstance(r, str) for r in solution):
            spelled = " ".join(self.chars) if self.coloured else "# and ."
            raise VerificationError(f"{self.name}: a grid is its rows, strings of {spelled}")
        if len(solution) != self.height or any(len(r) != self.width for r in solution):
            raise VerificationError(f"{self.name}: grid is not {self.height}x{self.width}")
        if any(set(r) - set(self.chars) for r in solution):
            raise VerificationError(f"{self.name}: grid has characters other than "
                                    f"{' '.join(self.chars)}")
        for kind, i, clue, inks, _ in self.lines():
            line = solution[i] if kind == "row" else "".join(r[i] for r in solution)
            read = self.read_line(line)
            if read != (clue, inks):
                raise VerificationError(f"{self.name}: {kind} {i + 1} reads "
                                        f"{self.spelled(*read)}, clue "
                                        f"{self.spelled(clue, inks)}")


class _CellNames(Sequence[str]):
    """``r1c1`` ... names made on demand (``r1c1=red`` ... with colours)."""

    def __init__(self, height: int, width: int, inks: list[str] | None = None) -> None:
        self.h, self.w, self.inks = height, width, inks

    def __len__(self) -> int:
        return self.h * self.w * (len(self.inks) if self.inks else 1)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i = int(i) % len(self)
        ink = ""
        if self.inks:
            i, k = divmod(i, len(self.inks))
            ink = f"={self.inks[k]}"
        r, c = divmod(i, self.w)
        return f"r{r + 1}c{c + 1}{ink}"


def line_runs(line: str) -> Clue:
    """The clue a line of ``#`` / ``.`` reads."""
    return tuple(len(run) for run in line.split(".") if run)


def grid_strings(grid: np.ndarray) -> list[str]:
    return ["".join("#" if v else "." for v in row) for row in np.asarray(grid).tolist()]


def grid_array(solution: Sequence[str]) -> np.ndarray:
    """The bool grid of ``#`` / ``.`` rows (the inverse of :func:`grid_strings`)."""
    return np.array([[ch == "#" for ch in row] for row in solution], dtype=bool)


def clue_automaton(clue: Clue, inks: Inks | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Transitions (state, letter, next) and final states of ``0* c1^r1 0+ ... ck^rk 0*``
    (letter 0 the background, c the colour of a run; ``inks`` None: every run colour 1),
    where the ``0+`` between two runs of different colours is ``0*``.

    State i means element i of the pattern ``Z O..O Z O..O ... Z`` has just been read
    (Z: a background loop, O: one cell of a run); state 0 is the leading loop. Between runs
    of different colours a move skips the Z."""
    ink = [1] * len(clue) if inks is None else list(inks)
    label = [0]
    for r, c in zip(clue, ink, strict=True):
        label += [c] * r + [0]
    lab = np.array(label, dtype=np.int64)
    z = lab == 0
    n = len(z)
    idx = np.arange(n)
    loops = np.stack([idx[z], np.zeros(z.sum(), dtype=np.int64), idx[z]], axis=1)
    step = idx[:-1]
    moves = np.stack([step, lab[1:], step + 1], axis=1)  # into an element reads its label
    gaps_at = idx[z][1:-1]  # the Z between run j and run j + 1
    skip = np.array([a != b for a, b in itertools.pairwise(ink)], dtype=bool)
    g = gaps_at[skip]
    skips = np.stack([g - 1, lab[g + 1], g + 1], axis=1)
    finals = np.array([n - 1] if not clue else [n - 2, n - 1], dtype=np.int64)
    return np.concatenate([loops, moves, skips]), finals


def _ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(starts[i], stops[i])``."""
    lengths = np.maximum(stops - starts, 0)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    first = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.arange(total, dtype=np.int64) + first


def run_starts(clue: Clue, known: np.ndarray, inks: Inks | None = None) -> list[np.ndarray]:
    """Per run, the starts that fit its place in the clue and the known cells around it
    (``known``: -1 open, else the cell's colour; ``inks`` None: every run has colour 1)."""
    n, k = len(known), len(clue)
    r = np.asarray(clue, dtype=np.int64)
    ink = np.ones(k, dtype=np.int64) if inks is None else np.asarray(inks, dtype=np.int64)
    space = r + gaps(ink)  # a run and the background it needs before the next
    before = np.concatenate([[0], np.cumsum(space)])[:-1]
    after = n - np.cumsum(space[::-1])[::-1]
    out = []
    for j in range(k):
        # cells known to hold something else than this run's colour
        other = np.concatenate([[0], np.cumsum((known != UNKNOWN) & (known != ink[j]))])
        same = known == ink[j]
        s = np.arange(before[j], after[j] + 1)
        e = s + r[j]
        ok = other[e] == other[s]
        ok &= (s == 0) | ~same[np.maximum(s - 1, 0)]
        ok &= (e == n) | ~same[np.minimum(e, n - 1)]
        out.append(s[ok])
    # Order: each run starts after the earliest end of the one before, ends before the latest
    # start of the one after.
    for j in range(1, k):
        if len(out[j - 1]):
            out[j] = out[j][out[j] >= out[j - 1][0] + space[j - 1]]
    for j in range(k - 2, -1, -1):
        if len(out[j + 1]):
            out[j] = out[j][out[j] + space[j] <= out[j + 1][-1]]
    return out


def add_line(model: Model, encoding: str, cells: np.ndarray, known: np.ndarray,
             clue: Clue, inks: Inks | None = None) -> None:
    """Constrain the literals ``cells`` (n, or n x inks: "cell i has ink k + 1") to spell a
    line that fits ``clue`` (run j of colour ``inks[j]``; None: all 1), in the given
    encoding. ``known`` (-1 or the colour, per cell) only narrows the run starts; fixing
    those cells is the caller's job (build_model adds them as unit clauses)."""
    cells = cells.reshape(len(cells), -1)
    if inks is None:
        inks = (1,) * len(clue)
    if encoding == "automaton":
        transitions, finals = clue_automaton(clue, inks)
        if cells.shape[1] == 1:
            model.add_automaton(cells[:, 0], transitions, 0, finals)
            return
        # The line's colours as integers (0: background), each "== k" the cell's ink k.
        word = model.int_array(len(cells), 0, cells.shape[1], name="line", user=False)
        same = word.reshape(-1, 1).eq(np.arange(1, cells.shape[1] + 1)).ids
        model.add_implications(same.ravel(), cells.ravel())
        model.add_implications(cells.ravel(), same.ravel())
        model.add(Regular(word, transitions, 0, finals))
        return
    if not clue:
        model.add_clauses(-cells.reshape(-1, 1))
        return
    starts = run_starts(clue, known, inks)
    if any(len(s) == 0 for s in starts):
        model.add_false()
    elif encoding == "order":
        add_order_line(model, cells, clue, np.asarray(inks) - 1, starts)
    else:
        _add_runs(model, cells, clue, np.asarray(inks) - 1, starts)


def _add_runs(model: Model, cells: np.ndarray, clue: Clue, col: np.ndarray,
              starts: list[np.ndarray]) -> None:
    """The runs encoding; ``cells`` n x inks, ``col[j]`` the column of run j's ink."""
    xs = [model.new_bools(len(s)) for s in starts]
    model.add_exactly_one(xs)
    pos = [_ranges(s, s + r) for s, r in zip(starts, clue, strict=True)]
    who = [np.repeat(x, r) for x, r in zip(xs, clue, strict=True)]
    ink = [np.full(len(p), c) for p, c in zip(pos, col, strict=True)]
    pos_all, who_all, ink_all = np.concatenate(pos), np.concatenate(who), np.concatenate(ink)
    model.add_implications(who_all, cells[pos_all, ink_all])
    # A cell of an ink lies in a chosen run of that ink (one group per cell and ink).
    model.add_clauses(headed_groups(-cells.ravel(), pos_all * cells.shape[1] + ink_all,
                                    who_all))
    space = np.asarray(clue) + gaps(col)
    order = []
    for j in range(len(clue) - 1):
        s, t, gap = starts[j], starts[j + 1], space[j]
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


def half_solved_text(_puzzle: Nonogram, grid: np.ndarray) -> str:
    """A half-solved grid (the characters of :meth:`Nonogram.decode` of Model.determined,
    ``?`` open) as text."""
    return "\n".join("".join(row) for row in np.asarray(grid).tolist())
