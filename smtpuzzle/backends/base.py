"""The interface every back end follows, and the loops written once on top of it.

A :class:`Backend` states its :class:`Capabilities` and opens a :class:`Session` on a model:
one solver, compiled once (timed as build), that takes more constraints (``add_*``) and
answers checks (``check``, ``values``, ``core``). Every loop that talks to a solver more
than once is a client of the session: enumeration by blocking clauses and the guided search
for a first solution live here, the maze CEGAR loop and the frames lazy loop in their
puzzle packages. Puzzle code asks capabilities and the back end's own estimates (build
time, memory), never a back end's name or type; it names one only to pick a default. Two
uses go past the interface on purpose: the frames stages that list covers drive the
exact-cover engine's resumable search (exactcover.CoverSearch) for its speed, and the maze
certificate check derives its lemmas with rup.py.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Cmp, Groups, Model, require_model
from smtpuzzle.model.groups import literal_array, refuse_zero
from smtpuzzle.result import Enumeration, Result, SolutionCount, Stats, Status
from smtpuzzle.runtime.build_alarm import BuildTimedOut, build_alarm
from smtpuzzle.runtime.checks import checked_limit, checked_time_limit, deadline_for, time_left


@dataclass(frozen=True)
class Capabilities:
    """What a back end can do, for the code that drives it."""

    incremental: bool = False  # a session keeps what the solver learnt between checks
    guided: bool = False  # the first search assumes the model's hints (see guided())
    any_constraint: bool = True  # takes every constraint kind (exact cover: covers only)
    optimises: bool = False  # finds an optimum of the model's objective itself
    bounds: bool = False  # a session bounds an answer integer by a literal it assumes
    # (Session.at_most), so an objective is bisected in one session
    resumable: bool = False  # a count stops with its search state and resumes from it


@dataclass
class PartialCount:
    """A count for a while (Backend.count_part): the solutions so far, whether the search is
    over, and where it stopped: ``state`` (arrays, for ``count_part(state=...)``) and an
    estimate of the part of the search done, ``share`` in [0, 1]."""

    count: int
    done: bool
    state: dict[str, np.ndarray] | None
    share: float
    nodes: int = 0


class Session(ABC):
    """One open solver on one model. Variables beyond the model's come from
    :meth:`new_vars`, which the session shares with its own encodings. With an objective,
    a check of a back end whose capabilities say ``optimises`` looks for the optimum (and
    sets ``optimal`` once it is proved); on the others a check finds any solution and
    ``optimal`` stays False (``Backend.solve`` bisects on the objective there)."""

    capabilities = Capabilities()
    _closed = False

    def __init__(self, user: np.ndarray, num_vars: int, stats: Stats,
                 hints: np.ndarray | None = None, user_ints: np.ndarray | None = None) -> None:
        self.user = np.asarray(user, dtype=np.int64)
        # The answer integers (Model.int_array), told apart by value like the user booleans.
        self.user_ints = np.zeros(0, dtype=np.int64) if user_ints is None else user_ints
        self.top = num_vars
        self.stats = stats
        self.hints = hints
        self.setup_s = 0.0  # time spent loading a solver after opening (counted as build time)
        self._assumed: list[int] = []
        # The last SAT check found a proved optimum of the objective: one checked without
        # assumptions (under assumptions it is only the best of what they leave).
        self.optimal = False
        self._optimising = False  # the back end optimises the model's objective itself

    # -- adding ------------------------------------------------------------------------------

    def new_vars(self, n: int) -> np.ndarray:
        """``n`` fresh variables, free for the caller's constraints."""
        ids = np.arange(self.top + 1, self.top + n + 1, dtype=np.int64)
        self.top += n
        return ids

    def add_clauses(self, groups: Any) -> None:
        """Each group: at least one literal true."""
        g = self._groups(groups)
        if len(g.flat):
            self.top = max(self.top, int(np.abs(g.flat).max()))
        if len(g):
            self._add_clauses(g)

    def add_units(self, literals: Any) -> None:
        """Each literal true."""
        self.add_clauses(np.asarray(literals, dtype=np.int64).reshape(-1, 1))

    def add_cardinality(self, groups: Any, cmp: str | Cmp, bounds: Any) -> None:
        """``sum(group) cmp bound`` per group."""
        g = self._groups(groups)
        if len(g.flat):
            self.top = max(self.top, int(np.abs(g.flat).max()))
        b = np.broadcast_to(np.asarray(bounds, dtype=np.int64), (len(g),)).copy()
        self._add_cardinality(g, Cmp(cmp), b)

    def add_exactly_one(self, groups: Any) -> None:
        self.add_cardinality(groups, Cmp.EQ, 1)

    def add_at_most_one(self, groups: Any) -> None:
        self.add_cardinality(groups, Cmp.LE, 1)

    def _groups(self, groups: Any) -> Groups:
        """Groups to add, once the session is open and no literal is 0 (past the top, a
        literal is a new variable, as in the solvers)."""
        self._usable()
        g = Groups.of(groups)
        refuse_zero(g.flat)
        return g

    @abstractmethod
    def _add_clauses(self, groups: Groups) -> None: ...

    @abstractmethod
    def _add_cardinality(self, groups: Groups, cmp: Cmp, bounds: np.ndarray) -> None: ...

    # -- checking ----------------------------------------------------------------------------

    def check(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        """SAT, UNSAT (under the assumptions) or UNKNOWN (time limit)."""
        self._usable()
        time_limit = checked_time_limit(time_limit)
        lits = literal_array(list(assumptions) if not isinstance(assumptions, np.ndarray)
                             else assumptions).reshape(-1)
        if lits.size and (not lits.all() or np.abs(lits).max() > self.top):
            bad = int(lits[(lits == 0) | (np.abs(lits) > self.top)][0])
            raise ValueError(f"assumption {bad} is no literal of this session's {self.top} "
                             "variables")
        return self._check(lits.tolist(), time_limit)

    @abstractmethod
    def _check(self, assumptions: Sequence[int], time_limit: float | None) -> Status: ...

    @abstractmethod
    def values(self) -> np.ndarray:
        """The user variables' values (bool array) after a SAT check."""

    def core(self) -> list[int]:
        """After an UNSAT check: assumptions that together cannot hold (all of them, where
        the solver names no smaller set)."""
        return list(self._assumed)

    def int_values(self) -> np.ndarray | None:
        """The answer integers' values after a SAT check (None when there are none)."""
        if len(self.user_ints):
            raise NotImplementedError(f"{self.stats.backend} has no integers")
        return None

    def at_most(self, i: int, c: int) -> int:
        """A literal that, assumed, holds answer integer i at c or below (back ends whose
        capabilities say ``bounds``)."""
        raise NotImplementedError(f"{self.stats.backend} does not bound its integers")

    def block(self, values: np.ndarray, ints: np.ndarray | None) -> None:
        """Exclude this answer (its booleans and integers) from now on."""
        self.add_clauses([self.blocking(values)])

    def _answer(self) -> Result:
        return Result(Status.SAT, self.values(), self.stats, self.int_values(),
                      optimal=self.optimal)

    def close(self) -> None:
        """Release the solver (a child process, a context); the session takes no more
        constraints or checks. Closing twice does nothing more."""
        if not self._closed:
            self._closed = True
            self._close()

    def _close(self) -> None:
        self._assumed = []

    def _usable(self) -> None:
        if self._closed:
            raise RuntimeError(f"this {self.stats.backend} session is closed")

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- loops on the session ----------------------------------------------------------------

    def first(self, time_limit: float | None = None) -> Status:
        """Look for a solution, guided by the hints where this back end takes them. With
        an objective the check is never guided: assumed hints would bound the optimum's
        search to what they leave, and hints never change an answer."""
        time_limit = checked_time_limit(time_limit)
        if self.hints is None or not len(self.hints) or not self.capabilities.guided \
                or self._optimising:
            return self.check(time_limit=time_limit)
        deadline = deadline_for(time_limit)

        def attempt(assumed: list[int]) -> tuple[Status, list[int]]:
            left = time_left(deadline)
            if left is not None and left <= 0:
                return Status.UNKNOWN, []
            status = self.check(assumed, left)
            return status, self.core() if status is Status.UNSAT else []

        return guided(attempt, self.hints.tolist())

    def solutions(self, limit: int | None = None,
                  time_limit: float | None = None) -> Enumeration:
        """Distinct solutions on the user variables, each blocked once found; ``complete``
        is set when the search ended rather than stopped at the limit or the time."""
        limit, time_limit = checked_limit(limit), checked_time_limit(time_limit)
        enum = Enumeration(iter(()), self.stats)
        if limit != 0:
            enum._gen = self._solutions(limit, deadline_for(time_limit), enum)
        return enum

    def _solutions(self, limit: int | None, deadline: float | None,
                   enum: Enumeration) -> Iterator[Result]:
        if limit is not None and limit <= 0:
            return
        status = self._timed(lambda: self.first(time_left(deadline)), deadline)
        if status is not Status.SAT:
            enum.complete = status is Status.UNSAT
            return
        first = self._answer()
        self.block(first.values, first.ints)
        # Started before the first solution is handed out: a back end that searches in
        # another process goes on while the caller looks at it.
        rest = None if limit == 1 else self._more(None if limit is None else limit - 1,
                                                  deadline, enum)
        yield first
        if rest is None:
            return
        yield from rest

    def _more(self, limit: int | None, deadline: float | None,
              enum: Enumeration) -> Iterator[Result]:
        """The solutions after the first (which is blocked already)."""
        seen: set[bytes] = set()
        while limit is None or len(seen) < limit:
            status = self._timed(lambda: self.check(time_limit=time_left(deadline)), deadline)
            if status is not Status.SAT:
                enum.complete = status is Status.UNSAT
                return
            found = self._answer()
            key = answer_key(found.values, found.ints)
            if key in seen:
                raise RuntimeError(f"{self.stats.backend} returned the same solution twice")
            seen.add(key)
            self.block(found.values, found.ints)
            yield found

    def _timed(self, check: Callable[[], Status], deadline: float | None) -> Status:
        """``check()``, its time added to the solve time (less any set-up it did, such as
        loading a solver, which the session counts as build time)."""
        if deadline is not None and deadline - time.perf_counter() <= 0:
            return Status.UNKNOWN
        t0, setup0 = time.perf_counter(), self.setup_s
        try:
            return check()
        finally:
            self.stats.solve_time += time.perf_counter() - t0 - (self.setup_s - setup0)

    def blocking(self, values: np.ndarray) -> np.ndarray:
        """The clause that excludes exactly this projection of the user variables."""
        return np.where(values, -self.user, self.user)


def answer_key(values: np.ndarray, ints: np.ndarray | None) -> bytes:
    """One answer (its booleans and integers) as bytes: equal answers, equal keys."""
    return np.packbits(values).tobytes() + (b"" if ints is None else ints.tobytes())


@dataclass(frozen=True)
class BuildCost:
    """Microseconds per clause, per clause literal, per literal of a group (exactly-one,
    at-most-one, cardinality), per implication, per automaton step (a word's literal times
    the automaton's transitions), per boolean variable, per integer, integer constraint
    row or channel, and per term of an integer constraint (a table's cell)."""

    clause: float
    clause_literal: float
    group_literal: float
    implication: float
    automaton_step: float
    variable: float
    int_row: float
    int_term: float


class Backend(ABC):
    """``open`` a session on a model; ``solve`` finds one solution or proves there is none;
    ``solutions`` enumerates (streamed)."""

    name: str = "?"
    capabilities = Capabilities()
    # The constraint kinds (model/kinds.py) this back end takes as they are; the model's
    # other kinds are lowered into these, or refused.
    takes: frozenset[str] = frozenset()
    # What a build in this process costs, for a back end that builds through its Python API
    # here, where the build cannot be stopped (None: a back end whose build stops at the
    # deadline, build_stops, or takes no time worth guarding). Fitted on nonogram and tiling
    # models on the 2-core development machine (bench/RESULTS.md, "Hardening (issue 23)"),
    # the variable, integer and group costs on frames stage-2 models (measured; bench/history/): an
    # estimate, not a promise.
    build_cost: BuildCost | None = None
    build_stops = False  # its build may be stopped at the deadline (build_alarm.py)
    # Memory per (row, item) incidence of a cover model: N x N boards of tetrominoes,
    # N = 256 and 384 (bench/RESULTS.md, "The largest model each back end handled").
    bytes_per_incidence: int = 1500

    # Solver parameters by name (set_params), applied to every solve of this back end.
    params: dict[str, Any] = {}  # noqa: RUF012  (replaced, never changed in place)

    def label(self) -> str:
        return self.name

    def set_params(self, params: dict[str, Any]) -> Backend:
        """Pass ``params`` (names of the solver's own parameters, with ``workers`` and
        ``seed`` for the usual two) to its solves; an unknown name or a bad value is a
        PuzzleError. One more is this project's own: ``connectivity="eager"`` (or
        ``"lazy"``, where the back end checks connected sets on each solution, its
        default) chooses how connected sets reach the solver. Returns this back end."""
        params = dict(params)
        if "connectivity" in params:
            self._set_connectivity(params.pop("connectivity"))
        if params:
            self.params = self.checked_params(params)
        return self

    def _set_connectivity(self, how: Any) -> None:
        from smtpuzzle.model.kinds import lazy_kinds

        lazy = lazy_kinds()
        if how == "eager":
            self.takes = self.takes - lazy
        elif how != "lazy" or not lazy <= self.takes:
            ways = "'eager' or 'lazy'" if lazy <= self.takes else "'eager' only"
            raise PuzzleError(f"the {self.name} back end's connectivity is {ways}, not "
                              f"{how!r}")

    def checked_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """``params`` as the solver names them, checked (this one takes none)."""
        raise PuzzleError(f"the {self.name} back end takes no solver parameters (got "
                          f"{', '.join(params)})")

    def build_seconds(self, model: Model) -> float:
        """The estimated time to build ``model`` in this process (0 when it builds
        elsewhere)."""
        cost = self.build_cost
        if cost is None:
            return 0.0
        groups = [*model.exactly_one, *model.at_most_one,
                  *(c.groups for c in model.cardinalities)]
        ints = model.ints
        micro = (cost.clause * sum(len(g) for g in model.clauses)
                 + cost.clause_literal * sum(len(g.flat) for g in model.clauses)
                 + cost.group_literal * sum(len(g.flat) for g in groups)
                 + cost.implication * sum(len(i) for i in model.implications)
                 + cost.automaton_step * sum(len(a.literals) * len(a.transitions)
                                             for a in model.automata)
                 + cost.variable * model.num_vars
                 + cost.int_row * (ints.count + ints.num_constraints()
                                   + sum(len(e) for e in ints.eq_ints))
                 + cost.int_term * ints.num_terms())
        return micro / 1e6

    def too_slow_to_build(self, model: Model, left: float | None) -> str | None:
        """Why this back end should not start building ``model`` with ``left`` seconds of
        the time limit to go (None when it may): a build through a Python API here cannot
        be stopped, so a model its estimate says would overrun is not begun at all."""
        if left is None or self.build_stops:
            return None
        need = self.build_seconds(model)
        if need <= left:
            return None
        return (f"not started: {self.name} would take about {need:.0f} s to build this model "
                f"in this process, and {max(left, 0):.1f} s of the time limit were left (give "
                "more time, or the sat back end, whose build stops at the time limit)")

    def cover_bytes(self, rows: int, items: int, incidences: int) -> float:
        """The estimated memory to hold a cover model: ``rows`` choices (placements) over
        ``items`` (cells), with ``incidences`` (row, item) pairs in all."""
        return incidences * self.bytes_per_incidence

    @abstractmethod
    def _open(self, model: Model, stats: Stats) -> Session:
        """Compile ``model``; ``stats`` gets the build time and sizes."""

    def open(self, model: Model) -> Session:
        """A session on ``model`` (a context manager: close it when done)."""
        require_model(model, f"{self.name}.open")
        return self._open(model, Stats(self.label()))

    def optimises(self, model: Model) -> bool:
        """Whether this back end finds ``model``'s optimum itself, exactly (else ``solve``
        bisects on the objective's bound with linear rows)."""
        return self.capabilities.optimises

    def solve(self, model: Model, time_limit: float | None = None) -> Result:
        """One solution, or proof there is none; with an objective, the best solution (found
        natively by back ends that optimise, else by bisection on its bound)."""
        require_model(model, f"{self.name}.solve")
        time_limit = checked_time_limit(time_limit)
        if model.ints.objective is not None and not self.optimises(model):
            if not self.capabilities.any_constraint:  # the bound's linear constraint
                raise PuzzleError(f"{self.name} cannot optimise: the model's objective needs "
                                 "a back end that takes any constraint (cpsat, z3, sat)")
            from smtpuzzle.backends.optimum import search_optimum

            return search_optimum(self, model, time_limit)
        deadline = deadline_for(time_limit)
        session = self.open_in_time(model, deadline)
        if isinstance(session, Result):  # out of time before the solver had the model
            return session
        with session:
            status = session._timed(lambda: session.first(time_left(deadline)), deadline)
            if status is Status.SAT:
                return session._answer()
            return Result(status, None, session.stats)

    def open_in_time(self, model: Model, deadline: float | None) -> Session | Result:
        """A session on ``model``, or an unknown Result saying why when its build would not
        (by the estimate) or did not end before ``deadline`` (a ``time.perf_counter()``
        value; None: no limit)."""
        too_slow = self.too_slow_to_build(model, time_left(deadline))
        if too_slow is not None:
            return Result(Status.UNKNOWN, None, _out_of_time(Stats(self.label()), too_slow))
        try:
            with build_alarm(deadline if self.build_stops else None):
                return self.open(model)
        except BuildTimedOut:
            return Result(Status.UNKNOWN, None, _out_of_time(Stats(self.label())))

    def solutions(self, model: Model, limit: int | None = None,
                  time_limit: float | None = None) -> Enumeration:
        """The solutions of the constraints, streamed. An objective plays no part: every
        solution is listed, not only the optimal ones."""
        require_model(model, f"{self.name}.solutions")
        limit, time_limit = checked_limit(limit), checked_time_limit(time_limit)
        if model.ints.objective is not None:
            model = model.copy()
            model.ints.objective = None
        stats = Stats(self.label())
        enum = Enumeration(iter(()), stats)
        enum._gen = self._enumerate(model, limit, deadline_for(time_limit), enum)
        return enum

    def count(self, model: Model, time_limit: float | None = None,
              progress: Callable[[int], None] | None = None) -> SolutionCount:
        """Count the solutions (on the user variables). Back ends whose capabilities say
        ``counts`` do it without listing them."""
        enum = self.solutions(model, time_limit=time_limit)
        n = 0
        for _ in enum:
            n += 1
            if progress:
                progress(n)
        return SolutionCount(n, enum.complete)

    def count_part(self, model: Model, state: dict[str, np.ndarray] | None = None,
                   time_limit: float | None = None,
                   progress: Callable[[int], None] | None = None) -> PartialCount:
        """SolutionCount for at most ``time_limit`` seconds, from ``state`` (a PartialCount's) if
        given. Back ends that are not ``resumable`` take no state and start over each time."""
        if state is not None:
            raise ValueError(f"{self.name} cannot resume a count")
        n, complete = self.count(model, time_limit, progress)
        return PartialCount(n, complete, None, 1.0 if complete else 0.0)

    def _enumerate(self, model: Model, limit: int | None, deadline: float | None,
                   enum: Enumeration) -> Iterator[Result]:
        too_slow = self.too_slow_to_build(model, time_left(deadline))
        try:
            if too_slow is not None:
                raise BuildTimedOut
            with build_alarm(deadline if self.build_stops else None):
                session = self._open(model, enum.stats)
        except BuildTimedOut:
            _out_of_time(enum.stats, too_slow)
            enum.complete = False
            return
        with session:
            inner = session.solutions(limit, time_left(deadline))
            try:
                yield from inner
            finally:
                enum.complete = inner.complete


HINTS_KEPT = 0.75  # after a failed guess, the share of the surviving hints assumed again


def guided(attempt: Callable[[list[int]], tuple[Status, Collection[int]]],
           hints: Sequence[int]) -> Status:
    """Search assuming the hints (Model.hints), then fewer and fewer of them.

    ``attempt(assumed)`` solves under the assumed literals and returns the status and,
    when UNSAT, the assumed literals it blames (the core). Those are given up, with the
    least confident quarter of the rest, and the search runs again. UNSAT counts only
    with an empty core or nothing assumed, so the answer is always the model's own."""
    assumed = list(hints)
    while assumed:
        status, core = attempt(assumed)
        if status is not Status.UNSAT:
            return status
        if not core:
            return Status.UNSAT
        blamed = set(core)
        kept = [a for a in assumed if a not in blamed]
        assumed = kept[: int(len(kept) * HINTS_KEPT)]
    return attempt([])[0]


def _out_of_time(stats: Stats, why: str | None = None) -> Stats:
    stats.extra["stopped"] = why or "the time limit came while the model was being built"
    return stats
