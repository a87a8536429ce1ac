"""Independent exact references for the absorbing-chain quantities the oracle judges.

The decomposition computes absorption probabilities SCC by SCC (``exactpte.solves.absorption``);
the references here take another route on purpose: one dense exact solve of the whole
transient block with python-flint's ``fmpq_mat`` (fraction-free elimination), and plain
graph searches for which first-passage times are infinite.  A candidate's absorption
probabilities are therefore judged against a value computed independently of the code
that produced ``dec.absorption`` (and the two are checked against each other in the tests).

- :func:`absorption` — ``n x classes``: the probability of ending in each closed class,
  canonical class order (classes ordered by their smallest state);
- :func:`fundamental` — ``(I - Q)^{-1}`` on the transient states, rows and columns in the
  order of ``transient`` (sorted);
- :func:`first_passage` — ``E_s[τ_A]``, the mean number of steps to reach the target set
  ``A`` (0 on ``A``; ``None`` where ``A`` is missed with positive probability: infinite);
- :func:`total_reward` — ``E_s[Σ_{t<τ} r(X_t)]`` with ``τ`` the entry time into the closed
  classes (0 on recurrent states): the expected total reward before absorption.

Examples
--------
>>> import exactpte
>>> chain = exactpte.example("branching")
>>> [str(x) for x in absorption(chain)[6]]
['1/3', '2/3']
>>> first_passage(exactpte.example("periodic"), [0])
[0, 1]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import flint

if TYPE_CHECKING:
    from exactpte.model.chain import Chain

__all__ = ["absorption", "fundamental", "first_passage", "total_reward", "transient_block"]


def _q(x: Any) -> flint.fmpq:
    return x if isinstance(x, flint.fmpq) else flint.fmpq(x)


def transient_block(chain: Chain, states: Sequence[int]) -> flint.fmpq_mat:
    """``I - P[states, states]`` as a dense exact matrix."""
    pos = {s: k for k, s in enumerate(states)}
    m = len(states)
    A = flint.fmpq_mat(m, m)
    for k, s in enumerate(states):
        A[k, k] = flint.fmpq(1)
        for j, p in chain.row(s):
            if j in pos:
                A[k, pos[j]] -= _q(p)
    return A


def absorption(chain: Chain) -> list[list[flint.fmpq]]:
    """``absorption[s][i]``: the probability of ending in the closed class ``i`` from ``s``."""
    S = chain.structure
    k = len(S.classes)
    out = [[flint.fmpq(0)] * k for _ in range(chain.n)]
    class_of = {s: i for i, members in enumerate(S.classes) for s in members}
    for s, i in class_of.items():
        out[s][i] = flint.fmpq(1)
    T = list(S.transient)
    if not T or not k:
        return out
    B = flint.fmpq_mat(len(T), k)
    for a, s in enumerate(T):
        for j, p in chain.row(s):
            if j in class_of:
                B[a, class_of[j]] += _q(p)
    X = transient_block(chain, T).solve(B)
    for a, s in enumerate(T):
        out[s] = [X[a, i] for i in range(k)]
    return out


def fundamental(chain: Chain) -> list[list[flint.fmpq]]:
    """``(I - Q)^{-1}``, ``Q = P`` restricted to the transient states (sorted): expected visits."""
    T = list(chain.structure.transient)
    if not T:
        return []
    N = transient_block(chain, T).inv()
    return [[N[a, b] for b in range(len(T))] for a in range(len(T))]


def _reaching(chain: Chain, sources: set[int], avoid: set[int]) -> set[int]:
    """States with a path into ``sources`` whose states before the last avoid ``avoid``."""
    pred: list[list[int]] = [[] for _ in range(chain.n)]
    for s in range(chain.n):
        for j, _ in chain.row(s):
            pred[j].append(s)
    seen, queue = set(sources), deque(sources)
    while queue:
        y = queue.popleft()
        for s in pred[y]:
            if s not in seen and s not in avoid:
                seen.add(s)
                queue.append(s)
    return seen


def first_passage(chain: Chain, targets: Sequence[int]) -> list[flint.fmpq | None]:
    """``E_s[τ_A]``, ``τ_A = min{t >= 0: X_t ∈ A}``: 0 on ``A``, ``None`` (infinite) where ``A``
    is missed with positive probability (``s`` reaches, avoiding ``A``, a state that cannot reach ``A``)."""
    A = set(int(a) for a in targets)
    can_reach = _reaching(chain, A, set())
    doomed = set(range(chain.n)) - can_reach
    infinite = _reaching(chain, doomed, A) - A if doomed else set()
    rest = [s for s in range(chain.n) if s not in A and s not in infinite]
    out: list[flint.fmpq | None] = [None if s in infinite else flint.fmpq(0) for s in range(chain.n)]
    if rest:
        ones = flint.fmpq_mat(len(rest), 1, [1] * len(rest))
        m = transient_block(chain, rest).solve(ones)
        for a, s in enumerate(rest):
            out[s] = m[a, 0]
    return out


def total_reward(chain: Chain) -> list[flint.fmpq]:
    """``E_s[Σ_{t<τ} r(X_t)]``, ``τ`` the entry time into the closed classes (0 on recurrent states)."""
    T = list(chain.structure.transient)
    out = [flint.fmpq(0)] * chain.n
    if T:
        rT = flint.fmpq_mat(len(T), 1, [_q(chain.r[s]) for s in T])
        x = transient_block(chain, T).solve(rT)
        for a, s in enumerate(T):
            out[s] = x[a, 0]
    return out
