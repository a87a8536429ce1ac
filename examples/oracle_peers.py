"""Case studies: exactpte's oracle against Markov-chain and average-reward code people use.

Each study builds a small chain exactly, runs the peer on its float version, hands the peer's
output to :func:`exactpte.testing.compare` in the peer's own shape (a scalar gain, full-length
stationary vectors, a flat list of cyclic classes) and prints the verdict with its diagnosis.
A peer that is not installed is skipped with a note (``pip install "exactpte[peers]"``).

Run: ``python examples/oracle_peers.py`` (prints one table per study, then a summary).
"""

from __future__ import annotations

import importlib.metadata
import warnings
from collections.abc import Callable

import numpy as np

import exactpte
from exactpte.testing import compare

PERIODIC = exactpte.example("periodic")  # the 2-cycle, r = (1, 0): gain 1/2
MULTICHAIN = exactpte.MarkovRewardProcess([[0, "1/2", "1/2"], [0, 1, 0], [0, 0, 1]], [0, 1, 0])  # gains 1 and 0
LAZY = exactpte.MarkovRewardProcess([["1/2", "1/2", 0], ["1/5", "3/10", "1/2"], ["3/5", 0, "2/5"]], [1, 0, 3])  # 117/97
SLOW = exactpte.MarkovRewardProcess([["999999999999/1000000000000", "1/1000000000000"],
                                     ["2/1000000000000", "499999999999/500000000000"]], [0, 0])  # pi = (2/3, 1/3)


def _version(dist: str) -> str:
    return importlib.metadata.version(dist)


def _rvi(P: list[list[float]], r: list[float]) -> object:
    import mdptoolbox.mdp

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = mdptoolbox.mdp.RelativeValueIteration(np.array([P], dtype=float), np.array(r, dtype=float)[:, None])
        m.run()
    m.caught = [str(w.message) for w in caught]  # type: ignore[attr-defined]
    return m


def pymdptoolbox() -> list[tuple[str, object]]:
    """RelativeValueIteration: min over states of P^k r as 'the' gain, silently at max_iter."""
    out = []
    m = _rvi([[0, 1], [1, 0]], [1, 0])
    out.append((f"2-cycle r = (1, 0): gain {m.average_reward} after {m.iter} iterations, warnings {m.caught}",
                compare({"rho": m.average_reward}, PERIODIC)))
    m = _rvi([[0.5, 0.5, 0], [0.2, 0.3, 0.5], [0.6, 0, 0.4]], [1, 0, 3])
    out.append((f"aperiodic unichain, default epsilon: gain {m.average_reward:.7g} after {m.iter} iterations",
                compare({"rho": m.average_reward}, LAZY)))
    m = _rvi([[0, 0.5, 0.5], [0, 1, 0], [0, 0, 1]], [0, 1, 0])
    out.append((f"multichain: gain {m.average_reward}, V = {[round(float(v), 3) for v in m.V]}",
                compare({"rho": m.average_reward, "h": np.array(m.V)}, MULTICHAIN, up_to_gauge=True)))
    return out


def taxi() -> list[tuple[str, object]]:
    """gymnasium's Taxi under the greedy policy of a discounted value iteration (gamma = 0.99), the
    episode continuing after a drop-off; the policy's chain through pymdptoolbox's RVI."""
    import gymnasium
    import mdptoolbox.mdp

    env = gymnasium.make("Taxi-v4").unwrapped
    nS, nA = int(env.observation_space.n), int(env.action_space.n)
    P, R = np.zeros((nA, nS, nS)), np.zeros((nS, nA))
    for s in range(nS):
        for a in range(nA):
            for p, t, reward, _done in env.P[s][a]:
                P[a, s, t] += p
                R[s, a] += p * reward
    V = np.zeros(nS)
    for _ in range(3000):
        Q = R + 0.99 * np.einsum("ast,t->sa", P, V)
        V = Q.max(axis=1)
    pi = Q.argmax(axis=1)
    Ppi, rpi = P[pi, np.arange(nS)], R[np.arange(nS), pi]
    edges = [(s, int(t), 1) for s in range(nS) for t in np.flatnonzero(Ppi[s])]  # Taxi is deterministic
    chain = exactpte.MarkovRewardProcess.from_edges(nS, edges, [int(x) for x in rpi])
    dec = exactpte.decompose(chain)
    m = mdptoolbox.mdp.RelativeValueIteration(Ppi[None], rpi[:, None])
    m.run()
    what = (f"Taxi-v4, greedy policy: {len(dec.classes)} closed classes, periods {sorted(set(dec.periods))}, "
            f"gains {sorted(set(str(g) for g in dec.class_gain))}; RVI gain {m.average_reward} after {m.iter} iterations")
    return [(what, compare({"rho": m.average_reward}, dec))]


def hiive() -> list[tuple[str, object]]:
    """mdptoolbox-hiive's RelativeValueIteration on its own docstring example."""
    import hiive.mdptoolbox.example
    import hiive.mdptoolbox.mdp

    P, R = hiive.mdptoolbox.example.forest()
    try:
        m = hiive.mdptoolbox.mdp.RelativeValueIteration(P, R)
        m.run()
        return [(f"forest(): gain {m.average_reward}", None)]
    except Exception as e:  # the finding: it crashes
        return [(f"forest() (its docstring example) crashes: {type(e).__name__}: {e}", None)]


def quantecon() -> list[tuple[str, object]]:
    """MarkovChain on a CSR matrix with an explicitly stored zero (2 -> 0)."""
    import quantecon as qe
    import scipy.sparse as sp

    rows, cols = [0, 0, 1, 1, 2, 2, 2, 3, 3], [0, 1, 0, 1, 0, 2, 3, 2, 3]
    vals = [0.5, 0.5, 0.5, 0.5, 0.0, 0.5, 0.5, 0.5, 0.5]
    A = sp.csr_matrix((vals, (rows, cols)), shape=(4, 4))
    chain = exactpte.MarkovRewardProcess([["1/2", "1/2", 0, 0], ["1/2", "1/2", 0, 0], [0, 0, "1/2", "1/2"],
                                          [0, 0, "1/2", "1/2"]], [0, 0, 0, 0])
    mc = qe.MarkovChain(A)
    cand = {"classes": [[int(s) for s in c] for c in mc.recurrent_classes],
            "stationary_distributions": np.asarray(mc.stationary_distributions)}
    return [(f"CSR with a stored 0 at (2, 0): recurrent classes {cand['classes']}", compare(cand, chain))]


def discrete_markov_chain() -> list[tuple[str, object]]:
    """computePi: the power method on a 1e-12 exchange; eigen/linear on a multichain; krylov."""
    from discreteMarkovChain import markovChain

    out: list[tuple[str, object]] = []
    P = np.array([[1 - 1e-12, 1e-12], [2e-12, 1 - 2e-12]])
    Pm = np.array([[0, 0.5, 0.5], [0, 1, 0], [0, 0, 1.0]])
    for method, M, chain in (("power", P, SLOW), ("krylov", P, SLOW), ("eigen", Pm, MULTICHAIN), ("linear", Pm, MULTICHAIN)):
        mc = markovChain(M)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                mc.computePi(method)
            except Exception as e:
                out.append((f"{method}: crashes: {type(e).__name__}: {str(e)[:60]}", None))
                continue
        out.append((f"{method} on {'the 1e-12 exchange' if chain is SLOW else 'a multichain'}: pi = {[float('%.4g' % p) for p in mc.pi]}",
                    compare({"stationary": mc.pi}, chain, atol=1e-9)))
    return out


# found among 180 random reducible chains (see docs/oracle.md): a closed 3-cycle {6, 8, 11}, transient
# cycles {5, 7, 14} (period 3) and {4, 9} (period 2)
EDGES15 = [(0, 2, 1.0), (1, 8, 0.5), (1, 13, 0.5), (2, 0, 1.0), (3, 3, 0.5), (3, 6, 0.5), (4, 9, 1.0), (5, 7, 1.0),
           (6, 11, 1.0), (7, 14, 1.0), (8, 6, 1.0), (9, 4, 0.5), (9, 13, 0.5), (10, 0, 0.5), (10, 4, 0.5), (11, 8, 1.0),
           (12, 0, 0.5), (12, 9, 0.5), (13, 0, 0.5), (13, 13, 0.5), (14, 0, 0.5), (14, 5, 0.5)]

_PYDTMC_SCRIPT = r"""
import json, numpy as np, pydtmc
EDGES = %r
out = {"version": pydtmc.__version__}
mc = pydtmc.MarkovChain(np.array([[0, .5, 0, .5], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1.]]), list("0123"))
try:
    out["period"] = int(mc.period)
except Exception as e:
    out["period"] = f"{type(e).__name__}: {e}"
out["communicating_classes"] = [[int(s) for s in c] for c in mc.communicating_classes]
out["periods"] = [int(d) for d in mc.periods]
P = np.zeros((15, 15))
for i, j, p in EDGES:
    P[i, j] = p
mc = pydtmc.MarkovChain(P, [str(i) for i in range(15)])
out["cc15"] = [[int(s) for s in c] for c in mc.communicating_classes]
out["periods15"] = [int(d) for d in mc.periods]
leak = 1e-6
mc = pydtmc.MarkovChain(np.array([[0, .5, .5, 0], [0, 1 - leak, 0, leak], [0, 0, 1, 0], [0, 0, 0, 1.]]), list("0123"))
out["absorbing_states"] = [int(s) for s in mc.absorbing_states]
out["absorption"] = np.asarray(mc.absorption_probabilities()).tolist()
print(json.dumps(out))
"""


def pydtmc() -> list[tuple[str, object]]:
    """PyDTMC (pins numpy < 2: run in its own environment, named by EXACTPTE_PYDTMC_PYTHON)."""
    import json
    import os
    import subprocess

    python = os.environ.get("EXACTPTE_PYDTMC_PYTHON")
    if not python:
        raise ImportError("set EXACTPTE_PYDTMC_PYTHON to the python of an environment with pydtmc (it pins numpy < 2)")
    script = _PYDTMC_SCRIPT % (EDGES15,)
    res = json.loads(subprocess.run([python, "-c", script], capture_output=True, text=True, check=True).stdout)
    reducible = exactpte.MarkovRewardProcess([[0, "1/2", 0, "1/2"], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], [0, 0, 0, 0])
    leaky = exactpte.MarkovRewardProcess([[0, "1/2", "1/2", 0], [0, "999999/1000000", 0, "1/1000000"], [0, 0, 1, 0],
                                          [0, 0, 0, 1]], [0, 0, 0, 0])
    absorbing = [[s] for s in res["absorbing_states"]]
    return [
        (f"PyDTMC {res['version']}: period of a reducible chain with a 2-cycle: {res['period']}", None),
        ("periods of every communicating class", compare(
            {"communicating_classes": res["communicating_classes"], "periods": res["periods"]}, reducible)),
        ("15 states: periods of every communicating class", compare(
            {"communicating_classes": res["cc15"], "periods": res["periods15"]},
            exactpte.MarkovRewardProcess.from_edges(15, [(i, j, "1/2" if p == 0.5 else 1) for i, j, p in EDGES15], [0] * 15))),
        (f"1e-6 leak: absorbing states {res['absorbing_states']}, absorption probabilities {res['absorption']}",
         compare({"classes": absorbing, "absorption": np.array(res["absorption"]).T}, leaky)),
    ]


_STORM_SCRIPT = r"""
import json, sys, os, tempfile, stormpy
from exactpte.io import to_drn
import exactpte
chain = exactpte.MarkovRewardProcess([[0, 1], [1, 0]], [int(x) for x in sys.argv[1].split(",")])
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "m.drn")
    open(path, "w").write(to_drn(chain))
    model = stormpy.build_model_from_drn(path)
    env = stormpy.Environment()
    env.solver().force_soundness = True
    prop = stormpy.parse_properties('R{"r"}=? [ LRA ]')[0]
    print(json.dumps(list(stormpy.model_checking(model, prop, only_initial_states=False, environment=env).get_value_vector())))
"""


def storm(timeout: float = 20.0) -> list[tuple[str, object]]:
    """Storm's float engine in sound mode: long-run average reward with a negative reward."""
    import json
    import subprocess
    import sys

    import stormpy  # noqa: F401 (the study needs it; it runs in a subprocess to be stopped)

    out: list[tuple[str, object]] = []
    for r, shift in (("-1,0", 0), ("2,3", 3)):
        try:
            res = subprocess.run([sys.executable, "-c", _STORM_SCRIPT, r], capture_output=True, text=True, timeout=timeout,
                                 check=True)
        except subprocess.TimeoutExpired:
            out.append((f"2-cycle r = ({r}), sound mode: no answer within {timeout:g} s", None))
            continue
        values = [v - shift for v in json.loads(res.stdout)]
        chain = exactpte.MarkovRewardProcess([[0, 1], [1, 0]], [-1, 0])
        out.append((f"2-cycle r = ({r}), sound mode, minus {shift}: {values}", compare({"rho": values}, chain)))
    return out


STUDIES: dict[str, tuple[str, Callable[[], list[tuple[str, object]]]]] = {  # name: (distribution, study)
    "pymdptoolbox": ("pymdptoolbox", pymdptoolbox),
    "gymnasium Taxi + pymdptoolbox": ("gymnasium", taxi),
    "mdptoolbox-hiive": ("mdptoolbox-hiive", hiive),
    "quantecon": ("quantecon", quantecon),
    "discreteMarkovChain": ("discreteMarkovChain", discrete_markov_chain),
    "PyDTMC": ("", pydtmc),
    "stormpy (sound mode)": ("stormpy", storm),  # its version is reported from its own environment
}


def main() -> int:
    """Run every study whose peer is installed; return the number of disagreements caught."""
    caught = 0
    for name, (dist, study) in STUDIES.items():
        try:
            version = _version(dist) if dist else "(version below)"
            results = study()
        except ImportError as e:
            print(f"== {name}: skipped ({e})\n")
            continue
        print(f"== {name} {version}")
        for what, report in results:
            print(f"-- {what}")
            if report is not None:
                print(report)
                caught += not report.ok
        print()
    print(f"{caught} disagreements caught")
    return caught


if __name__ == "__main__":
    main()
