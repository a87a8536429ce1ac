"""Command line: ``exactpte decompose | examples | check | estimate``.

Thin by design: :func:`main` parses, calls the library, prints.  Every failure the library
names (an :class:`~exactpte.errors.ExactpteError`) is printed as one line with exit status 2;
numeric options are validated before any work; an option that does not apply is an error;
output to a closed pipe (``exactpte decompose ... | head``) ends quietly.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO, cast

from exactpte import __version__
from exactpte.errors import ExactpteError, UsageError

if TYPE_CHECKING:  # the CLI imports the chain machinery only when a command runs (start-up time)
    from exactpte.model.chain import Chain

__all__ = ["main", "ArgumentParser", "add_chain_options", "load_chain", "parse_anchors", "positive_int", "nonnegative_int",
           "tolerance", "run_guarded"]


# -- option types: each names the rule it enforces -------------------------------------------------
def _integer_at_least(minimum: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
        return value

    parse.__doc__ = f"An argparse type: {what}."
    return parse


positive_int = _integer_at_least(1, "a positive integer")
"""An argparse type: an integer ``>= 1``."""
nonnegative_int = _integer_at_least(0, "an integer >= 0")
"""An argparse type: an integer ``>= 0``."""


def tolerance(text: str) -> float:
    """An argparse type: a finite number ``>= 0`` (``nan``, ``inf`` and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, got {text}")
    return value


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error exits 2 with one line and no usage dump."""

    def error(self, message: str):  # noqa: D401 - argparse's signature
        self.exit(2, f"{self.prog}: error: {message}\n")


def add_chain_options(sp: argparse.ArgumentParser, *, positional: bool = True) -> None:
    """The chain-input options every command that reads a chain shares (here and in ``proofs-check``):
    the chain file (positional, or ``--chain FILE`` for commands whose positional argument is
    something else) or ``--example NAME``, and ``--rewards``, ``--labels``, ``--reward-model`` for
    the formats that keep rewards and labels apart (read by :func:`load_chain`)."""
    src = sp.add_mutually_exclusive_group(required=True)
    if positional:
        src.add_argument("file", nargs="?", help="chain file: .json, .drn (Storm), .tra (PRISM explicit) or .csv, "
                                                 "optionally .gz/.xz/.bz2 compressed")
    else:
        src.add_argument("--chain", metavar="FILE", help="the chain file (.json, .drn, .tra or .csv, optionally compressed)")
    src.add_argument("--example", metavar="NAME", help="a built-in example (see 'exactpte examples')")
    sp.add_argument("--rewards", metavar="FILE", action="append",
                    help="reward file: .srew/.state.rew and/or .trew/.trans.rew for a .tra chain, a CSV for a .csv chain "
                         "(repeat for state and transition rewards); without one such a chain has r = 0 (said in a note)")
    sp.add_argument("--labels", metavar="FILE", help="PRISM .lab file for a .tra chain (checked for form)")
    sp.add_argument("--reward-model", metavar="NAME", help="the reward model of a .drn file with several")


def add_command(sub: Any, name: str, summary: str, examples: Sequence[str]) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` starts with ``summary`` and ends with worked ``examples``
    (the same summary is its line in the parent's command list)."""
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples)
    description = textwrap.fill(summary[0].upper() + summary[1:] + ".", width=78)  # the raw formatter keeps the examples' lines
    return cast(argparse.ArgumentParser, sub.add_parser(name, help=summary, description=description, epilog=epilog,
                                                         formatter_class=argparse.RawDescriptionHelpFormatter))


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="exactpte", description="Exact persistent-transient decomposition of Markov reward processes.",
                       epilog="'exactpte COMMAND --help' shows a command's options and examples.")
    p.add_argument("--version", action="version", version=f"exactpte {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)

    d = add_command(sub, "decompose", "decompose a chain file or a built-in example", [
        "exactpte decompose chain.json                      # summary and per-state table",
        "exactpte decompose --example paper-benchmark --json --indent 2",
        "exactpte decompose model.drn --only rho,h --csv    # gain and bias alone",
        "exactpte decompose parametric.json --strata        # every stratum of the parameter space",
        "exactpte decompose big.tra --rewards big.srew --certified --tol 1e-12"])
    add_chain_options(d)
    fmt = d.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the JSON contract (numbers as 'p/q' strings)")
    fmt.add_argument("--latex", action="store_true", help="a LaTeX tabular")
    fmt.add_argument("--table", action="store_true", help="the per-state table only")
    fmt.add_argument("--csv", action="store_true", help="the per-state table as CSV (exact numbers)")
    d.add_argument("--anchors", metavar="A,B,...", help="one anchor state per cyclic class, in (class, phase) order "
                                                       "(default: the smallest state of each cyclic class)")
    d.add_argument("--certified", action="store_true", help="certified float enclosures [lo, hi] of every number "
                   "(for chains too large for exact arithmetic), with the certificate of each solved system")
    d.add_argument("--tol", type=tolerance, default=None, help="relative width asked of --certified enclosures (default 1e-9)")
    d.add_argument("--strata", action="store_true", help="parametric chains: the decomposition on every stratum of "
                   "the parameter space (where entries or denominators vanish), not only the generic one")
    d.add_argument("--only", metavar="KEYS", help="compute and print only these quantities (comma-separated, e.g. "
                   "rho,h; structure keys always come) in --json or --csv; ρ alone costs one transient solve")
    d.add_argument("--no-p-inf", action="store_true", help="leave the dense P_inf out of --json")
    d.add_argument("--p-inf", action="store_true", help=f"write the dense P_inf into --json past {P_INF_STATES} states "
                   "(left out there by default, with a note on standard error)")
    d.add_argument("--hitting-times", action="store_true", help="add expected anchor hitting times to --json")
    d.add_argument("--quiet", action="store_true", help=f"no progress output (shown on standard error from {PROGRESS_STATES} states)")
    d.add_argument("--indent", type=nonnegative_int, default=None, help="indent --json output by this many spaces (default: one line)")

    add_command(sub, "examples", "list the built-in examples, one a line, name first",
                ["exactpte examples", "exactpte decompose --example two-paths"])

    dr = add_command(sub, "draw", "draw the support graph (classes as rings of cyclic classes, anchors marked); "
                                  "needs matplotlib", [
        "exactpte draw --example branching -o branching.svg --edge-labels",
        "exactpte draw parametric.json --strata --quantity g_star --state 0 -o strata.png"])
    add_chain_options(dr)
    dr.add_argument("-o", "--output", required=True, metavar="FILE", help="the picture to write: .svg, .png or .pdf")
    dr.add_argument("--edge-labels", action="store_true", help="write each transition probability")
    dr.add_argument("--strata", action="store_true", help="parametric chains (one or two parameters): the parameter "
                    "space instead, each stratum labelled with its periods and classes, --quantity over the valid region")
    dr.add_argument("--quantity", default="rho", help="with --strata: the per-state quantity drawn (default rho)")
    dr.add_argument("--state", type=int, default=0, help="with --strata: the state whose quantity is drawn (default 0)")

    c = add_command(sub, "check", "compare another implementation's output with the exact answers", [
        "exactpte check mine.json --chain chain.json                 # any subset of the decompose --json keys",
        "exactpte check values.csv --chain chain.drn --atol 1e-8 --up-to-gauge",
        "exactpte check out.npz --example paper-benchmark --json"])
    c.add_argument("candidate", help="JSON (any subset of the decompose --json keys), CSV (a column per quantity) or .npz")
    add_chain_options(c, positional=False)
    c.add_argument("--atol", type=tolerance, default=1e-9, help="absolute tolerance (default: 1e-9)")
    c.add_argument("--rtol", type=tolerance, default=0.0, help="relative tolerance (default: 0)")
    c.add_argument("--up-to-gauge", action="store_true", help="accept v off by K(P) and h off by ker(I-P), reported as such")
    c.add_argument("--json", action="store_true", help="print the report as JSON")
    c.add_argument("--arithmetic", choices=("auto", "exact", "certified"), default="auto",
                   help=f"the reference: exact, or certified enclosures (auto: certified past {EXACT_CHECK_LIMIT} states)")

    e = add_command(sub, "estimate", "the sample-based estimator, scored against the exact answers", [
        "exactpte estimate --example paper-benchmark --seed 1",
        "exactpte estimate chain.json --K 400 --M 2000 --T 5000 --json"])
    add_chain_options(e)
    e.add_argument("--K", type=positive_int, default=180, help="support samples per state (default: 180)")
    e.add_argument("--M", type=positive_int, default=900, help="absorption episodes per transient state (default: 900)")
    e.add_argument("--T", type=positive_int, default=2600, help="projected SA iterations (default: 2600)")
    e.add_argument("--J", type=positive_int, default=100, help="residual samples per anchor (default: 100)")
    e.add_argument("--H", type=positive_int, default=40, help="horizon of the return error E_J (default: 40)")
    e.add_argument("--seed", type=nonnegative_int, default=0, help="random seed (default: 0)")
    e.add_argument("--json", action="store_true", help="print the estimates and errors as JSON")
    e.add_argument("--quiet", action="store_true", help="no progress output")
    return p


def parse_anchors(text: str | None) -> list[int] | None:
    """``--anchors A,B,...`` as a list of states (``None`` when not given)."""
    if text is None:
        return None
    items = [x.strip() for x in text.split(",")]
    if not all(x.isascii() and x.isdigit() for x in items):  # "1 2" is not 12; "-1" and "" are no states
        raise UsageError(f"--anchors takes comma-separated state indices (e.g. 0,3,7), got {text!r}")
    return [int(x) for x in items]


def load_chain(args: argparse.Namespace, path: str | None = None) -> Chain:
    """The chain named by :func:`add_chain_options`: the file at ``path`` (else ``args.file``) with its
    reward and label files, or the built-in ``--example``."""
    from exactpte.model.examples import EXAMPLES, example
    from exactpte.io import load

    if path is None and args.example:
        for opt in ("rewards", "labels", "reward_model"):
            if getattr(args, opt, None):
                raise UsageError(f"--{opt.replace('_', '-')} applies to chain files, not to --example")
        return example(args.example)
    path = path or args.file
    if path in EXAMPLES and not os.path.exists(path):
        raise UsageError(f"no file named {path!r}; for the built-in example write --example {path}")
    return load(path, rewards=args.rewards, labels=args.labels, reward_model=args.reward_model)


def run_guarded(prog: str, body: Callable[[], int]) -> int:
    """Run ``body`` as a command: a named error becomes one line on stderr and exit 2; a closed
    output pipe ends quietly (exit 0, nothing more written)."""
    try:
        code = body()
        sys.stdout.flush()
        return code
    except ExactpteError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (| head): stop writing, and keep Python from complaining at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 disagreement, 2 bad input)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    return run_guarded("exactpte", lambda: _dispatch(args))


def _dispatch(args) -> int:
    out = sys.stdout
    if args.command == "examples":
        from exactpte.model.examples import EXAMPLES

        width = max(len(k) for k in EXAMPLES)
        for name, desc in EXAMPLES.items():
            print(f"{name.ljust(width)}  {desc}", file=out)
        return 0
    if args.command == "check":
        return _check(args, out)
    chain = load_chain(args)
    for note in chain.notes:
        print(f"exactpte: note: {note}", file=sys.stderr)
    if args.command == "estimate":
        return _estimate(chain, args, out)
    if args.command == "draw":
        return _draw(chain, args, out)
    used = {"--no-p-inf": args.no_p_inf, "--p-inf": args.p_inf, "--hitting-times": args.hitting_times, "--indent": args.indent is not None,
            "--strata": args.strata, "--only": args.only is not None, "--anchors": args.anchors is not None,
            "--latex": args.latex, "--table": args.table, "--csv": args.csv}
    if not args.json:
        _refuse(used, ("--no-p-inf", "--p-inf", "--hitting-times", "--indent"), "applies to --json output")
    if args.p_inf and args.no_p_inf:
        raise UsageError("--p-inf and --no-p-inf contradict each other; give one")
    if args.only is not None:
        if not (args.json or args.csv):
            raise UsageError("--only applies to --json or --csv output")
        _refuse(used, ("--no-p-inf", "--p-inf", "--hitting-times"), "does not combine with --only (name P_inf or hitting_times in --only)")
        from exactpte.results.report import check_only

        check_only(args.only)  # a bad name is refused before any work
    if args.tol is not None and not args.certified:
        raise UsageError("--tol applies to --certified")
    if args.certified:
        _refuse(used, ("--strata", "--only", "--anchors", "--latex", "--table", "--csv", "--hitting-times", "--no-p-inf", "--p-inf"),
                "does not combine with --certified (enclosures print as text or --json, without P_inf: "
                "CertifiedDecomposition.P_inf gives it)")
        if chain.field.is_parametric:
            raise UsageError("--certified applies to rational chains")
        from exactpte.certified import decompose_certified

        cert = decompose_certified(chain, tol=args.tol if args.tol is not None else 1e-9)
        # the dense n x n P∞ is left out: --certified is for chains too large for it (cert.P_inf gives it)
        print(cert.to_json(include_P_inf=False, indent=args.indent) if args.json else cert, file=out)
        return 0
    if args.strata:
        _refuse(used, ("--anchors", "--no-p-inf", "--p-inf", "--hitting-times"), "does not combine with --strata")
        if args.only is not None and not args.csv:
            raise UsageError("--only applies to --strata with --csv")
        return _strata(chain, args, out)
    from exactpte.results.decomposition import decompose

    dec = decompose(chain, anchors=parse_anchors(args.anchors))
    if args.json and args.only is None and not args.p_inf and not args.no_p_inf and chain.n > P_INF_STATES:
        args.no_p_inf = True
        print(f"exactpte: note: the dense P_inf ({chain.n} x {chain.n} = {chain.n * chain.n:,} entries) is left out of --json "
              f"past {P_INF_STATES} states; --p-inf writes it", file=sys.stderr)
    show = not args.quiet and chain.n >= PROGRESS_STATES
    _compute(dec, _quantities_printed(args), enabled=show)
    if show:  # printing a large answer (10^7 basis entries) takes seconds of its own
        print("exact decomposition: writing the output", file=sys.stderr, flush=True)
    if args.json:
        print(_json_text(dec, args, show), file=out)
    elif args.latex:
        print(dec.to_latex(), file=out)
    elif args.table:
        print(dec.table(), file=out)
    elif args.csv:
        out.write(dec.to_csv(only=args.only))
    else:
        print(dec, file=out)
    return 0


def _draw(chain: Any, args: argparse.Namespace, out: TextIO) -> int:
    """``exactpte draw``: the support graph, or with ``--strata`` the parameter space."""
    from exactpte.plots import draw, save
    from exactpte.results.decomposition import decompose

    if not args.output.lower().endswith((".svg", ".png", ".pdf")):
        raise UsageError(f"-o takes a .svg, .png or .pdf file, got {args.output!r}")
    if args.strata:
        from exactpte.plots.strata import plot_strata
        from exactpte.results.stratify import stratify

        save(plot_strata(stratify(chain), args.quantity, args.state), args.output)
    else:
        save(draw(decompose(chain), edge_labels=args.edge_labels), args.output)
    print(f"wrote {args.output}", file=out)
    return 0


def _strata(chain: Any, args: argparse.Namespace, out: TextIO) -> int:
    """``exactpte decompose --strata`` in the format asked for (text, --json, --latex, --table, --csv)."""
    from exactpte.results.stratify import stratify

    strat = stratify(chain)
    if args.csv:
        out.write(strat.to_csv(only=args.only))
    else:
        print(strat.to_json(indent=args.indent) if args.json else strat.to_latex() if args.latex else
              strat.table() if args.table else strat, file=out)
    return 0


PROGRESS_STATES = 2000
"""``exactpte decompose`` reports its progress (quantity by quantity) on chains of at least this many states."""

P_INF_STATES = 500
"""Past this many states ``exactpte decompose --json`` leaves the dense ``n x n`` P_inf out (250,000
entries at 500 states; 75 million parametric ones on crowds with 8,653 states) unless ``--p-inf``
asks for it, and says so on standard error."""


WRITE_PROGRESS_SECONDS = 2.0
"""A ``--json`` write reports its progress (key by key) once it has taken this long."""


def _json_text(dec: Any, args: argparse.Namespace, show: bool) -> str:
    """``--json`` text of ``dec``; when ``show``, a progress line per key written once the write is long."""
    import time

    from exactpte.progress import Progress

    bar = Progress("exact decomposition: writing", enabled=show, unit="keys", interval=10.0)
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if time.perf_counter() - start >= WRITE_PROGRESS_SECONDS:
            bar.update(done, total)

    try:
        return str(dec.to_json(include_P_inf=not args.no_p_inf, include_hitting_times=args.hitting_times,
                               indent=args.indent, only=args.only, progress=progress))
    finally:
        bar.close()



def _quantities_printed(args: argparse.Namespace) -> tuple[str, ...]:
    """The quantities the chosen output reads, in an order that reuses shared work (basis first)."""
    from exactpte.results.quantities import QUANTITY_KEYS, TABLE_QUANTITIES
    from exactpte.results.report import check_only

    only = check_only(args.only)
    if args.json:
        if only is not None:
            return only
        skip = {"P_inf"} if args.no_p_inf else set()
        if not args.hitting_times:
            skip.add("hitting_times")
        return tuple(k for k in QUANTITY_KEYS if k not in skip)
    if args.csv and only is not None:
        return only
    return TABLE_QUANTITIES


def _compute(dec, names: Sequence[str], *, enabled: bool) -> None:
    """Compute ``names`` one by one (each cached on ``dec``), with a progress report per quantity."""
    if not enabled:
        return
    from exactpte.progress import Progress

    bar = Progress("exact decomposition", enabled=True, unit="quantities", interval=10.0)
    bar.update(0, len(names))
    for done, name in enumerate(names, 1):
        getattr(dec, name)
        bar.update(done, len(names))
    bar.close()


def _refuse(used: dict[str, bool], options, why: str) -> None:
    """A :class:`~exactpte.errors.UsageError` naming the first of ``options`` that was given."""
    for opt in options:
        if used[opt]:
            raise UsageError(f"{opt} {why}")


EXACT_CHECK_LIMIT = 5000
"""``exactpte check`` judges against certified enclosures past this many states (``--arithmetic auto``)."""


def _check(args, out) -> int:
    import json

    from exactpte.oracle.candidates import load_candidate
    from exactpte.oracle.compare import compare

    chain = load_chain(args, args.chain)
    if chain.field.is_parametric:
        raise UsageError(f"{args.chain} is a parametric chain; the oracle judges float outputs of rational chains")
    candidate = load_candidate(args.candidate)
    arithmetic = args.arithmetic
    if arithmetic == "auto":
        arithmetic = "certified" if chain.n > EXACT_CHECK_LIMIT else "exact"
    if arithmetic == "certified" and args.up_to_gauge:
        raise UsageError("--up-to-gauge needs the exact reference (--arithmetic exact)")
    reference: Any  # compare() judges against a chain (exact) or certified enclosures
    if arithmetic == "certified":
        from exactpte.certified import decompose_certified

        reference = decompose_certified(chain)
        why = (f"certified enclosures (n = {chain.n} > {EXACT_CHECK_LIMIT}: exact arithmetic would be slow)"
               if args.arithmetic == "auto" else "certified enclosures (asked for)")
    else:
        reference, why = chain, "exact decomposition"
    report = compare(candidate, reference, atol=args.atol, rtol=args.rtol, up_to_gauge=args.up_to_gauge)
    if args.json:
        print(json.dumps({"reference": arithmetic, **report.to_dict()}, indent=1), file=out)
    else:
        print(f"reference: {why}", file=out)
        print(report.table(), file=out)
    return 0 if report.ok else 1


def _estimate(chain, args, out) -> int:
    import json

    from exactpte.estimator import estimate, metrics, truth_of
    from exactpte.progress import Progress

    if chain.field.is_parametric:
        raise UsageError("the estimator samples a rational chain; substitute a parameter point first")
    bar = Progress("projected SA", enabled=not args.quiet)
    truth = truth_of(chain)
    est = estimate(chain, K=args.K, M=args.M, T=args.T, J=args.J, seed=args.seed, truth=truth, progress=bar.update)
    bar.close()
    errs = metrics(truth, est.g_hat, est.v_hat, args.H)
    if args.json:
        print(json.dumps({
            "g_hat": est.g_hat.tolist(), "v_hat": est.v_hat.tolist(), "theta_hat": est.theta_hat.tolist(),
            "queries": est.queries, "errors": {"E_g": errs["E_g"], "E_v": errs["E_v"], "E_J": errs["E_J"]}, "H": args.H,
        }), file=out)
        return 0
    learned = est.structure.structure
    same = (learned.classes, learned.periods) == (chain.structure.classes, chain.structure.periods)
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
