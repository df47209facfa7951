"""Searches in progress, saved to a file and taken up again by a later run.

A bound's length near the frontier takes hours (bench/RESULTS.md), more than one sitting.
What its search holds between two cases is small enough to keep: the cases added so far and the
diagram of the strings that solve them all (the mdd search goes on from exactly there, so
a run that resumes adds the same cases an unbroken one would). The file is an ``.npz``: one
array per layer of the diagram, and a JSON header with the size, the length, the mirror
rule, the cases as (maze id, start) pairs and the seconds spent. Loading checks that the
layers fit together and that the diagram's first string, and strings drawn from it, solve
the saved cases: a file from another search, or a damaged one, is refused with the reason.

A search split into cubes (mdd.split_search: the windows of the known string) keeps less:
the cubes proved to admit no string and the cases of each proof, as JSON. A later run takes
them as proved and searches the rest; the diagrams on the way to them are rebuilt as far
as the cubes not yet proved need them.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.maze.cases import LETTERS, Size, reduced_cases, segments, solved_by
from smtpuzzle.puzzles.maze.mdd import Diagram
from smtpuzzle.puzzles.maze.search import break_symmetry

FORMAT = "smtpuzzle maze bound checkpoint 1"
CUBES_FORMAT = "smtpuzzle maze search checkpoint 1"
SAMPLES = 64  # strings drawn from a loaded diagram (and its first) walked through its cases


@dataclass
class Saved:
    size: Size
    length: int
    mirror: bool
    added: list[int]  # indices into reduced_cases(size)
    diagram: Diagram
    seconds: float  # spent on this length by the runs before


def save(path: Path, size: Size, length: int, mirror: bool, added: list[int],
         diagram: Diagram, seconds: float) -> None:
    """Write the search to ``path`` whole or not at all (a temporary file, then a rename: a
    run stopped while saving leaves the last good file)."""
    cases = reduced_cases(size)
    header = {"format": FORMAT, "size": size, "length": length, "mirror": mirror,
              "cases": [[int(cases.maze[k]), int(cases.start[k])] for k in added],
              "seconds": round(seconds, 3)}
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, header=np.array(json.dumps(header)),
                 **{f"layer{i}": t for i, t in enumerate(diagram.trans)})
    os.replace(tmp, path)


def load(path: Path, size: Size, mirror: bool) -> Saved:
    """The search saved at ``path``, checked against the run taking it up (its size and
    mirror rule) and against itself."""
    def refused(why: str) -> PuzzleError:
        return PuzzleError(f"not a checkpoint this run can resume: {why}", where=str(path))

    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            trans = [data[f"layer{i}"] for i in range(len(data.files) - 1)]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
        raise refused(f"unreadable ({exc})") from None
    if header.get("format") != FORMAT:
        raise refused(f"its format is {header.get('format')!r}, not {FORMAT!r}")
    if header["size"] != size or header["mirror"] != mirror:
        raise refused(f"it searches size {header['size']} "
                      f"{'with' if header['mirror'] else 'without'} the mirror rule, this run "
                      f"size {size} {'with' if mirror else 'without'} it")
    length = int(header["length"])
    pattern = break_symmetry("*" * length, size)
    if len(trans) != len(segments(pattern)):
        raise refused(f"{len(trans)} layers for a pattern of {len(segments(pattern))}")
    rows = 1
    for i, t in enumerate(trans):
        width = int(trans[i + 1].shape[0]) if i + 1 < len(trans) else 1
        if t.ndim != 2 or t.shape[0] != rows or t.min(initial=0) < -1 or \
                t.max(initial=-1) >= width or not (t >= 0).any(axis=1).all():
            raise refused(f"layer {i} does not fit its neighbours")
        rows = width
    cases = reduced_cases(size)
    index = {(int(m), int(s)): k for k, (m, s) in enumerate(zip(cases.maze, cases.start,
                                                                strict=True))}
    try:
        added = [index[(int(m), int(s))] for m, s in header["cases"]]
    except KeyError as exc:
        raise refused(f"case {exc.args[0]} is not one of the search's cases") from None
    diagram = Diagram(trans)
    first = [LETTERS.index(ch) for ch in diagram.first_string(pattern)]
    drawn = np.vstack([diagram.sample(pattern, SAMPLES, np.random.default_rng(0)), first])
    if added and not solved_by(cases, drawn, np.array(added)).all():
        raise refused("its diagram holds strings that fail its own cases")
    return Saved(size, length, mirror, added, diagram, float(header["seconds"]))


def save_cubes(path: Path, pattern: str, size: Size, mirror: bool,
               proved: dict[str, list[int]]) -> None:
    """Write the cubes of ``pattern``'s search proved so far (cube -> its proof's cases),
    whole or not at all."""
    cases = reduced_cases(size)
    data = {"format": CUBES_FORMAT, "pattern": pattern, "size": size, "mirror": mirror,
            "cubes": {cube: [[int(cases.maze[k]), int(cases.start[k])] for k in ks]
                      for cube, ks in proved.items()}}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=0))
    os.replace(tmp, path)


def load_cubes(path: Path, pattern: str, size: Size, mirror: bool) -> dict[str, list[int]]:
    """The cubes proved by an earlier run of the same search (``pattern`` as searched, on
    ``size``, with or without the mirror rule), each with its proof's cases."""
    def refused(why: str) -> PuzzleError:
        return PuzzleError(f"not a checkpoint this search can resume: {why}", where=str(path))

    try:
        data = json.loads(path.read_text())
        cubes = data["cubes"]
        if data.get("format") != CUBES_FORMAT:
            raise refused(f"its format is {data.get('format')!r}, not {CUBES_FORMAT!r}")
        theirs = (data["pattern"], data["size"], data["mirror"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise refused(f"unreadable ({exc})") from None
    if theirs != (pattern, size, mirror):
        raise refused(f"it searches {theirs[0]} (size {theirs[1]}, mirror rule "
                      f"{'on' if theirs[2] else 'off'}), this run {pattern} (size {size}, "
                      f"mirror rule {'on' if mirror else 'off'})")
    cases = reduced_cases(size)
    index = {(int(m), int(s)): k for k, (m, s) in enumerate(zip(cases.maze, cases.start,
                                                                strict=True))}
    proved = {}
    for cube, pairs in cubes.items():
        fits = len(cube) == len(pattern) and set(cube) <= set("NESW*") and all(
            p in ("*", c) for p, c in zip(pattern, cube, strict=True))
        if not fits:
            raise refused(f"{cube} is not a cube of the pattern")
        try:
            proved[cube] = [index[(int(m), int(s))] for m, s in pairs]
        except (KeyError, TypeError, ValueError):
            raise refused(f"cube {cube} names a case that is not one of the search's") from None
    return proved
