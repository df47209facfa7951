"""Checks of the arguments every entry point takes (time limits, numbers of solutions,
whole numbers, seeds), deadlines, and the small words errors are made of. Each check raises
a TypeError or ValueError naming the Python argument; the command line turns those into
its own flags' words."""

from __future__ import annotations

import numbers
import time
from typing import Any


def checked_whole(value: Any, what: str, least: int = 0, most: int | None = None) -> int:
    """``value``, a whole number from ``least`` (to ``most``) as given by a caller; a
    TypeError or ValueError naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} is a whole number, not {value!r}")
    if value < least or (most is not None and value > most):
        span = f"{least} or more" if most is None else f"{least} to {most}"
        raise ValueError(f"{what} is a whole number, {span}, not {value}")
    return int(value)


def checked_limit(limit: Any, least: int = 0) -> int | None:
    """A number of solutions asked for, as given by a caller: None (all) or a whole number
    of ``least`` or more (0 asks for none)."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, numbers.Integral):
        raise TypeError(f"limit is a whole number of solutions (or None for all), not "
                        f"{limit!r}")
    if limit < least:
        raise ValueError(f"limit is a number of solutions, {least} or more, not {limit} "
                         "(None for all)")
    return int(limit)


MAX_TIME_LIMIT = 1e6  # seconds (11.6 days): a longer limit is none (poll() refuses 25 days)
MAX_SEED = 2**32 - 1  # numpy's random generators take seeds of 0 to this


def checked_time_limit(time_limit: Any) -> float | None:
    """A time limit as given by a caller: None (no limit) or seconds, 0 or more; one of
    MAX_TIME_LIMIT or more (infinity too) is no limit."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise TypeError(f"time_limit is a number of seconds (or None), not {time_limit!r}")
    if not time_limit >= 0:  # NaN too
        raise ValueError(f"time_limit is a number of seconds, 0 or more, not {time_limit}")
    return None if time_limit >= MAX_TIME_LIMIT else float(time_limit)


def is_digits(word: str) -> bool:
    """``word`` is ASCII digits: str.isdecimal and int() also take other scripts' digits
    ('\u0663' reads as 3), which no puzzle file means."""
    return word.isascii() and word.isdecimal()


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an s unless ``n`` is 1: "1 solution", "2 solutions"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def deadline_for(time_limit: float | None) -> float | None:
    """The perf_counter time at which ``time_limit`` seconds from now run out (None: never)."""
    return None if time_limit is None else time.perf_counter() + time_limit


def time_left(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (0 once it has passed; None: no deadline)."""
    return None if deadline is None else max(deadline - time.perf_counter(), 0.0)
