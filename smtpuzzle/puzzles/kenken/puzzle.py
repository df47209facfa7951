"""A KenKen and its model: a textbook one, written with the public modelling API only.

The grid has n x n cells, each an integer 1..n, every row and column all different (a Latin
square). Each cage has a target and an operation: ``+`` its cells sum to the target, ``*``
they multiply to it, ``-`` and ``/`` two cells whose difference or quotient it is (a table
of the allowed pairs), ``=`` one cell given.

A product cage is a table of the tuples its cells may take while those are few; past
:data:`MAX_TUPLES` (a cage along a row of 9 whose product is 9! has 362,880) it is a table
over how many of its cells take each value, whose rows are the few multisets of factors:
the product depends on nothing else, and the rows and columns keep their own rule.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.model import AllDifferent, Count, IntArray, Model, Table

OPERATIONS = "+-*/="
# The most tuples a product cage lists; past it the cage counts its values instead.
MAX_TUPLES = 5000


@dataclass(frozen=True)
class Cage:
    name: str
    cells: tuple[tuple[int, int], ...]  # (row, column), counted from 0
    target: int
    op: str  # one of OPERATIONS

    def __post_init__(self) -> None:
        # what the file reader refuses, refused for cages made in Python too
        if not isinstance(self.op, str) or len(self.op) != 1 or self.op not in OPERATIONS:
            raise PuzzleError(f"cage {self.name}: its operation is one of + - * / =, "
                              f"not {self.op!r}")
        if isinstance(self.target, bool) or not isinstance(self.target, int | np.integer) \
                or self.target < 1:
            raise PuzzleError(f"cage {self.name}: its target is a whole number, 1 or more, "
                              f"not {self.target!r}")
        need = {"-": 2, "/": 2, "=": 1}.get(self.op)
        if not self.cells or (need is not None and len(self.cells) != need):
            raise PuzzleError(f"cage {self.name}: '{self.op}' takes "
                              f"{need or 'one or more'} cells, it has {len(self.cells)}")

    def holds(self, values: list[int]) -> bool:
        """Whether ``values`` (the cells' values, in order) meet the cage's clue."""
        if self.op == "+":
            return sum(values) == self.target
        if self.op == "*":
            return math.prod(values) == self.target
        if self.op == "=":
            return values == [self.target]
        a, b = max(values), min(values)
        return a - b == self.target if self.op == "-" else a == b * self.target


def allowed(cage: Cage, n: int) -> list[tuple[int, ...]]:
    """Every tuple of values 1..n the cage's cells may take (for ``*``, ``-`` and ``/``),
    cells of the cage in one row or column taking different values (the Latin square rule:
    without it a cage along a row of 9 listed every ordered factorisation, minutes and
    gigabytes before the search)."""
    cells = cage.cells
    # for each cell, the cells before it in its row or column
    seen_by = [[j for j in range(i) if cells[j][0] == cells[i][0] or cells[j][1] == cells[i][1]]
               for i in range(len(cells))]
    if cage.op != "*":
        return [t for t in itertools.product(range(1, n + 1), repeat=len(cells))
                if cage.holds(list(t))
                and all(t[i] != t[j] for i, before in enumerate(seen_by) for j in before)]

    def factors(rest: int, chosen: tuple[int, ...]) -> list[tuple[int, ...]]:
        i = len(chosen)
        taken = {chosen[j] for j in seen_by[i]}
        if i == len(cells) - 1:
            return [(*chosen, rest)] if 1 <= rest <= n and rest not in taken else []
        return [t for v in range(1, n + 1) if rest % v == 0 and v not in taken
                for t in factors(rest // v, (*chosen, v))]
    return factors(cage.target, ())


def factor_counts(cage: Cage, n: int) -> list[tuple[int, ...]]:
    """Each multiset of values 1..n whose product is the cage's target, as how many cells
    take each value (``counts[v - 1]``); a value appears in at most as many of the cage's
    cells as the cage spans rows, and as it spans columns (the Latin square rule)."""
    most = min(len({r for r, _ in cage.cells}), len({c for _, c in cage.cells}))

    @functools.cache
    def split(v: int, rest: int, left: int) -> list[tuple[int, ...]]:
        """How often each of v..n appears among ``left`` more values whose product is
        ``rest``."""
        if left == 0:
            return [(0,) * (n + 1 - v)] if rest == 1 else []
        largest = [u for u in range(n, v - 1, -1) for _ in range(most)][:left]
        if len(largest) < left or rest > math.prod(largest):
            return []
        out, power = [], 1
        for c in range(min(most, left) + 1):
            if rest % power:
                break
            out += [(c, *t) for t in split(v + 1, rest // power, left - c)]
            power *= v
        return out
    return split(1, cage.target, len(cage.cells))


def orderings(counts: tuple[int, ...]) -> int:
    """How many tuples list the multiset ``counts`` (a multinomial coefficient)."""
    ways, placed = 1, 0
    for c in counts:
        placed += c
        ways *= math.comb(placed, c)
    return ways


@dataclass
class KenKen:
    size: int
    cages: list[Cage]
    name: str = "kenken"
    family = "kenken"

    def __post_init__(self) -> None:
        # what the file reader refuses, refused for puzzles made in Python too
        n = self.size
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
            raise PuzzleError(f"{self.name}: a KenKen's size is a whole number, 1 or more, "
                              f"not {n!r}")
        owner: dict[tuple[int, int], str] = {}
        for cage in self.cages:
            for cell in cage.cells:
                r, c = cell
                if not (isinstance(r, int | np.integer) and isinstance(c, int | np.integer)
                        and 0 <= r < n and 0 <= c < n):
                    raise PuzzleError(f"{self.name}: cage {cage.name} has the cell "
                                      f"{cell!r}, not one of the {n}x{n} grid's")
                if (r, c) in owner:
                    raise PuzzleError(f"{self.name}: cell {(int(r), int(c))} is in cages "
                                      f"{owner[r, c]} and {cage.name}")
                owner[int(r), int(c)] = cage.name
        if len(owner) != n * n:
            raise PuzzleError(f"{self.name}: {n * n - len(owner)} cells are in no cage")

    def build(self, named: bool = False) -> tuple[Model, IntArray]:
        """The model and its cells; ``named``: each cage a named group of its own
        (``cage A (12+)``), for Model.explain."""
        n = self.size
        m = Model(self.name)
        x = m.int_array((n, n), 1, n, name="cell")
        m.add(AllDifferent(x, axis=0), AllDifferent(x, axis=1))
        for cage in self.cages:
            rows, cols = np.array(cage.cells).T
            cells = x[rows, cols]
            group = f"cage {cage.name} ({cage.target}{'' if cage.op == '=' else cage.op})" \
                if named else None
            if cage.op == "+":
                m.add(cells.sum() == cage.target, name=group)
            elif cage.op == "=":
                m.add(cells == cage.target, name=group)
            elif cage.op == "*" and sum(map(orderings, counts := factor_counts(cage, n))) \
                    > MAX_TUPLES:
                used = m.int_array(n, 0, len(rows), name=f"cage {cage.name} counts")
                m.add([used[v - 1] == Count(cells, v) for v in range(1, n + 1)], name=group)
                m.add(Table(used, np.array(counts, dtype=np.int64).reshape(-1, n)), name=group)
            else:
                tuples = np.array(allowed(cage, n), dtype=np.int64).reshape(-1, len(rows))
                m.add(Table(cells, tuples), name=group)
        return m, x

    def build_model(self, encoding: str | None = None) -> Model:
        return self.build()[0]

    def verify(self, grid: np.ndarray) -> None:
        """Raise unless ``grid`` fills the puzzle by the rules (independent of any model)."""
        n, grid = self.size, np.asarray(grid)
        if grid.shape != (n, n):
            raise VerificationError(f"{self.name}: a grid of shape {grid.shape}, not {n}x{n}")
        full = list(range(1, n + 1))
        for what, lines in (("row", grid), ("column", grid.T)):
            for i, line in enumerate(lines):
                if sorted(line.tolist()) != full:
                    raise VerificationError(f"{self.name}: {what} {i + 1} is not 1..{n}")
        for cage in self.cages:
            values = [int(grid[r, c]) for r, c in cage.cells]
            if not cage.holds(values):
                raise VerificationError(f"{self.name}: cage {cage.name} ({cage.target}"
                                        f"{cage.op}) does not hold for {values}")
