"""The backend-neutral model: variables, constraint kinds and their decompositions.

Booleans and bounded integers in numpy shapes (:class:`BoolArray`, :class:`IntArray`),
linear expressions and comparisons over them, global constraints (AllDifferent, Table,
Element, Regular, Count), reification with ``b.implies(...)`` and ``b == (...)``, an
objective; ``model.solve()`` / ``solutions()`` / ``count()`` / ``is_unique()`` on any back end.
"""

from smtpuzzle.model.arith import Max, Min
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
from smtpuzzle.model.graphs import (
    Circuit,
    Connected,
    ConnectedRegions,
    Graph,
    Inverse,
    Path,
    SingleCycle,
    SubCircuit,
    cell_edges,
    grid_graph,
    lattice_graph,
)
from smtpuzzle.model.groups import Groups
from smtpuzzle.model.scheduling import Cumulative, Intervals, NoOverlap

__all__ = ["AllDifferent", "Automaton", "BoolArray", "Cardinality", "Circuit", "Cmp", "Connected",
           "ConnectedRegions", "Count", "Cumulative", "Element", "Graph", "Groups", "IntArray",
           "Intervals", "Inverse", "LinCons", "LinExpr", "LitArray", "Max", "Min", "Model",
           "NoOverlap", "Path", "Regular", "SingleCycle", "SubCircuit", "Table", "cell_edges",
           "grid_graph", "headed_groups", "lattice_graph", "require_model"]
