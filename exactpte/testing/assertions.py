"""Assertions for tests of float implementations: each raises ``AssertionError`` naming the
quantity, its worst states, expected versus got and the likely mistake (see
:func:`exactpte.oracle.compare`).

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("periodic"))
>>> assert_decomposition_close({"g_star": [1.0, 0.0], "rho": [0.5, 0.5]}, dec, atol=1e-12).ok
True
>>> assert_gain_close([0.5, 0.4], dec)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
AssertionError: candidate disagrees with the exact decomposition:
  rho: mismatch (max error 0.1, worst states [1]) state 1: expected 0.5, got 0.4
    likely: a persistent periodic mode: ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from exactpte.oracle.compare import Reference, compare
from exactpte.oracle.findings import Report

__all__ = ["assert_decomposition_close", "assert_gain_close", "assert_bias_close"]


def assert_decomposition_close(candidate: Mapping[str, Any], reference: Reference, *, atol: float = 1e-9, rtol: float = 0.0,
                               up_to_gauge: bool = False) -> Report:
    """Assert that every quantity the candidate gives matches the exact answer (see :func:`compare`).

    Raises
    ------
    AssertionError
        Naming each disagreeing quantity, its worst states and expected versus got.
    """
    __tracebackhide__ = True  # pytest shows the caller's frame, not the oracle's
    report = compare(candidate, reference, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
    if not report.ok:
        bad = [f for f in report.findings if not (f.ok or (up_to_gauge and f.status == "same up to gauge"))]
        lines = [f"{f.key}: {f.status} (max error {f.max_error:.3g}, worst states {f.worst_states[:5]}) {f.detail}".rstrip()
                 + (f"\n    likely: {f.diagnosis}" if f.diagnosis else "") for f in bad]
        raise AssertionError("candidate disagrees with the exact decomposition:\n  " + "\n  ".join(lines))
    return report


def assert_gain_close(rho: Sequence[float], reference: Reference, *, atol: float = 1e-9, rtol: float = 0.0) -> None:
    """Assert a gain vector equals ``ρ = P∞ r`` (NaN and infinity never agree)."""
    __tracebackhide__ = True
    assert_decomposition_close({"rho": rho}, reference, atol=atol, rtol=rtol)


def assert_bias_close(h: Sequence[float], reference: Reference, *, atol: float = 1e-9, rtol: float = 0.0, up_to_gauge: bool = False) -> None:
    """Assert a bias vector equals the normalized ``h`` (or differs by ``ker(I - P)`` when ``up_to_gauge``)."""
    __tracebackhide__ = True
    assert_decomposition_close({"h": h}, reference, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
