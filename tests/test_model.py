"""Every back end against brute force on small models of every constraint kind."""

import itertools

import numpy as np
import pytest

from smtpuzzle import Model, Status, get_backend, to_cnf
from smtpuzzle.backends import cnf as cnf_module

# kissat404 is not incremental: each further solution gets a new solver.
BACKENDS = [("cpsat", None), ("sat", None), ("sat", "minisat22"), ("sat", "kissat404"),
            ("z3", None), ("z3", "qffd")]


def brute_force_count(model: Model, check) -> int:
    """Distinct projections on user variables of the assignments that satisfy ``check``."""
    seen = set()
    for bits in itertools.product((False, True), repeat=model.num_vars):
        a = np.array((False,) + bits)
        if check(a):
            seen.add(tuple(a[model.user_vars]))
    return len(seen)


def lit(a, x):
    return a[x] if x > 0 else not a[-x]


def random_model(seed: int):
    rng = np.random.default_rng(seed)
    m = Model(f"random{seed}")
    n = 9
    m.new_bools(n, user=True, names=[f"x{i}" for i in range(n)])
    checks = []

    def lits(k):
        vs = rng.choice(np.arange(1, n + 1), size=k, replace=False)
        return vs * rng.choice([-1, 1], size=k)

    clauses = [lits(rng.integers(1, 4)) for _ in range(2)]
    m.add_clauses(clauses)
    checks += [lambda a, c=c: any(lit(a, x) for x in c) for c in clauses]
    eo = [lits(rng.integers(2, 9))]
    m.add_exactly_one(eo)
    checks += [lambda a, g=g: sum(lit(a, x) for x in g) == 1 for g in eo]
    amo = [lits(rng.integers(2, 9))]
    m.add_at_most_one(amo)
    checks += [lambda a, g=g: sum(lit(a, x) for x in g) <= 1 for g in amo]
    for cmp, op in (("==", int.__eq__), ("<=", int.__le__), (">=", int.__ge__)):
        g = lits(rng.integers(3, 8))
        k = int(rng.integers(0, len(g) + 1))
        m.add_cardinality([g], cmp, k)
        checks.append(lambda a, g=g, k=k, op=op: op(int(sum(lit(a, x) for x in g)), k))
    imp = lits(2)
    m.add_implications(imp[:1], imp[1:])
    checks.append(lambda a, i=imp: (not lit(a, i[0])) or lit(a, i[1]))
    return m, lambda a: all(c(a) for c in checks)


def enumerate_count(backend, model):
    enum = backend.solutions(model, time_limit=60)
    n = sum(1 for _ in enum)
    assert enum.complete
    return n


@pytest.mark.parametrize("seed", range(6))
def test_backends_count_like_brute_force(seed):
    model, check = random_model(seed)
    expected = brute_force_count(model, check)
    for name, solver in BACKENDS:
        got = enumerate_count(get_backend(name, solver), model)
        assert got == expected, (name, solver, seed)


@pytest.mark.parametrize("pairwise_max", [1, 6, 100])
def test_cnf_at_most_one_encodings_agree(monkeypatch, pairwise_max):
    monkeypatch.setattr(cnf_module, "PAIRWISE_MAX", pairwise_max)
    m = Model("amo")
    v = m.new_bools(8, user=True, names=[str(i) for i in range(8)])
    m.add_at_most_one([v])
    assert enumerate_count(get_backend("sat"), m) == 9


def test_int_vars_with_explicit_domains():
    m = Model("ints")
    x = m.new_int("x", [2, 3, 5, 7], user=True)
    y = m.new_int("y", [3, 5], user=True)
    m.add_implications([x.literal(2), x.literal(7)], [y.literal(3), y.literal(5)])
    m.add_clauses([[-x.literal(3)]])
    # x in {2,5,7} (3 excluded); x=2 forces y=3, x=7 forces y=5, x=5 leaves y free: 4.
    for name, solver in BACKENDS:
        assert enumerate_count(get_backend(name, solver), m) == 4, name


def test_empty_clause_and_impossible_cardinality_are_unsat():
    for build in (lambda m, v: m.add_clauses([[]]),
                  lambda m, v: m.add_exactly_one([[]]),
                  lambda m, v: m.add_cardinality([v], "==", 5),
                  lambda m, v: m.add_cardinality([v], ">=", 4)):
        m = Model("unsat")
        v = m.new_bools(3, user=True, names=["a", "b", "c"])
        build(m, v)
        for name, solver in BACKENDS:
            assert get_backend(name, solver).solve(m).status is Status.UNSAT, name


def test_cnf_of_one_hot_integer_has_aux_vars_only_above_user_vars():
    m = Model("aux")
    m.new_bools(10, user=True, names=[str(i) for i in range(10)])
    m.add_exactly_one([np.arange(1, 11)])
    cnf = to_cnf(m)
    assert cnf.num_vars > 10 and cnf.num_user_vars == 10
    assert cnf.clauses.flat.max() <= cnf.num_vars


def test_enumeration_limit_is_not_complete():
    m = Model("free")
    m.new_bools(4, user=True, names=list("abcd"))
    for name, solver in BACKENDS:
        enum = get_backend(name, solver).solutions(m, limit=3)
        assert sum(1 for _ in enum) == 3 and not enum.complete, name


def test_every_public_name_resolves():
    # Some names load on first use (smtpuzzle/__init__.py, _LAZY): each must be there.
    import smtpuzzle

    assert set(smtpuzzle.__all__) <= set(dir(smtpuzzle))
    for name in smtpuzzle.__all__:
        assert getattr(smtpuzzle, name) is not None, name
    assert smtpuzzle.solve_nonogram.__module__ == "smtpuzzle.puzzles.nonogram.solve"
