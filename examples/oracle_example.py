"""Using exactpte as the test oracle for a float gain/bias solver.

The solver below is a plausible relative value iteration: it iterates
``h <- r + P h - (r + P h)(ref)`` and reads the gain off the reference state.  It assumes
a unichain *aperiodic* chain.  exactpte's oracle accepts it on an aperiodic chain and
catches it on a periodic one, naming the quantity and the states.

    python examples/oracle_example.py
"""

from __future__ import annotations

import numpy as np

import exactpte
from exactpte.model.to_float import float_matrix, to_floats
from exactpte.testing import compare


def relative_value_iteration(P: np.ndarray, r: np.ndarray, iters: int = 2000, ref: int = 0):
    """Gain and bias by relative value iteration (correct only for unichain aperiodic chains)."""
    h = np.zeros(len(r))
    gain = 0.0
    for _ in range(iters):
        Th = r + P @ h
        gain = Th[ref] - h[ref]
        h = Th - Th[ref]
    rho = np.full(len(r), gain)
    h = h - h.mean()  # its own normalization: mean zero
    return rho, h


def run(name: str, chain) -> bool:
    P, r = float_matrix(chain), to_floats(chain.r)
    rho, h = relative_value_iteration(P, r)
    report = compare({"rho": rho, "h": h}, chain, atol=1e-8, up_to_gauge=True)
    print(f"\n== {name}: {'AGREES' if report.ok else 'CAUGHT'}")
    print(report.table())
    return report.ok


def main() -> int:
    aperiodic = exactpte.MarkovRewardProcess([["1/2", "1/2", 0], [0, "1/2", "1/2"], ["1/3", "1/3", "1/3"]], [1, 0, 2])
    ok_aperiodic = run("aperiodic 3-state chain", aperiodic)
    ok_periodic = run("periodic: the branching example (periods 2 and 3)", exactpte.example("branching"))
    return 0 if (ok_aperiodic and not ok_periodic) else 1


if __name__ == "__main__":
    raise SystemExit(main())
