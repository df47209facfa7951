"""Helpers shared by the tests: running the command line as a user would, and the sets of
back ends that the fixtures in conftest.py run tests on."""

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# A Sudoku of Norvig's top95 (the first in models/sudoku/norvig-top95.sudoku): unique.
HARDEST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

# The back ends that take any model (integers, implications, automata, auxiliary variables).
ANY_MODEL_BACKENDS = ("cpsat", "sat", "z3")
# The back ends that take pure cover models: the ones above and the exact-cover engine.
COVER_BACKENDS = ("exact-cover", *ANY_MODEL_BACKENDS)
# PySAT solvers the tests try by name (kissat404 is not incremental: each further solution
# gets a new solver).
PYSAT_SOLVERS = ("cadical195", "glucose4", "minisat22", "kissat404")
# (back end, solver) pairs for the model-level tests: every back end, the sat back end with
# a few PySAT solvers and z3 with both solver kinds.
SOLVER_VARIANTS = (("cpsat", None), ("sat", None), ("sat", "minisat22"), ("sat", "kissat404"),
                   ("z3", None), ("z3", "qffd"))


# What most commands import (about 0.8 s of a command that runs for one or two).
CLI_IMPORTS = ("smtpuzzle.cli.app", "ortools.sat.python.cp_model", "z3", "pysat.solvers",
               "matplotlib.backends.backend_agg", "smtpuzzle.kernels")


def cli_chains(chains: Sequence[Sequence[Sequence[str]]], cwd: Path, at_once: int = 2
               ) -> list[list[subprocess.CompletedProcess]]:
    """Runs of ``smtpuzzle ARGS``, each in a process forked from this one with the command
    line already imported (a fresh interpreter costs 0.5-0.8 s of imports per command): the
    commands of a chain in order, ``at_once`` chains at a time."""
    import importlib

    from smtpuzzle.cli import main

    for name in CLI_IMPORTS:  # imported here, before the forks, instead of in each child
        importlib.import_module(name)

    def command(args: Sequence[str]) -> Callable[[], None]:
        def run() -> None:
            sys.argv = ["smtpuzzle", *args]
            main()
        return run

    return forked_chains([[command(args) for args in chain] for chain in chains], cwd,
                         at_once)


def forked_chains(chains: Sequence[Sequence[Callable[[], None]]], cwd: Path,
                  at_once: int = 2, timeout: float = 600
                  ) -> list[list[subprocess.CompletedProcess]]:
    """Each job in a process forked from this one, with its own working directory
    (``cwd``), output and exit code (SystemExit's, 1 after an exception), as a process run
    from a shell has: the jobs of a chain in order, ``at_once`` chains at a time. Past
    ``timeout`` seconds the children left are killed and it fails."""
    done: list[list[subprocess.CompletedProcess]] = [[] for _ in chains]
    running: dict[int, tuple[int, Path, Path]] = {}
    nxt = [0] * len(chains)
    waiting = [c for c in range(len(chains)) if chains[c]]
    tmp = tempfile.mkdtemp()
    give_up = time.monotonic() + timeout
    try:
        def start(c: int) -> None:
            out, err = Path(tmp, f"{c}-{nxt[c]}.out"), Path(tmp, f"{c}-{nxt[c]}.err")
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:  # the child: never returns
                code = 1
                try:
                    atexit._clear()  # this process's exit handlers are not the child's
                    os.chdir(cwd)
                    for fd, path in ((1, out), (2, err)):
                        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
                    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
                    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
                    chains[c][nxt[c]]()
                    code = 0
                except SystemExit as e:
                    code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
                except BaseException:
                    traceback.print_exc()
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(code)
            running[pid] = (c, out, err)

        while waiting or running:
            while waiting and len(running) < at_once:
                start(waiting.pop(0))
            pid, status = _reap(running, give_up)
            c, out, err = running.pop(pid)
            done[c].append(subprocess.CompletedProcess(
                [], os.waitstatus_to_exitcode(status), out.read_text(), err.read_text()))
            nxt[c] += 1
            if nxt[c] < len(chains[c]):
                start(c)
    finally:
        shutil.rmtree(tmp)
    return done


def _reap(running: dict[int, Any], give_up: float) -> tuple[int, int]:
    """The next of ``running`` (children by pid) to end, with its wait status; only these
    are waited for (other children of this process are someone else's)."""
    while True:
        for pid in running:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return pid, status
        if time.monotonic() > give_up:
            for pid in running:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            raise TimeoutError(f"{len(running)} command(s) still running past the time out")
        time.sleep(0.005)


def variant_id(variant: tuple[str, str | None]) -> str:
    """``sat:minisat22`` for ("sat", "minisat22"), ``cpsat`` for ("cpsat", None)."""
    name, solver = variant
    return name if solver is None else f"{name}:{solver}"


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``smtpuzzle ARGS`` in a process of its own (forked: see cli_chains); output captured
    as text."""
    return cli_chains([[args]], cwd, 1)[0][0]


def cli_fresh(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``smtpuzzle ARGS`` in a fresh interpreter (for what a fork cannot take over, such as
    a process that has started Ray); output captured as text."""
    return subprocess.run([sys.executable, "-m", "smtpuzzle", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
