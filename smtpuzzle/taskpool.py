"""Independent sub-problems run in parallel: on a local pool of forked processes, or on a
Ray cluster (the optional extra ``pip install 'smtpuzzle[ray]'``).

Both run ``work(job, item, deadline)`` for every item and hand back results as they come,
in any order. ``job`` is shared by all items: forked workers inherit it, Ray ships it once
through its object store. Deadlines are ``time.monotonic()`` values on this machine; on Ray
they travel as wall-clock times and are turned back into local monotonic time on each node.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from smtpuzzle.backends.child import ignore_sigint, sigint_held
from smtpuzzle.errors import PuzzleError

Work = Callable[[Any, Any, float | None], Any]
TaskTimeout = multiprocessing.TimeoutError

_LOCAL: tuple[Work, Any] | None = None  # what forked workers read


class Results:
    """Results in completion order; ``next(timeout)`` raises TaskTimeout when none comes."""

    def __init__(self, take: Callable[[float | None], Any]) -> None:
        self._take = take

    def next(self, timeout: float | None = None) -> Any:
        return self._take(timeout)


class _Worker(multiprocessing.context.ForkProcess):
    """A pool worker that may start processes of its own (the sat back end solves in a child
    process): a pool's workers are daemonic, and daemonic processes may not. The pool still
    terminates its workers when it is done."""

    @property
    def daemon(self) -> bool:
        return False

    @daemon.setter
    def daemon(self, value: bool) -> None:
        pass


class _ForkContext(multiprocessing.context.ForkContext):
    Process = _Worker


def _call_local(args: tuple[Any, float | None]) -> Any:
    assert _LOCAL is not None
    work, job = _LOCAL
    return work(job, *args)


@contextmanager
def task_pool(work: Work, job: Any, workers: int, ray: str | None = None,
              ) -> Iterator[Callable[[list[Any], float | None], Results]]:
    """A function ``run(items, deadline) -> Results``; the pool (local or Ray) is stopped,
    unfinished tasks cancelled, when the block ends."""
    if ray:
        with _ray_pool(work, job, ray) as run:
            yield run
        return
    global _LOCAL
    _LOCAL = (work, job)  # before the fork: workers inherit it
    try:
        with ExitStack() as stack:
            with sigint_held():  # a Ctrl-C held back here is raised with the pool registered
                pool = stack.enter_context(
                    _ForkContext().Pool(workers, initializer=ignore_sigint))

            def run(items: list[Any], deadline: float | None) -> Results:
                it = pool.imap_unordered(_call_local, [(item, deadline) for item in items])
                return Results(lambda timeout: it.next(timeout=timeout))

            yield run  # leaving the stack terminates the pool
    finally:
        _LOCAL = None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise PuzzleError("--ray needs Ray: pip install 'smtpuzzle[ray]'") from None
    return ray


def _ray_call(work: Work, job: Any, item: Any, wall_deadline: float | None) -> Any:
    deadline = None if wall_deadline is None else \
        time.monotonic() + (wall_deadline - time.time())
    return work(job, item, deadline)


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise PuzzleError(f"--ray {address}: expected HOST:PORT (or ray://HOST:PORT), "
                          "auto or local")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise PuzzleError(f"--ray {address}: cannot reach a Ray cluster there ({exc})") from None


@contextmanager
def _ray_pool(work: Work, job: Any, address: str,
              ) -> Iterator[Callable[[list[Any], float | None], Results]]:
    """``address``: ``local`` starts a private Ray instance on this machine, ``auto`` joins
    the cluster this machine belongs to, anything else is a cluster address."""
    ray = _import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        if address not in ("local", "auto"):
            _check_reachable(address)  # Ray itself retries an unreachable address forever
        try:
            ray.init(address=None if address == "local" else address, log_to_driver=False,
                     include_dashboard=False, logging_level="ERROR")
        except (ConnectionError, RuntimeError, ValueError) as exc:
            hint = "" if os.environ.get("RAY_AUTH_MODE") else \
                "; a cluster with token authentication needs RAY_AUTH_MODE=token here"
            raise PuzzleError(f"--ray {address}: cannot reach a Ray cluster ({exc}{hint})"
                              ) from None
    remote = ray.remote(_ray_call)
    job_ref = ray.put(job)
    pending: set[Any] = set()

    def run(items: list[Any], deadline: float | None) -> Results:
        wall = None if deadline is None else time.time() + (deadline - time.monotonic())
        refs = [remote.remote(work, job_ref, item, wall) for item in items]
        pending.update(refs)
        live = list(refs)

        def take(timeout: float | None) -> Any:
            ready, rest = ray.wait(live, num_returns=1, timeout=timeout)
            if not ready:
                raise TaskTimeout
            live[:] = rest
            pending.discard(ready[0])
            return ray.get(ready[0])

        return Results(take)

    try:
        yield run
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
