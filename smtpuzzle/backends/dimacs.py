"""DIMACS CNF export with named user variables, and reading any solver's answer back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from smtpuzzle.backends.cnf import CNF, to_cnf
from smtpuzzle.errors import PuzzleError
from smtpuzzle.model import Groups, Model, require_model
from smtpuzzle.model.kinds import BOOLEAN, lowered
from smtpuzzle.result import Result, Stats, Status
from smtpuzzle.runtime.checks import is_digits
from smtpuzzle.runtime.files import decode_utf8, read_text
from smtpuzzle.runtime.memory import check_fits_in_memory

MAX_VARIABLE = 2**31 - 1  # DIMACS solvers number variables and clauses with 32-bit ints


def write_dimacs(model: Model, out: IO[str] | str | Path, cnf: CNF | None = None,
                 drop_objective: bool = False, between: Callable[[], None] | None = None
                 ) -> CNF:
    """Write ``model`` as DIMACS CNF to a file (a path, or an open text file); ``c user VAR
    NAME`` lines name the user variables. A CNF has no objective: a model with one is
    refused unless ``drop_objective`` says to export its constraints alone. ``between()``
    is called before each chunk of clauses is written (an exception it raises stops the
    write: a deadline)."""
    require_model(model, "write_dimacs")
    if model.ints.objective is not None and not drop_objective:
        raise ValueError(f"model {model.name!r} has an objective, which DIMACS CNF cannot "
                         "carry: pass drop_objective=True to export its constraints alone")
    if isinstance(out, str | Path):
        with open(out, "w", encoding="utf-8") as fh:
            return write_dimacs(model, fh, cnf, drop_objective, between)
    model = lowered(model, BOOLEAN, "DIMACS")  # integers by their literals, named
    cnf = cnf or to_cnf(model)
    out.write(f"c smtpuzzle model {model.name}\n")
    out.write(f"c smtpuzzle {len(model.user_vars)} user variables (solutions are read on these)\n")
    names = model.user_names()
    for var, name in zip(model.user_vars.tolist(), names, strict=True):
        out.write(f"c user {var} {name}\n")
    out.write(f"p cnf {cnf.num_vars} {len(cnf.clauses)}\n")
    flat, offs = cnf.clauses.flat, cnf.clauses.offsets
    # a chunk at a time: text takes several times the bytes of the literals it spells
    for lo in range(0, len(offs) - 1, CHUNK):
        if between is not None:
            between()
        hi = min(lo + CHUNK, len(offs) - 1)
        out.write(clause_text(flat[offs[lo]:offs[hi]], offs[lo:hi + 1] - offs[lo]))
    return cnf


CHUNK = 1 << 20  # clauses spelled at a time
_POWERS = 10 ** np.arange(19, dtype=np.int64)


def clause_text(flat: np.ndarray, offsets: np.ndarray) -> str:
    """The clauses ``flat[offsets[i]:offsets[i + 1]]`` as DIMACS lines: each literal
    followed by a space, a 0 and a newline closing each clause (an empty clause is a lone
    0). Each literal is spelled right-aligned in a row of bytes, a decimal place at a time
    for all rows at once, and the rows are read out without their blanks (5x faster than
    joining numpy's ``astype(str)``, which also took 84 bytes a literal)."""
    full = np.insert(np.asarray(flat, dtype=np.int64), offsets[1:], 0)
    value = np.abs(full)
    digits = np.maximum(np.searchsorted(_POWERS, value, side="right"), 1)
    most = int(digits.max()) if len(digits) else 1
    rows = np.empty((len(full), most + 2), dtype=np.uint8)  # sign, digits, separator
    rows[:, 0] = ord("-")
    for place in range(most):
        rows[:, most - place] = 48 + value // _POWERS[place] % 10
    rows[:, -1] = np.where(full == 0, ord("\n"), ord(" "))
    keep = np.empty(rows.shape, dtype=bool)
    keep[:, 0] = full < 0
    keep[:, 1:-1] = np.arange(most, 0, -1) <= digits[:, None]
    keep[:, -1] = True
    return rows[keep].tobytes().decode("ascii")


def read_user_map(cnf_path: Path) -> dict[str, int]:
    """The ``c user VAR NAME`` comments of an exported CNF: name -> variable (of names
    given twice, the last)."""
    return dict(read_cnf(cnf_path).user)


@dataclass
class CnfFile:
    """A DIMACS CNF file as read: the header's sizes, the clauses and the user variables
    named in its comments."""

    path: str
    num_vars: int
    clauses: Groups
    user: list[tuple[str, int]]  # (name, variable), as the comments list them
    body_line: int  # the line of the header (``p cnf``): clauses come after it

    def clause_line(self, k: int) -> int | None:
        """The line on which clause ``k`` (from 0) ends, for messages."""
        try:
            lines = decode_utf8(Path(self.path).read_bytes(), self.path).splitlines()
        except (OSError, PuzzleError):
            return None
        closed = 0
        for n, line in enumerate(lines[self.body_line:], self.body_line + 1):
            if line.startswith(("c", "%")):
                continue
            closed += line.split().count("0")
            if closed > k:
                return n
        return None


def read_cnf(cnf_path: str | Path, exported: bool = True) -> CnfFile:
    """Read a DIMACS CNF (as export-cnf writes it; any DIMACS CNF if not ``exported``):
    any defect is a PuzzleError naming the file and line."""
    where = str(cnf_path)
    lines = read_text(cnf_path).splitlines()
    user: list[tuple[str, int]] = []
    header = None
    ours = False  # write_dimacs marks its files, a model without answer variables too
    for lineno, line in enumerate(lines, 1):
        if line.startswith("p"):
            header = lineno
            break
        ours = ours or line.startswith("c smtpuzzle ")
        if line.startswith("c user "):
            parts = line.split(maxsplit=3)
            if len(parts) != 4 or not _small(parts[2]):
                raise PuzzleError(f"malformed user-variable comment {line.strip()[:60]!r}",
                                  f"{where}:{lineno}")
            user.append((parts[3].strip(), int(parts[2])))
        elif line.strip() and not line.startswith("c"):
            raise PuzzleError(f"expected comments and a 'p cnf VARIABLES CLAUSES' line, found "
                              f"{line.strip()[:40]!r}", f"{where}:{lineno}")
    if header is None:
        raise PuzzleError("no 'p cnf VARIABLES CLAUSES' line: not a DIMACS CNF", where)
    words = lines[header - 1].split()
    if len(words) != 4 or words[1] != "cnf" or not all(_small(w) for w in words[2:]):
        raise PuzzleError(f"malformed header {lines[header - 1].strip()[:40]!r} (expected "
                          f"'p cnf VARIABLES CLAUSES', each at most {MAX_VARIABLE:,})",
                          f"{where}:{header}")
    num_vars, num_clauses = int(words[2]), int(words[3])
    if exported and not ours and not user:
        raise PuzzleError("no 'c smtpuzzle' or 'c user' comments: not a CNF exported by "
                          "smtpuzzle", where)
    body = [ln for ln in lines[header:] if not ln.startswith(("c", "%"))]
    try:
        ints = np.array(" ".join(body).split(), dtype=np.int64)
    except (ValueError, OverflowError):
        bad = next((n, w) for n, ln in enumerate(lines[header:], header + 1)
                   if not ln.startswith(("c", "%")) for w in ln.split() if not _is_int(w))
        raise PuzzleError(f"{bad[1][:20]!r} is not a literal", f"{where}:{bad[0]}") from None
    zeros = np.flatnonzero(ints == 0)
    if len(ints) and ints[-1] != 0:
        raise PuzzleError("the last clause has no closing 0 (a truncated file?)", where)
    if len(zeros) != num_clauses:
        raise PuzzleError(f"the header says {num_clauses} clauses, the file has {len(zeros)}",
                          f"{where}:{header}")
    flat = ints[ints != 0]
    if len(flat) and int(np.abs(flat).max()) > num_vars:
        raise PuzzleError(f"a clause has literal {int(flat[np.argmax(np.abs(flat))])}, beyond "
                          f"the header's {num_vars} variables", where)
    offsets = np.concatenate([[0], zeros - np.arange(len(zeros))]).astype(np.int64)
    return CnfFile(where, num_vars, Groups(flat, offsets, owned=True), user, header)


def _is_int(word: str) -> bool:
    """``word`` is a whole number an int64 holds."""
    negative = word[:1] == "-"
    digits = word[1:] if negative else word
    return is_digits(digits) and len(digits) <= 19 and int(digits) < 2**63 + negative


def _small(word: str) -> bool:
    """``word`` is a count of variables or clauses DIMACS solvers take (0..MAX_VARIABLE)."""
    return is_digits(word) and len(word) <= 10 and int(word) <= MAX_VARIABLE


@dataclass
class SolverOutput:
    """What a solver's output file says: its status and the literals it gives (with the line
    each came from), and whether the values were closed by a 0."""

    status: Status
    literals: np.ndarray
    lines: np.ndarray  # the output's line of each literal
    closed: bool  # the values end with the closing 0


def read_solver_output(path: Path) -> tuple[Status, set[int]]:
    """Parse a solver's answer: ``s SATISFIABLE`` + ``v ... 0`` lines (competition format),
    or MiniSat's result file (``SAT`` then literals). Returns the status and true variables."""
    out = read_output(path)
    return out.status, set(out.literals[out.literals > 0].tolist())


_STATUS_WORDS = {"SATISFIABLE": Status.SAT, "SAT": Status.SAT, "UNSATISFIABLE": Status.UNSAT,
                 "UNSAT": Status.UNSAT, "UNKNOWN": Status.UNKNOWN, "INDET": Status.UNKNOWN,
                 "INDETERMINATE": Status.UNKNOWN}


def read_output(path: str | Path) -> SolverOutput:
    """A solver's output read strictly: one status at most, values as whole numbers."""
    where = str(path)
    status: Status | None = None
    chunks: list[np.ndarray] = []
    line_of: list[np.ndarray] = []
    closed = False
    for lineno, raw in enumerate(read_text(path).splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("s ") or line in _STATUS_WORDS:
            word = line[2:].strip() if line.startswith("s ") else line
            said = _STATUS_WORDS.get(word.upper())
            if said is None:
                raise PuzzleError(f"unknown status {word[:30]!r} (expected SATISFIABLE, "
                                  "UNSATISFIABLE or UNKNOWN)", f"{where}:{lineno}")
            if status is not None and said is not status:
                raise PuzzleError(f"a second, different status line {line[:30]!r}",
                                  f"{where}:{lineno}")
            status = said
            continue
        words = line[2:].split() if line.startswith("v ") else line.split()
        if not all(_is_int(w) for w in words):  # int() would take '1_0' and '\u0663'
            raise PuzzleError(f"cannot read solver output line {line[:40]!r}",
                              f"{where}:{lineno}")
        lits = np.array([int(w) for w in words], dtype=np.int64)
        if closed and len(lits):
            raise PuzzleError("values after the closing 0", f"{where}:{lineno}")
        if len(lits) and (lits[:-1] == 0).any():
            raise PuzzleError("a 0 in the middle of the values (0 closes them)",
                              f"{where}:{lineno}")
        if len(lits):
            closed = bool(lits[-1] == 0)
        lits = lits[lits != 0]
        chunks.append(lits)
        line_of.append(np.full(len(lits), lineno, dtype=np.int64))
    literals = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)
    if status is None:
        if not chunks:
            raise PuzzleError("no 's' status line and no values in the solver output", where)
        status = Status.SAT
    return SolverOutput(status, literals,
                        np.concatenate(line_of) if line_of else np.zeros(0, np.int64), closed)


def check_assignment(cnf: CnfFile, out: SolverOutput, output_path: str) -> np.ndarray:
    """The solver's assignment (index 0 unused) after checking that it is well formed and
    satisfies every clause of ``cnf``; variables it leaves out are taken as false. A wrong
    answer is the solver's (or its file's), so every defect is a PuzzleError."""
    lits, n = out.literals, cnf.num_vars
    if out.status is not Status.SAT:
        if len(lits):
            raise PuzzleError(f"the solver says {out.status.value} but gives values",
                              output_path)
        return np.zeros(n + 1, dtype=bool)
    if not len(lits) and not out.closed:
        raise PuzzleError("the solver says SATISFIABLE but gives no values ('v' lines)",
                          output_path)
    if not out.closed:
        raise PuzzleError("the values end without the closing 0: the answer looks truncated",
                          output_path)
    beyond = np.flatnonzero((lits > n) | (lits < -n))  # np.abs(-2**63) is negative
    if len(beyond):
        i = int(beyond[0])
        raise PuzzleError(f"literal {int(lits[i])} is beyond the CNF's {n} variables",
                          f"{output_path}:{int(out.lines[i])}")
    check_fits_in_memory(2 * (n + 1), f"checking an answer over {n:,} variables")
    positive = np.zeros(n + 1, dtype=bool)
    negative = np.zeros(n + 1, dtype=bool)
    positive[lits[lits > 0]] = True
    negative[-lits[lits < 0]] = True
    both = np.flatnonzero(positive & negative)
    if len(both):
        v = int(both[0])
        i = int(np.flatnonzero(np.abs(lits) == v)[-1])
        raise PuzzleError(f"variable {v} is given both true and false",
                          f"{output_path}:{int(out.lines[i])}")
    flat, offs = cnf.clauses.flat, cnf.clauses.offsets
    true = np.where(flat > 0, positive[np.abs(flat)], ~positive[np.abs(flat)])
    sizes = np.diff(offs)
    satisfied = np.zeros(len(sizes), dtype=bool)
    nonempty = sizes > 0
    if len(flat):
        satisfied[nonempty] = np.logical_or.reduceat(true, offs[:-1][nonempty])
    broken = np.flatnonzero(~satisfied)
    if len(broken):
        k = int(broken[0])
        clause = " ".join(map(str, flat[offs[k]:offs[k + 1]].tolist()[:12]))
        line = cnf.clause_line(k)
        at = f" (line {line})" if line else ""
        left_out = n - int((positive | negative)[1:].sum())
        why = f"; it leaves {left_out} variables out, taken as false" if left_out else ""
        raise PuzzleError(f"the assignment does not satisfy clause {k + 1} of {cnf.path}{at}: "
                          f"{clause} 0 (a wrong or truncated answer{why})", output_path)
    return positive


def decode_answer(model: Model, cnf_path: Path, output_path: Path) -> tuple[Status, np.ndarray]:
    """User-variable values of ``model`` from an external solver's answer to ``cnf_path``;
    when SAT, ``model`` also holds the answer as after a solve (``x.value()`` reads its
    integers, decoded from their "x == v" literals).

    The CNF must be the one ``model`` exports (same user variables, same clauses), and a
    SATISFIABLE answer must be a well-formed assignment that satisfies every clause: any
    defect is a PuzzleError (bad input, not a bug). UNSATISFIABLE cannot be checked
    without a proof and is returned as claimed."""
    cnf = read_cnf(cnf_path)
    flat = lowered(model, BOOLEAN, "DIMACS")  # as write_dimacs exported it
    names = flat.user_names()
    # as pairs, not a dict: two arrays of a model may share a name
    if sorted(names) != sorted(name for name, _ in cnf.user):
        raise PuzzleError("the CNF's user variables do not match this model "
                          "(was it exported from another model?)", str(cnf_path))
    if sorted(zip(names, flat.user_vars.tolist(), strict=True)) != sorted(cnf.user):
        raise PuzzleError("the CNF's user-variable comments number the variables unlike "
                          "this model (was the file edited?)", str(cnf_path))
    ours = to_cnf(flat)
    if ours.num_vars != cnf.num_vars or not (
            np.array_equal(ours.clauses.offsets, cnf.clauses.offsets)
            and np.array_equal(ours.clauses.flat, cnf.clauses.flat)):
        raise PuzzleError("the CNF's clauses differ from this model's (was it edited, or "
                          "exported with another `encoding` or version?)", str(cnf_path))
    out = read_output(output_path)
    values = check_assignment(cnf, out, str(output_path))
    bools = len(model.user_vars)  # the model's own user booleans, then integers' literals
    if out.status is not Status.SAT:
        model.take(Result(out.status, None, Stats("dimacs")))  # no answer left to read
        return out.status, np.zeros(bools, dtype=bool)
    user = values[flat.user_vars]
    ints = None
    if flat.int_answer is not None:
        ints = flat.int_answer.decode(user[bools:])
    model.take(Result(Status.SAT, user[:bools], Stats("dimacs"), ints))
    return out.status, user[:bools]


def answer_text(status: Status, model: np.ndarray | None, num_vars: int) -> str:
    """An answer written as SAT solvers write theirs: ``s SATISFIABLE`` and ``v`` lines of
    every variable's literal ending in 0, ``s UNSATISFIABLE``, or ``s UNKNOWN``."""
    if status is Status.UNSAT:
        return "s UNSATISFIABLE\n"
    if status is not Status.SAT or model is None:
        return "s UNKNOWN\n"
    lits = np.where(np.asarray(model, dtype=bool), 1, -1) * np.arange(1, num_vars + 1)
    lines = [" ".join(map(str, lits[i:i + 20].tolist())) for i in range(0, num_vars, 20)]
    return "s SATISFIABLE\n" + "".join(f"v {line}\n" for line in lines) + "v 0\n"
