"""Graph constraints (model/graphs.py) against brute force: the connected vertex sets and
the simple cycles of small grid graphs, counted on every back end that takes integers."""

from __future__ import annotations

import numpy as np
import pytest

from smtpuzzle import (
    Circuit,
    Connected,
    ConnectedRegions,
    Inverse,
    Model,
    Path,
    PuzzleError,
    SingleCycle,
    SubCircuit,
    get_backend,
    grid_graph,
    lattice_graph,
)
from smtpuzzle.model.graphs import Graph

BACKENDS = ["sat", "cpsat", "z3"]
# sat, z3 and cpsat check connected sets lazily unless told otherwise: both ways, against
# brute force
WAYS = ["sat", "sat:eager", "cpsat", "cpsat:eager", "z3", "z3:eager"]


def _count(m: Model, way: str) -> tuple[int, bool]:
    backend, _, how = way.partition(":")
    return tuple(m.count(backend, **({"connectivity": how} if how else {})))


def _pieces(graph: Graph, vertices: set[int], edges: list[int]) -> int:
    """How many connected pieces ``vertices`` form along ``edges`` (edge indices)."""
    adj: dict[int, list[int]] = {v: [] for v in vertices}
    for k in edges:
        a, b = graph.edges[k].tolist()
        if a in adj and b in adj:
            adj[a].append(b)
            adj[b].append(a)
    seen: set[int] = set()
    pieces = 0
    for v in vertices:
        if v in seen:
            continue
        pieces += 1
        todo = [v]
        seen.add(v)
        while todo:
            for u in adj[todo.pop()]:
                if u not in seen:
                    seen.add(u)
                    todo.append(u)
    return pieces


def connected_sets(graph: Graph) -> int:
    every = list(range(len(graph.edges)))
    return sum(_pieces(graph, {v for v in range(graph.n) if bits >> v & 1}, every) <= 1
               for bits in range(1 << graph.n))


def simple_cycles(graph: Graph) -> int:
    count = 0
    for bits in range(1, 1 << len(graph.edges)):
        used = [k for k in range(len(graph.edges)) if bits >> k & 1]
        degree = np.bincount(graph.edges[used].ravel(), minlength=graph.n)
        if set(degree.tolist()) <= {0, 2}:
            count += _pieces(graph, set(np.flatnonzero(degree).tolist()), used) == 1
    return count


# CP-SAT lists the solutions of a model with auxiliary variables by solving again for each
# one: the larger grids run with --runslow on it
SLOW_ON_CPSAT = pytest.mark.slow


@pytest.mark.parametrize("backend,rows,cols", [
    *[(b, 1, 4) for b in WAYS], *[(b, 2, 3) for b in WAYS],
    ("sat", 3, 3), ("z3", 3, 3), ("sat:eager", 3, 3),
    pytest.param("z3:eager", 3, 3, marks=SLOW_ON_CPSAT),
    pytest.param("cpsat", 3, 3, marks=SLOW_ON_CPSAT)])
def test_connected_allows_exactly_the_connected_sets(backend, rows, cols):
    graph = grid_graph(rows, cols)
    m = Model()
    cells = m.bool_array(rows * cols)
    m.add(Connected(cells, graph))
    assert _count(m, backend) == (connected_sets(graph), True)  # 219 on 3x3, the empty set too


def connected_along_edges(graph: Graph) -> int:
    """How many (vertex set, edge set) pairs have the vertices connected along the edges."""
    count = 0
    for bits in range(1 << graph.n):
        vertices = {v for v in range(graph.n) if bits >> v & 1}
        for ebits in range(1 << len(graph.edges)):
            used = [k for k in range(len(graph.edges)) if ebits >> k & 1]
            count += _pieces(graph, vertices, used) <= 1
    return count


@pytest.mark.parametrize("backend", WAYS)
def test_connected_along_chosen_edges_allows_exactly_those_sets(backend):
    graph = grid_graph(2, 2)
    m = Model()
    m.add(Connected(m.bool_array(graph.n), graph, m.bool_array(len(graph.edges))))
    assert _count(m, backend) == (connected_along_edges(graph), True)


@pytest.mark.parametrize("backend,rows,cols", [
    *[(b, 1, 2) for b in WAYS], ("sat", 2, 2), ("z3", 2, 2), ("sat", 2, 3), ("z3", 2, 3),
    ("sat:eager", 2, 2), ("z3:eager", 2, 2), pytest.param("sat:eager", 2, 3, marks=SLOW_ON_CPSAT),
    pytest.param("cpsat", 2, 2, marks=SLOW_ON_CPSAT),
    pytest.param("cpsat", 2, 3, marks=SLOW_ON_CPSAT),
    pytest.param("z3:eager", 2, 3, marks=SLOW_ON_CPSAT)])
def test_single_cycle_allows_exactly_the_simple_loops(backend, rows, cols):
    graph = lattice_graph(rows, cols)
    m = Model()
    segments = m.bool_array(len(graph.edges))
    m.add(SingleCycle(segments, graph))
    assert _count(m, backend) == (simple_cycles(graph), True)  # 13 on 2x2 cells, 40 on 2x3


def test_a_loop_around_given_cells_reads_as_its_segments():
    # the one loop of a 2x2 grid of cells that keeps every segment of cell (0, 0)
    graph = lattice_graph(2, 2)
    m = Model()
    seg = m.bool_array(len(graph.edges))
    h = lambda r, c: r * 2 + c  # noqa: E731  (the documented edge order)
    v = lambda r, c: 3 * 2 + r * 3 + c  # noqa: E731
    m.add(SingleCycle(seg, graph), seg[[h(0, 0), h(1, 0), v(0, 0), v(0, 1)]])
    assert m.count("sat") == (1, True)
    assert m.solve("cpsat") == "sat" and seg.value().sum() == 4


def test_graph_arguments_are_checked():
    m = Model()
    b = m.bool_array(3)
    with pytest.raises(ValueError, match="a mask of 3 for a graph of 4 vertices"):
        Connected(b, grid_graph(2, 2))
    with pytest.raises(ValueError, match="3 edge literals for a graph of 4 edges"):
        SingleCycle(b, lattice_graph(1, 1))
    with pytest.raises(ValueError, match="Connected: 3 edge literals for a graph of 4 edges"):
        Connected(m.bool_array(4), grid_graph(2, 2), b)
    with pytest.raises(ValueError, match="no loops"):
        Graph(2, [[1, 1]])
    with pytest.raises(TypeError, match="BoolArray"):
        Connected(m.int_array(4, 0, 1), grid_graph(2, 2))
    with pytest.raises(ValueError, match="a depth of -1"):
        ConnectedRegions(m.int_array(4, 0, 1), grid_graph(2, 2), [0], depth=-1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_circuits_and_inverses_are_counted_as_the_permutations_they_are(backend):
    import math

    for n in (3, 5):  # one cycle through n nodes: (n - 1)! successor arrays
        m = Model()
        m.add(Circuit(m.int_array(n, 0, n - 1)))
        assert m.count(backend) == (math.factorial(n - 1), True)
    m = Model()  # successors whose domains reach past the nodes
    m.add(Circuit(m.int_array(4, -2, 6)))
    assert m.count(backend) == (6, True)
    for circuit in (Circuit, SubCircuit):  # domains that hold no node: no arc, no solution
        m = Model()
        m.add(circuit(m.int_array(3, 10**9, 10**9 + 2)))
        assert m.count(backend) == (0, True)
    # a cycle through any 2 or more of 4 nodes, or none: 6 + 4 * 2 + 6 + 1
    m = Model()
    m.add(SubCircuit(m.int_array(4, 0, 3)))
    assert m.count(backend) == (21, True)
    m = Model()
    f, g = m.int_array(4, 0, 3), m.int_array(4, 0, 3)
    m.add(Inverse(f, g), f[0] == 2)
    assert m.count(backend) == (6, True)
    assert m.solve(backend) == "sat" and all(g.value()[f.value()] == np.arange(4))


@pytest.mark.parametrize("backend", WAYS)
@pytest.mark.parametrize("roots", [[0, 5], [0, 2, 4]])
def test_connected_regions_are_the_partitions_into_rooted_connected_parts(backend, roots):
    import itertools

    graph = grid_graph(2, 3)
    every = list(range(len(graph.edges)))
    want = sum(all(labels[r] == k and _pieces(graph, {v for v in range(6) if labels[v] == k},
                                             every) == 1 for k, r in enumerate(roots))
               for labels in itertools.product(range(len(roots)), repeat=6))
    m = Model()
    labels = m.int_array(6, 0, len(roots) - 1)
    m.add(ConnectedRegions(labels, graph, roots))
    assert _count(m, backend) == (want, True)  # 9 and 12


@pytest.mark.parametrize("backend", WAYS)
def test_connected_regions_may_leave_vertices_outside(backend):
    import itertools

    graph, roots = grid_graph(2, 3), [0, 5]
    every = list(range(len(graph.edges)))
    want = sum(all(labels[r] == k and _pieces(graph, {v for v in range(6) if labels[v] == k},
                                             every) == 1 for k, r in enumerate(roots))
               for labels in itertools.product(range(3), repeat=6))  # 2: outside
    m = Model()
    labels = m.int_array(6, 0, 2)
    m.add(ConnectedRegions(labels, graph, roots, outside=True))
    assert _count(m, backend) == (want, True)


def _reach(graph: Graph, vertices: set[int], root: int) -> dict[int, int]:
    """Each vertex of ``vertices`` reachable from ``root`` inside them, with its distance."""
    far, todo = {root: 0}, [root]
    while todo:
        v = todo.pop(0)
        for a, b in graph.edges.tolist():
            w = b if a == v else a if b == v else None
            if w in vertices and w not in far:
                far[w] = far[v] + 1
                todo.append(w)
    return far


@pytest.mark.parametrize("backend", WAYS)
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_connected_regions_within_a_depth_of_their_roots(backend, depth):
    import itertools

    graph, roots = grid_graph(2, 3), [0, 5]

    def ok(labels):
        for k, r in enumerate(roots):
            region = {v for v in range(6) if labels[v] == k}
            far = _reach(graph, region, r)
            if labels[r] != k or set(far) != region or max(far.values()) > depth:
                return False
        return True

    want = sum(ok(labels) for labels in itertools.product(range(3), repeat=6))
    m = Model()
    labels = m.int_array(6, 0, 2)
    m.add(ConnectedRegions(labels, graph, roots, outside=True, depth=depth))
    assert _count(m, backend) == (want, True)


def _simple_paths(graph, source: int, target: int) -> int:
    """Simple paths from source to target, by depth-first search (as edge sets)."""
    found = 0

    def walk(v: int, seen: set[int]) -> None:
        nonlocal found
        if v == target:
            found += 1
            return
        for a, b in graph.edges.tolist():
            w = b if a == v else a if b == v else None
            if w is not None and w not in seen:
                walk(w, seen | {w})

    walk(source, {source})
    return found


@pytest.mark.parametrize("backend", WAYS)
def test_path_allows_exactly_the_simple_paths_between_its_ends(backend):
    graph = grid_graph(2, 3)
    m = Model()
    edges = m.bool_array(len(graph.edges))
    m.add(Path(edges, graph, 0, 5))
    assert _count(m, backend) == (_simple_paths(graph, 0, 5), True)  # 4 on 2x3, corner to corner
    with pytest.raises(ValueError, match="two different vertices"):
        Path(edges, graph, 2, 2)


def _holds(clause: list[int], value: dict[int, bool]) -> bool:
    return any(value[abs(lit)] == (lit > 0) for lit in clause)


def test_every_cut_is_broken_by_its_solution_and_kept_by_every_connected_set():
    """The lazy check's clauses (Connection.cuts) on a 3x3 grid: for each disconnected set,
    each cut is false there (the solver must move on) and true on all 219 connected sets
    (no solution is lost)."""
    from smtpuzzle.model.graphs import Connection

    graph = grid_graph(3, 3)
    lits = np.arange(1, 10)
    record = Connection(lits, graph)
    every = list(range(len(graph.edges)))
    sets = [{v for v in range(9) if bits >> v & 1} for bits in range(1 << 9)]
    connected = [s for s in sets if _pieces(graph, s, every) <= 1]
    broken = 0
    for s in sets:
        cuts = record.cuts(np.array([v in s for v in range(9)]))
        assert bool(cuts) == (s not in connected)
        for cut in cuts:
            broken += 1
            assert not _holds(cut, {v + 1: v in s for v in range(9)})
            assert all(_holds(cut, {v + 1: v in c for v in range(9)}) for c in connected)
    assert broken > 0


def test_every_loop_cut_is_broken_by_two_loops_and_kept_by_every_single_loop():
    """The same for the loop of a SingleCycle (vertices on it, along its chosen segments)
    on a 2x3 grid of cells: every union of two or more separate loops gets cuts it breaks,
    which each of the 40 single loops keeps."""
    from smtpuzzle.model.graphs import Connection

    graph = lattice_graph(2, 3)
    n, e = graph.n, len(graph.edges)
    record = Connection(np.arange(1, n + 1), graph,
                        via=np.arange(n + 1, n + e + 1))

    def values(used: list[int]) -> dict[int, bool]:
        on = np.bincount(graph.edges[used].ravel(), minlength=n) > 0
        return {**{v + 1: bool(on[v]) for v in range(n)},
                **{n + k + 1: k in used for k in range(e)}}

    loops, several = [], []
    for bits in range(1, 1 << e):
        used = [k for k in range(e) if bits >> k & 1]
        degree = np.bincount(graph.edges[used].ravel(), minlength=n)
        if set(degree.tolist()) <= {0, 2}:
            pieces = _pieces(graph, set(np.flatnonzero(degree).tolist()), used)
            (loops if pieces == 1 else several).append(values(used))
    assert len(loops) == 40 and several
    for v in several:
        cuts = record.cuts(np.array([v[k] for k in range(1, n + e + 1)]))
        assert cuts
        for cut in cuts:
            assert not _holds(cut, v) and all(_holds(cut, loop) for loop in loops)


@pytest.mark.parametrize("backend", ["sat", "z3", "cpsat"])
def test_lazy_connectivity_leaves_the_decomposition_out_and_eager_puts_it_in(backend):
    graph = grid_graph(6, 6)

    def built(**params) -> int:
        m = Model()
        m.add(Connected(m.bool_array(graph.n), graph))
        with get_backend(backend).set_params(params).open(m) as session:
            return session.stats.constraints

    assert built() == 0 < built(connectivity="eager")


def test_connectivity_is_eager_or_lazy_where_the_back_end_checks_solutions():
    m = Model()
    m.add(Connected(m.bool_array(4), grid_graph(2, 2)))
    assert m.solve("cpsat", connectivity="eager") == "sat"
    assert m.solve("cpsat", connectivity="lazy") == "sat"
    with pytest.raises(PuzzleError, match="exact-cover back end's connectivity is 'eager' "
                                          "only"):
        m.solve("exact-cover", connectivity="lazy")
    with pytest.raises(PuzzleError, match="'eager' or 'lazy', not 'later'"):
        m.solve("sat", connectivity="later")


def test_dimacs_export_of_a_connected_set_is_the_eager_formula(tmp_path):
    """A DIMACS file holds no lazy check: its formula alone allows the connected sets."""
    from pysat.solvers import Solver

    from smtpuzzle.backends.dimacs import write_dimacs

    graph = grid_graph(2, 3)
    m = Model()
    cells = m.bool_array(graph.n)
    m.add(Connected(cells, graph))
    cnf = write_dimacs(m, tmp_path / "c.cnf")
    user = cells.ids.tolist()
    found = 0
    with Solver(bootstrap_with=cnf.as_lists()) as s:
        while s.solve():
            found += 1
            got = set(s.get_model())
            s.add_clause([-v if v in got else v for v in user])
    assert found == connected_sets(graph)  # 40 with the empty set


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_objective_over_a_connected_set_is_the_brute_forces_optimum(backend):
    """The heaviest connected set of at most 4 cells of a 3x3 grid, weights from -1 to 3:
    z3's Optimize takes the lazy cuts too (each text it reads names its variables)."""
    graph = grid_graph(3, 3)
    weight = np.array([3, -1, 2, -1, -1, 3, 2, 3, -1])
    every = list(range(len(graph.edges)))
    best = max(sum(weight[v] for v in s) for bits in range(1 << 9)
               if len(s := {v for v in range(9) if bits >> v & 1}) <= 4
               and _pieces(graph, s, every) <= 1)
    m = Model()
    cells = m.bool_array(9)
    m.add(Connected(cells, graph), cells.sum() <= 4)
    m.maximize((cells * weight).sum())
    assert m.solve(backend) == "optimal" and m.objective_value() == best  # 8
