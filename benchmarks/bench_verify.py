"""The trusted checker's cost beside the decomposition's (run by hand: ``python benchmarks/bench_verify.py``).

For each chain: the decomposition (``exactpte.decompose`` and every quantity of the JSON contract but ``P_inf``,
then the JSON text), and the verification of that claim by ``proofs_check/trusted/verify.py`` (parsing the claim's JSON
text, then ``verify``).  Chains: the random benchmark family of ``bench_exact.py`` (30 % transient states, most in
one strongly connected block) and Storm's example DTMCs in ``benchmarks/data``.  Each chain runs in a fresh
process; times are the best of ``--repeats`` runs (default 1; the models' claims are large), in CPU seconds of that
process (``time.process_time``: on a shared machine the wall time measures the other users too; the load average is
printed beside the table).  ``--result`` also times ``proofs-check result`` (every check of ``proofs_check.checks``)
where the chain has at most ``--result-max`` states (default 700).

    python benchmarks/bench_verify.py                       # sizes 300 1000 3000 and every model
    python benchmarks/bench_verify.py --sizes 1000 --models brp-64-4 crowds-5-5
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def load(spec: str):
    from exactpte.io import load as load_file
    from exactpte.testing.random_chains import random_chain

    if spec.startswith("random-"):
        return random_chain(int(spec.split("-")[1]), seed=0, transient_target_percent=85)
    with open(os.path.join(DATA, "models.json")) as fh:
        m = json.load(fh)[spec]
    return load_file(os.path.join(DATA, m["file"]), reward_model=m["reward"] or None)


def one(spec: str, repeats: int, result_max: int) -> dict:
    import exactpte
    from proofs_check.trusted import verify as trusted

    exactpte.decompose(exactpte.example("paper-benchmark")).to_json()  # imports and first calls out of the clock
    t_dec = t_ver = t_parse = float("inf")
    clock = time.process_time
    for _ in range(repeats):
        chain = load(spec)
        t0 = clock()
        text = exactpte.decompose(chain).to_json(include_P_inf=False)
        t_dec = min(t_dec, clock() - t0)
        chain_dict = {"n": chain.n, "edges": [[i, j, str(p)] for i, j, p in chain.edges()], "r": [str(x) for x in chain.r]}
        t0 = clock()
        claim = json.loads(text)
        t1 = clock()
        report = trusted.verify(claim, chain_dict)
        t2 = clock()
        assert report.valid, report.text()
        t_parse, t_ver = min(t_parse, t1 - t0), min(t_ver, t2 - t1)
    S = chain.structure
    out = {"n": chain.n, "T": len(S.transient), "N": sum(S.periods), "mb": len(text) / 1e6, "dec": t_dec,
           "parse": t_parse, "verify": t_ver, "result": None}
    if chain.n <= result_max:
        from proofs_check.checks import run_checks
        from proofs_check.judging.readers import from_json_dict

        t0 = clock()
        verdicts = run_checks(chain, from_json_dict(json.loads(text), chain.n))
        out["result"] = clock() - t0
        assert all(v.holds is not False for v in verdicts)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[300, 1000, 3000])
    ap.add_argument("--models", nargs="*", default=None, help="names from benchmarks/data/models.json (default: all but crowds-6-5)")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--result", action="store_true", help="also time 'proofs-check result' (chains up to --result-max states)")
    ap.add_argument("--result-max", type=int, default=700)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.repeats, args.result_max if args.result else 0)))
        return
    with open(os.path.join(DATA, "models.json")) as fh:
        models = args.models if args.models is not None else [m for m in json.load(fh) if m != "crowds-6-5"]
    specs = [f"random-{n}" for n in args.sizes] + models
    print(f"CPU seconds (load average {os.getloadavg()[0]:.1f} at the start)")
    print("| chain | n | transient | N | claim (MB) | decomposition (s) | parse claim (s) | verify (s) | verify / decomposition |"
          + (" proofs-check result (s) |" if args.result else ""))
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if args.result else ""), flush=True)
    for spec in specs:
        cmd = [sys.executable, __file__, "--one", spec, "--repeats", str(args.repeats), "--result-max", str(args.result_max)]
        cmd += ["--result"] if args.result else []
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode:
            print(f"| {spec} | failed: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else run.returncode} |", flush=True)
            continue
        r = json.loads(run.stdout)
        res = "" if not args.result else (f" {r['result']:.2f} |" if r["result"] is not None else " - |")
        print(f"| {spec} | {r['n']:,} | {r['T']:,} | {r['N']:,} | {r['mb']:.1f} | {r['dec']:.2f} | {r['parse']:.2f} | "
              f"{r['verify']:.2f} | {r['verify'] / r['dec']:.2f} |" + res, flush=True)


if __name__ == "__main__":
    main()
