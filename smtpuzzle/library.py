"""The puzzle library: finds models by name in models/ and loads files by path, each by
its family as the registry (families.py) says."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from smtpuzzle.errors import PuzzleError
from smtpuzzle.families import FAMILIES, family_of, suffixes
from smtpuzzle.puzzles.frames.puzzle import Frames
from smtpuzzle.puzzles.nonogram.puzzle import Nonogram
from smtpuzzle.puzzles.tiling.puzzle import Tiling
from smtpuzzle.runtime.files import check_file, is_directory


def model_dirs() -> list[Path]:
    """Where named models are looked up: $SMTPUZZLE_MODELS, ./models, the bundled library."""
    dirs = []
    if os.environ.get("SMTPUZZLE_MODELS"):
        dirs.extend(Path(p) for p in os.environ["SMTPUZZLE_MODELS"].split(os.pathsep) if p)
    dirs.append(Path.cwd() / "models")
    dirs.append(Path(__file__).resolve().parent.parent / "models")
    seen, out = set(), []
    for d in dirs:
        if not is_directory(d):
            continue
        key = d.resolve()
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


@dataclass
class ModelEntry:
    name: str
    path: Path
    title: str

    def as_json(self) -> dict[str, str]:
        return {"name": self.name, "title": self.title, "path": str(self.path)}


def list_models() -> list[ModelEntry]:
    """Every puzzle in model_dirs() (each family's files in its folder), first name wins."""
    found: dict[str, ModelEntry] = {}
    for d in model_dirs():
        for family in FAMILIES.values():
            for path in family.files(d):
                if path.stem not in found:
                    found[path.stem] = ModelEntry(path.stem, path, family.title(path))
    return sorted(found.values(), key=lambda e: e.name)


MAX_NAME = 200  # characters: a longer name is taken as a path (check_file says what is wrong)


def resolve(name_or_path: str) -> Path:
    """A model name from the library, or a path to a puzzle file."""
    path = Path(name_or_path)
    if path.suffix or os.sep in name_or_path or len(name_or_path) > MAX_NAME \
            or is_directory(path):
        return check_file(path)
    for d in model_dirs():
        for family in FAMILIES.values():
            # names are matched as they are, not as glob patterns ("*" is no model)
            for candidate in family.files(d):
                if candidate.stem == name_or_path:
                    return candidate
    names = [e.name for e in list_models()]
    shown = repr(name_or_path[:60]) + ("..." if len(name_or_path) > 60 else "")
    close = difflib.get_close_matches(name_or_path, names, n=3, cutoff=0.6)
    if close:
        raise PuzzleError(f"no model named {shown}: did you mean "
                          f"{' or '.join(map(repr, close))}? (`smtpuzzle list` lists them)")
    known = ", ".join([e.name for e in list_models() if e.path.suffix == ".toml"][:8])
    raise PuzzleError(f"no model named {shown} (try `smtpuzzle list`; some: {known})")


def model_file(name_or_path: str) -> Path | None:
    """The file a model name or path reads, or None where there is none (loading it then
    says what is wrong)."""
    try:
        return resolve(name_or_path)
    except PuzzleError:
        return None


def load_puzzle(name_or_path: str, precheck: bool = True) -> Tiling | Frames | Nonogram:
    """Load any puzzle by library name, file path or puzz.link link; the kind follows the
    file type (a link's, its genre)."""
    from smtpuzzle.puzzles.pencil.links import is_link, read_link

    if is_link(name_or_path):
        return read_link(name_or_path)
    path = resolve(name_or_path)
    family = family_of(path)
    if family is None:
        raise PuzzleError(f"unknown puzzle file type {path.suffix!r} "
                          f"(known: {', '.join(suffixes())})", str(path))
    return family.load(path, precheck)


def load(name_or_path: str, precheck: bool = True) -> Tiling:
    """Load a tiling by library name or file path; ``precheck=False`` keeps a puzzle that is
    impossible on its face (to draw it, or to export it for a solver to prove)."""
    puzzle = load_puzzle(name_or_path, precheck)
    if isinstance(puzzle, Frames):
        raise PuzzleError(f"{name_or_path} is a frames puzzle: use `smtpuzzle frames "
                          f"{name_or_path}`")
    if not isinstance(puzzle, Tiling):
        raise PuzzleError(f"{name_or_path} is a {puzzle.family} puzzle, not a tiling (use "
                          "`smtpuzzle solve`)")
    return puzzle


def load_frames(name_or_path: str, precheck: bool = True) -> Frames:
    """Load a frames puzzle by library name or file path."""
    puzzle = load_puzzle(name_or_path, precheck)
    if not isinstance(puzzle, Frames):
        raise PuzzleError(f"{name_or_path} is not a frames puzzle (use `smtpuzzle solve`)")
    return puzzle
