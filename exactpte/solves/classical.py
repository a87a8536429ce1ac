"""Classical objects: stationary distributions, Cesàro limit ``P∞``, gain ``ρ``, bias ``h``, ``ψ``.

``P∞`` is kept factored: ``P∞(s, y) = α_i(s) π_i(y)`` for ``y`` in closed class
``F_i``, with ``π_i`` the stationary distribution of ``F_i`` and ``α_i`` the
absorption probability into ``F_i`` (``α_i = sum_k b_{i,k}``).  So ``ρ``, ``h``
and ``ψ`` cost a few vector operations, never an n x n matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from exactpte.numbers.scalars import as_int
from exactpte.solves.absorption import extend_to_transient
from exactpte.model.chain import Chain, require_chain
from exactpte.errors import UsageError
from exactpte.fields import Field
from exactpte.graph.structure import Structure

__all__ = ["stationary_distribution", "gain", "bias", "class_bias", "psi_coordinates", "class_means", "cesaro_apply",
           "harmonic_extension"]


def stationary_distribution(chain: Chain, members: Sequence[int] | None = None) -> list[Any]:
    """Stationary distribution ``π`` of the closed class ``members`` (aligned with ``members``).

    Solves ``π (I - P_F) = 0`` with one balance equation replaced by ``sum π = 1``;
    the system is nonsingular because ``F`` is irreducible (Perron–Frobenius).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([["1/2", "1/2"], ["1/3", "2/3"]], [0, 0])
    >>> [str(p) for p in stationary_distribution(m, [0, 1])]
    ['2/5', '3/5']
    """
    require_chain(chain)
    field = chain.field
    if members is None:
        if len(chain.structure.classes) != 1:
            raise UsageError(f"the chain has {len(chain.structure.classes)} closed classes; name the class's states "
                             f"(members=chain.structure.classes[i]), each class has its own stationary distribution")
        members = chain.structure.classes[0]
    S = chain.structure
    states = _state_list(members)  # numpy integers and arrays too
    if states is None or not states or not all(0 <= s < chain.n for s in states) or \
            S.class_of[states[0]] < 0 or S.classes[S.class_of[states[0]]] != tuple(sorted(states)):
        raise UsageError(f"members must list the states of one closed class, one of {[list(c) for c in chain.structure.classes]}")
    m = len(states)
    if m == 1:  # an absorbing state
        return [field.one]
    pos = {s: a for a, s in enumerate(states)}
    rows: list[list[tuple[int, Any]]] = [[(a, field.one)] for a in range(m)]
    for a, s in enumerate(states):
        for y, q in chain.row(s):
            rows[pos[y]].append((a, -q))  # row = balance equation of state y: sum_s π_s (δ_sy - P_sy) = 0
    rows[m - 1] = [(a, field.one) for a in range(m)]
    rhs = [[field.zero] for _ in range(m)]
    rhs[m - 1][0] = field.one
    return [row[0] for row in field.solve_sparse(rows, rhs)]


def _state_list(members: Any) -> list[int] | None:
    """``members`` as a list of Python ints (ints, numpy integers, a numpy array), or ``None``."""
    if isinstance(members, (str, bytes)):
        return None
    try:
        states = [as_int(s) for s in members]
    except TypeError:
        return None
    return None if any(s is None for s in states) else [s for s in states if s is not None]


def class_means(classes: Sequence[Sequence[int]], stationary: Sequence[Sequence[Any]], x: Sequence[Any], *, field: Field[Any]) -> list[Any]:
    """``π_i · x|_{F_i}`` for every closed class."""
    return [sum((p * x[y] for y, p in zip(members, pi)), field.zero) for members, pi in zip(classes, stationary)]


def cesaro_apply(classes: Sequence[Sequence[int]], stationary: Sequence[Sequence[Any]], absorption: Sequence[Sequence[Any]], x: Sequence[Any], *,
                 field: Field[Any]) -> list[Any]:
    """``P∞ x`` from the factored form ``P∞(s, y) = α_i(s) π_i(y)``: no n x n matrix.

    Examples
    --------
    >>> from exactpte.fields import QQ

    >>> [str(v) for v in cesaro_apply([[1]], [[QQ.one]], [[QQ.one], [QQ.one]], [5, 7], field=QQ)]
    ['7', '7']
    """
    means = class_means(classes, stationary, x, field=field)
    return [sum((a * mu for a, mu in zip(row, means)), field.zero) for row in absorption]


def gain(chain: Chain, *, stationary: Sequence[Sequence[Any]] | None = None) -> tuple[Any, ...]:
    """The classical gain ``ρ = P∞ r`` alone, by the cheapest exact route.

    Per class ``γ_i = π_i · r``; on transient states ``ρ = Q ρ + P_{T,F} γ``,
    one absorbing solve with a single right-hand side.  ``stationary`` (per class, aligned
    with ``chain.structure.classes``) skips the class solves when already known.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([[0, "1/2", "1/2"], [0, 1, 0], [0, 0, 1]], [0, 4, 2])
    >>> [str(x) for x in gain(m)]
    ['3', '4', '2']
    """
    require_chain(chain)
    field = chain.field
    S = chain.structure
    if stationary is None:
        stationary = [stationary_distribution(chain, members) for members in S.classes]
    return harmonic_extension(chain, class_means(S.classes, stationary, chain.r, field=field))


def harmonic_extension(chain: Chain, per_class: Sequence[Any]) -> tuple[Any, ...]:
    """``P∞ x`` from the class means ``μ_i = π_i · x``: ``μ_i`` on ``F_i`` and, on ``T``, the solution of
    ``y = Q y + P_{T,F} y_F`` (one scalar absorbing pass, :func:`~exactpte.solves.absorption.extend_to_transient`).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> m = MarkovRewardProcess([[1, 0, 0], [0, 1, 0], ["1/4", "3/4", 0]], [0, 0, 0])
    >>> [str(v) for v in harmonic_extension(m, [m.field.one * 4, m.field.zero])]
    ['4', '0', '1']
    """
    S, zero = chain.structure, chain.field.zero
    y = [zero] * chain.n
    for members, mu in zip(S.classes, per_class):
        for s in members:
            y[s] = mu
    return tuple(extend_to_transient(chain, S, y, lambda s: zero))


def class_bias(chain: Chain, members: Sequence[int], pi: Sequence[Any], gain_i: Any) -> list[Any]:
    """The bias on one closed class: ``(I - P_F) h = r - γ`` with ``π · h = 0``.

    ``I - P_F`` has rank ``|F| - 1`` (kernel: constants); its rows are dependent with the
    positive weights ``π``, so the last balance row is dropped and ``w(last) = 0`` pins the
    constant: ``w = h + c 1``, and ``h = w - (π · w) 1`` because ``π · 1 = 1``.  (Pinning a state
    rather than adding the row ``π · h = 0`` keeps the system's entries the chain's own: small.)

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([[0, 1], [1, 0]], [1, 0])
    >>> half = m.field.one / 2
    >>> [str(x) for x in class_bias(m, [0, 1], [half, half], half)]
    ['1/4', '-1/4']
    """
    field = chain.field
    m = len(members)
    if m == 1:  # an absorbing state: h = 0 there
        return [field.zero]
    pos = {s: a for a, s in enumerate(members)}
    rows: list[list[tuple[int, Any]]] = []
    rhs = []
    for a, y in enumerate(members[:-1]):
        rows.append([(a, field.one)] + [(pos[z], -q) for z, q in chain.row(y)])
        rhs.append([chain.r[y] - gain_i])
    rows.append([(m - 1, field.one)])
    rhs.append([field.zero])
    w = [row[0] for row in field.solve_sparse(rows, rhs)]
    mean = sum((p * x for p, x in zip(pi, w)), field.zero)
    return [x - mean for x in w]


def bias(chain: Chain, *, stationary: Sequence[Sequence[Any]] | None = None, rho: Sequence[Any] | None = None) -> tuple[Any, ...]:
    """The classical (normalized) bias ``h`` alone: ``r = ρ + (I - P) h``, ``P∞ h = 0``.

    On each closed class :func:`class_bias`; on the transient states
    ``h = Q h + (r - ρ) + P_{T,F} h_F``, one absorbing solve (``P∞ h = 0`` holds there too,
    since ``P∞(s, ·)`` is a combination of the class distributions ``π_i``).  No phase basis
    is needed.  ``stationary`` and ``rho`` skip what is already known.

    Examples
    --------
    >>> import exactpte
    >>> m = exactpte.example("branching")
    >>> bias(m) == exactpte.decompose(m).h
    True
    """
    require_chain(chain)
    field = chain.field
    S = chain.structure
    if stationary is None:
        stationary = [stationary_distribution(chain, members) for members in S.classes]
    if rho is None:
        rho = gain(chain, stationary=stationary)
    h = [field.zero] * chain.n
    for members, pi in zip(S.classes, stationary):
        for s, x in zip(members, class_bias(chain, members, pi, rho[members[0]])):
            h[s] = x
    r = chain.r
    return tuple(extend_to_transient(chain, S, h, lambda s: r[s] - rho[s]))


def psi_coordinates(theta: Sequence[Any], class_gain: Sequence[Any], structure: Structure, *, field: Field[Any]) -> list[Any]:
    """Coordinates ``c_{i,k}`` of ``ψ = sum c_{i,k} b_{i,k}`` (``thm:comparison_gain_bias``).

    ``ψ ∈ K ∩ ker P∞`` with ``g* = ρ + (I - P) ψ``.  Since ``P b_{i,k} = b_{i,k-1}``,
    ``(I - P) ψ = sum (c_{i,k} - c_{i,k+1}) b_{i,k}`` and ``P∞ b_{i,k} = α_i / d_i``,
    so per class: ``c_k - c_{k+1} = θ_k - γ_i`` and ``sum_k c_k = 0`` — a
    ``d_i``-term recurrence, no matrix solve.

    Examples
    --------
    >>> from exactpte.fields import QQ

    >>> from exactpte.graph.structure import chain_structure
    >>> S = chain_structure([[1], [0]])
    >>> [str(c) for c in psi_coordinates([QQ.one, QQ.zero], [QQ.one / 2], S, field=QQ)]
    ['1/4', '-1/4']
    """
    out: list[Any] = []  # field elements
    col = 0
    for i, d in enumerate(structure.periods):
        th = theta[col : col + d]
        partial = [field.zero]  # S_k = sum_{j<k} (θ_j - γ)
        for k in range(d - 1):
            partial.append(partial[-1] + th[k] - class_gain[i])
        c0 = sum(partial, field.zero) / d
        out.extend(c0 - p for p in partial)
        col += d
    return out
