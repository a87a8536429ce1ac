"""QuantEcon's MarkovChain on every chain with at most three states, in one command: ``exactpte conform``.

This file is its own adapter: each ``solve_*`` function takes the chain as float arrays ``(P, r)``, calls
QuantEcon, and returns what QuantEcon computes under QuantEcon's own names (``recurrent_classes``,
``stationary_distributions``, ...), which ``exactpte conform`` reads as ``exactpte check`` reads them::

    exactpte conform examples/conform_quantecon.py:solve_dense --corpus exhaustive:3
    exactpte conform examples/conform_quantecon.py:solve_stored_zeros --corpus exhaustive:3

What it shows (checked with quantecon 0.11.4):

- ``solve_dense``: on the dense matrix every output agrees, on all 353 labelled support graphs;
- ``solve_stored_zeros``: the same matrix as a scipy CSR matrix that *stores* its zero entries (as one
  built from every ``(i, j)`` pair does, or one whose entries were set to 0 in place: scipy keeps them
  until ``eliminate_zeros()``).  QuantEcon builds the support graph from the stored entries, so a 0 becomes
  an edge: classes merge, closed classes vanish, periods shrink.  208 of 353 chains fail, all with the
  cause "zero entries taken as edges"; the smallest counterexample has 2 states,
  ``P = [[1, 0], [1, 0]]``: state 0 is absorbing, QuantEcon reports ``[0, 1]`` as one recurrent class;
- ``solve_eliminated``: the same CSR matrix after ``A.eliminate_zeros()``: everything agrees again.

Run: ``python examples/conform_quantecon.py`` (needs ``pip install "exactpte[peers]"``; loading this file as an
adapter runs it, which is what ``exactpte conform`` is for).
"""

from __future__ import annotations

import sys

import numpy as np


def _outputs(mc: object) -> dict[str, object]:
    return {name: getattr(mc, name) for name in ("communication_classes", "recurrent_classes", "stationary_distributions",
                                                 "period", "is_irreducible", "is_aperiodic")}


def _csr_storing_zeros(P: np.ndarray) -> object:
    import scipy.sparse as sp

    n = P.shape[0]
    rows, cols = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
    return sp.csr_matrix((P.ravel(), (rows, cols)), shape=(n, n))  # n^2 stored entries, the zeros among them


def solve_dense(P: np.ndarray, r: np.ndarray) -> dict[str, object]:
    """QuantEcon on the dense float matrix."""
    import quantecon as qe

    return _outputs(qe.MarkovChain(P))


def solve_stored_zeros(P: np.ndarray, r: np.ndarray) -> dict[str, object]:
    """QuantEcon on a CSR matrix that stores every entry, zeros included."""
    import quantecon as qe

    return _outputs(qe.MarkovChain(_csr_storing_zeros(P)))


def solve_eliminated(P: np.ndarray, r: np.ndarray) -> dict[str, object]:
    """The same CSR matrix with its stored zeros removed first (``eliminate_zeros``): the fix."""
    import quantecon as qe

    A = _csr_storing_zeros(P)
    A.eliminate_zeros()  # type: ignore[attr-defined]
    return _outputs(qe.MarkovChain(A))


if __name__ == "__main__":
    from exactpte.cli import main

    statuses = []
    for name in ("solve_dense", "solve_stored_zeros", "solve_eliminated"):
        print(f"\n=== exactpte conform {__file__}:{name} --corpus exhaustive:3", flush=True)
        statuses.append(main(["conform", f"{__file__}:{name}", "--corpus", "exhaustive:3", "--quiet"]))
    print(f"\nexit statuses: {statuses} (0: all agree, 1: failures)")
    sys.exit(0 if statuses == [0, 1, 0] else 1)
