"""A tiling as a finite-domain model: each piece's value is its placement number.

The placement model (``Tiling.build_model``) has a boolean per placement. Here each copy of
a piece is an integer over its placements instead, and each cell is covered by exactly one
of the literals "copy i of piece k is at placement j" whose placement covers it: on CP-SAT
and z3 those are native integers with reified equalities, on the sat back end and in DIMACS
the integers' direct encoding. Copies of one piece take increasing placement numbers (they
are interchangeable). Written with the public modelling API, as the Sudoku and KenKen
families are; it is the other half of the comparison in bench/frames.py ``tilings``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Groups, Model
from smtpuzzle.model.expr import IntArray
from smtpuzzle.puzzles.tiling.puzzle import Tiling


@dataclass
class IndexModel:
    """The model, each piece's copies (integers over its placement numbers, counted from
    the piece's first placement) and where each piece's placements start."""

    model: Model
    copies: list[IntArray]
    starts: np.ndarray

    def placements(self) -> np.ndarray:
        """The placement numbers of the last solution taken into ``model``."""
        chosen = [s + np.atleast_1d(x.value()) for x, s in zip(self.copies, self.starts,
                                                               strict=True)]
        return np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)

    def values(self, num_placements: int) -> np.ndarray:
        """The last solution as the placement model's assignment (for ``Tiling.decode``)."""
        values = np.zeros(num_placements, dtype=bool)
        values[self.placements()] = True
        return values


def index_model(tiling: Tiling) -> IndexModel:
    """The finite-domain model of an exact tiling with fixed piece counts."""
    if tiling.cover != "exact" or tiling.touch == "none" or tiling.apart:
        raise PuzzleError(f"`model=index`: for exact covers without touch or apart rules "
                          f"({tiling.name} has cover = {tiling.cover!r}, touch = "
                          f"{tiling.touch!r}, apart = {list(tiling.apart)})")
    optional = [p.name for p in tiling.pieces if p.at_most]
    if optional:
        raise PuzzleError(f"`model=index`: every piece needs a fixed count ({tiling.name}: "
                          f"{', '.join(optional)} may be left out)")
    model = Model(f"{tiling.name}-index")
    starts = tiling._starts
    copies, owners, cells = [], [], []
    for k, cells_k in enumerate(tiling._incidence()):
        piece, n_places = tiling.pieces[k], len(cells_k)
        if n_places == 0:
            raise PuzzleError(f"piece {piece.name} has no placement on the board")
        x = model.int_array(piece.count, 0, n_places - 1, name=piece.name)
        if piece.count > 1:
            model.add(x[:-1] < x[1:])  # interchangeable copies
        lit_ids = x[:, None].eq(np.arange(n_places)[None, :]).ids  # (copies, placements)
        owners.append(np.repeat(lit_ids, cells_k.shape[1], axis=1).reshape(-1))
        cells.append(np.tile(cells_k.reshape(-1), piece.count))
        copies.append(x)
    owner = np.concatenate(owners)
    cell = np.concatenate(cells)
    order = np.argsort(cell, kind="stable")
    counts = np.bincount(cell, minlength=tiling.board.num_cells)
    model.add_exactly_one(Groups(owner[order], np.concatenate([[0], np.cumsum(counts)])))
    return IndexModel(model, copies, np.asarray(starts[:-1], dtype=np.int64))
