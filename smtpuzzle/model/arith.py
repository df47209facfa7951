"""Arithmetic between variables: products ``x * y``, ``abs(x)``, ``x // c`` and ``x % c``
for a positive constant ``c``, and ``Min`` / ``Max`` of arrays. Each gives new (auxiliary)
integers tied to their operands by constraints every back end takes, posted at once, so
the result is used in sums and comparisons like any integer:

- ``x * y``: for each value v of the operand with the smaller domain, ``x == v`` implies
  ``z == v * y`` (a reified linear row per value);
- ``abs(x)``: a sign literal s, with s implying ``x >= 0`` and ``a == x``, and not s
  ``x <= 0`` and ``a == -x``;
- ``x // c`` and ``x % c`` (floor division, as Python's): ``x == c * q + r``, ``0 <= r < c``;
- ``Max(xs)``: ``m >= x_i`` for every i, and a selector per i, one of them true, implying
  ``m <= x_i`` (``Min`` alike).

A linear expression given as an operand becomes an integer first (its bounds from its
terms').
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smtpuzzle.model.expr import BoolArray, IntArray, LinExpr, as_lin

_I = np.int64


def bounds(e: LinExpr) -> tuple[np.ndarray, np.ndarray]:
    """The least and greatest value of each element of ``e``, by its terms' bounds."""
    if e.model is None:
        return e.const.copy(), e.const.copy()
    lo, hi = e.model.ints.bounds()
    a, b = e.icoef * lo[e.ints], e.icoef * hi[e.ints]
    low = np.minimum(a, b).sum(axis=-1) + np.minimum(e.bcoef, 0).sum(axis=-1) + e.const
    high = np.maximum(a, b).sum(axis=-1) + np.maximum(e.bcoef, 0).sum(axis=-1) + e.const
    return low, high


def as_int(x: Any, what: str = "an operand") -> IntArray:
    """``x`` as integers: an IntArray itself, or new integers equal to a linear expression
    (whose variables give the model)."""
    if isinstance(x, IntArray):
        return x
    e = as_lin(x)
    if e.model is None:
        raise TypeError(f"{what} has no variables: use the number itself")
    model = e.model
    lo, hi = bounds(e)
    z = model.int_array(e.shape, int(lo.min(initial=0)), int(hi.max(initial=0)),
                        name="term", user=False)
    model.add(z >= lo, z <= hi, z == e)
    return z


def product(x: Any, y: Any) -> IntArray:
    """``x * y`` of two integer arrays (or sums), element by element."""
    a, b = as_int(x, "a factor"), as_int(y, "a factor")
    model = a.model if a.model is not None else b.model
    shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = IntArray(model, np.broadcast_to(a.ids, shape)), \
        IntArray(model, np.broadcast_to(b.ids, shape))
    (alo, ahi), (blo, bhi) = bounds(a.lin()), bounds(b.lin())
    if (ahi - alo).max(initial=0) > (bhi - blo).max(initial=0):
        a, b, alo, ahi, blo, bhi = b, a, blo, bhi, alo, ahi
    corners = np.stack([alo * blo, alo * bhi, ahi * blo, ahi * bhi])
    z = model.int_array(shape, int(corners.min(initial=0)), int(corners.max(initial=0)),
                        name="product", user=False)
    model.add(z >= corners.min(axis=0), z <= corners.max(axis=0))
    for v in range(int(alo.min(initial=0)), int(ahi.max(initial=0)) + 1):
        within = (alo <= v) & (v <= ahi)
        if not within.any():
            continue
        at = BoolArray(model, model.eq_literals(a.ids[within], v))
        model.add(at.implies(z[within] - v * b[within] == 0))
    return z


def absolute(x: Any) -> IntArray:
    """``abs(x)`` element by element."""
    xi = as_int(x)
    model = xi.model
    lo, hi = bounds(xi.lin())
    far = np.maximum(np.abs(lo), np.abs(hi))
    a = model.int_array(xi.shape, 0, int(far.max(initial=0)), name="abs", user=False)
    model.add(a <= far, a >= xi, a >= -xi)
    s = model.bool_array(xi.shape, name="sign", user=False)
    model.add(s.implies(xi >= 0), s.implies(a == xi), (~s).implies(xi <= 0),
              (~s).implies(a == -xi))
    return a


def divmod_by(x: Any, c: Any) -> tuple[IntArray, IntArray]:
    """``(x // c, x % c)`` for a whole number ``c`` >= 1 (floor division, as Python's)."""
    if isinstance(c, bool) or not isinstance(c, int | np.integer):
        raise TypeError("// and % take a whole number as divisor (a variable divisor is not "
                        "taken yet)")
    if c < 1:
        raise ValueError(f"// and % take a divisor of 1 or more, not {c}")
    xi = as_int(x)
    model = xi.model
    lo, hi = bounds(xi.lin())
    q = model.int_array(xi.shape, int(lo.min(initial=0)) // c, int(hi.max(initial=0)) // c,
                        name="quotient", user=False)
    r = model.int_array(xi.shape, 0, int(c) - 1, name="remainder", user=False)
    model.add(xi == int(c) * q + r)
    return q, r


def extreme(xs: Any, axis: int | None, largest: bool) -> IntArray:
    """The largest (or least) of ``xs`` along ``axis`` (of all of them when None)."""
    xi = as_int(xs)
    model = xi.model
    if axis is None:
        xi = IntArray(model, xi.ids.reshape(-1))
        axis = 0
    if xi.shape[axis] == 0:
        raise ValueError("the largest or least of no values")
    lo, hi = bounds(xi.lin())
    name = "max" if largest else "min"
    m = model.int_array(np.delete(np.array(xi.shape), axis).tolist(),
                        int(lo.min(initial=0)), int(hi.max(initial=0)), name=name, user=False)
    spread = IntArray(model, np.expand_dims(m.ids, axis))
    pick = model.bool_array(xi.shape, name=f"{name}-at", user=False)
    model.add(pick.sum(axis=axis) >= 1)
    if largest:
        model.add(spread >= xi, pick.implies(spread <= xi))
    else:
        model.add(spread <= xi, pick.implies(spread >= xi))
    return m


def Max(xs: Any, axis: int | None = None) -> IntArray:  # noqa: N802  (the documented name)
    """The largest of ``xs`` (along ``axis``), an integer usable in any expression."""
    return extreme(xs, axis, True)


def Min(xs: Any, axis: int | None = None) -> IntArray:  # noqa: N802
    """The least of ``xs`` (along ``axis``), an integer usable in any expression."""
    return extreme(xs, axis, False)
