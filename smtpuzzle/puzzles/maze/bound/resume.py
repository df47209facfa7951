"""Searches in progress, saved to a file and taken up again by a later run.

A bound's length near the frontier takes hours (bench/RESULTS.md), more than one sitting.
What its search holds between two cases is small enough to keep: the cases added so far
and the diagram of the strings that solve them all (the mdd search goes on from exactly
there, so a run that resumes adds the same cases an unbroken one would). A search split
into cubes (bound.prove_bound's ``split_depth``) holds that for each cube still to search,
and the cases of each cube proved. The file is an ``.npz``: one array per layer of each
cube's diagram, and a JSON header with the size, the length, the mirror rule, the cubes
with their cases as (maze id, start) pairs, and the seconds spent. Files of the first
format (one diagram, before cubes) are taken up as one cube.

A diagram near the frontier is GBs, too large to carry from one machine to the next. A
checkpoint named ``.json`` keeps the header alone: the cubes with their cases, and the cubes
proved. The run writing it keeps the cubes waiting their turn in memory (as a run with no
checkpoint does), and a run taking it up builds each cube's diagram again from its cases
(mdd.cube_diagram) when its turn comes: the products the search made, without its choosing
of the cases. The cubes proved cost nothing to take up.

A search split into cubes (mdd.split_search: the windows of the known string) keeps less:
the cubes proved to admit no string and the cases of each proof, as JSON. A later run takes
them as proved and searches the rest; the diagrams on the way to them are rebuilt as far
as the cubes not yet proved need them.

A checkpoint is trusted as the record of an earlier run. Loading refuses a file of another
search or of another format, and a damaged one (the zip's checksums; layers that do not fit
together; a diagram whose first string, or strings drawn from it, fail its own cases), but
it cannot tell a diagram that lost strings, or a cube marked proved that is not: that would
take the search again. A bound proved through a checkpoint is re-checked from scratch by
``--certificate DIR`` and ``maze check-bound DIR``, which rebuild everything from the cases.
Change the format strings whenever what a file means changes (the symmetry rules, the
segments of a pattern, the order of the letters).
"""

from __future__ import annotations

import contextlib
import json
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.maze.cases import (
    LETTERS,
    MAX_MOVES,
    Size,
    parse_size,
    reduced_cases,
    segments,
    solved_by,
)
from smtpuzzle.puzzles.maze.mdd import MAX_STATES, Diagram, cube_diagram
from smtpuzzle.puzzles.maze.rules import break_symmetry, strings_rule
from smtpuzzle.runtime.files import check_file, read_text, replace_whole, write_whole

FORMAT = "smtpuzzle maze bound checkpoint 2"
OLD_FORMAT = "smtpuzzle maze bound checkpoint 1"  # one diagram, no cubes: still taken up
CASES_FORMAT = "smtpuzzle maze bound checkpoint 2, cases only"  # a .json file
CUBES_FORMAT = "smtpuzzle maze search checkpoint 1"
SAMPLES = 64  # strings drawn from a loaded diagram (and its first) walked through its cases


@dataclass
class Cube:
    """Part of a length's search: the strings of ``pattern`` (the length's pattern, some of
    its first free moves fixed) that solve the cases ``added``, as ``diagram`` (whose layers
    follow the length's pattern)."""

    pattern: str
    added: list[int]  # indices into reduced_cases(size)
    # None: only in the checkpoint file, at ``stored``, or (a .json file) to be built again
    diagram: Diagram | None
    stored: int | None = None  # its place among the cubes of the checkpoint last written


@dataclass
class Saved:
    length: int
    cubes: list[Cube]  # still to search, the first one in progress
    proved: dict[str, list[int]]  # cubes proved to admit no string -> their proofs' cases
    seconds: float  # spent on this length by the runs before


class Saves:
    """Runs a long search's saves of its checkpoint: one that fails (a full disk) is noted,
    and the search goes on without it."""

    def __init__(self) -> None:
        self.failed: list[str] = []  # why saves failed

    def run(self, save: Callable[[], None]) -> bool:
        """Whether ``save()`` wrote the file."""
        try:
            save()
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            # a full disk, or the last file (that waiting cubes are copied from) damaged
            self.failed.append(f"{type(exc).__name__}: {exc}")
            return False
        return True

    def note(self, before: str) -> str:
        """``before`` (a result's note) with the failed saves added, if any."""
        if not self.failed:
            return before
        return (f"{before}{'; ' if before else ''}{len(self.failed)} saves of the checkpoint "
                f"failed, the last with {self.failed[-1]}")


def save(path: Path, size: Size, length: int, mirror: bool, cubes: list[Cube],
         proved: dict[str, list[int]], seconds: float) -> None:
    """Write the search to ``path`` whole or not at all (a temporary file, then a rename: a
    run stopped while saving leaves the last good file). A cube whose diagram is not in
    memory is copied from the file at ``path``, a layer at a time; once written, each cube
    knows its place in the file (``stored``), so the caller may let go of its diagram.
    A ``.json`` file (cases_only) keeps no diagrams: the caller keeps them."""
    light = cases_only(path)
    pattern = break_symmetry("*" * length, size)
    if not covers([c.pattern for c in cubes] + list(proved), pattern):
        # a file no run could take up: the last good one stays
        raise ValueError("its cubes, to search and proved, would leave strings out")
    layers = len(segments(pattern))
    header = {"format": CASES_FORMAT if light else FORMAT, "size": size, "length": length,
              "mirror": mirror,
              "cubes": [{"pattern": c.pattern, "cases": _pairs(size, c.added),
                         **({} if light else {"layers": layers})} for c in cubes],
              "proved": {cube: _pairs(size, ks) for cube, ks in proved.items()},
              "seconds": round(seconds, 3)}
    if light:
        write_whole(path, json.dumps(header, indent=0))
        return
    tmp = path.with_name(path.name + ".tmp")
    begun = False  # the temporary file made: once it is gone, it was renamed into place
    try:
        with contextlib.ExitStack() as stack:
            old = None
            if any(c.diagram is None for c in cubes):
                old = stack.enter_context(np.load(path, allow_pickle=False))
            zf = stack.enter_context(zipfile.ZipFile(tmp, "w", allowZip64=True))
            begun = True
            _put(zf, "header", np.array(json.dumps(header)))
            for j, c in enumerate(cubes):
                for i in range(layers):
                    t = c.diagram.trans[i] if c.diagram is not None else \
                        old[f"cube{c.stored}_layer{i}"]  # type: ignore[index]
                    _put(zf, f"cube{j}_layer{i}", t)
        replace_whole(tmp, path)
    finally:
        if tmp.exists():  # not written (a full disk keeps no half file)
            tmp.unlink()
        elif begun:  # in place, even if Ctrl-C came right after: the cubes' places are new
            for j, c in enumerate(cubes):
                c.stored = j


def _put(zf: zipfile.ZipFile, name: str, array: np.ndarray) -> None:
    """One array into an ``.npz`` being written, as np.savez writes it."""
    with zf.open(name + ".npy", "w", force_zip64=True) as f:
        np.lib.format.write_array(f, np.asanyarray(array), allow_pickle=False)


def cases_of(cubes: list[Cube], proved: dict[str, list[int]]) -> list[int]:
    """The cases of the proved cubes and of ``cubes``, each once, in the order added."""
    return list(dict.fromkeys(k for ks in [*proved.values(), *(c.added for c in cubes)]
                              for k in ks))


def cases_only(path: Path) -> bool:
    """Whether the checkpoint at ``path`` keeps the cases alone (a ``.json`` file, small
    enough to carry: every diagram is built again from its cases) or the diagrams too."""
    return path.suffix.lower() == ".json"


def load(path: Path, size: Size, mirror: bool) -> Saved:
    """The search saved at ``path``, checked against the run taking it up (its size and
    mirror rule) and against itself. Every cube's diagram is read and checked; the first
    one's is kept, the others are left in the file (load_cube reads each in its turn). A
    ``.json`` file holds no diagrams: load_cube builds each in its turn."""
    def refused(why: str) -> PuzzleError:
        return PuzzleError(f"not a checkpoint this run can resume: {why}", where=str(path))

    check_file(path)
    if cases_only(path) and zipfile.is_zipfile(path):
        raise refused("it keeps diagrams (a zip file), which a checkpoint named .json does "
                      "not: name it .npz")
    try:
        if cases_only(path):
            header = json.loads(read_text(path))
            if not isinstance(header, dict) or header.get("format") != CASES_FORMAT:
                got = header.get("format") if isinstance(header, dict) else None
                raise refused(f"its format is {got!r}, not {CASES_FORMAT!r}")
            return _saved(header, size, mirror, refused, None)
        with np.load(path, allow_pickle=False) as data:
            return _saved(_header(data, refused), size, mirror, refused, data)
    except UNREADABLE as exc:
        raise refused(f"unreadable ({type(exc).__name__}: {exc})") from None


# what a damaged or foreign file raises as it is read
UNREADABLE = (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError,
              OverflowError, zipfile.BadZipFile)


def _header(data: Any, refused: Callable[[str], PuzzleError]) -> dict[str, Any]:
    """An ``.npz`` checkpoint's header, one of the first format read as one cube."""
    header = json.loads(str(data["header"]))
    if header.get("format") == OLD_FORMAT:  # one diagram of the whole pattern
        header["cubes"] = [{"pattern": None, "cases": header["cases"],
                            "layers": len(data.files) - 1}]
        header["proved"] = {}
    elif header.get("format") != FORMAT:
        raise refused(f"its format is {header.get('format')!r}, not {FORMAT!r}")
    return header


def to_cases_only(source: Path, target: Path) -> Saved:
    """The ``.npz`` checkpoint at ``source`` written to the ``.json`` one ``target``: its
    cubes with their cases and the cubes proved, no diagrams (kilobytes, to carry to another
    machine or commit; a run taking it up builds each diagram again from its cases). Only
    the header is read and checked, not the diagrams the file holds. The search as saved."""
    def refused(why: str) -> PuzzleError:
        return PuzzleError(f"not a checkpoint with diagrams: {why}", where=str(source))

    check_file(source)
    if cases_only(source):
        raise refused("it is named .json, as a checkpoint of the cases alone is")
    if not cases_only(target):
        raise PuzzleError("a checkpoint of the cases alone is named .json", where=str(target))
    try:
        with open(source, "rb") as f:  # is_zipfile says False for a file it cannot read
            if not zipfile.is_zipfile(f):
                raise refused("it is not a zip file (an .npz written by maze bound "
                              "`checkpoint`)")
        with np.load(source, allow_pickle=False) as data:
            header = _header(data, refused)
            size, mirror = _size_and_mirror(header, refused)
            saved = _saved(header, size, mirror, refused, None)
    except UNREADABLE as exc:
        raise refused(f"unreadable ({type(exc).__name__}: {exc})") from None
    try:
        save(target, size, saved.length, mirror, saved.cubes, saved.proved, saved.seconds)
    except OSError as exc:  # a full disk, or a directory where its temporary file goes
        raise PuzzleError(f"cannot write the checkpoint ({exc.strerror or exc})",
                          where=str(target)) from None
    return saved


def _saved(header: dict[str, Any], size: Size, mirror: bool,
           refused: Callable[[str], PuzzleError], data: Any) -> Saved:
    """The search a checkpoint's header describes, checked; ``data``: the ``.npz`` file's
    arrays, whose first cube's diagram is read (each cube's is checked), or None."""
    theirs = _size_and_mirror(header, refused)
    length, seconds = header["length"], float(header["seconds"])
    cubes = [(c["pattern"], c["cases"], 0 if data is None else int(c["layers"]))
             for c in header["cubes"]]
    proved_pairs = dict(header["proved"].items())
    if theirs != (size, mirror):
        raise refused(f"it searches size {theirs[0]} "
                      f"{'with' if theirs[1] else 'without'} the mirror rule, this "
                      f"run size {size} {'with' if mirror else 'without'} it")
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_MOVES:
        raise refused(f"a length of {length!r} moves, not a whole number from 1 to "
                      f"{MAX_MOVES}")
    pattern = break_symmetry("*" * length, size)
    proved = {}
    for cube, pairs in proved_pairs.items():
        _check_cube(cube, pattern, refused)
        proved[cube] = _indices(size, pairs, refused, f" of cube {cube}")
    first_format = header["format"] == OLD_FORMAT
    if first_format:
        cubes = [(pattern, pairs, layers) for _, pairs, layers in cubes]
    for cube, _, _ in cubes:
        _check_cube(cube, pattern, refused)
    if not covers([c for c, _, _ in cubes] + list(proved), pattern):
        raise refused("its cubes, to search and proved, leave strings of the pattern out")
    loaded = []
    for j, (cube, pairs, layers) in enumerate(cubes):
        added = _indices(size, pairs, refused, "" if cube == pattern else f" of cube {cube}")
        loaded.append(Cube(cube, added, None, None if first_format or data is None else j))
        if data is None:
            continue
        names = [f"layer{i}" if first_format else f"cube{j}_layer{i}" for i in range(layers)]
        diagram = _checked_diagram([data[name] for name in names], pattern, loaded[-1], size,
                                   refused)
        if j == 0:
            loaded[0].diagram = diagram
        del diagram
    return Saved(length, loaded, proved, seconds)


def _size_and_mirror(header: dict[str, Any],
                     refused: Callable[[str], PuzzleError]) -> tuple[Size, bool]:
    """The maze size and mirror rule a saved search names, as a run calls them ("4" is 4,
    "3x3" is 3); refused when either is not one."""
    try:
        size = parse_size(header["size"])
    except PuzzleError as exc:
        raise refused(f"its size: {exc}") from None
    if not isinstance(header["mirror"], bool):
        raise refused(f"its mirror rule is {header['mirror']!r}, not true or false")
    return size, header["mirror"]


def load_cube(path: Path, size: Size, length: int, mirror: bool, cube: Cube,
              deadline: float | None = None, max_states: int = MAX_STATES) -> Diagram | None:
    """The diagram of ``cube``, left in the checkpoint at ``path`` by the last save, or
    (cases_only) built again from its cases: None if they leave no string of the cube.
    A build raises PastDeadline past ``deadline``, and DiagramTooLarge past ``max_states``
    (below the cap the search was saved under)."""
    def refused(why: str) -> PuzzleError:
        return PuzzleError(f"not a checkpoint this run can resume: {why}", where=str(path))

    pattern = break_symmetry("*" * length, size)
    if cases_only(path):
        return cube_diagram(pattern, cube.pattern, strings_rule(size, mirror),
                            reduced_cases(size), cube.added, deadline, max_states)
    try:
        with np.load(path, allow_pickle=False) as data:
            trans = [data[f"cube{cube.stored}_layer{i}"] for i in range(len(segments(pattern)))]
    except (OSError, ValueError, KeyError, TypeError, AttributeError, zipfile.BadZipFile) as exc:
        raise refused(f"cube {cube.pattern} unreadable ({type(exc).__name__}: {exc})"
                      ) from None
    return _checked_diagram(trans, pattern, cube, size, refused)


def covers(cubes: list[str], pattern: str) -> bool:
    """Whether every string of ``pattern`` lies in one of ``cubes`` (the cubes the splits of
    a search made: each fixes the first free move of the one it was split from)."""
    made = set(cubes)
    free = [i for i, p in enumerate(pattern) if p == "*"]
    # the cubes a split can reach (each fixes the first free moves) with a cube of ``made``
    # strictly inside: each cube's moves at the first k free places, for k short of its last
    above = set()
    for c in made:
        if len(c) != len(pattern) or not _inside(c, pattern):
            continue
        fixed = [k for k, i in enumerate(free) if c[i] != "*"]
        part = list(pattern)
        for k in range(fixed[-1] + 1 if fixed else 0):
            above.add("".join(part))
            part[free[k]] = c[free[k]]

    def covered(cube: str) -> bool:
        if cube in made:
            return True
        at = cube.find("*")
        return cube in above and at >= 0 and all(
            covered(cube[:at] + letter + cube[at + 1:]) for letter in LETTERS)

    return covered(pattern)


def _check_cube(cube: Any, pattern: str, refused: Callable[[str], PuzzleError]) -> None:
    if not isinstance(cube, str) or len(cube) != len(pattern) or \
            not set(cube) <= set(LETTERS + "*") or not _inside(cube, pattern):
        raise refused(f"{cube} is not a cube of the pattern")


def _checked_diagram(trans: list[np.ndarray], pattern: str, cube: Cube, size: Size,
                     refuse: Callable[[str], PuzzleError]) -> Diagram:
    """The layers as a diagram of ``pattern``'s strings, refused unless they fit together
    and the strings drawn from them fit ``cube`` and solve its cases."""
    def refused(why: str) -> PuzzleError:
        return refuse(why if cube.pattern == pattern else f"cube {cube.pattern}: {why}")

    parts = segments(pattern)
    if len(trans) != len(parts):
        raise refused(f"{len(trans)} layers for a pattern of {len(parts)}")
    rows = 1
    for i, (t, (_, _, free)) in enumerate(zip(trans, parts, strict=True)):
        width = int(trans[i + 1].shape[0]) if i + 1 < len(trans) and trans[i + 1].ndim else 1
        fits = (np.issubdtype(t.dtype, np.integer) and t.ndim == 2
                and t.shape == (rows, len(LETTERS) if free else 1)
                and t.min(initial=0) >= -1 and t.max(initial=-1) < width
                and bool((t >= 0).any(axis=1).all()))
        if not fits:
            raise refused(f"layer {i} does not fit its neighbours")
        rows = width
    diagram = Diagram(trans)
    first = [LETTERS.index(ch) for ch in diagram.first_string(pattern)]
    drawn = np.vstack([diagram.sample(pattern, SAMPLES, np.random.default_rng(0)), first])
    fixed = [(i, LETTERS.index(ch)) for i, ch in enumerate(cube.pattern) if ch != "*"]
    if not all((drawn[:, i] == d).all() for i, d in fixed):
        raise refused(f"its diagram holds strings outside the cube {cube.pattern}")
    if cube.added and not solved_by(reduced_cases(size), drawn, np.array(cube.added)).all():
        raise refused("its diagram holds strings that fail its own cases")
    return diagram


def save_cubes(path: Path, pattern: str, size: Size, mirror: bool,
               proved: dict[str, list[int]]) -> None:
    """Write the cubes of ``pattern``'s search proved so far (cube -> its proof's cases),
    whole or not at all. A cube inside another one proved is left out: it says no more."""
    kept = {cube: ks for cube, ks in proved.items()
            if not any(other != cube and _inside(cube, other) for other in proved)}
    data = {"format": CUBES_FORMAT, "pattern": pattern, "size": size, "mirror": mirror,
            "cubes": {cube: _pairs(size, ks) for cube, ks in kept.items()}}
    write_whole(path, json.dumps(data, indent=0))


def load_cubes(path: Path, pattern: str, size: Size, mirror: bool) -> dict[str, list[int]]:
    """The cubes proved by an earlier run of the same search (``pattern`` as searched, on
    ``size``, with or without the mirror rule), each with its proof's cases."""
    def refused(why: str) -> PuzzleError:
        return PuzzleError(f"not a checkpoint this search can resume: {why}", where=str(path))

    try:
        data = json.loads(read_text(path))
        if data.get("format") != CUBES_FORMAT:
            raise refused(f"its format is {data.get('format')!r}, not {CUBES_FORMAT!r}")
        theirs = (data["pattern"], *_size_and_mirror(data, refused))
        cubes = dict(data["cubes"].items())
    except UNREADABLE as exc:
        raise refused(f"unreadable ({type(exc).__name__}: {exc})") from None
    if theirs != (pattern, size, mirror):
        raise refused(f"it searches {theirs[0]} (size {theirs[1]}, mirror rule "
                      f"{'on' if theirs[2] else 'off'}), this run {pattern} (size {size}, "
                      f"mirror rule {'on' if mirror else 'off'})")
    proved = {}
    for cube, pairs in cubes.items():
        _check_cube(cube, pattern, refused)
        proved[cube] = _indices(size, pairs, refused, f" of cube {cube}")
    return proved


def _inside(cube: str, pattern: str) -> bool:
    """Whether every string of ``cube`` fits ``pattern`` (of the same length)."""
    return all(p in ("*", c) for p, c in zip(pattern, cube, strict=True))


def _pairs(size: Size, added: Iterable[int]) -> list[list[int]]:
    """Cases as [maze id, start]: a file outlives any numbering of the reduced cases."""
    cases = reduced_cases(size)
    return [[int(cases.maze[k]), int(cases.start[k])] for k in added]


def _indices(size: Size, pairs: Any, refused: Any, where: str = "") -> list[int]:
    """[maze id, start] pairs back to indices into reduced_cases(size)."""
    cases = reduced_cases(size)
    index = {(int(m), int(s)): k for k, (m, s) in enumerate(zip(cases.maze, cases.start,
                                                                strict=True))}
    try:
        return [index[(int(m), int(s))] for m, s in pairs]
    except KeyError as exc:
        raise refused(f"case {exc.args[0]}{where} is not one of the search's cases") from None
    except (TypeError, ValueError) as exc:
        raise refused(f"its cases{where} are not [maze id, start] pairs ({exc})") from None
