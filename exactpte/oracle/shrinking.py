"""Shrinking a failing input to the smallest one on which the same cause still fires.

:func:`shrink` is generic: it walks from a failing problem to smaller ones (a kind's ``smaller``
candidates, smallest first by its ``size``) and keeps the first on which ``fails`` still holds, until
no candidate does or the budget of calls is spent.  For chains:

- :func:`chain_size`: **fewest states, then smallest denominators** (the largest one of ``P`` and
  ``r``, then their sum), then fewest edges, then the smallest rewards;
- :func:`smaller_chains`: a state deleted (the rows that lose mass divided by what is left, a row that only
  led there a self-loop) or censored
  (the chain watched off it: a path through it goes straight on), a row made uniform on its
  successors, an edge dropped (its row renormalised), a reward set to 0 or 1.

Every candidate is a valid chain.

Examples
--------
>>> import exactpte
>>> chain = exactpte.MarkovRewardProcess([[0, "1/3", "2/3"], [1, 0, 0], [1, 0, 0]], [5, 0, 0])
>>> small, calls = shrink(chain, lambda c: c.n >= 2 and any(c.r), size=chain_size, smaller=smaller_chains)
>>> small.n, small.dense(), small.r
(2, [[0, 1], [1, 0]], (1, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import flint

from exactpte.model.chain import MarkovRewardProcess

__all__ = ["shrink", "chain_size", "smaller_chains"]

T = TypeVar("T")


def shrink(problem: T, fails: Callable[[T], bool], *, size: Callable[[T], Any], smaller: Callable[[T], Iterator[T]],
           budget: int = 200) -> tuple[T, int]:
    """The smallest problem reached from ``problem`` (which fails) through ``smaller`` candidates on which
    ``fails`` holds, and the number of calls of ``fails`` spent (at most ``budget``): greedy, each step to
    the smallest candidate (by ``size``) that still fails."""
    calls = 0
    best, best_size = problem, size(problem)
    improved = True
    while improved and calls < budget:
        improved = False
        candidates = sorted(((size(c), k, c) for k, c in enumerate(smaller(best))), key=lambda t: (t[0], t[1]))
        for cand_size, _, cand in candidates:
            if not cand_size < best_size:
                continue
            if calls >= budget:
                break
            calls += 1
            if fails(cand):
                best, best_size, improved = cand, cand_size, True
                break
    return best, calls


def chain_size(chain: MarkovRewardProcess) -> tuple[int, int, int, int, int]:
    """``(states, largest denominator, sum of denominators, edges, reward size)``: fewest states first,
    then smallest denominators (of ``P`` and ``r``)."""
    dens = [int(q.q) for _, _, q in chain.edges()] + [int(x.q) for x in chain.r]
    rewards = sum(abs(int(x.p)) + int(x.q) - 1 for x in chain.r)
    return chain.n, max(dens), sum(dens), chain.nnz, rewards


def _rows(chain: MarkovRewardProcess) -> list[dict[int, flint.fmpq]]:
    return [dict(chain.row(s)) for s in range(chain.n)]


def _build(rows: list[dict[int, flint.fmpq]], r: list[flint.fmpq]) -> MarkovRewardProcess:
    edges = [(s, j, q) for s, row in enumerate(rows) for j, q in sorted(row.items())]
    return MarkovRewardProcess.from_edges(len(rows), edges, r)


def _normalised(row: dict[int, flint.fmpq]) -> dict[int, flint.fmpq] | None:
    total = sum(row.values(), flint.fmpq(0))
    return {j: q / total for j, q in row.items()} if total else None


def _without_state(chain: MarkovRewardProcess, s: int) -> MarkovRewardProcess:
    """The chain with state ``s`` deleted, each row that loses mass divided by what is left (a row that only led
    to ``s`` becomes a self-loop)."""
    keep = [t for t in range(chain.n) if t != s]
    new_index = {t: k for k, t in enumerate(keep)}
    rows = []
    for t in keep:
        row = _normalised({new_index[j]: q for j, q in chain.row(t) if j != s})
        rows.append(row if row is not None else {new_index[t]: flint.fmpq(1)})
    return _build(rows, [chain.r[t] for t in keep])


def _censored(chain: MarkovRewardProcess, s: int) -> MarkovRewardProcess | None:
    """The chain watched only off state ``s`` (its stochastic complement: a path through ``s`` goes straight on
    to where ``s`` leads); ``None`` when ``s`` is absorbing."""
    out = dict(chain.row(s))
    stay = out.pop(s, flint.fmpq(0))
    if stay == 1:
        return None
    keep = [t for t in range(chain.n) if t != s]
    new_index = {t: k for k, t in enumerate(keep)}
    rows = []
    for t in keep:
        row = {new_index[j]: q for j, q in chain.row(t) if j != s}
        into = dict(chain.row(t)).get(s, flint.fmpq(0))
        for j, q in out.items():
            row[new_index[j]] = row.get(new_index[j], flint.fmpq(0)) + into * q / (1 - stay)
        rows.append(row)
    return _build(rows, [chain.r[t] for t in keep])


def smaller_chains(chain: MarkovRewardProcess) -> Iterator[MarkovRewardProcess]:
    """Candidates smaller than ``chain`` (or as small: :func:`shrink` keeps only the smaller ones): a state
    deleted or censored, a row made uniform, an edge dropped, a reward set to 0 or 1."""
    if chain.n > 1:
        for s in range(chain.n):
            yield _without_state(chain, s)
            censored = _censored(chain, s)
            if censored is not None:
                yield censored
    rows, r = _rows(chain), list(chain.r)
    for s, row in enumerate(rows):
        if len(row) > 1:
            uniform = {j: flint.fmpq(1, len(row)) for j in row}
            if uniform != row:
                yield _build([*rows[:s], uniform, *rows[s + 1:]], r)
            for j in row:
                dropped = _normalised({t: q for t, q in row.items() if t != j})
                yield _build([*rows[:s], dropped or row, *rows[s + 1:]], r)
    for s, x in enumerate(r):
        for simpler in (flint.fmpq(0), flint.fmpq(1)):
            if x != simpler:
                yield _build(rows, [*r[:s], simpler, *r[s + 1:]])
