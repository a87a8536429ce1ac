"""gymnasium's FrozenLake, Taxi and CliffWalking, imported exactly, as oracles for a float solver.

A greedy policy from (float) value iteration, the episodes restarted at the initial-state
distribution (``on_done="reset"``, so the gain is the reward per step of repeated episodes),
each chain built exactly by :func:`exactpte.io.gym.from_gym`: gymnasium's rounded ``1/3`` and
``1/300`` come back exactly (``limit_denominator=10**6``, stated in ``notes``).  A relative
value iteration is then checked against the exact gain and bias.  CliffWalking's greedy path
makes the restarted chain periodic (period 13), which relative value iteration assumes away;
it still agrees there because the reward is -1 at every step of the cycle (the periodic part
of the bias vanishes): the oracle tells which assumptions a solver's success rests on.

    pip install ".[gym]"; python examples/gymnasium_oracle.py
"""

from __future__ import annotations

import numpy as np

import exactpte
from exactpte.model.to_float import float_matrix, to_floats
from exactpte.io.gym import from_gym
from exactpte.testing import compare


def greedy_policy(P: dict, gamma: float = 0.95, sweeps: int = 3000) -> np.ndarray:
    """The greedy policy of discounted value iteration on gymnasium's float table."""
    n, A = len(P), len(P[0])
    V = np.zeros(n)
    for _ in range(sweeps):
        Q = np.array([[sum(p * (r + gamma * V[s2] * (not d)) for p, s2, r, d in P[s][a]) for a in range(A)] for s in range(n)])
        if np.max(np.abs(Q.max(1) - V)) < 1e-12:
            break
        V = Q.max(1)
    return Q.argmax(1)


def relative_value_iteration(P: np.ndarray, r: np.ndarray, iters: int = 5000, ref: int = 0):
    """Gain and bias by relative value iteration (correct only for unichain aperiodic chains)."""
    h = np.zeros(len(r))
    gain = 0.0
    for _ in range(iters):
        Th = r + P @ h
        gain = Th[ref] - h[ref]
        h = Th - Th[ref]
    return np.full(len(r), gain), h


def run(name: str, **kwargs) -> bool:
    import gymnasium as gym

    env = gym.make(name, **kwargs)
    chain = from_gym(env, greedy_policy(env.unwrapped.P), on_done="reset")
    print(f"\n== {name}: n = {chain.n}, periods {chain.structure.periods}, exact gain {exactpte.gain(chain)[chain.structure.classes[0][0]]}")
    print("   " + "\n   ".join(chain.notes))
    rho, h = relative_value_iteration(float_matrix(chain), to_floats(chain.r))
    report = compare({"rho": rho, "h": h}, chain, atol=1e-8, up_to_gauge=True)
    print(f"   relative value iteration: {'AGREES' if report.ok else 'CAUGHT'}")
    if not report.ok:
        print(report.table())
    return report.ok


def main() -> int:
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        print("this example needs gymnasium: pip install \".[gym]\" (exactpte.io.gym itself also reads a P table "
              "in gymnasium's format without it)")
        return 0
    results = [run("FrozenLake-v1"), run("FrozenLake-v1", map_name="8x8"), run("Taxi-v3" if _has("Taxi-v3") else "Taxi-v4"),
               run("CliffWalking-v1")]
    return 0 if all(results) else 1


def _has(name: str) -> bool:
    import gymnasium as gym

    return name in gym.registry


if __name__ == "__main__":
    raise SystemExit(main())
