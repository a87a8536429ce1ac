"""One exact check per labelled result of the paper (THEOREMS.md).

Each check judges a :class:`~proofs_check.claimed.Claimed` decomposition of a
chain against objects computed by independent routes (:mod:`proofs_check.routes`)
and returns ``None`` when the identity holds, a string naming what fails
(with the states where it fails) otherwise, or :data:`NOT_APPLICABLE`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import flint

from exactpte.chain import MarkovRewardProcess

from .claimed import Claimed
from .linalg import cyclotomic_part, identity, nullspace, orbit, pivot_columns, rank
from .routes import Routes

__all__ = ["CHECKS", "Check", "Verdict", "Context", "run_checks", "NOT_APPLICABLE"]

NOT_APPLICABLE = "not applicable"


@dataclass
class Context:
    """What a check sees.  ``bhat``/``apply_pihat`` are the estimator-side inputs of the
    appendix lemmas: a learned basis (rows on the simplex) and an implementation of
    ``v -> Pi^ v``; by default an exact random perturbation of ``b`` and the definition."""

    chain: MarkovRewardProcess
    claimed: Claimed
    routes: Routes
    seed: int = 0
    bhat: list | None = None
    apply_pihat: Callable | None = None

    def rng(self, key: str) -> random.Random:
        return random.Random(f"{self.seed}:{key}")


@dataclass(frozen=True)
class Check:
    key: str
    statement: str
    func: Callable[[Context], str | None]
    kind: str = "exact"


@dataclass
class Verdict:
    key: str
    statement: str
    holds: bool | None  # None: not applicable to this chain
    detail: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {"key": self.key, "statement": self.statement, "holds": self.holds, "detail": self.detail, "seconds": self.seconds}


CHECKS: dict[str, Check] = {}


def check(key: str, statement: str, kind: str = "exact"):
    def deco(func):
        CHECKS[key] = Check(key, statement, func, kind)
        return func

    return deco


# -- helpers ----------------------------------------------------------------------
def col(v: Sequence) -> flint.fmpq_mat:
    return flint.fmpq_mat(len(v), 1, list(v))


def vec(M: flint.fmpq_mat) -> list:
    return [M[i, 0] for i in range(M.nrows())]


def diff_states(got: Sequence, expected: Sequence) -> list[int]:
    return [s for s, (a, b) in enumerate(zip(got, expected)) if a != b]


def mismatch(name: str, got: Sequence, expected: Sequence, route: str) -> str | None:
    if len(got) != len(expected):
        return f"{name} has length {len(got)}, expected {len(expected)}"
    bad = diff_states(got, expected)
    if not bad:
        return None
    s = bad[0]
    return f"{name} differs from {route} at states {_few(bad)} (e.g. state {s}: {got[s]} vs {expected[s]})"


def _few(xs: Sequence[int], k: int = 8) -> str:
    xs = list(xs)
    return str(xs[:k])[:-1] + (", ...]" if len(xs) > k else "]")


def matvec(P: flint.fmpq_mat, v: Sequence) -> list:
    return vec(P * col(v))


def in_span(basis: flint.fmpq_mat, v: Sequence) -> bool:
    if basis.ncols() == 0:
        return all(x == 0 for x in v)
    aug = flint.fmpq_mat([[basis[i, j] for j in range(basis.ncols())] + [v[i]] for i in range(basis.nrows())])
    return rank(aug) == rank(basis)


def in_span_all(basis: flint.fmpq_mat, M: flint.fmpq_mat) -> bool:
    return all(in_span(basis, [M[i, j] for i in range(M.nrows())]) for j in range(M.ncols()))


def same_span(A: flint.fmpq_mat, B: flint.fmpq_mat) -> bool:
    if A.ncols() == 0 or B.ncols() == 0:
        return A.ncols() == B.ncols() == 0 or rank(A) == rank(B) == 0
    joined = flint.fmpq_mat([[A[i, j] for j in range(A.ncols())] + [B[i, j] for j in range(B.ncols())] for i in range(A.nrows())])
    return rank(A) == rank(B) == rank(joined)


def basis_mat(c: Claimed, n: int) -> flint.fmpq_mat:
    M = flint.fmpq_mat(n, c.N)
    for s in range(n):
        for j in range(c.N):
            M[s, j] = c.basis[s][j]
    return M


def apply_Pi(c: Claimed, v: Sequence, basis: Sequence[Sequence] | None = None) -> list:
    """``(Π v)(s) = v(s) - sum v(a_{i,k}) b_{i,k}(s)`` with the claimed (or given) basis."""
    rows = c.basis if basis is None else basis
    at = [v[a] for a in c.anchor_states]
    return [v[s] - sum((x * y for x, y in zip(at, rows[s])), flint.fmpq(0)) for s in range(len(v))]


def random_vector(rng: random.Random, n: int, bound: int = 9) -> list:
    return [flint.fmpq(rng.randint(-bound, bound), rng.randint(1, 4)) for _ in range(n)]


def norm_inf(v: Sequence) -> flint.fmpq:
    return max((abs(x) for x in v), default=flint.fmpq(0))


def shape_problem(ctx: Context) -> str | None:
    c, n = ctx.claimed, ctx.chain.n
    if len(c.basis) != n or any(len(row) != c.N for row in c.basis):
        return f"basis is not {n} x N = {n} x {c.N}"
    if len(c.theta) != c.N:
        return f"theta has {len(c.theta)} entries, expected N = {c.N}"
    for name in ("g_star", "v_star"):
        if len(getattr(c, name)) != n:
            return f"{name} has {len(getattr(c, name))} entries, expected {n}"
    if sum(c.periods) != c.N or len(c.periods) != len(c.classes):
        return f"periods {list(c.periods)} do not match {len(c.classes)} classes and N = {c.N} anchors"
    return None


# -- Section 2-3 ---------------------------------------------------------------------
@check("lem:invariant_constant_on_class", "Px = x implies x constant on every closed class")
def _invariant_constant(ctx: Context):
    R = ctx.routes.invariant
    for j in range(R.ncols()):
        for i, members in enumerate(ctx.claimed.classes):
            vals = {R[s, j] for s in members}
            if len(vals) > 1:
                return f"invariant vector {j} is not constant on claimed class {i} {_few(members)}"
    if R.ncols() != len(ctx.claimed.classes):
        return f"dim ker(I-P) = {R.ncols()} but {len(ctx.claimed.classes)} closed classes are claimed"
    return None


def _quotient_charpoly(ctx: Context, K: flint.fmpq_mat):
    """charpoly of P restricted to span(K) and of the induced quotient operator."""
    P = ctx.routes.P
    if K.ncols() == 0:
        return flint.fmpq_poly([1]), P.charpoly()
    # coordinates of P K in the basis K (K has full column rank)
    KtK = K.transpose() * K
    A = KtK.solve(K.transpose() * (P * K))
    if P * K != K * A:
        return None, None  # span(K) is not P-invariant
    whole = ctx.routes.charpoly
    restricted = A.charpoly()
    quotient, rem = divmod(whole, restricted)
    if rem != 0:  # pragma: no cover - impossible for an invariant subspace
        return None, None
    return restricted, quotient


def _has_cyclotomic_factor(poly) -> bool:
    return len(cyclotomic_part(poly)[0]) > 1


@check("thm:minimal_quotient", "rho(P on R^n/K') < 1 iff K(P) is contained in K'; K(P) is the minimal such K'")
def _minimal_quotient(ctx: Context):
    B = basis_mat(ctx.claimed, ctx.chain.n)
    _, q = _quotient_charpoly(ctx, B)
    if q is None:
        return "span of the claimed basis is not P-invariant"
    if _has_cyclotomic_factor(q):
        return "the quotient by span(b) keeps a unimodular eigenvalue (charpoly has a cyclotomic factor)"
    if any(d > 1 for d in ctx.claimed.periods):
        _, q1 = _quotient_charpoly(ctx, ctx.routes.invariant)
        if q1 is None or not _has_cyclotomic_factor(q1):
            return "the quotient by ker(I-P) should keep a root of unity when some class is periodic"
    return None


def _quotient_matrix(ctx: Context, K: flint.fmpq_mat) -> flint.fmpq_mat:
    """Matrix of the quotient operator in the basis e_j + span(K), j in the non-pivot columns."""
    n = ctx.chain.n
    R, rk = K.transpose().rref() if K.ncols() else (flint.fmpq_mat(0, n), 0)
    pivots = pivot_columns(R, rk)
    rest = [j for j in range(n) if j not in pivots]
    C = flint.fmpq_mat(n, n)
    for j in range(K.ncols()):
        for i in range(n):
            C[i, j] = K[i, j]
    for t, j in enumerate(rest):
        C[j, K.ncols() + t] = 1
    M = C.inv() * ctx.routes.P * C
    q = len(rest)
    off = K.ncols()
    return flint.fmpq_mat([[M[off + a, off + b] for b in range(q)] for a in range(q)]) if q else flint.fmpq_mat(0, 0)


def _spectral_radius_upper(poly) -> flint.arb:
    """Rigorous upper bound on the largest root modulus (arb balls from complex root isolation)."""
    num = flint.fmpz_poly([int(c * poly.denom()) for c in poly.coeffs()])
    if num.degree() < 1:
        return flint.arb(0)
    best = flint.arb(0)
    for root, _mult in num.complex_roots():
        m = abs(root)
        best = m if m.upper() > best.upper() else best
    return best.upper()


@check("thm:quotient_contraction", "a norm on R^n/K(P) in which the quotient operator contracts by gamma < 1 (Lyapunov certificate)")
def _quotient_contraction(ctx: Context):
    K = basis_mat(ctx.claimed, ctx.chain.n)  # the claimed K: judged by whether its quotient contracts
    if rank(K) < K.ncols():
        return "the claimed basis is rank deficient"
    if not in_span_all(K, ctx.routes.P * K):
        return "span of the claimed basis is not P-invariant, so there is no quotient operator"
    A = _quotient_matrix(ctx, K)
    q = A.nrows()
    if q == 0:
        return None  # trivial quotient: every norm works
    if q > LYAPUNOV_MAX_DIM:
        return _power_norm_certificate(A)
    # a rational at or above the rigorous enclosure's upper end
    hi_q = _arb_to_fraction_up(_spectral_radius_upper(A.charpoly()))
    if hi_q >= 1:
        return f"spectral radius of the quotient operator is not below 1 (upper bound {hi_q})"
    gamma = (hi_q + 1) / 2
    g = flint.fmpq(gamma.numerator, gamma.denominator)
    Bm = A * (1 / g)
    # H - B^T H B = I, solved as a q^2 linear system (vec trick)
    size = q * q
    L = flint.fmpq_mat(size, size)
    for i in range(q):
        for j in range(q):
            row = i * q + j
            L[row, row] += 1
            for k in range(q):
                if Bm[k, i] == 0:
                    continue
                for l_ in range(q):
                    if Bm[l_, j] != 0:
                        L[row, k * q + l_] -= Bm[k, i] * Bm[l_, j]
    rhs = flint.fmpq_mat(size, 1)
    for i in range(q):
        rhs[i * q + i, 0] = 1
    try:
        hvec = L.solve(rhs)
    except ZeroDivisionError:
        return "the Lyapunov equation H - B^T H B = I is singular"
    H = flint.fmpq_mat(q, q, [hvec[t, 0] for t in range(size)])
    if H != H.transpose():
        return "Lyapunov solution H is not symmetric"
    if Bm.transpose() * H * Bm + identity(q) != H:
        return "Lyapunov identity fails"
    for k in range(1, q + 1):
        minor = flint.fmpq_mat([[H[a, b] for b in range(k)] for a in range(k)]).det()
        if minor <= 0:
            return f"Lyapunov matrix H is not positive definite (leading minor {k} is {minor})"
    return None


LYAPUNOV_MAX_DIM = 12  # the exact Lyapunov system has q^2 unknowns; beyond this, the power-norm certificate


def _power_norm_certificate(A: flint.fmpq_mat, max_doublings: int = 16) -> str | None:
    """Certificate for large quotients: a ``k`` with ``‖A^k‖∞ < 1``, bounded rigorously in ball arithmetic.

    Then ``‖x‖_q = sum_{i<k} γ^{-i} ‖A^i x‖∞`` with ``γ = ‖A^k‖∞^{1/k} < 1`` is a norm in which
    ``A`` contracts by ``γ`` (``thm:quotient_contraction``).
    """
    old = flint.ctx.prec
    flint.ctx.prec = 256
    try:
        M = flint.arb_mat(A.nrows(), A.ncols(), [flint.arb(x) for x in A.entries()])
        k = 1
        for _ in range(max_doublings + 1):
            bound = max(sum((abs(M[i, j]) for j in range(M.ncols())), flint.arb(0)).upper() for i in range(M.nrows()))
            if bound < 1:
                return None
            M = M * M
            k *= 2
        return f"no power A^k with k <= 2^{max_doublings} has a certified infinity norm below 1"
    finally:
        flint.ctx.prec = old


def _arb_to_fraction_up(x: flint.arb) -> Fraction:
    """A rational >= the arb value's upper end."""
    def exact(a: flint.arb) -> Fraction:
        if a == 0:
            return Fraction(0)
        man, exp = a.mid().man_exp()
        return Fraction(int(man)) * Fraction(2) ** int(exp)

    return exact(x.upper())


@check("thm:wellposed", "unique v* in range(Pi) with v* = Pi(r + P v*); g* = r - (I-P)v* in K(P)")
def _wellposed(ctx: Context):
    c, n, chain = ctx.claimed, ctx.chain.n, ctx.chain
    Pv = chain.matvec(c.v_star)
    resid = [r - g - v + pv for r, g, v, pv in zip(chain.r, c.g_star, c.v_star, Pv)]
    bad = [s for s, x in enumerate(resid) if x != 0]
    if bad:
        return f"r != g* + (I-P)v* at states {_few(bad)}"
    if not in_span(ctx.routes.K, c.g_star):
        return "g* is not in K(P) (independent route: kernel of the cyclotomic part of charpoly)"
    nonzero = [a for a in c.anchor_states if c.v_star[a] != 0]
    if nonzero:
        return f"v* is not in range(Pi): nonzero at anchors {_few(nonzero)}"
    B = ctx.routes.anchor_basis(c.anchor_states)
    if B is None:
        return "the claimed anchors do not identify K(P) (K[anchors, :] is singular)"
    brows = [[B[s, j] for j in range(B.ncols())] for s in range(n)]
    fixed = apply_Pi(c, [r + pv for r, pv in zip(chain.r, Pv)], brows)
    m = mismatch("v*", c.v_star, fixed, "Pi(r + P v*)")
    if m:
        return m
    # uniqueness: [(I-P) on W | K] is nonsingular
    W = [s for s in range(n) if s not in set(c.anchor_states)]
    IP = ctx.routes.I - ctx.routes.P
    K = ctx.routes.K
    M = flint.fmpq_mat([[IP[i, j] for j in W] + [K[i, j] for j in range(K.ncols())] for i in range(n)])
    if M.ncols() != n or rank(M) < n:
        return "the gauge-fixed system [(I-P)|_W, K] is singular: v* would not be unique"
    return None


@check("cor:recover_invariant_gain", "g = P_inf g* = P_inf r")
def _recover_gain(ctx: Context):
    Pinf = ctx.routes.P_inf
    a = matvec(Pinf, ctx.claimed.g_star)
    m = mismatch("P_inf g*", a, vec(ctx.routes.rho), "P_inf r (spectral projector)")
    if m:
        return m
    if ctx.claimed.rho is not None:
        return mismatch("rho", ctx.claimed.rho, vec(ctx.routes.rho), "P_inf r (spectral projector)")
    return None


@check("prop:aperiodic_reduction", "all d_i = 1 implies K = range(P_inf) = ker(I-P), g* = rho, v* - h in ker(I-P)")
def _aperiodic(ctx: Context):
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


@check("thm:comparison_gain_bias", "P_inf g* = rho; unique psi in K cap ker P_inf with g* = rho + (I-P)psi; h = v* + psi - P_inf v*")
def _comparison(ctx: Context):
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


@check("cor:projected_bias", "Pi h = v*; g* = rho + (I-P)(I-Pi)h")
def _projected_bias(ctx: Context):
    c, routes, n = ctx.claimed, ctx.routes, ctx.chain.n
    B = routes.anchor_basis(c.anchor_states)
    if B is None:
        return "the claimed anchors do not identify K(P)"
    brows = [[B[s, j] for j in range(B.ncols())] for s in range(n)]
    h = vec(routes.h)
    Ph = apply_Pi(c, h, brows)
    m = mismatch("Pi h", Ph, c.v_star, "claimed v*")
    if m:
        return "v* " + m.replace("Pi h differs from claimed v*", "differs from Pi h")
    rest = [a - b for a, b in zip(h, Ph)]
    g = [r + x for r, x in zip(vec(routes.rho), vec((routes.I - routes.P) * col(rest)))]
    return mismatch("g*", c.g_star, g, "rho + (I-P)(I-Pi)h")


@check("def:main_b", "b_{i,k}(s) = P(enter class i with phase - hitting time = k mod d_i)")
def _def_b(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    B = ctx.routes.anchor_basis(c.anchor_states)
    if B is None:
        return f"K(P) has dimension {ctx.routes.K.ncols()} and the {c.N} claimed anchors do not identify it"
    for j in range(c.N):
        m = mismatch(f"b column {j} {c.anchors[j][:2]}", c.b(j), [B[s, j] for s in range(n)], "K (K[anchors,:])^-1")
        if m:
            return m
    for j, (i, k, _) in enumerate(c.anchors):
        for s in c.cyclic_classes[i][k]:
            if c.basis[s][j] != 1:
                return f"b_{{{i},{k}}} is not 1 on state {s} of C_{{{i},{k}}}"
    return None


@check("lem:main_b_identify", "{b_{i,k}} is a basis of K; Pi has kernel K; b_{i,k}(a_{j,l}) = delta")
def _b_identify(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    Bm = basis_mat(c, n)
    if rank(Bm) != c.N:
        return f"the claimed basis has rank {rank(Bm)}, expected N = {c.N}"
    if not same_span(Bm, ctx.routes.K_power(c.periods)):
        return "span(b) != ker(P^D - I)"
    for j in range(c.N):
        if any(x != 0 for x in apply_Pi(c, c.b(j))):
            return f"Pi b_{c.anchors[j][:2]} != 0"
    v = random_vector(ctx.rng("Pi"), n)
    if apply_Pi(c, apply_Pi(c, v)) != apply_Pi(c, v):
        return "Pi is not idempotent"
    Pi = flint.fmpq_mat([apply_Pi(c, [flint.fmpq(int(i == j)) for i in range(n)]) for j in range(n)]).transpose()
    if rank(Pi) != n - c.N:
        return f"rank Pi = {rank(Pi)}, expected n - N = {n - c.N}"
    for j, (_, _, a) in enumerate(c.anchors):
        for l_ in range(c.N):
            if c.basis[a][l_] != (1 if l_ == j else 0):
                return f"delta property fails: b column {l_} at anchor {a} is {c.basis[a][l_]}"
    return None


# -- Section 4 -----------------------------------------------------------------------
def _horizons(c: Claimed) -> list[int]:
    D = lcm(*c.periods) if c.periods else 1
    return sorted({1, 2, D, 3 * D + 1, 20})


@check("lem:app_telescoping", "J_T = sum_{t<T} P^t g_v + v - P^T v for every v and T >= 1")
def _telescoping(ctx: Context):
    routes, n = ctx.routes, ctx.chain.n
    rng = ctx.rng("tele")
    vs = [list(ctx.claimed.v_star), random_vector(rng, n)]
    P = routes.P
    for T in _horizons(ctx.claimed):
        J = routes.returns(T)
        for v in vs:
            gv = col([r - x + y for r, x, y in zip(ctx.chain.r, v, matvec(P, v))])
            rhs = orbit(P, gv, T) + col(v) - routes.P_pow(T) * col(v)
            if rhs != J:
                return f"return identity fails at T = {T}"
        # the claimed split: persistent orbit from theta and b (P b_(i,k) = b_(i,k-1)) plus boundary
        persistent = _orbit_sum(ctx.claimed, T)
        split = [o + v - pv for o, v, pv in zip(persistent, ctx.claimed.v_star, vec(routes.P_pow(T) * col(ctx.claimed.v_star)))]
        m = mismatch(f"sum_t P^t g* + v* - P^T v* (T = {T})", split, vec(J), "J_T by matrix powers")
        if m:
            return m
    return None


def _orbit_sum(c: Claimed, T: int) -> list:
    """``sum_{t<T} P^t g*`` from the claimed theta and basis: ``sum_(i,k) b_(i,k) sum_t theta_(i,k+t)``."""
    coeffs = []
    for j, (i, k, _) in enumerate(c.anchors):
        d = c.periods[i]
        base = j - k
        coeffs.append(sum((c.theta[base + (k + t) % d] for t in range(T)), flint.fmpq(0)))
    return [sum((a * b for a, b in zip(coeffs, row)), flint.fmpq(0)) for row in c.basis]


@check("prop:app_vstar_transient_cost", "v*(s) = E_s[sum_{t < tau_A} (r - g*)(X_t)]")
def _transient_cost(ctx: Context):
    c, routes, n = ctx.claimed, ctx.routes, ctx.chain.n
    A = set(c.anchor_states)
    rest = [s for s in range(n) if s not in A]
    if not rest:
        return mismatch("v*", c.v_star, [flint.fmpq(0)] * n, "zero (every state is an anchor)")
    P = routes.P
    M = flint.fmpq_mat([[int(i == j) - P[i, j] for j in rest] for i in rest])
    rhs = flint.fmpq_mat(len(rest), 1, [ctx.chain.r[s] - c.g_star[s] for s in rest])
    try:
        x = M.solve(rhs)
    except ZeroDivisionError:
        return "the anchors are not reached almost surely from every state (hitting system singular)"
    expected = [flint.fmpq(0)] * n
    for t, s in enumerate(rest):
        expected[s] = x[t, 0]
    return mismatch("v*", c.v_star, expected, "the hitting-cost solve with anchors absorbing")


def _cycle_order(chain: MarkovRewardProcess) -> list[int] | None:
    n = chain.n
    succ = [chain.support[s] for s in range(n)]
    if any(len(s) != 1 for s in succ):
        return None
    order, s = [0], succ[0][0]
    while s != 0 and len(order) <= n:
        order.append(s)
        s = succ[s][0]
    return order if len(order) == n and s == 0 else None


@check("prop:deterministic_cycle", "d-cycle: K = R^d, Pi = 0, v* = 0, g* = r; even d and r = 1{k < d/2} give ||h|| = d/8")
def _det_cycle(ctx: Context):
    order = _cycle_order(ctx.chain)
    if order is None:
        return NOT_APPLICABLE
    c, n = ctx.claimed, ctx.chain.n
    if ctx.routes.K.ncols() != n:
        return f"dim K = {ctx.routes.K.ncols()} on a {n}-cycle, expected {n}"
    for j in range(c.N):
        if any(x != 0 for x in apply_Pi(c, c.b(j))) or c.N != n:
            return "Pi is not the zero map on the cycle"
    m = mismatch("v*", c.v_star, [flint.fmpq(0)] * n, "zero") or mismatch("g*", c.g_star, list(ctx.chain.r), "r")
    if m:
        return m
    rbar = sum(ctx.chain.r, flint.fmpq(0)) / n
    h = vec(ctx.routes.h)
    for k in range(n):  # h(k) - h(k+1) = r(k) - rbar along the cycle, sum h = 0
        s, t = order[k], order[(k + 1) % n]
        if h[s] - h[t] != ctx.chain.r[s] - rbar:
            return f"h(k) - h(k+1) != r(k) - rbar at k = {k}"
    if n % 2 == 0 and all(ctx.chain.r[order[k]] == (1 if 2 * k < n else 0) for k in range(n)):
        if norm_inf(h) != flint.fmpq(n, 8):
            return f"||h|| = {norm_inf(h)}, expected d/8 = {flint.fmpq(n, 8)}"
    if c.h is not None:
        return mismatch("h", c.h, h, "the deviation matrix")
    return None


@check("cor:return_error", "||J^_T - J_T|| <= T||g^ - g*|| + 2||v^ - v*|| for every candidate (g^, v^)")
def _return_error(ctx: Context):
    c, routes, n = ctx.claimed, ctx.routes, ctx.chain.n
    rng = ctx.rng("ret")
    P = routes.P
    for trial in range(4):
        dg = random_vector(rng, n, 3) if trial else [flint.fmpq(0)] * n
        dv = random_vector(rng, n, 3) if trial else [flint.fmpq(0)] * n
        gh = [a + b for a, b in zip(c.g_star, dg)]
        vh = [a + b for a, b in zip(c.v_star, dv)]
        for T in _horizons(c):
            Jh = orbit(P, col(gh), T) + col(vh) - routes.P_pow(T) * col(vh)
            err = norm_inf(vec(Jh - routes.returns(T)))
            bound = T * norm_inf(dg) + 2 * norm_inf(dv)
            if err > bound:
                return f"return error {err} exceeds T||dg|| + 2||dv|| = {bound} at T = {T}"
    return None


# -- Appendix (deterministic parts) ---------------------------------------------------
@check("lem:recurrent_decomp", "closed SCCs of the support graph = recurrent classes")
def _recurrent(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    Pinf = ctx.routes.P_inf
    recurrent = {y for y in range(n) if any(Pinf[s, y] != 0 for s in range(n))}
    claimed = {s for cls in c.classes for s in cls}
    if recurrent != claimed:
        return f"claimed recurrent set differs from the states with a nonzero P_inf column: {_few(sorted(recurrent ^ claimed))}"
    for i, cls in enumerate(c.classes):
        S = set(cls)
        # one class: every state's P_inf row restricted to the class is the same positive vector
        ref = [Pinf[cls[0], y] for y in cls]
        if any(x <= 0 for x in ref):
            return f"claimed class {i} is not irreducible"
        for s in cls:
            if [Pinf[s, y] for y in cls] != ref:
                return f"claimed class {i} mixes states of different classes"
            if any(y not in S for y in ctx.chain.support[s]):
                return f"claimed class {i} is not closed (state {s} leaves it)"
    return None


@check("lem:shift_b", "P b_{i,k} = b_{i,k-1 mod d_i}")
def _shift(ctx: Context):
    c = ctx.claimed
    col_of = {(i, k): j for j, (i, k, _) in enumerate(c.anchors)}
    for j, (i, k, _) in enumerate(c.anchors):
        prev = col_of.get((i, (k - 1) % c.periods[i]))
        if prev is None:
            return f"no basis column for ({i}, {(k - 1) % c.periods[i]})"
        m = mismatch(f"P b_{i},{k}", ctx.chain.matvec(c.b(j)), c.b(prev), f"b_{i},{(k - 1) % c.periods[i]}")
        if m:
            return m
    return None


@check("lem:Pi_kernel", "Pi^2 = Pi, (Pi v)(a) = 0, ker Pi = span b, dim ker Pi = N")
def _Pi_kernel(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    rng = ctx.rng("Pik")
    for _ in range(3):
        v = random_vector(rng, n)
        w = apply_Pi(c, v)
        if apply_Pi(c, w) != w:
            return "Pi is not idempotent"
        bad = [a for a in c.anchor_states if w[a] != 0]
        if bad:
            return f"(Pi v) is nonzero at anchors {_few(bad)}"
    Pi = flint.fmpq_mat([apply_Pi(c, [flint.fmpq(int(i == j)) for i in range(n)]) for j in range(n)]).transpose()
    ker = nullspace(Pi)
    if ker.ncols() != c.N:
        return f"dim ker Pi = {ker.ncols()}, expected N = {c.N}"
    if not same_span(ker, basis_mat(c, n)):
        return "ker Pi != span b"
    return None


@check("lem:kernel_equals_peripheral", "span b = K(P)")
def _kernel_peripheral(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    Bm = basis_mat(ctx.claimed, n)
    if not same_span(Bm, ctx.routes.K):
        return "span b != K(P) (kernel of the cyclotomic part of charpoly)"
    if not same_span(Bm, ctx.routes.K_power(c.periods)):
        return "span b != ker(P^D - I)"
    return None


@check("rem:peripheral_semisimple", "no Jordan blocks on the unit circle: rank(P^D - I) = rank((P^D - I)^2)")
def _semisimple(ctx: Context):
    routes = ctx.routes
    D = lcm(*ctx.claimed.periods) if ctx.claimed.periods else 1
    M = routes.P_pow(D) - routes.I
    if rank(M) != rank(M * M):
        return "rank(P^D - I) != rank((P^D - I)^2)"
    if ctx.chain.n - rank(M) != routes.K.ncols():
        return f"dim ker(P^D - I) = {ctx.chain.n - rank(M)} with D = lcm(periods) = {D}, but dim K(P) = {routes.K.ncols()}"
    if routes.K.ncols() != routes.K_semisimple.ncols():
        return "peripheral generalized eigenspace is larger than the eigenspace"
    return None


@check("lem:W_norm_equiv", "W cap K = {0}")
def _W_cap_K(ctx: Context):
    if ctx.routes.anchor_basis(ctx.claimed.anchor_states) is None:
        return "K[anchors, :] is singular: a nonzero element of K vanishes at every anchor"
    return None


def _perturbed_basis(ctx: Context, eps: flint.fmpq) -> list[list]:
    """The learned b^ given in the context, else an exact rational b^ on the simplex:
    (1 - eps) b(s) + eps u(s) on transient rows, b on recurrent rows."""
    if ctx.bhat is not None:
        return [list(row) for row in ctx.bhat]
    c, n = ctx.claimed, ctx.chain.n
    rng = ctx.rng("bhat")
    recurrent = {s for cls in c.classes for s in cls}
    out = []
    for s in range(n):
        if s in recurrent:
            out.append(list(c.basis[s]))
            continue
        w = [rng.randint(0, 5) for _ in range(c.N)]
        if sum(w) == 0:
            w[rng.randrange(c.N)] = 1
        tot = sum(w)
        out.append([(1 - eps) * b + eps * flint.fmpq(x, tot) for b, x in zip(c.basis[s], w)])
    return out


@check("lem:vhat_star_unique", "the Pi^-projected fixed point v = Pi^(r + P v) exists and is unique")
def _vhat_unique(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    bh = _perturbed_basis(ctx, flint.fmpq(1, 100))
    A = set(c.anchor_states)
    W = [s for s in range(n) if s not in A]
    P = ctx.routes.P
    pihat = ctx.apply_pihat or (lambda v: apply_Pi(c, v, bh))
    rng = ctx.rng("range")
    for _ in range(3):  # the lemma's setting: range(Pi^) = W (anchor exactness)
        v = random_vector(rng, n)
        if any(x != 0 for s, x in enumerate(pihat(v)) if s in A):
            return "Pi^ v is not zero at the anchors: b^ is not exact at the anchors, so range(Pi^) != W"
        w = [0 if s in A else x for s, x in enumerate(v)]
        if pihat(w) != w:
            return "Pi^ does not fix W (vectors vanishing at the anchors)"
    # unknown v on W (v = 0 on anchors); equations (I - Pi^ P) v = Pi^ r on W rows
    cols = []
    for j in W:
        e = [flint.fmpq(0)] * n
        e[j] = flint.fmpq(1)
        Pe = matvec(P, e)
        ImPiP = [a - b for a, b in zip(e, pihat(Pe))]
        cols.append([ImPiP[s] for s in W])
    if not W:
        return None
    M = flint.fmpq_mat([[cols[j][i] for j in range(len(W))] for i in range(len(W))])
    if rank(M) < len(W):
        return "the Pi^-projected fixed-point system is singular"
    return None


@check("lem:b_simplex", "b >= 0 and sum_{(i,k)} b_{i,k}(s) = 1 (also for b^)")
def _b_simplex(ctx: Context):
    for s, row in enumerate(ctx.claimed.basis):
        neg = [j for j, x in enumerate(row) if x < 0]
        if neg:
            return f"b(s) has a negative entry at state {s}, column {neg[0]}"
        tot = sum(row, flint.fmpq(0))
        if tot != 1:
            return f"sum_(i,k) b_(i,k)(s) = {tot} at state {s}, expected 1"
    for s, row in enumerate(_perturbed_basis(ctx, flint.fmpq(1, 7))):
        if any(x < 0 for x in row) or sum(row, flint.fmpq(0)) != 1:
            return f"the learned b^ leaves the simplex at state {s}"
    return None


@check("lem:pihat_dev", "||(Pi^ - Pi) v|| <= eps_b ||v|| when max_s ||b^(s) - b(s)||_1 <= eps_b")
def _pihat_dev(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    rng = ctx.rng("dev")
    bh = _perturbed_basis(ctx, flint.fmpq(1, 5))
    eps = max((sum((abs(a - b) for a, b in zip(r1, r2)), flint.fmpq(0)) for r1, r2 in zip(bh, c.basis)), default=flint.fmpq(0))
    pihat = ctx.apply_pihat or (lambda v: apply_Pi(c, v, bh))
    for _ in range(5):
        v = random_vector(rng, n)
        d = [a - b for a, b in zip(pihat(v), apply_Pi(c, v))]
        if norm_inf(d) > eps * norm_inf(v):
            return f"||(Pi^ - Pi)v|| = {norm_inf(d)} exceeds eps_b ||v|| = {eps * norm_inf(v)}"
    return None


@check("lem:pihat_infty_norm", "||Pi^ v|| <= 2||v|| (and the same for Pi)")
def _pihat_norm(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    rng = ctx.rng("norm")
    bh = _perturbed_basis(ctx, flint.fmpq(1, 3))
    pihat = ctx.apply_pihat or (lambda v: apply_Pi(c, v, bh))
    for _ in range(5):
        v = random_vector(rng, n)
        for op, name in ((pihat, "Pi^"), (lambda v: apply_Pi(c, v), "Pi")):
            w = op(v)
            if norm_inf(w) > 2 * norm_inf(v):
                return f"||{name} v|| = {norm_inf(w)} exceeds 2||v|| = {2 * norm_inf(v)}"
    return None


@check("lem:anchor_interpolation", "every g in K equals sum_(i,k) g(a_(i,k)) b_(i,k)")
def _anchor_interp(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    K = ctx.routes.K
    for j in range(K.ncols()):
        g = [K[s, j] for s in range(n)]
        if any(x != 0 for x in apply_Pi(c, g)):
            return f"K basis vector {j} is not interpolated by its anchor values"
    return None


@check("def:theta_star", "theta*_(i,k) = g*(a_(i,k)) and g* = sum theta* b")
def _theta(ctx: Context):
    c = ctx.claimed
    m = mismatch("theta", list(c.theta), [c.g_star[a] for a in c.anchor_states], "g* at the anchors")
    if m:
        return m
    g = [sum((t * b for t, b in zip(c.theta, row)), flint.fmpq(0)) for row in c.basis]
    return mismatch("g*", c.g_star, g, "sum theta b")


@check("P_inf", "claimed P_inf equals the spectral projector for eigenvalue 1")
def _P_inf(ctx: Context):
    c, n = ctx.claimed, ctx.chain.n
    if c.P_inf is None:
        return NOT_APPLICABLE
    Pinf = ctx.routes.P_inf
    bad = sorted({s for s in range(n) for y in range(n) if c.P_inf[s][y] != Pinf[s, y]})
    if bad:
        return f"P_inf differs from the spectral projector in rows {_few(bad)}"
    return None


# -- runner -----------------------------------------------------------------------
def run_checks(
    chain: MarkovRewardProcess,
    claimed: Claimed,
    *,
    only: Sequence[str] | None = None,
    seed: int = 0,
    routes: Routes | None = None,
    bhat: list | None = None,
    apply_pihat: Callable | None = None,
) -> list[Verdict]:
    """Run the checks (all, or ``only``) on one chain and claimed decomposition."""
    keys = list(CHECKS) if not only else list(only)
    unknown = [k for k in keys if k not in CHECKS]
    if unknown:
        raise KeyError(f"unknown check key(s) {unknown}; known: {', '.join(CHECKS)}")
    ctx = Context(chain, claimed, routes or Routes(chain), seed, bhat, apply_pihat)
    verdicts = []
    problem = shape_problem(ctx)
    for key in keys:
        chk = CHECKS[key]
        t0 = time.perf_counter()
        if problem:
            out: str | None = f"malformed decomposition: {problem}"
        else:
            try:
                out = chk.func(ctx)
            except (IndexError, KeyError, ValueError, ZeroDivisionError) as e:
                out = f"check could not be evaluated on this decomposition ({type(e).__name__}: {e})"
        dt = time.perf_counter() - t0
        if out == NOT_APPLICABLE:
            verdicts.append(Verdict(key, chk.statement, None, NOT_APPLICABLE, dt))
        else:
            verdicts.append(Verdict(key, chk.statement, out is None, out or "", dt))
    return verdicts
