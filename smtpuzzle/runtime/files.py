"""Files in and out. Inputs are read as UTF-8 text, refused at once if they are no regular
file or too large for memory; outputs are checked before the work that makes them starts
(hours of search must never end in a traceback about a path) and written whole. Each
refusal is a one-line PuzzleError naming the path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from smtpuzzle.errors import PuzzleError
from smtpuzzle.runtime.memory import check_fits_in_memory


def writable(path: Path, what: str = "the checkpoint") -> None:
    """Refuse at once a file (``what``) that could never be written: no directory, a
    directory in its place, or one that refuses the write (permissions, a read-only or
    immutable place), found by opening it to append, as the real write will."""
    try:
        mode = path.stat().st_mode if path.exists() else None
        parent = path.parent.is_dir()
    except OSError as exc:  # a name too long, a loop of links
        raise PuzzleError(f"cannot write {what} here ({exc.strerror})", where=str(path)[:200]) \
            from None
    if not parent:
        raise PuzzleError(f"no directory {path.parent} to write {what} in", where=str(path))
    if mode is not None and stat.S_ISDIR(mode):
        raise PuzzleError(f"is a directory: {what} is a file", where=str(path))
    if mode is not None and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):  # would wait
        raise PuzzleError(f"is a named pipe or socket: {what} is a file", where=str(path))
    existed = mode is not None
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        raise PuzzleError(f"cannot write {what} here ({exc.strerror})", where=str(path)) \
            from None
    if not existed:
        path.unlink(missing_ok=True)


def output_directory(path: Path, what: str) -> Path:
    """``path``, made a directory (with its parents) for ``what`` if it is not one yet."""
    try:
        if path.exists() and not path.is_dir():
            raise PuzzleError(f"is a file, not a directory for {what}", where=str(path))
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PuzzleError(f"cannot make the directory for {what} ({exc.strerror})",
                          where=str(path)) from None
    return path


def distinct_files(outputs: dict[str, Path | None],
                   inputs: dict[str, Path | None] | None = None) -> None:
    """Refuse an output that names an input (it would be written over) or the same file as
    another output (one would replace the other): keys say what each path is for."""
    seen: dict[str, str] = {}
    for what, path in [*(inputs or {}).items(), *outputs.items()]:
        if path is None:
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise PuzzleError(f"{what} names the same file as {seen[key]}", where=str(path))
        seen[key] = what


def replace_whole(tmp: Path, path: Path) -> None:
    """Put the finished file ``tmp`` in ``path``'s place, its bytes on disk first: a crash or
    a power cut then leaves the old file or the new one, never an empty or torn one."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    try:  # the rename itself, where the system allows a directory to be synced
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def write_whole(path: Path, text: str) -> None:
    """``text`` to ``path`` whole or not at all: a temporary file beside it, then
    replace_whole; a write that fails leaves the old file and no temporary one."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text)
        replace_whole(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


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
