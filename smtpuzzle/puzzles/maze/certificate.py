"""Certificates of maze lower bounds, written and checked from scratch.

A certificate (a directory) holds ``bound.json``: the size (3), the length L, the cases as
(maze id, start) pairs, closed under the square's rotations; and ``bound.cnf``: "a string of
L moves, the first N, solves every one of these cases" in DIMACS, written and read as
export-cnf does (``c user`` lines name the letter variables, ``m1=N``...). The first move
may be N because the cases are closed under the rotations: any string that solved them
would solve them again turned so that its first move is N. A SAT solver's refutation of
the CNF proves that no string of L moves (nor fewer) solves every case.

The check uses nothing of the search: it rebuilds each case's moves from its maze id by the
rules (bit e of the id set = inner edge e open, the left-right edges row by row, then the
up-down ones; a move into a wall or off the grid stays put), checks the rotations, rebuilds
the CNF, compares it clause by clause with the file, and refutes it with CaDiCaL.

The encoding, per case: one variable per (move t, state) for the states the walk can be in
after t moves of some string and still finish, a state being (position, target cells not yet
visited); the start state; one state at least per move; a state and a letter imply the next
state (or are incompatible, when the next state cannot finish); each state follows from some
state before it. Letters: one per move, exactly.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.dimacs import export_file, read_cnf
from smtpuzzle.model import Model

LETTERS = "NESW"
_STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W on (row, column)
N = 3  # the certificate's maze size
JSON, CNF = "bound.json", "bound.cnf"


def _edges() -> list[tuple[int, int]]:
    """The inner edges of the 3x3 grid in maze-id bit order."""
    across = [(r * N + c, r * N + c + 1) for r in range(N) for c in range(N - 1)]
    down = [(r * N + c, (r + 1) * N + c) for r in range(N - 1) for c in range(N)]
    return across + down


def maze_moves(maze: int) -> list[list[int]]:
    """Per cell, the cell each move N, E, S, W leads to in maze ``maze``."""
    open_edges = {frozenset(e) for b, e in enumerate(_edges()) if maze >> b & 1}
    out = []
    for cell in range(N * N):
        r, c = divmod(cell, N)
        row = []
        for dr, dc in _STEP:
            rr, cc = r + dr, c + dc
            nxt = rr * N + cc
            inside = 0 <= rr < N and 0 <= cc < N
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


def _turn_cell(cell: int) -> int:
    """The cell a quarter turn clockwise takes ``cell`` to."""
    r, c = divmod(cell, N)
    return c * N + (N - 1 - r)


def turn_case(maze: int, start: int) -> tuple[int, int]:
    """A case turned a quarter clockwise: a string solves (maze, start) exactly when the
    string turned (N -> E -> S -> W -> N) solves the turned case."""
    index = {frozenset(e): b for b, e in enumerate(_edges())}
    turned = 0
    for b, (a, c) in enumerate(_edges()):
        if maze >> b & 1:
            turned |= 1 << index[frozenset((_turn_cell(a), _turn_cell(c)))]
    return turned, _turn_cell(start)


def rotation_closure(cases: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cases and all their turns, sorted, each once."""
    out = set()
    for case in cases:
        for _ in range(4):
            out.add(case)
            case = turn_case(*case)
    return sorted(out)


def encode(length: int, cases: list[tuple[int, int]]) -> tuple[int, list[list[int]]]:
    """(variables, clauses) of "a string of ``length`` moves, the first N, solves every
    case". Letter variables first: move t, letter d is 4t + d + 1."""
    def letter(t: int, d: int) -> int:
        return 4 * t + d + 1

    clauses: list[list[int]] = [[letter(0, 0)]]
    for t in range(length):
        clauses.append([letter(t, d) for d in range(4)])
        clauses += [[-letter(t, a), -letter(t, b)] for a in range(4) for b in range(a + 1, 4)]
    top = 4 * length
    for maze, start in cases:
        moves = maze_moves(maze)
        first = (start, _reachable(moves, start) & ~(1 << start))

        def step(state: tuple[int, int], d: int, moves: list[list[int]] = moves
                 ) -> tuple[int, int]:
            nxt = moves[state[0]][d]
            return nxt, state[1] & ~(1 << nxt)

        layers = [{first}]
        for t in range(length):
            left = length - t - 1  # moves after this one: each visits one new cell at most
            layers.append({s for q in layers[-1] for d in range(4)
                           if bin((s := step(q, d))[1]).count("1") <= left})
        alive = [set() for _ in range(length + 1)]
        alive[length] = {q for q in layers[length] if q[1] == 0}
        for t in range(length - 1, -1, -1):
            alive[t] = {q for q in layers[t] if any(step(q, d) in alive[t + 1]
                                                    for d in range(4))}
        ids: list[dict[tuple[int, int], int]] = []
        for t in range(length + 1):
            numbered = {}
            for q in sorted(alive[t]):
                top += 1
                numbered[q] = top
            ids.append(numbered)
            clauses.append(sorted(numbered.values()))  # empty: this case alone is unsolvable
        if first in ids[0]:
            clauses.append([ids[0][first]])
        for t in range(length):
            before: dict[int, list[int]] = {}
            for q, v in ids[t].items():
                for d in range(4):
                    w = ids[t + 1].get(step(q, d))
                    clauses.append([-v, -letter(t, d)] + ([w] if w else []))
                    if w:
                        before.setdefault(w, []).append(v)
            clauses += [[-w, *sorted(set(vs))] for w, vs in sorted(before.items())]
    return top, clauses


def _model(length: int, variables: int, clauses: Any) -> Model:
    """The clauses as a model whose user variables are the letters (``m1=N``...)."""
    model = Model(f"maze bound {length}")
    model.new_bools(4 * length, user=True,
                    names=[f"m{t + 1}={ch}" for t in range(length) for ch in LETTERS])
    model.new_bools(variables - 4 * length)
    model.add_clauses(clauses)
    return model


def write_certificate(directory: Path, length: int, cases: list[tuple[int, int]]) -> int:
    """Write the certificate of "no string of ``length`` moves solves ``cases`` (and their
    turns)"; returns the number of cases in it."""
    closed = rotation_closure(cases)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / JSON).write_text(json.dumps({
        "size": N, "length": length, "first_move": "N", "symmetry": "rotations",
        "claim": f"no string of {length} moves solves every 3x3 case, nor any shorter one",
        "cases": [list(c) for c in closed]}, indent=1) + "\n")
    export_file(_model(length, *encode(length, closed)), directory / CNF)
    return len(closed)


@dataclass
class CheckedBound:
    verdict: str  # verified | rejected | unknown (not refuted in the time given)
    length: int
    cases: int
    reason: str
    time_s: float

    def as_json(self) -> dict:
        return {"verdict": self.verdict, "length": self.length, "cases": self.cases,
                "reason": self.reason, "time_s": round(self.time_s, 3)}


def _refute(model: Model, deadline: float | None) -> bool | None:
    """CaDiCaL on the model (the sat back end: a child process, so the deadline holds
    although CaDiCaL ignores interrupts): satisfiable or not, None at the deadline."""
    from smtpuzzle.backends import get_backend

    left = None if deadline is None else deadline - time.perf_counter()
    if left is not None and left <= 0:
        return None  # rebuilding and comparing the formula took the time given
    status = get_backend("sat", "cadical195").solve(model, time_limit=left).status.value
    return None if status == "unknown" else status == "sat"


def check_certificate(directory: Path, time_limit: float | None = None) -> CheckedBound:
    """Re-check a certificate from scratch; see the module docstring."""
    t0 = time.perf_counter()

    def answer(verdict: str, reason: str, length: int = 0, cases: int = 0) -> CheckedBound:
        return CheckedBound(verdict, length, cases, reason, time.perf_counter() - t0)

    try:
        data = json.loads((directory / JSON).read_text())
    except (OSError, ValueError) as exc:
        raise PuzzleError(f"{directory}: not a bound certificate ({exc})") from None
    length, cases = data.get("length"), data.get("cases")
    if data.get("size") != N or data.get("first_move") != "N" or not isinstance(length, int) \
            or length < 1 or not isinstance(cases, list):
        return answer("rejected", "bound.json: size 3, first_move N, a length >= 1 and the "
                      "cases are required")
    try:
        pairs = [(int(m), int(s)) for m, s in cases]
    except (TypeError, ValueError):
        return answer("rejected", "bound.json: each case is [maze id, start]", length)
    bad = [c for c in pairs if not (0 <= c[0] < 1 << len(_edges()) and 0 <= c[1] < N * N)]
    if bad:
        return answer("rejected", f"case {list(bad[0])} is no 3x3 maze and start", length)
    if rotation_closure(pairs) != sorted(set(pairs)) or len(set(pairs)) != len(pairs):
        return answer("rejected", "the cases are not closed under the rotations (so the first "
                      "move may not be fixed to N)", length, len(pairs))
    variables, clauses = encode(length, sorted(pairs))
    try:
        given = read_cnf(directory / CNF)
    except PuzzleError as exc:
        return answer("rejected", f"bound.cnf: {exc}", length, len(pairs))
    if given.num_vars != variables or sorted(tuple(sorted(c.tolist())) for c in given.clauses) \
            != sorted(tuple(sorted(c)) for c in clauses):
        return answer("rejected", "bound.cnf is not the formula of these cases and this "
                      "length", length, len(pairs))
    found = _refute(_model(length, given.num_vars, given.clauses),
                    None if time_limit is None else t0 + time_limit)
    if found is None:
        return answer("unknown", f"CaDiCaL did not refute the formula in {time_limit:.1f} s "
                      "(the time limit)",
                      length, len(pairs))
    if found:
        return answer("rejected", "the formula is satisfiable: some string of this length "
                      "solves every case listed", length, len(pairs))
    return answer("verified", f"CaDiCaL refutes the formula: no string of {length} moves "
                  "(nor fewer) solves every 3x3 case", length, len(pairs))
