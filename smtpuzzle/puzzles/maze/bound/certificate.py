"""Certificates of maze lower bounds, written and checked from scratch.

A certificate (a directory) holds ``bound.json``: the size (3, or "RxC" for another
thin-wall grid), the length L, the symmetry, the cases as (maze id, start) pairs, closed
under it, the ``proof_cases`` listed first in the order the proof intersects them; and
``bound.cnf``: "a string of L moves solves every one of these cases", with the rule the
symmetry allows, in DIMACS, written and read as export-cnf does (``c user`` lines name the
letter variables, ``m1=N``...). A SAT solver's refutation of the CNF proves that no string
of L moves (nor fewer) solves every case.

The symmetries. A square's cases are closed under its rotations, so its first move may be
N: any string that solved them would solve them again turned so that its first move is N.
With the symmetry "rotations and mirror" they are closed under the left-right mirror too,
and the string obeys the mirror rule, "the first E or W is an E" (mirrored, E <-> W, where
its first E or W is a W). A rectangle that is not square has no quarter turns, so its first
move is free; with the symmetry "flips" its cases are closed under both flips (N <-> S, and
E <-> W), and the string obeys the flip rule: the first N or S is an N, and the first E or
W an E (flipped where it is not). Certificates without a rule (symmetries "rotations" and
"none") are still checked.

The check uses nothing of the search: it rebuilds each case's moves from its maze id by the
rules (bit e of the id set = inner edge e open, the left-right edges row by row, then the
up-down ones; a move into a wall or off the grid stays put), checks the symmetry, rebuilds
the CNF, compares it clause by clause with the file, and refutes it: the decision diagrams'
proof of the proof cases, written out as definitions and lemmas (proof.py), each lemma
derived by CaDiCaL from the formula and the clauses before it (backends/rup.py), the last
one the empty clause. CaDiCaL alone refutes the formula only by search, hours at 26 moves.

The encoding, per case: one variable per (move t, state) for the states the walk can be in
after t moves of some string and still finish, a state being (position, target cells not yet
visited); the start state; one state at least per move; a state and a letter imply the next
state (or are incompatible, when the next state cannot finish); each state follows from some
state before it. Letters: one per move, exactly. The rule is encoded the same way, as one
more automaton whose states say which of its first letters were seen ("no E or W yet", "an
E seen"; for the flip rule, the same for N or S too), and the proof intersects it first.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.backends.dimacs import read_cnf, write_dimacs
from smtpuzzle.backends.rup import CHECKERS, OutOfTime
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Groups, Model
from smtpuzzle.puzzles.maze.bound.proof import CaseStates, NotEmpty, diagram_proof, letter
from smtpuzzle.runtime.checks import checked_time_limit, is_digits, plural

LETTERS = "NESW"
_STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W on (row, column)
JSON, CNF = "bound.json", "bound.cnf"
# The symmetry a certificate's cases are closed under, by its shape and the rule's use: a
# square's by the rotations (its first move N) and with the rule the mirror; a rectangle's
# with the rule by both flips (N <-> S, E <-> W), without by nothing.
SYMMETRIES = {(True, False): "rotations", (True, True): "rotations and mirror",
              (False, False): "none", (False, True): "flips"}
MAX_CELLS = 16  # a state is (position, cells still to visit): a 16-bit mask


@dataclass(frozen=True)
class Grid:
    """A thin-wall grid of ``rows`` x ``cols`` cells, numbered row by row."""

    rows: int
    cols: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    @property
    def name(self) -> int | str:
        """As ``bound.json`` gives it: 3 for 3x3 (as certificates always had), else "RxC"."""
        return 3 if (self.rows, self.cols) == (3, 3) else f"{self.rows}x{self.cols}"

    @classmethod
    def of(cls, size: object) -> Grid | None:
        """The grid of a thin-wall size (3, or "RxC" of 2 to 16 cells); None for anything
        else, the blocked-cell size 4 included."""
        if size == 3:
            return cls(3, 3)
        if not isinstance(size, str):
            return None
        rows, sep, cols = size.partition("x")
        if not sep or not (is_digits(rows) and is_digits(cols)) or len(rows + cols) > 4:
            return None
        grid = cls(int(rows), int(cols))
        return grid if 2 <= grid.cells <= MAX_CELLS else None

    def edges(self) -> list[tuple[int, int]]:
        """The inner edges in maze-id bit order: left-right pairs row by row, then up-down."""
        r, c = self.rows, self.cols
        across = [(i * c + j, i * c + j + 1) for i in range(r) for j in range(c - 1)]
        down = [(i * c + j, (i + 1) * c + j) for i in range(r - 1) for j in range(c)]
        return across + down

    def symmetry(self, rule: bool) -> str:
        return SYMMETRIES[self.square, rule]


GRID3 = Grid(3, 3)


def maze_moves(maze: int, grid: Grid = GRID3) -> list[list[int]]:
    """Per cell, the cell each move N, E, S, W leads to in maze ``maze``."""
    open_edges = {frozenset(e) for b, e in enumerate(grid.edges()) if maze >> b & 1}
    out = []
    for cell in range(grid.cells):
        r, c = divmod(cell, grid.cols)
        row = []
        for dr, dc in _STEP:
            rr, cc = r + dr, c + dc
            nxt = rr * grid.cols + cc
            inside = 0 <= rr < grid.rows and 0 <= cc < grid.cols
            row.append(nxt if inside and frozenset((cell, nxt)) in open_edges else cell)
        out.append(row)
    return out


def _reachable(moves: list[list[int]], start: int) -> int:
    seen, stack = 1 << start, [start]
    while stack:
        for nxt in moves[stack.pop()]:
            if not seen >> nxt & 1:
                seen |= 1 << nxt
                stack.append(nxt)
    return seen


def _turn_cell(cell: int, grid: Grid) -> int:
    """The cell a quarter turn clockwise takes ``cell`` to (a square's)."""
    if not grid.square:
        raise ValueError(f"a {grid} grid has no quarter turn")
    r, c = divmod(cell, grid.cols)
    return c * grid.cols + (grid.rows - 1 - r)


def _mirror_cell(cell: int, grid: Grid) -> int:
    """The cell the left-right mirror takes ``cell`` to."""
    r, c = divmod(cell, grid.cols)
    return r * grid.cols + (grid.cols - 1 - c)


def _flip_cell(cell: int, grid: Grid) -> int:
    """The cell the top-bottom flip takes ``cell`` to."""
    r, c = divmod(cell, grid.cols)
    return (grid.rows - 1 - r) * grid.cols + c


def _moved_case(maze: int, start: int, move: Callable[[int, Grid], int], grid: Grid
                ) -> tuple[int, int]:
    """The case whose open edges and start are those of (maze, start) with each cell
    taken to ``move(cell)`` (a symmetry of the grid)."""
    edges = grid.edges()
    index = {frozenset(e): b for b, e in enumerate(edges)}
    moved = sum(1 << index[frozenset((move(a, grid), move(c, grid)))]
                for b, (a, c) in enumerate(edges) if maze >> b & 1)
    return moved, move(start, grid)


def turn_case(maze: int, start: int, grid: Grid = GRID3) -> tuple[int, int]:
    """A case of a square turned a quarter clockwise: a string solves (maze, start)
    exactly when the string turned (N -> E -> S -> W -> N) solves the turned case."""
    return _moved_case(maze, start, _turn_cell, grid)


def mirror_case(maze: int, start: int, grid: Grid = GRID3) -> tuple[int, int]:
    """A case mirrored left-right: a string solves (maze, start) exactly when the string
    mirrored (E <-> W) solves the mirrored case."""
    return _moved_case(maze, start, _mirror_cell, grid)


def flip_case(maze: int, start: int, grid: Grid = GRID3) -> tuple[int, int]:
    """A case flipped top to bottom: a string solves (maze, start) exactly when the string
    flipped (N <-> S) solves the flipped case."""
    return _moved_case(maze, start, _flip_cell, grid)


def symmetry_closure(cases: list[tuple[int, int]], mirror: bool = False,
                     grid: Grid = GRID3) -> list[tuple[int, int]]:
    """The cases closed under the symmetry ``grid.symmetry(mirror)``, sorted, each once: a
    square's under its turns (and with ``mirror``, its mirror images' turns), a
    rectangle's with ``mirror`` (the flip rule) under both flips, without as they are."""
    square = [turn_case] if grid.square else []
    ruled = ([mirror_case] + ([] if grid.square else [flip_case])) if mirror else []
    out, todo = set(cases), list(cases)
    while todo:  # every image under the group the maps generate
        case = todo.pop()
        for move in square + ruled:
            image = move(*case, grid)
            if image not in out:
                out.add(image)
                todo.append(image)
    return sorted(out)


def case_states(length: int, maze: int, start: int, top: int,
                deadline: float | None = None, grid: Grid = GRID3) -> CaseStates:
    """The states of case (``maze``, ``start``) that can still finish in ``length`` moves,
    layer by layer, numbered as variables from ``top + 1``. Past ``deadline``, OutOfTime.

    A state (position p, cells still to visit m) is the key p * 2**cells + m, so that
    sorting the keys sorts the states by (p, m): the order the variables are numbered in."""
    moves = np.array(maze_moves(maze, grid), dtype=np.int64)
    bits = np.left_shift(1, np.arange(grid.cells, dtype=np.int64))
    width = 1 << grid.cells

    def step(keys: np.ndarray) -> np.ndarray:
        """(states, 4): the key each letter leads each state to."""
        to = moves[keys // width]
        return to * width + ((keys % width)[:, None] & ~bits[to])

    def ones(m: np.ndarray) -> np.ndarray:
        return np.unpackbits(m.astype(">u2").view(np.uint8).reshape(-1, 2), axis=1).sum(axis=1)

    layers = [np.array([start * width + (_reachable(moves.tolist(), start) & ~(1 << start))],
                       dtype=np.int64)]
    for t in range(length):
        _in_time(deadline)
        left = length - t - 1  # moves after this one: each visits one new cell at most
        nxt = np.unique(step(layers[-1]))
        layers.append(nxt[ones(nxt % width) <= left])
    alive = [layers[length][layers[length] % width == 0]]
    for t in range(length - 1, -1, -1):
        nxt = step(layers[t])
        alive.append(layers[t][_member(nxt, alive[-1]).any(axis=1)])
    alive.reverse()
    tables = []
    for t in range(length):
        nxt = step(alive[t])
        at = np.searchsorted(alive[t + 1], nxt)
        tables.append(np.where(_member(nxt, alive[t + 1]), at, -1).reshape(-1, 4))
    return _numbered(tables, [len(a) for a in alive], top)


def _member(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Whether each of ``keys`` is one of ``sorted_keys`` (sorted, distinct)."""
    if len(sorted_keys) == 0:
        return np.zeros(keys.shape, dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


def rule_states(length: int, top: int, grid: Grid = GRID3) -> CaseStates:
    """The rule's states over ``length`` moves, numbered from ``top + 1``, layer by layer
    the states some string reaches, each of which can still finish. A square's mirror rule:
    "the first E or W is E" (states: no E or W yet, an E seen). A rectangle's flip rule:
    that, and "the first N or S is N" (a bit for each pair seen). Built here from the rule's
    words, not taken from the search."""
    ruled = ["EW"] if grid.square else ["NS", "EW"]  # (the letter kept, its image)

    def step(seen: int, d: int) -> int:
        for b, (kept, image) in enumerate(ruled):
            if LETTERS[d] in (kept, image) and not seen >> b & 1:
                return seen | 1 << b if LETTERS[d] == kept else -1  # the image first: lost
        return seen

    layers, tables = [[0]], []
    for _ in range(length):
        nxt = sorted({step(q, d) for q in layers[-1] for d in range(4)} - {-1})
        index = {q: i for i, q in enumerate(nxt)}
        tables.append(np.array([[index.get(step(q, d), -1) for d in range(4)]
                                for q in layers[-1]], dtype=np.int64))
        layers.append(nxt)
    return _numbered(tables, [len(layer) for layer in layers], top)


def _numbered(tables: list[np.ndarray], sizes: list[int], top: int) -> CaseStates:
    base = (top + 1 + np.cumsum([0] + sizes[:-1])).tolist()
    return CaseStates(tables, sizes, base)


@dataclass
class Formula:
    """The formula in parts: the letters' clauses; per case (in the order given), the
    start and the steps (a state and a letter imply the next state), and the rest (one
    state at least per move, each state follows from one before it)."""

    variables: int
    letters: list[list[int]]
    steps: list[Groups]
    rest: list[Groups]
    cases: list[CaseStates]

    @property
    def clauses(self) -> Groups:
        return Groups.concat([Groups.of(self.letters), *self.steps, *self.rest])


def encode(length: int, cases: list[tuple[int, int]], mirror: bool = False,
           deadline: float | None = None, most: int | None = None, grid: Grid = GRID3
           ) -> Formula:
    """"A string of ``length`` moves, the first N (on a square), solves every case" (and
    with ``mirror``, "obeys the rule", a square's mirror rule or a rectangle's flip rule:
    its automaton follows the cases, as ``formula.cases[-1]``). Letter variables first:
    move t, letter d is 4t + d + 1. Past ``deadline`` (a ``time.perf_counter()`` moment),
    OutOfTime. Once past ``most`` variables it stops and returns the formula so far (for a
    comparison that has already failed). Built with arrays, a case at a time: 680 cases of
    44 moves make a CNF of 410 MB."""
    letters: list[list[int]] = [[letter(0, 0)]] if grid.square else []
    for t in range(length):
        if t % 4096 == 4095:
            _in_time(deadline)
        letters.append([letter(t, d) for d in range(4)])
        letters += [[-letter(t, a), -letter(t, b)] for a in range(4) for b in range(a + 1, 4)]
    formula = Formula(4 * length, letters, [], [], [])
    automata = [lambda top, m=m, s=s: case_states(length, m, s, top, deadline, grid)
                for m, s in cases]
    if mirror:
        automata.append(lambda top: rule_states(length, top, grid))
    for automaton in automata:
        _in_time(deadline)
        if most is not None and formula.variables > most:
            break
        case = automaton(formula.variables)
        formula.cases.append(case)
        formula.variables += sum(case.sizes)
        formula.steps.append(_steps(case))
        formula.rest.append(_rest(case, length))
    return formula


def _steps(case: CaseStates) -> Groups:
    """The start, then per move: each state and letter imply the next state, or (where the
    walk could no longer finish) are incompatible."""
    flat: list[np.ndarray] = [np.array([case.base[0]] if case.sizes[0] else [], np.int64)]
    sizes: list[np.ndarray] = [np.ones(len(flat[0]), dtype=np.int64)]
    for t, table in enumerate(case.tables):
        v, d = np.indices(table.shape).reshape(2, -1)  # every (state, letter)
        w = table[v, d]
        go = w >= 0
        here, there = case.base[t] + v, case.base[t + 1] + w
        # the letter last, so that solvers watch the states (a letter is in thousands)
        flat.append(np.column_stack([-here[go], there[go], -letter(t, d[go])]).ravel())
        flat.append(np.column_stack([-here[~go], -letter(t, d[~go])]).ravel())
        sizes += [np.full(int(go.sum()), 3), np.full(int((~go).sum()), 2)]
    return _groups(flat, sizes)


def _rest(case: CaseStates, length: int) -> Groups:
    """One state at least per move (an empty clause where a move has none: the case alone
    cannot be solved), then per move each state follows from some state before it."""
    flat = [case.base[t] + np.arange(case.sizes[t], dtype=np.int64) for t in range(length + 1)]
    sizes = [np.array([case.sizes[t] for t in range(length + 1)], dtype=np.int64)]
    for t, table in enumerate(case.tables):
        v, d = np.nonzero(table >= 0)
        if len(v) == 0:
            continue
        # (next state, state) pairs, sorted, each once: variables fit in 32 bits
        pairs = np.unique((case.base[t + 1] + table[v, d]) << 32 | (case.base[t] + v))
        targets, firsts, counts = np.unique(pairs >> 32, return_index=True,
                                            return_counts=True)
        # each target's clause: its negation, then the states before it
        out = np.empty(len(pairs) + len(targets), dtype=np.int64)
        heads = firsts + np.arange(len(targets))
        out[heads] = -targets
        body = np.ones(len(out), dtype=bool)
        body[heads] = False
        out[body] = pairs & 0xFFFFFFFF
        flat.append(out)
        sizes.append(counts + 1)
    return _groups(flat, sizes)


def _groups(flat: list[np.ndarray], sizes: list[np.ndarray]) -> Groups:
    lengths = np.concatenate(sizes).astype(np.int64)
    return Groups(np.concatenate(flat).astype(np.int64),
                  np.concatenate([[0], np.cumsum(lengths)]), owned=True)


def _first_move(grid: Grid) -> str:
    """A square's first move is N (its turns take any first move there); a rectangle's is
    any."""
    return "N" if grid.square else "any"


def _in_time(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise OutOfTime


def _by_length(flat: np.ndarray, lengths: np.ndarray) -> dict[int, np.ndarray]:
    """Clauses as a canonical form, order within and between them ignored: per length k,
    an (n, k) array of the clauses' sorted literals, its rows sorted."""
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    flat = flat[np.lexsort((flat, np.repeat(np.arange(len(lengths)), lengths)))]
    out = {}
    for k in np.unique(lengths).tolist():
        rows = flat[starts[lengths == k][:, None] + np.arange(k)]
        out[k] = rows[np.lexsort(rows.T[::-1])] if k else rows
    return out


def _same_clauses(given: Groups, clauses: Groups) -> bool:
    """Whether ``given`` holds exactly ``clauses`` (as a multiset of literal sets)."""
    if len(given) != len(clauses):
        return False
    mine = _by_length(np.asarray(clauses.flat, dtype=np.int64), clauses.sizes)
    theirs = _by_length(np.asarray(given.flat, dtype=np.int64), given.sizes)
    return mine.keys() == theirs.keys() and all(
        np.array_equal(mine[k], theirs[k]) for k in mine)


def _model(length: int, variables: int, clauses: Any) -> Model:
    """The clauses as a model whose user variables are the letters (``m1=N``...)."""
    model = Model(f"maze bound {length}")
    model.new_bools(4 * length, user=True,
                    names=[f"m{t + 1}={ch}" for t in range(length) for ch in LETTERS])
    model.new_bools(variables - 4 * length)
    model.add_clauses(clauses)
    return model


# Seconds to write a certificate, per case (closed under the symmetry) and move: about
# 1,400 literals a case and move at 26-34 moves, encoded and written at about 1 us each
# (measured; bench/history/). maze bound keeps this much of its time limit back.
WRITE_SECONDS = 1.5e-3


def grid_of(size: int | str) -> Grid:
    """The grid of a maze size that has certificates (thin walls: 3 or "RxC")."""
    grid = Grid.of(size)
    if grid is None:
        raise PuzzleError(f"a certificate is for the thin-wall sizes (3 or RxC), not size "
                          f"{size} (its blocked cells have no certificate)")
    return grid


def write_seconds(length: int, cases: list[tuple[int, int]], mirror: bool = True,
                  size: int | str = 3) -> float:
    """About how long writing the certificate of ``cases`` at ``length`` moves takes."""
    return WRITE_SECONDS * length * len(symmetry_closure(cases, mirror, grid_of(size)))


def write_certificate(directory: Path, length: int, cases: list[tuple[int, int]],
                      mirror: bool = True, deadline: float | None = None,
                      size: int | str = 3) -> int:
    """Write the certificate of "no string of ``length`` moves solves ``cases`` (closed
    under the symmetry: a square's turns, and with ``mirror`` its mirror images; a
    rectangle's flips, with ``mirror``)": ``cases`` in the order the proof intersects
    them, then the others; returns the number of cases in it. ``mirror`` must be what the
    proof of ``cases`` used (BoundResult.mirror: the mirror or flip rule). Past
    ``deadline`` (a ``time.perf_counter()`` moment) it stops with OutOfTime and writes
    nothing."""
    grid = grid_of(size)
    closed = symmetry_closure(cases, mirror, grid)
    proof = list(dict.fromkeys(cases))
    listed = proof + [c for c in closed if c not in set(proof)]
    directory.mkdir(parents=True, exist_ok=True)
    # Both files are written aside and put in place together, so that a write cut short
    # (Ctrl-C, a full disk, the deadline) leaves no half certificate, nor half of a new one
    # over an old.
    parts = {name: directory / f".{name}.partial" for name in (JSON, CNF)}
    try:
        parts[JSON].write_text(json.dumps({
            "size": grid.name, "length": length, "first_move": _first_move(grid),
            "symmetry": grid.symmetry(mirror),
            "claim": f"no string of {length} moves solves every {grid} case, nor any "
                     "shorter one",
            "proof_cases": len(proof), "cases": [list(c) for c in listed]}, indent=1) + "\n")
        formula = encode(length, closed, mirror, deadline, grid=grid)
        write_dimacs(_model(length, formula.variables, formula.clauses), parts[CNF],
                     between=lambda: _in_time(deadline))
        for name, part in parts.items():
            part.replace(directory / name)
    finally:
        for part in parts.values():
            part.unlink(missing_ok=True)
    return len(closed)


@dataclass
class CheckedBound:
    verdict: str  # verified | rejected | unknown (not checked in the time given)
    length: int
    cases: int
    reason: str
    time_s: float
    lemmas: int = 0  # checked by unit propagation
    interrupted: bool = False  # Ctrl-C stopped the check

    def as_json(self) -> dict:
        return {"verdict": self.verdict, "length": self.length, "cases": self.cases,
                "reason": self.reason, "lemmas": self.lemmas, "time_s": round(self.time_s, 3),
                **({"interrupted": True} if self.interrupted else {})}


def solves(maze: int, start: int, string: str, grid: Grid = GRID3) -> bool:
    """Whether the walk of ``string`` from ``start`` visits every cell it can reach."""
    moves, cell = maze_moves(maze, grid), start
    seen = 1 << cell
    for ch in string:
        cell = moves[cell][LETTERS.index(ch)]
        seen |= 1 << cell
    return seen == _reachable(moves, start)


# (level reached, levels at most, lemmas checked so far)
CheckProgress = Callable[[int, int, int], None]


def _check_proof(length: int, formula: Formula, order: list[int], deadline: float | None,
                 progress: CheckProgress | None, checker_name: str, first_n: bool
                 ) -> tuple[str | None, int]:
    """(None, lemmas) if every lemma of the diagram proof of the cases ``order`` (indices
    into the formula's cases) follows by unit propagation, down to the empty clause; else
    (why not, lemmas checked). Each level is checked with only the clauses it needs (see
    proof.Block): dropping clauses can only make a lemma harder to derive."""
    from smtpuzzle.backends.rup import ProofChecker

    checked, level, checker, carried, kept = 0, 0, None, [], []
    try:
        for block in diagram_proof(length, [formula.cases[i] for i in order],
                                   formula.variables, first_n):
            if block.level != level:
                if checker is not None:
                    checker.close()
                level, carried, kept = block.level, kept, []
                steps = formula.steps[order[level - 1]].as_lists()
                checker = ProofChecker(formula.letters + steps + carried, checker_name)
            if progress:
                progress(level, len(order), checked)
            if block.kind == "lemma":
                bad = checker.first_not_implied(block.clauses, deadline)
                if bad is not None:
                    return (f"a lemma of the proof does not follow from the clauses before it: "
                            f"{block.clauses[bad]} ({block.what})", checked + bad)
                checked += len(block.clauses)
            checker.add(block.clauses)
            if block.carry:
                kept += block.clauses
    finally:
        if checker is not None:
            checker.close()
    return None, checked


def check_certificate(directory: str | Path, time_limit: float | None = None,
                      progress: CheckProgress | None = None, checker: str = "cadical"
                      ) -> CheckedBound:
    """Re-check a certificate from scratch; see the module docstring. Ctrl-C: unknown.
    ``checker``: who derives the lemmas (backends.rup.CHECKERS)."""
    if checker not in CHECKERS:
        raise PuzzleError(f"`checker`: one of {', '.join(CHECKERS)}, not {checker!r}")
    directory, time_limit = Path(directory), checked_time_limit(time_limit)
    t0 = time.perf_counter()
    checked = 0
    reached = [0, 0]  # level, levels

    def seen(level: int, levels: int, lemmas: int) -> None:
        nonlocal checked
        reached[:], checked = [level, levels], lemmas
        if progress:
            progress(level, levels, lemmas)

    def answer(verdict: str, reason: str, length: int = 0, cases: int = 0) -> CheckedBound:
        return CheckedBound(verdict, length, cases, reason, time.perf_counter() - t0,
                            checked)

    # Files that cannot be read are bad input; files read that prove nothing are rejected,
    # however they were damaged.
    try:
        raw = (directory / JSON).read_bytes()
    except OSError as exc:
        raise PuzzleError(f"{directory}: not a bound certificate ({exc})") from None
    if not (directory / CNF).is_file():
        raise PuzzleError(f"{directory}: not a bound certificate (no {CNF})")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return answer("rejected", "bound.json is not UTF-8 text")
    except ValueError as exc:  # also an integer of more digits than Python reads
        return answer("rejected", f"bound.json is not JSON ({str(exc)[:80]})")
    except RecursionError:
        return answer("rejected", "bound.json is not JSON (nested too deeply)")
    if not isinstance(data, dict):
        return answer("rejected", "bound.json is not a JSON object")
    length, cases = data.get("length"), data.get("cases")
    grid = Grid.of(data.get("size"))
    if grid is None or grid.name != data.get("size"):  # one name a grid: 3, else "RxC"
        return answer("rejected", "bound.json: the size is 3 or \"RxC\" (R rows, C columns, "
                      f"no leading zeros), a thin-wall grid of 2 to {MAX_CELLS} cells")
    first = _first_move(grid)
    if data.get("first_move") != first or not isinstance(length, int) or length < 1 \
            or not isinstance(cases, list):
        return answer("rejected", f"bound.json: first_move {first} (size {grid.name}), a "
                      "length >= 1 and the cases are required")
    def whole(x: object) -> bool:  # 2.5, "2" or true are no case field (int() took them)
        return isinstance(x, int) and not isinstance(x, bool)

    if not all(isinstance(c, list) and len(c) == 2 and all(map(whole, c)) for c in cases):
        return answer("rejected", "bound.json: each case is [maze id, start], two integers",
                      length)
    pairs = [(m, s) for m, s in cases]
    bad = [c for c in pairs if not (0 <= c[0] < 1 << len(grid.edges())
                                    and 0 <= c[1] < grid.cells)]
    if bad:
        return answer("rejected", f"case {list(bad[0])} is no {grid} maze and start", length)
    allowed = [grid.symmetry(False), grid.symmetry(True)]
    symmetry = data.get("symmetry", allowed[0])
    if symmetry not in allowed:
        return answer("rejected", f"bound.json: the symmetry of size {grid.name} is "
                      f"{' or '.join(map(repr, allowed))}", length, len(pairs))
    mirror = symmetry == allowed[1]
    if symmetry_closure(pairs, mirror, grid) != sorted(set(pairs)) \
            or len(set(pairs)) != len(pairs):
        return answer("rejected", f"the cases are not closed under the {symmetry} (so "
                      "the first moves may not be fixed)", length, len(pairs))
    used = data.get("proof_cases", len(pairs))
    if not isinstance(used, int) or not 1 <= used <= len(pairs):
        return answer("rejected", "bound.json: proof_cases is the number of cases (listed "
                      "first) the proof uses", length, len(pairs))
    deadline = None if time_limit is None else t0 + time_limit
    index = {c: i for i, c in enumerate(sorted(pairs))}
    try:
        given = read_cnf(directory / CNF)
    except PuzzleError as exc:
        return answer("rejected", f"bound.cnf: {exc}", length, len(pairs))
    # The letters alone take 4 variables and 7 clauses a move: a length tampered upwards
    # is caught here, by what the file holds, before any of its formula is built.
    if 4 * length > given.num_vars or 7 * length > len(given.clauses):
        return answer("rejected", "bound.cnf is not the formula of these cases and this "
                      "length", length, len(pairs))
    try:
        # no larger than the file: cases tampered to need more are not built in full
        formula = encode(length, sorted(pairs), mirror, deadline, given.num_vars, grid)
        _in_time(deadline)
        if given.num_vars != formula.variables or not _same_clauses(given.clauses,
                                                                    formula.clauses):
            return answer("rejected", "bound.cnf is not the formula of these cases and this "
                          "length", length, len(pairs))
        rule = [len(pairs)] if mirror else []  # the rule's automaton: intersected first
        why, checked = _check_proof(length, formula, rule + [index[c] for c in pairs[:used]],
                                    deadline, seen, checker, grid.square)
    except (OutOfTime, KeyboardInterrupt) as exc:
        # the limit given here is what the command line's --time-limit left, so its
        # seconds are not the user's: name the limit, not a number
        stop = "not checked within the time limit" if isinstance(exc, OutOfTime) \
            else "interrupted"
        how_far = (f"{checked:,} lemmas checked, up to level {reached[0]} of at most "
                   f"{reached[1]}" if reached[1] else "while rebuilding the formula to "
                   "compare with bound.cnf")
        checked_so_far = answer("unknown", f"{stop}: {how_far}; the check is incomplete",
                                length, len(pairs))
        checked_so_far.interrupted = isinstance(exc, KeyboardInterrupt)
        return checked_so_far
    except NotEmpty as exc:
        # the proof intersects only the first ``used`` cases: the string found solves
        # those, which refutes the proof, and the formula too only if it solves them all
        if all(solves(m, s, exc.string, grid) for m, s in pairs):
            return answer("rejected", f"the formula is satisfiable: {exc.string} solves "
                          "every case it lists", length, len(pairs))
        if all(solves(m, s, exc.string, grid) for m, s in pairs[:used]):
            return answer("rejected", f"the cases the proof uses ({used} of {len(pairs)}) "
                          f"admit a string: {exc.string} solves them", length, len(pairs))
        why = "the proof's diagrams do not run empty"
    if why is not None:
        return answer("rejected", why, length, len(pairs))
    who = "CaDiCaL derives" if checker == "cadical" else "MiniSat's unit propagation derives"
    return answer("verified", f"{who} the proof's {checked:,} lemmas, down to the "
                  f"empty clause: no string of {plural(length, 'move')} (nor fewer) solves "
                  f"every {grid} case", length, len(pairs))
