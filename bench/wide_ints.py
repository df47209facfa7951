"""The sat back end on weighted rows over wide integers: each integer's order literals
(one per value, the coefficient on each) against its binary digits (lower.BINARY_FROM), in
one process, interleaved.

    python bench/wide_ints.py [--repeat 2] [--time-limit 60]

Each model is solved by the sat back end with the digits turned off (BINARY_FROM past any
domain: the encoding before session 40) and on; the answers are checked against the rows.
Prints Markdown rows: the median seconds (build and solve) of each, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

import smtpuzzle.model.lower as lower
from smtpuzzle import Model

WEIGHTS = np.array([3, 7, 11, 13, 17, 19, 23, 29, 31, 37])


def window() -> tuple[Model, Callable[[], bool]]:
    """Ten integers in 0..1000, a weighted sum in a window of 51 values."""
    m = Model()
    x = m.int_array(10, 0, 1000, name="x")
    total = (x * WEIGHTS).sum()
    m.add(total >= 100_000)
    m.add(total <= 100_050)
    m.add(x[0] >= x[1] + 500)

    def ok() -> bool:
        v = x.value()
        return 100_000 <= int(v @ WEIGHTS) <= 100_050 and v[0] >= v[1] + 500
    return m, ok


def scaled() -> tuple[Model, Callable[[], bool]]:
    """z in 0..100,000 equal to 1000 x + 7 y, above a bound: one wide integer."""
    m = Model()
    z = m.int_array(1, 0, 100_000, name="z")
    x = m.int_array(1, 0, 100, name="x")
    y = m.int_array(1, 0, 999, name="y")
    m.add(z[0] == x[0] * 1000 + y[0] * 7)
    m.add(z[0] >= 54_321)
    m.add(z[0] <= 54_400)

    def ok() -> bool:
        zv, xv, yv = int(z.value()[0]), int(x.value()[0]), int(y.value()[0])
        return zv == 1000 * xv + 7 * yv and 54_321 <= zv <= 54_400
    return m, ok


def unsat() -> tuple[Model, Callable[[], bool]]:
    """The window, with x0 and x1 far apart and the sum a little smaller than that
    allows: no answer (a proof)."""
    m = Model()
    x = m.int_array(10, 0, 1000, name="x")
    m.add((x * WEIGHTS).sum() <= 1_500)
    m.add(x[0] >= x[1] + 500)
    m.add(x[1] >= 1)
    return m, lambda: False


MODELS = {"window": window, "scaled": scaled, "unsat": unsat}


def run(make: Callable[[], tuple[Model, Callable[[], bool]]], digits: bool,
        limit: float) -> tuple[float, str]:
    lower.BINARY_FROM = 64 if digits else 1 << 62
    model, ok = make()
    t0 = time.perf_counter()
    status = str(model.solve(backend="sat", time_limit=limit))
    took = time.perf_counter() - t0
    if status == "sat":
        assert ok(), "an answer that breaks its rows"
    return took, status


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    print("| model | order literals s | status | binary digits s | status | ratio |")
    print("| --- | ---: | --- | ---: | --- | ---: |")
    for name, make in MODELS.items():
        times: dict[bool, list[float]] = {False: [], True: []}
        statuses: dict[bool, set[str]] = {False: set(), True: set()}
        for _ in range(args.repeat):
            for digits in (False, True):
                took, status = run(make, digits, args.time_limit)
                times[digits].append(took)
                statuses[digits].add(status)
        a, b = statistics.median(times[False]), statistics.median(times[True])
        print(f"| {name} | {a:.2f} | {'/'.join(sorted(statuses[False]))} | {b:.2f} | "
              f"{'/'.join(sorted(statuses[True]))} | {a / b:.1f} |", flush=True)


if __name__ == "__main__":
    main()
