"""Shared fixtures; slow oracles run only with --runslow.

Back-end fixtures: a test that runs the same thing on several back ends takes one of these
(the test id then names the back end, e.g. ``test_x[z3]``):

- ``backend_name``: "cpsat", "sat", "z3", the back ends that take any model;
- ``cover_backend_name``: "exact-cover" too, for pure cover models;
- ``solver_variant``: (back end, solver) pairs with a few PySAT solvers and z3 kinds
  (ids like ``sat:minisat22``), for ``get_backend(*solver_variant)``.

The sets themselves live in tests/helpers.py, for tests that need a set of their own.

Hypothesis profiles: "default" (a few examples per property) and "slow" (many), loaded with
--runslow.
"""

from __future__ import annotations

import signal

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers import ANY_MODEL_BACKENDS, COVER_BACKENDS, SOLVER_VARIANTS, variant_id

# A run started with Ctrl-C ignored (`pytest &` in a script) passes that on to every command
# the tests start, and the Ctrl-C tests then see the commands run to the end. Take Ctrl-C
# as a run in a terminal does; the commands started from here get the default back.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Property tests (hypothesis): few examples by default, to keep CI fast; many with --runslow.
# No deadline: the first example of a test may pay for imports or a numba compilation.
settings.register_profile("default", max_examples=12, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="also run the slow oracles")


def pytest_configure(config: pytest.Config) -> None:
    settings.load_profile("slow" if config.getoption("--runslow") else "default")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow oracle: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=ANY_MODEL_BACKENDS)
def backend_name(request: pytest.FixtureRequest) -> str:
    """Each back end that takes any model: cpsat, sat, z3."""
    return request.param


@pytest.fixture(params=COVER_BACKENDS)
def cover_backend_name(request: pytest.FixtureRequest) -> str:
    """Each back end that takes a pure cover model: exact-cover, cpsat, sat, z3."""
    return request.param


@pytest.fixture(params=SOLVER_VARIANTS, ids=variant_id)
def solver_variant(request: pytest.FixtureRequest) -> tuple[str, str | None]:
    """(back end, solver) pairs: every back end, a few PySAT solvers, both z3 kinds."""
    return request.param
