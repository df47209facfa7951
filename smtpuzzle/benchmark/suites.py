"""Benchmark suites: small TOML files in bench/ that list puzzles, the task to time on each,
the answer it must give and the published (or reference) figure to show beside ours."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.formats.text import key_line, read_toml
from smtpuzzle.runtime.files import is_directory

# The back ends each task can run on, in table order.
TASK_BACKENDS = {
    "solve": ("exact-cover", "cpsat", "sat", "z3"),
    "count": ("exact-cover", "cpsat", "sat", "z3"),
    "frames": ("exact-cover", "cpsat", "sat", "z3"),
    "nonogram": ("cpsat", "sat", "z3"),
    "maze": ("mdd", "cpsat", "sat", "z3"),
}
# What each task answers, and so what a suite may expect of it (count: a whole number).
EXPECTED = {"solve": ("sat", "unsat"), "frames": ("sat", "unsat"),
            "nonogram": ("unique", "multiple", "none"), "maze": ("sat", "unsat")}
_ENTRY_KEYS = {"task", "model", "pattern", "size", "expect", "anchor", "anchor_s", "time_limit",
               "backends", "raw", "workers", "encoding", "presolve", "label"}
_SUITE_KEYS = {"title", "task", "time_limit", "puzzle", "note"}


@dataclass
class Entry:
    """One puzzle of a suite and the task to time on it."""

    task: str
    target: str  # a model name or file (maze: the pattern)
    label: str
    expect: Any = None  # the answer it must give: a status, or a count
    anchor: str = ""  # the reference figure, in words
    anchor_s: float | None = None  # the reference time, drawn on the plot
    time_limit: float | None = None
    backends: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Suite:
    name: str
    title: str
    entries: list[Entry]
    path: Path


def suite_dirs() -> list[Path]:
    """Where named suites are found: $SMTPUZZLE_BENCH, ./bench, then the project's bench/."""
    dirs = [Path(p) for p in os.environ.get("SMTPUZZLE_BENCH", "").split(os.pathsep) if p]
    dirs += [Path.cwd() / "bench", Path(__file__).resolve().parents[2] / "bench"]
    return [d for d in dirs if is_directory(d)]


def suite_names() -> list[str]:
    return sorted({p.stem for d in suite_dirs() for p in d.glob("*.toml")})


def find_suite(name: str) -> Path:
    path = Path(name)
    if path.suffix == ".toml":
        if not path.is_file():
            raise PuzzleError("no such suite file", name)
        return path
    for d in suite_dirs():
        if (d / f"{name}.toml").is_file():
            return d / f"{name}.toml"
    raise PuzzleError(f"no bench suite named {name!r} (known: {', '.join(suite_names())})")


PUZZLE = r"^[ \t]*\[\[\s*puzzle\s*\]\]"


def load_suite(name: str) -> Suite:
    """The benchmark suite ``name`` (a ``NAME.toml`` in suite_dirs(), or a path), checked."""
    path = find_suite(name)
    data, text = read_toml(path)
    unknown = set(data) - _SUITE_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise PuzzleError(f"unknown key {key!r} (known: {', '.join(sorted(_SUITE_KEYS))})",
                          _at(path, text, key))
    puzzles = data.get("puzzle", [])
    if not isinstance(puzzles, list) or not all(isinstance(p, dict) for p in puzzles):
        raise PuzzleError("puzzles are [[puzzle]] tables, not puzzle = ...",
                          _at(path, text, "puzzle"))
    if not puzzles:
        raise PuzzleError("a suite needs at least one [[puzzle]]", str(path))
    # the suite's own defaults are checked once and blamed on the suite, not its puzzle 1
    if "task" in data:
        _check_task(data["task"], _at(path, text, "task"))
    _check_limit(data.get("time_limit"), _at(path, text, "time_limit"))
    for key in ("title", "note"):
        _check_text(data, key, _at(path, text, key))
    entries = [_entry(item, i, data, path, text) for i, item in enumerate(puzzles, 1)]
    return Suite(path.stem, str(data.get("title", path.stem)), entries, path)


def _check_task(task: Any, where: str) -> None:
    if not isinstance(task, str) or task not in TASK_BACKENDS:
        raise PuzzleError(f"task must be one of {', '.join(TASK_BACKENDS)}, not {task!r}",
                          where)


def _check_limit(limit: Any, where: str, key: str = "time_limit") -> None:
    if limit is None:
        return
    if isinstance(limit, bool) or not isinstance(limit, int | float) or \
            not math.isfinite(limit) or limit <= 0:
        raise PuzzleError(f"{key} must be a positive number of seconds, not {limit!r}", where)


def _check_text(table: dict[str, Any], key: str, where: str) -> None:
    if key in table and not isinstance(table[key], str):
        raise PuzzleError(f"{key} is text in quotes, not {table[key]!r}", where)


def _check_options(item: dict[str, Any], where: Callable[[str], str]) -> None:
    """The run options a puzzle may set, refused here when they are of the wrong kind
    rather than failing (or being misread) in the middle of a run."""
    for key in ("raw", "presolve"):
        if key in item and not isinstance(item[key], bool):
            raise PuzzleError(f"{key} is true or false, not {item[key]!r}", where(key))
    workers = item.get("workers")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise PuzzleError(f"workers is a whole number >= 1, not {workers!r}", where("workers"))
    if "encoding" in item:
        from smtpuzzle.puzzles.nonogram.puzzle import ENCODINGS

        if item["encoding"] not in ENCODINGS:
            raise PuzzleError(f"encoding is one of {', '.join(ENCODINGS)}, not "
                              f"{item['encoding']!r}", where("encoding"))
    for key in ("label", "anchor"):
        _check_text(item, key, where(key))
    _check_limit(item.get("anchor_s"), where("anchor_s"), "anchor_s")


def _backends(given: Any, task: str, where: str) -> tuple[str, ...]:
    """A puzzle's back ends: a list of names (or one name) the task can run on, once each."""
    names = [given] if isinstance(given, str) else given
    if not isinstance(names, list) or not names or not all(isinstance(b, str) for b in names):
        raise PuzzleError(f"backends is a list of names such as [\"cpsat\", \"sat\"], not "
                          f"{given!r}", where)
    bad = [b for b in names if b not in TASK_BACKENDS[task]]
    if bad:
        raise PuzzleError(f"back end {bad[0]!r} cannot run a {task} task (it can: "
                          f"{', '.join(TASK_BACKENDS[task])})", where)
    twice = repeated(names)
    if twice:
        raise PuzzleError(f"backends names {twice!r} twice", where)
    return tuple(names)


def repeated(names: list[str]) -> str | None:
    """The first name given a second time, if any."""
    return next((n for i, n in enumerate(names) if n in names[:i]), None)


def _check_expect(task: str, expect: Any, where: str) -> None:
    """Refuse an ``expect`` that the task can never answer: run, it would be reported as
    a wrong answer (a bug) rather than a typo in the suite."""
    if expect is None:
        return
    if task == "count":
        if isinstance(expect, bool) or not isinstance(expect, int) or expect < 0:
            raise PuzzleError(f"expect of a count is a whole number >= 0, not {expect!r}",
                              where)
    elif expect not in EXPECTED[task]:
        raise PuzzleError(f"expect of a {task} task is one of "
                          f"{', '.join(map(repr, EXPECTED[task]))}, not {expect!r}", where)


def _at(path: Path, text: str, key: str | None, number: int | None = None) -> str:
    """Where in the suite file ``key`` is: at the top, or in its ``number``th [[puzzle]]
    (its header's line when the key is not written there)."""
    line = key_line(text, None if number is None else PUZZLE, key,
                    0 if number is None else number - 1)
    where = f"{path}:{line}" if line else str(path)
    return where if number is None else f"{where}: puzzle {number}"


def _entry(item: dict[str, Any], number: int, suite: dict[str, Any], path: Path,
           text: str) -> Entry:
    def where(key: str | None = None) -> str:
        return _at(path, text, key, number)

    unknown = set(item) - _ENTRY_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise PuzzleError(f"unknown key {key!r} (known: {', '.join(sorted(_ENTRY_KEYS))})",
                          where(key))
    task = item.get("task", suite.get("task"))
    if task is None:
        raise PuzzleError(f"no task: give task = one of {', '.join(TASK_BACKENDS)} (in the "
                          "puzzle or, for all of them, at the top of the suite)", where())
    _check_task(task, where("task"))
    _check_expect(task, item.get("expect"), where("expect"))
    key = "pattern" if task == "maze" else "model"
    target = item.get(key)
    if not isinstance(target, str) or not target:
        raise PuzzleError(f"a {task} puzzle needs {key} = \"...\"", where(key))
    backends = _backends(item.get("backends", list(TASK_BACKENDS[task])), task,
                         where("backends"))
    limit = item.get("time_limit", suite.get("time_limit"))
    _check_limit(item.get("time_limit"), where("time_limit"))
    _check_options(item, where)
    options = {k: item[k] for k in ("raw", "workers", "encoding", "presolve", "size")
               if k in item}
    default_label = target
    if task == "maze":
        from smtpuzzle.puzzles.maze.cases import describe, parse_size

        try:  # refused here, not in every run
            options["size"] = parse_size(item.get("size", 3))
        except PuzzleError as exc:
            raise PuzzleError(f"size: {exc.message}", where("size")) from None
        default_label = f"maze {describe(options['size'])}: {target.count('*')} stars"
    return Entry(task, target, item.get("label", default_label), item.get("expect"),
                 str(item.get("anchor", "")), item.get("anchor_s"), limit, backends, options)
