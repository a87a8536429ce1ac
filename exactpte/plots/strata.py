"""Pictures of a parametric chain's parameter space: its strata and a quantity over them (matplotlib)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import flint

from exactpte.errors import UsageError
from exactpte.fields.rational_functions import RationalFunction, RationalFunctionField
from exactpte.model.to_float import to_float
from exactpte.plots.common import CLASS_COLOURS, pyplot

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["plot_strata"]


# What the pictures read of a StratifiedDecomposition (exactpte.results.strata, which imports this module
# to draw itself: structural types here keep the dependence one way).
class _Shape(Protocol):
    @property
    def periods(self) -> tuple[int, ...]: ...

    @property
    def classes(self) -> tuple[tuple[int, ...], ...]: ...


class _Stratum(Protocol):
    @property
    def decomposition(self) -> _Shape | None: ...

    @property
    def params(self) -> tuple[str, ...]: ...

    @property
    def substitution(self) -> Mapping[str, Any]: ...  # RationalFunction values, fmpq once no parameter is free

    @property
    def where(self) -> list[str]: ...

    def contains(self, field_: RationalFunctionField, values: Sequence[flint.fmpq]) -> bool: ...


class _Strata(Protocol):
    @property
    def params(self) -> tuple[str, ...]: ...

    @property
    def field(self) -> RationalFunctionField: ...

    @property
    def strata(self) -> Sequence[_Stratum]: ...

    def at(self, point: Mapping[str, Any]) -> object: ...


def _stratum_label(stratum: _Stratum) -> str:
    """``periods (3, 1), 2 classes`` (or ``pointwise``)."""
    d = stratum.decomposition
    if d is None:
        return "pointwise"
    periods = ", ".join(map(str, d.periods))
    return f"period{'s' if len(d.periods) != 1 else ''} {periods}, {len(d.classes)} class{'es' if len(d.classes) != 1 else ''}"


def _value(strat: _Strata, point: Mapping[str, Any], quantity: str, state: int) -> float | None:
    """The quantity at a point (``None`` outside the valid region)."""
    from fractions import Fraction

    from exactpte.errors import GenericRegionError

    try:
        x = getattr(strat.at(point), quantity)[state]
    except (GenericRegionError, ZeroDivisionError):
        return None
    return float(Fraction(int(x.p), int(x.q)))


def _grid(n: int) -> list[flint.fmpq]:
    return [flint.fmpq(k, n) for k in range(n + 1)]


def _substituted_point(stratum: _Stratum, free: dict[str, Any]) -> dict[str, Any] | None:
    """The full parameter point of a stratum from values of its free parameters (``None`` at a pole)."""
    point = dict(free)
    try:
        for name, value in stratum.substitution.items():
            point[name] = value.evaluate([free[p] for p in stratum.params]) if isinstance(value, RationalFunction) else value
    except ZeroDivisionError:
        return None
    return point


def plot_strata(strat: _Strata, quantity: str = "rho", state: int = 0, ax: "Axes | None" = None, *, resolution: int = 120) -> "Axes":
    """The parameter space of a :class:`~exactpte.results.strata.StratifiedDecomposition` with one or two parameters.

    One parameter: the quantity's closed form over the valid region as a curve (one colour per
    stratum with a free parameter), the points where the structure or a solve changes marked and
    labelled with their periods and classes.  Two parameters: a heat map of the quantity over the
    valid region (white outside it), the curves and points of the lower strata drawn on top, each
    labelled with its periods and classes.
    """
    plt = pyplot()
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


def _strata_1d(strat: _Strata, name: str, quantity: str, state: int, ax: "Axes", n: int) -> None:
    colours = iter(CLASS_COLOURS)
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
            x_point = to_float(point[name])
            v = _value(strat, point, quantity, state)
            if v is not None:
                ax.plot([x_point], [v], "o", color="black", ms=7, zorder=5)
                ax.annotate(f"{' and '.join(stratum.where)}\n{_stratum_label(stratum)}", (x_point, v), textcoords="offset points",
                            xytext=(6, 8), fontsize=8)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)


def _strata_2d(strat: _Strata, names: list[str], quantity: str, state: int, ax: "Axes", n: int) -> None:
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
    colours = iter(CLASS_COLOURS[1:])
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
