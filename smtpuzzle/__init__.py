"""smtpuzzle: describe a combinatorial puzzle once, solve it with SMT, CP-SAT or SAT.

    >>> from smtpuzzle import load, get_backend
    >>> tiling = load("pentomino-6x10")
    >>> result = get_backend("cpsat").solve(tiling.build_model())
    >>> tiling.verify(tiling.decode(result.values))
"""

import importlib
from typing import TYPE_CHECKING, Any

from smtpuzzle.errors import ProcessDied, PuzzleError, VerificationError

if TYPE_CHECKING:
    from smtpuzzle.backends import BACKENDS, Backend, get_backend
    from smtpuzzle.backends.cnf import CNF, to_cnf
    from smtpuzzle.backends.dimacs import decode_answer, write_dimacs
    from smtpuzzle.benchmark import load_suite, run_suites, summarise
    from smtpuzzle.formats.nonogram_files import load_nonogram
    from smtpuzzle.formats.puzzle_toml import load_puzzle_file, parse_puzzle
    from smtpuzzle.geometry import (
        Board,
        Grid,
        Shape,
        free_polyominoes,
        grid,
        parse_picture,
        piece_set,
        polyforms,
        shaped_cells,
    )
    from smtpuzzle.library import list_models, load, load_frames, load_puzzle
    from smtpuzzle.model import (
        AllDifferent,
        BoolArray,
        Circuit,
        Cmp,
        Connected,
        ConnectedRegions,
        Count,
        Cumulative,
        Element,
        Graph,
        Groups,
        IntArray,
        Intervals,
        Inverse,
        Max,
        Min,
        Model,
        NoOverlap,
        Path,
        Regular,
        SingleCycle,
        SubCircuit,
        Table,
        cell_edges,
        grid_graph,
        lattice_graph,
    )
    from smtpuzzle.puzzles.frames.puzzle import Frames, FramesSolution
    from smtpuzzle.puzzles.frames.solve import FramesAnswer, FramesOptions, solve_frames
    from smtpuzzle.puzzles.maze.bound.certificate import CheckedBound as MazeBoundCheck
    from smtpuzzle.puzzles.maze.bound.certificate import check_certificate as check_maze_bound
    from smtpuzzle.puzzles.maze.bound.prove import BoundResult as MazeBoundResult
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound as prove_maze_bound
    from smtpuzzle.puzzles.maze.bound.shorten import ShortenResult as MazeShortenResult
    from smtpuzzle.puzzles.maze.bound.shorten import shorten as shorten_maze_string
    from smtpuzzle.puzzles.maze.greedy import BuildResult as MazeBuildResult
    from smtpuzzle.puzzles.maze.greedy import build_string as build_maze_string
    from smtpuzzle.puzzles.maze.search import SearchResult as MazeSearchResult
    from smtpuzzle.puzzles.maze.search import search as search_maze
    from smtpuzzle.puzzles.nonogram.clues import Colour as NonogramColour
    from smtpuzzle.puzzles.nonogram.puzzle import Nonogram
    from smtpuzzle.puzzles.nonogram.solve import NonogramAnswer, solve_nonogram
    from smtpuzzle.puzzles.tiling.counting import CountResult, count
    from smtpuzzle.puzzles.tiling.puzzle import Piece, Placement, Tiling, TilingSolution
    from smtpuzzle.puzzles.tiling.solve import (
        TilingAnswer,
        TilingListing,
        list_tilings,
        solve_tiling,
    )
    from smtpuzzle.result import Answer, Enumeration, Result, SolutionCount, Stats, Status

# Every public name loads on first use: `import smtpuzzle` takes no time (numpy, the solver
# packages, numba and scipy come with the names that need them), so the command line starts
# fast and catches Ctrl-C from its first moment. Name -> (module, attribute).
_LAZY = {
    "BACKENDS": ("smtpuzzle.backends", "BACKENDS"),
    "Backend": ("smtpuzzle.backends", "Backend"),
    "get_backend": ("smtpuzzle.backends", "get_backend"),
    "CNF": ("smtpuzzle.backends.cnf", "CNF"),
    "to_cnf": ("smtpuzzle.backends.cnf", "to_cnf"),
    "load_suite": ("smtpuzzle.benchmark", "load_suite"),
    "run_suites": ("smtpuzzle.benchmark", "run_suites"),
    "summarise": ("smtpuzzle.benchmark", "summarise"),
    "decode_answer": ("smtpuzzle.backends.dimacs", "decode_answer"),
    "write_dimacs": ("smtpuzzle.backends.dimacs", "write_dimacs"),
    "load_puzzle_file": ("smtpuzzle.formats.puzzle_toml", "load_puzzle_file"),
    "parse_puzzle": ("smtpuzzle.formats.puzzle_toml", "parse_puzzle"),
    "Board": ("smtpuzzle.geometry", "Board"),
    "Shape": ("smtpuzzle.geometry", "Shape"),
    "free_polyominoes": ("smtpuzzle.geometry", "free_polyominoes"),
    "Grid": ("smtpuzzle.geometry", "Grid"),
    "grid": ("smtpuzzle.geometry", "grid"),
    "polyforms": ("smtpuzzle.geometry", "polyforms"),
    "shaped_cells": ("smtpuzzle.geometry", "shaped_cells"),
    "parse_picture": ("smtpuzzle.geometry", "parse_picture"),
    "piece_set": ("smtpuzzle.geometry", "piece_set"),
    "list_models": ("smtpuzzle.library", "list_models"),
    "load": ("smtpuzzle.library", "load"),
    "load_frames": ("smtpuzzle.library", "load_frames"),
    "load_puzzle": ("smtpuzzle.library", "load_puzzle"),
    "AllDifferent": ("smtpuzzle.model", "AllDifferent"),
    "BoolArray": ("smtpuzzle.model", "BoolArray"),
    "Cmp": ("smtpuzzle.model", "Cmp"),
    "Count": ("smtpuzzle.model", "Count"),
    "Connected": ("smtpuzzle.model", "Connected"),
    "ConnectedRegions": ("smtpuzzle.model", "ConnectedRegions"),
    "Circuit": ("smtpuzzle.model", "Circuit"),
    "SubCircuit": ("smtpuzzle.model", "SubCircuit"),
    "Inverse": ("smtpuzzle.model", "Inverse"),
    "Max": ("smtpuzzle.model", "Max"),
    "NoOverlap": ("smtpuzzle.model", "NoOverlap"),
    "Cumulative": ("smtpuzzle.model", "Cumulative"),
    "Min": ("smtpuzzle.model", "Min"),
    "SingleCycle": ("smtpuzzle.model", "SingleCycle"),
    "Path": ("smtpuzzle.model", "Path"),
    "Graph": ("smtpuzzle.model", "Graph"),
    "grid_graph": ("smtpuzzle.model", "grid_graph"),
    "lattice_graph": ("smtpuzzle.model", "lattice_graph"),
    "cell_edges": ("smtpuzzle.model", "cell_edges"),
    "Intervals": ("smtpuzzle.model", "Intervals"),
    "Element": ("smtpuzzle.model", "Element"),
    "Groups": ("smtpuzzle.model", "Groups"),
    "IntArray": ("smtpuzzle.model", "IntArray"),
    "Model": ("smtpuzzle.model", "Model"),
    "Regular": ("smtpuzzle.model", "Regular"),
    "Table": ("smtpuzzle.model", "Table"),
    "Piece": ("smtpuzzle.puzzles.tiling.puzzle", "Piece"),
    "Placement": ("smtpuzzle.puzzles.tiling.puzzle", "Placement"),
    "Tiling": ("smtpuzzle.puzzles.tiling.puzzle", "Tiling"),
    "TilingSolution": ("smtpuzzle.puzzles.tiling.puzzle", "TilingSolution"),
    "Enumeration": ("smtpuzzle.result", "Enumeration"),
    "Result": ("smtpuzzle.result", "Result"),
    "Answer": ("smtpuzzle.result", "Answer"),
    "SolutionCount": ("smtpuzzle.result", "SolutionCount"),
    "Stats": ("smtpuzzle.result", "Stats"),
    "Status": ("smtpuzzle.result", "Status"),
    "CountResult": ("smtpuzzle.puzzles.tiling.counting", "CountResult"),
    "count": ("smtpuzzle.puzzles.tiling.counting", "count"),
    "load_nonogram": ("smtpuzzle.formats.nonogram_files", "load_nonogram"),
    "Frames": ("smtpuzzle.puzzles.frames.puzzle", "Frames"),
    "FramesSolution": ("smtpuzzle.puzzles.frames.puzzle", "FramesSolution"),
    "FramesAnswer": ("smtpuzzle.puzzles.frames.solve", "FramesAnswer"),
    "FramesOptions": ("smtpuzzle.puzzles.frames.solve", "FramesOptions"),
    "solve_frames": ("smtpuzzle.puzzles.frames.solve", "solve_frames"),
    "MazeBoundResult": ("smtpuzzle.puzzles.maze.bound.prove", "BoundResult"),
    "prove_maze_bound": ("smtpuzzle.puzzles.maze.bound.prove", "prove_bound"),
    "MazeBoundCheck": ("smtpuzzle.puzzles.maze.bound.certificate", "CheckedBound"),
    "check_maze_bound": ("smtpuzzle.puzzles.maze.bound.certificate", "check_certificate"),
    "MazeBuildResult": ("smtpuzzle.puzzles.maze.greedy", "BuildResult"),
    "build_maze_string": ("smtpuzzle.puzzles.maze.greedy", "build_string"),
    "MazeSearchResult": ("smtpuzzle.puzzles.maze.search", "SearchResult"),
    "search_maze": ("smtpuzzle.puzzles.maze.search", "search"),
    "MazeShortenResult": ("smtpuzzle.puzzles.maze.bound.shorten", "ShortenResult"),
    "shorten_maze_string": ("smtpuzzle.puzzles.maze.bound.shorten", "shorten"),
    "Nonogram": ("smtpuzzle.puzzles.nonogram.puzzle", "Nonogram"),
    "NonogramAnswer": ("smtpuzzle.puzzles.nonogram.solve", "NonogramAnswer"),
    "NonogramColour": ("smtpuzzle.puzzles.nonogram.clues", "Colour"),
    "solve_nonogram": ("smtpuzzle.puzzles.nonogram.solve", "solve_nonogram"),
    "TilingAnswer": ("smtpuzzle.puzzles.tiling.solve", "TilingAnswer"),
    "TilingListing": ("smtpuzzle.puzzles.tiling.solve", "TilingListing"),
    "list_tilings": ("smtpuzzle.puzzles.tiling.solve", "list_tilings"),
    "solve_tiling": ("smtpuzzle.puzzles.tiling.solve", "solve_tiling"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'smtpuzzle' has no attribute {name!r}")
    module, attr = _LAZY[name]
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "AllDifferent",
    "BACKENDS",
    "Backend",
    "Board",
    "BoolArray",
    "CNF",
    "Cmp",
    "Count",
    "Connected",
    "ConnectedRegions",
    "Circuit",
    "SubCircuit",
    "Inverse",
    "Max",
    "NoOverlap",
    "Cumulative",
    "Min",
    "SingleCycle",
    "Path",
    "Graph",
    "grid_graph",
    "lattice_graph",
    "cell_edges",
    "Intervals",
    "CountResult",
    "Element",
    "Enumeration",
    "Frames",
    "FramesAnswer",
    "FramesOptions",
    "FramesSolution",
    "Grid",
    "Groups",
    "IntArray",
    "MazeBoundCheck",
    "MazeBoundResult",
    "MazeBuildResult",
    "MazeSearchResult",
    "MazeShortenResult",
    "Model",
    "Nonogram",
    "NonogramAnswer",
    "NonogramColour",
    "Piece",
    "Placement",
    "ProcessDied",
    "PuzzleError",
    "Regular",
    "Result",
    "Answer",
    "SolutionCount",
    "Shape",
    "Stats",
    "Status",
    "Table",
    "Tiling",
    "TilingAnswer",
    "TilingListing",
    "TilingSolution",
    "VerificationError",
    "build_maze_string",
    "check_maze_bound",
    "count",
    "decode_answer",
    "free_polyominoes",
    "get_backend",
    "grid",
    "list_models",
    "list_tilings",
    "load",
    "load_frames",
    "load_nonogram",
    "load_puzzle",
    "load_puzzle_file",
    "load_suite",
    "parse_picture",
    "parse_puzzle",
    "piece_set",
    "polyforms",
    "prove_maze_bound",
    "run_suites",
    "search_maze",
    "shaped_cells",
    "shorten_maze_string",
    "solve_frames",
    "solve_nonogram",
    "solve_tiling",
    "summarise",
    "to_cnf",
    "write_dimacs",
]
