"""Command line: ``exactpte decompose | examples | check | estimate | draw | mdp``.

Thin by design: :func:`main` parses, calls the library, prints.  Every failure the library
names (an :class:`~exactpte.errors.ExactpteError`) is printed as one line with exit status 2;
numeric options are validated before any work; an option that does not apply is an error;
output to a closed pipe (``exactpte decompose ... | head``) ends quietly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from exactpte import __version__
from exactpte.cli.conform import add_conform_command, conform
from exactpte.cli.float_route import add_float_options, float_route
from exactpte.errors import UsageError

if TYPE_CHECKING:  # the CLI imports the chain machinery only when a command runs (start-up time)
    from exactpte.model.chain import Chain
    from exactpte.results.decomposition import Decomposition

from exactpte.cli.options import (
    ArgumentParser,
    add_chain_options,
    add_command,
    discount,
    require_writable_file,
    figure_size,
    load_chain,
    nonnegative_int,
    parse_anchors,
    positive_int,
    run_guarded,
    tolerance,
)

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="exactpte", description="Exact persistent-transient decomposition of Markov reward processes.",
                       epilog="'exactpte COMMAND --help' shows a command's options and examples.")
    p.add_argument("--version", action="version", version=f"exactpte {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)

    _decompose_command(sub)
    add_command(sub, "examples", "list the built-in examples, one a line, name first",
                ["exactpte examples", "exactpte decompose --example two-paths"])

    _draw_command(sub)
    _check_command(sub)
    add_conform_command(sub)
    _estimate_command(sub)
    _mdp_command(sub)
    return p


def _decompose_command(sub: Any) -> None:
    """``exactpte decompose``: its options and examples."""
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
    d.add_argument("--tol", type=tolerance, default=None, help="relative width asked of --certified enclosures (default 1e-9); "
                   "with the float route (--floats exact): the largest |1 - row sum| repaired (default 1e-9)")
    d.add_argument("--strata", action="store_true", help="parametric chains: the decomposition on every stratum of "
                   "the parameter space (where entries or denominators vanish), not only the generic one")
    d.add_argument("--only", metavar="KEYS", help="compute and print only these quantities (comma-separated, e.g. "
                   "rho,h; structure keys such as classes, periods are accepted and always come) in --json or --csv, and with --strata in --latex and --table too; "
                   "ρ alone costs one transient solve")
    d.add_argument("--factored", action="store_true", help="--json and --latex: every distinct denominator named once "
                   "(\"denominators\": {\"D1\": ...}) and each entry written over the names: big answers stay readable")
    d.add_argument("--no-p-inf", action="store_true", help="leave the dense P_inf out of --json")
    d.add_argument("--p-inf", action="store_true", help=f"write the dense P_inf into --json past {P_INF_STATES} states "
                   "(left out there by default, with a note on standard error)")
    d.add_argument("--hitting-times", action="store_true", help="add expected anchor hitting times to --json")
    d.add_argument("--quiet", action="store_true", help=f"no progress output (shown on standard error from {PROGRESS_STATES} states)")
    d.add_argument("--indent", type=nonnegative_int, default=None, help="indent --json output by this many spaces (default: one line)")
    add_float_options(d, with_tol=False)


DRAW_FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".tex": "tikz", ".dot": "dot", ".gv": "dot"}
"""``exactpte draw``'s formats by the output's ending (``--format`` names one outright)."""


def _draw_command(sub: Any) -> None:
    """``exactpte draw``: its options and examples."""
    from exactpte.results.quantities import STATE_KEYS

    dr = add_command(sub, "draw", "draw the support graph (classes as rings of cyclic classes, anchors marked) as a "
                                  "picture (needs matplotlib), as TikZ or as Graphviz DOT; or a parametric chain's strata", [
        "exactpte draw --example branching -o branching.svg --edge-labels",
        "exactpte draw chain.json --format tikz > chain.tex   # a standalone TikZ picture (pdflatex chain.tex)",
        "exactpte draw chain.json -o chain.dot               # Graphviz DOT, one cluster per class",
        "exactpte draw parametric.json --strata --quantity g_star --state home -o strata.png"])
    add_chain_options(dr)
    dr.add_argument("-o", "--output", metavar="FILE", help="the file to write: .svg, .png, .pdf (pictures), .tex (TikZ) "
                    "or .dot/.gv (DOT); without it, --format tikz or dot prints to standard output")
    dr.add_argument("--format", choices=("svg", "png", "pdf", "tikz", "dot"), default=None,
                    help="the output's format (default: by the ending of -o): tikz is a standalone LaTeX document "
                         "with the picture's layout, states labelled, classes coloured, each probability in math mode "
                         "beside its edge; dot is Graphviz DOT with one cluster per closed class and every node's "
                         "position (neato -n2 draws it); neither needs matplotlib; both always carry the probabilities")
    dr.add_argument("--edge-labels", action="store_true", help="pictures: write each transition probability beside its "
                    "own edge (one with no free place is left out and counted in the legend)")
    dr.add_argument("--dpi", type=positive_int, default=None, help="resolution of a .png in dots per inch (default 100)")
    dr.add_argument("--size", type=figure_size, default=None, metavar="W,H", help="the picture's size in inches: the "
                    "whole picture scaled to fit (default: its natural size, which grows with the chain); a size "
                    "too small to read is refused, naming the smallest that holds it")
    dr.add_argument("--strata", action="store_true", help="parametric chains (one or two parameters): the parameter "
                    "space instead, each stratum labelled with what changes there, --quantity over the valid region")
    dr.add_argument("--quantity", choices=STATE_KEYS, default=None, metavar="Q",
                    help=f"with --strata: the per-state quantity drawn, one of {', '.join(STATE_KEYS)} (default rho)")
    dr.add_argument("--state", default=None, metavar="STATE", help="with --strata: the state whose quantity is drawn, "
                    "by its label or its index (default: the first state)")


def _check_command(sub: Any) -> None:
    """``exactpte check``: its options and examples."""
    c = add_command(sub, "check", "compare another implementation's output with the exact answers", [
        "exactpte check mine.json --chain chain.json                 # any subset of the decompose --json keys",
        "exactpte check values.csv --chain chain.drn --atol 1e-8 --up-to-gauge",
        "exactpte check out.npz --example paper-benchmark --json",
        "exactpte check rvi.json --mdp model.json                    # an MDP solver's output (pymdptoolbox, QuantEcon, Storm)",
        "exactpte check vi.json --mdp model.json --discount 9/10"])
    c.add_argument("candidate", help="JSON (any subset of the decompose --json keys), CSV (a column per quantity) or .npz")
    sources = add_chain_options(c, positional=False)
    sources.add_argument("--mdp", metavar="FILE", help="judge an MDP solver's output against this MDP file (.json, .drn, "
                                                       ".tra): policy, gain, bias, value, optimal actions")
    c.add_argument("--discount", type=discount, default=None, metavar="G",
                   help="with --mdp: the discount the solver used (its values and policy judged as discounted ones)")
    c.add_argument("--atol", type=tolerance, default=1e-9, help="absolute tolerance (default: 1e-9)")
    c.add_argument("--rtol", type=tolerance, default=0.0, help="relative tolerance (default: 0)")
    c.add_argument("--up-to-gauge", action="store_true", help="accept v off by K(P) and h off by ker(I-P), reported as such")
    c.add_argument("--json", action="store_true", help="print the report as JSON")
    c.add_argument("--arithmetic", choices=("auto", "exact", "certified"), default="auto",
                   help=f"the reference: exact, or certified enclosures (auto: certified past {EXACT_CHECK_LIMIT} states)")
    c.add_argument("--strict", action="store_true", help="refuse keys the oracle does not know (default: listed as not judged)")
    add_float_options(c, with_tol=True)


def _estimate_command(sub: Any) -> None:
    """``exactpte estimate``: its options and examples."""
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

def _mdp_command(sub: Any) -> None:
    """``exactpte mdp``: its options and examples."""
    m = add_command(sub, "mdp", "solve an MDP exactly: optimal gain, bias, a bias-optimal policy, the gain- and "
                                "bias-optimal actions of every state (with --discount: the discounted values and optimal actions)", [
        "exactpte mdp model.json                      # a table per state",
        "exactpte mdp model.json --discount 9/10 --json",
        "exactpte mdp model.drn --reward-model r      # Storm's DRN, @type: mdp",
        "exactpte mdp model.tra --rewards model.trew  # PRISM explicit with choices"])
    m.add_argument("file", help="MDP file: .json (exactpte's MDP file), .drn (Storm, @type: mdp) or .tra (PRISM explicit "
                                "with choices), optionally .gz/.xz/.bz2 compressed")
    m.add_argument("--discount", type=discount, default=None, metavar="G",
                   help="also solve the discounted criterion with this discount in (0, 1), read exactly (9/10, 0.9)")
    m.add_argument("--json", action="store_true", help="the answer as JSON (numbers as reduced 'p/q' strings, actions 0-based)")
    m.add_argument("--indent", type=nonnegative_int, default=None, help="indent --json output by this many spaces")
    m.add_argument("--rewards", metavar="FILE", action="append", help="a .srew and/or .trew reward file of a .tra MDP")
    m.add_argument("--reward-model", metavar="NAME", help="the reward model of a .drn file with several")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 disagreement, 2 bad input)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    return run_guarded("exactpte", lambda: _dispatch(args))


def _dispatch(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.command == "examples":
        from exactpte.model.examples import EXAMPLES

        width = max(len(k) for k in EXAMPLES)
        for name, desc in EXAMPLES.items():
            print(f"{name.ljust(width)}  {desc}", file=out)
        return 0
    if args.command == "conform":  # (exactpte.cli.conform)
        return conform(args, out)
    if args.command == "check":
        return _check(args, out)
    if args.command == "mdp":
        return _mdp(args, out)
    if args.command == "decompose":  # checked before any work
        if args.tol is not None and not (args.certified or float_route(args)):
            raise UsageError("--tol applies to --certified or to the float route (--floats exact)")
        if args.certified and float_route(args) and args.tol is not None:
            raise UsageError("--tol is ambiguous with both --certified and the float route: give one of them")
    chain = load_chain(args)
    for note in chain.notes:
        print(f"exactpte: note: {note}", file=sys.stderr)
    if args.command == "estimate":
        return _estimate(chain, args, out)
    if args.command == "draw":
        return _draw(chain, args, out)
    used = {"--no-p-inf": args.no_p_inf, "--p-inf": args.p_inf, "--hitting-times": args.hitting_times, "--indent": args.indent is not None,
            "--strata": args.strata, "--only": args.only is not None, "--anchors": args.anchors is not None,
            "--latex": args.latex, "--table": args.table, "--csv": args.csv, "--factored": args.factored}
    if not args.json:
        _refuse(used, ("--no-p-inf", "--p-inf", "--hitting-times", "--indent"), "applies to --json output")
    if args.p_inf and args.no_p_inf:
        raise UsageError("--p-inf and --no-p-inf contradict each other; give one")
    if args.factored and not (args.json or (args.latex and not args.strata)):
        raise UsageError("--factored applies to --json output (and to --latex without --strata)")
    if args.only is not None:
        if not (args.json or args.csv or (args.strata and (args.latex or args.table))):
            raise UsageError("--only applies to --json or --csv output (and with --strata to --latex and --table)")
        _refuse(used, ("--no-p-inf", "--p-inf", "--hitting-times"), "does not combine with --only (name P_inf or hitting_times in --only)")
        from exactpte.results.report import require_quantities

        require_quantities(args.only)  # a bad name is refused before any work
    if args.certified:
        _refuse(used, ("--strata", "--only", "--anchors", "--latex", "--table", "--csv", "--hitting-times", "--no-p-inf", "--p-inf", "--factored"),
                "does not combine with --certified (enclosures print as text or --json, without P_inf: "
                "CertifiedDecomposition.P_inf gives it)")
        if chain.field.is_parametric:
            raise UsageError("--certified applies to rational chains")
        from exactpte.certified import decompose_certified

        cert = decompose_certified(chain, tol=args.tol if args.tol is not None and not float_route(args) else 1e-9)
        # the dense n x n P∞ is left out: --certified is for chains too large for it (cert.P_inf gives it)
        print(cert.to_json(include_P_inf=False, indent=args.indent) if args.json else cert, file=out)
        return 0
    if args.strata:
        _refuse(used, ("--anchors", "--no-p-inf", "--p-inf", "--hitting-times"), "does not combine with --strata")
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
        print(dec.to_latex(factored=args.factored), file=out)
    elif args.table:
        print(dec.table(), file=out)
    elif args.csv:
        out.write(dec.to_csv(only=args.only))
    else:
        print(dec, file=out)
    return 0


def _draw(chain: Any, args: argparse.Namespace, out: TextIO) -> int:
    """``exactpte draw``: the support graph (a picture, TikZ or DOT), or with ``--strata`` the parameter space."""
    fmt = _draw_format(args)
    if not args.strata and (args.quantity is not None or args.state is not None):
        raise UsageError(f"--{'quantity' if args.quantity is not None else 'state'} applies to --strata")
    if fmt in ("tikz", "dot"):
        for option, given in (("--strata", args.strata), ("--size", args.size is not None), ("--dpi", args.dpi is not None)):
            if given:
                raise UsageError(f"{option} applies to pictures (.svg, .png, .pdf), not to --format {fmt}")
        require_writable_file(args.output, "-o")
        from exactpte.plots.export import to_dot, to_tikz
        from exactpte.results.decomposition import decompose

        text = (to_tikz if fmt == "tikz" else to_dot)(decompose(chain))
        if args.output is None:
            out.write(text)
            return 0
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {args.output}", file=out)
        return 0
    if args.output is None:
        raise UsageError(f"-o FILE is needed for a picture (.svg, .png, .pdf); --format tikz or dot prints to standard output")
    require_writable_file(args.output, "-o", picture=True)
    from exactpte.plots import draw, save
    from exactpte.results.decomposition import decompose

    if args.strata:
        from exactpte.plots.strata import plot_strata
        from exactpte.results.stratify import stratify

        if args.edge_labels:
            raise UsageError("--edge-labels applies to the support graph, not to --strata")
        state = _state_named(chain, args.state)
        save(plot_strata(stratify(chain), args.quantity or "rho", state, size=args.size, dpi=args.dpi), args.output,
             tight=args.size is None)
    else:
        # sized to what it shows (or to --size): saved as it is, so a PNG is its size in inches times --dpi
        save(draw(decompose(chain), edge_labels=args.edge_labels, size=args.size, dpi=args.dpi), args.output, tight=False)
    print(f"wrote {args.output}", file=out)
    return 0


def _draw_format(args: argparse.Namespace) -> str:
    """The format asked (``--format``, else the ending of ``-o``); a picture's ending must match its format."""
    import os

    ending = os.path.splitext(args.output or "")[1].lower()
    if args.format is None:
        if args.output is None:
            raise UsageError("give -o FILE (.svg, .png, .pdf, .tex or .dot) or --format tikz or dot")
        if ending not in DRAW_FORMATS:
            raise UsageError(f"-o takes a .svg, .png, .pdf, .tex (TikZ) or .dot file, got {args.output!r} (or name the format "
                             f"with --format)")
        return DRAW_FORMATS[ending]
    if args.format in ("svg", "png", "pdf") and args.output is not None and ending != f".{args.format}":
        raise UsageError(f"--format {args.format} writes a .{args.format} file, not {args.output!r}")
    return str(args.format)


def _state_named(chain: Any, name: str | None) -> int:
    """The state ``--state`` names: by its label, else by its index (0 when not given)."""
    if name is None:
        return 0
    labels = [chain.label(s) for s in range(chain.n)]
    if name in labels:
        return labels.index(name)
    if name.isdigit() and int(name) < chain.n:
        return int(name)
    from exactpte.errors import brief

    shown = ", ".join(labels[:12]) + (", …" if chain.n > 12 else "")
    raise UsageError(f"--state {brief(name, 30, quoted=True)} is not a state of the chain: give a label ({shown}) or an index "
                     f"below {chain.n}")


def _strata(chain: Any, args: argparse.Namespace, out: TextIO) -> int:
    """``exactpte decompose --strata`` in the format asked for (text, --json, --latex, --table, --csv)."""
    from exactpte.results.stratify import stratify

    strat = stratify(chain)
    if args.csv:
        out.write(strat.to_csv(only=args.only))
    else:
        print(strat.to_json(indent=args.indent, only=args.only, factored=args.factored, include_P_inf=False) if args.json else
              strat.to_latex(quantities=args.only) if args.latex else strat.table(only=args.only) if args.table else strat, file=out)
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
        from exactpte.results import report

        return report.to_json(dec, include_P_inf=not args.no_p_inf, include_hitting_times=args.hitting_times,
                              indent=args.indent, only=args.only, factored=args.factored, progress=progress)
    finally:
        bar.close()



def _quantities_printed(args: argparse.Namespace) -> tuple[str, ...]:
    """The quantities the chosen output reads, in an order that reuses shared work (basis first)."""
    from exactpte.results.quantities import QUANTITY_KEYS, TABLE_QUANTITIES
    from exactpte.results.report import require_quantities

    only = require_quantities(args.only)
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


def _compute(dec: Decomposition, names: Sequence[str], *, enabled: bool) -> None:
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


def _refuse(used: dict[str, bool], options: Sequence[str], why: str) -> None:
    """A :class:`~exactpte.errors.UsageError` naming the first of ``options`` that was given."""
    for opt in options:
        if used[opt]:
            raise UsageError(f"{opt} {why}")


EXACT_CHECK_LIMIT = 5000
"""``exactpte check`` judges against certified enclosures past this many states (``--arithmetic auto``)."""


def _check(args: argparse.Namespace, out: TextIO) -> int:
    import json

    from exactpte.oracle.candidates import load_candidate
    from exactpte.oracle.comparison import compare

    if args.mdp is not None:
        return _check_mdp(args, out)
    if args.discount is not None:
        raise UsageError("--discount applies to --mdp (an MDP solver's output)")

    if args.tol is not None and not float_route(args):
        raise UsageError("--tol applies to the float route (--floats exact); the comparison's tolerances are --atol and --rtol")
    chain = load_chain(args, args.chain)
    if chain.field.is_parametric:
        raise UsageError(f"{args.chain} is a parametric chain; the oracle judges float outputs of rational chains")
    for note in chain.notes:
        print(f"exactpte: note: {note}", file=sys.stderr)
    candidate = load_candidate(args.candidate, max_elements=chain.n * chain.n + chain.n)  # (an .npz bomb: bounded)
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
    report = compare(candidate, reference, atol=args.atol, rtol=args.rtol, up_to_gauge=args.up_to_gauge, strict=args.strict)
    if args.json:
        print(json.dumps({"reference": arithmetic, **report.to_dict()}, indent=1), file=out)
    else:
        print(f"reference: {why}", file=out)
        print(report.table(), file=out)
    return 0 if report.ok else 1


def _check_mdp(args: argparse.Namespace, out: TextIO) -> int:
    """``exactpte check CAND --mdp FILE``: an MDP solver's output judged against the exact answer."""
    import json

    from exactpte.io import load_mdp
    from exactpte.oracle.candidates import load_candidate
    from exactpte.oracle.mdp_judge import judge_mdp

    used = {"--labels": args.labels is not None, "--arithmetic": args.arithmetic != "auto", "--tol": args.tol is not None,
            "--floats": args.floats is not None, "--limit-denominator": args.limit_denominator is not None,
            "--clip-negative": args.clip_negative is not None}
    _refuse(used, tuple(used), "does not apply to --mdp (an MDP file is read exactly; the judge's tolerances are --atol and --rtol)")
    mdp = load_mdp(args.mdp, rewards=args.rewards, reward_model=args.reward_model)
    for note in mdp.notes:
        print(f"exactpte: note: {note}", file=sys.stderr)
    _file_discount(mdp, args)
    candidate = load_candidate(args.candidate, max_elements=mdp.n * (mdp.n + 2), columns=("V", "v", "policy", "sigma", "gain", "bias", "value"))
    report = judge_mdp(candidate, mdp, discount=args.discount, atol=args.atol, rtol=args.rtol, up_to_gauge=args.up_to_gauge,
                       strict=args.strict)
    criterion = f"discounted (γ = {args.discount}) and average reward" if args.discount is not None else "average reward"
    if args.json:
        print(json.dumps({"reference": "exact", "criterion": criterion, **report.to_dict()}, indent=1), file=out)
    else:
        print(f"reference: exact solution of the MDP ({criterion}; policies evaluated exactly)", file=out)
        print(report.table(), file=out)
    return 0 if report.ok else 1


def _mdp(args: argparse.Namespace, out: TextIO) -> int:
    """``exactpte mdp``: read, solve, print (JSON or a table per state)."""
    from exactpte.io import load_mdp
    from exactpte.mdp import solve

    if args.indent is not None and not args.json:
        raise UsageError("--indent applies to --json output")
    mdp = load_mdp(args.file, rewards=args.rewards, reward_model=args.reward_model)
    for note in mdp.notes:
        print(f"exactpte: note: {note}", file=sys.stderr)
    _file_discount(mdp, args)
    solution = solve(mdp, discount=args.discount)
    if args.json:
        print(solution.to_json(indent=args.indent), file=out)
        return 0
    print(solution_table(solution), file=out)
    return 0


def _file_discount(mdp: Any, args: argparse.Namespace) -> None:
    """An MDP file's own discount: a --discount that differs is refused; without one, a note says how to use it."""
    if mdp.discount is None:
        return
    if args.discount is not None and args.discount != mdp.discount:
        raise UsageError(f"--discount {args.discount} differs from the file's discount {mdp.discount}")
    if args.discount is None:
        print(f"exactpte: note: the file gives the discount {mdp.discount}: --discount {mdp.discount} solves the discounted "
              "criterion too", file=sys.stderr)


def solution_table(solution: Any) -> str:
    """The text form of ``exactpte mdp``: one line per state (gain, bias, the policy's action, the optimal actions)."""
    avg, disc = solution.average, solution.discounted
    mdp = avg.mdp
    head = ["state", "gain g*", "bias h*", "policy", "gain-optimal", "bias-optimal"]
    if disc is not None:
        head += [f"value (γ = {disc.discount})", "discount-optimal"]
    rows = []
    for s in range(mdp.n):
        row = [mdp.label(s), str(avg.gain[s]), str(avg.bias[s]), str(avg.policy[s]), _actions_text(avg.gain_optimal_actions[s]),
               _actions_text(avg.bias_optimal_actions[s])]
        if disc is not None:
            row += [str(disc.value[s]), _actions_text(disc.optimal_actions[s])]
        rows.append(row)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head] + rows]
    summary = (f"{_count(mdp.n, 'state')}, {_count(mdp.num_choices, 'state-action pair')}; policy iteration: "
               f"{_count(avg.iterations, 'evaluation')}; the optimality equations hold exactly")
    return "\n".join([summary] + lines)


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")


def _actions_text(actions: Sequence[int]) -> str:
    return "{" + ", ".join(map(str, actions)) + "}"


def _estimate(chain: Chain, args: argparse.Namespace, out: TextIO) -> int:
    import json

    from exactpte.estimator import estimate, metrics, truth_of
    from exactpte.model.chain import MarkovRewardProcess
    from exactpte.progress import Progress

    if chain.field.is_parametric:
        raise UsageError("the estimator samples a rational chain; substitute a parameter point first")
    if not isinstance(chain, MarkovRewardProcess):  # the loaders give one for every rational file; estimate() dispatches on it
        raise UsageError(f"the estimator samples a MarkovRewardProcess, got a {type(chain).__name__}")
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
