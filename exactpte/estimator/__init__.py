"""Sample-based estimator of the decomposition (the paper's Section 5 and its appendix algorithms).

Float (numpy) code, separate from the exact core; the exact decomposition is its oracle.

- :mod:`.generative` — generative models: from an exact chain (vectorised sampling),
  from a user callback; a query counter per stage.
- :mod:`.algorithms` — the five algorithms: support learning, phase-offset weights,
  the learned gauge map, projected stochastic approximation, anchor-residual reconstruction.
- :mod:`.pipeline` — the end-to-end estimator, the plug-in and average-only baselines,
  and the metrics ``E_g``, ``E_v``, ``E_J(H)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from exactpte.estimator.algorithms import (
    GaugeMap,
    LearnedStructure,
    build_gauge,
    estimate_weights,
    learn_structure,
    paper_step_size,
    projected_sa,
    reconstruct_profile,
)
from exactpte.estimator.generative import CallbackModel, GenerativeModel, TableModel
from exactpte.estimator.pipeline import Estimate, Truth, avg_only, estimate, metrics, plug_in, truth_of

__all__ = [
    "GenerativeModel",
    "TableModel",
    "CallbackModel",
    "LearnedStructure",
    "GaugeMap",
    "learn_structure",
    "estimate_weights",
    "build_gauge",
    "projected_sa",
    "reconstruct_profile",
    "paper_step_size",
    "Estimate",
    "Truth",
    "truth_of",
    "estimate",
    "plug_in",
    "avg_only",
    "metrics",
    "plot_errors",
]


def plot_errors(curves: Mapping[str, Sequence[tuple[float, float]]], ax: Any = None, **kwargs: Any) -> Any:
    """Estimator error curves ``{"E_v": [(samples, error), ...]}`` on log axes
    (:func:`exactpte.plots.curves.plot_errors`; needs matplotlib)."""
    from exactpte.plots.curves import plot_errors as _plot

    return _plot(curves, ax=ax, **kwargs)
