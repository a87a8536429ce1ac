"""``exactpte conform ADAPTER.py[:function]``: a tester's solver run on whole corpora, every output judged.

Thin: the options are parsed and checked here (before any work), the run is
:class:`~exactpte.oracle.conformance.Conformance`'s.  Exit status 0 when every output agrees, 1 when any
fails, 2 for unusable input (a bad adapter path, a missing function, a bad corpus spec).

Loading the adapter runs the tester's own Python file: that is what the command is for.  Nothing
else here reads a file as code.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, TextIO

from exactpte.cli.options import add_command, require_writable_folder, require_writable_file
from exactpte.errors import UsageError
from exactpte.cli.types import discount, nonnegative_int, tolerance

__all__ = ["add_conform_command", "conform"]

DEFAULT_CORPUS = "exhaustive:3"
DEFAULT_MDP_CORPUS = "exhaustive:2,edge"


def add_conform_command(sub: Any) -> None:
    """``exactpte conform``: its options and examples."""
    c = add_command(sub, "conform", "run your solver on whole corpora of chains and judge every output: failures "
                                    "grouped by cause, each with its smallest counterexample", [
        "exactpte conform adapter.py                       # solve(P, r) on every chain with <= 3 states",
        "exactpte conform adapter.py:gain --corpus exhaustive:2 --corpus edge --corpus random:200 --seed 7",
        "exactpte conform adapter.py --sparse --json report.json --failures failures/",
        "exactpte conform mdp_adapter.py --mdp --corpus exhaustive:2,edge --discount 9/10"])
    c.add_argument("adapter", metavar="ADAPTER.py[:function]",
                   help="your Python file and its function (default solve) taking (P, r) and returning a dict in your "
                        "library's own names, read as 'exactpte check' reads a candidate (e.g. def solve(P, r): "
                        "return {'recurrent_classes': quantecon.MarkovChain(P).recurrent_classes}); the file is run to load it")
    c.add_argument("--corpus", action="append", metavar="SPEC",
                   help=f"exhaustive:N (every labelled support graph with <= N states, N <= 4), random:K[:N] (K random "
                        f"reducible periodic chains of <= N states, default 8; see --seed), edge (hand-made edge cases); "
                        f"repeat or separate by commas (default {DEFAULT_CORPUS})")
    c.add_argument("--seed", type=nonnegative_int, default=0, help="the seed of random:K (default 0)")
    c.add_argument("--mdp", action="store_true", help="an MDP solver: solve(P, R) in pymdptoolbox's shapes (P: A x S x S, "
                   "R: S x A) over MDP corpora (exhaustive:N with N <= 2, random:K[:N], edge), judged as 'exactpte check --mdp'")
    c.add_argument("--discount", type=discount, default=None, metavar="G",
                   help="with --mdp: the discount the solver uses (its values and policy judged as discounted ones), read exactly")
    form = c.add_mutually_exclusive_group()
    form.add_argument("--exact", action="store_true", help="pass P and r as lists of fractions.Fraction (default: float64 arrays)")
    form.add_argument("--sparse", action="store_true", help="pass P as a scipy CSR matrix (no stored zeros) and r as a float64 array")
    c.add_argument("--atol", type=tolerance, default=1e-9, help="absolute tolerance (default: 1e-9)")
    c.add_argument("--rtol", type=tolerance, default=0.0, help="relative tolerance (default: 0)")
    c.add_argument("--up-to-gauge", action="store_true", help="accept v off by K(P) and h off by ker(I-P), as 'exactpte check' does")
    c.add_argument("--strict", action="store_true", help="a key the oracle does not know is a failure (default: listed as not judged)")
    c.add_argument("--json", metavar="R", help="write the report as JSON to the file R ('-': standard output, instead of the text)")
    c.add_argument("--failures", metavar="DIR", help="write each failure group's smallest counterexample into DIR/NN-cause/: "
                   "chain.json, output.json, exact.json, verdict.txt")
    c.add_argument("--no-shrink", action="store_true", help="report each group's smallest corpus chain as it is (no shrinking)")
    c.add_argument("--quiet", action="store_true", help="no progress on standard error")


def _kind_and_cases(args: argparse.Namespace) -> tuple[Any, list[Any]]:
    """The kind of problem (chains, or MDPs with ``--mdp``) and the corpora's cases, every spec checked first."""
    specs = args.corpus or [DEFAULT_CORPUS if not args.mdp else DEFAULT_MDP_CORPUS]
    if args.mdp:
        from exactpte.oracle.mdp_conformance import MDPKind, mdp_cases_of

        return MDPKind(args.discount), mdp_cases_of(specs, seed=args.seed)
    from exactpte.oracle.conformance import CHAINS
    from exactpte.oracle.corpora import cases_of

    return CHAINS, cases_of(specs, seed=args.seed)


def conform(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``exactpte conform``; returns the exit status (0 all agree, 1 any failure)."""
    from exactpte.oracle.conformance import Conformance, Tolerance, load_adapter, write_failures
    from exactpte.progress import Progress

    if args.json not in (None, "-"):
        require_writable_file(args.json, "--json")
    require_writable_folder(args.failures, "--failures")
    if args.discount is not None and not args.mdp:
        raise UsageError("--discount applies to --mdp (an MDP solver)")
    kind, cases = _kind_and_cases(args)
    inputs = "exact" if args.exact else "sparse" if args.sparse else "float"
    bar = Progress("conform", enabled=not args.quiet, unit="MDPs" if args.mdp else "chains", interval=5.0)
    tol = Tolerance(args.atol, args.rtol, args.up_to_gauge, args.strict)
    with contextlib.redirect_stdout(sys.stderr):  # what the adapter prints must not mix into the report (--json -)
        run: Conformance[Any] = Conformance(load_adapter(args.adapter), kind=kind, inputs=inputs, tolerance=tol)
        report = run.run(cases, progress=bar.update, shrink_failures=not args.no_shrink)
    bar.close()
    if args.failures is not None:
        for where in write_failures(report, args.failures):
            print(f"exactpte: wrote {where}", file=sys.stderr)
    if args.json is not None:
        text = json.dumps(report.to_dict(), indent=1, default=str)
        if args.json == "-":
            print(text, file=out)
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
    if args.json != "-":
        print(report.text(), file=out)
    return 0 if report.ok else 1
