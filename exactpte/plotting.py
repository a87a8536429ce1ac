"""Pictures: the support graph of a chain, estimator error curves, sweep coverage (matplotlib).

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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import UsageError
from .fields.rational_functions import RationalFunction
from .floats import to_float
from .structure import Structure
from .structure_view import StructureView, anchor_list

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["draw", "layout", "plot_errors", "plot_coverage", "plot_strata", "save"]

_CLASS_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt  # headless machines fall back to the Agg backend by themselves
    except ImportError:
        raise UsageError('pictures need matplotlib: pip install ".[plot]"') from None
    return plt


def layout(structure: Structure, succ: Sequence[Sequence[int]] | None = None) -> dict[int, tuple[float, float]]:
    """State positions: a ring per closed class (phases in order around it); transient states
    beneath, in columns by their distance (in steps) to the closed classes when the successor
    lists ``succ`` are given (a long transient path runs left to right, one column a step; within
    a column, states are ordered by where their successors sit, to keep paths straight), else in
    rows.  Neighbouring nodes are at least 0.8 apart (data units).

    Examples
    --------
    >>> from exactpte.structure import chain_structure
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
    ``anchors``, :class:`~exactpte.structure_view.StructureView`).

    Closed classes are coloured, laid out as rings of their cyclic classes in phase order;
    transient states are grey, beneath, in columns by distance to the closed classes; anchors (of a decomposition) are squares.
    ``edge_labels`` writes each transition probability.  Returns the matplotlib ``Axes``.
    """
    chain, S, anchors = _graph_of(obj)
    plt = _pyplot()
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
        colour = _CLASS_COLOURS[i % len(_CLASS_COLOURS)] if i >= 0 else "#bbbbbb"
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


def _loop(x: float, y: float) -> Any:
    from matplotlib.patches import Arc

    return Arc((x, y + 0.22), 0.3, 0.3, theta1=-60, theta2=240, color="#777777", lw=0.8)


def plot_errors(curves: Mapping[str, Sequence[tuple[float, float]]], ax: "Axes | None" = None, *, ylabel: str = "error",
                logy: bool = True) -> "Axes":
    """Estimator error curves: ``{"E_v": [(samples, error), ...], ...}`` on log axes; returns the ``Axes``.

    Examples
    --------
    >>> ax = plot_errors({"E_v": [(100, 1.0), (400, 0.5), (1600, 0.25)]})   # doctest: +SKIP
    """
    plt = _pyplot()
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.5))
    for name, points in curves.items():
        xs, ys = zip(*points) if points else ((), ())
        ax.plot(xs, ys, marker="o", label=name)
    ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("samples")
    ax.set_ylabel(ylabel)
    ax.legend()
    return ax


def plot_coverage(histograms: Mapping[str, Mapping[Any, int]], *, fig: Any = None, titles: Mapping[str, str] | None = None) -> Any:
    """A sweep's coverage histograms (states, classes, periods, transient states, largest transient
    strongly connected block), one panel each, titled by ``titles`` (default: the histogram keys)."""
    plt = _pyplot()
    names = list(histograms)
    if fig is None:
        fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 2.8))
    else:
        axes = fig.subplots(1, len(names))
    for ax, name in zip(axes if len(names) > 1 else [axes], names):
        items = sorted((int(k), v) for k, v in histograms[name].items())
        ax.bar([k for k, _ in items], [v for _, v in items], color="#4e79a7")
        ax.set_title((titles or {}).get(name, name))
    fig.tight_layout()
    return fig


def save(figure_or_ax: Any, path: str) -> None:
    """Write a picture (``.svg``, ``.png``, ``.pdf``: by the ending)."""
    fig = figure_or_ax.figure if hasattr(figure_or_ax, "figure") and not hasattr(figure_or_ax, "savefig") else figure_or_ax
    fig.savefig(path, bbox_inches="tight")
    _pyplot().close(fig)


# -- the parameter space of a stratified decomposition ---------------------------------------------------
def _stratum_label(stratum: Any) -> str:
    """``periods (3, 1), 2 classes`` (or ``pointwise``)."""
    d = stratum.decomposition
    if d is None:
        return "pointwise"
    periods = ", ".join(map(str, d.periods))
    return f"period{'s' if len(d.periods) != 1 else ''} {periods}, {len(d.classes)} class{'es' if len(d.classes) != 1 else ''}"


def _value(strat: Any, point: dict[str, Any], quantity: str, state: int) -> float | None:
    """The quantity at a point (``None`` outside the valid region)."""
    from fractions import Fraction

    from .errors import GenericRegionError

    try:
        x = getattr(strat.at(point), quantity)[state]
    except (GenericRegionError, ZeroDivisionError):
        return None
    return float(Fraction(int(x.p), int(x.q)))


def _grid(n: int) -> list[Any]:
    import flint

    return [flint.fmpq(k, n) for k in range(n + 1)]


def _substituted_point(stratum: Any, free: dict[str, Any]) -> dict[str, Any] | None:
    """The full parameter point of a stratum from values of its free parameters (``None`` at a pole)."""
    point = dict(free)
    try:
        for name, value in stratum.substitution.items():
            point[name] = value.evaluate([free[p] for p in stratum.params]) if isinstance(value, RationalFunction) else value
    except ZeroDivisionError:
        return None
    return point


def plot_strata(strat: Any, quantity: str = "rho", state: int = 0, ax: "Axes | None" = None, *, resolution: int = 120) -> "Axes":
    """The parameter space of a :class:`~exactpte.strata.StratifiedDecomposition` with one or two parameters.

    One parameter: the quantity's closed form over the valid region as a curve (one colour per
    stratum with a free parameter), the points where the structure or a solve changes marked and
    labelled with their periods and classes.  Two parameters: a heat map of the quantity over the
    valid region (white outside it), the curves and points of the lower strata drawn on top, each
    labelled with its periods and classes.
    """
    plt = _pyplot()
    if ax is None:
        ax = plt.subplots(figsize=(7.5, 5.5) if len(strat.params) == 2 else (7.5, 4.5))[1]
    names = list(strat.params)
    if len(names) not in (1, 2):
        raise UsageError(f"a picture of the parameter space needs one or two parameters, not {len(names)}")
    symbol = f"{quantity}[{state}]"
    if len(names) == 1:
        _strata_1d(strat, names[0], quantity, state, ax, resolution)
        ax.set_xlabel(names[0])
        ax.set_ylabel(symbol)
    else:
        _strata_2d(strat, names, quantity, state, ax, max(20, resolution // 2))
        ax.set_xlabel(names[0])
        ax.set_ylabel(names[1])
    ax.set_title(f"{symbol} over the valid region, by stratum")
    return ax


def _strata_1d(strat: Any, name: str, quantity: str, state: int, ax: "Axes", n: int) -> None:
    colours = iter(_CLASS_COLOURS)
    for stratum in strat.strata:
        if stratum.params:  # the open part: a curve of the closed form
            xs, ys = [], []
            for x in _grid(n):
                if stratum.contains(strat.field, [x]):
                    v = _value(strat, {name: x}, quantity, state)
                    if v is not None:
                        xs.append(float(x))
                        ys.append(v)
            ax.plot(xs, ys, "-", color=next(colours, "#444444"), lw=2, label=f"{' and '.join(stratum.where)}: {_stratum_label(stratum)}")
    for stratum in strat.strata:
        if not stratum.params and stratum.decomposition is not None:
            point = {k: v for k, v in stratum.substitution.items()}
            x = to_float(point[name])
            v = _value(strat, point, quantity, state)
            if v is not None:
                ax.plot([x], [v], "o", color="black", ms=7, zorder=5)
                ax.annotate(f"{' and '.join(stratum.where)}\n{_stratum_label(stratum)}", (x, v), textcoords="offset points",
                            xytext=(6, 8), fontsize=8)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)


def _strata_2d(strat: Any, names: list[str], quantity: str, state: int, ax: "Axes", n: int) -> None:
    import numpy as np

    grid = _grid(n)
    image = np.full((n + 1, n + 1), np.nan)
    generic = strat.strata[0]
    for i, y in enumerate(grid):
        for j, x in enumerate(grid):
            if generic.contains(strat.field, [x, y]):
                v = _value(strat, {names[0]: x, names[1]: y}, quantity, state)
                image[i, j] = np.nan if v is None else v
    mesh = ax.imshow(image, origin="lower", extent=(0, 1, 0, 1), cmap="viridis", aspect="auto", interpolation="nearest")
    ax.figure.colorbar(mesh, ax=ax, label=f"{quantity}[{state}]: {' and '.join(generic.where)}")
    colours = iter(_CLASS_COLOURS[1:])
    for stratum in strat.strata[1:]:
        if stratum.decomposition is None:
            continue
        if len(stratum.params) == 1:  # a curve: its free parameter swept, the eliminated one substituted
            pts = [_substituted_point(stratum, {stratum.params[0]: t}) for t in _grid(n)]
            xy = [(float(p[names[0]]), float(p[names[1]])) for p in pts if p is not None]
            xy = [(a, b) for a, b in xy if 0 <= a <= 1 and 0 <= b <= 1]
            if xy:
                colour = next(colours, "#444444")
                ax.plot(*zip(*xy), "-", color=colour, lw=3, label=f"{' and '.join(stratum.where)}: {_stratum_label(stratum)}")
        elif not stratum.params:
            p = stratum.substitution
            a, b = float(p[names[0]]), float(p[names[1]])
            ax.plot([a], [b], "o", color="white", mec="black", ms=8, zorder=5)
            ax.annotate(_stratum_label(stratum), (a, b), textcoords="offset points", xytext=(-10 if a > 0.5 else 6, -12 if b > 0.5 else 6),
                        fontsize=7, ha="right" if a > 0.5 else "left", color="black",
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "alpha": 0.8, "lw": 0})
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False)
