"""Where results are written, checked before the work that makes them starts: hours of
search must never end in a traceback about a path. Each refusal is a one-line PuzzleError
naming the path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from smtpuzzle.errors import PuzzleError


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
