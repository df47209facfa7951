"""Arithmetic between variables: products ``x * y``, ``abs(x)``, ``Min`` / ``Max`` of
arrays, and floor division and modulo (``x // d``, ``x % d``, by a whole number or by an
integer). Each gives new (auxiliary) integers, used in sums and comparisons like any
integer.

Products, ``abs``, ``Min`` and ``Max`` are kept as :class:`ArithRows` (the kind
"arithmetic" in model/kinds.py), which CP-SAT and z3 take as they are; for the other back
ends ``ArithRows.decompose`` posts their decompositions:

- ``x * y``: for each value v of the operand with the smaller domain, ``x == v`` implies
  ``z == v * y`` (a reified linear row per value);
- ``abs(x)``: a sign literal s, with s implying ``x >= 0`` and ``a == x``, and not s
  ``x <= 0`` and ``a == -x``;
- ``Max(xs)``: ``m >= x_i`` for every i, and a selector per i, one of them true, implying
  ``m <= x_i`` (``Min`` alike).

Division is posted at once as what defines it (Python's floor division): by a whole number
c, ``x == c * q + r`` with ``0 <= r < c``; by an integer y, ``x == y * q + r`` (a product)
with y nonzero and r between 0 and y (0 included, y excluded, on y's side of 0).

A linear expression given as an operand becomes an integer first (its bounds from its
terms').
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.model.core import Model
from smtpuzzle.model.expr import BoolArray, IntArray, LinExpr, _stacked, as_lin

_I = np.int64
KIND = "arithmetic"  # Model.parts[KIND]: the ArithRows
PRODUCT_MAX_VALUES = 1 << 16  # values of the smaller factors a product's decomposition takes
OPS = ("mul", "abs", "max", "min")


@dataclass(frozen=True)
class ArithRows:
    """``target[i] == op(*operands[i])`` over integers by id: ``op`` is "mul" (two
    operands), "abs" (one), "max" or "min" (one or more)."""

    op: str
    target: np.ndarray  # (n,)
    operands: np.ndarray  # (n, k)

    def __len__(self) -> int:
        return len(self.target)

    def decompose(self, out: Model) -> None:
        """Post these rows into ``out`` as their decompositions (the module docstring)."""
        z, ops = IntArray(out, self.target), self.operands
        if self.op == "mul":
            _post_product(out, z, ops[:, 0], ops[:, 1])
        elif self.op == "abs":
            x = IntArray(out, ops[:, 0])
            s = out.bool_array(len(z), name="sign", user=False)
            out.add(z >= x, z >= -x, s.implies(x >= 0), s.implies(z == x),
                    (~s).implies(x <= 0), (~s).implies(z == -x))
        else:
            xs, spread = IntArray(out, ops), IntArray(out, self.target[:, None])
            pick = out.bool_array(ops.shape, name=f"{self.op}-at", user=False)
            out.add(pick.sum(axis=1) >= 1)
            if self.op == "max":
                out.add(spread >= xs, pick.implies(spread <= xs))
            else:
                out.add(spread <= xs, pick.implies(spread >= xs))


def _record(model: Model, op: str, target: IntArray, operands: np.ndarray) -> None:
    model.parts.setdefault(KIND, []).append(
        ArithRows(op, target.ids.reshape(-1).copy(),
                  operands.reshape(target.size, -1).astype(_I, copy=True)))


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
    # an element that is one integer as it is (coefficient 1, nothing added) stays itself
    terms = e.icoef != 0
    plain = (terms.sum(axis=-1) == 1) & ((e.icoef * terms).sum(axis=-1) == 1) \
        & ~(e.bcoef != 0).any(axis=-1) & (e.const == 0)
    ids = np.where(plain, (e.ints * terms).sum(axis=-1), -1)
    if plain.all():
        return IntArray(model, ids)
    rest = e[~plain] if e.shape else e
    lo, hi = bounds(rest)
    z = model.int_array(rest.shape, int(lo.min(initial=0)), int(hi.max(initial=0)),
                        name="term", user=False)
    model.add(z >= lo, z <= hi, z == rest)
    ids[~plain] = z.ids
    return IntArray(model, ids)


def _broadcast(*xs: IntArray) -> list[IntArray]:
    model = next(x.model for x in xs if x.model is not None)
    shape = np.broadcast_shapes(*(x.shape for x in xs))
    return [IntArray(model, np.broadcast_to(x.ids, shape)) for x in xs]


def _far(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return np.maximum(np.abs(lo), np.abs(hi))


def product(x: Any, y: Any) -> IntArray:
    """``x * y`` of two integer arrays (or sums), element by element."""
    a, b = _broadcast(as_int(x, "a factor"), as_int(y, "a factor"))
    model = a.model
    (alo, ahi), (blo, bhi) = bounds(a.lin()), bounds(b.lin())
    if (_far(alo, ahi).astype(float) * _far(blo, bhi)).max(initial=0) >= 2.0**62:
        raise ValueError("x * y: a product that can reach 2**62, too large for 64-bit "
                         "arithmetic (narrow the factors' domains)")
    corners = np.stack([alo * blo, alo * bhi, ahi * blo, ahi * bhi])
    z = model.int_array(a.shape, int(corners.min(initial=0)), int(corners.max(initial=0)),
                        name="product", user=False)
    model.add(z >= corners.min(axis=0), z <= corners.max(axis=0))
    _record(model, "mul", z, np.stack([a.ids.reshape(-1), b.ids.reshape(-1)], axis=1))
    return z


def absolute(x: Any) -> IntArray:
    """``abs(x)`` element by element."""
    xi = as_int(x)
    model = xi.model
    lo, hi = bounds(xi.lin())
    low = np.where(lo > 0, lo, np.where(hi < 0, -hi, 0))
    a = model.int_array(xi.shape, 0, int(_far(lo, hi).max(initial=0)), name="abs", user=False)
    model.add(a <= _far(lo, hi), a >= low)
    _record(model, "abs", a, xi.ids)
    return a


def divmod_by(x: Any, d: Any) -> tuple[IntArray, IntArray]:
    """``(x // d, x % d)`` (floor division, as Python's) for a whole number ``d`` >= 1 or
    integer variables ``d`` (required nonzero: a zero divisor has no quotient)."""
    if isinstance(d, IntArray | LinExpr) and as_lin(d).model is not None:
        return _divmod_by_variables(x, d)
    if isinstance(d, bool) or not isinstance(d, int | np.integer):
        raise TypeError(f"// and % take a whole number or integer variables as divisor, "
                        f"not {type(d).__name__}")
    if d < 1:
        raise ValueError(f"// and % take a constant divisor of 1 or more, not {d}")
    xi = as_int(x)
    model = xi.model
    lo, hi = bounds(xi.lin())
    q = model.int_array(xi.shape, int(lo.min(initial=0)) // d, int(hi.max(initial=0)) // d,
                        name="quotient", user=False)
    r = model.int_array(xi.shape, 0, int(d) - 1, name="remainder", user=False)
    model.add(xi == int(d) * q + r)
    return q, r


def _divmod_by_variables(x: Any, d: Any) -> tuple[IntArray, IntArray]:
    xi, yi = _broadcast(as_int(x), as_int(d, "a divisor"))
    model = xi.model
    (lo, hi), (ylo, yhi) = bounds(xi.lin()), bounds(yi.lin())
    if ((ylo == 0) & (yhi == 0)).any():
        raise ValueError("// and %: a divisor that can only be 0")
    far = int(_far(lo, hi).max(initial=0))  # |x // y| <= |x| for y nonzero
    q = model.int_array(xi.shape, -far, far, name="quotient", user=False)
    r = model.int_array(xi.shape, min(int(ylo.min(initial=0)) + 1, 0),
                        max(int(yhi.max(initial=0)) - 1, 0), name="remainder", user=False)
    positive = (yi >= 1).reified()
    model.add(yi != 0, xi == product(yi, q) + r,
              positive.implies(r >= 0), positive.implies(r <= yi - 1),
              (~positive).implies(r <= 0), (~positive).implies(r >= yi + 1))
    return q, r


def extreme(xs: Any, axis: int | None, largest: bool) -> IntArray:
    """The largest (or least) of ``xs`` (an array, or a list of integers and sums) along
    ``axis`` (of all of them when None)."""
    xi = as_int(_stacked(xs))
    model = xi.model
    ids = xi.ids.reshape(-1, 1).T if axis is None else np.moveaxis(xi.ids, axis, -1)
    if ids.shape[-1] == 0:
        raise ValueError("the largest or least of no values")
    lo, hi = bounds(IntArray(model, ids).lin())
    low = (lo.max if largest else lo.min)(axis=-1)  # the bounds the result has
    high = (hi.max if largest else hi.min)(axis=-1)
    m = model.int_array(() if axis is None else ids.shape[:-1], int(low.min(initial=0)),
                        int(high.max(initial=0)), name="max" if largest else "min",
                        user=False)
    model.add(m >= low.reshape(m.shape), m <= high.reshape(m.shape))
    _record(model, "max" if largest else "min", m, ids)
    return m


def Max(xs: Any, axis: int | None = None) -> IntArray:  # noqa: N802  (the documented name)
    """The largest of ``xs`` (along ``axis``), an integer usable in any expression."""
    return extreme(xs, axis, True)


def Min(xs: Any, axis: int | None = None) -> IntArray:  # noqa: N802
    """The least of ``xs`` (along ``axis``), an integer usable in any expression."""
    return extreme(xs, axis, False)


# -- the product's decomposition, for the back ends that take no "arithmetic" --------------

def _post_product(model: Model, z: IntArray, a: np.ndarray, b: np.ndarray) -> None:
    """z == a * b: for each value v of the factor with the smaller domain (element by
    element), that factor == v implies z == v * the other. Each element costs a row per
    value of its smaller factor: past PRODUCT_MAX_VALUES in all, it is refused."""
    lo, hi = model.ints.bounds()
    swap = hi[a] - lo[a] > hi[b] - lo[b]
    a, b = np.where(swap, b, a), np.where(swap, a, b)
    widths = hi[a] - lo[a] + 1
    if int(widths.sum()) > PRODUCT_MAX_VALUES:
        raise PuzzleError(f"a product x * y whose smaller factor takes {int(widths.max())} "
                          f"values: {int(widths.sum())} rows in all to decompose for this "
                          f"back end, past {PRODUCT_MAX_VALUES} (cpsat and z3 take products "
                          "as they are)")
    element = np.repeat(np.arange(len(a)), widths)
    value = np.repeat(lo[a] - np.cumsum(widths) + widths, widths) + np.arange(len(element))
    other = IntArray(model, b)
    order = np.argsort(value, kind="stable")
    value, element = value[order], element[order]
    starts = np.flatnonzero(np.r_[True, value[1:] != value[:-1]])
    for v, within in zip(value[starts].tolist(), np.split(element, starts[1:]), strict=True):
        at = BoolArray(model, model.eq_literals(a[within], v))
        model.add(at.implies(z[within] - v * other[within] == 0))
