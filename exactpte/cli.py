"""Command line: ``exactpte decompose``, ``exactpte examples``.

Thin by design: :func:`main` parses, calls the library, prints.  Errors on
input are printed as one line naming the problem, with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .io import load
from .decomposition import decompose
from .errors import ExactpteError
from .examples import EXAMPLES, example

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="exactpte", description="Exact persistent-transient decomposition of Markov reward processes.")
    p.add_argument("--version", action="version", version=f"exactpte {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("decompose", help="decompose a chain file or a built-in example")
    src = d.add_mutually_exclusive_group(required=True)
    src.add_argument("file", nargs="?", help="chain file (JSON)")
    src.add_argument("--example", metavar="NAME", help="a built-in example (see 'exactpte examples')")
    fmt = d.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the JSON contract (numbers as 'p/q' strings)")
    fmt.add_argument("--latex", action="store_true", help="a LaTeX tabular")
    fmt.add_argument("--table", action="store_true", help="the per-state table only")
    d.add_argument("--anchors", metavar="A,B,...", help="one anchor state per cyclic class, in (class, phase) order")
    d.add_argument("--rewards", metavar="FILE", help="state rewards for a .tra (PRISM .srew) or .csv chain")
    d.add_argument("--labels", metavar="FILE", help="PRISM .lab file for a .tra chain")
    d.add_argument("--no-p-inf", action="store_true", help="leave the dense P_inf out of --json")
    d.add_argument("--hitting-times", action="store_true", help="add expected anchor hitting times to --json")
    d.add_argument("--indent", type=int, default=None, help="indent --json output")

    sub.add_parser("examples", help="list the built-in examples, one a line, name first")

    c = sub.add_parser("check", help="compare another implementation's output with the exact answers")
    c.add_argument("candidate", help="JSON (any subset of the decompose --json keys), CSV (a column per quantity) or .npz")
    c.add_argument("--chain", required=True, help="the chain the candidate was computed for")
    c.add_argument("--rewards", metavar="FILE", help="rewards for a .tra/.csv chain")
    c.add_argument("--atol", type=float, default=1e-9)
    c.add_argument("--rtol", type=float, default=0.0)
    c.add_argument("--up-to-gauge", action="store_true", help="accept v off by K(P) and h off by ker(I-P), reported as such")

    e = sub.add_parser("estimate", help="the sample-based estimator, scored against the exact answers")
    esrc = e.add_mutually_exclusive_group(required=True)
    esrc.add_argument("file", nargs="?", help="chain file (JSON)")
    esrc.add_argument("--example", metavar="NAME")
    e.add_argument("--K", type=int, default=180, help="support samples per state")
    e.add_argument("--M", type=int, default=900, help="absorption episodes per transient state")
    e.add_argument("--T", type=int, default=2600, help="projected SA iterations")
    e.add_argument("--J", type=int, default=100, help="residual samples per anchor")
    e.add_argument("--H", type=int, default=40, help="horizon of the return error E_J")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--json", action="store_true")
    e.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _parse_anchors(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise ExactpteError(f"--anchors takes comma-separated state indices, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    args = _parser().parse_args(argv)
    out = sys.stdout
    try:
        if args.command == "examples":
            width = max(len(k) for k in EXAMPLES)
            for name, desc in EXAMPLES.items():
                print(f"{name.ljust(width)}  {desc}", file=out)
            return 0
        if args.command == "check":
            return _check(args, out)
        chain = example(args.example) if args.example else load(args.file, **_extra_files(args))
        for note in chain.notes:
            print(f"exactpte: note: {note}", file=sys.stderr)
        if args.command == "estimate":
            return _estimate(chain, args, out)
        dec = decompose(chain, anchors=_parse_anchors(args.anchors))
        if args.json:
            print(dec.to_json(include_P_inf=not args.no_p_inf, include_hitting_times=args.hitting_times, indent=args.indent), file=out)
        elif args.latex:
            print(dec.to_latex(), file=out)
        elif args.table:
            print(dec.table(), file=out)
        else:
            print(dec, file=out)
        return 0
    except ExactpteError as e:
        print(f"exactpte: error: {e}", file=sys.stderr)
        return 2


def _extra_files(args) -> dict:
    return {k: getattr(args, k) for k in ("rewards", "labels") if getattr(args, k, None)}


def _check(args, out) -> int:
    from .testing.candidates import load_candidate
    from .testing.oracle import compare

    chain = load(args.chain, **_extra_files(args))
    candidate = load_candidate(args.candidate)
    report = compare(candidate, chain, atol=args.atol, rtol=args.rtol, up_to_gauge=args.up_to_gauge)
    print(report.table(), file=out)
    return 0 if report.ok else 1


def _estimate(chain, args, out) -> int:
    import json

    from .estimator import estimate, metrics, truth_of

    for name in ("K", "M", "T", "J", "H"):
        if getattr(args, name) < (0 if name == "H" else 1):
            raise ExactpteError(f"--{name} must be a positive integer, got {getattr(args, name)}")

    def progress(done: int, total: int) -> None:
        if not args.quiet:
            width = 30
            fill = int(width * done / total)
            sys.stderr.write(f"\rprojected SA [{'#' * fill}{'-' * (width - fill)}] {done}/{total}")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    truth = truth_of(chain)
    est = estimate(chain, K=args.K, M=args.M, T=args.T, J=args.J, seed=args.seed, truth=truth, progress=progress)
    errs = metrics(truth, est.g_hat, est.v_hat, args.H)
    if args.json:
        print(json.dumps({
            "g_hat": est.g_hat.tolist(), "v_hat": est.v_hat.tolist(), "theta_hat": est.theta_hat.tolist(),
            "queries": est.queries, "errors": {"E_g": errs["E_g"], "E_v": errs["E_v"], "E_J": errs["E_J"]}, "H": args.H,
        }), file=out)
        return 0
    learned = est.structure.structure
    same = (learned.classes, learned.periods) == (truth.dec.classes, truth.dec.periods)
    print(f"learned structure: {len(learned.classes)} class(es), periods {list(learned.periods)} "
          f"({'equal to' if same else 'DIFFERENT from'} the exact structure)", file=out)
    head = f"{'state':>6} {'g_hat':>10} {'g*':>10} {'v_hat':>10} {'v*':>10}"
    print(head, file=out)
    for s in range(chain.n):
        print(f"{chain.label(s):>6} {est.g_hat[s]:10.4f} {truth.g_star[s]:10.4f} {est.v_hat[s]:10.4f} {truth.v_star[s]:10.4f}", file=out)
    print(f"E_g = {errs['E_g']:.4g}   E_v = {errs['E_v']:.4g}   E_J({args.H}) = {errs['E_J']:.4g}", file=out)
    print("queries: " + ", ".join(f"{k} {v}" for k, v in est.queries.items()), file=out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
