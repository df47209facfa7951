"""Arithmetic between variables (model/arith.py) against brute force: random constraints
over products, abs, floor division, modulo, Min and Max of small integers, counted on every
back end that takes integers."""

from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest

from smtpuzzle import AllDifferent, Count, Element, Max, Min, Model, PuzzleError

OPS = {"==": operator.eq, "<=": operator.le, ">=": operator.ge, "!=": operator.ne}
TERMS = [  # (name, model side, brute-force side) over x (three integers)
    ("x0*x1", lambda x: x[0] * x[1], lambda a: a[0] * a[1]),
    ("x0*x1 + x2", lambda x: x[0] * x[1] + x[2], lambda a: a[0] * a[1] + a[2]),
    ("(x0+x1)*x2", lambda x: (x[0] + x[1]) * x[2], lambda a: (a[0] + a[1]) * a[2]),
    ("abs(x0-x1)", lambda x: abs(x[0] - x[1]), lambda a: abs(a[0] - a[1])),
    ("x0//2", lambda x: x[0] // 2, lambda a: a[0] // 2),
    ("x1%3", lambda x: x[1] % 3, lambda a: a[1] % 3),
    ("(x0-x2)//3", lambda x: (x[0] - x[2]) // 3, lambda a: (a[0] - a[2]) // 3),
    ("max", lambda x: x.max(), lambda a: max(a)),
    ("Min(x0,x1)+x2", lambda x: Min(x[:2]) + x[2], lambda a: min(a[:2]) + a[2]),
    ("Max-Min", lambda x: Max(x) - Min(x), lambda a: max(a) - min(a)),
]


@pytest.mark.parametrize("backend", ["sat", "cpsat", "z3"])
def test_random_arithmetic_agrees_with_a_brute_force(backend):
    rng = np.random.default_rng(7)
    for case in range(24):
        lo = int(rng.integers(-4, 1))
        hi = lo + int(rng.integers(2, 6))
        (n1, f1, g1), (n2, f2, g2) = (TERMS[i] for i in rng.choice(len(TERMS), 2))
        cmp = list(OPS)[int(rng.integers(len(OPS)))]
        k = int(rng.integers(-3, 4))
        m = Model()
        x = m.int_array(3, lo, hi, name="x")
        m.add(OPS[cmp](f1(x), f2(x) + k))
        want = sum(OPS[cmp](g1(a), g2(a) + k)
                   for a in itertools.product(range(lo, hi + 1), repeat=3))
        assert m.count(backend) == (want, True), (case, n1, cmp, n2, k, lo, hi)


@pytest.mark.parametrize("backend", ["sat", "cpsat", "z3"])
def test_division_by_variables_is_pythons_floor_division(backend):
    # every (x, y, q, r) with q == x // y and r == x % y over small ranges, y nonzero
    m = Model()
    x, y = m.int_array((), -5, 6, name="x"), m.int_array((), -3, 3, name="y")
    q, r = m.int_array((), -7, 7, name="q"), m.int_array((), -3, 3, name="r")
    m.add(q == x // y, r == x % y)
    want = sum(-7 <= a // b <= 7 and -3 <= a % b <= 3
               for a in range(-5, 7) for b in range(-3, 4) if b)
    assert m.count(backend) == (want, True)


def test_arithmetic_is_refused_where_it_is_not_taken():
    m = Model()
    x = m.int_array(2, 0, 5)
    with pytest.raises(TypeError, match="whole number or integer variables as divisor"):
        x[0] // 2.5
    with pytest.raises(ValueError, match="divisor of 1 or more"):
        x[0] % 0
    with pytest.raises(ValueError, match="divisor that can only be 0"):
        x[0] // m.int_array((), 0, 0)
    big = m.int_array(2, -2**40, 2**40)
    with pytest.raises(ValueError, match="product that can reach 2\\*\\*62"):
        big[0] * big[1]
    with pytest.raises(ValueError, match="no values"):
        Max(m.int_array(0, 0, 1))


def test_expressions_wherever_a_user_writes_them():
    # AllDifferent over sums and plain lists: the 6-queens have 4 solutions
    m = Model("queens")
    q = m.int_array(6, 0, 5)
    m.add(AllDifferent(q), AllDifferent([q[i] + i for i in range(6)]),
          AllDifferent(q - np.arange(6)))
    assert m.count("sat") == (4, True) and m.count("cpsat") == (4, True)
    # constraints combined with | and &, and negated, without helper literals by hand
    m = Model()
    x = m.int_array(2, 0, 5)
    m.add((x[0] >= 4) | (x[1] >= 4), ~((x[0] >= 4) & (x[1] <= 1)))
    want = sum((a >= 4 or b >= 4) and not (a >= 4 and b <= 1)
               for a, b in itertools.product(range(6), repeat=2))
    assert m.count("sat") == (want, True) and m.count("z3") == (want, True)
    # Python's max over variables points to Max
    with pytest.raises(TypeError, match="Max"):
        max(x)
    # print(m) says what the model holds
    m.minimize(x[0])
    text = str(m)
    assert text.startswith("Model 'model':") and "objective: minimise" in text


@pytest.mark.parametrize("backend", ["sat", "cpsat", "z3"])
def test_uniqueness_tells_none_from_several(backend):
    m = Model()
    x = m.int_array(2, 0, 1)
    m.add(x.sum() == 1)
    assert m.uniqueness(backend) == "multiple" and m.is_unique(backend) is False
    m.add(x[0] == 1)
    assert m.uniqueness(backend) == "unique" and m.is_unique(backend) is True
    m.add(x[1] == 1)
    assert m.uniqueness(backend) == "none" and m.is_unique(backend) is False


@pytest.mark.parametrize("backend", ["sat", "cpsat", "z3"])
def test_element_count_and_reified_alldifferent_inside_expressions(backend):
    # Element in sums and comparisons: the least cost with each row's cost at least 2
    cost = np.array([[1, 5, 2, 7], [3, 3, 8, 1], [4, 6, 2, 9]])
    m = Model()
    i = m.int_array(3, 0, 3, name="i")
    m.add(Element(cost, i) >= 2)
    m.minimize((2 * Element(cost, i)).sum() + 1)
    assert m.solve(backend) == "optimal" and m.objective_value() == 2 * (2 + 3 + 2) + 1
    assert (cost[np.arange(3), i.value()] == [2, 3, 2]).all()
    # Count of a variable value; AllDifferent under a literal
    m = Model()
    x, v = m.int_array(3, 0, 2, name="x"), m.int_array((), 0, 2, name="v")
    b = m.bool_array((), name="b")
    m.add(Count(x, v) >= 1, b.implies(AllDifferent(x)))
    want = sum(c in xs and (not p or len(set(xs)) == 3)
               for xs in itertools.product(range(3), repeat=3) for c in range(3)
               for p in (0, 1))
    assert m.count(backend) == (want, True)


@pytest.mark.parametrize("backend", ["sat", "cpsat", "z3"])
def test_the_objective_value_is_read_after_a_solve(backend):
    m = Model()
    x = m.int_array(3, 0, 5, name="x")
    m.add(x.sum() == 7)
    m.minimize(Max(x))  # a helper integer: the model keeps an answer integer equal to it
    assert m.solve(backend) == "optimal" and m.objective_value() == 3
    m.maximize(2 * x[0] - x[1])
    assert m.solve(backend) == "optimal" and m.objective_value() == 10


def test_solver_parameters_pass_through_by_name():
    m = Model()
    x = m.int_array(3, 0, 5, name="x")
    m.add(x.sum() == 7)
    m.minimize(x[0] - x[1])
    assert m.solve("cpsat", workers=1, seed=3, linearization_level=2) == "optimal"
    # an enum field by its number (POLARITY_TRUE): CP-SAT's own parameters take no int
    assert m.solve("cpsat", initial_polarity=0, workers=1) == "optimal"
    assert m.solve("z3", seed=5) == "optimal" and m.objective_value() == -5
    for backend, params, words in [("cpsat", {"bogus": 1}, "no parameter 'bogus'"),
                                   ("cpsat", {"workers": "x"}, "cannot be 'x'"),
                                   ("z3", {"bogus": 1}, "unknown parameter 'bogus'"),
                                   ("sat", {"seed": 1}, "takes no solver parameters")]:
        with pytest.raises(PuzzleError, match=words):
            m.solve(backend, **params)


@pytest.mark.parametrize("backend", ["sat", "cpsat", "z3"])
def test_products_far_from_zero_and_min_max_of_a_list(backend):
    """Factors whose domains lie far below 0 (the decomposition once walked every value
    from the least up to 0: a model of the fuzz built for minutes), and Min/Max of a
    list of integers and sums."""
    m = Model()
    x, y = m.int_array((), -10**9 - 2, -10**9 - 1), m.int_array((), -2, 2)
    m.add(x * y >= 2 * 10**9, Min([x + 10**9, y]) <= -1, Max([y, 0]) == 0)
    want = sum(a * b >= 2 * 10**9 and min(a + 10**9, b) <= -1 and max(b, 0) == 0
               for a, b in itertools.product(range(-10**9 - 2, -10**9), range(-2, 3)))
    assert m.count(backend) == (want, True)  # 4


def test_a_product_too_wide_to_decompose_is_refused_with_its_size():
    m = Model()
    x, y = m.int_array((), 0, 100_000), m.int_array((), 0, 100_000)
    m.add(x * y == 391)
    with pytest.raises(PuzzleError, match="smaller factor takes 100001 values"):
        m.solve("sat")
    assert m.solve("cpsat") == "sat" and x.value() * y.value() == 391
