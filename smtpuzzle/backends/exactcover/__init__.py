"""Exact cover with multiplicities: a compiled, resumable cell-first search over bitsets."""

from smtpuzzle.backends.exactcover.problem import CoverProblem, NotExactCover, from_model
from smtpuzzle.backends.exactcover.search import CoverSearch

__all__ = ["CoverProblem", "CoverSearch", "NotExactCover", "from_model"]
