"""Stopping a model's build in this process at the time limit.

The sat back end lowers integers and writes its CNF in this process (only its solver runs
in a child), in numpy and Python: a model of millions of integer values can take longer to
build than the whole time limit, and nothing there looks at the clock. A timer signal
does: at the deadline it raises BuildTimedOut in the build, between two of its Python
steps, and the search answers unknown instead of starting late. Back ends whose build runs
through a foreign-function API do not take it (Backend.build_stops): an exception raised
while ctypes converts an argument comes out as ctypes.ArgumentError (z3), so theirs is
guarded by an estimate before it starts (Backend.too_slow_to_build). Only the main thread receives
signals; elsewhere the build runs to its end.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class BuildTimedOut(Exception):
    """The time limit came while the model was being built."""


def _ring(signum: int, frame: object) -> None:
    raise BuildTimedOut


@contextmanager
def build_alarm(deadline: float | None) -> Iterator[None]:
    """Raise BuildTimedOut in the block once ``deadline`` (a ``time.perf_counter()``
    moment) passes. An alarm already set (an outer build) is left to ring on its own."""
    if deadline is None or threading.current_thread() is not threading.main_thread() \
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _ring)
    try:
        # (a span of years overflows the timer: a build never lasts a day)
        left = min(max(deadline - time.perf_counter(), 1e-4), 86_400.0)
        signal.setitimer(signal.ITIMER_REAL, left)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
