"""Polyomino / polycube tiling: fill (or pack) a board with pieces of given multiplicities.

One boolean per placement (a piece in one orientation at one position); exactly one (or at
most one, for packings) placement per cell; a cardinality per piece. The verifier checks a
decoded solution against the puzzle's definition alone, not against the model.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.geometry.board import Board
from smtpuzzle.geometry.edges import crossing_at
from smtpuzzle.geometry.shapes import Shape, parse_picture
from smtpuzzle.model import Cmp, Groups, Model
from smtpuzzle.puzzles.tiling.crossing import crossing_groups
from smtpuzzle.runtime.memory import check_fits_in_memory

if TYPE_CHECKING:
    from smtpuzzle.backends import Backend

COVERS = ("exact", "pack")
TOUCH = ("any", "none")
TOUCH_ENCODINGS = ("vertex", "pairs")
GROUPS = ("board", "rotations")  # what "distinct" solutions are counted up to
# What a placement's cell costs once placed and modelled (the placements' cell numbers and
# the model's groups; measured in bench/RESULTS.md, "Hardening (issue 23)").
_BYTES_PER_PLACEMENT_CELL = 64


@dataclass
class Piece:
    """A piece with its multiplicity: exactly ``count`` copies, or at most ``count``."""

    name: str
    shape: Shape
    count: int = 1
    at_most: bool = False
    flip: bool | None = None  # None: reflections allowed in 2D, rotations only in 3D

    def __post_init__(self) -> None:
        if isinstance(self.shape, str):  # a picture, as in a puzzle file
            self.shape = parse_picture(self.shape)
        elif not isinstance(self.shape, Shape):
            raise TypeError(f"piece {self.name}: its shape is a Shape or a picture such as "
                            f"'##', not {type(self.shape).__name__}")
        if isinstance(self.count, np.integer):  # np.int8(100) * 5 cells wraps to -12
            self.count = int(self.count)

    def reflections(self, dim: int) -> bool:
        return (dim == 2) if self.flip is None else self.flip

    @property
    def required(self) -> int:
        return 0 if self.at_most else self.count


@dataclass
class Placement:
    """One piece put on the board: its name and the cells it covers."""

    piece: str
    cells: tuple[tuple[int, ...], ...]

    def as_json(self) -> dict[str, Any]:
        return {"piece": self.piece, "cells": [list(c) for c in self.cells]}


@dataclass
class TilingSolution:
    """A tiling's solution: a placement per piece used."""

    placements: list[Placement]

    def as_json(self) -> dict[str, Any]:
        return {"placements": [p.as_json() for p in self.placements]}


@dataclass
class _PiecePlacements:
    piece: Piece
    orientations: list[Shape]
    cells: np.ndarray  # (placements, piece size) board cell indices


class _PlacementNames(Sequence):
    """User-variable names, made on demand: ``F@0,1;0,2;1,0;1,1;2,1``."""

    def __init__(self, tiling: Tiling) -> None:
        self._t = tiling

    def __len__(self) -> int:
        return self._t.num_placements

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not 0 <= i < len(self):
            raise IndexError(i)
        piece, cells = self._t.placement(i)
        return f"{piece}@" + ";".join(",".join(map(str, c)) for c in cells)


def _reachable(pieces: list[tuple[np.ndarray, int]], want: int, area: int) -> bool:
    """Whether ``want`` is a sum of one value a copy, for pieces given as (the values one
    copy can take, copies); True too when deciding it would take long (nothing refused)."""
    reach = np.zeros(area + 1, dtype=bool)
    reach[0] = True
    work = 0
    for values, copies in pieces:
        if copies == 0:
            continue
        lo, hi = int(values[0]), int(values[-1])
        if len(values) == hi - lo + 1:  # a run of values: the copies reach every sum between
            ends = np.arange(area + 1)
            seen = np.concatenate([[0], np.cumsum(reach)])
            reach = seen[np.clip(ends - copies * lo + 1, 0, area + 1)] > \
                seen[np.clip(ends - copies * hi, 0, area + 1)]
            continue
        work += copies * len(values) * (area + 1)
        if work > 50_000_000:
            return True
        for _ in range(copies):
            grown = np.zeros_like(reach)
            for v in values.tolist():
                grown[v:] |= reach[:area + 1 - v]
            reach = grown
    return bool(reach[want])


def require_tiling(obj: object, what: str) -> None:
    """A TypeError unless ``obj`` is a Tiling: the tiling functions read its board and
    pieces, and a Model (the usual mix-up) has its own solve, solutions and count."""
    if isinstance(obj, Tiling):
        return
    from smtpuzzle.model import Model

    hint = " (a Model has its own solve(), solutions() and count())" \
        if isinstance(obj, Model) else ""
    raise TypeError(f"{what} takes a Tiling, got {type(obj).__name__}{hint}")


@dataclass
class Tiling:
    """A board, pieces with multiplicities, and whether every cell must be covered."""

    family: ClassVar[str] = "tiling"
    board: Board
    pieces: list[Piece]
    cover: str = "exact"
    name: str = "tiling"
    title: str = ""
    precheck: bool = True  # refuse obviously impossible puzzles at once, before any search
    touch: str = "any"  # "none": no two pieces share an edge or a corner (needs cover "pack")
    # How touch = "none" is encoded: "vertex", at most one placement per corner vertex (the
    # vertex-dual board; square boards that do not wrap); "pairs", at most one placement
    # over each pair of touching cells. None: "vertex" where it applies, else "pairs".
    touch_encoding: str | None = None
    # Pieces of which no two may touch, even at a corner (the rest touch freely).
    apart: list[str] = field(default_factory=list)
    # On an edge grid, whether two pieces may cross at a vertex (polystick puzzles say no).
    cross: bool = False
    _placed: list[_PiecePlacements] = field(default_factory=list, repr=False)
    _symmetries: list | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.board = as_board(self.board, "a tiling's board")
        if self.cover not in COVERS:
            raise PuzzleError(f"cover must be one of {', '.join(COVERS)}, got {self.cover!r}")
        if self.touch not in TOUCH:
            raise PuzzleError(f"touch must be one of {', '.join(TOUCH)}, got {self.touch!r}")
        if self.touch_encoding is None:
            self.touch_encoding = "vertex" if self.board.plain else "pairs"
        if self.touch_encoding not in TOUCH_ENCODINGS:
            raise PuzzleError(f"touch_encoding must be one of {', '.join(TOUCH_ENCODINGS)}, "
                              f"got {self.touch_encoding!r}")
        if self.touch == "none" and self.cover == "exact":
            raise PuzzleError('touch = "none" leaves cells empty: it needs cover = "pack"')
        if self.touch_encoding == "vertex" and not self.board.plain:
            raise PuzzleError('touch_encoding = "vertex" needs a square board that does not '
                              f'wrap (this one is {self.board.describe()}): use "pairs"')
        check_pieces(self.pieces, self.apart, self.board.dim, "board", self.board.grid.name)
        orients = [p.shape.orientations(p.reflections(self.board.dim)) for p in self.pieces]
        if self.precheck:  # before any placement: the board's size is enough
            self._check_obvious(orients)
        check_fits_in_memory(self.estimate_bytes(orients),
                             f"the {self.board.size_text} board's placements "
                             f"(about {placements_bound(self.board, orients):,})")
        self._placed = [self._place(p, o) for p, o in zip(self.pieces, orients, strict=True)]
        starts = np.cumsum([0] + [len(pp.cells) for pp in self._placed])
        self._starts = starts
        if self.precheck:  # smaller than the board, yet its holes leave no room
            for pp in self._placed:
                if pp.piece.required and not len(pp.cells):
                    raise PuzzleError(f"no solution: piece {pp.piece.name} fits nowhere on "
                                      f"the {self.board.size_text} board", piece=pp.piece.name)
            if self.cover == "exact" and all(p.required for p in self.pieces):
                self._check_colourings()

    # -- geometry --------------------------------------------------------------------------

    def _place(self, piece: Piece, orients: list[Shape]) -> _PiecePlacements:
        board, dims = self.board, np.array(self.board.dims)
        wrapped = board.wrapped_axes
        blocks = []
        for o in orients:
            # Translations keeping the shape in the box (a shape may start at column 1,
            # where the grid's parity puts it), and every turn round a wrapping axis.
            # Round a wrapping axis a shape may be longer than the board: it winds round,
            # and is placed where it does not land on itself.
            low, high = -o.cells.min(axis=0), dims - o.cells.max(axis=0)
            low[wrapped], high[wrapped] = 0, dims[wrapped]
            if (high <= low).any():
                continue
            pos = low + board.grid.shifts(tuple(high - low), low)  # (P, dim)
            idx = board.lookup(pos[:, None, :] + o.cells[None, :, :])  # (P, k)
            idx = idx[(idx >= 0).all(axis=1)]
            if wrapped and len(idx) and (np.array(o.extent)[wrapped] > dims[wrapped]).any():
                ordered = np.sort(idx, axis=1)
                idx = idx[(ordered[:, 1:] != ordered[:, :-1]).all(axis=1)]
            blocks.append(idx)
        cells = np.concatenate(blocks) if blocks else np.zeros((0, piece.shape.size), np.int64)
        if wrapped and len(cells):
            # Round a cylinder, two orientations may put a piece on the same cells.
            _, first = np.unique(np.sort(cells, axis=1), axis=0, return_index=True)
            cells = cells[np.sort(first)]
        return _PiecePlacements(piece, orients, cells)

    def _check_obvious(self, orients: list[list[Shape]]) -> None:
        """Impossibilities that need no search (nor the board's cells): a piece that never
        fits, area mismatch."""
        for piece, shapes in zip(self.pieces, orients, strict=True):
            if piece.required:
                check_fits(piece, shapes, self.board, "board")
        area = self.board.num_cells
        low = sum(p.required * p.shape.size for p in self.pieces)
        high = sum(p.count * p.shape.size for p in self.pieces)
        unit = self.board.unit
        if low > area:
            raise PuzzleError(
                f"no solution: the pieces cover {low:,} {unit} but the board has only {area:,}"
            )
        if self.cover == "exact" and high < area:
            what = "the pieces" if low == high else "the pieces at most"
            raise PuzzleError(
                f"no solution: {what} cover {high:,} {unit} but the board has {area:,}"
            )

    def _check_colourings(self) -> None:
        """Refuse a puzzle that a colouring rules out (the parity arguments of the
        literature, found by the tool): colour the cells where a stripe pattern, such as
        (row + column) mod 2, is 0. Each placement covers so many coloured cells; if no
        choice of one placement a piece copy sums to the board's coloured cells, no tiling
        exists. Subset sums over the copies decide it in a few array operations."""
        at = self.board.cells
        forms = {"row": at[:, 0], "column": at[:, 1]} if self.board.dim == 2 else \
            {"x": at[:, 0], "y": at[:, 1], "z": at[:, 2]}
        forms[" + ".join(forms)] = at.sum(axis=1)
        if self.board.dim == 2:
            forms["row - column"] = at[:, 0] - at[:, 1]
        area = self.board.num_cells
        for (form, values), m in itertools.product(forms.items(), (2, 3)):
            coloured = (values % m == 0).astype(np.int64)
            want = int(coloured.sum())
            if want not in (0, area) and not _reachable(
                    [(np.unique(coloured[pp.cells].sum(axis=1)), pp.piece.count)
                     for pp in self._placed], want, area):
                shown = f"({form})" if " " in form else form
                raise PuzzleError(
                    f"no solution, by colouring: the board has {want:,} {self.board.unit} where "
                    f"{shown} "
                    f"mod {m} is 0, and the pieces, however placed, never cover exactly "
                    f"{want:,} of them")

    def estimate_bytes(self, orients: list[list[Shape]] | None = None) -> int:
        """Memory that placing the pieces and building the model will take, at most about:
        the board's cell arrays, the largest orientation's temporary arrays while it is
        placed, and per placement cell what the placements and the model keep."""
        if orients is None:
            orients = [pp.orientations for pp in self._placed]
        dim, peak, kept = self.board.dim, 0, 0
        for shapes in orients:
            for o in shapes:
                n, k = _positions(self.board, o), o.size
                peak = max(peak, n * (8 * dim + 8 * k * dim + 17 * k))
                kept += n * k * _BYTES_PER_PLACEMENT_CELL
        return self.board.box_size * (9 + 8 * dim) + peak + kept

    def check_memory(self, engine: Backend) -> None:
        """Refuse (PuzzleError, with the estimate) a model that ``engine`` could not hold in
        the memory available, by its own estimate (Backend.cover_bytes)."""
        cells = sum(int(pp.cells.size) for pp in self._placed)
        need = engine.cover_bytes(self.num_placements, self.board.num_cells, cells)
        check_fits_in_memory(need + self.estimate_bytes(),
                             f"{engine.name} on {self.name}'s {self.num_placements:,} "
                             "placements")

    @property
    def num_placements(self) -> int:
        return int(self._starts[-1])

    def placement_counts(self) -> dict[str, int]:
        return {pp.piece.name: len(pp.cells) for pp in self._placed}

    def placement_cells(self) -> list[np.ndarray]:
        """Board cell indices of every placement, by placement number."""
        return [row for pp in self._placed for row in pp.cells]

    def placements_covering(self, cell: int) -> np.ndarray:
        """Numbers of the placements that cover board cell ``cell``."""
        hits = [np.flatnonzero((pp.cells == cell).any(axis=1)) + s
                for pp, s in zip(self._placed, self._starts[:-1], strict=True)]
        return np.concatenate(hits) if hits else np.zeros(0, dtype=np.int64)

    def placement_pieces(self) -> np.ndarray:
        """The piece index (into ``pieces``) of every placement, by placement number."""
        return np.repeat(np.arange(len(self.pieces)), np.diff(self._starts))

    def placement(self, i: int) -> tuple[str, list[tuple[int, ...]]]:
        k = int(np.searchsorted(self._starts, i, side="right") - 1)
        pp = self._placed[k]
        cells = self.board.cells[pp.cells[i - self._starts[k]]]
        return pp.piece.name, [tuple(c) for c in cells.tolist()]

    # -- model -----------------------------------------------------------------------------

    def build_model(self, encoding: str | None = None) -> Model:
        """The puzzle as a neutral model: one user variable per placement. A tiling has one
        encoding: naming one (as a nonogram may) is an error."""
        if encoding is not None:
            raise PuzzleError(f"`encoding`: for nonograms only ({self.name} is a tiling)")
        model = Model(self.name)
        var = model.new_bools(self.num_placements, user=True, names=_PlacementNames(self))
        # Cell constraints: group the placements covering each cell (CSR by cell), cells in
        # sweep order. With touch = "none" the groups are the cells' corner vertices instead:
        # two pieces touch, even at a corner, exactly when they share a vertex.
        incidence = self._incidence()
        owners = np.concatenate(
            [np.repeat(var[s:e], cells.shape[1])
             for cells, s, e in zip(incidence, self._starts[:-1], self._starts[1:], strict=True)]
        )
        covered = np.concatenate([cells.reshape(-1) for cells in incidence])
        vertices = self.touch == "none" and self.touch_encoding == "vertex"
        rank = self.sweep_rank(vertices=vertices)
        order = np.argsort(rank[covered], kind="stable")
        counts = np.bincount(rank[covered], minlength=len(rank))
        groups = Groups(owners[order], np.concatenate([[0], np.cumsum(counts)]))
        if self.cover == "exact":
            model.add_exactly_one(groups)
        else:
            model.add_at_most_one(groups)
        if self.touch == "none" and self.touch_encoding == "pairs":
            model.add_at_most_one(self._touching_pairs(groups))
        if self.apart and self.touch != "none":
            model.add_at_most_one(self._touching_pairs(self._apart_by_cell(var)))
        if self.board.grid.edges and not self.cross:
            model.add_at_most_one(crossing_groups(
                self.board.grid, [self.board.cells[pp.cells] for pp in self._placed],
                [var[s:e] for s, e in zip(self._starts[:-1], self._starts[1:], strict=True)]))
        # The dead-region test pays in 2D and costs more than it saves in 3D (six neighbours
        # per cell): measured in bench/RESULTS.md. Pieces and their vertex sets are connected.
        if self.board.dim == 2:
            model.cell_adjacency = self._sweep_adjacency(vertices=vertices)
        # Piece multiplicities: one cardinality each (the exact-cover back end reads these
        # as pieces, and the cell groups above as cells).
        # An "at most" bound that the board's area already enforces is left out: as clauses
        # it would cost a large counter and say nothing.
        for pp, s, e in zip(self._placed, self._starts[:-1], self._starts[1:], strict=True):
            p = pp.piece
            if p.at_most and p.count * p.shape.size >= self.board.num_cells:
                continue
            model.add_cardinality([var[s:e]], Cmp.LE if p.at_most else Cmp.EQ, p.count)
        return model

    def _touching_pairs(self, by_cell: Groups) -> Groups:
        """For each pair of cells that touch (across a face, edge or corner), the placements
        covering either cell, each once: at most one of them may be chosen. ``by_cell`` lists
        the placements per cell in sweep order."""
        rank = self.sweep_rank()
        unions = []
        for i, j in rank[self.board.adjacent_pairs(touching=True)].tolist():
            union = np.union1d(by_cell[i], by_cell[j])
            if len(union) > 1:
                unions.append(union)
        return Groups.of(unions)

    def _apart_by_cell(self, var: np.ndarray) -> Groups:
        """The placements of the ``apart`` pieces covering each cell, cells in sweep order."""
        apart = set(self.apart)
        owners, covered = [], []
        for pp, s, e in zip(self._placed, self._starts[:-1], self._starts[1:], strict=True):
            if pp.piece.name in apart:
                owners.append(np.repeat(var[s:e], pp.cells.shape[1]))
                covered.append(pp.cells.reshape(-1))
        rank = self.sweep_rank()
        cells = rank[np.concatenate(covered)]
        order = np.argsort(cells, kind="stable")
        counts = np.bincount(cells, minlength=len(rank))
        return Groups(np.concatenate(owners)[order], np.concatenate([[0], np.cumsum(counts)]))

    def _vertex_dims(self) -> tuple[int, ...]:
        return tuple(d + 1 for d in self.board.dims)

    def _incidence(self) -> list[np.ndarray]:
        """Per piece, (placements, k) arrays of what each placement occupies: board cell
        indices, or with touch = "none" the box-indexed corner vertices of its cells."""
        if self.touch != "none" or self.touch_encoding != "vertex":
            return [pp.cells for pp in self._placed]
        dim, vdims = self.board.dim, self._vertex_dims()
        corners = np.indices((2,) * dim).reshape(dim, -1).T  # (2^dim, dim)
        out = []
        for pp in self._placed:
            coords = self.board.cells[pp.cells]  # (P, k, dim)
            verts = coords[:, :, None, :] + corners[None, None, :, :]
            lin = np.ravel_multi_index(tuple(np.moveaxis(verts, -1, 0)), vdims)
            per_row = corners.shape[0] * pp.cells.shape[1]  # known even with no placement
            lin = np.sort(lin.reshape(len(pp.cells), per_row), axis=1)
            if len(lin):
                # A shape's vertex set has the same size in every placement: keep the first
                # occurrence of each vertex per row.
                first = np.concatenate([np.ones((len(lin), 1), bool),
                                        lin[:, 1:] != lin[:, :-1]], axis=1)
                lin = lin[first].reshape(len(lin), int(first[0].sum()))
            out.append(lin)
        return out

    def sweep_order(self, vertices: bool = False) -> np.ndarray:
        """Cells (or, for touch = "none", box vertices) in the order a cell-first search fills
        them: the longest axis varies slowest, so the frontier stays short."""
        dims = self._vertex_dims() if vertices else self.board.dims
        cells = np.indices(dims).reshape(len(dims), -1).T if vertices else self.board.cells
        axes = sorted(range(len(dims)), key=lambda a: (dims[a], -a))
        return np.lexsort([cells[:, a] for a in axes])

    def _sweep_adjacency(self, vertices: bool = False) -> np.ndarray:
        """Pairs of face-adjacent cells (or box vertices), numbered in sweep order."""
        rank = self.sweep_rank(vertices)
        if not vertices:
            return rank[self.board.adjacent_pairs()]
        dims = self._vertex_dims()
        index = np.arange(int(np.prod(dims))).reshape(dims)
        points = np.indices(dims).reshape(len(dims), -1).T
        pairs = []
        for axis in range(len(dims)):
            nxt = points.copy()
            nxt[:, axis] += 1
            inside = np.flatnonzero(nxt[:, axis] < dims[axis])
            other = index[tuple(nxt[inside].T)]
            pairs.append(np.stack([rank[inside], rank[other]], axis=1))
        return np.concatenate(pairs)

    def sweep_rank(self, vertices: bool = False) -> np.ndarray:
        order = self.sweep_order(vertices)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return rank

    # -- symmetry --------------------------------------------------------------------------

    def placement_range(self, k: int) -> tuple[int, int]:
        """The placement numbers of piece ``k``: ``range(start, end)``."""
        return int(self._starts[k]), int(self._starts[k + 1])

    def symmetries(self, group: str = "board") -> list[tuple[int, np.ndarray]]:
        """The board symmetries that map the puzzle onto itself, identity first, each as
        ``(index into the grid's group, placement permutation)``; ``group = "rotations"``
        keeps those that reflect nothing (rotations, and translations round a wrapping
        board)."""
        if group not in GROUPS:
            raise PuzzleError(f"unknown symmetry group {group!r} (known: {', '.join(GROUPS)})")
        if self._symmetries is None:
            self._symmetries = self._find_symmetries()
        if group == "rotations":
            return [(k, p) for k, p in self._symmetries if k < self.board.grid.rotations()]
        return self._symmetries

    def _find_symmetries(self) -> list[tuple[int, np.ndarray]]:
        """Every board symmetry that maps the puzzle onto itself. A symmetry may exchange
        pieces (a mirror turns Soma's A into B); it qualifies when every piece's placements
        map onto the placements of one piece with the same multiplicity, each piece the
        image of one (itself first: pieces drawn alike stay apart)."""
        # Per piece, its placements by their cells: pieces of one shape share cell sets, so
        # a placement is found among one piece's at a time.
        keys: list[dict[bytes, int]] = []
        for k, pp in enumerate(self._placed):
            base = int(self._starts[k])
            keys.append({row.tobytes(): base + i
                         for i, row in enumerate(np.sort(pp.cells, axis=1))})
        sizes = {pp.cells.shape[1] for pp in self._placed}
        out = []
        for g, cell_perm in self.board.symmetries():
            perm = np.empty(self.num_placements, dtype=np.int64)
            taken: set[int] = set()
            ok = True
            for k, pp in enumerate(self._placed):
                if not len(pp.cells):
                    continue
                rows = [row.tobytes() for row in np.sort(cell_perm[pp.cells], axis=1)]
                others = (j for j in range(len(self._placed)) if j != k)
                target = next((j for j in (k, *others)
                               if j not in taken and self._same_multiplicity(j, k)
                               and all(r in keys[j] for r in rows)), None)
                if target is None:
                    ok = False
                    break
                taken.add(target)  # each piece the image of one: a permutation
                perm[self._starts[k]:self._starts[k + 1]] = [keys[target][r] for r in rows]
            if ok and sizes:
                out.append((g, perm))
        return out

    def _same_multiplicity(self, j: int, k: int) -> bool:
        a, b = self.pieces[j], self.pieces[k]
        return (a.count, a.at_most) == (b.count, b.at_most)

    def symmetry_description(self, group: str = "board") -> str:
        """Which group: e.g. '4 symmetries: identity, rotation 180, 2 reflections'; on a
        wrapping board '40 symmetries: 20 translations, each with identity, rotation 180'."""
        syms = self.symmetries(group)
        kinds = list(dict.fromkeys(k for k, _ in syms))
        grid = self.board.grid
        words = [grid.describe(k) for k in kinds]
        parts = [w for w in words if w not in ("rotation", "reflection")]  # named one by one
        rot = sum(1 for w in words if w == "rotation")
        refl = sum(1 for w in words if w == "reflection")
        if rot:
            parts.append(f"{rot} rotations")
        if refl:
            parts.append(f"{refl} reflection{'s' if refl > 1 else ''}")
        n = len(syms)
        text = f"{n} symmetr{'ies' if n > 1 else 'y'}: "
        turns = n // len(kinds)
        if turns > 1:
            text += f"{turns} translations, each with "
        return text + ", ".join(parts)

    # -- answers ---------------------------------------------------------------------------

    def decode(self, values: np.ndarray) -> TilingSolution:
        """The placements chosen by a user-variable assignment (one bool per placement, as
        a back end's ``Result.values``)."""
        if values is None or not hasattr(values, "__len__"):
            hint = " (pass its .values)" if hasattr(values, "values") else ""
            raise TypeError(f"decode takes one bool per placement, got "
                            f"{type(values).__name__}{hint}")
        values = np.asarray(values)
        if values.shape != (self.num_placements,) or values.dtype.kind not in "biu" or (
                values.dtype.kind != "b" and not np.isin(values, (0, 1)).all()):
            raise ValueError(f"decode takes one bool per placement ({self.num_placements}), "
                             f"got {values.dtype} values of shape {values.shape}")
        chosen = np.flatnonzero(values)
        placed = (self.placement(int(i)) for i in chosen)
        return TilingSolution([Placement(name, tuple(cells)) for name, cells in placed])

    def verify(self, solution: TilingSolution) -> None:
        """Raise VerificationError unless the solution obeys every rule of the puzzle."""
        pieces = {p.name: p for p in self.pieces}
        dim = self.board.dim
        used: Counter[str] = Counter()
        covered: set[tuple[int, ...]] = set()
        if not isinstance(solution, TilingSolution):
            raise TypeError(f"verify takes a TilingSolution, got {type(solution).__name__}")
        for pl in solution.placements:
            piece = pieces.get(pl.piece)
            if piece is None:
                raise VerificationError(f"unknown piece {pl.piece!r} in the solution")
            cells = cell_tuples(pl.cells, pl.piece)
            for c in cells:
                if len(c) != dim or not all(0 <= x < d for x, d in zip(c, self.board.dims,
                                                                        strict=True)):
                    raise VerificationError(f"piece {pl.piece} leaves the board at {list(c)}")
                if not self.board.mask[c]:
                    raise VerificationError(f"piece {pl.piece} covers {list(c)}, a hole or no "
                                            "cell of the board")
                if c in covered:
                    raise VerificationError(f"cell {list(c)} is covered twice")
                covered.add(c)
            if not _has_shape(cells, piece.shape, piece.reflections(dim), self.board):
                raise VerificationError(f"a placement of {pl.piece} does not have its shape")
            used[pl.piece] += 1
        for p in self.pieces:
            n = used[p.name]
            if (p.at_most and n > p.count) or (not p.at_most and n != p.count):
                want = f"at most {p.count}" if p.at_most else str(p.count)
                times = "once" if n == 1 else f"{n} times"
                raise VerificationError(f"piece {p.name} is used {times}, not {want}")
        if self.touch == "none" or self.apart:
            apart = set(self.apart) if self.touch != "none" else None
            owner = {int(self.board.index[c]): i for i, pl in enumerate(solution.placements)
                     for c in pl.cells if apart is None or pl.piece in apart}
            for x, y in self.board.adjacent_pairs(touching=True).tolist():
                i, j = owner.get(x), owner.get(y)
                if i is not None and j is not None and i != j:
                    a, b = solution.placements[i].piece, solution.placements[j].piece
                    raise VerificationError(f"pieces {a} and {b} touch at "
                                            f"{self.board.cells[x].tolist()}")
        if self.board.grid.edges and not self.cross:
            crossing = crossing_at(self.board.grid, [list(pl.cells)
                                                     for pl in solution.placements])
            if crossing is not None:
                at, i, j = crossing
                raise VerificationError(f"pieces {solution.placements[i].piece} and "
                                        f"{solution.placements[j].piece} cross at "
                                        f"{[round(x, 2) for x in at]}")
        if self.cover == "exact" and len(covered) != self.board.num_cells:
            raise VerificationError(
                f"{self.board.num_cells - len(covered)} board cells are left uncovered"
            )


def as_board(board: Any, what: str) -> Board:
    """``board`` as a Board: one already, or its sizes (a list such as [6, 10])."""
    if isinstance(board, Board):
        return board
    if isinstance(board, Sequence) and not isinstance(board, str) and all(
            isinstance(d, int | np.integer) and not isinstance(d, bool) for d in board):
        return Board(board)
    raise TypeError(f"{what} is a Board or its sizes such as [6, 10], not {board!r}")


def check_pieces(pieces: list[Piece], apart: list[str], dim: int, where: str,
                 grid_name: str = "square") -> None:
    """What any puzzle's pieces must satisfy: some pieces, unique names, ``apart`` naming
    pieces that exist, counts not negative, no 3D piece on a 2D ``where`` (board or
    frame), every piece of the board's grid. Shapes are lifted to the puzzle's dimension."""
    names = Counter(p.name for p in pieces)
    odd = next((n for n in names if not isinstance(n, str) or not n or not n.isprintable()),
               None)
    if odd is not None:
        raise PuzzleError(f"a piece's name is printable text, not {odd!r}")
    dup = [n for n, k in names.items() if k > 1]
    if dup:
        raise PuzzleError(f"piece name {dup[0]!r} is used twice; give each piece its own name")
    if not pieces:
        raise PuzzleError("the puzzle has no pieces")
    unknown = [n for n in apart if n not in names]
    if unknown:
        raise PuzzleError(f"apart: there is no piece {unknown[0]!r}")
    twice = [n for n, k in Counter(apart).items() if k > 1]
    if twice:
        raise PuzzleError(f"apart names {twice[0]!r} twice")
    for p in pieces:
        if isinstance(p.count, bool) or not isinstance(p.count, int | np.integer):
            raise PuzzleError(f"piece {p.name}: count must be a whole number, not {p.count!r}",
                              piece=p.name, key="count")
        if p.count < 0:
            raise PuzzleError(f"piece {p.name}: count must not be negative", piece=p.name,
                              key="count")
        if p.shape.grid.name != grid_name:
            raise PuzzleError(f"piece {p.name} is a shape of the {p.shape.grid.name} grid but "
                              f"the {where} is on the {grid_name} grid", piece=p.name)
        if p.shape.dim > dim:
            raise PuzzleError(f"piece {p.name} is 3D but the {where} is 2D", piece=p.name)
        p.shape = p.shape.lifted(dim)


def same_shapes(pieces: list[Piece]) -> list[tuple[str, str]]:
    """Pairs of pieces with the same shape (as each may be turned, and flipped where it
    flips): usually a piece drawn twice by mistake."""
    seen: dict[tuple, str] = {}
    out = []
    for p in pieces:
        flip = p.reflections(p.shape.dim)
        key = (p.shape.grid.name, flip, p.shape.canonical(flip).key)
        if key in seen:
            out.append((seen[key], p.name))
        else:
            seen[key] = p.name
    return out


def placements_bound(board: Board, orients: list[list[Shape]]) -> int:
    """At most this many placements: every position of every orientation in the box."""
    return sum(_positions(board, o) for shapes in orients for o in shapes)


def _positions(board: Board, shape: Shape) -> int:
    room = [d if a in board.wrapped_axes else d - e + 1
            for a, (d, e) in enumerate(zip(board.dims, shape.extent, strict=True))]
    return math.prod(room) if min(room) > 0 else 0


def cell_tuples(cells: Any, piece: str) -> tuple[tuple[int, ...], ...]:
    """A placement's cells as tuples of whole numbers (as_json gives lists)."""
    try:
        if any(isinstance(x, bool | np.bool_) for c in cells for x in c):
            raise TypeError  # True is no coordinate, though operator.index reads it as 1
        out = tuple(tuple(operator.index(x) for x in c) for c in cells)
    except TypeError:
        raise VerificationError(f"piece {piece} has cells that are not lists of whole "
                                f"numbers: {cells!r}") from None
    return out


def _has_shape(cells: tuple[tuple[int, ...], ...], shape: Shape, flip: bool,
               board: Board) -> bool:
    """Whether ``cells`` are a placement of ``shape`` on ``board``: some orientation,
    translated (and on a wrapping board wrapped round), lands on exactly these cells."""
    if len(set(cells)) != len(shape.cells):  # wrapped round, a piece may land on itself
        return False
    if not board.wrap:
        placed = Shape(cells, board.grid)
        return placed.grid.name == shape.grid.name and \
            placed.key in shape.orientation_keys(flip)
    want = {tuple(c) for c in cells}
    dims = np.array(board.dims)
    wrapped = board.wrapped_axes
    for o in shape.orientations(flip):
        for c in want:
            moved = o.cells + (np.array(c) - o.cells[0])
            moved[:, wrapped] %= dims[wrapped]
            if {tuple(x) for x in moved.tolist()} == want:
                return True
    return False


def check_fits(piece: Piece, orientations: list[Shape], board: Board, where: str) -> None:
    """Refuse a piece that is larger than the board (or frame) in every orientation
    (along the axes that do not wrap: round one that does, a piece may wind)."""
    wrapped = set(board.wrapped_axes)
    if not any(all(a <= b or axis in wrapped
                   for axis, (a, b) in enumerate(zip(o.extent, board.dims, strict=True)))
               for o in orientations):
        ext = "x".join(map(str, piece.shape.extent))
        raise PuzzleError(f"no solution: piece {piece.name} ({ext}) is larger than the "
                          f"{board.size_text} {where} in every orientation", piece=piece.name)
