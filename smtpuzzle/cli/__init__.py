"""The ``smtpuzzle`` command: parse arguments, call the library, render the answer.

One module per command family (library: list, show; solve; count; frames; cnf: export-cnf,
decode; maze; bench), what they share in common. The puzzle families' heavy modules are
imported inside the commands that use them, so that ``smtpuzzle --help`` starts fast.

Exit codes: 0 answered (a solution, or a proof that there is none), 1 no answer (time
limit or Ctrl-C), 2 bad input, 3 a solution failed verification (a bug: please report).
"""

from __future__ import annotations

import sys

import typer

from smtpuzzle.cli import bench, cnf, count, frames, library, maze, solve

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Model combinatorial puzzles once; solve them with Z3, CP-SAT, SAT or any DIMACS solver.",
)
app.command("list")(library.list_cmd)
app.command("show")(library.show)
app.command("solve")(solve.solve)
app.command("count")(count.count)
app.command("frames")(frames.frames_cmd)
app.command("export-cnf")(cnf.export_cnf)
app.command("decode")(cnf.decode)
app.add_typer(maze.app, name="maze")
app.command("bench")(bench.bench)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


__all__ = ["app", "main"]
