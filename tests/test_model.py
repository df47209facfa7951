"""Every back end against brute force on small models of every constraint kind.

The back ends come from the fixtures in conftest.py: ``solver_variant`` (every back end, a
few PySAT solvers, both z3 kinds), ``backend_name`` (those that take any model) and
``cover_backend_name`` (the exact-cover engine too, on pure cover models).
"""

import functools
import itertools
from dataclasses import dataclass

import numpy as np
import pytest

from smtpuzzle import Model, PuzzleError, Status, get_backend, to_cnf
from smtpuzzle.backends import cnf as cnf_module


@dataclass
class OneHot:
    """An integer over ``values`` as one literal per value, exactly one of them true (the
    random models' integers, built from booleans and exactly-one groups)."""

    values: np.ndarray
    literals: np.ndarray

    def literal(self, value: int) -> int:
        return int(self.literals[np.flatnonzero(self.values == value)[0]])


def one_hot(m: Model, name: str, values, user: bool) -> OneHot:
    values = np.asarray(values, dtype=np.int64)
    names = [f"{name}={v}" for v in values.tolist()] if user else None
    x = OneHot(values, m.new_bools(len(values), user=user, names=names))
    m.add_exactly_one([x.literals])
    m.one_hot = [*getattr(m, "one_hot", []), x]  # for the census below
    return x


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


@functools.cache
def random_model_count(seed: int) -> int:
    """The brute-force count of random_model(seed), once per seed for all back ends."""
    return brute_force_count(*random_model(seed))


@pytest.mark.parametrize("seed", range(6))
def test_backends_count_like_brute_force(seed, solver_variant):
    model, _ = random_model(seed)
    got = enumerate_count(get_backend(*solver_variant), model)
    assert got == random_model_count(seed), (solver_variant, seed)


@pytest.mark.parametrize("pairwise_max", [1, 6, 100])
def test_cnf_at_most_one_encodings_agree(monkeypatch, pairwise_max):
    monkeypatch.setattr(cnf_module, "PAIRWISE_MAX", pairwise_max)
    m = Model("amo")
    v = m.new_bools(8, user=True, names=[str(i) for i in range(8)])
    m.add_at_most_one([v])
    assert enumerate_count(get_backend("sat"), m) == 9


def test_int_vars_with_explicit_domains(solver_variant):
    m = Model("ints")
    x = one_hot(m, "x", [2, 3, 5, 7], user=True)
    y = one_hot(m, "y", [3, 5], user=True)
    m.add_implications([x.literal(2), x.literal(7)], [y.literal(3), y.literal(5)])
    m.add_clauses([[-x.literal(3)]])
    # x in {2,5,7} (3 excluded); x=2 forces y=3, x=7 forces y=5, x=5 leaves y free: 4.
    assert enumerate_count(get_backend(*solver_variant), m) == 4


def test_empty_clause_and_impossible_cardinality_are_unsat(solver_variant):
    for build in (lambda m, v: m.add_clauses([[]]),
                  lambda m, v: m.add_exactly_one([[]]),
                  lambda m, v: m.add_cardinality([v], "==", 5),
                  lambda m, v: m.add_cardinality([v], ">=", 4)):
        m = Model("unsat")
        v = m.new_bools(3, user=True, names=["a", "b", "c"])
        build(m, v)
        assert get_backend(*solver_variant).solve(m).status is Status.UNSAT


def test_cnf_of_one_hot_integer_has_aux_vars_only_above_user_vars():
    m = Model("aux")
    m.new_bools(10, user=True, names=[str(i) for i in range(10)])
    m.add_exactly_one([np.arange(1, 11)])
    cnf = to_cnf(m)
    assert cnf.num_vars > 10 and cnf.num_user_vars == 10
    assert cnf.clauses.flat.max() <= cnf.num_vars


def test_enumeration_limit_is_not_complete(solver_variant):
    m = Model("free")
    m.new_bools(4, user=True, names=list("abcd"))
    enum = get_backend(*solver_variant).solutions(m, limit=3)
    assert sum(1 for _ in enum) == 3 and not enum.complete


def test_every_public_name_resolves():
    # Some names load on first use (smtpuzzle/__init__.py, _LAZY): each must be there.
    import smtpuzzle

    assert set(smtpuzzle.__all__) <= set(dir(smtpuzzle))
    for name in smtpuzzle.__all__:
        assert getattr(smtpuzzle, name) is not None, name
    assert smtpuzzle.solve_nonogram.__module__ == "smtpuzzle.puzzles.nonogram.solve"


# -- random models with integers, implications and automata, against brute force ---------
#
# Each generator returns the model and checks that evaluate the same constraints, written
# independently of the model's internals, on a whole table of assignments at once (one row
# per assignment of every variable, user and auxiliary): the brute force keeps the rows that
# pass, projects them on the user variables and compares the set with the back end's.


def assignments(n: int) -> np.ndarray:
    """Every assignment of variables 1..n, one per row; column 0 is unused (always False)."""
    bits = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1
    return np.concatenate([np.zeros((2**n, 1), dtype=bool), bits.astype(bool)], axis=1)


def truth(a: np.ndarray, lits) -> np.ndarray:
    """The value of each literal in each row: shape (rows, len(lits))."""
    lits = np.asarray(lits, dtype=np.int64).reshape(-1)
    v = a[:, np.abs(lits)]
    return np.where(lits > 0, v, ~v)


def accepted(a: np.ndarray, word, transitions, start: int, finals) -> np.ndarray:
    """Rows whose reading of ``word`` (1 = true) the automaton accepts; no move rejects."""
    top = max([start, *finals, *(s for s, _, _ in transitions), *(t for _, _, t in transitions)])
    table = np.full((top + 1, 2), -1, dtype=np.int64)
    for s, b, t in transitions:
        table[s, b] = t
    state = np.full(len(a), start, dtype=np.int64)
    bits = truth(a, word).astype(np.int64)
    for j in range(len(word)):
        state = np.where(state >= 0, table[np.maximum(state, 0), bits[:, j]], -1)
    return np.isin(state, np.asarray(finals, dtype=np.int64))


def brute_force_solutions(model: Model, checks) -> set[tuple[bool, ...]]:
    """The projections on the user variables of the assignments that pass every check."""
    a = assignments(model.num_vars)
    ok = np.ones(len(a), dtype=bool)
    for check in checks:
        ok &= check(a)
    return {tuple(row) for row in a[ok][:, model.user_vars].tolist()}


def random_dfa(rng: np.random.Generator):
    """1 to 4 states with scattered numbers, most (state, letter) moves present, at least
    half of the states final."""
    q = int(rng.integers(1, 5))
    states = np.sort(rng.choice(8, size=q, replace=False)).tolist()
    transitions = [(s, b, int(rng.choice(states))) for s in states for b in (0, 1)
                   if rng.random() < 0.85]
    if not transitions:
        transitions = [(states[0], int(rng.integers(0, 2)), states[0])]
    start = int(rng.choice(states))
    finals = rng.choice(states, size=int(rng.integers((q + 1) // 2, q + 1)),
                        replace=False).tolist()
    return transitions, start, finals


def random_rich_model(seed: int):
    """3 to 5 user booleans, 1 or 2 integers (one-hot, user or auxiliary), up to 2
    auxiliary booleans (at most 12 user variables, 14 in all), and clauses, integer domain
    cuts, integer (dis)equalities, implications, cardinalities, exactly-one, at-most-one
    and 1 or 2 automata (each accepting some word) over random literals."""
    rng = np.random.default_rng(1000 + seed)
    m = Model(f"rich{seed}")
    checks = []
    n_bools = int(rng.integers(3, 6))
    bools = m.new_bools(n_bools, user=True, names=[f"b{i}" for i in range(n_bools)])
    ints = []
    for i in range(int(rng.integers(1, 3))):
        size = int(rng.integers(2, 5 - i))  # 2 to 4 values, then 2 or 3
        values = rng.choice(np.arange(-3, 7), size=size, replace=False)
        x = one_hot(m, f"x{i}", values.tolist(), user=bool(rng.random() < 0.75))
        ints.append(x)
        checks.append(lambda a, g=x.literals: truth(a, g).sum(axis=1) == 1)  # one value
    m.new_bools(int(rng.integers(0, 3)))  # auxiliary booleans
    n = m.num_vars
    assert len(m.user_vars) <= 12 and n <= 14

    def lits(k: int, replace: bool = False) -> np.ndarray:
        k = k if replace else min(k, n)
        vs = rng.choice(np.arange(1, n + 1), size=k, replace=replace)
        return vs * rng.choice([-1, 1], size=k)

    def clauses(groups) -> None:
        m.add_clauses(groups)
        checks.extend(lambda a, c=c: truth(a, c).any(axis=1) for c in groups)

    def implications(pairs) -> None:
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        m.add_implications(pairs[:, 0], pairs[:, 1])
        checks.extend(lambda a, p=p: ~truth(a, p[:1])[:, 0] | truth(a, p[1:])[:, 0]
                      for p in pairs)

    # The integers: a cut of each domain, then one relation between two of them or between
    # an integer value and a boolean.
    for x in ints:
        if rng.random() < 0.5:
            keep = rng.choice(x.values, size=int(rng.integers(len(x.values) // 2 + 1,
                                                              len(x.values) + 1)),
                              replace=False)
            clauses([np.array([x.literal(int(v)) for v in keep])])
    x = ints[0]
    y = ints[-1] if len(ints) > 1 else None
    common = [] if y is None else sorted(set(x.values.tolist()) & set(y.values.tolist()))
    if common:  # x != y, one clause per shared value
        clauses([np.array([-x.literal(v), -y.literal(v)]) for v in common])
    elif y is not None:  # x = v implies y = w
        implications([[x.literal(int(rng.choice(x.values))),
                       y.literal(int(rng.choice(y.values)))]])
    else:  # x = v implies a boolean literal
        implications([[x.literal(int(rng.choice(x.values))),
                       int(rng.choice(bools)) * int(rng.choice([-1, 1]))]])
    # Constraints over any literals, integer values and auxiliaries among them.
    clauses([lits(int(rng.integers(1, 4))) for _ in range(int(rng.integers(0, 2)))])
    implications([lits(2) for _ in range(int(rng.integers(1, 3)))])
    for _ in range(1 + (rng.random() < 0.3)):
        g = lits(int(rng.integers(2, 7)))
        # Mostly a bound strictly inside, sometimes one at an end (0 or all).
        k = int(rng.integers(0, len(g) + 1) if rng.random() < 0.25 else
                rng.integers(1, len(g)))
        cmp = str(rng.choice(["==", "<=", ">="]))
        m.add_cardinality([g], cmp, k)
        op = {"==": np.equal, "<=": np.less_equal, ">=": np.greater_equal}[cmp]
        checks.append(lambda a, g=g, k=k, op=op: op(truth(a, g).sum(axis=1), k))
    if rng.random() < 0.3:
        g = lits(int(rng.integers(2, 5)))
        m.add_exactly_one([g])
        checks.append(lambda a, g=g: truth(a, g).sum(axis=1) == 1)
    if rng.random() < 0.3:
        g = lits(int(rng.integers(2, 5)))
        m.add_at_most_one([g])
        checks.append(lambda a, g=g: truth(a, g).sum(axis=1) <= 1)
    everything = assignments(n)
    for _ in range(int(rng.integers(1, 3))):
        while True:  # an automaton that rejects every word only makes the model unsat
            word = lits(int(rng.integers(1, 6)), replace=True)  # a literal may come back
            transitions, start, finals = random_dfa(rng)
            if accepted(everything, word, transitions, start, finals).any():
                break
        m.add_automaton(word, transitions, start, finals)
        checks.append(lambda a, w=word, t=transitions, s=start, f=finals:
                      accepted(a, w, t, s, f))
    return m, checks


def random_cover_model(seed: int):
    """A pure cover model (rows only): primary cells (exactly-one), secondary cells
    (at-most-one), multiplicities (cardinalities over disjoint rows) and unit clauses."""
    rng = np.random.default_rng(2000 + seed)
    m = Model(f"cover{seed}")
    checks = []
    n = int(rng.integers(5, 11))
    rows = m.new_bools(n, user=True, names=[f"r{i}" for i in range(n)])
    cells = [list(rng.choice(rows, size=int(rng.integers(1, 5)), replace=False))
             for _ in range(int(rng.integers(2, 5)))]
    n_primary = len(cells)
    cells += [list(rng.choice(rows, size=int(rng.integers(2, 5)), replace=False))
              for _ in range(int(rng.integers(0, 3)))]
    for r in rows:  # every row covers some cell
        if not any(r in c for c in cells):
            cells[int(rng.integers(len(cells)))].append(r)
    primary = [np.array(c, dtype=np.int64) for c in cells[:n_primary]]
    secondary = [np.array(c, dtype=np.int64) for c in cells[n_primary:]]
    m.add_exactly_one(primary)
    checks.extend(lambda a, g=g: truth(a, g).sum(axis=1) == 1 for g in primary)
    if secondary:
        m.add_at_most_one(secondary)
        checks.extend(lambda a, g=g: truth(a, g).sum(axis=1) <= 1 for g in secondary)
    order = rng.permutation(rows)
    cut = 0
    for _ in range(int(rng.integers(0, 3))):
        size = int(rng.integers(2, 4))
        g = order[cut:cut + size]
        cut += size
        if len(g) == 0:
            break
        k = int(rng.integers(0, len(g) + 1))
        cmp = str(rng.choice(["==", "<=", ">="]))
        m.add_cardinality([g], cmp, k)
        op = {"==": np.equal, "<=": np.less_equal, ">=": np.greater_equal}[cmp]
        checks.append(lambda a, g=g, k=k, op=op: op(truth(a, g).sum(axis=1), k))
    if rng.random() < 0.5:
        unit = int(rng.choice(rows)) * int(rng.choice([-1, 1]))
        m.add_clauses([[unit]])
        checks.append(lambda a, u=unit: truth(a, [u])[:, 0])
    return m, checks


@functools.cache
def rich_expected(seed: int) -> frozenset:
    return frozenset(brute_force_solutions(*random_rich_model(seed)))


@functools.cache
def cover_expected(seed: int) -> frozenset:
    return frozenset(brute_force_solutions(*random_cover_model(seed)))


def solutions_of(backend_name: str, model: Model) -> set[tuple[bool, ...]]:
    """Every solution, projected on the user variables; the enumeration must be complete
    and list each projection once."""
    enum = get_backend(backend_name).solutions(model, time_limit=60)
    found = [tuple(np.asarray(r.values, dtype=bool).tolist()) for r in enum]
    assert enum.complete
    assert len(found) == len(set(found)), "a solution listed twice"
    assert all(len(f) == len(model.user_vars) for f in found)
    return set(found)


def assert_agrees_with(want: set[tuple[bool, ...]], backend_name: str, model: Model) -> None:
    """One solve and the full listing on ``backend_name`` give the brute force's answer."""
    one = get_backend(backend_name).solve(model)
    assert one.status is (Status.SAT if want else Status.UNSAT)
    assert not want or tuple(np.asarray(one.values, dtype=bool).tolist()) in want
    got = solutions_of(backend_name, model)
    assert len(got) == len(want) and got == want


RICH_SEEDS = range(24)
COVER_SEEDS = range(12)


@pytest.mark.parametrize("seed", RICH_SEEDS)
def test_models_with_integers_and_automata_agree_with_brute_force(seed, backend_name):
    model, _ = random_rich_model(seed)
    assert_agrees_with(rich_expected(seed), backend_name, model)


@pytest.mark.parametrize("seed", COVER_SEEDS)
def test_pure_cover_models_agree_with_brute_force(seed, cover_backend_name):
    model, _ = random_cover_model(seed)
    assert_agrees_with(cover_expected(seed), cover_backend_name, model)


def test_random_models_cover_the_cases_they_are_for():
    # The generators stay useful: most models have several solutions, some have none;
    # integers are user and auxiliary, two of them in some models; automata read negated
    # and repeated literals, integer values among them.
    rich = [random_rich_model(s)[0] for s in RICH_SEEDS]
    counts = [len(rich_expected(s)) for s in RICH_SEEDS]
    assert sum(c > 1 for c in counts) >= len(counts) // 2 and 0 in counts
    user_ints = [set(x.literals.tolist()) <= set(m.user_vars.tolist())
                 for m in rich for x in getattr(m, "one_hot", [])]
    assert any(user_ints) and not all(user_ints)
    assert any(len(getattr(m, "one_hot", [])) == 2 for m in rich)
    words = [a.literals for m in rich for a in m.automata]
    assert any((w < 0).any() for w in words)
    assert any(len(set(np.abs(w).tolist())) < len(w) for w in words)
    assert any(set(np.abs(a.literals).tolist()) & set(x.literals.tolist())
               for m in rich for a in m.automata for x in getattr(m, "one_hot", []))
    covers = [len(cover_expected(s)) for s in COVER_SEEDS]
    assert sum(c > 1 for c in covers) >= 3 and 0 in covers


def test_exact_cover_refuses_models_that_are_not_covers():
    # Integers, implications, automata, auxiliaries: a clear error, never a wrong count.
    for seed in RICH_SEEDS[:6]:
        model, _ = random_rich_model(seed)
        with pytest.raises(PuzzleError):
            list(get_backend("exact-cover").solutions(model))


LOOPS = [(0, 0, 0), (0, 1, 0)]  # state 0 reads anything


@pytest.mark.parametrize("word,transitions,start,finals,count", [
    pytest.param("abc", LOOPS, 0, [], 0, id="no-final-state"),
    pytest.param("", LOOPS, 0, [0], 8, id="empty-word-accepted"),
    pytest.param("", LOOPS + [(1, 0, 1)], 0, [1], 0, id="empty-word-rejected"),
    pytest.param("abc", [], 0, [0], 0, id="no-transitions"),
])
def test_degenerate_automata(word, transitions, start, finals, count, backend_name):
    m = Model("degenerate")
    v = dict(zip("abc", m.new_bools(3, user=True, names=list("abc")), strict=True))
    m.add_automaton([v[c] for c in word], np.asarray(transitions, dtype=np.int64).reshape(-1, 3),
                    start, finals)
    assert len(solutions_of(backend_name, m)) == count


def test_an_integer_with_an_empty_domain_is_unsat(backend_name):
    m = Model("empty domain")
    m.new_bools(2, user=True, names=["a", "b"])
    one_hot(m, "x", [], user=False)
    assert len(solutions_of(backend_name, m)) == 0


def test_implications_take_single_literals():
    m = Model("one implication")
    a, b = m.new_bools(2, user=True, names=["a", "b"]).tolist()
    m.add_implications(a, b)
    assert m.all_implications().tolist() == [[a, b]]
