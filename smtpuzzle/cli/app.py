"""The typer application: every command registered, and ``run``, which turns whatever ends
a command into an exit code and at most one line on stderr."""

from __future__ import annotations

import inspect
import sys

import typer
import typer.core
from rich.markup import escape

from smtpuzzle.cli import bench, cnf, count, frames, library, maze, solve
from smtpuzzle.cli.common import EXIT_UNKNOWN, clipped, err, mark_start, print_json

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
app.command("solve-cnf")(cnf.solve_cnf)
app.command("decode")(cnf.decode)
app.add_typer(maze.app, name="maze")
app.command("bench")(bench.bench)


def _reflowed(doc: str) -> str:
    """A docstring's paragraphs each on one line: typer's rich help keeps a paragraph's line
    breaks (but for the first paragraph's, in a command's own help), so the source's
    wrapping would show as lines broken mid-sentence."""
    return "\n\n".join(" ".join(p.split()) for p in doc.split("\n\n"))


def _flags_as_switches() -> None:
    """typer 0.2x writes a flag's type in the help, ``--all <bool>``, as if it took a value:
    a flag shows as the bare switch it is."""
    base = getattr(typer.core, "_TyperParameter", None)
    shown = getattr(base, "display_type", None)
    if shown is None:  # another typer: nothing to mend
        return

    def display_type(self: object, ctx: object) -> str:
        return "" if getattr(self, "is_flag", False) else shown(self, ctx)

    base.display_type = display_type


_flags_as_switches()

for _commands in (app, maze.app):
    for _info in _commands.registered_commands:
        _info.help = _reflowed(inspect.getdoc(_info.callback) or "")

# typer's click (vendored or not): the base of every usage error.
_ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
_INTERRUPTED = 130  # what typer returns when Ctrl-C stops it while parsing


def run(args: list[str] | None = None, started: float | None = None) -> int:
    """Run the command line on ``args`` (default: sys.argv) and return the exit code. A usage
    error (an unknown option, a value of the wrong type) is one line, exit code 2. Time
    limits count from ``started`` (a ``time.perf_counter()`` value; default now)."""
    mark_start(started)
    try:
        code = app(args=args, prog_name="smtpuzzle", standalone_mode=False)
    except _ClickException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # the help was shown
            return 2
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        message = clipped(" ".join(exc.format_message().split()))
        err.print(f"[red]error:[/red] {escape(where + message + hint)}", markup=True,
                  highlight=False,
                  emoji=False)
        if "--json" in (sys.argv[1:] if args is None else args):
            print_json({"status": "error", "error": where + message})
        return int(getattr(exc, "exit_code", 2))
    except typer.Abort:
        return interrupted()
    if code == _INTERRUPTED:
        return interrupted()
    return code if isinstance(code, int) else 0


def interrupted() -> int:
    """Ctrl-C before any answer: say so, exit code 1 (no answer)."""
    sys.stderr.write("interrupted: stopped before any answer\n")
    return EXIT_UNKNOWN
