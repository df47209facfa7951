"""DIMACS round trip: export, solve the file as an external solver would, decode, verify."""

from pathlib import Path

from pysat.formula import CNF as PysatCNF
from pysat.solvers import Solver

from smtpuzzle import Board, Piece, Status, Tiling, decode_answer, load, parse_picture, to_cnf
from tests.helpers import cli


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
    from smtpuzzle.formats.dimacs import export_file
    cnf = export_file(model, cnf_path)
    formula = PysatCNF(from_file=str(cnf_path))
    assert formula.nv == cnf.num_vars and len(formula.clauses) == len(cnf.clauses)
    assert formula.clauses == to_cnf(model).as_lists()
    out = tmp_path / "p.out"
    assert external_solve(cnf_path, out, "glucose4")
    status, values = decode_answer(model, cnf_path, out)
    assert status is Status.SAT
    t.verify(t.decode(values))


def test_unsat_round_trip_and_mismatched_model(tmp_path):
    t = Tiling(Board([4, 4], holes=[(0, 0), (3, 3)]), [Piece("I2", parse_picture("##"), count=7)])
    model = t.build_model()
    from smtpuzzle.formats.dimacs import export_file
    cnf_path, out = tmp_path / "m.cnf", tmp_path / "m.out"
    export_file(model, cnf_path)
    assert not external_solve(cnf_path, out, "cadical195")
    status, _ = decode_answer(model, cnf_path, out)
    assert status is Status.UNSAT
    other = tmp_path / "o.cnf"
    export_file(load("soma-3x3x3").build_model(), other)
    d = cli("decode", "pentomino-6x10", str(other), str(out))
    assert d.returncode == 2 and "do not match" in d.stderr


def test_minisat_result_file_format(tmp_path):
    t = load("pentomino-3x20")
    model = t.build_model()
    from smtpuzzle.formats.dimacs import export_file
    cnf_path = tmp_path / "s.cnf"
    export_file(model, cnf_path)
    formula = PysatCNF(from_file=str(cnf_path))
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as s:
        assert s.solve()
        (tmp_path / "s.out").write_text("SAT\n" + " ".join(map(str, s.get_model())) + " 0\n")
    status, values = decode_answer(model, cnf_path, tmp_path / "s.out")
    assert status is Status.SAT
    t.verify(t.decode(values))
