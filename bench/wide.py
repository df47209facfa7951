"""Wide domains and big weights: the sat back end against cpsat and z3, in one process,
interleaved.

    python bench/wide.py [--repeat 3] [--time-limit 60] [--threshold]

Each model is built and solved (first solution, or the optimum) on each back end in turn,
``--repeat`` rounds; the table gives the median build + solve time per back end and the
ratio sat / cpsat. ``--threshold`` instead times the sat back end on one model at domain
sizes around ``lower.WIDE_FROM`` with each encoding forced (a literal per value, or binary
digits), to show where binary digits start to pay.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from smtpuzzle import AllDifferent, Element, Model, Regular


def wide_sum() -> Model:
    m = Model("wide-sum")
    x = m.int_array(2, 0, 10**5)
    m.add(x[0] + x[1] == 100007, x[0] - x[1] == 5)
    return m


def big_weight_objective() -> Model:
    m = Model("big-weight-objective")
    x = m.int_array(2, -3, 3)
    m.maximize(10**12 * x[0] + x[1])
    return m


def far_element() -> Model:
    m = Model("far-element")
    i = m.int_array((), 0, 3)
    m.add(Element([0, 10**12, 5, -10**12], i) == 10**12)
    return m


def wide_alldiff() -> Model:
    m = Model("wide-alldiff")
    x = m.int_array(6, 0, 10**6)
    m.add(AllDifferent(x), x.sum() == 3 * 10**6 + 15, x[:-1] - x[1:] >= 1000)
    return m


def wide_linear() -> Model:
    m = Model("wide-linear")
    x = m.int_array(3, 0, 10**6)
    m.add(3 * x[0] + 7 * x[1] - 11 * x[2] == 123_457, x[0] >= x[1] + 17, x[1] >= x[2] + 5)
    return m


def far_regular() -> Model:
    m = Model("far-regular")
    x = m.int_array(4, -10**12, 10**12)
    m.add(Regular(x, [(0, -10**12, 1), (1, 10**12, 0), (1, 7, 1)], 0, [0]))
    return m


def wide_optimum() -> Model:
    m = Model("wide-optimum")
    x = m.int_array(2, 0, 10**6)
    m.add(3 * x[0] + 5 * x[1] >= 10**6 + 1)
    m.minimize(x[0] + 2 * x[1])
    return m


MODELS: list[Callable[[], Model]] = [wide_sum, big_weight_objective, far_element, wide_alldiff,
                                     wide_linear, far_regular, wide_optimum]
BACKENDS = ("cpsat", "z3", "sat")


def timed(make: Callable[[], Model], backend: str, limit: float) -> tuple[float, str]:
    t0 = time.perf_counter()
    m = make()
    status = m.solve(backend, time_limit=limit)
    return time.perf_counter() - t0, str(status)


def compare(repeat: int, limit: float) -> None:
    print(f"| model | {' | '.join(f'{b} s' for b in BACKENDS)} | sat / cpsat | answers |")
    print(f"|---|{'---|' * len(BACKENDS)}---|---|")
    for make in MODELS:
        times: dict[str, list[float]] = {b: [] for b in BACKENDS}
        answers: dict[str, str] = {}
        for _ in range(repeat):
            for b in BACKENDS:
                t, status = timed(make, b, limit)
                times[b].append(t)
                answers[b] = status
        med = {b: statistics.median(times[b]) for b in BACKENDS}
        same = len(set(answers.values())) == 1
        print(f"| {make.__name__.replace('_', '-')} | "
              + " | ".join(f"{med[b]:.3f}" for b in BACKENDS)
              + f" | {med['sat'] / med['cpsat']:.1f}x | "
              + (answers["cpsat"] if same else str(answers)) + " |")


def threshold(repeat: int, limit: float) -> None:
    """The sat back end on ``x + y == c, x - y >= d, x != 2y`` over 0..n-1, each encoding
    forced."""
    import smtpuzzle.model.lower as lower

    def make(n: int) -> Callable[[], Model]:
        def build() -> Model:
            m = Model("threshold")
            x = m.int_array(3, 0, n - 1)
            m.add(x[0] + x[1] == n + 7, x[0] - x[1] >= n // 3, x[0] != 2 * x[1],
                  x[2] >= x[0] - x[1] + 1)
            return m
        return build

    print("| values | a literal per value, s | binary digits, s | binary / per value |")
    print("|---|---|---|---|")
    keep = lower.WIDE_FROM
    try:
        for n in (128, 512, 1024, 2048, 4096, 16384):
            got: dict[str, list[float]] = {"direct": [], "binary": []}
            for _ in range(repeat):
                for how, wide_from in (("direct", 10**12), ("binary", 2)):
                    lower.WIDE_FROM = wide_from
                    got[how].append(timed(make(n), "sat", limit)[0])
            d, b = (statistics.median(got[k]) for k in ("direct", "binary"))
            print(f"| {n:,} | {d:.3f} | {b:.3f} | {b / d:.2f} |")
    finally:
        lower.WIDE_FROM = keep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threshold", action="store_true")
    args = ap.parse_args()
    np.seterr(all="ignore")
    (threshold if args.threshold else compare)(args.repeat, args.time_limit)


if __name__ == "__main__":
    main()
