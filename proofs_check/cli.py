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
    c.add_argument("--statistical", action="store_true",
                   help="also run the statistical checks of the sample-based estimator (see 'proofs-check statistical')")
    c.add_argument("--runs", type=positive_int, default=None, help="with --statistical: repetitions per statistical check")
    r = sub.add_parser("result", help="judge a decomposition written by any implementation (JSON contract)")
    r.add_argument("result", help="a decomposition in the JSON contract of 'exactpte decompose --json'")
    r.add_argument("--chain", required=True, help="the chain file it claims to decompose")
    r.add_argument("--only", nargs="+", metavar="KEY", help="run only these checks (see 'proofs-check list')")
    r.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    r.add_argument("--max-dense", type=positive_int, default=None,
                   help="largest chain for the dense independent routes (default 1500); larger: those checks are 'not checked'")
    s = sub.add_parser("sweep", help="every check on many seeded random chains")
    s.add_argument("--chains", type=positive_int, default=200, help="how many random chains (default: 200)")
    s.add_argument("--seed", type=nonnegative_int, default=0, help="sweep seed; chain i is rebuilt from (seed, i) (default: 0)")
    s.add_argument("--max-states", type=positive_int, default=12, help="largest chain size (default: 12)")
    s.add_argument("--min-states", type=positive_int, default=1, help="smallest chain size (default: 1)")
    s.add_argument("--certified", action="store_true",
                   help="also run certified:enclosures (exactpte's own certified float cross-check; off by default: "
                        "the sweep tests the theorems)")
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
    st = sub.add_parser("statistical", help="the estimator's statistical checks on one chain (exact references from proofs_check's routes)")
    st.add_argument("file", nargs="?", help="chain file (.json, .drn, .tra, .csv); or --example")
    st.add_argument("--example", metavar="NAME", help="a built-in example chain (e.g. paper-benchmark)")
    st.add_argument("--runs", type=positive_int, default=None, help="independent repetitions per check (default: each check's own)")
    st.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the repetitions (default: 0)")
    st.add_argument("--alpha", type=float, default=0.01, help="level of each check, Holm-corrected within it (default: 0.01)")
    st.add_argument("--only", nargs="+", metavar="KEY", help="run only these statistical checks")
    st.add_argument("--json", action="store_true", help="print the verdicts as JSON")
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
        verdicts = run_checks(chain, claimed, only=args.only, max_dense=args.max_dense)
        if args.statistical:
            from .statistical import run_statistical

            verdicts += run_statistical(chain, runs=args.runs)
        return _emit(verdicts, args.json)
    if args.command == "statistical":
        return _statistical(args)
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
        min_states=args.min_states,
        certified=args.certified,
        only=args.only,
        workers=args.workers,
        failures_dir=args.failures,
        progress=None if args.quiet else sys.stderr,
        conjecture_files=args.checks,
        dask=args.dask,
    )
    print(report.table())
    for line in report.failure_lines(20):
        print(line)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report.to_dict(), fh, indent=1)
    if args.plot:
        from exactpte.plotting import plot_coverage, save

        from .sweep import HISTOGRAM_NAMES

        save(plot_coverage(report.histograms, titles=HISTOGRAM_NAMES), args.plot)
    return 0 if report.failed == 0 else 1


def _statistical(args: argparse.Namespace) -> int:
    from .statistical import run_statistical

    if (args.file is None) == (args.example is None):
        raise ExactpteError("give a chain file or --example NAME (one of them)")
    chain = exactpte.example(args.example) if args.example else exactpte.load(args.file)
    if chain.field.is_parametric or not isinstance(chain, MarkovRewardProcess):
        raise ExactpteError("the statistical checks run on rational chains")
    if not 0 < args.alpha < 1:
        raise ExactpteError(f"--alpha must lie in (0, 1), got {args.alpha}")
    verdicts = run_statistical(chain, only=args.only, runs=args.runs, seed=args.seed, alpha=args.alpha)
    if not args.json:  # the p-values are the point: print every verdict's detail
        for v in verdicts:
            print(f"{v.key}  {v.status}  ({v.seconds:.1f} s)\n    {v.detail}")
        print()
    return _emit(verdicts, args.json)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
