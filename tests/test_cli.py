"""The command line: JSON output, exit codes, one-line errors for bad input."""

import itertools
import json
from pathlib import Path

import pytest

from smtpuzzle import load
from tests.helpers import cli as run


def test_solve_json_is_verified_and_complete():
    p = run("solve", "pentomino-6x10", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["status"] == "sat" and out["backend"] == "cpsat"
    placements = out["solutions"][0]["placements"]
    assert sorted(pl["piece"] for pl in placements) == list("FILNPTUVWXYZ")
    cells = [tuple(c) for pl in placements for c in pl["cells"]]
    assert len(cells) == len(set(cells)) == 60


@pytest.mark.parametrize("backend", ["sat", "z3"])
def test_solve_3d_text_output_draws_layers(backend):
    p = run("solve", "soma-3x3x3", "--backend", backend)
    assert p.returncode == 0, p.stderr
    assert "z=0" in p.stdout and "z=2" in p.stdout and "verified" in p.stdout
    grid = [line for line in p.stdout.splitlines()[2:5]]
    assert sorted("".join(grid).replace(" ", "")) == sorted("VVVLLLLTTTTZZZZAAAABBBBPPPP")


def test_solve_3d_json_cells_are_xyz():
    out = json.loads(run("solve", "soma-3x3x3", "--json").stdout)
    cells = [c for pl in out["solutions"][0]["placements"] for c in pl["cells"]]
    assert all(len(c) == 3 for c in cells) and len(cells) == 27
    assert sorted(map(tuple, cells)) == [(x, y, z) for x in range(3) for y in range(3)
                                         for z in range(3)]


def test_list_and_show():
    p = run("list")
    assert p.returncode == 0
    for name in ["pentomino-6x10", "pentomino-5x12", "pentomino-4x15", "pentomino-3x20",
                 "pentomino-2x30", "pentomino-8x8-square", "pentomino-8x8-center-hole",
                 "pentomino-8x8-no-corners", "soma-3x3x3", "pentacube-2x3x10",
                 "pentacube-2x5x6", "pentacube-3x4x5"]:
        assert name in p.stdout
        load(name, precheck=False)  # every library model loads
    s = run("show", "pentomino-8x8-square")
    assert s.returncode == 0 and "2357 placements" in s.stdout and "O4 x1" in s.stdout
    assert run("show", "pentomino-2x30").returncode == 0  # impossible, but can be drawn


def test_impossible_puzzle_exports_and_an_external_solver_proves_it(tmp_path):
    cnf = tmp_path / "strip.cnf"
    p = run("export-cnf", "pentomino-2x30", "-o", str(cnf))
    assert p.returncode == 0 and "no solution: piece F (3x3) is larger" in p.stderr \
        and "the CNF is written all the same" in p.stderr
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert not s.solve()


def write(tmp_path: Path, text: str, name: str = "p.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


BAD = [
    ("[board\nsize = [2, 2]", "malformed TOML"),
    ('[board]\nsize = [6, 10]\n\n[[pieces]]\nset = "pentominos"\n', "unknown piece set"),
    ('[board]\nsize = [6, 10]\n\n[[pieces]]\nset = "pentominoes"\nonly = ["Q"]\n',
     "no piece 'Q'"),
    ('[board]\nsize = [8, 8]\n\n[[pieces]]\nset = "pentominoes"\n',
     "60 cells but the board has 64"),
    ('[board]\nsize = [2, 2]\n\n[[pieces]]\nname = "I3"\npicture = "###"\ncount = 1\n'
     '[[pieces]]\nname = "O1"\npicture = "#"\n', "larger than the 2x2 board"),
    ('[board]\nsize = [2, 2]\n\n[[pieces]]\nname = "bad"\npicture = "#.#"\n', "not connected"),
    ('[board]\nsize = [2, 2]\ncolour = "red"\n', "unknown key 'colour'"),
    ('[board]\nsize = [2, "x"]\n', "whole numbers"),
    ('[board]\nsize = [2, 2]\n\n[[pieces]]\nname = "O4"\npicture = "##\\n##"\ncount = -1\n',
     "count must be"),
    # holes: each a cell of the board, once, with the board's number of coordinates
    ('[board]\ngrid = "hexagon"\nshape = "hexagon"\nsize = 2\nholes = [[0, 0]]\n'
     '[[pieces]]\nset = "dihexes"\n', "p.toml:5: [board]: hole [0, 0] is not a cell of the board"),
    ('[board]\npicture = "##.\\n###"\nholes = [[0, 2]]\n[[pieces]]\nname = "D"\n'
     'picture = "##"\ncount = 2\n', "hole [0, 2] is not a cell of the board"),
    ('[board]\nsize = [2, 3]\nholes = [[0, 2], [0, 2]]\n[[pieces]]\nname = "D"\n'
     'picture = "##"\ncount = 2\n', "hole [0, 2] is listed twice"),
    ('[board]\nsize = [2, 3]\nholes = [[0]]\n[[pieces]]\nname = "D"\npicture = "##"\n',
     "hole [0] has 1 coordinate; the board has 2"),
    ('[board]\nsize = [1, 2]\n[[pieces]]\nname = "D"\npicture = "##"\nonly = ["X"]\n',
     "p.toml:6: piece D: only picks pieces of a set"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_input_is_one_line_exit_2(tmp_path, text, message):
    p = run("solve", write(tmp_path, text))
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert message in lines[0] and "p.toml" in lines[0]


def test_errors_name_the_line_of_the_piece(tmp_path):
    text = ('[board]\nsize = [6, 10]\n\n[[pieces]]\nset = "pentominoes"\nonly = ["F"]\n\n'
            '[[pieces]]\nname = "Q"\n')
    p = run("solve", write(tmp_path, text))
    assert p.returncode == 2 and "p.toml:8:" in p.stderr


@pytest.mark.parametrize("command,text,where,message", [
    # a puzzle's own checks (after the file was read) point at the piece they refuse
    ("frames", 'frames = 2\n[board]\nsize = [5, 6]\n[[pieces]]\nset = "pentominoes"\n'
     "count = 2\n", "p.toml:6:", "piece F: in a frames puzzle every piece is used exactly"),
    ("frames", 'frames = 2\n[board]\nsize = [1, 4]\n[[pieces]]\nname = "I"\n'
     'picture = "##"\n[[pieces]]\nname = "A"\npicture = "##"\nmax = 2\n', "p.toml:10:",
     "piece A: in a frames puzzle"),
    ("solve", '[board]\nsize = [2, 3]\n[[pieces]]\nname = "A"\npicture = "###"\n\n'
     '[[pieces]]\nname = "B"\npicture = "####"\n', "p.toml:7:",
     "piece B (1x4) is larger than the 2x3 board"),
    ("solve", '[board]\npicture = "#.#\\n.#.\\n#.#"\n[[pieces]]\nname = "A"\n'
     'picture = "#"\ncount = 3\n[[pieces]]\nname = "D"\npicture = "##"\n', "p.toml:7:",
     "piece D fits nowhere"),
])
def test_a_puzzles_own_checks_name_the_pieces_line(tmp_path, command, text, where, message):
    p = run(command, write(tmp_path, text))
    assert p.returncode == 2 and f"{where} " in p.stderr and message in p.stderr, p.stderr


@pytest.mark.parametrize("args,message", [
    (["solve", "pentomino-6x10", "--backend", "gurobi"], "unknown back end 'gurobi'"),
    (["solve", "pentomino-6x10", "--backend", "sat", "--solver", "nosuch"],
     "unknown SAT solver 'nosuch'"),
    (["solve", "no-such-model"], "no model named 'no-such-model'"),
    (["solve", "pentomino-6x10", "--all", "--limit", "2"], "give --all or --limit, not both"),
    (["solve", "nothere.toml"], "no such file"),
    (["solve", "pentomino-2x30"], "larger than the 2x30 board"),
])
def test_bad_names_are_one_line_exit_2(args, message):
    p = run(*args)
    assert p.returncode == 2 and message in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_time_limit_gives_unknown_and_exit_1():
    # Seven solutions among billions of placements' combinations: no answer in half a
    # second, and the status must say so rather than guess.
    p = run("solve", "untouchable-11-12x12", "--backend", "sat", "--time-limit", "0.5",
            "--json")
    out = json.loads(p.stdout)
    assert out["status"] == "unknown" and p.returncode == 1, p.stdout


def test_solve_writes_tiling_pictures(tmp_path: Path):
    import xml.etree.ElementTree as ET

    p = run("solve", "pentomino-6x10", "--svg", "t.svg", "--png", "t.png", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    svg = ET.parse(tmp_path / "t.svg").getroot()
    texts = [e.text for e in svg.iter() if e.tag.endswith("text")]
    assert sorted(texts) == sorted("FILNPTUVWXYZ")  # each piece's letter once, no legend
    png = (tmp_path / "t.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    size = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert size == (int(svg.get("width")), int(svg.get("height")))
    assert size[0] > 10 * 32 and size[1] > 6 * 32  # 32-pixel cells and a margin
    p = run("solve", "soma-3x3x3", "--svg", "s.svg", cwd=tmp_path)
    texts = [e.text for e in ET.parse(tmp_path / "s.svg").getroot().iter()
             if e.tag.endswith("text")]
    assert {"z=0", "z=1", "z=2"} <= set(texts)


def test_count_with_a_limit_lists_and_draws_that_many(tmp_path: Path):
    import xml.etree.ElementTree as ET

    p = run("count", "pentomino-6x10", "--limit", "3", "--svg", "c.svg", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["count"] == 3 and data["distinct"] and not data["complete"]
    texts = [e.text for e in ET.parse(tmp_path / "c.svg").getroot().iter()
             if e.tag.endswith("text")]
    assert [t for t in texts if t.startswith("solution")] == ["solution 1", "solution 2",
                                                                 "solution 3"]
    p = run("count", "pentomino-3x20", "--png", "x.png", cwd=tmp_path)
    assert p.returncode == 2 and "give --limit" in p.stderr


def test_listed_solutions_are_drawn_several_to_a_row(tmp_path: Path):
    import xml.etree.ElementTree as ET

    p = run("solve", "pentomino-4x15", "--limit", "6", "--svg", "six.svg", "--png", "six.png",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    texts = [e.text for e in ET.parse(tmp_path / "six.svg").getroot().iter()
             if e.tag.endswith("text")]
    assert [t for t in texts if t.startswith("solution")] == [f"solution {k}" for k in
                                                                 range(1, 7)]
    letters = sorted(t for t in texts if len(t) == 1)  # each piece once per solution
    assert letters == sorted("FILNPTUVWXYZ" * 6)
    png = (tmp_path / "six.png").read_bytes()
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    # two 15-wide grids to a row, three rows: a sheet wider than high
    assert 2 * 15 * 32 < width < 3 * 15 * 32 and 3 * 4 * 32 < height < width


def test_solve_model_index_prints_a_verified_tiling_and_refuses_lists():
    p = run("solve", "soma-3x3x3", "--model", "index", "--backend", "sat", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    placements = data["solutions"][0]["placements"]
    cells = [tuple(c) for pl in placements for c in pl["cells"]]
    assert data["status"] == "sat" and len(placements) == 7
    assert sorted(cells) == sorted(itertools.product(range(3), repeat=3))  # each cell once
    p = run("solve", "soma-3x3x3", "--model", "index", "--all")
    assert p.returncode == 2 and "for one solution" in p.stderr


def test_every_command_listed_in_help_reads_as_one_line():
    """A command's summary in `smtpuzzle --help` and `smtpuzzle maze --help` is the first
    paragraph of its docstring: one line, so the lists stay short. typer's rich help keeps a
    paragraph's line breaks, so every command's help has its paragraphs reflowed."""
    import inspect

    import typer.main

    from smtpuzzle.cli.app import app

    def commands(group, prefix=""):
        for name, command in getattr(group, "commands", {}).items():
            yield prefix + name, command
            yield from commands(command, prefix + name + " ")

    listed = dict(commands(typer.main.get_command(app)))
    assert {"count", "frames", "maze", "maze bound", "maze check-bound"} <= set(listed)
    long_summaries = {name for name, command in listed.items() if command.callback and "\n"
                      in inspect.getdoc(command.callback).split("\n\n")[0]}
    assert not long_summaries
    unflowed = {name for name, command in listed.items()
                if "\n" in (command.help or "").replace("\n\n", "")}
    assert not unflowed


def test_flags_show_as_switches_in_every_help(capsys):
    """typer 0.2x wrote ``--all <bool>`` as if a flag took a value."""
    import typer.main

    from smtpuzzle.cli.app import app
    from smtpuzzle.cli.app import run as run_here

    def commands(group, prefix=""):
        for name, command in getattr(group, "commands", {}).items():
            yield prefix + name
            yield from commands(command, prefix + name + " ")

    names = list(commands(typer.main.get_command(app)))
    assert "count" in names and "maze bound" in names
    for name in names:
        assert run_here([*name.split(), "--help"]) == 0
        shown = capsys.readouterr().out
        assert "--help" in shown and "<bool>" not in shown, name


def test_pictures_say_which_file_they_wrote(tmp_path):
    svg, html = tmp_path / "a.svg", tmp_path / "a.html"
    p = run("solve", "pentomino-3x20", "--svg", str(svg), "--html", str(html), "--json")
    assert p.returncode == 0 and svg.is_file() and html.is_file()
    assert p.stderr.splitlines() == [f"wrote {svg}", f"wrote {html}"]
    json.loads(p.stdout)  # stdout stays the one JSON object


def test_count_help_describes_only_what_count_takes(capsys):
    from smtpuzzle.cli.app import run as run_here

    assert run_here(["count", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert "Sudoku" not in shown
    assert "With --limit: one self-contained HTML" in shown
