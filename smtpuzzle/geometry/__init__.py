"""Grids, cells, shapes, their orientations, polyform generation, named piece sets and
boards."""

from smtpuzzle.geometry.board import Board
from smtpuzzle.geometry.board_shapes import shaped_cells
from smtpuzzle.geometry.grids import Grid, grid
from smtpuzzle.geometry.piecesets import piece_set, piece_set_names
from smtpuzzle.geometry.polyforms import free_polyominoes, polyforms
from smtpuzzle.geometry.shapes import Shape, parse_picture

__all__ = ["Board", "Grid", "Shape", "free_polyominoes", "grid", "parse_picture", "piece_set",
           "piece_set_names", "polyforms", "shaped_cells"]
