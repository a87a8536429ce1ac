"""The gauge-fixed persistent–transient decomposition ``r = g* + (I - P) v*`` (``thm:wellposed``).

Solves only what needs solving: the phase-offset basis on the transient block
(:mod:`exactpte.absorption`), one ``|F_i| x |F_i|`` system per closed class for
``θ_i`` and ``v*`` on ``F_i``, then one absorbing solve for ``v*`` on ``T``.
The classical ``ρ``, ``ψ``, ``h`` follow from these by vector operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .absorption import extend_to_transient, phase_offset_basis
from .backend import QQ
from .classical import cesaro_apply, class_means, psi_coordinates, stationary_distribution
from .model import MarkovRewardProcess
from .result import Decomposition

__all__ = ["decompose", "class_gauge_solve"]


def class_gauge_solve(
    chain: MarkovRewardProcess, members: Sequence[int], phases: Sequence[int], anchors: Sequence[int], field=QQ
) -> tuple[list, dict[int, Any]]:
    """``θ_i`` and ``v*`` on one closed class ``F_i`` of period ``d = len(anchors)``.

    On a closed class ``K`` restricted to ``F_i`` is spanned by the phase
    indicators, so ``g* = θ_{phase(y)}`` there, and ``v*`` vanishes at the anchors
    (``lem:main_b_identify``).  The ``|F_i|`` equations
    ``v(y) - sum_y' P(y,y') v(y') + θ_{phase(y)} = r(y)`` in the ``|F_i| - d``
    unknowns ``v(y), y not an anchor`` and the ``d`` unknowns ``θ_k`` have a unique
    solution because ``W ∩ K = {0}`` (``lem:W_norm_equiv``).

    >>> m = MarkovRewardProcess([[0, 1], [1, 0]], [1, 0])
    >>> theta, v = class_gauge_solve(m, [0, 1], [0, 1], [0, 1])
    >>> [str(t) for t in theta], v
    (['1', '0'], {0: 0, 1: 0})
    """
    anchor_set = set(anchors)
    unknown = [s for s in members if s not in anchor_set]
    col = {s: j for j, s in enumerate(unknown)}
    m = len(members)
    M = field.zeros(m, m)
    rhs = field.zeros(m, 1)
    for a, y in enumerate(members):
        if y in col:
            M[a, col[y]] += field.one
        for z, q in chain.rows_of(y):
            if z in col:
                M[a, col[z]] -= q
        M[a, len(unknown) + phases[a]] = field.one
        rhs[a, 0] = chain.r[y]
    sol = [row[0] for row in field.rows(field.solve(M, rhs))]
    v = {s: field.zero for s in anchors}
    for s, j in col.items():
        v[s] = sol[j]
    return sol[len(unknown) :], v


def decompose(chain: MarkovRewardProcess, anchors: Any = None, field=None) -> Decomposition:
    """Exact persistent–transient decomposition of ``(P, r)`` in the anchor gauge.

    Returns ``g*`` (in ``K(P)``), ``v*`` (zero at the anchors) with
    ``r = g* + (I - P) v*`` (``thm:wellposed``), the basis ``b`` (``def:main_b``),
    ``θ* = g*(anchors)`` (``def:theta_star``), the classical ``ρ``, ``h`` and the
    bridge ``ψ`` with ``g* = ρ + (I - P) ψ`` and ``h = v* + ψ - P∞ v*``
    (``thm:comparison_gain_bias``).  ``anchors`` defaults to the canonical ones.

    >>> from exactpte.examples import example
    >>> dec = decompose(example("two-paths"))
    >>> chain = dec.chain
    >>> Pv = chain.matvec(dec.v_star)
    >>> all(r == g + v - pv for r, g, v, pv in zip(chain.r, dec.g_star, dec.v_star, Pv))
    True
    """
    field = field or chain.field
    S = chain.structure
    A = S.validate_anchors(anchors)
    n = chain.n
    zero = field.zero

    b_transient = phase_offset_basis(chain, S, field)

    # closed classes: stationary distributions, θ_i and v* on F_i
    theta: list = []
    stationary: list[tuple] = []
    v_star = [zero] * n
    g_star = [zero] * n
    for i, members in enumerate(S.classes):
        phases = [S.phase_of[s] for s in members]
        th, v = class_gauge_solve(chain, members, phases, A[i], field)
        theta.extend(th)
        for s, val in v.items():
            v_star[s] = val
        for s, k in zip(members, phases):
            g_star[s] = th[k]
        stationary.append(tuple(stationary_distribution(chain, members, field)))

    # transient states: g* = sum θ b (lem:anchor_interpolation); v* by one absorbing solve
    for s in S.transient:
        g_star[s] = sum((t * bv for t, bv in zip(theta, b_transient[s]) if bv != 0), zero)
    extend_to_transient(chain, S, v_star, lambda s: chain.r[s] - g_star[s], field)

    # classical side, from the factored P∞ (α_i = sum_k b_{i,k})
    m = len(S.classes)
    absorption = [[zero] * m for _ in range(n)]
    for i, members in enumerate(S.classes):
        for s in members:
            absorption[s][i] = field.one
    col = 0
    for i, d in enumerate(S.periods):
        for s in S.transient:
            absorption[s][i] = sum(b_transient[s][col : col + d], zero)
        col += d
    class_gain = class_means(S.classes, stationary, chain.r, field)
    rho = cesaro_apply(S.classes, stationary, absorption, chain.r, field)
    c = psi_coordinates(theta, class_gain, S, field)
    basis = _basis_rows(S, b_transient, field)
    psi = [sum((ck * bv for ck, bv in zip(c, basis[s]) if bv != 0), zero) for s in range(n)]
    Pinf_v = cesaro_apply(S.classes, stationary, absorption, v_star, field)
    h = [v + p - pv for v, p, pv in zip(v_star, psi, Pinf_v)]

    return Decomposition(
        chain=chain,
        structure=S,
        anchors=A,
        basis=tuple(tuple(row) for row in basis),
        theta=tuple(theta),
        g_star=tuple(g_star),
        v_star=tuple(v_star),
        stationary=tuple(stationary),
        absorption=tuple(tuple(row) for row in absorption),
        class_gain=tuple(class_gain),
        rho=tuple(rho),
        psi_coords=tuple(c),
        psi=tuple(psi),
        h=tuple(h),
        field=field,
    )


def _basis_rows(S, b_transient: dict[int, list], field) -> list[list]:
    N = S.N
    col_of = S.column_of
    rows = []
    for s in range(S.n):
        if s in b_transient:
            rows.append(b_transient[s])
        else:
            row = [field.zero] * N
            row[col_of[(S.class_of[s], S.phase_of[s])]] = field.one
            rows.append(row)
    return rows
