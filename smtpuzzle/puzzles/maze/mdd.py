"""Maze search by decision diagrams: the exact set of strings that solve the cases so far.

The strings that fit a pattern and solve one case are the paths of a layered automaton: one
layer per segment of the pattern (a free move, or a run of fixed letters), a state per
(position, cells still to visit) that the walk can reach, the accepting states those with
nothing left to visit. Minimised layer by layer from the end (states with the same future
merge), it is small. The strings that solve several cases are the paths of the product of
their diagrams, minimised again.

The loop is counterexample-guided like the SAT search: take a string of the diagram, walk
it through every case, intersect the diagram with a case it fails, repeat until the
diagram is empty (no string fits the pattern) or its string solves every case. Of the
cases the string fails, the one taken is the one that the fewest of the diagram's strings
solve, estimated on strings drawn from it at random: the case that cuts the diagram most.
Taking the first failing case instead lets a window's product grow many times larger
before it shrinks (measured; the log is in bench/history/). Where SAT has
to learn what a case rules out, the diagram knows it exactly, so unsatisfiable patterns that
SAT needs minutes for end in seconds (bench/RESULTS.md). The risk is the other way: where
many strings survive many cases (long patterns with few fixed letters) the diagram can grow
large, and the search stops with ``unknown`` at ``max_states`` (``MAX_STATES`` unless the
caller says).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from smtpuzzle.puzzles.maze.cases import (
    LETTERS,
    Cases,
    Size,
    case_moves,
    failing,
    free_layers,
    reduced_cases,
    segments,
    solved_by,
    state_step,
)

# The default cap on one product's states, summed over its layers before it is minimised.
# A search whose product reaches it holds about 55 bytes a state at the peak (the stored
# layers, the sort of the widest layer's keys, the diagrams it came from): a width-36
# window's cube held 4.3 GB at a cap of 80 M (measured, bench/history/; 350 bytes a
# state before the layers were int32 and dropped once read).
MAX_STATES = 60_000_000
POOL = 1024  # failing cases the next case is chosen from
SAMPLES = 256  # strings drawn from the diagram to choose it by
SPLIT_DEPTH = 3  # free moves split_search fixes at most (4**3 = 64 cubes)
# Transitions and state classes are stored as int32 (a diagram has far fewer than 2**31
# states a layer): half the bytes of int64, and the stored layers are most of a product's
# peak. Keys and anything multiplied stay int64.
STATE = np.int32


class DiagramTooLarge(Exception):
    """The product outgrew its state cap. ``diagram`` and ``added``: the search's diagram
    and cases before that product, for split_search to go on from; ``cubes``: the patterns
    split_search had begun; ``aside``: how many of them it set aside, past its depth;
    ``late``: whether the deadline then passed in a cube after them."""

    cubes = 1
    aside = 1
    late = False
    diagram: Diagram | None = None
    added: tuple[int, ...] = ()


class PastDeadline(Exception):
    """The deadline passed while a product was being built."""


@dataclass
class Diagram:
    """A layered automaton: ``trans[i]`` (states of layer i x letters of segment i) holds
    the successor state in layer i + 1, or -1 where the string is lost. Layer 0 has the one
    start state; every state of the last layer accepts, and every state lies on a path from
    the start to the last layer."""

    trans: list[np.ndarray]

    def _paths(self, dtype: type) -> list[np.ndarray]:
        """Per layer, the number of strings from each state to the end (object: exact)."""
        paths = [np.ones(1, dtype=dtype)]
        for t in reversed(self.trans):
            paths.append(np.where(t >= 0, paths[-1][np.maximum(t, 0)], 0).sum(axis=1))
        return paths[::-1]

    def count_strings(self) -> int:
        """How many strings the diagram holds (exact, as a Python int)."""
        return int(self._paths(object)[0][0])

    def sample(self, pattern: str, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` of the diagram's strings drawn uniformly at random, as rows of letter
        indices."""
        paths = self._paths(float)
        out = np.empty((n, len(pattern)), dtype=np.int64)
        state = np.zeros(n, dtype=np.int64)
        for (a, b, free), t, ahead in zip(segments(pattern), self.trans, paths[1:],
                                          strict=True):
            to = t[state]
            cum = np.cumsum(np.where(to >= 0, ahead[np.maximum(to, 0)], 0.0), axis=1)
            d = (cum < rng.random(n)[:, None] * cum[:, -1:]).sum(axis=1)
            if free:
                out[:, a] = d
            else:
                out[:, a:b] = [LETTERS.index(ch) for ch in pattern[a:b]]
            state = to[np.arange(n), d]
        return out

    def fixed(self, layer: int, letter: int) -> Diagram | None:
        """The strings whose move at (free) layer ``layer`` is ``letter``; None if none."""
        trans = list(self.trans)
        t = np.full_like(trans[layer], -1)
        t[:, letter] = trans[layer][:, letter]
        trans[layer] = t
        # the layers past it keep their futures, so they stay minimal: only the layers up to
        # it are merged again (a diagram of GBs is split at its first moves, and merging it
        # whole held about twice its size)
        return _minimize(trans, np.ones(int(trans[-1].max()) + 1, dtype=bool), settled=layer)

    def first_string(self, pattern: str) -> str:
        """The pattern completed by the diagram's first path (letters in NESW order)."""
        letters = list(pattern)
        state = 0
        for (a, _, free), t in zip(segments(pattern), self.trans, strict=True):
            d = int(np.flatnonzero(t[state] >= 0)[0])
            if free:
                letters[a] = LETTERS[d]
            state = int(t[state, d])
        return "".join(letters)


def rule_diagram(pattern: str, rule: np.ndarray) -> Diagram | None:
    """The strings fitting ``pattern`` that a small automaton accepts: ``rule[state,
    letter]`` is the next state (-1: lost), state 0 starts, every state accepts."""
    layer = np.zeros(1, dtype=np.int64)
    trans = []
    for a, b, free in segments(pattern):
        if free:
            nxt = rule[layer]
        else:
            nxt = layer.copy()
            for ch in pattern[a:b]:
                nxt = np.where(nxt >= 0, rule[np.maximum(nxt, 0), LETTERS.index(ch)], -1)
            nxt = nxt[:, None]
        layer = np.unique(nxt[nxt >= 0])
        renumber = np.full(len(rule), -1, dtype=STATE)
        renumber[layer] = np.arange(len(layer))
        trans.append(np.where(nxt >= 0, renumber[np.maximum(nxt, 0)], -1).astype(STATE))
    if len(layer) == 0:
        return None
    return _minimize(trans, np.ones(len(layer), dtype=bool))


def case_diagram(pattern: str, cases: Cases, k: int) -> Diagram | None:
    """The strings fitting ``pattern`` that solve case ``k``; None if there are none."""
    moves, start, target = case_moves(cases, k), int(cases.start[k]), int(cases.target[k])
    n_cells = moves.shape[0]
    cells = np.arange(n_cells)
    bit = np.left_shift(1, cells).astype(np.int64)
    low = (1 << n_cells) - 1
    layer = np.array([start << n_cells | (target & ~(1 << start))], dtype=np.int64)
    trans = []
    for a, b, free in segments(pattern):
        if free:
            nxt = state_step(moves, layer)
        else:
            p, m = layer >> n_cells, layer & low
            to, seen = cells.copy(), bit.copy()
            for ch in pattern[a:b]:
                to = moves[to, LETTERS.index(ch)]
                seen |= bit[to]
            nxt = (to[p] << n_cells | (m & ~seen[p]))[:, None]
        layer, inv = unique_inverse(nxt.ravel())
        trans.append(inv.reshape(nxt.shape).astype(STATE))
    return _minimize(trans, (layer & low) == 0)


def intersect(a: Diagram, b: Diagram, deadline: float | None = None,
              max_states: int = MAX_STATES) -> Diagram | None:
    """The strings of both diagrams; None if there are none. A large product takes a while:
    past ``deadline`` (a ``time.perf_counter()`` value) it raises PastDeadline, and past
    ``max_states`` DiagramTooLarge."""
    total = 0

    def grown(states: int) -> None:
        nonlocal total
        total += states
        if total > max_states:
            raise DiagramTooLarge(f"the decision diagram outgrew {max_states:,} states")
        if deadline is not None and time.perf_counter() > deadline:
            raise PastDeadline

    widths = [t.shape[0] for t in b.trans[1:]] + [1]
    pairs, trans = product(a.trans, b.trans, widths, grown, keep_pairs=False)
    return _minimize(trans, np.ones(len(pairs[-1][0]), dtype=bool))


def cube_diagram(pattern: str, cube: str, rule: np.ndarray, cases: Cases, added: list[int],
                 deadline: float | None = None, max_states: int = MAX_STATES
                 ) -> Diagram | None:
    """The strings of ``cube`` (``pattern`` with some of its free moves fixed: a letter
    where the pattern has a fixed move is a KeyError) that obey
    ``rule`` and solve the cases ``added``, built from scratch; None if there are none.
    Its fixed moves are fixed first, so each product is no larger than the one the search
    built on its way to the cube (within the same ``max_states``). Past ``deadline`` it
    raises PastDeadline, and past ``max_states`` DiagramTooLarge."""
    diagram = rule_diagram(pattern, rule)
    layer_of = free_layers(pattern)
    for at, (c, p) in enumerate(zip(cube, pattern, strict=True)):
        if c != p and diagram is not None:
            diagram = diagram.fixed(layer_of[at], LETTERS.index(c))
    for k in added:
        one = None if diagram is None else case_diagram(pattern, cases, k)
        if one is None:
            return None
        diagram = intersect(diagram, one, deadline, max_states)
    return diagram


def product(a: list[np.ndarray], b: list[np.ndarray], widths: list[int],
            grown: Callable[[int], None] | None = None, keep_pairs: bool = True
            ) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[np.ndarray]]:
    """The product of two layered automata (``a[i][state, letter]``: the state in layer
    i + 1, -1 where the string is lost; ``widths[i]``: b's states in layer i + 1): per layer
    the pairs (state of a, state of b) reachable from the two starts (with ``keep_pairs``
    false, the last layer's alone: 16 bytes a state less), and per layer the pair each
    letter leads to (-1 where either side is lost). ``grown(n)`` hears of each new layer's
    n pairs."""
    s, q = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    pairs, trans = [(s, q)], []
    for ta, tb, width in zip(a, b, widths, strict=True):
        sa, sb = ta[s], tb[q]
        ok = (sa >= 0) & (sb >= 0)
        nxt, inv = unique_inverse(sa[ok].astype(np.int64) * width + sb[ok])
        del sb
        t = np.full(sa.shape, -1, dtype=STATE)
        t[ok] = inv.ravel()
        del sa, ok, inv
        trans.append(t)
        s, q = nxt // width, nxt % width
        del nxt
        if keep_pairs:
            pairs.append((s, q))
        else:
            pairs[0] = (s, q)
        if grown:
            grown(len(s))
    return pairs, trans


def merge(trans: list[np.ndarray], accepting: np.ndarray, consume: bool = False,
          settled: int | None = None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Minimise a layered automaton from the last layer back: per layer, the state of the
    minimised automaton each state merges into (-1: no way to an accepting state; states
    with the same future merge), and the minimised automaton's transitions. With
    ``consume``, each layer of ``trans`` is dropped from the list once read (the product's
    layers are most of the memory at the peak). ``settled``: the layers after it are
    already minimal, with a way on from every state, and one accepting state (a minimised
    diagram's): they are taken as they are."""
    classes: list[np.ndarray] = [np.zeros(0, dtype=STATE)] * len(trans) + [
        np.where(accepting, 0, -1).astype(STATE)]
    merged: list[np.ndarray] = []
    for i in range(len(trans) - 1, -1, -1):
        if settled is not None and i > settled:
            classes[i] = np.arange(len(trans[i]), dtype=STATE)
            merged.append(trans[i])
            continue
        rows = np.append(classes[i + 1], -1)[trans[i]]  # -1 picks the appended -1
        if consume:
            trans[i] = trans[i][:0].copy()
        alive = (rows >= 0).any(axis=1)
        cls = np.full(len(rows), -1, dtype=STATE)
        states = np.zeros((0, rows.shape[1]), dtype=STATE)
        if alive.any():
            count, inv = _row_classes(rows[alive])
            states = np.empty((count, rows.shape[1]), dtype=STATE)
            states[inv] = rows[alive]
            cls[alive] = inv
        classes[i] = cls
        merged.append(states)
    return classes, merged[::-1]


def _minimize(trans: list[np.ndarray], accepting: np.ndarray, settled: int | None = None
              ) -> Diagram | None:
    """Merge states with the same future (from the last layer back), drop states with none,
    then keep only states reachable from the start, renumbered. Empties ``trans`` (up to
    ``settled``: see merge)."""
    classes, merged = merge(trans, accepting, consume=True, settled=settled)
    if classes[0][0] < 0:
        return None
    n = len(trans)
    out = []
    here = classes[0][:1]
    for i in range(n):
        t = merged[i][here]
        width = merged[i + 1].shape[0] if i + 1 < n else 1
        reached = np.zeros(width, dtype=bool)
        reached[t[t >= 0]] = True
        here = np.flatnonzero(reached)
        renumber = np.full(width, -1, dtype=STATE)
        renumber[here] = np.arange(len(here))
        out.append(np.where(t >= 0, renumber[np.maximum(t, 0)], -1))
    return Diagram(out)


def unique_inverse(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` for a 1-D int64 array (the inverse as
    int32 where it fits), about twice as fast where each key and its index fit in 63 bits
    together: the indices ride in the keys' low bits through one ``sort``, which is much
    faster than the ``argsort`` np.unique makes (the sorts were three quarters of a bound's
    time; measured, bench/history/), and it holds about 40% less memory at its peak."""
    n = len(keys)
    if n < 2:
        return np.unique(keys, return_inverse=True)
    lo = int(keys.min())
    index_bits = (n - 1).bit_length()
    if (int(keys.max()) - lo).bit_length() + index_bits > 63:
        return np.unique(keys, return_inverse=True)
    packed = keys - lo
    packed <<= index_bits
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    # int32 where it holds them, and each array dropped once used: at a bound's widest
    # layer these arrays are the peak of its memory
    small = np.int32 if n < 2**31 else np.int64
    order = (packed & ((1 << index_bits) - 1)).astype(small)
    packed >>= index_bits  # the keys, sorted
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(packed[1:], packed[:-1], out=new[1:])
    unique = packed[new]
    unique += lo
    del packed
    ids = np.cumsum(new, dtype=small)
    del new
    ids -= 1
    inv = np.empty(n, dtype=small)
    inv[order] = ids
    return unique, inv


def _row_classes(rows: np.ndarray) -> tuple[int, np.ndarray]:
    """(number of distinct rows, class per row) of an int array of values >= -1. Columns are
    packed into int64 keys pairwise (sorting 1-D keys is far faster than rows)."""
    ids = rows.astype(np.int64) + 1
    while ids.shape[1] > 1:
        bits = max(int(ids.max()), 1).bit_length()
        if bits * ids.shape[1] <= 62:
            key = np.zeros(len(ids), dtype=np.int64)
            for j in range(ids.shape[1]):
                key = key << bits | ids[:, j]
            ids = key[:, None]
            break
        if ids.shape[1] % 2:
            ids = np.concatenate([ids, np.zeros((len(ids), 1), dtype=np.int64)], axis=1)
        pairs = ids[:, 0::2] << bits | ids[:, 1::2]
        _, inv = unique_inverse(pairs.ravel())
        ids = inv.reshape(pairs.shape).astype(np.int64)
    keys, inv = unique_inverse(ids[:, 0])
    return len(keys), inv


Progress = Callable[[int, float], None]  # (cases added, seconds so far)
Kept = Callable[[Diagram, list[int]], None]  # a search's diagram and the cases it holds
Proved = Callable[[str, list[int]], None]  # a cube proved to admit no string, and its cases


def samples(size: Size) -> bool:
    """Whether a search of free moves alone should add the sampled failing case rather
    than the first: on the blocked-cell 4x4 it cuts the diagram so much more that the
    bound's proof of 28 moves takes 50x less time. Elsewhere the first failing case keeps
    the products smaller: 3x and more faster on 3x3 and 2x4; on 4x4 with thin walls the
    sampled case is 2.4x faster at 44 moves but outgrows the state cap at 52, where the
    first reaches 54 (measured twice; bench/history/). Patterns with letters fixed
    (windows) sample on every size."""
    return size == 4


def mdd_search(pattern: str, size: Size, deadline: float | None,
               progress: Progress | None = None, sampled: bool = True,
               max_states: int = MAX_STATES, start: Diagram | None = None,
               added: list[int] | None = None, kept: Kept | None = None,
               cases: Cases | None = None) -> tuple[str, str | None, list[int], float]:
    """(status, string, cases added, seconds): ``sat`` with a string that solves every
    case, ``unsat``, or ``unknown`` at the deadline. Raises DiagramTooLarge past
    ``max_states``. With ``sampled`` false, the first failing case is taken (the largest:
    the better choice for the bound's patterns of free moves alone). ``start``: a diagram
    of the pattern's strings to begin from instead, the one the cases ``added`` leave (the
    search appends to that list and returns it). ``kept(diagram, added)`` hears of each
    diagram with the cases it holds (a copy of the list), for a caller saving the search.
    ``cases``: the cases to solve, if not every reduced case of ``size`` (a caller that
    knows the others are solved by any string of the pattern); ``added`` indexes them."""
    cases = reduced_cases(size) if cases is None else cases
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    added = [] if added is None else added
    diagram: Diagram | None = start
    string = pattern.replace("*", LETTERS[0]) if start is None else start.first_string(pattern)
    start = None  # else the frame would hold the first diagram all search long
    while True:
        bad = failing(cases, string, limit=POOL if sampled else 1)
        if len(bad) == 0:
            return "sat", string, added, time.perf_counter() - t0
        if deadline is not None and time.perf_counter() > deadline:
            return "unknown", None, added, time.perf_counter() - t0
        k = int(bad[0])
        if len(bad) > 1:
            drawn = _draw(pattern, rng) if diagram is None else \
                diagram.sample(pattern, SAMPLES, rng)
            k = int(bad[np.argmin(solved_by(cases, drawn, bad).sum(axis=0))])
        one = case_diagram(pattern, cases, k)
        try:
            diagram = one if diagram is None or one is None else \
                intersect(diagram, one, deadline, max_states)
        except PastDeadline:
            return "unknown", None, added, time.perf_counter() - t0
        except DiagramTooLarge as exc:
            exc.diagram, exc.added = diagram, tuple(added)
            raise
        added.append(k)
        if kept and diagram is not None:
            kept(diagram, list(added))
        if progress:
            progress(len(added), time.perf_counter() - t0)
        if diagram is None:
            return "unsat", None, added, time.perf_counter() - t0
        string = diagram.first_string(pattern)


def split_search(pattern: str, size: Size, deadline: float | None,
                 progress: Progress | None = None, max_states: int = MAX_STATES,
                 depth: int = SPLIT_DEPTH, start: Diagram | None = None,
                 proved: dict[str, list[int]] | None = None,
                 on_proved: Proved | None = None, sampled: bool = True
                 ) -> tuple[str, str | None, list[int], float, int]:
    """:func:`mdd_search`, split where its diagram outgrows ``max_states``: the pattern's
    first free move is fixed to each letter in turn (cube and conquer), and each of the four
    cubes is searched the same way, up to ``depth`` free moves deep. A cube goes on from the
    diagram its parent had before the product that outgrew the cap, restricted to the
    cube's letter, so the parent's work is kept. (status, string, cases added, seconds,
    cubes searched): ``sat`` with the first string found, ``unsat`` when every cube is (the
    union of their cases admits no string), ``unknown`` at the deadline. A cube that
    outgrows the cap ``depth`` moves deep is set aside and the cubes after it are searched
    on (each proved heard of); a search with one set aside and no string found then raises
    the first one's DiagramTooLarge (``late`` if the deadline came after). A cube's diagram
    holds a quarter of the strings or fewer, and it decides windows whose whole diagram
    outgrows the cap (measured; bench/history/).
    ``start``: the pattern's strings to begin from, as in mdd_search. ``on_proved(cube,
    cases)`` hears of each cube (the pattern itself too) proved to admit no string, with the
    cases that prove it; a cube in ``proved`` (an earlier run's) is taken as proved with its
    cases, not searched. ``sampled``: as for mdd_search."""
    t0 = time.perf_counter()
    added: list[int] = []
    cubes = 0
    layer_of = free_layers(pattern)
    cube_cases: list[int] = []  # the cases of the cube being searched
    proved = proved or {}
    outgrew: list[DiagramTooLarge] = []  # a cube each, set aside past the depth

    def tracked(_: int, __: float) -> None:
        if progress:  # two cubes may take the same case: count it once
            progress(len(set(added).union(cube_cases)), time.perf_counter() - t0)

    def unsat(cube: str, cases: list[int]) -> tuple[str, None, list[int]]:
        added[:] = dict.fromkeys(added + cases)
        if on_proved and cube not in proved:
            on_proved(cube, cases)
        return "unsat", None, cases

    def go(cube: str, start: list[Diagram | None], seeded: tuple[int, ...],
           level: int) -> tuple[str, str | None, list[int]]:
        """(status, string, the cases of the cube's proof when it is unsat). ``start``: a
        one-item list the search pops its first diagram from, so that no frame holds it
        while the search has moved on."""
        nonlocal cubes, cube_cases
        cubes += 1
        if cube in proved:
            start.clear()
            return unsat(cube, proved[cube])
        free = cube.find("*")
        cube_cases = list(seeded)
        try:
            status, string, more, _ = mdd_search(pattern, size, deadline, tracked,
                                                 sampled=sampled, max_states=max_states,
                                                 start=start.pop(), added=cube_cases)
            if status == "unsat":
                return unsat(cube, more)
            added[:] = dict.fromkeys(added + more)
            return status, string, more
        except DiagramTooLarge as exc:
            if level >= depth or free < 0:
                # its message alone: the exception's traceback holds the outgrown product
                outgrew.append(DiagramTooLarge(*exc.args))
                added[:] = dict.fromkeys(added + cube_cases)
                return "outgrown", None, []
            parent, seeded = exc.diagram, exc.added
        # out of the except block: the traceback and the outgrown product it holds are gone
        assert parent is not None
        cases: dict[int, None] = {}
        aside = False
        parts = cube_parts(cube, free, layer_of[free], [parent])
        del parent  # held by cube_parts alone, which lets go of it before the last part
        for sub_cube, sub in parts:
            if sub[0] is None:  # the parent's cases already rule this cube out
                cubes += 1
                status, string, more = unsat(sub_cube, list(seeded))
            else:
                status, string, more = go(sub_cube, sub, seeded, level + 1)
            if status == "outgrown":
                aside = True
            elif status != "unsat":
                return status, string, more
            cases.update(dict.fromkeys(more))
        return ("outgrown", None, []) if aside else unsat(cube, list(cases))

    root, start = [start], None
    status, string, _ = go(pattern, root, (), 0)
    if outgrew and status != "sat":
        first = outgrew[0]
        first.cubes, first.aside, first.late = cubes, len(outgrew), status == "unknown"
        raise first
    return status, string, added, time.perf_counter() - t0, cubes


def cube_parts(cube: str, free: int, layer: int, diagram: list[Diagram]
               ) -> Iterator[tuple[str, list[Diagram | None]]]:
    """``cube``'s strings parted by their move at ``free`` (the diagram's ``layer``), a letter
    at a time: the cube with that move fixed, and its part of the diagram in a one-item list
    to pop (so that only its search holds it). The part is None when the diagram's cases
    already rule the cube out. ``diagram``: a one-item list, emptied before the last part is
    yielded, so that the last part's search need not hold its parent."""
    for d, letter in enumerate(LETTERS):
        part = [diagram[0].fixed(layer, d)]
        if d == len(LETTERS) - 1:
            diagram.clear()
        yield cube[:free] + letter + cube[free + 1:], part


def _draw(pattern: str, rng: np.random.Generator) -> np.ndarray:
    """SAMPLES strings fitting ``pattern``, its free moves drawn at random."""
    fixed = np.array([LETTERS.index(ch) if ch != "*" else -1 for ch in pattern])
    out = np.broadcast_to(fixed, (SAMPLES, len(pattern))).copy()
    free = fixed < 0
    out[:, free] = rng.integers(0, 4, size=(SAMPLES, int(free.sum())))
    return out
