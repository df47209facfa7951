"""Where results are written, checked before the work that makes them starts: hours of
search must never end in a traceback about a path. Each refusal is a one-line PuzzleError
naming the path."""

from __future__ import annotations

from pathlib import Path

from smtpuzzle.errors import PuzzleError


def writable(path: Path, what: str = "the checkpoint") -> None:
    """Refuse at once a file (``what``) that could never be written: no directory, a
    directory in its place, or one that refuses the write (permissions, a read-only or
    immutable place), found by opening it to append, as the real write will."""
    if not path.parent.is_dir():
        raise PuzzleError(f"no directory {path.parent} to write {what} in", where=str(path))
    if path.is_dir():
        raise PuzzleError(f"is a directory: {what} is a file", where=str(path))
    existed = path.exists()
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
    if path.exists() and not path.is_dir():
        raise PuzzleError(f"is a file, not a directory for {what}", where=str(path))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PuzzleError(f"cannot make the directory for {what} ({exc.strerror})",
                          where=str(path)) from None
    return path
