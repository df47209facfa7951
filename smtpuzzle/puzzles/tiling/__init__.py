"""Tilings: pieces packed into a board, exactly or loosely; counting up to symmetry."""
