"""An outside SAT solver's answer to a puzzle exported as DIMACS CNF, read back: the
assignment is checked against every clause (backends/dimacs.py), decoded to the puzzle's
own solution and verified by its rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from smtpuzzle.backends.dimacs import decode_answer
from smtpuzzle.puzzles import Puzzle
from smtpuzzle.result import Answer, Stats, Status
from smtpuzzle.runtime.files import check_file


@dataclass
class DimacsAnswer(Answer):
    """An outside solver's answer to an exported CNF, read back (read_answer): its status
    and, when sat, the puzzle's solution, decoded and verified."""

    model: str  # the puzzle's name
    status: Status
    solutions: list[Any]  # the puzzle's own solutions (a tiling's, a nonogram's rows)
    # read from a file: no time of ours, nothing to interrupt, no back end's stats
    time_s: float = field(default=0.0, metadata={"json": False})
    interrupted: bool = field(default=False, metadata={"json": False})
    stats: Stats | None = field(default=None, metadata={"json": False})

    @property
    def verified(self) -> bool:
        """Whether the answer was checked here: a solution is (against every clause and the
        puzzle's rules); unsat and unknown are the solver's word."""
        return self.status is Status.SAT

    @property
    def claim(self) -> str:
        """The answer in words, saying what was checked and what is taken on trust."""
        if self.status is Status.SAT:
            return "sat (verified: the assignment satisfies every clause, the solution " \
                   "every rule of the puzzle)"
        if self.status is Status.UNSAT:
            return "unsat, as claimed by the solver, not verified"
        return "unknown: the solver gave no answer"

    def json_extra(self) -> dict[str, Any]:
        return {"backend": "dimacs", "verified": self.verified, "claim": self.claim}


def read_answer(puzzle: Puzzle, cnf_path: Path, output_path: Path,
                encoding: str | None = None, grid: bool | None = None) -> DimacsAnswer:
    """Read an outside solver's answer (``output_path``) to the CNF that ``puzzle``'s model
    was exported as (``cnf_path``, with the same ``encoding``). ``grid``: a puzzle of a grid
    family (Sudoku, KenKen, a pencil puzzle), whose model is its ``build()``'s and whose
    solution is its answer variables' values (decoded, where it has a ``decode``); by
    default, a puzzle without a ``decode``. A malformed or wrong answer is a PuzzleError; an
    assignment that satisfies the CNF decodes to a solution that must pass the puzzle's
    verifier (VerificationError otherwise: our bug, not the solver's)."""
    for path in (cnf_path, output_path):
        check_file(path)
    judge: Any = puzzle
    answer = None
    if grid if grid is not None else not hasattr(puzzle, "decode"):
        judge = puzzle.one(encoding) if hasattr(puzzle, "one") else puzzle
        model, answer = judge.build()
    else:  # a tiling, a nonogram: its decode reads the user variables of its model
        model = puzzle.build_model(encoding)  # refuses what export-cnf refuses
    status, values = decode_answer(model, cnf_path, output_path)
    solutions = []
    if status is Status.SAT:
        solutions.append(puzzle.decode(values) if answer is None
                         else getattr(judge, "decode", np.asarray)(answer.value()))
    for solution in solutions:
        judge.verify(solution)
    return DimacsAnswer(puzzle.name, status, solutions)
