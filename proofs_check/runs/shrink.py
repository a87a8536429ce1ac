"""Shrinking a failing chain to a small counterexample, while the same check still fails.

Greedy passes, repeated until none applies: drop a state (its incoming probability is spread
over the rest of each row, a row left empty becomes a self-loop), drop an edge (the row is
renormalised), make a row uniform over its support, round a probability to a simpler fraction,
set a reward to 0, 1 or a smaller integer.  A step is kept only when ``still_fails`` holds for
the smaller chain, so the result fails the same way; every step makes the chain strictly
simpler, so shrinking ends.

Examples
--------
>>> import exactpte
>>> chain = exactpte.example("branching")
>>> small = shrink(chain, lambda m: any(d > 1 for d in m.structure.periods))
>>> small.n, small.structure.periods
(2, (2,))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import flint

from exactpte import MarkovRewardProcess
from exactpte.errors import ExactpteError

__all__ = ["shrink", "size"]


def size(chain: MarkovRewardProcess) -> tuple[int, int, int]:
    """How big a chain is, for ordering counterexamples: states, edges, then the digits of its numbers."""
    digits = sum(len(str(q)) for _, _, q in chain.edges()) + sum(len(str(x)) for x in chain.r)
    return (chain.n, chain.nnz, digits)


def _build(rows: list[dict[int, flint.fmpq]], r: list[flint.fmpq]) -> MarkovRewardProcess | None:
    try:
        return MarkovRewardProcess.from_edges(len(rows), [(i, j, q) for i, row in enumerate(rows) for j, q in sorted(row.items())], r)
    except ExactpteError:
        return None


def _rows(chain: MarkovRewardProcess) -> list[dict[int, flint.fmpq]]:
    return [dict(chain.row(i)) for i in range(chain.n)]


def _without_state(chain: MarkovRewardProcess, s: int) -> MarkovRewardProcess | None:
    if chain.n == 1:
        return None
    rows = _rows(chain)
    keep = [i for i in range(chain.n) if i != s]
    new_index = {old: k for k, old in enumerate(keep)}
    out = []
    for i in keep:
        row = {new_index[j]: q for j, q in rows[i].items() if j != s}
        mass = sum(row.values(), flint.fmpq(0))
        out.append({j: q / mass for j, q in row.items()} if mass != 0 else {new_index[i]: flint.fmpq(1)})
    return _build(out, [chain.r[i] for i in keep])


def _candidates(chain: MarkovRewardProcess) -> Iterator[MarkovRewardProcess]:
    """Simpler chains, most aggressive first."""
    for s in reversed(range(chain.n)):
        c = _without_state(chain, s)
        if c is not None:
            yield c
    rows = _rows(chain)
    for i, row in enumerate(rows):
        if len(row) >= 2:
            for j in sorted(row):
                rest = {k: q for k, q in row.items() if k != j}
                mass = sum(rest.values(), flint.fmpq(0))
                c = _build(rows[:i] + [{k: q / mass for k, q in rest.items()}] + rows[i + 1 :], list(chain.r))
                if c is not None:
                    yield c
    for i, row in enumerate(rows):
        uniform = {j: flint.fmpq(1, len(row)) for j in row}
        if uniform != row:
            c = _build(rows[:i] + [uniform] + rows[i + 1 :], list(chain.r))
            if c is not None:
                yield c
    for s, x in enumerate(chain.r):
        for simpler in (flint.fmpq(0), flint.fmpq(1), flint.fmpq(int(x.p) // int(x.q))):
            if simpler != x and (abs(simpler) < abs(x) or x.q != 1):
                r = list(chain.r)
                r[s] = simpler
                yield MarkovRewardProcess.from_edges(chain.n, list(chain.edges()), r)


def shrink(chain: MarkovRewardProcess, still_fails: Callable[[MarkovRewardProcess], bool], *, max_steps: int = 500) -> MarkovRewardProcess:
    """The smallest chain reached from ``chain`` by simplifications under which ``still_fails`` stays true.

    ``still_fails`` should be deterministic; an exception inside it counts as "no longer fails"
    (the smaller chain is then not kept).
    """
    current = chain
    for _ in range(max_steps):
        for candidate in _candidates(current):
            if size(candidate) >= size(current):
                continue
            try:
                fails = still_fails(candidate)
            except Exception:  # a candidate the check cannot evaluate is not a counterexample
                fails = False
            if fails:
                current = candidate
                break
        else:
            return current
    return current
