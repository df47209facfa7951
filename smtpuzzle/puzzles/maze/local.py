"""Local search for a universal move string: finds strings, never proves that none exists.

Simulated annealing over the free letters of a pattern. The cost of a string is how far it
is from solving every case of the reduced set: for a case with one goal cell (size 4), the
walk's distance to the goal at the end (the goal absorbs the walk); otherwise the number of
cells to visit that the walk missed. A step changes one free letter, or deletes a free
letter and inserts a random one elsewhere (the free letters between them shift by one), so
a good stretch of moves can slide along the string. The walk of every case is kept per move,
so a step re-walks only from the first letter it changed. Restarts with new seeds run until
a string is found or the time is up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.maze.cases import LETTERS, Cases, Size, failing, reduced_cases

ITERATIONS = 200_000  # steps per restart (the temperature falls from T_START to T_END)
T_START, T_END = 3.0, 0.05
CHUNK = 5_000  # steps between checks of the clock and progress reports
MAX_BYTES = 4 << 30  # the case tables and walks local search may hold

LocalProgress = Callable[[int, int], None]  # (restarts begun, least cost so far)


@dataclass
class LocalResult:
    restarts: int
    best_cost: int  # of the best string seen (0 when found)
    best_failing: int  # cases the best string fails
    best_string: str  # the string of least cost seen (the answer when it fails nothing)
    interrupted: bool = False  # Ctrl-C ended the search (the best so far is kept)

    @property
    def string(self) -> str | None:
        """The string found, or None."""
        return self.best_string if self.best_failing == 0 else None


@njit(cache=True)
def _case_cost(q: int, v: int, target: int, dist_row: np.ndarray, single: bool) -> int:
    if single:
        return dist_row[q]
    missed = target & ~v
    n = 0
    while missed:
        missed &= missed - 1
        n += 1
    return n


@njit(cache=True)
def _walk(moves: np.ndarray, target: np.ndarray, dist: np.ndarray, single: bool,
          s: np.ndarray, lo: int, pos: np.ndarray, vis: np.ndarray, new_pos: np.ndarray,
          new_vis: np.ndarray, new_cost: np.ndarray, order: np.ndarray, limit: float) -> float:
    """Re-walk every case from move ``lo`` into new_pos/new_vis/new_cost; the total cost,
    or infinity as soon as it must exceed ``limit`` (a case costs at least 0). ``order``
    puts the cases that cost something first: once they are walked, the first solved case
    the change breaks ends a rejected step."""
    n = len(s)
    total = 0.0
    for k in order:
        q, v = pos[k, lo], vis[k, lo]
        for t in range(lo, n):
            q = moves[k, q, s[t]]
            v |= 1 << q
            new_pos[k, t + 1] = q
            new_vis[k, t + 1] = v
        c = _case_cost(q, v, target[k], dist[k], single)
        new_cost[k] = c
        total += c
        if total > limit:
            return np.inf
    return total


@njit(cache=True)
def _costly_first(cost: np.ndarray, order: np.ndarray) -> None:
    i = 0
    for k in range(len(cost)):
        if cost[k] > 0:
            order[i] = k
            i += 1
    for k in range(len(cost)):
        if cost[k] == 0:
            order[i] = k
            i += 1


@njit(cache=True)
def _anneal(moves: np.ndarray, target: np.ndarray, dist: np.ndarray, single: bool,
            free: np.ndarray, s: np.ndarray, walks: tuple, state: np.ndarray,
            best_s: np.ndarray, steps: int, total_steps: int, t_start: float,
            t_end: float) -> None:
    """``steps`` annealing steps; state = [step, cost, best cost]. Stops at cost 0.
    ``walks`` = (pos, vis, cost, new_pos, new_vis, new_cost, order)."""
    pos, vis, cost_k, new_pos, new_vis, new_cost, order = walks
    m = len(free)
    s2 = s.copy()
    for _ in range(steps):
        it, cost = state[0], state[1]
        if cost == 0 or it >= total_steps:
            return
        temp = t_start * (t_end / t_start) ** (it / total_steps)
        s2[:] = s
        a = np.random.randint(0, m)
        if np.random.random() < 1 / 3 or m == 1:
            s2[free[a]] = (s[free[a]] + 1 + np.random.randint(0, 3)) % 4
            lo = free[a]
        else:
            b = np.random.randint(0, m)
            i, j = min(a, b), max(a, b)
            if np.random.random() < 0.5:  # delete at i, insert at j
                for f in range(i, j):
                    s2[free[f]] = s[free[f + 1]]
                s2[free[j]] = np.random.randint(0, 4)
            else:  # insert at i, delete at j
                for f in range(j, i, -1):
                    s2[free[f]] = s[free[f - 1]]
                s2[free[i]] = np.random.randint(0, 4)
            lo = free[i]
        # Accepted when c2 <= cost - temp * ln(u): the Metropolis rule, decided as we walk.
        limit = cost - temp * np.log(1.0 - np.random.random())
        c2 = _walk(moves, target, dist, single, s2, lo, pos, vis, new_pos, new_vis,
                   new_cost, order, limit)
        state[0] = it + 1
        if c2 <= limit:
            s[:] = s2
            pos[:, lo + 1:] = new_pos[:, lo + 1:]
            vis[:, lo + 1:] = new_vis[:, lo + 1:]
            cost_k[:] = new_cost
            _costly_first(cost_k, order)
            state[1] = int(c2)
            if c2 < state[2]:
                state[2] = int(c2)
                best_s[:] = s


@njit(cache=True)
def _seed(seed: int) -> None:
    np.random.seed(seed)


def _distances(moves: np.ndarray, goal: int) -> np.ndarray:
    """Per case and cell, moves to the goal (the case's cell count when unreachable)."""
    n_cases, n_cells, _ = moves.shape
    dist = np.full((n_cases, n_cells), n_cells, dtype=np.int64)
    dist[:, goal] = 0
    rows = np.arange(n_cases)[:, None, None]
    for _ in range(n_cells):
        nearer = np.minimum(dist, dist[rows, moves].min(axis=2) + 1)
        if (nearer == dist).all():
            break
        dist = nearer
    return dist


def _problem(cases: Cases) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    moves = cases.table[cases.row].astype(np.int64)
    target = cases.target.astype(np.int64)
    single = bool((target & (target - 1) == 0).all() and len(np.unique(target)) == 1)
    if single:  # one goal cell for all: it absorbs the walk, and distance is the cost
        goal = int(target[0]).bit_length() - 1
        moves = moves.copy()
        moves[:, goal, :] = goal
        return moves, target, _distances(moves, goal), True
    return moves, target, np.zeros((len(cases), 1), dtype=np.int64), False


def local_search(pattern: str, size: Size = 3, deadline: float | None = None,
                 progress: LocalProgress | None = None, seed: int = 0,
                 iterations: int = ITERATIONS) -> LocalResult:
    """Anneal the free letters of ``pattern`` (checked: letters and ``*``) until a string
    solves every case of the reduced set or ``deadline`` (perf_counter) passes. The string
    returned still has to be verified by the caller."""
    cases = reduced_cases(size)
    n = len(pattern)
    need = len(cases) * (8 * (n + 1) * 4 + 8 * 4 * cases.table.shape[1])
    if need > MAX_BYTES:
        raise PuzzleError(f"local search keeps every case's walk in memory: {len(cases):,} "
                          f"cases x {n} moves would take {need / 2**30:.0f} GiB (at most "
                          f"{MAX_BYTES / 2**30:.0f}); use the mdd back end")
    moves, target, dist, single = _problem(cases)
    free = np.array([t for t, ch in enumerate(pattern) if ch == "*"], dtype=np.int64)
    fixed = np.array([LETTERS.index(ch) if ch != "*" else 0 for ch in pattern], dtype=np.int64)
    rng = np.random.default_rng(seed)
    restarts, best_cost, best_s = 0, None, fixed.copy()
    n_cases = len(cases)
    pos = np.zeros((n_cases, n + 1), dtype=np.int64)
    vis = np.zeros((n_cases, n + 1), dtype=np.int64)
    pos[:, 0] = cases.start
    vis[:, 0] = np.left_shift(1, cases.start)
    cost_k = np.zeros(n_cases)
    walks = (pos, vis, cost_k, pos.copy(), vis.copy(), np.zeros(n_cases),
             np.arange(n_cases))
    state, run_best, interrupted = None, None, False
    try:
        # one string is walked even past the deadline (a start-up that took the whole limit
        # under load): a walk takes milliseconds, and the answer then has a best string
        while restarts == 0 or deadline is None or time.perf_counter() < deadline:
            restarts += 1
            s = fixed.copy()
            s[free] = rng.integers(0, 4, len(free))
            _seed(int(rng.integers(0, 2**31)))
            cost = _walk(moves, target, dist, single, s, 0, pos, vis, *walks[3:], np.inf)
            pos[:], vis[:], cost_k[:] = walks[3], walks[4], walks[5]
            _costly_first(cost_k, walks[6])
            state = np.array([0, cost, cost], dtype=np.int64)
            run_best = s.copy()
            if len(free):
                while state[1] and state[0] < iterations:
                    if deadline is not None and time.perf_counter() >= deadline:
                        break
                    _anneal(moves, target, dist, single, free, s, walks, state, run_best, CHUNK,
                            iterations, T_START, T_END)
                    if progress:
                        progress(restarts, int(min(state[2], best_cost or state[2])))
            if best_cost is None or state[2] < best_cost:
                best_cost, best_s = int(state[2]), run_best.copy()
            if best_cost == 0 or not len(free):
                break
    except KeyboardInterrupt:  # what was found so far stands: the run's best, if better
        interrupted = True
        if state is not None and run_best is not None and (best_cost is None
                                                           or state[2] < best_cost):
            best_cost, best_s = int(state[2]), run_best.copy()
    string = "".join(LETTERS[d] for d in best_s)
    return LocalResult(restarts, int(best_cost or 0), len(failing(cases, string)), string,
                       interrupted)
