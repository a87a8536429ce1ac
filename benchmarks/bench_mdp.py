"""Exact MDP solving at scale, beside Storm's exact long-run average in the same run (by hand:
``python benchmarks/bench_mdp.py``).

Random multichain MDPs with 4 actions a state (:func:`random_mdp`, seeded): the states split into ``blocks``
that every action of a block's state stays in (so each block is its own end component and the optimal
gain differs between blocks: multichain), plus 10% transient states whose actions go anywhere; each action
has 2-6 successors with probabilities ``w / D``, ``D <= 20``; rewards are integers 0..10.  Two families:

- ``large``: one block holds about 80% of the recurrent states, three small blocks the rest (a large end
  component beside small ones: the case where Storm's exact engine is slow);
- ``small``: one block per 10 states (many small end components).

Each row is two whole processes, as a user pays them:

- **exactpte**: ``exactpte mdp F.json --json`` (start-up, reading the JSON MDP file, policy iteration to
  bias optimality, the optimal action sets, the equations checked, writing the answer); ``F.json`` in the
  per-state ``Q`` form (``[[s', p], ...]`` pairs; also pymdptoolbox's dense ``P``/``R`` layout up to 1,000
  states: its ``A x S x S`` zeros are what that format costs to read);
- **Storm**: a Python process that imports stormpy, parses the same MDP as DRN (``@type: MDP``, exact
  rationals), builds it and checks ``R{"r"}max=? [ LRA ]`` in exact mode (``force_exact``), with a time cap
  (``--storm-cap``; sizes past the cap are skipped once one times out).

Both answers must agree: Storm's per-state values equal exactpte's ``gain`` exactly (checked on every row).
Wall-clock and CPU seconds of each process are reported (``resource.getrusage(RUSAGE_CHILDREN)``): the machine
is shared, so the load average is printed beside each row and the CPU figures are the ones that compare.

    python benchmarks/bench_mdp.py                                  # sizes 20 50 100 300 1000 3000, both families
    python benchmarks/bench_mdp.py --sizes 50 1000 --family large --storm-cap 300
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

STORM_SCRIPT = r"""
import json, sys, time
import stormpy
path = sys.argv[1]
env = stormpy.Environment()
env.solver().force_exact = True
model = stormpy.build_model_from_drn[stormpy.Rational](path)
prop = stormpy.parse_properties('R{"r"}max=? [ LRA ]')[0]
res = stormpy.model_checking(model, prop, only_initial_states=False, environment=env)
print(json.dumps([str(v) for v in res.get_value_vector()]))
"""


def random_mdp(S: int, *, seed: int, weights: list[float], actions: int = 4, transient: float = 0.1,
               successors: tuple[int, int] = (2, 6), max_denominator: int = 20) -> tuple[list[list[list[tuple[int, int, int]]]], list[list[int]]]:
    """``(rows, rewards)``: ``rows[s][a]`` a list of ``(s', numerator, D)``, ``rewards[s][a]`` an integer (module
    docstring); a recurrent state falls in block ``b`` with probability ``weights[b]``."""
    rng = random.Random(seed)
    n_transient = int(S * transient)
    block = [-1] * n_transient + rng.choices(range(len(weights)), weights=weights, k=S - n_transient)
    members = {b: [s for s in range(S) if block[s] == b] for b in set(block) if b >= 0}
    rows, rewards = [], []
    for s in range(S):
        pool = list(range(S)) if block[s] < 0 else members[block[s]]
        acts = []
        for _ in range(actions):
            k = min(rng.randint(*successors), len(pool))
            succ = sorted(rng.sample(pool, k))
            D = rng.randint(k, max(k, max_denominator))
            w = [1] * k
            for _ in range(D - k):
                w[rng.randrange(k)] += 1
            acts.append([(j, x, D) for j, x in zip(succ, w)])
        rows.append(acts)
        rewards.append([rng.randint(0, 10) for _ in range(actions)])
    return rows, rewards


def _fraction(x: int, D: int) -> str:
    from math import gcd

    g = gcd(x, D)
    return str(x // g) if D // g == 1 else f"{x // g}/{D // g}"


def write_files(rows, rewards, folder: str, dense: bool) -> dict[str, str]:
    """The MDP as a per-state JSON file, a pymdptoolbox-layout JSON file (``dense``) and a DRN file."""
    S = len(rows)
    paths = {"json": os.path.join(folder, "q.json"), "drn": os.path.join(folder, "m.drn")}
    Q = [[[[j, _fraction(x, D)] for j, x, D in act] for act in acts] for acts in rows]
    with open(paths["json"], "w") as fh:
        json.dump({"Q": Q, "R": rewards}, fh)
    if dense:
        paths["dense"] = os.path.join(folder, "p.json")
        A = len(rows[0])
        P = [[[0] * S for _ in range(S)] for _ in range(A)]
        for s in range(S):
            for a, act in enumerate(rows[s]):
                for j, x, D in act:
                    P[a][s][j] = _fraction(x, D)
        with open(paths["dense"], "w") as fh:
            json.dump({"P": P, "R": rewards}, fh)
    lines = ["@type: MDP", "@parameters", "", "@reward_models", "r", "@nr_states", str(S),
             "@nr_choices", str(sum(len(a) for a in rows)), "@model"]
    for s in range(S):
        lines.append(f"state {s}" + (" init" if s == 0 else ""))
        for a, act in enumerate(rows[s]):
            lines.append(f"\taction {a} [{rewards[s][a]}]")
            lines.extend(f"\t\t{j} : {_fraction(x, D)}" for j, x, D in act)
    with open(paths["drn"], "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return paths


def run(argv: list[str], timeout: float | None) -> tuple[str | None, float, float]:
    """``(stdout or None on timeout, wall seconds, CPU seconds)`` of a whole child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=True).stdout
    except subprocess.TimeoutExpired:
        out = None
    except subprocess.CalledProcessError as e:
        raise RuntimeError(e.stderr[-2000:]) from None
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def exactpte_cmd(path: str) -> list[str]:
    return [sys.executable, "-m", "exactpte", "mdp", path, "--json"]


def row(S: int, family: str, seed: int, storm_cap: float, storm_on: bool) -> dict:
    weights = [0.8, 0.2 / 3, 0.2 / 3, 0.2 / 3] if family == "large" else [1.0] * max(1, S // 10)
    rows, rewards = random_mdp(S, seed=seed, weights=weights)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        paths = write_files(rows, rewards, folder, dense=S <= 1000)
        out, wall, cpu = run(exactpte_cmd(paths["json"]), None)
        answer = json.loads(out or "{}")
        result = {"S": S, "family": family, "load": load, "wall": wall, "cpu": cpu,
                  "distinct_gains": len(set(answer["gain"]))}
        if "dense" in paths:
            out_d, result["dense_wall"], result["dense_cpu"] = run(exactpte_cmd(paths["dense"]), None)
            assert json.loads(out_d or "{}") == answer, "the two file forms gave different answers"
        if storm_on:
            out_s, result["storm_wall"], result["storm_cpu"] = run([sys.executable, "-c", STORM_SCRIPT, paths["drn"]], storm_cap)
            if out_s is None:
                result["storm_wall"] = None
            else:
                storm = json.loads(out_s.strip().splitlines()[-1])
                from fractions import Fraction

                assert [Fraction(x) for x in storm] == [Fraction(x) for x in answer["gain"]], "Storm and exactpte disagree"
                result["agree"] = True
    return result


def have_stormpy() -> bool:
    try:
        import stormpy  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100, 300, 1000, 3000])
    p.add_argument("--family", choices=("large", "small", "both"), default="both")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--storm-cap", type=float, default=300.0, help="seconds Storm may take on one size (default 300)")
    args = p.parse_args()
    storm = have_stormpy()
    families = ("large", "small") if args.family == "both" else (args.family,)
    print(f"{'family':7} {'S':>5} {'load':>5} {'exactpte wall':>13} {'cpu':>7} {'dense-P json':>12} {'Storm wall':>10} "
          f"{'cpu':>8} {'CPU ratio':>9}  distinct gains", flush=True)
    for family in families:
        storm_on = storm
        for S in args.sizes:
            r = row(S, family, args.seed, args.storm_cap, storm_on)
            dense = f"{r['dense_wall']:12.2f}" if "dense_wall" in r else f"{'-':>12}"
            if not storm_on:
                sw, sc, ratio = "-", "-", "-"
            elif r.get("storm_wall") is None:  # timed out: only a bound on its wall clock, against ours
                sw, sc, ratio = f">{args.storm_cap:.0f}", "-", f">{args.storm_cap / r['wall']:.0f}x wall"
                storm_on = False  # larger sizes would time out too
            else:
                sw, sc, ratio = f"{r['storm_wall']:10.2f}", f"{r['storm_cpu']:8.2f}", f"{r['storm_cpu'] / r['cpu']:8.1f}x"
            print(f"{family:7} {S:5d} {r['load']:5.1f} {r['wall']:13.2f} {r['cpu']:7.2f} {dense} {sw:>10} {sc:>8} {ratio:>9}  "
                  f"{r['distinct_gains']}", flush=True)


if __name__ == "__main__":
    main()
