"""Named piece sets with stable piece names (pentomino letters, numbered hexominoes, Soma,
hexiamond and pentahex letters...), free or one-sided.

The polyiamond, polyhex, polystick, polytwig and polytrig letters are those of David
Goodger's Polyform Puzzler (the hexiamonds' are O'Beirne's); one-sided sets name a mirror
image by the lower-case name, as Puzzler does. Triangle and hexagon pictures follow the
grids' conventions (grids.py): in a triangle picture the first column of the first line is
an up triangle. Edge pieces are drawn as edges.py draws them (``+-+``, ``*---*``, ``|``
``/`` ``\\`` for the hexagon grid's edges).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from smtpuzzle.errors import PuzzleError
from smtpuzzle.geometry.grids import grid
from smtpuzzle.geometry.polyforms import folds_into_cube, polyforms
from smtpuzzle.geometry.shapes import Shape, parse_picture

_PENTOMINOES = {
    "F": ".##\n##.\n.#.",
    "I": "#####",
    "L": "#.\n#.\n#.\n##",
    "N": ".#\n.#\n##\n#.",
    "P": "##\n##\n#.",
    "T": "###\n.#.\n.#.",
    "U": "#.#\n###",
    "V": "#..\n#..\n###",
    "W": "#..\n##.\n.##",
    "X": ".#.\n###\n.#.",
    "Y": ".#\n##\n.#\n.#",
    "Z": "##.\n.#.\n.##",
}
_TETROMINOES = {
    "I4": "####", "L4": "#.\n#.\n##", "O4": "##\n##", "S4": ".##\n##.", "T4": "###\n.#.",
}
_TROMINOES = {"I3": "###", "L3": "#.\n##"}

# Soma cubes, as (row, column, layer) cells. A and B are mirror images of each other.
_SOMA = {
    "V": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "Z": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "A": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],
    "B": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],
    "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
}


_POLYIAMONDS = {  # moniamond to pentiamonds
    "T1": "#", "D2": "##", "I3": "###", "I4": "####", "C4": "###\n..#", "T4": "..#.\n.###",
    "I5": "#####", "C5": "###\n#.#", "L5": "....#\n.####", "P5": "..#..\n.####",
}
_HEXIAMONDS = {
    "I6": "######", "P6": "....#.\n.#####", "J6": "#####\n#....", "E6": "#####\n..#..",
    "V6": "..##.\n.####", "H6": "####\n..##", "S6": "....#\n.####\n.#...",
    "X6": "..#..\n.####\n...#.", "C6": "....##\n.####.", "G6": "...##\n.####",
    "F6": "..#.#\n.####", "O6": "###\n###",
}
_HEPTIAMONDS = {
    "A7": "####\n#.##", "B7": "..##.\n.####\n...#.", "C7": "#####\n#...#",
    "D7": "..#.\n.###\n.###", "E7": "....#..\n.######", "F7": "#####\n#.#..",
    "G7": "...##.\n.#####", "H7": "....##\n.#####", "I7": "#######", "J7": "#####\n##...",
    "L7": "......#\n.######", "M7": "..#.#.\n.#####", "N7": "....##\n.####.\n.#....",
    "P7": "..#....\n.######", "Q7": "..#...\n.#####\n.....#", "R7": "..#####\n.##....",
    "S7": "...##\n.####\n.#...", "T7": "..#...\n.#####\n.#....", "U7": "..#.##\n.####.",
    "V7": "..#.\n..##\n####", "W7": "....#\n.####\n...##", "X7": "..#...\n.#####\n...#..",
    "Y7": "#####\n.##..", "Z7": "####.\n..###",
}
_POLYHEXES = {  # monohex to tetrahexes
    "H1": "#", "I2": "# #", "I3": "# # #", "V3": "    #\n # #", "A3": "  #\n # #",
    "I4": "# # # #", "J4": "      #\n # # #", "P4": "    #\n # # #", "S4": "    # #\n # #",
    "U4": "#   #\n # #", "Y4": "    #\n # #\n    #", "O4": "  # #\n # #",
}
_PENTAHEXES = {
    "A5": "    #\n # # #\n    #", "B5": "    # #\n # # #", "C5": "#     #\n # # #",
    "D5": "  # #\n # # #", "E5": "    #\n # # # #", "F5": "  #   #\n # # #",
    "G5": "    # #\n # #   #", "H5": "  #\n   # #\n# #", "I5": "# # # # #",
    "J5": "        #\n # # # #", "L5": "      #\n     #\n# # #", "N5": "      # #\n # # #",
    "P5": "      #\n # # # #", "Q5": "      #\n # # #\n  #", "R5": "    #\n     #\n# # #",
    "S5": "      #\n # # #\n#", "T5": "      #\n # # #\n    #", "U5": "  #\n #   #\n  # #",
    "V5": "  #\n #\n# # #", "W5": "      #\n   # #\n# #", "X5": "  #\n # # #\n    #",
    "Y5": "      #\n # # #\n      #",
}


_POLYSTICKS = {
    "I1": "+-+",
    "I2": "+-+-+",
    "V2": "+\n|\n+-+",
    "I3": "+-+-+-+",
    "L3": "    +\n    |\n+-+-+",
    "T3": "  +\n  |\n+-+-+",
    "Z3": "+-+\n  |\n  +-+",
    "U3": "+ +\n| |\n+-+",
    "I": "+-+-+-+-+",
    "L": "      +\n      |\n+-+-+-+",
    "Y": "    +\n    |\n+-+-+-+",
    "V": "    +\n    |\n    +\n    |\n+-+-+",
    "T": "  +\n  |\n  +\n  |\n+-+-+",
    "X": "  +\n  |\n+-+-+\n  |\n  +",
    "U": "+   +\n|   |\n+-+-+",
    "N": "    +-+\n    |\n+-+-+",
    "J": "  +-+\n    |\n+-+-+",
    "H": "  +-+\n  |\n+-+-+",
    "F": "+ +\n| |\n+-+-+",
    "Z": "    +\n    |\n+-+-+\n|\n+",
    "R": "  +\n  |\n+-+-+\n|\n+",
    "W": "    +\n    |\n  +-+\n  |\n+-+",
    "P": "+-+\n| |\n+ +-+",
    "O": "+-+\n| |\n+-+",
}
_POLYTWIGS = {
    "I1": "  |",
    "L2": "  |\n /",
    "Y3": "  |\n / \\",
    "S3": "  |\n /\n|",
    "C3": "      |\n   \\ /",
    "Y4": "  |\n / \\\n|",
    "W4": "      |\n     /\n    |\n   /",
    "P4": "     / \\\n    |\n   /",
    "C4": "   \\\n    |\n \\ /",
    "C5": " / \\\n    |\n \\ /",
    "H5": "     /\n    |\n \\ / \\",
    "I5": "     /\n    |\n   /\n  |\n /",
    "L5": "      |\n     /\n    |\n   / \\",
    "P5": "  |\n /\n|\n \\ /",
    "R5": "     / \\\n    |\n   / \\",
    "S5": "   \\\n    |\n   /\n  |\n   \\",
    "T5": "     /\n    |\n   / \\\n  |",
    "U5": "  |\n /\n|\n \\\n  |",
    "W5": "   \\\n    |\n   /\n  |\n /",
    "X5": "   \\ /\n    |\n   / \\",
    "Y5": "     /\n    |\n   / \\ /",
}
_TRITRIGS = {
    "I3": "*---*---*---*",
    "L3": "            *\n           /\n  *---*---*",
    "J3": "        *\n         \\\n  *---*---*",
    "T3": "        *\n       /\n  *---*---*",
    "S3": "        *---*\n       /\n  *---*",
    "C3": "    *\n     \\\n      *\n     /\n*---*",
    "U3": "    *---*\n       /\n  *---*",
    "P3": "        *\n       / \\\n  *---*   *",
    "E3": "    *   *\n     \\ /\n  *---*",
    "Y3": "        *\n       /\n  *---*\n       \\\n        *",
    "Z3": "    *---*\n     \\\n  *---*",
    "O3": "    *\n   / \\\n  *---*",
}


def _from_pictures(pictures: dict[str, str], on: str = "square") -> dict[str, Shape]:
    return {name: parse_picture(pic, grid(on)) for name, pic in pictures.items()}


def _pick(pictures: dict[str, str], on: str, names: str) -> dict[str, Shape]:
    return _from_pictures({n: pictures[n] for n in names.split()}, on)


def _only(pictures: dict[str, str], size: int) -> dict[str, str]:
    return {n: p for n, p in pictures.items() if n.endswith(str(size))}


def _numbered(prefix: str, n: int, width: int, on: str = "square") -> dict[str, Shape]:
    return {f"{prefix}{i + 1:0{width}d}": s for i, s in enumerate(polyforms(on, n))}


_SETS: dict[str, Callable[[], dict[str, Shape]]] = {
    "monominoes": lambda: {"O1": Shape([(0, 0)])},
    "dominoes": lambda: {"I2": Shape([(0, 0), (0, 1)])},
    "trominoes": lambda: _from_pictures(_TROMINOES),
    "tetrominoes": lambda: _from_pictures(_TETROMINOES),
    "pentominoes": lambda: _from_pictures(_PENTOMINOES),
    "hexominoes": lambda: _numbered("H", 6, 2),
    "heptominoes": lambda: _numbered("S", 7, 3),
    "cube-nets": lambda: {k: s for k, s in piece_set("hexominoes").items() if folds_into_cube(s)},
    "soma": lambda: {name: Shape(cells) for name, cells in _SOMA.items()},
    "hexiamonds": lambda: _from_pictures(_HEXIAMONDS, "triangle"),
    "heptiamonds": lambda: _from_pictures(_HEPTIAMONDS, "triangle"),
    "polyiamonds-1-5": lambda: _from_pictures(_POLYIAMONDS, "triangle"),
    "pentahexes": lambda: _from_pictures(_PENTAHEXES, "hexagon"),
    "polyhexes-1-4": lambda: _from_pictures(_POLYHEXES, "hexagon"),
    "polysticks-1-4": lambda: _from_pictures(_POLYSTICKS, "square-edges"),
    "polysticks-1-3": lambda: _pick(_POLYSTICKS, "square-edges", "I1 I2 V2 I3 L3 T3 Z3 U3"),
    "tetrasticks": lambda: _pick(_POLYSTICKS, "square-edges",
                                 "F H I J L N O P R T U V W X Y Z"),
    "welded-tetrasticks": lambda: _pick(_POLYSTICKS, "square-edges", "F H R T X Y"),
    "pentasticks": lambda: _numbered("P", 5, 2, "square-edges"),
    "polytwigs-1-4": lambda: _pick(_POLYTWIGS, "hexagon-edges", "I1 L2 Y3 S3 C3 Y4 W4 P4 C4"),
    "polytwigs-1-3": lambda: _pick(_POLYTWIGS, "hexagon-edges", "I1 L2 Y3 S3 C3"),
    "tetratwigs": lambda: _pick(_POLYTWIGS, "hexagon-edges", "Y4 W4 P4 C4"),
    "pentatwigs": lambda: _pick(_POLYTWIGS, "hexagon-edges",
                                "C5 H5 I5 L5 P5 R5 S5 T5 U5 W5 X5 Y5"),
    "tritrigs": lambda: _from_pictures(_TRITRIGS, "triangle-edges"),
}
# The sets of one size cut from the small polyiamonds and polyhexes (moniamonds: size 1...).
for _grid, _pictures, _names in (
        ("triangle", _POLYIAMONDS, ("moniamonds", "diamonds", "triamonds", "tetriamonds",
                                    "pentiamonds")),
        ("hexagon", _POLYHEXES, ("monohexes", "dihexes", "trihexes", "tetrahexes"))):
    for _size, _name in enumerate(_names, start=1):
        _SETS[_name] = lambda g=_grid, p=_pictures, n=_size: _from_pictures(_only(p, n), g)

_DESCRIPTIONS = {
    "monominoes": "the single cell (O1)",
    "dominoes": "the domino (I2)",
    "trominoes": "the 2 trominoes (I3 L3)",
    "tetrominoes": "the 5 free tetrominoes (I4 L4 O4 S4 T4)",
    "pentominoes": "the 12 pentominoes, by letter (F I L N P T U V W X Y Z)",
    "hexominoes": "the 35 free hexominoes (H01..H35, numbered by extent then shape)",
    "heptominoes": "the 108 free heptominoes (S001..S108; one has a hole)",
    "cube-nets": "the 11 hexominoes that fold into a cube (their hexomino names)",
    "soma": "the 7 Soma cubes (V L T Z A B P)",
    "moniamonds": "the single triangle (T1; triangle grid)",
    "diamonds": "the diamond (D2; triangle grid)",
    "triamonds": "the triamond (I3; triangle grid)",
    "tetriamonds": "the 3 tetriamonds (I4 C4 T4; triangle grid)",
    "pentiamonds": "the 4 pentiamonds (I5 C5 L5 P5; triangle grid)",
    "hexiamonds": "the 12 hexiamonds (I6 P6 J6 E6 V6 H6 S6 X6 C6 G6 F6 O6; triangle grid)",
    "heptiamonds": "the 24 heptiamonds (A7..Z7; triangle grid)",
    "polyiamonds-1-5": "the 10 polyiamonds of 1 to 5 triangles (T1 D2 I3, tetriamonds, "
                       "pentiamonds)",
    "monohexes": "the single hexagon (H1; hexagon grid)",
    "dihexes": "the dihex (I2; hexagon grid)",
    "trihexes": "the 3 trihexes (I3 V3 A3; hexagon grid)",
    "tetrahexes": "the 7 tetrahexes (I4 J4 P4 S4 U4 Y4 O4; hexagon grid)",
    "pentahexes": "the 22 pentahexes (A5..Y5; hexagon grid)",
    "polyhexes-1-4": "the 12 polyhexes of 1 to 4 hexagons (H1 I2, trihexes, tetrahexes)",
    "polysticks-1-4": "the 24 polysticks of 1 to 4 edges (I1 I2 V2 I3 L3 T3 Z3 U3, then the "
                      "tetrasticks; square-edges grid)",
    "polysticks-1-3": "the 8 polysticks of 1 to 3 edges (I1 I2 V2 I3 L3 T3 Z3 U3; "
                      "square-edges grid)",
    "tetrasticks": "the 16 tetrasticks (F H I J L N O P R T U V W X Y Z; square-edges grid)",
    "welded-tetrasticks": "the 6 tetrasticks with a junction point (F H R T X Y; "
                          "square-edges grid)",
    "pentasticks": "the 55 pentasticks (P01..P55, numbered by extent then shape; "
                   "square-edges grid)",
    "polytwigs-1-4": "the 9 polytwigs of 1 to 4 edges (I1 L2 Y3 S3 C3 Y4 W4 P4 C4; "
                     "hexagon-edges grid)",
    "polytwigs-1-3": "the 5 polytwigs of 1 to 3 edges (I1 L2 Y3 S3 C3; hexagon-edges grid)",
    "tetratwigs": "the 4 tetratwigs (Y4 W4 P4 C4; hexagon-edges grid)",
    "pentatwigs": "the 12 pentatwigs (C5 H5 I5 L5 P5 R5 S5 T5 U5 W5 X5 Y5; hexagon-edges "
                  "grid)",
    "tritrigs": "the 12 tritrigs (I3 L3 J3 T3 S3 C3 U3 P3 E3 Y3 Z3 O3; triangle-edges grid)",
}


def piece_set_names() -> dict[str, str]:
    """Every named set with a one-line description."""
    return dict(_DESCRIPTIONS)


@cache
def _piece_set(name: str) -> tuple[tuple[str, Shape], ...]:
    return tuple(_SETS[name]().items())


def piece_set(name: str, one_sided: bool = False) -> dict[str, Shape]:
    """The pieces of a named set, by their stable names, in a stable order. ``one_sided``:
    each piece that differs from its mirror image is followed by that image, named in
    lower case (pieces then turn but never flip)."""
    if name not in _SETS:
        raise PuzzleError(f"unknown piece set {name!r} (known: {', '.join(_SETS)})")
    pieces = dict(_piece_set(name))
    if not one_sided:
        return pieces
    if any(s.dim != 2 for s in pieces.values()):
        raise PuzzleError(f"one_sided: set {name!r} is solid (its pieces never flip anyway)")
    out = {}
    for n, shape in pieces.items():
        out[n] = shape
        mirror = Shape(shape.grid.transform(shape.cells, shape.grid.rotations()), shape.grid)
        if mirror.canonical(False) != shape.canonical(False):
            out[n.lower()] = mirror
    return out
