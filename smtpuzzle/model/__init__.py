"""The backend-neutral model: variables, constraint kinds and their decompositions.

Booleans and bounded integers in numpy shapes (:class:`BoolArray`, :class:`IntArray`),
linear expressions and comparisons over them, global constraints (AllDifferent, Table,
Element, Regular, Count), reification with ``b.implies(...)`` and ``b == (...)``, an
objective; ``model.solve()`` / ``solutions()`` / ``count()`` / ``is_unique()`` on any back end.
"""

from smtpuzzle.model.core import (
    Automaton,
    Cardinality,
    Cmp,
    LitArray,
    Model,
    headed_groups,
    require_model,
)
from smtpuzzle.model.expr import (
    AllDifferent,
    BoolArray,
    Count,
    Element,
    IntArray,
    LinCons,
    LinExpr,
    Regular,
    Table,
)
from smtpuzzle.model.groups import Groups

__all__ = ["AllDifferent", "Automaton", "BoolArray", "Cardinality", "Cmp", "Count", "Element",
           "Groups", "IntArray", "LinCons", "LinExpr", "LitArray", "Model",
           "Regular", "Table", "headed_groups", "require_model"]
