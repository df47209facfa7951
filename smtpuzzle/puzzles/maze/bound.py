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
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.maze.cases import Size, reduced_cases
from smtpuzzle.puzzles.maze.mdd import (
    MAX_STATES,
    Diagram,
    DiagramTooLarge,
    mdd_search,
    rule_diagram,
)
from smtpuzzle.puzzles.maze.resume import Saves, load, save, writable
from smtpuzzle.puzzles.maze.search import MIRROR_RULE, break_symmetry, mirrors

ANY = np.zeros((1, 4), dtype=np.int64)  # the rule that every string obeys

SAVE_EVERY = 600.0  # seconds between two saves of a checkpoint (one takes seconds at 45)
# (length, seconds, cases, proved): after each case a length's proof adds (proved false),
# and once the length is proven (true)
BoundProgress = Callable[[int, float, int, bool], None]


@dataclass
class Step:
    length: int
    status: str  # unsat (proven: no string of this length), sat, unknown
    cases: int  # cases the proof (or the search) used
    time_s: float  # with the seconds of the runs a checkpoint took this length up from


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
    outgrown: bool = False  # stopped by the diagram's state cap
    resumed: dict[str, Any] | None = None  # the checkpoint taken up: file, length, cases, s
    saved: dict[str, Any] | None = None  # the search left in the checkpoint: file, length, cases

    def as_json(self) -> dict[str, Any]:
        return {"size": self.size, "bound": self.bound, "shortest_at_least": self.bound + 1,
                "cases": [list(c) for c in self.cases], "time_s": round(self.time_s, 3),
                "complete": self.complete, "stopped": self.note,
                "first_move": self.first_move,
                "first_e_or_w": "E" if self.mirror else "any",
                "steps": [{"length": s.length, "status": s.status, "cases": s.cases,
                           "time_s": round(s.time_s, 3)} for s in self.steps],
                **({"resumed": self.resumed} if self.resumed else {}),
                **({"saved": self.saved} if self.saved else {})}


def prove_bound(size: Size = 3, start: int = 1, time_limit: float | None = None,
                up_to: int | None = None, progress: BoundProgress | None = None,
                max_states: int = MAX_STATES, mirror: bool = True,
                checkpoint: Path | None = None, save_every: float = SAVE_EVERY) -> BoundResult:
    """Raise L from ``start`` while the case diagrams prove that no string of L moves
    solves every case; stop at the time limit, on Ctrl-C, when a diagram grows past
    ``max_states`` states, when a string of L moves exists or once ``up_to`` is proved.
    With ``mirror`` (and a size search.mirrors allows), the strings searched also obey the
    mirror rule: half as many, about half the time.

    With ``checkpoint``, a search saved there is taken up where it stopped (at its length;
    ``start`` may not be past it). The search in progress is saved there as each length
    begins, every ``save_every`` seconds and when the run stops short of a proof; the file
    is removed when the run ends with nothing left to search (its last length proved, or a
    string found). A save that fails is noted in the result; the search goes on."""
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    cases = reduced_cases(size)
    mirror = mirror and mirrors(size)
    result = BoundResult(size, 0, [], 0.0, False, break_symmetry("*", size), mirror)
    saved = None
    if checkpoint is not None:
        writable(checkpoint)
    if checkpoint is not None and checkpoint.exists():
        saved = load(checkpoint, size, mirror)
        if start > saved.length:
            raise PuzzleError(f"holds a search at {saved.length} moves; --start {start} is "
                              "past it (remove the file to start afresh)", where=str(checkpoint))
        result.resumed = {"file": str(checkpoint), "length": saved.length,
                          "cases": len(saved.added), "seconds": saved.seconds}
    length = saved.length if saved else max(1, start)
    # the search in progress: its length, diagram and cases, seconds before this run, and
    # when this run began it
    live: dict[str, Any] = {}
    last_save = [time.perf_counter()]
    saves = Saves()

    def save_live() -> bool:
        assert checkpoint is not None
        done = saves.run(lambda: save(checkpoint, size, live["length"], mirror, live["added"],
                                      live["diagram"],
                                      live["before"] + time.perf_counter() - live["began"]))
        last_save[0] = time.perf_counter()
        return done

    def keep(diagram: Diagram, added: list[int]) -> None:
        live.update(diagram=diagram, added=added)
        if checkpoint is not None and time.perf_counter() - last_save[0] >= save_every:
            save_live()

    try:
        while True:
            began = time.perf_counter()
            pattern = break_symmetry("*" * length, size)
            if saved is not None and saved.length == length:
                live.update(diagram=saved.diagram, added=list(saved.added), before=saved.seconds,
                            length=length, began=began)
                saved = None  # held nowhere else: the search frees it for the next diagram
            else:
                live.update(diagram=rule_diagram(pattern, MIRROR_RULE if mirror else ANY),
                            added=[], before=0.0, length=length, began=began)
                if checkpoint is not None:  # a proved length is never searched again
                    save_live()
            added = list(live["added"])
            try:
                # the first failing case, not a sampled choice: on free moves alone it
                # keeps the product smaller (bench/RESULTS.md, session 21)
                def added_one(n: int, _: float, length: int = length) -> None:
                    if progress:
                        progress(length, time.perf_counter() - t0, n, False)

                status, _, added, _ = mdd_search(pattern, size, deadline, added_one,
                                                 sampled=False, max_states=max_states,
                                                 start=live["diagram"], added=added,
                                                 kept=keep)
            except DiagramTooLarge as exc:
                result.note = f"{exc} at {length} moves"
                result.outgrown = True
                break
            result.steps.append(Step(length, status, len(added),
                                     live["before"] + time.perf_counter() - began))
            if status != "unsat":
                result.complete = status == "sat"
                result.note = ("a string of this length exists" if status == "sat"
                               else "time limit")
                break
            result.bound = length
            result.cases = [(int(cases.maze[k]), int(cases.start[k])) for k in added]
            live.clear()
            if progress:
                progress(length, time.perf_counter() - t0, len(added), True)
            if up_to is not None and length >= up_to:
                result.note = f"--up-to {up_to} reached"
                break
            length += 1
    except KeyboardInterrupt:
        result.interrupted, result.note = True, "interrupted"
    if checkpoint is not None:
        if live and not result.complete:
            if save_live():
                result.saved = {"file": str(checkpoint), "length": live["length"],
                                "cases": len(live["added"])}
        else:
            checkpoint.unlink(missing_ok=True)
        result.note = saves.note(result.note)
    result.time_s = time.perf_counter() - t0
    return result
