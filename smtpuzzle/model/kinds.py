"""The constraint kinds a model can hold, in one table, and the lowering that gives each back
end only the kinds it takes.

Each kind is declared once, here: its name, what it is, where a model keeps its records, how
its constraints are counted, and its decomposition into simpler kinds (None for the kinds
every decomposition ends in: clauses, cardinalities and the like). A back end declares the
kinds it takes (``Backend.takes``, as CPMpy's solvers list their supported constraints);
:func:`lowered` rewrites every other kind the model holds, in the table's order, and refuses
a kind that it can neither pass on nor rewrite: a back end never drops a constraint silently.

A new kind is one :func:`register` call; its records live in ``Model.parts[name]`` (a list,
copied with the model), unless the kind names where else they are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import arith, graphs, scheduling
from smtpuzzle.model.core import Model
from smtpuzzle.model.lower import lower_automata, lower_ints, lower_regular


class NotTaken(PuzzleError):
    """The model holds a constraint kind that the back end neither takes nor can lower."""


@dataclass(frozen=True)
class Kind:
    """One constraint kind (see the module docstring)."""

    name: str
    what: str  # in words, for messages
    records: Callable[[Model], Sequence[Any]] | None = None  # None: Model.parts[name]
    count: Callable[[Model], int] | None = None  # constraints as written; None: records
    lower: Callable[[Model], Model] | None = None  # into simpler kinds; None: none
    # Records a session checks on each solution, adding cuts (``literals()``, ``cuts()``),
    # when its back end takes the kind (backends/lazy.py).
    lazy: bool = False

    def held(self, model: Model) -> Sequence[Any]:
        """The model's records of this kind (empty when it holds none)."""
        if self.records is None:
            return model.parts.get(self.name, ())
        return self.records(model)

    def constraints(self, model: Model) -> int:
        return len(self.held(model)) if self.count is None else self.count(model)


KINDS: dict[str, Kind] = {}


def register(kind: Kind, before: str | None = None) -> Kind:
    """Add ``kind`` to the table, at its end or just ahead of the kind named ``before``:
    lowering goes in table order, so a kind stands ahead of the kinds its decomposition
    makes (a new kind that decomposes into integer rows registers before "integers")."""
    if kind.name in KINDS:
        raise ValueError(f"a constraint kind named {kind.name!r} is registered already")
    if before is None:
        KINDS[kind.name] = kind
        return kind
    if before not in KINDS:
        raise ValueError(f"no constraint kind named {before!r} to register {kind.name!r} "
                         "before")
    rest = dict(KINDS)
    KINDS.clear()
    for name, other in rest.items():
        if name == before:
            KINDS[kind.name] = kind
        KINDS[name] = other
    return kind


def unregister(name: str) -> None:
    """Take a kind out of the table (a test's throwaway kind)."""
    KINDS.pop(name, None)


def lowered(model: Model, takes: Collection[str], who: str) -> Model:
    """``model`` with every kind that ``who`` (a back end) does not take rewritten by its
    decomposition, in the table's order; a kind with none is a NotTaken error."""
    for kind in list(KINDS.values()):
        if kind.name in takes or not kind.held(model):
            continue
        if kind.lower is None:
            raise NotTaken(f"{who} takes no {kind.what}, and they have no decomposition "
                           f"into what it takes")
        model = kind.lower(model)
    return model


def refuse_untaken(model: Model, takes: Collection[str], who: str) -> None:
    """A NotTaken error for the first kind ``model`` holds that ``who`` does not take."""
    for kind in KINDS.values():
        if kind.name not in takes and kind.held(model):
            raise NotTaken(f"{who} takes no {kind.what}")


def num_constraints(model: Model) -> int:
    """Constraints as written, over every kind (back ends may expand them into more)."""
    return sum(kind.constraints(model) for kind in KINDS.values())


def _int_part_held(model: Model) -> Sequence[Any]:
    ints = model.ints
    return [ints] if ints.count or ints.has_constraints() else []


def decomposed(name: str) -> Callable[[Model], Model]:
    """The lowering of a kind whose records each post their own decomposition
    (``record.decompose(model)``): a copy of the model with them posted instead."""
    def lower(model: Model) -> Model:
        if not model.parts.get(name):
            return model
        out = model.copy()
        for record in out.parts.pop(name):
            record.decompose(out)
        return out

    return lower


def lazy_kinds() -> frozenset[str]:
    """The names of the kinds whose records a session may check lazily."""
    return frozenset(k.name for k in KINDS.values() if k.lazy)


def lazy_records(model: Model) -> list[Any]:
    """The records of ``model`` (as lowered for a back end) that its session checks on each
    solution."""
    return [r for kind in KINDS.values() if kind.lazy and kind.records is None
            for r in model.parts.get(kind.name, ())]


def _rows(name: str) -> Callable[[Model], int]:
    """How many constraints a kind whose records have a length holds."""
    return lambda m: sum(len(r) for r in m.parts.get(name, ()))


# The table, in lowering order. The global constraints go first: they decompose into
# integers and literals. Integers follow: their decomposition (an encoding of every integer
# by literals) takes their Regular constraints and objective with them, and leaves only the
# boolean kinds below.
register(Kind(arith.KIND, "arithmetic between integers (x * y, abs, Min, Max)", None,
              _rows(arith.KIND), decomposed(arith.KIND)))
register(Kind(scheduling.KIND, "scheduling constraints (NoOverlap, Cumulative)", None,
              _rows(scheduling.KIND), decomposed(scheduling.KIND)))
register(Kind(graphs.CIRCUIT, "circuits (Circuit, SubCircuit)", None, _rows(graphs.CIRCUIT),
              decomposed(graphs.CIRCUIT)))
register(Kind(graphs.CYCLE, "single cycles (SingleCycle)", None, _rows(graphs.CYCLE),
              decomposed(graphs.CYCLE)))
register(Kind(graphs.CONNECTED, "connected sets (Connected, the loop of a SingleCycle)", None,
              _rows(graphs.CONNECTED), decomposed(graphs.CONNECTED), lazy=True))
register(Kind("integers", "integers (bounded integers, linear rows, AllDifferent, Table, "
              "Element, an objective)", _int_part_held,
              lambda m: m.ints.num_constraints() - sum(len(r.words) for r in m.ints.regulars),
              lower_ints))
register(Kind("regular", "Regular constraints over integers", lambda m: m.ints.regulars,
              lambda m: sum(len(r.words) for r in m.ints.regulars), lower_regular))
register(Kind("automata", "automata over literals", lambda m: m.automata, None,
              lower_automata))
register(Kind("weighted", "weighted sums of literals", lambda m: m.weighted))
register(Kind("implications", "implications", lambda m: m.implications,
              lambda m: sum(len(i) for i in m.implications)))
register(Kind("cardinalities", "cardinalities", lambda m: m.cardinalities,
              lambda m: sum(len(c.groups) for c in m.cardinalities)))
register(Kind("at_most_one", "at-most-one groups", lambda m: m.at_most_one,
              lambda m: sum(len(g) for g in m.at_most_one)))
register(Kind("exactly_one", "exactly-one groups", lambda m: m.exactly_one,
              lambda m: sum(len(g) for g in m.exactly_one)))
register(Kind("clauses", "clauses", lambda m: m.clauses,
              lambda m: sum(len(g) for g in m.clauses)))

# What the back ends that take only literals take: a CNF's kinds and those its encoders
# write as clauses (cardinalities, pseudo-booleans).
BOOLEAN = frozenset({"clauses", "exactly_one", "at_most_one", "cardinalities",
                     "implications", "weighted"})
