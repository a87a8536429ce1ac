"""Diagnoses that name the cause of the mistakes peers really make (numpy only).

Each function returns one sentence (empty when the error does not have the shape it looks for):

- :func:`zero_edge_note`: classes **merged exactly along entries that are 0** (a candidate's classes are
  unions of the exact communicating classes, or a closed class looks open): zero-probability entries
  taken as edges (QuantEcon built from a scipy sparse matrix with explicitly stored zeros); the
  opposite, classes split, is positive entries dropped;
- :func:`negative_cycle_note`: a wrong **total reward** where negative rewards sit on a transient
  cycle (Storm's float engines iterate as if rewards were non-negative);
- :func:`periodic_note`: a bias whose error, off the gauge, is a **periodic mode** (in ``K(P)``, outside
  ``ker(I − P)``) on a chain with a period ``> 1``: relative value / power iteration oscillating;
- :func:`per_class_note`: a per-class gain given as ``rho`` (one value per closed class): ``class_gain``;
- :func:`expected_got`: "expected e, got g" with enough digits that the two differ when they do;
- :data:`CAUSES` and :func:`cause_of`: the short name of the cause a diagnosis gives (``exactpte conform``
  groups failures by it).

Examples
--------
>>> expected_got(1.775, 1.775 + 3e-7)
'expected 1.775, got 1.7750003 (difference 3e-07)'
>>> zero_edge_note([[0, 1, 2, 3]], sccs=[(0, 1), (2, 3)], closed=[(0, 1)], what="communicating class")
'zero-probability entries taken as edges: [0, 1, 2, 3] joins the exact communicating classes [0, 1] and [2, 3], which no positive entry of P connects both ways (explicit zeros stored in a sparse matrix read as transitions?)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["zero_edge_note", "negative_cycle_note", "periodic_note", "per_class_note", "expected_got", "number_text",
           "Cause", "CAUSES", "cause_of"]


def number_text(x: float) -> str:
    """``x`` in 6 significant digits, or ``inf``/``nan``."""
    return f"{x:.6g}"


def expected_got(expected: float, got: float) -> str:
    """``expected e, got g``: 6 significant digits, or (when those print alike yet the numbers differ)
    the shortest digits that tell them apart and the difference itself.

    Examples
    --------
    >>> expected_got(0.5, 0.25)
    'expected 0.5, got 0.25'
    """
    e, g = number_text(expected), number_text(got)
    if e != g or expected == got or not (np.isfinite(expected) and np.isfinite(got)):
        return f"expected {e}, got {g}"
    for digits in range(7, 18):  # the fewest digits that show the two apart (17 always do)
        e, g = f"{expected:.{digits}g}", f"{got:.{digits}g}"
        if e != g:
            break
    return f"expected {e}, got {g} (difference {got - expected:.3g})"


def _sets(sets: Sequence[Sequence[int]]) -> list[frozenset[int]]:
    return [frozenset(int(s) for s in c) for c in sets]


def zero_edge_note(got: Sequence[Sequence[int]], *, sccs: Sequence[Sequence[int]], closed: Sequence[Sequence[int]],
                   what: str) -> str:
    """Why the candidate's classes ``got`` (closed classes, or communicating classes as ``what`` says)
    differ from the exact ones.  ``sccs``: every exact communicating class; ``closed``: the closed ones.

    Entries that are 0 read as edges only add edges: communicating classes can only merge, and a closed
    class can only open (and vanish) or merge.  So when every candidate class is a union of exact
    communicating classes, some joined or some closed class missing, the cause is named; when every
    candidate class lies inside an exact one and some is smaller, positive entries were dropped."""
    exact, cand, shut = _sets(sccs), _sets(got), _sets(closed)
    if not cand or set(cand) == set(exact if what == "communicating class" else shut):
        return ""
    covers = {c: [e for e in exact if e <= c] for c in cand}
    unions = all(c == frozenset().union(*covers[c]) for c in cand if covers[c]) and all(covers.values())
    if unions:
        merged = [(c, covers[c]) for c in cand if len(covers[c]) > 1]
        if merged:
            c, parts = merged[0]
            joined = " and ".join(str(sorted(p)) for p in sorted(parts, key=min))
            return (f"zero-probability entries taken as edges: {sorted(c)} joins the exact communicating classes {joined}, "
                    "which no positive entry of P connects both ways (explicit zeros stored in a sparse matrix read as "
                    "transitions?)")
        lost = [sorted(e) for e in shut if not any(e <= c for c in cand)]
        if lost and what != "communicating class":
            return (f"zero-probability entries taken as edges: the closed class {lost[0]} is missing, as if an edge left it, "
                    "but every entry leaving it is 0 (explicit zeros stored in a sparse matrix read as transitions?)")
    if all(any(c <= e for e in exact) for c in cand) and any(c not in exact for c in cand):
        split = next(sorted(c) for c in cand if c not in exact)
        return (f"positive entries dropped: {split} is part of a larger exact communicating class (tiny probabilities "
                "read as 0, or a threshold on the entries?)")
    return ""


def negative_cycle_note(got: np.ndarray, expected: np.ndarray, r: np.ndarray, transient_cycles: Sequence[Sequence[int]],
                        reaches: Sequence[set[int]], worst: Sequence[int]) -> str:
    """A wrong total reward where negative rewards sit on a transient cycle: ``transient_cycles`` are the
    transient communicating classes holding a cycle, ``reaches[i]`` the states from which the ``i``-th is
    reached; ``worst`` the states the finding names.  The total reward before absorption is
    ``x = (I - Q)^{-1} r_T`` on the transient states (``references.total_reward``).

    Examples
    --------
    >>> r = np.array([-1.0, -1.0, 0.0])
    >>> negative_cycle_note(np.zeros(3), np.array([-3.0, -4.0, 0.0]), r, [(0, 1)], [{0, 1}], [1])[:40]
    'negative rewards on a transient cycle (s'
    >>> negative_cycle_note(np.zeros(3), np.array([3.0, 4.0, 0.0]), -r, [(0, 1)], [{0, 1}], [1])
    ''
    """
    for cycle, reach in zip(transient_cycles, reaches):
        rewards = [float(r[s]) for s in cycle]
        if min(rewards) >= 0 or not any(s in reach for s in worst):
            continue
        s = next(s for s in worst if s in reach)
        zero = " (0 there: as if the negative rewards were never collected)" if got[s] == 0 else ""
        shown = ", ".join(f"{x:.6g}" for x in rewards[:6]) + (", ..." if len(rewards) > 6 else "")
        return (f"negative rewards on a transient cycle (states {list(cycle)[:8]}, rewards {shown}): the total reward "
                f"is the solve of (I - Q) x = r, at state {s} {expected_got(float(expected[s]), float(got[s]))}{zero}; float "
                "engines that iterate as if rewards were non-negative (Storm's default and sound engines) get it "
                "wrong: use an exact engine")
    return ""


def periodic_note(residual: np.ndarray, basis: np.ndarray, invariant: np.ndarray, periods: Sequence[int],
                  tol: float) -> str:
    """A bias error whose part off the gauge space (``residual``) is a periodic mode: in ``K(P)`` (the
    columns of ``basis``), not in ``ker(I − P)`` (``invariant``), on a chain with a period ``> 1``
    (``K(P) = span b``: the cyclic classes' indicators, ``thm:wellposed``).

    Examples
    --------
    >>> b = np.array([[1.0, 0.0], [0.0, 1.0]])            # the 2-cycle: one indicator per phase
    >>> periodic_note(np.array([0.5, -0.5]), b, np.ones((2, 1)), [2], 1e-9)[:9]
    'periodic:'
    >>> periodic_note(np.array([0.5, -0.5]), b, np.ones((2, 1)), [1], 1e-9)
    ''
    """
    if max(periods, default=1) <= 1 or basis.shape[1] == 0 or not np.all(np.isfinite(residual)):
        return ""
    coef, *_ = np.linalg.lstsq(basis, residual, rcond=None)
    if float(np.max(np.abs(basis @ coef - residual), initial=0.0)) > tol:
        return ""
    d = max(periods)
    return (f"periodic: the error off the gauge is a periodic mode (in K(P), not in ker(I - P)); on a class of period "
            f"{d}, P^k r oscillates, so relative value or power iteration never converges (it stops at max_iter); "
            "the bias is the Cesaro limit")


def per_class_note(key: str, got: np.ndarray, n: int, class_gain: np.ndarray, tol: float) -> str:
    """A per-class gain given as ``rho`` (or ``g_star``): one value per closed class, not per state
    (``class_gain[i] = π_i · r``).

    Examples
    --------
    >>> per_class_note("rho", np.array([1.0, 2.0]), 5, np.array([1.0, 2.0]), 1e-9)[-23:]
    'as class_gain it agrees'
    """
    if got.ndim != 1 or got.shape[0] != class_gain.shape[0] or got.shape[0] == n:
        return ""
    agrees = bool(np.all(np.abs(got - class_gain) <= tol))
    return (f"{key} has one value per closed class ({got.shape[0]}), not one per state ({n}): that is class_gain "
            f"(exactpte's key for the gain pi_i . r of each class); as class_gain it "
            + ("agrees" if agrees else "disagrees too"))


@dataclass(frozen=True)
class Cause:
    """A named cause: its short ``name`` and the ``phrases`` by which the oracle's diagnoses state it."""

    name: str
    phrases: tuple[str, ...]


CAUSES: tuple[Cause, ...] = (
    Cause("zero entries taken as edges", ("zero-probability entries taken as edges",)),
    Cause("positive entries dropped", ("positive entries dropped",)),
    Cause("power-iteration value on a periodic class", (
        "periodic: the error off the gauge", "a power-iteration value", "(a periodic class: P^k r oscillates",
        "a persistent periodic mode", "a power limit P^t along the period", "a power u P^k on a chain of period",
        "value iteration oscillates and never converges")),
    Cause("unconverged iteration", (
        "an unconverged power (value) iteration", "an unconverged or biased average-reward estimate",
        "an unconverged power iteration", "a stopping rule on the change per step",
        "an iteration stopped before the transient part died out", "solver's stopping precision",
        "values cut short by a stopping rule", "a silent max_iter")),
    Cause("unichain assumption", ("a unichain assumption", "diverging like k x rho", "drift apart like k x g",
                                  "drifts like k x g")),
    Cause("one stationary distribution assumed", ("a solve that assumes one stationary distribution",)),
    Cause("per-class gain given per state", ("one value per closed class",)),
    Cause("negative rewards on a transient cycle", ("negative rewards on a transient cycle",)),
    Cause("negative rewards set to 0", ("an engine that assumes non-negative rewards",)),
    Cause("sign flipped", ("the sign is flipped",)),
    Cause("scale error", ("a scale error",)),
    Cause("another normalisation", ("a normalisation: a bias", "a gauge shift inside K(P)", "a per-class constant offset")),
    Cause("wrong class gains", ("wrong class gains",)),
    Cause("wrong on transient states", ("an error confined to transient states", "left on transient states",
                                        "a state of a closed class taken as transient")),
    Cause("stationary rows mixing classes", ("a mixture of the classes with smallest states",)),
    Cause("one class's period as the chain's", ("the period of one closed class, not the lcm",)),
    Cause("transposed matrix", ("the transpose of the right matrix",)),
    Cause("visits counted from time 1", ("visits counted from time 1",)),
    Cause("rows not summing to 1", ("rows do not sum to 1",)),
    Cause("classes in another order", ("the classes in another order",)),
    Cause("reward counted on closed classes", ("reward counted on the closed classes",)),
    Cause("return time as first passage", ("a return time was given there",)),
    Cause("loop trap", ("a loop that attains max_a P_a g* but earns less", "(the first optimality equation): not enough")),
    Cause("near tie", ("an ε-optimal policy on a near tie",)),
    Cause("discount as a stand-in for the gain", ("a discount used as a stand-in for the average reward",)),
    Cause("gain-optimal, not bias-optimal", ("gain-optimal but not bias-optimal",
                                            "the actions attaining both optimality equations for one h")),
    Cause("a non-optimal policy's own values", ("the exact gain of the candidate's own policy",
                                                "the exact value of the candidate's own policy")),
)
"""The causes the oracle's diagnoses name, each with the phrases that state it (a phrase of one cause
never occurs in a diagnosis of another)."""


def cause_of(diagnosis: str) -> str | None:
    """The name of the cause ``diagnosis`` states (the one stated first, when it names several: "X; or Y"
    is X), or ``None`` when it names none of :data:`CAUSES`.

    Examples
    --------
    >>> cause_of("zero-probability entries taken as edges: [0, 1] joins the exact communicating classes [0] and [1]")
    'zero entries taken as edges'
    >>> cause_of("the period of one closed class, not the lcm over the classes; or zero-probability entries taken as edges")
    "one class's period as the chain's"
    >>> cause_of("") is None
    True
    """
    found = [(at, cause.name) for cause in CAUSES for phrase in cause.phrases if (at := diagnosis.find(phrase)) >= 0]
    return min(found)[1] if found else None
