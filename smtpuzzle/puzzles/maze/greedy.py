"""A universal move string built greedily: an upper bound on the least length, for any size.

Every case is walked along the string as it grows. While some case is unsolved, a few
unsolved cases are drawn at random, each gets its shortest completion from where its walk
stands (a breadth-first search over (cell, cells still to visit)), and the completion that
solves the most cases of a sample per move is appended. A solved case stays solved (its walk
has visited every cell it must), and the drawn case is solved by its own completion, so
every round solves at least one case and the string always ends. Then, while time is left,
letters are dropped from the end back wherever the string still solves every case. It is
far from the least length (3x3: 124 moves against 79), but it is a string that works where
the searches cannot finish (3x4, 4x4 thin walls), which with ``maze bound`` brackets the
least length.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from smtpuzzle.errors import VerificationError
from smtpuzzle.puzzles.maze.cases import (
    LETTERS,
    Cases,
    Size,
    failing,
    listing_too_slow,
    parse_size,
    reduced_cases,
    state_step,
    step,
)
from smtpuzzle.puzzles.maze.verify import unsolved_cases
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.checks import MAX_SEED, checked_time_limit, checked_whole

DRAWN = 16  # unsolved cases whose completions compete each round
SAMPLE = 20_000  # unsolved cases a completion is scored on

BuildProgress = Callable[[int, int, int], None]  # (moves so far, cases unsolved, cases)


@dataclass
class BuildResult(Answer):
    """A universal string built greedily (status sat), or how far it came (unknown)."""

    size: Size
    string: str | None  # None if stopped before every case was solved
    moves: int  # length of the string (so far)
    greedy_moves: int  # its length before letters were dropped
    unsolved: int  # cases still unsolved when it stopped (0: done)
    cases: int
    time_s: float
    note: str = field(default="", metadata={"key": "stopped"})
    status: Status = Status.UNKNOWN
    interrupted: bool = field(default=False, metadata={"omit": False})
    stats: Stats | None = field(default=None, metadata={"json": False})
    json_keys = ("size", "status")

    def __post_init__(self) -> None:
        self.status = Status.SAT if self.string else Status.UNKNOWN
        self.interrupted = self.interrupted or self.note == "interrupted"
        super().__post_init__()


def shortest_completion(moves: np.ndarray, pos: int, remaining: int) -> list[int]:
    """The fewest letters that, from cell ``pos``, visit every cell of ``remaining``
    (breadth first over (cell, cells still to visit); ``moves`` is cells x 4)."""
    cells = moves.shape[0]
    low = (1 << cells) - 1
    layer = np.array([pos << cells | remaining], dtype=np.int64)
    seen = layer.copy()
    trail: list[tuple[np.ndarray, np.ndarray]] = []  # per layer: parent index, letter
    while (layer & low).all():
        nxt = state_step(moves, layer).ravel()
        states, first = np.unique(nxt, return_index=True)
        new = ~np.isin(states, seen)
        states, first = states[new], first[new]
        if not len(states):
            raise ValueError("a cell to visit cannot be reached")
        seen = np.union1d(seen, states)
        trail.append((first // 4, first % 4))
        layer = states
    k = int(np.flatnonzero((layer & low) == 0)[0])
    letters = []
    for parent, letter in reversed(trail):
        letters.append(int(letter[k]))
        k = int(parent[k])
    return letters[::-1]


def build_string(size: Size = 3, time_limit: float | None = None,
                 progress: BuildProgress | None = None, seed: int = 0) -> BuildResult:
    """Grow a string until it solves every case (or ``time_limit`` seconds pass), then drop
    what letters time allows. The string is verified on every case
    (verify.py, which walks all mazes from all starts where they are few enough) before it
    is returned. A time limit too short to list the cases answers at once, unknown."""
    t0 = time.perf_counter()
    time_limit, size = checked_time_limit(time_limit), parse_size(size)
    seed = checked_whole(seed, "seed", 0, MAX_SEED)
    deadline = None if time_limit is None else t0 + time_limit
    if why := listing_too_slow(size, time_limit):
        return BuildResult(size, None, 0, 0, 0, 0, time.perf_counter() - t0, why)
    cases = reduced_cases(size)
    rng = np.random.default_rng(seed)
    rows = cases.row.copy()
    pos = cases.start.astype(np.int8)
    left = (cases.target & ~np.left_shift(1, cases.start.astype(np.int64))).astype(np.int32)
    keep = left != 0
    rows, pos, left = rows[keep], pos[keep], left[keep]
    letters: list[int] = []
    note = "every case solved"
    try:
        while len(left):
            if deadline is not None and time.perf_counter() > deadline:
                note = "time limit"
                break
            if progress:
                progress(len(letters), len(left), len(cases))
            drawn = rng.choice(len(left), min(DRAWN, len(left)), replace=False)
            sample = rng.choice(len(left), min(SAMPLE, len(left)), replace=False)
            best, best_score = None, -1.0
            for k in drawn:
                completion = shortest_completion(
                    cases.table[rows[k]].astype(np.int64), int(pos[k]), int(left[k]))
                p, m = pos[sample].astype(np.int64), left[sample].astype(np.int64)
                for d in completion:
                    p = step(cases, rows[sample], p, d)
                    m &= ~np.left_shift(1, p)
                score = (m == 0).sum() / len(completion)
                if score > best_score:
                    best, best_score = completion, score
            for d in best:
                pos = step(cases, rows, pos, d).astype(np.int8)
                left &= ~np.left_shift(1, pos.astype(np.int32))
            letters += best
            keep = left != 0
            rows, pos, left = rows[keep], pos[keep], left[keep]
    except KeyboardInterrupt:
        note = "interrupted"
    string = "".join(LETTERS[d] for d in letters)
    greedy = len(string)
    if not len(left) and note == "every case solved":
        string, note = _drop_letters(cases, string, deadline)
    if not len(left) and (bad := unsolved_cases(string, size)):
        raise VerificationError(f"the built string fails {bad} cases: {string}")
    return BuildResult(size, string if not len(left) else None, len(string), greedy,
                       len(left), len(cases), time.perf_counter() - t0, note)


def _drop_letters(cases: Cases, string: str, deadline: float | None) -> tuple[str, str]:
    """Drop letters, last first, wherever the string still solves every case."""
    i, longest = len(string) - 1, 0.0  # the longest check so far: the next may take as long
    try:
        while i >= 0:
            if deadline is not None and time.perf_counter() + longest > deadline:
                return string, f"time limit while dropping letters ({i + 1} left to try)"
            began = time.perf_counter()
            shorter = string[:i] + string[i + 1:]
            if not len(failing(cases, shorter, limit=1)):
                string = shorter
            longest = max(longest, time.perf_counter() - began)
            i -= 1
    except KeyboardInterrupt:
        return string, f"interrupted while dropping letters ({i + 1} left to try)"
    return string, "every case solved; no letter can be dropped"
