"""The chains ``exactpte conform`` runs a tester's solver on: named, exact, the same on every run.

A corpus is named by a spec (:func:`parse_corpus`); :func:`corpus_cases` lists its chains, each a
:class:`Case` with a name that says which chain it is:

- ``exhaustive:N`` (``1 <= N <= 4``): every **labelled** support graph with at most ``N`` states (each
  state with at least one successor, self-loops allowed: ``(2^n - 1)^n`` graphs on ``n`` states, so
  1, 9, 343 and 50,625; 353 for ``N = 3``), each at one rational point of its region: a state with
  ``k`` successors moves to each with probability ``1/k`` (the smallest denominators a chain on
  that graph has), and the reward of state ``s`` is ``2^s`` (distinct, so no closed class has a
  constant reward and every period shows in ``P^k r``).  A case is named after its graph, its
  successor lists joined by ``-``: ``01-2-2`` is ``0 -> {0, 1}``, ``1 -> {2}``, ``2 -> {2}``.
- ``random:K`` or ``random:K:N``: ``K`` random reducible chains of 1 to ``N`` states (default 8) drawn
  from ``--seed`` (:func:`exactpte.model.random_chains.sweep_chain`, seed ``"SEED:i"``): several closed
  classes, periodic ones entered at two phases, long and strongly connected transient parts,
  deterministic cycles; named ``random-SEED-i``.
- ``edge``: hand-made edge cases (:data:`EDGE_CASES`): periodic classes with uneven phases, many
  classes, long transient paths, tiny entries and slow mixing, negative rewards on a transient
  cycle, rewards of very different sizes; named ``edge-...``.

Examples
--------
>>> [c.name for c in corpus_cases("exhaustive:2")][:4]
['0', '0-0', '0-1', '0-01']
>>> len(corpus_cases("exhaustive:3")), len(corpus_cases("random:5", seed=1))
(353, 5)
>>> parse_corpus("exhaustive:5")
Traceback (most recent call last):
...
exactpte.errors.UsageError: corpus 'exhaustive:5': N must be an integer from 1 to 4 (exhaustive:4 already has 50,978 chains)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import flint

from exactpte.errors import UsageError
from exactpte.model.chain import MarkovRewardProcess
from exactpte.model.random_chains import sweep_chain

__all__ = ["Case", "CorpusSpec", "Corpora", "CHAIN_CORPORA", "parse_corpus", "corpus_cases", "cases_of", "exhaustive_cases", "random_cases", "edge_cases",
           "graph_chain", "EDGE_CASES", "MAX_EXHAUSTIVE", "KINDS"]

T = TypeVar("T")

MAX_EXHAUSTIVE = 4
"""The largest ``N`` of ``exhaustive:N``: 50,978 labelled graphs; ``N = 5`` would be 28.6 million."""

KINDS = ("exhaustive", "random", "edge")
"""The corpus kinds a spec may name."""

_RANDOM_STATES = 8
_MAX_RANDOM_STATES = 500


@dataclass(frozen=True)
class Case(Generic[T]):
    """One input of a corpus: its ``name``, the exact ``problem`` (a chain, or an MDP) and the ``corpus`` spec."""

    name: str
    problem: T
    corpus: str


@dataclass(frozen=True)
class CorpusSpec:
    """A parsed corpus spec: ``kind`` (:data:`KINDS`), ``size`` (``N`` or ``K``), ``max_states`` (random only)."""

    text: str
    kind: str
    size: int = 0
    max_states: int = _RANDOM_STATES


def _count(text: str, value: str, what: str, low: int, high: int, why: str = "") -> int:
    if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
        raise UsageError(f"corpus {text!r}: {what} must be an integer from {low} to {high}{why}")
    return int(value)


def parse_corpus(text: str) -> CorpusSpec:
    """The corpus ``text`` names (``exhaustive:N``, ``random:K``, ``random:K:N``, ``edge``), checked before any
    work: a :class:`~exactpte.errors.UsageError` names what is wrong and the forms there are."""
    kind, _, rest = text.strip().partition(":")
    if kind == "exhaustive":
        return CorpusSpec(text, kind, _count(text, rest, "N", 1, MAX_EXHAUSTIVE,
                                             " (exhaustive:4 already has 50,978 chains)"))
    if kind == "random":
        count, _, states = rest.partition(":")
        return CorpusSpec(text, kind, _count(text, count, "K", 1, 10**6),
                          _count(text, states, "N (the most states)", 1, _MAX_RANDOM_STATES) if states else _RANDOM_STATES)
    if kind == "edge" and not rest:
        return CorpusSpec(text, kind)
    raise UsageError(f"{text!r} is not a corpus; the corpora are exhaustive:N (N = 1..{MAX_EXHAUSTIVE}), "
                     "random:K or random:K:N (K chains of at most N states, drawn from --seed), edge")


@dataclass(frozen=True)
class Corpora(Generic[T]):
    """The corpora of one kind of problem: a builder for each corpus kind (``exhaustive(N, spec)``,
    ``random(K, seed, max_states, spec)``, ``edge(spec)``) and the largest ``N`` of ``exhaustive:N``."""

    exhaustive: Callable[[int, str], list[Case[T]]]
    random: Callable[[int, int, int, str], list[Case[T]]]
    edge: Callable[[str], list[Case[T]]]
    max_exhaustive: int = MAX_EXHAUSTIVE
    what: str = "chains"

    def check(self, text: str) -> CorpusSpec:
        """The spec ``text`` names, checked (:func:`parse_corpus`, and ``N`` against :attr:`max_exhaustive`)."""
        spec = parse_corpus(text)
        if spec.kind == "exhaustive" and spec.size > self.max_exhaustive:
            raise UsageError(f"corpus {text!r}: N must be an integer from 1 to {self.max_exhaustive} for {self.what}")
        return spec

    def cases(self, text: str, *, seed: int = 0) -> list[Case[T]]:
        """The problems of the corpus ``text`` names, in a fixed order (``seed``: for ``random``)."""
        spec = self.check(text)
        if spec.kind == "exhaustive":
            return self.exhaustive(spec.size, spec.text)
        if spec.kind == "random":
            return self.random(spec.size, seed, spec.max_states, spec.text)
        return self.edge(spec.text)

    def cases_of(self, specs: str | Sequence[str], *, seed: int = 0) -> list[Case[T]]:
        """The problems of several corpora (specs as a list, or separated by commas), each once (by name),
        every spec checked before any corpus is built."""
        given = [specs] if isinstance(specs, str) else list(specs)
        texts = [s.strip() for text in given for s in text.split(",") if s.strip()]
        if not texts:
            raise UsageError("no corpus given; the corpora are exhaustive:N, random:K[:N], edge")
        for text in texts:
            self.check(text)
        cases: dict[str, Case[T]] = {}
        for text in texts:
            for case in self.cases(text, seed=seed):
                cases.setdefault(case.name, case)
        return list(cases.values())


def corpus_cases(text: str, *, seed: int = 0) -> list[Case[MarkovRewardProcess]]:
    """The chains of the corpus ``text`` names, in a fixed order (``seed``: for ``random``)."""
    return CHAIN_CORPORA.cases(text, seed=seed)


def cases_of(specs: str | Sequence[str], *, seed: int = 0) -> list[Case[MarkovRewardProcess]]:
    """The chains of several corpora (specs as a list, or separated by commas), each chain once (by name),
    every spec checked before any corpus is built.

    Examples
    --------
    >>> len(cases_of("exhaustive:2, exhaustive:1, edge")) == 10 + len(edge_cases())
    True
    """
    return CHAIN_CORPORA.cases_of(specs, seed=seed)


def graph_chain(graph: Sequence[Sequence[int]]) -> MarkovRewardProcess:
    """The chain of ``exhaustive:N`` on ``graph`` (successor lists): ``1/k`` on each of a state's ``k``
    successors, reward ``2^s`` at state ``s``.

    Examples
    --------
    >>> graph_chain([[0, 1], [1]]).row(0), graph_chain([[0, 1], [1]]).r
    (((0, 1/2), (1, 1/2)), (1, 2))
    """
    edges = [(s, j, flint.fmpq(1, len(succ))) for s, succ in enumerate(graph) for j in succ]
    return MarkovRewardProcess.from_edges(len(graph), edges, [2**s for s in range(len(graph))])


def exhaustive_cases(max_states: int, *, corpus: str = "") -> list[Case[MarkovRewardProcess]]:
    """Every labelled support graph with at most ``max_states`` states, as :func:`graph_chain` builds it."""
    out = []
    for n in range(1, max_states + 1):
        subsets = [tuple(j for j in range(n) if mask >> j & 1) for mask in range(1, 1 << n)]
        for graph in itertools.product(subsets, repeat=n):
            name = "-".join("".join(str(j) for j in succ) for succ in graph)
            out.append(Case(name, graph_chain(graph), corpus or f"exhaustive:{max_states}"))
    return out


def random_cases(count: int, *, seed: int = 0, max_states: int = _RANDOM_STATES, corpus: str = "") -> list[Case[MarkovRewardProcess]]:
    """``count`` random reducible chains of 1 to ``max_states`` states (:func:`~exactpte.model.random_chains.sweep_chain`
    with seed ``f"{seed}:{i}"``)."""
    return [Case(f"random-{seed}-{i}", sweep_chain(f"{seed}:{i}", min_states=1, max_states=max_states),
                 corpus or f"random:{count}") for i in range(count)]


def _chain(n: int, edges: Sequence[tuple[int, int, Any]], r: Sequence[Any]) -> MarkovRewardProcess:
    return MarkovRewardProcess.from_edges(n, edges, list(r))


def _cycle(states: Sequence[int], p: Any = 1) -> list[tuple[int, int, Any]]:
    return [(s, states[(k + 1) % len(states)], p) for k, s in enumerate(states)]


def _periodic_classes() -> dict[str, MarkovRewardProcess]:
    return {
        "edge-cycle-2": _chain(2, _cycle([0, 1]), [1, 0]),
        "edge-cycle-7": _chain(7, _cycle(list(range(7))), [5, 0, 0, 1, 0, 0, 0]),
        # period 2, phases {0} and {1, 2}
        "edge-period-2-uneven-phases": _chain(3, [(0, 1, "1/3"), (0, 2, "2/3"), (1, 0, 1), (2, 0, 1)], [0, 1, 5]),
        # period 4, phases {0}, {1, 2}, {3}, {4, 5}
        "edge-period-4": _chain(6, [(0, 1, "1/2"), (0, 2, "1/2"), (1, 3, 1), (2, 3, 1), (3, 4, "1/4"), (3, 5, "3/4"),
                                    (4, 0, 1), (5, 0, 1)], [1, 2, 0, 0, 7, 0]),
        # state 3 enters the 3-cycle 0 -> 1 -> 2 at two phases
        "edge-entered-at-two-phases": _chain(4, [*_cycle([0, 1, 2]), (3, 0, "1/2"), (3, 1, "1/2")], [3, 0, 0, 1]),
        # a 2-cycle and a 3-cycle, reached from two transient states (one with a self-loop)
        "edge-two-periodic-classes": _chain(7, [*_cycle([0, 1]), *_cycle([2, 3, 4]), (5, 0, "1/3"), (5, 2, "2/3"),
                                               (6, 6, "1/2"), (6, 5, "1/4"), (6, 1, "1/4")], [1, 0, 0, 0, 3, 2, -1]),
    }


def _many_classes() -> dict[str, MarkovRewardProcess]:
    # 12 closed classes (absorbing states, 2-cycles, 3-cycles), three transient states reaching all of them
    edges: list[tuple[int, int, Any]] = []
    firsts, s = [], 0
    for size in (1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 1):
        firsts.append(s)
        edges += _cycle(list(range(s, s + size)))
        s += size
    t = s
    edges += [(t, f, flint.fmpq(1, 6)) for f in firsts[:6]] + [(t + 1, f, flint.fmpq(1, 6)) for f in firsts[6:]]
    edges += [(t + 2, t, "1/2"), (t + 2, t + 1, "1/2")]
    return {
        "edge-many-classes": _chain(t + 3, edges, [(k * 7) % 5 - 2 for k in range(t + 3)]),
        "edge-absorbing-6": _chain(6, [(k, k, 1) for k in range(6)], [1, 2, 3, 4, 5, 6]),
        "edge-star": _chain(7, [(0, k, flint.fmpq(1, 6)) for k in range(1, 7)] + [(k, k, 1) for k in range(1, 7)],
                            [0, 1, -1, 2, -2, 3, -3]),
    }


def _transient_parts() -> dict[str, MarkovRewardProcess]:
    line = 40  # states 1..40 in a line down to the 2-cycle {0, 41}
    block = [(k, (k + 1) % 4, "9/10") for k in range(4)] + [(0, 4, "1/10"), (1, 5, "1/10"), (2, 4, "1/10"), (3, 5, "1/10")]
    return {
        "edge-transient-line-40": _chain(line + 2, [(0, line + 1, 1), (line + 1, 0, 1), (1, 0, 1)]
                                          + [(k, k - 1, 1) for k in range(2, line + 1)], [2, *([1] * line), 0]),
        "edge-transient-block": _chain(6, [*block, (4, 4, 1), (5, 5, 1)], [1, 0, 0, 2, 5, -5]),
        "edge-negative-rewards-transient-cycle": _chain(3, [(0, 1, "3/4"), (0, 2, "1/4"), (1, 0, 1), (2, 2, 1)], [-1, -2, 0]),
        "edge-self-loop-transient": _chain(2, [(0, 0, "999/1000"), (0, 1, "1/1000"), (1, 1, 1)], [1, 0]),
    }


def _tiny_entries() -> dict[str, MarkovRewardProcess]:
    tiny = flint.fmpq(1, 10**12)
    slow = flint.fmpq(1, 10**6)
    return {
        "edge-tiny-exchange": _chain(2, [(0, 0, 1 - tiny), (0, 1, tiny), (1, 0, 2 * tiny), (1, 1, 1 - 2 * tiny)], [1, 0]),
        "edge-near-periodic": _chain(2, [(0, 0, slow), (0, 1, 1 - slow), (1, 0, 1 - slow), (1, 1, slow)], [1, 0]),
        "edge-tiny-leak": _chain(3, [(0, 0, 1 - slow), (0, 1, slow), (1, 1, 1), (2, 2, "1/2"), (2, 0, "1/2")], [1, 0, 3]),
        "edge-fine-fractions": _chain(3, [(0, 0, "1/997"), (0, 1, "996/997"), (1, 2, 1), (2, 0, "500/999"), (2, 2, "499/999")],
                                      ["1/3", "-2/7", "5/11"]),
    }


def _rewards() -> dict[str, MarkovRewardProcess]:
    aperiodic = [(0, 1, "1/2"), (0, 2, "1/2"), (1, 0, 1), (2, 2, "1/3"), (2, 1, "2/3"), (3, 0, "1/2"), (3, 3, "1/2")]
    return {
        "edge-one-state": _chain(1, [(0, 0, 1)], [3]),
        "edge-zero-rewards": _chain(4, aperiodic, [0, 0, 0, 0]),
        "edge-mixed-magnitudes": _chain(4, aperiodic, [10**6, "1/1000000", -(10**3), 1]),
        "edge-dense-6": _chain(6, [(s, j, flint.fmpq(j + 1, 21)) for s in range(6) for j in range(6)], [0, 1, 0, -1, 2, 0]),
    }


EDGE_CASES: tuple[Callable[[], dict[str, MarkovRewardProcess]], ...] = (
    _periodic_classes, _many_classes, _transient_parts, _tiny_entries, _rewards)
"""The builders of the ``edge`` corpus, one per theme (each returns its chains by name)."""


def edge_cases(*, corpus: str = "edge") -> list[Case[MarkovRewardProcess]]:
    """The hand-made edge cases (:data:`EDGE_CASES`), theme by theme."""
    return [Case(name, chain, corpus) for build in EDGE_CASES for name, chain in build().items()]


CHAIN_CORPORA: Corpora[MarkovRewardProcess] = Corpora(
    lambda n, spec: exhaustive_cases(n, corpus=spec),
    lambda k, seed, states, spec: random_cases(k, seed=seed, max_states=states, corpus=spec),
    lambda spec: edge_cases(corpus=spec))
"""The chain corpora (``exhaustive:N`` with ``N <= 4``, ``random:K[:N]``, ``edge``)."""
