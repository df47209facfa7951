"""Reading an input file as text or TOML: every way it can fail is a one-line PuzzleError
naming the file (and, where it can, the line); and finding the line of a TOML key, so that
errors about its value can name it."""

from __future__ import annotations

import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.memory import check_fits_in_memory


def check_file(path: str | Path) -> Path:
    """``path`` if it names a regular file; a PuzzleError saying what it is otherwise (a
    device or a named pipe would be read without end, or wait for a writer forever)."""
    path = Path(path)
    if not str(path).strip():
        raise PuzzleError("an empty file name")
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise PuzzleError("no such file", str(path)) from None
    except OSError as exc:  # a name too long, a loop of links, no permission to look
        raise PuzzleError(f"cannot read the file ({exc.strerror})", str(path)[:200]) from None
    if stat.S_ISDIR(mode):
        raise PuzzleError("is a directory, not a file", str(path))
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):  # /dev/zero: read without end
        raise PuzzleError("is a device, not a file", str(path))
    if not stat.S_ISREG(mode):
        raise PuzzleError("is a named pipe or socket, not a file", str(path))
    return path


def is_digits(word: str) -> bool:
    """``word`` is ASCII digits: str.isdecimal and int() also take other scripts' digits
    ('\u0663' reads as 3), which no puzzle file means."""
    return word.isascii() and word.isdecimal()


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an s unless ``n`` is 1: "1 solution", "2 solutions"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def is_directory(path: Path) -> bool:
    """Whether ``path`` is a directory; False for a name the system cannot even look up
    (too long: a mistyped environment variable is no directory, not a traceback)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def read_text(path: str | Path) -> str:
    """The file's text, decoded as UTF-8 (a byte-order mark is dropped). A file too large
    to read and parse in the memory there is (its text and the arrays made of it: about
    8 bytes a byte) is refused before it is read."""
    path = check_file(path)
    check_fits_in_memory(8 * path.stat().st_size, f"reading {path}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PuzzleError(f"cannot read the file ({exc.strerror})", str(path)) from None
    return decode_utf8(data, str(path))


def decode_utf8(data: bytes, where: str) -> str:
    """``data`` as UTF-8 text; bytes that are not UTF-8 are an error at their line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise PuzzleError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} at column {column} "
                          "(a binary file?)", f"{where}:{line}") from None


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
