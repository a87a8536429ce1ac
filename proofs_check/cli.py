"""``proofs-check``: every theorem check on a chain, on another tool's result, or on a sweep."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import exactpte
from exactpte.cli import ArgumentParser, nonnegative_int, positive_int, run_guarded
from exactpte.chain import MarkovRewardProcess
from exactpte.errors import ExactpteError

from .checks import CHECKS, run_checks
from .claimed import from_decomposition, load_result
from .registry import Verdict
from .sweep import sweep

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="proofs-check", description="Check the paper's theorems exactly.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)
    c = sub.add_parser("chain", help="every check on one chain file (decomposed by exactpte)")
    c.add_argument("file", help="chain file (.json, .drn, .tra, .csv)")
    c.add_argument("--only", nargs="+", metavar="KEY", help="run only these checks (see 'proofs-check list')")
    c.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    c.add_argument("--max-dense", type=positive_int, default=None,
                   help="largest chain for the dense independent routes (default 1500); larger: those checks are 'not checked'")
    r = sub.add_parser("result", help="judge a decomposition written by any implementation (JSON contract)")
    r.add_argument("result", help="a decomposition in the JSON contract of 'exactpte decompose --json'")
    r.add_argument("--chain", required=True, help="the chain file it claims to decompose")
    r.add_argument("--only", nargs="+", metavar="KEY", help="run only these checks (see 'proofs-check list')")
    r.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    r.add_argument("--max-dense", type=positive_int, default=None,
                   help="largest chain for the dense independent routes (default 1500); larger: those checks are 'not checked'")
    v = sub.add_parser("verify", help="the small trusted checker (proofs_check/verify.py, standard library only): "
                                      "a rational claim in the JSON contract, equation by equation; exit 0 valid, 1 not")
    v.add_argument("claim", help="a decomposition in the JSON contract of 'exactpte decompose --json' (rational)")
    v.add_argument("--chain", required=True, help="the chain file it claims to decompose (.json read by verify.py itself; "
                                                  ".drn, .tra, .csv through exactpte's readers)")
    v.add_argument("--rewards", metavar="FILE", action="append", help="reward file(s) for a .tra/.csv chain")
    v.add_argument("--labels", metavar="FILE", help="PRISM .lab file for a .tra chain")
    v.add_argument("--reward-model", metavar="NAME", help="the reward model of a .drn chain with several")
    v.add_argument("--json", action="store_true", help="print the verdict as JSON")
    v.add_argument("--size-factor", type=positive_int, default=None,
                   help="size budget of the claim's numbers and common denominators, in multiples of the chain's bits "
                        "(default 32: a hostile claim cannot make the checker multiply out huge denominators)")
    s = sub.add_parser("sweep", help="every check on many seeded random chains")
    s.add_argument("--chains", type=positive_int, default=200, help="how many random chains (default: 200)")
    s.add_argument("--seed", type=nonnegative_int, default=0, help="sweep seed; chain i is rebuilt from (seed, i) (default: 0)")
    s.add_argument("--max-states", type=positive_int, default=12, help="largest chain size (default: 12)")
    s.add_argument("--only", nargs="+", metavar="KEY", help="run only these checks (see 'proofs-check list')")
    s.add_argument("--workers", type=positive_int, default=1, help="worker processes (default: 1)")
    s.add_argument("--checks", metavar="FILE", action="append", default=[],
                   help="a Python file registering conjectures (@proofs_check.conjecture); repeatable")
    s.add_argument("--json", metavar="REPORT", help="write the JSON report here")
    s.add_argument("--failures", metavar="DIR", default="sweep-failures",
                   help="where shrunk counterexamples are written, smallest first (default: sweep-failures)")
    s.add_argument("--plot", metavar="FILE", help="draw the coverage histograms (.svg, .png or .pdf; needs matplotlib)")
    s.add_argument("--dask", metavar="ADDRESS", help="run the chains on a Dask scheduler (tcp://host:port); pip install \".[dask]\"")
    s.add_argument("--quiet", action="store_true", help="no progress output")
    lst = sub.add_parser("list", help="the check keys and their statements")
    lst.add_argument("--labels", action="store_true", help="also every label of the paper with its check or the reason it has none")
    return p


def _verdict_table(verdicts: Sequence[Verdict]) -> str:
    w = max(len(v.key) for v in verdicts)
    lines = []
    marks = {"held": "ok", "failed": "FAIL", "not applicable": "n/a", "not claimed": "n/c", "not checked": "skip"}
    for v in verdicts:
        detail = v.detail if v.status in ("failed", "not claimed", "not checked") else ""
        lines.append(f"{v.key.ljust(w)}  {marks[v.status]:4}  {detail}".rstrip())
    count = {status: sum(v.status == status for v in verdicts) for status in marks}
    lines.append(f"{len(verdicts)} checks: {count['held']} held, {count['failed']} failed, "
                 f"{count['not applicable']} not applicable, {count['not claimed']} not claimed, {count['not checked']} not checked")
    return "\n".join(lines)


def _emit(verdicts: Sequence[Verdict], as_json: bool) -> int:
    if as_json:
        print(json.dumps([v.to_dict() for v in verdicts], indent=1))
    else:
        print(_verdict_table(verdicts))
    return 0 if all(v.holds is not False for v in verdicts) else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Exit 0 when everything held, 1 when a check failed, 2 on bad input."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    return run_guarded("proofs-check", lambda: _dispatch(args))


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "list":
        from .labels import COVERAGE
        from .statistical import STATISTICAL

        for key, chk in CHECKS.items():
            print(f"{key}  [{chk.kind}]  {chk.statement}")
        for key, func in STATISTICAL.items():
            print(f"{key}  [statistical]  {(func.__doc__ or '').strip().splitlines()[0]}")
        if args.labels:
            print("\npaper labels (label -> check keys, or why it has none):")
            for c in COVERAGE.values():
                print(f"{c.label}  ->  {', '.join(c.checks) if c.checks else c.reason}")
        return 0
    if args.command == "chain":
        chain = exactpte.load(args.file)
        if chain.field.is_parametric or not isinstance(chain, MarkovRewardProcess):
            raise ExactpteError(f"{args.file} is a parametric chain; the checks run on rational chains: "
                                "check the closed form at points (ParametricChain.at) instead")
        claimed = from_decomposition(exactpte.decompose(chain), with_P_inf=chain.n <= (args.max_dense or 1500))
        return _emit(run_checks(chain, claimed, only=args.only, max_dense=args.max_dense), args.json)
    if args.command == "verify":
        return _verify(args)
    if args.command == "result":
        chain = exactpte.load(args.chain)
        if chain.field.is_parametric or not isinstance(chain, MarkovRewardProcess):
            raise ExactpteError(f"{args.chain} is a parametric chain; judge results of rational chains")
        claimed = load_result(args.result, chain.n)
        return _emit(run_checks(chain, claimed, only=args.only, max_dense=args.max_dense), args.json)
    report = sweep(
        args.chains,
        seed=args.seed,
        max_states=args.max_states,
        only=args.only,
        workers=args.workers,
        failures_dir=args.failures,
        progress=None if args.quiet else sys.stderr,
        conjecture_files=args.checks,
        dask=args.dask,
    )
    print(report.table())
    for f in report.failures[:20]:
        print(f"  chain {f['index']} (n = {f['n']}{', ' + f['file'] if 'file' in f else ''}): " + "; ".join(f"{k}: {d}" for k, d in f["failed"].items()))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report.to_dict(), fh, indent=1)
    if args.plot:
        from exactpte.plotting import plot_coverage, save

        save(plot_coverage(report.histograms), args.plot)
    return 0 if report.failed == 0 else 1


def _verify(args) -> int:
    """``proofs-check verify``: a JSON chain goes to the trusted file's own reader; other formats are read by exactpte
    here, outside the trusted file, and handed over as the plain JSON chain dict."""
    from . import verify as trusted

    try:
        claim = trusted.load_json(args.claim)
        if args.chain.endswith((".json", ".json.gz")) and not (args.rewards or args.labels or args.reward_model):
            chain = trusted.load_json(args.chain, exact_floats=True)
        else:
            m = exactpte.load(args.chain, rewards=args.rewards, labels=args.labels, reward_model=args.reward_model)
            if m.field.is_parametric:
                raise ExactpteError(f"{args.chain} is a parametric chain; verify judges rational claims")
            chain = {"n": m.n, "edges": [[i, j, str(p)] for i, j, p in m.edges()], "r": [str(x) for x in m.r]}
        report = trusted.verify(claim, chain, size_factor=args.size_factor or trusted.SIZE_FACTOR)
    except ExactpteError:
        raise
    except ValueError as e:  # verify.py's unusable input (it raises ValueError only: it imports no exactpte)
        raise ExactpteError(str(e)) from None
    if args.json:
        print(json.dumps({"valid": report.valid, "failure": report.failure and dict(zip(("key", "state", "message"), report.failure)),
                          "results": [{"key": k, "status": st, "detail": d} for k, st, d in report.results]}, indent=1))
    else:
        print(report.text())
    return 0 if report.valid else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
