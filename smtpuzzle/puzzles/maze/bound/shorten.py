"""Shorter universal strings from a long one: each window rewritten in one move fewer.

A universal string that was built greedily (greedy.py) has slack everywhere. Walking a
window of ``width`` letters along it, the window is replaced by ``width - 1`` free moves and
the decision diagrams (mdd.py) either complete the pattern to a string that still solves
every case, one move shorter, or prove that no such string exists. The walk goes on from
the same place after a success and wraps round, so a width ends when a whole round of its
windows has been refuted (the string is then minimal among its rewrites of ``width``
letters); then the next, wider width is walked, until the widths or the time run out.
Widening as the string tightens finds more: 2x4's greedy 70 moves went to 64 at 14 letters,
stayed at 18 and went to 56 at 22. A window whose search outgrows its state cap or its
own time is passed over, not refuted, and so is, unsearched, every window that the letters
before it leave more than ``max_cases`` cases unsolved (4x4's first windows leave tens of
millions, whose diagrams no window limit could finish). Those windows are the first ones, a
run of them: a walk that has visited every cell stays done, so the unsolved cases only fall
along the string. Since no window in the run is ever rewritten, the letters before the first
searched window never change, and the walks are taken there once for the whole run.

The same search that decides the windows of the known 3x3 string here shortens strings
where nothing shorter is known: 2x5, 3x4 and 4x4 (bench/RESULTS.md).

Only cases that the letters before the window leave unsolved can fail the rewritten
string (a walk that has visited every cell keeps having visited it), so each window is
searched on those alone, each as a case of its own that starts where the letters before
the window leave its walk: the pattern is the window and what follows it. Walks that stand
alike there are one case.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.maze.cases import (
    LETTERS,
    Cases,
    Size,
    failing,
    listing_too_slow,
    parse_size,
    parse_string,
    reduced_cases,
    step,
)
from smtpuzzle.puzzles.maze.mdd import DiagramTooLarge, mdd_search
from smtpuzzle.puzzles.maze.verify import verify_string
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.checks import checked_time_limit, checked_whole

WIDTHS = (12, 16, 20, 24, 28, 32)  # window widths, each taken once the one before is done
WINDOW_LIMIT = 20.0  # seconds one window's search may take before it is passed over
WINDOW_STATES = 5_000_000  # the state cap of one window's diagrams
WINDOW_CASES = 1_000_000  # more unsolved cases than this: the window is passed over unsearched

# (length now, width, windows tried, windows since the last shortening, cases that the
# letters before the next window leave unsolved)
ShortenProgress = Callable[[int, int, int, int, int], None]


@dataclass
class ShortenResult(Answer):
    """A universal string shortened window by window: always a verified string (status
    sat), the input itself at worst."""

    size: Size
    string: str  # verified on every case: the input, or shorter
    given: int = field(metadata={"key": "given_moves"})  # the input's length
    widths: list[int]  # the widths searched, in order
    windows: int = 0  # windows searched
    shortened: int = 0  # windows rewritten in one move fewer
    # windows given up (state cap, their own time, too many cases)
    passed: int = field(default=0, metadata={"key": "passed_over"})
    # the widest width whose every window was refuted (0: none)
    minimal_at: int = field(default=0, metadata={"key": "minimal_at_width"})
    time_s: float = 0.0
    note: str = field(default="", metadata={"key": "stopped"})
    interrupted: bool = field(default=False, metadata={"omit": False})
    status: Status = Status.SAT
    stats: Stats | None = field(default=None, metadata={"json": False})
    json_keys = ("size", "string", "moves", "given_moves", "verified")

    def json_extra(self) -> dict[str, Any]:
        return {"moves": len(self.string), "verified": True}


def shorten(string: str, size: Size = 3, widths: tuple[int, ...] = WIDTHS,
            time_limit: float | None = None, window_limit: float | None = WINDOW_LIMIT,
            max_states: int = WINDOW_STATES, max_cases: int = WINDOW_CASES,
            progress: ShortenProgress | None = None) -> ShortenResult:
    """Rewrite windows of the universal ``string`` in one move fewer while any can be, a
    width at a time (the next once every window of the one before is refuted or passed
    over), or until ``time_limit``; see the module docstring. The string returned is
    verified on every case. A string that is not universal is refused."""
    t0 = time.perf_counter()
    string, size = parse_string(string), parse_size(size)
    time_limit = checked_time_limit(time_limit)
    window_limit = checked_time_limit(window_limit)
    max_states = checked_whole(max_states, "max_states", 1)
    max_cases = checked_whole(max_cases, "max_cases", 1)
    deadline = None if time_limit is None else t0 + time_limit
    widths = tuple(widths)
    if not widths or any(not isinstance(w, int) or isinstance(w, bool) or w < 2
                         for w in widths):
        raise PuzzleError(f"a window rewrites at least 2 letters in one fewer: widths "
                          f"{', '.join(map(str, widths)) or '(none)'}")
    result = ShortenResult(size, string, len(string), [])
    if why := listing_too_slow(size, time_limit):
        result.note = why
        return result
    cases = reduced_cases(size)
    began = time.perf_counter()
    if len(failing(cases, string, limit=1)):
        unsolved = len(failing(cases, string))
        raise PuzzleError(f"the string does not solve every case ({unsolved:,} of "
                          f"{len(cases):,} unsolved): there is nothing to shorten")
    if deadline is not None:  # the last string is verified after the search: keep its time
        deadline -= 2 * (time.perf_counter() - began)
    result.note = "every width tried"
    try:
        first = _first_searched(cases, string, max_cases, deadline, lambda unsolved: progress(
            len(string), widths[0], 0, 0, unsolved) if progress else None)
        if first is None:
            result.note = "time limit"
        for width in widths if first is not None else ():
            if result.minimal_at == len(result.string):
                break  # the whole string was one window: a wider one is the same
            width = min(width, len(result.string))
            result.widths.append(width)
            if not _round(size, width, first, deadline, window_limit, max_states,
                          progress, result):
                result.note = "time limit"
                break
    except KeyboardInterrupt:  # result.string is the shortest so far
        result.interrupted, result.note = True, "interrupted"
    verify_string(result.string, size)
    result.time_s = time.perf_counter() - t0
    return result


def _first_searched(cases: Cases, string: str, max_cases: int, deadline: float | None,
                    progress: Callable[[int], None] = lambda unsolved: None) -> _Walks | None:
    """The walks where the first window to be searched begins: the first place along
    ``string`` that leaves at most ``max_cases`` cases unsolved (None: the deadline came
    first)."""
    walks = _Walks(cases)
    while len(walks.idx) > max_cases and walks.at < len(string):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        progress(len(walks.idx))
        walks.step(string[walks.at])
    return walks


def _round(size: Size, width: int, first: _Walks, deadline: float | None,
           window_limit: float | None, max_states: int, progress: ShortenProgress | None,
           result: ShortenResult) -> bool:
    """Walk windows of ``width`` along ``result.string``, rewriting what can be (each
    rewrite kept in ``result.string`` at once, so that Ctrl-C loses none), until a whole
    round has none (true) or the deadline passes (false). The windows before ``first``
    are passed over unsearched."""
    string = result.string
    # windows searched in a row without a rewrite, and of those the ones passed over
    refuted, passed, walks = 0, 0, None
    while True:
        width = min(width, len(string))  # the string may have come down past it
        windows = len(string) - width + 1
        if refuted >= windows:
            break
        if deadline is not None and time.perf_counter() > deadline:
            return False
        if walks is None or walks.at >= windows:  # a round (re)starts: skip the first ones
            walks = first.copy()
            skipped = min(first.at, windows - refuted)
            refuted, passed = refuted + skipped, passed + skipped
            result.windows, result.passed = result.windows + skipped, result.passed + skipped
            continue
        at = walks.at
        if progress:
            progress(len(string), width, result.windows, refuted, len(walks.idx))
        pattern = "*" * (width - 1) + string[at + width:]
        window_end = None if window_limit is None else time.perf_counter() + window_limit
        ends = [t for t in (deadline, window_end) if t is not None]
        try:
            status, found, _, _ = mdd_search(pattern, size, min(ends, default=None),
                                             cases=walks.here(), max_states=max_states)
        except DiagramTooLarge:
            status, found = "unknown", None
        if status == "unknown" and deadline is not None and time.perf_counter() > deadline:
            return False  # cut by the overall limit: this window is neither way, untallied
        result.windows += 1
        if status == "sat":
            # found solves the cases searched from where the letters before the window
            # leave them, and those letters solve the rest; the verifier checks the last
            # string on every case
            assert found is not None and len(found) == len(string) - at - 1
            string, refuted, passed = string[:at] + found, 0, 0
            result.string = string
            result.shortened += 1
            result.minimal_at = 0  # said of the string before
            continue  # the same place again: the letters after it have moved up
        if status == "unknown":
            result.passed += 1
            passed += 1
        refuted += 1
        walks.step(string[at])
    if not passed:  # every window refuted; so is every narrower one (it lies in one)
        result.minimal_at = max(result.minimal_at, width)
    return True


class _Walks:
    """Every case's walk along the letters so far, as cases of their own: the case's maze,
    started where its walk stands, to visit what it has not. Solved ones are dropped (they
    stay solved whatever follows), and walks that stand alike are one case."""

    def __init__(self, cases: Cases) -> None:
        self.cases = cases
        self.at = 0  # letters walked
        self.idx = np.arange(len(cases))
        self.pos = cases.start.astype(np.int64)
        self.left = cases.target.astype(np.int64) & ~np.left_shift(1, self.pos)
        self._drop()

    def copy(self) -> _Walks:
        other = object.__new__(type(self))
        other.cases, other.at = self.cases, self.at
        other.idx, other.pos, other.left = self.idx.copy(), self.pos.copy(), self.left.copy()
        return other

    def step(self, letter: str) -> None:
        self.pos = step(self.cases, self.cases.row[self.idx], self.pos, LETTERS.index(letter))
        self.left &= ~np.left_shift(1, self.pos)
        self.at += 1
        self._drop()

    def _drop(self) -> None:
        keep = self.left != 0
        self.idx, self.pos, self.left = self.idx[keep], self.pos[keep], self.left[keep]

    def here(self) -> Cases:
        c = self.cases
        # a key per (maze row, cell, cells left): at most 16 cells
        key = (c.row[self.idx].astype(np.int64) << 32) | (self.pos << 16) | self.left
        _, first = np.unique(key, return_index=True)
        idx = self.idx[first]
        return Cases(c.size, c.maze[idx], self.pos[first], self.left[first], c.table,
                     c.row[idx], c.reach[idx])
