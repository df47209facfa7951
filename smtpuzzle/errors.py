"""Errors the user can act on: each carries a one-line message naming where the problem is."""

from __future__ import annotations

import re

# An argument named in a message or an answer's note: `split_depth`, or with its value,
# `model=index`. A Python caller reads it so; the command line prints its flag instead
# (--split-depth, --model index). Library code names arguments only so, never by a flag.
_ARGUMENT = re.compile(r"`([a-z][a-z0-9_]*)(?:=([^`]*))?`")
# Arguments whose flag is not their name with dashes.
FLAG_NAMES = {"cell": "cell-size"}


def command_line_words(text: str) -> str:
    """``text`` with each marked argument as the command line's flag."""
    def flag(m: re.Match[str]) -> str:
        name = "--" + FLAG_NAMES.get(m[1], m[1].replace("_", "-"))
        return name if m[2] is None else f"{name} {m[2]}"
    return _ARGUMENT.sub(flag, text)


class PuzzleError(Exception):
    """Bad input: a malformed file, an unknown name, a puzzle that is impossible on its face.

    The command line prints ``error: <where>: <message>`` and exits with code 2.
    """

    def __init__(self, message: str, where: str | None = None, line: int | None = None,
                 piece: str | None = None, key: str | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.line = line
        self.column = column  # with the line: where in it (XML files say both)
        # the piece the error is about, and its key (count, max...): a file reader puts the
        # error at that piece's line
        self.piece = piece
        self.key = key

    def located(self, where: str) -> PuzzleError:
        """The same error, attributed to file ``where`` (and its line, if known)."""
        if self.where is None:
            self.where = f"{where}:{self.line}" if self.line else where
            if self.line and self.column:
                self.where += f":{self.column}"
        return self

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def for_command_line(self) -> str:
        """The error as the command line prints it: arguments named by their flags."""
        return command_line_words(str(self))


class VerificationError(Exception):
    """A decoded solution broke a rule of the puzzle: a bug in a model or back end."""


class ProcessDied(RuntimeError):
    """A child process ended without a last word: killed from outside, or out of memory.
    Not an answer and not a bug: commands stop as on Ctrl-C, keeping what they found."""
