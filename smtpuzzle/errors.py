"""Errors the user can act on: each carries a one-line message naming where the problem is."""

from __future__ import annotations


class PuzzleError(Exception):
    """Bad input: a malformed file, an unknown name, a puzzle that is impossible on its face.

    The command line prints ``error: <where>: <message>`` and exits with code 2.
    """

    def __init__(self, message: str, where: str | None = None, line: int | None = None,
                 piece: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.line = line
        # the piece the error is about, and its key (count, max...): a file reader puts the
        # error at that piece's line
        self.piece = piece
        self.key = key

    def located(self, where: str) -> PuzzleError:
        """The same error, attributed to file ``where`` (and its line, if known)."""
        if self.where is None:
            self.where = f"{where}:{self.line}" if self.line else where
        return self

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class VerificationError(Exception):
    """A decoded solution broke a rule of the puzzle: a bug in a model or back end."""


class ProcessDied(RuntimeError):
    """A child process ended without a last word: killed from outside, or out of memory.
    Not an answer and not a bug: commands stop as on Ctrl-C, keeping what they found."""
