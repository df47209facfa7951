"""The decision-diagram proof of a maze bound, written out as a clausal proof.

The bound's formula (certificate.py) has, per case, a variable per (move t, state) of the
walk; a SAT solver refutes it only by search, and that search grows about 10x every two
moves. The diagrams of mdd.py refute the same cases in a second, by a product of
automata, minimised after each case. This module turns that product into clauses that each
follow by unit propagation from the formula and the clauses before them (a RUP proof with
extension variables, as DRAT checkers take it), so that a SAT solver checks the proof
without searching.

Level k intersects D(k-1), the minimised diagram of the first k-1 cases (D(0) holds every
string; on a square, every string whose first move is N), with the states of case k. For
each pair (state s of D(k-1), state q of case k) reachable after t moves:
- a new variable a = y(k-1, t, s) AND x(k, t, q) (at level 1, a is x itself), and for each
  state m of the minimised product D(k), a new variable y(k, t, m) = the OR of the a of the
  pairs that merged into m. Both are definitions (Tseitin clauses of fresh variables), so
  they keep the formula's satisfiability.
- A pair with no way to the end (dead): "not (y(k-1, t, s) and x(k, t, q))", from the
  last move back; first one lemma per letter into a dead pair, then the pair's own.
- "a and letter d at move t imply y(k, t + 1, m')", where m' is the state that pair's
  successor merged into (or "not both", where the successor is dead), for pairs that merged
  with others (a state of one pair steps as its pair does, by propagation alone);
- then "y(k, t, m) and letter d imply y(k, t + 1, D(k)'s successor of m)" (or "not both"):
  the transitions of D(k) as clauses, which level k + 1 propagates through.
When the product of all the cases runs empty, the start pair of the last level is dead,
and the empty clause follows by unit propagation: the proof is complete.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from smtpuzzle.puzzles.maze.mdd import Diagram, merge, product


@dataclass
class CaseStates:
    """One case's part of the formula: ``tables[t][i, d]`` is the state (index in layer
    t + 1) that letter d leads state i of layer t to, -1 where the walk can no longer
    finish; state i of layer t is variable ``base[t] + i``. Layer 0 holds the start alone,
    or nothing when the case cannot be solved in the length given."""

    tables: list[np.ndarray]
    sizes: list[int]  # states per layer, 0..length
    base: list[int]


@dataclass
class Block:
    """Clauses of one kind: ``define`` (fresh variables, each defined once, in order) or
    ``lemma`` (each implied by unit propagation from what came before the block). Level k
    needs only the formula's letters, case k's start and steps, and the blocks of level
    k - 1 marked ``carry`` (D(k-1)'s transitions and start): a checker may drop the rest,
    which keeps unit propagation from flooding through every level before."""

    kind: str
    clauses: list[list[int]]
    what: str
    level: int
    carry: bool = False


class NotEmpty(Exception):
    """The product of the cases does not run empty: ``string`` solves all of them."""

    def __init__(self, string: str) -> None:
        super().__init__(string)
        self.string = string


def letter(t: int | np.ndarray, d: int | np.ndarray) -> int | np.ndarray:
    """The variable of letter d at move t (as in certificate.encode)."""
    return 4 * t + d + 1


def _letters(t: int, first_n: bool) -> range:
    return range(1) if t == 0 and first_n else range(4)  # a square's first move is N


def _clauses(*columns: np.ndarray | int) -> list[list[int]]:
    """Rows of literals from columns (arrays of equal length, or one literal for all)."""
    n = max(len(c) for c in columns if isinstance(c, np.ndarray))
    return np.column_stack([np.broadcast_to(c, n) for c in columns]).tolist()


def _start_diagram(length: int, first_n: bool) -> list[np.ndarray]:
    """D(0): one state per layer; the first move N (with ``first_n``) or any, then
    anything."""
    first = np.array([[0, -1, -1, -1]]) if first_n else np.zeros((1, 4), dtype=np.int64)
    return [first] + [np.zeros((1, 4), dtype=np.int64) for _ in range(length - 1)]


def diagram_proof(length: int, cases: list[CaseStates], top: int, first_n: bool = True
                  ) -> Iterator[Block]:
    """The proof's blocks, level after level, ending with the empty clause; new variables
    from ``top + 1`` on. ``first_n``: the formula fixes the first move to N (a square's).
    Raises NotEmpty if the cases admit a string of ``length`` moves."""
    diagram, y_prev = _start_diagram(length, first_n), None  # y_prev[t]: state 0's variable
    for k, case in enumerate(cases, start=1):
        if case.sizes[0] == 0:
            return  # the case alone cannot be solved: the formula holds an empty clause
        pairs, moves = product(diagram, case.tables, case.sizes[1:])
        classes, merged = merge(moves, np.ones(len(pairs[-1][0]), dtype=bool))  # all finish
        empty = classes[0][0] < 0

        # per layer, the literals of each pair's two sides: y(k-1) (none at level 1), x(k)
        y_old = [None if y_prev is None else y_prev[t] + s for t, (s, _) in enumerate(pairs)]
        x_of = [case.base[t] + q for t, (_, q) in enumerate(pairs)]

        # definitions
        a_lit: list[np.ndarray] = []
        y_new: list[int] = []
        if not empty:
            for t in range(length + 1):
                alive = np.flatnonzero(classes[t] >= 0)
                x = x_of[t][alive]
                y = y_old[t]
                if y is None:
                    a = x
                else:
                    a = top + 1 + np.arange(len(alive))
                    top += len(alive)
                    y = y[alive]
                    yield Block("define", _clauses(-a, y) + _clauses(-a, x)
                                + _clauses(a, -y, -x), f"level {k}, move {t}: pairs", k)
                a_lit.append(a)
                m = classes[t][alive]
                y_new.append(top + 1)
                top += int(m.max()) + 1
                order = np.argsort(m, kind="stable")
                cuts = np.flatnonzero(np.diff(m[order])) + 1
                yield Block("define", _clauses(y_new[t] + m, -a) + [
                    [-(y_new[t] + int(m[g[0]])), *a[g].tolist()]
                    for g in np.split(order, cuts)], f"level {k}, move {t}: states", k)
        # dead pairs, from the last move back
        for t in range(length - 1, -1, -1):
            dead = np.flatnonzero(classes[t] < 0)
            if len(dead) == 0:
                continue
            into = moves[t][dead]
            p, d = np.nonzero(into >= 0)  # letters into a dead pair
            if len(p):
                into_dead = _clauses(*_not_both(y_old[t], x_of[t], dead[p]), -letter(t, d))
                yield Block("lemma", into_dead, f"level {k}, move {t}: letters into dead "
                            "pairs", k)
            yield Block("lemma", _clauses(*_not_both(y_old[t], x_of[t], dead)),
                        f"level {k}, move {t}: dead pairs", k)
        if empty:
            yield Block("lemma", [[]], f"level {k}: the empty clause", k)
            return
        yield Block("lemma", [[y_new[0]]], f"level {k}: the start", k, carry=True)
        # the transitions of D(k)
        for t in range(length):
            alive = np.flatnonzero(classes[t] >= 0)
            # a state of D(k) that is one pair steps as that pair does: no lemma needed
            merged_with = np.bincount(classes[t][alive])[classes[t][alive]] > 1
            alive, a = alive[merged_with], a_lit[t][merged_with]
            nxt = np.append(classes[t + 1], -1)[moves[t][alive]]
            steps = []
            for d in _letters(t, first_n):
                go = nxt[:, d] >= 0
                steps += _clauses(-a[go], y_new[t + 1] + nxt[go, d], -letter(t, d))
                if not go.all():
                    steps += _clauses(-a[~go], -letter(t, d))
            yield Block("lemma", steps, f"level {k}, move {t}: pair steps", k)
            steps = []
            here = y_new[t] + np.arange(len(merged[t]))
            for d in _letters(t, first_n):
                to = merged[t][:, d]
                go = to >= 0
                steps += _clauses(-here[go], y_new[t + 1] + to[go], -letter(t, d))
                if not go.all():
                    steps += _clauses(-here[~go], -letter(t, d))
            yield Block("lemma", steps, f"level {k}, move {t}: state steps", k, carry=True)
        diagram, y_prev = merged, y_new
    raise NotEmpty(Diagram(diagram).first_string("*" * length))


def _not_both(y: np.ndarray | None, x: np.ndarray, who: np.ndarray) -> list[np.ndarray]:
    """The literals "not y or not x" of the pairs ``who`` (just "not x" at level 1)."""
    return ([] if y is None else [-y[who]]) + [-x[who]]
