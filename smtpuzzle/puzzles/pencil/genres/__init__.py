"""The genres, by name: each name is a module of this package defining ``GENRE``, imported
on first use (listing the library or reading a link of an unknown genre imports none).

A genre's name is the file suffix that reads it: the collection's own name of the genre in
lower case (``puzzle.nurikabe``, ``puzzle.countryroad``, ``puzzle.starbattle``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from smtpuzzle.errors import PuzzleError

if TYPE_CHECKING:
    from smtpuzzle.puzzles.pencil.puzzle import Genre

# name -> puzz.link names (the first one the name written in links made here)
PIDS: dict[str, tuple[str, ...]] = {
    "akari": ("akari", "lightup"),
    "battleship": ("battleship",),
    "binairo": (),  # pzprjs has no Binairo
    "countryroad": ("country",),
    "heyawake": ("heyawake", "heyawacky"),
    "fillomino": ("fillomino",),
    "hidoku": (),  # ... nor Hidato, nor Killer Sudoku
    "hitori": ("hitori",),
    "kakuro": ("kakuro",),
    "killersudoku": (),
    "kuromasu": ("kurodoko",),
    "lits": ("lits",),
    "masyu": ("mashu", "masyu", "pearl"),
    "norinori": ("norinori",),
    "numberlink": ("numlin", "numberlink"),
    "nurikabe": ("nurikabe",),
    "shikaku": ("shikaku",),
    "simpleloop": ("simpleloop",),
    "skyscraper": ("skyscrapers", "building", "skyscraper"),
    "slitherlink": ("slither", "slitherlink"),
    "starbattle": ("starbattle",),
    "suguru": ("suguru",),
    "tent": ("tents",),
    "yajilin": ("yajilin", "yajirin"),
    "yinyang": ("yinyang",),
}
NAMES = tuple(PIDS)


def genre_named(name: str) -> Genre:
    """The genre called ``name`` (a file suffix without its dot, any case)."""
    key = name.lower()
    if key not in PIDS:
        raise PuzzleError(f"no pencil-puzzle genre {name!r} (genres: {', '.join(NAMES)})")
    return importlib.import_module(f"{__name__}.{key}").GENRE


def genre_of_pid(pid: str) -> Genre:
    """The genre of a puzz.link name (``mashu``, ``lightup``...)."""
    for name, pids in PIDS.items():
        if pid.lower() in pids:
            return genre_named(name)
    known = sorted({p for pids in PIDS.values() for p in pids})
    raise PuzzleError(f"puzz.link genre {pid!r} is not one smtpuzzle reads (it reads: "
                      f"{', '.join(known)})")
