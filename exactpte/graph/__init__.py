"""The support graph: which entries are positive, and what that alone decides.

Classes, transient states, periods and cyclic classes depend on the support graph only, so they
are computed here with no numbers at all, one algorithm per module:

- :mod:`~exactpte.graph.support` — the graph as CSR arrays (no SciPy for small graphs);
- :mod:`~exactpte.graph.plain` — a small graph's structure in plain Python (no numpy, no SciPy);
- :mod:`~exactpte.graph.components` — strongly connected components, closed ones, their order;
- :mod:`~exactpte.graph.periods` — BFS levels, periods and cyclic classes;
- :mod:`~exactpte.graph.order` — a fill-reducing order for the transient block;
- :mod:`~exactpte.graph.structure` — :class:`Structure` (classes, periods, cyclic classes,
  transient blocks, anchors) and :func:`chain_structure`;
- :mod:`~exactpte.graph.view` — the structure keys every result shares.
"""

import importlib
from typing import TYPE_CHECKING, Any

# name -> defining module; loaded on first use (PEP 562), so that importing one module of the package
# (graph.structure on the exact route) does not import numpy through the others
_LAZY = {
    "Structure": "structure", "chain_structure": "structure", "graph_structure": "structure",
    "plain_structure": "structure",
    "strongly_connected_components": "components", "closed_components": "components",
    "reverse_topological_components": "components",
    "bfs_levels": "periods", "period_and_phases": "periods", "closed_class_phases": "periods",
    "band_order": "order",
    "SMALL_GRAPH": "support", "HasSupportGraph": "support", "SupportGraph": "support", "csr_graph": "support",
    "support_matrix": "support",
}

__all__ = ["Structure", "chain_structure", "graph_structure", "plain_structure", "strongly_connected_components",
           "closed_components", "reverse_topological_components", "bfs_levels", "period_and_phases",
           "closed_class_phases", "band_order", "SMALL_GRAPH", "HasSupportGraph", "SupportGraph", "csr_graph",
           "support_matrix"]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


if TYPE_CHECKING:  # pragma: no cover - the same names for type checkers
    from exactpte.graph.components import closed_components, reverse_topological_components, strongly_connected_components
    from exactpte.graph.order import band_order
    from exactpte.graph.periods import bfs_levels, closed_class_phases, period_and_phases
    from exactpte.graph.structure import Structure, chain_structure, graph_structure, plain_structure
    from exactpte.graph.support import SMALL_GRAPH, HasSupportGraph, SupportGraph, csr_graph, support_matrix
