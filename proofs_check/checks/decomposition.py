"""Checks for Sections 2–3 of the paper: the peripheral subspace, the quotient, the decomposition,
and its comparison with the classical gain and bias."""

from __future__ import annotations

import flint

import random

from proofs_check.routes.certificates import contraction_certificate, quotient_charpolys, quotient_matrix
from proofs_check.judging.claims import Claimed
from proofs_check.algebra.linalg import col, column_basis, columns, exact_integers, identity, in_span, in_span_all, join, mat_poly, mat_poly_apply, matvec, nullspace, random_integers, rank, same_span, vec
from proofs_check.judging.registry import NOT_APPLICABLE, Context, Held, Outcome, register_check, few, mismatch


@register_check("lem:invariant_constant_on_class", "Px = x implies x constant on every closed class")
def _invariant_constant(ctx: Context) -> Outcome:
    R = ctx.routes.invariant
    for j in range(R.ncols()):
        for i, members in enumerate(ctx.claimed.classes):
            # constant: every entry equals the first (no set of fmpq: hashing an fmpq costs about 5 us, == 0.15 us)
            first = R[members[0], j] if members else None
            if any(R[s, j] != first for s in members[1:]):
                return f"invariant vector {j} is not constant on claimed class {i} {few(members)}"
    if R.ncols() != len(ctx.claimed.classes):
        return f"dim ker(I-P) = {R.ncols()} but {len(ctx.claimed.classes)} closed classes are claimed"
    return None


def _quotient_keeps_peripheral(ctx: Context, Kp: flint.fmpq_mat) -> bool | None:
    """Whether ``P`` on ``R^n / span Kp`` keeps a unimodular eigenvalue (``None``: ``span Kp`` is not invariant)."""
    if Kp.ncols() and rank(Kp) < Kp.ncols():
        Kp = ctx.routes.K_basis_of(Kp)
    _, q = quotient_charpolys(ctx.routes.P, Kp, ctx.routes.charpoly)
    return None if q is None else ctx.routes.has_peripheral_root(q)


def _claimed_quotient(ctx: Context) -> tuple[flint.fmpq_poly | None, bool | None]:
    """The quotient by span(claimed b) (full column rank): its characteristic polynomial (``None``: span b is not
    invariant) and whether it keeps a unimodular eigenvalue; computed once for the two quotient theorems."""
    def build() -> tuple[flint.fmpq_poly | None, bool | None]:
        _, q = quotient_charpolys(ctx.routes.P, ctx.claimed.basis_matrix(), ctx.routes.charpoly)
        return q, (None if q is None else ctx.routes.has_peripheral_root(q))
    return ctx.shared("quotient:claimed-basis", build)


def _minimal_quotient_family(ctx: Context) -> list[tuple[str, flint.fmpq_mat, bool]]:
    """Invariant subspaces K' with whether the quotient must keep a unimodular eigenvalue (``K ⊄ K'``):

    - strictly larger than span(b): ``span(b) + ker q(P)^e`` for every non-cyclotomic factor ``q^e`` of charpoly;
    - span(b) minus one class (its columns): minimality, also on aperiodic chains;
    - span(b) minus one Fourier pair: ``span(b) ∩ ker (c / Φ_m^e)(P)`` for every cyclotomic ``Φ_m ≠ x - 1``
      (over Q a Galois orbit of roots of unity, the pair ``e^{±2πik/m}`` itself when ``deg Φ_m = 2``);
    - ``ker(I - P)`` when some class is periodic.
    """
    c, routes = ctx.claimed, ctx.routes
    B = c.basis_matrix()
    out: list[tuple[str, flint.fmpq_mat, bool]] = []
    factors = routes.charpoly_factors
    full = routes.cyclotomic_full
    for f, e in factors:
        if not f.is_cyclotomic():
            extra = nullspace(mat_poly([int(x) for x in (f**e).coeffs()], routes.P))
            out.append((f"span(b) + ker q(P)^{e} (q of degree {f.degree()}: K' strictly larger than K)", join(B, extra), False))
    for i in range(len(c.classes)):
        keep = [j for j, (ci, _, _) in enumerate(c.anchors) if ci != i]
        out.append((f"span(b) without class {i}", columns(B, keep), True))
    for f, e in factors:
        if f.is_cyclotomic() and f.degree() >= 1 and f != flint.fmpz_poly([-1, 1]):
            rest = full // (f**e)
            coeffs = [int(x) for x in rest.coeffs()]
            # span(b) ∩ ker rest(P) = {B y : rest(P) B y = 0}: the kernel of the n x N matrix rest(P) B (the same
            # subspace as intersecting span(b) with ker rest(P), without the n x n kernel)
            Kf = column_basis(B * nullspace(mat_poly_apply(coeffs, routes.P, B)))
            out.append((f"span(b) minus the Fourier component of {f} (K minus a Fourier pair)", Kf, True))
    if any(d > 1 for d in c.periods):
        out.append(("ker(I-P) (some class is periodic)", routes.invariant, True))
    return out


@register_check("thm:minimal_quotient", "rho(P on R^n/K') < 1 iff K(P) is contained in K'; K(P) is the minimal such K'")
def _minimal_quotient(ctx: Context) -> Outcome:
    B = ctx.claimed.basis_matrix()
    keeps = _claimed_quotient(ctx)[1] if rank(B) == B.ncols() else _quotient_keeps_peripheral(ctx, B)
    if keeps is None:
        return "span of the claimed basis is not P-invariant"
    if keeps:
        return "the quotient by span(b) keeps a unimodular eigenvalue (charpoly has a cyclotomic factor)"
    if rank(B) != ctx.routes.cyclotomic_degree:
        return f"span(b) has dimension {rank(B)} but K(P) has {ctx.routes.cyclotomic_degree}: span(b) is not the minimal K'"
    for name, Kp, must_keep in _minimal_quotient_family(ctx):
        keeps = _quotient_keeps_peripheral(ctx, Kp)
        if keeps is None:
            return f"K' = {name} is not P-invariant"
        if keeps != must_keep:
            what = "keeps no" if must_keep else "keeps a"
            return f"the quotient by K' = {name} {what} unimodular eigenvalue"
    return None


@register_check("thm:quotient_contraction", "a norm on R^n/K(P) in which the quotient operator contracts by gamma < 1 "
       "(decided exactly: no root of unity among the quotient's eigenvalues; Lyapunov certificate as an extra)")
def _quotient_contraction(ctx: Context) -> Outcome:
    """Decided exactly: a unimodular eigenvalue of a stochastic matrix is a root of unity, so ``ρ(P̄) < 1`` exactly
    when the quotient's characteristic polynomial (``charpoly(P) / charpoly(P|span b)``) shares no root with the
    cyclotomic part of ``charpoly(P)``; then a norm with ``‖P̄‖ < 1`` exists.  The float-enclosure Lyapunov
    certificate names one such norm where it decides, and is reported as a note where it cannot."""
    K = ctx.claimed.basis_matrix()  # the claimed K: judged by whether its quotient contracts
    if rank(K) < K.ncols():
        return "the claimed basis is rank deficient"
    if not in_span_all(K, ctx.routes.P * K):
        return "span of the claimed basis is not P-invariant, so there is no quotient operator"
    q, keeps = _claimed_quotient(ctx)  # (shared with thm:minimal_quotient: the same quotient of the same claim)
    if q is None:  # pragma: no cover - invariance was checked above
        return "span of the claimed basis is not P-invariant"
    if keeps:
        return "the quotient operator has an eigenvalue of modulus 1 (its characteristic polynomial has a cyclotomic factor): no norm contracts it"
    problem = contraction_certificate(quotient_matrix(ctx.routes.P, K))
    if problem:
        return Held(f"decided exactly (no root of unity in the quotient's spectrum); the float certificate did not decide: {problem}")
    return Held("decided exactly; a Lyapunov (or power-norm) certificate also names a contracting norm")


@register_check("thm:wellposed", "unique v* in range(Pi) with v* = Pi(r + P v*); g* = r - (I-P)v* in K(P)")
def _wellposed(ctx: Context) -> Outcome:
    c, n, chain = ctx.claimed, ctx.chain.n, ctx.chain
    Pv = chain.matvec(c.v_star)
    resid = [r - g - v + pv for r, g, v, pv in zip(chain.r, c.g_star, c.v_star, Pv)]
    bad = [s for s, x in enumerate(resid) if x != 0]
    if bad:
        return f"r != g* + (I-P)v* at states {few(bad)}"
    if not ctx.routes.in_K(c.g_star):
        return "g* is not in K(P) (independent route: kernel of the cyclotomic part of charpoly)"
    nonzero = [a for a in c.anchor_states if c.v_star[a] != 0]
    if nonzero:
        return f"v* is not in range(Pi): nonzero at anchors {few(nonzero)}"
    B = ctx.routes.anchor_basis(c.anchor_states)
    if B is None:
        return "the claimed anchors do not identify K(P) (K[anchors, :] is singular)"
    brows = [[B[s, j] for j in range(B.ncols())] for s in range(n)]
    fixed = c.project([r + pv for r, pv in zip(chain.r, Pv)], brows)
    m = mismatch("v*", c.v_star, fixed, "Pi(r + P v*)")
    if m:
        return m
    # uniqueness: [(I-P) on W | K] is nonsingular
    W = [s for s in range(n) if s not in set(c.anchor_states)]
    IP = ctx.routes.I - ctx.routes.P
    K = ctx.routes.K
    M = join(columns(IP, W), K)  # [(I-P)|_W | K]
    if M.ncols() != n or rank(M) < n:
        return "the gauge-fixed system [(I-P)|_W, K] is singular: v* would not be unique"
    return general_projection_problem(ctx)


def random_projection(rng: random.Random, K: flint.fmpq_mat) -> flint.fmpq_mat | None:
    """A random projection with kernel ``span K``: ``I - K (L K)^{-1} L`` for a random integer ``L``
    (range ``ker L``); ``None`` when ``K`` is rank deficient."""
    n, N = K.nrows(), K.ncols()
    for _ in range(20):
        L = flint.fmpq_mat(N, n, exact_integers(random_integers(rng, -3, 3, N * n)))
        M = L * K
        if N == 0 or rank(M) == N:
            return identity(n) - (K * M.inv() * L if N else flint.fmpq_mat(n, n))
    return None


def general_projection_problem(ctx: Context, trials: int = 2) -> str | None:
    """``thm:wellposed`` for random projections ``Π`` with kernel ``K(P)`` (not only the anchor ``Π``): the
    fixed point ``v = Π(r + P v)`` in ``range(Π)`` exists and is unique, ``g = r - (I-P)v ∈ K(P)``, and
    ``v - v*`` lies in ``K(P)`` (the class ``[v*]`` in ``R^n/K`` does not depend on ``Π``)."""
    routes = ctx.routes
    rng = ctx.rng("wellposed-projections")
    r = routes.r
    for t in range(trials):
        Pi = random_projection(rng, routes.K)
        if Pi is None:
            return "K(P) (charpoly route) is rank deficient"
        # v = Pi(r + P v) in range(Pi) is (I - Pi P) v = Pi r: a solution lies in range(Pi) by its own equation
        # (v = Pi(...)), and a kernel vector x = Pi P x of I - Pi P does too, so [(I - Pi P); (I - Pi)] v = [Pi r; 0]
        # has a unique solution exactly when the square I - Pi P is nonsingular (one solve, not a 2n-row rref)
        try:
            v = (routes.I - Pi * routes.P).solve(Pi * r)
        except ZeroDivisionError:
            return f"random projection {t} with kernel K: the fixed point v = Pi(r + P v) in range(Pi) is not unique"
        if Pi * v != v or v != Pi * (r + routes.P * v):  # the fixed point itself, checked as the theorem states it
            return f"random projection {t} with kernel K: no fixed point v = Pi(r + P v) in range(Pi)"
        g = vec(r - (routes.I - routes.P) * v)
        if not routes.in_K(g):
            return f"random projection {t} with kernel K: g = r - (I-P)v is not in K(P)"
        if not routes.in_K([a - b for a, b in zip(vec(v), ctx.claimed.v_star)]):
            return f"v* is not in the class of the fixed point of random projection {t} with kernel K: [v*] != [v_Pi] in R^n/K"
    return None


@register_check("cor:recover_invariant_gain", "g = P_inf g* = P_inf r")
def _recover_gain(ctx: Context) -> Outcome:
    Pinf = ctx.routes.P_inf
    a = matvec(Pinf, ctx.claimed.g_star)
    m = mismatch("P_inf g*", a, vec(ctx.routes.rho), "P_inf r (spectral projector)")
    if m:
        return m
    if ctx.claimed.rho is not None:
        return mismatch("rho", ctx.claimed.rho, vec(ctx.routes.rho), "P_inf r (spectral projector)")
    return None


@register_check("prop:aperiodic_reduction", "all d_i = 1 implies K = range(P_inf) = ker(I-P), g* = rho, v* - h in ker(I-P)")
def _aperiodic(ctx: Context) -> Outcome:
    c = ctx.claimed
    if any(d != 1 for d in c.periods):
        return NOT_APPLICABLE
    if not same_span(ctx.routes.K, ctx.routes.invariant):
        return "K(P) != ker(I-P) on an aperiodic chain"
    if ctx.routes.K.ncols() != len(c.classes):
        return f"dim K = {ctx.routes.K.ncols()} but {len(c.classes)} classes"
    m = mismatch("g*", c.g_star, vec(ctx.routes.rho), "rho")
    if m:
        return m
    d = [v - h for v, h in zip(c.v_star, vec(ctx.routes.h))]
    if not in_span(ctx.routes.invariant, d):
        return "v* - h is not in ker(I-P)"
    return None


@register_check("thm:comparison_gain_bias", "P_inf g* = rho; unique psi in K cap ker P_inf with g* = rho + (I-P)psi; h = v* + psi - P_inf v*")
def _comparison(ctx: Context) -> Outcome:
    c, routes, n = ctx.claimed, ctx.routes, ctx.chain.n
    rho = vec(routes.rho)
    Pinf = routes.P_inf
    m = mismatch("P_inf g*", matvec(Pinf, c.g_star), rho, "rho (spectral projector)")
    if m:
        return m
    # psi solved in K cap ker P_inf, independently: coordinates x with K x = psi
    K = routes.K
    KP = Pinf * K
    Z = nullspace(KP)  # coefficient space of K cap ker P_inf
    S = K * Z  # basis of K cap ker P_inf
    IP = routes.I - routes.P
    target = col([g - r for g, r in zip(c.g_star, rho)])
    A = IP * S
    if rank(A) != S.ncols():
        return "(I-P) is not injective on K cap ker P_inf: psi would not be unique"
    # least-squares-free exact solve: A y = target must be consistent
    if S.ncols():
        AtA = A.transpose() * A
        y = AtA.solve(A.transpose() * target)
        psi = vec(S * y)
    else:
        psi = [flint.fmpq(0)] * n
    if vec(IP * col(psi)) != vec(target):
        return "no psi in K cap ker P_inf solves g* = rho + (I-P) psi"
    if c.psi is not None:
        m = mismatch("psi", c.psi, psi, "the solve in K cap ker P_inf")
        if m:
            return m
    Pv = matvec(Pinf, c.v_star)
    h_thm = [v + p - pv for v, p, pv in zip(c.v_star, psi, Pv)]
    m = mismatch("v* + psi - P_inf v*", h_thm, vec(routes.h), "h from the deviation matrix")
    if m:
        return m
    if c.h is not None:
        return mismatch("h", c.h, vec(routes.h), "the deviation matrix")
    return None


@register_check("cor:projected_bias", "Pi h = v*; g* = rho + (I-P)(I-Pi)h")
def _projected_bias(ctx: Context) -> Outcome:
    c, routes, n = ctx.claimed, ctx.routes, ctx.chain.n
    B = routes.anchor_basis(c.anchor_states)
    if B is None:
        return "the claimed anchors do not identify K(P)"
    brows = [[B[s, j] for j in range(B.ncols())] for s in range(n)]
    h = vec(routes.h)
    Ph = c.project(h, brows)
    m = mismatch("Pi h", Ph, c.v_star, "claimed v*")
    if m:
        return "v* " + m.replace("Pi h differs from claimed v*", "differs from Pi h")
    rest = [a - b for a, b in zip(h, Ph)]
    g = [r + x for r, x in zip(vec(routes.rho), vec((routes.I - routes.P) * col(rest)))]
    return mismatch("g*", c.g_star, g, "rho + (I-P)(I-Pi)h")


@register_check("def:main_b", "b_{i,k}(s) = P(enter class i with phase - hitting time = k mod d_i)")
def _def_b(ctx: Context) -> Outcome:
    c, n = ctx.claimed, ctx.chain.n
    B = ctx.routes.anchor_basis(c.anchor_states)
    if B is None:
        return f"K(P) has dimension {ctx.routes.K.ncols()} and the {c.N} claimed anchors do not identify it"
    for j in range(c.N):
        m = mismatch(f"b column {j} {c.anchors[j][:2]}", c.b(j), [B[s, j] for s in range(n)], "K (K[anchors,:])^-1")
        if m:
            return m
    return indicator_problem(c)


def indicator_problem(c: Claimed) -> str | None:
    """On recurrent states ``b_{i,k}`` is the indicator of ``C_{i,k}``: every state of every claimed class
    (shared by the dense and block versions of ``def:main_b``)."""
    for j, (i, k, _) in enumerate(c.anchors):
        inside = set(c.cyclic_classes[i][k])
        for s in c.classes[i]:
            if c.basis[s][j] != (1 if s in inside else 0):
                where = f"state {s} of C_{{{i},{k}}}" if s in inside else f"state {s} of class {i}, outside C_{{{i},{k}}}"
                return f"b_{{{i},{k}}} is {c.basis[s][j]} on {where}; the claimed cyclic classes and basis disagree"
    return None


@register_check("lem:main_b_identify", "{b_{i,k}} is a basis of K; Pi has kernel K; b_{i,k}(a_{j,l}) = delta")
def _b_identify(ctx: Context) -> Outcome:
    c, n = ctx.claimed, ctx.chain.n
    Bm = c.basis_matrix()
    if rank(Bm) != c.N:
        return f"the claimed basis has rank {rank(Bm)}, expected N = {c.N}"
    if not same_span(Bm, ctx.routes.K_power(c.periods)):
        return "span(b) != ker(P^D - I)"
    Pi = c.projection_matrix()  # Pi e_j = project(e_j) (test_projection_matrix_is_the_projection_of_the_unit_vectors)
    PiB = Pi * Bm  # column j: Pi b_j, all N at once
    if PiB != flint.fmpq_mat(n, c.N):
        j = next(j for j in range(c.N) if any(PiB[s, j] != 0 for s in range(n)))
        return f"Pi b_{c.anchors[j][:2]} != 0"
    if Pi * Pi != Pi:  # the whole matrix: idempotent for every v, not on a sampled one
        return "Pi is not idempotent"
    if rank(Pi) != n - c.N:
        return f"rank Pi = {rank(Pi)}, expected n - N = {n - c.N}"
    for j, (_, _, a) in enumerate(c.anchors):
        for l_ in range(c.N):
            if c.basis[a][l_] != (1 if l_ == j else 0):
                return f"delta property fails: b column {l_} at anchor {a} is {c.basis[a][l_]}"
    return None
