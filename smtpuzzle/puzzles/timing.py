"""How long a back end that builds its model in this process will take to build one.

CP-SAT and Z3 turn a model into their own objects through their Python APIs, in this
process, and such a build cannot be stopped (the sat back end builds in a child process that
is killed at the deadline). With a time limit, a puzzle does not start a build that cannot
end in time: it answers unknown at once and says why. The costs are per clause, per literal
and per automaton step, fitted on nonogram and tiling models on the 2-core development
machine (bench/RESULTS.md, "Hardening (issue 23)"): an estimate, not a promise.
"""

from __future__ import annotations

from dataclasses import dataclass

from smtpuzzle.model import Model


@dataclass(frozen=True)
class BuildCost:
    """Microseconds per clause, per clause literal, per literal of a group (exactly-one,
    at-most-one, cardinality), per implication and per automaton step (a word's literal
    times the automaton's transitions)."""

    clause: float
    clause_literal: float
    group_literal: float
    implication: float
    automaton_step: float


BUILD_COSTS = {"cpsat": BuildCost(3.4, 0.15, 1.0, 3.4, 0.05),
               "z3": BuildCost(6.1, 0.43, 1.4, 6.1, 9.0)}


def build_seconds(backend: str, model: Model) -> float:
    """The estimated time for ``backend`` to build ``model`` in this process (0 for back
    ends that build elsewhere)."""
    cost = BUILD_COSTS.get(backend)
    if cost is None:
        return 0.0
    groups = [*model.exactly_one, *model.at_most_one, *(c.groups for c in model.cardinalities)]
    micro = (cost.clause * sum(len(g) for g in model.clauses)
             + cost.clause_literal * sum(len(g.flat) for g in model.clauses)
             + cost.group_literal * sum(len(g.flat) for g in groups)
             + cost.implication * sum(len(i) for i in model.implications)
             + cost.automaton_step * sum(len(a.literals) * len(a.transitions)
                                         for a in model.automata))
    return micro / 1e6


def too_slow_to_build(backend: str, model: Model, left: float | None) -> str | None:
    """Why ``backend`` should not start building ``model`` with ``left`` seconds to go (None
    when it may): the note an unknown answer gives."""
    if left is None:
        return None
    need = build_seconds(backend, model)
    if need <= left:
        return None
    return (f"not started: {backend} would take about {need:.0f} s to build this model in "
            f"this process, and {max(left, 0):.1f} s of the time limit were left (give "
            "more time, or the sat back end, which builds in a child process)")
