"""Work in a forked child process that talks to the parent and is killed at a deadline.

CaDiCaL, Kissat and Lingeling ignore PySAT's interrupt, so a time limit or Ctrl-C cannot
stop them in-process. Whatever runs PySAT runs here instead: the child sends tuples, the
parent reads them until the work ends or the deadline passes, then kills the child, which
works the same for every solver. :func:`child_messages` streams one piece of work;
:class:`Child` is a conversation (requests and answers) with a child that serves them.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from smtpuzzle.errors import ProcessDied

Send = Callable[[tuple], None]

# Checks limited to this many seconds or more run in a child (see :func:`hard_deadline`):
# a fork costs milliseconds, so short checks (the frames cubes' slices of a second) stay
# in-process.
HARD_LIMIT_S = 3.0
SOLVER_PROCESS = "the solver process"  # what a child is called when it dies


def hard_deadline(time_limit: float | None, always: bool = False) -> float | None:
    """The ``time.perf_counter()`` moment to kill a check limited to ``time_limit`` seconds
    in a child, or None to run it in-process. CP-SAT's presolve honours neither its own limit
    nor ``stop_search()`` (243 s under a 60 s limit), and z3 skips its own for seconds in
    some phases (19.4 s under 15 s): the solver gets the limit, and the kill comes only
    when it overstays by more than the 10% and half a second the README promises.
    Limits under :data:`HARD_LIMIT_S` are the solver's own to keep, unless ``always``
    (a model so large that its presolve alone overruns them)."""
    if time_limit is None or (time_limit < HARD_LIMIT_S and not always):
        return None
    return time.perf_counter() + time_limit * 1.05 + 0.25


def child_messages(work: Callable[[Send], None], deadline: float | None,
                   nested: bool = False) -> Iterator[tuple]:
    """Run ``work(send)`` in a forked child and yield what it sends. Stops silently at
    ``deadline`` (a ``time.perf_counter()`` value); the child is killed whenever this
    generator ends or is closed. A failure in the child is raised here as RuntimeError, its
    death as ProcessDied.
    ``nested`` lets the child start processes of its own (it is then not a daemon)."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_run, args=(work, send), daemon=not nested)
    try:
        with _forking():
            proc.start()
        send.close()
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if (left is not None and left <= 0) or not recv.poll(left):
                return  # the deadline: the child is stopped without a last word
            try:
                message = recv.recv()
            except EOFError:
                raise ProcessDied(_died(proc)) from None
            if message[0] == "error":
                raise RuntimeError(message[1])
            yield message
    finally:
        if proc.pid is not None:
            proc.kill()
            proc.join()
        recv.close()


class Child:
    """A forked child running ``serve(conn)``: the parent sends requests and reads answers
    with a deadline. The child is killed by :meth:`kill` (and when the parent is done with
    it); a child that fails is reported as RuntimeError, one that dies as ProcessDied.
    ``nested`` lets the child start processes of its own (it is then not a daemon).
    Children can be waited on together with ``multiprocessing.connection.wait``."""

    def __init__(self, serve: Callable[[Any], None], nested: bool = False,
                 name: str = SOLVER_PROCESS) -> None:
        self.name = name  # for what went wrong: "<name> died (SIGKILL)"
        ctx = multiprocessing.get_context("fork")
        self._conn, theirs = ctx.Pipe(duplex=True)
        self._proc = ctx.Process(target=_serve, args=(serve, theirs), daemon=not nested)
        try:
            with _forking():  # a Ctrl-C held back there is raised once the child runs
                self._proc.start()
        except BaseException:
            if self._proc.pid is not None:
                self._proc.kill()
                self._proc.join()
            self._conn.close()
            raise
        finally:
            theirs.close()

    @property
    def alive(self) -> bool:
        return self._proc.pid is not None and self._proc.exitcode is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    def fileno(self) -> int:
        return self._conn.fileno()

    def send(self, message: tuple) -> None:
        try:
            self._conn.send(message)
        except (BrokenPipeError, ConnectionResetError):
            raise ProcessDied(_died(self._proc, self.name)) from None

    def receive(self, deadline: float | None) -> tuple | None:
        """The next message, or None when the deadline passes first."""
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.0)
        if not self._conn.poll(left):  # an answer already here is taken, even if late
            return None
        try:
            message = self._conn.recv()
        except (EOFError, ConnectionResetError):  # a reset when it died with our request unread
            raise ProcessDied(_died(self._proc, self.name)) from None
        if message[0] == "error":
            raise RuntimeError(message[1])
        return message

    def interrupt(self) -> None:
        """Send the child one SIGINT (a child that ignores it goes on)."""
        if self.alive:
            os.kill(self._proc.pid, signal.SIGINT)

    def kill(self) -> None:
        if self._proc.pid is not None and self._proc.exitcode is None:
            self._proc.kill()
            self._proc.join()
        self._conn.close()


def _died(proc: Any, name: str = SOLVER_PROCESS) -> str:
    """What to say of a child that closed its pipe without a last word."""
    proc.join(1.0)
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"{name} died ({signal.Signals(-code).name})"
        except ValueError:
            return f"{name} died (signal {-code})"
    return f"{name} died" if code is None else f"{name} died (exit code {code})"


def _serve(serve: Callable[[Any], None], conn: Any) -> None:
    ignore_sigint()
    try:
        serve(conn)
    except EOFError:
        pass  # the parent is gone
    except Exception as exc:  # reported by the parent as a RuntimeError
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
        os._exit(0)


@contextmanager
def _forking() -> Iterator[None]:
    """Around a fork: Ctrl-C held back (:func:`sigint_held`), and the parent's objects
    frozen out of the garbage collector, so that the child's collections do not walk (and
    copy, page by page) the whole inherited heap: a PySAT child loads 48,082 clauses in
    23 ms instead of 32."""
    with sigint_held():
        gc.freeze()
        try:
            yield
        finally:
            gc.unfreeze()


_noted = [0]  # Ctrl-Cs noted while held back, not yet raised
_replaced: list[Any] = [None]  # the handler the outermost held-back block replaced


def _note(_signum: int, _frame: Any) -> None:
    _noted[0] += 1


@contextmanager
def sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back while processes are forked, compiled modules are imported or z3
    objects come and go: one that lands inside fork() is swallowed by CPython's at-fork
    hooks, one inside a compiled module's initialisation fails the import (``ImportError:
    initialization failed`` from OR-Tools), and one raised in a z3 object's ``__del__`` is
    only printed while the search goes on (seen in CI). Python's handler is replaced by one
    that only notes the Ctrl-C (blocking the signal would not do: the kernel hands it to
    another thread, OR-Tools' or z3's, and Python still runs its handler here). When the
    outermost such block ends, a Ctrl-C noted is given to the handler it replaced
    (KeyboardInterrupt, as a rule), from here. Children call :func:`ignore_sigint`."""
    if threading.current_thread() is not threading.main_thread():
        yield  # Python runs signal handlers in the main thread only
        return
    previous = signal.signal(signal.SIGINT, _note)
    outermost = previous is not _note
    if outermost:
        _noted[0], _replaced[0] = 0, previous
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        noted = outermost and _noted[0] > 0
        if outermost:
            _noted[0], _replaced[0] = 0, None
    if noted:
        if callable(previous):
            previous(signal.SIGINT, None)  # Python's default raises KeyboardInterrupt
        elif previous == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)


@contextmanager
def sigint_let_through() -> Iterator[None]:
    """Inside :func:`sigint_held`, answer Ctrl-C at once for the block (waiting on a
    solver's child) with the handler the held-back block replaced; a Ctrl-C noted before
    the block is raised on entering it."""
    if threading.current_thread() is not threading.main_thread() or _replaced[0] is None:
        yield
        return
    if _noted[0]:
        raise KeyboardInterrupt
    held = signal.signal(signal.SIGINT, _replaced[0])
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, held)


def sigint_noted() -> bool:
    """Whether a Ctrl-C was noted by :func:`sigint_held` and not yet raised."""
    return _noted[0] > 0


def ignore_sigint() -> None:
    """In a forked child: the parent decides when to stop (and held Ctrl-C back), and the
    child dies with it. A pool worker is stopped by SIGKILL, which skips every clean-up, so
    without this its own solver child would be left behind."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = os.getppid()
    if _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)


PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    """Linux's prctl(2), or None where there is none."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_prctl = _load_prctl()


def _run(work: Callable[[Send], None], send: Any) -> None:
    ignore_sigint()
    try:
        work(send.send)
    except Exception as exc:  # reported by the parent as a RuntimeError
        send.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        send.close()
        os._exit(0)  # skip the inherited interpreter state's clean-up (the parent's objects)
