"""The puzzle families, in one registry: each family's name, the file suffixes it reads,
where its files sit in a model library, and how one is loaded and titled.

The library (``smtpuzzle list``, names, ``load_puzzle``) asks the registry, so a new family
is its own package plus one :func:`register` call below. Loaders are named as
``"module:function"`` and imported on first use, so that listing the library does not
import every family's solver code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smtpuzzle.formats.nonogram_files import EXTENSIONS as NONOGRAM_SUFFIXES  # its own list


@dataclass(frozen=True)
class Family:
    """One puzzle family (see the module docstring)."""

    name: str
    suffixes: tuple[str, ...]  # file suffixes it reads, lower case, with the dot
    folder: str  # where its files sit in a model library ("" for the library's top)
    loader: str  # "module:function": path -> the puzzle
    titler: str  # "module:function": path -> its title in `smtpuzzle list`
    nested: bool = False  # its files may sit in sub-folders of its folder
    prechecks: bool = False  # the loader takes precheck= (refuse the impossible at once)

    def load(self, path: Path, precheck: bool = True) -> Any:
        if self.prechecks:
            return _named(self.loader)(path, precheck)
        return _named(self.loader)(path)

    def title(self, path: Path) -> str:
        return _named(self.titler)(path)

    def files(self, library: Path) -> list[Path]:
        """Its files in a model library, sorted."""
        folder = library / self.folder if self.folder else library
        found = folder.rglob("*") if self.nested else folder.glob("*")
        return sorted(p for p in found if p.suffix in self.suffixes and p.is_file())


def _named(spec: str) -> Callable[..., Any]:
    module, _, name = spec.partition(":")
    found: Any = importlib.import_module(module)
    for part in name.split("."):  # a class's method too: "module:Class.method"
        found = getattr(found, part)
    return found


FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    if family.name in FAMILIES:
        raise ValueError(f"a puzzle family named {family.name!r} is registered already")
    clash = {s for f in FAMILIES.values() for s in f.suffixes} & set(family.suffixes)
    if clash:
        raise ValueError(f"{family.name}: the suffix {sorted(clash)[0]} is taken")
    FAMILIES[family.name] = family
    return family


def family_of(path: Path) -> Family | None:
    """The family that reads ``path`` (by its suffix, in any case), or None."""
    suffix = path.suffix.lower()
    return next((f for f in FAMILIES.values() if suffix in f.suffixes), None)


def suffixes() -> tuple[str, ...]:
    return tuple(s for f in FAMILIES.values() for s in f.suffixes)


# The families, in the order a name is looked up in a library. Tilings and frames share the
# TOML format: the file says which it is.
register(Family("tiling", (".toml",), "", "smtpuzzle.formats.puzzle_toml:load_puzzle_file",
                "smtpuzzle.formats.puzzle_toml:toml_title", prechecks=True))
register(Family("nonogram", NONOGRAM_SUFFIXES, "nonograms",
                "smtpuzzle.formats.nonogram_files:load_nonogram",
                "smtpuzzle.formats.nonogram_files:nonogram_title", nested=True))
register(Family("sudoku", (".sudoku",), "sudoku", "smtpuzzle.formats.sudoku:SudokuFile.load",
                "smtpuzzle.formats.text:grid_title"))
register(Family("kenken", (".kenken",), "kenken", "smtpuzzle.formats.kenken:load_kenken",
                "smtpuzzle.formats.text:grid_title"))
