"""The backend-neutral model: variables, constraint kinds and their decompositions."""

from smtpuzzle.model.core import (
    Automaton,
    Cardinality,
    Cmp,
    Groups,
    IntVar,
    LitArray,
    Model,
    headed_groups,
)

__all__ = ["Automaton", "Cardinality", "Cmp", "Groups", "IntVar", "LitArray", "Model",
           "headed_groups"]
