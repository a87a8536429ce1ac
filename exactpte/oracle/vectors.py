"""State vectors and matrices (``g_star``, ``v_star``, ``rho``, ``h``, ``psi``, ``hitting_times``;
``basis``, ``P_inf``): judged entrywise, a mismatch re-examined as a gauge shift, else diagnosed
from the shape of its error.

Examples
--------
>>> import exactpte, numpy as np
>>> from exactpte.oracle.gauge import FloatReference
>>> ref = FloatReference(exactpte.decompose(exactpte.example("periodic")))
>>> diagnose_vector("rho", np.array([-0.5, -0.5]), np.array([0.5, 0.5]), ref, 1e-9, 0.0)
'the sign is flipped: rho = -(the exact rho)'
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from exactpte.model.to_float import to_float, to_floats
from exactpte.oracle.causes import per_class_note
from exactpte.oracle.findings import Finding, numeric_finding
from exactpte.oracle.gauge import FloatReference, gauge_finding
from exactpte.oracle.keys import VECTOR_KEYS
from exactpte.oracle.values import is_scalar, matrix, scalar, vector
from exactpte.results.quantities import MATRIX_KEYS

__all__ = ["diagnose_vector", "diagnose_P_inf"]


def vector_findings(cand: dict[str, Any], orc: FloatReference, atol: float, rtol: float) -> list[Finding]:
    """The state-indexed vectors (:data:`VECTOR_KEYS`): a mismatch is re-examined as a gauge shift,
    else diagnosed; an off-gauge ``v`` with its matching ``g`` is one gauge finding, not two."""
    findings: list[Finding] = []
    scalar_rho = "rho" in cand and is_scalar(cand["rho"])
    given = {k: vector(cand[k], k) for k in VECTOR_KEYS if k in cand and not (k == "rho" and scalar_rho)}
    if scalar_rho:  # every average-reward solver returns one number: judged as one gain for every state
        given = {"rho": np.full(orc.n, scalar(cand["rho"], "rho")), **given}
    for key, got in given.items():
        expected = orc.vector(key)
        f = numeric_finding(key, got, expected, atol, rtol)
        if got.shape != expected.shape and key in ("rho", "g_star"):  # a per-class gain under a per-state name
            gains = np.array([to_float(x) for x in orc.dec.class_gain])
            f.diagnosis = per_class_note(key, got, orc.n, gains, atol + rtol * float(np.max(np.abs(gains), initial=0.0)))
        if f.status == "mismatch" and math.isfinite(f.max_error):
            f = gauge_finding(key, f, got, expected, given, orc, atol, rtol)
            if f.status == "mismatch" and not f.diagnosis:
                f.diagnosis = diagnose_vector(key, got, expected, orc, atol, rtol)
        if key == "rho" and scalar_rho:
            f.detail = "a scalar gain, judged as one gain for every state" + (f"; {f.detail}" if f.detail else "")
        findings.append(f)
    if "g_star" in given and "v_star" in given:
        fv = next(f for f in findings if f.key == "v_star")
        fg = next(f for f in findings if f.key == "g_star")
        if fv.status == "same up to gauge" and fg.status == "mismatch":
            fg.status, fg.detail = "same up to gauge", "matches r - (I-P) v for the candidate's off-gauge v"
            fg.diagnosis = fv.diagnosis
    return findings


def matrix_findings(cand: dict[str, Any], orc: FloatReference, atol: float, rtol: float) -> list[Finding]:
    """``basis`` and ``P_inf`` (:data:`MATRIX_KEYS`), a wrong ``P_inf`` diagnosed."""
    findings: list[Finding] = []
    for key in MATRIX_KEYS:
        if key in cand:
            exp = orc.basis if key == "basis" else np.array([to_floats(row) for row in orc.dec.P_inf])
            got = matrix(cand[key], key)
            f = numeric_finding(key, got, exp, atol, rtol, unit="row")
            if key == "P_inf" and f.status == "mismatch" and math.isfinite(f.max_error):
                f.diagnosis = diagnose_P_inf(got, orc, atol + rtol)
            findings.append(f)
    return findings


def diagnose_vector(key: str, got: np.ndarray, expected: np.ndarray, orc: FloatReference, atol: float, rtol: float) -> str:
    """The likely kind of mistake behind a wrong vector, from the shape of its error ``got - expected``:
    a per-class constant or an element of ``ker(I - P)`` (normalisation), a persistent periodic mode
    (an element of ``K(P) = span b`` outside ``ker(I - P)``: a power limit in place of the Cesàro
    limit, or phases misassigned), an error confined to transient states (the absorption/hitting
    part), or a sign or scale error.  Empty when the error has no recognisable shape."""
    diff = got - expected
    tol = 10 * (atol + rtol * float(np.max(np.abs(expected), initial=0.0))) + 1e-12
    sign_scale = _sign_or_scale(key, got, expected, tol)
    if sign_scale:
        return sign_scale
    if key == "rho":  # unichain assumption, power-iteration values, constant candidates
        gain = orc.diagnose_gain(got, expected, atol, rtol)
        if gain or np.ptp(got) <= tol:
            return gain
    recurrent = np.zeros(orc.n, dtype=bool)
    for members in orc.dec.classes:
        recurrent[list(members)] = True
    if orc.in_span(orc.invariant, diff, tol):
        if key in ("rho", "g_star"):  # a gain has no normalisation
            return ("wrong class gains: the error is constant on each closed class (and absorbed accordingly): "
                    "some class's gain pi_i . r is wrong, not a normalisation")
        return ("a per-class constant offset: the error is an element of ker(I - P) (constant on each closed class, "
                "absorbed accordingly): a different normalisation")
    if orc.in_span(orc.basis, diff, tol):
        return ("a persistent periodic mode: the error lies in K(P) = span b but not in ker(I - P), as when a power limit "
                "P^t (or a fixed-phase average) replaces the Cesaro limit, or phases are misassigned")
    if np.all(np.abs(diff[recurrent]) <= tol):
        return ("an error confined to transient states: the closed classes are right, the absorption/hitting part "
                "(the solve on the transient block) is not")
    per_class = all(np.ptp(diff[list(members)]) <= tol for members in orc.dec.classes)
    if per_class and np.any(np.abs(diff[recurrent]) > tol):
        return "a per-class constant offset on the closed classes (and a matching error on transient states)"
    return ""


def _sign_or_scale(key: str, got: np.ndarray, expected: np.ndarray, tol: float) -> str:
    """``-x`` or ``c x`` (never "scale" when the candidate or the answer is constant)."""
    scale = float(np.max(np.abs(expected), initial=0.0))
    if scale > tol and np.max(np.abs(got + expected)) <= tol:
        return f"the sign is flipped: {key} = -(the exact {key})"
    if scale > tol and np.ptp(got) > tol and np.ptp(expected) > tol:
        c = float(got @ expected) / float(expected @ expected)
        if abs(c - 1) > 1e-6 and np.max(np.abs(got - c * expected)) <= tol:
            return f"a scale error: {key} = {c:.6g} x (the exact {key})"
    return ""


def diagnose_P_inf(got: np.ndarray, orc: FloatReference, tol: float) -> str:
    """The likely mistake behind a wrong ``P_inf``: rows not summing to 1, or a power limit
    (``P^t`` along a period: invariant under ``P^D`` but not under ``P``)."""
    tol = 10 * tol + 1e-12
    rows = np.abs(got.sum(axis=1) - 1)
    if np.max(rows) > tol:
        return f"rows do not sum to 1 (row {int(np.argmax(rows))} sums to {got.sum(axis=1)[int(np.argmax(rows))]:.6g})"
    PX = orc.P @ got
    if np.max(np.abs(PX - got)) > tol:
        D = 1
        for d in orc.dec.periods:
            D = D * d // math.gcd(D, d)
        X = got
        for _ in range(D):
            X = orc.P @ X
        if np.max(np.abs(X - got)) <= tol:
            return (f"a power limit P^t along the period (P^{D} P_inf = P_inf but P P_inf != P_inf) in place of the "
                    f"Cesaro limit, which averages over the phases")
        return "P P_inf != P_inf: not a limit of P at all"
    return "P P_inf = P_inf but it is not the Cesaro limit: check the absorption probabilities into each class"
