"""Whether a back end that builds its model in this process has the time to build one.

CP-SAT and Z3 turn a model into their own objects through their Python APIs, in this
process, and such a build cannot be stopped (the sat back end's can: build_alarm.py stops
it at the deadline, and its solver runs in a child process killed there). With a time
limit, a puzzle does not start a build that cannot end in time: it answers unknown at once
and says why. The estimate is the back end's own (Backend.build_seconds).
"""

from __future__ import annotations

from smtpuzzle.backends import Backend
from smtpuzzle.model import Model


def too_slow_to_build(engine: Backend, model: Model, left: float | None) -> str | None:
    """Why ``engine`` should not start building ``model`` with ``left`` seconds to go (None
    when it may): the note an unknown answer gives."""
    if left is None:
        return None
    need = engine.build_seconds(model)
    if need <= left:
        return None
    return (f"not started: {engine.name} would take about {need:.0f} s to build this model "
            f"in this process, and {max(left, 0):.1f} s of the time limit were left (give "
            "more time, or the sat back end, whose build stops at the time limit)")
