"""The stability lemmas past the dense Stein solve: a norm by structure and Krylov sums, still exact.

:mod:`.stability` decides the lemmas' bounds with ``H`` the exact Stein solution ``H - MᵀHM = I`` on
``W = range(Π)`` (``M = (ΠP)|_W``), a ``q² x q²`` problem it solves up to ``q = 12``.  The lemmas need less:
*any* norm ``‖x‖_H² = xᵀHx`` with ``H ≻ 0`` in which the mean step does not expand (``MᵀHM ⪯ H``, hence
``‖((1-a)I + aM)e‖_H ≤ ‖e‖_H``) and ``C² ≥ max_{‖x‖∞≤1} xᵀHx``.  Past 12 dimensions this module builds such an
``H`` from the structure of ``M`` and *verifies* it exactly:

- ``W`` splits into its transient states ``T`` and its recurrent non-anchor states ``R``; ``M`` must be block
  upper triangular (``M[R, T] = 0``) with ``M[R, R]`` block diagonal by closed class (checked entry by entry);
- ``M_TT ≥ 0`` with row sums ``≤ 1`` (checked) and a weight ``π > 0`` with ``π M_TT ≤ π - 1`` entrywise
  (proposed by a float solve of ``π(I - M_TT) = 2``, then checked in rationals): by Cauchy–Schwarz,
  ``Σ_i π_i (M x)_i² ≤ Σ_i π_i Σ_j M_ij x_j² ≤ Σ_j (π_j - 1) x_j²``, i.e. ``D_π - M_TTᵀ D_π M_TT ⪰ I``;
- each closed block ``M_i`` (at most :data:`BLOCK_STEIN_MAX` states) gets its exact Stein solution ``H_i ≻ 0``
  (none: ``ρ(M_i) ≥ 1``, so ``ρ(M) ≥ 1`` and the contraction fails, as on the dense route);
- ``H = ε D_π ⊕ diag(H_i)`` with ``ε = 1 / (2 g)``, ``g`` a Gershgorin bound of ``S = XᵀD_πX + YᵀY``
  (``X = M[T, R]``, ``Y = M_TTᵀ D_π X``): ``H - MᵀHM ⪰ [[εI, -εY], [-εYᵀ, I - εXᵀD_πX]]``, whose Schur
  complement ``I - εS ⪰ I/2`` is positive definite.

The expectations are then computed exactly without any ``q x q`` recursion: every step ``A_t = (1 - a_t)I + a_tM``
is a polynomial in ``M``, so ``μ_t`` and the columns of ``Σ_t`` are polynomials in ``M`` applied to ``e_0``, ``d``
and the noise direction; with the Krylov vectors ``M^m x`` (``m ≤`` :data:`~.stability.HORIZON`, sparse integer
products) and their Gram matrices ``(M^m x)ᵀ H (M^k y)``, each ``E‖e_t‖_H²`` is a small quadratic form in the
polynomials' coefficients — the same rationals as the recursion.  The noise laws here have rank-one covariance
(one shared sign on a fixed ``±1`` pattern: ``(-1)^s`` and a seeded random pattern; ``‖ξ‖∞ = σ`` for both): the
independent-sign law of the dense route has a ``q``-rank covariance, ``q`` Krylov sequences, which is what does
not scale.  A certificate that cannot be verified (a negative entry in ``M_TT``, a float weight that fails the
exact test, a closed block past :data:`BLOCK_STEIN_MAX`) is "not checked" with its reason, never "held".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import lcm

import flint

from proofs_check.routes.certificates import positive_definite, stein_solution
from proofs_check.algebra.floats import nearest_float, shown
from proofs_check.algebra.linalg import subtract_scaled
from proofs_check.judging.registry import Context, NotChecked

BLOCK_STEIN_MAX = 40
"""The largest closed block (recurrent non-anchor states of one class) given an exact Stein solution."""
MAX_STATES = 20000
"""Past this many non-anchor states the structured route is not tried (Krylov vectors of that length, 4 x 26)."""

PiRow = dict[int, flint.fmpq]
LAWS_BY_STRUCTURE = ("one shared sign on (-1)^s", "one shared sign on a random +-1 pattern")


@dataclass(frozen=True)
class StructuredNorm:
    """``H = diag(w) ⊕ diag(H_i)`` on ``W`` (local indices): ``w`` on the transient part, small blocks elsewhere."""

    weights: dict[int, flint.fmpq]  # local index -> epsilon pi
    blocks: tuple[tuple[tuple[int, ...], flint.fmpq_mat], ...]  # (local indices, H_i)

    def apply(self, x: list[flint.fmpq]) -> list[flint.fmpq]:
        """``H x``."""
        out = [flint.fmpq(0)] * len(x)
        for i, w in self.weights.items():
            out[i] = w * x[i]
        for idx, Hi in self.blocks:
            y = Hi * flint.fmpq_mat(len(idx), 1, [x[i] for i in idx])
            for k, i in enumerate(idx):
                out[i] = y[k, 0]
        return out

    def C2(self) -> flint.fmpq:
        """``Σ |H_ij| ≥ max_{‖x‖∞≤1} xᵀHx``."""
        C2 = sum(self.weights.values(), flint.fmpq(0))
        for _, Hi in self.blocks:
            C2 += sum((abs(x) for x in Hi.entries()), flint.fmpq(0))
        return C2


@dataclass(frozen=True)
class KrylovSetup:
    """What the structured route computes once per chain and shares with the three lemmas: the norm's constants
    and the Gram matrices of the Krylov vectors (``[M^m e_0] + [M^m d]`` for the mean, ``[M^m g]`` per noise law)."""

    M: list[PiRow]  # (Pi P)|_W as sparse rows over local indices of W
    H: StructuredNorm
    C2: flint.fmpq
    mean_gram: flint.fmpq_mat  # (2 (h + 1))-square: e_0's Krylov vectors, then d's
    noise_grams: tuple[flint.fmpq_mat, ...]  # (h + 1)-square per law (LAWS_BY_STRUCTURE order)
    horizon: int
    vectors: tuple[list[flint.fmpq], ...]  # e_0 (start v_0 = 0), d, then the noise direction per law


def build(ctx: Context, sigma: flint.fmpq, horizon: int) -> KrylovSetup | str | NotChecked:
    """The structured setup for the claimed ``Π``, a failure message, or why it cannot be verified."""
    c, B = ctx.claimed, ctx.blocks
    anchor_set = set(c.anchor_states)
    W = [s for s in range(ctx.chain.n) if s not in anchor_set]
    if len(W) > MAX_STATES:
        return NotChecked(f"range(Pi) has dimension {len(W)}; the structured norm is tried up to {MAX_STATES}")
    local = {s: i for i, s in enumerate(W)}
    M = _restricted_rows(ctx, W, local)
    H = _structured_norm(ctx, W, M)
    if not isinstance(H, StructuredNorm):
        return H
    v = list(c.v_star)
    fixed = _project(ctx, [r + p for r, p in zip(ctx.chain.r, B.matvec(v))])
    d = [fixed[s] - v[s] for s in W]
    rng = ctx.rng("stability:pattern")
    patterns = ([flint.fmpq((-1) ** s) for s in range(ctx.chain.n)],
                [flint.fmpq(rng.choice((-1, 1))) for _ in range(ctx.chain.n)])
    e0 = [-v[s] for s in W]
    mean_vectors = krylov(M, e0, horizon) + krylov(M, d, horizon)
    grams, directions = [], []
    for z in patterns:
        proj = _project(ctx, z)
        directions.append([sigma * proj[s] for s in W])
        K = krylov(M, directions[-1], horizon)
        grams.append(gram(H, K, K))
    return KrylovSetup(M, H, H.C2(), gram(H, mean_vectors, mean_vectors), tuple(grams), horizon, (e0, d, *directions))


def expectations(setup: KrylovSetup, alpha: int, t0: int) -> tuple[list[list[flint.fmpq]], list[list[flint.fmpq]]]:
    """``(‖μ_t‖_H² per start, trace(HΣ_t) per law)`` for ``t = 1..horizon``, exactly.

    ``A_t = f_t(M)`` with ``f_t(x) = (1 - a_t) + a_t x``: ``μ_{t+1} = p_{t+1}(M) e_0 + q_{t+1}(M) d`` with
    ``p_{t+1} = f_t p_t`` (``p_0 = 1``) and ``q_{t+1} = f_t q_t + a_t`` (``q_0 = 0``), and
    ``Σ_{t+1} = Σ_{u ≤ t} r_{u,t}(M) g gᵀ r_{u,t}(M)ᵀ`` with ``r_{u,t} = a_u f_{u+1} ... f_t``: each norm is a
    quadratic form of the coefficient vectors in a Gram matrix (``E‖e‖_H² = ‖μ‖_H² + trace(HΣ)``)."""
    h = setup.horizon
    a = [flint.fmpq(alpha, t + t0) for t in range(h)]
    p, q = flint.fmpq_poly([1]), flint.fmpq_poly([])
    rs: list[flint.fmpq_poly] = []
    means: list[list[flint.fmpq]] = []  # per t, per start (v_0 = v*: e_0 = 0; v_0 = 0)
    noise: list[list[flint.fmpq]] = []  # per t, per law
    zero = [flint.fmpq(0)] * (h + 1)
    for t in range(h):
        f = flint.fmpq_poly([1 - a[t], a[t]])
        p, q = p * f, q * f + a[t]
        rs = [r * f for r in rs] + [flint.fmpq_poly([a[t]])]
        cp, cq = _coeffs(p, h + 1), _coeffs(q, h + 1)
        means.append([_form(setup.mean_gram, zero + cq), _form(setup.mean_gram, cp + cq)])
        C = flint.fmpq_mat(h + 1, len(rs), [x for row in zip(*(_coeffs(r, h + 1) for r in rs)) for x in row])
        noise.append([_trace(C.transpose() * G * C) for G in setup.noise_grams])
    return means, noise


def run(setup: KrylovSetup, alpha: int, t0: int, sigma: flint.fmpq, tails: Sequence[flint.fmpq],
        starts: Sequence[str]) -> str | None:
    """Each (start, law) pair against the lemma's bound at every ``t < horizon`` (start, law, ``t`` order), with the
    values of :func:`expectations`."""
    means, noise = expectations(setup, alpha, t0)
    X0 = (flint.fmpq(0), setup.mean_gram[0, 0])  # ||e_0||_H^2 for v_0 = v* and v_0 = 0
    scale = 4 * alpha**2 * setup.C2 * sigma**2
    for i, start in enumerate(starts):
        for j, law in enumerate(LAWS_BY_STRUCTURE):
            for t in range(setup.horizon):
                got, bound = means[t][i] + noise[t][j], X0[i] + scale * tails[t]
                if got > bound:
                    return (f"{start}, {law}, alpha_t = {alpha}/(t + {t0}): E||v_{t + 1} - v*||_q^2 = {shown(got)} exceeds "
                            f"the lemma's bound {shown(bound)} (||e_0||^2 + 4 alpha^2 C^2 sigma^2 sum 1/(s + t0)^2; "
                            "structured norm)")
    return None


def _coeffs(p: flint.fmpq_poly, k: int) -> list[flint.fmpq]:
    c = [flint.fmpq(x) for x in p.coeffs()]
    return c + [flint.fmpq(0)] * (k - len(c))


def _form(G: flint.fmpq_mat, c: list[flint.fmpq]) -> flint.fmpq:
    x = flint.fmpq_mat(len(c), 1, c)
    return (x.transpose() * G * x)[0, 0]


def _trace(X: flint.fmpq_mat) -> flint.fmpq:
    return sum((X[i, i] for i in range(X.nrows())), flint.fmpq(0))


def _project(ctx: Context, x: list[flint.fmpq]) -> list[flint.fmpq]:
    """``Π x = x - Σ_j x(a_j) b_j`` through the claimed basis' nonzeros."""
    c = ctx.claimed
    out = list(x)
    for j, a in enumerate(c.anchor_states):
        xa = x[a]
        if xa:
            for s, y in c.sparse_columns[j].items():
                out[s] -= xa * y
    return out


def _restricted_rows(ctx: Context, W: list[int], local: dict[int, int]) -> list[PiRow]:
    """``M = (ΠP)|_W`` as sparse rows: ``P[s, W] - Σ_c b_c(s) P[a_c, W]`` (only anchors whose row enters ``W``)."""
    c, rows = ctx.claimed, ctx.blocks.rows
    M: list[PiRow] = [{local[j]: q for j, q in rows[s].items() if j in local} for s in W]
    for j, a in enumerate(c.anchor_states):
        out = {local[k]: q for k, q in rows[a].items() if k in local}
        if not out:
            continue
        for s, bs in c.sparse_columns[j].items():
            if s in local:
                subtract_scaled(M[local[s]], bs, out)
    return M


def _structured_norm(ctx: Context, W: list[int], M: list[PiRow]) -> StructuredNorm | str | NotChecked:
    """``H = ε D_π ⊕ diag(H_i)`` verified as in the module docstring, a failure, or why it is not verified."""
    B = ctx.blocks
    T = [i for i, s in enumerate(W) if s not in B.class_of]
    groups: dict[int, list[int]] = {}
    for i, s in enumerate(W):
        if s in B.class_of:
            groups.setdefault(B.class_of[s], []).append(i)
    for cls, idx in groups.items():
        inside = set(idx)
        if any(k not in inside for i in idx for k in M[i]):
            return NotChecked(f"(Pi P)|_W does not keep closed class {cls} apart from the rest of range(Pi) (the structured "
                              "norm needs M[R, T] = 0 and M[R, R] block diagonal by class)")
        if len(idx) > BLOCK_STEIN_MAX:
            return NotChecked(f"closed class {cls} has {len(idx)} non-anchor states; the exact Stein solve per class is "
                              f"limited to {BLOCK_STEIN_MAX}")
    pi = _weights(M, T)
    if not isinstance(pi, dict):
        return pi
    blocks = []
    for idx in groups.values():
        Mi = flint.fmpq_mat([[M[i].get(k, flint.fmpq(0)) for k in idx] for i in idx])
        Hi = stein_solution(Mi)
        if Hi is None or not positive_definite(Hi):
            return ("Pi P does not contract on range(Pi) (no H > 0 with H - M^T H M = I on a closed class's block): the "
                    "lemma's contraction fails for the claimed b")
        blocks.append((tuple(idx), Hi))
    eps = _coupling(M, pi, [k for idx in groups.values() for k in idx])
    return StructuredNorm({i: eps * p for i, p in pi.items()}, tuple(blocks))


def _weights(M: list[PiRow], T: list[int]) -> dict[int, flint.fmpq] | NotChecked:
    """``π > 0`` on ``T`` with ``π M_TT ≤ π - 1``, ``M_TT ≥ 0`` and its row sums ``≤ 1``, all checked exactly."""
    inT = set(T)
    for i in T:
        row = [q for k, q in M[i].items() if k in inT]
        if any(q < 0 for q in row) or sum(row, flint.fmpq(0)) > 1:
            return NotChecked("(Pi P)|_W on the transient states is not substochastic (a negative entry or a row sum "
                              "above 1): the structured norm does not apply")
    proposal = _float_weights(M, T)
    if proposal is None:
        return NotChecked("no weight pi > 0 with pi M_TT <= pi - 1 was found (the float solve of pi (I - M_TT) = 2 failed)")
    scale = 1 << 20
    pi = {i: flint.fmpq(max(int(round(x * scale)), 1), scale) for i, x in zip(T, proposal)}
    lhs = dict(pi)  # pi - pi M_TT, accumulated column by column
    for i in T:
        for k, q in M[i].items():
            if k in inT:
                lhs[k] -= pi[i] * q
    if any(x < 1 for x in lhs.values()):
        return NotChecked("the float weight pi failed the exact test pi M_TT <= pi - 1 (ill-conditioned transient part)")
    return pi


def _float_weights(M: list[PiRow], T: list[int]) -> list[float] | None:
    """A float solution of ``π (I - M_TT) = 2`` (a proposal only: :func:`_weights` checks it exactly)."""
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla

    if not T:
        return []
    pos = {i: k for k, i in enumerate(T)}
    rows, cols, vals = [], [], []
    for i in T:
        for k, q in M[i].items():
            if k in pos:
                rows.append(pos[k])  # transposed: (I - M_TT)^T pi^T = 2
                cols.append(pos[i])
                vals.append(-nearest_float(q))
    A = sp.identity(len(T), format="csr") + sp.csr_matrix((vals, (rows, cols)), shape=(len(T), len(T)))
    try:
        x = spla.spsolve(A.tocsc(), 2.0 * np.ones(len(T)))
    except (RuntimeError, ValueError):  # pragma: no cover - a singular system
        return None
    x = np.atleast_1d(x)
    if not np.all(np.isfinite(x)) or np.any(x <= 0):
        return None
    return [float(v) for v in x]


def _coupling(M: list[PiRow], pi: dict[int, flint.fmpq], R: list[int]) -> flint.fmpq:
    """``ε = 1/(2g)``, ``g`` the largest absolute row sum of ``S = XᵀD_πX + YᵀY`` (``1`` when ``S = 0``)."""
    if not R:
        return flint.fmpq(1)
    col = {k: j for j, k in enumerate(R)}
    m = len(R)
    S = [[flint.fmpq(0)] * m for _ in range(m)]
    Y: dict[int, list[flint.fmpq]] = {}
    for i, p in pi.items():
        x = {col[k]: q for k, q in M[i].items() if k in col}
        if not x:
            continue
        for a, qa in x.items():
            for b, qb in x.items():
                S[a][b] += p * qa * qb
        for k, q in M[i].items():  # Y[k, :] += M[i, k] pi_i X[i, :] for k transient
            if k in pi:
                yk = Y.setdefault(k, [flint.fmpq(0)] * m)
                for a, qa in x.items():
                    yk[a] += q * p * qa
    for yk in Y.values():
        for a in range(m):
            if yk[a]:
                for b in range(m):
                    S[a][b] += yk[a] * yk[b]
    g = max((sum((abs(v) for v in row), flint.fmpq(0)) for row in S), default=flint.fmpq(0))
    return flint.fmpq(1) if g == 0 else 1 / (2 * g)


def krylov(M: list[PiRow], x: list[flint.fmpq], steps: int) -> list[list[flint.fmpq]]:
    """``[x, Mx, ..., M^steps x]`` exactly: ``M`` as integer rows over one denominator ``D``, ``x`` over its own."""
    D = 1
    for row in M:
        for q in row.values():
            D = lcm(D, int(q.q))
    rows = [[(k, int(q.p) * (D // int(q.q))) for k, q in row.items()] for row in M]
    L = 1
    for v in x:
        L = lcm(L, int(flint.fmpq(v).q))
    ints = [int(flint.fmpq(v).p) * (L // int(flint.fmpq(v).q)) for v in x]
    den, out = L, [[flint.fmpq(v) for v in x]]
    for _ in range(steps):
        ints = [sum(m * ints[k] for k, m in row) for row in rows]
        den *= D
        out.append([flint.fmpq(v, den) for v in ints])
    return out


def gram(H: StructuredNorm, left: list[list[flint.fmpq]], right: list[list[flint.fmpq]]) -> flint.fmpq_mat:
    """``[uᵀ H v for v in right] for u in left`` as a matrix."""
    q = len(left[0]) if left else 0
    if not q:
        return flint.fmpq_mat(len(left), len(right))
    L = flint.fmpq_mat(q, len(left), [u[i] for i in range(q) for u in left])
    HR = [H.apply(v) for v in right]
    R = flint.fmpq_mat(q, len(right), [v[i] for i in range(q) for v in HR])
    return L.transpose() * R
