"""Nonograms: clues, encodings, line solving, guesses and the verdict."""
