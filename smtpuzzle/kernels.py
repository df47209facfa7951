"""Compiled kernels that cost nothing until an input is large enough to need them.

A kernel is a function written for numba's nopython mode and marked with :func:`kernel`.
It stays plain Python, and numba is not even imported, until :func:`compile_kernels` is
called for its module: then every kernel of the module is swapped for its numba
compilation (loaded from numba's cache on disk after the first time). Loading numba and
the cached machine code takes about half a second, far longer than a small puzzle needs
in plain Python, so callers compile only for large inputs (:func:`for_size`).

Kernels call each other through their module's globals, and so do the module's own
functions: other modules must call a kernel as ``module.kernel(...)``, never import it by
name (the name would keep the plain function).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)
_MARK = "__smtpuzzle_kernel__"
_compiled: set[str] = set()


def kernel(fn: F) -> F:
    """Mark ``fn`` as a kernel of its module (it is returned unchanged)."""
    setattr(fn, _MARK, True)
    return fn


def compile_kernels(module_name: str) -> None:
    """Swap every kernel of ``module_name`` for its numba compilation (once)."""
    if module_name in _compiled:
        return
    from numba import njit

    module = sys.modules[module_name]
    for name, value in list(vars(module).items()):
        if getattr(value, _MARK, False):
            setattr(module, name, njit(cache=True)(value))
    _compiled.add(module_name)


def is_compiled(module_name: str) -> bool:
    return module_name in _compiled


def for_size(module_name: str, size: int, largest_in_python: int) -> None:
    """Compile ``module_name``'s kernels when an input of ``size`` is larger than what plain
    Python does faster than numba loads (``largest_in_python``)."""
    if size > largest_in_python:
        compile_kernels(module_name)
