"""Aligning an answer given in another valid convention with the exact decomposition.

A decomposition is determined by the chain up to three choices the paper leaves open: the order of
the closed classes, which cyclic class of each class is phase 0, and the anchor ``a_{i,k}`` inside
each cyclic class (``subsec:anchor_gauge_basis``).  A candidate states its choices through its own
``classes`` (their order), ``cyclic_classes`` (each class's phases in cyclic order) and ``anchors``
(``[class, phase, state]`` triples in basis-column order, labels in the candidate's own terms);
:func:`read_convention` reads them whole and checks them against the chain's cyclic classes, and
:class:`Aligned` moves the exact answer into that convention before anything is compared:

- classes reordered and phases rotated permute the basis columns and ``θ`` (``b_{i,k}`` is fixed
  by the cyclic class ``C_{i,k}`` alone);
- other anchors ``A'`` change the gauge exactly: with ``w = Σ_c v*(a'_c) b_c`` (an element of
  ``K(P)``), ``v*' = v* - w``, ``g*' = g* + (I - P) w``, ``θ'_c = g*'(a'_c)``,
  ``ψ' = ψ + w - P∞ w`` and the hitting times are those of the new anchor set
  (``thm:wellposed``, ``thm:comparison_gain_bias``).

The change of gauge is done in exact arithmetic on the decomposition's numbers (then rounded once),
so an answer in another convention is judged exactly as strictly as one in exactpte's.

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("branching"))   # classes {0, 1} (d = 2), {2, 3, 4} (d = 3)
>>> conv, problem = read_convention({"classes": [[2, 3, 4], [0, 1]], "anchors": [[0, 0, 3], [0, 1, 4], [0, 2, 2],
...                                  [1, 0, 1], [1, 1, 0]]}, dec.structure, [s for _, _, s in dec.anchor_list])
>>> problem, conv.columns         # class 1 first, its phase 0 at state 3; then class 0 from state 1
(None, (3, 4, 2, 1, 0))
>>> read_convention({"anchors": [[0, 0, 3], [0, 1, 4], [0, 2, 2], [1, 0, 1], [7, 1, 0]]}, dec.structure, [0, 1, 2, 3, 4])[1]
'anchor [7, 1, 0]: class 7 is not a class label (0..1)'
>>> chain = exactpte.example("aperiodic")                      # one class {0, 1}: anchor 0 or 1
>>> conv, _ = read_convention({"anchors": [[0, 0, 1]]}, chain.structure, [0])
>>> moved = Aligned(exactpte.decompose(chain), conv)
>>> list(moved.vector("v_star")) == [float(x) for x in exactpte.decompose(chain, anchors=[1]).v_star]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from exactpte.model.to_float import to_floats
from exactpte.oracle.values import depth, nested

if TYPE_CHECKING:
    from exactpte.graph.structure import Structure
    from exactpte.results.decomposition import Decomposition

__all__ = ["Convention", "read_convention", "Aligned"]

GAUGE_KEYS = ("g_star", "v_star", "psi", "hitting_times")
"""The state vectors that depend on the anchors (``rho`` and ``h`` do not)."""


@dataclass(frozen=True)
class Convention:
    """The candidate's choices in the reference's terms.

    ``columns[j]``: the reference's basis column that is the candidate's column ``j``;
    ``anchors[c]``: the candidate's anchor in the reference's column ``c`` (the reference's own where
    the candidate gives none); ``own_anchors``: whether they differ from the reference's."""

    columns: tuple[int, ...]
    anchors: tuple[int, ...]
    own_anchors: bool = False

    @property
    def moves_columns(self) -> bool:
        """Whether the candidate's basis columns are in another order than the reference's."""
        return self.columns != tuple(range(len(self.columns)))


def _class_order(cand: dict[str, Any], S: Structure) -> list[int] | None:
    """The reference class of each of the candidate's classes (from ``classes``, else from
    ``cyclic_classes`` given per class), or None when the candidate orders no classes or its classes
    are not the chain's (judged by the structure findings)."""
    if "classes" in cand:
        groups = [set(c) for c in nested(cand["classes"], "classes", 2)]
    elif "cyclic_classes" in cand and depth(cand["cyclic_classes"]) == 3:
        groups = [set().union(*map(set, cyc)) for cyc in nested(cand["cyclic_classes"], "cyclic_classes", 3)]
    else:
        return None
    by_set = {frozenset(c): i for i, c in enumerate(S.classes)}
    order = [by_set.get(frozenset(g), -1) for g in groups]
    return order if sorted(order) == list(range(len(S.classes))) else None


def _phase_shifts(cand: dict[str, Any], S: Structure, order: list[int] | None) -> dict[int, int]:
    """``{reference class: shift}`` with the candidate's phase ``k`` the reference's phase ``k + shift``
    (mod the period), read from ``cyclic_classes`` given per class in cyclic order."""
    if "cyclic_classes" not in cand or depth(cand["cyclic_classes"]) != 3 or order is None:
        return {}
    shifts: dict[int, int] = {}
    for j, cyc in enumerate(nested(cand["cyclic_classes"], "cyclic_classes", 3)):
        i, d = order[j], S.periods[order[j]]
        phases = [S.phase_of[part[0]] if part and 0 <= part[0] < S.n else -1 for part in cyc]
        if len(phases) == d and all(S.class_of[p[0]] == i for p in cyc if p and 0 <= p[0] < S.n) and \
                all(ph == (k + phases[0]) % d for k, ph in enumerate(phases)):
            shifts[i] = phases[0]
    return shifts


def read_convention(cand: dict[str, Any], S: Structure, reference_anchors: Sequence[int]) -> tuple[Convention, str | None]:
    """The candidate's convention (its class order, phase labels and anchors), and the first problem
    with its ``anchors`` (a triple that is not ``[class, phase, state]`` with the state in that class's
    cyclic class, a label out of range, a cyclic class anchored twice or not at all, triples not in
    ``(class, phase)`` order, which is the basis-column order), or None.

    Labels the candidate fixes nowhere else are read from the anchors: the class labels must name
    the classes one-to-one and the phase labels of a class must be its cyclic order, rotated.  A
    convention the anchors cannot give falls back to the reference's anchors (and the problem is
    returned for the ``anchors`` finding).  The choices are those ``subsec:anchor_gauge_basis`` leaves
    open: ``a_{i,k} ∈ C_{i,k}`` for each ``(i, k)``, classes and phases labelled up to a permutation
    of the classes and a rotation ``k -> k + s_i mod d_i`` of each class's phases."""
    order = _class_order(cand, S)
    shifts = _phase_shifts(cand, S, order)
    if "anchors" in cand:
        triples = nested(cand["anchors"], "anchors", 2)
        read = _anchored(triples, S, order, dict(shifts))
        if isinstance(read, str):
            return _by_labels(S, order, shifts, reference_anchors), read
        columns, anchors = read
        return Convention(columns, anchors, list(anchors) != list(reference_anchors)), None
    return _by_labels(S, order, shifts, reference_anchors), None


def _by_labels(S: Structure, order: list[int] | None, shifts: dict[int, int], reference_anchors: Sequence[int]) -> Convention:
    """Columns in the candidate's ``(class, phase)`` order, the reference's anchors."""
    order = list(range(len(S.classes))) if order is None else order
    columns = tuple(S.column_of[(i, (k + shifts.get(i, 0)) % S.periods[i])] for i in order for k in range(S.periods[i]))
    return Convention(columns, tuple(reference_anchors))


def _anchored(triples: list[Any], S: Structure, order: list[int] | None,
              shifts: dict[int, int]) -> tuple[tuple[int, ...], tuple[int, ...]] | str:
    """Columns (in the order the anchors are listed) and anchors per reference column, from whole
    ``[class, phase, state]`` triples; a message naming the first triple that does not fit."""
    K = len(S.classes)
    labels: dict[int, int] = {} if order is None else dict(enumerate(order))
    columns: list[int] = []
    anchors: dict[int, int] = {}
    for t in triples:
        if len(t) != 3:
            return f"anchors are [class, phase, state] triples, got {list(t)}"
        j, k, s = t
        if not 0 <= s < S.n or S.class_of[s] < 0:
            return f"anchor {list(t)}: state {s} is not a state of a closed class"
        if not 0 <= j < K:
            return f"anchor {list(t)}: class {j} is not a class label (0..{K - 1})"
        i = labels.setdefault(j, S.class_of[s])
        if i != S.class_of[s]:
            return f"anchor {list(t)}: state {s} is not in the candidate's class {j}"
        d = S.periods[i]
        if not 0 <= k < d:
            return f"anchor {list(t)}: phase {k} is not a phase of a class of period {d} (0..{d - 1})"
        shift = shifts.setdefault(i, (S.phase_of[s] - k) % d)
        if (k + shift) % d != S.phase_of[s]:
            return (f"anchor {list(t)}: state {s} is not in the candidate's cyclic class ({j}, {k}) "
                    "(the phases of a class are its cyclic classes in cyclic order, from any start)")
        c = S.column_of[(i, S.phase_of[s])]
        if c in anchors:
            return f"anchor {list(t)}: the cyclic class ({j}, {k}) is anchored twice (states {anchors[c]} and {s})"
        anchors[c] = s
        columns.append(c)
    if len(set(labels.values())) != len(labels):
        return "anchors: two class labels name the same closed class"
    said = [(t[0], t[1]) for t in triples]
    if said != sorted(said):
        return (f"anchors are listed in basis-column order, which is (class, phase) order; got the labels {said[:6]}"
                + ("..." if len(said) > 6 else ""))
    if len(anchors) != S.N:
        return f"anchors: {len(anchors)} anchors for the chain's {S.N} cyclic classes (one state of each)"
    return tuple(columns), tuple(anchors[c] for c in range(S.N))


class Aligned:
    """The exact decomposition moved into the candidate's convention, as floats (each computed once).

    Other anchors ``A'`` change the gauge by ``w = Σ_c v*(a'_c) b_c ∈ K(P)``: ``v*' = v* - w`` is zero at
    ``A'`` (``b_c(a'_{c'}) = [c = c']``), ``g*' = g* + (I - P) w`` keeps ``r = g*' + (I - P) v*'``
    (``thm:wellposed``), ``ψ' = ψ + w - P∞ w`` keeps ``g*' = ρ + (I - P) ψ'`` and ``P∞ ψ' = 0``
    (``thm:comparison_gain_bias``); ``ρ``, ``h`` and ``b`` do not move."""

    def __init__(self, dec: Decomposition, convention: Convention) -> None:
        self.dec, self.convention = dec, convention
        self._w: list[Any] | None = None
        self._cache: dict[str, np.ndarray] = {}

    def _shift(self) -> list[Any]:
        """``w = Σ_c v*(a'_c) b_c``: the element of ``K(P)`` between the two gauges (exact)."""
        if self._w is None:
            v, zero = self.dec.v_star, self.dec.field.zero
            at = [v[a] for a in self.convention.anchors]
            self._w = [sum((at[c] * b for c, b in row.items()), zero) for row in self.dec.basis_sparse]
        return self._w

    def _exact(self, key: str) -> Sequence[Any]:
        """``key`` in the candidate's anchors (exact)."""
        dec = self.dec
        if key == "hitting_times":
            from exactpte.solves.evaluation import hitting_times

            return hitting_times(dec.chain, list(self.convention.anchors))
        w = self._shift()
        if key == "v_star":
            return [x - y for x, y in zip(dec.v_star, w)]
        if key == "psi":
            return [p + x - y for p, x, y in zip(dec.psi, w, dec.P_inf_apply(w))]
        Pw = dec.chain.matvec(w)
        return [g + x - y for g, x, y in zip(dec.g_star, w, Pw)]  # g_star

    def vector(self, key: str) -> np.ndarray:
        """A state vector in the candidate's convention (the reference's own when nothing moves it)."""
        if key not in self._cache:
            moved = key in GAUGE_KEYS and self.convention.own_anchors
            self._cache[key] = to_floats(self._exact(key) if moved else getattr(self.dec, key))
        return self._cache[key]

    def basis(self) -> np.ndarray:
        """``b`` with its columns in the candidate's order."""
        dec = self.dec
        full = np.array([to_floats(row) for row in dec.basis]).reshape(dec.n, dec.N)
        return full[:, list(self.convention.columns)]

    def theta(self) -> np.ndarray:
        """``θ_c = g*(a_c)`` in the candidate's anchors and column order."""
        if not self.convention.own_anchors:
            theta = to_floats(self.dec.theta)
        else:
            g = self.vector("g_star")
            theta = np.array([g[a] for a in self.convention.anchors])
        return theta[list(self.convention.columns)]
