"""The support graph: which entries are positive, and what that alone decides.

Classes, transient states, periods and cyclic classes depend on the support graph only, so they
are computed here with no numbers at all, one algorithm per module:

- :mod:`~exactpte.graph.support` — the graph as CSR arrays (no SciPy for small graphs);
- :mod:`~exactpte.graph.components` — strongly connected components, closed ones, their order;
- :mod:`~exactpte.graph.periods` — BFS levels, periods and cyclic classes;
- :mod:`~exactpte.graph.order` — a fill-reducing order for the transient block;
- :mod:`~exactpte.graph.structure` — :class:`Structure` (classes, periods, cyclic classes,
  transient blocks, anchors) and :func:`chain_structure`;
- :mod:`~exactpte.graph.view` — the structure keys every result shares.
"""

from exactpte.graph.components import closed_components, reverse_topological_components, strongly_connected_components
from exactpte.graph.order import band_order
from exactpte.graph.periods import bfs_levels, closed_class_phases, period_and_phases
from exactpte.graph.structure import Structure, chain_structure, graph_structure
from exactpte.graph.support import SMALL_GRAPH, HasSupportGraph, SupportGraph, csr_graph, support_matrix

__all__ = ["Structure", "chain_structure", "graph_structure", "strongly_connected_components", "closed_components",
           "reverse_topological_components", "bfs_levels", "period_and_phases", "closed_class_phases", "band_order",
           "SMALL_GRAPH", "HasSupportGraph", "SupportGraph", "csr_graph", "support_matrix"]
