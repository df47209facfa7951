"""Solver sessions: constraints added after opening, assumptions and cores, time limits, and
models that own their data (a copy changed never changes the original, nor a cached search)."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from smtpuzzle import Model, Status, count, get_backend, load

# Back ends come from the conftest fixtures: backend_name (cpsat, sat, z3) and
# cover_backend_name (exact-cover too, for the pure cover models).


def _cover() -> tuple[Model, np.ndarray]:
    """Four rows, two cells: rows 1 and 2 cover cell a, rows 3 and 4 cell b (4 solutions)."""
    m = Model("tiny")
    x = m.new_bools(4, user=True, names=["a1", "a2", "b1", "b2"])
    m.add_exactly_one([x[:2], x[2:]])
    return m, x


def test_solve_add_solve_again_obeys_the_new_constraint(cover_backend_name):
    backend = get_backend(cover_backend_name)
    m, x = _cover()
    first = backend.solve(m)
    assert first.status is Status.SAT
    chosen = np.flatnonzero(first.values)
    m.add_clauses([[-int(x[chosen[0]])]])  # not the row the first answer took
    second = backend.solve(m)
    assert second.status is Status.SAT
    assert not second.values[chosen[0]]
    assert len(list(backend.solutions(m))) == 2
    m.add_clauses([[-int(x[1 - chosen[0]])]])  # now cell a has no row left
    assert backend.solve(m).status is Status.UNSAT


def test_a_copy_never_changes_the_original(cover_backend_name):
    backend = get_backend(cover_backend_name)
    m, x = _cover()
    assert len(list(backend.solutions(m))) == 4
    sub = m.with_units([x[0]])
    sub.add_clauses([[int(x[2])]])
    assert len(list(backend.solutions(sub))) == 1
    assert len(list(backend.solutions(m))) == 4
    assert len(m.clauses) == 0 and m.num_vars == 4
    p = m.projected(x[:2], ["a1", "a2"])
    p.new_bools(3)
    assert m.num_vars == 4 and len(m.user_vars) == 4


def test_sessions_take_units_and_assumptions(cover_backend_name):
    m, x = _cover()
    with get_backend(cover_backend_name).open(m) as s:
        assert s.check([int(x[0]), int(x[3])]) is Status.SAT
        assert s.values().tolist() == [True, False, False, True]
        assert s.check([int(x[0]), int(x[1])]) is Status.UNSAT
        assert set(s.core()) <= {int(x[0]), int(x[1])} and s.core()
        s.add_units([-int(x[0])])
        assert s.check() is Status.SAT and s.values()[1]
        assert s.check([int(x[0])]) is Status.UNSAT


def test_sessions_take_new_variables_clauses_and_cardinalities(backend_name):
    m = Model("free")
    x = m.new_bools(5, user=True, names=list("abcde"))
    with get_backend(backend_name).open(m) as s:
        s.add_cardinality([x], "==", 2)
        y = s.new_vars(1)  # y <-> (a and b)
        s.add_clauses([[-y[0], x[0]], [-y[0], x[1]], [y[0], -x[0], -x[1]]])
        s.add_units(y)
        assert s.check() is Status.SAT
        assert s.values().tolist() == [True, True, False, False, False]
        s.add_units([-x[0]])
        assert s.check() is Status.UNSAT
        assert s.check() is Status.UNSAT  # and again, once the solver has said so


def test_enumeration_counts_agree_with_a_brute_force_after_adding(backend_name):
    m = Model("cards")
    x = m.new_bools(6, user=True, names=list("abcdef"))
    m.add_cardinality([x[:4], x[2:]], ">=", 2)
    with get_backend(backend_name).open(m) as s:
        s.add_at_most_one([x[::2]])
        found = {tuple(r.values.tolist()) for r in s.solutions()}
    brute = {bits for bits in itertools.product([False, True], repeat=6)
             if sum(bits[:4]) >= 2 and sum(bits[2:]) >= 2 and sum(bits[::2]) <= 1}
    assert found == brute


def test_a_sat_session_survives_its_time_limit(monkeypatch):
    """The child is killed at the deadline; the next check starts a new one from the
    clauses kept, learnt clauses lost but nothing else."""
    from smtpuzzle.backends import sat

    monkeypatch.setattr(sat, "LOCAL_CONFLICTS", 1)  # the try in this process gives up
    monkeypatch.setattr(sat, "LOCAL_SECONDS", 0.0)
    model = load("pentomino-8x8-center-hole").build_model()
    with get_backend("sat").open(model) as s:
        assert s.check(time_limit=0.0001) is Status.UNKNOWN
        assert s.check() is Status.SAT
        first = s.values()
        s.add_clauses([s.blocking(first)])
        assert s.check() is Status.SAT
        assert (s.values() != first).any()


def test_small_sat_models_are_decided_in_process_and_the_rest_in_a_child(monkeypatch):
    """A check tries the solver in this process for a few conflicts; one it does not decide
    goes to a child forked from that solver, with everything added since."""
    from smtpuzzle.backends import sat

    m = Model("pigeons")  # 6 pigeons in 5 holes: unsat, and takes a few hundred conflicts
    x = m.new_bools(30, user=True, names=[f"p{i}" for i in range(30)]).reshape(6, 5)
    m.add_clauses(x)
    m.add_at_most_one(x.T)
    with get_backend("sat").open(m) as s:
        assert s.check() is Status.UNSAT and s._child is None
    monkeypatch.setattr(sat, "LOCAL_CONFLICTS", 1)  # one round of one conflict
    monkeypatch.setattr(sat, "LOCAL_SECONDS", 0.0)
    with get_backend("sat").open(m) as s:
        assert s.check() is Status.UNSAT and s._child is not None
    free = Model("pigeons, one hole more")
    y = free.new_bools(36, user=True, names=[f"p{i}" for i in range(36)]).reshape(6, 6)
    free.add_clauses(y)
    free.add_at_most_one(y.T)
    with get_backend("sat").open(free) as s:
        assert s.check() is Status.SAT and s._child is None
        s.add_clauses([[-int(v)] for v in y[:, 0]])  # hole 0 closed: 6 pigeons in 5
        assert s.check([int(y[0, 1])]) is Status.UNSAT and s._child is not None
        assert s.check([]) is Status.UNSAT
    monkeypatch.setattr(sat, "LOCAL_MAX_CLAUSES", 100)  # pigeons in 6 holes: 96 clauses
    with get_backend("sat").open(free) as s:
        assert s.check() is Status.SAT and s._local is not None
        s.add_clauses([[-int(v)] for v in y[:, 0]])  # 6 clauses more: past the limit
        assert s.check() is Status.UNSAT and s._local is None


@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_checks_with_long_limits_solve_in_a_child_alike(monkeypatch, backend):
    """Values, integer values, cores and optima come back from the child as from an
    in-process solve."""
    from smtpuzzle.backends import cpsat
    from smtpuzzle.runtime import child

    monkeypatch.setattr(child, "HARD_LIMIT_S", 0.0)  # every limited check in a child
    monkeypatch.setattr(cpsat, "CHILD_MIN_SIZE", 0)  # however small the model
    m, x = _cover()
    with get_backend(backend).open(m) as s:
        assert s.check([int(x[0]), int(x[3])], time_limit=30) is Status.SAT
        assert s.values().tolist() == [True, False, False, True]
        assert s.check([int(x[0]), int(x[1])], time_limit=30) is Status.UNSAT
        assert set(s.core()) <= {int(x[0]), int(x[1])} and s.core()
    with get_backend(backend).open(m) as s:  # a first check that is unsat
        assert s.check([int(x[0]), int(x[1])], time_limit=30) is Status.UNSAT
        assert set(s.core()) <= {int(x[0]), int(x[1])} and s.core()
    k = Model("knapsack")
    take = k.bool_array(4, name="take")
    n = k.int_array((), 0, 3, name="n")
    k.add((take * np.array([4, 3, 2, 5])).sum() <= 8, take.sum() == n)
    k.maximize((take * np.array([10, 7, 4, 11])).sum())
    assert k.solve(backend, time_limit=30) is Status.OPTIMAL
    assert np.asarray(take.value()).tolist() == [False, True, False, True] and n.value() == 2


def test_a_cpsat_solve_that_ignores_its_limit_is_killed(monkeypatch, tmp_path):
    """CP-SAT's presolve can overrun its limit by minutes; the child is killed instead."""
    from ortools.sat.python import cp_model

    from smtpuzzle.backends import cpsat
    from smtpuzzle.runtime import child

    monkeypatch.setattr(child, "HARD_LIMIT_S", 0.0)
    monkeypatch.setattr(cpsat, "CHILD_MIN_SIZE", 0)
    solver_pid = tmp_path / "pid"

    def stuck(*args: object, **kwargs: object) -> None:
        solver_pid.write_text(str(os.getpid()))
        time.sleep(300)

    monkeypatch.setattr(cp_model.CpSolver, "solve", stuck)
    m, _ = _cover()
    with get_backend("cpsat").open(m) as s:
        assert s.check(time_limit=0.5) is Status.UNKNOWN
    pid = int(solver_pid.read_text())
    assert pid != os.getpid()
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(pid, 0)


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_z3_keeps_one_child_and_starts_another_after_a_kill(monkeypatch):
    """Once a check has a long limit, every check runs in one child, which keeps what it
    learns (and what was added since); one killed at its deadline is replaced, and the
    answers stay right."""
    from smtpuzzle.backends import z3
    from smtpuzzle.runtime import child

    started = []
    monkeypatch.setattr(child, "HARD_LIMIT_S", 0.0)
    monkeypatch.setattr(z3, "Child", lambda serve: started.append(1) or child.Child(serve))
    model = load("pentomino-6x10").build_model()
    with get_backend("z3").open(model) as s:
        assert s.check(time_limit=60) is Status.SAT
        first = s.values()
        s.add_clauses([s.blocking(first)])
        assert s.check() is Status.SAT and (s.values() != first).any()  # the same child
        assert len(started) == 1
        # A deadline the child cannot meet: killed (its check would take seconds).
        monkeypatch.setattr(z3, "hard_deadline", lambda limit: time.perf_counter())
        assert s.check(time_limit=60) is Status.UNKNOWN and s._child is None
        monkeypatch.undo()
        assert s.check() is Status.SAT  # here again, with the blocking clause
        assert (s.values() != first).any()


def test_exact_cover_search_is_keyed_on_content_not_identity():
    backend = get_backend("exact-cover")
    m, x = _cover()
    assert backend.count(m)[0] == 4
    m.add_exactly_one([[x[0], x[2]]])  # a new cell, covered by a1 or b1: a1+b2, a2+b1
    assert backend.count(m)[0] == 2


def test_cpsat_streams_pure_models_and_blocks_on_auxiliaries():
    """Every boolean a user variable: CP-SAT's enumeration streams. With an auxiliary
    variable, each projected solution is listed once all the same."""
    m, x = _cover()
    aux = m.new_bools(1)  # free: doubles every assignment
    m.add_clauses([[aux[0], -aux[0]]])
    assert len(list(get_backend("cpsat").solutions(m))) == 4
    tiling = load("pentomino-3x20").build_model()
    enum = get_backend("cpsat").solutions(tiling, limit=3)
    assert len(list(enum)) == 3 and not enum.complete


def test_no_solver_package_is_imported_outside_the_back_ends():
    root = Path(__file__).resolve().parents[1] / "smtpuzzle"
    found = subprocess.run(["grep", "-rnE", r"import (z3|ortools|pysat)|from (z3|ortools|pysat)",
                            str(root)], capture_output=True, text=True).stdout.splitlines()
    outside = [line for line in found if not line.startswith(str(root / "backends"))]
    assert found and not outside, outside


INTERRUPTED_CHECK = """
import os
import signal
import sys
import time
import numpy as np
import pytest
import smtpuzzle.backends.sat
from smtpuzzle import Model, get_backend
if sys.argv[2] == "local":  # the whole check in the try in this process, not in a child
    smtpuzzle.backends.sat.LOCAL_SECONDS = 60
m = Model("random 3-SAT past the threshold: unsatisfiable, and hard to prove")
x = m.new_bools(400)
rng = np.random.default_rng(1)
lits = rng.choice(np.arange(400), size=(2000, 3))
m.add_clauses(np.where(rng.random((2000, 3)) < 0.5, x[lits], -x[lits]))
session = get_backend(sys.argv[1]).open(m)
print("ready", flush=True)
try:
    print(session.check())
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    try:  # a second Ctrl-C is delivered too
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(10)
        print("the second Ctrl-C was lost")
    except KeyboardInterrupt:
        print("again")
"""


@pytest.mark.parametrize("backend,where", [("cpsat", ""), ("z3", ""), ("sat", "child"),
                                           ("sat", "local")])
def test_ctrl_c_in_a_check_is_raised_not_a_time_limit(backend, where):
    # CP-SAT and z3 stop on Ctrl-C themselves and answered unknown, which callers then
    # reported as "time limit reached". SAT's try in the caller's process met PySAT's own
    # SIGINT handler, which raised an error of its own (CI, session 35), left SIGINT
    # blocked, so that a second Ctrl-C was lost, and once left malloc locked.
    proc = subprocess.Popen([sys.executable, "-c", INTERRUPTED_CHECK, backend, where],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert out.split() == ["KeyboardInterrupt", "again"], (out, err)


def test_ctrl_c_in_a_z3_listing_of_a_tiling_is_raised():
    # z3 5.4 gives "canceled", not "interrupted from keyboard", as the reason of a tiling
    # model's check stopped by Ctrl-C: `solve --all` said "time limit reached".
    script = textwrap.dedent("""
        from smtpuzzle import get_backend, load
        session = get_backend("z3").open(load("pentomino-6x10").build_model())
        print("ready", flush=True)
        try:
            print(sum(1 for _ in session.solutions()), "listed: not stopped")
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert out.split() == ["KeyboardInterrupt"], (out, err)


@pytest.mark.slow  # 5 s or more: run with --runslow
def test_a_z3_timeout_in_a_listing_is_not_taken_for_ctrl_c():
    # After blocking clauses z3 5.4 gives "canceled" for a timeout too; with its limit
    # rounded down to milliseconds the check ended just before the limit, looked like a
    # Ctrl-C, and a count with z3 workers failed on the interrupted slice (review, session 46).
    model = load("pentomino-6x10").build_model()
    try:  # (a KeyboardInterrupt let through would stop the whole test session)
        for limit in np.arange(1, 25) * 0.0333:  # fractions of a millisecond, each
            listing = get_backend("z3").solutions(model, time_limit=limit)
            assert len(list(listing)) < 100 and not listing.complete
    except KeyboardInterrupt:
        pytest.fail(f"a timeout of {limit:.4f} s was taken for Ctrl-C")
    result = count(load("pentomino-6x10"), "z3", time_limit=1.5)
    assert not result.interrupted and not result.complete


class _SigintInDel:
    """Raises Ctrl-C on itself from its ``__del__``, as a Ctrl-C that lands while a z3
    object is dropped: Python only prints an exception raised there."""

    def __del__(self) -> None:
        import os

        os.kill(os.getpid(), signal.SIGINT)
        sum(range(10))  # a call: Python's handler runs here, inside __del__


def test_a_ctrl_c_while_z3_objects_are_dropped_is_not_lost(monkeypatch):
    # CI: a Ctrl-C raised in a z3 __del__ was printed and the maze search went on for good.
    m = Model("one")
    m.add_clauses([[m.new_bools(1, user=True, names=["x"])[0]]])
    session = get_backend("z3").open(m)
    assert session.check() is Status.SAT
    is_true = session.z3.is_true

    def dropping(value):
        _SigintInDel()  # made and dropped at once
        return is_true(value)

    monkeypatch.setattr(session.z3, "is_true", dropping)
    with pytest.raises(KeyboardInterrupt):
        session.values()
    monkeypatch.undo()
    assert session.values().tolist() == [True]  # the session is still usable


def test_pysat_calls_in_the_block_leave_ctrl_c_to_python():
    # The block rests on a private PySAT hook; a release that drops it must fail here.
    from pysat._utils import MainThread

    from smtpuzzle.backends.pysat_sigint import python_sigint

    before = MainThread.check()
    with python_sigint():
        assert MainThread.check() is False
    assert MainThread.check() == before


def test_every_listed_sat_solver_runs_even_on_an_empty_model():
    """solver_names() lists only solvers this PySAT can run, and each of them answers (an
    empty clause set once crashed MapleSAT)."""
    from smtpuzzle.backends.sat import solver_names

    names = solver_names()
    assert "cadical195" in names and "cryptosat" not in names
    for name in names:
        assert Model("empty").solve("sat", solver=name) is Status.SAT, name
        m = Model("one")
        b = m.bool_array(2)
        m.add(b[0] | b[1], ~b[0])
        assert m.solve("sat", solver=name) is Status.SAT, name
        assert b.value().tolist() == [False, True], name


def test_the_tiling_functions_refuse_a_model_with_a_pointer():
    import smtpuzzle

    for fn in (smtpuzzle.count, smtpuzzle.solve_tiling, smtpuzzle.list_tilings):
        with pytest.raises(TypeError, match="takes a Tiling, got Model .a Model has its own"):
            fn(Model("m"))


def test_a_z3_session_with_an_objective_takes_clauses_and_blocks_later():
    """z3's Optimize reads each added text on its own: the clauses and blocks added after
    the build name their variables again (they were refused as unknown constants)."""
    m = Model()
    b, x = m.bool_array(3, name="b"), m.int_array((), 0, 3, name="x")
    m.add(b.sum() >= 1)
    m.maximize(b[0] + b[1] + x)
    with get_backend("z3").open(m) as s:
        assert s.check() is Status.SAT and s.values()[:2].tolist() == [True, True]
        s.add_clauses([[-int(b.ids[0])]])
        assert s.check() is Status.SAT and s.values()[:2].tolist() == [False, True]
        blocked = (s.values().tolist(), s.int_values().tolist())
        s.block(s.values(), s.int_values())
        assert s.check() is Status.SAT and not s.values()[0]
        assert (s.values().tolist(), s.int_values().tolist()) != blocked


@pytest.mark.parametrize("backend", ["cpsat", "z3", "sat"])
def test_a_session_optimises_where_its_back_end_says_it_does(backend):
    """A check on a model with an objective: the optimum, proved, where the capabilities
    say ``optimises``; elsewhere some solution, never claimed optimal."""
    m = Model()
    x = m.int_array(3, 0, 5, name="x")
    m.add(x.sum() >= 4)
    m.minimize(3 * x[0] + 2 * x[1] + x[2])
    engine = get_backend(backend)
    assert engine.capabilities.optimises == (backend != "sat")
    with engine.open(m) as s:
        assert s.check() is Status.SAT and s.int_values().sum() >= 4
        if engine.capabilities.optimises:
            assert s.optimal and s.int_values().tolist() == [0, 0, 4]
        else:
            assert not s.optimal
