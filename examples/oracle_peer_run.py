"""The peers run as a tester would, on random reducible periodic chains: every native output judged.

For each of ``--chains`` random chains (:func:`exactpte.testing.random_chains.random_chain`, 15 states,
3 closed classes of periods 1-4, transient states) every installed peer is run and its output, as the
peer gives it (native names, shapes and extra fields), is handed to the oracle:

- QuantEcon ``MarkovChain`` on the dense float matrix, and on a CSR matrix with explicitly stored zeros
  (three absent transitions stored as 0);
- pymdptoolbox ``RelativeValueIteration`` (``V``, ``average_reward``, ``policy``, ``iter``, ``time``);
- discreteMarkovChain ``computePi('power')`` (``pi``);
- Storm (stormpy): ``R{"r"}=? [ C ]`` on the chain made absorbing (total reward) in the default and exact
  engines, and ``R{"r"}=? [ LRA ]`` (default engine);
- PyDTMC and networkx are not installed here: their documented output shapes (state names, sets) are
  simulated from the exact structure, which exercises the reading, not the peers.

Each output is **judged** (a report), **refused** (a named error) or **misjudged**: the verdict
disagrees with a direct check written here (sets compared as sets; numbers within ``ATOL`` of the exact
values; ``V`` up to a per-class constant; ``pi`` a mixture of the classes' stationary distributions).

A disagreement's *cause named* means the report has a ``likely:`` line for a disagreeing key.

Run: ``python examples/oracle_peer_run.py --chains 100``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

import exactpte
from exactpte.model.to_float import float_matrix
from exactpte.errors import ExactpteError
from exactpte.oracle import compare
from exactpte.oracle.references import absorption, total_reward
from exactpte.testing.random_chains import random_chain

ATOL = 1e-6
Tally = dict[str, Counter[str]]


def _floats(xs: Any) -> np.ndarray:
    return np.array([float(x) for x in xs])



def _json(x: Any) -> Any:
    """A peer's output as a tester dumps it (json.dumps with a default for numpy)."""
    return json.loads(json.dumps(x, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o)))


def _record(tally: Tally, peer: str, run: Callable[[], tuple[Any, Any]]) -> None:
    """Judge one output: ``run`` returns the oracle's report (or raises) and the direct check's verdict."""
    tally.setdefault(peer, Counter())
    try:
        report, truth = run()
    except ExactpteError:
        tally[peer]["refused"] += 1
        return
    ok = report.ok
    tally[peer]["judged"] += 1
    tally[peer]["agrees" if ok else "disagrees"] += 1
    if not ok and any(f.diagnosis for f in report.findings if not f.ok):
        tally[peer]["cause named"] += 1
        first = next(f for f in report.findings if not f.ok and f.diagnosis)
        tally[peer]["likely: " + " ".join(first.diagnosis.split(":")[0].split()[:6])] += 1
    if ok != truth:
        tally[peer]["misjudged"] += 1


def _quantecon(chain: exactpte.MarkovRewardProcess, dec: Any, tally: Tally, rng: random.Random) -> None:
    import quantecon as qe
    import scipy.sparse as sp

    exact_sccs = sorted(sorted(c) for c in [*dec.classes, *dec.structure.transient_sccs])
    P = float_matrix(chain)
    rows, cols = np.nonzero(P)
    absent = [(i, j) for i in range(chain.n) for j in range(chain.n) if P[i, j] == 0]
    zeros = rng.sample(absent, 3)
    A = sp.csr_matrix((np.r_[P[rows, cols], np.zeros(3)], (np.r_[rows, [i for i, _ in zeros]], np.r_[cols, [j for _, j in zeros]])),
                      shape=P.shape)
    for peer, matrix in (("QuantEcon (dense)", P), ("QuantEcon (CSR, stored zeros)", A)):
        mc = qe.MarkovChain(matrix)
        out = _json({"communication_classes": mc.communication_classes, "recurrent_classes": mc.recurrent_classes,
                     "period": mc.period, "stationary_distributions": mc.stationary_distributions,
                     "is_irreducible": mc.is_irreducible, "is_aperiodic": mc.is_aperiodic,
                     "num_communication_classes": mc.num_communication_classes,
                     "num_recurrent_classes": mc.num_recurrent_classes})
        right = (sorted(sorted(c) for c in out["communication_classes"]) == exact_sccs
                 and sorted(sorted(c) for c in out["recurrent_classes"]) == sorted(sorted(c) for c in dec.classes)
                 and out["period"] == math.lcm(*dec.periods))
        _record(tally, peer, lambda: (compare(out, dec, atol=ATOL), right and _stationary_right(out, dec)))


def _stationary_right(out: dict[str, Any], dec: Any) -> bool:
    """Each row a mixture of the classes' stationary distributions (the direct check)."""
    for x in np.atleast_2d(np.array(out["stationary_distributions"], dtype=float)):
        mix = np.zeros(dec.n)
        for members, pi in zip(dec.classes, dec.stationary):
            mix[list(members)] = x[list(members)].sum() * _floats(pi)
        if np.max(np.abs(x - mix)) > ATOL or abs(x.sum() - 1) > ATOL or x.min() < -ATOL:
            return False
    return True


def _rvi(chain: exactpte.MarkovRewardProcess, dec: Any, tally: Tally) -> None:
    import mdptoolbox.mdp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = mdptoolbox.mdp.RelativeValueIteration(float_matrix(chain)[None], _floats(chain.r)[:, None], epsilon=1e-10)
        m.run()
    out = _json({"V": m.V, "average_reward": m.average_reward, "policy": m.policy, "iter": m.iter, "time": m.time})
    rho, h = _floats(dec.rho), _floats(dec.h)
    B = np.array([_floats(row) for row in absorption(chain)])
    diff = np.array(out["V"]) - h
    coef, *_ = np.linalg.lstsq(B, diff, rcond=None)
    right = bool(np.max(np.abs(out["average_reward"] - rho)) <= ATOL and np.max(np.abs(B @ coef - diff)) <= 10 * ATOL)
    _record(tally, "pymdptoolbox RVI", lambda: (compare(out, dec, atol=ATOL), right))


def _dmc(chain: exactpte.MarkovRewardProcess, dec: Any, tally: Tally) -> None:
    from discreteMarkovChain import markovChain

    mc = markovChain(float_matrix(chain))
    try:
        mc.computePi("power")
    except Exception:  # the peer refuses (it asserts one communicating class on some chains): no output to judge
        tally.setdefault("discreteMarkovChain (power)", Counter())["no output (timeout or crash)"] += 1
        return
    out = _json({"pi": mc.pi})
    _record(tally, "discreteMarkovChain (power)",
            lambda: (compare(out, dec, atol=ATOL), _stationary_right({"stationary_distributions": out["pi"]}, dec)))


_STORM = r"""
import json, sys, stormpy
path, prop, mode = sys.argv[1:4]
model = stormpy.build_model_from_drn(path)
env = stormpy.Environment()
env.solver().force_exact = mode == "exact"
result = stormpy.model_checking(model, stormpy.parse_properties(prop)[0], only_initial_states=False, environment=env)
print(json.dumps(list(result.get_value_vector())))
"""


def _storm_values(text: str, prop: str, mode: str, timeout: float) -> list[float] | None:
    """Storm's values for ``prop`` on the DRN ``text`` (a subprocess: an engine that hangs is stopped)."""
    import os
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.drn")
        with open(path, "w") as fh:
            fh.write(text)
        try:
            res = subprocess.run([sys.executable, "-c", _STORM, path, prop, mode], capture_output=True, text=True,
                                 timeout=timeout, check=True)
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
            return None
    return [float(v) for v in json.loads(res.stdout)]


def _storm(chain: exactpte.MarkovRewardProcess, dec: Any, tally: Tally, timeout: float = 20.0) -> None:
    from exactpte.io import to_drn

    transient = set(dec.transient)
    edges = [e for s in range(chain.n) for e in ([(s, t, p) for t, p in chain.row(s)] if s in transient else [(s, s, 1)])]
    reward = [x if s in transient else 0 for s, x in enumerate(chain.r)]  # no reward once absorbed: a finite total
    absorbing = exactpte.MarkovRewardProcess.from_edges(chain.n, edges, reward)
    exact_total = _floats(total_reward(absorbing))
    for mode in ("default", "exact"):
        prop = 'R{"r"}=? [ C ]'
        values = _storm_values(to_drn(absorbing), prop, mode, timeout)
        peer = f"Storm total reward ({mode})"
        if values is None:
            tally.setdefault(peer, Counter())["no output (timeout or crash)"] += 1
            continue
        out = _json({prop: values})
        _record(tally, peer, lambda: (compare(out, absorbing, atol=ATOL),
                                      bool(np.max(np.abs(np.array(values) - exact_total)) <= ATOL)))
    prop = 'R{"r"}=? [ LRA ]'
    values = _storm_values(to_drn(chain), prop, "default", timeout)
    if values is None:
        tally.setdefault("Storm LRA (default)", Counter())["no output (timeout or crash)"] += 1
        return
    out = _json({prop: values})
    _record(tally, "Storm LRA (default)", lambda: (compare(out, dec, atol=ATOL),
                                                   bool(np.max(np.abs(np.array(values) - _floats(dec.rho))) <= ATOL)))


def _simulated(chain: exactpte.MarkovRewardProcess, dec: Any, tally: Tally) -> None:
    """PyDTMC's and networkx's documented shapes (state names; sets), simulated from the exact structure."""
    names = list(chain.labels)
    sccs = [sorted(c) for c in [*dec.classes, *dec.structure.transient_sccs]]
    pydtmc = {"states": names, "communicating_classes": [[names[s] for s in c] for c in sccs],
              "recurrent_classes": [[names[s] for s in c] for c in dec.classes],
              "transient_states": [names[s] for s in dec.transient]}
    _record(tally, "PyDTMC (simulated shapes)", lambda: (compare(pydtmc, dec), True))
    nx = {"attracting_components": [set(c) for c in dec.classes], "strongly_connected_components": [set(c) for c in sccs],
          "number_attracting_components": len(dec.classes)}
    _record(tally, "networkx (simulated shapes)", lambda: (compare(nx, dec), True))


def run(chains: int, seed: int = 0) -> Tally:
    """Every installed peer on ``chains`` random chains: per peer, outputs judged, refused, misjudged."""
    tally: Tally = {}
    rng = random.Random(seed)
    peers = [("quantecon", lambda c, d: _quantecon(c, d, tally, rng)), ("mdptoolbox", lambda c, d: _rvi(c, d, tally)),
             ("discreteMarkovChain", lambda c, d: _dmc(c, d, tally)), ("stormpy", lambda c, d: _storm(c, d, tally))]
    for k in range(chains):
        base = random_chain(15, seed=seed + k, n_classes=3)
        chain = exactpte.MarkovRewardProcess.from_edges(base.n, [(s, t, p) for s in range(base.n) for t, p in base.row(s)],
                                                        base.r, labels=[f"s{s}" for s in range(base.n)])
        dec = exactpte.decompose(chain)
        for module, study in peers:
            try:
                __import__(module)
            except ImportError:
                continue
            study(chain, dec)
        _simulated(chain, dec, tally)
    return tally


def main() -> None:
    """Print the tally as a table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--chains", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    tally = run(args.chains, args.seed)
    print(f"| peer ({args.chains} chains) | judged | refused | misjudged | agrees | disagrees (cause named) | no output |")
    print("|---|---|---|---|---|---|---|")
    for peer, c in tally.items():
        print(f"| {peer} | {c['judged']} | {c['refused']} | {c['misjudged']} | {c['agrees']} | {c['disagrees']} ({c['cause named']}) "
              f"| {c['no output (timeout or crash)']} |")
    print("\nthe first named cause of each disagreement, by peer:")
    for peer, c in tally.items():
        for what, count in sorted(c.items()):
            if what.startswith("likely: "):
                print(f"  {peer}: {count} x {what}")


if __name__ == "__main__":
    main()
