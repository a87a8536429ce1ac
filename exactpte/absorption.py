"""Absorbing systems on the transient block, and the phase-offset absorption basis.

Only the transient block ``Q = P[T, T]`` is ever solved here, one strongly
connected component at a time in reverse topological order (downstream first),
so a chain whose transient part is a DAG needs no matrix solve at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from .chain import Chain
from .structure import Structure

__all__ = ["solve_transient", "extend_to_transient", "phase_offset_basis"]

Vector = list  # a list of scalars, one per right-hand-side column


def solve_transient(
    chain: Chain,
    structure: Structure,
    const: Sequence[dict[int, Vector]],
    ncols: int,
) -> list[dict[int, Vector]]:
    """Solve the phase-coupled absorbing system on the transient states.

    With ``d = len(const)`` and indices mod ``d``, find ``x_0 .. x_{d-1}`` on ``T`` with

        ``x_k(s) = sum_{s' in T} P(s, s') x_{k+1}(s') + const[k](s)``.

    ``d = 1`` is the ordinary absorbing system ``(I - Q) x = c``.  For ``d > 1``,
    on each transient SCC ``S`` the phases are eliminated into one system
    ``(I - Q_SS^d) x_0 = sum_j Q_SS^j c_j`` and ``x_{d-1}, .., x_1`` follow by
    back-substitution, so no ``d|T|``-sized system is ever formed.  The matrix is
    nonsingular because ``Q`` is strictly substochastic on the transient block
    (spectral radius < 1).  Missing entries of ``const[k]`` are zero.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [0, 0])
    >>> x = solve_transient(m, m.structure, [{0: [m.field.one / 2]}], 1)
    >>> x[0][0]
    [1]
    """
    field = chain.field
    d = len(const)
    zero_vec = [field.zero] * ncols
    X: list[dict[int, Vector]] = [dict() for _ in range(d)]
    for scc in structure.transient_sccs:
        pos = {s: j for j, s in enumerate(scc)}
        m = len(scc)
        # c_k on S: the constant plus what flows to already-solved transient states
        c = [[list(const[k].get(s, zero_vec)) for s in scc] for k in range(d)]
        Q_local: list[tuple[int, int, object]] = []
        for a, s in enumerate(scc):
            for j, q in chain.row(s):
                if j in pos:
                    Q_local.append((a, pos[j], q))
                    continue
                for k in range(d):
                    xj = X[(k + 1) % d].get(j)
                    if xj is not None:
                        ck = c[k][a]
                        for col in range(ncols):
                            ck[col] += q * xj[col]
        if not Q_local:  # no coupling inside S: x_k = c_k
            for k in range(d):
                for a, s in enumerate(scc):
                    X[k][s] = c[k][a]
            continue
        Q = field.zeros(m, m)
        for a, b, q in Q_local:
            Q[a, b] = q
        C = [field.matrix(c[k], ncols) for k in range(d)]
        y = C[d - 1]
        for k in range(d - 2, -1, -1):  # Horner: y = sum_j Q^j c_j
            y = C[k] + Q * y
        Qd = Q
        for _ in range(d - 1):
            Qd = Qd * Q
        x = [None] * d
        x[0] = field.solve(field.identity(m) - Qd, y)
        nxt = x[0]
        for k in range(d - 1, 0, -1):
            x[k] = C[k] + Q * nxt
            nxt = x[k]
        for k in range(d):
            rows = field.to_lists(x[k])
            for a, s in enumerate(scc):
                X[k][s] = rows[a]
    return X


def extend_to_transient(chain: Chain, structure: Structure, x: list, base) -> list:
    """Fill the transient entries of ``x`` (recurrent entries given) from
    ``x(s) = base(s) + sum_{s'} P(s, s') x(s')``, ``s`` transient: one absorbing solve.

    Used for ``ρ`` (base 0), ``v*`` (base ``r - g*``) and hitting times (base 1).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [0, 0])
    >>> [str(v) for v in extend_to_transient(m, m.structure, [None, m.field.one * 3], lambda s: m.field.one)]
    ['5', '3']
    """
    recurrent = structure.class_of
    const = {}
    for s in structure.transient:
        acc = base(s)
        for y, q in chain.row(s):
            if recurrent[y] >= 0:
                acc += q * x[y]
        const[s] = [acc]
    for s, vec in solve_transient(chain, structure, [const], 1)[0].items():
        x[s] = vec[0]
    return x


def phase_offset_basis(chain: Chain, structure: Structure) -> dict[int, list]:
    """The phase-offset absorption basis ``b_{i,k}`` on the transient states (``def:main_b``).

    ``b_{i,k}(s) = P_s(class(X_tau) = i, phase(X_tau) - tau = k mod d_i)`` with ``tau``
    the hitting time of the recurrent set.  Conditioning on the first step gives
    ``b_{i,k}(s) = sum_{s' in T} P(s,s') b_{i,k+1}(s') + P(s, C_{i,k+1})``, the system
    :func:`solve_transient` solves, once per distinct period for all classes of
    that period.  On recurrent states ``b_{i,k} = 1{C_{i,k}}`` (not stored here).

    Returns ``{s: row}`` for transient ``s``, ``row`` of length ``N`` in
    ``(class, phase)`` order.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([[0, 1, 0], [0, 0, 1], [0, 1, 0]], [0, 0, 0])
    >>> [str(x) for x in phase_offset_basis(m, m.structure)[0]]
    ['0', '1']
    """
    S, field = structure, chain.field
    col_of = S.column_of
    rows: dict[int, list] = {s: [field.zero] * S.N for s in S.transient}
    by_period: dict[int, list[int]] = {}
    for i, d in enumerate(S.periods):
        by_period.setdefault(d, []).append(i)
    class_of, phase_of = S.class_of, S.phase_of
    for d, cls in sorted(by_period.items()):
        slot = {i: c for c, i in enumerate(cls)}
        const: list[dict[int, Vector]] = [dict() for _ in range(d)]
        for s in S.transient:
            for y, q in chain.row(s):
                i = class_of[y]
                if i >= 0 and i in slot:
                    k = (phase_of[y] - 1) % d  # entering C_{i,k+1} at time 1 contributes to b_{i,k}
                    vec = const[k].setdefault(s, [field.zero] * len(cls))
                    vec[slot[i]] += q
        X = solve_transient(chain, S, const, len(cls))
        for k in range(d):
            for s, vec in X[k].items():
                row = rows[s]
                for i, c in slot.items():
                    row[col_of[(i, k)]] = vec[c]
    return rows
