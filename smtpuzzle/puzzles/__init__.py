"""Puzzle families: each builds a model, decodes an assignment and verifies the result."""
