"""The ``smtpuzzle`` command: parse arguments, call the library, render the answer.

One module per command family (library: list, show; solve; count; frames; cnf: export-cnf,
decode; maze; bench), what they share in common, the application in app. The puzzle
families' heavy modules are imported inside the commands that use them, so that
``smtpuzzle --help`` starts fast; and this module imports nothing at all until ``main``
runs, so that Ctrl-C during start-up is caught like Ctrl-C at any other time.

Exit codes: 0 answered (a solution, or a proof that there is none), 1 no answer (time
limit or Ctrl-C), 2 bad input, 3 a solution failed verification (a bug: please report).
"""

from __future__ import annotations

import atexit
import errno
import os
import signal
import sys
import time
from typing import Any


def main() -> None:
    """The console entry point: the exit code is the command's; Ctrl-C at any moment,
    start-up included, prints ``interrupted`` and exits with code 1. Time limits count
    from here."""
    started = time.perf_counter()
    # During start-up Ctrl-C is blocked and left pending: an interrupt inside a compiled
    # module's import surfaces as an ImportError traceback, and one noted by a Python-level
    # handler still ended the process by the signal now and then (both seen in CI). Once the
    # commands are loaded, a pending Ctrl-C is taken and answered as at any other time.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        from smtpuzzle.cli.app import interrupted, run  # typer, rich, the commands

        _load_what_typer_loads_late()
    finally:
        pending = signal.sigtimedwait({signal.SIGINT}, 0) is not None
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    try:
        code = interrupted() if pending else run(started=started)
    except KeyboardInterrupt:
        code = interrupted()
    except OSError as exc:
        if exc.errno not in _FULL:
            raise
        # stdout is a full disk or /dev/full: say so once, instead of a traceback
        sys.stderr.write(f"error: cannot write the output ({exc.strerror})\n")
        code = 2
    # The answer is out: a Ctrl-C while the interpreter shuts down (where Python's handler
    # is gone) must not turn its exit code into death by the signal.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit(code)


_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)  # what writing the output may meet


def _load_what_typer_loads_late() -> None:
    """typer 0.2x imports pydantic when it first converts an option's value, after start-up:
    a Ctrl-C then broke that import with a traceback (seen in a CI dry run). Loaded here,
    while Ctrl-C is held, it is in place before any option is read."""
    import importlib

    try:
        importlib.import_module("typer._adapters")
    except ImportError:  # another typer: it loads nothing late, or something else
        pass


def _exit(code: int) -> None:
    """Leave without tearing the interpreter down: the exit handlers run (worker pools,
    Ray, logging), the output is flushed, and the process ends. Freeing every module and
    object of numba, OR-Tools and z3 one by one took 0.3-0.9 s after the last line was
    printed, a third of a short command and more than a --time-limit of 2 s can spare."""
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe: the reader wanted no more
        pass
    os._exit(code)


def __getattr__(name: str) -> Any:
    if name == "app":  # the typer application, loaded on first use
        from smtpuzzle.cli.app import app

        return app
    raise AttributeError(f"module 'smtpuzzle.cli' has no attribute {name!r}")


__all__ = ["app", "main"]
