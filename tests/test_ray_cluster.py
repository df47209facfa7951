"""A real Ray cluster of two nodes on this machine (``ray start --head`` and a second
``ray start --address``, each with its own resources): a count through ``--ray ADDRESS``
matches the local pool, and a worker node stopped mid-count costs nothing but time (its
tasks run again elsewhere, and nothing is counted twice).

The cluster uses token authentication, as a real one should, with a token of its own."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from smtpuzzle import count, load
from tests.helpers import ROOT

ray = pytest.importorskip("ray")

RAY = str(Path(sys.executable).parent / "ray")

pytestmark = pytest.mark.slow  # a real cluster started and stopped: a minute


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """Nodes started with ``ray start --block`` in sessions of their own, so that one node
    can be killed (every process of it) without touching the others, or any other Ray on
    this machine."""

    def __init__(self, tmp: Path) -> None:
        token = tmp / "token"
        token.write_text(secrets.token_hex(32))
        self.env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[subprocess.Popen] = []
        self._tmp = tmp

    def start(self, name: str, head: bool = False) -> subprocess.Popen:
        where = ["--head", "--port", str(self.port), "--include-dashboard", "false",
                 "--disable-usage-stats"] if head else ["--address", self.address]
        log = open(self._tmp / f"{name}.log", "w")
        node = subprocess.Popen(
            [RAY, "start", *where, "--node-ip-address", "127.0.0.1", "--num-cpus", "1",
             "--resources", json.dumps({name: 1}), "--block"],
            env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.nodes.append(node)
        self._wait_for(sum(n.poll() is None for n in self.nodes))
        return node

    def _wait_for(self, n: int, timeout: float = 60.0) -> None:
        stop = time.monotonic() + timeout
        while time.monotonic() < stop:
            p = subprocess.run([RAY, "status", "--address", self.address], env=self.env,
                               capture_output=True, text=True)
            active = p.stdout.partition("Active:")[2].partition("Pending:")[0]
            if active.count("node_") >= n:
                return
            time.sleep(0.5)
        raise RuntimeError(f"the Ray cluster did not reach {n} nodes:\n{p.stdout}{p.stderr}")

    @staticmethod
    def kill(node: subprocess.Popen) -> None:
        """Every process of the node: its session, for Ray's worker processes have process
        groups of their own (killing the raylet alone leaves them running leased tasks)."""
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    if os.getsid(int(entry)) == node.pid:
                        os.kill(int(entry), signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        node.wait()

    def stop(self) -> None:
        for node in reversed(self.nodes):
            self.kill(node)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("ray"))
    try:
        c.start("head", head=True)
        c.start("node2")
        with pytest.MonkeyPatch.context() as env:
            env.setenv("RAY_AUTH_MODE", "token")
            env.setenv("RAY_AUTH_TOKEN_PATH", c.env["RAY_AUTH_TOKEN_PATH"])
            yield c
    finally:
        c.stop()


def _count(cluster: Cluster, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "smtpuzzle", "count", *args, "--ray",
                             cluster.address, "--json"], cwd=ROOT, env=cluster.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_count_on_two_nodes_matches_the_local_pool(cluster: Cluster) -> None:
    p = _count(cluster, "pentomino-6x10")
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    data = json.loads(out)
    local = count(load("pentomino-6x10"), workers=2)
    assert data["count"] == local.count == 2339 and data["complete"]
    assert data["subproblems"] == local.subproblems
    assert data["ray"]["nodes"] == 2  # both nodes returned results


# Run in a process of its own, as the count is: Ray reads its token settings once per process.
_LOST_NODE_SCRIPT = """
import json, sys, time
from smtpuzzle.runtime.taskpool import task_pool

def slow(job, item, deadline):
    import ray
    node = ray.get_runtime_context().get_node_id()
    doomed = any(n["NodeID"] == node and "node3" in n["Resources"] for n in ray.nodes())
    with open(job, "a") as log:  # every run of a task, where, and whether on node3
        print(item, node, "doomed" if doomed else "", file=log, flush=True)
    time.sleep(0.4)
    return item

with task_pool(slow, sys.argv[2], 1, sys.argv[1]) as tasks:
    tasks.map(list(range(30)), None)
    got = []
    for _ in range(30):
        got.append(tasks.next(timeout=120))
        print(len(got), flush=True)
    print(json.dumps({"got": got, "reruns": tasks.reruns, "nodes": len(tasks.nodes),
                      "pending": tasks.pending}))
"""


def test_tasks_of_a_lost_node_run_again_elsewhere_once(cluster: Cluster, tmp_path: Path,
                                                      ) -> None:
    doomed = cluster.start("node3")
    runs = tmp_path / "runs"
    p = subprocess.Popen([sys.executable, "-c", _LOST_NODE_SCRIPT, cluster.address, str(runs)],
                         cwd=ROOT, env=cluster.env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    stop = time.monotonic() + 120
    while time.monotonic() < stop and p.poll() is None:  # node3 has begun a task: kill it
        if runs.exists() and "doomed" in runs.read_text():
            cluster.kill(doomed)
            break
        time.sleep(0.02)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    data = json.loads(out.splitlines()[-1])
    assert sorted(data["got"]) == list(range(30))  # every item once: none lost, none twice
    assert data["nodes"] >= 2 and data["pending"] == 0  # node3 may have returned none
    started: dict[int, list[str]] = {}
    for line in runs.read_text().splitlines():
        item, node = line.split()[:2]
        started.setdefault(int(item), []).append(node)
    again = {i: where for i, where in started.items() if len(where) > 1}
    # The lost node was running a task when it was stopped; that task ran again elsewhere
    # (submitted again by Ray or by the pool: data["reruns"] counts the pool's) and its
    # result still came once.
    assert again and all(len(set(where)) > 1 for where in again.values()), started


def test_a_count_survives_a_worker_node_stopped_mid_count(cluster: Cluster) -> None:
    """CP-SAT counts 4x15 in sub-problems of a fraction of a second each, for 15 s or more
    on this cluster (6x10 took 70 s): long enough to stop a node in the middle."""
    doomed = cluster.start("node4")
    p = _count(cluster, "pentomino-4x15", "--backend", "cpsat")
    time.sleep(6)  # the count is under way on all three nodes
    assert p.poll() is None, "the count ended before the node could be stopped"
    cluster.kill(doomed)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    data = json.loads(out)
    assert data["count"] == 368 and data["complete"]
    assert data["subproblems_done"] == data["subproblems"]
