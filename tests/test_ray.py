"""Sub-problems on Ray give exactly what the local pool gives (a local Ray instance)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from smtpuzzle import count, load
from smtpuzzle.library import load_frames
from smtpuzzle.puzzles.frames.sets import enumerate_sets
from tests.helpers import cli_fresh as cli

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.slow  # 5 s or more (a Ray instance and its workers): run with --runslow
def test_counts_on_ray_match_the_local_pool(cluster):
    tiling = load("pentomino-8x8-center-hole")
    local = count(tiling, workers=2)
    remote = count(tiling, ray="local")
    assert (local.count, remote.count) == (65, 65)
    assert remote.complete and remote.subproblems == local.subproblems
    other = count(load("pentomino-3x20"), ray="local", backend="cpsat", time_limit=600)
    assert other.complete and other.count == 2  # another back end in the Ray workers


def test_frames_stage1_on_ray_lists_the_same_sets(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("SMTPUZZLE_CACHE", str(tmp_path))
    frames = load_frames("pentomino-5x6x2")
    local = enumerate_sets(frames, workers=2, cache=False)
    remote = enumerate_sets(frames, ray="local", cache=False)
    assert remote.complete and len(remote.sets) == len(local.sets) == 172
    key = lambda sets: sorted(map(bytes, np.packbits(sets, axis=1)))  # noqa: E731
    assert key(remote.sets) == key(local.sets)


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_the_command_starts_and_stops_its_own_instance():
    p = cli("count", "pentomino-6x10", "--ray", "local", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["count"] == 2339 and data["complete"]


def test_an_unreachable_cluster_is_a_one_line_error():
    p = cli("count", "pentomino-6x10", "--ray", "127.0.0.1:1")
    assert p.returncode == 2 and "cannot reach a Ray cluster" in p.stderr
    assert "Traceback" not in p.stderr


def test_auto_with_a_cluster_gone_is_refused_at_once(monkeypatch):
    """Ray retries the address of a stopped cluster for ever, past the time limit and
    Ctrl-C: --ray auto checks it first."""
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")  # nothing listens on port 1
    p = cli("count", "pentomino-3x20", "--ray", "auto", "--time-limit", "5")
    assert p.returncode == 2, p.stderr
    assert "--ray auto: the cluster this machine was last in (127.0.0.1:1, from $RAY_ADDRESS) " \
           "cannot be reached" in p.stderr
