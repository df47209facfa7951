"""Lower bounds on the length of a universal move string.

For L = 1, 2, ... the decision-diagram search (mdd.py) looks for a string of L moves that
solves every case, adding the cases its candidates fail; when the diagram runs empty, the
cases added so far admit no string of L moves, so no universal string has L moves, nor
fewer (a shorter universal string, padded with any moves, would be one of L moves: a walk
that has visited every cell keeps having visited it). The largest such L is the bound.
The strings searched begin with N, and on square grids of thin walls their first E or W is
an E (search.break_symmetry, search.mirrors): any universal string turns and mirrors into
one of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from smtpuzzle.puzzles.maze.cases import Size, reduced_cases
from smtpuzzle.puzzles.maze.mdd import MAX_STATES, DiagramTooLarge, mdd_search, rule_diagram
from smtpuzzle.puzzles.maze.search import MIRROR_RULE, break_symmetry, mirrors

# (length, seconds, cases, proved): after each case a length's proof adds (proved false),
# and once the length is proven (true)
BoundProgress = Callable[[int, float, int, bool], None]


@dataclass
class Step:
    length: int
    status: str  # unsat (proven: no string of this length), sat, unknown
    cases: int  # cases the proof (or the search) used
    time_s: float


@dataclass
class BoundResult:
    size: Size
    bound: int  # no universal string has this many moves or fewer (0: nothing proven)
    cases: list[tuple[int, int]]  # (maze id, start) of the cases the last proof used
    time_s: float
    complete: bool  # a string of bound + 1 moves exists (the bound is the least length - 1)
    first_move: str  # fixed by symmetry in every proof
    mirror: bool  # every proof also held to the mirror rule (the first E or W is E)
    interrupted: bool = False
    note: str = ""  # why it stopped
    steps: list[Step] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"size": self.size, "bound": self.bound, "shortest_at_least": self.bound + 1,
                "cases": [list(c) for c in self.cases], "time_s": round(self.time_s, 3),
                "complete": self.complete, "stopped": self.note,
                "first_move": self.first_move,
                "first_e_or_w": "E" if self.mirror else "any",
                "steps": [{"length": s.length, "status": s.status, "cases": s.cases,
                           "time_s": round(s.time_s, 3)} for s in self.steps]}


def prove_bound(size: Size = 3, start: int = 1, time_limit: float | None = None,
                up_to: int | None = None, progress: BoundProgress | None = None,
                max_states: int = MAX_STATES, mirror: bool = True) -> BoundResult:
    """Raise L from ``start`` while the case diagrams prove that no string of L moves
    solves every case; stop at the time limit, on Ctrl-C, when a diagram grows past
    ``max_states`` states, when a string of L moves exists or once ``up_to`` is proved.
    With ``mirror`` (and a size search.mirrors allows), the strings searched also obey the
    mirror rule: half as many, about half the time."""
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    cases = reduced_cases(size)
    mirror = mirror and mirrors(size)
    result = BoundResult(size, 0, [], 0.0, False, break_symmetry("*", size), mirror)
    length = max(1, start)
    try:
        while True:
            began = time.perf_counter()
            try:
                # the first failing case, not a sampled choice: on free moves alone it
                # keeps the product smaller (bench/RESULTS.md, session 21)
                pattern = break_symmetry("*" * length, size)
                rule = rule_diagram(pattern, MIRROR_RULE) if mirror else None
                def added_one(n: int, _: float, length: int = length) -> None:
                    if progress:
                        progress(length, time.perf_counter() - t0, n, False)

                status, _, added, _ = mdd_search(pattern, size, deadline, added_one,
                                                 sampled=False, max_states=max_states,
                                                 start=rule)
            except DiagramTooLarge as exc:
                result.note = f"{exc} at {length} moves"
                break
            result.steps.append(Step(length, status, len(added), time.perf_counter() - began))
            if status != "unsat":
                result.complete = status == "sat"
                result.note = ("a string of this length exists" if status == "sat"
                               else "time limit")
                break
            result.bound = length
            result.cases = [(int(cases.maze[k]), int(cases.start[k])) for k in added]
            if progress:
                progress(length, time.perf_counter() - t0, len(added), True)
            if up_to is not None and length >= up_to:
                result.note = f"--up-to {up_to} reached"
                break
            length += 1
    except KeyboardInterrupt:
        result.interrupted, result.note = True, "interrupted"
    result.time_s = time.perf_counter() - t0
    return result
