"""Ctrl-C during PySAT's compiled calls, left to Python's own handler.

In the main thread PySAT puts its own SIGINT handler around each solve and cardinality
encoding, and that handler longjmps out of the C++ code. The jump can leave malloc's lock
held, so the next free deadlocks (a test hung so); it leaves SIGINT blocked, so
a second Ctrl-C is lost; and it leaves PySAT's handler installed, so a later Ctrl-C jumps
into a call long finished. PySAT keeps out of signals off the main thread, so the calls
made here tell it that is where they run: a Ctrl-C then only sets Python's flag and is
raised as KeyboardInterrupt when the call returns (a solve with a conflict budget returns
within it; a solve in a solver child is killed, and its SIGINT stays ignored).

The hook is private to PySAT (``pysat._utils.MainThread``, python-sat 1.8 and 1.9): a release
without it leaves PySAT's handler in place, as before this module, rather than failing every
solve; tests/test_session.py checks the hook is there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


def _not_main() -> bool:
    return False


@contextmanager
def python_sigint() -> Iterator[None]:
    """PySAT calls in this block leave SIGINT to Python."""
    try:
        from pysat._utils import MainThread
    except ImportError:
        MainThread = None
    if MainThread is None or "check" not in MainThread.__dict__:
        yield
        return
    saved = MainThread.__dict__["check"]
    MainThread.check = staticmethod(_not_main)
    try:
        yield
    finally:
        MainThread.check = saved
