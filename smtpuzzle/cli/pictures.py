"""The picture options the commands share (--svg, --png, --html, --cell-size) and writing
the files they name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from smtpuzzle.cli.common import cli_path, err, unwritten
from smtpuzzle.errors import PuzzleError
from smtpuzzle.runtime.files import distinct_files, writable

if TYPE_CHECKING:
    from smtpuzzle.render.layout import Drawing

CellSizeOpt = Annotated[int | None, typer.Option(
    "--cell-size", help="Pixels per cell in pictures (default 32).", min=4, max=400)]
HtmlOpt = Annotated[Path | None, typer.Option(
    help="Write one self-contained HTML page: the run's summary and every solution drawn.",
        parser=cli_path)]


@dataclass
class PictureFiles:
    """The picture files a command was asked for."""

    svg: Path | None = None
    png: Path | None = None
    html: Path | None = None
    cell: int | None = None

    def __bool__(self) -> bool:
        return any((self.svg, self.png, self.html))

    def check(self, inputs: dict[str, Path | None] | None = None,
              others: dict[str, Path | None] | None = None) -> None:
        """Refuse bad file names before any solving: one that names an input, or the same
        file as another output (``others``: the command's outputs that are not pictures)."""
        distinct_files({"--svg": self.svg, "--png": self.png, "--html": self.html,
                        **(others or {})}, inputs)
        # write_drawing picks the format by extension, so a mismatched name would
        # silently write the other format.
        for option, path in (("svg", self.svg), ("png", self.png)):
            if path is not None and Path(path).suffix.lower() != f".{option}":
                raise PuzzleError(f"--{option} writes {option.upper()}: name the file "
                                  f"*.{option}", str(path))
        for path in (self.svg, self.png, self.html):
            if path is not None:
                writable(Path(path), "the picture")

    def write(self, drawing: Callable[[], Drawing] | None,
              pages: Callable[[], Sequence[Drawing]], title: str, summary: dict[str, Any],
              subtitle: str = "") -> None:
        """``drawing()`` into the SVG and PNG files (None: nothing to draw, no files),
        ``pages()`` (one drawing per solution, say) into the HTML page with ``summary``;
        each made only if a file wants it. A file that cannot be written is
        common.unwritten: the answer is still shown."""
        try:
            self._write(drawing, pages, title, summary, subtitle)
        except PuzzleError as exc:
            unwritten(exc.for_command_line())

    def _write(self, drawing: Callable[[], Drawing] | None,
               pages: Callable[[], Sequence[Drawing]], title: str, summary: dict[str, Any],
               subtitle: str) -> None:
        from smtpuzzle.render.pictures import write_drawing, write_page

        asked = [p for p in (self.svg, self.png) if p is not None]
        if asked and drawing is not None:
            picture = drawing()
            for path in asked:
                write_drawing(picture, path, self.cell)
                wrote(path)
        elif asked:
            err.print(f"no solution to draw: {' and '.join(map(str, asked))} not written",
                      markup=False)
        if self.html is not None:
            write_page(self.html, title, summary, pages(), self.cell, subtitle)
            wrote(self.html)


def wrote(path: Path) -> None:
    """Say which file was written (on stderr: the answer, JSON too, stays on stdout)."""
    err.print(f"wrote {path}", markup=False, highlight=False)
