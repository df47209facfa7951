"""DIMACS CNF export with named user variables, and reading any solver's answer back."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from smtpuzzle.backends.cnf import CNF, to_cnf
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Model
from smtpuzzle.model.lower import lowered
from smtpuzzle.result import Status

if TYPE_CHECKING:
    from smtpuzzle.puzzles import Puzzle


def write_dimacs(model: Model, out: IO[str], cnf: CNF | None = None) -> CNF:
    """Write ``model`` as DIMACS CNF; ``c user VAR NAME`` lines name the user variables."""
    model = lowered(model, native=set())  # integers by their "x == v" literals, named
    cnf = cnf or to_cnf(model)
    out.write(f"c smtpuzzle model {model.name}\n")
    out.write(f"c smtpuzzle {len(model.user_vars)} user variables (solutions are read on these)\n")
    names = model.user_names()
    for var, name in zip(model.user_vars.tolist(), names, strict=True):
        out.write(f"c user {var} {name}\n")
    out.write(f"p cnf {cnf.num_vars} {len(cnf.clauses)}\n")
    flat, offs = cnf.clauses.flat, cnf.clauses.offsets
    # Literals with a 0 closing each clause (an empty clause is a lone 0), one join.
    full = np.insert(flat, offs[1:], 0)
    words = np.where(full == 0, "0\n", np.char.add(full.astype(str), " "))
    out.write("".join(words.tolist()))
    return cnf


def read_user_map(cnf_path: Path) -> dict[str, int]:
    """The ``c user VAR NAME`` comments of an exported CNF: name -> variable."""
    mapping: dict[str, int] = {}
    with open(cnf_path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.startswith("p "):
                break
            if line.startswith("c user "):
                parts = line.split(maxsplit=3)
                if len(parts) != 4 or not parts[2].isdigit():
                    raise PuzzleError(f"malformed user-variable comment {line.strip()!r}",
                                      str(cnf_path), lineno)
                mapping[parts[3].strip()] = int(parts[2])
    if not mapping:
        raise PuzzleError("no 'c user' comments: not a CNF exported by smtpuzzle",
                          f"{cnf_path}")
    return mapping


def read_solver_output(path: Path) -> tuple[Status, set[int]]:
    """Parse a solver's answer: ``s SATISFIABLE`` + ``v ... 0`` lines (competition format),
    or MiniSat's result file (``SAT`` then literals). Returns the status and true variables."""
    status: Status | None = None
    true: set[int] = set()
    saw_values = False
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("c"):
                continue
            if line.startswith("s ") or line in ("SAT", "UNSAT", "INDET", "UNKNOWN"):
                word = line[2:].strip() if line.startswith("s ") else line
                status = {"SATISFIABLE": Status.SAT, "SAT": Status.SAT,
                          "UNSATISFIABLE": Status.UNSAT, "UNSAT": Status.UNSAT}.get(
                    word, Status.UNKNOWN)
                continue
            words = line[2:].split() if line.startswith("v ") else line.split()
            try:
                lits = [int(w) for w in words]
            except ValueError:
                raise PuzzleError(f"cannot read solver output line {line[:40]!r}",
                                  str(path), lineno) from None
            saw_values = True
            true.update(x for x in lits if x > 0)
    if status is None:
        if not saw_values:
            raise PuzzleError("no 's' status line and no values in the solver output", str(path))
        status = Status.SAT
    return status, true


def decode_answer(model: Model, cnf_path: Path, output_path: Path) -> tuple[Status, np.ndarray]:
    """User-variable values of ``model`` from an external solver's answer to ``cnf_path``."""
    mapping = read_user_map(cnf_path)
    names = model.user_names()
    if set(names) != set(mapping):
        raise PuzzleError("the CNF's user variables do not match this model "
                          "(was it exported from another model?)", str(cnf_path))
    status, true = read_solver_output(output_path)
    if status is not Status.SAT:
        return status, np.zeros(len(names), dtype=bool)
    values = np.array([mapping[n] in true for n in names], dtype=bool)
    return status, values


def export_file(model: Model, path: Path) -> CNF:
    with open(path, "w", encoding="utf-8") as fh:
        return write_dimacs(model, fh)


@dataclass
class DimacsAnswer:
    """An outside solver's answer to an exported CNF, read back (read_answer): its status
    and, when sat, the puzzle's solution, decoded and verified."""

    model: str  # the puzzle's name
    status: Status
    solutions: list[Any]  # the puzzle's own solutions (a tiling's, a nonogram's rows)

    def as_json(self) -> dict[str, Any]:
        # A solution is JSON already (a nonogram's rows) or says how (a tiling's as_json).
        return {"model": self.model, "status": self.status.value, "backend": "dimacs",
                "solutions": [s.as_json() if hasattr(s, "as_json") else s
                              for s in self.solutions]}


def read_answer(puzzle: Puzzle, cnf_path: Path, output_path: Path,
                encoding: str | None = None) -> DimacsAnswer:
    """Read an outside solver's answer (``output_path``) to the CNF that ``puzzle``'s model
    was exported as (``cnf_path``, with the same ``encoding``); a solution is decoded and
    verified (VerificationError otherwise)."""
    for path in (cnf_path, output_path):
        if not Path(path).is_file():
            raise PuzzleError("no such file", str(path))
    status, values = decode_answer(puzzle.build_model(encoding), cnf_path, output_path)
    solutions = [puzzle.decode(values)] if status is Status.SAT else []
    for solution in solutions:
        puzzle.verify(solution)
    return DimacsAnswer(puzzle.name, status, solutions)
