"""Refusing work that would not fit in memory, before it starts, with the estimate.

A model far too large for the machine would otherwise swap or be killed after minutes; the
estimates here are deliberately rough (within a factor of two or so) and only refuse what
is clearly beyond the memory available.
"""

from __future__ import annotations

import os

from smtpuzzle.errors import PuzzleError


def available_bytes() -> int | None:
    """Memory this process may still take: MemAvailable on Linux, else free physical pages;
    None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def size_text(n: float) -> str:
    """Bytes in words: ``512 MB``, ``48.2 GB``."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n / 1e3:.0f} kB"


SMALL = 2**24  # bytes: no machine this runs on lacks 16 MB; callers may skip the check


def check_fits_in_memory(needed: float, what: str) -> None:
    """Raise a PuzzleError if ``needed`` bytes (an estimate for ``what``) exceed the memory
    available."""
    free = available_bytes()
    if free is not None and needed > free:
        raise PuzzleError(f"{what} would need about {size_text(needed)} of memory, more than "
                          f"the {size_text(free)} available")
