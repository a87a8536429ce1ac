"""The decomposition with certified float enclosures, for chains too large for exact arithmetic.

The structure (classes, periods, cyclic classes, anchors) is exact graph work, as in the exact
path.  Every number is then an interval ``[lo, hi]`` that provably holds the exact value: each
comes from certified M-matrix solves (:mod:`exactpte.certified.systems`) and outward-rounded
interval arithmetic (:mod:`exactpte.certified.rounding`):

- **stationary distributions**: with ``a`` a state of the class and ``N`` the others,
  ``z = (I - P_NN)^{-T} P(a, N)`` counts expected visits before returning to ``a``, and
  ``π = (1, z) / (1 + Σ z)`` (Kac; renewal theory);
- **gauge** (``θ``, ``v*`` on a class, anchors ``A``): ``v* = v_r - Σ_k θ_k w_k`` on ``F \\ A``
  with ``v_r = (I - P_NN)^{-1} r_N``, ``w_k = (I - P_NN)^{-1} 1_{C_k \\ A}``; the anchor rows
  ``v*(a_k) = 0`` give the ``d x d`` system ``(I + G) θ = r_A + P_{A,N} v_r``, solved in ball
  arithmetic (python-flint ``arb_mat``) (``lem:main_b_identify``);
- **bias on a class**: ``h = w - (π·w) 1`` with ``w = (I - P_NN)^{-1} (r - γ)_N``, ``w(a) = 0``;
- **transient block**: absorption ``α_i``, the phase basis ``b_{i,k}`` (the phase-augmented
  system ``x_k - Q x_{k+1} = c_k``, certified by the same witness ``u`` as ``I - Q``:
  ``(I - Q̃) (u, .., u) = ((I - Q) u, ..)``), then ``ρ = Σ γ_i α_i``, ``g* = Σ θ b``
  (``lem:anchor_interpolation``), ``ψ = Σ c b`` (``thm:comparison_gain_bias``), and ``h``,
  ``v*`` on ``T`` by absorbing solves with interval right-hand sides.

A bound that cannot be certified is reported as such (infinite width), never narrowed.
"""

from __future__ import annotations

import math
import time

import flint
import numpy as np
import scipy.sparse as sp

from ..chain import MarkovRewardProcess, check_chain
from ..errors import UsageError
from ..floats import split_sparse_matrix, split_values
from ..progress import Progress
from ..structure import Structure
from .rounding import ETA, U, Interval, down, gamma, up
from .residual import RowSchedule, SplitMatrix, dd_residual, dekker_split, dot_terms, exact_sum, two_prod, two_sum
from .result import CertifiedDecomposition
from .systems import DIRECT_LIMIT, Certificate, ClassSolver, MMatrixSystem

__all__ = ["decompose_certified", "nonneg_matvec"]

QUANTITIES = ("basis", "theta", "g_star", "v_star", "rho", "h", "psi", "stationary", "class_gain")


def nonneg_matvec(M: sp.csr_matrix, x: Interval) -> Interval:
    """An enclosure of ``M x`` for a nonnegative ``M`` (floats within ``u`` relative of exact entries)
    and an interval vector ``x``: monotone, so ``[M lo, M hi]`` widened by the rounding bound."""
    k = np.diff(M.indptr).astype(np.float64) + 1
    mag = np.maximum(np.abs(x.lo), np.abs(x.hi))
    err = up(up(gamma(2 * k + 2) * up(M @ mag)) + k * ETA)
    return Interval(down(M @ x.lo - err), up(M @ x.hi + err))


def exact_minus(r_split: tuple[np.ndarray, np.ndarray], f: np.ndarray, f_rad: np.ndarray | float = 0.0) -> tuple[Interval, Interval]:
    """``r - f`` for exact ``r`` (``r_split = (hi, lo)`` to ``2^-106``, :func:`~exactpte.floats.split_values`)
    and floats ``f`` known to ``f_rad``, as a point ``s`` plus a small interval (``c ∈ s + low``): the
    right-hand side keeps the digits a float subtraction would drop.

    >>> s, low = exact_minus((np.array([0.1]), np.array([5.551115123125783e-18])), np.array([0.1]))
    >>> float(s.lo[0]), bool(low.lo[0] <= 5.551115123125783e-18 <= low.hi[0])
    (0.0, True)
    """
    r_hi, r_lo = r_split
    s, e = two_sum(r_hi, -f)
    low = e + r_lo
    rad = up(up(up(U * np.abs(low)) + up(2.0**-105 * np.abs(r_hi))) + up(f_rad)) + ETA
    return Interval(s, s), Interval(down(low - rad), up(low + rad))


def _arb_solve(A: list[list[Interval]], b: list[Interval]) -> list[Interval] | None:
    """``A x = b`` for a small dense interval system, in ball arithmetic (``None``: not certified)."""
    def ball(iv: Interval):
        return flint.arb(float(iv.lo)).union(flint.arb(float(iv.hi)))

    try:
        M = flint.arb_mat([[ball(x) for x in row] for row in A])
        v = flint.arb_mat([[ball(x)] for x in b])
        X = M.solve(v)
    except (ZeroDivisionError, ValueError):
        return None
    out = []
    for i in range(len(b)):
        x = X[i, 0]
        if not x.is_finite():
            return None
        out.append(Interval(down(float(x.lower())), up(float(x.upper()))))
    return out


def decompose_certified(chain: MarkovRewardProcess, *, tol: float = 1e-9, progress: Progress | None = None) -> CertifiedDecomposition:
    """Certified enclosures of the decomposition (``arithmetic="certified"``), for chains of 10^5-10^6 states.

    Same quantities as :func:`exactpte.decompose` (``thm:wellposed``, ``thm:comparison_gain_bias``),
    each an :class:`~exactpte.certified.rounding.Interval` holding the exact value; ``tol`` is the
    relative width asked for (``max(1, |value|)`` scale); a quantity that misses it says so in
    :meth:`CertifiedDecomposition.within_tol`.

    Examples
    --------
    >>> import exactpte
    >>> chain = exactpte.example("branching")
    >>> cert = exactpte.decompose_certified(chain)
    >>> all(cert.contains(exactpte.decompose(chain)).values()), max(cert.widths().values()) < 1e-12
    (True, True)
    """
    check_chain(chain)
    if chain.field.is_parametric or not isinstance(chain, MarkovRewardProcess):
        raise UsageError("certified arithmetic applies to rational chains (a MarkovRewardProcess)")
    if not (isinstance(tol, (int, float)) and np.isfinite(tol) and tol > 0):
        raise UsageError(f"tol must be a positive finite number, got {tol!r}")
    t0 = time.perf_counter()
    progress = progress or Progress("certified decomposition", enabled=False, unit="stages")
    S = chain.structure
    n = chain.n
    exact_P = SplitMatrix.exact(*split_sparse_matrix(chain))  # entries to 2^-104, for the refined residuals
    P = exact_P.hi
    r = Interval.exact(chain.r)
    r_split = split_values(chain.r)
    anchors = S.canonical_anchors()
    certificates: list[Certificate] = []
    progress.update(1, 4)

    # -- closed classes -----------------------------------------------------------------------------
    stationary: list[Interval] = []
    gains_lo, gains_hi = [], []
    theta_parts: list[Interval] = []
    v_star = Interval(np.zeros(n), np.zeros(n))
    h = Interval(np.zeros(n), np.zeros(n))
    for i, members in enumerate(S.classes):
        members_arr = np.array(members, dtype=np.int64)
        # large classes mix slowly towards one state: float solves through the deviation operator
        fast = ClassSolver(P[members_arr][:, members_arr]) if len(members) > DIRECT_LIMIT else None
        # the reference state a is the most visited one (largest float π̂): return and hitting times to it
        # are the shortest, so the witnesses u (and with them every bound) are the smallest
        pi_hat = fast.pi if fast is not None else _float_stationary(P[members_arr][:, members_arr])
        a_pos = int(np.argmax(pi_hat))
        a = members[a_pos]
        others = np.delete(members_arr, a_pos)
        P_NN = exact_P.take(others, others)
        A_pos = [members.index(x) for x in anchors[i]]

        def via(removed, transpose=False, fast=fast):
            return None if fast is None else (lambda C, rtol: fast.first_passage(removed, C, transpose=transpose, rtol=rtol))

        if len(others):
            left = MMatrixSystem(P_NN.transpose(), f"class {i}: expected visits before returning to state {a} (transposed)",
                                 solver=via([a_pos], True))
            certificates.append(left.certificate)
            row_a = dict(chain.row(a))
            # P(a, N) kept to 2^-105 as well: z feeds γ, whose error h and v* multiply by hitting times
            entry, entry_low = exact_minus(split_values([row_a.get(y, flint.fmpq(0)) for y in others.tolist()]), 0.0)
            Xz, Dz, ez = (part[:, 0] for part in left.solve_refined(entry, low=entry_low))
            with np.errstate(invalid="ignore"):
                z_mid = Xz + Dz
            z = Interval(down(down(z_mid) - ez), up(up(z_mid) + ez))
            total = z.sum() + 1.0
            pi_a = Interval(1.0, 1.0).divide_positive(total)
            pi = Interval(np.insert(down(z.lo * pi_a.lo), a_pos, pi_a.lo), np.insert(up(z.hi * pi_a.hi), a_pos, pi_a.hi))
        else:
            pi = Interval(np.ones(1), np.ones(1))
        stationary.append(pi)
        # γ to ~2^-100 (a float plus a tiny interval): h on the class moves by δγ times the hitting times
        gain_hi, gain_delta = (_class_gain((r_split[0][members_arr], r_split[1][members_arr]), a_pos, Xz, Dz, ez)
                               if len(others) else (float(r_split[0][a]), _split_error(r_split, a)))
        gain = gain_delta + gain_hi
        gains_lo.append(float(gain.lo))
        gains_hi.append(float(gain.hi))

        # gauge: θ_i and v* on F_i
        A = list(anchors[i])
        in_A = np.isin(members_arr, A)
        Nn = members_arr[~in_A]
        d = S.periods[i]
        phase = np.array([S.phase_of[s] for s in Nn.tolist()], dtype=np.int64)
        if len(Nn):
            gauge = MMatrixSystem(exact_P.take(Nn, Nn), f"class {i}: first passage to its anchors {A}", solver=via(A_pos))
            certificates.append(gauge.certificate)
            cols_lo = np.column_stack([r.lo[Nn]] + [(phase == k).astype(float) for k in range(d)])
            cols_hi = np.column_stack([r.hi[Nn]] + [(phase == k).astype(float) for k in range(d)])
            X = gauge.solve(Interval(cols_lo, cols_hi))
            v_r, w = X[:, 0], [X[:, 1 + k] for k in range(d)]
            P_AN = P[A][:, Nn]
            G = [[nonneg_matvec(P_AN[k], w[j])[0] for j in range(d)] for k in range(d)]
            rhs = [r[np.array([A[k]])][0] + nonneg_matvec(P_AN[k], v_r)[0] for k in range(d)]
            system = [[G[k][j] + (1.0 if j == k else 0.0) for j in range(d)] for k in range(d)]
            th = _arb_solve(system, rhs)
            if th is None:
                th = [Interval(-np.inf, np.inf)] * d
                v_N = Interval(np.full(len(Nn), -np.inf), np.full(len(Nn), np.inf))
            else:
                # refinement: the hitting-time-sized v_r and w_k cancel in v_r - Σ θ w, so solve at the float
                # θ̂ directly; the anchor rows' residual ρ = r_A + P_AN v(θ̂) - θ̂ = (I + G)(θ - θ̂) is tiny,
                # so δ = θ - θ̂ is, and v* = v(θ̂) - Σ δ_k w_k loses only |δ| times the hitting times
                th_hat = np.array([float(t.mid) for t in th])
                rhs, low = exact_minus((r_split[0][Nn], r_split[1][Nn]), th_hat[phase])
                Xv, Dv, ev = (part[:, 0] for part in gauge.solve_refined(rhs, low=low))
                with np.errstate(invalid="ignore"):
                    center = Xv + Dv
                v_hat = Interval(down(down(center) - ev), up(up(center) + ev))
                resid = _anchor_residual(exact_P.take(np.array(A), Nn), exact_minus((r_split[0][A], r_split[1][A]), th_hat),
                                         Xv, Dv, ev)
                delta = _arb_solve(system, resid)
                if delta is not None:
                    th = [Interval(float(th_hat[k]), float(th_hat[k])) + delta[k] for k in range(d)]
                    v_N = v_hat
                    for k in range(d):
                        v_N = v_N - delta[k] * w[k]
                else:
                    v_N = v_r
                    for k in range(d):
                        v_N = v_N - th[k] * w[k]
            v_star.lo[Nn], v_star.hi[Nn] = v_N.lo, v_N.hi
        else:  # every state an anchor: v* = 0 there and θ_k = r(a_k)
            th = [r[np.array([A[k]])][0] for k in range(d)]
        theta_parts.extend(th)

        # bias on the class: h = w - (π·w) 1, w the first-passage reward to the class's first state
        if len(others):
            first = MMatrixSystem(P_NN, f"class {i}: first passage to state {a}", solver=via([a_pos]))
            certificates.append(first.certificate)
            rhs, low = exact_minus((r_split[0][others], r_split[1][others]), np.full(len(others), gain_hi))
            wv = first.solve(rhs, low=low - gain_delta)[:, 0]
            w_full = Interval(np.insert(wv.lo, a_pos, 0.0), np.insert(wv.hi, a_pos, 0.0))
            mean = (pi * w_full).sum()
            hv = w_full - mean
            h.lo[members_arr], h.hi[members_arr] = hv.lo, hv.hi
    class_gain = Interval(np.array(gains_lo), np.array(gains_hi))
    theta = Interval(np.array([float(t.lo) for t in theta_parts]), np.array([float(t.hi) for t in theta_parts]))
    progress.update(2, 4)

    # ψ coordinates: c_k - c_{k+1} = θ_k - γ_i, sum_k c_k = 0, per class
    coords_lo, coords_hi = [], []
    col = 0
    for i, d in enumerate(S.periods):
        gamma_i = class_gain[np.array([i])][0]
        partial = [Interval(0.0, 0.0)]
        for k in range(d - 1):
            partial.append(partial[-1] + (theta[np.array([col + k])][0] - gamma_i))
        total = Interval(0.0, 0.0)
        for p in partial:
            total = total + p
        c0 = total.divide_positive(Interval(float(d), float(d)))
        for p in partial:
            c = c0 - p
            coords_lo.append(float(c.lo))
            coords_hi.append(float(c.hi))
        col += d
    coords = Interval(np.array(coords_lo), np.array(coords_hi))

    # -- the transient block ------------------------------------------------------------------------------
    T = np.array(S.transient, dtype=np.int64)
    N = S.N
    g_star = Interval(np.zeros(n), np.zeros(n))
    psi = Interval(np.zeros(n), np.zeros(n))
    rho = Interval(np.zeros(n), np.zeros(n))
    for i, members in enumerate(S.classes):
        members_arr = np.array(members)
        rho.lo[members_arr], rho.hi[members_arr] = gains_lo[i], gains_hi[i]
    for (i, k), c in S.column_of.items():
        states = np.array(S.cyclic_classes[i][k])
        g_star.lo[states], g_star.hi[states] = theta.lo[c], theta.hi[c]
        psi.lo[states], psi.hi[states] = coords.lo[c], coords.hi[c]
    basis_T = Interval(np.zeros((len(T), N)), np.zeros((len(T), N)))
    alpha_T = Interval(np.zeros((len(T), len(S.classes))), np.zeros((len(T), len(S.classes))))
    if len(T):
        Q = exact_P.take(T, T)
        trans = MMatrixSystem(Q, "transient block (I - Q)")
        certificates.append(trans.certificate)
        entry = _transient_entries(chain, S)  # exact P(s, C_{i,k}) for transient s
        # absorption α_i = b_{i,0} for period 1; and for every class
        alpha_rhs = [Interval.exact(entry.class_column(i)) for i in range(len(S.classes))]
        alpha = trans.solve(Interval(np.column_stack([a.lo for a in alpha_rhs]), np.column_stack([a.hi for a in alpha_rhs])))
        alpha_T = alpha
        by_period: dict[int, list[int]] = {}
        for i, d in enumerate(S.periods):
            by_period.setdefault(d, []).append(i)
        for d, cls in by_period.items():
            if d == 1:
                for i in cls:
                    c = S.column_of[(i, 0)]
                    basis_T.lo[:, c], basis_T.hi[:, c] = alpha.lo[:, i], alpha.hi[:, i]
                continue
            aug = MMatrixSystem(Q.kron_cycle(d), f"phase-augmented transient block, period {d}",
                                witness=np.tile(trans.u, d))
            certificates.append(aug.certificate)
            cols_lo, cols_hi = [], []
            for i in cls:
                # rows (k, s): entering C_{i,k+1} at time 1 contributes to b_{i,k}
                stacked = [Interval.exact(entry.phase_column(i, (k + 1) % d)) for k in range(d)]
                cols_lo.append(np.concatenate([x.lo for x in stacked]))
                cols_hi.append(np.concatenate([x.hi for x in stacked]))
            X = aug.solve(Interval(np.column_stack(cols_lo), np.column_stack(cols_hi)))
            m = len(T)
            for j, i in enumerate(cls):
                for k in range(d):
                    c = S.column_of[(i, k)]
                    basis_T.lo[:, c], basis_T.hi[:, c] = X.lo[k * m : (k + 1) * m, j], X.hi[k * m : (k + 1) * m, j]
        # combinations on T
        def combine(weights: Interval, B: Interval) -> Interval:
            acc = Interval(np.zeros(len(T)), np.zeros(len(T)))
            for c in range(B.lo.shape[1]):
                acc = acc + B[:, c] * weights[np.array([c])][0]
            return acc

        gT = combine(theta, basis_T)
        g_star.lo[T], g_star.hi[T] = gT.lo, gT.hi
        pT = combine(coords, basis_T)
        psi.lo[T], psi.hi[T] = pT.lo, pT.hi
        rT = combine(class_gain, alpha_T)
        rho.lo[T], rho.hi[T] = rT.lo, rT.hi
        rec = np.setdiff1d(np.arange(n), T)
        P_TF = P[T][:, rec]
        # h and v* on T: absorbing solves with interval right-hand sides
        hT = trans.solve(r[T] - rT + nonneg_matvec(P_TF, h[rec]))[:, 0]
        h.lo[T], h.hi[T] = hT.lo, hT.hi
        vT = trans.solve(r[T] - gT + nonneg_matvec(P_TF, v_star[rec]))[:, 0]
        v_star.lo[T], v_star.hi[T] = vT.lo, vT.hi
    progress.update(3, 4)
    result = CertifiedDecomposition(
        chain=chain, structure=S, anchors=anchors, tol=float(tol), basis_transient=basis_T, theta=theta, g_star=g_star,
        v_star=v_star, rho=rho, h=h, psi=psi, stationary=stationary, class_gain=class_gain,
        absorption_transient=alpha_T, certificates=certificates, seconds=time.perf_counter() - t0)
    progress.update(4, 4)
    return result


def _split_error(r_split: tuple[np.ndarray, np.ndarray], s: int) -> Interval:
    """``r(s) - hi(s)`` as an interval (the split holds ``r`` to ``2^-105 |hi|``)."""
    lo, eps = float(r_split[1][s]), up(2.0**-105 * abs(float(r_split[0][s]))) + ETA
    return Interval(down(lo - eps), up(lo + eps))


def _class_gain(r_split: tuple[np.ndarray, np.ndarray], a_pos: int, Xz: np.ndarray, Dz: np.ndarray,
                ez: np.ndarray) -> tuple[float, Interval]:
    """``γ = (r(a) + Σ_y z_y r(y)) / (1 + Σ_y z_y)`` (Kac: ``z`` the expected visits before returning to
    ``a``, within ``ez`` of the pair ``Xz + Dz``) as ``γ̂ + δ``: a float and a tiny interval, from exact
    sums of error-free products (``math.fsum``) and a bound of every dropped second-order term."""
    rh_all, rl_all = r_split
    keep = np.arange(len(rh_all)) != a_pos
    rh, rl = rh_all[keep], rl_all[keep]
    terms, miss = dot_terms(Xz, Dz, rh, rl)
    # what the terms miss: the dropped products, z's own error, the split error of r
    z_abs = up(up(np.abs(Xz) + np.abs(Dz)) + ez)
    r_abs = up(up(np.abs(rh) + np.abs(rl)) + up(2.0**-105 * np.abs(rh)) + ETA)
    num_err = up(up(miss + float(up(z_abs @ up(2.0**-105 * np.abs(rh) + ETA)))) + float(up(ez @ r_abs)))
    num_err = float(up(2.0 * up(num_err + up(2.0**-105 * abs(float(rh_all[a_pos]))) + ETA)))
    nh, nl = exact_sum([np.array([rh_all[a_pos], rl_all[a_pos]])] + terms)
    dh, dl = exact_sum([np.array([1.0]), Xz, Dz])
    den_err = float(up(up(2.0 * float(up(ez.sum()))) + up(U * abs(dl))))
    g_hat = nh / dh
    # γ - γ̂ = (num - γ̂ den) / den, the remainder summed exactly from γ̂ dh = p + e
    p, e = two_prod(np.array([g_hat]), dekker_split(np.array([g_hat])), np.array([dh]))
    cross = g_hat * dl
    rem = math.fsum([nh, nl, -float(p[0]), -float(e[0]), -cross])
    rem_err = up(up(U * abs(rem)) + up(U * abs(cross)) + up(num_err + up(U * abs(nl))) + up(abs(g_hat) * den_err))
    rem_err = float(up(2.0 * rem_err)) + ETA
    den = Interval(dh, dh) + Interval(down(dl - den_err), up(dl + den_err))
    delta = Interval(down(rem - rem_err), up(rem + rem_err)).divide_positive(den)
    return g_hat, delta


def _anchor_residual(P_AN: SplitMatrix, rhs: tuple[Interval, Interval], Xv: np.ndarray, Dv: np.ndarray,
                     ev: np.ndarray) -> list[Interval]:
    """Enclosures of ``r(a_k) - θ̂_k + P(a_k, N) v̂`` for ``v̂`` within ``ev`` of the pair ``Xv + Dv``,
    computed with compensated sums: this residual is what fixes ``δ = θ - θ̂``, and the hitting-time-sized
    ``w_k`` multiply its width back into ``v*``."""
    s, low = rhs
    R, err = dd_residual(P_AN, RowSchedule(P_AN), s.mid[:, None], Xv[:, None], Dv[:, None], low.mid[:, None], identity=False)
    spread = up(up(err[:, 0] + low.rad) + nonneg_matvec(P_AN.hi, Interval(ev, ev)).hi)
    return [Interval(down(R[k, 0] - spread[k]), up(R[k, 0] + spread[k])) for k in range(len(R))]


def _float_stationary(P_F: sp.csr_matrix) -> np.ndarray:
    """A float stationary distribution of a small class (only to choose a reference state; never trusted)."""
    k = P_F.shape[0]
    A = (np.eye(k) - P_F.toarray()).T
    A[-1, :] = 1.0
    b = np.zeros(k)
    b[-1] = 1.0
    try:
        return np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        return np.full(k, 1.0 / k)


class _transient_entries:
    """Exact ``P(s, C_{i,k})`` and ``P(s, F_i)`` for the transient states (one pass over their rows)."""

    def __init__(self, chain: MarkovRewardProcess, S: Structure) -> None:
        self.T = S.transient
        self.by_phase: dict[tuple[int, int], dict[int, flint.fmpq]] = {}
        class_of, phase_of = S.class_of, S.phase_of
        for a, s in enumerate(self.T):
            for y, q in chain.row(s):
                i = class_of[y]
                if i >= 0:
                    slot = self.by_phase.setdefault((i, phase_of[y]), {})
                    slot[a] = slot.get(a, flint.fmpq(0)) + q
        self.periods = S.periods

    def phase_column(self, i: int, k: int) -> list[flint.fmpq]:
        col = [flint.fmpq(0)] * len(self.T)
        for a, q in self.by_phase.get((i, k), {}).items():
            col[a] = q
        return col

    def class_column(self, i: int) -> list[flint.fmpq]:
        col = [flint.fmpq(0)] * len(self.T)
        for k in range(self.periods[i]):
            for a, q in self.by_phase.get((i, k), {}).items():
                col[a] += q
        return col
