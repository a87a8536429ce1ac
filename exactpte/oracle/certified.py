"""The comparison against certified float enclosures (:class:`~exactpte.certified.CertifiedDecomposition`)
instead of the exact decomposition: an entry agrees when it is within the tolerance plus the
enclosure's radius of the enclosure's midpoint.

Examples
--------
>>> import exactpte
>>> from exactpte.certified import decompose_certified
>>> from exactpte.oracle.compare import compare
>>> compare({"rho": [0.5, 0.5]}, decompose_certified(exactpte.example("periodic"))).ok
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from exactpte.errors import CandidateError
from exactpte.oracle.conventions import GAUGE_KEYS, read_convention
from exactpte.oracle.findings import Finding, Report, not_claimed, numeric_finding
from exactpte.oracle.keys import ABSORBING_KEYS, VECTOR_KEYS
from exactpte.oracle.stationary import full_length
from exactpte.oracle.structure import structure_findings
from exactpte.oracle.values import index, is_scalar, matrix, nested, vector
from exactpte.results.quantities import PER_CLASS_KEYS

if TYPE_CHECKING:
    from exactpte.certified import CertifiedDecomposition, Interval

__all__: list[str] = []


def _per_class(cand: dict[str, Any], cert: CertifiedDecomposition, judge: Callable[..., Finding]) -> list[Finding]:
    """``class_gain`` and ``stationary`` against their enclosures, aligned with the candidate's
    ``classes`` (their order and member order) as on the exact path."""
    out: list[Finding] = []
    classes = nested(cand["classes"], "classes", 2) if "classes" in cand else None
    order = list(range(len(cert.classes)))
    if classes is not None:
        by_set = {frozenset(c): i for i, c in enumerate(cert.classes)}
        mapped = [by_set.get(frozenset(c), -1) for c in classes]
        if sorted(mapped) != order:
            return [Finding(k, "structure mismatch", detail="the candidate's classes differ, so per-class values cannot be "
                            "aligned") for k in PER_CLASS_KEYS if k in cand]
        order = mapped
    if "class_gain" in cand:
        out.append(judge("class_gain", vector(cand["class_gain"], "class_gain"), cert.class_gain[order], "class"))
    if "stationary" in cand:
        raw = cand["stationary"]
        worst = Finding("stationary", "ok")
        if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence) or len(raw) != len(cert.stationary):
            worst = Finding("stationary", "mismatch", math.inf, [], f"expected one distribution per class ({len(cert.stationary)})")
        else:
            for pos, i in enumerate(order):
                pi = cert.stationary[i]
                if classes is not None:  # the candidate's own member order
                    at = {s: t for t, s in enumerate(cert.classes[i])}
                    pi = pi[[at[s] for s in classes[pos]]]
                f = judge("stationary", vector(raw[pos], f"stationary[{pos}]"), pi, f"entry of class {pos}, position")
                if not f.ok and worst.ok:
                    worst = f
        out.append(worst)
    return out


def compare_certified(cand: dict[str, Any], cert: CertifiedDecomposition, atol: float, rtol: float) -> Report:
    """Judge a candidate against certified enclosures ``[lo, hi]`` instead of exact values.

    An entry agrees when ``|x - mid| <= atol + rtol |mid| + radius``: an answer within the
    tolerance of the exact value is never rejected, and one off by more than the tolerance plus
    the enclosure's width always is (the width is stated in each finding).
    """
    exact_only = [k for k in (*ABSORBING_KEYS, "targets") if k in cand]
    if exact_only:
        raise CandidateError(f"{', '.join(exact_only)}: judged against the exact reference only (--arithmetic exact)")
    if "stationary" in cand and full_length(cand["stationary"], cert.n, [len(c) for c in cert.structure.classes]):
        raise CandidateError("full-length stationary vectors are judged against the exact reference only (--arithmetic exact)")
    convention, _ = read_convention(cand, cert.structure, [s for _, _, s in cert.anchor_list])
    moved = [k for k in ("basis", "theta", *GAUGE_KEYS) if k in cand and (
        (convention.moves_columns and k in ("basis", "theta")) or (convention.own_anchors and k != "basis"))]
    if moved:
        raise CandidateError(f"{', '.join(moved)} in another convention (class order, phases or anchors) are judged against "
                             "the exact reference only (--arithmetic exact)")
    if "rho" in cand and is_scalar(cand["rho"]):  # a scalar gain: one gain for every state
        cand = {**cand, "rho": [cand["rho"]] * cert.n}
    findings: list[Finding] = []
    if "n" in cand:
        n = index(cand["n"], "n")
        findings.append(Finding("n", "ok" if n == cert.n else "structure mismatch", detail="" if n == cert.n else f"expected {cert.n}, got {n}"))
    findings += structure_findings(cand, cert)

    def judge(key: str, got: np.ndarray, iv: Interval, unit: str = "state") -> Finding:
        f = numeric_finding(key, got, iv.mid, atol, rtol, unit, slack=iv.rad)
        width = float(np.max(iv.width, initial=0.0))
        f.detail = (f.detail + "; " if f.detail else "") + f"judged against certified enclosures (widest {width:.1e})"
        return f

    vectors = cert.vectors()
    for key in VECTOR_KEYS:
        if key in cand:
            if key not in vectors:
                raise CandidateError(f"{key} has no certified enclosure; compare it against the exact decomposition")
            findings.append(judge(key, vector(cand[key], key), vectors[key]))
    if "theta" in cand:
        findings.append(judge("theta", vector(cand["theta"], "theta"), cert.theta, "column"))
    findings += _per_class(cand, cert, judge)
    if "basis" in cand:
        findings.append(judge("basis", matrix(cand["basis"], "basis"), cert.basis, "row"))
    if "P_inf" in cand:
        findings.append(judge("P_inf", matrix(cand["P_inf"], "P_inf"), cert.P_inf, "row"))
    return Report(findings, False, not_claimed(cand))
