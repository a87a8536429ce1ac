"""pymdptoolbox's relative value iteration on every chain with at most three states: ``exactpte conform``.

A fixed policy's chain is an MDP with one action; this file is the adapter: each ``solve_*`` runs
``mdptoolbox.mdp.RelativeValueIteration`` on ``P[None]`` and ``r[:, None]`` and returns its ``average_reward``
(read as the gain ``rho``, one value for every state) and ``V`` (read as the bias ``h``, up to a constant,
RVI's normalisation)::

    exactpte conform examples/conform_mdptoolbox.py:solve_rvi --corpus exhaustive:3
    exactpte conform examples/conform_mdptoolbox.py:solve_rvi_tight --corpus exhaustive:3

What it shows (checked with pymdptoolbox 4.0b3):

- ``solve_rvi`` (the defaults, ``epsilon = 0.01``): 318 of 353 chains fail.  Most stop early
  ("unconverged iteration", smallest ``P = [[0, 1], [1/2, 1/2]]``: gain 0.328125 for 1/3); two causes
  are not a matter of tolerance:
- on a **periodic** class ``P^k r`` never converges: RVI stops at ``max_iter`` and returns the minimum
  over states of some ``P^k r`` as the gain ("power-iteration value on a periodic class"; smallest: the
  2-cycle ``P = [[0, 1], [1, 0]]``, ``r = (1, 0)``: gain 0 for 1/2);
- on a **multichain** (several closed classes with different gains) RVI returns one gain for every
  state and its ``V`` grows like ``k rho`` ("unichain assumption"; smallest: two absorbing states,
  ``P = [[1, 0], [0, 1]]``, ``r = (1, 0)``: gain 0 everywhere for (1, 0));
  49 more are "wrong on transient states": ``V`` stopped before the transient part converged.
- ``solve_rvi_tight`` (``epsilon = 1e-12``, ``max_iter = 10000``): the unconverged failures are gone,
  the 24 periodic and 31 multichain ones stay, with the same smallest counterexamples.

Run: ``python examples/conform_mdptoolbox.py`` (needs ``pip install "exactpte[peers]"``; about 15 s).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np


def _rvi(P: np.ndarray, r: np.ndarray, **options: float) -> dict[str, object]:
    import mdptoolbox.mdp

    with warnings.catch_warnings():  # RVI warns when it stops at max_iter; the verdict says more
        warnings.simplefilter("ignore")
        m = mdptoolbox.mdp.RelativeValueIteration(P[None], np.asarray(r)[:, None], **options)
        m.run()
    return {"average_reward": m.average_reward, "V": m.V}


def solve_rvi(P: np.ndarray, r: np.ndarray) -> dict[str, object]:
    """RelativeValueIteration with its defaults."""
    return _rvi(P, r)


def solve_rvi_tight(P: np.ndarray, r: np.ndarray) -> dict[str, object]:
    """RelativeValueIteration asked for 1e-12 within 10,000 iterations."""
    return _rvi(P, r, epsilon=1e-12, max_iter=10_000)


if __name__ == "__main__":
    from exactpte.cli import main

    statuses = []
    for name in ("solve_rvi", "solve_rvi_tight"):
        print(f"\n=== exactpte conform {__file__}:{name} --corpus exhaustive:3", flush=True)
        statuses.append(main(["conform", f"{__file__}:{name}", "--corpus", "exhaustive:3", "--quiet"]))
    print(f"\nexit statuses: {statuses} (0: all agree, 1: failures)")
    sys.exit(0 if statuses == [1, 1] else 1)
