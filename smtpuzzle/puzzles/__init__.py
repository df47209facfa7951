"""Puzzle families: each builds a model, decodes an assignment and verifies the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    import numpy as np

    from smtpuzzle.model import Model


class Puzzle(Protocol):
    """A puzzle solved through one model (Tiling, Nonogram), so that code which takes any of
    them (DIMACS export and read-back, the command line) never asks for its class.

    ``family`` names it ("tiling", "nonogram"; "frames" too). ``build_model(encoding)`` is
    the model of the whole puzzle (``encoding`` names a nonogram's; None, the default one).
    Frames have ``family``, ``name`` and ``build_model``, which refuses with a PuzzleError:
    they are solved in stages, not through one model."""

    family: ClassVar[str]
    name: str

    def build_model(self, encoding: str | None = None) -> Model: ...

    def decode(self, values: np.ndarray) -> Any: ...

    def verify(self, solution: Any) -> None: ...
