"""Pictures of a parametric chain's parameter space: its strata and a quantity over them (matplotlib).

One parameter: the quantity's closed form as a curve over each stratum with a free parameter, the points where
the structure or a solve changes marked.  Two parameters: a heat map of the quantity over the generic stratum,
the lines and points of the lower strata drawn on top, inside the frame (the frame stands a little off the
region, so a boundary line is never half hidden by it).  Wherever a lower stratum's closed form is not the
generic one restricted there (:meth:`~exactpte.results.strata.StratifiedDecomposition.cases`), its value is
written on its line or beside its point (``g*(a) = 1 - q``), and in its legend entry.  The colour scale
survives poles: when a few extreme values would flatten the map, the colours are clipped to the 2nd-98th
percentiles, and the colour bar says so.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from exactpte.errors import UsageError
from exactpte.fields.orientation import RegionPrinter
from exactpte.fields.rational_functions import RationalFunction
from exactpte.model.to_float import to_float
from exactpte.plots.common import CLASS_COLOURS, pyplot

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["plot_strata", "what_changes", "SYMBOLS"]

SYMBOLS = {"g_star": "g*", "v_star": "v*", "rho": "ρ", "h": "h", "psi": "ψ", "hitting_times": "hitting time"}
"""How a quantity is named in a picture."""


def what_changes(stratum: Any, generic: Any) -> str:
    """What differs on ``stratum`` from the ``generic`` stratum, said briefly: the states that turn
    transient or recurrent, the periods (``period 3 → 1``) and the number of classes; ``same
    structure, other closed form`` when only the closed forms differ (a denominator vanishes there), ``same
    structure and closed forms`` when an entry vanishes and nothing else changes (g*, v*, ρ, h, ψ are
    the generic closed forms restricted to the stratum).
    The stratum's equations lead (``q = 0: b1 transient``); the region's inequalities, which every
    stratum shares, are left out.

    Examples
    --------
    >>> import exactpte
    >>> m = exactpte.ParametricChain([["1-p", "p"], [1, 0]], [1, 0], params=["p"], labels=["a", "b"])
    >>> strat = exactpte.stratify(m)
    >>> [what_changes(s, strat.strata[0]) for s in strat.strata[1:]]
    ['p = 0: b transient', 'p = 1: period 1 → 2']
    """
    head = ", ".join(c.simplest() for c in stratum.equations) or "generic"
    here, there = stratum.decomposition, generic.decomposition
    if here is None or there is None:
        return f"{head}: pointwise (decompose each point)"
    label = here.chain.label
    changes = []
    newly = [s for s in here.transient if s not in set(there.transient)]
    back = [s for s in there.transient if s not in set(here.transient)]
    if newly:
        changes.append(f"{', '.join(label(s) for s in newly)} transient" if len(newly) <= 3 else f"{len(newly)} states transient")
    if back:
        changes.append(f"{', '.join(label(s) for s in back)} recurrent" if len(back) <= 3 else f"{len(back)} states recurrent")
    if sorted(here.periods) != sorted(there.periods):
        word = "period" if len(here.periods) == len(there.periods) == 1 else "periods"
        changes.append(f"{word} {', '.join(map(str, there.periods))} → {', '.join(map(str, here.periods))}")
    if len(here.classes) != len(there.classes):
        changes.append(f"{len(there.classes)} → {len(here.classes)} classes")
    if changes:
        return f"{head}: {'; '.join(changes)}"
    if _restricts(stratum, generic):
        return f"{head}: same structure and closed forms (an entry vanishes)"
    return f"{head}: same structure, other closed form"


def _restricts(stratum: Any, generic: Any) -> bool:
    """Whether the stratum's g*, v*, ρ, h and ψ are the generic closed forms with the stratum's
    substitution made (exactly: composed in the stratum's field; a generic denominator that vanishes
    identically there means they are not)."""
    here, there = stratum.decomposition, generic.decomposition
    F, G = there.chain.field, here.chain.field
    images = [stratum.substitution[p] if p in stratum.substitution else G.variable(p) for p in F.params]
    try:
        return all(F.compose(x, images, G) == y for key in ("g_star", "v_star", "rho", "h", "psi")
                   for x, y in zip(getattr(there, key), getattr(here, key)))
    except ZeroDivisionError:
        return False


# -- what is drawn ------------------------------------------------------------------------------------------
@dataclass
class _Mark:
    """One lower stratum as drawn: a line (``xy`` its points) or a point (one), its legend text, and its value
    written beside it when that differs from the generic form restricted (``value``, else empty)."""

    xy: list[tuple[float, float]]
    legend: str
    value: str = ""
    colour: str = "#444444"
    marker: str = "o"


@dataclass
class _Data:
    """Everything a strata picture draws, computed once (the picture may be laid out again at other sizes)."""

    names: list[str]
    symbol: str
    generic_legend: str
    image: Any = None
    curves: list[_Mark] = field(default_factory=list)
    points: list[_Mark] = field(default_factory=list)
    clipped: tuple[float, float] | None = None


def _value(stratum: Any, quantity: str, state: int, free: Sequence[Any] = ()) -> float | None:
    """The quantity on ``stratum`` at the values ``free`` of its free parameters, from its own closed form (the
    decomposition that holds on it: no decomposition a point); ``None`` at a pole."""
    from fractions import Fraction

    x = getattr(stratum.decomposition, quantity)[state]
    try:
        value = stratum.decomposition.field.evaluate(x, list(free)) if stratum.params else x
    except ZeroDivisionError:
        return None
    return float(Fraction(int(value.p), int(value.q)))


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


def _differing(strat: Any, quantity: str, state: int) -> set[int]:
    """The strata that carry a closed form of ``quantity[state]`` other than the generic one restricted: the
    largest stratum of each such case (a point on a line whose form holds there is the line's); every lower
    stratum when the result cannot say."""
    cases = getattr(strat, "cases", None)
    if cases is None:
        return set(range(1, len(strat.strata)))
    return {c.head for c in cases(quantity, state) if 0 not in c.members}


VALUE_CHARACTERS = 32
"""A value written in a picture is cut (with an ellipsis) past this many characters; the legend has it whole
up to twice that."""


def _value_text(strat: Any, k: int, quantity: str, state: int, symbol: str, limit: int = VALUE_CHARACTERS) -> str:
    dec = strat.strata[k].decomposition
    text = RegionPrinter.of_chain(dec.chain).text(getattr(dec, quantity)[state])
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{symbol} = {text}"


def _check(strat: Any, quantity: str, state: int) -> None:
    """A usage error for a picture that cannot be drawn: not one or two parameters, a state out of range, a
    quantity that is not a per-state vector."""
    if len(strat.params) not in (1, 2):
        raise UsageError(f"a picture of the parameter space needs one or two parameters, not {len(strat.params)}")
    if not isinstance(state, int) or not 0 <= state < strat.chain.n:
        raise UsageError(f"state {state!r} is not a state of the chain (it has {strat.chain.n})")
    if quantity not in SYMBOLS:
        raise UsageError(f"a strata picture draws one of the per-state quantities {', '.join(SYMBOLS)}, not {quantity!r}")


def _data(strat: Any, quantity: str, state: int, resolution: int) -> _Data:
    names = list(strat.params)
    symbol = f"{SYMBOLS[quantity]}({strat.chain.label(state)})"
    generic = strat.strata[0]
    data = _Data(names, symbol, f"{' and '.join(generic.where)}: generic" + ("" if len(names) == 1 else " (the heat map)"))
    differing = _differing(strat, quantity, state)
    if len(names) == 1:
        _data_1d(strat, data, quantity, state, resolution, differing)
    else:
        _data_2d(strat, data, quantity, state, max(20, resolution // 2), differing)
    return data


def _legend_text(strat: Any, k: int, quantity: str, state: int, symbol: str, differing: set[int]) -> tuple[str, str]:
    said = what_changes(strat.strata[k], strat.strata[0])
    if k not in differing or strat.strata[k].decomposition is None:
        return said, ""
    return f"{said}; {_value_text(strat, k, quantity, state, symbol, 2 * VALUE_CHARACTERS)}", \
        _value_text(strat, k, quantity, state, symbol)


_POINT_MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*", "<", ">")


def _data_1d(strat: Any, data: _Data, quantity: str, state: int, n: int, differing: set[int]) -> None:
    name = data.names[0]
    colours = iter(CLASS_COLOURS)
    for k, stratum in enumerate(strat.strata):
        if stratum.params:  # the open part: a curve of the closed form
            xy = []
            for x in _grid(n):
                if stratum.contains(strat.field, [x]):
                    v = _value(stratum, quantity, state, [x])
                    if v is not None:
                        xy.append((float(x), v))
            legend, value = (data.generic_legend, "") if k == 0 else _legend_text(strat, k, quantity, state, data.symbol, differing)
            data.curves.append(_Mark(xy, legend, value, next(colours, "#444444")))
    markers = iter(_POINT_MARKERS)
    for k, stratum in enumerate(strat.strata):
        if not stratum.params and stratum.decomposition is not None:
            v = _value(stratum, quantity, state)
            if v is not None:
                legend, value = _legend_text(strat, k, quantity, state, data.symbol, differing)
                data.points.append(_Mark([(to_float(stratum.substitution[name]), v)], legend, value,
                                         next(colours, "black"), next(markers, "o")))


def _data_2d(strat: Any, data: _Data, quantity: str, state: int, n: int, differing: set[int]) -> None:
    import numpy as np

    grid = _grid(n)
    image = np.full((n + 1, n + 1), np.nan)
    generic = strat.strata[0]
    for i, y in enumerate(grid):
        for j, x in enumerate(grid):
            if generic.contains(strat.field, [x, y]):
                v = _value(generic, quantity, state, [x, y])
                image[i, j] = np.nan if v is None else v
    data.image = image
    finite = image[np.isfinite(image)]
    if finite.size:
        low, high = np.percentile(finite, [2, 98])
        if finite.max() - finite.min() > 4 * (high - low) > 0:  # a pole: the extremes would flatten the map
            data.clipped = (float(low), float(high))
    colours = iter(CLASS_COLOURS[1:])
    markers = iter(_POINT_MARKERS)
    for k, stratum in enumerate(strat.strata[1:], start=1):
        if stratum.decomposition is None:
            continue
        legend, value = _legend_text(strat, k, quantity, state, data.symbol, differing)
        if len(stratum.params) == 1:  # a curve: its free parameter swept, the eliminated one substituted
            pts = [_substituted_point(stratum, {stratum.params[0]: t}) for t in _grid(n)]
            xy = [(float(p[data.names[0]]), float(p[data.names[1]])) for p in pts if p is not None]
            xy = [(a, b) for a, b in xy if 0 <= a <= 1 and 0 <= b <= 1]
            if xy:
                data.curves.append(_Mark(xy, legend, value, next(colours, "#444444")))
        elif not stratum.params:
            p = stratum.substitution
            data.points.append(_Mark([(float(p[data.names[0]]), float(p[data.names[1]]))], legend, value, "white",
                                     next(markers, "o")))


# -- drawing ------------------------------------------------------------------------------------------------
def plot_strata(strat: Any, quantity: str = "rho", state: int = 0, ax: "Axes | None" = None, *, resolution: int = 120,
                size: tuple[float, float] | None = None, dpi: float | None = None) -> "Axes":
    """The parameter space of a :class:`~exactpte.results.strata.StratifiedDecomposition` with one or two parameters.

    One parameter: the quantity's closed form over the valid region as a curve (one colour per
    stratum with a free parameter), the points where the structure or a solve changes marked.  Two
    parameters: a heat map of the quantity over the generic stratum (white elsewhere; colours clipped to the
    2nd-98th percentiles when a pole would flatten them, said on the colour bar), the curves and points of
    the lower strata drawn on top, inside the frame.  Every lower stratum is named in the legend by what
    differs there from the generic stratum (:func:`what_changes`: ``q = 0: b1 transient``, ``p = 1: period
    3 → 1``), and where its closed form is not the generic one restricted, its value is written on its line or
    beside its point and in its legend entry.  States are named by their labels.  A new figure uses
    matplotlib's constrained layout with the legend beneath the axes; ``size`` (inches) and ``dpi`` set it: a
    size too small to show it all is a :class:`~exactpte.errors.UsageError` naming the smallest that does.

    Returns the matplotlib ``Axes`` (as :func:`exactpte.plots.chains.draw` does); its ``.figure``
    is the Figure to save (or :func:`exactpte.plots.save` it).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import exactpte
    >>> m = exactpte.ParametricChain([["1-p", "p"], [1, 0]], [1, 0], params=["p"], labels=["a", "b"])
    >>> ax = plot_strata(exactpte.stratify(m), "g_star", 0)
    >>> sorted(ax.get_legend_handles_labels()[1])
    ['0 < p < 1: generic', 'p = 0: b transient', 'p = 1: period 1 → 2; g*(a) = 1']
    """
    _check(strat, quantity, state)
    data = _data(strat, quantity, state, resolution)
    if ax is not None:
        _draw(ax, data)
        return ax
    plt = pyplot()
    default = (7.5, 6.5) if len(data.names) == 2 else (7.5, 5.0)
    fig, drawn_ax = plt.subplots(figsize=size or default, dpi=dpi or 100, layout="constrained")
    drawn: Axes = drawn_ax
    with warnings.catch_warnings():  # too small a size: matplotlib warns that its layout collapsed; we say more
        warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
        _draw(drawn, data)
        readable = size is None or _readable(fig, drawn)
    if not readable:
        assert size is not None
        plt.close(fig)
        need = _smallest(data, size, dpi)
        raise UsageError(f"--size {size[0]:g},{size[1]:g} cannot hold the strata picture (its legend, colour bar and "
                         f"labels would be cut or overlap); the smallest size of these proportions that can is "
                         f"{need[0]:g},{need[1]:g}")
    return drawn


MIN_AXES_IN = 1.6
"""The plot area of a strata picture must be at least this many inches each way."""


def _readable(fig: Any, ax: "Axes") -> bool:
    """No text clipped or overlapping another, and a plot area of at least :data:`MIN_AXES_IN` each way."""
    from exactpte.plots.common import text_collisions

    pairs, clipped = text_collisions(fig)
    box = ax.get_position()
    width, height = fig.get_size_inches()
    return not pairs and not clipped and box.width * width >= MIN_AXES_IN and box.height * height >= MIN_AXES_IN


def _smallest(data: _Data, size: tuple[float, float], dpi: float | None) -> tuple[float, float]:
    """The smallest size of ``size``'s proportions (to a tenth of an inch, within 3 %) at which the picture is
    readable: growing factors tried until one is, then halved intervals."""
    def trial(factor: float) -> tuple[float, float]:
        return math.ceil(size[0] * factor * 10) / 10, math.ceil(size[1] * factor * 10) / 10

    def fits(factor: float) -> bool:
        plt = pyplot()
        fig, ax = plt.subplots(figsize=trial(factor), dpi=dpi or 100, layout="constrained")
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
            _draw(ax, data)
            ok = _readable(fig, ax)
        plt.close(fig)
        return ok

    low, high = 1.0, None
    for factor in (1.25, 1.6, 2.0, 2.5, 3.2, 4.0):
        if fits(factor):
            high = factor
            break
        low = factor
    if high is None:
        return trial(4.0)
    while high / low > 1.03:
        middle = (low * high) ** 0.5
        low, high = (low, middle) if fits(middle) else (middle, high)
    return trial(high)


def _draw(ax: "Axes", data: _Data) -> None:
    if len(data.names) == 1:
        _draw_1d(ax, data)
        ax.set_xlabel(data.names[0])
        ax.set_ylabel(data.symbol)
    else:
        _draw_2d(ax, data)
        ax.set_xlabel(data.names[0])
        ax.set_ylabel(data.names[1])
    ax.set_title(f"{data.symbol} by stratum")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=1, frameon=False)
    _write_values(ax, data)


def _draw_1d(ax: "Axes", data: _Data) -> None:
    for mark in data.curves:
        xs, ys = zip(*mark.xy) if mark.xy else ((), ())
        ax.plot(xs, ys, "-", color=mark.colour, lw=2, label=mark.legend)
    for mark in data.points:
        ax.plot([mark.xy[0][0]], [mark.xy[0][1]], mark.marker, color=mark.colour, mec="black", ms=8, zorder=5, ls="",
                label=mark.legend)
    ax.grid(alpha=0.3)
    ax.margins(x=0.05, y=0.1)


def _draw_2d(ax: "Axes", data: _Data) -> None:
    kwargs: dict[str, Any] = {}
    label = f"{data.symbol} on the generic stratum"
    if data.clipped is not None:
        kwargs = {"vmin": data.clipped[0], "vmax": data.clipped[1]}
        label += "\n(colours clipped to its 2nd–98th percentiles: a pole)"
    mesh = ax.imshow(data.image, origin="lower", extent=(0, 1, 0, 1), cmap="viridis", aspect="auto",
                     interpolation="nearest", **kwargs)
    ax.figure.colorbar(mesh, ax=ax, label=label, extend="both" if data.clipped is not None else "neither")
    ax.plot([], [], "s", color=mesh.cmap(0.6), label=data.generic_legend)
    for mark in data.curves:
        ax.plot(*zip(*mark.xy), "-", color=mark.colour, lw=2.5, label=mark.legend, zorder=4)
    for mark in data.points:
        ax.plot([mark.xy[0][0]], [mark.xy[0][1]], mark.marker, color=mark.colour, mec="black", ms=8, zorder=5, ls="",
                label=mark.legend)
    margin = 0.04  # the frame off the region: lines on p = 0 or q = 1 stay inside it
    ax.set_xlim(-margin, 1 + margin)
    ax.set_ylim(-margin, 1 + margin)


def _write_values(ax: "Axes", data: _Data) -> None:
    """Each differing stratum's value on its line (at a place along it) or beside its point, where no other
    text is (tried at several places; the legend has it in any case)."""
    fig: Any = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    taken = [t.get_window_extent(renderer) for t in ax.texts]
    frame = ax.bbox
    for mark in data.curves + data.points:
        if not mark.value:
            continue
        places = [mark.xy[0]] if len(mark.xy) == 1 else [mark.xy[int(len(mark.xy) * f)] for f in (0.5, 0.3, 0.7, 0.15, 0.85)]
        for x, y in places:
            for dx, dy, ha, va in ((6, 6, "left", "bottom"), (-6, 6, "right", "bottom"), (6, -6, "left", "top"),
                                   (-6, -6, "right", "top")):
                text = ax.annotate(mark.value, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va=va,
                                   fontsize=8, zorder=6, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": mark.colour
                                                               if mark.colour != "white" else "black", "lw": 0.8, "alpha": 0.9})
                box = text.get_window_extent(renderer)
                inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
                if inside and not any(box.overlaps(other) for other in taken):
                    taken.append(box)
                    break
                text.remove()
            else:
                continue
            break
