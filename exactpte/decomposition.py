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
from .classical import cesaro_apply, class_means, psi_coordinates, stationary_distribution
from .chain import Chain, check_chain
from .fields import Field
from .result import Decomposition

__all__ = ["decompose", "class_gauge_solve"]


def class_gauge_solve(
    chain: Chain, members: Sequence[int], phases: Sequence[int], anchors: Sequence[int]
) -> tuple[list, dict[int, Any]]:
    """``θ_i`` and ``v*`` on one closed class ``F_i`` of period ``d = len(anchors)``.

    On a closed class ``K`` restricted to ``F_i`` is spanned by the phase
    indicators, so ``g* = θ_{phase(y)}`` there, and ``v*`` vanishes at the anchors
    (``lem:main_b_identify``).  The ``|F_i|`` equations
    ``v(y) - sum_y' P(y,y') v(y') + θ_{phase(y)} = r(y)`` in the ``|F_i| - d``
    unknowns ``v(y), y not an anchor`` and the ``d`` unknowns ``θ_k`` have a unique
    solution because ``W ∩ K = {0}`` (``lem:W_norm_equiv``).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([[0, 1], [1, 0]], [1, 0])
    >>> theta, v = class_gauge_solve(m, [0, 1], [0, 1], [0, 1])
    >>> [str(t) for t in theta], v
    (['1', '0'], {0: 0, 1: 0})
    """
    field = chain.field
    anchor_set = set(anchors)
    unknown = [s for s in members if s not in anchor_set]
    col = {s: j for j, s in enumerate(unknown)}
    m = len(members)
    M = field.zeros(m, m)
    rhs = field.zeros(m, 1)
    for a, y in enumerate(members):
        if y in col:
            M[a, col[y]] += field.one
        for z, q in chain.row(y):
            if z in col:
                M[a, col[z]] -= q
        M[a, len(unknown) + phases[a]] = field.one
        rhs[a, 0] = chain.r[y]
    sol = [row[0] for row in field.to_lists(field.solve(M, rhs))]
    v = {s: field.zero for s in anchors}
    for s, j in col.items():
        v[s] = sol[j]
    return sol[len(unknown) :], v


def decompose(chain: Chain, anchors: Any = None) -> Decomposition:
    """Exact persistent–transient decomposition of ``(P, r)`` in the anchor gauge.

    Computes ``g*`` in ``K(P)`` and ``v*`` (zero at the anchors) with
    ``r = g* + (I - P) v*`` (``thm:wellposed``), the phase-offset basis ``b``
    (``def:main_b``), ``θ* = g*(anchors)`` (``def:theta_star``), the classical gain
    ``ρ = P∞ r``, the normalized bias ``h`` and the bridge ``ψ`` with
    ``g* = ρ + (I - P) ψ`` and ``h = v* + ψ - P∞ v*`` (``thm:comparison_gain_bias``).
    Only the blocks that need it are solved: the transient block (by SCC, downstream
    first) and one system per closed class.

    Parameters
    ----------
    chain : Chain
        A :class:`~exactpte.MarkovRewardProcess` (answers over ``QQ``) or a
        :class:`~exactpte.ParametricChain` (answers as rational functions).
    anchors : optional
        ``None`` for the canonical anchors (smallest state of each cyclic class), per-class
        groups ``[[a_00, a_01], [a_10]]``, a flat list in ``(class, phase)`` order, or a
        mapping ``{(i, k): state}``.

    Returns
    -------
    Decomposition
        Frozen result with fields named after the paper's symbols.

    Raises
    ------
    AnchorError
        The anchors do not pick one state of every cyclic class.

    Examples
    --------
    >>> from exactpte.examples import example
    >>> dec = decompose(example("two-paths"))
    >>> chain = dec.chain
    >>> Pv = chain.matvec(dec.v_star)
    >>> all(r == g + v - pv for r, g, v, pv in zip(chain.r, dec.g_star, dec.v_star, Pv))
    True
    """
    check_chain(chain)
    field = chain.field
    S = chain.structure
    A = S.validate_anchors(anchors)
    n = chain.n
    zero = field.zero

    b_transient = phase_offset_basis(chain, S)

    # closed classes: stationary distributions, θ_i and v* on F_i
    theta: list = []
    stationary: list[tuple] = []
    v_star = [zero] * n
    g_star = [zero] * n
    for i, members in enumerate(S.classes):
        phases = [S.phase_of[s] for s in members]
        th, v = class_gauge_solve(chain, members, phases, A[i])
        theta.extend(th)
        for s, val in v.items():
            v_star[s] = val
        for s, k in zip(members, phases):
            g_star[s] = th[k]
        stationary.append(tuple(stationary_distribution(chain, members)))

    # transient states: g* = sum θ b (lem:anchor_interpolation); v* by one absorbing solve
    for s in S.transient:
        g_star[s] = sum((t * bv for t, bv in zip(theta, b_transient[s]) if bv != 0), zero)
    extend_to_transient(chain, S, v_star, lambda s: chain.r[s] - g_star[s])

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
    class_gain = class_means(S.classes, stationary, chain.r, field=field)
    rho = cesaro_apply(S.classes, stationary, absorption, chain.r, field=field)
    c = psi_coordinates(theta, class_gain, S, field=field)
    basis = _basis_rows(S, b_transient, field)
    psi = [sum((ck * bv for ck, bv in zip(c, basis[s]) if bv != 0), zero) for s in range(n)]
    Pinf_v = cesaro_apply(S.classes, stationary, absorption, v_star, field=field)
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
    )


def _basis_rows(S, b_transient: dict[int, list], field: Field) -> list[list]:
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
