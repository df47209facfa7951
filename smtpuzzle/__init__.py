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
from smtpuzzle.formats.nonogram_files import load_nonogram
from smtpuzzle.formats.puzzle_toml import load_puzzle_file, parse_puzzle
from smtpuzzle.geometry import Board, Shape, free_polyominoes, parse_picture, piece_set
from smtpuzzle.library import list_models, load, load_frames, load_puzzle
from smtpuzzle.model import Cmp, Groups, IntVar, Model
from smtpuzzle.puzzles.frames import Frames, FramesSolution
from smtpuzzle.puzzles.frames_solve import FramesAnswer, FramesOptions, solve_frames
from smtpuzzle.puzzles.maze_search import SearchResult as MazeSearchResult
from smtpuzzle.puzzles.maze_search import search as search_maze
from smtpuzzle.puzzles.nonogram import Nonogram
from smtpuzzle.puzzles.nonogram_solve import NonogramAnswer, solve_nonogram
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
    "Frames",
    "FramesAnswer",
    "FramesOptions",
    "FramesSolution",
    "Groups",
    "IntVar",
    "MazeSearchResult",
    "Model",
    "Nonogram",
    "NonogramAnswer",
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
    "load_frames",
    "load_nonogram",
    "load_puzzle",
    "load_puzzle_file",
    "load_suite",
    "parse_picture",
    "parse_puzzle",
    "piece_set",
    "run_suites",
    "search_maze",
    "solve_frames",
    "solve_nonogram",
    "summarise",
    "to_cnf",
    "write_dimacs",
]
