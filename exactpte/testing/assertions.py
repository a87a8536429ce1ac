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
from typing import TYPE_CHECKING, Any

from exactpte.oracle.comparison import Reference, compare
from exactpte.oracle.findings import Report
from exactpte.oracle.mdp_judge import MDPReference, judge_mdp

if TYPE_CHECKING:
    from exactpte.mdp.model import MDP

__all__ = ["assert_decomposition_close", "assert_gain_close", "assert_bias_close", "assert_mdp_answer"]


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
        raise AssertionError("candidate disagrees with the exact decomposition:\n  " + _disagreements(report))
    return report


def _disagreements(report: Report) -> str:
    """One line per disagreeing finding (and its likely cause)."""
    bad = [f for f in report.findings if not (f.ok or (f.status == "same up to gauge" and (report.up_to_gauge or f.key in report.gauge_free)))]
    lines = [f"{f.key}: {f.status} (max error {f.max_error:.3g}, worst states {f.worst_states[:5]}) {f.detail}".rstrip()
             + (f"\n    likely: {f.diagnosis}" if f.diagnosis else "") for f in bad]
    return "\n  ".join(lines)


def assert_mdp_answer(candidate: Mapping[str, Any], mdp: "MDP | MDPReference", *, discount: Any = None, atol: float = 1e-9,
                      rtol: float = 0.0, up_to_gauge: bool = False) -> Report:
    """Assert that an MDP solver's answer (its native output: pymdptoolbox's ``V``/``policy``/``average_reward``,
    QuantEcon's ``v``/``sigma``, Storm's results, or ``exactpte mdp``'s keys) is right for ``mdp``
    (:func:`exactpte.oracle.judge_mdp`): its policy optimal (evaluated exactly), its numbers within the tolerances.
    Pass an :class:`~exactpte.oracle.MDPReference` to judge many answers against one exact solution.

    Examples
    --------
    >>> from exactpte.mdp import MDP
    >>> m = MDP([[[1, 0], [0, 1]], [[0, 1], [0, 1]]], [[1, 0], ["1001/1000", "1001/1000"]])
    >>> assert_mdp_answer({"policy": [1, 0], "average_reward": 1.001}, m).ok
    True
    >>> assert_mdp_answer({"policy": [0, 0]}, m)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: the MDP answer is wrong:
      policy: mismatch (max error 0.001, worst states [0]) not gain-optimal: at state 0 it earns the gain 1 against g* = 1001/1000 (exact loss 1/1000)
        likely: an ε-optimal policy on a near tie: ...
    """
    __tracebackhide__ = True
    report = judge_mdp(candidate, mdp, discount=discount, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
    if not report.ok:
        raise AssertionError("the MDP answer is wrong:\n  " + _disagreements(report))
    return report


def assert_gain_close(rho: Sequence[float], reference: Reference, *, atol: float = 1e-9, rtol: float = 0.0) -> None:
    """Assert a gain vector equals ``ρ = P∞ r`` (NaN and infinity never agree)."""
    __tracebackhide__ = True
    assert_decomposition_close({"rho": rho}, reference, atol=atol, rtol=rtol)


def assert_bias_close(h: Sequence[float], reference: Reference, *, atol: float = 1e-9, rtol: float = 0.0, up_to_gauge: bool = False) -> None:
    """Assert a bias vector equals the normalized ``h`` (or differs by ``ker(I - P)`` when ``up_to_gauge``)."""
    __tracebackhide__ = True
    assert_decomposition_close({"h": h}, reference, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
