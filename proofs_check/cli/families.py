"""``proofs-check chain`` and ``proofs-check result`` on a parametric chain: the command bodies and their text."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from exactpte.io import chain_to_dict

from proofs_check.cli.output import WORDS, to_stdout, word, write_json
from proofs_check.judging.strength import Strength
from proofs_check.symbolic.claims import parametric_claim
from proofs_check.symbolic.proving import FamilyVerdict, check_claim, check_family, decided_on_stratum

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["verdict_lines", "family_main"]


def verdict_lines(verdicts: Sequence[FamilyVerdict]) -> str:
    """The verdicts as text, stratum by stratum (its whole region first, then a header and one line a check: verdict,
    strength, detail), a summary by verdict, and a last line counting what the decided verdicts rest on."""
    lines: list[str] = []
    w = max((len(v.key) for v in verdicts), default=5)
    sw = max((len(v.strength_text) for v in verdicts if v.holds is not None), default=8)
    stratum = None
    for v in verdicts:
        if v.stratum != stratum:
            stratum = v.stratum
            lines.append(f"stratum {v.stratum}: {', '.join(v.where) or 'a single chain'}")
            lines.append(f"  {'check'.ljust(w)}  {'verdict':14}  {'strength'.ljust(sw)}  detail")
        detail = v.detail if v.status != "held" or v.strength != Strength.PROVED.value else v.detail if v.kind == "conjecture" else ""
        strength = v.strength_text if v.holds is not None else "-"
        lines.append(f"  {v.key.ljust(w)}  {word(v.status):14}  {strength.ljust(sw)}  {detail[:240]}".rstrip())
        if v.holds is False and v.counterexample_chain is not None:
            lines.append(f"  {''.ljust(w)}  counterexample: {json.dumps(chain_to_dict(v.counterexample_chain))[:240]}")
    statuses = {s: sum(v.status == s for v in verdicts) for s in WORDS}
    lines.append(", ".join(f"{n} {s}" for s, n in statuses.items() if n or s in ("held", "failed")) + f" ({len(verdicts)} verdicts)")
    counts: dict[str, int] = {}
    for v in verdicts:
        if v.holds is not None:
            tag = "failed" if v.holds is False else Strength(v.strength).value  # "proved", not "Strength.PROVED"
            counts[tag] = counts.get(tag, 0) + 1
    lines.append(", ".join(f"{n} {tag}" for tag, n in sorted(counts.items())) + f" ({len(verdicts)} verdicts)")
    return "\n".join(lines)


def family_main(args: Any, chain: ParametricChain) -> int:
    """``proofs-check chain`` / ``result`` on a parametric chain (the CLI's command body)."""
    from exactpte.errors import ChainFileError, UsageError

    unsupported = [flag for flag, on in (("--anchors", getattr(args, "anchors", None)), ("--statistical", getattr(args, "statistical", False)),
                                         ("--max-dense", args.max_dense)) if on]
    if unsupported:
        raise UsageError(f"{', '.join(unsupported)} apply to rational chains; a parametric chain is checked per stratum "
                         "with exactpte's canonical anchors (check a point with ParametricChain.at for more)")
    if args.command == "chain":
        from proofs_check.runs.conjectures import CONJECTURES, load_conjectures

        labels = [k for path in getattr(args, "checks", []) for k in load_conjectures(path)]
        chosen = [k for k in labels if not args.only or k in args.only]
        only = [k for k in args.only if k not in labels] if args.only else None
        verdicts = check_family(chain, only=only, statements=[(k, CONJECTURES[k].func) for k in chosen])
    else:
        from exactpte.results.factored import expand

        from proofs_check.judging.readers import read_result_json

        data = read_result_json(args.result, parametric_n=chain.n)  # a key twice, an unknown key, another n: refused
        if "params" in data and (not isinstance(data["params"], list) or sorted(map(str, data["params"])) != sorted(chain.field.params)):
            raise ChainFileError(f"{args.result}: params {data['params']!r:.60} are not the chain's {list(chain.field.params)}")
        try:  # the --factored form: its names written out (bounded), then read as any entry
            data = expand(data)
        except ValueError as e:
            raise ChainFileError(f"{args.result}: {e}") from None
        verdicts = check_claim(chain, parametric_claim(data, chain), only=args.only)
    if args.json is not None:
        write_json([v.to_dict() for v in verdicts], args.json)
    if args.json is None or not to_stdout(args.json):
        print(verdict_lines(verdicts))
    problems = _unmet(verdicts, [x for x in (args.require or "").replace(" ", "").split(",") if x], args.strict)
    for line in problems:
        print(f"proofs-check: {line}", file=sys.stderr)
    return 1 if problems or any(v.holds is False for v in verdicts) else 0


def _unmet(verdicts: Sequence[FamilyVerdict], required: Sequence[str], strict: bool) -> list[str]:
    """``--require``: each named check (or quantity) holds, decided for every chain (``proved``, or ``exact`` on each
    chain of the stratum), on every stratum that holds chains; ``--strict``: every check that has a symbolic form and
    holds is decided so (none only ``exact`` on a whole family, or on ``witnesses``)."""
    from proofs_check.checks.quantities import QUANTITY_CHECKS
    from proofs_check.symbolic.identities import SYMBOLIC_CHECKS

    out: list[str] = []
    empty = {v.stratum for v in verdicts if v.key == "stratum" and v.detail.endswith("(empty)")}
    strata = sorted({v.stratum for v in verdicts} - empty)
    for name in required:
        key = QUANTITY_CHECKS.get(name, name)
        mine = {v.stratum: v for v in verdicts if v.key == key}
        if not mine:
            out.append(f"required {name}: not run")
            continue
        if any(k not in mine or not decided_on_stratum(mine[k]) for k in strata):
            out.append(f"required {name}: not proved on every stratum")
    if strict:
        weak = sorted({v.key for v in verdicts if v.holds is True and not decided_on_stratum(v) and
                       (v.key in SYMBOLIC_CHECKS or v.key.startswith("structure:"))})
        if weak:
            out.append(f"--strict: {len(weak)} check(s) held but not proved on some stratum: {', '.join(weak[:8])}")
    return out
