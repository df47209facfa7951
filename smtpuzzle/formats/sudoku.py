"""The one-line Sudoku format: a puzzle per line, its cells row by row, ``1``-``9`` then
``A`` = 10, ``B`` = 11, ... (up to 25), ``.`` or ``0`` for a blank; 16, 81, 256 or 625
characters (n = 2..5). Blank lines and lines starting with ``#`` are skipped; anything
after the cells, separated by white space, is the puzzle's name."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from smtpuzzle.errors import PuzzleError
from smtpuzzle.puzzles.sudoku.puzzle import Sudoku
from smtpuzzle.runtime.files import read_text

SIZES = {16: 4, 81: 9, 256: 16, 625: 25}
DIGITS = "123456789ABCDEFGHIJKLMNOP"


def parse_line(text: str, where: str) -> Sudoku:
    cells, *rest = text.split(maxsplit=1) or [""]  # the name after any white space
    name = rest[0] if rest else ""
    if len(cells) not in SIZES:
        raise PuzzleError(f"a Sudoku line has 16, 81, 256 or 625 cells, this one "
                          f"{len(cells)}", where)
    size = SIZES[len(cells)]
    values = np.zeros(len(cells), dtype=np.int64)
    for i, ch in enumerate(cells):
        if ch in ".0":
            continue
        upper = ch.upper()  # one letter may upper-case to two ("ﬀ"): no value then
        v = DIGITS.find(upper) + 1 if len(upper) == 1 else 0
        if v == 0 or v > size:
            raise PuzzleError(f"cell {i + 1}: {ch!r} is not a value of a {size}x{size} "
                              f"Sudoku (1-{DIGITS[size - 1]}, . or 0 for a blank)", where)
        values[i] = v
    grid = values.reshape(size, size)
    _check_givens(grid, where)
    return Sudoku(grid, name.strip() or where)


def _check_givens(grid: np.ndarray, where: str) -> None:
    """Refuse givens that clash (a value twice in a row, column or box): no solution, and
    obviously so."""
    size = len(grid)
    n = int(round(size ** 0.5))
    rows, cols = np.indices(grid.shape)
    boxes = (rows // n) * n + cols // n
    for what, unit in (("row", rows), ("column", cols), ("box", boxes)):
        given = grid > 0
        keys = unit[given] * (size + 1) + grid[given]
        found, seen = np.unique(keys, return_counts=True)
        if (seen > 1).any():
            key = int(found[seen > 1][0])
            raise PuzzleError(f"no solution: {what} {key // (size + 1) + 1} has two "
                              f"{DIGITS[key % (size + 1) - 1]}s among its givens", where)


def load_sudokus(path: Path) -> list[Sudoku]:
    """Every puzzle of a ``.sudoku`` file, in order."""
    text = read_text(path)
    out = []
    for k, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(parse_line(line, f"{path}:{k}"))
    if not out:
        raise PuzzleError("no Sudoku in the file", str(path))
    return out


@dataclass
class SudokuFile:
    """The puzzles of one ``.sudoku`` file (answered one after another)."""

    path: Path
    puzzles: list[Sudoku]
    family = "sudoku"

    @classmethod
    def load(cls, path: Path) -> SudokuFile:
        return cls(path, load_sudokus(path))

    @property
    def name(self) -> str:
        return self.path.stem

    def one(self, encoding: str | None = None) -> Sudoku:
        """The file's puzzle, where one model is asked for: refused unless there is one."""
        if encoding is not None:
            raise PuzzleError("`encoding`: for nonograms only")
        if len(self.puzzles) != 1:
            raise PuzzleError(f"{len(self.puzzles)} puzzles in the file: one model needs one",
                              str(self.path))
        return self.puzzles[0]

    def build_model(self, encoding: str | None = None) -> object:
        return self.one(encoding).build_model()


def grid_text(grid: np.ndarray) -> str:
    """A grid in rows of digits (letters past 9), boxes separated by spaces."""
    size = len(grid)
    n = int(round(size ** 0.5))
    rows = []
    for r, row in enumerate(np.asarray(grid).tolist()):
        if r and r % n == 0:
            rows.append("")
        rows.append(" ".join("".join(DIGITS[v - 1] if v else "." for v in row[c:c + n])
                             for c in range(0, size, n)))
    return "\n".join(rows)


def solution_text(_puzzle: object, grid: np.ndarray) -> str:
    """A solved grid as text, for the family registry."""
    return grid_text(grid) + "\n"
