"""``proofs-check chain`` and ``proofs-check result`` on a parametric chain: the command bodies and their text."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from proofs_check.judging.strength import Strength
from proofs_check.symbolic.claims import parametric_claim
from proofs_check.symbolic.proving import FamilyVerdict, check_claim, check_family

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["verdict_lines", "family_main"]


def verdict_lines(verdicts: Sequence[FamilyVerdict]) -> str:
    """The verdicts as text, stratum by stratum (its conditions first), with a summary of strengths."""
    lines: list[str] = []
    w = max((len(v.key) for v in verdicts), default=0)
    stratum = None
    for v in verdicts:
        if v.stratum != stratum:
            stratum = v.stratum
            lines.append(f"stratum {v.stratum}: {', '.join(v.where) or 'a single chain'}")
        mark = {"held": "ok", "failed": "FAIL"}.get(v.status, "n/a")
        detail = v.detail if v.status != "held" or v.strength != Strength.PROVED.value else ""
        lines.append(f"  {v.key.ljust(w)}  {mark:4}  {(v.strength.value if v.holds is not None else '-'):9}  {detail[:240]}".rstrip())
    counts: dict[str, int] = {}
    for v in verdicts:
        if v.holds is not None:
            tag = "failed" if v.holds is False else Strength(v.strength).value  # "proved", not "Strength.PROVED"
            counts[tag] = counts.get(tag, 0) + 1
    lines.append(", ".join(f"{n} {tag}" for tag, n in sorted(counts.items())) + f" ({len(verdicts)} verdicts)")
    return "\n".join(lines)


def family_main(args: Any, chain: ParametricChain) -> int:
    """``proofs-check chain`` / ``result`` on a parametric chain (the CLI's command body)."""
    import json

    from exactpte.errors import ChainFileError, UsageError

    unsupported = [flag for flag, on in (("--anchors", getattr(args, "anchors", None)), ("--statistical", getattr(args, "statistical", False)),
                                         ("--max-dense", args.max_dense)) if on]
    if unsupported:
        raise UsageError(f"{', '.join(unsupported)} apply to rational chains; a parametric chain is checked per stratum "
                         "with exactpte's canonical anchors (check a point with ParametricChain.at for more)")
    if args.command == "chain":
        verdicts = check_family(chain, only=args.only)
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
    print(json.dumps([v.to_dict() for v in verdicts], indent=1) if args.json else verdict_lines(verdicts))
    problems = _unmet(verdicts, [x for x in (args.require or "").replace(" ", "").split(",") if x], args.strict)
    for line in problems:
        print(f"proofs-check: {line}", file=sys.stderr)
    return 1 if problems or any(v.holds is False for v in verdicts) else 0


def _unmet(verdicts: Sequence[FamilyVerdict], required: Sequence[str], strict: bool) -> list[str]:
    """``--require``: each named check (or quantity) proved on every stratum; ``--strict``: every verdict that
    holds is ``proved`` (none only ``exact`` or ``witnesses``)."""
    from proofs_check.checks.quantities import QUANTITY_CHECKS

    out: list[str] = []
    for name in required:
        key = QUANTITY_CHECKS.get(name, name)
        mine = [v for v in verdicts if v.key == key]
        if not mine:
            out.append(f"required {name}: not run")
        elif not all(v.holds is True and v.strength == Strength.PROVED.value for v in mine):
            out.append(f"required {name}: not proved on every stratum")
    if strict:
        weak = sorted({v.key for v in verdicts if v.holds is True and v.strength != Strength.PROVED.value})
        if weak:
            out.append(f"--strict: {len(weak)} check(s) held but not proved on some stratum: {', '.join(weak[:8])}")
    return out
