"""Counting benchmarks: our exact-cover engine against xcover, and how far the solver back
ends get in the same time.

    python bench/count.py engines [--models ...]        raw counts, ours vs xcover, 1 process
    python bench/count.py targets [--workers 2] [--raw] distinct (and raw) counts, targets
    python bench/count.py backends [--time-limit 20] [--models all|...]
                                                        cpsat / sat / z3 within a time limit
    python bench/count.py touch [--time-limit 60]       untouchable: vertex-dual vs pairs
    python bench/count.py scale [--long]                issue 24's targets (--long: 9x16)
    python bench/count.py split                         nodes: sweep-order vs mrv split
    python bench/count.py estimate                      estimated share done vs nodes done
    python bench/count.py deadends [--models ...]       the sweep's dead-end table off / on

Everything runs in one process (workers aside), interleaved, and prints Markdown tables.
xcover is optional (pip install xcover); its JIT warm-up is run once before timing.
"""

from __future__ import annotations

import argparse
import time

from smtpuzzle import load
from smtpuzzle.puzzles.tiling.counting import count

RAW = ["pentomino-6x10", "pentomino-8x8-center-hole", "pentomino-8x8-square", "soma-3x3x3"]
TARGETS = [("pentomino-6x10", 1), ("pentomino-8x8-square", 10), ("pentacube-3x4x5", 30),
           ("pentomino-5x12", None), ("pentomino-4x15", None), ("pentomino-3x20", None),
           ("pentomino-8x8-center-hole", None), ("pentomino-8x8-no-corners", None),
           ("pentacube-2x3x10", None), ("pentacube-2x5x6", None), ("soma-3x3x3", None)]
BACKEND_MODELS = ["pentomino-6x10", "pentomino-8x8-square", "pentacube-3x4x5", "soma-3x3x3",
                  "untouchable-11-12x12"]
UNTOUCHABLE = [f"untouchable-11-{s}" for s in ("12x12", "11x13", "9x16", "8x18", "6x24")]
ORACLES = [name for name, _ in TARGETS] + UNTOUCHABLE  # every model with a published count


def xcover_raw(name: str) -> tuple[int, float]:
    import xcover

    t = load(name)
    options = []
    for i in range(t.num_placements):
        piece, cells = t.placement(i)
        options.append([f"p:{piece}"] + [f"c:{c}" for c in cells])
    t0 = time.perf_counter()
    n = sum(1 for _ in xcover.covers(options))
    return n, time.perf_counter() - t0


def engines(models: list[str]) -> None:
    try:
        import xcover  # noqa: F401

        xcover_raw("pentomino-3x20")  # JIT warm-up
    except ImportError:
        xcover = None
    count(load("pentomino-3x20"), distinct=False)  # our JIT cache load
    print("| model | raw count | ours s | xcover s | xcover / ours |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in models:
        ours = count(load(name), distinct=False, workers=1)
        if xcover is not None:
            n, secs = xcover_raw(name)
            assert n == ours.count, (name, n, ours.count)
            print(f"| {name} | {ours.count} | {ours.time_s:.2f} | {secs:.2f} | "
                  f"{secs / ours.time_s:.1f} |", flush=True)
        else:
            print(f"| {name} | {ours.count} | {ours.time_s:.2f} | - | - |", flush=True)


def targets(workers: int, raw: bool) -> None:
    count(load("pentomino-3x20"), distinct=True)  # JIT cache load
    print("| model | distinct (raw) | workers | time s | target s | sub-problems |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, target in TARGETS:
        t = load(name)
        r = count(t, distinct=True, workers=workers)
        raw_count = f" ({count(t, distinct=False, workers=workers).count})" if raw else ""
        mark = "" if target is None else f"{target}"
        print(f"| {name} | {r.count}{raw_count} | {workers} | {r.time_s:.2f} | {mark} | "
              f"{r.subproblems} |", flush=True)


def backends(time_limit: float, models: list[str]) -> None:
    print(f"| model | exact-cover | cpsat | sat | z3 |  (distinct count reached in "
          f"{time_limit:g} s; * = complete)")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in models:
        t = load(name)
        cells = []
        for b in ("exact-cover", "cpsat", "sat", "z3"):
            r = count(t, backend=b, distinct=True, time_limit=time_limit)
            cells.append(f"{r.count}{'*' if r.complete else ''}")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def touch(time_limit: float) -> None:
    """The two encodings of touch = "none" on the same puzzle and back ends."""
    from smtpuzzle import get_backend
    from smtpuzzle.puzzles.tiling.counting import plan, submodel

    base = load("untouchable-11-6x24")
    print("| encoding | variables | constraints | cpsat first s | sat first s |"
          " exact-cover, first 3 sub-problems s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for encoding in ("vertex", "pairs"):
        base.touch_encoding = encoding
        model = base.build_model()
        cells = [encoding, str(model.num_vars),
                 str(len(model.all_exactly_one()) + len(model.all_at_most_one()))]
        for name in ("cpsat", "sat"):
            r = get_backend(name).solve(model, time_limit=time_limit)
            if r.values is not None:
                base.verify(base.decode(r.values))
            total = r.stats.build_time + r.stats.solve_time
            cells.append(f"{total:.1f}" if r.values is not None else f">{time_limit:g}")
        engine = get_backend("exact-cover")
        t0 = time.perf_counter()
        for sp in plan(base, distinct=True, split=False).subproblems[:3]:
            engine.count(submodel(model, sp))
        cells.append(f"{time.perf_counter() - t0:.1f}")
        print("| " + " | ".join(cells) + " |", flush=True)


SCALE = [("pentacube-3x4x5", True, 2, 5), ("pentomino-8x8-square", False, 1, 10),
         ("untouchable-11-12x12", True, 2, 60)]


def scale(long: bool) -> None:
    """Issue 24's targets: each count to the end, with its workers, against its target."""
    count(load("pentomino-3x20"), distinct=True)  # JIT cache load
    print("| model | count | distinct | workers | sub-problems | time s | target s |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    runs = SCALE + ([("untouchable-11-9x16", True, 2, 1800)] if long else [])
    for name, distinct, workers, target in runs:
        r = count(load(name), distinct=distinct, workers=workers)
        assert r.complete
        print(f"| {name} | {r.count} | {distinct} | {workers} | {r.subproblems} | "
              f"{r.time_s:.2f} | {target} |", flush=True)


def _search_all(model, subproblems) -> tuple[int, float]:
    """Nodes searched by these sub-problems on exact cover (those without a stabilizer),
    and the seconds taken by all of them."""
    from smtpuzzle import get_backend
    from smtpuzzle.puzzles.tiling.counting import solve_subproblem, submodel

    engine, nodes = get_backend("exact-cover"), 0
    t0 = time.perf_counter()
    for sp in subproblems:
        if sp.stabilizer is not None:
            solve_subproblem(model, sp, engine, None)
            continue
        nodes += engine.count_part(submodel(model, sp)).nodes
    return nodes, time.perf_counter() - t0


def split() -> None:
    """Nodes searched by the sub-problems of each split, in one process: whole (one per kept
    placement), split on the first free cell in sweep order, split on the mrv item."""
    from smtpuzzle.puzzles.tiling.counting import _refine, plan

    print("| model | split | sub-problems | nodes (non-stabilizer parts) | time s |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name in ("pentomino-6x10", "pentomino-8x8-square", "pentacube-3x4x5"):
        t = load(name)
        model = t.build_model()
        whole = plan(t, True, split=False).subproblems
        for label, subs in (("whole", whole),
                            ("sweep cell", [p for sp in whole for p in _refine(t, sp, "cell")]),
                            ("mrv item", [p for sp in whole for p in _refine(t, sp)])):
            nodes, secs = _search_all(model, subs)
            print(f"| {name} | {label} | {len(subs)} | {nodes:,} | {secs:.2f} |", flush=True)


def estimate() -> None:
    """How the share-done estimate tracks the share of nodes searched, per kernel."""
    from smtpuzzle.backends.exactcover import CoverSearch, from_model

    print("| model | kernel | estimate at 10%, 20%, ... 90% of the nodes |")
    print("| --- | --- | --- |")
    for name in ("pentomino-6x10", "pentomino-8x8-square"):
        problem = from_model(load(name).build_model())
        for branching in ("sweep", "mrv"):
            total = CoverSearch(problem, branching=branching)
            total.run()
            search, marks, points = CoverSearch(problem, branching=branching), 1, []
            while not search.done:
                search.step(max(total.nodes // 1000, 1000))
                while marks < 10 and search.nodes >= marks * total.nodes / 10:
                    points.append(f"{search.share_done():.2f}")
                    marks += 1
            print(f"| {name} | {branching} | {', '.join(points)} |", flush=True)


def deadends(models: list[str]) -> None:
    """The dead-end table of the sweep, off and on, in one process: every sub-problem of a
    distinct count searched in turn (as one worker would), and frames stage 1 listed."""
    from smtpuzzle.backends.exactcover import deadends as table
    from smtpuzzle.library import load_frames
    from smtpuzzle.puzzles.frames.sets import enumerate_sets
    from smtpuzzle.puzzles.tiling.counting import plan

    print("| model | job | table | nodes | result | time s |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for name in models:
        for on in (False, True):
            table.ENABLED = on
            t0 = time.perf_counter()
            if name.startswith(("hexomino", "pentahex", "heptomino")):
                sets = enumerate_sets(load_frames(name), cache=False)
                job, nodes, result = "frames stage 1", "", f"{len(sets.sets)} sets"
            else:
                t = load(name)
                n, secs = _search_all(t.build_model(), plan(t, True).subproblems)
                job, nodes, result = "distinct count", f"{n:,}", ""
            print(f"| {name} | {job} | {'on' if on else 'off'} | {nodes} | {result} | "
                  f"{time.perf_counter() - t0:.1f} |", flush=True)
    table.ENABLED = True


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["engines", "targets", "backends", "touch", "scale",
                                     "split", "estimate", "deadends"])
    ap.add_argument("--models", nargs="*", help="model names, or all (every oracle); default: "
                    "a few per command")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--raw", action="store_true", help="targets: also count raw solutions")
    ap.add_argument("--long", action="store_true", help="scale: also untouchable-11-9x16")
    args = ap.parse_args()
    models = ORACLES if args.models == ["all"] else args.models
    if args.what == "engines":
        engines(models or RAW)
    elif args.what == "targets":
        targets(args.workers, args.raw)
    elif args.what == "touch":
        touch(args.time_limit)
    elif args.what == "scale":
        scale(args.long)
    elif args.what == "split":
        split()
    elif args.what == "estimate":
        estimate()
    elif args.what == "deadends":
        deadends(models or ["hexomino-6x6x6", "untouchable-11-12x12"])
    else:
        backends(args.time_limit, models or BACKEND_MODELS)


if __name__ == "__main__":
    main()
