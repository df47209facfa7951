"""CP-SAT listing every answer of a model with integers: its own enumeration (the session
is "pure": every variable an answer or an answer's channel) against re-solving with each
answer forbidden (what such models got before session 40), in one process, interleaved.

    python bench/cpsat_enumeration.py [--repeat 2] [--time-limit 60]

Prints Markdown rows: answers counted, seconds and whether the count is complete, per way.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from smtpuzzle import Model
from smtpuzzle.backends.cpsat import CpSatSession

WEIGHTS = np.array([-4, 1, 3])


def window(top: int) -> Model:
    """Three integers and two reified bounds on a weighted sum of them."""
    m = Model()
    x = m.int_array(3, 0, 150, name="x")
    b = m.bool_array(2, name="b")
    total = (x * WEIGHTS).sum()
    m.add(b[0].implies(total >= -156), b[1] == (total <= -120))
    m.add(x[0] <= top, x[1] <= 15, x[2] <= 5)
    return m


def send_more() -> Model:
    """SEND + MORE = MONEY without M != 0 and AllDifferent: many answers."""
    m = Model()
    s, e, n, d, o, r, y = (m.int_array((), 0, 9, name=c) for c in "SENDORY")
    mo = m.int_array((), 0, 1, name="M")
    m.add(1000 * s + 100 * e + 10 * n + d + 1000 * mo + 100 * o + 10 * r + e
          == 10000 * mo + 1000 * o + 100 * n + 10 * e + y)
    return m


MODELS = {"window 0..5": lambda: window(5), "window 0..20": lambda: window(20),
          "send+more, no alldiff": send_more}


def run(model: Model, native: bool, limit: float) -> tuple[float, int, bool]:
    real = CpSatSession.__init__

    def opened(self, *args, **kwargs) -> None:
        real(self, *args, **kwargs)
        self.pure = self.pure and native

    CpSatSession.__init__ = opened
    try:
        t0 = time.perf_counter()
        count, complete = model.count("cpsat", time_limit=limit)
        return time.perf_counter() - t0, count, complete
    finally:
        CpSatSession.__init__ = real


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    print("| model | re-solving s | answers | enumeration s | answers | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, make in MODELS.items():
        times: dict[bool, list[float]] = {False: [], True: []}
        counts: dict[bool, str] = {}
        for _ in range(args.repeat):
            for native in (False, True):
                took, n, complete = run(make(), native, args.time_limit)
                times[native].append(took)
                counts[native] = f"{n:,}" + ("" if complete else " (time limit)")
        a, b = statistics.median(times[False]), statistics.median(times[True])
        print(f"| {name} | {a:.2f} | {counts[False]} | {b:.2f} | {counts[True]} | "
              f"{a / b:.0f} |", flush=True)


if __name__ == "__main__":
    main()
