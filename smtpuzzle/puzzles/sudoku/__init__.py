"""Sudoku (n^2 x n^2, n = 2..5), written with the public modelling API only."""
