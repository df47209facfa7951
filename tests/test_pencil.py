"""Pencil puzzles: every shipped puzzle (the pzprjs test puzzles, read from their links)
decided unique on cpsat, sat and z3 with its verified solution; the verifiers reject every
other grid; the plain-text files and links refuse bad input with one line; a puzzle with
many solutions gets its half-solved grid, one with none its conflicting clues."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smtpuzzle import PuzzleError, VerificationError
from smtpuzzle.formats.pencil import load_pencil, parse_pencil, puzzle_text
from smtpuzzle.puzzles.pencil.genres import NAMES, genre_named
from smtpuzzle.puzzles.pencil.links import read_link
from smtpuzzle.puzzles.pencil.solve import solve_pencil
from smtpuzzle.result import Status
from tests.helpers import cli

SHIPPED = sorted(p for p in (Path(__file__).parent.parent / "models" / "pencil").iterdir()
                 if p.suffix[1:] in NAMES)  # pzprjs's test puzzles, and some made here


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_puzzle_is_unique_on_three_back_ends(path):
    puzzle = load_pencil(path)
    found = []
    for backend in ("cpsat", "sat", "z3"):
        answer = solve_pencil(puzzle, backend)
        assert answer.status is Status.UNIQUE, backend
        found.append(answer.solutions[0])
    assert all(np.array_equal(found[0], other) for other in found[1:])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_verifier_rejects_every_grid_one_cell_away_from_a_unique_solution(path):
    """The puzzle is unique, so each grid that differs from its solution breaks a rule:
    its verifier, reading the rules off the grid, must say so."""
    puzzle = load_pencil(path)
    solution = solve_pencil(puzzle, "cpsat").solutions[0]
    puzzle.verify(solution)
    tokens = sorted({str(t) for t in solution.ravel()})
    rng = np.random.default_rng(len(tokens))
    # the cells the solver fills (a clue's cell holds the puzzle's own token)
    open_ = np.argwhere(np.isin(puzzle.cells, ["-", "0"]))
    if not len(open_):  # every cell a clue (Hitori): every cell is the solver's
        open_ = np.argwhere(np.ones(puzzle.cells.shape, dtype=bool))
    for _ in range(6):
        grid = solution.copy()
        r, c = open_[rng.integers(len(open_))]
        grid[r, c] = rng.choice([t for t in tokens if t != grid[r, c]] or ["?"])
        with pytest.raises(VerificationError):
            puzzle.verify(grid)


def test_known_solutions_of_the_pzprjs_tests():
    """As pzprjs's own tests have them (the sea of its Nurikabe, the digits of its Kakuro,
    the tents of its Tents)."""
    nurikabe = solve_pencil(read_link("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"))
    assert nurikabe.as_json()["solution"] == \
        "5 5\n- - x x x\n- x - - x\n- x x x x\n- x - x -\nx x x - -"
    kakuro = solve_pencil(read_link("https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3"))
    digits = [[t for t in row if t.isdigit() and len(t) == 1]
              for row in kakuro.solutions[0][1:].tolist()]
    assert digits == [["5", "3"], ["3", "4", "1", "2"], ["1", "2", "1", "2"],
                      ["1", "9", "3", "8"], ["8", "4"]]
    tents = solve_pencil(read_link("https://puzz.link/p?tents/5/5/2g0h1i1j82323"))
    assert sorted(map(tuple, np.argwhere(tents.solutions[0] == "o").tolist())) == \
        [(0, 1), (1, 4), (2, 0), (3, 4), (4, 0)]


def test_every_genre_names_its_tokens_and_rules():
    assert len(NAMES) >= 25
    for name in NAMES:
        genre = genre_named(name)
        assert genre.name == name and genre.title and genre.rules_text


def test_the_plain_form_round_trips():
    for path in SHIPPED:
        puzzle = load_pencil(path)
        assert puzzle_text(puzzle) == path.read_text()
        again = parse_pencil(puzzle_text(puzzle), puzzle.genre)
        assert np.array_equal(again.cells, puzzle.cells)


@pytest.mark.parametrize("text, message", [
    ("3 3\n- - -\n- 3\n- - -\n",
     r"a\.nurikabe:3: nurikabe: the clue grid: a line of 2 tokens, not 3"),
    ("3 3\n- - -\n- q -\n- - -\n", r"a\.nurikabe:3: nurikabe: the clue grid: unknown symbol 'q' "
                                   r"at column 2 \(expected a number \(an island's size\) or -\)"),
    ("3\n- - -\n", r"a\.nurikabe:1: nurikabe: the first line is 'ROWS COLS'"),
    ("2 2\n- -\n", r"a\.nurikabe:3: nurikabe: the file ends within the clue grid \(2 lines of 2\)"),
    ("2 2\n- -\n- -\n- -\n", r"a\.nurikabe:4: nurikabe: more lines than the 2x2 puzzle takes"),
])
def test_a_bad_file_is_one_line_naming_the_line(tmp_path, text, message):
    path = tmp_path / "a.nurikabe"
    path.write_text(text)
    with pytest.raises(PuzzleError, match=message):
        load_pencil(path)


@pytest.mark.parametrize("link, message", [
    ("https://puzz.link/p?nosuch/5/5/g5k2o1k3g", "puzz.link genre 'nosuch' is not one"),
    ("https://puzz.link/p?nurikabe/5", "nurikabe: a malformed link: no COLS/ROWS"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g!!", r"nurikabe: a malformed link: '!!' after"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g*", "a malformed link"),
    ("https://puzz.link/p?akari/6/6/nekcak~", r"akari: a malformed link: unexpected '~'"),
])
def test_a_bad_link_is_one_line_naming_the_genre(link, message):
    with pytest.raises(PuzzleError, match=message):
        read_link(link)


def test_the_command_line_reads_links_and_answers_json():
    out = cli("solve", "https://puzz.link/p?mashu/6/6/1063000i3000", "--json")
    assert out.returncode == 0, out.stdout
    data = json.loads(out.stdout)
    assert data["status"] == "unique" and data["genre"] == "masyu"
    assert data["solution"].splitlines()[1].split() == ["se", "ew", "ew", "sw", "se", "sw"]
    bad = cli("solve", "https://puzz.link/p?nosuch/5/5/g")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_many_solutions_show_two_and_where_they_differ_and_the_forced_cells(tmp_path):
    path = tmp_path / "open.nurikabe"
    path.write_text("3 3\n- - -\n- 3 -\n- - -\n")
    out = cli("solve", str(path))
    assert out.returncode == 0 and "multiple" in out.stdout
    assert "the two differ at" in out.stdout
    half = cli("solve", str(path), "--determined", "--json")
    data = json.loads(half.stdout)
    assert data["determined"] == [["?", "?", "?"], ["?", "-", "?"], ["?", "?", "?"]]


def test_no_solution_names_the_conflicting_clues(tmp_path):
    path = tmp_path / "dark.akari"
    path.write_text("3 3\n4 - -\n- - -\n- - 1\n")  # a 4 in a corner has two neighbours
    out = cli("solve", str(path), "--explain", "--json")
    data = json.loads(out.stdout)
    assert data["status"] == "none" and data["conflict"] == ["r1c1=4"]


def _count(puzzle, backend):
    model, _ = puzzle.build()
    return model.count(backend=backend)


def test_numberlink_lines_may_leave_cells_empty_unless_f_says_every_cell():
    loose = parse_pencil("2 3\n1 - 1\n- - -\n", genre_named("numberlink"))
    # straight across; down, along and up; or a step down and back on either side
    assert [_count(loose, b).count for b in ("cpsat", "sat")] == [4, 4]
    assert solve_pencil(parse_pencil("2 3 F\n1 - 1\n- - -\n", genre_named("numberlink"))
                        ).status is Status.NONE  # no line through all six cells
    side = parse_pencil("2 2\n1 -\n1 -\n", genre_named("numberlink"))
    assert _count(side, "cpsat").count == 2
    full = solve_pencil(parse_pencil("2 2 F\n1 -\n1 -\n", genre_named("numberlink")))
    assert full.status is Status.UNIQUE
    assert full.as_json()["solution"] == "2 2 F\ne sw\ne nw"


def _brute(puzzle, grids):
    """How many of ``grids`` the genre's verifier accepts."""
    ok = 0
    for grid in grids:
        try:
            puzzle.verify(np.array(grid, dtype=object).reshape(puzzle.cells.shape))
            ok += 1
        except VerificationError:
            pass
    return ok


@pytest.mark.parametrize("text", ["2 3\n- - -\n- - -\n", "2 3\n- 2 -\n- - -\n",
                                  "3 2\n1 -\n- -\n- 3\n"])
def test_fillomino_counts_agree_with_brute_force(text):
    import itertools

    puzzle = parse_pencil(text, genre_named("fillomino"))
    grids = itertools.product([str(v) for v in range(1, 7)], repeat=6)
    assert [_count(puzzle, b).count for b in ("cpsat", "sat")] == [_brute(puzzle, grids)] * 2


@pytest.mark.parametrize("text", ["3 3 2 1\n- - -\n- - -\n- - - -\n- - -\n- - -\n",
                                  "3 3 1 1\n1 - 2\n- - -\n- - -\n- - -\n- - -\n",
                                  "3 3 0 1\n- - -\n- - 2\n- - -\n- - -\nw - -\n"])
def test_battleship_counts_agree_with_brute_force(text):
    import itertools

    from smtpuzzle.puzzles.pencil.genres.battleship import STEPS, piece

    puzzle = parse_pencil(text.replace("- - - -\n", "- - -\n"), genre_named("battleship"))

    def tokens(mask):
        ship = np.array(mask, dtype=bool).reshape(3, 3)
        return [piece(*[bool(ship[r + dr, c + dc]) if 0 <= r + dr < 3 and 0 <= c + dc < 3
                        else False for dr, dc in STEPS]) if ship[r, c] else "-"
                for r in range(3) for c in range(3)]

    grids = [tokens(mask) for mask in itertools.product([0, 1], repeat=9)]
    counts = [_count(puzzle, b).count for b in ("cpsat", "sat", "z3")]
    assert counts == [_brute(puzzle, grids)] * 3 and counts[0] > 0


def test_battleship_fleets_from_the_header_and_from_links():
    puzzle = read_link("https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c")
    assert puzzle.params == (3, 2, 1)
    listed = read_link("https://puzz.link/p?battleship/4/4//3/11g/21o/12o")
    assert listed.params == (1, 2) and solve_pencil(listed).status is Status.MULTIPLE
    with pytest.raises(PuzzleError, match="a piece '22u' that is no straight ship"):
        read_link("https://puzz.link/p?battleship/4/4//1/22u")
    with pytest.raises(PuzzleError, match=r"numberlink: the number 2 appears 1 times"):
        parse_pencil("2 2\n1 2\n1 -\n", genre_named("numberlink"))


def _readme_links() -> dict[str, str]:
    """models/README.md's table of the shipped puzzles' links."""
    readme = (Path(__file__).parent.parent / "models" / "README.md").read_text()
    return {cells[1].strip("`"): cells[2].strip("`") for line in readme.splitlines()
            if "-pzprjs." in line and "puzz.link" in line
            for cells in [[c.strip() for c in line.split("|")]]}


@pytest.mark.parametrize("path", [p for p in SHIPPED if "-pzprjs." in p.name],
                         ids=lambda p: p.stem)
def test_every_shipped_puzzle_writes_the_link_it_was_read_from(path):
    from smtpuzzle.puzzles.pencil.link_writer import write_link

    puzzle = load_pencil(path)
    link = write_link(puzzle)
    assert link == _readme_links()[path.name]
    again = read_link(link)
    assert np.array_equal(again.cells, puzzle.cells) and again.edges == puzzle.edges
    assert tuple(again.params) == tuple(puzzle.params)
    if puzzle.regions is not None:
        assert np.array_equal(again.regions, puzzle.regions)


def test_links_round_trip_the_collection_style_grids(tmp_path):
    """Grids written as the collection writes them (numbers past 15, runs past 20 cells,
    a fleet of no preset) come back from their links unchanged."""
    from smtpuzzle.puzzles.pencil.link_writer import write_link

    rng = np.random.default_rng(7)
    for name, symbols in (("nurikabe", ["-"] * 30 + ["1", "17", "300"]),
                          ("akari", ["-"] * 6 + ["x", "0", "4"]),
                          ("slitherlink", ["-"] * 4 + ["0", "1", "3"]),
                          ("masyu", ["-", "-", "w", "b"]), ("simpleloop", ["-", "-", "x"]),
                          ("tent", ["-"] * 25 + ["x"])):
        cells = rng.choice(symbols, size=(7, 9)).astype(object)
        edges = {"top": ["-"] * 9, "left": ["1"] + ["-"] * 6} if name == "tent" else {}
        puzzle = parse_pencil(puzzle_text(_with(genre_named(name), cells, edges)),
                              genre_named(name))
        again = read_link(write_link(puzzle))
        assert np.array_equal(again.cells, puzzle.cells), name
    fleet = parse_pencil("3 3 0 2 0 1\n- - -\n- - -\n" + "- - -\n" * 3,
                         genre_named("battleship"))
    assert read_link(write_link(fleet)).params == (0, 2, 0, 1)


def _with(genre, cells, edges):
    from smtpuzzle.puzzles.pencil.puzzle import PencilPuzzle

    return PencilPuzzle(genre, cells, edges=edges)


def test_link_on_the_command_line(tmp_path):
    nurikabe = SHIPPED[[p.name for p in SHIPPED].index("nurikabe-pzprjs.nurikabe")]
    out = cli("solve", str(nurikabe), "--link")
    assert out.returncode == 0 and out.stdout.strip() == \
        "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    data = json.loads(cli("solve", str(nurikabe), "--link", "--json").stdout)
    assert data == {"link": "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"}
    (tmp_path / "a.binairo").write_text("2 2\nb -\n- -\n")
    binairo = cli("solve", str(tmp_path / "a.binairo"), "--link")
    assert binairo.returncode == 2 and "binairo: puzz.link has no such genre" in binairo.stderr
    sudoku = cli("solve", "models/sudoku/norvig-hardest.sudoku", "--link")
    assert sudoku.returncode == 2 and "--link: Sudoku have no puzz.link links" in sudoku.stderr


def test_list_shows_the_genres():
    listed = json.loads(cli("list", "--genres", "--json").stdout)
    assert [row["genre"] for row in listed] == list(NAMES)
    assert {"genre": "numberlink", "title": "Numberlink",
            "rules": genre_named("numberlink").rules_text,
            "links": ["numlin", "numberlink"]} in listed
    text = cli("list").stdout
    assert "pencil-puzzle genres" in text and "fillomino" in text and "nurikabe-pzprjs" in text


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_pictures_draw_the_solution_over_the_clues(path):
    """What the SVG holds: a shaded square per shaded cell, the loop's lines, the written
    numbers, the clues."""
    from smtpuzzle.puzzles.pencil.pictures import pencil_drawing
    from smtpuzzle.render.pictures import svg_text

    puzzle = load_pencil(path)
    solution = solve_pencil(puzzle).solutions[0]
    svg = svg_text(pencil_drawing(puzzle, [solution]))
    genre = puzzle.genre
    shaded = [t for t, kind in genre.picture.items() if kind == "shade"]
    assert svg.count('class="shaded"') >= int(np.isin(solution, shaded).sum())
    loops = genre.name in ("masyu", "countryroad", "simpleloop", "yajilin", "numberlink",
                           "slitherlink")
    assert ('class="line"' in svg) == loops
    assert ('class="written"' in svg) == genre.written
    assert ('class="clue"' in svg) == any(genre.clue_text(t) for _, _, t in puzzle.clues()) \
        or bool(puzzle.edges)


def test_pictures_on_the_command_line(tmp_path):
    masyu = SHIPPED[[p.name for p in SHIPPED].index("masyu-pzprjs.masyu")]
    svg, png = tmp_path / "m.svg", tmp_path / "m.png"
    out = cli("solve", str(masyu), "--svg", str(svg), "--png", str(png))
    assert out.returncode == 0, out.stderr
    assert svg.read_text().count('class="circle"') == 3 and png.read_bytes()[:4] == b"\x89PNG"
    path = tmp_path / "open.nurikabe"
    path.write_text("3 3\n- - -\n- 3 -\n- - -\n")
    two = tmp_path / "two.svg"
    assert cli("solve", str(path), "--svg", str(two)).returncode == 0
    assert "solution 2" in two.read_text() and 'class="differs"' in two.read_text()


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow)  # 7 s
                                  if p.stem.startswith("fillomino") else p for p in SHIPPED],
                         ids=lambda p: p.stem)
def test_an_outside_sat_solver_answers_the_exported_cnf(path, tmp_path):
    """export-cnf, an outside solver (PySAT's CaDiCaL here), then the answer read back:
    it decodes to the puzzle's one solution (connectivity and loops are in the CNF as
    clauses, not left to lazy cuts)."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from smtpuzzle.backends.dimacs import write_dimacs
    from smtpuzzle.formats.solver_answer import read_answer

    puzzle = load_pencil(path)
    cnf, out = tmp_path / "p.cnf", tmp_path / "p.out"
    write_dimacs(puzzle.build_model(), cnf)
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert s.solve()
        out.write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
    answer = read_answer(puzzle, cnf, out, grid=True)
    assert answer.status is Status.SAT
    assert np.array_equal(answer.solutions[0], solve_pencil(puzzle).solutions[0])


@pytest.mark.parametrize("text", ["3 4\n- - - -\n- - - -\n- - - -\n",
                                  "3 3\n- 2 -\n- - -\n- - 1\n"])
def test_slitherlink_counts_agree_with_brute_force(text):
    """The implied rules (inside or outside each cell, no checkerboard) keep every loop:
    the genre's verifier on every inside/outside colouring counts the same loops."""
    import itertools

    puzzle = parse_pencil(text, genre_named("slitherlink"))
    grids = itertools.product("x-", repeat=puzzle.cells.size)
    counts = [_count(puzzle, b).count for b in ("cpsat", "sat")]
    assert counts == [_brute(puzzle, grids)] * 2 and counts[0] > 1


@pytest.mark.parametrize("text", ["3 4\n- - - -\n- - - -\n- - - -\n",
                                  "4 3\nb - -\n- - -\n- - w\n- - -\n", "1 4\n- - - -\n"])
def test_yinyang_counts_agree_with_brute_force(text):
    """The implied rules (no checkerboard, two colour changes round the border) keep every
    colouring the genre's rules allow."""
    import itertools

    puzzle = parse_pencil(text, genre_named("yinyang"))
    grids = itertools.product("bw", repeat=puzzle.cells.size)
    assert [_count(puzzle, b).count for b in ("cpsat", "sat")] == [_brute(puzzle, grids)] * 2


@pytest.mark.parametrize("text", ["3 3\n1 2 3\n2 3 1\n3 1 2\n", "3 4\n1 2 3 4\n2 3 4 1\n3 4 1 2\n",
                                  "3 3\n1 1 2\n2 1 3\n3 2 2\n", "1 3\n1 2 1\n"])
def test_hitori_counts_agree_with_brute_force(text):
    """The implied rule (no unshaded cell walled in by shaded ones) keeps every shading the
    genre's rules allow, a one-row grid included."""
    import itertools

    puzzle = parse_pencil(text, genre_named("hitori"))
    grids = list(itertools.product("x-", repeat=puzzle.cells.size))
    counts = [_count(puzzle, b).count for b in ("cpsat", "sat")]
    assert counts == [_brute(puzzle, grids)] * 2 and counts[0] > 0


@pytest.mark.parametrize("text", ["4 3\n1 1 1\n1 1 1\n2 2 2\n2 2 2\n",
                                  "2 6\n1 1 1 2 2 2\n1 1 1 2 2 2\n",
                                  "6 4\n4 4 4 4\n4 4 1 1\n1 1 1 1\n2 2 3 3\n2 2 3 3\n2 2 3 3\n"])
def test_lits_counts_agree_with_brute_force(text):
    """The implied rule (each tetromino touches another's shaded cell) and connectivity
    said through the regions keep every shading the genre's rules allow (on the 6x4, 4
    shadings whose tetrominoes all touch another fall apart)."""
    import itertools

    from smtpuzzle.puzzles.pencil.genres.lits import letter_of

    puzzle = parse_pencil(text, genre_named("lits"))

    def lettered(mask):
        shade = np.array(mask, dtype=bool).reshape(puzzle.cells.shape)
        grid = np.full(shade.shape, "-", dtype=object)
        for region in range(int(puzzle.regions.max()) + 1):
            cells = [tuple(x) for x in np.argwhere(shade & (puzzle.regions == region))]
            if len(cells) == 4 and letter_of(cells):
                for cell in cells:
                    grid[cell] = letter_of(cells)
        return grid.ravel().tolist()

    # every shading with an L, I, T or S in each region (the verifier refuses any other)
    cols = puzzle.cells.shape[1]
    regions = [np.flatnonzero(puzzle.regions.ravel() == k)
               for k in range(int(puzzle.regions.max()) + 1)]
    shapes = [[four for four in itertools.combinations(r, 4)
               if letter_of([divmod(int(x), cols) for x in four])] for r in regions]
    masks = []
    for choice in itertools.product(*shapes):
        mask = np.zeros(puzzle.cells.size, dtype=bool)
        mask[np.concatenate(choice)] = True
        masks.append(mask)
    grids = [lettered(m) for m in masks]
    counts = [_count(puzzle, b).count for b in ("cpsat", "sat")]
    assert counts == [_brute(puzzle, grids)] * 2 and counts[0] > 0


@pytest.mark.parametrize("text", ["3 3\n- - -\n- 3 -\n- - -\n", "3 4\n2 - - -\n- - - 1\n- 2 - -\n",
                                  "3 3\n1 - -\n- - -\n- - 2\n", "2 3\n- - -\n- 1 -\n",
                                  "3 4\n- - - -\n3 - 1 -\n- - - -\n",
                                  "3 4\n- - - -\n- 3 - 3\n- - - -\n",
                                  "4 3\n- - 4\n2 - -\n- - -\n1 - -\n",
                                  "3 4\n5 - - -\n- - - -\n- - - 1\n",
                                  "4 3\n- - -\n6 - -\n- - -\n- - -\n"])
def test_nurikabe_counts_agree_with_brute_force(text):
    """The implied rules (wall and island cells each have a neighbour of their own kind,
    but a 1; an island reaching j steps out keeps a cell at each step before) and each
    island's reach (around the other clues and their sides) keep every shading the
    genre's rules allow."""
    import itertools

    puzzle = parse_pencil(text, genre_named("nurikabe"))
    grids = list(itertools.product("x-", repeat=puzzle.cells.size))
    counts = [_count(puzzle, b).count for b in ("cpsat", "sat")]
    assert counts == [_brute(puzzle, grids)] * 2


def test_each_solution_is_shown_as_soon_as_it_is_verified():
    """decide_grid's on_found (what bench/pencil.py times the first solution by) sees every
    solution it returns, in order."""
    from smtpuzzle.puzzles.grid_answer import GridAnswer, decide_grid

    puzzle = parse_pencil("3 3\n- - -\n- 3 -\n- - -\n", genre_named("nurikabe"))
    seen = []
    answer = decide_grid(puzzle, GridAnswer, "cpsat", None, None, 2, on_found=seen.append)
    assert answer.status is Status.MULTIPLE and len(seen) == 2
    assert all(np.array_equal(a, b) for a, b in zip(seen, answer.solutions, strict=True))


def _boards(seed, n):
    """Small Numberlink boards: two or three pairs on a 3x3 or 3x4, at random."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        rows, cols, k = int(rng.integers(2, 4)), int(rng.integers(3, 5)), int(rng.integers(1, 4))
        cells = np.full(rows * cols, "-", dtype=object)
        spots = rng.choice(rows * cols, size=2 * k, replace=False)
        cells[spots] = [str(1 + i // 2) for i in range(2 * k)]
        out.append(f"{rows} {cols}\n" + "\n".join(" ".join(row) for row in
                                               cells.reshape(rows, cols)) + "\n")
    return out


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_numberlink_decided_through_its_normal_form_as_all_its_solutions_say(backend):
    """Deciding searches the solutions in normal form (no shortcut, no corner flip to an
    earlier empty cell) and then undoes one move: the same unique / multiple / none as
    counting every solution, on boards where the second solution is a detour or a flip."""
    boards = ["2 3\n1 - 1\n- - -\n", "2 2\n1 -\n- 1\n", "1 3\n1 - 1\n",
              *_boards(7, 40)]
    undone = 0
    for text in boards:
        puzzle = parse_pencil(text, genre_named("numberlink"))
        every = _count(puzzle, backend).count
        answer = solve_pencil(puzzle, backend)
        want = Status.NONE if every == 0 else Status.UNIQUE if every == 1 else Status.MULTIPLE
        assert answer.status is want, text
        model, _ = puzzle.build_to_decide()
        normal = model.count(backend=backend).count
        undone += normal == 1 and every > 1
    assert undone >= 3  # the step after the search decided some of them


@pytest.mark.parametrize("text", ["3 3 3\n1 - -\n- - -\n- 2 -\n- - -\n- - -\n- - -\n- - -\n",
                                  "3 3 2\n2 - -\n- - 1\n- - -\n- - -\n- - -\n- - -\n- - -\n",
                                  "3 3 2\n1 - -\n- - -\n- 1 -\n- - -\n- - -\n- - -\n- - -\n",
                                  "4 4 4\n2 - - 3\n- - - -\n- - - -\n- - - 2\n"
                                  "- - - -\n- - - -\n- - - -\n- - - -\n"])
def test_skyscraper_counts_agree_with_brute_force(text):
    """Every view counted at once (the count) and each in its own group (explain) agree
    with the verifier over every grid of heights 1..N once a line (0 where N < side)."""
    import itertools

    puzzle = parse_pencil(text, genre_named("skyscraper"))
    side, n = puzzle.rows, puzzle.params[0]
    rows = list(itertools.permutations(range(n + 1) if n < side else range(1, n + 1)))
    grids = [[str(v) for row in g for v in row] for g in itertools.product(rows, repeat=side)
             if all(len(set(col)) == side for col in zip(*g, strict=True))]
    counts = [_count(puzzle, b).count for b in ("cpsat", "sat")]
    model, _ = puzzle.build(named=True)
    assert counts + [model.count(backend="sat").count] == [_brute(puzzle, grids)] * 3
    assert counts[0] > 1


def test_skyscraper_explain_names_the_two_views_that_conflict(tmp_path):
    path = tmp_path / "p.skyscraper"  # row 1 seen as one building from both ends
    path.write_text("3 3 3\n- - -\n- - -\n1 - -\n1 - -\n- - -\n- - -\n- - -\n")
    data = json.loads(cli("solve", str(path), "--explain", "--json").stdout)
    assert data["status"] == "none" and sorted(data["conflict"]) == ["left 1: 1", "right 1: 1"]
