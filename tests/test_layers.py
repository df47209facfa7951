"""The import graph of the package: layers point one way, and no package imports another
that imports it back. Every import counts, those inside functions and under TYPE_CHECKING
too: a cycle hidden in a function is still a cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "smtpuzzle"

# Each part of the package by layer, lowest first: a part imports parts of lower layers only
# (and the same-layer imports listed in SIDEWAYS). The root package (smtpuzzle/__init__.py,
# the public façade) sits above them all and is imported by none of them.
LAYERS = [
    {"errors", "result", "kernels"},
    {"runtime"},
    {"model", "geometry", "render"},
    {"backends"},
    {"puzzles", "puzzles.grid_answer", "puzzles.tiling", "puzzles.frames", "puzzles.nonogram",
     "puzzles.maze", "puzzles.sudoku", "puzzles.kenken", "puzzles.pencil"},
    {"formats"},
    {"families"},
    {"library"},
    {"benchmark"},
    {"cli"},
    {"__main__"},
]
SIDEWAYS = {
    ("puzzles.frames", "puzzles.tiling"),  # frames are packed from tilings' pieces
    ("puzzles.sudoku", "puzzles.grid_answer"),
    ("puzzles.kenken", "puzzles.grid_answer"),
    ("puzzles.pencil", "puzzles.grid_answer"),
} | {(p, "puzzles") for p in LAYERS[4] if p != "puzzles"}  # the Puzzle protocol
# What puzzle families may import of the back ends: the package's API, never a solver's
# module (a family never names the solver that runs it).
PUBLIC_BACKEND_MODULES = {"smtpuzzle.backends", "smtpuzzle.backends.dimacs",
                          "smtpuzzle.backends.exactcover", "smtpuzzle.backends.rup"}


def _part(module: str) -> str:
    """The part of the package a module belongs to: ``model`` for smtpuzzle.model.core,
    ``puzzles.maze`` for smtpuzzle.puzzles.maze.bound.prove; '' for the root package."""
    names = module.split(".")[1:]
    if names[:1] == ["puzzles"] and len(names) > 1:
        return ".".join(names[:2])
    return names[0] if names else ""


def _imports() -> list[tuple[str, str, str]]:
    """(importing module, imported module, file:line) for every import inside smtpuzzle."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        is_package = rel.name == "__init__"
        module = ".".join(rel.parts[:-1] if is_package else rel.parts)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".")
                    base = base[:len(base) - node.level + (1 if is_package else 0)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                # "from smtpuzzle.backends import cpsat" imports the module cpsat
                targets = [f"{stem}.{a.name}" if _is_module(f"{stem}.{a.name}") else stem
                           for a in node.names]
            for target in targets:
                if target == "smtpuzzle" or target.startswith("smtpuzzle."):
                    found.append((module, target, f"{path.relative_to(ROOT.parent)}:"
                                                  f"{node.lineno}"))
    return found


def _is_module(name: str) -> bool:
    path = ROOT.parent / Path(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _rank(part: str) -> int:
    for rank, layer in enumerate(LAYERS):
        if part in layer:
            return rank
    raise AssertionError(f"smtpuzzle/{part.replace('.', '/')} is in no layer of this test: "
                         "place it in LAYERS")


def test_every_import_points_down_the_layers():
    wrong = []
    for importer, imported, where in _imports():
        a, b = _part(importer), _part(imported)
        if a == b or a == "":  # within a part, or the façade
            continue
        if b == "":
            wrong.append(f"{where}: imports the root package (import from the module instead)")
        elif _rank(b) > _rank(a) or (_rank(b) == _rank(a) and (a, b) not in SIDEWAYS):
            wrong.append(f"{where}: {a} imports {b}")
    assert not wrong, "\n".join(wrong)


def test_no_part_of_the_package_imports_another_that_imports_it_back():
    graph: dict[str, set[str]] = {}
    for importer, imported, _ in _imports():
        a, b = _part(importer), _part(imported)
        if a and b and a != b:
            graph.setdefault(a, set()).add(b)

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo.extend(graph.get(node, ()))
        return False

    cycles = sorted(f"{a} <-> {b}" for a in graph for b in graph[a] if reaches(b, a))
    assert not cycles, cycles


def test_puzzle_families_use_the_back_ends_public_api_only():
    wrong = [f"{where}: {imported}" for importer, imported, where in _imports()
             if _part(importer).startswith("puzzles") and imported.startswith("smtpuzzle.backends")
             and imported not in PUBLIC_BACKEND_MODULES]
    assert not wrong, "\n".join(wrong)


def test_the_layer_check_sees_imports_inside_functions():
    # the check is only as good as its parser: cli/bench.py imports the benchmark inside
    # its command, and the sat back end its solver module under a relative name
    found = {(a, b) for a, b, _ in _imports()}
    assert ("smtpuzzle.cli.bench", "smtpuzzle.benchmark") in found
    assert ("smtpuzzle.model.solving", "smtpuzzle.result") in found


def test_the_readme_layout_names_every_package_and_only_modules_that_exist():
    readme = (ROOT.parent / "README.md").read_text()
    layout = readme[readme.index("## Layout"):]
    layout = layout[:layout.index("\n## ", 4)] if "\n## " in layout[4:] else layout
    layout = layout[:layout.index("The other folders")]  # the package's part
    modules = {p.name for p in ROOT.rglob("*.py")}
    named = set(re.findall(r"`([a-z_0-9]+\.py)`", layout))
    assert named and not named - modules, sorted(named - modules)
    packages = {p.parent.relative_to(ROOT).parts[0] for p in ROOT.rglob("__init__.py")
                if p.parent != ROOT}
    unnamed = [p for p in packages if f"`{p}/`" not in layout]
    assert not unnamed, unnamed
