"""Pictures (matplotlib, the ``plot`` extra, imported on first use).

- :mod:`~exactpte.plots.chains` — a chain's support graph: classes, cyclic classes, anchors;
- :mod:`~exactpte.plots.strata` — a parametric chain's strata and a quantity over them;
- :mod:`~exactpte.plots.curves` — estimator error curves and sweep coverage;
- :mod:`~exactpte.plots.common` — matplotlib on first use, class colours, :func:`save`.
"""

from exactpte.plots.chains import draw, layout
from exactpte.plots.common import save
from exactpte.plots.curves import plot_coverage, plot_errors
from exactpte.plots.strata import plot_strata

__all__ = ["draw", "layout", "plot_errors", "plot_coverage", "plot_strata", "save"]
