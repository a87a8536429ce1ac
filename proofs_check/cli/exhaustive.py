"""``proofs-check exhaustive``: its options and its command body."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from exactpte.cli.options import add_command, nonnegative_int, positive_int, require_writable_file
from proofs_check.cli.output import add_json_option, to_stdout, write_json
from proofs_check.runs.exhaustive import exhaustive
from proofs_check.symbolic.graphs import MAX_STATES

__all__ = ["add_exhaustive_command", "main_exhaustive"]


def add_exhaustive_command(sub: Any, *, keys: Callable[[str], list[str]]) -> None:
    """The ``proofs-check exhaustive`` subcommand and its options (``keys`` reads a comma-separated ``--only``)."""
    ex = add_command(sub, "exhaustive", "prove every check on every support graph with at most N states (so for every "
                                        "chain of that size and every reward)", [
        "proofs-check exhaustive --max-states 3",
        "proofs-check exhaustive --max-states 4 --workers 2 --json exhaustive.json",
        "proofs-check exhaustive --max-states 5 --min-states 5 --sample 0.002 --seed 1 --json sample5.json",
        "proofs-check exhaustive --max-states 5 --workers 2 --state run5.jsonl --json exhaustive5.json",
        "proofs-check exhaustive --max-states 3 --checks my_conjecture.py --only my:conjecture --failures cex"])
    ex.add_argument("--max-states", type=positive_int, default=3,
                    help=f"largest graph size, at most {MAX_STATES} (default: 3; 4 takes a minute, 5 CPU-hours)")
    ex.add_argument("--min-states", type=positive_int, default=1, help="smallest graph size (default: 1)")
    ex.add_argument("--only", action="extend", type=keys, metavar="KEYS", help="run only these checks or conjectures, comma-separated")
    ex.add_argument("--checks", metavar="FILE", action="append", default=[],
                    help="a Python file registering conjectures (@proofs_check.conjecture); repeatable")
    ex.add_argument("--failures", metavar="DIR", help="write each failure's rational counterexample chain here")
    add_json_option(ex, "the report (every graph's verdicts in 'graphs')")
    ex.add_argument("--dask", metavar="ADDRESS", help="prove the graphs on a Dask scheduler (tcp://host:port); pip install \".[dask]\"")
    ex.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the sampled points and graphs (default: 0)")
    ex.add_argument("--sample", type=_fraction, metavar="FRACTION",
                    help="prove a seeded uniform sample of this fraction of each size's graphs (at least one), and "
                         "project the full run's CPU time")
    ex.add_argument("--state", metavar="FILE",
                    help="write each finished graph to FILE (JSON Lines); after an interruption run the same command "
                         "again: the graphs FILE holds are read back, not redone")
    ex.add_argument("--workers", type=positive_int, default=1, help="worker processes (default: 1)")
    ex.add_argument("--quiet", action="store_true", help="no progress output")


def _fraction(text: str) -> float:
    """An argparse type: a fraction in ``(0, 1]``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a fraction in (0, 1], got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"expected a fraction in (0, 1], got {text}")
    return value


def main_exhaustive(args: Any) -> int:
    """``proofs-check exhaustive`` (the CLI's command body)."""
    require_writable_file(args.state, "--state")
    try:
        report = exhaustive(args.max_states, min_states=args.min_states, only=args.only, conjecture_files=args.checks,
                            failures_dir=args.failures, progress=None if args.quiet else sys.stderr, dask=args.dask,
                            seed=args.seed, workers=args.workers, sample=args.sample, state=args.state)
    except KeyboardInterrupt:
        where = f"the graphs finished are in {args.state}: run the same command again to go on" if args.state else \
            "nothing kept (--state FILE keeps the graphs finished, so a run can be continued)"
        print(f"\nproofs-check exhaustive: interrupted; {where}", file=sys.stderr)
        return 130
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
