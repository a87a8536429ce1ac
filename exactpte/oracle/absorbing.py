"""Quantities of the absorbing chain (``absorption``, ``fundamental``, ``first_passage`` with its
``targets``, ``total_reward``), each judged against an independent exact reference
(:mod:`exactpte.oracle.references`), a mismatch diagnosed (transposed, ``N - I``, columns permuted).

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("periodic"))
>>> [f.status for f in absorbing_findings({"first_passage": [0, 1], "targets": [0]}, dec, 1e-9, 0.0)]
['ok']
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from exactpte.errors import CandidateError
from exactpte.model.to_float import to_float, to_floats
from exactpte.oracle import references
from exactpte.oracle.causes import expected_got, negative_cycle_note
from exactpte.oracle.findings import Finding, numeric_finding
from exactpte.oracle.values import few, index_list, matrix, vector
from exactpte.results.decomposition import Decomposition

__all__: list[str] = []


def absorbing_findings(cand: dict[str, Any], dec: Decomposition, atol: float, rtol: float) -> list[Finding]:
    """``absorption``, ``fundamental``, ``first_passage`` (with ``targets``) and ``total_reward``,
    each judged against an independent exact reference (:mod:`exactpte.oracle.references`)."""
    out: list[Finding] = []
    chain, T = dec.chain, list(dec.transient)
    if "targets" in cand and "first_passage" not in cand:
        raise CandidateError("targets is given without first_passage (the mean first-passage times to the targets)")
    if "absorption" in cand:
        out.append(_absorption_finding(matrix(cand["absorption"], "absorption"), dec, atol, rtol))
    if "fundamental" in cand:
        exp = np.array([to_floats(row) for row in references.fundamental(chain)]).reshape(len(T), len(T))
        out.append(_judged_matrix("fundamental", matrix(cand["fundamental"], "fundamental"), exp, atol, rtol))
    if "first_passage" in cand:
        if "targets" not in cand:
            raise CandidateError("first_passage needs targets: the target set, a list of state indices")
        targets = index_list(cand["targets"], "targets")
        if not targets or any(not 0 <= a < dec.n for a in targets):
            raise CandidateError(f"targets must be a non-empty list of states in 0..{dec.n - 1}, got {few(targets)}")
        ref = references.first_passage(chain, targets)
        exp = np.array([math.inf if x is None else to_float(x) for x in ref])
        out.append(_first_passage_finding(vector(cand["first_passage"], "first_passage"), exp, targets, atol, rtol))
    if "total_reward" in cand:
        exp = to_floats(references.total_reward(chain))
        f = numeric_finding("total_reward", vector(cand["total_reward"], "total_reward"), exp, atol, rtol)
        if f.status == "mismatch" and f.worst_states and all(s not in set(T) for s in f.worst_states):
            f.diagnosis = "reward counted on the closed classes: the total reward before absorption is 0 there"
        elif f.status == "mismatch" and math.isfinite(f.max_error):
            f.diagnosis = _total_reward_cause(vector(cand["total_reward"], "total_reward"), exp, dec, f.worst_states)
        out.append(f)
    return out


def _absorption_finding(got: np.ndarray, dec: Decomposition, atol: float, rtol: float) -> Finding:
    """Absorption probabilities on every state (``n x classes``) or on the transient states; a non-square
    matrix given transposed (one row per closed class: PyDTMC's layout) is read transposed, since no other
    reading fits its shape, and says so."""
    T = list(dec.transient)
    every = np.array([to_floats(row) for row in references.absorption(dec.chain)]).reshape(dec.n, len(dec.classes))
    layouts = [("every-state", every)] + ([("transient-state", every[T])] if len(T) != dec.n else [])
    read_as = ""
    if all(got.shape != exp.shape for _, exp in layouts) and got.shape[0] != got.shape[1]:
        fits = [(name, exp) for name, exp in layouts if got.T.shape == exp.shape]
        if len(fits) == 1:  # unambiguous: judged transposed
            read_as, got = f"read transposed (the {fits[0][0]} layout {fits[0][1].shape} with rows and columns swapped)", got.T
    exp = every[T] if got.shape == (len(T), every.shape[1]) and len(T) != dec.n else every
    recurrent = {s for c in dec.classes for s in c} if got.shape[0] == dec.n else set()
    f = _judged_matrix("absorption", got, exp, atol, rtol, recurrent)
    if f.detail.startswith("has shape") and len(T) != dec.n:
        f.detail += f" (every state) or {(len(T), len(dec.classes))} (the transient states), one column per closed class"
    if read_as:
        f.detail = read_as + (f"; {f.detail}" if f.detail else "")
    return f


GROSS = 1e-3
"""A total-reward error is a wrong answer's (not a stopping rule's) past this relative size: only then is a
cause such as negative rewards on a transient cycle named."""
STOPPING = 1e-4
"""A total-reward error within this relative size is named an iterative solver's stopping precision."""


def _total_reward_cause(got: np.ndarray, exp: np.ndarray, dec: Decomposition, worst: list[int]) -> str:
    """The cause of a wrong total reward, each named when its test holds: a small relative error (an iterative
    solver's stopping precision); a gross error reaching a transient cycle with a negative reward; else 0
    where every reachable reward is ``<= 0`` (an engine that assumes non-negative rewards)."""
    s = worst[0]
    rel = abs(float(got[s]) - float(exp[s])) / max(1.0, abs(float(exp[s])))
    if rel <= STOPPING:
        return (f"a relative error of {rel:.1g} at state {s} ({expected_got(float(exp[s]), float(got[s]))}): an iterative "
                "solver's stopping precision (Storm's default is 1e-6, relative); tighten it or use an exact engine")
    cycle = _negative_cycle(got, exp, dec, worst) if rel > GROSS else ""
    return cycle or _zero_without_positive_rewards(got, exp, dec)


def _zero_without_positive_rewards(got: np.ndarray, exp: np.ndarray, dec: Decomposition) -> str:
    """0 exactly where the exact total reward is negative and no state reachable from there earns a
    positive reward: an engine's graph preprocessing, which assumes rewards ``>= 0``, set those states to 0."""
    chain = dec.chain
    r = to_floats(chain.r)
    zeroed = [s for s in range(chain.n) if got[s] == 0 and exp[s] < 0]
    if not zeroed:
        return ""
    for s in zeroed:
        seen, stack = {s}, [s]
        while stack:
            for j, _ in chain.row(stack.pop()):
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        if any(r[j] > 0 for j in seen):
            return ""
    s = zeroed[0]
    return (f"0 where the total reward is negative (state {s}: {expected_got(float(exp[s]), 0.0)}), at states that reach no "
            "positive reward: an engine that assumes non-negative rewards sets them to 0 in its graph preprocessing "
            "(Storm's gmm++ and Eigen solvers do, with or without a cycle); use Storm's native, topological, "
            "elimination or exact engine")


def _negative_cycle(got: np.ndarray, exp: np.ndarray, dec: Decomposition, worst: list[int]) -> str:
    """:func:`~exactpte.oracle.causes.negative_cycle_note` on this chain: its transient communicating classes
    holding a cycle, and the states that reach each."""
    chain = dec.chain
    succ = [[j for j, _ in chain.row(s)] for s in range(chain.n)]
    pred: list[list[int]] = [[] for _ in range(chain.n)]
    for s in range(chain.n):
        for j in succ[s]:
            pred[j].append(s)
    cycles = [tuple(sorted(c)) for c in dec.structure.transient_sccs if len(c) > 1 or c[0] in succ[c[0]]]
    reaches = []
    for cycle in cycles:  # the states with a path into the cycle: a search backwards along the edges
        seen, stack = set(cycle), list(cycle)
        while stack:
            for s in pred[stack.pop()]:
                if s not in seen:
                    seen.add(s)
                    stack.append(s)
        reaches.append(seen)
    return negative_cycle_note(got, exp, to_floats(chain.r), cycles, reaches, worst)


def _judged_matrix(key: str, got: np.ndarray, exp: np.ndarray, atol: float, rtol: float,
                   recurrent_rows: set[int] | None = None) -> Finding:
    """A matrix judged entrywise, a mismatch diagnosed (transposed, columns permuted, rows not summing
    to 1, ``N - I`` for the fundamental matrix)."""
    if got.shape == exp.T.shape and got.shape != exp.shape:
        f = numeric_finding(key, got.T, exp, atol, rtol, unit="row")
        if f.ok:
            return Finding(key, "mismatch", math.inf, [], f"has shape {got.shape}, expected {exp.shape}",
                           "the transpose of the right matrix")
    f = numeric_finding(key, got, exp, atol, rtol, unit="row")
    if f.status != "mismatch" or not math.isfinite(f.max_error) or got.shape != exp.shape:
        return f
    tol = 10 * (atol + rtol * float(np.max(np.abs(exp), initial=0.0))) + 1e-12

    def close(a: np.ndarray) -> bool:
        return bool(np.max(np.abs(got - a), initial=0.0) <= tol)

    if got.shape[0] == got.shape[1] and close(exp.T):
        f.diagnosis = "the transpose of the right matrix"
    elif key == "fundamental" and close(exp - np.eye(exp.shape[0])):
        f.diagnosis = "N - I: visits counted from time 1, not from time 0 ((I - Q)^{-1} counts the start)"
    elif key == "absorption":
        sums = got.sum(axis=1)
        perm = [int(np.argmin(np.abs(got[:, [j]] - exp).max(axis=0))) for j in range(got.shape[1])]
        if np.max(np.abs(sums - 1)) > tol:
            s = int(np.argmax(np.abs(sums - 1)))
            f.diagnosis = f"rows do not sum to 1 (row {s} sums to {float(sums[s]):.6g}): not absorption probabilities"
        elif sorted(perm) == list(range(got.shape[1])) and close(exp[:, perm]):
            f.diagnosis = f"the classes in another order (column j holds class {perm}[j]); columns follow the canonical class order"
        elif recurrent_rows and set(f.worst_states) <= recurrent_rows:
            f.diagnosis = ("wrong on states of closed classes only: such a state ends in its own class with probability 1 "
                           "(a state of a closed class taken as transient)")
    return f


def _first_passage_finding(got: np.ndarray, exp: np.ndarray, targets: list[int], atol: float, rtol: float) -> Finding:
    """Mean first-passage times: infinite exactly where the targets are missed with positive probability."""
    if got.shape != exp.shape:
        return Finding("first_passage", "mismatch", math.inf, [], f"has shape {got.shape}, expected {exp.shape}")
    inf_exp, inf_got = np.isinf(exp), np.isposinf(got)
    if np.any(inf_exp != inf_got):
        bad = [int(s) for s in np.flatnonzero(inf_exp != inf_got)]
        s = bad[0]
        return Finding("first_passage", "mismatch", math.inf, bad[:5],
                       f"state {s}: expected {'inf' if inf_exp[s] else f'{exp[s]:.6g}'}, got {got[s]:.6g}",
                       "infinite exactly where the targets are missed with positive probability" if inf_exp[s] else "")
    f = numeric_finding("first_passage", np.where(inf_exp, 0.0, got), np.where(inf_exp, 0.0, exp), atol, rtol)
    if f.status == "mismatch" and set(f.worst_states) <= set(targets):
        f.diagnosis = "wrong on the targets only: first passage is 0 on the targets (a return time was given there?)"
    return f
