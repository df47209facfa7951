"""The puzzle families, in one registry: each family's name, the file suffixes it reads,
where its files sit in a model library, how one is loaded and titled, how the command line
treats it, and how a solution prints as text.

The library (``smtpuzzle list``, names, ``load_puzzle``) and the command line (``solve``,
``decode``) ask the registry, so a new family is its own package plus one :func:`register`
call below. A family's *treatment* says which of the command line's few ways of solving it
applies: a new family of grid puzzles decided like Sudoku (unique, multiple, none) needs no
command-line code of its own. Functions are named as ``"module:function"`` and imported on
first use, so that listing the library does not import every family's solver code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.nonogram_files import EXTENSIONS as NONOGRAM_SUFFIXES  # its own list
from smtpuzzle.puzzles.pencil.genres import NAMES as PENCIL_GENRES

PENCIL_SUFFIXES = tuple(f".{name}" for name in PENCIL_GENRES)  # a genre's name is its suffix


@dataclass(frozen=True)
class Family:
    """One puzzle family (see the module docstring)."""

    name: str
    plural: str  # what its puzzles are called in messages: "tilings", "Sudoku"
    suffixes: tuple[str, ...]  # file suffixes it reads, lower case, with the dot
    folder: str  # where its files sit in a model library ("" for the library's top)
    loader: str  # "module:function": path -> the puzzle
    titler: str  # "module:function": path -> its title in `smtpuzzle list`
    # How the command line solves it (TREATMENTS): "tiling" (a solution, a list, pictures),
    # "nonogram" (decided, with line solving, pictures), "grid" (decided through
    # ``solver``, one puzzle or a file of them) or "own" (a command of its own: frames).
    treatment: str
    text: str = ""  # "module:function": (puzzle, solution) -> the solution as text
    solver: str = ""  # grid: "module:function" deciding one puzzle (solve_sudoku)
    # "module:function": (puzzle, half-solved grid) -> text (--determined); "" for the
    # cells' values with "." where solutions differ
    partial: str = ""
    nested: bool = False  # its files may sit in sub-folders of its folder
    link: str = ""  # "module:function": puzzle -> its puzz.link link (--link); "" none
    # grid: "module:function": (puzzle, solutions) -> a render Drawing (--svg, --png,
    # --html); "" none
    drawing: str = ""
    prechecks: bool = False  # the loader takes precheck= (refuse the impossible at once)

    def __post_init__(self) -> None:
        if self.treatment not in TREATMENTS:
            raise ValueError(f"{self.name}: treatment {self.treatment!r} is none of "
                             f"{', '.join(TREATMENTS)}")
        if self.treatment == "grid" and not self.solver:
            raise ValueError(f"{self.name}: a grid family names its solver")

    def load(self, path: Path, precheck: bool = True) -> Any:
        if self.prechecks:
            return _named(self.loader)(path, precheck)
        return _named(self.loader)(path)

    def title(self, path: Path) -> str:
        return _named(self.titler)(path)

    def solution_text(self, puzzle: Any, solution: Any) -> Any:
        """A solution of ``puzzle`` as text (a str, or rich Text in colour)."""
        return _named(self.text)(puzzle, solution)

    def draw(self, puzzle: Any, solutions: Any) -> Any:
        """The picture (a render Drawing) of ``solutions`` of ``puzzle``."""
        return _named(self.drawing)(puzzle, solutions)

    def link_of(self, puzzle: Any) -> str:
        """The puzz.link link of ``puzzle`` (PuzzleError for a family without links)."""
        if not self.link:
            raise PuzzleError(f"--link: {self.plural} have no puzz.link links here")
        return _named(self.link)(puzzle)

    def half_solved_text(self, puzzle: Any, grid: Any) -> str:
        return _named(self.partial)(puzzle, grid)

    def decide(self) -> Callable[..., Any]:
        """A grid family's solver: (puzzle, backend, solver, time_limit, limit) -> answer."""
        return _named(self.solver)

    def files(self, library: Path) -> list[Path]:
        """Its files in a model library, sorted (none for a family without suffixes)."""
        folder = library / self.folder if self.folder else library
        found = folder.rglob("*") if self.nested else folder.glob("*")
        return sorted(p for p in found if p.suffix in self.suffixes and p.is_file())


def _named(spec: str) -> Callable[..., Any]:
    module, _, name = spec.partition(":")
    found: Any = importlib.import_module(module)
    for part in name.split("."):  # a class's method too: "module:Class.method"
        found = getattr(found, part)
    return found


TREATMENTS = ("tiling", "nonogram", "grid", "own")
FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    if family.name in FAMILIES:
        raise ValueError(f"a puzzle family named {family.name!r} is registered already")
    clash = {s for f in FAMILIES.values() for s in f.suffixes} & set(family.suffixes)
    if clash:
        raise ValueError(f"{family.name}: the suffix {sorted(clash)[0]} is taken")
    FAMILIES[family.name] = family
    return family


def family_named(name: str) -> Family:
    """The registered family called ``name`` (a puzzle's ``family``)."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise ValueError(f"no puzzle family {name!r} is registered") from None


def family_of(path: Path) -> Family | None:
    """The family that reads ``path`` (by its suffix, in any case), or None."""
    suffix = path.suffix.lower()
    return next((f for f in FAMILIES.values() if suffix in f.suffixes), None)


def suffixes() -> tuple[str, ...]:
    return tuple(s for f in FAMILIES.values() for s in f.suffixes)


# The families, in the order a name is looked up in a library. Tilings and frames share the
# TOML format: the file says which it is.
register(Family("tiling", "tilings", (".toml",), "",
                "smtpuzzle.formats.puzzle_toml:load_puzzle_file",
                "smtpuzzle.formats.puzzle_toml:toml_title", "tiling",
                text="smtpuzzle.puzzles.tiling.text:tiling_picture", prechecks=True))
# Frames are read from the tilings' TOML files (the file says which): no suffix of their own.
register(Family("frames", "frames", (), "", "smtpuzzle.formats.puzzle_toml:load_puzzle_file",
                "smtpuzzle.formats.puzzle_toml:toml_title", "own"))
register(Family("nonogram", "nonograms", NONOGRAM_SUFFIXES, "nonograms",
                "smtpuzzle.formats.nonogram_files:load_nonogram",
                "smtpuzzle.formats.nonogram_files:nonogram_title", "nonogram",
                text="smtpuzzle.puzzles.nonogram.drawing:solution_text", nested=True,
                partial="smtpuzzle.puzzles.nonogram.puzzle:half_solved_text"))
register(Family("sudoku", "Sudoku", (".sudoku",), "sudoku",
                "smtpuzzle.formats.sudoku:SudokuFile.load", "smtpuzzle.formats.text:grid_title",
                "grid", text="smtpuzzle.formats.sudoku:solution_text",
                solver="smtpuzzle.puzzles.sudoku.solve:solve_sudoku"))
register(Family("kenken", "KenKen", (".kenken",), "kenken",
                "smtpuzzle.formats.kenken:load_kenken", "smtpuzzle.formats.text:grid_title",
                "grid", text="smtpuzzle.formats.kenken:solution_text",
                solver="smtpuzzle.puzzles.kenken.solve:solve_kenken"))
register(Family("pencil", "pencil puzzles", PENCIL_SUFFIXES, "pencil",
                "smtpuzzle.formats.pencil:load_pencil", "smtpuzzle.formats.pencil:pencil_title",
                "grid", text="smtpuzzle.puzzles.pencil.drawing:solution_text",
                solver="smtpuzzle.puzzles.pencil.solve:solve_pencil",
                partial="smtpuzzle.puzzles.pencil.drawing:solution_text", nested=True,
                link="smtpuzzle.puzzles.pencil.link_writer:write_link",
                drawing="smtpuzzle.puzzles.pencil.pictures:pencil_drawing"))
