"""DIMACS round trip: export, solve the file as an external solver would, decode, verify."""

import json
from pathlib import Path

import numpy as np
import pytest
from pysat.formula import CNF as PysatCNF
from pysat.solvers import Solver

from smtpuzzle import (
    Board,
    Model,
    Piece,
    Status,
    Tiling,
    decode_answer,
    load,
    load_puzzle,
    parse_picture,
    to_cnf,
)
from smtpuzzle.backends.cnf import cardinality_clauses
from smtpuzzle.backends.dimacs import CHUNK, clause_text, write_dimacs
from smtpuzzle.model import AllDifferent, Cmp, Groups
from tests.helpers import HARDEST, cli


def external_solve(cnf_path: Path, out_path: Path, solver: str = "minisat22") -> bool:
    """Solve a CNF file with PySAT and write competition-format output."""
    formula = PysatCNF(from_file=str(cnf_path))
    with Solver(name=solver, bootstrap_with=formula.clauses) as s:
        sat = s.solve()
        lines = ["c solved by " + solver]
        if sat:
            lines.append("s SATISFIABLE")
            lines.append("v " + " ".join(map(str, s.get_model())) + " 0")
        else:
            lines.append("s UNSATISFIABLE")
    out_path.write_text("\n".join(lines) + "\n")
    return sat




def test_round_trip_through_cli(tmp_path):
    cnf = tmp_path / "soma.cnf"
    p = cli("export-cnf", "soma-3x3x3", "-o", str(cnf))
    assert p.returncode == 0, p.stderr
    text = cnf.read_text()
    assert "c user 1 " in text and text.count("\nc user ") == load("soma-3x3x3").num_placements
    answer = tmp_path / "soma.out"
    assert external_solve(cnf, answer, "minisat22")
    d = cli("decode", "soma-3x3x3", str(cnf), str(answer))
    assert d.returncode == 0, d.stderr
    assert "sat (verified" in d.stdout, d.stdout


def test_round_trip_library(tmp_path):
    t = load("pentomino-6x10")
    model = t.build_model()
    cnf_path = tmp_path / "p.cnf"
    cnf = write_dimacs(model, cnf_path)
    formula = PysatCNF(from_file=str(cnf_path))
    assert formula.nv == cnf.num_vars and len(formula.clauses) == len(cnf.clauses)
    assert formula.clauses == to_cnf(model).as_lists()
    out = tmp_path / "p.out"
    assert external_solve(cnf_path, out, "glucose4")
    status, values = decode_answer(model, cnf_path, out)
    assert status is Status.SAT
    t.verify(t.decode(values))


def test_unsat_round_trip_and_mismatched_model(tmp_path):
    t = Tiling(Board([4, 4], holes=[(0, 0), (3, 3)]), [Piece("I2", parse_picture("##"), count=7)],
               precheck=False)  # for the solver to refute (a colouring refuses it at once)
    model = t.build_model()
    cnf_path, out = tmp_path / "m.cnf", tmp_path / "m.out"
    write_dimacs(model, cnf_path)
    assert not external_solve(cnf_path, out, "cadical195")
    status, _ = decode_answer(model, cnf_path, out)
    assert status is Status.UNSAT
    other = tmp_path / "o.cnf"
    write_dimacs(load("soma-3x3x3").build_model(), other)
    d = cli("decode", "pentomino-6x10", str(other), str(out))
    assert d.returncode == 2 and "do not match" in d.stderr


def test_minisat_result_file_format(tmp_path):
    t = load("pentomino-3x20")
    model = t.build_model()
    cnf_path = tmp_path / "s.cnf"
    write_dimacs(model, cnf_path)
    formula = PysatCNF(from_file=str(cnf_path))
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as s:
        assert s.solve()
        (tmp_path / "s.out").write_text("SAT\n" + " ".join(map(str, s.get_model())) + " 0\n")
    status, values = decode_answer(model, cnf_path, tmp_path / "s.out")
    assert status is Status.SAT
    t.verify(t.decode(values))



def test_sudoku_and_kenken_round_trip_through_the_cli(tmp_path):
    # Integers reach the CNF as "x == v" literals; their answer is read back as numbers.
    from smtpuzzle.formats.sudoku import parse_line
    from smtpuzzle.puzzles.kenken.solve import solve_kenken
    from smtpuzzle.puzzles.sudoku.solve import solve_sudoku

    one = tmp_path / "hardest.sudoku"
    one.write_text(HARDEST + "\n")
    known = {"kenken-4x4": solve_kenken(load_puzzle("kenken-4x4")).solutions[0],
             str(one): solve_sudoku(parse_line(HARDEST, "hardest")).solutions[0]}
    for model, solution in known.items():
        cnf, answer = tmp_path / "g.cnf", tmp_path / "g.out"
        assert cli("export-cnf", model, "-o", str(cnf)).returncode == 0
        assert external_solve(cnf, answer, "glucose4")
        d = cli("decode", model, str(cnf), str(answer), "--json")
        assert d.returncode == 0, d.stderr
        data = json.loads(d.stdout)
        assert data["verified"] and data["solutions"] == [solution.tolist()]  # both unique
    # a wrong value for one cell breaks a clause: the solver's error, not a solution
    lines = answer.read_text().splitlines()
    values = lines[-1].split()
    first = next(i for i, v in enumerate(values[1:-1], start=1) if int(v) > 0)
    values[first] = str(-int(values[first]))
    answer.write_text("\n".join([*lines[:-1], " ".join(values)]) + "\n")
    d = cli("decode", str(one), str(cnf), str(answer))
    assert d.returncode == 2 and "does not satisfy clause" in d.stderr, d.stderr


def test_decode_answer_gives_a_models_integers_their_values(tmp_path):
    m = Model("ints")
    x = m.int_array(3, 1, 3, name="x")
    m.add(AllDifferent(x), x[0] < x[1], x[1] < x[2])
    cnf, answer = tmp_path / "i.cnf", tmp_path / "i.out"
    write_dimacs(m, cnf)
    assert external_solve(cnf, answer)
    status, _ = decode_answer(m, cnf, answer)
    assert status is Status.SAT and x.value().tolist() == [1, 2, 3]


def test_write_dimacs_takes_a_path_or_an_open_file_and_unsat_clears_the_answer(tmp_path):
    m = Model("two")
    x = m.int_array(2, 0, 1)
    m.add(x[0] + x[1] == 1)
    with open(tmp_path / "a.cnf", "w", encoding="utf-8") as fh:
        write_dimacs(m, fh)
    write_dimacs(m, tmp_path / "b.cnf")
    assert (tmp_path / "a.cnf").read_text() == (tmp_path / "b.cnf").read_text()
    sat, unsat = tmp_path / "sat.out", tmp_path / "unsat.out"
    assert external_solve(tmp_path / "a.cnf", sat, "cadical195")
    assert decode_answer(m, tmp_path / "a.cnf", sat)[0] is Status.SAT
    assert sorted(x.value().tolist()) == [0, 1]
    unsat.write_text("s UNSATISFIABLE\n")  # as claimed by a solver
    assert decode_answer(m, tmp_path / "a.cnf", unsat)[0] is Status.UNSAT
    with pytest.raises(ValueError, match="found no solution"):
        x.value()  # not the earlier answer


def test_a_model_with_an_objective_is_exported_only_when_told_to_drop_it(tmp_path):
    m = Model("best")
    x = m.int_array(2, 0, 2)
    m.maximize(x.sum())
    with pytest.raises(ValueError, match="drop_objective=True"):
        write_dimacs(m, tmp_path / "m.cnf")
    write_dimacs(m, tmp_path / "m.cnf", drop_objective=True)
    out = tmp_path / "m.out"
    assert external_solve(tmp_path / "m.cnf", out, "cadical195")
    assert decode_answer(m, tmp_path / "m.cnf", out)[0] is Status.SAT  # any of the 9


def test_a_large_exact_count_is_a_small_formula_and_means_exactly_k():
    # 800 of 3,120 (dominoes on 40x40): the plain totalizer made 9.8 M clauses
    n, k = 3120, 800
    lits = np.arange(1, n + 1)
    clauses, _ = cardinality_clauses(Groups(lits, np.array([0, n])), Cmp.EQ, np.array([k]), n)
    assert len(clauses) < 1_000_000
    rng = np.random.default_rng(0)
    with Solver(name="cadical153", bootstrap_with=[c.tolist() for c in clauses]) as s:
        for chosen in (k - 1, k, k + 1):
            on = rng.choice(n, chosen, replace=False)
            values = -lits
            values[on] = lits[on]
            assert s.solve(assumptions=values.tolist()) == (chosen == k)


def test_clauses_are_spelled_as_python_spells_them_a_chunk_at_a_time(tmp_path, monkeypatch):
    # clause_text writes digits into bytes itself: it must agree with str() on every kind
    # of literal (one digit, many, negative, the largest) and on empty clauses.
    rng = np.random.default_rng(7)
    clauses = [[], [1], [-1, 9, -10, 10], [2**31 - 1, -(2**31 - 1)], []]
    clauses += [rng.integers(1, 10 ** rng.integers(1, 10), size=rng.integers(0, 6))
                * rng.choice([-1, 1], size=1) for _ in range(500)]
    g = Groups.of([np.asarray(c, dtype=np.int64) for c in clauses])
    want = "".join(" ".join([*map(str, (int(x) for x in c)), "0"]) + "\n" for c in clauses)
    assert clause_text(g.flat, g.offsets) == want
    assert clause_text(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64)) == ""
    # written in chunks of clauses, the file is the same
    model = Model("chunks")
    x = model.new_bools(20)
    rows = rng.choice(np.concatenate([x, -x]), size=(2000, 3))
    model.add_clauses(rows)
    write_dimacs(model, tmp_path / "one.cnf")
    import smtpuzzle.backends.dimacs as dimacs

    monkeypatch.setattr(dimacs, "CHUNK", 7)
    write_dimacs(model, tmp_path / "many.cnf")
    assert CHUNK > 7
    assert (tmp_path / "one.cnf").read_text() == (tmp_path / "many.cnf").read_text()
    body = (tmp_path / "one.cnf").read_text().split("\n")
    assert body[body.index(next(b for b in body if b.startswith("p cnf"))) + 1] == \
        " ".join(map(str, rows[0].tolist())) + " 0"


def test_a_write_stopped_between_chunks_raises_what_stopped_it(tmp_path, monkeypatch):
    import smtpuzzle.backends.dimacs as dimacs

    model = Model("stopped")
    x = model.new_bools(4)
    model.add_clauses(np.stack([x, -x]))
    monkeypatch.setattr(dimacs, "CHUNK", 1)
    calls = []

    def between():
        calls.append(1)
        if len(calls) == 2:
            raise TimeoutError

    with pytest.raises(TimeoutError):
        write_dimacs(model, tmp_path / "s.cnf", between=between)
    assert (tmp_path / "s.cnf").read_text().count(" 0\n") == 1  # the first chunk only


def test_keyed_groups_hold_each_keys_head_then_its_members_in_order():
    """Groups.keyed (the connectivity decompositions' clause per vertex) against a loop."""
    rng = np.random.default_rng(3)
    for width in (0, 1, 2):
        n = int(rng.integers(1, 8))
        keys = rng.integers(0, n, size=int(rng.integers(0, 20)))
        members = rng.integers(1, 100, size=len(keys)) * rng.choice([-1, 1], size=len(keys))
        heads = rng.integers(1, 100, size=(n, width))
        g = Groups.keyed(members, keys, n, heads if width else None)
        want = [[*heads[i].tolist(), *members[keys == i].tolist()] for i in range(n)]
        assert g.as_lists() == want
