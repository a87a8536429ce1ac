"""Pictures of a parametric chain's parameter space: its strata and a quantity over them (matplotlib)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from exactpte.errors import UsageError
from exactpte.fields.rational_functions import RationalFunction
from exactpte.model.to_float import to_float
from exactpte.plots.common import CLASS_COLOURS, pyplot

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["plot_strata"]


def _stratum_label(stratum: Any) -> str:
    """``periods 3, 1, 2 classes`` (or ``pointwise``): the stratum's structure on its own."""
    d = stratum.decomposition
    if d is None:
        return "pointwise"
    periods = ", ".join(map(str, d.periods))
    return f"period{'s' if len(d.periods) != 1 else ''} {periods}, {len(d.classes)} class{'es' if len(d.classes) != 1 else ''}"


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


def _value(strat: Any, point: dict[str, Any], quantity: str, state: int) -> float | None:
    """The quantity at a point (``None`` outside the valid region)."""
    from fractions import Fraction

    from exactpte.errors import GenericRegionError

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


def plot_strata(strat: Any, quantity: str = "rho", state: int = 0, ax: "Axes | None" = None, *, resolution: int = 120,
                size: tuple[float, float] | None = None, dpi: float | None = None) -> "Axes":
    """The parameter space of a :class:`~exactpte.results.strata.StratifiedDecomposition` with one or two parameters.

    One parameter: the quantity's closed form over the valid region as a curve (one colour per
    stratum with a free parameter), the points where the structure or a solve changes marked.  Two
    parameters: a heat map of the quantity over the generic stratum (white elsewhere), the curves
    and points of the lower strata drawn on top.  Every lower stratum is named in the legend by
    what differs there from the generic stratum (:func:`what_changes`: ``q = 0: b1 transient``,
    ``p = 1: period 3 → 1``); conditions every stratum shares (the region's inequalities, implied
    inequations) are left out of titles.  A new figure uses matplotlib's constrained layout with the
    legend beneath the axes, so nothing is cut off; ``size`` (inches) and ``dpi`` set it.

    Returns the matplotlib ``Axes`` (as :func:`exactpte.plots.chains.draw` does); its ``.figure``
    is the Figure to save (or :func:`exactpte.plots.save` it).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import exactpte
    >>> m = exactpte.ParametricChain([["1-p", "p"], [1, 0]], [1, 0], params=["p"], labels=["a", "b"])
    >>> ax = plot_strata(exactpte.stratify(m), "g_star", 0)
    >>> sorted(ax.get_legend_handles_labels()[1])
    ['0 < p < 1: generic', 'p = 0: b transient', 'p = 1: period 1 → 2']
    """
    plt = pyplot()
    names = list(strat.params)
    if len(names) not in (1, 2):
        raise UsageError(f"a picture of the parameter space needs one or two parameters, not {len(names)}")
    if not 0 <= state < strat.chain.n:
        raise UsageError(f"state {state} is not a state of the chain (it has {strat.chain.n})")
    if ax is None:
        default = (7.5, 6.5) if len(names) == 2 else (7.5, 5.0)
        ax = plt.subplots(figsize=size or default, dpi=dpi or 100, layout="constrained")[1]
    symbol = f"{quantity}({strat.chain.label(state)})"
    if len(names) == 1:
        _strata_1d(strat, names[0], quantity, state, ax, resolution)
        ax.set_xlabel(names[0])
        ax.set_ylabel(symbol)
    else:
        _strata_2d(strat, names, quantity, state, ax, max(20, resolution // 2))
        ax.set_xlabel(names[0])
        ax.set_ylabel(names[1])
    ax.set_title(f"{symbol} by stratum")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=1, frameon=False)
    return ax


_POINT_MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*", "<", ">")


def _strata_1d(strat: Any, name: str, quantity: str, state: int, ax: "Axes", n: int) -> None:
    colours = iter(CLASS_COLOURS)
    generic = strat.strata[0]
    for stratum in strat.strata:
        if stratum.params:  # the open part: a curve of the closed form
            xs, ys = [], []
            for x in _grid(n):
                if stratum.contains(strat.field, [x]):
                    v = _value(strat, {name: x}, quantity, state)
                    if v is not None:
                        xs.append(float(x))
                        ys.append(v)
            label = f"{' and '.join(stratum.where)}: generic" if stratum is generic else what_changes(stratum, generic)
            ax.plot(xs, ys, "-", color=next(colours, "#444444"), lw=2, label=label)
    markers = iter(_POINT_MARKERS)
    for stratum in strat.strata:
        if not stratum.params and stratum.decomposition is not None:
            point = {k: v for k, v in stratum.substitution.items()}
            v = _value(strat, point, quantity, state)
            if v is not None:
                ax.plot([to_float(point[name])], [v], next(markers, "o"), color=next(colours, "black"), mec="black", ms=8,
                        zorder=5, clip_on=False, ls="", label=what_changes(stratum, generic))
    ax.grid(alpha=0.3)
    ax.margins(x=0.04, y=0.08)


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
    ax.figure.colorbar(mesh, ax=ax, label=f"{quantity}({strat.chain.label(state)}) on the generic stratum")
    ax.plot([], [], "s", color=mesh.cmap(0.6), label=f"{' and '.join(generic.where)}: generic (the heat map)")
    colours = iter(CLASS_COLOURS[1:])
    markers = iter(_POINT_MARKERS)
    for stratum in strat.strata[1:]:
        if stratum.decomposition is None:
            continue
        if len(stratum.params) == 1:  # a curve: its free parameter swept, the eliminated one substituted
            pts = [_substituted_point(stratum, {stratum.params[0]: t}) for t in _grid(n)]
            xy = [(float(p[names[0]]), float(p[names[1]])) for p in pts if p is not None]
            xy = [(a, b) for a, b in xy if 0 <= a <= 1 and 0 <= b <= 1]
            if xy:
                ax.plot(*zip(*xy), "-", color=next(colours, "#444444"), lw=3, clip_on=False, label=what_changes(stratum, generic))
        elif not stratum.params:
            p = stratum.substitution
            ax.plot([float(p[names[0]])], [float(p[names[1]])], next(markers, "o"), color="white", mec="black", ms=8, zorder=5,
                    clip_on=False, ls="", label=what_changes(stratum, generic))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
