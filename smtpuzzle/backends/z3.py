"""Z3 back end: booleans with pbeq / at-most / at-least, bounded integers, a choice of solver.

The model is handed to Z3 as SMT-LIB text built with a few joins per constraint, which Z3's
C parser reads far faster than the same terms made one by one through the Python API.

z3 can overrun its time limit by seconds (it skips its cancel flag in some phases), so once a
check has a long limit (:func:`~smtpuzzle.runtime.child.hard_deadline`) the session forks a
child holding a copy of its solver, and that check and every later one run there: z3 keeps
what it learns from check to check, and a child that overstays a limit is killed. The next
check then forks a new child from this process's copy, which has every assertion but none
of the lost child's learning.
"""

from __future__ import annotations

import functools
import math
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from smtpuzzle.backends.base import Backend, BuildCost, Capabilities, Session
from smtpuzzle.backends.lazy import LazyCuts
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Groups, Model
from smtpuzzle.model.arith import KIND as ARITHMETIC
from smtpuzzle.model.arith import ArithRows
from smtpuzzle.model.graphs import CONNECTED
from smtpuzzle.model.ints import EQ, GE, LE, NE, LinearRows
from smtpuzzle.model.kinds import BOOLEAN, lazy_records, lowered
from smtpuzzle.result import Stats, Status
from smtpuzzle.runtime.checks import deadline_for, time_left
from smtpuzzle.runtime.child import (
    Child,
    hard_deadline,
    sigint_held,
    sigint_let_through,
    sigint_noted,
)

SOLVER_KINDS = ("default", "general", "qffd")
_CTRL_C_REASONS = ("interrupted from keyboard", "canceled")
_OPS = {Cmp.EQ: "pbeq", Cmp.LE: "pble", Cmp.GE: "pbge"}


class Z3Backend(Backend):
    """``kind`` picks z3's solver: ``general`` is ``Solver()`` (measured faster on the
    boolean tiling models, see bench/RESULTS.md), ``qffd`` is ``SolverFor("QF_FD")``, the
    finite-domain solver (bounded integers bit-blasted to SAT), and ``default`` takes
    QF_FD for models with integers and the general solver otherwise (measured on the
    modeller's families: Norvig's hardest Sudokus 0.62 s -> 0.056 s median, the 9x9 KenKen
    0.43 -> 0.15 s), but the general solver for models with wide sums or reified integer
    rows (see _wide_rows, _reified_rows). An objective takes ``Optimize()``."""

    name = "z3"
    build_cost = BuildCost(6.1, 0.43, 3.5, 6.1, 9.0, 2.0, 3.5, 1.1)
    bytes_per_incidence = 900
    # Regular, 0/1 automata unrolled into clauses; connected sets checked lazily
    takes = BOOLEAN | {"integers", ARITHMETIC, CONNECTED}
    capabilities = Capabilities(incremental=True, guided=True, optimises=True)

    def __init__(self, kind: str = "default") -> None:
        if kind not in SOLVER_KINDS:
            raise PuzzleError(f"unknown z3 solver kind {kind!r} (known: {', '.join(SOLVER_KINDS)})")
        self.kind = kind

    def label(self) -> str:
        return f"z3:{self.kind}"

    def checked_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """z3's solver parameters by name (``seed``: random_seed), each tried on a solver of
        its own."""
        with sigint_held():
            import z3

        out = {"random_seed" if name == "seed" else name: value
               for name, value in params.items()}
        for name, value in out.items():
            try:  # z3 refuses an unknown name at the check
                trial = z3.Solver(ctx=_context(z3))
                trial.set(name, value)
                trial.check()
            except z3.Z3Exception as e:
                text = e.value.decode() if isinstance(e.value, bytes) else str(e.value)
                raise PuzzleError(f"z3 takes no parameter {name!r} = {value!r}: "
                                  f"{text.splitlines()[0] if text else 'refused'}") from None
        return out

    def _open(self, model: Model, stats: Stats) -> Z3Session:
        return Z3Session(self.kind, model, stats, self.params, self.takes)


_contexts = threading.local()


def _context(z3: Any) -> Any:
    """This thread's z3 context, shared by its sessions: making one costs 5 ms, most of
    a 9x9 Sudoku's build. Each session has its own solver, and a context serves one thread
    at a time. An interrupt leaves the context fit for the next check (tried on z3 5.4,
    interrupted during a check and while idle)."""
    ctx = getattr(_contexts, "ctx", None)
    if ctx is None:
        ctx = _contexts.ctx = z3.Context()
    return ctx


def _held(method: Any) -> Any:
    """A session method that makes and drops z3 objects, with Ctrl-C held back until it
    ends (see :func:`~smtpuzzle.runtime.child.sigint_held`)."""

    @functools.wraps(method)
    def held(*args: Any, **kwargs: Any) -> Any:
        with sigint_held():
            return method(*args, **kwargs)

    return held


class Z3Session(Session):
    """An incremental z3 solver; constraints arrive as SMT-LIB text."""

    capabilities = Z3Backend.capabilities

    def __init__(self, kind: str, model: Model, stats: Stats,
                 params: dict[str, Any] | None = None,
                 takes: frozenset[str] = Z3Backend.takes) -> None:
        with sigint_held():  # an interrupted import fails, and for good
            import z3

        t0 = time.perf_counter()
        super().__init__(model.user_vars, model.num_vars, stats, model.hints,
                         model.ints.user_ints())
        model = lowered(model, takes, "z3")
        self._lazy = LazyCuts(lazy_records(model))
        self.top = model.num_vars
        self.z3 = z3
        # A z3 object interrupted half-made prints a traceback from its __del__ (seen in CI:
        # Ctrl-C inside Context()).
        with sigint_held():
            self.ctx = _context(z3)
            self._optimising = model.ints.objective is not None
            if self._optimising:
                self.solver = z3.Optimize(ctx=self.ctx)
            elif kind == "qffd" or (kind == "default" and model.ints.count
                                    and not _wide_rows(model)
                                    and not _reified_rows(model)):
                self.solver = z3.SolverFor("QF_FD", ctx=self.ctx)
            else:
                self.solver = z3.Solver(ctx=self.ctx)
            for name, value in (params or {}).items():
                self.solver.set(name, value)
        self.text = _Smt(model.num_vars)
        self._declared = model.num_vars
        lines = [f"(declare-fun v{i} () Bool)" for i in range(1, model.num_vars + 1)]
        asserts = self.text.clauses(model.all_clauses())
        asserts += self.text.pbs(model.all_exactly_one(), Cmp.EQ, 1)
        most = model.all_at_most_one()
        keep = np.flatnonzero(most.sizes > 1)
        asserts += [f"((_ at-most 1) {t})" for t in self.text.terms(most, keep)]
        imp = model.all_implications()
        if len(imp):
            asserts += [f"(=> {a} {b})" for a, b in zip(self.text.words(imp[:, 0]).tolist(),
                                                        self.text.words(imp[:, 1]).tolist(),
                                                        strict=True)]
        for card in model.cardinalities:
            asserts += self.text.pbs(card.groups, card.cmp, card.bounds)
        for lits, weights, cmp, bound in model.weighted:
            op = "pble" if cmp is Cmp.LE else "pbge"
            asserts.append(f"((_ {op} {bound} {' '.join(map(str, weights.tolist()))}) "
                           f"{' '.join(self.text.words(lits).tolist())})")
        int_lines, int_asserts, objective = _int_text(model, self.text)
        lines += int_lines
        asserts += int_asserts
        lines.extend(f"(assert {a})" for a in asserts)
        lines += objective
        self.solver.from_string("\n".join(lines))
        stats.variables = model.num_vars + model.ints.count
        stats.constraints = len(asserts)
        self._model: Any = None
        self._best_only = False  # the model is the best an objective reached in time
        self._core: list[int] = []
        self._child: Child | None = None  # see the module docstring
        self._unsent: list[str] = []  # asserted here since the child's last check
        stats.build_time += time.perf_counter() - t0

    def _declare(self) -> list[str]:
        """Declarations of the variables made since the last call."""
        if self.top <= self._declared:
            return []
        self.text.grow(self.top)
        lines = [f"(declare-fun v{i} () Bool)" for i in range(self._declared + 1, self.top + 1)]
        self._declared = self.top
        return lines

    @_held
    def _assert(self, spell: Any, lits: np.ndarray, ints: Any = ()) -> None:
        """Assert what ``spell()`` writes over the literals ``lits`` and the integers
        ``ints``, after declaring any new variables it uses. An Optimize parses each text on
        its own, so there the text names the earlier variables again (a Solver refuses a
        second declaration)."""
        known = self._declared
        lines = self._declare()
        if self._optimising:
            old = np.unique(np.abs(lits))
            lines += [f"(declare-fun v{v} () Bool)" for v in old[old <= known].tolist()]
            lines += [f"(declare-fun n{k} () Int)" for k in ints]
        lines += [f"(assert {a})" for a in spell()]
        self._load("\n".join(lines))

    def _add_clauses(self, groups: Groups) -> None:
        self._assert(lambda: self.text.clauses(groups), groups.flat)

    def _add_cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None:
        self._assert(lambda: self.text.pbs(groups, cmp, bounds), groups.flat)

    @_held
    def _check(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        self._assumed = [int(a) for a in assumptions]
        self._model, self._core, self._best_only = None, [], False
        self._declare_assumed()
        kill_at = hard_deadline(time_limit)
        if self._child is not None or kill_at is not None:
            status = self._check_in_child(time_limit, kill_at)
        else:
            status = self._check_here(time_limit, interruptible=True)
        # Optimize answers sat with the optimum; stopped before it, this session answers
        # sat with the best model it had (_check_here), not optimal.
        self.optimal = status is Status.SAT and self._optimising and not self._best_only \
            and not self._assumed
        return status

    def _check_here(self, time_limit: float | None, interruptible: bool) -> Status:
        """The check in this process; with lazy records, repeated with their cuts until a
        solution keeps them all."""
        deadline = deadline_for(time_limit)
        while True:
            status = self._check_once(time_left(deadline), interruptible)
            if status is not Status.SAT or not self._lazy:
                return status
            cuts = self._lazy.cuts(self._assignment())
            if not cuts:
                return status
            self._model = None
            if self._best_only:  # the best an objective reached in time breaks a record
                self._best_only = False
                return Status.UNKNOWN
            self._add_clauses(Groups.of(cuts))
            left = time_left(deadline)
            if left is not None and left <= 0:
                return Status.UNKNOWN

    def _assignment(self) -> np.ndarray:
        """Every boolean variable's value in the model (indexed by variable)."""
        out = np.zeros(self.top + 1, dtype=bool)
        m = self._model
        for d in m.decls():
            name = d.name()
            if name.startswith("v") and self.z3.is_true(m[d]):
                out[int(name[1:])] = True
        return out

    def _check_once(self, time_limit: float | None, interruptible: bool) -> Status:
        z3 = self.z3
        # Whole milliseconds past the limit: a check that stops before the limit was not
        # stopped by the timeout (see below).
        self.solver.set("timeout", 2**32 - 1 if time_limit is None
                        else min(math.ceil(time_limit * 1000) + 1, 2**32 - 1))
        exprs = []
        for a in self._assumed:
            v = z3.Bool(f"v{abs(a)}", self.ctx)
            exprs.append(v if a > 0 else z3.Not(v, self.ctx))
        t0 = time.perf_counter()
        if interruptible:
            answer = _interruptible(self.ctx, lambda: self.solver.check(*exprs))
        else:
            answer = self.solver.check(*exprs)
        early = time_limit is None or time.perf_counter() - t0 < time_limit
        if answer == z3.unsat:
            literal = {e.sexpr(): a for e, a in zip(exprs, self._assumed, strict=True)}
            self._core = [literal[e.sexpr()] for e in self.solver.unsat_core()]
            return Status.UNSAT
        if answer != z3.sat:
            # z3 catches the first Ctrl-C of a check itself (Python's handler never runs)
            # and answers unknown, "interrupted from keyboard", or "canceled" in some of z3
            # 5.4's solvers (a tiling's --all said "time limit reached"), which a timeout
            # gives too after blocking clauses: so it is Ctrl-C only before the limit.
            if interruptible and early and self.solver.reason_unknown() in _CTRL_C_REASONS:
                raise KeyboardInterrupt
            if self._optimising:  # out of time: the best model so far, if it had one
                try:
                    best = self.solver.model()
                except z3.Z3Exception:
                    best = None
                if best is not None and len(best):
                    self._model, self._best_only = best, True
                    return Status.SAT
            return Status.UNKNOWN
        self._model = self.solver.model()
        return Status.SAT

    def _check_in_child(self, time_limit: float | None, kill_at: float | None) -> Status:
        """The check in the session's child, started (forked: it holds every assertion so
        far) if there is none, and handed what was asserted here since. The child is
        dropped, and the answer is unknown, when it is still running at ``kill_at``."""
        if self._child is None:
            self._child = Child(self._serve)
            self._unsent = []
        texts, self._unsent = self._unsent, []
        try:
            with sigint_let_through():
                self._child.send(("check", texts, self._assumed, time_limit, self.top))
                message = self._child.receive(kill_at)
        except BaseException:  # Ctrl-C, a failure or its death: the child goes
            self._drop()
            raise
        if message is None:
            self._drop()
            return Status.UNKNOWN
        if message[0] == "sat":
            self._model, self._best_only = _Answer(message[1], message[2]), message[3]
            return Status.SAT
        if message[0] == "unsat":
            self._core = message[1]
            return Status.UNSAT
        return Status.UNKNOWN

    def _serve(self, conn: Any) -> None:
        """The child, a copy of this session: solve each check sent, answer with what the
        parent may ask of it (values, integer values or the core)."""
        self._child = None  # this copy solves here
        while True:
            _, texts, self._assumed, time_limit, self.top = conn.recv()
            for text in texts:
                self.solver.from_string(text)
            status = self._check_here(time_limit, interruptible=False)
            if status is Status.SAT:
                conn.send(("sat", self.values(), self.int_values(), self._best_only))
            elif status is Status.UNSAT:
                conn.send(("unsat", self._core))
            else:
                conn.send(("unknown",))

    def _drop(self) -> None:
        if self._child is not None:
            self._child.kill()
            self._child = None

    def _close(self) -> None:
        self._drop()
        # z3's objects freed here, with Ctrl-C held: freed by the garbage collector later, a
        # Ctrl-C inside their __del__ was only printed, and the run went on to exit 0
        with sigint_held():
            self.solver = self._model = None
        super()._close()

    def _load(self, text: str) -> None:
        """Assert SMT-LIB text here, and in the child at its next check."""
        self.solver.from_string(text)
        if self._child is not None:
            self._unsent.append(text)

    def _declare_assumed(self) -> None:
        if self._assumed:
            self.top = max(self.top, max(abs(a) for a in self._assumed))
        lines = self._declare()
        if lines:
            self._load("\n".join(lines))

    @_held
    def values(self) -> np.ndarray:
        m = self._model
        if m is None:
            raise RuntimeError("values() needs a SAT check first")
        if isinstance(m, _Answer):
            return m.values
        return self._assignment()[self.user]

    def core(self) -> list[int]:
        return list(self._core)

    @_held
    def int_values(self) -> np.ndarray | None:
        if not len(self.user_ints):
            return None
        m = self._model
        if m is None:
            raise RuntimeError("int_values() needs a SAT check first")
        if isinstance(m, _Answer):
            return m.ints
        z3 = self.z3
        return np.array([m.eval(z3.Int(f"n{k}", self.ctx), model_completion=True).as_long()
                         for k in self.user_ints.tolist()], dtype=np.int64)

    @_held
    def block(self, values: np.ndarray, ints: np.ndarray | None) -> None:
        if ints is None:
            super().block(values, ints)
            return
        same = self.text.words(np.where(values, self.user, -self.user)).tolist()
        same += [f"(= n{k} {_num(v)})" for k, v in zip(self.user_ints.tolist(), ints.tolist(),
                                                     strict=True)]
        self._assert(lambda: [f"(not (and {' '.join(same)} true))"], self.user,
                     self.user_ints.tolist())


@dataclass
class _Answer:
    """A model's answer as a check in a child sent it back."""

    values: np.ndarray
    ints: np.ndarray | None


def _interruptible(ctx: Any, check: Any) -> Any:
    """Run ``check`` so that Ctrl-C stops z3 and raises KeyboardInterrupt here. The session
    holds Ctrl-C back around everything else that touches z3 objects (:func:`_held`); here
    the handler interrupts z3 instead of raising, which could land in a z3 object's
    ``__del__``."""
    if threading.current_thread() is not threading.main_thread():
        return check()
    if sigint_noted():  # held back since the session's call began
        raise KeyboardInterrupt
    stop = [False]

    def on_sigint(_signum: int, _frame: Any) -> None:
        stop[0] = True
        ctx.interrupt()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        answer = check()
    finally:
        signal.signal(signal.SIGINT, previous)
    if stop[0]:
        raise KeyboardInterrupt
    return answer


def _num(v: int) -> str:
    return str(v) if v >= 0 else f"(- {-v})"


def _sum(terms: list[str]) -> str:
    return "0" if not terms else (terms[0] if len(terms) == 1 else f"(+ {' '.join(terms)})")


_CMP = {EQ: "=", NE: "distinct", LE: "<=", GE: ">="}


def _int_words(names: np.ndarray, ids: np.ndarray, coefs: np.ndarray) -> list[str]:
    """Linear terms over integers: ``n3`` or ``(* 2 n3)``."""
    return [n if c == 1 else f"(* {_num(c)} {n})"
            for n, c in zip(names[ids].tolist(), coefs.tolist(), strict=True)]


def _lit_words(text: _Smt, lits: np.ndarray, coefs: np.ndarray) -> list[str]:
    """Linear terms over literals, each counting its coefficient when true."""
    return [f"(ite {w} {_num(c)} 0)"
            for w, c in zip(text.words(lits).tolist(), coefs.tolist(), strict=True)]


def _linear_text(batch: LinearRows, names: np.ndarray, text: _Smt) -> list[str]:
    """A batch of linear rows as SMT-LIB, each implied by its enforcing literal if it has
    one: built a batch at a time (a million rows took 24 s one by one, most of it here)."""
    terms, coefs, is_int = batch.terms()
    ids = terms.flat
    words = np.empty(len(ids), dtype=object)
    ints, lits = np.flatnonzero(is_int), np.flatnonzero(~is_int)
    words[ints] = _int_words(names, ids[ints], coefs[ints])
    words[lits] = _lit_words(text, ids[lits], coefs[lits])
    sums = [("0" if n == 0 else body if n == 1 else f"(+ {body})")
            for body, n in zip(terms.joined(words), terms.sizes.tolist(), strict=True)]
    rows = [f"({_CMP[k]} {b} {_num(r)})" for b, k, r in
            zip(sums, batch.cmp.tolist(), batch.rhs.tolist(), strict=True)]
    enforced = np.flatnonzero(batch.enforce != 0)
    for i, w in zip(enforced.tolist(), text.words(batch.enforce[enforced]).tolist(),
                    strict=True):
        rows[i] = f"(=> {w} {rows[i]})"
    return rows


def _table_template(tuples: np.ndarray) -> str:
    """"The scope takes one of the tuples" as a disjunction of conjunctions, with ``{j}``
    for the scope's j-th integer: one text for every scope of the table, the cells spelled
    a column's distinct value at a time (5 million cells took 7 s one by one)."""
    cells = np.empty(tuples.shape, dtype=object)
    for j in range(tuples.shape[1]):
        values, where = np.unique(tuples[:, j], return_inverse=True)
        spelled = np.array([f"(= {{{j}}} {_num(v)})" for v in values.tolist()], dtype=object)
        cells[:, j] = spelled[where.reshape(-1)]
    ands = " ".join(f"(and {' '.join(row)})" for row in cells.tolist())
    return f"(or {ands} false)"


WIDE_ROW = 4096  # a row whose terms can reach this much goes to the general solver


def _wide_rows(model: Model) -> bool:
    """Whether a linear row's terms can reach WIDE_ROW in size: QF_FD bit-blasts such sums
    into wide adders (SEND+MORE=MONEY, coefficients to 10,000: QF_FD 25 ms, the general
    solver 9 ms), where small sums (Sudoku, Killer Sudoku cages) are its strength."""
    lo, hi = model.ints.bounds()
    far = np.maximum(np.abs(lo), np.abs(hi))
    for batch in model.ints.linear:
        reach = np.abs(batch.icoef).astype(float) * far[batch.ints.flat]
        if not len(reach):
            continue
        starts = batch.ints.offsets[:-1][batch.ints.sizes > 0]  # rows with integers
        if np.add.reduceat(reach, starts).max() >= WIDE_ROW:
            return True
    return False


def _reified_rows(model: Model) -> bool:
    """Whether some linear row over integers holds only under a literal: the decompositions
    of graph constraints (a parent closer by a distance) and of scheduling, where z3's
    arithmetic propagates bounds that QF_FD bit-blasts (10x10 puzzles, first solution:
    Nurikabe 2.7 s against no answer in 120 s, Slitherlink 0.22 against 5.6 s, Masyu 0.29
    against 3.6 s; bench/RESULTS.md)."""
    return any((batch.enforce != 0).any() and batch.ints.sizes.any()
               for batch in model.ints.linear)


def _int_text(model: Model, text: _Smt) -> tuple[list[str], list[str], list[str]]:
    """Declarations, assertions and the objective of the model's integers, as SMT-LIB:
    each integer an ``Int`` with its bounds, linear rows as arithmetic, AllDifferent as
    ``distinct``, tables as disjunctions of conjunctions, element as implications."""
    ints = model.ints
    if ints.count == 0 and not ints.has_constraints():
        return [], [], []
    lo, hi = ints.bounds()
    names = np.array([f"n{k}" for k in range(ints.count)], dtype=object)
    lines = [f"(declare-fun {n} () Int)" for n in names.tolist()]
    asserts = [f"(and (>= {n} {_num(a)}) (<= {n} {_num(b)}))"
               for n, a, b in zip(names.tolist(), lo.tolist(), hi.tolist(), strict=True)]
    ci, cv, cl = ints.channels()
    asserts += [f"(= {w} (= {names[x]} {_num(v)}))" for w, x, v in
                zip(text.words(cl).tolist(), ci.tolist(), cv.tolist(), strict=True)]

    for batch in ints.linear:
        asserts += _linear_text(batch, names, text)
    for groups in ints.alldiff:
        asserts += [f"(distinct {' '.join(names[g].tolist())})" for g in groups if len(g) > 1]
    for t in ints.tables:
        body = _table_template(t.tuples)
        if t.forbidden:
            body = f"(not {body})"
        asserts += [body.format(*names[scope].tolist()) for scope in t.scopes]
    for e in ints.elements:
        for i, arr, tgt in zip(e.index.tolist(), e.arrays.tolist(), e.targets.tolist(),
                               strict=True):
            asserts.append(f"(and (>= {names[i]} 0) (<= {names[i]} {len(arr) - 1}))")
            asserts += [f"(=> (= {names[i]} {k}) (= {names[tgt]} {names[a]}))"
                        for k, a in enumerate(arr)]
    for rows in model.parts.get(ARITHMETIC, ()):
        asserts += _arithmetic_text(rows, names)
    objective = []
    obj = ints.objective
    if obj is not None:
        body = _sum(_int_words(names, obj.ints, obj.icoef)
                    + _lit_words(text, obj.bools, obj.bcoef) + [_num(obj.constant)])
        objective.append(f"(minimize {body})")
    return lines, asserts, objective


def _arithmetic_text(rows: ArithRows, names: np.ndarray) -> list[str]:
    """Products, abs, min and max as z3's Int terms."""
    t, ops = names[rows.target].tolist(), names[rows.operands].tolist()
    if rows.op == "mul":
        return [f"(= {z} (* {a} {b}))" for z, (a, b) in zip(t, ops, strict=True)]
    if rows.op == "abs":
        return [f"(= {z} (ite (>= {a} 0) {a} (- {a})))" for z, (a,) in zip(t, ops, strict=True)]
    side = ">=" if rows.op == "max" else "<="
    return [f"(and {' '.join(f'({side} {z} {a})' for a in xs)} "
            f"(or {' '.join(f'(= {z} {a})' for a in xs)}))" for z, xs in zip(t, ops, strict=True)]


class _Smt:
    """SMT-LIB spellings of literals and constraints over variables ``v1..vn``, built a whole
    group list at a time (Groups.joined), not one numpy call per group."""

    def __init__(self, num_vars: int) -> None:
        self.pos = np.zeros(0, dtype=object)
        self.neg = np.zeros(0, dtype=object)
        self.grow(num_vars)

    def grow(self, num_vars: int) -> None:
        """Spellings for variables up to ``num_vars``."""
        ids = np.arange(len(self.pos), num_vars + 1).tolist()
        self.pos = np.concatenate([self.pos, np.array([f"v{i}" for i in ids], dtype=object)])
        self.neg = np.concatenate([self.neg,
                                   np.array([f"(not v{i})" for i in ids], dtype=object)])

    def words(self, lits: np.ndarray) -> np.ndarray:
        return np.where(lits > 0, self.pos[np.abs(lits)], self.neg[np.abs(lits)])

    def terms(self, groups: Groups, which: np.ndarray | None = None) -> list[str]:
        """Each group's literals, space-separated (only the groups ``which``, in order)."""
        out = groups.joined(self.words(groups.flat))
        return out if which is None else [out[i] for i in which.tolist()]

    def clauses(self, groups: Groups) -> list[str]:
        sizes = groups.sizes.tolist()
        return [f"(or {t})" if n > 1 else (t if n == 1 else "false")
                for t, n in zip(self.terms(groups), sizes, strict=True)]

    def pbs(self, groups: Groups, cmp: Cmp, bounds: Any) -> list[str]:
        """``sum(group) cmp bound`` per group; ``bounds`` one per group or one for all."""
        sizes = groups.sizes.tolist()
        ks = np.broadcast_to(np.asarray(bounds), (len(sizes),)).tolist()
        out = []
        for t, n, k in zip(self.terms(groups), sizes, ks, strict=True):
            if n == 0:
                ok = k == 0 if cmp is Cmp.EQ else (k <= 0 if cmp is Cmp.GE else k >= 0)
                out.append("true" if ok else "false")
            else:
                out.append(f"((_ {_OPS[cmp]} {k}{' 1' * n}) {t})")
        return out


__all__ = ["SOLVER_KINDS", "Z3Backend"]
