"""Shared fixtures; slow oracles run only with --runslow."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="also run the slow oracles")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow oracle: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
