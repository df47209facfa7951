"""What every command shares: the consoles, exit codes, option types, the error wrapper, JSON
output and progress displays."""

from __future__ import annotations

import functools
import json
import math
import os
import signal
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, ProgressColumn

from smtpuzzle.errors import (
    ProcessDied,
    PuzzleError,
    VerificationError,
    command_line_words,
)
from smtpuzzle.runtime.checks import MAX_TIME_LIMIT

_started = [time.perf_counter()]  # when the command started: see mark_start, budget
UNWRITTEN: list[str] = []  # output files that failed after the answer was found
# Markup is off unless a print asks for it (markup=True, with what the user wrote escaped):
# a path or name with brackets in it, "run[v2].cnf", is printed as it is.
out = Console(highlight=False, soft_wrap=True, emoji=False, markup=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False, markup=False)


# 0 answered (a solution, or a proof that there is none); then these.
EXIT_UNKNOWN, EXIT_BAD_INPUT, EXIT_UNVERIFIED = 1, 2, 3

ModelArg = Annotated[str, typer.Argument(help="A model name from `smtpuzzle list`, or a file.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as one JSON object.")]
RayOpt = Annotated[str | None, typer.Option(
    help="Run the sub-problems on a Ray cluster: its address, auto (the cluster this machine "
         "is in) or local (a private instance here); needs pip install 'smtpuzzle\\[ray]'.")]



def warn_same_shapes(puzzle: Any) -> None:
    """Warn (stderr) of two pieces of a tiling or frames puzzle with the same shape."""
    from smtpuzzle.puzzles.tiling.puzzle import same_shapes

    alike: dict[str, list[str]] = {}  # one line per shape: its first piece, then the rest
    for a, b in same_shapes(getattr(puzzle, "pieces", [])):
        alike.setdefault(a, [a]).append(b)
    for names in alike.values():
        listed = ", ".join(map(escape, names[:-1])) + f" and {escape(names[-1])}"
        err.print(f"[yellow]warning:[/yellow] pieces {listed} have the same shape (give one "
                  f"piece count = {len(names)} if that is meant)", markup=True)


def seconds(text: str) -> float:
    """A time limit: a positive, finite number of seconds (nan, inf, 0 and negatives are
    usage errors, as is anything that is not a number)."""
    try:
        if not text.isascii() or "_" in text:  # float() takes '\u0663' and '1_0'
            raise ValueError
        value = float(text)
    except ValueError:
        raise typer.BadParameter(f"{text[:40]!r} is not a number of seconds") from None
    if math.isnan(value) or value <= 0:
        raise typer.BadParameter(f"a time limit is a positive number of seconds, not "
                                 f"{text[:40]!r}")
    if value > MAX_TIME_LIMIT:
        raise typer.BadParameter(f"a time limit is at most {MAX_TIME_LIMIT:.0f} seconds (11 "
                                 f"days), not {text[:40]!r}; leave it out for no limit")
    return value


def cli_path(text: str | Path) -> Path:
    """A file or directory named on the command line: an empty name (an unset shell
    variable, ``--out "$OUT"``) is a mistake, not the current directory."""
    if not str(text).strip():
        raise typer.BadParameter("an empty path")
    return Path(text)


def check_workers(workers: int, ray: str | None) -> None:
    """Refuse more local processes than make sense: past a few a core they only compete
    for the cores, and forking thousands takes longer than any time limit."""
    cores = os.cpu_count() or 1
    if not ray and workers > 4 * cores:
        raise PuzzleError(f"--workers {workers}: this machine has {cores} cores, so at most "
                          f"{4 * cores} processes (a Ray cluster, --ray, takes more)")


def budget(time_limit: float | None) -> float | None:
    """What is left of a command's ``--time-limit``: the limit counts from the start of the
    command line (start-up and reading the puzzle included), not from the search's start."""
    if time_limit is None:
        return None
    return max(time_limit - (time.perf_counter() - _started[0]), 0.001)


def mark_start(at: float | None = None) -> None:
    """Set when the command started (a ``time.perf_counter()`` value; default now)."""
    _started[0] = time.perf_counter() if at is None else at


def named(value: str | None) -> str | None:
    """An option naming something (a back end, a solver, a model): an empty one is a
    mistake, not the default."""
    if value is not None and not value.strip():
        raise typer.BadParameter("an empty name (leave the option out for the default)")
    return value


def time_limit_option(help_text: str) -> Any:
    """The --time-limit option, checked by :func:`seconds`."""
    return typer.Option("--time-limit", help=help_text, parser=seconds, metavar="SECONDS")


F = TypeVar("F", bound=Callable[..., Any])


def friendly(fn: F) -> F:
    """Bad input becomes one line on stderr and exit code 2, never a traceback; a solution
    that fails verification, exit code 3; a worker process that died, or Ctrl-C before any
    answer, one line and exit code 1 (unknown; with --json, also an unknown JSON object)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        UNWRITTEN.clear()  # this command's (the tests run many in one process)
        main = threading.current_thread() is threading.main_thread()
        handler = signal.getsignal(signal.SIGINT) if main else None
        try:
            result = fn(*args, **kwargs)
            if UNWRITTEN:  # each said so when it failed; the answer was shown all the same
                raise typer.Exit(EXIT_BAD_INPUT)
            return result
        except PuzzleError as exc:
            err.print(f"[red]error:[/red] {escape(clipped(exc.for_command_line()))}",
                      markup=True)
            if kwargs.get("as_json"):  # a reader of --json gets the error as JSON
                print_json({"status": "error", "error": clipped(exc.for_command_line())})
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except VerificationError as exc:
            err.print(f"[red]verification failed (a bug, please report):[/red] "
                      f"{escape(str(exc))}", markup=True)
            if kwargs.get("as_json"):
                print_json({"status": "error", "error": f"verification failed: {exc}"})
            raise typer.Exit(EXIT_UNVERIFIED) from None
        except KeyboardInterrupt:  # Ctrl-C that no answer caught: nothing to show
            err.print("interrupted: stopped before any answer")
            if kwargs.get("as_json"):  # a reader of --json still gets its one object
                print_json({"status": "unknown", "interrupted": True})
            raise typer.Exit(EXIT_UNKNOWN) from None
        except ProcessDied as exc:  # killed from outside, or out of memory: not an answer
            report_stopped(str(exc))
            if kwargs.get("as_json"):
                print_json({"status": "unknown", "worker_lost": str(exc)})
            raise typer.Exit(EXIT_UNKNOWN) from None
        finally:
            # winding_down's (None: a handler not set from Python, which stays)
            if main and handler is not None and signal.getsignal(signal.SIGINT) is not handler:
                signal.signal(signal.SIGINT, handler)

    return cast(F, wrapper)


def winding_down() -> None:
    """The answer is in hand and only its report is left (a check stopped by Ctrl-C, a
    benchmark's table): another Ctrl-C would replace it with "stopped before any answer",
    so from here to the command's end Ctrl-C is ignored (friendly puts it back after)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def unwritten(message: str) -> None:
    """An output file that could not be written once the answer was found (a full disk):
    said at once; the command still shows its answer, then exits with code 2 (friendly)."""
    err.print(f"error: {message}")
    UNWRITTEN.append(message)


def clipped(message: str, most: int = 500) -> str:
    """A message that quotes what was typed (a 100,000-letter back end name) cut short."""
    return message if len(message) <= most else (
        f"{message[:most]}... ({len(message):,} characters in all)")


def listed(found: int, complete: bool, limit: int | None, interrupted: bool = False
           ) -> tuple[int, str, bool]:
    """A count or listing of solutions that decides uniqueness (so it searches for two at
    least): how many of the ``found`` to give for ``limit``, the words after their number,
    and whether the search stopped short of its end and its limit (time or Ctrl-C: the
    command then exits 1)."""
    given = found if limit is None else min(found, limit)
    if complete and given == found:
        return given, "all of them", False
    if limit is not None and found >= limit:
        more = "there are more" if found > limit else "there may be more"
        return given, f"stopped at the limit of {limit:,}: {more}", False
    return given, ("interrupted" if interrupted else "stopped by the time limit") + \
        ": there may be more", True


def report_stopped(reason: str, kept: str = "") -> None:
    """One line on stderr saying what stopped the work early, and what of it is kept."""
    err.print(f"stopped: {reason}" + (f"; {kept}" if kept else ""), markup=False)


def print_json(data: Any) -> None:
    """One JSON object on stdout (plain print: no markup, no wrapping); the arguments its
    notes and errors name, as flags."""
    print(json.dumps(_flags_in_notes(data)))


def _flags_in_notes(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: command_line_words(v) if k in ("note", "error") and isinstance(v, str)
                else _flags_in_notes(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_flags_in_notes(v) for v in data]
    return data


def interactive(as_json: bool = False) -> bool:
    """Whether to show progress: stderr is a terminal (and the output is not JSON)."""
    return err.is_terminal and not as_json


def spinner(text: str, show: bool) -> AbstractContextManager[Any]:
    """A spinner with ``text`` on stderr while the block runs, if ``show``."""
    return err.status(text) if show else nullcontext()


def progress(*columns: str | ProgressColumn, show: bool, transient: bool = True) -> Progress:
    """A progress display on stderr, hidden unless ``show``."""
    return Progress(*columns, console=err, disable=not show, transient=transient)
