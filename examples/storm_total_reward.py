"""Case study: Storm's expected total reward with negative rewards on a transient cycle.

The chain: state 0 goes to 1 or to the absorbing state 2 with probability 1/2 each, state 1 returns
to 0; rewards (-1, -1, 0).  The expected total reward before absorption solves ``(I - Q) x = r`` on
the transient states {0, 1}: ``x = (-3, -4)`` exactly.  Storm (stormpy) is asked ``R{"r"}=? [ C ]``
in three environments: the default float engine, sound mode (``force_soundness``) and the exact
engine (``force_exact``); each answer, dumped as Storm gives it (``get_values()`` keyed by the
property: Storm's ``get_value_vector()``), is judged by the oracle, which names the cause of the wrong ones.

Run: ``python examples/storm_total_reward.py`` (needs stormpy: ``pip install "exactpte[peers]"``).
"""

from __future__ import annotations

import os
import tempfile

import exactpte
from exactpte.io import to_drn
from exactpte.oracle import Report, compare

PROPERTY = 'R{"r"}=? [ C ]'
CHAIN = exactpte.MarkovRewardProcess([[0, "1/2", "1/2"], [1, 0, 0], [0, 0, 1]], [-1, -1, 0])


def storm_values(mode: str) -> list[float]:
    """Storm's total reward per state in ``mode``: ``default``, ``sound`` or ``exact``."""
    import stormpy

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cycle.drn")
        with open(path, "w") as fh:
            fh.write(to_drn(CHAIN))
        model = stormpy.build_model_from_drn(path)
    env = stormpy.Environment()
    if mode == "sound":
        env.solver().force_soundness = True
    elif mode == "exact":
        env.solver().force_exact = True
    prop = stormpy.parse_properties(PROPERTY)[0]
    result = stormpy.model_checking(model, prop, only_initial_states=False, environment=env)
    return [float(v) for v in result.get_value_vector()]


def study() -> list[tuple[str, list[float], Report]]:
    """Each engine's answer and the oracle's report on it (the candidate as Storm gives it)."""
    out = []
    for mode in ("default", "sound", "exact"):
        values = storm_values(mode)
        out.append((mode, values, compare({PROPERTY: values}, CHAIN, atol=1e-6)))
    return out


def main() -> None:
    """Print the exact answer and each engine's verdict."""
    from exactpte.oracle.references import total_reward

    print(f"exact total reward: {[str(x) for x in total_reward(CHAIN)]}")
    for mode, values, report in study():
        print(f"\n== Storm {mode} engine: {PROPERTY} = {values}")
        print(report)


if __name__ == "__main__":
    main()
