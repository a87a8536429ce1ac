"""MDP solvers in ``exactpte conform --mdp``: the MDP corpora, and MDPs as a :class:`~exactpte.oracle.conformance.Kind`.

The adapter is ``solve(P, R)`` in pymdptoolbox's shapes: ``P`` an ``A x S x S`` float64 array (``--exact``:
nested lists of ``Fraction``; ``--sparse``: a list of ``A`` scipy CSR matrices), ``R`` an ``S x A`` array.  Its
output, in the solver's own names (pymdptoolbox's ``policy``, ``V``, ``average_reward``; QuantEcon's ``sigma``,
``v``; Storm's ``scheduler``, ...), is judged by :func:`~exactpte.oracle.mdp_judge.judge_mdp` as
``exactpte check --mdp`` judges it, against the average-reward answer (with ``discount``: the discounted one).

Corpora (every MDP with the same number of actions in each state, as pymdptoolbox's shapes need):

- ``exhaustive:N`` (``N <= 2``): every MDP with at most ``N`` states and two actions per state, each action's
  support any nonempty set of states (labelled: 1 + 81 MDPs), each action moving to its ``k`` successors
  with ``1/k`` each; the reward of action ``a`` in state ``s`` is ``2^(2 s + a)`` (all distinct).  Named after
  the supports: ``0|01-1|1`` is state 0 with actions to ``{0}`` and ``{0, 1}``, state 1 with two actions to ``{1}``.
- ``random:K[:N]``: ``K`` MDPs of 1 to ``N`` states (default 8) with 2 or 3 actions, action ``a`` of MDP ``i`` the
  rows of the random reducible chain :func:`~exactpte.model.random_chains.sweep_chain` (seed ``"SEED:i:a"``) on
  those states, its rewards the chain's (so every policy mixes periodic classes, transient parts, several classes).
- ``edge``: the loop trap, an optimal policy with a periodic class, a multichain optimum, a near tie, a discount
  trap (optimal at 9/10 but not for the gain), a tiny escape probability, a long line of choices.

Examples
--------
>>> cases = mdp_cases_of("exhaustive:2")
>>> len(cases), cases[1].name
(82, '0|0-0|0')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import flint

from exactpte.errors import UsageError
from exactpte.mdp.model import MDP
from exactpte.model.random_chains import sweep_chain
from exactpte.mdp.evaluation import require_discount
from exactpte.oracle.candidates import read_candidate
from exactpte.oracle.conformance import Tolerance, cached
from exactpte.oracle.corpora import Case, Corpora
from exactpte.oracle.findings import Report
from exactpte.oracle.mdp_judge import MDPReference, judge_mdp

__all__ = ["MDPKind", "MDP_CORPORA", "mdp_cases_of", "mdp_corpus_cases", "exhaustive_mdps", "random_mdps", "edge_mdps", "mdp_size",
           "smaller_mdps", "MAX_EXHAUSTIVE_MDP"]

MAX_EXHAUSTIVE_MDP = 2
"""The largest ``N`` of an MDP ``exhaustive:N``: 82 MDPs; ``N = 3`` would be 117,650."""
_RANDOM_STATES = 8
Rows = list[list[dict[int, flint.fmpq]]]


def _build(rows: Rows, rewards: Sequence[Sequence[Any]]) -> MDP:
    return MDP.from_actions([[dict(row) for row in acts] for acts in rows], [list(r) for r in rewards])


def exhaustive_mdps(max_states: int, *, corpus: str = "") -> list[Case[MDP]]:
    """Every two-action MDP with at most ``max_states`` states (module docstring)."""
    if not 1 <= max_states <= MAX_EXHAUSTIVE_MDP:
        raise UsageError(f"exhaustive MDPs have 1 or 2 states, not {max_states} (3 would be 117,650 MDPs)")
    out = []
    for n in range(1, max_states + 1):
        supports = [tuple(j for j in range(n) if m >> j & 1) for m in range(1, 1 << n)]
        for choice in itertools.product(itertools.product(supports, repeat=2), repeat=n):
            rows = [[{j: flint.fmpq(1, len(sup)) for j in sup} for sup in acts] for acts in choice]
            name = "-".join("|".join("".join(map(str, sup)) for sup in acts) for acts in choice)
            out.append(Case(name, _build(rows, [[2 ** (2 * s + a) for a in range(2)] for s in range(n)]),
                            corpus or f"exhaustive:{max_states}"))
    return out


def random_mdps(count: int, *, seed: int = 0, max_states: int = _RANDOM_STATES, corpus: str = "") -> list[Case[MDP]]:
    """``count`` random MDPs, each action the rows of a random reducible chain on the same states (module docstring)."""
    out = []
    for i in range(count):
        first = sweep_chain(f"{seed}:{i}:0", min_states=1, max_states=max_states)
        actions = 2 + first.n % 2  # 2 or 3 actions, by the first chain's (drawn) size
        chains = [first] + [sweep_chain(f"{seed}:{i}:{a}", min_states=first.n, max_states=first.n) for a in range(1, actions)]
        rows = [[dict(c.row(s)) for c in chains] for s in range(first.n)]
        out.append(Case(f"random-{seed}-{i}", _build(rows, [[c.r[s] for c in chains] for s in range(first.n)]),
                        corpus or f"random:{count}"))
    return out


def _mdp(rows: Sequence[Sequence[dict[int, Any]]], rewards: Sequence[Sequence[Any]]) -> MDP:
    return MDP.from_actions([list(acts) for acts in rows], [list(r) for r in rewards])


def edge_mdps(*, corpus: str = "edge") -> list[Case[MDP]]:
    """Hand-made MDP edge cases (two actions in every state)."""
    tiny, line = flint.fmpq(1, 10**9), 20
    cases = {
        # state 0: a self-loop earning 1 (it attains P_a g* = g*) or a move to state 1, absorbing, earning 2
        "edge-loop-trap": _mdp([[{0: 1}, {1: 1}], [{1: 1}, {1: 1}]], [[1, 0], [2, 2]]),
        # the optimal policy is the 2-cycle (gain 1/2); staying earns 2/5
        "edge-periodic-optimum": _mdp([[{1: 1}, {0: 1}], [{0: 1}, {1: 1}]], [[1, "2/5"], [0, "2/5"]]),
        # two absorbing states of different gains: the optimal gain is not constant
        "edge-multichain": _mdp([[{0: 1}, {0: 1}], [{1: 1}, {1: 1}], [{0: "1/2", 1: "1/2"}, {2: 1}]], [[1, 1], [3, 3], [0, 0]]),
        "edge-near-tie": _mdp([[{0: 1}, {0: 1}]], [[1, "999999999/1000000000"]]),
        # the discount 9/10 prefers 10 now, the gain prefers 1 forever
        "edge-discount-trap": _mdp([[{1: 1}, {2: 1}], [{1: 1}, {1: 1}], [{2: 1}, {2: 1}]], [[10, 0], [0, 0], [1, 1]]),
        "edge-tiny-escape": _mdp([[{0: 1 - tiny, 1: tiny}, {0: 1}], [{1: 1}, {1: 1}]], [[0, "1/2"], [1, 1]]),
        "edge-one-state": _mdp([[{0: 1}, {0: 1}]], [[0, 1]]),
        # states 0..19: advance (toward 19, absorbing, earning 1) or stay (earning 1/100)
        "edge-line-of-choices": _mdp([[{min(s + 1, line - 1): 1}, {s: 1}] for s in range(line)],
                                     [[1 if s == line - 1 else 0, "1/100"] for s in range(line)]),
    }
    return [Case(name, mdp, corpus) for name, mdp in cases.items()]


MDP_CORPORA: Corpora[MDP] = Corpora(
    lambda n, spec: exhaustive_mdps(n, corpus=spec),
    lambda k, seed, states, spec: random_mdps(k, seed=seed, max_states=states, corpus=spec),
    lambda spec: edge_mdps(corpus=spec), max_exhaustive=MAX_EXHAUSTIVE_MDP, what="MDPs (exhaustive:3 would be 117,650)")
"""The MDP corpora (module docstring)."""


def mdp_corpus_cases(text: str, *, seed: int = 0) -> list[Case[MDP]]:
    """The MDPs of the corpus ``text`` names."""
    return MDP_CORPORA.cases(text, seed=seed)


def mdp_cases_of(specs: str | Sequence[str], *, seed: int = 0) -> list[Case[MDP]]:
    """The MDPs of several corpora (a list, or specs separated by commas), each once, every spec checked first."""
    return MDP_CORPORA.cases_of(specs, seed=seed)


# -- shrinking ----------------------------------------------------------------------------------------------
def mdp_size(mdp: MDP) -> tuple[int, int, int, int, int, int]:
    """``(states, actions, largest denominator, sum of denominators, nonzero entries, reward size)``."""
    entries = [q for s in range(mdp.n) for a in mdp.actions(s) for _, q in mdp.row(s, a)]
    rewards = [mdp.reward(s, a) for s in range(mdp.n) for a in mdp.actions(s)]
    dens = [int(q.q) for q in entries] + [int(x.q) for x in rewards]
    return (mdp.n, max(mdp.num_actions), max(dens), sum(dens), len(entries),
            sum(abs(int(x.p)) + int(x.q) - 1 for x in rewards))


def _parts(mdp: MDP) -> tuple[Rows, list[list[flint.fmpq]]]:
    return ([[dict(mdp.row(s, a)) for a in mdp.actions(s)] for s in range(mdp.n)],
            [[mdp.reward(s, a) for a in mdp.actions(s)] for s in range(mdp.n)])


def _normalised(row: dict[int, flint.fmpq]) -> dict[int, flint.fmpq] | None:
    total = sum(row.values(), flint.fmpq(0))
    return {j: q / total for j, q in row.items()} if total else None


def _without_state(rows: Rows, rewards: list[list[flint.fmpq]], s: int) -> MDP:
    """State ``s`` deleted: each row divided by what is left of it, a row that only led to ``s`` now a self-loop."""
    keep = [t for t in range(len(rows)) if t != s]
    index = {t: k for k, t in enumerate(keep)}
    new_rows: Rows = []
    for t in keep:
        acts = [_normalised({index[j]: q for j, q in row.items() if j != s}) for row in rows[t]]
        new_rows.append([a if a is not None else {index[t]: flint.fmpq(1)} for a in acts])
    return _build(new_rows, [rewards[t] for t in keep])


def smaller_mdps(mdp: MDP) -> Iterator[MDP]:
    """Candidates for :func:`~exactpte.oracle.shrinking.shrink`: a state deleted (rows renormalised, a row that only
    led there a self-loop), an action
    index dropped in every state, a row made uniform, an edge dropped, a reward set to 0 or 1."""
    rows, rewards = _parts(mdp)
    for s in range(mdp.n if mdp.n > 1 else 0):
        yield _without_state(rows, rewards, s)
    if min(mdp.num_actions) > 1:
        for a in range(min(mdp.num_actions)):
            yield _build([[r for b, r in enumerate(acts) if b != a] for acts in rows],
                         [[x for b, x in enumerate(rs) if b != a] for rs in rewards])
    for s, acts in enumerate(rows):
        for a, row in enumerate(acts):
            variants: list[dict[int, flint.fmpq] | None] = []
            if len(row) > 1:  # uniform on its support, or an edge dropped
                variants = [{j: flint.fmpq(1, len(row)) for j in row}]
                variants += [_normalised({t: q for t, q in row.items() if t != j}) for j in row]
            for variant in variants:
                if variant is not None and variant != row:
                    yield _build([[variant if (y, b) == (s, a) else r for b, r in enumerate(xs)] for y, xs in enumerate(rows)],
                                 rewards)
            for simpler in (flint.fmpq(0), flint.fmpq(1)):
                if rewards[s][a] != simpler:
                    yield _build(rows, [[simpler if (y, b) == (s, a) else x for b, x in enumerate(rs)] for y, rs in enumerate(rewards)])


class MDPKind:
    """MDPs judged by :func:`~exactpte.oracle.mdp_judge.judge_mdp` (with ``discount``: as discounted answers); the exact
    answers of each MDP computed once (a bounded cache of :class:`~exactpte.oracle.mdp_judge.MDPReference`)."""

    name = "mdp"
    problem_file = "mdp.json"

    def __init__(self, discount: Any = None) -> None:
        self.discount = require_discount(discount) if discount is not None else None
        self._references: dict[MDP, MDPReference] = {}

    def reference(self, mdp: MDP) -> MDPReference:
        """The :class:`~exactpte.oracle.mdp_judge.MDPReference` of ``mdp`` (from the cache when it is there)."""
        return cached(self._references, mdp, lambda m: MDPReference(m, discount=self.discount))

    def arguments(self, problem: MDP, inputs: str) -> tuple[Any, ...]:
        """``(P, R)`` in pymdptoolbox's shapes: ``A x S x S`` and ``S x A`` (module docstring)."""
        A = max(problem.num_actions)
        if min(problem.num_actions) != A:
            raise UsageError("the MDP adapter's shapes need the same number of actions in every state")
        dense = [[[Fraction(0)] * problem.n for _ in range(problem.n)] for _ in range(A)]
        for s in range(problem.n):
            for a in problem.actions(s):
                for j, q in problem.row(s, a):
                    dense[a][s][j] = Fraction(int(q.p), int(q.q))
        R = [[Fraction(int(x.p), int(x.q)) for x in (problem.reward(s, a) for a in range(A))] for s in range(problem.n)]
        if inputs == "exact":
            return dense, R
        import numpy as np

        P = np.array([[[float(x) for x in row] for row in mat] for mat in dense], dtype=float)
        if inputs == "sparse":
            import scipy.sparse as sp

            return [sp.csr_matrix(M) for M in P], np.array([[float(x) for x in r] for r in R])
        return P, np.array([[float(x) for x in r] for r in R])

    def judge(self, output: dict[str, Any], problem: MDP, tolerance: Tolerance) -> Report:
        """:func:`~exactpte.oracle.mdp_judge.judge_mdp` on the output read as ``exactpte check --mdp`` reads it."""
        return judge_mdp(read_candidate(output, source="the adapter's output"), self.reference(problem),
                         atol=tolerance.atol, rtol=tolerance.rtol, up_to_gauge=tolerance.up_to_gauge, strict=tolerance.strict)

    def size(self, problem: MDP) -> tuple[int, ...]:
        """:func:`mdp_size`."""
        return mdp_size(problem)

    def smaller(self, problem: MDP) -> Iterator[MDP]:
        """:func:`smaller_mdps`."""
        return smaller_mdps(problem)

    def states(self, problem: MDP) -> int:
        """``problem.n``."""
        return problem.n

    def to_dict(self, problem: MDP) -> dict[str, Any]:
        """The MDP file (``{"Q": ..., "R": ...}``) ``exactpte mdp`` and ``exactpte check --mdp`` read."""
        from exactpte.io.mdp_json import mdp_to_dict

        return mdp_to_dict(problem, sparse=False)

    def exact(self, problem: MDP) -> dict[str, Any]:
        """``exactpte mdp --json`` of the MDP (with the discount: its discounted keys too)."""
        from exactpte.mdp.solution import solve

        return solve(problem, discount=self.discount).to_dict()

    def reproduce(self, tolerance: Tolerance) -> str:
        """``exactpte check output.json --mdp mdp.json`` with the run's tolerances (and discount)."""
        discount = f" --discount {self.discount}" if self.discount is not None else ""
        return f"exactpte check output.json --mdp mdp.json{discount}{tolerance.options()}"
