"""Back ends: one module per solver family, all behind the :class:`Backend` interface."""

from __future__ import annotations

from smtpuzzle.backends.base import Backend, Capabilities, PartialCount, Session
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import solving

BACKENDS = ("cpsat", "sat", "z3", "exact-cover")


def get_backend(name: str, solver: str | None = None) -> Backend:
    """A back end by name; ``solver`` picks the PySAT solver (sat), the z3 solver kind or the
    exact-cover kernel (``auto``, ``sweep`` or ``mrv``)."""
    if solver and name == "cpsat":
        raise PuzzleError("`solver` applies to the sat, z3 and exact-cover back ends only")
    if name == "z3":
        from smtpuzzle.backends.z3 import Z3Backend

        return Z3Backend(solver or "default")
    if name == "cpsat":
        from smtpuzzle.backends.cpsat import CpSatBackend

        return CpSatBackend()
    if name == "sat":
        from smtpuzzle.backends.sat import DEFAULT_SOLVER, SatBackend

        return SatBackend(solver or DEFAULT_SOLVER)
    if name == "exact-cover":
        from smtpuzzle.backends.exactcover.backend import ExactCoverBackend
        from smtpuzzle.backends.exactcover.search import BRANCHINGS

        if solver and solver not in BRANCHINGS:
            raise PuzzleError(f"unknown exact-cover kernel {solver!r} (known: "
                              f"{', '.join(BRANCHINGS)})")
        return ExactCoverBackend(solver or "auto")
    raise PuzzleError(f"unknown back end {name!r} (known: {', '.join(BACKENDS)})")


def general_backend(name: str, solver: str | None, family: str) -> Backend:
    """:func:`get_backend` for a ``family`` of puzzles whose models are not exact covers:
    refuses the exact-cover back end at once, before any presolve could answer without it
    (whether the option was refused would then depend on the puzzle asked)."""
    engine = get_backend(name, solver)
    if not engine.capabilities.any_constraint:
        others = ", ".join(b for b in BACKENDS if b != name)
        raise PuzzleError(f"`backend={name}`: exact cover solves tilings, not {family} "
                          f"puzzles (try {others})")
    return engine


def preload() -> None:
    """Import every solver package now (a benchmark's runs should not pay for imports)."""
    import ortools.sat.python.cp_model  # noqa: F401
    import pysat.solvers  # noqa: F401
    import z3  # noqa: F401


solving.use_backends(get_backend)  # model.solve() finds back ends by name through this

__all__ = ["BACKENDS", "Backend", "Capabilities", "PartialCount", "Session", "general_backend",
           "get_backend", "preload"]
