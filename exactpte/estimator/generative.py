"""Generative models: sample next states for a batch of queried states, counting queries.

Examples
--------
>>> import exactpte
>>> model = TableModel.from_chain(exactpte.example("periodic"))
>>> rng = np.random.default_rng(0)
>>> model.sample(np.array([0, 1, 0]), rng).tolist(), model.queries
([1, 0, 1], 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from exactpte.errors import UsageError
from exactpte.model.chain import MarkovRewardProcess
from exactpte.model.to_float import to_float

__all__ = ["GenerativeModel", "TableModel", "CallbackModel"]


class GenerativeModel:
    """Base: ``sample(states, rng) -> next_states``; ``queries`` counts samples, per stage too."""

    n: int

    def __init__(self) -> None:
        self.queries = 0
        self.by_stage: Counter[str] = Counter()
        self._stage = "other"

    def _draw(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def sample(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One independent next-state sample for each entry of ``states`` (a 1-d int array)."""
        states = np.asarray(states, dtype=np.int64)
        self.queries += states.size
        self.by_stage[self._stage] += states.size
        return self._draw(states, rng)

    @contextmanager
    def stage(self, name: str) -> Iterator[GenerativeModel]:
        """Attribute the queries made inside the block to ``name``."""
        prev, self._stage = self._stage, name
        try:
            yield self
        finally:
            self._stage = prev


class TableModel(GenerativeModel):
    """Vectorised sampling from a transition table held as float CSR rows.

    A state's row is sampled by one ``searchsorted`` over the concatenated cumulative
    rows shifted by the row index, so a batch of any size costs one numpy call.
    """

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, probs: np.ndarray) -> None:
        super().__init__()
        self.n = len(indptr) - 1
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int64)
        rows = np.repeat(np.arange(self.n), np.diff(self.indptr))
        cum = np.empty(len(probs))
        for s in range(self.n):  # per-row cumulative sums, last entry exactly 1
            a, b = self.indptr[s], self.indptr[s + 1]
            c = np.cumsum(probs[a:b])
            c /= c[-1]
            c[-1] = 1.0
            cum[a:b] = c
        self._keys = rows + cum

    @classmethod
    def from_chain(cls, chain: MarkovRewardProcess) -> "TableModel":
        """The float transition table of an exact chain (``exactpte.MarkovRewardProcess``)."""
        indptr = [0]
        indices: list[int] = []
        probs: list[float] = []
        for s in range(chain.n):
            for j, q in chain.row(s):
                indices.append(j)
                probs.append(to_float(q))
            indptr.append(len(indices))
        return cls(np.array(indptr), np.array(indices), np.array(probs, dtype=float))

    @classmethod
    def from_dense(cls, P: np.ndarray) -> "TableModel":
        """A table model from a dense float transition matrix."""
        P = np.asarray(P, dtype=float)
        indptr, indices, probs = [0], [], []
        for row in P:
            nz = np.nonzero(row > 0)[0]
            indices.extend(nz.tolist())
            probs.extend(row[nz].tolist())
            indptr.append(len(indices))
        return cls(np.array(indptr), np.array(indices), np.array(probs))

    def _draw(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        u = rng.random(states.size)
        pos = np.searchsorted(self._keys, states + u, side="right")
        return self.indices[pos]

    def dense(self) -> np.ndarray:
        """The transition table as a dense float matrix."""
        P = np.zeros((self.n, self.n))
        for s in range(self.n):
            a, b = self.indptr[s], self.indptr[s + 1]
            c = self._keys[a:b] - s
            P[s, self.indices[a:b]] = np.diff(np.concatenate([[0.0], c]))
        return P


class CallbackModel(GenerativeModel):
    """A user simulator: ``callback(states, rng) -> next_states`` (vectorised over ``states``)."""

    def __init__(self, n: int, callback: Callable[[np.ndarray, np.random.Generator], np.ndarray]) -> None:
        super().__init__()
        self.n = n
        self.callback = callback

    def _draw(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        out = np.asarray(self.callback(states, rng), dtype=np.int64)
        if out.shape != states.shape:
            raise UsageError(f"callback returned shape {out.shape} for {states.shape} queried states")
        if out.size and (out.min() < 0 or out.max() >= self.n):
            raise UsageError(f"callback returned a state outside 0..{self.n - 1}")
        return out
