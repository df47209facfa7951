"""Maze-sequence benchmarks: the windows of the known 79-move string (``--width`` letters
replaced by one fewer free moves: is there a 78-move string that differs from it only
there?), and the 4x4 searches from scratch.

    python bench/maze.py windows [--offsets 0,27,53|all] [--width 26] [--time-limit 60]
                                 [--backends mdd,sat] [--max-states N] [--split K]
                                 [--split-depth D] [--checkpoints DIR]
    python bench/maze.py four [--lengths 28,29] [--time-limit 600]
    python bench/maze.py stars [--stars 5,10,15] [--time-limit 60] [--backends sat,z3,cpsat]
    python bench/maze.py seeds [--lengths 29] [--seeds 6] [--time-limit 600]   (local search)
    python bench/maze.py deletions [--k 1,2]   the 79 with k letters deleted and k - 1 free
                                               letters inserted anywhere (78 moves): all
                                               checked on every 3x3 case
    python bench/maze.py dropped --k 1 --width 20 [--part I/N]   the 79 with k letters
                                               deleted anywhere and a window of the rest
                                               rewritten (as many free moves): 78 moves
    python bench/maze.py proofs [--lengths 26,28,30] [--check]   the bound's certificate per
                                               length: the diagram proof's size, and with
                                               --check, check-bound's time on it
    python bench/maze.py mirror [--lengths 34,36,38]   the bound's proof per length without
                                               and with the mirror rule, in one process
    python bench/maze.py sorts [--lengths 36,37]   the bound's proof per length with
                                               np.unique, then with mdd.unique_inverse (the
                                               packed sort), twice each, in one process
    python bench/maze.py malloc [--lengths 41]   the bound's proof per length in a fresh
                                               process with glibc's default malloc, then
                                               with glibc keeping freed memory (the GLIBC_KEEP
                                               variables), twice each: wall, user and system
                                               seconds, peak memory
    python bench/maze.py picks [--sizes 4:28,4x4:44,3:32]   the bound's proof of L moves per
                                               size, adding the first failing case, then the
                                               sampled one, twice each, in one process
    python bench/maze.py shorten [--sizes 2x3,2x4,2x5] [--time-limit 600]   per size, the
                                               greedy string (maze build), then maze shorten
                                               on it: moves before and after, the widest
                                               width refuted whole, windows, seconds
    python bench/maze.py cubes --lengths 44 --prefixes NN,NS [--json FILE]   the bound's
                                               proof of one length split by its first moves
                                               (cubes: each prefix a search of its own, with
                                               the mirror rule; the length is proved when
                                               every prefix N.. that the rule allows is)

One process (malloc: one a run); back ends interleaved per pattern. Prints Markdown rows.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

from smtpuzzle.puzzles.maze.cases import (
    KNOWN_79,
    LETTERS,
    all_cases,
    check,
    failing,
    solved_by,
)
from smtpuzzle.puzzles.maze.mdd import MAX_STATES, SPLIT_DEPTH
from smtpuzzle.puzzles.maze.search import search


def row(label: str, backend: str, pattern: str, size: int, limit: float, seed: int | None = None,
        checkpoint: Path | None = None) -> None:
    r = search(pattern, size, backend, time_limit=limit, seed=seed, max_states=MAX_STATES,
               split_depth=SPLIT_DEPTH, checkpoint=checkpoint)
    if r.checkpoint and r.checkpoint["resumed_cubes"]:
        label += f" (resumed: {r.checkpoint['resumed_cubes']} cubes proved before)"
    print(f"| {label} | {backend} | {r.status} | {r.mazes_added} | {r.cubes} | {r.time_s:.2f} | "
          f"{r.solver_time_s:.2f} | {r.string or '-'} |", flush=True)


def deletions(ks: list[int]) -> None:
    """Every 78-move string made from the 79 by deleting k letters and inserting k - 1
    letters anywhere: first tested on the cases the 79 itself needs most (its letters
    deleted fail them), the survivors on all 36,864 cases."""
    cases = all_cases(3)
    known = np.array([LETTERS.index(c) for c in KNOWN_79])
    print("| k deleted | letters inserted | strings | solving every case | time s |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    # a screen: the cases that the one-letter deletions fail, most often first
    fails = np.zeros(len(cases), dtype=np.int64)
    for d in range(len(KNOWN_79)):
        fails[failing(cases, KNOWN_79[:d] + KNOWN_79[d + 1:])] += 1
    order = np.argsort(-fails, kind="stable")
    screens = [cases.subset(order[:200]), cases.subset(order[:3000])]
    for k in ks:
        t0, total, found = time.perf_counter(), 0, []
        for dels in itertools.combinations(range(len(known)), k):
            base = np.delete(known, dels)
            cands = [base]
            for _ in range(k - 1):  # insert one letter at every position, k - 1 times
                grown = []
                for c in cands:
                    for i in range(len(c) + 1):
                        for a in range(4):
                            grown.append(np.insert(c, i, a))
                cands = grown
            batch = np.unique(np.array(cands), axis=0)
            total += len(batch)
            ok = batch
            for screen in screens:
                ok = ok[solved_by(screen, ok, np.arange(len(screen))).all(axis=1)]
            for row in ok:
                string = "".join(LETTERS[i] for i in row)
                if check(string, 3).unsolved == 0:
                    found.append(string)
        print(f"| {k} | {k - 1} | {total:,} | {len(found)} | {time.perf_counter() - t0:.1f} |",
              flush=True)
        for string in found:
            print(f"new 78-move string: {string}")


def dropped(k: int, width: int, limit: float, part: str = "1/1") -> None:
    """Every 78-move string made from the 79 by deleting k letters anywhere and rewriting
    a window of ``width`` letters of what is left with as many free moves (k = 1: 79 x 59
    patterns at width 20, fewer once the same pattern comes twice): each searched by the
    mdd back end, one row of totals and any string found. ``part`` I/N searches every
    N-th distinct pattern from the I-th (N processes share the work)."""
    distinct: dict[str, None] = {}
    for dels in itertools.combinations(range(len(KNOWN_79)), k):
        left = "".join(c for i, c in enumerate(KNOWN_79) if i not in dels)
        for a in range(len(left) - width + 1):
            distinct[left[:a] + "*" * width + left[a + width:]] = None
    first, every = (int(x) for x in part.split("/"))
    patterns = list(distinct)[first - 1::every]
    t0 = time.perf_counter()
    counts = {"unsat": 0, "unknown": 0, "sat": 0}
    slowest, found, undecided = 0.0, [], []
    for n, pattern in enumerate(patterns, 1):
        r = search(pattern, 3, "mdd", time_limit=limit, max_states=MAX_STATES,
                   split_depth=SPLIT_DEPTH)
        counts[r.status] += 1
        if n % 250 == 0:  # a long run's progress, on stderr
            print(f"{n:,}/{len(patterns):,} searched: {counts}, "
                  f"{time.perf_counter() - t0:,.0f} s", file=sys.stderr, flush=True)
        slowest = max(slowest, r.time_s)
        if r.status == "sat":
            found.append(r.string)
        elif r.status == "unknown":
            undecided.append(pattern)
    print("| k deleted | window | patterns | unsat | unknown | sat | slowest s | time s |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {k} | {width} | {len(patterns):,} | {counts['unsat']:,} | {counts['unknown']} | "
          f"{counts['sat']} | {slowest:.1f} | {time.perf_counter() - t0:,.1f} |", flush=True)
    for string in found:
        print(f"found (verified on every case): {string}")
    for pattern in undecided:
        print(f"unknown: {pattern}")


def proofs(lengths: list[int], check_too: bool) -> None:
    import tempfile
    from pathlib import Path

    from smtpuzzle.puzzles.maze.bound.certificate import (
        check_certificate,
        encode,
        symmetry_closure,
        write_certificate,
    )
    from smtpuzzle.puzzles.maze.bound.proof import diagram_proof
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound

    print("| L | proof cases | cases (closed) | lemmas | definitions | proof built s | "
          "check-bound s |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for length in lengths:
        cases = prove_bound(3, start=length, up_to=length).cases
        closed = symmetry_closure(cases, mirror=True)
        formula = encode(length, closed, mirror=True)
        index = {c: i for i, c in enumerate(closed)}
        order = [formula.cases[-1]] + [formula.cases[index[c]] for c in cases]  # rule first
        t0, sizes = time.perf_counter(), {"define": 0, "lemma": 0}
        for block in diagram_proof(length, order, formula.variables):
            sizes[block.kind] += len(block.clauses)
        built = time.perf_counter() - t0
        checked = "-"
        if check_too:
            with tempfile.TemporaryDirectory() as tmp:
                write_certificate(Path(tmp), length, cases)
                result = check_certificate(Path(tmp))
                assert result.verdict == "verified", result.reason
                checked = f"{result.time_s:.1f}"
        print(f"| {length} | {len(cases)} | {len(closed)} | {sizes['lemma']:,} | "
              f"{sizes['define']:,} | {built:.1f} | {checked} |", flush=True)


def mirror(lengths: list[int]) -> None:
    """The bound's proof of each length from scratch, without the mirror rule, then with
    it, in the same process: cases and seconds, and the ratio of the times."""
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound

    print("| L | cases, turns only | s | cases, with the mirror rule | s | ratio |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for length in lengths:
        runs = [prove_bound(3, start=length, up_to=length, max_states=MAX_STATES,
                            mirror=m) for m in (False, True)]
        assert all(r.bound == length for r in runs)
        (a, b) = runs
        print(f"| {length} | {len(a.cases)} | {a.time_s:.1f} | {len(b.cases)} | "
              f"{b.time_s:.1f} | {a.time_s / b.time_s:.2f} |", flush=True)


def sorts(lengths: list[int]) -> None:
    """The bound's proof of each length with np.unique in place of mdd.unique_inverse, then
    with it, twice over (the machine is shared): same cases, and the ratio of the times."""
    from smtpuzzle.puzzles.maze import mdd
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound

    packed = mdd.unique_inverse
    print("| L | cases | np.unique s | packed sort s | ratio |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for length in lengths:
        for _ in range(2):
            runs = []
            for uniq in (lambda k: np.unique(k, return_inverse=True), packed):
                mdd.unique_inverse = uniq
                runs.append(prove_bound(3, start=length, up_to=length, max_states=MAX_STATES))
            mdd.unique_inverse = packed
            (a, b) = runs
            assert a.bound == b.bound == length and a.cases == b.cases
            print(f"| {length} | {len(a.cases)} | {a.time_s:.1f} | {b.time_s:.1f} | "
                  f"{a.time_s / b.time_s:.2f} |", flush=True)


_BOUND_IN_A_PROCESS = """
import json, resource, sys
from smtpuzzle.puzzles.maze.bound.prove import prove_bound
length = int(sys.argv[1])
r = prove_bound(3, start=length, up_to=length, max_states=int(sys.argv[2]))
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"bound": r.bound, "cases": len(r.cases), "wall": r.time_s,
                  "user": u.ru_utime, "system": u.ru_stime, "peak_mb": u.ru_maxrss / 1024}))
"""


# glibc's malloc keeping what the process frees: no block from mmap (each is unmapped when
# freed, and the next one's pages are zeroed afresh by the kernel), no trimming of the heap
GLIBC_KEEP = {"MALLOC_MMAP_MAX_": "0", "MALLOC_TRIM_THRESHOLD_": str(2**62)}


def malloc(lengths: list[int]) -> None:
    """The bound's proof of each length in a fresh process with glibc's default malloc, then
    in one with GLIBC_KEEP, twice over: same cases, and the times and peak memory."""
    import json
    import os
    import subprocess
    import sys

    print("| L | malloc | cases | wall s | user s | system s | peak MB |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for length in lengths:
        for _ in range(2):
            seen = []
            for how in ("default", "kept"):
                env = {**os.environ, **(GLIBC_KEEP if how == "kept" else {})}
                out = subprocess.run([sys.executable, "-c", _BOUND_IN_A_PROCESS, str(length),
                                      str(MAX_STATES)], check=True, capture_output=True,
                                     text=True, env=env).stdout
                r = json.loads(out.splitlines()[-1])
                seen.append(r["cases"])
                print(f"| {length} | {how} | {r['cases']} | {r['wall']:.1f} | {r['user']:.1f} | "
                      f"{r['system']:.1f} | {r['peak_mb']:,.0f} |", flush=True)
            assert seen[0] == seen[1] and r["bound"] == length


def cubes(length: int, prefixes: list[str], limit: float, out: str | None) -> None:
    """The bound's search of ``length`` moves, one prefix at a time (as prove_bound does
    it: first failing case, mirror rule, MAX_STATES), with the cases each prefix's proof
    added (maze id, start), written to ``out`` as JSON after each prefix."""
    import json
    import sys

    from smtpuzzle.puzzles.maze.cases import reduced_cases
    from smtpuzzle.puzzles.maze.mdd import mdd_search, rule_diagram
    from smtpuzzle.puzzles.maze.rules import MIRROR_RULE

    cases = reduced_cases(3)
    done = []
    print("| L | prefix | status | cases | s |")
    print("| ---: | --- | --- | ---: | ---: |")
    for prefix in prefixes:
        pattern = prefix + "*" * (length - len(prefix))
        t0 = time.perf_counter()

        def heard(n: int, s: float, prefix: str = prefix) -> None:
            print(f"{prefix}: {n} cases, {s:.0f} s", file=sys.stderr, flush=True)

        status, _, added, took = mdd_search(pattern, 3, t0 + limit, heard, sampled=False,
                                            max_states=MAX_STATES,
                                            start=rule_diagram(pattern, MIRROR_RULE))
        print(f"| {length} | {prefix} | {status} | {len(added)} | {took:.1f} |", flush=True)
        done.append({"prefix": prefix, "status": status, "time_s": round(took, 1),
                     "cases": [[int(cases.maze[k]), int(cases.start[k])] for k in added]})
        if out:
            with open(out, "w") as f:
                json.dump({"length": length, "mirror": True, "cubes": done}, f, indent=1)


def picks(specs: list[str]) -> None:
    """Each SIZE:L's proof of L moves from scratch with the first failing case added, then
    with the sampled one, twice over, in one process: cases and seconds, and the ratio of
    the times (first over sampled)."""
    from smtpuzzle.puzzles.maze.bound.prove import prove_bound
    from smtpuzzle.puzzles.maze.cases import describe, parse_size

    print("| size | L | cases, first | s | cases, sampled | s | first / sampled |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for spec in specs:
        text, _, length_text = spec.partition(":")
        size, length = parse_size(text), int(length_text)
        for _ in range(2):
            a, b = (prove_bound(size, start=length, up_to=length, max_states=MAX_STATES,
                                pick=pick) for pick in ("first", "sampled"))
            assert a.bound == b.bound == length
            name = describe(size) + (" blocked" if size == 4 else "")
            print(f"| {name} | {length} | {len(a.cases)} | {a.time_s:.2f} | {len(b.cases)} | "
                  f"{b.time_s:.2f} | {a.time_s / b.time_s:.2f} |", flush=True)


def shortened(sizes: list[str], limit: float) -> None:
    """Per size, the greedy string and maze shorten's string from it (one process)."""
    from smtpuzzle.puzzles.maze.bound.shorten import shorten
    from smtpuzzle.puzzles.maze.cases import parse_size
    from smtpuzzle.puzzles.maze.greedy import build_string

    print("| size | built | shortened | widths walked | refuted whole at | windows | rewritten "
          "| passed over | s | stopped |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for text in sizes:
        size = parse_size(text)
        built = build_string(size, time_limit=1800)
        assert built.string is not None, built.note
        r = shorten(built.string, size, time_limit=limit)
        print(f"| {text} | {len(built.string)} | {len(r.string)} | "
              f"{','.join(map(str, r.widths))} | {r.minimal_at or '-'} | {r.windows:,} | "
              f"{r.shortened} | {r.passed} | {r.time_s:.1f} | {r.note} |", flush=True)
        print(f"<!-- {text}: {r.string} -->", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["windows", "four", "stars", "seeds", "deletions",
                                     "proofs", "mirror", "cubes", "sorts", "malloc",
                                     "picks", "dropped", "shorten"])
    ap.add_argument("--part", default="1/1",
                    help="dropped: I/N, every N-th pattern from the I-th (N processes)")
    ap.add_argument("--sizes", default="4:28,4x4:44,3x4:40,2x4:34,3:32",
                    help="picks: SIZE:L, the lengths to prove per size; shorten: sizes "
                         "(2x3,2x4,2x5 unless given)")
    ap.add_argument("--prefixes", default="NE", help="cubes: the first moves of each cube")
    ap.add_argument("--json", default=None, help="cubes: write each cube's cases here")
    ap.add_argument("--check", action="store_true", help="proofs: check-bound each too")
    ap.add_argument("--k", default="1,2")
    ap.add_argument("--max-states", type=int, default=None,
                    help="mdd: the diagram's state cap (default mdd.MAX_STATES)")
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--offsets", default="0,27,53")
    ap.add_argument("--width", type=int, default=26)
    ap.add_argument("--lengths", default="28,29")
    ap.add_argument("--stars", default="5,10,15")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--backends", default="sat")
    ap.add_argument("--split", type=int, default=0,
                    help="windows: fix the first K free moves each way up front (4^K cubes, "
                         "each searched alone; the window is unsat when every cube is)")
    ap.add_argument("--checkpoints", default=None,
                    help="windows, mdd: keep each window's proved cubes in this directory "
                         "(window-W-A.json, W letters at offset A, -CUBE added with --split; made "
                         "if missing) and take them up from there")
    ap.add_argument("--split-depth", type=int, default=None,
                    help="mdd: free moves a too-large pattern may be split on (default "
                         "mdd.SPLIT_DEPTH)")
    args = ap.parse_args()
    global MAX_STATES, SPLIT_DEPTH
    if args.max_states:
        MAX_STATES = args.max_states
    if args.split_depth is not None:
        SPLIT_DEPTH = args.split_depth
    if args.what == "deletions":
        deletions([int(k) for k in args.k.split(",")])
        return
    if args.what == "cubes":
        cubes(int(args.lengths), args.prefixes.split(","), args.time_limit, args.json)
        return
    if args.what == "malloc":
        malloc([int(n) for n in args.lengths.split(",")])
        return
    if args.what == "sorts":
        sorts([int(n) for n in args.lengths.split(",")])
        return
    if args.what == "dropped":
        dropped(int(args.k), args.width, args.time_limit, args.part)
        return
    if args.what == "picks":
        picks(args.sizes.split(","))
        return
    if args.what == "shorten":
        shortened(args.sizes.split(",") if ":" not in args.sizes else ["2x3", "2x4", "2x5"],
                  args.time_limit)
        return
    if args.what == "mirror":
        mirror([int(n) for n in args.lengths.split(",")])
        return
    if args.what == "proofs":
        proofs([int(n) for n in args.lengths.split(",")], args.check)
        return
    if args.checkpoints:
        Path(args.checkpoints).mkdir(parents=True, exist_ok=True)
    print("| pattern | back end | status | mazes added | cubes | time s | solver s | string |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
    backends = args.backends.split(",")
    if args.what == "windows":
        w = args.width
        offsets = range(len(KNOWN_79) - w + 1) if args.offsets == "all" else \
            map(int, args.offsets.split(","))
        for a in offsets:
            for cube in itertools.product(LETTERS, repeat=args.split):
                pattern = (KNOWN_79[:a] + "".join(cube) + "*" * (w - 1 - args.split)
                           + KNOWN_79[a + w:])
                label = f"window at {a} ({w} -> {w - 1} stars)" + \
                    (f", cube {''.join(cube)}" if cube else "")
                for b in backends:
                    name = f"window-{w}-{a}" + (f"-{''.join(cube)}" if cube else "")
                    kept = None if not args.checkpoints or b != "mdd" else \
                        Path(args.checkpoints) / f"{name}.json"
                    row(label, b, pattern, 3, args.time_limit, checkpoint=kept)
    elif args.what == "stars":
        for n in map(int, args.stars.split(",")):
            pattern = KNOWN_79[:30] + "*" * n + KNOWN_79[30 + n:]
            for b in backends:
                row(f"{n} stars at 30", b, pattern, 3, args.time_limit)
    elif args.what == "seeds":
        for n in map(int, args.lengths.split(",")):
            for seed in range(args.seeds):
                row(f"4x4, {n} stars, seed {seed}", "local", "*" * n, 4, args.time_limit, seed)
    else:
        for n in map(int, args.lengths.split(",")):
            for b in backends:
                row(f"4x4, {n} stars", b, "*" * n, 4, args.time_limit)


if __name__ == "__main__":
    main()
