"""Frames stage 2 as neutral models: choosing one listed tiling set per frame.

Stage 2 chooses n of the stage-1 sets that are pairwise disjoint and use every piece. Two
neutral models, each solvable by any back end:

- ``cover``: one boolean per set, exactly one chosen set per piece (an exact cover over the
  listed sets: the chosen sets are unordered, so no frame symmetry arises);
- ``index``: the finite-domain model: each piece gets its frame number in 1..n, each frame
  chooses one listed set (of the composition the frame must have) whose pieces all carry
  its number; frames of one composition choose sets in increasing order, which breaks the
  frames' interchangeability;
- ``seed``: the source article's model as written, with the public modeller: each piece an
  integer in 1..n, and frame k an OR over its listed sets of "all the set's pieces equal k"
  (z3 gets ``Int`` terms and implied equalities, CP-SAT IntVars with half-reified
  equalities); frames of one composition number their sets in increasing order;
- ``table``: the same choice as one table constraint per frame: the frame's 0/1 column of
  "piece p is here" and its set's number form a row of the listed sets (CP-SAT's
  AddAllowedAssignments, z3's disjunction of conjunctions, the sat back end's tuple
  selectors); each piece is in one frame; the frame symmetry is broken as in ``index``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from smtpuzzle.model import BoolArray, Cmp, Groups, IntArray, Model, Table
from smtpuzzle.puzzles.frames.puzzle import Frames


class _SetNames(Sequence):
    """User-variable names of the cover model, made on demand: ``set:H01+H07+...``."""

    def __init__(self, frames: Frames, sets: np.ndarray) -> None:
        self._names = [p.name for p in frames.pieces]
        self._sets = sets

    def __len__(self) -> int:
        return len(self._sets)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not 0 <= i < len(self):
            raise IndexError(i)
        return "set:" + "+".join(self._names[j] for j in np.flatnonzero(self._sets[i]))


def cover_model(frames: Frames, sets: np.ndarray) -> Model:
    """One boolean per listed set; every piece in exactly one chosen set."""
    model = Model(f"{frames.name}-stage2-cover")
    y = model.new_bools(len(sets), user=True, names=_SetNames(frames, sets))
    # Pieces in the fewest sets first: the exact-cover engine branches on its groups in
    # order, and the rarest piece is the most constrained choice.
    order = np.argsort(sets.sum(axis=0), kind="stable")
    piece, member = np.nonzero(sets[:, order].T)  # grouped by piece, rarest first
    sizes = np.bincount(piece, minlength=len(frames.pieces))
    model.add_exactly_one(Groups(y[member], np.concatenate([[0], np.cumsum(sizes)])))
    # Implied, for propagation: with one way to split the sizes, each composition is
    # chosen at most as often as that split uses it (exactly, in fact: the cover forces the
    # rest, and "at most" stays small in CNF where "exactly" over 10^5 sets does not).
    splits = frames.splits()
    if len(splits) == 1:
        per_size = frames.set_compositions(sets)
        uses = Counter(splits[0])
        model.add_cardinality([y[(per_size == np.array(c)).all(axis=1)] for c in uses],
                              Cmp.LE, list(uses.values()))
    return model


def frame_kinds(frames: Frames, sets: np.ndarray) -> list[np.ndarray]:
    """Per frame, the sets it may choose: with one way to split the pieces' sizes into
    frames, frame k takes the k-th composition of that split (sorted); else any set."""
    splits = frames.splits()
    if len(splits) != 1:
        return [np.arange(len(sets))] * frames.n
    per_size = frames.set_compositions(sets)
    return [np.flatnonzero((per_size == np.array(comp)).all(axis=1)) for comp in splits[0]]


def index_model(frames: Frames, sets: np.ndarray) -> Model:
    """Each piece's frame number in 1..n (the user variables); frame k chooses one listed set
    whose pieces all carry k; frames with the same candidates choose in increasing order."""
    model = Model(f"{frames.name}-stage2-index")
    n = frames.n
    names = [f"{p.name}={k}" for p in frames.pieces for k in range(1, n + 1)]
    lit = model.new_bools(len(names), user=True, names=names).reshape(-1, n)
    model.add_exactly_one(lit)  # (pieces, n): piece p in frame k, one frame each
    # ... and the frame number as an integer those literals say the value of (z3 decides
    # this model 1.3x faster with it: an Int per piece, as its one-hot integers had)
    frame = model.int_array(len(lit), 1, n, name="frame", user=False)
    model.add(BoolArray(model, lit) == (frame[:, None] == np.arange(1, n + 1)))
    kinds = frame_kinds(frames, sets)
    previous: tuple[np.ndarray, np.ndarray] | None = None  # (candidates, prefix literals)
    for k, cand in enumerate(kinds):
        x = model.new_bools(len(cand))
        model.add_exactly_one([x])
        line, piece = np.nonzero(sets[cand])
        model.add_implications(x[line], lit[piece, k])
        if previous is not None and np.array_equal(previous[0], cand):
            # x[j] needs some earlier choice j' < j in the previous frame: prefix[j - 1].
            model.add_clauses([[-x[0]]])
            model.add_implications(x[1:], previous[1][:-1])
        previous = (cand, _prefix_or(model, x))
    return model


def seed_model(frames: Frames, sets: np.ndarray) -> tuple[Model, IntArray]:
    """The article's model and its answer: each piece's frame number in 1..n."""
    model = Model(f"{frames.name}-stage2-seed")
    frame = model.int_array(len(frames.pieces), 1, frames.n, name="frame")
    previous: tuple[np.ndarray, IntArray] | None = None
    for k, cand in enumerate(frame_kinds(frames, sets)):
        # holds[j]: frame k holds set cand[j], i.e. every piece of it has frame number k.
        # One OR per frame suffices: areas add up, so a frame holding a whole set holds
        # nothing else.
        holds = model.bool_array(len(cand), user=False)
        line, piece = np.nonzero(sets[cand])
        model.add(holds[line].implies(frame[piece] == k + 1))
        model.add_clauses([holds.ids])
        number = model.int_array(1, 0, len(cand) - 1, name=f"set{k}", user=False)
        model.add(holds.implies(number[np.zeros(len(cand), dtype=np.int64)]
                                == np.arange(len(cand))))
        if previous is not None and np.array_equal(previous[0], cand):
            model.add(previous[1] < number)
        previous = (cand, number)
    return model, frame


def decode_seed(sets: np.ndarray, frame: np.ndarray, n: int) -> list[int]:
    """The listed set of each frame, from each piece's frame number in 1..n."""
    frame = np.asarray(frame)
    return decode_table(sets, frame[:, None] == np.arange(1, n + 1)[None, :])


def _prefix_or(model: Model, x: np.ndarray) -> np.ndarray:
    """Literals p[j] equivalent to x[0] or ... or x[j]."""
    p = model.new_bools(len(x))
    model.add_implications(x, p)
    model.add_implications(p[:-1], p[1:])
    model.add_clauses(np.stack([-p[1:], p[:-1], x[1:]], axis=1))
    model.add_clauses([[-p[0], x[0]]])
    return p


def table_model(frames: Frames, sets: np.ndarray) -> tuple[Model, IntArray]:
    """The table model and its (pieces, n) 0/1 array "piece p is in frame k" (the answer)."""
    model = Model(f"{frames.name}-stage2-table")
    inside = model.int_array((len(frames.pieces), frames.n), 0, 1, name="in")
    model.add(inside.sum(axis=1) == 1)
    kinds = frame_kinds(frames, sets)
    previous: tuple[np.ndarray, IntArray] | None = None
    for k, cand in enumerate(kinds):
        number = model.int_array(1, 0, len(cand) - 1, name=f"set{k}", user=False)
        rows = np.concatenate([sets[cand].astype(np.int64), np.arange(len(cand))[:, None]],
                              axis=1)
        model.add(Table(IntArray(model, np.concatenate([inside[:, k].ids, number.ids])), rows))
        if previous is not None and np.array_equal(previous[0], cand):
            model.add(previous[1] < number)
        previous = (cand, number)
    return model, inside


def decode_table(sets: np.ndarray, inside: np.ndarray) -> list[int]:
    """The listed set of each frame, from a (pieces, n) 0/1 array "piece p is in frame k"."""
    index = {np.packbits(row.astype(bool)).tobytes(): i for i, row in enumerate(sets)}
    return [index[np.packbits(column.astype(bool)).tobytes()] for column in inside.T]


def decode_cover(values: np.ndarray) -> list[int]:
    return np.flatnonzero(values).tolist()


def decode_index(frames: Frames, sets: np.ndarray, values: np.ndarray) -> list[int]:
    """The listed set of each frame, from the index model's piece-in-frame literals."""
    return decode_table(sets, values.reshape(len(frames.pieces), frames.n))
