"""OR-Tools CP-SAT back end: native exactly-one / bool-or / linear constraints, integer vars.

CP-SAT is not incremental: a session keeps one CpModel, adds to it, and solves it afresh
at every check. A check with a long time limit on a large model solves in a forked child,
killed once the limit is well past (:func:`~smtpuzzle.runtime.child.hard_deadline`):
CP-SAT's presolve honours neither its time limit nor ``stop_search()``, and a Ctrl-C then
stops the child at once. Enumeration streams CP-SAT's own solution enumeration (one worker: several
lose and repeat solutions) from a solver thread through a bounded queue. Where every variable
is an answer (or an answer integer's channel) each assignment is an answer; otherwise
auxiliary variables can make one answer several assignments, so answers already listed are
skipped, and where the repeats outnumber the answers by far, the answers listed are blocked
and the rest found by solving again with each new one forbidden.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from smtpuzzle.backends.base import Backend, BuildCost, Capabilities, Session, answer_key
from smtpuzzle.backends.lazy import LazyCuts
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Groups, Model
from smtpuzzle.model.arith import KIND as ARITHMETIC
from smtpuzzle.model.arith import ArithRows
from smtpuzzle.model.expr import IntArray
from smtpuzzle.model.graphs import CIRCUIT, CONNECTED, CYCLE, SingleCycle
from smtpuzzle.model.ints import EQ, GE, LE, NE, LinearRows
from smtpuzzle.model.kinds import BOOLEAN, lazy_records, lowered
from smtpuzzle.model.scheduling import KIND as SCHEDULING
from smtpuzzle.model.scheduling import Cumulative, NoOverlap
from smtpuzzle.result import Enumeration, Result, Stats, Status
from smtpuzzle.runtime.child import child_messages, hard_deadline, sigint_held

STREAM_QUEUE = 256  # solutions the solver thread may run ahead of the reader
# Models this large (variables + constraints + table cells) solve checks with long limits
# in a child.
# Smaller ones keep CP-SAT's own limit well enough (random table and linear models of 10^5
# cells stopped 0.06 s past a 0.05 s limit, of 3x10^5 0.3 s past: within the 10% and half
# a second promised), and a fork costs every check 20 ms (a 10x10 Hidato's first solution,
# 135,432 table cells: 15 -> 35 ms) and doubles the time of an enumeration that blocks each
# solution (120 solutions: 0.83 -> 1.86 s).
CHILD_MIN_SIZE = 200_000
# ... and this large, checks with short limits too: their presolve alone overruns a short
# limit (hexomino-6x6x6's stage-2 table model, 6 tables of 10^4 x 38 cells: 7.5 s under 3 s).
CHILD_ALWAYS_SIZE = 1_000_000
# A model this small is first tried for QUICK_S seconds on one worker, in the calling
# thread: most such models answer at once, and a portfolio's threads plus the solve's own
# thread cost more than their answer (SEND+MORE: 1.5 ms so against 4 ms). An attempt
# that does not decide (or only finds some solution of an objective) makes way for the
# full solve; a Ctrl-C waits for it, at most QUICK_S.
QUICK_MAX_SIZE = 2_000
QUICK_S = 0.02
# An impure model's enumeration gives up once its repeated answers outnumber
# A + B x (answers listed): a repeat costs tens of microseconds, a re-solve milliseconds.
DEDUPE_REPEATS = (20_000, 20)
_ALWAYS = np.iinfo(np.int64).min  # no enforcement literal (a proto literal is an int32)
_TEXT_ROWS = 100_000  # linear rows per proto text parse: keeps the text to megabytes


def cp_model_sum(cp_model: Any, terms: list, coefs: list) -> Any:
    """``sum(coefs * terms)`` as one CP-SAT expression."""
    return cp_model.LinearExpr.weighted_sum(terms, coefs)


def _parse(proto: Any, text: str) -> None:
    """Merge text-format ``text`` into the model proto: one parse for many variables or
    constraints, far faster than an API call each. OR-Tools only logs a parse error, so a
    failed parse (a bug here, never the user's input) is raised."""
    if not proto.merge_text_format(text):
        raise RuntimeError(f"CP-SAT refused the model text {text[:80]!r}...")


_MODEL_CLASS: list[Any] = []


def _new_model(cp_model: Any) -> Any:
    """An empty CpModel without the camel-case aliases ``CpModel()`` sets up on every
    instance (0.1-0.4 ms each, a fifth of a 9x9 Sudoku's build); this module uses the
    snake-case names only."""
    if not _MODEL_CLASS:
        class _Model(cp_model.CpModel):
            def _add_pre_pep8_methods(self) -> None:
                pass

        _MODEL_CLASS.append(_Model)
    return _MODEL_CLASS[0]()


class CpSatBackend(Backend):
    """``workers`` applies to single solves (0: CP-SAT's own default, one per core);
    enumeration always uses one worker.

    One worker per core, measured on 14 tilings (bench/RESULTS.md, "Choices made by
    measurement"): eight workers on two cores, the earlier default, were 1.5x slower in sum
    with OR-Tools 9.15, and had the heavier tail (pentacube-3x4x5: 0.84 s against 2.9 s, up
    to 15 s).
    CP-SAT's solution hints did not help the nonogram guesses (faase stayed undecided after
    120 s with them), so this back end is not guided.
    """

    name = "cpsat"
    build_cost = BuildCost(3.4, 0.15, 1.0, 3.4, 0.05, 1.0, 3.3, 0.1)
    bytes_per_incidence = 1500
    capabilities = Capabilities(optimises=True)
    # connected sets checked lazily: each solution whose set falls apart gets its cuts and
    # the model is solved again (backends/lazy.py)
    takes = BOOLEAN | {"integers", "regular", "automata", ARITHMETIC, SCHEDULING, CIRCUIT,
                       CYCLE, CONNECTED}

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers

    def optimises(self, model: Model) -> bool:
        """CP-SAT's optimum is exact while the objective's values stay within 2**53: past
        that its bounds are doubles, which could not tell -3e18 from -3e18 + 2 (a solution
        2 short of the optimum called optimal, found by the fuzz tests); such objectives
        are bisected with exact linear rows."""
        return exact_objective(model)

    def checked_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """CP-SAT's SatParameters by field name (``workers``: num_workers, ``seed``:
        random_seed), each value tried on a SatParameters of its own."""
        from ortools.sat import sat_parameters_pb2

        out = {}
        for name, value in params.items():
            field = {"workers": "num_workers", "seed": "random_seed"}.get(name, name)
            trial = sat_parameters_pb2.SatParameters()
            if field not in trial.DESCRIPTOR.fields_by_name:
                raise PuzzleError(f"CP-SAT has no parameter {name!r} (its SatParameters "
                                  "fields, workers or seed)")
            try:
                setattr(trial, field, value)
            except (TypeError, ValueError) as e:
                raise PuzzleError(f"CP-SAT's parameter {name!r} cannot be {value!r}: {e}") \
                    from None
            out[field] = value
        if "num_workers" in out:  # single solves' workers (enumeration takes one)
            self.workers = int(out.pop("num_workers"))
        return out

    def _open(self, model: Model, stats: Stats) -> CpSatSession:
        return CpSatSession(model, stats, self.workers, self.params, self.takes)


def exact_objective(model: Model) -> bool:
    """Whether the model has no objective, or one whose values CP-SAT's doubles hold
    exactly."""
    if model.ints.objective is None:
        return True
    low, high = model.ints.objective_range()
    return max(abs(low), abs(high)) < 2**53


class _BoolVars:
    """The model's booleans 1..n as CP-SAT variables: the proto gets them all at once (one
    text parse, 4x faster than a call per variable), the Python objects only those some
    constraint or answer needs, made on first use. ``index[x]``: variable x's proto index
    (integers made in between take indices too)."""

    def __init__(self, m: Any) -> None:
        self.m = m
        self.index = np.zeros(1, dtype=np.int64)  # [0] unused: variables count from 1
        self._vars: dict[int, Any] = {}
        self._negs: dict[int, Any] = {}

    def grow(self, top: int) -> None:
        n = len(self.index) - 1
        if top > n:
            first = len(self.m.proto.variables)
            _parse(self.m.proto, "variables{domain:[0,1]}" * (top - n))
            self.index = np.concatenate([self.index, np.arange(first, first + top - n)])

    def proto_literals(self, lits: np.ndarray) -> np.ndarray:
        """Model literals as proto literals: variable x is its index, not-x is -index - 1."""
        idx = self.index[np.abs(lits)]
        return np.where(lits > 0, idx, -idx - 1)

    def __getitem__(self, x: int) -> Any:
        v = self._vars.get(x)
        if v is None:
            v = self._vars[x] = self.m.get_bool_var_from_proto_index(int(self.index[x]))
        return v

    def neg(self, x: int) -> Any:
        v = self._negs.get(x)
        if v is None:
            v = self._negs[x] = self[x].negated()
        return v


class _IntVars:
    """The model's integers as CP-SAT IntVars, written to the proto at once; Python objects
    made on first use. ``index[k]``: integer k's proto index."""

    def __init__(self, m: Any, lo: np.ndarray, hi: np.ndarray) -> None:
        self.m = m
        first = len(m.proto.variables)
        _parse(m.proto, "".join(map("variables{{domain:[{},{}]}}".format, lo.tolist(),
                                    hi.tolist())))
        self.index = np.arange(first, first + len(lo), dtype=np.int64)
        self._vars: dict[int, Any] = {}

    def __getitem__(self, k: int) -> Any:
        v = self._vars.get(k)
        if v is None:
            v = self._vars[k] = self.m.get_int_var_from_proto_index(int(self.index[k]))
        return v


class CpSatSession(Session):
    capabilities = CpSatBackend.capabilities

    def __init__(self, model: Model, stats: Stats, workers: int,
                 params: dict[str, Any] | None = None,
                 takes: frozenset[str] = CpSatBackend.takes) -> None:
        with sigint_held():  # an interrupted import fails, and for good
            from ortools.sat.python import cp_model

        t0 = time.perf_counter()
        model = lowered(model, takes, "cpsat")
        super().__init__(model.user_vars, model.num_vars, stats, model.hints,
                         model.ints.user_ints())
        self.cp_model = cp_model
        self.workers = workers
        self.params = params or {}
        self._optimising = model.ints.objective is not None
        self._exact = exact_objective(model)
        m = self.m = _new_model(cp_model)
        self.bools = _BoolVars(m)
        self.pure = False  # decided below, once the model is in
        self.dedupe = True  # an impure model streams too, each answer listed once
        self._grow(model.num_vars)
        self._add_groups(model.all_clauses(), "bool_or")
        self._add_groups(model.all_exactly_one(), "exactly_one")
        self._add_groups(model.all_at_most_one(), "at_most_one")
        self._add_implications(model.all_implications())
        for card in model.cardinalities:
            self._add_cardinality(card.groups, card.cmp, card.bounds)
        for lits, weights, cmp, bound in model.weighted:
            expr = cp_model_sum(cp_model, self._lits(lits), weights.tolist())
            m.add(expr <= bound if cmp is Cmp.LE else expr >= bound)
        for a in model.automata:
            # CP-SAT refuses automata without a letter, a final state or a transition:
            # those accept the empty word alone, nothing, or the empty word alone.
            if not len(a.literals) or not len(a.finals) or not len(a.transitions):
                if len(a.literals) or a.start not in a.finals.tolist():
                    m.add_bool_or([])
                continue
            word = [self.bools[x] if x > 0 else 1 - self.bools[-x] for x in a.literals.tolist()]
            m.add_automaton(word, a.start, a.finals.tolist(),
                            [tuple(t) for t in a.transitions.tolist()])
        for cycle in model.parts.get(CYCLE, ()):
            self._add_cycle(cycle)
        self._lazy = LazyCuts(lazy_records(model))
        self._add_ints(model)
        self._table_cells = model.ints.table_cells()
        # Every variable an answer, or fixed by one: enumerating all assignments lists each
        # answer once. A boolean is a user variable or the "x == v" channel of an integer;
        # every integer is a user integer.
        fixed = np.zeros(model.num_vars + 1, dtype=bool)
        fixed[np.abs(self.user)] = True
        fixed[np.abs(model.ints.channels()[2])] = True
        self.pure = bool(fixed[1:].all()) and \
            len(self.user_ints) == model.ints.count and not model.parts.get(CYCLE)
        # (a loop's arcs run either way round: two assignments per answer)
        self._solution: np.ndarray | None = None  # the last check's, when it found one
        self._core: list[int] = []
        self.lp_strong = model.relaxation_decides
        stats.variables = model.num_vars + model.ints.count
        stats.constraints = len(m.proto.constraints)
        stats.build_time += time.perf_counter() - t0

    def _add_ints(self, model: Model) -> None:
        """Integers as IntVars, and every integer constraint natively."""
        ints = model.ints
        if ints.count == 0 and not ints.has_constraints():
            return
        m = self.m
        lo, hi = ints.bounds()
        xs = self.xs = _IntVars(m, lo, hi)
        ci, cv, cl = ints.channels()
        if len(ci):  # literal <-> (x == v): x == v if the literal, x != v if not
            enforce = self.bools.proto_literals(np.concatenate([cl, -cl]))
            vars_ = xs.index[np.concatenate([ci, ci])]
            self._add_linears(enforce, Groups(vars_, np.arange(len(vars_) + 1), owned=True),
                              np.ones(len(vars_), np.int64), np.repeat([EQ, NE], len(ci)),
                              np.concatenate([cv, cv]))
        if ints.linear:  # one batch: a text parse per batch costs a small model dearly
            self._add_linear_batch(LinearRows.concat(ints.linear))
        if ints.alldiff:  # as text, parsed once: a Python object per term cost 40x more
            terms = xs.index[np.concatenate([g.flat for g in ints.alldiff])].tolist()
            sizes = np.concatenate([np.diff(g.offsets) for g in ints.alldiff])
            offsets = np.concatenate([[0], np.cumsum(sizes)]).tolist()
            terms = list(map(str, terms))
            _parse(m.proto, "".join(
                "constraints{all_diff{exprs{vars:" + " coeffs:1}exprs{vars:".join(terms[a:b])
                + " coeffs:1}}}" for a, b in zip(offsets[:-1], offsets[1:], strict=True)))
        for t in ints.tables:
            tuples = t.tuples.tolist()
            add = m.add_forbidden_assignments if t.forbidden else m.add_allowed_assignments
            for scope in t.scopes.tolist():
                add([xs[k] for k in scope], tuples)
        for e in ints.elements:
            for i, arr, t in zip(e.index.tolist(), e.arrays.tolist(), e.targets.tolist(),
                                 strict=True):
                m.add_element(xs[i], [xs[k] for k in arr], xs[t])
        for rows in model.parts.get(ARITHMETIC, ()):
            self._add_arithmetic(rows)
        for c in model.parts.get(SCHEDULING, ()):
            self._add_scheduling(c, lo, hi)
        for c in model.parts.get(CIRCUIT, ()):  # over the arc literals succ[i] == j
            if not len(c.arcs):  # no successor in any domain: no solution (CP-SAT
                m.add_bool_or([])  # refuses a circuit of no arcs)
                continue
            m.add_circuit(list(zip(c.arcs[:, 0].tolist(), c.arcs[:, 1].tolist(),
                                   self._lits(c.arcs[:, 2]), strict=True)))
        for r in ints.regulars:
            trans = [tuple(t) for t in r.transitions.tolist()]
            for word in r.words.tolist():
                m.add_automaton([xs[k] for k in word], r.start, r.finals.tolist(), trans)
        obj = ints.objective
        if obj is not None:
            terms = [xs[k] for k in obj.ints.tolist()] + self._lits(obj.bools)
            expr = cp_model_sum(self.cp_model, terms, obj.icoef.tolist() + obj.bcoef.tolist())
            m.minimize(expr + obj.constant)

    def _add_cycle(self, cycle: SingleCycle) -> None:
        """One loop through the chosen edges as CP-SAT's circuit: each chosen edge is run
        one way or the other (two arc literals adding up to the edge's), a vertex off the
        loop takes its self-loop; and some edge is chosen (the circuit may be empty)."""
        m = self.m
        edges, chosen = cycle.graph.edges, self._lits(cycle.chosen.ids.reshape(-1))
        arcs = []
        for (u, v), edge in zip(edges.tolist(), chosen, strict=True):
            forth, back = m.new_bool_var(""), m.new_bool_var("")
            m.add(forth + back == edge)
            arcs += [(u, v, forth), (v, u, back)]
        touched = np.zeros(cycle.graph.n, dtype=bool)
        touched[edges.ravel()] = True
        for v in range(cycle.graph.n):
            if touched[v]:
                arcs.append((v, v, m.new_bool_var("")))
        m.add_bool_or(chosen)
        if arcs:
            m.add_circuit(arcs)

    def _add_arithmetic(self, rows: ArithRows) -> None:
        """Products, abs, min and max as CP-SAT's own equalities."""
        m, xs = self.m, self.xs
        add = {"mul": m.add_multiplication_equality, "abs": m.add_abs_equality,
               "max": m.add_max_equality, "min": m.add_min_equality}[rows.op]
        for t, ops in zip(rows.target.tolist(), rows.operands.tolist(), strict=True):
            add(xs[t], xs[ops[0]] if rows.op == "abs" else [xs[k] for k in ops])

    def _add_scheduling(self, c: NoOverlap | Cumulative, lo: np.ndarray, hi: np.ndarray
                        ) -> None:
        """A NoOverlap or Cumulative over CP-SAT's interval variables. CP-SAT counts a task
        of size 0 inside another as overlapping it, where the model's tasks of no time
        overlap nothing: those take no part (a variable size that may be 0 makes its task
        optional, there only while it takes time)."""
        m, xs, t = self.m, self.xs, c.tasks
        present = [None] * len(t) if t.present is None else self._lits(t.present.ids)
        intervals, kept = [], []
        for k, start in enumerate(t.starts.ids.tolist()):
            if not t.variable:
                if t.sizes[k] == 0:
                    continue
                args = (xs[start], int(t.sizes[k]))
                make = m.new_fixed_size_interval_var if present[k] is None \
                    else m.new_optional_fixed_size_interval_var
            else:
                size = int(t.sizes.ids[k])
                end = m.new_int_var(int(lo[start] + lo[size]), int(hi[start] + hi[size]), "")
                m.add(end == xs[start] + xs[size])  # an absent task's too: one value each
                args = (xs[start], xs[size], end)
                if lo[size] < 1:  # there while present and of size 1 or more
                    runs = m.new_bool_var("")
                    m.add(xs[size] >= 1).only_enforce_if(runs)
                    if present[k] is None:
                        m.add(xs[size] <= 0).only_enforce_if(~runs)
                    else:
                        m.add_implication(runs, present[k])
                        m.add(xs[size] <= 0).only_enforce_if([present[k], ~runs])
                    present[k] = runs
                make = m.new_interval_var if present[k] is None else m.new_optional_interval_var
            intervals.append(make(*args, "") if present[k] is None
                             else make(*args, present[k], ""))
            kept.append(k)
        if isinstance(c, NoOverlap):
            m.add_no_overlap(intervals)
            return
        demands = [xs[int(c.demands.ids[k])] for k in kept] \
            if isinstance(c.demands, IntArray) else c.demands[kept].tolist()
        capacity = xs[int(c.capacity.ids.reshape(-1)[0])] if isinstance(c.capacity, IntArray) \
            else c.capacity
        m.add_cumulative(intervals, demands, capacity)

    def _add_linear_batch(self, batch: LinearRows) -> None:
        """A batch of the model's linear rows."""
        terms, coefs, is_int = batch.terms()
        ids = terms.flat
        lit = ~is_int
        vars_ = np.empty(len(ids), dtype=np.int64)
        vars_[is_int] = self.xs.index[ids[is_int]]
        vars_[lit] = self.bools.index[np.abs(ids[lit])]
        # c * not-b is c - c * b: the constant moves to the right-hand side.
        flip = lit & (ids < 0)
        shift = np.zeros(len(batch), dtype=np.int64)
        np.add.at(shift, np.repeat(np.arange(len(batch)), terms.sizes)[flip], coefs[flip])
        enforce = np.where(batch.enforce != 0, self.bools.proto_literals(batch.enforce), _ALWAYS)
        self._add_linears(enforce, Groups(vars_, terms.offsets), np.where(flip, -coefs, coefs),
                          batch.cmp, batch.rhs - shift)

    def _add_linears(self, enforce: np.ndarray, terms: Groups, coefs: np.ndarray,
                     cmps: np.ndarray, rhs: np.ndarray) -> None:
        """Rows ``sum(coefs * terms) cmps[i] rhs[i]`` (``terms``: proto variable indices per
        row, ``coefs`` aligned with its flat array), each enforced by the proto literal
        ``enforce[i]`` (_ALWAYS: by none), written as proto text: a million rows took 34 s
        through a proto call per field, and take seconds parsed in chunks."""
        lo, hi = self.cp_model.INT_MIN, self.cp_model.INT_MAX
        domain = {EQ: lambda r: f"{r},{r}", LE: lambda r: f"{lo},{r}",
                  GE: lambda r: f"{r},{hi}", NE: lambda r: f"{lo},{r - 1},{r + 1},{hi}"}
        for a in range(0, len(terms), _TEXT_ROWS):
            part = slice(a, a + _TEXT_ROWS)
            off = terms.offsets[a:a + _TEXT_ROWS + 1]
            rows = Groups(terms.flat[off[0]:off[-1]], off - off[0])
            words = np.array(list(map(str, rows.flat.tolist())), dtype=object)
            weights = np.array(list(map(str, coefs[off[0]:off[-1]].tolist())), dtype=object)
            _parse(self.m.proto, "".join(
                f"constraints{{{'' if e == _ALWAYS else f'enforcement_literal:{e} '}"
                f"linear{{vars:[{v}] coeffs:[{c}] domain:[{domain[k](r)}]}}}}"
                for e, v, c, k, r in zip(enforce[part].tolist(), rows.joined(words, ","),
                                         rows.joined(weights, ","), cmps[part].tolist(),
                                         rhs[part].tolist(), strict=True)))

    def _grow(self, top: int) -> None:
        if top > len(self.bools.index) - 1:
            self.pure = False  # a variable the caller made is no answer
        self.bools.grow(top)

    def _lits(self, arr: Any) -> list:
        bools = self.bools
        return [bools[x] if x > 0 else bools.neg(-x) for x in np.asarray(arr).tolist()]

    def _add_groups(self, groups: Groups, kind: str) -> None:
        """One proto constraint of ``kind`` (bool_or, exactly_one, at_most_one) per group,
        its literals written as proto literals directly: no Python object per literal."""
        lits = self.bools.proto_literals(np.asarray(groups.flat, dtype=np.int64)).tolist()
        offsets = np.asarray(groups.offsets).tolist()
        constraints = self.m.proto.constraints
        for a, b in zip(offsets[:-1], offsets[1:], strict=True):
            getattr(constraints.add(), kind).literals.extend(lits[a:b])

    def _user_list(self) -> list:
        return [self.bools[x] for x in self.user.tolist()]

    def _add_implications(self, pairs: np.ndarray) -> None:
        """``a -> b`` as a proto bool_and enforced by ``a``, for each row (a, b)."""
        pl = self.bools.proto_literals(pairs).tolist()
        constraints = self.m.proto.constraints
        for a, b in pl:
            ct = constraints.add()
            ct.enforcement_literal.append(a)
            ct.bool_and.literals.append(b)

    def _add_clauses(self, groups: Groups) -> None:
        self._grow(self.top)
        self._add_groups(groups, "bool_or")

    def _add_cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None:
        self._grow(self.top)
        for g, k in zip(groups, bounds.tolist(), strict=True):
            expr = self.cp_model.LinearExpr.sum(self._lits(g))
            if cmp is Cmp.EQ:
                self.m.add(expr == k)
            elif cmp is Cmp.LE:
                self.m.add(expr <= k)
            else:
                self.m.add(expr >= k)

    def _new_solver(self, time_limit: float | None, workers: int) -> Any:
        solver = self.cp_model.CpSolver()
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        solver.parameters.num_workers = workers
        if self.lp_strong:  # the root LP decides: a portfolio and presolve only cost time
            solver.parameters.num_workers = 1
            solver.parameters.linearization_level = 2
            solver.parameters.cp_model_presolve = False
            solver.parameters.cp_model_probing_level = 0
        if self._lazy:  # solved again after each round of cuts: one pass of presolve
            # (a 20x20 Nurikabe's 23 rounds: 7.8 -> 4.5 s; a 14x24 Heyawake 0.63 -> 0.20 s)
            solver.parameters.max_presolve_iterations = 1
        # CP-SAT's own Ctrl-C handler can abort the process (std::bad_function_call when
        # the signal meets its unregistering): solves run in a thread and Python's handler
        # stops them instead.
        solver.parameters.catch_sigint_signal = False
        for name, value in self.params.items():
            try:
                setattr(solver.parameters, name, value)
            except TypeError:  # an enum field given by its number (initial_polarity=0)
                setattr(solver.parameters, name, type(getattr(solver.parameters, name))(value))
        return solver

    def _solve(self, solver: Any) -> int:
        """``solver.solve(self.m)`` in a thread; Ctrl-C stops the search and is raised here
        once CP-SAT has stopped (as z3's session does), so callers can say "interrupted"."""
        box: list[Any] = []
        done = threading.Event()  # not join(): an interrupted join() can leave is_alive() wrong

        def run() -> None:
            try:
                box.append(solver.solve(self.m))
            except BaseException as exc:  # handed to the caller
                box.append(exc)
            finally:
                done.set()

        threading.Thread(target=run, name="cpsat-solve", daemon=True).start()
        try:
            while not done.wait(0.1):
                pass
        except KeyboardInterrupt:
            solver.stop_search()
            done.wait()
            raise
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    def _check(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        """Solve until a solution keeps the lazy records (each one that breaks one adds its
        cuts: the model is solved again with them) or none is left."""
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        while True:
            left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
            status = self._check_once(assumptions, left)
            if status is not Status.SAT or not self._lazy:
                return status
            assert self._solution is not None
            assignment = np.zeros(len(self.bools.index), dtype=bool)
            assignment[1:] = self._solution[self.bools.index[1:]] > 0
            cuts = self._lazy.cuts(assignment)
            if not cuts:
                return status
            self._add_clauses(Groups.of(cuts))
            self._solution = None

    def _check_once(self, assumptions: Sequence[int], time_limit: float | None) -> Status:
        cp_model = self.cp_model
        self._assumed = [int(a) for a in assumptions]
        self._solution, self._core = None, []
        if self._assumed:
            self.top = max(self.top, max(abs(a) for a in self._assumed))
            self._grow(self.top)
            self.m.add_assumptions(self._lits(self._assumed))
        proto = self.m.proto
        size = len(proto.variables) + len(proto.constraints) + self._table_cells
        kill_at = None if size < CHILD_MIN_SIZE else \
            hard_deadline(time_limit, always=size >= CHILD_ALWAYS_SIZE)
        try:
            code = cp_model.UNKNOWN
            if size <= QUICK_MAX_SIZE and kill_at is None and self.workers == 0 and (
                    time_limit is None or time_limit > 2 * QUICK_S):  # workers: the user's
                quick = self._new_solver(QUICK_S, 1)
                code = quick.solve(self.m)
                if code == cp_model.FEASIBLE and self._optimising:
                    code = cp_model.UNKNOWN  # not proved optimal: the full solve goes on
                if code != cp_model.UNKNOWN:
                    solution, core = _answer(cp_model, quick, code)
                elif time_limit is not None:
                    time_limit -= quick.wall_time
            if code != cp_model.UNKNOWN:
                pass  # the quick attempt decided
            elif kill_at is not None:
                code, solution, core = self._solve_in_child(
                    self._new_solver(time_limit, self.workers), kill_at)
            else:
                solver = self._new_solver(time_limit, self.workers)
                code = self._solve(solver)
                solution, core = _answer(cp_model, solver, code)
        finally:
            if self._assumed:
                self.m.clear_assumptions()
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the model: {self.m.validate()}")
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            self._solution = solution
            self.optimal = code == cp_model.OPTIMAL and self._optimising and not self._assumed \
                and self._exact
            return Status.SAT
        if code == cp_model.INFEASIBLE:
            if self._assumed:
                index = {b.index: a for a, b in zip(self._assumed, self._lits(self._assumed),
                                                    strict=True)}
                self._core = [index[i] for i in core if i in index] or list(self._assumed)
            return Status.UNSAT
        return Status.UNKNOWN

    def _solve_in_child(self, solver: Any, kill_at: float) -> tuple[int, Any, list[int]]:
        """:meth:`_solve` in a forked child, killed at ``kill_at`` if still running:
        (status code, solution, core). Killed, it is UNKNOWN."""
        cp_model = self.cp_model

        def work(send: Any) -> None:
            code = solver.solve(self.m)
            send(("answer", int(code), *_answer(cp_model, solver, code)))

        for _, code, solution, core in child_messages(work, kill_at):
            return code, solution, core
        return cp_model.UNKNOWN, None, []

    def values(self) -> np.ndarray:
        if self._solution is None:
            raise RuntimeError("values() needs a SAT check first")
        return self._solution[self.bools.index[self.user]] > 0

    def core(self) -> list[int]:
        return list(self._core)

    def int_values(self) -> np.ndarray | None:
        if not len(self.user_ints):
            return None
        if self._solution is None:
            raise RuntimeError("int_values() needs a SAT check first")
        return self._solution[self.xs.index[self.user_ints]]

    def block(self, values: np.ndarray, ints: np.ndarray | None) -> None:
        if ints is None:
            super().block(values, ints)
            return
        scope = self._user_list() + [self.xs[k] for k in self.user_ints.tolist()]
        self.m.add_forbidden_assignments(scope, [values.astype(int).tolist() + ints.tolist()])

    def _solutions(self, limit: int | None, deadline: float | None,
                   enum: Enumeration) -> Iterator[Result]:
        # One or two answers (a first solution, uniqueness): full solves, each answer
        # blocked before the next; CP-SAT's enumeration runs one worker without its full
        # presolve (a 10x10 Nurikabe decided in 12 s that way, 0.37 s this way).
        # Lazy records: each solution checked, so no stream of CP-SAT's own.
        if (limit is not None and limit <= 2) or not (self.pure or self.dedupe) or self._lazy:
            yield from super()._solutions(limit, deadline, enum)
            return
        found = yield from self._stream(limit, deadline, enum)
        if found is None:
            return
        # Too many assignments per answer: block the answers listed and solve again.
        for values, ints in found:
            self.block(values, ints)
        yield from self._more(None if limit is None else limit - len(found), deadline, enum)

    def _stream(self, limit: int | None, deadline: float | None,
                enum: Enumeration) -> Iterator[Result]:
        """CP-SAT's enumeration in a thread, its solutions handed over as they come.

        An impure model's assignments repeat answers: each is listed once, and after more
        repeats than DEDUPE_REPEATS allows, the stream stops and returns the answers it
        listed (None when it ended otherwise)."""
        cp_model = self.cp_model
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        distinct = not self.pure
        seen: set[bytes] = set()
        listed: list[tuple[np.ndarray, np.ndarray | None]] = []
        repeats = 0
        solver = self._new_solver(left, 1)
        solver.parameters.enumerate_all_solutions = True
        inbox: queue.Queue = queue.Queue(maxsize=STREAM_QUEUE)
        user = self._user_list()
        user_ints = [self.xs[k] for k in self.user_ints.tolist()]
        closing = threading.Event()

        class Collector(cp_model.CpSolverSolutionCallback):
            found = 0

            def on_solution_callback(self) -> None:
                if closing.is_set():
                    self.stop_search()
                    return
                values = np.fromiter((self.boolean_value(v) for v in user), dtype=bool,
                                     count=len(user))
                ints = np.fromiter((self.value(x) for x in user_ints), dtype=np.int64,
                                   count=len(user_ints)) if user_ints else None
                inbox.put(("sol", (values, ints)))
                self.found += 1
                if not distinct and limit is not None and self.found >= limit:
                    self.stop_search()

        collector = Collector()

        def run() -> None:
            try:
                inbox.put(("end", solver.solve(self.m, collector)))
            except BaseException as exc:  # handed to the reader
                inbox.put(("error", exc))

        t0 = time.perf_counter()
        thread = threading.Thread(target=run, name="cpsat-enumeration", daemon=True)
        thread.start()
        n = 0
        try:
            while True:
                kind, payload = inbox.get()
                if kind == "sol":
                    if distinct:
                        key = answer_key(*payload)
                        if key in seen:
                            repeats += 1
                            if repeats > DEDUPE_REPEATS[0] + DEDUPE_REPEATS[1] * len(seen):
                                return listed
                            continue
                        seen.add(key)
                        listed.append(payload)
                    n += 1
                    self.stats.solve_time = time.perf_counter() - t0
                    yield Result(Status.SAT, payload[0], self.stats, ints=payload[1])
                    if distinct and limit is not None and n >= limit:
                        return None
                    continue
                if kind == "error":
                    raise payload
                if payload == cp_model.MODEL_INVALID:
                    raise RuntimeError(f"CP-SAT rejected the model: {self.m.validate()}")
                stopped_by_limit = limit is not None and n >= limit
                enum.complete = payload in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and \
                    not stopped_by_limit
                return None
        finally:
            self.stats.solve_time = time.perf_counter() - t0
            if thread.is_alive():
                closing.set()
                solver.stop_search()
                while thread.is_alive():  # unblock a callback waiting on a full queue
                    try:
                        inbox.get(timeout=0.05)
                    except queue.Empty:
                        pass
                thread.join()


def _answer(cp_model: Any, solver: Any, code: int) -> tuple[np.ndarray | None, list[int]]:
    """What a check keeps of a finished solve: the solution (proto values by variable
    index) when there is one, and the assumptions that sufficed for infeasibility."""
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return np.asarray(solver.response_proto.solution, dtype=np.int64), []
    if code == cp_model.INFEASIBLE:
        return None, list(solver.sufficient_assumptions_for_infeasibility())
    return None, []
