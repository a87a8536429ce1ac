"""The structure of a result, read through its ``structure``, ``chain`` and ``anchors``.

Shared by every result kind (the exact :class:`~exactpte.Decomposition`, the
:class:`~exactpte.certified.CertifiedDecomposition`) and by :mod:`exactpte.plots.chains`, so
it depends on :mod:`exactpte.graph.structure` only: the structure keys of the JSON contract
(:func:`structure_dict`) are written here, once, for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Union

from exactpte.graph.structure import Structure

__all__ = ["StructureShortcuts", "StructureView", "Labelled", "structure_dict", "anchor_list", "Anchors", "AnchorSpec"]

Anchors = tuple[tuple[int, ...], ...]
"""``anchors[i][k]``: the anchor state ``a_{i,k}`` of the cyclic class ``C_{i,k}``."""

AnchorSpec = Union[None, Sequence[int], Sequence[Sequence[int]], Mapping[tuple[int, int], int]]
"""Anchors as a user gives them: ``None`` (canonical), per-class groups, a flat list in
``(class, phase)`` order, or ``{(i, k): state}`` (:meth:`~exactpte.graph.structure.Structure.validate_anchors`)."""


class Labelled(Protocol):
    """What the structure view reads of a chain: its state labels (a :class:`~exactpte.Chain` has them)."""

    @property
    def labels(self) -> tuple[str, ...] | None:
        """The display names of the states, or ``None``."""


class StructureView(Protocol):
    """Anything with a chain, its :class:`~exactpte.graph.structure.Structure` and anchors: every result kind."""

    @property
    def chain(self) -> Labelled:
        """The chain (its ``labels`` are read)."""

    @property
    def structure(self) -> Structure:
        """The chain's structure."""

    @property
    def anchors(self) -> Anchors:
        """``anchors[i][k] = a_{i,k}``."""


class StructureShortcuts:
    """The structure of a result read through ``structure``, ``chain`` and ``anchors`` (shared by the
    exact :class:`~exactpte.Decomposition` and :class:`~exactpte.certified.CertifiedDecomposition`).

    Examples
    --------
    >>> import exactpte
    >>> dec = exactpte.decompose(exactpte.example("periodic"))
    >>> dec.N == sum(dec.periods) == len(dec.anchor_list)      # N = sum_i d_i = dim K(P)
    True
    """

    chain: Labelled
    structure: Structure
    anchors: Anchors

    @property
    def n(self) -> int:
        """Number of states."""
        return self.structure.n

    @property
    def classes(self) -> tuple[tuple[int, ...], ...]:
        """Closed classes ``F_i`` (sorted states; ordered by smallest state)."""
        return self.structure.classes

    @property
    def periods(self) -> tuple[int, ...]:
        """Period ``d_i`` of every closed class."""
        return self.structure.periods

    @property
    def cyclic_classes(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``cyclic_classes[i][k]``: the states of ``C_{i,k}``."""
        return self.structure.cyclic_classes

    @property
    def transient(self) -> tuple[int, ...]:
        """The transient states."""
        return self.structure.transient

    @property
    def N(self) -> int:
        """``N = sum_i d_i = dim K(P)``."""
        return self.structure.N

    @property
    def anchor_list(self) -> list[tuple[int, int, int]]:
        """Anchors as ``(class, phase, state)`` in basis-column order."""
        return anchor_list(self.anchors)


def anchor_list(anchors: Anchors) -> list[tuple[int, int, int]]:
    """``(class, phase, state)`` for every anchor, in basis-column order.

    Examples
    --------
    >>> anchor_list(((0, 3), (5,)))
    [(0, 0, 0), (0, 1, 3), (1, 0, 5)]
    """
    return [(i, k, s) for i, group in enumerate(anchors) for k, s in enumerate(group)]


def structure_dict(result: StructureView) -> dict[str, Any]:
    """The structure keys of the JSON contract (``n``, ``labels``, ``classes``, ``transient``, ``periods``,
    ``cyclic_classes``, ``anchors``), exact, for any result kind.

    Examples
    --------
    >>> import exactpte
    >>> d = structure_dict(exactpte.decompose(exactpte.example("periodic")))
    >>> d["periods"], d["anchors"], sum(map(len, d["classes"])) + len(d["transient"]) == d["n"]
    ([2], [[0, 0, 0], [0, 1, 1]], True)
    """
    S = result.structure
    labels = result.chain.labels
    return {
        "n": S.n,
        "labels": list(labels) if labels is not None else None,
        "classes": [list(c) for c in S.classes],
        "transient": list(S.transient),
        "periods": list(S.periods),
        "cyclic_classes": [[list(ck) for ck in cyc] for cyc in S.cyclic_classes],
        "anchors": [list(a) for a in anchor_list(result.anchors)],
    }
