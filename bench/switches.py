"""Two modeller encodings switched off, then on, in one process, interleaved:

    python bench/switches.py digits [--repeat 2] [--time-limit 60]
    python bench/switches.py enumeration [--repeat 2] [--time-limit 60]

``digits``: the sat back end on weighted rows over wide integers, each integer by its
order literals (one per value, the coefficient on each: BINARY_FROM past any domain, the
encoding before session 40) against its binary digits (lower.BINARY_FROM); each answer is
checked against the rows. ``enumeration``: CP-SAT listing every answer of a model with
integers by re-solving with each answer forbidden (what such models got before session 40,
and impure ones before session 41) against its own enumeration (each answer listed once).
Prints Markdown rows: the median seconds of each way, what each answered, and the ratio of
the medians.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

import smtpuzzle.model.lower as lower
from smtpuzzle import Model
from smtpuzzle.backends.cpsat import CpSatSession

PRIMES = np.array([3, 7, 11, 13, 17, 19, 23, 29, 31, 37])
SIGNED = np.array([-4, 1, 3])

# -- digits: models whose answers are checked against their rows ------------------------


def window() -> tuple[Model, Callable[[], bool]]:
    """Ten integers in 0..1000, a weighted sum in a window of 51 values."""
    m = Model()
    x = m.int_array(10, 0, 1000, name="x")
    total = (x * PRIMES).sum()
    m.add(total >= 100_000)
    m.add(total <= 100_050)
    m.add(x[0] >= x[1] + 500)

    def ok() -> bool:
        v = x.value()
        return 100_000 <= int(v @ PRIMES) <= 100_050 and v[0] >= v[1] + 500
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
    m.add((x * PRIMES).sum() <= 1_500)
    m.add(x[0] >= x[1] + 500)
    m.add(x[1] >= 1)
    return m, lambda: False


def solve_digits(make: Callable[[], tuple[Model, Callable[[], bool]]], on: bool,
                 limit: float) -> tuple[float, str]:
    lower.BINARY_FROM = 64 if on else 1 << 62
    model, ok = make()
    t0 = time.perf_counter()
    status = str(model.solve(backend="sat", time_limit=limit))
    took = time.perf_counter() - t0
    if status == "sat":
        assert ok(), "an answer that breaks its rows"
    return took, status

# -- enumeration: models with many answers ----------------------------------------------


def reified(top: int, hidden: bool = False) -> Model:
    """Three integers and two reified bounds on a weighted sum of them; ``hidden`` adds an
    integer that is no answer."""
    m = Model()
    x = m.int_array(3, 0, 150, name="x")
    b = m.bool_array(2, name="b")
    total = (x * SIGNED).sum()
    m.add(b[0].implies(total >= -156), b[1] == (total <= -120))
    m.add(x[0] <= top, x[1] <= 15, x[2] <= 5)
    if hidden:  # no answer, so up to four assignments an answer
        h = m.int_array((), 0, 3, name="h", user=False)
        m.add(h <= x[2])
    return m


def send_more() -> Model:
    """SEND + MORE = MONEY without M != 0 and AllDifferent: many answers."""
    m = Model()
    s, e, n, d, o, r, y = (m.int_array((), 0, 9, name=c) for c in "SENDORY")
    mo = m.int_array((), 0, 1, name="M")
    m.add(1000 * s + 100 * e + 10 * n + d + 1000 * mo + 100 * o + 10 * r + e
          == 10000 * mo + 1000 * o + 100 * n + 10 * e + y)
    return m


def count_answers(make: Callable[[], Model], on: bool, limit: float) -> tuple[float, str]:
    real = CpSatSession.__init__

    def opened(self, *args, **kwargs) -> None:
        real(self, *args, **kwargs)
        self.pure = self.pure and on
        self.dedupe = on

    model = make()
    CpSatSession.__init__ = opened
    try:
        t0 = time.perf_counter()
        count, complete = model.count("cpsat", time_limit=limit)
        took = time.perf_counter() - t0
    finally:
        CpSatSession.__init__ = real
    return took, f"{count:,}" + ("" if complete else " (time limit)")


# (off, on, each model by name, one run: its seconds and its answer)
SWITCHES: dict[str, tuple[str, str, dict[str, Callable], Callable[..., tuple[float, str]]]] = {
    "digits": ("order literals", "binary digits",
               {"window": window, "scaled": scaled, "unsat": unsat}, solve_digits),
    "enumeration": ("re-solving", "enumeration",
                    {"window 0..5": lambda: reified(5), "window 0..20": lambda: reified(20),
                     "window 0..20, hidden": lambda: reified(20, hidden=True),
                     "send+more, no alldiff": send_more}, count_answers),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("switch", choices=list(SWITCHES))
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    off, on, models, run = SWITCHES[args.switch]
    print(f"| model | {off} s | answer | {on} s | answer | ratio |")
    print("| --- | ---: | --- | ---: | --- | ---: |")
    for name, make in models.items():
        times: dict[bool, list[float]] = {False: [], True: []}
        answers: dict[bool, set[str]] = {False: set(), True: set()}
        for _ in range(args.repeat):
            for switched in (False, True):
                took, answer = run(make, switched, args.time_limit)
                times[switched].append(took)
                answers[switched].add(answer)
        a, b = statistics.median(times[False]), statistics.median(times[True])
        print(f"| {name} | {a:.2f} | {' / '.join(sorted(answers[False]))} | {b:.2f} | "
              f"{' / '.join(sorted(answers[True]))} | {a / b:.1f} |", flush=True)


if __name__ == "__main__":
    main()
