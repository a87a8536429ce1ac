"""exactpte as the oracle for other (float) implementations.

:func:`compare` scores a candidate (a dict of arrays, any subset of the keys of
``exactpte decompose --json``) against the exact decomposition; the ``assert_*``
helpers raise ``AssertionError`` with a message naming the quantity, the worst
states, expected versus got.  Gauge awareness: a ``v`` that differs from ``v*`` by an
element of ``K(P)`` (with the matching ``g = r - (I - P) v``), or an ``h`` that differs
from the normalized bias by an element of ``ker(I - P)``, is reported as
"same up to gauge", naming the normalization it misses.

>>> import exactpte, numpy as np
>>> dec = exactpte.decompose(exactpte.example("periodic"))
>>> assert_decomposition_close({"g_star": [1.0, 0.0], "rho": [0.5, 0.5]}, dec, atol=1e-12).ok
True
>>> report = compare({"h": [0.75, 0.25]}, dec, atol=1e-9)   # normalized h is (1/4, -1/4)
>>> report.findings[0].status
'same up to gauge'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import UsageError
from ..chain import MarkovRewardProcess
from ..decomposition import decompose
from ..floats import float_matrix, to_floats
from ..result import Decomposition

__all__ = [
    "Finding",
    "Report",
    "compare",
    "assert_decomposition_close",
    "assert_gain_close",
    "assert_bias_close",
    "VECTOR_KEYS",
]

VECTOR_KEYS = ("g_star", "v_star", "rho", "h", "psi")
MATRIX_KEYS = ("basis", "P_inf")
STRUCTURE_KEYS = ("classes", "periods", "cyclic_classes", "transient")


def _num(x: Any) -> float:
    if isinstance(x, str):
        from fractions import Fraction

        return float(Fraction(x.strip()))
    return float(x)


def _arr(x: Any) -> np.ndarray:
    a = np.asarray(x, dtype=object)
    return np.vectorize(_num, otypes=[float])(a) if a.size else np.zeros(a.shape)


@dataclass
class Finding:
    """One compared quantity: ``status`` is ``ok``, ``mismatch``, ``same up to gauge`` or ``structure mismatch``."""

    key: str
    status: str
    max_error: float = 0.0
    worst_states: list[int] = field(default_factory=list)
    detail: str = ""

    @property
    def ok(self) -> bool:
        """Whether the quantity agrees."""
        return self.status == "ok"


@dataclass
class Report:
    findings: list[Finding]
    up_to_gauge: bool = False

    @property
    def ok(self) -> bool:
        """Whether every finding agrees (gauge findings too with ``up_to_gauge``)."""
        accepted = {"ok", "same up to gauge"} if self.up_to_gauge else {"ok"}
        return all(f.status in accepted for f in self.findings)

    def table(self) -> str:
        """The findings as a text table, closing with ``agrees`` or ``DISAGREES``."""
        w = max([len(f.key) for f in self.findings] + [8])
        lines = [f"{'quantity'.ljust(w)}  {'status':18}  {'max error':>10}  worst states / detail"]
        for f in self.findings:
            lines.append(f"{f.key.ljust(w)}  {f.status:18}  {f.max_error:10.3g}  {f.worst_states[:5]} {f.detail}".rstrip())
        lines.append("agrees" if self.ok else "DISAGREES")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


class _Oracle:
    """Float views of the exact decomposition, plus gauge-space bases (computed once)."""

    def __init__(self, dec: Decomposition) -> None:
        self.dec = dec
        chain = dec.chain
        self.n = chain.n
        self.r = to_floats(chain.r)
        self.P = float_matrix(chain)
        self.vec = {k: to_floats(getattr(dec, k)) for k in VECTOR_KEYS}
        self.basis = np.array([to_floats(row) for row in dec.basis])
        self.anchors = [s for _, _, s in dec.anchor_list]
        # ker(I - P): absorption probabilities into each class
        self.invariant = np.array([to_floats(row) for row in dec.absorption]) if dec.absorption else np.zeros((self.n, 0))

    def _in_span(self, B: np.ndarray, x: np.ndarray, tol: float) -> bool:
        if B.shape[1] == 0:
            return bool(np.max(np.abs(x)) <= tol)
        coef, *_ = np.linalg.lstsq(B, x, rcond=None)
        return bool(np.max(np.abs(B @ coef - x)) <= tol)


def _vector_finding(key: str, got: np.ndarray, expected: np.ndarray, atol: float, rtol: float) -> Finding:
    if got.shape != expected.shape:
        return Finding(key, "mismatch", float("inf"), [], f"has shape {got.shape}, expected {expected.shape}")
    err = np.abs(got - expected)
    tol = atol + rtol * np.abs(expected)
    bad = np.nonzero(err > tol)[0]
    worst = [int(s) for s in np.argsort(-err)[: min(5, len(err))] if err[s] > tol[s]]
    if bad.size == 0:
        return Finding(key, "ok", float(err.max(initial=0.0)))
    s = worst[0]
    return Finding(key, "mismatch", float(err.max()), worst, f"state {s}: expected {expected[s]:.6g}, got {got[s]:.6g}")


def compare(candidate: Mapping[str, Any], reference: MarkovRewardProcess | Decomposition, *, atol: float = 1e-9,
            rtol: float = 0.0, up_to_gauge: bool = False) -> Report:
    """Compare every quantity the candidate gives with exactpte's exact answer."""
    dec = reference if isinstance(reference, Decomposition) else decompose(reference)
    orc = _Oracle(dec)
    findings: list[Finding] = []
    tol_of = lambda x: atol + rtol * float(np.max(np.abs(x), initial=0.0))
    # structure: classes compared as sets, periods per class
    if "classes" in candidate:
        got = sorted(sorted(int(s) for s in c) for c in candidate["classes"])
        exp = sorted(sorted(c) for c in dec.classes)
        findings.append(Finding("classes", "ok") if got == exp else Finding(
            "classes", "structure mismatch", detail=f"expected {exp}, got {got}"))
    if "periods" in candidate:
        classes = candidate.get("classes")
        if classes is not None and len(classes) == len(candidate["periods"]):
            got_map = {min(int(s) for s in c): int(d) for c, d in zip(classes, candidate["periods"])}
            exp_map = {c[0]: d for c, d in zip(dec.classes, dec.periods)}
            bad = {k: (exp_map.get(k), got_map.get(k)) for k in set(got_map) | set(exp_map) if got_map.get(k) != exp_map.get(k)}
            detail = "; ".join(f"class with smallest state {k}: expected period {e}, got {g}" for k, (e, g) in sorted(bad.items()))
        else:
            ok = sorted(int(d) for d in candidate["periods"]) == sorted(dec.periods)
            detail = "" if ok else f"expected periods {sorted(dec.periods)}, got {sorted(int(d) for d in candidate['periods'])}"
        findings.append(Finding("periods", "structure mismatch" if detail else "ok", detail=detail))
    if "cyclic_classes" in candidate:
        canon = lambda cc: sorted(sorted(sorted(int(s) for s in ck) for ck in cyc) for cyc in cc)
        ok = canon(candidate["cyclic_classes"]) == canon(dec.cyclic_classes)
        findings.append(Finding("cyclic_classes", "ok" if ok else "structure mismatch",
                                detail="" if ok else "cyclic classes differ (compared as sets of sets)"))
    if "transient" in candidate:
        ok = sorted(int(s) for s in candidate["transient"]) == list(dec.transient)
        findings.append(Finding("transient", "ok" if ok else "structure mismatch"))
    for key in VECTOR_KEYS:
        if key not in candidate:
            continue
        got = _arr(candidate[key]).reshape(-1)
        f = _vector_finding(key, got, orc.vec[key], atol, rtol)
        if f.status == "mismatch" and got.shape == orc.vec[key].shape:
            diff = got - orc.vec[key]
            tol = 10 * tol_of(orc.vec[key]) + 1e-12
            if key == "v_star" and orc._in_span(orc.basis, diff, tol):
                g = orc.r - (np.eye(orc.n) - orc.P) @ got
                g_in_K = orc._in_span(orc.basis, g, tol)
                g_given = candidate.get("g_star")
                g_match = g_given is None or np.max(np.abs(_arr(g_given).reshape(-1) - g)) <= tol
                if g_in_K and g_match:
                    at = {a: float(got[a]) for a in orc.anchors if abs(got[a]) > tol}
                    f = Finding(key, "same up to gauge", f.max_error, f.worst_states,
                                f"differs from v* by an element of K(P); the anchor gauge needs v = 0 at the anchors, got {at}")
            elif key == "h" and orc._in_span(orc.invariant, diff, tol):
                f = Finding(key, "same up to gauge", f.max_error, f.worst_states,
                            "differs from the normalized bias by an element of ker(I-P): normalization P_inf h = 0 is not met")
        findings.append(f)
    if "g_star" in candidate and "v_star" in candidate:
        # an off-gauge v with its matching g is one finding, not two
        fv = next(f for f in findings if f.key == "v_star")
        fg = next(f for f in findings if f.key == "g_star")
        if fv.status == "same up to gauge" and fg.status == "mismatch":
            fg.status, fg.detail = "same up to gauge", "matches r - (I-P) v for the candidate's off-gauge v"
    if "theta" in candidate:
        findings.append(_vector_finding("theta", _arr(candidate["theta"]).reshape(-1), to_floats(dec.theta), atol, rtol))
    for key in MATRIX_KEYS:
        if key not in candidate:
            continue
        got = _arr(candidate[key])
        exp = orc.basis if key == "basis" else np.array([to_floats(row) for row in dec.P_inf])
        if got.shape != exp.shape:
            findings.append(Finding(key, "mismatch", float("inf"), [], f"has shape {got.shape}, expected {exp.shape}"))
            continue
        err = np.abs(got - exp)
        bad_rows = [int(s) for s in np.argsort(-err.max(axis=1)) if err[s].max() > atol + rtol * np.abs(exp[s]).max()][:5]
        findings.append(Finding(key, "mismatch" if bad_rows else "ok", float(err.max(initial=0.0)), bad_rows))
    if not findings:
        raise UsageError("the candidate gives none of the compared keys "
                         f"({', '.join(STRUCTURE_KEYS + VECTOR_KEYS + ('theta',) + MATRIX_KEYS)})")
    return Report(findings, up_to_gauge)


def assert_decomposition_close(candidate: Mapping[str, Any], reference, *, atol: float = 1e-9, rtol: float = 0.0,
                               up_to_gauge: bool = False) -> Report:
    """Assert that every quantity the candidate gives matches the exact answer (see :func:`compare`)."""
    report = compare(candidate, reference, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
    if not report.ok:
        bad = [f for f in report.findings if not (f.ok or (up_to_gauge and f.status == "same up to gauge"))]
        lines = [f"{f.key}: {f.status} (max error {f.max_error:.3g}, worst states {f.worst_states[:5]}) {f.detail}".rstrip() for f in bad]
        raise AssertionError("candidate disagrees with the exact decomposition:\n  " + "\n  ".join(lines))
    return report


def assert_gain_close(rho: Sequence[float], reference, *, atol: float = 1e-9, rtol: float = 0.0) -> None:
    """Assert a gain vector equals ``ρ = P∞ r``."""
    assert_decomposition_close({"rho": rho}, reference, atol=atol, rtol=rtol)


def assert_bias_close(h: Sequence[float], reference, *, atol: float = 1e-9, rtol: float = 0.0, up_to_gauge: bool = False) -> None:
    """Assert a bias vector equals the normalized ``h`` (or differs by ``ker(I - P)`` when ``up_to_gauge``)."""
    assert_decomposition_close({"h": h}, reference, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
