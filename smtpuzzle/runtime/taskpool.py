"""Independent sub-problems run in parallel: on a local pool of forked processes, or on a
Ray cluster (the optional extra ``pip install 'smtpuzzle[ray]'``).

Both run ``work(job, item, deadline)`` for every item submitted and hand back results as
they come, in any order. ``job`` is shared by all items: forked workers inherit it, Ray
ships it once through its object store. Deadlines are ``time.monotonic()`` values on this
machine; on Ray they travel as wall-clock times and are turned back into local monotonic
time on each node.

On Ray, a task whose node (or worker process) is lost is run again elsewhere, at most
:data:`MAX_RERUNS` times; each item still yields exactly one result, so nothing is counted
twice. An exception raised by ``work`` itself is not retried: it reaches the caller.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

from smtpuzzle.errors import ProcessDied, PuzzleError
from smtpuzzle.runtime.checks import is_digits
from smtpuzzle.runtime.child import Child, sigint_held

Work = Callable[[Any, Any, float | None], Any]
TaskTimeout = multiprocessing.TimeoutError
MAX_RERUNS = 3  # runs of one task after the first, on Ray, when its node or worker is lost

_LOCAL: tuple[Work, Any] | None = None  # what forked workers read


class Tasks:
    """Submitted items and their results, in completion order. ``next(timeout)`` raises
    TaskTimeout when none comes in time. ``nodes``: the machines (Ray node ids, or this
    host) that returned results; ``reruns``: tasks run again after their node was lost."""

    def __init__(self) -> None:
        self.pending = 0  # submitted, result not yet taken
        self.nodes: set[str] = set()
        self.reruns = 0

    def map(self, items: list[Any], deadline: float | None) -> Tasks:
        for item in items:
            self.submit(item, deadline)
        return self

    def submit(self, item: Any, deadline: float | None) -> None:
        self.pending += 1
        self._submit(item, deadline)

    def next(self, timeout: float | None = None) -> Any:
        node, result = self._next(timeout)
        self.pending -= 1
        self.nodes.add(node)
        return result

    def stop(self, grace: float) -> list[Any]:
        """After Ctrl-C: ask the running tasks to stop and return what they have, and take
        the results that come within ``grace`` seconds (the rest are dropped). Only local
        workers can be asked; on Ray this is nothing."""
        return []

    def _submit(self, item: Any, deadline: float | None) -> None:
        raise NotImplementedError

    def _next(self, timeout: float | None) -> tuple[str, Any]:
        raise NotImplementedError


class _LocalTasks(Tasks):
    """Items run by ``workers`` forked processes, each a :class:`Child` with a pipe of its
    own. (A multiprocessing.Pool shares one result queue among its workers: one it stops
    while writing a result leaves the queue's lock held, and the pool's terminate then waits
    for it forever, seen as a Ctrl-C that never ended.) An item is sent to a worker only when
    the worker is free; a worker that dies is reported as ProcessDied ("a worker process
    died"), as is a solver process that dies inside a worker's task (its failure)."""

    def __init__(self, workers: int) -> None:
        super().__init__()
        self._idle: list[Child] = []
        self._busy: list[Child] = []
        self._waiting: deque[tuple[Any, float | None]] = deque()
        self._unreturned: list[Any] = []  # an answer read as Ctrl-C came, for stop()
        self._host = socket.gethostname()
        try:
            for _ in range(workers):  # nested: the sat back end solves in a child of its own
                self._idle.append(Child(_serve_tasks, nested=True, name="a worker process"))
        except BaseException:
            self.close()
            raise

    def _submit(self, item: Any, deadline: float | None) -> None:
        self._waiting.append((item, deadline))
        self._dispatch()

    def _dispatch(self) -> None:
        while self._idle and self._waiting:
            child = self._idle.pop()
            self._busy.append(child)
            child.send(self._waiting.popleft())

    def _next(self, timeout: float | None) -> tuple[str, Any]:
        assert self._busy, "no task is running"
        ready = wait(self._busy, timeout)
        if not ready:
            raise TaskTimeout
        child = ready[0]
        # A Ctrl-C once the answer is read is raised after the bookkeeping, and the answer
        # waits for stop() instead of being lost.
        with sigint_held():
            kind, value = child.receive(None)
            self._busy.remove(child)
            self._idle.append(child)
            if kind == "done":
                self._unreturned.append(value)
            self._dispatch()
        if kind != "done":  # failed (a "stopped" answer is only for Tasks.stop)
            raise value if kind == "failed" else RuntimeError(f"a task answered {kind!r}")
        return self._host, self._unreturned.pop()

    def stop(self, grace: float) -> list[Any]:
        self._waiting.clear()
        results, self._unreturned = self._unreturned, []
        end = time.monotonic() + grace
        try:
            with sigint_held():  # a second Ctrl-C does not cut short what the first asked
                for child in self._busy:
                    child.interrupt()
                while self._busy:
                    ready = wait(self._busy, max(end - time.monotonic(), 0.0))
                    if not ready:
                        break
                    for child in ready:
                        self._busy.remove(child)
                        self._idle.append(child)  # killed with the others, dead or not
                        try:
                            kind, value = child.receive(None)
                        except (ProcessDied, RuntimeError):  # died, or failed: nothing
                            continue
                        if kind == "done":
                            results.append(value)
        except KeyboardInterrupt:
            pass
        return results

    def close(self) -> None:
        # A second Ctrl-C here left a worker alive, and the exit then waited for it forever.
        try:
            with sigint_held():
                for child in self._idle + self._busy:
                    child.kill()
        except KeyboardInterrupt:  # noted while closing: the pool is closed, as was asked
            pass


def _serve_tasks(conn: Any) -> None:
    """A local worker: runs each (item, deadline) it is sent, until the parent is done.
    Ctrl-C at the terminal reaches the parent alone (the worker has a process group of its
    own); the parent's :meth:`Tasks.stop` sends the busy workers one SIGINT each, which the
    task's work sees as KeyboardInterrupt, and may answer with what it has."""
    assert _LOCAL is not None
    work, job = _LOCAL
    os.setpgrp()
    while True:
        item, deadline = conn.recv()
        answer = None
        try:
            with _stoppable():
                answer = ("done", work(job, item, deadline))
        except KeyboardInterrupt:  # stopped, and the work kept nothing to hand back
            answer = answer or (("stopped", None) if stop_asked() else (
                "failed", RuntimeError("a task stopped on a KeyboardInterrupt its pool did "
                                       "not send")))
        except Exception as exc:  # raised in the parent, as the pool did
            answer = ("failed", exc)
        try:
            conn.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            what = answer[1] if answer[0] == "failed" else exc
            conn.send(("failed", RuntimeError(f"{type(what).__name__}: {what}")))


_asked = [False]  # in a worker: the pool asked the task under way to stop


def stop_asked() -> bool:
    """In a pool worker: whether the pool asked the task under way to stop (Tasks.stop), so
    that a KeyboardInterrupt is its request (and the task may answer with what it has)."""
    return _asked[0]


@contextmanager
def _stoppable() -> Iterator[None]:
    """In a worker, for one task: the first SIGINT raises KeyboardInterrupt, later ones are
    ignored (the work is then handing back what it has)."""

    def stop(_signum: int, _frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _asked[0] = True
        raise KeyboardInterrupt

    _asked[0] = False
    signal.signal(signal.SIGINT, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def task_pool(work: Work, job: Any, workers: int, ray: str | None = None) -> Iterator[Tasks]:
    """Tasks run by ``workers`` forked processes, or on Ray (``ray``: see :func:`_ray_pool`);
    the workers are stopped, unfinished tasks with them, when the block ends."""
    if ray:
        with _ray_pool(work, job, ray) as tasks:
            yield tasks
        return
    global _LOCAL
    _LOCAL = (work, job)  # before the fork: workers inherit it
    try:
        with ExitStack() as stack:
            with sigint_held():  # a Ctrl-C held back here is raised with the workers registered
                tasks = _LocalTasks(workers)
                stack.callback(tasks.close)
            stack.enter_context(_suspended_together(tasks))
            yield tasks
    finally:
        _LOCAL = None


# Ctrl-Z, and a job in the background that reads the terminal (or writes to it under
# ``stty tostop``): each stops the parent's process group alone.
_STOPS = (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)


@contextmanager
def _suspended_together(tasks: _LocalTasks) -> Iterator[None]:
    """Ctrl-Z stops the workers with the parent, and ``fg`` or ``bg`` goes on with them; so
    does a stop for reading or writing the terminal from the background.
    The terminal sends these signals to the parent's process group only (each worker has
    one of its own, so that Ctrl-C reaches the parent alone): without this, the workers went
    on using every core while the job was stopped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def workers(sig: signal.Signals) -> None:
        for child in tasks._idle + tasks._busy:
            if child.pid is None:
                continue
            try:  # the worker's group: its own solver processes too
                os.killpg(child.pid, sig)
            except ProcessLookupError:  # not yet its own group, or gone
                with suppress(ProcessLookupError):
                    os.kill(child.pid, sig)

    def stop(signum: int, _frame: Any) -> None:
        for sig in handled:  # another stop signal meanwhile: one stop
            signal.signal(sig, signal.SIG_IGN)
        try:
            workers(signal.SIGSTOP)
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)  # stopped here until continued
        finally:
            for sig in handled:
                signal.signal(sig, stop)
            workers(signal.SIGCONT)

    previous = {sig: signal.getsignal(sig) for sig in _STOPS}
    # Ignored on purpose, or set in C: left alone (an ignored SIGTTOU lets the write through).
    handled = [sig for sig, was in previous.items() if was is not None and was != signal.SIG_IGN]
    for sig in handled:
        signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig in handled:
            signal.signal(sig, previous[sig])


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise PuzzleError("`ray` needs Ray: pip install 'smtpuzzle[ray]'") from None
    return ray


def _ray_call(work: Work, job: Any, item: Any, wall_deadline: float | None) -> tuple[str, Any]:
    import ray

    deadline = None if wall_deadline is None else \
        time.monotonic() + (wall_deadline - time.time())
    return ray.get_runtime_context().get_node_id(), work(job, item, deadline)


def _auto_address() -> tuple[str, str] | None:
    """Where ``ray.init(address="auto")`` will go, and where it says so: $RAY_ADDRESS, or
    the address the last ``ray start`` on this machine left in Ray's temporary directory."""
    if os.environ.get("RAY_ADDRESS"):
        return os.environ["RAY_ADDRESS"], "$RAY_ADDRESS"
    note = Path(os.environ.get("RAY_TMPDIR", "/tmp")) / "ray" / "ray_current_cluster"
    try:
        address = note.read_text().strip()
    except OSError:
        return None
    return (address, str(note)) if address else None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not is_digits(port):
        raise PuzzleError(f"`ray={address}`: expected HOST:PORT (or ray://HOST:PORT), "
                          "auto or local")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise PuzzleError(f"`ray={address}`: cannot reach a Ray cluster there ({exc})") from None


class _RayTasks(Tasks):
    def __init__(self, ray: Any, work: Work, job: Any) -> None:
        super().__init__()
        # Ray's own retries are off: a lost task is submitted again here, so that the count
        # of re-runs is known and an item never has two live tasks.
        self._ray, self._remote = ray, ray.remote(max_retries=0)(_ray_call)
        self._work, self._job = work, ray.put(job)
        self._live: dict[Any, tuple[Any, float | None, int]] = {}  # ref: (item, deadline, runs)

    def _submit(self, item: Any, deadline: float | None, runs: int = 0) -> None:
        wall = None if deadline is None else time.time() + (deadline - time.monotonic())
        ref = self._remote.remote(self._work, self._job, item, wall)
        self._live[ref] = (item, deadline, runs)

    def _next(self, timeout: float | None) -> tuple[str, Any]:
        ray = self._ray
        stop = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if stop is None else max(stop - time.monotonic(), 0.0)
            ready, _ = ray.wait(list(self._live), num_returns=1, timeout=left)
            if not ready:
                raise TaskTimeout
            item, deadline, runs = self._live.pop(ready[0])
            try:
                return ray.get(ready[0])
            except ray.exceptions.RayTaskError:
                raise  # the work itself failed: not a lost node
            except ray.exceptions.RayError as exc:
                if runs >= MAX_RERUNS:
                    raise PuzzleError(f"a task was lost {runs + 1} times on the Ray cluster "
                                      f"({type(exc).__name__}); giving up") from None
                self.reruns += 1
                self._submit(item, deadline, runs + 1)

    def cancel(self) -> None:
        for ref in self._live:
            self._ray.cancel(ref, force=True)
        self._live.clear()


def _cluster_events_to_stderr() -> None:
    """Ray prints the cluster's events (such as a node marked dead) on the driver's
    standard output, where they would break ``--json``: send them to standard error.
    This patches a private function of Ray's, where it exists."""
    try:
        from ray._private import worker
    except ImportError:
        return
    original = getattr(worker, "print_to_stdstream", None)
    if original is None or getattr(original, "_to_stderr", False):
        return

    def to_stderr(data: dict, ignore_prefix: bool) -> None:
        original({**data, "is_err": True}, ignore_prefix)

    to_stderr._to_stderr = True  # type: ignore[attr-defined]
    worker.print_to_stdstream = to_stderr


@contextmanager
def _native_stderr_muted() -> Iterator[None]:
    """Ray's C++ client writes a warning a second to file descriptor 2 while it retries a
    cluster that refuses it (a wrong token, say) for 20 s: the caller reports the failure
    in one line instead."""
    import tempfile

    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


@contextmanager
def _ray_pool(work: Work, job: Any, address: str) -> Iterator[Tasks]:
    """``address``: ``local`` starts a private Ray instance on this machine, ``auto`` joins
    the cluster this machine belongs to, anything else is a cluster address."""
    ray = _import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        _cluster_events_to_stderr()
        if address not in ("local", "auto"):
            _check_reachable(address)  # Ray itself retries an unreachable address forever
        elif address == "auto" and (known := _auto_address()) is not None:
            try:  # a cluster that stopped leaves its address behind: Ray retries it too
                _check_reachable(known[0])
            except PuzzleError:
                raise PuzzleError(f"`ray=auto`: the cluster this machine was last in ({known[0]}, "
                                  f"from {known[1]}) cannot be reached: start one (ray start), "
                                  "or give `ray=local`") from None
        try:
            # "local" is Ray's own word for a new instance, even where ray start runs one
            with _native_stderr_muted():
                ray.init(address=address, log_to_driver=False, include_dashboard=False,
                         logging_level="ERROR")
        except (ConnectionError, RuntimeError, ValueError) as exc:
            hint = "" if os.environ.get("RAY_AUTH_MODE") else \
                "; a cluster with token authentication needs RAY_AUTH_MODE=token here"
            raise PuzzleError(f"`ray={address}`: cannot reach a Ray cluster ({exc}{hint})"
                              ) from None
    tasks = _RayTasks(ray, work, job)
    try:
        yield tasks
    finally:
        tasks.cancel()
        if started_here:
            ray.shutdown()
