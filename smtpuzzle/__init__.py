"""smtpuzzle: describe a combinatorial puzzle once, solve it with SMT, CP-SAT or SAT.

    >>> from smtpuzzle import load, get_backend
    >>> tiling = load("pentomino-6x10")
    >>> result = get_backend("cpsat").solve(tiling.build_model())
    >>> tiling.verify(tiling.decode(result.values))
"""

from smtpuzzle.backends import BACKENDS, Backend, get_backend
from smtpuzzle.backends.cnf import CNF, to_cnf
from smtpuzzle.benchmark import load_suite, run_suites, summarise
from smtpuzzle.counting import CountResult, count
from smtpuzzle.errors import PuzzleError, VerificationError
from smtpuzzle.formats.dimacs import decode_answer, write_dimacs
from smtpuzzle.formats.puzzle_toml import load_puzzle_file, parse_puzzle
from smtpuzzle.geometry import Board, Shape, free_polyominoes, parse_picture, piece_set
from smtpuzzle.library import list_models, load
from smtpuzzle.model import Cmp, Groups, IntVar, Model
from smtpuzzle.puzzles.tiling import Piece, Placement, Tiling, TilingSolution
from smtpuzzle.result import Enumeration, Result, Stats, Status

__all__ = [
    "BACKENDS",
    "Backend",
    "Board",
    "CNF",
    "Cmp",
    "CountResult",
    "Enumeration",
    "Groups",
    "IntVar",
    "Model",
    "Piece",
    "Placement",
    "PuzzleError",
    "Result",
    "Shape",
    "Stats",
    "Status",
    "Tiling",
    "TilingSolution",
    "VerificationError",
    "count",
    "decode_answer",
    "free_polyominoes",
    "get_backend",
    "list_models",
    "load",
    "load_suite",
    "load_puzzle_file",
    "parse_picture",
    "parse_puzzle",
    "piece_set",
    "run_suites",
    "summarise",
    "to_cnf",
    "write_dimacs",
]
