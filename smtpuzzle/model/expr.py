"""Numpy-shaped variables and expressions: the modelling API.

``model.int_array((9, 9), 1, 9)`` gives an :class:`IntArray`; indexing, reshaping and
transposing it are numpy operations on variable ids. Arithmetic gives a :class:`LinExpr`
(every element a linear sum, kept as arrays of terms), comparison a :class:`LinCons`, and
``model.add`` posts a whole array of them as one batch. Nothing here makes a Python object
per variable or per term.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from smtpuzzle.model.groups import Groups
from smtpuzzle.model.ints import (
    EQ,
    GE,
    LE,
    NE,
    Cmp,
    ElementRows,
    LinearRows,
    RegularRows,
    TableRows,
)

if TYPE_CHECKING:
    from smtpuzzle.model.core import Model

_I = np.int64


def _empty(shape: tuple[int, ...]) -> np.ndarray:
    return np.zeros((*shape, 0), dtype=_I)


# The largest constant or coefficient taken: sums of a few products stay inside int64 (the
# arithmetic of numpy and of CP-SAT), which would otherwise wrap without a word.
LIMIT = 2**53


def whole(x: Any, what: str = "constants") -> np.ndarray:
    """``x`` as an int64 array, refused unless every element is a whole number within
    +-LIMIT: a model over integers has no use for 2.5, and truncating it (or wrapping a huge
    one) would answer another question."""
    try:
        a = np.asarray(x)
    except ValueError:  # numpy's "inhomogeneous shape"
        raise ValueError(f"{what} must be a regular array of whole numbers (rows of one "
                         "length)") from None
    if isinstance(x, _Shaped | LinExpr | LinCons | _Global):
        raise TypeError(f"{what} must be numbers, not {type(x).__name__} (only products "
                        "with constants are linear)")
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.round(a))
        if bad.any():
            raise TypeError(f"{what} must be whole numbers, got {a[bad].ravel()[0].item()!r}")
    elif a.dtype.kind == "O":
        if not all(isinstance(v, numbers.Integral) for v in a.ravel()):
            raise TypeError(f"{what} must be whole numbers, got {x!r}")
    elif a.dtype.kind not in "iub":
        raise TypeError(f"{what} must be whole numbers, got {x!r}")
    if a.size and a.dtype.kind != "b":
        big = max(abs(int(a.max())), abs(int(a.min())))
        if big > LIMIT:
            raise ValueError(f"{what} must lie within +-2**53, got {big}")
    return a.astype(_I)


def joined(*items: Any) -> Model | None:
    """The model that expressions over ``items`` (arrays, expressions, constraints) belong
    to: their own, or, mixing a model and its copy, the one that descends from the other.
    Two models number their variables alike, so a variable one of them does not share
    with the other (an unrelated model's; one made after a copy) is refused: it would
    silently mean another variable."""
    owned = [(x.model, x) for x in items if getattr(x, "model", None) is not None]
    models = list({id(m): m for m, _ in owned}.values())
    if len(models) <= 1:
        return models[0] if models else None
    pick = next((m for m in models if all(o is m or o._node in m._shared for o in models)),
                models[0])
    for m, x in owned:
        if m is not pick:
            usable(pick, x)
    return pick


def usable(model: Model, item: Any) -> None:
    """Raise unless every variable ``item`` uses is ``model``'s own."""
    owner = item.model
    if owner is None or owner is model:
        return
    shared = model.shares(owner)
    if shared is None:
        raise ValueError(f"variables of two models ({owner.name!r} and {model.name!r}) "
                         "in one constraint")
    bools, ints = variables_of(item)
    if (bools.size and bools.max() > shared[0]) or (ints.size and ints.max() >= shared[1]):
        raise ValueError(
            "variables made in one of a model and its copy after copy() (helpers of b & c, "
            "Count or x.eq among them) used in the other: make them from x.on(model)")


class _Shaped:
    """Numpy-style indexing and reshaping of an id array."""

    __array_priority__ = 1000  # numpy defers to our operators
    __hash__ = None  # type: ignore[assignment]  # == builds a constraint

    def __init__(self, model: Model, ids: Any) -> None:
        self.model = model
        self.ids = np.asarray(ids, dtype=_I)

    def __bool__(self) -> bool:
        # ``a and b`` / ``a or b`` would pick one array silently: name the operator meant
        raise TypeError("variables have no truth value before solving: combine booleans "
                        "with & | ~ (not and / or / not), compare with == <= ...")

    def _new(self, ids: np.ndarray) -> Any:
        return type(self)(self.model, ids)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.ids.shape

    @property
    def ndim(self) -> int:
        return self.ids.ndim

    @property
    def size(self) -> int:
        return self.ids.size

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, key: Any) -> Any:
        return self._new(self.ids[key])

    def __iter__(self) -> Any:
        for i in range(len(self.ids)):
            yield self[i]

    def on(self, model: Model) -> Any:
        """These variables as ``model``'s (a copy of theirs, or the model they were copied
        from): expressions that make helper variables (``b & c``, Count, ``x.eq``) then make
        them there."""
        usable(model, self)
        return type(self)(model, self.ids)

    def reshape(self, *shape: Any) -> Any:
        return self._new(self.ids.reshape(*shape))

    def transpose(self, *axes: Any) -> Any:
        return self._new(self.ids.transpose(*axes))

    @property
    def T(self) -> Any:  # noqa: N802  numpy's name
        return self._new(self.ids.T)

    def ravel(self) -> Any:
        return self._new(self.ids.ravel())

    flatten = ravel


class _Linear(_Shaped):
    """Arithmetic and order comparisons through the array's linear form, ``lin()``."""

    def lin(self) -> LinExpr:
        raise NotImplementedError

    def __add__(self, other: Any) -> LinExpr:
        return self.lin() + other

    __radd__ = __add__

    def __sub__(self, other: Any) -> LinExpr:
        return self.lin() - other

    def __rsub__(self, other: Any) -> LinExpr:
        return -self.lin() + other

    def __neg__(self) -> LinExpr:
        return -self.lin()

    def __mul__(self, other: Any) -> Any:
        return self.lin() * other

    __rmul__ = __mul__

    def __abs__(self) -> Any:
        return abs(self.lin())

    def __floordiv__(self, divisor: Any) -> Any:
        return self.lin() // divisor

    def __mod__(self, divisor: Any) -> Any:
        return self.lin() % divisor

    def max(self, axis: int | None = None) -> Any:
        """The largest element (along ``axis``): an integer (model/arith.py)."""
        return self.lin().max(axis)

    def min(self, axis: int | None = None) -> Any:
        """The least element (along ``axis``): an integer (model/arith.py)."""
        return self.lin().min(axis)

    def sum(self, axis: int | None = None, dtype: Any = None, out: Any = None) -> LinExpr:
        return self.lin().sum(axis, dtype, out)

    def __le__(self, other: Any) -> LinCons:
        return self.lin() <= other

    def __ge__(self, other: Any) -> LinCons:
        return self.lin() >= other

    def __lt__(self, other: Any) -> LinCons:
        return self.lin() < other

    def __gt__(self, other: Any) -> LinCons:
        return self.lin() > other


class IntArray(_Linear):
    """Bounded integers of one model, in a numpy shape."""

    def lin(self) -> LinExpr:
        shape = self.shape
        return LinExpr(self.ids[..., None], np.ones((*shape, 1), dtype=_I), _empty(shape),
                       _empty(shape), np.zeros(shape, dtype=_I), self.model)

    def value(self) -> np.ndarray | int:
        """The values in the last solution found by this array's model (user integers
        only; for a copy's solution, read ``x.on(copy).value()``)."""
        return self.model._int_values(self.ids)

    def eq(self, values: Any) -> BoolArray:
        """The literals "x == v" (broadcast): booleans to sum, count or reify with."""
        ids, vals = np.broadcast_arrays(self.ids, whole(values, "values"))
        return BoolArray(self.model, self.model.eq_literals(ids, vals).reshape(ids.shape))

    def __eq__(self, other: Any) -> LinCons:  # type: ignore[override]
        return self.lin() == other

    def __ne__(self, other: Any) -> LinCons:  # type: ignore[override]
        return self.lin() != other


class BoolArray(_Linear):
    """Literals of one model, in a numpy shape; posted, each must be true."""

    def lin(self) -> LinExpr:
        shape = self.shape
        return LinExpr(_empty(shape), _empty(shape), self.ids[..., None],
                       np.ones((*shape, 1), dtype=_I), np.zeros(shape, dtype=_I), self.model)

    def value(self) -> np.ndarray | bool:
        """The values in the last solution found by this array's model (user variables
        only; for a copy's solution, read ``b.on(copy).value()``)."""
        return self.model._bool_values(self.ids)

    def __invert__(self) -> BoolArray:
        return self._new(-self.ids)

    def _tseitin(self, other: Any, conj: bool) -> BoolArray:
        a, b = np.broadcast_arrays(self.ids, _lits(other, self.model))
        t = self.model.new_bools(a.size).reshape(a.shape)
        af, bf, tf = a.ravel(), b.ravel(), t.ravel()
        if conj:  # t <-> a & b
            self.model.add_clauses(np.stack([-tf, af], axis=1))
            self.model.add_clauses(np.stack([-tf, bf], axis=1))
            self.model.add_clauses(np.stack([tf, -af, -bf], axis=1))
        else:  # t <-> a | b
            self.model.add_clauses(np.stack([-tf, af, bf], axis=1))
            self.model.add_clauses(np.stack([tf, -af], axis=1))
            self.model.add_clauses(np.stack([tf, -bf], axis=1))
        return BoolArray(self.model, t)

    def __and__(self, other: Any) -> BoolArray:
        return self._tseitin(other, True)

    __rand__ = __and__

    def __or__(self, other: Any) -> BoolArray:
        return self._tseitin(other, False)

    __ror__ = __or__

    def implies(self, other: Any) -> Any:
        """Half-reification: where these literals are true, ``other`` holds."""
        if isinstance(other, LinCons):
            return Enforced(other, self.ids, joined(self, other))
        if isinstance(other, AllDifferent):
            return other.implied_by(self)
        if isinstance(other, _Global):
            raise TypeError(f"{type(other).__name__} cannot be implied by literals (linear "
                            "constraints and AllDifferent can)")
        return (~self) | other

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        if isinstance(other, LinCons):  # full reification
            return [self.implies(other), (~self).implies(~other)]
        if isinstance(other, BoolArray):
            return (self.implies(other)) & (other.implies(self))
        return self.lin() == other

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        if isinstance(other, LinCons):
            return self == ~other
        if isinstance(other, BoolArray):
            return self == ~other
        return self.lin() != other



def _lits(x: Any, model: Model) -> np.ndarray:
    if isinstance(x, BoolArray):
        usable(model, x)
        return x.ids
    raise TypeError(f"expected literals (a BoolArray), got {type(x).__name__}")


class LinExpr:
    """An array of linear sums: element ``i`` is ``sum(icoef[i] * ints[i]) +
    sum(bcoef[i] * bools[i]) + const[i]`` (the term arrays have one more axis), over the
    variables of ``model`` (None for constants alone)."""

    __array_priority__ = 1000
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, ints: np.ndarray, icoef: np.ndarray, bools: np.ndarray,
                 bcoef: np.ndarray, const: np.ndarray, model: Model | None = None) -> None:
        self.ints, self.icoef, self.bools, self.bcoef = ints, icoef, bools, bcoef
        self.const = np.asarray(const, dtype=_I)
        self.model = model

    def __bool__(self) -> bool:
        raise TypeError("a sum has no truth value before solving: compare it (== <= ...) "
                        "and post the constraint with model.add(...)")

    def _like(self, ints: np.ndarray, icoef: np.ndarray, bools: np.ndarray,
              bcoef: np.ndarray, const: np.ndarray) -> LinExpr:
        return LinExpr(ints, icoef, bools, bcoef, const, self.model)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.const.shape

    def __getitem__(self, key: Any) -> LinExpr:
        return self._like(self.ints[key], self.icoef[key], self.bools[key], self.bcoef[key],
                          self.const[key])

    def _grown(self, shape: tuple[int, ...]) -> LinExpr:
        if self.shape == shape:
            return self

        def b(a: np.ndarray) -> np.ndarray:
            return np.broadcast_to(a, (*shape, a.shape[-1]))
        return self._like(b(self.ints), b(self.icoef), b(self.bools), b(self.bcoef),
                          np.broadcast_to(self.const, shape))

    def __add__(self, other: Any) -> LinExpr:
        o = as_lin(other)
        shape = np.broadcast_shapes(self.shape, o.shape)
        a, c = self._grown(shape), o._grown(shape)
        return LinExpr(np.concatenate([a.ints, c.ints], axis=-1),
                       np.concatenate([a.icoef, c.icoef], axis=-1),
                       np.concatenate([a.bools, c.bools], axis=-1),
                       np.concatenate([a.bcoef, c.bcoef], axis=-1), a.const + c.const,
                       joined(self, o))

    __radd__ = __add__

    def __neg__(self) -> LinExpr:
        return self._like(self.ints, -self.icoef, self.bools, -self.bcoef, -self.const)

    def __sub__(self, other: Any) -> LinExpr:
        return self + (-as_lin(other))

    def __rsub__(self, other: Any) -> LinExpr:
        return (-self) + other

    def __mul__(self, factor: Any) -> Any:
        if _has_variables(factor) and self.model is not None:  # x * y: a product
            from smtpuzzle.model.arith import product

            return product(self, factor)
        f = whole(factor, "coefficients")
        shape = np.broadcast_shapes(self.shape, f.shape)
        a = self._grown(shape)
        fb = f[..., None]
        for before, by in ((a.icoef, fb), (a.bcoef, fb), (a.const, f)):
            if (np.abs(before.astype(float)) * np.abs(by.astype(float)) > LIMIT).any():
                raise ValueError("a coefficient beyond +-2**53: products of constants grow "
                                 "past 64-bit arithmetic")
        return self._like(a.ints, a.icoef * fb, a.bools, a.bcoef * fb, a.const * f)

    __rmul__ = __mul__

    def __abs__(self) -> Any:
        from smtpuzzle.model.arith import absolute

        return absolute(self)

    def __floordiv__(self, divisor: Any) -> Any:
        from smtpuzzle.model.arith import divmod_by

        return divmod_by(self, divisor)[0]

    def __mod__(self, divisor: Any) -> Any:
        from smtpuzzle.model.arith import divmod_by

        return divmod_by(self, divisor)[1]

    def max(self, axis: int | None = None) -> Any:
        """The largest element (along ``axis``): an integer (model/arith.py)."""
        from smtpuzzle.model.arith import extreme

        return extreme(self, axis, True)

    def min(self, axis: int | None = None) -> Any:
        """The least element (along ``axis``): an integer (model/arith.py)."""
        from smtpuzzle.model.arith import extreme

        return extreme(self, axis, False)

    def sum(self, axis: int | None = None, dtype: Any = None, out: Any = None) -> LinExpr:
        """The sum over ``axis`` (all elements when None): the terms are concatenated.
        (``dtype`` and ``out`` are numpy's, so that ``np.sum(x)`` works; out must be None.)"""
        if out is not None:
            raise TypeError("a sum of variables has no output array")
        if isinstance(axis, tuple):  # one axis after another, the highest first
            out_expr = self
            for a in sorted((_axis(a, len(self.shape)) for a in axis), reverse=True):
                out_expr = out_expr.sum(a)
            return out_expr
        if axis is None:
            def flat(a: np.ndarray) -> np.ndarray:
                return a.reshape(-1)
            return self._like(flat(self.ints), flat(self.icoef), flat(self.bools),
                              flat(self.bcoef), self.const.sum())
        axis = _axis(axis, len(self.shape))

        def merge(a: np.ndarray) -> np.ndarray:
            moved = np.moveaxis(a, axis, -2)
            return moved.reshape(*moved.shape[:-2], -1)
        return self._like(merge(self.ints), merge(self.icoef), merge(self.bools),
                          merge(self.bcoef), self.const.sum(axis=axis))

    def _cmp(self, other: Any, code: int, shift: int = 0) -> LinCons:
        if isinstance(other, int | np.integer) and not isinstance(other, bool):
            # against a number: no expression to subtract (the usual case, made cheap)
            return LinCons(self, code, whole(other) - self.const + shift)
        diff = self - other
        return LinCons(diff, code, -diff.const + shift)

    def __eq__(self, other: Any) -> LinCons:  # type: ignore[override]
        return self._cmp(other, EQ)

    def __ne__(self, other: Any) -> LinCons:  # type: ignore[override]
        return self._cmp(other, NE)

    def __le__(self, other: Any) -> LinCons:
        return self._cmp(other, LE)

    def __ge__(self, other: Any) -> LinCons:
        return self._cmp(other, GE)

    def __lt__(self, other: Any) -> LinCons:
        return self._cmp(other, LE, -1)

    def __gt__(self, other: Any) -> LinCons:
        return self._cmp(other, GE, 1)


def _axis(axis: Any, ndim: int) -> int:
    """``axis`` of an array of ``ndim`` dimensions, counted from 0 (numpy's AxisError if
    there is no such axis: taken modulo, it would silently sum another one)."""
    if not isinstance(axis, int | np.integer) or not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for an array of "
                                      f"dimension {ndim}")
    return int(axis) % ndim


def as_lin(x: Any) -> LinExpr:
    if isinstance(x, LinExpr):
        return x
    if isinstance(x, IntArray | BoolArray | Element):
        return x.lin()
    if isinstance(x, _Global | LinCons | Enforced):
        raise TypeError(f"{type(x).__name__} is a constraint, not a number")
    c = whole(x)
    return LinExpr(_empty(c.shape), _empty(c.shape), _empty(c.shape), _empty(c.shape), c)


class LinCons:
    """An array of linear constraints ``terms <code> rhs``."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, expr: LinExpr, code: int, rhs: np.ndarray) -> None:
        self.expr, self.code = expr, code
        self.rhs = np.broadcast_to(np.asarray(rhs, dtype=_I), expr.shape)

    @property
    def model(self) -> Model | None:
        return self.expr.model

    def __invert__(self) -> LinCons:
        flip = {EQ: (NE, 0), NE: (EQ, 0), LE: (GE, 1), GE: (LE, -1)}[self.code]
        return LinCons(self.expr, flip[0], self.rhs + flip[1])

    def __bool__(self) -> bool:
        raise TypeError("a constraint has no truth value before solving: post it with "
                        "model.add(...) (the largest or least of variables is Max(x) or "
                        "Min(x), not Python's max or min)")

    def reified(self) -> BoolArray:
        """A new literal per element, true exactly where the constraint holds."""
        model = self.model
        if model is None:
            raise TypeError("a constraint of constants alone has no literal")
        b = BoolArray(model, model.new_bools(int(np.prod(self.expr.shape, dtype=np.int64)))
                      .reshape(self.expr.shape))
        model.add(b == self)
        return b

    def __or__(self, other: Any) -> BoolArray:
        """Either holds (element by element): ``(x >= 3) | (y >= 3)``."""
        return self.reified() | (other.reified() if isinstance(other, LinCons) else other)

    __ror__ = __or__

    def __and__(self, other: Any) -> BoolArray:
        return self.reified() & (other.reified() if isinstance(other, LinCons) else other)

    __rand__ = __and__

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        """Two constraint arrays equivalent (``!=``: exactly one holds), through one new
        literal each element: both reified on it."""
        if isinstance(other, BoolArray):
            return NotImplemented  # BoolArray's reflected == reifies
        if not isinstance(other, LinCons):
            _not_a_value(self, other)
        model = joined(self, other)
        if model is None:
            raise TypeError("comparing two constraints needs variables in one of them")
        shape = np.broadcast_shapes(self.expr.shape, other.expr.shape)
        b = BoolArray(model, model.new_bools(int(np.prod(shape, dtype=np.int64)))
                      .reshape(shape))
        return [b == self, b == other]

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        if isinstance(other, BoolArray):
            return NotImplemented
        if not isinstance(other, LinCons):
            _not_a_value(self, other)
        return self == ~other

    def post(self, model: Model, enforce: np.ndarray | None = None) -> None:
        """Post every row (where ``enforce``, literals, hold: a reified row). Single terms
        become bounds and sums of distinct literals cardinalities; the rest are rows."""
        e = self.expr
        rows = int(np.prod(e.shape, dtype=np.int64))
        ti, tb = e.ints.shape[-1], e.bools.shape[-1]
        ints = np.ascontiguousarray(e.ints).reshape(rows, ti)
        icoef = np.ascontiguousarray(e.icoef).reshape(rows, ti)
        bools = np.ascontiguousarray(e.bools).reshape(rows, tb)
        bcoef = np.ascontiguousarray(e.bcoef).reshape(rows, tb)
        rhs = np.ascontiguousarray(self.rhs).reshape(rows)
        enf = np.zeros(rows, dtype=_I) if enforce is None else \
            np.ascontiguousarray(enforce, dtype=_I).reshape(rows)
        model.ints.check_magnitude(ints, icoef, bcoef, rhs)
        if ti == 1 and tb == 0 and self.code != NE and enforce is None:
            # x == c, x <= c, x >= c (a given, a bound): the bounds, not a constraint.
            _tighten(model, ints[:, 0], icoef[:, 0], self.code, rhs)
            return
        if ti == 0 and tb and self.code != NE and enforce is None and (bcoef == 1).all() \
                and _distinct_rows(bools):
            # Counts of literals: cardinalities, which every back end (exact cover too, for
            # exactly one) takes natively, rather than integer rows.
            _post_counts(model, bools, self.code, rhs)
            return
        model.ints.linear.append(LinearRows(Groups.of(ints), icoef.reshape(-1).copy(),
                                            Groups.of(bools), bcoef.reshape(-1).copy(),
                                            np.full(rows, self.code, dtype=_I), rhs.copy(),
                                            enf.copy()))


def _tighten(model: Model, x: np.ndarray, c: np.ndarray, code: int, rhs: np.ndarray) -> None:
    """``c * x <code> rhs`` on the bounds of x; one that cannot hold makes the model unsat.
    In a named group they stay rows instead, which explain() can take away again."""
    if model._naming:
        n = len(x)
        model.ints.linear.append(LinearRows(
            Groups.of(x.reshape(n, 1)), c.astype(_I).copy(), Groups.of(np.zeros((n, 0), _I)),
            np.zeros(0, dtype=_I), np.full(n, code, dtype=_I), rhs.astype(_I).copy(),
            np.zeros(n, dtype=_I)))
        return
    if not model.ints.tighten(x, c, code, rhs):
        model.add_false()


def _in_range(model: Model, index: np.ndarray, n: int) -> None:
    """Each index lies in 0..n-1 (an array's positions): bounds, at once."""
    flat = index.reshape(-1)
    ones = np.ones(len(flat), dtype=_I)
    _tighten(model, flat, ones, GE, np.zeros(len(flat), dtype=_I))
    _tighten(model, flat, ones, LE, np.full(len(flat), n - 1, dtype=_I))


def _post_counts(model: Model, lits: np.ndarray, code: int, rhs: np.ndarray) -> None:
    """``sum(lits[i]) <code> rhs[i]`` per row (code EQ, LE or GE)."""
    cmp = Cmp(code)
    one = rhs == 1
    if cmp is Cmp.EQ and one.all():
        model.add_exactly_one(lits)
    elif cmp is Cmp.LE and one.all():
        model.add_at_most_one(lits)
    else:
        model.add_cardinality(lits, cmp, rhs)


def _distinct_rows(rows: np.ndarray) -> bool:
    """No row names a variable twice (a repeated literal counts twice in a sum, not in a
    cardinality)."""
    v = np.sort(np.abs(rows), axis=1)
    return not (v[:, 1:] == v[:, :-1]).any()


def _not_a_value(constraint: Any, other: Any) -> None:
    """Refuse ``constraint == other`` where Python would fall back to identity and hand
    ``model.add`` a silent False."""
    raise TypeError(f"a {type(constraint).__name__} is a constraint, not a value: it can be "
                    f"compared (== or !=) only with another linear constraint or literals, "
                    f"not {type(other).__name__}")


class Enforced:
    """A linear constraint array that holds where ``literals`` are true."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, cons: LinCons, literals: np.ndarray, model: Model) -> None:
        self.cons, self.literals, self.model = cons, literals, model

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        _not_a_value(self, other)

    __ne__ = __eq__

    def post(self, model: Model) -> None:
        shape = np.broadcast_shapes(self.cons.expr.shape, np.shape(self.literals))
        grown = LinCons(self.cons.expr._grown(shape), self.cons.code,
                        np.broadcast_to(self.cons.rhs, shape))
        grown.post(model, np.broadcast_to(self.literals, shape))


class _Global:
    """A global constraint over integer arrays, posted as one batch."""

    model: Model | None = None
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        _not_a_value(self, other)

    __ne__ = __eq__

    def post(self, model: Model) -> None:
        raise NotImplementedError


def _ints(x: Any, what: str) -> IntArray:
    """``x``, which must be integer variables (booleans' ids are not integers' ids)."""
    if not isinstance(x, IntArray):
        raise TypeError(f"{what} takes integer variables (an IntArray from "
                        f"model.int_array), got {type(x).__name__}")
    return x


def _groups(x: IntArray, axis: int | None) -> np.ndarray:
    """The id array as rows: all of it (axis None) or one row per slice along ``axis``."""
    if axis is None:
        return x.ids.reshape(1, x.size)
    moved = np.moveaxis(x.ids, _axis(axis, x.ndim), -1)
    return _rows(moved)


def _stacked(x: Any) -> Any:
    """A list (or tuple) of integers and sums as one LinExpr; anything else as it is."""
    if not isinstance(x, list | tuple):
        return x
    if x and all(isinstance(v, IntArray) for v in x):  # integers only: their ids, stacked
        return IntArray(joined(*x), np.stack([v.ids for v in x]))
    parts = [as_lin(v) for v in x]
    model = joined(*parts)
    width = max((p.ints.shape[-1] for p in parts), default=0), \
        max((p.bools.shape[-1] for p in parts), default=0)

    def padded(a: np.ndarray, n: int) -> np.ndarray:
        a = a.reshape(int(np.prod(a.shape[:-1], dtype=np.int64)), a.shape[-1])
        return np.pad(a, ((0, 0), (0, n - a.shape[-1])))
    return LinExpr(np.concatenate([padded(p.ints, width[0]) for p in parts]),
                   np.concatenate([padded(p.icoef, width[0]) for p in parts]),
                   np.concatenate([padded(p.bools, width[1]) for p in parts]),
                   np.concatenate([padded(p.bcoef, width[1]) for p in parts]),
                   np.concatenate([p.const.reshape(-1) for p in parts]), model)


def _has_variables(x: Any) -> bool:
    """Whether ``x`` is an array of variables or an expression over some."""
    return isinstance(x, _Shaped) or (isinstance(x, LinExpr) and x.model is not None)


def _rows(ids: np.ndarray) -> np.ndarray:
    """The id array as rows along its last axis (a 1-d array is one row; empty rows kept)."""
    ids = ids if ids.ndim > 1 else ids.reshape(1, -1)
    return ids.reshape(int(np.prod(ids.shape[:-1], dtype=np.int64)), ids.shape[-1])


class AllDifferent(_Global):
    """All of ``x`` different, or (with ``axis``) each slice along that axis."""

    def __init__(self, x: Any, axis: int | None = None) -> None:
        if isinstance(x, LinExpr | list | tuple):  # sums, or a list: integers equal to each
            from smtpuzzle.model.arith import as_int

            x = as_int(_stacked(x), "AllDifferent's operand")
        self.model = _ints(x, "AllDifferent").model
        self.rows = _groups(x, axis)

    def post(self, model: Model) -> None:
        if self.rows.shape[1] > 1:  # rows of one or no integer hold anyway
            model.ints.alldiff.append(Groups.of(self.rows))

    def implied_by(self, lits: BoolArray) -> Enforced:
        """Where ``lits`` (one, or one per row) are true, the rows' integers differ: each
        pair of them unequal under the literal."""
        i, j = np.triu_indices(self.rows.shape[1], 1)
        pairs = IntArray(self.model, self.rows[:, i]) != IntArray(self.model, self.rows[:, j])
        if lits.size not in (1, len(self.rows)):
            raise ValueError(f"AllDifferent of {len(self.rows)} rows implied by {lits.size} "
                             "literals (one, or one per row)")
        under = np.broadcast_to(lits.ids.reshape(-1, 1), pairs.expr.shape)
        return BoolArray(lits.model, under).implies(pairs)


class Table(_Global):
    """Each row of ``x`` (its last axis) is one of ``tuples`` (or, ``forbidden``, none)."""

    def __init__(self, x: IntArray, tuples: Any, forbidden: bool = False) -> None:
        self.model = _ints(x, "Table").model
        self.scopes = _rows(x.ids)
        k = self.scopes.shape[1]
        if k == 0:
            raise ValueError("Table needs at least one variable per row (x's last axis is "
                             "empty)")
        rows = whole(tuples, "Table's tuples")
        if rows.size == 0:
            rows = rows.reshape(0, k)
        elif rows.ndim == 1:
            rows = rows[None, :]
        if rows.ndim != 2 or rows.shape[1] != k:
            raise ValueError(f"Table's tuples must be rows of {k} values (the last axis of "
                             f"x), got shape {rows.shape}")
        self.tuples = rows
        self.forbidden = forbidden

    def post(self, model: Model) -> None:
        model.ints.tables.append(TableRows(self.scopes.copy(), self.tuples.copy(),
                                           self.forbidden))


class Element:
    """``array[index]`` with a variable index (counted from 0); compare it with ``==`` or
    ``!=``.
    ``array`` is integer variables or constants (whole numbers)."""

    def __init__(self, array: Any, index: IntArray) -> None:
        _ints(index, "Element's index")
        if not isinstance(array, IntArray):
            array = whole(array, "Element's array")
        else:
            joined(array, index)
        shape = array.shape
        if not len(shape) or shape[-1] == 0:
            raise ValueError("Element needs a nonempty array to index")
        if len(shape) > 1 and shape[:-1] != index.shape:
            raise ValueError(f"Element: an array of shape {shape} needs an index of shape "
                             f"{shape[:-1]} (one row per index), got {index.shape}")
        self.array, self.index = array, index
        self._int: IntArray | None = None

    def as_int(self) -> IntArray:
        """``array[index]`` as integers (made once, tied to it by the Element constraint,
        which requires the index within the array), for sums, products and comparisons."""
        if self._int is None:
            model = joined(self.index, self.array)
            if isinstance(self.array, IntArray):
                lo, hi = model.ints.bounds()
                low, high = lo[self.array.ids].min(axis=-1), hi[self.array.ids].max(axis=-1)
            else:
                low, high = self.array.min(axis=-1), self.array.max(axis=-1)
            z = model.int_array(self.index.shape, int(np.min(low)), int(np.max(high)),
                                name="element", user=False)
            model.add(z >= low, z <= high, self == z)
            self._int = z
        return self._int

    def lin(self) -> LinExpr:
        return self.as_int().lin()

    def __eq__(self, target: Any) -> _ElementCons:  # type: ignore[override]
        return _ElementCons(self.array, self.index, target)

    def __ne__(self, target: Any) -> _ElementCons:  # type: ignore[override]
        return _ElementCons(self.array, self.index, target, differ=True)

    __hash__ = None  # type: ignore[assignment]


def _through_int(name: str) -> Any:
    def method(self: Element, *other: Any) -> Any:
        return getattr(self.as_int(), name)(*other)

    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__neg__",
              "__abs__", "__le__", "__ge__", "__lt__", "__gt__", "__floordiv__", "__mod__"):
    setattr(Element, _name, _through_int(_name))


class _ElementCons(_Global):
    def __init__(self, array: Any, index: IntArray, target: Any, differ: bool = False) -> None:
        if not isinstance(target, IntArray):
            target = whole(target, "Element's target")
        self.model = joined(index, array, target)
        self.array, self.index, self.target, self.differ = array, index, target, differ

    def post(self, model: Model) -> None:
        if model._naming:  # its index's range is a bound no group owns
            raise ValueError("Element cannot be part of a named group yet (explain() could "
                             "not take its index's range away)")
        if self.differ:
            self._post_differ(model)
            return
        array, idx = self.array, self.index.ids
        arr = array.ids if isinstance(array, IntArray) else np.asarray(array)
        if arr.ndim == 1:
            arr = np.broadcast_to(arr, (*idx.shape, len(arr)))
        arr_ids = _int_ids(model, array, arr.shape)
        tgt = _int_ids(model, self.target, idx.shape)
        _in_range(model, idx, arr.shape[-1])  # no index left: unsat, at once
        model.ints.elements.append(ElementRows(idx.reshape(-1).copy(),
                                               arr_ids.reshape(-1, arr.shape[-1]).copy(),
                                               tgt.reshape(-1).copy()))

    def _post_differ(self, model: Model) -> None:
        """``array[index] != target``: where the index is k, entry k differs from the
        target (an entry equal to a constant target rules k out); the index lies in the
        array, as for ``==``."""
        array, target, idx = self.array, self.target, self.index.ids
        n = array.shape[-1]
        _in_range(model, idx, n)
        shape = (*idx.shape, n)
        ids, ks = np.broadcast_arrays(idx[..., None], np.arange(n))
        at = model.eq_literals(ids.ravel(), ks.ravel()).reshape(shape)  # index == k
        if not isinstance(array, IntArray) and not isinstance(target, IntArray):
            same = np.asarray(array) == np.asarray(target)[..., None]
            model.add_clauses(-np.broadcast_to(at, shape)[np.broadcast_to(same, shape)]
                              .reshape(-1, 1))
            return
        entries = IntArray(model, array.ids) if isinstance(array, IntArray) else array
        goal = IntArray(model, target.ids) if isinstance(target, IntArray) else target
        goal = goal[..., None] if isinstance(goal, IntArray) else np.asarray(goal)[..., None]
        Enforced(as_lin(entries) - goal != 0, at, model).post(model)


def _int_ids(model: Model, x: Any, shape: tuple[int, ...]) -> np.ndarray:
    """Integer ids for ``x``: an IntArray's own, or integers fixed at constants."""
    if isinstance(x, IntArray):
        return np.broadcast_to(x.ids, shape)
    return model.ints.constants(np.broadcast_to(whole(x), shape))


def automaton(transitions: Any, start: Any, finals: Any, what: str,
              labels: tuple[int, ...] | None = None) -> tuple[np.ndarray, int, np.ndarray]:
    """A deterministic automaton's (state, value, next state) rows, start and finals, checked:
    whole numbers, states from 0, at most one move per state and value (and the values in
    ``labels``, if given)."""
    edges = whole(transitions, f"{what}'s transitions")
    if edges.size % 3 or (edges.ndim > 1 and edges.shape[-1] != 3):
        raise ValueError(f"{what}'s transitions must be (state, value, next state) "
                         f"triples, got shape {edges.shape}")
    edges = edges.reshape(-1, 3)
    first = int(whole(start, f"{what}'s start"))
    ends = whole(finals, f"{what}'s finals").reshape(-1)
    states = np.concatenate([[first], ends, edges[:, [0, 2]].ravel()])
    if (states < 0).any():
        raise ValueError(f"{what}'s states are numbered from 0, got "
                         f"{int(states[states < 0][0])}")
    if labels is not None and not np.isin(edges[:, 1], labels).all():
        bad = int(edges[~np.isin(edges[:, 1], labels), 1][0])
        raise ValueError(f"{what}'s transitions read the labels {labels}, not {bad}")
    pairs, seen = np.unique(edges[:, :2], axis=0, return_counts=True)
    if (seen > 1).any():
        state, value = pairs[seen > 1][0].tolist()
        raise ValueError(f"{what} needs a deterministic automaton: state {state} has "
                         f"{int(seen.max())} transitions on value {value}")
    return edges, first, ends


class Regular(_Global):
    """Each row of ``x`` (its last axis), read as a word of values, is accepted by the
    automaton: ``transitions`` are (state, value, next state) triples."""

    def __init__(self, x: IntArray, transitions: Any, start: int, finals: Any) -> None:
        self.model = _ints(x, "Regular").model
        self.words = _rows(x.ids)
        self.transitions, self.start, self.finals = automaton(transitions, start, finals,
                                                              "Regular")

    def post(self, model: Model) -> None:
        words, transitions, start, finals = self.words, self.transitions, self.start, \
            self.finals
        if not len(words):
            return
        if words.shape[1] == 0 or not len(finals) or not len(transitions):
            # The empty word is accepted iff the start is final; a longer one needs a move
            # and a final state (and CP-SAT refuses an automaton without them).
            if not (words.shape[1] == 0 and start in finals.tolist()):
                model.add_false()
            return
        model.ints.regulars.append(RegularRows(words.copy(), transitions.copy(), start,
                                               finals.copy()))


def Count(x: IntArray, value: int | IntArray, axis: int | None = None  # noqa: N802
          ) -> LinExpr:
    """How many of ``x`` (or of each slice along ``axis``) equal ``value`` (a whole number,
    or one integer variable): a linear expression over the literals "x == value"."""
    rows = _groups(_ints(x, "Count"), axis)
    if isinstance(value, IntArray):  # a variable value: "x == value" reified per element
        if value.size != 1:
            raise ValueError(f"Count's value is one integer, got {value.size}")
        same = IntArray(x.model, rows) == IntArray(value.model, value.ids.reshape(1, 1))
        expr = same.reified().sum(axis=1)
        return expr if axis is not None else expr[0]
    v = int(whole(value, "Count's value"))
    lits = x.model.eq_literals(rows.ravel(), np.full(rows.size, v)).reshape(rows.shape)
    expr = BoolArray(x.model, lits).sum(axis=1)
    return expr if axis is not None else expr[0]


def flatten_constraints(items: Any) -> Iterable[Any]:
    """Constraints as given to ``Model.add``: one, or any nesting of iterables of them."""
    if isinstance(items, LinCons | Enforced | _Global | BoolArray | bool | np.bool_):
        yield items
        return
    if isinstance(items, IntArray | LinExpr):
        raise TypeError(f"not a constraint: a {type(items).__name__} is a number; compare "
                        "it (x == 3, x.sum() <= 10) to make one")
    if isinstance(items, Element):
        raise TypeError("not a constraint: an Element is a number; compare it "
                        "(Element(a, i) == t) to make one")
    if isinstance(items, Iterable) and not isinstance(items, str | bytes):
        for item in items:
            yield from flatten_constraints(item)
        return
    raise TypeError(f"not a constraint: {items!r}")


def variables_of(item: Any) -> tuple[np.ndarray, np.ndarray]:
    """The boolean variables and the integers a constraint (or an expression) uses."""
    none = np.zeros(0, dtype=_I)
    if isinstance(item, BoolArray):
        return np.abs(item.ids).ravel(), none
    if isinstance(item, IntArray):
        return none, item.ids.ravel()
    if isinstance(item, LinExpr):
        return np.abs(item.bools).ravel(), item.ints.ravel()
    if isinstance(item, LinCons):
        return variables_of(item.expr)
    if isinstance(item, Enforced):
        b, i = variables_of(item.cons)
        return np.concatenate([b, np.abs(np.asarray(item.literals, dtype=_I)).ravel()]), i
    if isinstance(item, AllDifferent):
        return none, item.rows.ravel()
    if isinstance(item, Table):
        return none, item.scopes.ravel()
    if isinstance(item, Regular):
        return none, item.words.ravel()
    if isinstance(item, _ElementCons):
        parts = [x.ids.ravel() for x in (item.index, item.array, item.target)
                 if isinstance(x, IntArray)]
        return none, np.concatenate(parts)
    raise TypeError(f"not a constraint: {item!r}")
