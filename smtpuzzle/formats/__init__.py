"""Readers and writers: puzzle TOML files and DIMACS CNF."""
