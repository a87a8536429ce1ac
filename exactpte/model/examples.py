"""Built-in example chains, among them the paper's exact diagnostic checks.

``example(name)`` builds one; ``EXAMPLES`` maps each name to a one-line
description.  The four diagnostics follow the paper's Numerical Experiments,
"Exact diagnostic checks", panels (a)–(d).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from exactpte.model.chain import MarkovRewardProcess
from exactpte.errors import UnknownNameError

if TYPE_CHECKING:  # pragma: no cover
    from exactpte.model.parametric import ParametricChain

__all__ = ["example", "EXAMPLES", "deterministic_cycle", "two_paths", "two_cycles", "lazy_two_state", "branching",
           "paper_benchmark", "two_state", "paths_with_exit", "branching_param", "cycle_rewards", "ruin", "two_loops"]


def deterministic_cycle(d: int, rewards: Sequence[Any] | None = None) -> MarkovRewardProcess:
    """The deterministic ``d``-cycle ``P(k, k+1 mod d) = 1`` (``prop:deterministic_cycle``).

    Default reward ``r(k) = 1{k < d/2}``.

    Examples
    --------
    >>> deterministic_cycle(4).r == (1, 1, 0, 0)
    True
    """
    if rewards is None:
        rewards = [1 if 2 * k < d else 0 for k in range(d)]
    return MarkovRewardProcess.from_edges(d, [(k, (k + 1) % d, 1) for k in range(d)], rewards)


def two_paths(lengths: Sequence[int] = (3, 14)) -> MarkovRewardProcess:
    """Panel (b): deterministic zero-reward paths into one absorbing anchor ``a`` with ``r(a) = 1``.

    State 0 is ``a``; path ``j`` of length ``L`` has states labelled ``p{j}_{L}`` .. ``p{j}_1``
    (the number is the distance to ``a``), so ``v*(p{j}_ℓ) = -ℓ`` and ``g* = 1``.

    Examples
    --------
    >>> two_paths((2,)).labels
    ('a', 'p0_2', 'p0_1')
    """
    edges = [(0, 0, 1)]
    labels = ["a"]
    for j, L in enumerate(lengths):
        start = len(labels)
        for ell in range(L, 0, -1):
            labels.append(f"p{j}_{ell}")
        for off in range(L):
            s = start + off
            edges.append((s, s + 1 if off < L - 1 else 0, 1))
    r = [1] + [0] * (len(labels) - 1)
    return MarkovRewardProcess.from_edges(len(labels), edges, r, labels=labels)


def two_cycles() -> MarkovRewardProcess:
    """Panel (c): two deterministic 4-cycles with rewards ``(1,1,0,0)`` and ``(1,0,1,0)``.

    Equal gain 1/2, persistent profiles 1 apart.
    """
    edges = [(k, (k + 1) % 4, 1) for k in range(4)] + [(4 + k, 4 + (k + 1) % 4, 1) for k in range(4)]
    labels = [f"A{k}" for k in range(4)] + [f"B{k}" for k in range(4)]
    return MarkovRewardProcess.from_edges(8, edges, [1, 1, 0, 0, 1, 0, 1, 0], labels=labels)


def lazy_two_state() -> MarkovRewardProcess:
    """Panel (d), aperiodic side: the 2-cycle made lazy (all entries 1/2), ``r = (1, 0)``; ``g* = ρ``."""
    return MarkovRewardProcess([["1/2", "1/2"], ["1/2", "1/2"]], [1, 0])


def branching() -> MarkovRewardProcess:
    """A periodic two-class chain with transient branching (hand-checkable).

    Class F0 = {0, 1} is a 2-cycle with rewards (1, 0); class F1 = {2, 3, 4} a 3-cycle
    with rewards (0, 3, 0).  Transient ``t0`` (state 5) moves to ``t1`` (6) or to state 1
    with probability 1/2 each; ``t1`` enters state 0 w.p. 1/3 and state 3 w.p. 2/3.
    """
    edges = [
        (0, 1, 1), (1, 0, 1),
        (2, 3, 1), (3, 4, 1), (4, 2, 1),
        (5, 6, "1/2"), (5, 1, "1/2"),
        (6, 0, "1/3"), (6, 3, "2/3"),
    ]
    labels = ["x0", "x1", "y0", "y1", "y2", "t0", "t1"]
    return MarkovRewardProcess.from_edges(7, edges, [1, 0, 0, 3, 0, 0, 0], labels=labels)


def paper_benchmark(
    *,
    line_length: int = 35,
    phase_sizes: tuple[int, int] = (10, 9),
    self_loop: str = "1/5",
    exit_mass: str = "2/25",
    q_range: tuple[str, str] = ("3/20", "17/20"),
) -> MarkovRewardProcess:
    """The paper's 82-state periodic two-class benchmark with transient branching.

    Paper (Numerical Experiments): classes of periods 2 and 3 with phase sizes 10 and 9,
    a transient line of length 35, phase rewards (0.05, 0.95) and (0.10, 0.55, 0.95),
    transient rewards 0, self-loop ε = 0.2, exit mass η = 0.08, class-one exit probability
    ``q_j`` linear in ``[0.15, 0.85]``.  Choices the paper leaves open (pinned down by its
    582 support edges and its average-only return error 6.48, both reproduced exactly):

    - each state of phase ``k`` moves uniformly to every state of phase ``k + 1`` (complete
      bipartite phases: 200 + 243 edges);
    - ``t_j`` (j < L-1): self-loop ε, forward ``1 - ε - η`` to ``t_{j+1}``, exit ``η q_j`` to
      the first state of class one's phase 0 and ``η (1 - q_j)`` to class two's;
    - ``q_j = 0.15 + 0.7 j / (L - 1)``; the last state ``t_{L-1}`` has no forward edge and
      exits with mass ``1 - ε`` split by ``q_{L-1}`` (35 * 4 - 1 = 139 transient edges).

    States: class one (phase 0 then phase 1), class two (phases 0, 1, 2), then ``t_0..t_{L-1}``.

    Examples
    --------
    >>> m = paper_benchmark()
    >>> m.n, m.nnz, m.structure.periods
    (82, 582, (2, 3))
    """
    from fractions import Fraction as Fr

    m1, m2 = phase_sizes
    eps, eta = Fr(self_loop), Fr(exit_mass)
    qlo, qhi = Fr(q_range[0]), Fr(q_range[1])
    c1 = [[k * m1 + i for i in range(m1)] for k in range(2)]
    c2 = [[2 * m1 + k * m2 + i for i in range(m2)] for k in range(3)]
    n_rec = 2 * m1 + 3 * m2
    edges: list[tuple[int, int, Fr]] = []
    r: list[Fr | int] = [0] * (n_rec + line_length)
    for phases, size, rewards in ((c1, m1, (Fr(1, 20), Fr(19, 20))), (c2, m2, (Fr(1, 10), Fr(11, 20), Fr(19, 20)))):
        d = len(phases)
        for k, states in enumerate(phases):
            for s in states:
                r[s] = rewards[k]
                edges.extend((s, t, Fr(1, size)) for t in phases[(k + 1) % d])
    labels = [f"A{k}.{i}" for k in range(2) for i in range(m1)] + [f"B{k}.{i}" for k in range(3) for i in range(m2)]
    for j in range(line_length):
        s = n_rec + j
        q = qlo + (qhi - qlo) * Fr(j, max(1, line_length - 1))
        out = eta if j < line_length - 1 else 1 - eps
        edges += [(s, s, eps), (s, c1[0][0], out * q), (s, c2[0][0], out * (1 - q))]
        if j < line_length - 1:
            edges.append((s, s + 1, 1 - eps - eta))
        labels.append(f"t{j}")
    return MarkovRewardProcess.from_edges(n_rec + line_length, edges, r, labels=labels)


# -- parametric examples (closed forms: examples/closed_forms.py, docs/closed-forms.md) ----------
def two_state(params: tuple[str, str] = ("p", "q")) -> ParametricChain:
    """``P = [[1-p, p], [q, 1-q]]``, ``r = (1, 0)``: ``ρ = q/(p+q)``, ``h(0) = p/(p+q)^2``."""
    from exactpte.model.parametric import ParametricChain

    p, q = params
    return ParametricChain([[f"1-{p}", p], [q, f"1-{q}"]], [1, 0], params=list(params), labels=["on", "off"])


def paths_with_exit(lengths: tuple[int, int] = (3, 14), param: str = "e") -> ParametricChain:
    """Panel (b) with an exit probability: from distance ``ℓ`` the chain moves to ``ℓ - 1`` w.p. ``1 - e``
    or jumps straight to the anchor w.p. ``e``; ``v*(ℓ) = -(1 - (1-e)^ℓ)/e``, ``g* = 1``."""
    from exactpte.model.parametric import ParametricChain

    base = two_paths(lengths)
    n = base.n
    P = [["0"] * n for _ in range(n)]
    P[0][0] = "1"
    for s in range(1, n):
        (nxt,) = base.support[s]
        if nxt == 0:
            P[s][0] = "1"
        else:
            P[s][nxt] = f"1-{param}"
            P[s][0] = param
    return ParametricChain(P, [str(x) for x in base.r], params=[param], labels=base.labels)


def branching_param(param: str = "b") -> ParametricChain:
    """The branching example with ``t0 -> t1`` w.p. ``b`` and ``t0 -> x1`` w.p. ``1 - b``."""
    from exactpte.model.parametric import ParametricChain

    base = branching()
    P = [[str(x) for x in row] for row in base.dense()]
    P[5][6], P[5][1] = param, f"1-{param}"
    return ParametricChain(P, [str(x) for x in base.r], params=[param], labels=base.labels)


def cycle_rewards(d: int = 8, params: tuple[str, str] = ("a", "c")) -> ParametricChain:
    """``prop:deterministic_cycle`` with parametric rewards ``r(k) = a`` for ``k < d/2``, ``c`` after:
    ``g* = r``, ``v* = 0``, ``‖h‖∞ = d |a - c| / 8`` for even ``d``."""
    from exactpte.model.parametric import ParametricChain

    a, c = params
    P = [["1" if j == (k + 1) % d else "0" for j in range(d)] for k in range(d)]
    return ParametricChain(P, [a if 2 * k < d else c for k in range(d)], params=list(params))


def ruin(params: tuple[str, str] = ("p", "q")) -> ParametricChain:
    """A gambler's-ruin game: from ``home`` the gambler bets (w.p. ``p``) or wins (``1 - p``); a bet returns home
    (``q``) or is lost for a rest (``1 - q``); ``win`` and ``rest`` alternate for ever, ``r(win) = 1``.  Transient
    ``home``, ``bet``; one 2-cycle: ``ρ = 1/2`` everywhere but at ``p = q = 1`` (then ``home``, ``bet`` cycle too),
    ``g*(home) = 0``, ``ψ(home) = -1/4``.

    >>> ruin().labels
    ('home', 'bet', 'win', 'rest')
    """
    from exactpte.model.parametric import ParametricChain

    p, q = params
    P = [["0", p, f"1-{p}", "0"], [q, "0", "0", f"1-{q}"], ["0", "0", "0", "1"], ["0", "0", "1", "0"]]
    return ParametricChain(P, [0, 0, 1, 0], params=list(params), labels=["home", "bet", "win", "rest"])


def two_loops(params: tuple[str, str] = ("p", "q")) -> ParametricChain:
    """``P = [[0, q, 1-q], [0, p, 1-p], [0, 1, 0]]``, ``r = (0, 1, 0)`` (docs/closed-forms.md's strata): generic
    ``g* = 1/(2 - p)``; at ``p = 0`` the class ``{1, 2}`` is a 2-cycle and ``g* = (1 - q, 1, 0)``."""
    from exactpte.model.parametric import ParametricChain

    p, q = params
    return ParametricChain([["0", q, f"1-{q}"], ["0", p, f"1-{p}"], ["0", "1", "0"]], [0, 1, 0], params=list(params),
                           labels=["a", "b", "c"])


_BUILDERS: dict[str, tuple[Callable[[], MarkovRewardProcess | ParametricChain], str]] = {
    "two-paths": (two_paths, "panel (b): paths of length 3 and 14 into one absorbing anchor; g* = 1, v* = -3, -14"),
    "cycle-24": (lambda: deterministic_cycle(24), "panel (a): deterministic 24-cycle, r = 1{k < 12}; ||h|| = 3, v* = 0"),
    "two-cycles": (two_cycles, "panel (c): two 4-cycles, equal gain 1/2, ||g*_A - g*_B|| = 1"),
    "aperiodic": (lazy_two_state, "panel (d): lazy 2-state chain, r = (1, 0); g* = rho exactly"),
    "periodic": (lambda: deterministic_cycle(2), "panel (d): 2-cycle, r = (1, 0); ||g* - rho|| = 1/2"),
    "paper-benchmark": (paper_benchmark, "the paper's 82-state sample-based benchmark (periods 2 and 3, transient line of 35)"),
    "branching": (branching, "two classes of periods 2 and 3 reached from transient states at different phase offsets"),
    "two-state-pq": (two_state, "parametric: P = [[1-p, p], [q, 1-q]], r = (1, 0)"),
    "paths-exit": (paths_with_exit, "parametric: panel (b) with exit probability e; v*(l) = -(1 - (1-e)^l)/e"),
    "branching-b": (branching_param, "parametric: the branching example with branching probability b"),
    "cycle-ac": (cycle_rewards, "parametric: 8-cycle with rewards a (first half) and c; ||h|| = |a - c|"),
    "ruin": (ruin, "parametric: gambler's ruin, home/bet transient (p, q) into a 2-cycle win/rest; g*(home) = 0"),
    "two-loops": (two_loops, "parametric: the strata example of docs/closed-forms.md; a 2-cycle appears at p = 0"),
}

EXAMPLES: dict[str, str] = {name: desc for name, (_, desc) in _BUILDERS.items()}


def example(name: str) -> "MarkovRewardProcess | ParametricChain":
    """Build the built-in example ``name``.

    Parameters
    ----------
    name : str
        A key of :data:`EXAMPLES` (``exactpte examples`` lists them with a description).

    Returns
    -------
    MarkovRewardProcess or ParametricChain
        A fresh chain.

    Raises
    ------
    UnknownNameError
        For an unknown name (the message lists the known ones).

    Examples
    --------
    >>> example("cycle-24").n
    24
    """
    try:
        return _BUILDERS[name][0]()
    except (KeyError, TypeError):
        raise UnknownNameError(f"unknown example {name!r}; choose one of {', '.join(EXAMPLES)}") from None
