"""The table of constraint kinds: every back end takes a kind, lowers it, or refuses it;
none drops it silently."""

from __future__ import annotations

import io

import numpy as np
import pytest

from smtpuzzle import Model, PuzzleError, get_backend, to_cnf
from smtpuzzle.backends.dimacs import write_dimacs
from smtpuzzle.model.kinds import KINDS, Kind, NotTaken, num_constraints, register, unregister
from tests.helpers import COVER_BACKENDS


@pytest.fixture
def throwaway():
    """A kind no back end takes and none can lower: "these literals are all false"."""
    register(Kind("throwaway", "throwaway constraints (a test's)"))
    yield
    unregister("throwaway")


@pytest.fixture
def all_false():
    """The same kind with a decomposition into unit clauses."""
    def lower(model: Model) -> Model:
        out = model.copy()
        for lits in out.parts.pop("all-false"):
            out.add_clauses(-np.asarray(lits)[:, None])
        return out

    # ahead of every kind there, the clauses its decomposition makes among them
    register(Kind("all-false", "all-false constraints", lower=lower), before="integers")
    names = list(KINDS)
    assert names[names.index("all-false") + 1] == "integers"
    yield
    unregister("all-false")


def model_with(kind: str) -> Model:
    m = Model("kinds")
    a, b, c = m.new_bools(3, user=True, names=list("abc")).tolist()
    m.add_exactly_one([[a, b, c]])
    m.parts[kind] = [[a]]  # "a is false": two solutions left, b or c
    return m


@pytest.mark.parametrize("backend", COVER_BACKENDS)
def test_a_kind_no_back_end_takes_is_refused_by_each_never_dropped(throwaway, backend):
    m = model_with("throwaway")
    with pytest.raises(PuzzleError, match="takes no throwaway constraints"):
        m.count(backend)


def test_a_kind_no_back_end_takes_is_refused_by_the_cnf_and_dimacs_too(throwaway):
    m = model_with("throwaway")
    with pytest.raises(NotTaken):
        to_cnf(m)
    with pytest.raises(NotTaken):
        write_dimacs(m, io.StringIO())


@pytest.mark.parametrize("backend", ["cpsat", "sat", "z3"])
def test_a_kind_with_a_decomposition_is_lowered_for_each_back_end(all_false, backend):
    m = model_with("all-false")
    assert m.count(backend) == (2, True)
    assert num_constraints(m) == 2  # the group and the kind's one record
    assert len(m.copy().parts["all-false"]) == 1


def test_every_back_end_declares_only_kinds_of_the_table():
    for name in COVER_BACKENDS:
        takes = get_backend(name).takes
        assert takes and takes <= set(KINDS), name


def test_the_global_kinds_together_count_alike_on_every_back_end():
    """Products, NoOverlap, Circuit and SingleCycle in one model: cpsat takes them natively,
    z3 the product, sat none; every count equals the brute force's."""
    import itertools

    from smtpuzzle import Circuit, NoOverlap, SingleCycle, lattice_graph

    m = Model("globals")
    x, s = m.int_array(3, 0, 2, name="x"), m.int_array(2, 0, 3, name="s")
    g = lattice_graph(1, 1)
    m.add(x[0] * x[1] == x[2], NoOverlap(s, [2, 1]),
          Circuit(m.int_array(3, 0, 2, name="succ")), SingleCycle(m.bool_array(4), g))
    products = sum(a * b == c for a, b, c in itertools.product(range(3), repeat=3))
    apart = sum(p + 2 <= q or q + 1 <= p for p, q in itertools.product(range(4), repeat=2))
    want = products * apart * 2  # two cycles through three nodes, one loop on one cell
    for backend in ("cpsat", "z3", "sat"):
        assert m.count(backend) == (want, True), backend
