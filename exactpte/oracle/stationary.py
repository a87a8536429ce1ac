"""Per-class quantities: ``class_gain`` and ``stationary``, aligned with the candidate's classes,
and full-length stationary vectors (QuantEcon, PyDTMC, discreteMarkovChain) judged as
stationary distributions of the whole chain.

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("periodic"))
>>> [f.status for f in per_class_findings({"stationary": [[0.5, 0.5]], "class_gain": [0.5]}, dec, 1e-9, 0.0)]
['ok', 'ok']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from exactpte.model.to_float import float_sparse_matrix, to_float, to_floats
from exactpte.oracle.findings import Finding, numeric_finding
from exactpte.oracle.values import depth, few, nested, vector
from exactpte.results.decomposition import Decomposition
from exactpte.results.quantities import PER_CLASS_KEYS

__all__: list[str] = []


def per_class_findings(cand: dict[str, Any], dec: Decomposition, atol: float, rtol: float) -> list[Finding]:
    """``stationary`` and ``class_gain``, aligned with the candidate's classes (canonical order if none given)."""
    out: list[Finding] = []
    order = list(range(len(dec.classes)))
    cand_classes = nested(cand["classes"], "classes", 2) if "classes" in cand else None
    if cand_classes is not None:
        by_set = {tuple(sorted(c)): i for i, c in enumerate(dec.classes)}
        mapped = [by_set.get(tuple(sorted(c))) for c in cand_classes]
        order = [i for i in mapped if i is not None]
        if len(order) != len(mapped) or len(mapped) != len(dec.classes) or len(set(order)) != len(order):
            return out + [Finding(k, "structure mismatch", detail="the candidate's classes differ, so per-class values cannot be aligned")
                          for k in PER_CLASS_KEYS if k in cand]
    if "stationary" in cand and full_length(cand["stationary"], dec.n, [len(c) for c in dec.classes]):
        raw = cand["stationary"]
        out.append(_mixture_finding(raw, dec, atol, rtol) if depth(raw) == 1
                   else _rows_finding(raw, dec, order if cand_classes is not None else None, atol, rtol))
        cand = {k: v for k, v in cand.items() if k != "stationary"}
    if "class_gain" in cand:
        exp = np.array([to_float(dec.class_gain[i]) for i in order])
        out.append(numeric_finding("class_gain", vector(cand["class_gain"], "class_gain"), exp, atol, rtol, unit="class"))
    if "stationary" in cand:
        raw = cand["stationary"]
        if isinstance(raw, np.ndarray):
            raw = list(raw)
        if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence) or len(raw) != len(order):
            out.append(Finding("stationary", "mismatch", math.inf, [], f"expected one distribution per class ({len(order)})"))
            return out
        worst = Finding("stationary", "ok")
        for pos, i in enumerate(order):
            got = vector(raw[pos], f"stationary[{pos}]")
            members = dec.classes[i]
            if cand_classes is not None:  # aligned with the candidate's own member order
                lookup = dict(zip(members, dec.stationary[i]))
                exp = np.array([to_float(lookup[s]) for s in cand_classes[pos]])
            else:
                exp = to_floats(dec.stationary[i])
            f = numeric_finding("stationary", got, exp, atol, rtol, unit=f"entry of class {pos}, position")
            if not f.ok and worst.ok:
                worst = f
        out.append(worst)
    return out


def full_length(raw: Any, n: int, sizes: list[int]) -> bool:
    """Whether ``stationary`` is given as full-length vectors (one, or a list of them) rather than
    per class: a flat vector, or rows of length ``n`` where some class is smaller than ``n``."""
    levels = depth(raw)
    if levels == 1:
        return True
    if levels != 2:
        return False
    rows = list(raw)
    return bool(rows) and all(len(row) == n for row in rows) and any(size != n for size in sizes)


def _mixture_finding(raw: Any, dec: Decomposition, atol: float, rtol: float) -> Finding:
    """One full-length stationary vector (discreteMarkovChain's ``pi``): it stands for a stationary
    distribution of the whole chain, i.e. a mixture ``Σ c_i π_i`` of the classes'
    (``c_i >= 0``, ``Σ c_i = 1``); any mixture is accepted, its weights are named."""
    rows = [vector(raw, "stationary")]
    pis = [(list(members), to_floats(pi)) for members, pi in zip(dec.classes, dec.stationary)]
    worst, weights_seen, max_err = Finding("stationary", "ok"), [], 0.0
    for k, x in enumerate(rows):
        where = f"vector {k}: " if len(rows) > 1 else ""
        if x.shape != (dec.n,):
            return Finding("stationary", "mismatch", math.inf, [], f"{where}has length {x.size}, expected {dec.n}")
        if not np.all(np.isfinite(x)):
            bad = [int(i) for i in np.flatnonzero(~np.isfinite(x))]
            k = len(dec.classes)
            return Finding("stationary", "mismatch", math.inf, bad[:5], f"{where}not finite at states {few(bad)}",
                           f"NaN from a singular solve: the chain has {k} closed classes, so I - P restricted by one "
                           "normalisation is still singular" if k > 1 else "")
        weights = np.array([math.fsum(x[m]) for m, _ in pis])
        mix = np.zeros(dec.n)
        for (m, pi), c in zip(pis, weights):
            mix[m] = c * pi
        err = np.abs(x - mix)
        # the weights and the total are sums computed here (correctly rounded: fsum), and a weight times pi
        # rounds once more: a few units in the last place of each entry (relative), and of the total, are
        # the oracle's rounding, not the candidate's error, so the nearest floats of the answer pass at atol = 0
        eps = float(np.finfo(float).eps)
        f = numeric_finding("stationary", x, mix, atol, rtol + 4 * eps)
        total, rounding = math.fsum(x), 2 * eps
        max_err = max(max_err, float(err.max(initial=0.0)))
        problems = []
        negative = float(max(-x.min(initial=0.0), 0.0))
        if negative > atol:
            problems.append(f"negative entries (state {int(np.argmin(x))}: {float(x.min()):.3g}; class weights "
                            + ", ".join(f"{float(c):.3g}" for c in weights) + ")")
        if abs(total - 1) > atol + rtol + rounding:
            problems.append(f"sums to {total:.6g}, not 1" if abs(total - 1) > 1e-5 else f"sums to 1 {'+' if total > 1 else '-'} {abs(total - 1):.2g}, not 1")
        if not f.ok:
            w = f.worst_states[0]
            problems.append(f"mass {float(x[w]):.3g} on transient state {w}" if w in set(dec.transient)
                            else f"not proportional to its class's stationary distribution at state {w} "
                                 f"(expected {float(mix[w]):.6g} for the class weight {float(weights[_class_index(dec, w)]):.6g})")
        if problems:
            wrong = Finding("stationary", "mismatch", float(max(err.max(), abs(total - 1), negative)),
                            f.worst_states or [int(np.argmin(x))],
                            where + "not a stationary distribution of the chain: " + "; ".join(problems),
                            _stationary_diagnosis(x, float(err.max()), negative, weights, dec, atol))
            if worst.ok:
                worst = wrong
        weights_seen.append("(" + ", ".join(f"{float(c):.3g}" for c in weights) + ")")
    if worst.ok:
        worst.max_error = max_err
        worst.detail = ("a stationary distribution of the whole chain: a mixture of the classes' with weights "
                        + ", ".join(weights_seen))
    return worst


def _rows_finding(raw: Any, dec: Decomposition, order: list[int] | None, atol: float, rtol: float) -> Finding:
    """Full-length rows (QuantEcon's ``stationary_distributions``, PyDTMC's ``pi``): each row stands for
    one closed class and must be that class's stationary distribution (zero off the class), and the
    rows cover every closed class exactly once.  Row ``k`` stands for the candidate's class ``k`` when
    it gives ``classes``, else for the class holding the row's mass (the rows then in any order)."""
    rows = [vector(r, f"stationary[{k}]") for k, r in enumerate(raw)]
    pis = np.zeros((len(dec.classes), dec.n))
    for i, (members, pi) in enumerate(zip(dec.classes, dec.stationary)):
        pis[i, list(members)] = to_floats(pi)
    stands: list[int] = []
    max_err = 0.0
    for k, x in enumerate(rows):
        if x.shape != (dec.n,):
            return Finding("stationary", "mismatch", math.inf, [], f"row {k} has length {x.size}, expected {dec.n}")
        weights = np.array([math.fsum(x[list(m)]) for m in dec.classes]) if np.all(np.isfinite(x)) else np.zeros(len(pis))
        i = order[k] if order is not None and k < len(order) else int(np.argmax(weights))
        f = numeric_finding("stationary", x, pis[i], atol, rtol)
        if not f.ok:
            carried = [j for j, c in enumerate(weights) if abs(c) > max(atol, 1e-12)]
            f.detail = f"row {k} (class with smallest state {dec.classes[i][0]}): {f.detail}"
            if len(carried) > 1:
                f.diagnosis = ("a mixture of the classes with smallest states " + ", ".join(str(dec.classes[j][0]) for j in carried)
                               + " (weights " + ", ".join(f"{float(weights[j]):.3g}" for j in carried)
                               + "): each row stands for one closed class, its stationary distribution")
            return f
        max_err = max(max_err, f.max_error)
        stands.append(i)
    listed = {i: [k for k, j in enumerate(stands) if j == i] for i in range(len(dec.classes))}
    twice = {i: ks for i, ks in listed.items() if len(ks) > 1}
    missing = [i for i, ks in listed.items() if not ks]
    if twice or missing or len(rows) != len(dec.classes):
        said = [f"the class with smallest state {dec.classes[i][0]} is listed {len(ks)} times (rows {ks})" for i, ks in twice.items()]
        said += [f"the class with smallest state {dec.classes[i][0]} has no row" for i in missing]
        return Finding("stationary", "mismatch", math.inf, [], f"{len(rows)} rows for {len(dec.classes)} closed classes: each "
                       "closed class's stationary distribution must be listed exactly once; " + "; ".join(said))
    return Finding("stationary", "ok", max_err, [], "one row per closed class: row k is the stationary distribution of the "
                   "class with smallest state " + ", ".join(f"{dec.classes[i][0]} (row {k})" for k, i in enumerate(stands)))


def _stationary_diagnosis(x: np.ndarray, off: float, negative: float, weights: np.ndarray, dec: Decomposition,
                          atol: float = 0.0) -> str:
    """Why a full-length vector is not a stationary distribution: an arbitrary solution of a singular
    system (several closed classes), a power ``u P^k`` on a periodic chain (invariant under ``P^D``, not
    under ``P``), a nearly invariant vector (a stopping rule on the change per step, under slow mixing), or
    mass left on transient states (more than the tolerance)."""
    k = len(dec.classes)
    tol = max(atol, 1e-12)
    if (negative > tol or np.any(weights < -tol)) and k > 1:
        return (f"a solve that assumes one stationary distribution: the chain has {k} closed classes (eigenvalue 1 "
                f"of multiplicity {k}), so an eigen/linear solve returns an arbitrary combination, not a distribution")
    P = float_sparse_matrix(dec.chain)
    moved = float(np.max(np.abs(P.T @ x - x), initial=0.0))
    periodic = _power_on_periodic(P, x, dec, moved, tol)
    if periodic:
        return periodic
    if off > 0 and moved < 1e-3 * off:
        return (f"nearly invariant (max |x P - x| = {moved:.2g}) yet {off:.3g} away from the stationary distribution: "
                "a stopping rule on the change per step stopped a slowly mixing iteration (near its start vector)")
    mass = float(sum(abs(float(x[s])) for s in dec.transient))
    if mass > tol:
        return (f"mass {mass:.3g} left on transient states: an iteration stopped before the transient part died out, "
                "or transient states taken as recurrent")
    return "within a class, not proportional to the class's stationary distribution"


def _power_on_periodic(P: Any, x: np.ndarray, dec: Decomposition, moved: float, tol: float) -> str:
    """``x P^D = x`` (``D`` the lcm of the periods, ``> 1``) but ``x P != x``: a power ``u P^k`` of a periodic
    chain, which cycles through the phases and never converges."""
    D = 1
    for d in dec.periods:
        D = D * int(d) // math.gcd(D, int(d))
    if D == 1 or moved <= 10 * tol:
        return ""
    y = x.copy()
    for _ in range(D):
        y = P.T @ y
    back = float(np.max(np.abs(y - x), initial=0.0))
    if back > max(10 * tol, 1e-3 * moved):
        return ""
    return (f"periodic: x P^{D} = x but x P != x (max |x P - x| = {moved:.2g}): a power u P^k on a chain of period {D} "
            "cycles through the phases and never converges; the stationary distribution is its Cesaro average "
            "(1/D) sum_k u P^k, or solve pi (I - P) = 0")


def _class_index(dec: Decomposition, s: int) -> int:
    """The position of the closed class holding the recurrent state ``s``."""
    return next(i for i, c in enumerate(dec.classes) if s in c)
