"""Benchmark output: the rich table, results.json, results.csv and the plot (PNG and SVG)."""

from __future__ import annotations

import csv
import json
import platform
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from smtpuzzle.benchmark.runner import Run, Summary

_NO_ANSWER = ("unknown", "incomplete", "timeout")


def _s(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _n(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _solve_cell(s: Summary) -> str:
    if s.status == "n/a":
        return "-"
    return f">= {s.time_limit:g}" if s.status in _NO_ANSWER else _s(s.solve_s)


def status_text(s: Summary) -> Text:
    """The status cell, styled (the table's other cells are plain text, as written)."""
    if s.wrong:
        return Text.assemble(("WRONG", "bold red"), f" {s.status}")
    if not s.decided:
        return Text(s.status, style="yellow")
    return Text(s.status)


COLUMNS = ["puzzle", "back end", "status", "build s", "solve s", "x fastest", "variables",
           "constraints", "peak MB", "detail", "anchor"]
_RIGHT = {"build s", "solve s", "x fastest", "variables", "constraints", "peak MB"}


def _cells(s: Summary, first: bool, status: Text) -> list[str | Text]:
    """One summary's row, in COLUMNS order; the puzzle and anchor on its puzzle's first row."""
    return [s.puzzle if first else "", s.backend, status, _s(s.build_s), _solve_cell(s),
            "-" if s.ratio is None else f"{s.ratio:.1f}", _n(s.variables), _n(s.constraints),
            _s(s.peak_mb, 0), s.wrong or s.detail, s.anchor if first else ""]


def _by_suite(summaries: list[Summary]) -> Iterator[tuple[str, list[tuple[Summary, bool]]]]:
    """Each suite with its summaries, each marked whether it starts its puzzle's rows."""
    for suite in dict.fromkeys(s.suite for s in summaries):
        rows = [s for s in summaries if s.suite == suite]
        yield suite, [(s, i == 0 or s.puzzle != rows[i - 1].puzzle) for i, s in enumerate(rows)]


def tables(summaries: list[Summary], titles: dict[str, str]) -> list[Table]:
    """One table per suite: a row per puzzle and back end, the anchor on its puzzle's row."""
    out = []
    for suite, rows in _by_suite(summaries):
        title = titles.get(suite, suite)
        t = Table(title=suite if title == suite else f"{suite}: {title}", title_justify="left")
        for name in COLUMNS:
            t.add_column(name, justify="right" if name in _RIGHT else "left")
        for s, first in rows:
            if first and t.row_count:
                t.add_section()
            t.add_row(*_cells(s, first, status_text(s)))
        out.append(t)
    return out


def write_results(out_dir: Path, runs: list[Run], summaries: list[Summary],
                  meta: dict[str, Any]) -> list[Path]:
    """results.json (every run, the medians, the set-up), results.csv (the medians) and the
    plot; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {**meta, "python": platform.python_version(), "machine": platform.machine()}
    data = {"meta": meta, "summary": [_summary_dict(s) for s in summaries],
            "runs": [r.as_dict() for r in runs]}
    paths = [out_dir / "results.json", out_dir / "results.csv", out_dir / "results.md"]
    paths[0].write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    rows = [_summary_dict(s) for s in summaries]
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        if rows:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    paths[2].write_text(markdown(summaries, meta), encoding="utf-8")
    if summaries:
        paths += plot(summaries, out_dir / "results")
    return paths


def markdown(summaries: list[Summary], meta: dict[str, Any]) -> str:
    """The medians as Markdown tables (one per suite), to paste into bench/RESULTS.md."""
    lines = [f"back ends: {', '.join(meta.get('backends', []))}; repeat {meta.get('repeat')}; "
             f"time limit {meta.get('time_limit') or 'per suite'}", ""]
    for suite, rows in _by_suite(summaries):
        lines += [f"### {suite}", "", "| " + " | ".join(COLUMNS) + " |",
                  "| " + " | ".join("---:" if c in _RIGHT else "---" for c in COLUMNS) + " |"]
        for s, first in rows:
            status = f"WRONG {s.status}" if s.wrong else s.status
            lines.append("| " + " | ".join(_cells(s, first, status)) + " |")
        lines.append("")
    return "\n".join(lines)


def _summary_dict(s: Summary) -> dict[str, Any]:
    return {"suite": s.suite, "puzzle": s.puzzle, "task": s.task, "backend": s.backend,
            "status": s.status, "decided": s.decided, "time_s": _r(s.time_s),
            "build_s": _r(s.build_s), "solve_s": _r(s.solve_s), "ratio": _r(s.ratio),
            "variables": s.variables, "constraints": s.constraints, "peak_mb": _r(s.peak_mb),
            "detail": s.detail, "wrong": s.wrong, "time_limit": s.time_limit,
            "anchor": s.anchor, "anchor_s": s.anchor_s}


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def plot(summaries: list[Summary], stem: Path) -> list[Path]:
    """Time per puzzle per back end, log scale: bars for answers, hatched bars reaching the
    time limit for runs without one, a black tick for the reference time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    puzzles = list(dict.fromkeys((s.suite, s.puzzle) for s in summaries))
    backends = list(dict.fromkeys(s.backend for s in summaries))
    width = 0.8 / len(backends)
    cmap = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(puzzles) + 2), 4.8))
    by_key = {(s.suite, s.puzzle, s.backend): s for s in summaries}
    floor = 1e-3
    for j, backend in enumerate(backends):
        for i, key in enumerate(puzzles):
            s = by_key.get((*key, backend))
            x = i - 0.4 + width * (j + 0.5)
            if s is None or s.status == "n/a":
                ax.text(x, floor * 1.2, "n/a", rotation=90, ha="center", va="bottom",
                        fontsize=7, color="grey")
                continue
            if s.decided and s.time_s is not None:
                ax.bar(x, max(s.time_s, floor), width, color=cmap(j % 10), bottom=0)
            else:
                ax.bar(x, s.time_limit, width, color="white", edgecolor=cmap(j % 10),
                       hatch="///", linewidth=1)
                mark = "WRONG" if s.wrong else "timeout" if s.status in _NO_ANSWER \
                    else s.status
                ax.text(x, s.time_limit * 1.15, mark, rotation=90, ha="center", va="bottom",
                        fontsize=7, color="red" if s.wrong else "black")
    for i, key in enumerate(puzzles):
        anchor = next((s.anchor_s for s in summaries if (s.suite, s.puzzle) == key
                       and s.anchor_s), None)
        if anchor:
            ax.hlines(anchor, i - 0.45, i + 0.45, colors="black", linewidth=2)
    handles: list[Any] = [Patch(color=cmap(j % 10), label=b) for j, b in enumerate(backends)]
    handles.append(Patch(facecolor="white", edgecolor="grey", hatch="///",
                         label="no answer (limit)"))
    if any(s.anchor_s for s in summaries):
        handles.append(Line2D([], [], color="black", linewidth=2, label="reference time"))
    ax.set_yscale("log")
    ax.set_ylim(bottom=floor, top=max(s.time_limit for s in summaries) * 20)
    ax.set_ylabel("seconds (build + solve, log scale)")
    ax.set_xticks(range(len(puzzles)))
    ax.set_xticklabels([p for _, p in puzzles], rotation=30, ha="right", fontsize=8)
    ax.grid(axis="y", which="major", alpha=0.3)
    ax.legend(handles=handles, fontsize=8, ncols=min(len(handles), 4), loc="upper left")
    ax.set_title("smtpuzzle bench: time per puzzle and back end")
    fig.tight_layout()
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for p in paths:
        fig.savefig(p, dpi=120)
    plt.close(fig)
    return paths
