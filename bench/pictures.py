"""Pictures (issue 26): how fast and how big.

    python bench/pictures.py targets [--repeat 5]   # the issue's targets, medians
    python bench/pictures.py parts [--repeat 5]     # where a contact sheet's time goes
    python bench/pictures.py cairosvg FILE.svg ...  # another renderer on our SVGs, for
                                                    # comparison (run with a Python that
                                                    # has cairosvg)

``targets``: pentomino-8x8-square at the default size (PNG size, SVG bytes, and the time
from the solution to the PNG file: in a fresh process, so importing matplotlib counts, and
again in the same process); the 100-solution contact sheet of pentomino-6x10 as the user
runs it (``smtpuzzle solve pentomino-6x10 --limit 100 --png``, wall time).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_COLD = """
import pickle, sys, time
from smtpuzzle import load
from smtpuzzle.render.pictures import write_drawing
from smtpuzzle.puzzles.tiling.drawing import tiling_drawing
tiling = load("pentomino-8x8-square")
solution = pickle.loads(sys.stdin.buffer.read())
t0 = time.perf_counter()
write_drawing(tiling_drawing(tiling.board, tiling.pieces, [solution]), sys.argv[1])
t1 = time.perf_counter()
write_drawing(tiling_drawing(tiling.board, tiling.pieces, [solution]), sys.argv[1])
print(t1 - t0, time.perf_counter() - t1)
"""


def _solution():
    from smtpuzzle import load, solve_tiling

    tiling = load("pentomino-8x8-square")
    answer = solve_tiling(tiling, "cpsat")
    return tiling, answer.solutions[0]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def targets(repeat: int) -> None:
    import pickle

    from smtpuzzle.puzzles.tiling.drawing import tiling_drawing
    from smtpuzzle.render.pictures import write_drawing

    tiling, solution = _solution()
    tmp = Path(tempfile.mkdtemp())
    cold, again = [], []  # the first PNG in a fresh process, and the second one there
    for _ in range(repeat):
        p = subprocess.run([sys.executable, "-c", _COLD, str(tmp / "cold.png")],
                           input=pickle.dumps(solution), capture_output=True, check=True,
                           cwd=ROOT)
        first, second = map(float, p.stdout.split())
        cold.append(first)
        again.append(second)
    warm, svg_t = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        write_drawing(tiling_drawing(tiling.board, tiling.pieces, [solution]), tmp / "w.png")
        warm.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        write_drawing(tiling_drawing(tiling.board, tiling.pieces, [solution]), tmp / "w.svg")
        svg_t.append(time.perf_counter() - t0)
    width, height = _png_size(tmp / "w.png")
    sheet = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "smtpuzzle", "solve", "pentomino-6x10", "--limit",
                        "100", "--png", str(tmp / "sheet.png")], check=True, cwd=ROOT,
                       capture_output=True)
        sheet.append(time.perf_counter() - t0)
    plain = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "smtpuzzle", "solve", "pentomino-6x10", "--limit",
                        "100"], check=True, cwd=ROOT, capture_output=True)
        plain.append(time.perf_counter() - t0)
    sw, sh = _png_size(tmp / "sheet.png")
    med = statistics.median
    print(f"median of {repeat} runs\n")
    print("| target | measured |\n| --- | --- |")
    print(f"| 8x8 + square PNG >= 256 x 256 | {width} x {height} "
          f"({(tmp / 'w.png').stat().st_size / 1000:.1f} kB) |")
    print(f"| PNG <= 0.3 s after the solve | {med(cold):.3f} s for the first picture of a "
          f"process (importing matplotlib: the second takes {med(again):.3f} s); "
          f"{med(warm):.3f} s in a process that has drawn before |")
    print(f"| SVG < 30 kB | {(tmp / 'w.svg').stat().st_size / 1000:.1f} kB, "
          f"written in {med(svg_t) * 1000:.1f} ms |")
    print(f"| 100-solution sheet <= 5 s | {med(sheet):.2f} s wall ({sw} x {sh} PNG, "
          f"{(tmp / 'sheet.png').stat().st_size / 1000:.0f} kB); the same listing without "
          f"the picture {med(plain):.2f} s |")


def parts(repeat: int) -> None:
    """Where the 100-solution sheet's time goes: listing, layout, SVG, matplotlib drawing,
    PNG encoding (by zlib level)."""
    import io

    from PIL import Image

    from smtpuzzle import list_tilings, load
    from smtpuzzle.puzzles.tiling.drawing import tiling_drawing
    from smtpuzzle.render.layout import layout
    from smtpuzzle.render.png import render_rgb
    from smtpuzzle.render.svg import svg_text

    tiling = load("pentomino-6x10")
    rows: dict[str, list[float]] = {}
    sizes: dict[int, int] = {}

    @contextmanager
    def clock(name: str):  # noqa: ANN202
        t0 = time.perf_counter()
        yield
        rows.setdefault(name, []).append(time.perf_counter() - t0)

    for _ in range(repeat):
        with clock("list 100 solutions (exact-cover)"):
            listing = list_tilings(tiling, "exact-cover", limit=100)
        with clock("drawing (panels, outlines)"):
            drawing = tiling_drawing(tiling.board, tiling.pieces, listing.solutions,
                                     caption="solution")
        with clock("layout (scene in pixels)"):
            scene = layout(drawing)
        with clock("SVG text"):
            svg_text(scene)
        with clock("matplotlib Agg drawing"):
            rgb = render_rgb(scene)
        for level in (1, 3, 6):
            buf = io.BytesIO()
            with clock(f"PNG encoding, zlib level {level}"):
                Image.fromarray(rgb).save(buf, "PNG", compress_level=level)
            sizes[level] = len(buf.getvalue())
    print(f"median of {repeat} runs, {scene.width} x {scene.height} pixels, "
          f"{len(scene.items)} items\n")
    print("| step | s |\n| --- | ---: |")
    for name, ts in rows.items():
        print(f"| {name} | {statistics.median(ts):.3f} |")
    print("\nPNG bytes by zlib level: " + ", ".join(f"{lv}: {n / 1000:.0f} kB"
                                                  for lv, n in sizes.items()))


def cairosvg(files: list[str], repeat: int) -> None:
    t0 = time.perf_counter()
    import cairosvg as cs

    print(f"import cairosvg: {time.perf_counter() - t0:.3f} s\n")
    print("| SVG | PNG pixels | s |\n| --- | --- | ---: |")
    for name in files:
        text = Path(name).read_bytes()
        ts = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            png = cs.svg2png(bytestring=text)
            ts.append(time.perf_counter() - t0)
        w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        print(f"| {Path(name).name} | {w} x {h} | {statistics.median(ts):.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["targets", "parts", "cairosvg"])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.what == "targets":
        targets(args.repeat)
    elif args.what == "parts":
        parts(args.repeat)
    else:
        cairosvg(args.files, args.repeat)


if __name__ == "__main__":
    main()
