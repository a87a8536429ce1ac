"""Regenerate ``pydtmc_outputs.json``: PyDTMC's real native outputs on random reducible periodic chains,
and the names of PyDTMC's real API (run by hand; PyDTMC pins numpy < 2, so it runs in its own
environment, named by EXACTPTE_PYDTMC_PYTHON):

    EXACTPTE_PYDTMC_PYTHON=/work/venvs/pydtmc/bin/python python tests/data/pydtmc/make_pydtmc_outputs.py

Each record holds the exact chain (exactpte's chain file) and what a tester dumps from
``pydtmc.MarkovChain(P)`` with ``P`` its float matrix: every property in PyDTMC's own shape
(``None`` kept as ``null``; a property that raises is left out, as a tester cannot dump it), and
``absorption_probabilities()``, ``hitting_times(targets)`` and ``mean_first_passage_times_to(targets)``
with their ``targets`` (the states of the first recurrent class, by PyDTMC's names)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import exactpte
from exactpte.io import chain_to_dict
from exactpte.model.to_float import to_float
from exactpte.testing.random_chains import sweep_chain

HERE = Path(__file__).resolve().parent

SCRIPT = r"""
import json, sys, numpy as np, pydtmc
chains = json.loads(sys.stdin.read())
PROPS = ["states", "absorbing_states", "communicating_classes", "cyclic_classes", "fundamental_matrix", "period",
         "periods", "pi", "stationary_distributions", "recurrent_classes", "recurrent_states", "transient_classes",
         "transient_states", "is_aperiodic", "is_irreducible", "is_absorbing"]

def plain(x):
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return x

out = []
for P in chains:
    mc = pydtmc.MarkovChain(np.array(P, dtype=float))
    d = {}
    for name in PROPS:
        try:
            d[name] = plain(getattr(mc, name))
        except Exception:
            pass
    targets = list(mc.recurrent_classes[0])
    d["targets"] = targets
    for name, call in (("absorption_probabilities", lambda: mc.absorption_probabilities()),
                       ("hitting_times", lambda: mc.hitting_times(targets)),
                       ("mean_first_passage_times_to", lambda: mc.mean_first_passage_times_to(targets))):
        try:
            d[name] = plain(call())
        except Exception:
            pass
    out.append(d)
api = sorted(n for n in dir(pydtmc.MarkovChain) if not n.startswith("_"))
print(json.dumps({"version": pydtmc.__version__, "numpy": np.__version__, "api": api, "outputs": out}))
"""


def main() -> None:
    python = os.environ.get("EXACTPTE_PYDTMC_PYTHON")
    if not python:
        sys.exit("set EXACTPTE_PYDTMC_PYTHON to the python of an environment with pydtmc")
    chains = [sweep_chain(f"pydtmc:{k}", min_states=3, max_states=10) for k in range(60)]
    chains += [exactpte.example(name) for name in ("periodic", "branching", "two-paths")]
    floats = [[[to_float(q) for q in row] for row in c.dense()] for c in chains]
    res = subprocess.run([python, "-c", SCRIPT], input=json.dumps(floats), capture_output=True, text=True, check=True)
    data = json.loads(res.stdout)
    records = [{"chain": {k: v for k, v in chain_to_dict(c).items() if k != "labels"},
                "output": o} for c, o in zip(chains, data.pop("outputs"))]
    data["records"] = records
    (HERE / "pydtmc_outputs.json").write_text(json.dumps(data, indent=0) + "\n")
    print(f"{len(records)} records, PyDTMC {data['version']} (numpy {data['numpy']})")


if __name__ == "__main__":
    main()
