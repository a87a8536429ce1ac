"""``proofs-check exhaustive``: its options and its command body."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from exactpte.cli.options import add_command, nonnegative_int, positive_int
from proofs_check.cli.output import add_json_option, to_stdout, write_json
from proofs_check.runs.exhaustive import exhaustive

__all__ = ["add_exhaustive_command", "main_exhaustive"]


def add_exhaustive_command(sub: Any, *, keys: Callable[[str], list[str]]) -> None:
    """The ``proofs-check exhaustive`` subcommand and its options (``keys`` reads a comma-separated ``--only``)."""
    ex = add_command(sub, "exhaustive", "prove every check on every support graph with at most N states (so for every "
                                        "chain of that size and every reward)", [
        "proofs-check exhaustive --max-states 3",
        "proofs-check exhaustive --max-states 4 --workers 2 --json exhaustive.json",
        "proofs-check exhaustive --max-states 3 --checks my_conjecture.py --only my:conjecture --failures cex"])
    ex.add_argument("--max-states", type=positive_int, default=3, help="largest graph size (default: 3; 4 takes minutes)")
    ex.add_argument("--min-states", type=positive_int, default=1, help="smallest graph size (default: 1)")
    ex.add_argument("--only", action="extend", type=keys, metavar="KEYS", help="run only these checks or conjectures, comma-separated")
    ex.add_argument("--checks", metavar="FILE", action="append", default=[],
                    help="a Python file registering conjectures (@proofs_check.conjecture); repeatable")
    ex.add_argument("--failures", metavar="DIR", help="write each failure's rational counterexample chain here")
    add_json_option(ex, "the report (every graph's verdicts in 'graphs')")
    ex.add_argument("--dask", metavar="ADDRESS", help="prove the graphs on a Dask scheduler (tcp://host:port); pip install \".[dask]\"")
    ex.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the sampled points (default: 0)")
    ex.add_argument("--workers", type=positive_int, default=1, help="worker processes (default: 1)")
    ex.add_argument("--quiet", action="store_true", help="no progress output")


def main_exhaustive(args: Any) -> int:
    """``proofs-check exhaustive`` (the CLI's command body)."""
    report = exhaustive(args.max_states, min_states=args.min_states, only=args.only, conjecture_files=args.checks,
                        failures_dir=args.failures, progress=None if args.quiet else sys.stderr, dask=args.dask,
                        seed=args.seed, workers=args.workers)
    out = sys.stderr if to_stdout(args.json) else sys.stdout  # the JSON on stdout: the table goes to stderr
    print(report.table(), file=out)
    for f in report.failures[:20]:
        where = (f"counterexample {f['file']}" if f.get("file") else f"point {f['point']}" if f.get("point")
                 else "no rational point found")
        print(f"FAILED {f['key']} on graph {f['graph']}: {f['detail'][:160]} ({where})", file=out)
    if len(report.failures) > 20:
        print(f"... {len(report.failures) - 20} more failure(s) (all in the JSON report)", file=out)
    if args.json is not None:
        write_json(report.to_dict(), args.json)
    return 0 if report.failed == 0 else 1
