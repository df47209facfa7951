"""Graph constraints over any graph: ``Connected`` (the chosen vertices form one connected
set), ``SingleCycle`` (the chosen edges form one simple closed loop), ``Path`` (one simple
path between two vertices) and ``ConnectedRegions`` (each label's vertices connected,
around its root); over successor integers ``Circuit``, ``SubCircuit`` and ``Inverse``; and
the graphs of grids (``grid_graph``: cells and their edge neighbours; ``lattice_graph``:
the corner points of the cells and the unit segments between them; ``cell_edges``: each
cell's sides among those segments).

A :class:`Graph` is ``n`` vertices 0..n-1 and an (E, 2) array of undirected edges.
Connectivity (of a Connected set, of a SingleCycle's loop) is a kind of its own,
"connected" (model/kinds.py), held either way:

- lazily, by back ends that check each solution (sat, z3): a solution whose set falls apart
  gets a cut, a clause no connected set breaks (a piece and another chosen vertex are not
  both chosen unless some vertex or edge around the piece is), and the solver goes on;
- eagerly otherwise, as its decomposition: one root among the chosen vertices, and a parent
  for every other chosen vertex, a neighbour (along a chosen edge, for a cycle) whose
  distance from the root is smaller. A vertex that cannot reach the root has no such chain,
  so the chosen set is connected; one that can always has one (its distance along a
  shortest path). ConnectedRegions is always posted so (see there).

The root, parents and distances are auxiliary: solutions are told apart and counted on the
user's variables alone. Circuits and single cycles are kinds of their own too: CP-SAT takes
them as its circuit constraint, the others their decomposition.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from smtpuzzle.model.expr import BoolArray, IntArray, LinExpr, _Global, _ints, usable, whole
from smtpuzzle.model.groups import Groups

_I = np.int64
CIRCUIT = "circuit"  # Model.parts[CIRCUIT]: Circuit and SubCircuit constraints
CYCLE = "single-cycle"  # Model.parts[CYCLE]: SingleCycle constraints
CONNECTED = "connected"  # Model.parts[CONNECTED]: connected sets (see the module docstring)


@dataclass(frozen=True)
class Graph:
    """``n`` vertices 0..n-1 and undirected ``edges`` (an (E, 2) array of vertex pairs)."""

    n: int
    edges: np.ndarray

    def __post_init__(self) -> None:
        edges = np.asarray(self.edges, dtype=_I).reshape(-1, 2)
        if self.n < 0 or (edges.size and (edges.min() < 0 or edges.max() >= self.n)):
            raise ValueError(f"a graph's edges join vertices 0..{self.n - 1}")
        if (edges[:, 0] == edges[:, 1]).any():
            raise ValueError("a graph's edge joins two different vertices (no loops)")
        object.__setattr__(self, "edges", edges)


def grid_graph(rows: int, cols: int) -> Graph:
    """The cells of a rows x cols grid (cell (r, c) is vertex r * cols + c) joined to their
    edge neighbours: the horizontal pairs row by row, then the vertical ones."""
    cell = np.arange(rows * cols, dtype=_I).reshape(rows, cols)
    across = np.stack([cell[:, :-1].ravel(), cell[:, 1:].ravel()], axis=1)
    down = np.stack([cell[:-1, :].ravel(), cell[1:, :].ravel()], axis=1)
    return Graph(rows * cols, np.concatenate([across, down]))


def lattice_graph(rows: int, cols: int) -> Graph:
    """The (rows + 1) x (cols + 1) corner points of a rows x cols grid of cells (point
    (r, c) is vertex r * (cols + 1) + c) and the unit segments between them: first the
    horizontal ones, row of points by row (segment (r, c) from point (r, c) to (r, c + 1),
    index r * cols + c), then the vertical ones (segment (r, c) from point (r, c) to
    (r + 1, c), index (rows + 1) * cols + r * (cols + 1) + c). A loop along cell edges, as
    in Slitherlink, is a SingleCycle on these segments."""
    return grid_graph(rows + 1, cols + 1)


def cell_edges(rows: int, cols: int) -> np.ndarray:
    """For each cell of a rows x cols grid, the indices of its four sides among the segments
    of ``lattice_graph(rows, cols)``, as an array (rows, cols, 4): top, bottom, left,
    right (a Slitherlink clue counts the loop's segments among them)."""
    r, c = np.indices((rows, cols), dtype=_I)
    down = (rows + 1) * cols + r * (cols + 1) + c  # the left side's index
    return np.stack([r * cols + c, (r + 1) * cols + c, down, down + 1], axis=-1)


class Connected(_Global):
    """The vertices of ``graph`` where ``mask`` is true form one connected set (an empty
    set is connected); with ``edges`` (a literal per edge of ``graph``), connected along
    the edges where it is true."""

    def __init__(self, mask: BoolArray, graph: Graph, edges: BoolArray | None = None
                 ) -> None:
        self.model = _bools(mask, "Connected's mask").model
        if mask.size != graph.n:
            raise ValueError(f"Connected: a mask of {mask.size} for a graph of {graph.n} "
                             "vertices")
        if edges is not None and _bools(edges, "Connected's edges").size != len(graph.edges):
            raise ValueError(f"Connected: {edges.size} edge literals for a graph of "
                             f"{len(graph.edges)} edges")
        self.mask, self.graph, self.edges = mask, graph, edges

    def post(self, model: Any) -> None:
        usable(model, self.mask)
        via = None
        if self.edges is not None:
            usable(model, self.edges)
            via = self.edges.ids.reshape(-1)
        Connection(self.mask.ids.reshape(-1), self.graph, via).post(model)


class SingleCycle(_Global):
    """The edges of ``graph`` where ``chosen`` is true form one simple closed loop: every
    vertex on it has two of them, every other none, and the loop is one piece. Kept as a
    record (the kind "single-cycle"): CP-SAT takes it as its circuit constraint (each edge
    run one way or the other, a vertex off the loop skipped), the others its
    decomposition (degrees and a connected set of vertices)."""

    def __init__(self, chosen: BoolArray, graph: Graph) -> None:
        self.model = _bools(chosen, "SingleCycle's edges").model
        if chosen.size != len(graph.edges):
            raise ValueError(f"SingleCycle: {chosen.size} edge literals for a graph of "
                             f"{len(graph.edges)} edges")
        self.chosen, self.graph = chosen, graph

    def __len__(self) -> int:
        return 1

    def post(self, model: Any) -> None:
        model.parts.setdefault(CYCLE, []).append(self)

    def decompose(self, model: Any) -> None:
        """Degree 2 on the loop, 0 off it, and the loop's vertices connected."""
        edges, n = self.graph.edges, self.graph.n
        chosen = self.chosen.ids.reshape(-1)
        on = model.bool_array(n, name="on-cycle", user=False)
        # degree 2 on the loop, 0 off it: the sum of a vertex's edges == 2 * on, one row per
        # vertex, its edges padded to the largest degree with coefficient 0
        incident = np.concatenate([edges[:, 0], edges[:, 1]])
        order = np.argsort(incident, kind="stable")
        sizes = np.bincount(incident, minlength=n)
        width = int(sizes.max(initial=0))
        slot = np.arange(len(incident)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        lits = np.full((n, max(width, 1)), chosen[0] if len(chosen) else 1, dtype=_I)
        coef = np.zeros((n, max(width, 1)), dtype=_I)
        lits[incident[order], slot] = np.concatenate([chosen, chosen])[order]
        coef[incident[order], slot] = 1
        degree = LinExpr(np.zeros((n, 0), _I), np.zeros((n, 0), _I), lits, coef,
                         np.zeros(n, _I), model)
        model.add(degree == 2 * on)
        model.add(on.sum() >= 1)  # a loop, not nothing
        Connection(on.ids, self.graph, via=chosen).post(model)


class Path(_Global):
    """The edges of ``graph`` where ``chosen`` is true form one simple path from vertex
    ``source`` to vertex ``target`` (two different vertices): posted as a SingleCycle on the
    graph with one more vertex, joined to both ends by edges that are always chosen."""

    def __init__(self, chosen: BoolArray, graph: Graph, source: int, target: int) -> None:
        self.model = _bools(chosen, "Path's edges").model
        if chosen.size != len(graph.edges):
            raise ValueError(f"Path: {chosen.size} edge literals for a graph of "
                             f"{len(graph.edges)} edges")
        ends = [int(whole(v, "Path's ends")) for v in (source, target)]
        if not all(0 <= v < graph.n for v in ends) or ends[0] == ends[1]:
            raise ValueError(f"Path: its ends are two different vertices of 0..{graph.n - 1}, "
                             f"not {ends[0]} and {ends[1]}")
        self.chosen, self.graph, self.ends = chosen, graph, ends

    def post(self, model: Any) -> None:
        n = self.graph.n
        joined_graph = Graph(n + 1, np.concatenate([self.graph.edges,
                                                     [[self.ends[1], n], [n, self.ends[0]]]]))
        closing = model.bool_array(2, name="path-closing", user=False)
        model.add(closing)
        edges = BoolArray(model, np.concatenate([self.chosen.ids.reshape(-1), closing.ids]))
        SingleCycle(edges, joined_graph).post(model)


def _bools(x: Any, what: str) -> BoolArray:
    if not isinstance(x, BoolArray):
        raise TypeError(f"{what} is a BoolArray, not {type(x).__name__}")
    return x


class Connection:
    """The record of the kind "connected": the vertices of ``graph`` whose literals
    ``vertex`` (one per vertex) are true form one connected set, perhaps empty (along the
    edges whose ``via`` literals are true, if given)."""

    def __init__(self, vertex: np.ndarray, graph: Graph, via: np.ndarray | None = None
                 ) -> None:
        self.vertex, self.graph, self.via = vertex, graph, via
        edges = graph.edges
        # each vertex's edges, both ways round (CSR): the arcs a search walks
        tail = np.concatenate([edges[:, 0], edges[:, 1]])
        order = np.argsort(tail, kind="stable")
        self._tail = tail[order]
        self._head = np.concatenate([edges[:, 1], edges[:, 0]])[order]
        self._edge = np.tile(np.arange(len(edges), dtype=_I), 2)[order]
        self._start = np.concatenate([[0], np.cumsum(np.bincount(tail, minlength=graph.n))])

    def __len__(self) -> int:
        return 1

    def post(self, model: Any) -> None:
        model.parts.setdefault(CONNECTED, []).append(self)

    def literals(self) -> np.ndarray:
        """The literals whose values :meth:`cuts` reads, in its order."""
        via = np.zeros(0, _I) if self.via is None else self.via
        return np.concatenate([self.vertex, via])

    def cuts(self, values: np.ndarray) -> list[list[int]]:
        """For the values of :meth:`literals`: a clause for each piece of the set when it falls
        apart (none when it is connected). A piece C and a chosen vertex v of another piece
        are joined in every connected set by a path that leaves C along an edge (a, w): so
        u in C and v are not both chosen unless, for some such edge, w is chosen (and its
        edge, with ``via``). For each edge the clause takes whichever of the two is false
        now, so that this solution breaks it."""
        n = len(self.vertex)
        on, via_on = values[:n], None if self.via is None else values[n:]
        pieces = self._pieces(on, via_on)
        if len(pieces) < 2:
            return []
        clauses = []
        for k, piece in enumerate(pieces):
            other = next(iter(pieces[(k + 1) % len(pieces)]))
            inside = np.zeros(n, dtype=bool)
            inside[list(piece)] = True
            u = next(iter(piece))
            clauses.append([-int(self.vertex[u]), -int(self.vertex[other]),
                            *self._around(inside, via_on)])
        return clauses

    def _pieces(self, on: np.ndarray, via_on: np.ndarray | None) -> list[set[int]]:
        """The connected pieces of the chosen vertices (a search from each one not yet
        reached, along chosen edges)."""
        head, edge, start = self._head.tolist(), self._edge.tolist(), self._start.tolist()
        chosen = on.tolist()
        usable_edge = None if via_on is None else via_on.tolist()
        seen = [False] * len(chosen)
        pieces = []
        for s in np.flatnonzero(on).tolist():
            if seen[s]:
                continue
            seen[s] = True
            piece, todo = {s}, [s]
            while todo:
                a = todo.pop()
                for k in range(start[a], start[a + 1]):
                    w = head[k]
                    if chosen[w] and not seen[w] and (usable_edge is None
                                                      or usable_edge[edge[k]]):
                        seen[w] = True
                        piece.add(w)
                        todo.append(w)
            pieces.append(piece)
        return pieces

    def _around(self, inside: np.ndarray, via_on: np.ndarray | None) -> list[int]:
        """The literals that leave a piece: per edge out of it, its far vertex's literal,
        or its own where it is not chosen now."""
        out = inside[self._tail] & ~inside[self._head]
        far, edge = self._head[out], self._edge[out]
        lits = self.vertex[far]
        if via_on is not None:
            lits = np.where(via_on[edge], lits, self.via[edge])
        return np.unique(lits).tolist()

    def decompose(self, model: Any) -> None:
        """The eager form: a root, parents and distances (the module docstring)."""
        _connect(model, self.vertex, self.graph, self.via)


def _connect(model: Any, vertex: np.ndarray, graph: Graph, via: np.ndarray | None) -> None:
    """The vertices whose literals ``vertex`` are true are connected in ``graph`` (along
    the edges whose literals ``via`` are true, if given): a root, parents, distances."""
    n, edges = graph.n, graph.edges
    if n == 0:
        return
    chosen = BoolArray(model, vertex)
    dist = model.int_array(n, 0, max(n - 1, 0), name="distance", user=False)
    root = model.bool_array(n, name="root", user=False)
    model.add(root.sum() <= 1, root.sum() >= chosen)  # one root when any vertex is chosen
    model.add(root.implies(chosen))
    # arcs: both directions of each edge, as (child, parent, edge)
    child = np.concatenate([edges[:, 0], edges[:, 1]])
    parent = np.concatenate([edges[:, 1], edges[:, 0]])
    edge = np.concatenate([np.arange(len(edges)), np.arange(len(edges))])
    if len(child):
        arc = model.bool_array(len(child), name="parent", user=False)
        model.add(arc.implies(chosen[parent]))
        model.add(arc.implies(dist[parent] + 1 <= dist[child]))
        if via is not None:
            model.add(arc.implies(BoolArray(model, via[edge])))
        arcs = arc.ids
    else:
        arcs = np.zeros(0, dtype=_I)
    # a chosen vertex that is not the root has a parent: [-chosen, root, its arcs...]
    model.add_clauses(Groups.keyed(arcs, child, n, np.stack([-vertex, root.ids], axis=1)))


class Circuit(_Global):
    """The successors ``succ`` (integers, node i goes to node succ[i], nodes 0..n-1) form
    one cycle through every node. Kept as a record (the kind "circuit"), which CP-SAT takes
    as its circuit constraint over the arc literals ``succ[i] == j``; elsewhere decomposed as
    all different successors, none its own, and a rank per node: node 0 ranks 0 and every
    other node one more than the node before it, which no cycle that misses node 0 can
    satisfy."""

    leaves_out = False  # a node may be its own successor, out of the cycle (SubCircuit)

    def __init__(self, succ: IntArray) -> None:
        self.model = _ints(succ, type(self).__name__).model
        self.succ = IntArray(succ.model, succ.ids.reshape(-1))

    def __len__(self) -> int:
        return 1

    def post(self, model: Any) -> None:
        n = self.succ.size
        if n == 0:
            return
        model.add(self.succ >= 0, self.succ <= n - 1)
        if not self.leaves_out:
            model.add(self.succ != np.arange(n))  # no node is its own successor
        lo, hi = model.ints.bounds()
        i, j = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
        ids = self.succ.ids
        keep = (lo[ids[i]] <= j) & (j <= hi[ids[i]])  # the arcs the domains allow
        i, j = i[keep], j[keep]
        # the record: a copy with its arcs (i, j, the literal of succ[i] == j) in this model
        posted = copy.copy(self)
        posted.arcs = np.stack([i, j, model.eq_literals(ids[i], j)], axis=1)
        model.parts.setdefault(CIRCUIT, []).append(posted)

    def decompose(self, model: Any) -> None:
        from smtpuzzle.model.expr import AllDifferent

        succ, n = self.succ.on(model), self.succ.size
        model.add(AllDifferent(succ))
        rank = model.int_array(n, 0, max(n - 1, 0), name="rank", user=False)
        arcs = self.arcs[self.arcs[:, 0] != self.arcs[:, 1]]
        i, j, goes = arcs[:, 0], arcs[:, 1], BoolArray(model, arcs[:, 2])
        if not self.leaves_out:
            model.add(rank[0] == 0)
            into = j != 0
            model.add(goes[into].implies(rank[j[into]] == rank[i[into]] + 1))
            return
        # a root among the nodes in the cycle (one, when any node is in it) ranks 0; every
        # other node in it ranks one more than the node before it
        inside = (succ != np.arange(n)).reified()
        root = model.bool_array(n, name="root", user=False)
        model.add(root.sum() <= 1, root.sum() >= inside, root.implies(inside),
                  root.implies(rank == 0))
        model.add((goes & ~root[j]).implies(rank[j] == rank[i] + 1))


class SubCircuit(Circuit):
    """The successors ``succ`` form one cycle through the nodes that are not their own
    successor (succ[i] == i leaves node i out; every node out is allowed)."""

    leaves_out = True


class Inverse(_Global):
    """``f`` and ``g`` (integers, n each, values 0..n-1) are inverse permutations:
    f[i] == j exactly when g[j] == i."""

    def __init__(self, f: IntArray, g: IntArray) -> None:
        self.model = _ints(f, "Inverse").model
        _ints(g, "Inverse")
        if f.size != g.size:
            raise ValueError(f"Inverse: {f.size} and {g.size} integers")
        self.f, self.g = IntArray(f.model, f.ids.reshape(-1)), IntArray(g.model,
                                                                           g.ids.reshape(-1))

    def post(self, model: Any) -> None:
        n = self.f.size
        model.add(self.f >= 0, self.f <= n - 1, self.g >= 0, self.g <= n - 1)
        i, j = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
        fij = model.eq_literals(self.f.ids[i], j)  # f[i] == j
        gji = model.eq_literals(self.g.ids[j], i)  # g[j] == i
        model.add_clauses(np.stack([-fij, gji], axis=1))
        model.add_clauses(np.stack([fij, -gji], axis=1))


class ConnectedRegions(_Global):
    """``labels`` (an integer per vertex of ``graph``) split the vertices into regions:
    those of label r form one connected region containing vertex ``roots[r]`` (so each
    label in use has its root, and every vertex reaches its root through vertices of its
    own label). With ``outside``, the label len(roots) marks a vertex in no region (the sea
    of a Nurikabe), of which nothing is asked. With ``depth``, every vertex of a region is
    at most that many edges from its root, inside the region (a region of s vertices never
    reaches further than s - 1: saying so bounds the distances below, which spared sat
    4/5 of a 20x20 Nurikabe's time). Posted eagerly on every back end, as parents of the
    same label closer to the root by a distance: checked lazily instead (a cut per piece
    cut off from its root), a 10x10 Nurikabe's islands took sat and z3 past 60 s where
    this takes 2-8 s (bench/RESULTS.md)."""

    def __init__(self, labels: IntArray, graph: Graph, roots: Any, outside: bool = False,
                 depth: int | None = None) -> None:
        self.model = _ints(labels, "ConnectedRegions").model
        if labels.size != graph.n:
            raise ValueError(f"ConnectedRegions: {labels.size} labels for a graph of "
                             f"{graph.n} vertices")
        self.roots = np.asarray(roots, dtype=_I).reshape(-1)
        if self.roots.size and (self.roots.min() < 0 or self.roots.max() >= graph.n):
            raise ValueError(f"ConnectedRegions: roots are vertices 0..{graph.n - 1}")
        if len(np.unique(self.roots)) != len(self.roots):
            raise ValueError("ConnectedRegions: two regions share a root")
        self.labels = IntArray(labels.model, labels.ids.reshape(-1))
        self.graph, self.outside = graph, outside
        self.depth = max(graph.n - 1, 0) if depth is None else int(whole(depth, "depth"))
        if self.depth < 0:
            raise ValueError(f"ConnectedRegions: a depth of {self.depth} (0 or more)")

    def post(self, model: Any) -> None:
        n, edges, roots = self.graph.n, self.graph.edges, self.roots
        labels = self.labels
        model.add(labels >= 0, labels <= len(roots) - (0 if self.outside else 1))
        model.add(labels[roots] == np.arange(len(roots)))  # each root in its own region
        dist = model.int_array(n, 0, self.depth, name="distance", user=False)
        child = np.concatenate([edges[:, 0], edges[:, 1]])
        parent = np.concatenate([edges[:, 1], edges[:, 0]])
        is_root = np.zeros(n, dtype=bool)
        is_root[roots] = True
        keep = ~is_root[child]  # roots need no parent
        child, parent = child[keep], parent[keep]
        arc = model.bool_array(len(child), name="parent", user=False)
        if len(child):
            model.add(arc.implies(labels[parent] == labels[child]),
                      arc.implies(dist[parent] + 1 <= dist[child]))
        # every vertex but the roots has a parent (or, with outside, is outside): a clause
        # per vertex but the roots, [outside, its arcs...]
        rank = np.cumsum(~is_root) - 1  # each vertex's place among the non-roots
        outside = model.eq_literals(labels.ids[~is_root], len(roots))[:, None] \
            if self.outside else None
        model.add_clauses(Groups.keyed(arc.ids, rank[child], int((~is_root).sum()), outside))
