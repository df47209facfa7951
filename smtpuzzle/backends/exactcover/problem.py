"""Reading an exact-cover problem out of a neutral model.

Rows are the user variables. Exactly-one groups are primary cells (covered once),
at-most-one groups secondary cells (covered at most once), cardinalities over disjoint
row groups are multiplicities (pieces), unit clauses force or forbid rows. Any other
constraint means the model is not an exact cover, and the back end says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Groups, Model
from smtpuzzle.model.kinds import refuse_untaken

UNBOUNDED = np.iinfo(np.int64).max // 4


# The constraint kinds an exact cover takes: cells (exactly-one: primary, at-most-one:
# secondary), multiplicities (cardinalities over disjoint rows) and unit clauses.
TAKES = frozenset({"clauses", "exactly_one", "at_most_one", "cardinalities"})


class NotExactCover(PuzzleError):
    """The model has constraints an exact-cover search cannot take."""


@dataclass
class CoverProblem:
    n_rows: int
    cells: Groups  # per cell, in branching order: the rows covering it
    primary: np.ndarray  # bool per cell
    row_group: np.ndarray  # group per row, -1 for none
    group_need: np.ndarray
    group_cap: np.ndarray
    forced: np.ndarray  # rows that must be chosen
    forbidden: np.ndarray  # rows that must not (besides those of groups capped at 0)
    adjacency: np.ndarray | None = None  # (k, 2) pairs of neighbouring cells, if known


def from_model(model: Model) -> CoverProblem:
    user = model.user_vars
    n = len(user)
    row_of = np.full(model.num_vars + 1, -1, dtype=np.int64)
    row_of[user] = np.arange(n)
    if len(user) != model.num_vars:
        raise NotExactCover("the model has auxiliary variables; exact cover needs rows only")
    if model.ints.objective is not None:
        raise NotExactCover("the model has an objective; exact cover finds and counts "
                            "covers, it does not optimise (use cpsat or z3)")
    if len(model.all_implications()) or model.automata or \
            model.ints.count or model.ints.has_constraints() or model.weighted:
        raise NotExactCover("the model has integers, implications or automata; exact cover "
                            "takes none of them")
    refuse_untaken(model, TAKES, "exact cover")  # and no kind registered since

    def rows(groups: Groups, what: str) -> Groups:
        if len(groups.flat) and groups.flat.min() <= 0:
            raise NotExactCover(f"{what} over negated literals are not an exact cover")
        if len(groups.flat) > len(groups):  # a literal twice in a group counts twice
            keys = np.repeat(np.arange(len(groups)), groups.sizes) * (n + 1) + \
                row_of[groups.flat]
            if len(np.unique(keys)) < len(keys):
                raise NotExactCover(f"{what} that name a literal twice are not an exact cover")
        return Groups(row_of[groups.flat], groups.offsets)

    forced, forbidden = unit_rows(model, row_of)
    primary_cells = rows(Groups.concat(model.exactly_one), "exactly-one groups")
    secondary_cells = rows(model.all_at_most_one(), "at-most-one groups")
    cells = Groups.concat([primary_cells, secondary_cells])
    primary = np.concatenate([np.ones(len(primary_cells), bool),
                              np.zeros(len(secondary_cells), bool)])
    row_group = np.full(n, -1, dtype=np.int64)
    need, cap = [], []
    for card in model.cardinalities:
        g = rows(card.groups, "cardinalities")
        for i in range(len(g)):
            members = g[i]
            if (row_group[members] >= 0).any():
                raise NotExactCover("a row is in two cardinality groups")
            row_group[members] = len(need)
            k = int(card.bounds[i])
            need.append(k if card.cmp in (Cmp.EQ, Cmp.GE) else 0)
            cap.append(k if card.cmp in (Cmp.EQ, Cmp.LE) else UNBOUNDED)
    cap_arr = np.array(cap, dtype=np.int64)
    covered = np.zeros(n, dtype=bool)
    covered[cells.flat] = True
    if not covered.all():
        raise NotExactCover("some rows cover no cell")
    return CoverProblem(n, cells, primary, row_group, np.array(need, dtype=np.int64),
                        cap_arr, forced, forbidden, model.cell_adjacency)


def unit_rows(model: Model, row_of: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The rows the model's unit clauses force and forbid."""
    if row_of is None:
        row_of = np.full(model.num_vars + 1, -1, dtype=np.int64)
        row_of[model.user_vars] = np.arange(len(model.user_vars))
    clauses = model.all_clauses()
    if len(clauses) and (clauses.sizes == 0).any() and len(model.user_vars):
        # an empty clause (add_false): no cover; a row both forced and forbidden says so
        return np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    if len(clauses) and (clauses.sizes != 1).any():
        raise NotExactCover("the model has clauses longer than one literal")
    units = clauses.flat
    return np.unique(row_of[units[units > 0]]), np.unique(row_of[-units[units < 0]])


def structure_key(model: Model) -> bytes:
    """What sub-models of one model share (they differ in unit clauses only), by content:
    a model changed in any other way gets a new key, and so a new search."""
    h = hashlib.blake2b(digest_size=16)
    # Kinds exact cover cannot take are counted too, so that from_model sees and refuses them.
    h.update(np.array([model.num_vars, len(model.exactly_one), len(model.at_most_one),
                       len(model.cardinalities), len(model.implications),
                       len(model.automata), model.ints.count, len(model.weighted)],
                      dtype=np.int64).data)
    for g in [*model.exactly_one, *model.at_most_one]:
        h.update(g.digest())
    for card in model.cardinalities:
        h.update(card.groups.digest())
        h.update(str(card.cmp).encode())  # its symbol, as digests were made
        h.update(np.ascontiguousarray(card.bounds, dtype=np.int64).data)
    h.update(np.ascontiguousarray(model.user_vars, dtype=np.int64).data)
    if model.cell_adjacency is not None:
        h.update(np.ascontiguousarray(model.cell_adjacency, dtype=np.int64).data)
    return h.digest()
