"""Pencil puzzles: two dozen genres (shading, loops, regions, numbers, objects), each a
module of ``genres/`` written with the public modelling API, read from plain-text grids and
puzz.link links, decided unique, multiple or none, each answer checked by the genre's own
verifier."""
