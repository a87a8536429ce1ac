"""``proofs-check``: every theorem check on a chain, on another tool's result, or on a sweep."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence

import exactpte
from exactpte.cli.options import (ArgumentParser, add_chain_options, add_command, require_writable_folder, require_writable_file, load_chain, nonnegative_int,
                                  parse_anchors, positive_int, run_guarded)
from exactpte import MarkovRewardProcess
from exactpte.errors import ExactpteError, UsageError

from proofs_check.checks import CHECKS, run_checks
from proofs_check.checks.quantities import QUANTITY_CHECKS
from proofs_check.cli.output import add_json_option, to_stdout, word, write_json
from proofs_check.judging.claims import from_decomposition
from proofs_check.judging.readers import load_result
from proofs_check.judging.registry import Verdict, strength_label
from proofs_check.judging.strength import Strength
from proofs_check.runs.sweep import sweep

__all__ = ["main", "unmet"]

P_INF_CLAIM_LIMIT = 2000
"""``proofs-check chain`` judges exactpte's ``P∞`` up to this many states (an ``n x n`` claim: 4M entries, checked
entry by entry against the block route's factored ``α_i(s) π_i(y)``); past it ``P_inf`` is "not claimed"."""


def _keys(text: str) -> list[str]:
    """``--only a,b`` (repeatable) as check keys, as ``exactpte decompose --only`` and ``--require`` take them."""
    keys = [x.strip() for x in text.split(",")]
    if not all(keys):
        raise argparse.ArgumentTypeError(f"expected comma-separated check keys, got {text!r}")
    return keys


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="proofs-check", description="Check the paper's theorems exactly.",
                       epilog="'proofs-check COMMAND --help' shows a command's options and examples.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)
    c = add_command(sub, "chain", "every check on one chain (decomposed by exactpte)", [
        "proofs-check chain --example paper-benchmark",
        "proofs-check chain model.drn --only thm:wellposed,lem:Pi_identity --json",
        "proofs-check chain chain.json --statistical --runs 20"])
    add_chain_options(c, positional=True)
    c.add_argument("--anchors", metavar="A,B,...", help="one anchor state per cyclic class, in (class, phase) order "
                                                        "(as 'exactpte decompose --anchors')")
    _judging_options(c)
    c.add_argument("--statistical", action="store_true",
                   help="also run the statistical checks of the sample-based estimator (see 'proofs-check statistical')")
    c.add_argument("--runs", type=positive_int, default=None, help="with --statistical: repetitions per statistical check")
    c.add_argument("--checks", metavar="FILE", action="append", default=[],
                   help="a Python file registering conjectures (@proofs_check.conjecture), run beside the paper's checks: "
                        "on a parametric family, proved per stratum or checked at points; repeatable")
    r = add_command(sub, "result", "judge a decomposition written by any implementation (JSON contract)", [
        "proofs-check result theirs.json --chain chain.json",
        "proofs-check result theirs.json --chain chain.json --require rho,h --strict"])
    r.add_argument("result", help="a decomposition in the JSON contract of 'exactpte decompose --json'")
    add_chain_options(r, positional=False)
    _judging_options(r)
    v = add_command(sub, "verify", "the small trusted checker (proofs_check/trusted/verify.py, standard library only): a rational "
                                   "claim in the JSON contract, equation by equation; exit 0 valid, 1 not, 2 unusable input", [
        "exactpte decompose chain.json --json > claim.json && proofs-check verify claim.json --chain chain.json",
        "proofs-check verify claim.json --example paper-benchmark --json"])
    v.add_argument("claim", help="a decomposition in the JSON contract of 'exactpte decompose --json' (rational)")
    add_chain_options(v, positional=False)  # a .json chain is read by verify.py itself; other formats by exactpte's readers
    add_json_option(v, "the verdict")
    v.add_argument("--require", metavar="KEYS", help="comma-separated keys of the contract the claim must carry and "
                   "pass (e.g. classes,g_star,v_star): a claim lacking one is INVALID (exit 1), naming it")
    v.add_argument("--strict", action="store_true", help="require every key of the contract (" + ", ".join(trusted_keys()) + ")")
    v.add_argument("--size-factor", type=positive_int, default=None,
                   help="size budget of the claim's numbers and common denominators, in multiples of the chain's bits "
                        "(default 32: a hostile claim cannot make the checker multiply out huge denominators)")
    s = add_command(sub, "sweep", "every check on many seeded random chains", [
        "proofs-check sweep --chains 300 --max-states 12",
        "proofs-check sweep --chains 2000 --min-states 6 --max-states 20 --workers 2 --plot coverage.svg",
        "proofs-check sweep --checks my_conjecture.py --only my:conjecture --chains 500"])
    s.add_argument("--chains", type=positive_int, default=200, help="how many random chains (default: 200)")
    s.add_argument("--seed", type=nonnegative_int, default=0, help="sweep seed; chain i is rebuilt from (seed, i) (default: 0)")
    s.add_argument("--max-states", type=positive_int, default=12, help="largest chain size (default: 12)")
    s.add_argument("--min-states", type=positive_int, default=1, help="smallest chain size (default: 1)")
    s.add_argument("--certified", action="store_true",
                   help="also run certified:enclosures (exactpte's own certified float cross-check; off by default: "
                        "the sweep tests the theorems)")
    s.add_argument("--only", action="extend", type=_keys, metavar="KEYS", help="run only these checks, comma-separated (see 'proofs-check list')")
    s.add_argument("--workers", type=positive_int, default=1, help="worker processes (default: 1)")
    s.add_argument("--checks", metavar="FILE", action="append", default=[],
                   help="a Python file registering conjectures (@proofs_check.conjecture); repeatable")
    add_json_option(s, "the report")
    s.add_argument("--failures", metavar="DIR", default="sweep-failures",
                   help="where shrunk counterexamples are written, smallest first (default: sweep-failures)")
    s.add_argument("--plot", metavar="FILE", help="draw the coverage histograms (.svg, .png or .pdf; needs matplotlib)")
    s.add_argument("--dask", metavar="ADDRESS", help="run the chains on a Dask scheduler (tcp://host:port); pip install \".[dask]\"")
    s.add_argument("--quiet", action="store_true", help="no progress output")
    from proofs_check.cli.exhaustive import add_exhaustive_command

    add_exhaustive_command(sub, keys=_keys)
    st = add_command(sub, "statistical", "the estimator's statistical checks on one chain (exact references from "
                                         "proofs_check's routes)", [
        "proofs-check statistical --example paper-benchmark",
        "proofs-check statistical chain.json --runs 40 --alpha 0.05 --json"])
    add_chain_options(st, positional=True)
    st.add_argument("--runs", type=positive_int, default=None, help="independent repetitions per check (default: each check's own)")
    st.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the repetitions (default: 0)")
    st.add_argument("--alpha", type=float, default=0.01, help="level of each check, Holm-corrected within it (default: 0.01)")
    st.add_argument("--only", action="extend", type=_keys, metavar="KEYS", help="run only these statistical checks, comma-separated")
    add_json_option(st, "the verdicts")
    lst = add_command(sub, "list", "the check keys and their statements", ["proofs-check list", "proofs-check list --labels"])
    lst.add_argument("--labels", action="store_true", help="also every label of the paper with its check or the reason it has none")
    return p


def _judging_options(sp: argparse.ArgumentParser) -> None:
    """What to run and what counts as passing (``chain`` and ``result``)."""
    sp.add_argument("--only", action="extend", type=_keys, metavar="KEYS", help="run only these checks, comma-separated (see 'proofs-check list')")
    add_json_option(sp, "the verdicts")
    sp.add_argument("--max-dense", type=positive_int, default=None,
                    help="largest chain for the dense independent routes (default 1500); larger: those checks are 'not checked'")
    sp.add_argument("--require", metavar="KEYS",
                    help="comma-separated quantities (" + ", ".join(QUANTITY_CHECKS) + ") or check keys that must be "
                         "claimed, checked and held: otherwise exit 1")
    sp.add_argument("--strict", action="store_true",
                    help="exit 1 when any check is 'not claimed' or 'not checked' (not only when one failed)")


def _load(args: argparse.Namespace, path: str | None, *, parametric: bool = False) -> MarkovRewardProcess:
    """The chain named on the command line, refused when parametric (unless ``parametric``); its loading
    notes (``r = 0``) on stderr."""
    chain = load_chain(args, path)
    where = path or f"example {args.example!r}"
    if parametric and isinstance(chain, exactpte.ParametricChain):
        return chain  # type: ignore[return-value]
    if chain.field.is_parametric or not isinstance(chain, MarkovRewardProcess):
        raise ExactpteError(f"{where} is a parametric chain; the checks run on rational chains: "
                            "check the closed form at points (ParametricChain.at) instead")
    for note in chain.notes:
        print(f"proofs-check: note: {note}", file=sys.stderr)
    return chain


def _judge(args: argparse.Namespace) -> int:
    """``chain`` (exactpte's decomposition of the chain) and ``result`` (a claimed decomposition from a file)."""
    chain = _load(args, args.file if args.command == "chain" else args.chain, parametric=True)
    if isinstance(chain, exactpte.ParametricChain):  # every check on every stratum, proved over QQ(params)
        from proofs_check.cli.families import family_main

        return family_main(args, chain)
    if args.command == "chain":
        dec = exactpte.decompose(chain, anchors=parse_anchors(args.anchors))
        claimed = from_decomposition(dec, with_P_inf=chain.n <= max(args.max_dense or 0, P_INF_CLAIM_LIMIT))
    else:
        claimed = load_result(args.result, chain.n)
    labels = _conjecture_labels(args)
    checks = [k for k in args.only if k not in labels] if args.only else None
    verdicts = run_checks(chain, claimed, only=checks, max_dense=args.max_dense) if checks is None or checks else []
    if args.command == "chain" and args.statistical:
        from proofs_check.statistical.checks import run_statistical

        verdicts += run_statistical(chain, runs=args.runs)
    if labels:
        verdicts += _conjecture_verdicts(chain, labels, args.only)
    required = [x for x in (args.require or "").replace(" ", "").split(",") if x]
    problems = unmet(verdicts, required=required, strict=args.strict)
    notes = list(chain.notes)
    if args.json is not None:
        write_json([v.to_dict() for v in verdicts], args.json)
    if args.json is None or not to_stdout(args.json):
        print("\n".join([f"note: {x}" for x in notes] + [_verdict_table(verdicts)] + problems))
    else:
        for p in problems:
            print(f"proofs-check: {p}", file=sys.stderr)
    return 1 if problems or any(v.holds is False for v in verdicts) else 0


def _conjecture_labels(args: argparse.Namespace) -> list[str]:
    """The conjectures ``--checks`` files register (``--only`` may name them), refused on ``result``."""
    from proofs_check.runs.conjectures import load_conjectures

    files = getattr(args, "checks", [])
    return [k for path in files for k in load_conjectures(path)]


def _conjecture_verdicts(chain: MarkovRewardProcess, labels: Sequence[str], only: Sequence[str] | None) -> list[Verdict]:
    """Each conjecture on one rational chain: decided exactly on it."""
    from proofs_check.runs.conjectures import CONJECTURES, evaluate

    dec = exactpte.decompose(chain)
    out = []
    for label in labels:
        if only and label not in only:
            continue
        detail = evaluate(CONJECTURES[label], chain, dec)
        out.append(Verdict(label, CONJECTURES[label].statement, detail is None, detail or "", kind="conjecture"))
    return out


def unmet(verdicts: Sequence[Verdict], *, required: Sequence[str] = (), strict: bool = False) -> list[str]:
    """Why ``--require``/``--strict`` fail this run (empty when they are met): each required quantity or
    check that is not claimed, not checked, not run or failed; with ``strict``, every check not claimed
    or not checked."""
    by_key = {v.key: v for v in verdicts}
    out = []
    for name in required:
        key = QUANTITY_CHECKS.get(name, name)
        if key not in CHECKS and key not in by_key:
            raise UsageError(f"--require: unknown quantity or check {name!r}; quantities: {', '.join(QUANTITY_CHECKS)}")
        v = by_key.get(key)
        if v is None:
            out.append(f"required {name}: not run (left out by --only)")
        elif v.status in ("not claimed", "not checked", "failed"):
            out.append(f"required {name}: {v.status}" + (f" ({v.detail})" if v.status == "failed" else ""))
    if strict:
        for status in ("not claimed", "not checked"):
            keys = [v.key for v in verdicts if v.status == status]
            if keys:
                out.append(f"--strict: {len(keys)} check(s) {status}: {', '.join(keys)}")
    return out


STATUSES = ("held", "failed", "not applicable", "not claimed", "not checked", "not provable")
"""Every status a verdict can have, in the order the summaries count them."""


def _lines(verdicts: Sequence[Verdict], w: int) -> list[str]:
    """A header, then one line a verdict: key, verdict, the strength a "held" rests on (docs/verdict-strength.md), detail."""
    sw = max((len(v.strength_text) for v in verdicts), default=8)
    lines = [f"{'check'.ljust(w)}  {'verdict':14}  {'strength'.ljust(sw)}  detail"]
    for v in verdicts:
        detail = v.detail if v.status in ("failed", "not claimed", "not checked") or (v.holds and v.detail) else ""
        strength = v.strength_text if v.holds is not None else "-"  # n/a, not claimed, not checked: nothing decided
        lines.append(f"{v.key.ljust(w)}  {word(v.status):14}  {strength.ljust(sw)}  {_short_numbers(detail)}".rstrip())
    return lines


def _short_numbers(detail: str) -> str:
    """A verdict's detail with each integer of more than 60 digits shortened to its first digits and its length (a
    hostile claim's 200000-digit entry made every failing check print it whole; ``--json`` keeps the full text)."""
    return re.sub(r"[0-9]{61,}", lambda m: f"{m[0][:20]}...({len(m[0])} digits)", detail)


def _count(verdicts: Sequence[Verdict], what: str) -> str:
    count = {status: sum(v.status == status for v in verdicts) for status in STATUSES}
    strengths: dict[str, int] = {}
    for v in verdicts:
        if v.holds is True:
            strengths[v.strength_text] = strengths.get(v.strength_text, 0) + 1
    by = ", ".join(f"{n} {s}" for s, n in sorted(strengths.items()))
    return (f"{len(verdicts)} {what}: {count['held']} held{f' ({by})' if by else ''}, {count['failed']} failed, "
            f"{count['not applicable']} not applicable, {count['not claimed']} not claimed, {count['not checked']} not checked"
            + (f", {count['not provable']} not provable" if count["not provable"] else ""))


def _verdict_table(verdicts: Sequence[Verdict]) -> str:
    """The verdicts, the independent checks apart from exactpte's own cross-check, with a summary naming
    every quantity not claimed and warning of every check not checked."""
    w = max((len(v.key) for v in verdicts), default=0)
    own = [v for v in verdicts if v.kind != "cross-check"]
    cross = [v for v in verdicts if v.kind == "cross-check"]
    lines = _lines(own, w)
    if cross:
        lines += ["", "exactpte's own cross-check (not independent: exactpte's structure code and certified solver):"]
        lines += _lines(cross, w)
    lines.append(_count(own, "independent checks"))
    if cross:
        lines.append(_count(cross, "cross-check(s) by exactpte"))
    missing = [v.detail.removeprefix("not claimed: ") for v in verdicts if v.status == "not claimed"]
    if missing:
        lines.append(f"not claimed (the result leaves them out, so nothing judged them): {', '.join(missing)}")
    skipped = [v.key for v in verdicts if v.status == "not checked"]
    if skipped:
        why = sorted({v.detail.removeprefix("not checked: ") for v in verdicts if v.status == "not checked" and v.detail})
        lines.append(f"WARNING: {len(skipped)} check(s) not checked: {', '.join(skipped)} ({'; '.join(why) or 'past the exact routes limits'}); "
                     "use --strict to make this exit 1")
    return "\n".join(lines)


def _emit(verdicts: Sequence[Verdict], target: str | None) -> int:
    if target is not None:
        write_json([v.to_dict() for v in verdicts], target)
    if target is None or not to_stdout(target):
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
        from proofs_check.judging.labels import COVERAGE
        from proofs_check.statistical.tests import ALPHA
        from proofs_check.statistical.checks import STATISTICAL

        rows = [(key, chk.kind, strength_label(chk.strength, witnesses=chk.witnesses), chk.statement) for key, chk in CHECKS.items()]
        for key, func in STATISTICAL.items():  # the docstring's first paragraph; reST literals read as plain text
            summary = " ".join((func.__doc__ or "").strip().split("\n\n")[0].split())
            rows.append((key, "statistical", strength_label(Strength.STATISTICAL, level=ALPHA), summary.replace("``", "")))
        from proofs_check.symbolic.engine_routes import ROUTE_STATEMENTS

        rows += [(key, "family", "proved" if key == "routes:engine" else "witnesses (N points)", statement)
                 for key, statement in ROUTE_STATEMENTS.items()]
        widths = [max(len(r[j]) for r in rows + [("check", "kind", "strength of a held", "")]) for j in range(3)]
        print(f"{'check'.ljust(widths[0])}  {'kind'.ljust(widths[1])}  {'strength of a held'.ljust(widths[2])}  statement")
        for row in rows:
            print("  ".join(x.ljust(w) for x, w in zip(row[:3], widths)) + "  " + row[3])
        if args.labels:
            print("\npaper labels (label -> check keys, or why it has none):")
            for c in COVERAGE.values():
                print(f"{c.label}  ->  {', '.join(c.checks) if c.checks else c.reason}")
        return 0
    if args.command in ("chain", "result"):
        return _judge(args)
    if args.command == "verify":
        return _verify(args)
    if args.command == "statistical":
        return _statistical(args)
    if args.command in ("sweep", "exhaustive"):  # a report that cannot be written is refused before the run, not after it
        require_writable_file(None if to_stdout(args.json) else args.json, "--json")
        require_writable_file(getattr(args, "plot", None), "--plot", picture=True)
        require_writable_folder(args.failures, "--failures")
    if args.command == "exhaustive":
        from proofs_check.cli.exhaustive import main_exhaustive

        return main_exhaustive(args)
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
    out = sys.stderr if to_stdout(args.json) else sys.stdout  # the JSON on stdout: the table goes to stderr
    print(report.table(), file=out)
    for line in report.failure_lines(20):
        print(line, file=out)
    if args.json is not None:
        write_json(report.to_dict(), args.json)
    if args.plot:
        from exactpte.plots import plot_coverage, save

        from proofs_check.runs.sweep import HISTOGRAM_NAMES

        save(plot_coverage(report.histograms, titles=HISTOGRAM_NAMES), args.plot)
    return 0 if report.failed == 0 else 1


def _verify(args: argparse.Namespace) -> int:
    """``proofs-check verify``: a JSON chain goes to the trusted file's own reader; other formats are read by exactpte
    here, outside the trusted file, and handed over as the plain JSON chain dict."""
    from proofs_check.trusted import verify as trusted
    from proofs_check.trusted.policy import enforce, missing_required, required_keys

    try:
        claim = trusted.load_json(args.claim)
        if args.chain and args.chain.endswith((".json", ".json.gz")) and not (args.rewards or args.labels or args.reward_model):
            chain = trusted.load_json(args.chain, exact_floats=True)
        else:
            m = _load(args, args.chain)
            chain = {"n": m.n, "edges": [[i, j, str(p)] for i, j, p in m.edges()], "r": [str(x) for x in m.r],
                     **({"labels": list(m.labels)} if m.labels is not None else {})}
        required = required_keys(args.require, strict=args.strict)
        report = trusted.verify(claim, chain, size_factor=args.size_factor or trusted.SIZE_FACTOR)
        unmet_lines = enforce(report, required)
    except ExactpteError:
        raise
    except ValueError as e:  # verify.py's unusable input (it raises ValueError only: it imports no exactpte)
        raise ExactpteError(str(e)) from None
    results = [(k, TRUSTED_STATUS.get(st, st), d) for k, st, d in report.results]
    if args.json is not None:
        write_json({"valid": report.valid, "failure": report.failure and dict(zip(("key", "state", "message"), report.failure)),
                    "results": [{"key": k, "status": st, "strength": "exact" if st == "held" else None, "detail": d}
                                for k, st, d in results],
                    "required_not_verified": [k for k, _ in missing_required(report, required)]}, args.json)
    if args.json is None or not to_stdout(args.json):
        w = max((len(k) for k, _st, _d in results), default=5)
        lines = [f"{'key'.ljust(w)}  {'verdict':14}  {'strength':8}  detail"]
        lines += [f"{k.ljust(w)}  {word(st):14}  {'exact' if st == 'held' else '-':8}  {d}".rstrip() for k, st, d in results]
        print("\n".join([*lines, report.text().splitlines()[-1], *unmet_lines]))
    return 0 if report.valid else 1


TRUSTED_STATUS = {"ok": "held", "FAIL": "failed"}
"""The trusted checker's own words (it stands alone, standard library only) in the vocabulary of every other report."""


def trusted_keys() -> tuple[str, ...]:
    """The keys of the JSON contract, in the trusted checker's order (``--strict`` requires them all)."""
    from proofs_check.trusted.verify import KEYS

    return KEYS


def _statistical(args: argparse.Namespace) -> int:
    from proofs_check.statistical.checks import run_statistical

    chain = _load(args, args.file)
    if not 0 < args.alpha < 1:
        raise UsageError(f"--alpha must lie in (0, 1), got {args.alpha}")
    verdicts = run_statistical(chain, only=args.only, runs=args.runs, seed=args.seed, alpha=args.alpha)
    if args.json is None or not to_stdout(args.json):  # the p-values are the point: print every verdict's detail
        for v in verdicts:
            print(f"{v.key}  {v.status}  ({v.seconds:.1f} s)\n    {v.detail}")
        print()
    return _emit(verdicts, args.json)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
