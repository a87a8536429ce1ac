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
    from matplotlib.patches import Arc

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


def draw(obj: Any, ax: "Axes | None" = None, *, edge_labels: bool = False, node_size: float = 320) -> "Axes":
    """Draw a chain's support graph (a chain, or any result: a :class:`~exactpte.Decomposition`, a
    :class:`~exactpte.certified.CertifiedDecomposition`, anything with ``chain``, ``structure`` and
    ``anchors``, :class:`~exactpte.graph.view.StructureView`).

    Closed classes are coloured, laid out as rings of their cyclic classes in phase order;
    transient states are grey, beneath, in columns by distance to the closed classes; anchors (of a decomposition) are squares.
    ``edge_labels`` writes each transition probability.  Returns the matplotlib ``Axes``.
    """
    chain, S, anchors = _graph_of(obj)
    plt = pyplot()
    pos = layout(S, chain.support)
    if ax is None:  # about 0.55 inch a data unit: nodes 0.8 apart never touch (a node is ~0.3 inch wide)
        xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
        _, ax = plt.subplots(figsize=(max(4.0, 0.55 * (max(xs) - min(xs) + 2.5)), max(3.0, 0.55 * (max(ys) - min(ys) + 3.0))))
    text = chain.field.to_text
    for i, j, q in chain.edges():
        (x1, y1), (x2, y2) = pos[i], pos[j]
        if i == j:
            ax.add_patch(_loop(x1, y1))
        else:
            ax.annotate("", xy=(x2, y2), xytext=(x1, y1),
                        arrowprops=dict(arrowstyle="-|>", color="#777777", lw=0.8, shrinkA=9, shrinkB=9,
                                        connectionstyle="arc3,rad=0.12"))
        if edge_labels:
            ax.text((x1 + x2) / 2, (y1 + y2) / 2 + (0.25 if i == j else 0), text(q), fontsize=7, ha="center", color="#444444")
    for s in range(chain.n):
        i = S.class_of[s]
        colour = CLASS_COLOURS[i % len(CLASS_COLOURS)] if i >= 0 else "#bbbbbb"
        artist = ax.scatter([pos[s][0]], [pos[s][1]], s=node_size * (1.3 if s in anchors else 1.0), c=colour,
                            marker="s" if s in anchors else "o", edgecolors="black", linewidths=1.6 if s in anchors else 0.6, zorder=3)
        artist.set_gid(f"state-{s}")
        ax.text(pos[s][0], pos[s][1], chain.label(s), fontsize=7, ha="center", va="center", zorder=4)
    for i, (members, d) in enumerate(zip(S.classes, S.periods)):
        xs = [pos[s][0] for s in members]
        ax.text(sum(xs) / len(xs), max(pos[s][1] for s in members) + 0.6, f"F{i} (period {d})", ha="center", fontsize=9)
    if S.transient:
        ax.text(min(pos[s][0] for s in S.transient), min(pos[s][1] for s in S.transient) - 0.7, "transient", fontsize=9)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.margins(0.15)
    return ax


def _graph_of(obj: "StructureView | Any") -> tuple[Any, Structure, set[int]]:
    """``(chain, structure, anchor states)`` of a result (anything with ``chain``, ``structure`` and
    ``anchors``) or of a chain (no anchors)."""
    structure = getattr(obj, "structure", None)
    if isinstance(structure, Structure) and hasattr(obj, "chain") and hasattr(obj, "anchors"):
        return obj.chain, structure, {s for _, _, s in anchor_list(obj.anchors)}
    if isinstance(structure, Structure) and hasattr(obj, "edges") and hasattr(obj, "field"):  # a chain
        return obj, structure, set()
    raise UsageError(f"draw() takes a chain or a decomposition, got {type(obj).__name__}")


def _loop(x: float, y: float) -> "Arc":
    from matplotlib.patches import Arc

    return Arc((x, y + 0.22), 0.3, 0.3, theta1=-60, theta2=240, color="#777777", lw=0.8)
