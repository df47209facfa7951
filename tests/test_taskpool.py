"""The local task pool: results, failures and dead workers reach the caller, and leaving the
block never waits on a worker; a child that dies is reported as ProcessDied, however its
pipe ends."""

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from smtpuzzle.errors import ProcessDied, PuzzleError
from smtpuzzle.runtime.child import Child
from smtpuzzle.runtime.taskpool import task_pool


def _square(job: int, item: int, deadline: float | None) -> tuple[int, int, int]:
    if item == 7:
        raise PuzzleError("seven is refused", where="item 7")
    if item == 13:
        os.kill(os.getpid(), signal.SIGKILL)
    return item, item * item + job, os.getpid()


def test_every_item_comes_back_once_from_both_workers():
    with task_pool(_square, 1, 2) as tasks:
        tasks.map([i for i in range(40) if i not in (7, 13)], None)
        results = [tasks.next(timeout=60) for _ in range(38)]
        assert tasks.pending == 0
    assert sorted(r[:2] for r in results) == [(i, i * i + 1) for i in range(40)
                                             if i not in (7, 13)]
    assert len({r[2] for r in results}) == 2 and os.getpid() not in {r[2] for r in results}


def test_a_failure_in_a_worker_is_raised_with_its_type_and_the_worker_goes_on():
    with task_pool(_square, 0, 2) as tasks:
        tasks.submit(7, None)
        with pytest.raises(PuzzleError, match="seven is refused"):
            tasks.next(timeout=60)
        tasks.map([2, 3], None)
        assert sorted(tasks.next(timeout=60)[1] for _ in range(2)) == [4, 9]


def test_a_worker_that_dies_is_reported_not_waited_for():
    with task_pool(_square, 0, 2) as tasks:
        tasks.submit(13, None)
        with pytest.raises(ProcessDied, match="a worker process died .SIGKILL."):
            tasks.next(timeout=60)


def test_leaving_the_block_while_workers_write_their_results_returns():
    """Workers blocked writing 64 MB results nobody reads: leaving the block stops them
    (a pool whose workers share one result queue could wait forever on its lock)."""
    script = textwrap.dedent("""
        import time
        from smtpuzzle.runtime.taskpool import task_pool

        def big(job, item, deadline):
            return bytes(64 << 20)

        with task_pool(big, None, 2) as tasks:
            tasks.map([0, 1, 2], None)
            time.sleep(1.0)
        print("left")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "left", done.stderr


def _reading_nothing(conn) -> None:
    time.sleep(60)


def test_a_child_killed_with_a_request_unread_is_reported_as_dead():
    # Its socket closes with our request unread, so the kernel resets the connection: the
    # parent's read then failed with ConnectionResetError, not the EOFError of a clean end
    # (CI, session 35: a count's worker killed mid-count, a traceback).
    child = Child(_reading_nothing, name="a test process")
    try:
        child.send(("work", b"x" * 100_000))
        os.kill(child._proc.pid, signal.SIGKILL)
        with pytest.raises(ProcessDied, match="a test process died .SIGKILL."):
            child.receive(time.perf_counter() + 30)
        with pytest.raises(ProcessDied, match="a test process died .SIGKILL."):
            child.send(("more", b"x" * 100_000))
    finally:
        child.kill()


def test_a_second_ctrl_c_while_the_pool_closes_still_stops_every_worker(monkeypatch):
    # Seen as a hang: Ctrl-C twice, 20 ms apart, with two workers; the second one broke the
    # loop that kills them, and the exit then waited for the live worker forever.
    killed: list[Child] = []
    kill = Child.kill

    def kill_then_ctrl_c(child: Child) -> None:
        kill(child)
        killed.append(child)
        if len(killed) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(Child, "kill", kill_then_ctrl_c)
    with task_pool(_square, 0, 2) as tasks:
        tasks.submit(2, None)
        assert tasks.next(timeout=60)[:2] == (2, 4)
        workers = tasks._idle + tasks._busy
    assert len(killed) == 2 and all(w._proc.exitcode is not None for w in workers)


def _patient(job: float, item: int, deadline: float | None) -> tuple[int, str]:
    """Sleeps; item 0 answers what it has when asked to stop, item 1 keeps nothing."""
    try:
        time.sleep(job)
    except KeyboardInterrupt:
        if item == 1:
            raise
        return item, "so far"
    return item, "done"


def test_stop_asks_the_busy_workers_and_takes_what_they_hand_back():
    with task_pool(_patient, 60.0, 2) as tasks:
        tasks.map([0, 1, 2], None)  # 2 waits for a worker, and is dropped
        time.sleep(0.5)
        t0 = time.monotonic()
        assert tasks.stop(10.0) == [(0, "so far")]
        assert time.monotonic() - t0 < 5.0
    with task_pool(_patient, 0.0, 1) as tasks:  # the worker that kept nothing serves on
        tasks.submit(1, None)
        assert tasks.next(timeout=60) == (1, "done")


def test_a_terminal_ctrl_c_reaches_the_parent_not_the_workers():
    with task_pool(_patient, 60.0, 1) as tasks:
        tasks.submit(0, None)
        time.sleep(0.5)
        worker = tasks._busy[0]._proc.pid
        assert os.getpgid(worker) == worker != os.getpgrp()


def _interrupted_unasked(job: None, item: int, deadline: float | None) -> int:
    raise KeyboardInterrupt  # as z3 did, taking a timeout for Ctrl-C


def test_a_keyboard_interrupt_the_pool_did_not_send_is_a_failure():
    with task_pool(_interrupted_unasked, None, 1) as tasks:
        tasks.submit(0, None)
        with pytest.raises(RuntimeError, match="KeyboardInterrupt its pool did not send"):
            tasks.next(timeout=60)


def test_an_answer_read_as_ctrl_c_comes_is_handed_back_by_stop(monkeypatch):
    receive = Child.receive

    def read_then_ctrl_c(self, deadline):
        message = receive(self, deadline)
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C the moment the answer is in
        return message

    with task_pool(_square, 0, 1) as tasks:
        tasks.submit(3, None)
        monkeypatch.setattr(Child, "receive", read_then_ctrl_c)
        with pytest.raises(KeyboardInterrupt):
            tasks.next(timeout=60)
        monkeypatch.undo()
        assert [r[:2] for r in tasks.stop(5.0)] == [(3, 9)]


def _states(pids: list[int]) -> str:
    """Each process's state letter from /proc (T: stopped)."""
    out = ""
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            out += f.read().rpartition(")")[2].split()[0]
    return out


def _wait_for_states(pids: list[int], want: str) -> str:
    end = time.monotonic() + 10
    while (got := _states(pids)) != want and time.monotonic() < end:
        time.sleep(0.05)
    return got


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc")
@pytest.mark.parametrize("stop", [signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU],
                         ids=lambda sig: sig.name)
def test_ctrl_z_stops_the_workers_with_the_parent_and_fg_goes_on_with_them(stop):
    # The terminal's SIGTSTP (Ctrl-Z), or SIGTTIN / SIGTTOU (a job in the background that
    # reads the terminal, or writes to it under stty tostop), reaches the parent's process
    # group alone: the workers, in groups of their own, went on using every core while
    # the job was stopped.
    script = textwrap.dedent("""
        import time
        from smtpuzzle.runtime.taskpool import task_pool

        def spin(job, item, deadline):
            end = time.monotonic() + 60
            while time.monotonic() < end:
                pass
            return item

        with task_pool(spin, None, 2) as tasks:
            tasks.map([0, 1], None)
            print(*[c.pid for c in tasks._busy], flush=True)
            tasks.next()
    """)
    # A group of its own in this session: a stop signal to an orphaned group is ignored.
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            text=True, process_group=0)
    workers: list[int] = []
    try:
        workers = [int(p) for p in proc.stdout.readline().split()]
        assert len(workers) == 2
        assert _wait_for_states(workers, "RR") == "RR"
        os.kill(proc.pid, stop)  # what the terminal sends the job's process group
        assert _wait_for_states([proc.pid, *workers], "TTT") == "TTT"
        time.sleep(0.5)
        assert _states(workers) == "TT"  # and they stay stopped
        os.kill(proc.pid, signal.SIGCONT)  # what fg sends
        assert _wait_for_states([proc.pid, *workers], "SRR")[1:] == "RR"
    finally:
        for pid in workers:  # before the parent, which reaps them: no pid is reused yet
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


def test_a_pool_leaves_an_ignored_ctrl_z_alone_and_restores_the_handler_it_replaced():
    stops = (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)
    before = {sig: signal.getsignal(sig) for sig in stops}
    try:
        signal.signal(signal.SIGTSTP, signal.SIG_IGN)  # ignored on purpose: stays so
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        with task_pool(_square, 0, 1) as tasks:
            assert signal.getsignal(signal.SIGTSTP) == signal.SIG_IGN
            assert signal.getsignal(signal.SIGTTOU) not in (signal.SIG_DFL, signal.SIG_IGN)
            tasks.submit(2, None)
            assert tasks.next(timeout=60)[:2] == (2, 4)
        assert signal.getsignal(signal.SIGTTOU) == signal.SIG_DFL
        for sig in stops:
            signal.signal(sig, signal.SIG_DFL)
        with task_pool(_square, 0, 1):
            for sig in stops:
                assert signal.getsignal(sig) not in (signal.SIG_DFL, signal.SIG_IGN)
        assert all(signal.getsignal(sig) == signal.SIG_DFL for sig in stops)
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
