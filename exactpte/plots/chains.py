"""Pictures of a chain: its support graph with classes, cyclic classes and anchors (matplotlib).

The geometry is :mod:`exactpte.plots.geometry`'s (pure Python, shared with the TikZ and DOT exports of
:mod:`exactpte.plots.export`): each closed class a ring of its cyclic classes in phase order, the transient
states in layers beneath, every edge routed clear of the nodes it does not join.  Drawn here:

- every state one circle with ``gid = "state-<s>"``, its label inside it; anchors with a thick rim;
- every edge one arrow with ``gid = "edge-<i>-<j>"`` (in an SVG: one ``<g id="edge-i-j">``);
- with ``edge_labels``, each probability beside its own edge, where no other text, node or edge is;
- a legend beneath whose glyphs are the nodes as drawn.

The picture has a natural size (a fixed scale in inches per layout unit); ``size`` fits it into a size in
inches, scaling everything (fonts included) by the same factor, down to :data:`MIN_FACTOR`: below, a
:class:`~exactpte.errors.UsageError` names the smallest size that holds the whole picture.

Needs the ``plot`` extra (``pip install ".[plot]"``); without matplotlib these functions raise
:class:`~exactpte.errors.UsageError`.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from exactpte.errors import UsageError
from exactpte.graph.structure import Structure
from exactpte.graph.view import StructureView, anchor_list
from exactpte.plots.common import CLASS_COLOURS, pyplot
from exactpte.plots.geometry import Edge, Geometry, chain_geometry, layout

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
else:
    Axes = Any  # matplotlib is imported on first use only

__all__ = ["draw", "layout", "geometry_of", "MIN_FACTOR"]

TRANSIENT_COLOUR = "#bbbbbb"
"""The colour of transient states."""
EDGE_COLOUR = "#666666"
LEGEND_PT = 8.0
HEADER_PT = 8.0
EDGE_LABEL_PT = 7.0
MIN_FACTOR = 0.7
"""The least a picture is scaled to fit a ``size`` (node labels 7 pt at the natural size: 4.9 pt)."""
MAX_FACTOR = 1.6
"""The most a small picture is scaled up to fill a larger ``size``."""
PAD_IN = 0.08
LEGEND_WRAP_IN = 3.0
"""The legend's lines wrap at the picture's width, at least this wide."""


def geometry_of(obj: "StructureView | Any", *, edge_labels: bool = False) -> Geometry:
    """The geometry of a chain's (or a result's) picture (:func:`~exactpte.plots.geometry.chain_geometry`)."""
    chain, S, _ = _graph_of(obj)
    return chain_geometry(S, chain.support, [chain.label(s) for s in range(chain.n)], edge_labels=edge_labels)


def draw(obj: Any, ax: "Axes | None" = None, *, edge_labels: bool = False, size: tuple[float, float] | None = None,
         dpi: float | None = None, legend: bool = True) -> "Axes":
    """Draw a chain's support graph (a chain, or any result: a :class:`~exactpte.Decomposition`, a
    :class:`~exactpte.certified.CertifiedDecomposition`, anything with ``chain``, ``structure`` and
    ``anchors``, :class:`~exactpte.graph.view.StructureView`).

    Closed classes are coloured rings of their cyclic classes in phase order (the ring of class ``F_i`` of
    period ``d`` runs through its ``d`` cyclic classes, ``thm:cyclic``); transient states are grey, beneath;
    anchors (of a decomposition) have a thick rim.  No edge passes through a node it does not join; each node's
    label fits inside it.  ``edge_labels`` writes each transition probability beside its own edge where no
    other text, node or edge is (a label with no such place is left out, and the legend counts it).  Without
    ``ax`` the figure has the picture's natural size; ``size=(width, height)`` in inches scales the whole
    picture to fit (a :class:`~exactpte.errors.UsageError` names the smallest size that holds it), ``dpi``
    sets the resolution.

    Returns the matplotlib ``Axes`` (as :func:`exactpte.plots.strata.plot_strata` does); its ``.figure`` is
    the Figure to save (or :func:`exactpte.plots.save` it).

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
    g = chain_geometry(S, chain.support, [chain.label(s) for s in range(chain.n)], edge_labels=edge_labels)
    plt = pyplot()
    if ax is not None:
        ax.set_xlim(g.box[0], g.box[1])
        ax.set_ylim(g.box[2], g.box[3])
        ax.set_aspect("equal", adjustable="datalim")
        _render(ax, chain, S, anchors, g, 1.0, edge_labels=edge_labels, legend=legend)
        return ax
    fig = plt.figure(dpi=dpi or 100)
    lines = _legend_lines(S, anchors, g) if legend else []
    gw, gh = g.size_in
    legend_w, legend_h = _legend_size(lines, max(gw, LEGEND_WRAP_IN), edge_labels) if legend else (0.0, 0.0)
    width, height = max(gw, legend_w) + 2 * PAD_IN, gh + legend_h + 3 * PAD_IN
    factor = 1.0
    if size is not None:
        factor = min(size[0] / width, size[1] / height, MAX_FACTOR)
        if factor < MIN_FACTOR:
            plt.close(fig)
            need = (math.ceil(width * MIN_FACTOR * 10) / 10, math.ceil(height * MIN_FACTOR * 10) / 10)
            raise UsageError(f"--size {size[0]:g},{size[1]:g} cannot hold the picture of {chain.n} states (nodes and labels "
                             f"would be too small to read); the smallest size that can is {need[0]:g},{need[1]:g} "
                             f"(or leave --size out: {math.ceil(width * 10) / 10:g},{math.ceil(height * 10) / 10:g})")
    fig_w, fig_h = size if size is not None else (width, height)
    fig.set_size_inches(fig_w, fig_h)
    x0 = (fig_w - gw * factor) / 2
    y_top = (fig_h + height * factor) / 2 - PAD_IN * factor  # the block (picture and legend) centred
    drawn: Axes = fig.add_axes((x0 / fig_w, (y_top - gh * factor) / fig_h, gw * factor / fig_w, gh * factor / fig_h))
    drawn.set_xlim(g.box[0], g.box[1])
    drawn.set_ylim(g.box[2], g.box[3])
    _render(drawn, chain, S, anchors, g, factor, edge_labels=edge_labels, legend=False)
    if legend:
        _legend(drawn, lines, factor, max(gw, LEGEND_WRAP_IN),
                (0.5, (y_top - gh * factor - PAD_IN * factor) / fig_h), getattr(drawn, "_exactpte_left_out", ""))
    return drawn


def _graph_of(obj: "StructureView | Any") -> tuple[Any, Structure, set[int]]:
    """``(chain, structure, anchor states)`` of a result (anything with ``chain``, ``structure`` and
    ``anchors``) or of a chain (no anchors)."""
    structure = getattr(obj, "structure", None)
    if isinstance(structure, Structure) and hasattr(obj, "chain") and hasattr(obj, "anchors"):
        return obj.chain, structure, {s for _, _, s in anchor_list(obj.anchors)}
    if isinstance(structure, Structure) and hasattr(obj, "edges") and hasattr(obj, "field"):  # a chain
        return obj, structure, set()
    raise UsageError(f"draw() takes a chain or a decomposition, got {type(obj).__name__}")


def node_colour(S: Structure, s: int) -> str:
    """The fill of state ``s``: its class's colour, grey when transient."""
    i = S.class_of[s]
    return CLASS_COLOURS[i % len(CLASS_COLOURS)] if i >= 0 else TRANSIENT_COLOUR


def _render(ax: "Axes", chain: Any, S: Structure, anchors: set[int], g: Geometry, f: float, *, edge_labels: bool,
            legend: bool) -> None:
    """Rings, edges, nodes, labels, headers, then the edge labels around everything else, and (``legend``) the
    legend beneath; ``f`` scales line widths and fonts (the geometry scales with the axes)."""
    from matplotlib.patches import Circle

    ax.axis("off")
    for i, (cx, cy, r) in enumerate(g.rings):
        if len(S.classes[i]) > 1:
            ring = Circle((cx, cy), r, fill=False, ec=CLASS_COLOURS[i % len(CLASS_COLOURS)], lw=7 * f, alpha=0.22, zorder=1)
            ring.set_gid(f"class-{i}")
            ax.add_patch(ring)
    for e in g.edges:
        ax.add_patch(_arrow(e, g, f))
    for s in range(chain.n):
        node = Circle(g.pos[s], g.radius, fc=node_colour(S, s), ec="black", lw=(2.2 if s in anchors else 0.6) * f, zorder=3)
        node.set_gid(f"state-{s}")
        ax.add_patch(node)
        ax.text(*g.pos[s], g.labels[s], fontsize=g.fonts[s] * f, ha="center", va="center", zorder=4)
    for i, (x, y) in enumerate(g.headers):
        ax.text(x, y, f"F{i} (period {S.periods[i]})", fontsize=HEADER_PT * f, ha="center", va="bottom", zorder=4)
    _fit_node_labels(ax, g)
    left_out = ""
    if edge_labels:
        from exactpte.plots.edge_labels import place_edge_labels

        text = chain.field.to_text
        entries = {(i, j): q for i, j, q in chain.edges()}
        labels = [(e, text(entries[(e.source, e.target)])) for e in g.edges]
        missing = place_edge_labels(ax, g, labels, EDGE_LABEL_PT * f)
        if missing:
            left_out = f"{missing} of {len(labels)} edge labels left out (no free place): see the chain's P"
    setattr(ax, "_exactpte_left_out", left_out)  # what the figure's legend says beneath
    if legend:
        bottom = ax.get_position().y0
        _legend(ax, _legend_lines(S, anchors, g), f, max(g.size_in[0], LEGEND_WRAP_IN), (0.5, bottom), left_out, axes=True)


def _fit_node_labels(ax: "Axes", g: Geometry) -> None:
    """Shrink any node label that the renderer measures wider than 90 % of its node (the geometry's widths
    are estimates)."""
    fig: Any = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    room = 2 * g.radius * abs(ax.transData.transform((1, 0))[0] - ax.transData.transform((0, 0))[0]) * 0.9
    for t in ax.texts[: len(g.pos)]:
        width = t.get_window_extent(renderer).width
        if width > room > 0:
            t.set_fontsize(t.get_fontsize() * room / width)


def _arrow(e: Edge, g: Geometry, f: float) -> Any:
    """Edge ``e`` as one arrow patch (``gid = "edge-i-j"``), cut at the rims of the nodes it joins."""
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.path import Path

    start, end = _leaving(e, g.pos[e.source], g.radius * 1.04, 0.0, 1.0), _leaving(e, g.pos[e.target], g.radius * 1.08, 1.0, 0.0)
    points = _sub_curve(e.points, start, end)
    codes = [Path.MOVETO] + [{2: Path.LINETO, 3: Path.CURVE3, 4: Path.CURVE4}[len(points)]] * (len(points) - 1)
    arrow = FancyArrowPatch(path=Path(points, codes), arrowstyle="-|>,head_length=0.5,head_width=0.22",
                            mutation_scale=10 * f, color=EDGE_COLOUR, lw=0.8 * f, zorder=2, shrinkA=0, shrinkB=0)
    arrow.set_gid(f"edge-{e.source}-{e.target}")
    return arrow


def _leaving(e: Edge, centre: tuple[float, float], radius: float, inside: float, outside: float) -> float:
    """The curve parameter where ``e`` crosses the circle of ``radius`` about ``centre``, between ``inside``
    (in it) and ``outside`` (past it), by bisection."""
    for _ in range(40):
        mid = (inside + outside) / 2
        if math.dist(e.at(mid), centre) < radius:
            inside = mid
        else:
            outside = mid
    return outside


def _sub_curve(points: Sequence[tuple[float, float]], a: float, b: float) -> list[tuple[float, float]]:
    """The control points of the part of a Bézier curve between parameters ``a < b``."""
    def split(pts: list[tuple[float, float]], t: float) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        left, right, level = [pts[0]], [pts[-1]], list(pts)
        while len(level) > 1:
            level = [((1 - t) * p[0] + t * q[0], (1 - t) * p[1] + t * q[1]) for p, q in zip(level, level[1:])]
            left.append(level[0])
            right.append(level[-1])
        return left, right[::-1]

    head = split(list(points), b)[0]
    return split(head, a / b if b else 0.0)[1]


def _legend_lines(S: Structure, anchors: set[int], g: Geometry) -> list[tuple[str, str, float, str]]:
    """``(face colour, rim colour, rim width, text)`` of each legend entry: its glyph is a node as drawn."""
    out = []
    for i, d in enumerate(S.periods):
        what = "aperiodic" if d == 1 else f"period {d}: a ring of {d} cyclic classes in phase order"
        out.append((CLASS_COLOURS[i % len(CLASS_COLOURS)], "black", 0.6, f"F{i}: closed class, {what}"))
    if S.transient:
        out.append((TRANSIENT_COLOUR, "black", 0.6, "transient state"))
    if anchors:
        out.append(("white", "black", 2.2, "anchor (one per cyclic class)"))
    return out


def _wrapped(text: str, width_in: float, f: float) -> str:
    chars = max(20, int(width_in / (LEGEND_PT * f * 0.56 / 72)))
    return "\n".join(textwrap.wrap(text, chars, subsequent_indent="  "))


def _legend(ax: "Axes", lines: Sequence[tuple[str, str, float, str]], f: float, wrap_in: float,
            anchor: tuple[float, float], left_out: str, *, axes: bool = False) -> Any:
    """The legend beneath the picture, its top centre at ``anchor`` (figure coordinates)."""
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], ls="", marker="o", ms=9 * f, mfc=face, mec=rim, mew=width * f) for face, rim, width, _ in lines]
    labels = [_wrapped(text, wrap_in * f, f) for *_, text in lines]
    if left_out:
        handles.append(Line2D([], [], ls=""))
        labels.append(_wrapped(left_out, wrap_in * f, f))
    if not handles:
        return None
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=anchor, bbox_transform=ax.figure.transFigure,
                     frameon=False, fontsize=LEGEND_PT * f, handletextpad=0.4, borderaxespad=0.0, borderpad=0.2)


def _legend_size(lines: Sequence[tuple[str, str, float, str]], wrap_in: float, edge_labels: bool) -> tuple[float, float]:
    """The legend's width and height in inches at the natural size (with room for the line that counts edge
    labels left out), measured at 100 dpi whatever the figure's (so its size does not depend on its resolution)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    probe: Any = Figure(figsize=(8, 8), dpi=100)
    FigureCanvasAgg(probe)
    ax = probe.add_axes((0, 0, 1, 1))
    ax.axis("off")
    spare = "999 of 999 edge labels left out (no free place): see the chain's P" if edge_labels else ""
    legend = _legend(ax, lines, 1.0, wrap_in, (0.5, 1.0), spare)
    if legend is None:
        return 0.0, 0.0
    probe.canvas.draw()
    box = legend.get_window_extent(probe.canvas.get_renderer())
    return box.width / 100 + 0.05, box.height / 100 + 0.05
