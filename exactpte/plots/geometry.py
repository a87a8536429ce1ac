"""Where a chain's picture puts everything, in plain Python: one geometry for every renderer (matplotlib's
SVG, PNG and PDF in :mod:`exactpte.plots.chains`; TikZ and Graphviz DOT in :mod:`exactpte.plots.export`).

- **Classes are rings.**  Each closed class is a ring of its cyclic classes in phase order (the states of a
  phase side by side on it), the classes in a row; each ring is turned so that its states face the
  transient states that enter them.
- **Transient states in layers** by their distance (in steps) to the closed classes: as rows beneath the
  classes, or, when that picture would be tall and thin (a long transient path), as columns left to right;
  whichever box is closer to 4:3.  Within a layer, states are ordered by where their successors sit.
- **Edges never pass through a node they do not join.**  Each edge is a straight line or a quadratic
  Bézier arc (the two edges of a 2-cycle bend apart); the straightest arc that keeps a clearance from every
  other node is taken (:func:`edges_through_nodes` is the measure, tested on every picture).  A loop is a
  cubic curve on the side of its state that is free.
- **Labels fit their nodes**: one node size for the whole picture, grown (up to :data:`MAX_NODE_RADIUS_IN`)
  or the font shrunk (down to :data:`MIN_FONT_PT`) until the longest label fits, else a label is cut with
  an ellipsis.

Coordinates are layout units (neighbouring states about one apart); :attr:`Geometry.scale` inches a unit
at the picture's natural size.

Examples
--------
>>> from exactpte.graph.structure import chain_structure
>>> succ = [[1, 2], [0, 3], [3], [2]]          # the ruin chain's support: home, bet -> a 2-cycle win, rest
>>> g = chain_geometry(chain_structure(succ), succ, ["home", "bet", "win", "rest"])
>>> edges_through_nodes(g), len(g.edges)
([], 6)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from exactpte.graph.structure import Structure

__all__ = ["Edge", "Geometry", "chain_geometry", "layout", "edges_through_nodes", "label_width_in", "fit_label"]

Point = tuple[float, float]

NODE_RADIUS_IN = 0.17
"""A node's radius in inches at the natural size (grown for long labels)."""
MAX_NODE_RADIUS_IN = 0.3
"""The largest node radius a long label may ask for; past it the label is cut with an ellipsis."""
FONT_PT = 7.0
"""A node label's size in points at the natural size."""
MIN_FONT_PT = 5.0
"""The smallest a node label is shrunk to before the node grows."""
GLYPH_EM = 0.64
"""A character's width in ems, an upper bound for DejaVu Sans (matplotlib's default: digits 0.636 em)."""
SCALE_IN = 0.62
"""Inches a layout unit at the natural size, without edge labels."""
SCALE_LABELLED_IN = 0.95
"""Inches a layout unit with edge labels: room for a ``13/100`` between two neighbours."""
CLEARANCE = 1.3
"""An edge keeps this many node radii from the centre of every node it does not join."""


@dataclass(frozen=True)
class Edge:
    """One edge's curve: Bézier control points from the source's centre to the target's (2: a line, 3: a
    quadratic arc, 4: a cubic loop), in layout units."""

    source: int
    target: int
    points: tuple[Point, ...]

    def at(self, t: float) -> Point:
        """The curve's point at parameter ``t`` in ``[0, 1]`` (de Casteljau)."""
        pts = list(self.points)
        while len(pts) > 1:
            pts = [((1 - t) * a[0] + t * b[0], (1 - t) * a[1] + t * b[1]) for a, b in zip(pts, pts[1:])]
        return pts[0]

    def samples(self, k: int = 64) -> list[Point]:
        """``k + 1`` points along the curve, ends included."""
        return [self.at(i / k) for i in range(k + 1)]


@dataclass(frozen=True)
class Geometry:
    """Everything a renderer needs: node centres and their one radius, labels and their fonts, the edges'
    curves, each class's ring and header, the box it all fits in (units), and the natural scale."""

    pos: dict[int, Point]
    radius: float
    scale: float
    labels: tuple[str, ...]
    fonts: tuple[float, ...]
    edges: tuple[Edge, ...]
    rings: tuple[tuple[float, float, float], ...]
    headers: tuple[Point, ...]
    box: tuple[float, float, float, float]

    @property
    def size_in(self) -> tuple[float, float]:
        """The box's width and height in inches at the natural scale."""
        x0, x1, y0, y1 = self.box
        return (x1 - x0) * self.scale, (y1 - y0) * self.scale


def label_width_in(text: str, font_pt: float) -> float:
    """An upper bound of a label's width in inches at ``font_pt`` points."""
    return len(text) * GLYPH_EM * font_pt / 72


def fit_label(text: str, radius_in: float) -> tuple[str, float]:
    """``(label, font)``: the label at the largest font up to :data:`FONT_PT` (not below :data:`MIN_FONT_PT`)
    whose width fits inside a node of ``radius_in`` (85 % of its diameter), cut with an ellipsis when even
    :data:`MIN_FONT_PT` is too large.

    >>> fit_label("home", 0.17), fit_label("a" * 40, 0.3)[0]
    (('home', 7.0), 'aaaaaaaaaa…')
    """
    room = 2 * radius_in * 0.85
    if label_width_in(text, FONT_PT) <= room:
        return text, FONT_PT
    font = FONT_PT * room / label_width_in(text, FONT_PT)
    if font >= MIN_FONT_PT:
        return text, round(font, 2)
    keep = max(1, int(room / (GLYPH_EM * MIN_FONT_PT / 72)) - 1)
    return text[:keep] + "…", MIN_FONT_PT


def _node_radius_in(labels: Sequence[str]) -> float:
    """One radius for every node: the default, grown until the longest label fits at the smallest font."""
    need = max((label_width_in(t, MIN_FONT_PT) / (2 * 0.85) for t in labels), default=0.0)
    return min(MAX_NODE_RADIUS_IN, max(NODE_RADIUS_IN, need))


# -- positions ----------------------------------------------------------------------------------------------
def _ring_radius(size: int) -> float:
    """The radius of a ring of ``size`` states: neighbours about 1.05 apart, at least 0.55 (none for one state)."""
    return 0.0 if size == 1 else max(0.55, 1.05 * size / (2 * math.pi))


def _distances(structure: Structure, succ: Sequence[Sequence[int]]) -> dict[int, int]:
    """Steps from each transient state to the closed classes (a breadth-first search backwards)."""
    transient = set(structure.transient)
    pred: dict[int, list[int]] = {s: [] for s in range(structure.n)}
    for s in transient:
        for t in succ[s]:
            pred[t].append(s)
    dist = {s: 0 for s in range(structure.n) if s not in transient}
    frontier = list(dist)
    while frontier:
        nxt = []
        for t in frontier:
            for s in pred[t]:
                if s not in dist:
                    dist[s] = dist[t] + 1
                    nxt.append(s)
        frontier = nxt
    return {s: dist.get(s, 1) for s in transient}


def _ring_centres(structure: Structure) -> list[tuple[float, float, float]]:
    """``(x, y, radius)`` of each class's ring, in a row from the left."""
    out, x0 = [], 0.0
    for members in structure.classes:
        r = _ring_radius(len(members))
        reach = max(r, 0.5)
        out.append((x0 + reach, 0.0, r))
        x0 += 2 * reach + 1.1
    return out


def _place_ring(structure: Structure, i: int, centre: tuple[float, float, float], turn: float) -> dict[int, Point]:
    cx, cy, r = centre
    slots = [s for phase in structure.cyclic_classes[i] for s in phase]
    return {s: (cx + r * math.cos(turn - 2 * math.pi * t / len(slots)), cy + r * math.sin(turn - 2 * math.pi * t / len(slots)))
            for t, s in enumerate(slots)}


def _spread(desired: list[tuple[float, int]], gap: float = 1.0) -> dict[int, float]:
    """Coordinates for states wanting ``desired`` positions, in their order, ``gap`` apart, centred as wanted."""
    desired = sorted(desired)
    xs: list[float] = []
    for want, _ in desired:
        xs.append(want if not xs else max(want, xs[-1] + gap))
    shift = sum(w for w, _ in desired) / len(desired) - sum(xs) / len(xs)
    return {s: x + shift for x, (_, s) in zip(xs, desired)}


def _chained(layer: Sequence[int], succ: Sequence[Sequence[int]], desire: dict[int, float]) -> list[int]:
    """A layer's states in an order that keeps paths within the layer together: each weakly connected part of
    the layer's own edges walked depth first from its sources, the parts ordered by ``desire`` (their
    successors' mean place), each part's states consecutive."""
    inside = set(layer)
    nxt = {s: [t for t in succ[s] if t in inside and t != s] for s in layer}
    prev: dict[int, list[int]] = {s: [] for s in layer}
    for s in layer:
        for t in nxt[s]:
            prev[t].append(s)
    seen: set[int] = set()
    parts: list[list[int]] = []
    for start in sorted(layer, key=lambda s: (bool(prev[s]), desire.get(s, 0.0), s)):
        if start in seen:
            continue
        part: list[int] = []
        stack = [start]
        while stack:
            s = stack.pop()
            if s in seen:
                continue
            seen.add(s)
            part.append(s)
            stack += [t for t in reversed(nxt[s] + prev[s]) if t not in seen]
        parts.append(part)
    parts.sort(key=lambda part: (sum(desire.get(s, 0.0) for s in part) / len(part), part[0]))
    return [s for part in parts for s in part]


def _rows(structure: Structure, succ: Sequence[Sequence[int]], pos: dict[int, Point], top: float) -> dict[int, Point]:
    """Transient states in rows by distance beneath ``top``: a layer without edges of its own ordered by its
    states' successors' mean x (each beneath its successors where there is room); a layer with edges of its
    own as its paths (:func:`_chained`), a long one wrapping back and forth (row under row, a path turning at
    the ends)."""
    dist = _distances(structure, succ)
    cap = max(5, math.isqrt(len(dist)) + 2)
    placed = dict(pos)
    y = top
    for d in sorted(set(dist.values())):
        layer = [s for s in structure.transient if dist[s] == d]
        desire = {}
        for s in layer:
            xs = [placed[t][0] for t in succ[s] if t in placed and t != s]
            desire[s] = sum(xs) / len(xs) if xs else 0.0
        own_edges = any(t in set(layer) and t != s for s in layer for t in succ[s])
        if not own_edges and len(layer) <= cap:
            for s, x in _spread([(desire[s], s) for s in layer]).items():
                placed[s] = (x, y)
            y -= 1.0
            continue
        order = _chained(layer, succ, desire) if own_edges else sorted(layer, key=lambda s: (desire[s], s))
        centre = sum(desire.values()) / len(desire)
        for k in range(0, len(order), cap):
            chunk = order[k : k + cap]
            if (k // cap) % 2:
                chunk = chunk[::-1]
            width = min(cap, len(order)) - 1
            for m, s in enumerate(chunk):
                offset = m if (k // cap) % 2 == 0 else m + (width - (len(chunk) - 1))
                placed[s] = (centre - width / 2 + offset, y)
            y -= 1.0
    return {s: placed[s] for s in structure.transient}


def _columns(structure: Structure, succ: Sequence[Sequence[int]], top: float, middle: float) -> dict[int, Point]:
    """Transient states in columns by distance (left to right) beneath ``top``, centred on ``middle``, each
    ordered by its successors' rows (a path stays on its row)."""
    dist = _distances(structure, succ)
    cap = max(5, math.isqrt(len(dist)) + 3)
    row: dict[int, float] = {s: 0.0 for s in range(structure.n) if s not in dist}
    out: dict[int, Point] = {}
    c = 0
    for d in sorted(set(dist.values())):
        layer = [s for s in structure.transient if dist[s] == d]

        def key(s: int) -> tuple[float, int]:
            placed = [row[t] for t in succ[s] if t in row and t != s]
            return (sum(placed) / len(placed) if placed else 0.0, s)

        ordered = sorted(layer, key=key)
        chunks = [ordered] if len(ordered) <= cap else [ordered[k : k + cap] for k in range(0, len(ordered), cap)]
        for chunk in chunks:
            used: list[int] = []
            for s in chunk:
                at = max(int(round(key(s)[0])), used[-1] + 1 if used else 0) if len(chunks) == 1 else len(used)
                used.append(at)
                row[s] = float(at)
                out[s] = (float(c), top - at)
            c += 1
    shift = middle - (c - 1) / 2
    return {s: (x + shift, y) for s, (x, y) in out.items()}


def _aspect_cost(points: Sequence[Point]) -> float:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    w, h = max(xs) - min(xs) + 1.6, max(ys) - min(ys) + 1.6
    return abs(math.log(w / h / (4 / 3)))


def layout(structure: Structure, succ: Sequence[Sequence[int]] | None = None) -> dict[int, Point]:
    """State positions (layout units, neighbours at least 0.8 apart): a ring per closed class (phases in order
    around it, turned to face the states that enter it); transient states beneath, in rows or columns by their
    distance to the closed classes (whichever is closer to 4:3), ordered by where their successors sit.

    Examples
    --------
    >>> from exactpte.graph.structure import chain_structure
    >>> pos = layout(chain_structure([[1], [0], [0, 1]]))
    >>> sorted(pos), pos[2][1] < min(pos[0][1], pos[1][1])
    ([0, 1, 2], True)
    """
    succ = succ if succ is not None else [[] for _ in range(structure.n)]
    centres = _ring_centres(structure)
    pos: dict[int, Point] = {}
    for i in range(len(structure.classes)):
        pos.update(_place_ring(structure, i, centres[i], _default_turn(structure, i)))
    if not structure.transient:
        return pos
    top = -max([0.0 if len(m) <= 2 else r for m, (_, _, r) in zip(structure.classes, centres)]) - 1.05
    at_centres = {s: (centres[i][0], 0.0) for i, members in enumerate(structure.classes) for s in members}
    middle = sum(x for x, _, _ in centres) / len(centres) if centres else 0.0
    options = [_rows(structure, succ, at_centres, top), _columns(structure, succ, top, middle)]

    def cost(option: dict[int, Point]) -> float:  # near 4:3, and short edges
        where = {**pos, **option}
        lengths = [math.dist(where[s], where[t]) for s in option for t in succ[s] if t != s]
        return _aspect_cost(list(where.values())) + 0.25 * (sum(lengths) / len(lengths) if lengths else 0.0)

    transient = min(options, key=cost)
    for i in range(len(structure.classes)):  # each ring turned towards the states that enter it
        pos.update(_turned(structure, i, centres[i], transient, succ))
    if transient is options[0]:  # the rows again, now that the rings' states have their places
        transient = _rows(structure, succ, pos, top)
    lowest = min(y for _, y in pos.values())
    drop = max(0.0, max(y for _, y in transient.values()) - (lowest - 1.05))  # a ring turned upright: room beneath it
    pos.update({s: (x, y - drop) for s, (x, y) in transient.items()})
    return pos


def _default_turn(structure: Structure, i: int) -> float:
    """Where a ring's first state sits: at the top, or (two states) on the left, the pair side by side."""
    return math.pi if len(structure.classes[i]) == 2 else math.pi / 2


def _turned(structure: Structure, i: int, centre: tuple[float, float, float], outside: dict[int, Point],
            succ: Sequence[Sequence[int]]) -> dict[int, Point]:
    """Ring ``i`` turned (in twelfths of a circle, straight up preferred) to bring its states nearest to the
    transient states that enter them."""
    members = set(structure.classes[i])
    pairs = [(s, t) for s in outside for t in succ[s] if t in members]
    highest = max((y for _, y in outside.values()), default=0.0)
    best, best_cost = None, math.inf
    for m in range(12):
        turn = _default_turn(structure, i) + 2 * math.pi * m / 12
        placed = _place_ring(structure, i, centre, turn)
        # a state turned low pushes the transient states down (layout keeps them 1.05 beneath): count it
        drop = max(0.0, highest - (min(y for _, y in placed.values()) - 1.05))
        cost = sum(math.dist((outside[s][0], outside[s][1] - drop), placed[t]) for s, t in pairs) * (1 + 0.04 * min(m, 12 - m))
        if cost < best_cost - 1e-9:
            best, best_cost = placed, cost
    assert best is not None
    return best


# -- edges --------------------------------------------------------------------------------------------------
def _clear(curve: Edge, pos: dict[int, Point], radius: float, skip: set[int]) -> bool:
    """Whether ``curve`` keeps :data:`CLEARANCE` radii from every node centre but those of ``skip``."""
    limit = CLEARANCE * radius
    points = curve.samples(48)
    x0, x1 = min(p[0] for p in points) - limit, max(p[0] for p in points) + limit
    y0, y1 = min(p[1] for p in points) - limit, max(p[1] for p in points) + limit
    for s, (x, y) in pos.items():
        if s in skip or not (x0 < x < x1 and y0 < y < y1):  # a node off the curve's box is clear of it
            continue
        if any(math.hypot(px - x, py - y) < limit for px, py in points):
            return False
    return True


BENDS = (0.0, 0.12, -0.12, 0.25, -0.25, 0.4, -0.4, 0.6, -0.6, 0.85, -0.85, 1.2, -1.2, 1.7, -1.7)
"""The arcs tried for an edge, straightest first: the control point's offset from the middle, as a fraction
of the edge's length, to its right (``+``) or left (``-``)."""


def _arc(a: Point, b: Point, bend: float) -> Edge:
    """A quadratic arc from ``a`` to ``b`` bent by ``bend`` (matplotlib's ``arc3`` convention)."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    control = ((x1 + x2) / 2 + bend * dy, (y1 + y2) / 2 - bend * dx)
    return Edge(-1, -1, (a, control, b)) if bend else Edge(-1, -1, (a, b))


def _route(i: int, j: int, pos: dict[int, Point], radius: float, pairs: set[tuple[int, int]]) -> Edge:
    """Edge ``i -> j``: the first arc of :data:`BENDS` clear of every other node (a 2-cycle's two edges bend
    apart: only positive bends); else the first clear S-shaped cubic (:func:`_detours`); else the least
    blocked curve."""
    two_way = (j, i) in pairs
    bends = [b for b in BENDS if b >= 0.25] if two_way else list(BENDS)  # a 2-cycle: two arcs well apart
    candidates = [Edge(i, j, _arc(pos[i], pos[j], b).points) for b in bends]
    for curve in candidates:
        if _clear(curve, pos, radius, {i, j}):
            return curve
    detours = _detours(i, j, pos, two_way)
    for curve in detours:
        if _clear(curve, pos, radius, {i, j}):
            return curve
    return min(candidates + detours, key=lambda e: len(_hits(e, pos, radius)))


def _detours(i: int, j: int, pos: dict[int, Point], two_way: bool) -> list[Edge]:
    """Cubic curves from ``i`` to ``j`` whose two control points stand off the straight line by different
    amounts (an S, or a lopsided arc), smallest first: for edges that no symmetric arc can route."""
    (x1, y1), (x2, y2) = pos[i], pos[j]
    dx, dy = x2 - x1, y2 - y1
    offsets = (0.0, 0.3, -0.3, 0.6, -0.6, 1.0, -1.0, 1.5, -1.5)
    out = []
    for a in offsets:
        for b in offsets:
            if (a, b) == (0.0, 0.0) or (two_way and (a < 0 or b < 0)):
                continue
            c1 = (x1 + dx / 3 + a * dy, y1 + dy / 3 - a * dx)
            c2 = (x1 + 2 * dx / 3 + b * dy, y1 + 2 * dy / 3 - b * dx)
            out.append(Edge(i, j, ((x1, y1), c1, c2, (x2, y2))))
    return sorted(out, key=lambda e: abs(_offset(e, 1)) + abs(_offset(e, 2)))


def _offset(e: Edge, k: int) -> float:
    (x1, y1), (x2, y2) = e.points[0], e.points[-1]
    cx, cy = e.points[k]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    return ((cx - x1) * (y2 - y1) - (cy - y1) * (x2 - x1)) / length ** 2


def _loop(s: int, angle: float, pos: dict[int, Point], radius: float) -> Edge:
    x, y = pos[s]
    spread, reach = 0.55, 3.4 * radius

    def at(a: float, r: float) -> Point:
        return x + r * math.cos(a), y + r * math.sin(a)

    return Edge(s, s, (at(angle - spread, radius), at(angle - spread, reach), at(angle + spread, reach),
                       at(angle + spread, radius)))


def _loop_route(s: int, pos: dict[int, Point], radius: float, away: Point | None, taken: Sequence[Edge]) -> Edge:
    """A loop at ``s`` on its free side: away from ``away`` (its ring's centre) first, else up, then every
    eighth of a circle; the first clear of every other node and of the edges at ``s``."""
    x, y = pos[s]
    first = math.atan2(y - away[1], x - away[0]) if away is not None and math.dist(away, (x, y)) > 1e-9 else math.pi / 2
    ends = [e.points[-1] if e.source == s else e.points[0] for e in taken if s in (e.source, e.target) and e.source != e.target]
    tried = []
    for k in (0, 1, -1, 2, -2, 3, -3, 4):
        angle = first + k * math.pi / 4
        curve = _loop(s, angle, pos, radius)
        near_edge = any(abs(math.remainder(math.atan2(py - y, px - x) - angle, 2 * math.pi)) < 0.6 for px, py in ends)
        if _clear(curve, pos, radius, {s}) and not near_edge:
            return curve
        tried.append(curve)
    return next((c for c in tried if _clear(c, pos, radius, {s})), tried[0])


def _hits(edge: Edge, pos: dict[int, Point], radius: float) -> list[int]:
    """The nodes (other than its ends) whose disc ``edge`` enters."""
    points = edge.samples(96)
    return [s for s, (x, y) in pos.items() if s not in (edge.source, edge.target)
            and any(math.hypot(px - x, py - y) < radius for px, py in points)]


def edges_through_nodes(geometry: Geometry) -> list[tuple[int, int, int]]:
    """``(i, j, s)`` for every edge ``i -> j`` whose curve enters the disc of a node ``s`` it does not join:
    the measure of a picture that reads (none, on every picture the tests draw)."""
    return [(e.source, e.target, s) for e in geometry.edges for s in _hits(e, geometry.pos, geometry.radius)]


# -- the whole geometry -------------------------------------------------------------------------------------
def chain_geometry(structure: Structure, succ: Sequence[Sequence[int]], labels: Sequence[str], *,
                   edge_labels: bool = False) -> Geometry:
    """The picture's geometry (see the module docstring): positions, node size and labels, every edge's
    curve (in the order of ``succ``: state by state, successors in order), the rings, headers and box."""
    radius_in = _node_radius_in(labels)
    scale = max(SCALE_LABELLED_IN if edge_labels else SCALE_IN, radius_in / 0.27)
    radius = radius_in / scale
    fitted = [fit_label(t, radius_in) for t in labels]
    pos = layout(structure, succ)
    pairs = {(i, j) for i in range(structure.n) for j in succ[i]}
    centres = _ring_centres(structure)
    rings = [(centres[i][0], centres[i][1], centres[i][2]) for i in range(len(structure.classes))]
    edges = [_route(i, j, pos, radius, pairs) for i in range(structure.n) for j in succ[i] if i != j]
    ring_of = {s: (rings[i][0], rings[i][1]) for i, members in enumerate(structure.classes) for s in members
               if len(members) > 1}
    loops = {i: _loop_route(i, pos, radius, ring_of.get(i), edges) for i in range(structure.n) if i in succ[i]}
    ordered = [loops[i] if i == j else next(e for e in edges if (e.source, e.target) == (i, j))
               for i in range(structure.n) for j in succ[i]]
    headers = []
    for i, members in enumerate(structure.classes):
        tops = [pos[s][1] + radius for s in members] + [max(p[1] for p in loops[s].samples(16)) for s in members if s in loops]
        if len(members) > 1:  # the ring drawn behind the states
            tops.append(rings[i][1] + rings[i][2] + 0.1)
        headers.append((rings[i][0], max(tops) + 0.22))
    box = _box(pos, radius, ordered, headers)
    return Geometry(pos, radius, scale, tuple(t for t, _ in fitted), tuple(f for _, f in fitted), tuple(ordered),
                    tuple(rings), tuple(headers), box)


def _box(pos: dict[int, Point], radius: float, edges: Sequence[Edge], headers: Sequence[Point]) -> tuple[float, float, float, float]:
    """The box holding the nodes, every curve and the headers (room for their text)."""
    xs = [p[0] + d for p in pos.values() for d in (-radius, radius)]
    ys = [p[1] + d for p in pos.values() for d in (-radius, radius)]
    for e in edges:
        for x, y in e.samples(24):
            xs.append(x)
            ys.append(y)
    for x, y in headers:
        xs += [x - 0.8, x + 0.8]
        ys.append(y + 0.25)
    pad = 0.15
    return min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
