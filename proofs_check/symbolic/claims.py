"""Claimed closed forms of a family: a parametric claim read from its JSON text, and a claim at a point.

A parametric claim's entries are expression strings in the chain's parameters, read by exactpte's expression
parser (never evaluated) under a chain entry's bounds on the work, with an answer's exponent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import flint

from exactpte.fields import RationalFunction, RationalFunctionField

from proofs_check.judging.claims import Claimed
from proofs_check.judging.readers import from_json_dict

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["QUANTITIES", "parametric_claim", "evaluate_claim"]


QUANTITIES = ("basis", "theta", "g_star", "v_star", "rho", "h", "psi", "stationary", "class_gain", "absorption")
"""The claim's closed forms the symbolic checks read (``P_inf`` and ``hitting_times`` are not read)."""


def _deep(x: Any, leaf: Callable[[Any, str], Any], where: str) -> Any:
    if isinstance(x, list):
        return tuple(_deep(y, leaf, f"{where}[{k}]") for k, y in enumerate(x))
    return leaf(x, where)


def _claim_entry() -> Any:
    """The bounds on a parametric claim's entry (untrusted text): a chain entry's (10,000 characters, 2,000 terms,
    20,000-bit coefficients), with an answer's exponent (``p**70`` on a path of 72 states; a power past the other
    bounds is refused while it is formed).  ``RESULT_ENTRY`` whole (200,000 terms, 50 million characters) let a
    2 KB entry, a sum of 120 fractions in three parameters, take 16 s and 1.1 GB before it was refused."""
    import dataclasses

    from exactpte.fields.expressions import CHAIN_ENTRY, RESULT_ENTRY

    return dataclasses.replace(CHAIN_ENTRY, exponent=RESULT_ENTRY.exponent)


def parametric_claim(data: Mapping[str, Any], chain: ParametricChain) -> Claimed:
    """A claimed decomposition in the JSON contract whose numbers are closed forms in the chain's parameters
    (expression strings as ``exactpte decompose --json`` writes them), each read by exactpte's expression
    parser (never evaluated).  The structure keys are read and checked by
    :func:`~proofs_check.judging.readers.from_json_dict`; a claim without ``absorption`` on a chain without
    transient states gets the one it implies (1 on its own class)."""
    from exactpte.errors import ChainFileError, ExactpteError
    from exactpte.fields.expressions import parse_expression


    CLAIM_ENTRY = _claim_entry()
    if not isinstance(data, Mapping):
        raise ChainFileError("a result is a JSON object (the contract of 'exactpte decompose --json')")
    F = chain.field
    shaped = {k: (_deep(v, lambda _x, _w: "0", k) if k in QUANTITIES and isinstance(v, list) else v) for k, v in data.items()}
    shaped = {k: (_lists(v) if isinstance(v, tuple) else v) for k, v in shaped.items()}
    shaped.pop("P_inf", None)
    shaped.pop("hitting_times", None)
    skeleton = from_json_dict(dict(shaped), chain.n)

    def leaf(x: Any, where: str) -> Any:
        if isinstance(x, bool) or not isinstance(x, (str, int)):
            raise ChainFileError(f"result {where} must be a number or an expression string, got {x!r:.40}")
        try:  # a chain entry's bounds on the work (length, terms, bits), an answer's on the exponent (p**70 on a path)
            return parse_expression(x, F, f"result {where}", limits=CLAIM_ENTRY) if isinstance(x, str) else F.convert(x, f"result {where}")
        except ExactpteError as e:
            raise ChainFileError(str(e)) from None

    values = {k: _deep(data[k], leaf, k) for k in QUANTITIES if isinstance(data.get(k), list) and getattr(skeleton, k) is not None}
    claimed = skeleton.replace(**values)
    P_inf = data.get("P_inf")
    if claimed.absorption is None and isinstance(P_inf, list) and len(P_inf) == chain.n and \
            all(isinstance(row, list) and len(row) == chain.n for row in P_inf):
        # exactpte's JSON states P_inf, not the absorption probabilities: alpha_i(s) = sum_{y in F_i} P_inf(s, y)
        # (pi_i sums to 1); claim:P_inf then checks the claimed P_inf is sum_i alpha_i pi_i^T entry by entry
        rows = _deep(P_inf, leaf, "P_inf")
        absorption = tuple(tuple(sum((rows[s][y] for y in members), F.zero) for members in claimed.classes) for s in range(chain.n))
        claimed = claimed.replace(absorption=absorption, P_inf=rows)
    if claimed.absorption is None and claimed.transient is not None and not claimed.transient:
        owner = {s: i for i, members in enumerate(claimed.classes) for s in members}
        claimed = claimed.replace(absorption=tuple(tuple(F.one if owner.get(s) == i else F.zero for i in range(len(claimed.classes)))
                                                   for s in range(chain.n)))
    return claimed


def _lists(x: Any) -> Any:
    return [_lists(y) for y in x] if isinstance(x, tuple) else x


def evaluate_claim(claimed: Claimed, field: RationalFunctionField, point: Sequence[flint.fmpq]) -> Claimed:
    """The claim's closed forms at a rational point (structure kept), for the rational checks."""

    def at(x: Any) -> Any:
        if isinstance(x, (tuple, list)):
            return tuple(at(y) for y in x)
        return field.evaluate(x, list(point)) if isinstance(x, RationalFunction) else x

    changes = {name: at(getattr(claimed, name)) for name in ("basis", "theta", "g_star", "v_star", "rho", "h", "psi",
                                                             "stationary", "class_gain", "absorption")
               if getattr(claimed, name) is not None}
    return claimed.replace(**changes)
