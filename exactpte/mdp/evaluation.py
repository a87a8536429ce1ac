"""Exact evaluation of a deterministic stationary policy, and exact one-step lookahead.

A policy ``d`` induces the Markov reward process ``(P_d, r_d)`` (:meth:`MDP.chain <exactpte.mdp.model.MDP.chain>`).
Its **gain** ``g_d = P*_d r_d`` and **bias** ``h_d`` (``g_d + (I - P_d) h_d = r_d``, ``P*_d h_d = 0``) are
exactpte's ``ρ`` and ``h`` of that chain (:func:`exactpte.solves.classical.gain`, :func:`~exactpte.solves.classical.bias`:
one stationary solve per closed class, one absorbing pass on the transient states).  The next Laurent
coefficient of the discounted value, ``w_d = -H_d h_d`` (the bias of the reward ``-h_d``: ``(I - P_d) w_d = -h_d``,
``P*_d w_d = 0``), is the third level of policy iteration for bias optimality.  The **discounted value**
``v_d = (I - γ P_d)^{-1} r_d`` is the expected total reward of the chain killed at rate ``1 - γ``: a sink
state is added, every state becomes transient, and the same absorbing pass solves it block by block
(strongly connected components downstream first).

:class:`Scaled` holds a vector over one common denominator ``L`` so that ``L · P_a x`` is an integer
sum and one small division per action: policy improvement compares these exactly.

Examples
--------
>>> from exactpte.mdp.model import MDP
>>> m = MDP([[[0, 1], [1, 0]]], [[2], [0]])          # one action: the 2-cycle with rewards 2, 0
>>> ev = evaluate_average(m, [0, 0])
>>> ev.gain, ev.bias
((1, 1), (1/2, -1/2))
>>> evaluate_discounted(m, [0, 0], discount=flint.fmpq(1, 2))
(8/3, 4/3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import flint

from exactpte.errors import UsageError, brief
from exactpte.graph.structure import Structure
from exactpte.mdp.model import MDP
from exactpte.model.chain import Chain, MarkovRewardProcess
from exactpte.numbers.scalars import to_fmpq
from exactpte.solves.absorption import extend_to_transient
from exactpte.fields import QQ
from exactpte.solves.classical import harmonic_extension

__all__ = ["greedy_reward_policy", "PolicyEvaluation", "evaluate_average", "class_stationary", "class_bias_scaled", "evaluate_discounted", "require_discount", "Scaled"]

_ZERO = flint.fmpq(0)


def greedy_reward_policy(mdp: MDP) -> tuple[int, ...]:
    """The policy maximising the one-step reward (the smallest action on a tie): policy iteration's start.

    >>> from exactpte.mdp.model import MDP
    >>> greedy_reward_policy(MDP([[[1]], [[1]], [[1]]], [[1, 3, 3]]))
    (1,)
    """
    out = []
    for s in range(mdp.n):
        best = 0
        for a in mdp.actions(s):
            if mdp.reward(s, a) > mdp.reward(s, best):
                best = a
        out.append(best)
    return tuple(out)


def require_discount(discount: Any) -> flint.fmpq:
    """``discount`` as an exact rational in ``(0, 1)``: an int, ``Fraction``, ``fmpq`` or a string such as
    ``"9/10"`` or ``"0.9"`` (read exactly); a float is refused, as everywhere on the exact path
    (:class:`~exactpte.errors.FloatEntryError`), and a value outside ``(0, 1)`` is a
    :class:`~exactpte.errors.UsageError`.

    Examples
    --------
    >>> require_discount("0.9"), require_discount("99/100")
    (9/10, 99/100)
    >>> require_discount(1)
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: the discount must lie strictly between 0 and 1, got 1 (for the average reward, give no discount)
    """
    q = to_fmpq(discount, "the discount")
    if not 0 < q < 1:
        raise UsageError(f"the discount must lie strictly between 0 and 1, got {brief(q)}"
                         + (" (for the average reward, give no discount)" if q == 1 else ""))
    return q


ClassCache = dict[tuple[tuple[int, ...], tuple[int, ...]], dict[str, Any]]
"""What policy iteration keeps between evaluations, per closed class and the actions its states take (a class
whose states keep their actions keeps its stationary distribution, gain and class biases): ``{"pi", "gain", "h", "w"}``."""


@dataclass(frozen=True)
class PolicyEvaluation:
    """A policy's chain and its exact gain ``g_d``, bias ``h_d`` and (when asked) ``w_d = -H_d h_d``."""

    policy: tuple[int, ...]
    chain: MarkovRewardProcess
    gain: tuple[flint.fmpq, ...]
    bias: tuple[flint.fmpq, ...]
    w: tuple[flint.fmpq, ...] | None
    stationary: tuple[tuple[flint.fmpq, ...], ...]
    cache: ClassCache | None = None

    def with_w(self) -> "PolicyEvaluation":
        """The same evaluation with ``w_d``, the bias of the reward ``-h_d`` on the same chain (its gain is 0: ``P∞ h = 0``):
        :func:`class_bias_scaled` on each closed class, one absorbing pass on the transient states."""
        if self.w is not None:
            return self
        chain, S = self.chain, self.chain.structure
        minus_h = chain.with_reward([-x for x in self.bias])
        w: list[Any] = [_ZERO] * chain.n
        for members, pi in zip(S.classes, self.stationary):
            part = _cached(self.cache, members, self.policy)
            if "w" not in part:
                part["w"] = class_bias_scaled(minus_h, members, pi, _ZERO, part)
            for s, x in zip(members, part["w"]):
                w[s] = x
        h = self.bias
        w = extend_to_transient(chain, S, w, lambda s: -h[s])
        return PolicyEvaluation(self.policy, chain, self.gain, self.bias, tuple(w), self.stationary, self.cache)


def _cached(cache: ClassCache | None, members: Sequence[int], policy: Sequence[int]) -> dict[str, Any]:
    """The cache entry of a closed class under the actions its states take (a fresh dict without a cache)."""
    if cache is None:
        return {}
    key = (tuple(members), tuple(policy[s] for s in members))
    return cache.setdefault(key, {})


def evaluate_average(mdp: MDP, policy: Any, *, with_w: bool = False, cache: ClassCache | None = None) -> PolicyEvaluation:
    """The exact gain and bias of a deterministic stationary policy (and ``w_d`` with ``with_w``): per closed class
    its stationary distribution (:func:`class_stationary`), gain ``π · r`` and class bias
    (:func:`class_bias_scaled`), then one absorbing pass each for ``g`` and ``h`` on the transient
    states (:func:`~exactpte.solves.classical.harmonic_extension`, :func:`~exactpte.solves.absorption.extend_to_transient`)
    — :func:`~exactpte.solves.classical.bias`'s route, with ``cache`` keeping each class's results between the
    evaluations of policy iteration.

    Examples
    --------
    >>> from exactpte.mdp.model import MDP
    >>> m = MDP([[[1, 0], [1, 0]], [[0, 1], [0, 1]]], [[0, 3], [1, 5]])
    >>> evaluate_average(m, [1, 1]).gain, evaluate_average(m, [0, 0]).bias
    ((5, 5), (0, 1))
    """
    d = mdp.policy(policy)
    chain = mdp.chain(d)
    S = chain.structure
    parts = []
    for members in S.classes:
        part = _cached(cache, members, d)
        if "pi" not in part:
            pi = class_stationary(mdp, d, members)
            gain_i = sum((p * chain.r[s] for s, p in zip(members, pi)), _ZERO)
            part.update(pi=pi, gain=gain_i)
            part["h"] = class_bias_scaled(chain, members, pi, gain_i, part)
        parts.append(part)
    g = harmonic_extension(chain, [part["gain"] for part in parts])
    h: list[Any] = [_ZERO] * chain.n
    for members, part in zip(S.classes, parts):
        for s, x in zip(members, part["h"]):
            h[s] = x
    r = chain.r
    h = extend_to_transient(chain, S, h, lambda s: r[s] - g[s])
    ev = PolicyEvaluation(d, chain, tuple(g), tuple(h), None, tuple(part["pi"] for part in parts), cache)
    return ev.with_w() if with_w else ev


def class_bias_scaled(chain: Chain, members: Sequence[int], pi: Sequence[flint.fmpq], gain_i: flint.fmpq,
                      part: dict[str, Any] | None = None) -> list[flint.fmpq]:
    """The bias on one closed class, as :func:`~exactpte.solves.classical.class_bias` defines it (``(I - P_F) h = r - γ``,
    ``π · h = 0``, solved with the last state pinned), with each balance row multiplied by its row's common
    denominator ``D_y``: integer coefficients ``D_y δ - w``, so the lifting solve applies to rows of many entries
    whatever their denominators.  ``part`` keeps the integer rows for the class's next right-hand side.

    Examples
    --------
    >>> from exactpte.model.chain import Chain, MarkovRewardProcess
    >>> m = MarkovRewardProcess([[0, 1], [1, 0]], [1, 0])
    >>> half = flint.fmpq(1, 2)
    >>> class_bias_scaled(m, [0, 1], [half, half], half)
    [1/4, -1/4]
    """
    k = len(members)
    if k == 1:
        return [_ZERO]
    rows, dens = (part or {}).get("bias_rows") or _scaled_rows(chain, members)
    if part is not None:
        part["bias_rows"] = (rows, dens)
    r = chain.r
    rhs = [[(r[y] - gain_i) * dens[a]] for a, y in enumerate(members[:-1])] + [[_ZERO]]
    w = [row[0] for row in QQ.solve_sparse(rows, rhs)]
    mean = sum((p * x for p, x in zip(pi, w)), _ZERO)
    return [x - mean for x in w]


def _scaled_rows(chain: Chain, members: Sequence[int]) -> tuple[list[list[tuple[int, flint.fmpq]]], list[flint.fmpz]]:
    """The class's balance rows ``D_y (e_y - P(y, .))`` in integers (the last one replaced by the pin), and the ``D_y``."""
    pos = {s: i for i, s in enumerate(members)}
    rows: list[list[tuple[int, flint.fmpq]]] = []
    dens: list[flint.fmpz] = []
    for a, y in enumerate(members[:-1]):
        row = chain.row(y)
        den = flint.fmpz(1)
        for _, q in row:
            den = den.lcm(q.q) if den % q.q else den
        dens.append(den)
        acc = {a: flint.fmpq(den)}
        for z, q in row:
            acc[pos[z]] = acc.get(pos[z], _ZERO) - q * den
        rows.append(sorted((j, x) for j, x in acc.items() if x != 0))
    rows.append([(len(members) - 1, flint.fmpq(1))])
    return rows, dens


def class_stationary(mdp: MDP, policy: Sequence[int], members: Sequence[int]) -> tuple[flint.fmpq, ...]:
    """The stationary distribution of the closed class ``members`` of the policy's chain, aligned with
    ``members`` (the same answer as :func:`exactpte.solves.classical.stationary_distribution`).

    The balance equations ``π_y = sum_s π_s P(s, y)`` are solved in the unknowns ``u_s = π_s / D_s``, ``D_s``
    the common denominator of the row of ``s`` (``P(s, y) = w_sy / D_s``): then every coefficient is an
    integer (``D_y - w_yy`` and ``-w_sy``), so the system goes to the fast lifting solve however many
    denominators a column mixes; one unknown is pinned (``u_last = 1``, the class being irreducible the
    other balance equations then determine the rest) and ``π`` is normalised at the end.

    Examples
    --------
    >>> from exactpte.mdp.model import MDP
    >>> m = MDP([[["1/2", "1/2"], ["1/3", "2/3"]]], [[0], [0]])
    >>> class_stationary(m, (0, 0), [0, 1])
    (2/5, 3/5)
    """
    k = len(members)
    if k == 1:
        return (flint.fmpq(1),)
    pos = {s: i for i, s in enumerate(members)}
    integer_rows = mdp.integer_rows
    rows: list[list[tuple[int, flint.fmpq]]] = [[] for _ in range(k)]
    dens = []
    for i, s in enumerate(members):
        cols, weights, den = integer_rows[s][policy[s]]
        dens.append(den)
        rows[i].append((i, flint.fmpq(den)))
        for j, w in zip(cols, weights):
            rows[pos[j]].append((i, flint.fmpq(-w)))
    rows[k - 1] = [(k - 1, flint.fmpq(1))]
    rhs = [[_ZERO] for _ in range(k - 1)] + [[flint.fmpq(1)]]
    merged = [_merged(row) for row in rows]
    u = [row[0] for row in QQ.solve_sparse(merged, rhs)]
    pi = [q * den for q, den in zip(u, dens)]
    total = sum(pi, _ZERO)
    return tuple(q / total for q in pi)


def _merged(row: list[tuple[int, flint.fmpq]]) -> list[tuple[int, flint.fmpq]]:
    """A sparse row with repeated columns added, columns increasing, zeros dropped."""
    acc: dict[int, flint.fmpq] = {}
    for j, q in row:
        acc[j] = acc.get(j, _ZERO) + q
    return sorted((j, q) for j, q in acc.items() if q != 0)


def evaluate_discounted(mdp: MDP, policy: Any, *, discount: Any) -> tuple[flint.fmpq, ...]:
    """``v_d = (I - γ P_d)^{-1} r_d`` exactly: the total reward of the policy's chain killed at rate ``1 - γ``.

    Examples
    --------
    >>> from exactpte.mdp.model import MDP
    >>> evaluate_discounted(MDP([[[1]]], [[1]]), [0], discount="9/10")
    (10,)
    """
    gamma = require_discount(discount)
    d = mdp.policy(policy)
    n = mdp.n
    stay = 1 - gamma
    rows = [tuple((j, gamma * q) for j, q in mdp.row(s, a)) + ((n, stay),) for s, a in enumerate(d)] + [((n, flint.fmpq(1)),)]
    reward = [mdp.reward(s, a) for s, a in enumerate(d)] + [_ZERO]
    killed = MarkovRewardProcess._from_exact_rows(rows, reward)
    structure: Structure = killed.structure
    x: list[Any] = [None] * n + [_ZERO]
    return tuple(extend_to_transient(killed, structure, x, lambda s: reward[s])[:n])


class Scaled:
    """A vector ``x`` over one common denominator ``L`` (``X[s] = L x(s)``, integers), and ``L · P_a x`` for
    any state-action pair, exactly: an integer sum over the row's numerators and one division by the
    row's own (small) denominator.  Comparing ``L · (c + P_a x)`` across actions compares ``c + P_a x``.

    Examples
    --------
    >>> from exactpte.mdp.model import MDP
    >>> m = MDP([[["1/2", "1/2"], [0, 1]]], [[0], [0]])
    >>> x = Scaled(m, [flint.fmpq(1, 3), flint.fmpq(2, 3)])
    >>> x.L, x.lookahead(0, 0), x.X[1]
    (3, 3/2, 2)
    """

    def __init__(self, mdp: MDP, x: Sequence[flint.fmpq]) -> None:
        L = flint.fmpz(1)
        for q in x:
            if L % q.q:
                L = L.lcm(q.q)
        self.mdp, self.x, self.L = mdp, x, L
        self.X = [q.p * (L // q.q) for q in x]

    def lookahead(self, s: int, a: int) -> flint.fmpq:
        """``L · (P_a x)(s)``."""
        cols, weights, den = self.mdp.integer_rows[s][a]
        X = self.X
        total = flint.fmpz(0)
        for j, w in zip(cols, weights):
            total += w * X[j]
        return flint.fmpq(total, den)
