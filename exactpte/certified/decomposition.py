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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import flint
import numpy as np
import scipy.sparse as sp

from exactpte.model.chain import Chain, MarkovRewardProcess, require_chain
from exactpte.errors import UsageError
from exactpte.model.to_float import split_sparse_matrix, split_values
from exactpte.progress import Progress
from exactpte.graph.structure import Structure
from exactpte.certified.rounding import ETA, U, Interval, down, gamma, to_float_interval, up
from exactpte.certified.residual import RowSchedule, SplitMatrix, dd_residual, dekker_split, dot_terms, exact_sum, two_prod, two_sum
from exactpte.certified.result import CertifiedDecomposition
from exactpte.certified.systems import DIRECT_LIMIT, Certificate, ClassSolver, FloatSolver, MMatrixSystem

__all__ = ["decompose_certified", "nonneg_matvec"]

QUANTITIES = ("basis", "theta", "g_star", "v_star", "rho", "h", "psi", "stationary", "class_gain")


def nonneg_matvec(M: sp.csr_matrix, x: Interval) -> Interval:
    """An enclosure of ``M x`` for a nonnegative ``M`` (floats within ``u`` relative of exact entries)
    and an interval vector ``x``: monotone, so ``[M lo, M hi]`` widened by the rounding bound."""
    k = np.diff(M.indptr).astype(np.float64) + 1
    mag = np.maximum(np.abs(x.lo), np.abs(x.hi))
    err = up(up(gamma(2 * k + 2) * up(M @ mag)) + k * ETA)
    return Interval(down(M @ x.lo - err), up(M @ x.hi + err))


def exact_minus(r_split: tuple[np.ndarray, np.ndarray], f: np.ndarray | float, f_rad: np.ndarray | float = 0.0) -> tuple[Interval, Interval]:
    """``r - f`` for exact ``r`` (``r_split = (hi, lo)`` to ``2^-106``, :func:`~exactpte.model.to_float.split_values`)
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
    def ball(iv: Interval) -> flint.arb:
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


def decompose_certified(chain: Chain, *, tol: float = 1e-9, progress: Progress | None = None) -> CertifiedDecomposition:
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
    require_chain(chain)
    if chain.field.is_parametric or not isinstance(chain, MarkovRewardProcess):
        raise UsageError("certified arithmetic applies to rational chains (a MarkovRewardProcess)")
    if not (isinstance(tol, (int, float)) and np.isfinite(tol) and tol > 0):
        raise UsageError(f"tol must be a positive finite number, got {tol!r}")
    t0 = time.perf_counter()
    progress = progress or Progress("certified decomposition", enabled=False, unit="stages")
    work = _Work.of(chain)
    progress.update(1, 4)
    stationary, class_gain, theta = _closed_classes(work)
    progress.update(2, 4)
    coords = _psi_coordinates(work.S.periods, theta, class_gain)
    g_star, psi, rho = _recurrent_vectors(work, theta, coords, class_gain)
    basis_T, alpha_T = _transient_block(work, theta, coords, class_gain, g_star, psi, rho)
    progress.update(3, 4)
    result = CertifiedDecomposition(
        chain=chain, structure=work.S, anchors=work.anchors, tol=float(tol), basis_transient=basis_T, theta=theta,
        g_star=g_star, v_star=work.v_star, rho=rho, h=work.h, psi=psi, stationary=stationary, class_gain=class_gain,
        absorption_transient=alpha_T, certificates=work.certificates, seconds=time.perf_counter() - t0)
    progress.update(4, 4)
    return result


def _zeros(n: int) -> Interval:
    return Interval(np.zeros(n), np.zeros(n))


@dataclass
class _Work:
    """What the steps share: the chain's exact data in float form, the certificates so far, and the
    state vectors the closed classes fill (``v*`` and ``h``; the transient block completes them)."""

    chain: MarkovRewardProcess
    S: Structure
    exact_P: SplitMatrix  # entries to 2^-104, for the refined residuals
    r: Interval
    r_split: tuple[np.ndarray, np.ndarray]
    anchors: tuple[tuple[int, ...], ...]
    v_star: Interval
    h: Interval
    certificates: list[Certificate] = field(default_factory=list)

    @classmethod
    def of(cls, chain: MarkovRewardProcess) -> _Work:
        S = chain.structure
        return cls(chain=chain, S=S, exact_P=SplitMatrix.exact(*split_sparse_matrix(chain)), r=Interval.exact(chain.r),
                   r_split=split_values(chain.r), anchors=S.canonical_anchors(), v_star=_zeros(chain.n), h=_zeros(chain.n))

    @property
    def P(self) -> sp.csr_matrix:
        """The nearest floats of ``P``."""
        return self.exact_P.hi

    def split_r(self, states: np.ndarray | list[int]) -> tuple[np.ndarray, np.ndarray]:
        """``r`` on ``states`` as its split pair (to ``2^-105``)."""
        return self.r_split[0][states], self.r_split[1][states]

    def system(self, M: SplitMatrix, name: str, *, witness: np.ndarray | None = None,
               solver: FloatSolver | None = None) -> MMatrixSystem:
        """A certified system, its certificate recorded."""
        system = MMatrixSystem(M, name, witness=witness, solver=solver)
        self.certificates.append(system.certificate)
        return system


@dataclass
class _Class:
    """A closed class ``F_i`` and its reference state ``a`` (the most visited one, by the float ``π̂``:
    return and hitting times to it are the shortest, so the witnesses ``u`` and every bound are smallest)."""

    i: int
    members: list[int]
    members_arr: np.ndarray
    a_pos: int
    others: np.ndarray  # N = F_i without a
    P_NN: SplitMatrix
    anchors: list[int]
    fast: ClassSolver | None  # large classes mix slowly towards one state: float solves via the deviation operator

    @classmethod
    def of(cls, work: _Work, i: int, members: list[int]) -> _Class:
        members_arr = np.array(members, dtype=np.int64)
        if len(members) == 1:  # an absorbing state (crowds-5-5 has 1,260): nothing to solve or slice
            empty = np.zeros(0, dtype=np.int64)
            P_NN = SplitMatrix(sp.csr_matrix((0, 0)), np.zeros(0), work.exact_P.rel_err)
            return cls(i, list(members), members_arr, 0, empty, P_NN, list(work.anchors[i]), None)
        P_F = work.P[members_arr][:, members_arr]
        fast = ClassSolver(P_F) if len(members) > DIRECT_LIMIT else None
        pi_hat = fast.pi if fast is not None else _float_stationary(P_F)
        a_pos = int(np.argmax(pi_hat))
        others = np.delete(members_arr, a_pos)
        return cls(i, list(members), members_arr, a_pos, others, work.exact_P.take(others, others), list(work.anchors[i]), fast)

    @property
    def a(self) -> int:
        return self.members[self.a_pos]

    @property
    def anchor_pos(self) -> list[int]:
        return [self.members.index(x) for x in self.anchors]

    def via(self, removed: list[int], transpose: bool = False) -> FloatSolver | None:
        """The class's fast float solver for the first-passage system with ``removed`` taken out (if large)."""
        fast = self.fast
        if fast is None:
            return None
        return lambda C, rtol: fast.first_passage(removed, C, transpose=transpose, rtol=rtol)


_Visits: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray]
"""The expected visits ``z`` before returning to ``a``: within ``ez`` of the pair ``Xz + Dz``."""


def _closed_classes(work: _Work) -> tuple[list[Interval], Interval, Interval]:
    """Per closed class: ``π``, ``γ``, ``θ``, and ``v*``, ``h`` on the class (into ``work``)."""
    stationary: list[Interval] = []
    gains_lo, gains_hi = [], []
    theta_parts: list[Interval] = []
    for i, members in enumerate(work.S.classes):
        cls = _Class.of(work, i, list(members))
        pi, visits = _stationary(work, cls)
        stationary.append(pi)
        # γ to ~2^-100 (a float plus a tiny interval): h on the class moves by δγ times the hitting times
        gain_hi, gain_delta = (_class_gain(work.split_r(cls.members_arr), cls.a_pos, *visits) if visits is not None
                               else (float(work.r_split[0][cls.a]), _split_error(work.r_split, cls.a)))
        gain = gain_delta + gain_hi
        gains_lo.append(float(gain.lo))
        gains_hi.append(float(gain.hi))
        theta_parts.extend(_gauge(work, cls))
        if len(cls.others):
            _class_bias(work, cls, pi, gain_hi, gain_delta)
    class_gain = Interval(np.array(gains_lo), np.array(gains_hi))
    theta = Interval(np.array([float(t.lo) for t in theta_parts]), np.array([float(t.hi) for t in theta_parts]))
    return stationary, class_gain, theta


def _stationary(work: _Work, cls: _Class) -> tuple[Interval, _Visits | None]:
    """``π = (1, z) / (1 + Σ z)`` (Kac), ``z = (I - P_NN)^{-T} P(a, N)`` the expected visits before
    returning to ``a`` (``None`` for a one-state class)."""
    if not len(cls.others):
        return Interval(np.ones(1), np.ones(1)), None
    i, a, a_pos, others = cls.i, cls.a, cls.a_pos, cls.others
    left = work.system(cls.P_NN.transpose(),
                       f"class {i}: expected visits before returning to state {a} (transposed)", solver=cls.via([a_pos], True))
    row_a = dict(work.chain.row(a))
    # P(a, N) kept to 2^-105 as well: z feeds γ, whose error h and v* multiply by hitting times
    entry, entry_low = exact_minus(split_values([row_a.get(y, flint.fmpq(0)) for y in others.tolist()]), 0.0)
    Xz, Dz, ez = (part[:, 0] for part in left.solve_refined(entry, low=entry_low))
    with np.errstate(invalid="ignore"):
        z_mid = Xz + Dz
    z = Interval(down(down(z_mid) - ez), up(up(z_mid) + ez))
    total = z.sum() + 1.0
    pi_a = Interval(1.0, 1.0).divide_positive(total)
    pi = Interval(np.insert(down(z.lo * pi_a.lo), a_pos, pi_a.lo), np.insert(up(z.hi * pi_a.hi), a_pos, pi_a.hi))
    return pi, (Xz, Dz, ez)


def _gauge(work: _Work, cls: _Class) -> list[Interval]:
    """``θ_i``, and ``v*`` on ``F_i`` (into ``work``): ``v* = v_r - Σ_k θ_k w_k`` on ``F \\ A``, ``θ``
    from the ``d x d`` anchor system ``(I + G) θ = r_A + P_{A,N} v_r``."""
    A, r, d = cls.anchors, work.r, work.S.periods[cls.i]
    Nn = cls.members_arr[~np.isin(cls.members_arr, A)]
    if not len(Nn):  # every state an anchor: v* = 0 there and θ_k = r(a_k)
        return [r[np.array([A[k]])][0] for k in range(d)]
    phase = np.array([work.S.phase_of[s] for s in Nn.tolist()], dtype=np.int64)
    gauge = work.system(work.exact_P.take(Nn, Nn), f"class {cls.i}: first passage to its anchors {A}",
                        solver=cls.via(cls.anchor_pos))
    cols_lo = np.column_stack([r.lo[Nn]] + [(phase == k).astype(float) for k in range(d)])
    cols_hi = np.column_stack([r.hi[Nn]] + [(phase == k).astype(float) for k in range(d)])
    X = gauge.solve(Interval(cols_lo, cols_hi))
    v_r, w = X[:, 0], [X[:, 1 + k] for k in range(d)]
    P_AN = work.P[A][:, Nn]
    G = [[nonneg_matvec(P_AN[k], w[j])[0] for j in range(d)] for k in range(d)]
    rhs = [r[np.array([A[k]])][0] + nonneg_matvec(P_AN[k], v_r)[0] for k in range(d)]
    system = [[G[k][j] + (1.0 if j == k else 0.0) for j in range(d)] for k in range(d)]
    th = _arb_solve(system, rhs)
    if th is None:
        th = [Interval(-np.inf, np.inf)] * d
        v_N = Interval(np.full(len(Nn), -np.inf), np.full(len(Nn), np.inf))
    else:
        th, v_N = _gauge_refined(work, cls, gauge, Nn, phase, system, th, v_r, w)
    work.v_star.lo[Nn], work.v_star.hi[Nn] = v_N.lo, v_N.hi
    return th


def _gauge_refined(work: _Work, cls: _Class, gauge: MMatrixSystem, Nn: np.ndarray, phase: np.ndarray,
                   system: list[list[Interval]], th: list[Interval], v_r: Interval, w: list[Interval]) -> tuple[list[Interval], Interval]:
    """``θ`` and ``v*`` on ``N`` by refinement: the hitting-time-sized ``v_r`` and ``w_k`` cancel in
    ``v_r - Σ θ w``, so solve at the float ``θ̂`` directly; the anchor rows' residual
    ``ρ = r_A + P_AN v(θ̂) - θ̂ = (I + G)(θ - θ̂)`` is tiny, so ``δ = θ - θ̂`` is, and
    ``v* = v(θ̂) - Σ δ_k w_k`` loses only ``|δ|`` times the hitting times."""
    A, d = cls.anchors, len(th)
    th_hat = np.array([float(t.mid) for t in th])
    rhs, low = exact_minus(work.split_r(Nn), th_hat[phase])
    Xv, Dv, ev = (part[:, 0] for part in gauge.solve_refined(rhs, low=low))
    with np.errstate(invalid="ignore"):
        center = Xv + Dv
    v_hat = Interval(down(down(center) - ev), up(up(center) + ev))
    resid = _anchor_residual(work.exact_P.take(np.array(A), Nn), exact_minus(work.split_r(A), th_hat), Xv, Dv, ev)
    delta = _arb_solve(system, resid)
    if delta is not None:
        v_N = v_hat
        for k in range(d):
            v_N = v_N - delta[k] * w[k]
        return [Interval(float(th_hat[k]), float(th_hat[k])) + delta[k] for k in range(d)], v_N
    v_N = v_r
    for k in range(d):
        v_N = v_N - th[k] * w[k]
    return th, v_N


def _class_bias(work: _Work, cls: _Class, pi: Interval, gain_hi: float, gain_delta: Interval) -> None:
    """``h`` on the class (into ``work``): ``h = w - (π·w) 1``, ``w`` the first-passage reward to ``a``
    (``w = (I - P_NN)^{-1} (r - γ)_N``, ``w(a) = 0``)."""
    others, a_pos = cls.others, cls.a_pos
    first = work.system(cls.P_NN, f"class {cls.i}: first passage to state {cls.a}",
                        solver=cls.via([a_pos]))
    rhs, low = exact_minus(work.split_r(others), np.full(len(others), gain_hi))
    wv = first.solve(rhs, low=low - gain_delta)[:, 0]
    w_full = Interval(np.insert(wv.lo, a_pos, 0.0), np.insert(wv.hi, a_pos, 0.0))
    mean = (pi * w_full).sum()
    hv = w_full - mean
    work.h.lo[cls.members_arr], work.h.hi[cls.members_arr] = hv.lo, hv.hi


def _psi_coordinates(periods: Sequence[int], theta: Interval, class_gain: Interval) -> Interval:
    """``ψ`` coordinates: ``c_k - c_{k+1} = θ_k - γ_i``, ``Σ_k c_k = 0``, per class."""
    coords_lo, coords_hi = [], []
    col = 0
    for i, d in enumerate(periods):
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
    return Interval(np.array(coords_lo), np.array(coords_hi))


def _recurrent_vectors(work: _Work, theta: Interval, coords: Interval, class_gain: Interval) -> tuple[Interval, Interval, Interval]:
    """``g*``, ``ψ``, ``ρ`` on the closed classes (constant on each cyclic class, resp. class); zero on ``T``."""
    S, n = work.S, work.chain.n
    g_star, psi, rho = _zeros(n), _zeros(n), _zeros(n)
    for i, members in enumerate(S.classes):
        members_arr = np.array(members)
        rho.lo[members_arr], rho.hi[members_arr] = float(class_gain.lo[i]), float(class_gain.hi[i])
    for (i, k), c in S.column_of.items():
        states = np.array(S.cyclic_classes[i][k])
        g_star.lo[states], g_star.hi[states] = theta.lo[c], theta.hi[c]
        psi.lo[states], psi.hi[states] = coords.lo[c], coords.hi[c]
    return g_star, psi, rho


def _transient_block(work: _Work, theta: Interval, coords: Interval, class_gain: Interval, g_star: Interval,
                     psi: Interval, rho: Interval) -> tuple[Interval, Interval]:
    """The basis ``b`` and absorption ``α`` on ``T``, and ``g*``, ``ψ``, ``ρ``, ``h``, ``v*`` on ``T``
    (into the given vectors and ``work``)."""
    S = work.S
    T = np.array(S.transient, dtype=np.int64)
    if not len(T):
        return _zeros_matrix(0, S.N), _zeros_matrix(0, len(S.classes))
    Q = work.exact_P.take(T, T)
    trans = work.system(Q, "transient block (I - Q)")
    basis_T, alpha_T = _transient_basis(work, Q, trans)
    gT = _combine(theta, basis_T)
    g_star.lo[T], g_star.hi[T] = gT.lo, gT.hi
    pT = _combine(coords, basis_T)
    psi.lo[T], psi.hi[T] = pT.lo, pT.hi
    rT = _combine(class_gain, alpha_T)
    rho.lo[T], rho.hi[T] = rT.lo, rT.hi
    rec = np.setdiff1d(np.arange(work.chain.n), T)
    P_TF = work.P[T][:, rec]
    # h and v* on T: absorbing solves with interval right-hand sides
    r, h, v_star = work.r, work.h, work.v_star
    hT = trans.solve(r[T] - rT + nonneg_matvec(P_TF, h[rec]))[:, 0]
    h.lo[T], h.hi[T] = hT.lo, hT.hi
    vT = trans.solve(r[T] - gT + nonneg_matvec(P_TF, v_star[rec]))[:, 0]
    v_star.lo[T], v_star.hi[T] = vT.lo, vT.hi
    return basis_T, alpha_T


def _zeros_matrix(rows: int, cols: int) -> Interval:
    return Interval(np.zeros((rows, cols)), np.zeros((rows, cols)))


def _transient_basis(work: _Work, Q: SplitMatrix, trans: MMatrixSystem) -> tuple[Interval, Interval]:
    """``b`` on ``T`` (``|T| x N``) and the absorption ``α`` (``|T| x`` classes): ``α_i = b_{i,0}`` for
    period 1; a class of period ``d`` through the phase-augmented system (one per period)."""
    S = work.S
    m = len(S.transient)
    entries = _transient_entries(work.chain, S)  # exact P(s, C_{i,k}) for transient s
    alpha = trans.solve(entries.columns([[(i, k) for k in range(d)] for i, d in enumerate(S.periods)]))
    basis_T = _zeros_matrix(m, S.N)
    by_period: dict[int, list[int]] = {}
    for i, d in enumerate(S.periods):
        by_period.setdefault(d, []).append(i)
    for d, classes in by_period.items():
        if d == 1:
            for i in classes:
                c = S.column_of[(i, 0)]
                basis_T.lo[:, c], basis_T.hi[:, c] = alpha.lo[:, i], alpha.hi[:, i]
            continue
        aug = work.system(Q.kron_cycle(d), f"phase-augmented transient block, period {d}", witness=np.tile(trans.u, d))
        # rows (k, s): entering C_{i,k+1} at time 1 contributes to b_{i,k}
        X = aug.solve(entries.columns([[(i, 1 % d)] for i in classes], blocks=d))
        for j, i in enumerate(classes):
            for k in range(d):
                c = S.column_of[(i, k)]
                basis_T.lo[:, c], basis_T.hi[:, c] = X.lo[k * m : (k + 1) * m, j], X.hi[k * m : (k + 1) * m, j]
    return basis_T, alpha


def _combine(weights: Interval, B: Interval) -> Interval:
    """``Σ_c weights_c B[:, c]`` (rows of ``B`` the transient states)."""
    m, N = B.lo.shape
    if N == 0:
        return _zeros(m)
    w_lo, w_hi = weights.lo[None, :], weights.hi[None, :]
    with np.errstate(invalid="ignore"):
        a, b, c, d = B.lo * w_lo, B.lo * w_hi, B.hi * w_lo, B.hi * w_hi
    p_lo = down(np.minimum(np.minimum(a, b), np.minimum(c, d)))  # fmin/fmax would drop a nan: keep it (it widens)
    p_hi = up(np.maximum(np.maximum(a, b), np.maximum(c, d)))
    # a float sum of N terms is within γ_{N-1} Σ|t| of the exact one; fl(Σ|t|) >= (1 - γ_N) Σ|t|, so 2 γ_N covers both
    g2 = float(up(2.0 * gamma(N + 1)))
    err_lo = up(up(g2 * up(np.abs(p_lo).sum(axis=1))) + N * ETA)
    err_hi = up(up(g2 * up(np.abs(p_hi).sum(axis=1))) + N * ETA)
    return Interval(down(p_lo.sum(axis=1) - err_lo), up(p_hi.sum(axis=1) + err_hi))


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
    dropped = up(up(miss + float(up(z_abs @ up(2.0**-105 * np.abs(rh) + ETA)))) + float(up(ez @ r_abs)))
    num_err = float(up(2.0 * up(dropped + up(2.0**-105 * abs(float(rh_all[a_pos]))) + ETA)))
    nh, nl = exact_sum([np.array([rh_all[a_pos], rl_all[a_pos]])] + terms)
    dh, dl = exact_sum([np.array([1.0]), Xz, Dz])
    den_err = float(up(up(2.0 * float(up(ez.sum()))) + up(U * abs(dl))))
    g_hat = nh / dh
    # γ - γ̂ = (num - γ̂ den) / den, the remainder summed exactly from γ̂ dh = p + e
    p, e = two_prod(np.array([g_hat]), dekker_split(np.array([g_hat])), np.array([dh]))
    cross = g_hat * dl
    rem = math.fsum([nh, nl, -float(p[0]), -float(e[0]), -cross])
    rem_terms = up(up(U * abs(rem)) + up(U * abs(cross)) + up(num_err + up(U * abs(nl))) + up(abs(g_hat) * den_err))
    rem_err = float(up(2.0 * rem_terms)) + ETA
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
    """Exact ``P(s, C_{i,k})`` for the transient states (one pass over their rows), kept sparse: only
    the nonzero sums are converted to float enclosures (crowds-5-5: 1,260 columns of 7,347 rows)."""

    def __init__(self, chain: MarkovRewardProcess, S: Structure) -> None:
        self.m = len(S.transient)
        self.by_phase: dict[tuple[int, int], dict[int, flint.fmpq]] = {}
        class_of, phase_of = S.class_of, S.phase_of
        for a, s in enumerate(S.transient):
            for y, q in chain.row(s):
                i = class_of[y]
                if i >= 0:
                    slot = self.by_phase.setdefault((i, phase_of[y]), {})
                    slot[a] = slot.get(a, flint.fmpq(0)) + q

    def columns(self, spec: list[list[tuple[int, int]]], blocks: int = 1) -> Interval:
        """Enclosures of the columns ``Σ_{(i, k) in spec[j]} P(., C_{i,k})`` (``blocks == 1``), or of
        ``blocks`` stacked row blocks, block ``b`` of column ``j`` being ``P(., C_{spec[j][0] shifted by b})``
        for the phase-augmented system (``spec[j] = [(i, k)]``: block ``b`` is phase ``k + b``)."""
        m = self.m
        rows: list[int] = []
        cols: list[int] = []
        vals: list[flint.fmpq] = []
        for j, parts in enumerate(spec):
            if blocks == 1:
                acc: dict[int, flint.fmpq] = {}
                for key in parts:
                    for a, q in self.by_phase.get(key, {}).items():
                        acc[a] = acc.get(a, flint.fmpq(0)) + q
                targets = [(0, acc)]
            else:
                (i, k), = parts
                d = blocks
                targets = [(b * m, self.by_phase.get((i, (k + b) % d), {})) for b in range(d)]
            for offset, entries in targets:
                for a, q in entries.items():
                    rows.append(offset + a)
                    cols.append(j)
                    vals.append(q)
        lo = np.zeros((m * blocks, len(spec)))
        hi = np.zeros((m * blocks, len(spec)))
        if vals:
            v_lo, v_hi = to_float_interval(vals)
            lo[rows, cols], hi[rows, cols] = v_lo, v_hi
        return Interval(lo, hi)
