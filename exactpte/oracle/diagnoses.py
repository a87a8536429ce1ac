"""Diagnoses of wrong gains and of bias-like vectors off by a gauge part (numpy only).

A gain has no normalisation and no scale: a wrong gain is named by what produced it.

- **unichain assumption**: one value for every state while the closed classes' gains differ
  (every average-reward solver that returns a scalar);
- **power-iteration value**: ``P^k r`` after ``k`` steps, or its minimum / maximum over states,
  in place of the Cesàro average: what (relative) value iteration returns on a periodic class,
  where ``P^k r`` never converges;
- **constant candidate**: a constant against a constant exact gain, off by a stated amount.

A bias-like vector (``h`` up to ``ker(I - P)``, ``v*`` up to ``K(P)``) is split into its gauge
part (the least-squares projection of the error on the gauge space) and the residual off it: both
are reported, the residual is the real error, and a gauge part much larger than the answer is
named (relative value iteration diverging like ``k ρ`` on a multichain).

Examples
--------
>>> import numpy as np
>>> P, r = np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([1.0, 0.0])
>>> power_match(0.0, power_iterates(P, r, period=2))
'min over states of P^k r (k = 0, 1, 2)'
>>> g, res = gauge_split(np.array([3.0, 3.02]), np.ones((2, 1)))
>>> round(g, 6), round(res, 6)
(3.01, 0.01)
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["power_iterates", "power_match", "diagnose_gain", "gauge_split", "gauge_note", "POWER_LIMIT"]

POWER_LIMIT = 5000
"""Power-iteration diagnoses look at ``P^k r`` only for chains of at most this many states."""
_STEPS = 2000


def power_iterates(P: Any, r: np.ndarray, steps: int = _STEPS, period: int = 1) -> np.ndarray:
    """``P^k r`` for ``k = 0..steps`` as rows, stopped once the iterates repeat with ``period``
    (later ones add nothing); empty when the chain is past :data:`POWER_LIMIT`.  ``P``: a dense
    array or a scipy sparse matrix."""
    if P.shape[0] > POWER_LIMIT:
        return np.zeros((0, P.shape[0]))
    out = [r.astype(float)]
    scale = 1e-15 * max(1.0, float(np.max(np.abs(r), initial=0.0)))
    for k in range(1, steps + 1):
        out.append(P @ out[-1])
        if k >= period and np.max(np.abs(out[-1] - out[-1 - period]), initial=0.0) <= scale:
            break
    return np.array(out)


def _close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol


def power_match(c: float, X: np.ndarray, tol: float = 1e-9, states: np.ndarray | None = None) -> str:
    """How the constant ``c`` arises from power iteration (``X``: :func:`power_iterates`) on ``states``
    (all by default): the minimum or maximum over states of ``P^k r`` for some ``k`` (the first few
    are named); empty if none."""
    if X.size == 0:
        return ""
    if states is not None:
        X = X[:, states]
    lo, hi = X.min(axis=1), X.max(axis=1)
    for name, vals in (("min", lo), ("max", hi)):
        hits = np.flatnonzero(np.abs(vals - c) <= tol)
        if hits.size and not np.all(np.abs(X[hits[-1]] - c) <= tol):  # not merely a constant P^k r
            ks = ", ".join(str(int(k)) for k in hits[:3]) + (", ..." if hits.size > 3 else "")
            return f"{name} over states of P^k r (k = {ks})"
    return ""


def _vector_power_match(got: np.ndarray, X: np.ndarray, tol: float, states: np.ndarray) -> int | None:
    """The smallest ``k`` with ``P^k r = got`` on ``states`` (``None`` if none)."""
    if X.size == 0 or not states.size:
        return None
    hits = np.flatnonzero(np.max(np.abs(X[:, states] - got[states]), axis=1) <= tol)
    return int(hits[0]) if hits.size else None


def diagnose_gain(got: np.ndarray, expected: np.ndarray, X: np.ndarray, r: np.ndarray, classes: list[list[int]],
                  periods: list[int], class_gain: np.ndarray, tol: float) -> str:
    """The likely mistake behind a wrong gain vector ``got`` (``expected = P∞ r``; ``X``: the iterates
    ``P^k r`` of :func:`power_iterates`); empty if none."""
    recurrent = np.array(sorted(s for c in classes for s in c), dtype=int)
    loose = max(tol, 1e-9 * float(np.max(np.abs(r), initial=1.0)))
    if np.ptp(got) <= tol:
        c = float(np.mean(got))
        power = power_match(c, X, loose)
        periodic = any(d > 1 for d in periods)
        if power and periodic:
            power += ", a power-iteration value: on a periodic class P^k r oscillates, the gain is its Cesaro average"
        elif power:
            power += ": an unconverged power (value) iteration, stopped after about k steps"
        if class_gain.size and np.ptp(class_gain) > tol:
            which = [i for i, gi in enumerate(class_gain) if _close(c, float(gi), loose)]
            named = f"; it is the gain of class {which[0]}" if which else (f"; {c:.6g} is the {power}" if power else "")
            return (f"one gain for all classes: a unichain assumption (the candidate gives {c:.6g} everywhere; "
                    f"the {len(classes)} closed classes have gains {_short(class_gain)}){named}")
        e = float(np.mean(expected))
        if power:
            return f"{c:.6g} is the {power} (exact gain {e:.6g})"
        return (f"a constant candidate {c:.6g} against the exact constant gain {e:.6g} (off by {c - e:.3g} everywhere): "
                "an unconverged or biased average-reward estimate")
    k = _vector_power_match(got, X, loose, recurrent)
    if k is not None:
        if any(d > 1 for d in periods):
            return (f"the value of P^k r after k = {k} steps on the closed classes (a periodic class: P^k r oscillates, "
                    "the gain is its Cesaro average)")
        return (f"the value of P^k r after k = {k} steps on the closed classes: an unconverged power iteration "
                "(P^k r tends to the gain, which it has not reached)")
    notes = []
    for i, (members, d) in enumerate(zip(classes, periods)):
        idx = np.array(members)
        sub = got[idx]
        if np.ptp(sub) <= tol and not _close(float(sub[0]), float(class_gain[i]), tol):
            pm = power_match(float(sub[0]), X, loose, idx)
            if pm:
                notes.append(f"class {i} (period {d}): {float(sub[0]):.6g} is the {pm}")
    if notes:
        return "a power-iteration value on " + "; ".join(notes)
    return ""


def _short(x: np.ndarray, k: int = 6) -> str:
    vals = [f"{float(v):.6g}" for v in x[:k]]
    return "[" + ", ".join(vals) + (", ...]" if len(x) > k else "]")


def gauge_split(diff: np.ndarray, B: np.ndarray, C: np.ndarray | None = None) -> tuple[float, float]:
    """The sizes (max norm) of the gauge part ``B (C diff)`` of ``diff`` and of the residual.

    ``C`` holds the reference gauge's functionals (``C B = I``): the residual is then the error
    left after moving the candidate into the reference's gauge (for ``h``: ``C`` the stationary
    distributions, the residual ``(I - P∞)(got - h)``; for ``v*``: the anchors' values).  Without
    ``C`` the least-squares projection on the columns of ``B`` is used."""
    if B.shape[1] == 0 or not np.all(np.isfinite(diff)):
        return 0.0, float(np.max(np.abs(diff), initial=0.0))
    if C is None:
        coef, *_ = np.linalg.lstsq(B, diff, rcond=None)
    else:
        coef = C @ diff
    part = B @ coef
    return float(np.max(np.abs(part), initial=0.0)), float(np.max(np.abs(diff - part), initial=0.0))


def gauge_note(gauge: float, residual: float, answer: float, space: str, tol: float, *, transient: bool = False) -> tuple[str, str]:
    """The detail and diagnosis for an error split into a gauge part and a residual (``transient``: the
    residual lies on transient states only, said after the rest)."""
    detail = f"error = a gauge part of size {gauge:.3g} (in {space}) + a residual of {residual:.3g} off it"
    large = gauge > 10 * max(answer, tol, 1e-300) and gauge > tol
    diagnosis = ""
    if large:
        ratio = gauge / answer if answer > 0 else float("inf")
        diagnosis = (f"the gauge part ({gauge:.3g}) is {ratio:.3g} x the size of the answer ({answer:.3g}): a relative value "
                     "iteration diverging like k x rho (no single offset can be subtracted when the classes' gains differ)")
    if residual > tol:
        more = (f"off by a gauge part ({gauge:.3g}) plus a residual of {residual:.3g}: the residual is the real error "
                "(an unconverged iteration, or a wrong value)")
        diagnosis = more + ("; " + diagnosis if diagnosis else "")
        if transient:
            diagnosis += ("; off the gauge, an error confined to transient states (the closed classes are right; the "
                          "solve on the transient block is not)")
    return detail, diagnosis
