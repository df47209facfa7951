"""Lower bounds on the length of a universal move string.

For L = 1, 2, ... the decision-diagram search (mdd.py) looks for a string of L moves that
solves every case, adding the cases its candidates fail; when the diagram runs empty, the
cases added so far admit no string of L moves, so no universal string has L moves, nor
fewer (a shorter universal string, padded with any moves, would be one of L moves: a walk
that has visited every cell keeps having visited it). The largest such L is the bound.
On square grids the strings searched begin with N, and on thin walls their first E or W
is an E, and a rectangle's first N or S is an N (rules.break_symmetry, rules.mirrors):
any universal string turns, mirrors or flips into one of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smtpuzzle.errors import ProcessDied, PuzzleError
from smtpuzzle.puzzles.maze.bound.resume import (
    Cube,
    Saves,
    cases_of,
    cases_only,
    covers,
    load,
    load_cube,
    save,
)
from smtpuzzle.puzzles.maze.cases import (
    Size,
    free_layers,
    listing_too_slow,
    parse_size,
    reduced_cases,
)
from smtpuzzle.puzzles.maze.mdd import (
    MAX_STATES,
    Diagram,
    DiagramTooLarge,
    PastDeadline,
    cube_parts,
    mdd_search,
    rule_diagram,
    samples,
)
from smtpuzzle.puzzles.maze.rules import break_symmetry, mirrors, strings_rule
from smtpuzzle.puzzles.maze.verify import verify_string
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.checks import checked_time_limit, checked_whole, plural
from smtpuzzle.runtime.files import writable
from smtpuzzle.runtime.taskpool import TaskTimeout, task_pool

PICKS = ("auto", "first", "sampled")  # how the case a candidate fails is chosen

SAVE_EVERY = 600.0  # seconds between two saves of a checkpoint (one takes seconds at 45)
# workers: how long past the deadline to wait for the cubes they stop at it on their own
# (a product checks the deadline between its layers), and how long for those asked to stop
DEADLINE_GRACE_S = 60.0
STOP_GRACE_S = 10.0
# (length, seconds, cases, proved): after each case a length's proof adds (proved false),
# and once the length is proven (true)
BoundProgress = Callable[[int, float, int, bool], None]
# (length, its proof's cases as (maze id, start)): seconds to keep back from the search
Reserve = Callable[[int, list[tuple[int, int]]], float]


@dataclass
class Step:
    length: int
    status: Status  # unsat (proven: no string of this length), sat, unknown
    cases: int  # cases the proof (or the search) used
    time_s: float  # with the seconds of the runs a checkpoint took this length up from
    cubes: int = 1  # the parts the search was split into (split_depth), proved or not

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    def as_json(self) -> dict[str, Any]:
        return {"length": self.length, "status": self.status.value, "cases": self.cases,
                "time_s": round(self.time_s, 3),
                **({"cubes": self.cubes} if self.cubes > 1 else {})}


_NO_JSON = {"json": False}


@dataclass
class BoundResult(Answer):
    """A lower bound on the length of a universal string, proved length by length: status
    sat once a string of bound + 1 moves is found (the bound is then the least length - 1),
    else unknown (the bound holds; longer lengths are not decided)."""

    size: Size
    bound: int  # no universal string has this many moves or fewer (0: nothing proven)
    cases: list[tuple[int, int]]  # (maze id, start) of the cases the last proof used
    time_s: float
    complete: bool  # a string of bound + 1 moves exists (the bound is the least length - 1)
    first_move: str  # fixed by symmetry in every proof
    # every proof also held to the mirror rule (the first E or W is E)
    mirror: bool = field(metadata=_NO_JSON)
    interrupted: bool = field(default=False, metadata=_NO_JSON)
    note: str = field(default="", metadata={"key": "stopped"})  # why it stopped
    steps: list[Step] = field(default_factory=list)
    # stopped by the diagram's state cap, or with cubes set aside by it
    outgrown: bool = field(default=False, metadata=_NO_JSON)
    # the checkpoint taken up (file, length, cases, s), and the search left in it (file,
    # length, cases)
    resumed: dict[str, Any] | None = field(default=None, metadata={"omit": None})
    saved: dict[str, Any] | None = field(default=None, metadata={"omit": None})
    # with complete: a string of bound + 1 moves, verified
    string: str | None = field(default=None, metadata={"omit": None})
    pick: str = "first"  # the failing case added: the first, or the sampled one
    # the length left undecided, split: its cubes proved and those left (with or without a
    # checkpoint, so that a long split run says how far it came)
    undecided: dict[str, int] | None = field(default=None, metadata={"omit": None})
    status: Status = field(default=Status.UNKNOWN, metadata=_NO_JSON)
    stats: Stats | None = field(default=None, metadata=_NO_JSON)
    json_keys = ("size", "bound", "shortest_at_least", "cases", "time_s", "complete",
                 "stopped", "first_move", "first_n_or_s", "first_e_or_w", "pick", "string",
                 "verified", "steps", "resumed", "saved", "undecided")

    def __post_init__(self) -> None:
        self.status = Status.SAT if self.complete else Status.UNKNOWN

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "complete":  # the status follows what the proof found
            super().__setattr__("status", Status.SAT if value else Status.UNKNOWN)

    def json_extra(self) -> dict[str, Any]:
        return {"shortest_at_least": self.bound + 1,
                "first_n_or_s": "N" if self.mirror or self.first_move == "N" else "any",
                "first_e_or_w": "E" if self.mirror else "any",
                **({"verified": True} if self.string else {})}

    def write_certificate(self, directory: str | Path, time_limit: float | None = None
                          ) -> int:
        """Write the certificate of the last proof to ``directory`` (certificate.py: its
        cases closed under the symmetry, and the CNF that ``check_maze_bound`` refutes);
        returns the number of cases in it. Past ``time_limit`` seconds it raises
        TimeoutError and writes nothing (an older certificate there stays whole)."""
        from smtpuzzle.backends.rup import OutOfTime
        from smtpuzzle.puzzles.maze.bound.certificate import write_certificate

        time_limit = checked_time_limit(time_limit)
        if not self.bound:
            raise PuzzleError("no bound was proved, so there is no certificate to write")
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        try:
            return write_certificate(Path(directory), self.bound, self.cases, self.mirror,
                                     deadline, self.size)
        except OutOfTime as exc:
            raise TimeoutError(f"the certificate was not written within {time_limit} s"
                               ) from exc


def prove_bound(size: Size = 3, start: int = 1, time_limit: float | None = None,
                up_to: int | None = None, progress: BoundProgress | None = None,
                max_states: int = MAX_STATES, mirror: bool = True,
                checkpoint: str | Path | None = None, save_every: float = SAVE_EVERY,
                split_depth: int = 0, pick: str = "auto",
                reserve: Reserve | None = None, workers: int = 1) -> BoundResult:
    """Raise L from ``start`` while the case diagrams prove that no string of L moves
    solves every case; stop at the time limit, on Ctrl-C, when a diagram grows past
    ``max_states`` states, when a string of L moves exists or once ``up_to`` is proved.
    With ``mirror`` (and a size rules.mirrors allows), the strings searched also obey the
    mirror rule: half as many, about half the time. ``pick`` chooses the case a candidate
    string fails that is added next: ``first`` (the first in the case list), ``sampled``
    (the one that cuts most from strings drawn at random) or ``auto`` (mdd.samples).

    With ``split_depth`` D > 0, a diagram that outgrows ``max_states`` is split instead of
    stopping the search: its strings are parted by their first free move not yet fixed
    (cubes: the pattern with that move fixed to each letter), and each cube is searched on
    from its part of the diagram, up to D moves deep. The length is proved when every cube
    is; its proof is the union of the cubes' cases. A cube that outgrows the cap D moves
    deep is set aside (last in the checkpoint, with its cases so far) while the other
    cubes are searched on: the search then stops there, outgrown, having proved what it
    could for the run that takes it up with a larger D or cap. A cube's diagram is a part of its
    parent's, so the split trades time (each cube needs nearly as many cases as the whole,
    bench/RESULTS.md) for memory.

    With ``checkpoint``, a search saved there is taken up where it stopped (at its length;
    ``start`` may not be past it). The search in progress is saved there as each length
    begins, every ``save_every`` seconds, as a diagram is split, and when the run stops
    short of a proof (stopped as a length was proved, before the next began: that length,
    no cube left, so the run taking it up goes on at the next); the file is removed when
    the run ends with nothing left to search (its last length proved, or a string found).
    A save that fails is noted in the result; the search goes on. A ``.json`` checkpoint
    keeps the cases alone (resume.cases_only): the cubes waiting their turn stay in memory,
    and a run taking it up builds each cube's diagram again from its cases in its turn
    (within the same ``max_states``).

    ``reserve(length, cases)``: seconds kept back from the time limit for what the caller
    does with the last proof after (maze bound writes its certificate): once a length is
    proved, the next is searched only until the limit less ``reserve(next length, the
    cases just proved with)``.

    ``workers`` > 1 (with ``split_depth``): once a length's search is split, its cubes are
    searched by that many processes at once (_cubes_in_parallel), each cube's diagram
    sent to the process searching it; a ``checkpoint`` must then be a ``.json`` file."""
    t0 = time.perf_counter()
    time_limit, size = checked_time_limit(time_limit), parse_size(size)
    start, max_states = checked_whole(start, "start", 1), checked_whole(max_states, "max_states", 1)
    split_depth, workers = checked_whole(split_depth, "split_depth"), \
        checked_whole(workers, "workers", 1)
    up_to = None if up_to is None else checked_whole(up_to, "up_to", 1)
    if up_to is not None and up_to < start:
        raise ValueError(f"up_to {up_to} is below start {start}: nothing to prove")
    checkpoint = None if checkpoint is None else Path(checkpoint)
    deadline = None if time_limit is None else t0 + time_limit
    kept_back = 0.0  # seconds of the limit reserve() keeps for the last proof
    mirror = mirror and mirrors(size)
    if pick not in PICKS:
        raise PuzzleError(f"`pick` is {', '.join(PICKS)}, not {pick!r}")
    sampled = pick == "sampled" or (pick == "auto" and samples(size))
    if workers > 1 and not split_depth:
        raise PuzzleError("`workers` shares a length's cubes among processes, and only "
                          "`split_depth` makes cubes: give it too")
    if workers > 1 and checkpoint is not None and not cases_only(checkpoint):
        raise PuzzleError("with `workers`, each cube's diagram is in the process searching "
                          "it, so the checkpoint keeps the cases alone: name it .json",
                          where=str(checkpoint))
    result = BoundResult(size, 0, [], 0.0, False, break_symmetry("*", size), mirror,
                         pick="sampled" if sampled else "first")
    if why := listing_too_slow(size, time_limit):
        result.note = why
        return result
    cases = reduced_cases(size)
    saved = None
    if checkpoint is not None:
        writable(checkpoint)
    if checkpoint is not None and checkpoint.exists():
        saved = load(checkpoint, size, mirror)
        if start > saved.length:
            raise PuzzleError(f"holds a search at {saved.length} moves; `start={start}` is "
                              "past it (remove the file to start afresh)", where=str(checkpoint))
        if up_to is not None and up_to < saved.length:
            raise PuzzleError(f"holds a search at {saved.length} moves; `up_to={up_to}` is "
                              "below it", where=str(checkpoint))
        result.resumed = {"file": str(checkpoint), "length": saved.length,
                          "cases": len(cases_of(saved.cubes, saved.proved)),
                          "seconds": saved.seconds,
                          **({"cubes": len(saved.cubes) + len(saved.proved)}
                             if saved.proved or len(saved.cubes) > 1 else {})}
    length = saved.length if saved else max(1, start)
    # the search in progress: its length, the cubes still to search (the first in progress,
    # its diagram the latest), the cubes proved, seconds before this run and when this run
    # began it
    live: dict[str, Any] = {}
    last_save = [time.perf_counter()]
    saves = Saves()

    def save_live() -> bool:
        assert checkpoint is not None
        done = saves.run(lambda: save(checkpoint, size, live["length"], mirror, live["cubes"],
                                      live["proved"],
                                      live["before"] + time.perf_counter() - live["began"]))
        last_save[0] = time.perf_counter()
        if done and not cases_only(checkpoint):
            for cube in live["cubes"][1:]:  # the cubes waiting their turn wait in the file
                cube.diagram = None
        return done

    def save_due() -> None:
        if checkpoint is not None and time.perf_counter() - last_save[0] >= save_every:
            save_live()

    def heard() -> None:
        if progress:
            progress(live["length"], time.perf_counter() - t0,
                     len(cases_of(live["cubes"], live["proved"])), False)

    outgrew: list[str] = []  # why, for each cube of the length set aside (last in its cubes)
    try:
        while True:
            began = time.perf_counter()
            pattern = break_symmetry("*" * length, size)
            if saved is not None and saved.length == length:
                live.update(cubes=saved.cubes, proved=saved.proved, before=saved.seconds,
                            length=length, began=began)
                saved = None  # held nowhere else: the search frees it for the next diagram
            else:
                first = rule_diagram(pattern, strings_rule(size, mirror))
                assert first is not None  # every rule leaves strings of every length
                live.update(cubes=[Cube(pattern, [], first)], proved={}, before=0.0,
                            length=length, began=began)
                del first
                if checkpoint is not None:  # a proved length is never searched again
                    save_live()
            status, late, why = "unsat", "", ""
            job = _CubeJob(size, length, mirror, sampled, max_states, split_depth, checkpoint)
            outgrew.clear()
            while len(live["cubes"]) > len(outgrew) and status == "unsat":
                search_deadline = None if deadline is None else deadline - kept_back
                if workers > 1 and len(live["cubes"]) > len(outgrew) + 1:
                    status, string, why = _cubes_in_parallel(
                        live, job, workers, search_deadline,
                        lambda: checkpoint is not None and save_live(), save_due, heard,
                        outgrew)
                    break
                done = set(cases_of([], live["proved"]))

                def added_one(added: list[int], length: int = length,
                              done: set[int] = done) -> None:
                    if progress:
                        progress(length, time.perf_counter() - t0, len(done.union(added)),
                                 False)

                answer = _cube_answer(job, live["cubes"][0], search_deadline, added_one,
                                      save_due)
                kind = answer[0]
                if kind == "unsat":
                    live["proved"][answer[1]] = answer[2]
                    live["cubes"].pop(0)
                elif kind == "split":
                    live["proved"].update(answer[3])
                    live["cubes"][:1] = answer[2]
                    if checkpoint is not None:
                        save_live()
                elif kind == "outgrown":  # set aside, last in the checkpoint
                    outgrew.append(answer[3])
                    cube = live["cubes"][0]
                    live["cubes"].append(cube)  # then out of first place: never missing
                    live["cubes"].pop(0)
                    if checkpoint is not None and not cases_only(checkpoint):
                        save_live()  # its diagram to the file, and out of memory
                    else:
                        cube.diagram = None  # never searched again in this run
                else:
                    status = kind
                    if kind == "sat":
                        string = answer[2]
                    elif kind == "unknown":
                        late = answer[3]
                    else:  # capped: rebuilt past the cap, so every cube may be
                        why = answer[3]
            if status == "capped":
                result.note, result.outgrown = why, True
                break
            if outgrew and status != "sat":
                result.outgrown = True
                if status == "unsat":
                    result.note = _set_aside(outgrew)
                    break
            proof = cases_of([], live["proved"])
            result.steps.append(Step(length, status, len(proof) if status == "unsat" else
                                     len(cases_of(live["cubes"], live["proved"])),
                                     live["before"] + time.perf_counter() - began,
                                     len(live["proved"]) + len(live["cubes"])))
            if status != "unsat":
                result.complete = status == "sat"
                if status == "sat":
                    assert string is not None
                    verify_string(string, size)
                    result.string = string
                result.note = ("a string of this length exists" if status == "sat"
                               else why or "time limit" + late + (
                                   f" ({kept_back:.1f} s of it kept to write the "
                                   "certificate)" if kept_back else ""))
                if outgrew and status != "sat":
                    result.note += "; " + _set_aside(outgrew)
                break
            assert covers(list(live["proved"]), pattern)  # every string refuted, by a cube
            result.bound = length
            result.cases = [(int(cases.maze[k]), int(cases.start[k])) for k in proof]
            if reserve is not None and deadline is not None:
                # the next length's proof, if it comes, is what will be written: reckoned
                # at that length from this one's cases (each length adds a few)
                kept_back = reserve(length + 1, result.cases)
            # live keeps the length proved (no cubes left) until the next one begins: a run
            # stopped before then saves it, and the run taking that up goes on from there
            if progress:
                progress(length, time.perf_counter() - t0, len(proof), True)
            if up_to is not None and length >= up_to:
                result.note = f"`up_to={up_to}` reached"
                live.clear()
                break
            length += 1
    except KeyboardInterrupt:
        result.interrupted, result.note = True, "interrupted"
        if outgrew:
            result.note += "; " + _set_aside(outgrew)
            result.outgrown = True
    except Exception:  # a MemoryError, or a bug: what was proved is kept for the next run
        if checkpoint is not None and live:
            save_live()
        raise
    split = bool(live) and (bool(live["proved"]) or len(live["cubes"]) > 1)
    # live["cubes"] empty: the length was proved as the run stopped (not yet cleared)
    if split and live["cubes"] and not result.complete:
        result.undecided = {"length": live["length"], "cubes_proved": len(live["proved"]),
                            "cubes_left": len(live["cubes"])}
    if checkpoint is not None:
        if live and not result.complete:
            if save_live():
                result.saved = {"file": str(checkpoint), "length": live["length"],
                                "cases": len(cases_of(live["cubes"], live["proved"])),
                                **({"cubes_left": len(live["cubes"])} if split else {})}
        else:
            checkpoint.unlink(missing_ok=True)
        result.note = saves.note(result.note)
    result.time_s = time.perf_counter() - t0
    return result


def _depth(cube: str, pattern: str) -> int:
    """How many of ``pattern``'s free moves ``cube`` fixes."""
    return sum(c != p for c, p in zip(cube, pattern, strict=True))


def _split(cube: Cube, free: int, layer: int, proved: dict[str, list[int]]) -> list[Cube]:
    """``cube`` parted by its move at ``free`` (the diagram's ``layer``): a cube a letter
    with the strings that have it. A letter with none is proved at once, by the cube's
    cases."""
    assert cube.diagram is not None
    parts = []
    for pattern, part in cube_parts(cube.pattern, free, layer, [cube.diagram]):
        if part[0] is None:
            proved[pattern] = list(cube.added)
        else:
            parts.append(Cube(pattern, list(cube.added), part.pop()))
    return parts


def _set_aside(outgrew: list[str]) -> str:
    """Why a search stopped with cubes set aside, the first named."""
    more = len(outgrew) - 1
    return outgrew[0] + (f" (and {plural(more, 'cube')} more set aside)" if more else "")


def _building(cube: Cube) -> str:
    return f"cube {cube.pattern}'s diagram was built again from its {len(cube.added)} cases"


def _rebuilt_too_large(exc: DiagramTooLarge, cube: Cube, length: int) -> str:
    """Why a search stopped where a cube's diagram outgrew the cap as it was built again."""
    return (f"{exc} as {_building(cube)}, at {length} moves: take the search up with the "
            "`max_states` it was saved under")


@dataclass
class _CubeJob:
    """What every worker searching a length's cubes shares (inherited as it is forked)."""

    size: Size
    length: int
    mirror: bool
    sampled: bool
    max_states: int
    split_depth: int
    checkpoint: Path | None  # .json: a cube sent without its diagram is built from its cases


def _search_cube(job: _CubeJob, cube: Cube, deadline: float | None) -> tuple[Any, ...]:
    """One cube, in a worker: _cube_answer's answer, or ("unknown", cube, its cases so far,
    "") when the pool asks it to stop. The deadline is a time.perf_counter() value, as the
    search keeps time (a local pool hands it on as given)."""
    try:
        return _cube_answer(job, cube, deadline)
    except KeyboardInterrupt:  # the pool asked: the cases so far are saved
        return "unknown", cube.pattern, cube.added, ""


def _cube_answer(job: _CubeJob, cube: Cube, deadline: float | None,
                 progress: Callable[[list[int]], None] | None = None,
                 save_due: Callable[[], None] | None = None) -> tuple[Any, ...]:
    """One cube searched from its diagram (built from its cases first if it has none):
    ("unsat", cube, its cases), ("sat", cube, a string), ("unknown", cube, its cases so far,
    why: "" or what was being built) at the deadline, ("split", cube, its parts with their
    diagrams, the parts proved at once with their cases) when its diagram outgrew the cap,
    ("outgrown", cube, its cases, why) where it may not be split deeper, or ("capped", cube,
    its cases, why) when its diagram, built again, outgrew the cap (the wrong cap for the
    checkpoint, so the search stops). Throughout,
    ``cube`` holds the search's latest diagram and its cases (what a checkpoint saves):
    ``progress`` hears of each case added (the cases so far), then ``save_due`` is asked
    to save if due."""
    pattern = break_symmetry("*" * job.length, job.size)
    if cube.diagram is None:
        assert job.checkpoint is not None
        try:
            cube.diagram = load_cube(job.checkpoint, job.size, job.length, job.mirror, cube,
                                     deadline, job.max_states)
        except PastDeadline:
            return "unknown", cube.pattern, cube.added, f" while {_building(cube)}"
        except DiagramTooLarge as exc:
            return "capped", cube.pattern, cube.added, _rebuilt_too_large(exc, cube,
                                                                          job.length)
        if cube.diagram is None:  # built from its cases: they rule it out
            return "unsat", cube.pattern, cube.added

    def kept(diagram: Diagram, added: list[int]) -> None:
        cube.diagram, cube.added = diagram, added
        if save_due:
            save_due()

    added = list(cube.added)  # the search appends to it
    outgrown = ""
    try:
        # the cube, not this frame, holds the diagram: kept() lets the first one go
        status, string, _, _ = mdd_search(
            pattern, job.size, deadline, progress and (lambda *_: progress(added)),
            sampled=job.sampled, max_states=job.max_states, start=cube.diagram, added=added,
            kept=kept)
    except DiagramTooLarge as exc:
        outgrown = str(exc)
    if not outgrown:  # the last case added, the one that empties the diagram, is in added alone
        if status == "sat":
            return status, cube.pattern, string
        return (status, cube.pattern, added) if status == "unsat" else \
            (status, cube.pattern, added, "")
    # out of the except block: the outgrown product is gone, and the cube holds the diagram
    # before it
    free, depth = cube.pattern.find("*"), _depth(cube.pattern, pattern)
    if free < 0 or job.split_depth <= depth:
        # which cube, and how deep, so that the user knows what to raise
        named = cube.pattern.rstrip("*") + ("*" if free >= 0 else "")
        where = f", in cube {named} split {plural(depth, 'move')} deep, as deep as " \
            f"`split_depth={job.split_depth}` allows" if job.split_depth else \
            " (`split_depth` splits it)"
        return "outgrown", cube.pattern, cube.added, f"{outgrown} at {job.length} moves{where}"
    proved: dict[str, list[int]] = {}
    parts = _split(cube, free, free_layers(pattern)[free], proved)
    cube.diagram = None  # its parts hold it now
    return "split", cube.pattern, parts, proved


def _cubes_in_parallel(live: dict[str, Any], job: _CubeJob, workers: int,
                       deadline: float | None, save: Callable[[], Any],
                       save_due: Callable[[], None], heard: Callable[[], None],
                       outgrew: list[str]) -> tuple[str, str | None, str]:
    """The cubes of ``live["cubes"]`` searched by ``workers`` processes, a cube each, in
    their order; the parts of a cube split are searched before the cubes after it (depth
    first, as one process does: the cubes waiting hold their diagrams here). Throughout,
    ``live["cubes"]`` holds every cube not yet decided (those being searched, with the
    cases they were sent with, then those waiting) and ``live["proved"]`` the cubes proved,
    so that ``save()`` (after a split) and ``save_due()`` (every SAVE_EVERY) write a true
    checkpoint; a cube stopped (at the deadline, on Ctrl-C) comes back with its cases so
    far. A cube that outgrows the cap where it may not be split deeper is set aside, as
    the serial loop does: last in ``live["cubes"]``, why appended to ``outgrew`` (empty
    on entry: the serial loop hands over before it sets any cube aside). (status, string,
    why): ``unsat`` once every cube not set aside is, ``sat`` with a worker's string (the
    caller verifies it), ``unknown`` at the deadline or when a worker dies (why: that),
    or ``capped`` (why: the cap) when a cube's diagram built again outgrew the cap."""
    assert not outgrew
    waiting: list[Cube] = list(live["cubes"])
    aside: list[Cube] = []
    running: dict[str, Cube] = {}  # being searched: each with the cases it was sent with
    state = {"status": "unsat", "string": None, "why": ""}
    rank = {"unsat": 0, "unknown": 1, "capped": 2, "sat": 3}

    def take(answer: tuple[Any, ...]) -> None:
        # each cube is put where it goes before it leaves where it was: a Ctrl-C between
        # leaves it in both (searched again), never in neither
        kind, pattern = answer[:2]
        if kind == "unsat":
            live["proved"][pattern] = answer[2]
        elif kind == "split":
            live["proved"].update(answer[3])
            waiting[:0] = answer[2]
        elif kind == "outgrown":
            aside.append(Cube(pattern, answer[2], None))
            outgrew.append(answer[3])
        elif kind != "sat":  # unknown, capped: its cases so far wait in the checkpoint
            waiting.insert(0, Cube(pattern, answer[2], None))
        if rank.get(kind, 0) > rank[state["status"]]:
            state.update(status=kind, why=answer[3] if kind == "capped" else "")
            if kind == "sat":
                state["string"] = answer[2]
        running.pop(pattern)
        undecided()

    def undecided() -> None:
        live["cubes"] = list({c.pattern: c for c in [*running.values(), *waiting,
                                                      *aside]}.values())

    def past(grace: float) -> bool:
        return deadline is not None and time.perf_counter() > deadline + grace

    with task_pool(_search_cube, job, workers) as tasks:
        try:
            while True:
                while state["status"] == "unsat" and waiting and len(running) < workers \
                        and not past(0.0):
                    cube = waiting[0]
                    running[cube.pattern] = Cube(cube.pattern, list(cube.added), None)
                    waiting.pop(0)
                    undecided()
                    tasks.submit(cube, deadline)
                    del cube  # sent: the worker holds its diagram now
                if not running:
                    if waiting and state["status"] == "unsat":
                        state["status"] = "unknown"  # the deadline passed
                    break
                if state["status"] != "unsat" or past(DEADLINE_GRACE_S):
                    for answer in tasks.stop(STOP_GRACE_S):
                        take(answer)
                    state["status"] = max(state["status"], "unknown", key=rank.__getitem__)
                    break
                try:
                    answer = tasks.next(timeout=1.0)
                except TaskTimeout:
                    save_due()
                    continue
                take(answer)
                heard()
                if answer[0] == "split":
                    save()
                else:
                    save_due()
        except KeyboardInterrupt:
            for answer in tasks.stop(STOP_GRACE_S):
                take(answer)
            raise
        except ProcessDied as exc:  # its cube waits with the cases it was sent with
            for answer in tasks.stop(STOP_GRACE_S):
                take(answer)
            state.update(status="unknown", why=str(exc))
    return state["status"], state["string"], state["why"]
