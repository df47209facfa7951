"""Frames: one set of pieces packed into n identical frames, every piece used exactly once.

The puzzle holds one frame (a board: a shape, or one layer of a box, with holes), the
pieces and n. It refuses what needs no search (area, a piece that fits no frame), derives the
frame compositions that area allows (how many pieces of each size a frame can hold) and the
checkerboard-parity test of a piece set, builds the one-frame tilings the stages solve, and
verifies a whole answer from the puzzle's definition alone.

With ``hole_search`` the frame has one hole whose place is not given: every frame has it at
the same place, and :meth:`hole_places` lists the places to try, one per symmetry class.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.geometry.board import Board
from smtpuzzle.puzzles.tiling.puzzle import (
    Piece,
    Tiling,
    TilingSolution,
    as_board,
    cell_tuples,
    check_fits,
    check_pieces,
)

if TYPE_CHECKING:
    from smtpuzzle.model import Model

# How the frames are solved: list every set, check proposed sets, dive on the LP relaxation
# over sampled sets, or auto (list, then lazy past the cap, unless the puzzle names one).
METHODS = ("auto", "enumerate", "lazy", "dive")
# The back ends that choose the sets (stage 2): here, not in solve, so that the command
# line can name them without importing the solver.
STAGE2_BACKENDS = ("exact-cover", "cpsat", "z3", "sat")


@dataclass
class FramesSolution:
    """One tiling per frame; together they use every piece once."""

    frames: list[TilingSolution]

    def as_json(self) -> dict[str, Any]:
        return {"frames": [f.as_json() for f in self.frames]}


@dataclass
class Frames:
    """Pack all ``pieces`` into ``n`` copies of the board ``frame``, each piece used once."""

    family: ClassVar[str] = "frames"
    frame: Board
    pieces: list[Piece]
    n: int
    name: str = "frames"
    title: str = ""
    apart: list[str] = field(default_factory=list)  # pieces that may not touch in a frame
    hole_search: bool = False  # one hole at a place to be found, the same in every frame
    method: str = "auto"  # how `auto` solves it (a puzzle file's `method`; see METHODS)
    precheck: bool = True  # refuse obviously impossible puzzles at once

    def __post_init__(self) -> None:
        self.frame = as_board(self.frame, "a frame")
        if isinstance(self.n, bool) or not isinstance(self.n, int | np.integer):
            raise TypeError(f"the number of frames is a whole number, not {self.n!r}")
        if self.n < 1:
            raise PuzzleError(f"frames must be at least 1, got {self.n}")
        if self.method not in METHODS:
            raise PuzzleError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        check_pieces(self.pieces, self.apart, self.frame.dim, "frame", self.frame.grid.name)
        for p in self.pieces:
            if p.count != 1 or p.at_most:
                raise PuzzleError(f"piece {p.name}: in a frames puzzle every piece is used "
                                  "exactly once (list copies under names of their own)",
                                  piece=p.name, key="max" if p.at_most else "count")
        if self.hole_search and self.frame.holes():
            raise PuzzleError("a frame with a hole to be placed takes no other holes")
        if self.precheck:
            self._check_obvious()

    # -- what needs no search --------------------------------------------------------------

    @property
    def frame_area(self) -> int:
        return self.frame.num_cells - (1 if self.hole_search else 0)

    @cached_property
    def sizes(self) -> np.ndarray:
        return np.array([p.shape.size for p in self.pieces], dtype=np.int64)

    def _check_obvious(self) -> None:
        total, area = int(self.sizes.sum()), self.frame_area
        if total != self.n * area:
            raise PuzzleError(f"no solution: the pieces cover {total:,} cells but "
                              f"{self._frames_text()} of {area:,} cells hold "
                              f"{self.n * area:,}")
        for p in self.pieces:
            check_fits(p, p.shape.orientations(p.reflections(self.frame.dim)), self.frame,
                       "frame")
        if not self.compositions():
            raise PuzzleError("no solution: no way to split the pieces' sizes into "
                              f"{self._frames_text()} of {area} cells")

    def _frames_text(self) -> str:
        return f"{self.n} frame" + ("s" if self.n != 1 else "")

    def size_classes(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct piece sizes and how many pieces have each."""
        return np.unique(self.sizes, return_counts=True)

    def compositions(self) -> list[tuple[int, ...]]:
        """How many pieces of each size (in :meth:`size_classes` order) one frame can hold:
        those that fill the area and take part in some split of all pieces into n frames.
        (12 pentominoes and 35 hexominoes in five 6x9 frames: 5a + 6b = 54 allows
        (0, 9) and (6, 4).)"""
        return sorted({comp for split in self.splits() for comp in split})

    def splits(self) -> list[tuple[tuple[int, ...], ...]]:
        """Every way to give the n frames compositions that together use all pieces, each
        as a sorted tuple of n compositions."""
        sizes, avail = self.size_classes()
        fits = [v for v in itertools.product(*(range(int(a) + 1) for a in avail))
                if int(np.dot(v, sizes)) == self.frame_area]
        out: list[tuple[tuple[int, ...], ...]] = []

        def split(left: tuple[int, ...], k: int, start: int, chosen: list) -> None:
            if k == 0:
                if not any(left):
                    out.append(tuple(chosen))
                return
            for i in range(start, len(fits)):
                v = fits[i]
                if all(a <= b for a, b in zip(v, left, strict=True)):
                    split(tuple(b - a for a, b in zip(v, left, strict=True)), k - 1, i,
                          chosen + [v])

        split(tuple(int(a) for a in avail), self.n, 0, [])
        return out

    def set_compositions(self, sets: np.ndarray) -> np.ndarray:
        """Per set (a bool row over the pieces): its pieces of each size, in
        :meth:`size_classes` order."""
        sizes, _ = self.size_classes()
        return np.stack([sets[:, self.sizes == s].sum(axis=1) for s in sizes], axis=1)

    @cached_property
    def _colour_imbalance(self) -> np.ndarray:
        """Per piece: |cells on even squares - cells on odd squares| (the same everywhere)."""
        return np.array([_checker_imbalance(p.shape.cells) for p in self.pieces],
                        dtype=np.int64)

    def parity_ok(self, members: np.ndarray) -> bool:
        """Whether the pieces (a bool mask) can be coloured to match the frame's checkerboard
        imbalance: some choice of signs s_i with sum s_i * imbalance_i = frame imbalance."""
        target = _checker_imbalance(self.frame.cells)
        reach = {0}
        for d in self._colour_imbalance[members].tolist():
            if d:
                reach = {r + d for r in reach} | {r - d for r in reach}
        return target in reach or -target in reach

    # -- symmetry and the hole ---------------------------------------------------------------

    def hole_places(self) -> list[tuple[int, ...]]:
        """With ``hole_search``: one cell per class of cells under the frame's symmetries,
        centre first (places near the middle leave the most room around the hole)."""
        perms = [perm for _, perm in self.frame.symmetries()]
        reps = {int(min(p[i] for p in perms)) for i in range(self.frame.num_cells)}
        cells = [tuple(int(x) for x in self.frame.cells[i]) for i in sorted(reps)]
        centre = (np.array(self.frame.dims) - 1) / 2
        return sorted(cells, key=lambda c: (float(np.abs(np.array(c) - centre).sum()), c))

    def with_hole(self, hole: tuple[int, ...]) -> Frames:
        """The same puzzle with every frame's hole at ``hole``."""
        if not self.hole_search:
            raise PuzzleError("this frames puzzle has no hole to place")
        board = self.frame.reshaped([hole])
        return replace(self, frame=board, hole_search=False,
                       name=f"{self.name}-hole-{'-'.join(map(str, hole))}")

    # -- models ----------------------------------------------------------------------------

    def build_model(self, encoding: str | None = None) -> Model:
        """Frames have no one model of the whole puzzle (see smtpuzzle.puzzles.Puzzle): they
        are solved in stages (solve_frames). Raises PuzzleError."""
        raise PuzzleError(f"{self.name} is a frames puzzle: its models are built in stages "
                          f"(`smtpuzzle frames {self.name}`)")

    # -- tilings of one frame --------------------------------------------------------------

    def frame_tiling(self, members: np.ndarray | None = None, precheck: bool = True) -> Tiling:
        """One frame: with ``members`` (bool per piece) exactly those pieces, else any
        pieces at most once each (what stage 1 enumerates). ``precheck``: refuse members
        that cannot fill it (off to verify an answer: its fault is then the answer's)."""
        if self.hole_search:
            raise PuzzleError("place the hole first (with_hole)")
        if members is None:
            pieces = [Piece(p.name, p.shape, 1, at_most=True, flip=p.flip) for p in self.pieces]
        else:
            pieces = [Piece(p.name, p.shape, 1, flip=p.flip)
                      for p, m in zip(self.pieces, members, strict=True) if m]
        names = {p.name for p in pieces}
        return Tiling(self.frame, pieces, name=self.name,
                      precheck=precheck and members is not None,
                      apart=[a for a in self.apart if a in names])

    # -- answers ---------------------------------------------------------------------------

    def verify(self, solution: FramesSolution) -> None:
        """Raise VerificationError unless the n frames are each a valid tiling of the frame
        and every piece is used exactly once over all of them."""
        if len(solution.frames) != self.n:
            raise VerificationError(f"{len(solution.frames)} frames, not {self.n}")
        index = {p.name: i for i, p in enumerate(self.pieces)}
        used: Counter[str] = Counter()
        holes = set()
        for k, frame in enumerate(solution.frames):
            members = np.zeros(len(self.pieces), dtype=bool)
            for pl in frame.placements:
                if pl.piece not in index:
                    raise VerificationError(f"frame {k + 1}: unknown piece {pl.piece!r}")
                members[index[pl.piece]] = True
                used[pl.piece] += 1
            puzzle = self
            if self.hole_search:
                covered = {c for pl in frame.placements
                           for c in cell_tuples(pl.cells, pl.piece)}
                free = [tuple(int(x) for x in c) for c in self.frame.cells.tolist()
                        if tuple(c) not in covered]
                if len(free) != 1:
                    raise VerificationError(f"frame {k + 1} leaves {len(free)} cells empty, "
                                            "not the one hole")
                holes.add(free[0])
                puzzle = self.with_hole(free[0])
            try:
                puzzle.frame_tiling(members, precheck=False).verify(frame)
            except VerificationError as exc:
                raise VerificationError(f"frame {k + 1}: {exc}") from None
        if len(holes) > 1:
            raise VerificationError("the frames have their holes at different places")
        twice = [p.name for p in self.pieces if used[p.name] > 1]
        unused = [p.name for p in self.pieces if not used[p.name]]
        for name in twice + unused:
            raise VerificationError(f"piece {name} is used {used[name]} times, not once")


def _checker_imbalance(cells: np.ndarray) -> int:
    """|cells on even squares - cells on odd squares| of a checkerboard colouring."""
    return abs(int(((cells.sum(axis=1) % 2) * 2 - 1).sum()))
