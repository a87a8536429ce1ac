"""Pictures of a chain: its support graph with classes, cyclic classes and anchors (matplotlib).

Pure Python (matplotlib with a layout of our own, no graphviz): each closed class is a ring
of its cyclic classes in phase order (the states of a phase side by side on the ring), the
classes in a row, the transient states beneath them in columns by their distance to the closed
classes (a long transient path runs left to right); anchors are drawn as squares.
Every state is one artist with ``gid = "state-<s>"``, so an SVG has one node per state.

Needs the ``plot`` extra (``pip install ".[plot]"``); without matplotlib these functions raise
:class:`~exactpte.errors.UsageError`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from exactpte.errors import UsageError
from exactpte.graph.structure import Structure
from exactpte.graph.view import StructureView, anchor_list
from exactpte.plots.common import CLASS_COLOURS, pyplot

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
else:
    Axes = Any  # matplotlib is imported on first use only

__all__ = ["draw", "layout"]


def layout(structure: Structure, succ: Sequence[Sequence[int]] | None = None) -> dict[int, tuple[float, float]]:
    """State positions: a ring per closed class (phases in order around it); transient states
    beneath, in columns by their distance (in steps) to the closed classes when the successor
    lists ``succ`` are given (a long transient path runs left to right, one column a step; within
    a column, states are ordered by where their successors sit, to keep paths straight), else in
    rows.  Neighbouring nodes are at least 0.8 apart (data units).

    Examples
    --------
    >>> from exactpte.graph.structure import chain_structure
    >>> pos = layout(chain_structure([[1], [0], [0, 1]]))
    >>> sorted(pos), pos[2][1] < min(pos[0][1], pos[1][1])
    ([0, 1, 2], True)
    """
    pos: dict[int, tuple[float, float]] = {}
    x0 = 0.0
    for i, cyc in enumerate(structure.cyclic_classes):
        radius = _radius(structure, i)
        cx = x0 + radius
        slots = [s for phase in cyc for s in phase]
        for t, s in enumerate(slots):
            angle = math.pi / 2 - 2 * math.pi * t / max(1, len(slots))
            pos[s] = (cx + radius * math.cos(angle), radius * math.sin(angle))
        x0 = cx + radius + 1.0
    top = -max([_radius(structure, i) for i in range(len(structure.classes))] + [0.6]) - 1.4
    columns = _transient_columns(structure, succ)
    for c, column in enumerate(columns):
        for k, state in enumerate(column):
            if state is not None:  # a gap keeps a path on its row
                pos[state] = (0.5 + 1.0 * c, top - 1.0 * k)
    return pos


def _radius(structure: Structure, i: int) -> float:
    """The ring radius of closed class ``i``: neighbours on the ring about 0.9 apart, at least 0.6."""
    return max(0.6, 0.9 * len(structure.classes[i]) / (2 * math.pi))


def _transient_columns(structure: Structure, succ: Sequence[Sequence[int]] | None) -> list[list[int | None]]:
    """The transient states in columns: by distance to the closed classes (with ``succ``), each column
    ordered by the mean row of its successors in the previous one, and cut at ``ceil(sqrt(T)) + 2``
    states (a long column wraps into the next); without ``succ``, rows of that length."""
    transient = list(structure.transient)
    if not transient:
        return []
    cap = math.isqrt(len(transient) - 1) + 3
    if succ is None:
        return [list(transient[k : k + cap]) for k in range(0, len(transient), cap)]
    is_transient = set(transient)
    pred: dict[int, list[int]] = {s: [] for s in range(structure.n)}
    for s in transient:
        for t in succ[s]:
            pred[t].append(s)
    dist = {s: 0 for s in range(structure.n) if s not in is_transient}
    frontier = list(dist)
    while frontier:  # multi-source BFS backwards from the closed classes
        nxt = []
        for t in frontier:
            for s in pred[t]:
                if s not in dist:
                    dist[s] = dist[t] + 1
                    nxt.append(s)
        frontier = nxt
    layers: dict[int, list[int]] = {}
    for s in transient:
        layers.setdefault(dist.get(s, 1), []).append(s)
    row: dict[int, float] = {s: 0.0 for s in range(structure.n) if s not in is_transient}
    columns: list[list[int | None]] = []
    for d in sorted(layers):
        def key(s: int) -> tuple[float, int]:
            placed = [row[t] for t in succ[s] if t in row and t != s]
            return (sum(placed) / len(placed) if placed else 0.0, s)

        ordered = sorted(layers[d], key=key)
        if len(ordered) <= cap:  # each state at its successors' row where free: paths stay straight
            column: list[int | None] = []
            for s in ordered:
                at = max(int(round(key(s)[0])), len(column))
                column += [None] * (at - len(column)) + [s]
            columns.append(column)
            row.update({s: float(j) for j, s in enumerate(column) if s is not None})
            continue
        for k in range(0, len(ordered), cap):
            chunk = ordered[k : k + cap]
            columns.append(list(chunk))
            row.update({s: float(j) for j, s in enumerate(chunk)})
    return columns


INCH_PER_UNIT = 0.55
"""Drawing scale without edge labels (a layout unit in inches): nodes 0.8 apart never touch (a node is ~0.3 inch wide)."""
INCH_PER_UNIT_LABELLED = 0.95
"""Drawing scale with edge labels: room for a "13/100" between two neighbouring nodes."""


def draw(obj: Any, ax: "Axes | None" = None, *, edge_labels: bool = False, node_size: float = 320,
         size: tuple[float, float] | None = None, dpi: float | None = None, legend: bool = True) -> "Axes":
    """Draw a chain's support graph (a chain, or any result: a :class:`~exactpte.Decomposition`, a
    :class:`~exactpte.certified.CertifiedDecomposition`, anything with ``chain``, ``structure`` and
    ``anchors``, :class:`~exactpte.graph.view.StructureView`).

    Closed classes are coloured, laid out as rings of their cyclic classes in phase order (the
    ring of class ``F_i`` of period ``d`` runs through its ``d`` cyclic classes, ``thm:cyclic``);
    transient states are grey, beneath, in columns by distance to the closed classes; anchors (of a
    decomposition) are squares.  A legend beneath says so.  ``edge_labels`` writes each transition
    probability next to its edge, each where no other text is (tried along the edge, on the side it
    bends to; the two edges of a 2-cycle bend apart); a label with no free place is left out and the
    legend counts it.  Without ``ax`` the figure grows with the chain (a fixed scale in inches per
    layout unit) and is trimmed to what it shows; ``size=(width, height)`` in inches fits the
    picture into that size instead, ``dpi`` sets the figure's resolution.

    Returns the matplotlib ``Axes`` (as :func:`exactpte.plots.strata.plot_strata` does); its
    ``.figure`` is the Figure to save (or :func:`exactpte.plots.save` it).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import exactpte
    >>> from exactpte.plots.common import text_collisions
    >>> ax = draw(exactpte.decompose(exactpte.example("branching")), edge_labels=True)
    >>> text_collisions(ax.figure)
    ([], [])
    """
    chain, S, anchors = _graph_of(obj)
    plt = pyplot()
    pos = layout(S, chain.support)
    if ax is not None:
        _render(ax, chain, S, anchors, pos, edge_labels=edge_labels, node_size=node_size, legend=legend)
        return ax
    scale = INCH_PER_UNIT_LABELLED if edge_labels else INCH_PER_UNIT
    fig = plt.figure(dpi=dpi or 100)
    for _ in range(4):  # with ``size``: shrink the scale until the picture fits
        fig.clf()
        drawn: Axes = fig.add_axes((0.0, 0.0, 1.0, 1.0))
        box = _limits(pos)
        fig.set_size_inches((box[1] - box[0]) * scale, (box[3] - box[2]) * scale)
        _render(drawn, chain, S, anchors, pos, edge_labels=edge_labels, node_size=node_size, legend=legend)
        width, height = _fit_figure(fig, drawn)
        if size is None or (width <= size[0] + 1e-6 and height <= size[1] + 1e-6):
            break
        scale *= 0.97 * min(size[0] / width, size[1] / height)
    if size is not None:
        _center_in(fig, drawn, size)
    return drawn


def _limits(pos: dict[int, tuple[float, float]]) -> tuple[float, float, float, float]:
    """The data box drawn: the nodes with room for loops, class headers and labels around them."""
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    return min(xs) - 0.9, max(xs) + 0.9, min(ys) - 1.0, max(ys) + 1.1


def _render(ax: "Axes", chain: Any, S: Structure, anchors: set[int], pos: dict[int, tuple[float, float]], *,
            edge_labels: bool, node_size: float, legend: bool) -> None:
    """Nodes, edges, headers, edge labels (placed last, around everything else) and the legend."""
    text = chain.field.to_text
    edges = list(chain.edges())
    pairs = {(i, j) for i, j, _ in edges}
    for i, j, _ in edges:
        (x1, y1), (x2, y2) = pos[i], pos[j]
        if i == j:
            ax.add_patch(_loop(x1, y1))
        else:
            ax.annotate("", xy=(x2, y2), xytext=(x1, y1),
                        arrowprops=dict(arrowstyle="-|>", color="#777777", lw=0.8, shrinkA=9, shrinkB=9,
                                        connectionstyle=f"arc3,rad={_bend(i, j, pairs)}"))
    for s in range(chain.n):
        i = S.class_of[s]
        colour = CLASS_COLOURS[i % len(CLASS_COLOURS)] if i >= 0 else TRANSIENT_COLOUR
        artist = ax.scatter([pos[s][0]], [pos[s][1]], s=node_size * (1.3 if s in anchors else 1.0), c=colour,
                            marker="s" if s in anchors else "o", edgecolors="black", linewidths=1.6 if s in anchors else 0.6, zorder=3)
        artist.set_gid(f"state-{s}")
        ax.text(pos[s][0], pos[s][1], chain.label(s), fontsize=7, ha="center", va="center", zorder=4)
    for i, (members, d) in enumerate(zip(S.classes, S.periods)):
        xs = [pos[s][0] for s in members]
        ax.text(sum(xs) / len(xs), max(pos[s][1] for s in members) + 0.6, f"F{i} (period {d})", ha="center", fontsize=9)
    if S.transient:
        ax.text(min(pos[s][0] for s in S.transient), min(pos[s][1] for s in S.transient) - 0.7, "transient", fontsize=9)
    x0, x1, y0, y1 = _limits(pos)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal", adjustable="datalim")
    ax.axis("off")
    left_out = _place_edge_labels(ax, pos, [(i, j, text(q)) for i, j, q in edges], pairs,
                                  math.sqrt(node_size * 1.3)) if edge_labels else 0
    if legend:
        _legend(ax, S, bool(anchors), left_out, len(edges))


TRANSIENT_COLOUR = "#bbbbbb"
"""The colour of transient states."""


def _bend(i: int, j: int, pairs: set[tuple[int, int]]) -> float:
    """The ``arc3`` bend of edge ``i -> j``: more when ``j -> i`` is drawn too (the two bend apart)."""
    return 0.25 if (j, i) in pairs else 0.12


def _legend(ax: "Axes", S: Structure, has_anchors: bool, left_out: int, n_edges: int) -> None:
    """What the colours, rings and squares mean, beneath the picture."""
    from matplotlib.lines import Line2D

    def marker(colour: str, shape: str = "o", width: float = 0.6) -> Line2D:
        return Line2D([], [], ls="", marker=shape, ms=9, mfc=colour, mec="black", mew=width)

    handles, labels = [], []
    for i, d in enumerate(S.periods):
        handles.append(marker(CLASS_COLOURS[i % len(CLASS_COLOURS)]))
        labels.append(f"F{i}: closed class, " + ("aperiodic" if d == 1 else f"period {d}: a ring of {d} cyclic classes in phase order"))
    if S.transient:
        handles.append(marker(TRANSIENT_COLOUR))
        labels.append("transient state")
    if has_anchors:
        handles.append(marker("white", "s", 1.6))
        labels.append("anchor (one per cyclic class)")
    if left_out:
        handles.append(Line2D([], [], ls=""))
        labels.append(f"{left_out} of {n_edges} edge labels left out (no free place): see the chain's P")
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(0.0, 0.0), frameon=False, fontsize=8,
              handletextpad=0.4, borderaxespad=0.2)


def _fit_figure(fig: Any, ax: "Axes", pad: float = 0.08) -> tuple[float, float]:
    """Resize the figure to what it shows (plus ``pad`` inches), keeping the axes' size in inches
    (so nothing moves relative to anything else); returns the new size."""
    fig.canvas.draw()
    tight = fig.get_tightbbox(fig.canvas.get_renderer())
    box = ax.get_position().transformed(fig.transFigure).transformed(fig.dpi_scale_trans.inverted())
    width, height = tight.width + 2 * pad, tight.height + 2 * pad
    fig.set_size_inches(width, height)
    ax.set_position(((box.x0 - tight.x0 + pad) / width, (box.y0 - tight.y0 + pad) / height, box.width / width, box.height / height))
    return width, height


def _center_in(fig: Any, ax: "Axes", size: tuple[float, float]) -> None:
    """Set the figure to ``size`` inches, the picture (as fitted) in its middle."""
    width, height = fig.get_size_inches()
    box = ax.get_position()
    dx, dy = (size[0] - width) / 2, (size[1] - height) / 2
    fig.set_size_inches(*size)
    ax.set_position(((box.x0 * width + dx) / size[0], (box.y0 * height + dy) / size[1],
                     box.width * width / size[0], box.height * height / size[1]))


def _place_edge_labels(ax: "Axes", pos: dict[int, tuple[float, float]], labels: list[tuple[int, int, str]],
                       pairs: set[tuple[int, int]], node_points: float) -> int:
    """Write each edge's label at the first candidate place (along the edge, then beside it) whose box
    meets no node and no text already written; returns how many found no place (left out)."""
    import numpy as np

    fig: Any = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    to_pixels = ax.transData.transform
    half_node = node_points * fig.dpi / 72 / 2 + 1
    taken: list[tuple[float, ...]] = [(x - half_node, y - half_node, x + half_node, y + half_node) for x, y in to_pixels(list(pos.values()))]
    taken += [tuple(t.get_window_extent(renderer).extents) for t in ax.texts if t.get_text().strip()]
    frame = ax.bbox.extents
    boxes = np.array(taken, dtype=float).reshape(-1, 4)
    left_out = 0
    for i, j, label in labels:
        artist = ax.text(0, 0, label, fontsize=7, ha="center", va="center", color="#333333", zorder=5,
                         bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})
        extent = artist.get_window_extent(renderer)
        w, h = extent.width / 2 + 1.5, extent.height / 2 + 1.5
        for cx, cy in _candidates(to_pixels(pos[i]), to_pixels(pos[j]), i == j, _bend(i, j, pairs), half_node, h):
            box = (cx - w, cy - h, cx + w, cy + h)
            if box[0] < frame[0] or box[1] < frame[1] or box[2] > frame[2] or box[3] > frame[3]:
                continue
            if not np.any((boxes[:, 0] < box[2]) & (boxes[:, 2] > box[0]) & (boxes[:, 1] < box[3]) & (boxes[:, 3] > box[1])):
                artist.set_position(tuple(ax.transData.inverted().transform((cx, cy))))
                boxes = np.vstack([boxes, box])
                break
        else:
            artist.remove()
            left_out += 1
    return left_out


def _candidates(start: Any, end: Any, loop: bool, rad: float, half_node: float, half_height: float) -> list[tuple[float, float]]:
    """Candidate label centres (pixels) for an edge, best first: along the ``arc3`` curve from its
    middle outwards, on the curve and pushed to the side it bends to; for a loop, around it."""
    (x1, y1), (x2, y2) = start, end
    if loop:
        r = half_node
        return [(x1, y1 + 2.6 * r + half_height), (x1 - 2.2 * r, y1 + 1.2 * r), (x1 + 2.2 * r, y1 + 1.2 * r),
                (x1, y1 - r - half_height - 2), (x1 - 2.4 * r, y1), (x1 + 2.4 * r, y1)]
    dx, dy = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2 + rad * dy, (y1 + y2) / 2 - rad * dx  # matplotlib's arc3 control point
    length = math.hypot(dx, dy) or 1.0
    nx, ny = dy / length, -dx / length  # the side the curve bends to
    out = []
    for t in (0.5, 0.4, 0.6, 0.32, 0.68, 0.25, 0.75):
        bx = (1 - t) ** 2 * x1 + 2 * t * (1 - t) * cx + t ** 2 * x2
        by = (1 - t) ** 2 * y1 + 2 * t * (1 - t) * cy + t ** 2 * y2
        for push in (0.0, half_height + 2, 2.5 * half_height + 4):
            out.append((bx + push * nx, by + push * ny))
    return out


def _graph_of(obj: "StructureView | Any") -> tuple[Any, Structure, set[int]]:
    """``(chain, structure, anchor states)`` of a result (anything with ``chain``, ``structure`` and
    ``anchors``) or of a chain (no anchors)."""
    structure = getattr(obj, "structure", None)
    if isinstance(structure, Structure) and hasattr(obj, "chain") and hasattr(obj, "anchors"):
        return obj.chain, structure, {s for _, _, s in anchor_list(obj.anchors)}
    if isinstance(structure, Structure) and hasattr(obj, "edges") and hasattr(obj, "field"):  # a chain
        return obj, structure, set()
    raise UsageError(f"draw() takes a chain or a decomposition, got {type(obj).__name__}")


def _loop(x: float, y: float) -> Any:
    from matplotlib.patches import Arc

    return Arc((x, y + 0.22), 0.3, 0.3, theta1=-60, theta2=240, color="#777777", lw=0.8)
