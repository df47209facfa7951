"""Reading an input file as text or TOML: every way it can fail is a one-line PuzzleError
naming the file (and, where it can, the line); and finding the line of a TOML key, so that
errors about its value can name it."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.runtime.files import read_text


def read_toml(path: str | Path) -> tuple[dict[str, Any], str]:
    """The file's TOML data and its text."""
    text = read_text(path)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise PuzzleError(f"malformed TOML: {exc}", str(path)) from None
    except RecursionError:
        raise PuzzleError("malformed TOML: arrays or tables nested too deeply", str(path)) \
            from None
    except ValueError:  # Python refuses to convert integers of too many digits
        raise too_many_digits(text, str(path)) from None


def too_many_digits(text: str, where: str) -> PuzzleError:
    """The error for a number in ``text`` longer than Python converts, at its line."""
    most = sys.get_int_max_str_digits()
    found = re.search(rf"\d{{{most + 1},}}", text)
    line = text.count("\n", 0, found.start()) + 1 if found else None
    return PuzzleError(f"a number of {len(found[0]) if found else 'over ' + str(most)} digits "
                       "(far too large for any puzzle)", f"{where}:{line}" if line else where)


def line_of(text: str, pattern: str, nth: int = 0) -> int | None:
    """The line (from 1) of the ``nth`` match of ``pattern`` (multiline), or None."""
    hits = [m.start() for m in re.finditer(pattern, text, flags=re.MULTILINE)]
    return text.count("\n", 0, hits[nth]) + 1 if nth < len(hits) else None


def key_line(text: str, header: str | None, key: str | None, nth: int = 0) -> int | None:
    """The line of ``key = ...`` in the ``nth`` table whose header matches ``header`` (the
    header's own line if the key is not found there; None without the header). With
    ``header`` None, the key among the top-level ones, before any table (or None)."""
    start = 0 if header is None else line_of(text, header, nth)
    if start is None or key is None:
        return start
    lines = text.splitlines()
    for k in range(start, len(lines)):  # the lines after the header (start is 1-based)
        if re.match(r"^[ \t]*\[\[?[ \t]*[A-Za-z_\"']", lines[k]):  # the next table
            break
        if re.match(rf"^[ \t]*{re.escape(key)}\s*=", lines[k]):
            return k + 1
    return start or None


def grid_title(path: Path) -> str:
    """A KenKen's ``title`` line, else a Sudoku file's first comment, for the library's
    list."""
    try:
        lines = [line.strip() for line in read_text(path).splitlines()]
    except PuzzleError:
        return "(unreadable)"
    for line in lines:
        if line.startswith("title "):
            return line.removeprefix("title ").strip()
    comments = [line.lstrip("#").strip() for line in lines if line.startswith("#")]
    return comments[0] if comments else path.stem
