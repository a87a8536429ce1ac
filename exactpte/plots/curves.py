"""Pictures of numbers over runs: estimator error curves and a sweep's coverage histograms (matplotlib)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from exactpte.plots.common import pyplot

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["plot_errors", "plot_coverage"]


def plot_errors(curves: Mapping[str, Sequence[tuple[float, float]]], ax: "Axes | None" = None, *, ylabel: str = "error",
                logy: bool = True) -> "Axes":
    """Estimator error curves: ``{"E_v": [(samples, error), ...], ...}`` on log axes; returns the ``Axes``.

    Examples
    --------
    >>> ax = plot_errors({"E_v": [(100, 1.0), (400, 0.5), (1600, 0.25)]})   # doctest: +SKIP
    """
    plt = pyplot()
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
    plt = pyplot()
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
