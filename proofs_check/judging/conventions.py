"""Conventions of a decomposition, and moving a claim between them exactly.

A decomposition is determined by the chain up to three choices, none of which the paper fixes:
the order of the closed classes, which cyclic class of each class is phase 0, and the anchor
``a_{i,k}`` inside each cyclic class.  exactpte's own convention (classes by smallest state,
phase 0 holding the class's smallest state, the smallest state of each cyclic class as anchor)
is one of them; every check judges a claim in the claim's own convention, and this module maps a
claim into another one when something must be compared with a fixed convention (exactpte's
certified cross-check, :mod:`proofs_check.checks.certified`).

- :func:`relabel` reorders the classes and rotates phases (columns, ``theta``, per-class keys follow);
- :func:`canonical` relabels into classes by smallest state with phase 0 holding the smallest state;
- :func:`reanchor` moves ``b``, ``v*``, ``g*``, ``theta`` (and ``psi``) to other anchors by the exact
  change of gauge ``v*' = v* - B' v*(A')`` with ``B' = b (b[A', :])^{-1}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import flint

from exactpte import MarkovRewardProcess

from proofs_check.judging.claims import Claimed

T = TypeVar("T")  # a per-class entry (a number, or a class's distribution)

__all__ = ["relabel", "canonical", "reanchor", "canonical_order"]

ZERO = flint.fmpq(0)


def relabel(c: Claimed, class_order: Sequence[int], shifts: Sequence[int]) -> Claimed:
    """The same decomposition with class ``j`` the claim's class ``class_order[j]`` and its phase ``k``
    the claim's phase ``k + shifts[j] mod d``; basis columns and ``theta`` stay in ``(class, phase)``
    order, per-class keys follow the classes."""
    col_of = {(i, k): j for j, (i, k, _) in enumerate(c.anchors)}
    order: list[tuple[int, int, int]] = []  # new (class, phase, old column)
    for j, i in enumerate(class_order):
        d = c.periods[i]
        for k in range(d):
            order.append((j, k, col_of[(i, (k + shifts[j]) % d)]))
    anchors = tuple((j, k, c.anchors[old][2]) for j, k, old in order)
    cols = [old for _, _, old in order]
    cyclic = tuple(tuple(c.cyclic_classes[i][(k + shifts[j]) % c.periods[i]] for k in range(c.periods[i]))
                   for j, i in enumerate(class_order))

    def per_class(v: tuple[T, ...] | None) -> tuple[T, ...] | None:
        return None if v is None else tuple(v[i] for i in class_order)

    return c.replace(
        classes=tuple(c.classes[i] for i in class_order),
        periods=tuple(c.periods[i] for i in class_order),
        cyclic_classes=cyclic,
        anchors=anchors,
        basis=tuple(tuple(row[o] for o in cols) for row in c.basis),
        theta=tuple(c.theta[o] for o in cols),
        stationary=per_class(c.stationary),
        class_gain=per_class(c.class_gain),
        absorption=None if c.absorption is None else tuple(tuple(row[i] for i in class_order) for row in c.absorption),
    )


def canonical_order(c: Claimed) -> tuple[list[int], list[int]]:
    """``(class_order, shifts)`` for :func:`relabel` into exactpte's convention: classes by smallest
    state, phase 0 the cyclic class holding the class's smallest state."""
    class_order = sorted(range(len(c.classes)), key=lambda i: min(c.classes[i]))
    shifts = []
    for i in class_order:
        low = min(c.classes[i])
        shifts.append(next(k for k, part in enumerate(c.cyclic_classes[i]) if low in part))
    return class_order, shifts


def canonical(c: Claimed) -> Claimed:
    """The claim relabelled into exactpte's class order and phase labels (anchors unchanged)."""
    return relabel(c, *canonical_order(c))


def reanchor(c: Claimed, chain: MarkovRewardProcess, anchors: Sequence[int],
             P_inf_apply: Callable[[list[flint.fmpq]], list[flint.fmpq]] | None = None) -> Claimed | str:
    """The claim moved to other anchor states (one per basis column, in column order), exactly:
    ``B' = b (b[A', :])^{-1}``, ``v*' = v* - B' v*(A')``, ``g*' = r - (I - P) v*'``, ``theta' = g*'(A')``,
    and ``psi' = psi + w - P∞ w`` with ``w = v* - v*'`` (``P_inf_apply`` given).  A message when the
    claimed basis does not identify the new anchors."""
    n, N = chain.n, c.N
    if list(anchors) == c.anchor_states:
        return c
    B = c.basis_matrix()
    A = flint.fmpq_mat([[c.basis[a][j] for j in range(N)] for a in anchors]) if N else flint.fmpq_mat(0, 0)
    if N and A.rank() < N:
        return "the claimed basis does not identify the new anchors (b[anchors, :] is singular)"
    Bn = B * A.inv() if N else B
    rows = tuple(tuple(Bn[s, j] for j in range(N)) for s in range(n))
    at = [c.v_star[a] for a in anchors]
    w = [sum((x * y for x, y in zip(at, rows[s])), ZERO) for s in range(n)]
    v = tuple(a - b for a, b in zip(c.v_star, w))
    Pv = chain.matvec(list(v))
    g = tuple(r - x + y for r, x, y in zip(chain.r, v, Pv))
    psi = c.psi
    if psi is not None and P_inf_apply is not None and any(x != 0 for x in w):
        Pw = P_inf_apply(w)
        psi = tuple(p + x - y for p, x, y in zip(psi, w, Pw))
    elif psi is not None and any(x != 0 for x in w):
        psi = None
    return c.replace(anchors=tuple((i, k, a) for (i, k, _), a in zip(c.anchors, anchors)), basis=rows, v_star=v, g_star=g,
                     theta=tuple(g[a] for a in anchors), psi=psi, hitting_times=None)
