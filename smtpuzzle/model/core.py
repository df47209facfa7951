"""The backend-neutral model: boolean variables, finite-domain integers and constraints.

Variables are numbered 1..n and literals are signed variable numbers, as in DIMACS.
Constraints are stored per kind as :class:`Groups` (literal lists in CSR form: one flat
numpy array and offsets), so a model with millions of literals is built with a handful of
vectorised operations. Every model names its *user* variables; solutions are projected on
them, blocked on them and counted on them, never on auxiliary variables.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from smtpuzzle.model import solving
from smtpuzzle.model.expr import (
    BoolArray,
    IntArray,
    as_lin,
    automaton,
    flatten_constraints,
    usable,
    whole,
)
from smtpuzzle.model.groups import Groups, literal_array, refuse_zero
from smtpuzzle.model.ints import (
    RECORDS,
    Cmp,
    IntPart,
    Objective,
)
from smtpuzzle.result import Status
from smtpuzzle.runtime.memory import SMALL, check_fits_in_memory

if TYPE_CHECKING:
    from smtpuzzle.result import SolutionCount

LitArray = np.ndarray


def checked_name(name: Any) -> str:
    """``name``, once it is one: printable text, not empty, no space at either end (a name
    is written on a line of its own in DIMACS and read back)."""
    if not isinstance(name, str):
        raise TypeError(f"a variable's name is a str, not {name!r}")
    if not name or not name.isprintable() or name != name.strip():
        raise ValueError(f"a variable's name is printable text with no space at either "
                         f"end, not {name[:60]!r}")
    return name


class _IndexNames(Sequence[str]):
    """Names like ``x[2,3]`` (and ``x[2,3]=5`` with values), made when asked for: a model
    with a million answer literals does not build a million strings."""

    def __init__(self, name: str, shape: tuple[int, ...], values: np.ndarray | None = None):
        self.name, self.shape = checked_name(name), shape
        self.values = values
        self.n = int(np.prod(shape, dtype=np.int64)) * (1 if values is None else len(values))

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        k = 1 if self.values is None else len(self.values)
        cell, v = divmod(i, k)
        index = ",".join(map(str, np.unravel_index(cell, self.shape))) if self.shape else ""
        text = f"{self.name}[{index}]"
        return text if self.values is None else f"{text}={self.values[v]}"



class WeightedSum(NamedTuple):
    """``sum(weights * literals) <cmp> bound`` (cmp LE or GE): a record of the weighted kind."""

    literals: np.ndarray
    weights: np.ndarray
    cmp: Cmp
    bound: int


@dataclass
class Cardinality:
    """``sum(literals) <cmp> bound`` for every group; bounds per group."""

    groups: Groups
    cmp: Cmp
    bounds: np.ndarray


@dataclass
class Automaton:
    """The word ``literals[0] .. literals[-1]`` (label 1 = true, 0 = false) is accepted by a
    deterministic automaton: ``transitions`` rows are (state, label, next state); a missing
    transition rejects. Back ends without a native automaton have it unrolled into clauses
    (model/kinds.py)."""

    literals: np.ndarray
    transitions: np.ndarray
    start: int
    finals: np.ndarray


@dataclass
class Model:
    """A puzzle compiled to variables and constraints, independent of any back end."""

    name: str = "model"
    num_vars: int = 0
    clauses: list[Groups] = field(default_factory=list, metadata=RECORDS)
    exactly_one: list[Groups] = field(default_factory=list, metadata=RECORDS)
    at_most_one: list[Groups] = field(default_factory=list, metadata=RECORDS)
    cardinalities: list[Cardinality] = field(default_factory=list, metadata=RECORDS)
    implications: list[np.ndarray] = field(default_factory=list, metadata=RECORDS)
    automata: list[Automaton] = field(default_factory=list, metadata=RECORDS)
    # Weighted sums of literals, from decomposed integers only (model/lower.py); CNF encodes
    # them as pseudo-booleans.
    weighted: list[WeightedSum] = field(default_factory=list, metadata=RECORDS)
    # Optional hint: pairs of neighbouring cells, as indices into the cell groups (the
    # exactly-one groups, then the at-most-one groups, in order). Search back ends use it to
    # spot regions that no row can fill; solvers ignore it.
    cell_adjacency: np.ndarray | None = None
    # Optional guesses: literals, most confident first, that a back end may assume while
    # it looks for a first solution, giving up those a conflict blames. They never change
    # an answer, only how soon it comes. The sat and z3 back ends use them (CP-SAT's
    # solution hints did not help: faase stayed undecided after 120 s with them).
    hints: np.ndarray | None = None
    # Optional fact: the linear relaxation decides most of this model at the root (a set
    # partitioning cube, frames/cubes.py). A back end with an LP may then lean on it (CP-SAT
    # keeps its LP at every node and skips presolve, 30x faster on such models); others
    # ignore it.
    relaxation_decides: bool = False
    ints: IntPart = field(default_factory=IntPart)  # bounded integers (see model/ints.py)
    # The records of the constraint kinds registered without a field of their own
    # (model/kinds.py), by kind.
    parts: dict[str, list[Any]] = field(default_factory=dict)
    # After the integers are decomposed (model/lower.py): where the answer integers'
    # literals sit among the last user variables (a lower.IntAnswer).
    int_answer: Any = None
    _user_vars: list[np.ndarray] = field(default_factory=list)
    _user_names: list[Sequence[str]] = field(default_factory=list)
    # The last back end's answer on this model (a Result), which ``x.value()`` reads; the
    # model holds no other solving state.
    _answer: Any = field(default=None, repr=False)
    # This model's own token, and per related model's token the variables (booleans,
    # integers) both hold: those made before they parted by copy(). Ids past that mean
    # different variables in each (and in an unrelated model, all of them), so a
    # constraint that uses them is refused.
    # Named groups of constraints (add(..., name=)): per name, where its records lie, as
    # (list, start, end) slices of the record lists (``records_of``), for explain().
    _named: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict, repr=False)
    _naming: bool = field(default=False, repr=False)  # posting a named group now
    _node: object = field(default_factory=object, repr=False, compare=False)
    _shared: dict[object, tuple[int, int]] = field(default_factory=dict, repr=False,
                                                   compare=False)

    def __str__(self) -> str:
        """The model in a few lines: its variables, and its constraints by kind."""
        from smtpuzzle.model.kinds import KINDS  # the table of kinds is built on Model

        lines = [f"Model {self.name!r}: {self.num_vars:,} booleans "
                 f"({len(self.user_vars):,} answers), {self.ints.count:,} integers "
                 f"({len(self.ints.user_ints()):,} answers)"]
        for kind in KINDS.values():
            if n := kind.constraints(self):
                lines.append(f"  {kind.name}: {n:,}")
        if (obj := self.ints.objective) is not None:
            sense = "minimise" if obj.sense == "min" else "maximise"
            lines.append(f"  objective: {sense} a sum of {len(obj.ints) + len(obj.bools):,} "
                         "terms")
        if self._named:
            lines.append(f"  named groups: {', '.join(self._named)}")
        return "\n".join(lines)

    # -- variables -------------------------------------------------------------------------

    def new_bools(self, n: int, user: bool = False, names: Sequence[str] | None = None) -> LitArray:
        """``n`` fresh boolean variables; user variables need names (any sequence of str)."""
        if not isinstance(n, int | np.integer) or isinstance(n, bool):
            raise TypeError(f"a number of variables is a whole number, not {n!r}")
        n = int(n)
        if n < 0:
            raise ValueError(f"cannot make {n} variables")
        if 8 * n >= SMALL:  # (a look at the memory costs more than a small array)
            check_fits_in_memory(8 * n, f"{n:,} variables")  # the ids, before any constraint
        if user and (names is None or len(names) != n):
            raise ValueError("user variables need one name each")
        if user and isinstance(names, list | tuple):  # not lazy ones: made, they are checked
            names = [checked_name(name) for name in names]
        ids = np.arange(self.num_vars + 1, self.num_vars + n + 1, dtype=np.int64)
        self.num_vars += n
        if user:
            self._user_vars.append(ids)
            self._user_names.append(names)
        return ids

    @property
    def user_vars(self) -> np.ndarray:
        if not self._user_vars:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate(self._user_vars)

    def user_names(self) -> list[str]:
        return [n for names in self._user_names for n in names]

    # -- constraints -----------------------------------------------------------------------

    def add_clauses(self, groups: Any) -> None:
        """Each group: at least one literal true (a clause)."""
        self.clauses.append(self._groups(groups))

    add_at_least_one = add_clauses

    def add_false(self) -> None:
        """The empty clause: the model has no solution."""
        self.clauses.append(Groups(np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64)))

    def add_exactly_one(self, groups: Any) -> None:
        self.exactly_one.append(self._groups(groups))

    def add_at_most_one(self, groups: Any) -> None:
        self.at_most_one.append(self._groups(groups))

    def add_cardinality(self, groups: Any, cmp: str | Cmp, bounds: Any) -> None:
        """``sum(group) cmp bound`` per group; ``bounds`` is one number or one per group."""
        g = self._groups(groups)
        cmp = Cmp(cmp)
        try:
            b = whole(bounds, "cardinality bounds")
        except ValueError:  # past +-2**53: what size + 1 (or -1) means, so clipped
            b = whole(np.clip(np.asarray(bounds, dtype=object), -1, len(g.flat) + 1),
                      "cardinality bounds")
        b = np.broadcast_to(b, (len(g),))
        # A bound outside 0..size is settled here, for every back end alike: a row that no
        # count can meet makes the model unsat, and the rest are clipped into 0..size (what
        # they mean there), so no back end ever reads a negative or oversized bound.
        below, above = b < 0, b > g.sizes
        never = {Cmp.EQ: below | above, Cmp.LE: below, Cmp.GE: above}[cmp]
        if never.any():
            self.add_false()
        self.cardinalities.append(Cardinality(g, cmp, np.clip(b, 0, g.sizes)))

    def add_implications(self, a: Any, b: Any) -> None:
        """Literal ``a[i]`` implies literal ``b[i]`` for every i."""
        pairs = np.stack(np.broadcast_arrays(np.atleast_1d(literal_array(a)),
                                             np.atleast_1d(literal_array(b))), axis=1)
        self.implications.append(self._own(pairs.reshape(-1, 2)))

    def add_automaton(self, literals: Any, transitions: Any, start: int, finals: Any) -> None:
        """The assignment of ``literals``, read as a 0/1 word, is accepted by the
        deterministic automaton: ``transitions`` rows are (state, label, next state), states
        numbered from 0, labels 0 (false) and 1 (true)."""
        edges, first, ends = automaton(transitions, start, finals, "the automaton", (0, 1))
        self.automata.append(Automaton(self._own(literal_array(literals)), edges, first, ends))

    def _groups(self, groups: Any) -> Groups:
        g = Groups.of(groups)
        self._own(g.flat)
        return g

    def _own(self, lits: np.ndarray) -> np.ndarray:
        """``lits``, once each is known to be a literal of this model's variables."""
        refuse_zero(lits)
        if lits.size and np.abs(lits).max() > self.num_vars:
            flat = lits.reshape(-1)
            bad = int(flat[np.abs(flat) > self.num_vars][0])
            raise ValueError(f"literal {bad} is no variable of this model (it has "
                             f"{self.num_vars}: make them with new_bools or bool_array)")
        return lits

    def copy(self) -> Model:
        """An independent copy: constraints or variables added to either one are not seen
        by the other (the immutable groups themselves are shared). The variables made so
        far belong to both: constraints over them may be posted to either. Variables made
        later belong to one (``x.on(copy)`` makes helper variables such as ``b & c`` there)."""
        now = (self.num_vars, self.ints.count)
        shared = {k: (min(v[0], now[0]), min(v[1], now[1])) for k, v in self._shared.items()}
        shared[self._node] = now
        return dataclasses.replace(
            self, _node=object(), _shared=shared, clauses=list(self.clauses),
            exactly_one=list(self.exactly_one), at_most_one=list(self.at_most_one),
            cardinalities=list(self.cardinalities), implications=list(self.implications),
            automata=list(self.automata), weighted=list(self.weighted),
            parts={kind: list(records) for kind, records in self.parts.items()},
            hints=None if self.hints is None else self.hints.copy(), ints=self.ints.copy(),
            _user_vars=list(self._user_vars), _user_names=list(self._user_names),
            _named={name: list(at) for name, at in self._named.items()}, _answer=None)

    def shares(self, other: Model) -> tuple[int, int] | None:
        """The variables this model and ``other`` both hold (booleans 1..b, integers
        0..i-1) as (b, i), or None for unrelated models."""
        if other is self:
            return self.num_vars, self.ints.count
        if other._node in self._shared:
            return self._shared[other._node]
        if self._node in other._shared:
            return other._shared[self._node]
        common = [(self._shared[k], other._shared[k])
                  for k in self._shared.keys() & other._shared.keys()]
        if not common:
            return None
        return (max(min(a[0], b[0]) for a, b in common),
                max(min(a[1], b[1]) for a, b in common))

    def projected(self, variables: np.ndarray, names: Sequence[str]) -> Model:
        """A copy whose user variables are ``variables`` (already in the model) instead:
        back ends then list solutions distinct on these alone (a projected enumeration);
        the answer integers are answers no more."""
        out = self.copy()
        out._user_vars, out._user_names = [np.asarray(variables, dtype=np.int64)], [names]
        out.ints.user = []
        return out

    def with_units(self, literals: Any) -> Model:
        """A copy that also asserts each literal (forces or forbids variables): how a
        search is split into sub-problems that every back end can solve."""
        out = self.copy()
        out.clauses.append(self._groups(literal_array(literals).reshape(-1, 1)))
        return out

    # -- the modelling API: integers, expressions, global constraints ---------------------

    def int_array(self, shape: int | tuple[int, ...], lo: int, hi: int, name: str = "x",
                  user: bool = True) -> IntArray:
        """Integers in ``lo..hi`` in a numpy shape. User integers (the default) are the
        answer: solutions are told apart, counted and shown by their values."""
        shape = _shape(shape, name)
        n = int(np.prod(shape, dtype=np.int64))
        lo, hi = int(whole(lo, f"{name}'s bounds")), int(whole(hi, f"{name}'s bounds"))
        if hi < lo:
            raise ValueError(f"{name}: empty range {lo}..{hi}")
        if 24 * n >= SMALL:
            check_fits_in_memory(24 * n, f"{n:,} integers")  # ids, and bounds in two lists
        first = self.ints.count
        ids = np.arange(first, first + n, dtype=np.int64)
        self.ints.lo.extend([int(lo)] * n)
        self.ints.hi.extend([int(hi)] * n)
        self.ints.far = max(self.ints.far, abs(lo), abs(hi))
        self.ints.names.add(_IndexNames(name, shape))
        if user:
            self.ints.user.append(ids)
        return IntArray(self, ids.reshape(shape))

    def bool_array(self, shape: int | tuple[int, ...], name: str = "b",
                   user: bool = True) -> BoolArray:
        """Booleans in a numpy shape (user ones are part of the answer)."""
        shape = _shape(shape, name)
        n = int(np.prod(shape, dtype=np.int64))
        names = _IndexNames(name, shape) if user else None
        return BoolArray(self, self.new_bools(n, user=user, names=names).reshape(shape))

    def _channel(self, ints: np.ndarray, values: np.ndarray, lits: np.ndarray) -> None:
        self.ints.eq_ints.append(ints)
        self.ints.eq_values.append(values)
        self.ints.eq_lits.append(lits)
        self.ints._eq_cache.update(zip(zip(ints.tolist(), values.tolist(), strict=True),
                                       lits.tolist(), strict=True))

    def eq_literals(self, ints: Any, values: Any) -> np.ndarray:
        """A literal for each "integer == value" (made once, then shared)."""
        ints = np.asarray(ints, dtype=np.int64)
        values = np.broadcast_to(np.asarray(values, dtype=np.int64), ints.shape).reshape(-1)
        ints = ints.reshape(-1)
        cache = self.ints._eq_cache
        out = np.fromiter((cache.get(k, 0) for k in zip(ints.tolist(), values.tolist(),
                                                         strict=True)),
                          dtype=np.int64, count=len(ints))
        missing = np.flatnonzero(out == 0)
        if len(missing):
            pairs = np.unique(np.stack([ints[missing], values[missing]], axis=1), axis=0)
            lits = self.new_bools(len(pairs))
            self._channel(pairs[:, 0].copy(), pairs[:, 1].copy(), lits)
            out[missing] = [cache[k] for k in zip(ints[missing].tolist(),
                                                   values[missing].tolist(), strict=True)]
        return out

    def add(self, *constraints: Any, name: str | None = None) -> None:
        """Post constraints: linear comparisons, ``b.implies(...)``, global constraints
        (AllDifferent, Table, Element, Regular), boolean arrays (each must be true), or any
        nesting of lists and generators of them. With ``name``, they form a named group
        that ``explain()`` may name (a group posted in several calls gathers them all)."""
        if name is None:
            self._post(constraints)
            return
        with self.named(name):
            self._post(constraints)

    @contextlib.contextmanager
    def named(self, name: str) -> Iterator[None]:
        """Everything posted inside the ``with`` block (by ``add`` or the ``add_*`` methods)
        joins the named group ``name``, as ``add(..., name=name)`` does."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"a group's name is a nonempty string, not {name!r}")
        if self._naming:
            raise ValueError("named groups do not nest")
        before = {key: len(records) for key, records in self.records_of().items()}
        self._naming = True  # its bounds become rows, which explain() can take away
        try:
            yield
        finally:
            self._naming = False
            slices = self._named.setdefault(name, [])
            for key, records in self.records_of().items():
                if len(records) > before.get(key, 0):
                    slices.append((key, before.get(key, 0), len(records)))

    def records_of(self) -> dict[str, list[Any]]:
        """Every list of constraint records, by a key (``clauses``, ``ints.linear``,
        ``parts.KIND``): the fields marked as records, and the registered kinds' parts."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
               if f.metadata.get("records")}
        out.update({f"ints.{f.name}": getattr(self.ints, f.name)
                    for f in dataclasses.fields(self.ints) if f.metadata.get("records")})
        out.update({f"parts.{kind}": records for kind, records in self.parts.items()})
        return out

    def without(self, names: Any) -> Model:
        """A copy without the named groups ``names`` (their records taken out)."""
        out = self.copy()
        records = out.records_of()
        drop: dict[str, set[int]] = {}
        for name in names:
            if name not in self._named:
                raise ValueError(f"no group named {name!r} (named: "
                                 f"{', '.join(self._named) or 'none'})")
            for key, start, end in self._named[name]:
                drop.setdefault(key, set()).update(range(start, end))
        for key, gone in drop.items():
            records[key][:] = [r for i, r in enumerate(records[key]) if i not in gone]
        out._named = {}  # the slices no longer hold
        return out

    def explain(self, backend: str = "sat", solver: str | None = None,
                time_limit: float | None = None) -> list[str]:
        """For a model with no solution: the names of a minimal set of its named groups
        that has none together with the unnamed constraints (dropping any one of them
        leaves a solution); [] when the unnamed constraints conflict on their own."""
        return solving.explain(self, backend, solver, time_limit)

    def _post(self, constraints: Any) -> None:
        for c in flatten_constraints(constraints):
            if isinstance(c, bool | np.bool_):
                if not c:
                    self.add_false()
                continue
            usable(self, c)
            if isinstance(c, BoolArray):
                self.add_clauses(c.ids.reshape(-1, 1))
            else:
                c.post(self)

    def minimize(self, expr: Any) -> None:
        """The objective: back ends that optimise (cpsat, z3) find an optimum; sat by
        linear search on the bound."""
        self._objective(expr, "min")

    def maximize(self, expr: Any) -> None:
        self._objective(-as_lin(expr), "max")

    def _objective(self, expr: Any, sense: str) -> None:
        e = as_lin(expr)
        usable(self, e)
        if e.shape != ():
            e = e.sum()
        self.ints.check_magnitude(e.ints[None], e.icoef[None], e.bcoef[None], e.const[None])
        self.ints.objective = Objective(e.ints.copy(), e.icoef.copy(), e.bools.copy(),
                                        e.bcoef.copy(), int(e.const), sense)
        if not (np.isin(e.ints, self.ints.user_ints()).all()
                and np.isin(np.abs(e.bools), self.user_vars).all()):
            # helper variables in it (a Max, a product): an answer integer equal to it
            # gives objective_value() something to read
            low, high = self.ints.objective_range()
            z = self.int_array((), low, high, name="objective")
            self._post([z == e])
            self.ints.objective = Objective(z.ids.reshape(1), np.ones(1, np.int64),
                                            np.zeros(0, np.int64), np.zeros(0, np.int64),
                                            0, sense)

    def objective_value(self) -> int:
        """The objective's value in the last solution found (as the user wrote it: the
        maximised expression's own value for maximize)."""
        obj = self.ints.objective
        if obj is None:
            raise ValueError("the model has no objective (minimize or maximize one)")
        value = int(obj.constant) \
            + int(np.dot(obj.icoef, np.atleast_1d(self._int_values(obj.ints)))) \
            + int(np.dot(obj.bcoef, np.atleast_1d(self._bool_values(obj.bools))))
        return value if obj.sense == "min" else -value

    # -- solving from the model ------------------------------------------------------------

    def solve(self, backend: str = "cpsat", solver: str | None = None,
              time_limit: float | None = None, **params: Any) -> Status:
        """Find a solution (an optimum, with an objective); ``x.value()`` then reads it.
        ``params`` go to the solver by name (``workers``, ``seed``, or any CP-SAT or z3
        parameter: ``linearization_level=2``), as for every search below."""
        return solving.solve(self, backend, solver, time_limit, params)

    def solutions(self, limit: int | None = None, backend: str = "cpsat",
                  solver: str | None = None, time_limit: float | None = None, **params: Any
                  ) -> Iterator[Model]:
        """Distinct solutions on the answer variables, streamed; at each one ``x.value()``
        reads it (the model itself is yielded, for convenience)."""
        return solving.solutions(self, limit, backend, solver, time_limit, params)

    def count(self, backend: str = "cpsat", solver: str | None = None,
              time_limit: float | None = None, **params: Any) -> SolutionCount:
        """The number of solutions, and whether that is all of them."""
        return solving.count(self, backend, solver, time_limit, params=params)

    def is_unique(self, backend: str = "cpsat", solver: str | None = None,
                  time_limit: float | None = None, **params: Any) -> bool | None:
        """True (one solution), False (none or several) or None (the time ran out);
        ``uniqueness()`` tells none from several."""
        verdict = self.uniqueness(backend, solver, time_limit, **params)
        return None if verdict is Status.UNKNOWN else verdict is Status.UNIQUE

    def uniqueness(self, backend: str = "cpsat", solver: str | None = None,
                   time_limit: float | None = None, **params: Any) -> Status:
        """Status.UNIQUE, MULTIPLE, NONE, or UNKNOWN (the time ran out first)."""
        found, complete = self.count_up_to(2, backend, solver, time_limit, **params)
        if found >= 2:
            return Status.MULTIPLE
        if not complete:
            return Status.UNKNOWN
        return Status.UNIQUE if found == 1 else Status.NONE

    def count_up_to(self, limit: int, backend: str = "cpsat", solver: str | None = None,
                    time_limit: float | None = None, **params: Any) -> SolutionCount:
        """The solutions found (at most ``limit``), and whether that is all of them. Stopping at
        the limit leaves the rest unsearched, so a model with exactly ``limit`` solutions
        answers (limit, False): ask for one more to know there are no others."""
        return solving.count(self, backend, solver, time_limit, limit, params)

    def determined(self, x: Any, backend: str = "sat", solver: str | None = None,
                   time_limit: float | None = None) -> np.ndarray:
        """For answer variables ``x`` (an array of this model's): an object array shaped like
        ``x``, each entry the value every solution gives it, or None where solutions differ.
        A model without solutions is a ValueError; a time limit that runs out first, a
        TimeoutError."""
        return solving.determined(self, x, backend, solver, time_limit)

    def take(self, result: Any) -> None:
        """Make ``result`` (a back end's answer on this model) the solution that
        ``x.value()`` reads."""
        solving.take(self, result)

    def _bool_values(self, lits: np.ndarray) -> Any:
        return solving.bool_values(self, lits)

    def _int_values(self, ids: np.ndarray) -> Any:
        return solving.int_values(self, ids)

    # -- views for back ends ---------------------------------------------------------------

    def all_clauses(self) -> Groups:
        return Groups.concat(self.clauses)

    def all_exactly_one(self) -> Groups:
        return Groups.concat(self.exactly_one)

    def all_at_most_one(self) -> Groups:
        return Groups.concat(self.at_most_one)

    def all_implications(self) -> np.ndarray:
        if not self.implications:
            return np.zeros((0, 2), dtype=np.int64)
        return np.concatenate(self.implications)


def _shape(shape: int | tuple[int, ...], name: str) -> tuple[int, ...]:
    """A numpy shape, each size a whole number of at least 0."""
    shape = (shape,) if isinstance(shape, int | np.integer) or not hasattr(shape, "__iter__") \
        else tuple(shape)
    if not all(isinstance(d, int | np.integer) and not isinstance(d, bool) and d >= 0
               for d in shape):
        raise ValueError(f"{name}: a shape is sizes of 0 or more, got {shape}")
    return tuple(int(d) for d in shape)


def headed_groups(heads: np.ndarray, keys: np.ndarray, members: np.ndarray) -> Groups:
    """Group i is ``[heads[i], *members[keys == i]]`` (a clause "head implies a member")."""
    order = np.argsort(keys, kind="stable")
    sizes = np.bincount(keys, minlength=len(heads)) + 1
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    flat = np.empty(offsets[-1], dtype=np.int64)
    is_head = np.zeros(len(flat), dtype=bool)
    is_head[offsets[:-1]] = True
    flat[is_head] = heads
    flat[~is_head] = members[order]
    return Groups(flat, offsets)


def require_model(obj: object, what: str) -> None:
    """A TypeError unless ``obj`` is a Model: a puzzle (Tiling, Nonogram, Frames) is
    compiled to one by its build_model() first."""
    if isinstance(obj, Model):
        return
    hint = f" (make one with {type(obj).__name__}.build_model())" \
        if hasattr(obj, "build_model") else ""
    raise TypeError(f"{what} takes a Model, got {type(obj).__name__}{hint}")
