"""Cells, shapes, their orientations, polyomino generation, named piece sets and boards."""

from smtpuzzle.geometry.board import Board
from smtpuzzle.geometry.piecesets import piece_set, piece_set_names
from smtpuzzle.geometry.polyforms import free_polyominoes
from smtpuzzle.geometry.shapes import Shape, parse_picture

__all__ = ["Board", "Shape", "free_polyominoes", "parse_picture", "piece_set", "piece_set_names"]
