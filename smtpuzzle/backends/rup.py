"""Checking a clausal proof with CaDiCaL (or MiniSat), lemma by lemma.

The formula's clauses and the proof's definitions go in as they are; a lemma is accepted
when CaDiCaL finds the clauses before it unsatisfiable together with the lemma's negation
(assumed) within LEMMA_CONFLICTS conflicts, and is added once accepted. The proofs written
for this check make every lemma follow by unit propagation (RUP, the check DRAT proof
checkers make), so CaDiCaL answers each at once, without search, in about 20 us. (PySAT's
CaDiCaL ``propagate`` costs 2 ms a call; ``solve`` with assumptions stops at the first
conflict.)
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from smtpuzzle.backends.pysat_sigint import python_sigint

CHECK_EVERY = 2048  # lemmas between looks at the clock
# CaDiCaL's conflicts for one lemma before it is taken as not following. A lemma written for
# this check follows by propagation alone; the budget keeps a tampered lemma from starting
# a search that neither the deadline nor Ctrl-C could stop (both are looked at between
# calls). Rejecting what would follow only after more search is the safe side.
LEMMA_CONFLICTS = 10_000
# No lucky phases and no inprocessing: each is work at every solve call, and a lemma's call
# needs only propagation (24 moves: 7.9 s -> 3.3 s).
QUIET = {"lucky": 0, "inprocessing": 0, "elim": 0, "probe": 0, "subsume": 0, "vivify": 0,
         "compact": 0, "decompose": 0, "transred": 0, "rephase": 0}


class OutOfTime(Exception):
    """The deadline passed during a check."""


CHECKERS = ("cadical", "minisat")


class ProofChecker:
    """``cadical``: each lemma by a CaDiCaL solve under its negation; ``minisat``: by
    MiniSat 2.2's unit propagation alone (the RUP check itself; no learnt clauses pile up,
    so it is the faster on long proofs)."""

    def __init__(self, clauses: Sequence[Sequence[int]], checker: str = "cadical") -> None:
        from pysat.solvers import Cadical195, Minisat22

        if checker == "cadical":
            self._solver = Cadical195()
            self._solver.configure(QUIET)
            self._solver.append_formula(clauses)
            solver = self._solver

            def follows(assumed: list[int]) -> bool:
                solver.conf_budget(LEMMA_CONFLICTS)
                return solver.solve_limited(assumptions=assumed) is False

            self._follows = follows
        elif checker == "minisat":
            self._solver = Minisat22(bootstrap_with=clauses)
            propagate = self._solver.propagate
            self._follows = lambda assumed: not propagate(assumptions=assumed)[0]
        else:
            raise ValueError(f"checker is one of {', '.join(CHECKERS)}, not {checker!r}")

    def add(self, clauses: Sequence[Sequence[int]]) -> None:
        self._solver.append_formula(clauses)

    def first_not_implied(self, lemmas: Sequence[Sequence[int]],
                          deadline: float | None = None) -> int | None:
        """The index of the first lemma that does not follow (None: all do); the lemmas
        are checked against what was added before them, not each other. The literals are
        assumed last first: a lemma that ends with its most common literal (a letter, in
        the maze proofs) then meets its conflict before that literal's consequences."""
        follows = self._follows
        with python_sigint():
            for i, lemma in enumerate(lemmas):
                if (deadline is not None and i % CHECK_EVERY == 0
                        and time.perf_counter() > deadline):
                    raise OutOfTime
                if not follows([-lit for lit in reversed(lemma)]):
                    return i
        return None

    def close(self) -> None:
        self._solver.delete()
