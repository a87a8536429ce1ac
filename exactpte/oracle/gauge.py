"""Gauge handling: float views of the exact decomposition (in the candidate's convention,
:mod:`~exactpte.oracle.conventions`) with its gauge spaces, and the re-examination of a bias-like
mismatch as a gauge shift.

``v`` is determined up to ``K(P) = span b`` (the anchor gauge fixes ``v = 0`` at the anchors), ``h``
up to ``ker(I - P)`` (fixed by ``P_inf h = 0``): a candidate off by an element of the gauge space
is "same up to gauge", naming the normalisation it misses.

Examples
--------
>>> import exactpte, numpy as np
>>> ref = FloatReference(exactpte.decompose(exactpte.example("periodic")))
>>> ref.in_span(ref.invariant, np.ones(2), 1e-12)   # constants are in ker(I - P)
True
"""

from __future__ import annotations

import math

import numpy as np

from exactpte.model.to_float import float_matrix, float_sparse_matrix, to_float, to_floats
from exactpte.oracle.causes import periodic_note
from exactpte.oracle.conventions import Aligned, Convention
from exactpte.oracle.diagnoses import diagnose_gain, gauge_note, gauge_split, power_iterates
from exactpte.oracle.findings import Finding
from exactpte.results.decomposition import Decomposition

__all__: list[str] = []


class FloatReference:
    """Float views of the exact decomposition, plus gauge-space bases (computed once)."""

    def __init__(self, dec: Decomposition, convention: Convention | None = None) -> None:
        self.dec = dec
        chain = dec.chain
        self.n = chain.n
        self.r = to_floats(chain.r)
        self.P = float_matrix(chain)
        if convention is None:  # the reference's own
            convention = Convention(tuple(range(dec.N)), tuple(s for _, _, s in dec.anchor_list))
        self.aligned = Aligned(dec, convention)
        self.basis = self.aligned.basis()  # columns in the candidate's order (the span is the same)
        self.anchors = list(convention.anchors)
        # ker(I - P): absorption probabilities into each class
        self.invariant = np.array([to_floats(row) for row in dec.absorption]).reshape(self.n, len(dec.classes))
        # the reference gauges' functionals: P_inf h = 0 (stationary distributions), v* = 0 at the anchors
        self.h_gauge = np.zeros((len(dec.classes), self.n))
        for i, (members, pi) in enumerate(zip(dec.classes, dec.stationary)):
            self.h_gauge[i, list(members)] = to_floats(pi)
        self.v_gauge = np.zeros((len(self.anchors), self.n))
        self.v_gauge[np.arange(len(self.anchors)), self.anchors] = 1.0
        self._iterates: np.ndarray | None = None  # P^k r, for the gain diagnoses (computed when first needed)

    def vector(self, key: str) -> np.ndarray:
        """A state vector of the decomposition in the candidate's convention (its anchors)."""
        return self.aligned.vector(key)

    def diagnose_gain(self, got: np.ndarray, expected: np.ndarray, atol: float, rtol: float) -> str:
        """:func:`~exactpte.oracle.diagnoses.diagnose_gain` on this chain."""
        tol = 10 * (atol + rtol * float(np.max(np.abs(expected), initial=0.0))) + 1e-12
        gains = np.array([to_float(x) for x in self.dec.class_gain])
        if self._iterates is None:
            D = 1
            for d in self.dec.periods:
                D = D * d // math.gcd(D, d)
            self._iterates = power_iterates(float_sparse_matrix(self.dec.chain), self.r, period=min(D, 1000))
        return diagnose_gain(got, expected, self._iterates, self.r, [list(c) for c in self.dec.classes], list(self.dec.periods),
                             gains, tol)

    @staticmethod
    def in_span(B: np.ndarray, x: np.ndarray, tol: float) -> bool:
        if not np.all(np.isfinite(x)):
            return False
        if B.shape[1] == 0:
            return bool(np.max(np.abs(x), initial=0.0) <= tol)
        coef, *_ = np.linalg.lstsq(B, x, rcond=None)
        return bool(np.max(np.abs(B @ coef - x)) <= tol)


def gauge_finding(key: str, f: Finding, got: np.ndarray, expected: np.ndarray, given: dict[str, np.ndarray], orc: FloatReference, atol: float, rtol: float) -> Finding:
    """Split a bias-like mismatch into its gauge part and the residual (both reported); re-classify
    it as "same up to gauge" when the residual is within tolerance."""
    diff = got - expected
    tol = 10 * (atol + rtol * float(np.max(np.abs(expected), initial=0.0))) + 1e-12
    if key in ("v_star", "h"):
        space, B, C = ("K(P)", orc.basis, orc.v_gauge) if key == "v_star" else ("ker(I-P)", orc.invariant, orc.h_gauge)
        f.gauge_part, f.residual = gauge_split(diff, B, C)
        if f.gauge_part > tol:
            answer = float(np.max(np.abs(expected), initial=0.0))
            off = diff - B @ (C @ diff)  # the error off the gauge space: a periodic mode names the cause
            recurrent = [s for members in orc.dec.classes for s in members]
            transient = bool(np.max(np.abs(off[recurrent]), initial=0.0) <= tol)
            note, why = gauge_note(f.gauge_part, f.residual, answer, space, tol, transient=transient)
            if f.residual > tol:
                periodic = periodic_note(off, orc.basis, orc.invariant, list(orc.dec.periods), tol)
                f.detail, f.diagnosis = f"{f.detail}; {note}", periodic or why
                return f
            found = _gauge_shift(key, f, got, given, orc, tol)
            if found is not f:
                found.detail, found.diagnosis = f"{found.detail}; {note}", f"{found.diagnosis}; {why}" if why else found.diagnosis
                found.gauge_part, found.residual = f.gauge_part, f.residual
            return found
    return _gauge_shift(key, f, got, given, orc, tol)


def _gauge_shift(key: str, f: Finding, got: np.ndarray, given: dict[str, np.ndarray], orc: FloatReference, tol: float) -> Finding:
    """``f`` re-classified as a gauge shift when ``got - expected`` lies in the gauge space (else ``f``)."""
    diff = got - orc.vector(key)
    if key == "v_star" and orc.in_span(orc.basis, diff, tol):
        g = orc.r - (np.eye(orc.n) - orc.P) @ got
        g_in_K = orc.in_span(orc.basis, g, tol)
        g_given = given.get("g_star")
        g_match = g_given is None or (g_given.shape == g.shape and np.max(np.abs(g_given - g)) <= tol)
        if g_in_K and g_match:
            at = {a: float(got[a]) for a in orc.anchors if abs(got[a]) > tol}
            return Finding(key, "same up to gauge", f.max_error, f.worst_states,
                           f"differs from v* by an element of K(P); the anchor gauge needs v = 0 at the anchors, got {at}",
                           "a gauge shift inside K(P): the right answer in another gauge (other anchors, or none)")
    elif key == "h" and orc.in_span(orc.invariant, diff, tol):
        return Finding(key, "same up to gauge", f.max_error, f.worst_states,
                       "differs from the normalized bias by an element of ker(I-P): normalization P_inf h = 0 is not met",
                       "a normalisation: a bias, but not the one with P_inf h = 0")
    return f
