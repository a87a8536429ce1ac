"""The support graph as CSR arrays: a scipy-compatible view that needs no SciPy for small graphs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast, runtime_checkable

if TYPE_CHECKING:  # scipy loads only for graphs past SMALL_GRAPH edges (or when a caller asks scipy for more);
    # numpy when a graph is built (importing this module costs neither: graph.plain's route needs neither)
    import numpy as np
    import numpy.typing as npt
    import scipy.sparse as sp

IntArray: TypeAlias = "npt.NDArray[np.integer[Any]]"
"""A 1-d array of states, indices, labels or levels (int32 or int64: scipy's csgraph gives int32 labels)."""

BoolArray: TypeAlias = "npt.NDArray[np.bool_]"
"""A 1-d boolean mask (per state or per SCC label)."""

__all__ = ["IntArray", "BoolArray", "SMALL_GRAPH", "SupportGraph", "HasSupportGraph", "as_scipy", "is_small", "csr_graph", "support_matrix", "edge_sources"]

SMALL_GRAPH = 20_000
"""Graphs with at most this many edges are analysed in plain Python (no SciPy import: a small chain's
``exactpte decompose`` does not pay SciPy's start-up); larger ones with scipy.sparse.csgraph."""


class SupportGraph:
    """A square 0/1 CSR graph (``indptr``, ``indices``) standing in for a scipy CSR matrix: the
    structure analysis reads its arrays directly; anything else (``graph[rows]``, ``tocoo()``,
    ``toarray()``, ``@``) goes to the scipy matrix, built (and SciPy imported) on first use."""

    def __init__(self, n: int, indptr: "npt.ArrayLike", indices: "npt.ArrayLike") -> None:
        import numpy as np

        self.shape = (n, n)
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int64)  # (no copy for an int64 array or array('q'))
        self._csr: sp.csr_matrix | None = None

    @property
    def nnz(self) -> int:
        """Number of edges."""
        return len(self.indices)

    @property
    def small(self) -> bool:
        """Whether the graph is analysed without SciPy (:data:`SMALL_GRAPH`)."""
        return self.nnz <= SMALL_GRAPH

    def scipy(self) -> "sp.csr_matrix":
        """The scipy CSR matrix (float64 ones), built once."""
        if self._csr is None:
            import numpy as np
            import scipy.sparse as sp

            self._csr = sp.csr_matrix((np.ones(len(self.indices)), self.indices, self.indptr), shape=self.shape)
        return self._csr

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_csr", "shape", "indptr", "indices"):
            raise AttributeError(name)
        return getattr(self.scipy(), name)

    def __getitem__(self, key: Any) -> Any:
        return self.scipy()[key]

    def __matmul__(self, other: Any) -> Any:
        return self.scipy() @ other

    def __rmatmul__(self, other: Any) -> Any:
        return other @ self.scipy()

    def __repr__(self) -> str:
        return f"SupportGraph(n={self.shape[0]}, nnz={self.nnz})"


def as_scipy(graph: "SupportGraph | sp.csr_matrix") -> "sp.csr_matrix":
    """The graph as a scipy CSR matrix (a :class:`SupportGraph` builds it on first use)."""
    return graph.scipy() if isinstance(graph, SupportGraph) else graph


def is_small(graph: "SupportGraph | sp.csr_matrix") -> bool:
    """Whether the graph is small enough to be walked in plain Python (no SciPy import)."""
    return isinstance(graph, SupportGraph) and graph.small


@runtime_checkable
class HasSupportGraph(Protocol):
    """Anything that offers its support graph as a scipy CSR matrix (a chain does)."""

    @property
    def support_graph(self) -> "sp.csr_matrix":
        """The support graph: a square scipy CSR matrix, nonzero where a transition is possible."""


def csr_graph(n: int, indptr: "npt.ArrayLike", indices: "npt.ArrayLike") -> "sp.csr_matrix":
    """The graph on ``0..n-1`` whose state ``s`` has the successors ``indices[indptr[s]:indptr[s+1]]``,
    as a :class:`SupportGraph`: its arrays are read directly (``indices`` is shared, not copied), and
    it behaves as a scipy CSR 0/1 matrix otherwise (``.scipy()`` gives that matrix, float64 entries,
    built on first use), so a small chain's structure never imports SciPy.

    Examples
    --------
    >>> import numpy as np
    >>> csr_graph(2, [0, 1, 2], np.array([1, 0])).toarray().tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    return cast("sp.csr_matrix", SupportGraph(n, indptr, indices))


def support_matrix(succ: Sequence[Sequence[int]]) -> "sp.csr_matrix":
    """The support graph of successor lists as a scipy CSR 0/1 matrix (:func:`csr_graph`)."""
    import numpy as np

    n = len(succ)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(s) for s in succ], out=indptr[1:])
    indices = np.fromiter((j for s in succ for j in s), dtype=np.int64, count=int(indptr[-1]))
    return SupportGraph(n, indptr, indices).scipy()


def edge_sources(graph: "sp.csr_matrix") -> IntArray:
    """The source state of every stored edge (``graph.indices`` holds the targets)."""
    import numpy as np

    return np.repeat(np.arange(graph.shape[0]), np.diff(graph.indptr))


