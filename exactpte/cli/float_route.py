"""Float chains from the command line: ``--floats exact``, ``--limit-denominator N``, ``--tol``, ``--clip-negative``.

By default a chain file's decimals are read exactly (``0.1`` is 1/10), so rows written by a float
pipeline (three rounded thirds, a ``-5.55e-17`` left by a subtraction, float32 rows) are refused.
The float route reads them under the stated rule of :mod:`exactpte.numbers.from_floats`:

1. ``--clip-negative ATOL``: entries in ``[-ATOL, 0)`` become 0 (counted in the chain's notes); a
   more negative entry is still refused;
2. each number becomes the exact value of the binary float it denotes (``--floats exact``), or with
   ``--limit-denominator N`` the nearest fraction with denominator at most ``N``;
3. each row's difference ``1 - sum`` is put on its largest entry when ``|1 - sum| <= --tol``
   (default ``1e-9``; float32 rows need ``--tol 1e-6``).

The chain's ``notes`` (printed on standard error) state the rule and every change.  JSON chain
files (dense ``P`` or ``n`` and ``edges``) and CSV edge lists (``source,target,probability``, with
``--rewards R.csv``); other formats: ``MarkovRewardProcess.from_float``.
:func:`suggestion` is what the refusal of a float file suggests: the option that fits.

Examples
--------
>>> suggestion([[1 / 3, 1 / 3, 1 / 3]])
'--floats exact (float rows: each number read as its exact binary value, rows repaired within --tol 1e-9)'
>>> suggestion([[0.5, 0.50000006]])
'--floats exact --tol 1e-6 (float32 rows, about 7 significant digits: off by up to 6e-08)'
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactpte.cli.types import positive_int, tolerance
from exactpte.errors import ChainFileError, UsageError, brief

if TYPE_CHECKING:
    from exactpte.model.chain import MarkovRewardProcess

__all__ = ["add_float_options", "float_route", "load_float_chain", "suggestion", "float_rows"]

FLOAT32_TOL = 1e-6
"""The row tolerance float32 rows need (7 significant digits: a row of a few entries is off by up to ~1e-7)."""


def add_float_options(sp: argparse.ArgumentParser, *, with_tol: bool) -> None:
    """The float-route options (``--tol`` only where the command has none of its own)."""
    sp.add_argument("--floats", choices=("decimal", "exact"), default=None,
                    help="how a JSON chain's decimals are read: 'decimal' (default: 0.1 is 1/10, rows must sum to 1 "
                         "exactly) or 'exact' (each the exact value of its binary float, rows repaired within --tol)")
    sp.add_argument("--limit-denominator", type=positive_int, default=None, metavar="N",
                    help="float route: each number becomes the nearest fraction with denominator <= N")
    sp.add_argument("--clip-negative", type=tolerance, default=None, metavar="ATOL",
                    help="float route: entries in [-ATOL, 0) (residues of float subtractions) become 0")
    if with_tol:
        sp.add_argument("--tol", type=tolerance, default=None,
                        help="float route: the largest |1 - row sum| repaired (default 1e-9; float32 rows: 1e-6)")



def float_route(args: argparse.Namespace) -> bool:
    """Whether the float route was asked for (``--floats exact``, ``--limit-denominator`` or ``--clip-negative``)."""
    return (getattr(args, "floats", None) == "exact" or getattr(args, "limit_denominator", None) is not None
            or getattr(args, "clip_negative", None) is not None)


_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
_FRACTION = re.compile(r"[+-]?\d+/\d+", re.ASCII)
_NONZERO_DIGIT = re.compile(r"[1-9]")


def _float_index(token: str, where: str) -> int:
    """A state index of a float-route CSV: ASCII digits, or a decimal whose exact value is a non-negative
    integer, as ``np.savetxt`` writes a float array's index columns (``2.000000000000000000e+00`` is 2;
    ``2.5`` and ``-1.0`` are refused).

    >>> _float_index("2.000000000000000000e+00", "e.csv: line 1"), _float_index("7", "e.csv: line 1")
    (2, 7)
    """
    from exactpte.io.common import state_index

    if _DECIMAL.fullmatch(token) and not _INTEGER.fullmatch(token) and len(token) <= 40:
        value = Fraction(token)
        if value.denominator == 1 and 0 <= value < 10**12:
            return int(value)
        raise ChainFileError(f"{where}: {brief(token, 30, quoted=True)} is not a state index (a non-negative integer)")
    return state_index(token, where)


def _float_token(token: str, where: str) -> Any:
    """A number token of a float-route file (a CSV cell, or a JSON float through ``parse_float``): an integer, a float (a decimal literal), or
    the text of an exact fraction (``1/3``, read exactly later); anything else is refused by name:
    digits other than ASCII ``0-9`` (Python's ``int`` takes ``'١'``), a decimal beyond the float range
    (``1e999`` is ``inf``), a non-zero decimal that underflows to ``0.0`` (``1e-999``: a written edge
    would vanish from the graph), a zero denominator."""
    from exactpte.io.common import exact_value

    if _INTEGER.fullmatch(token):
        return int(token)
    if _DECIMAL.fullmatch(token):
        x = float(token)
        if math.isinf(x):
            raise ChainFileError(f"{where}: {brief(token, 30, quoted=True)} is beyond the float range (it reads as {x}); "
                                 f"write it exactly and drop --floats exact")
        mantissa = token.lower().partition("e")[0]
        if x == 0.0 and _NONZERO_DIGIT.search(mantissa):
            raise ChainFileError(f"{where}: {brief(token, 30, quoted=True)} is not 0 but underflows to 0.0 as a float; "
                                 f"write it exactly and drop --floats exact")
        return x
    if _FRACTION.fullmatch(token):
        exact_value(token, where)  # the exact reader's rules (a zero denominator is refused here, by line)
        return token
    raise ChainFileError(f"{where}: {brief(token, 30, quoted=True)} is not a number (a decimal such as 0.25 or 2.5e-3, or a fraction p/q)")


def float_rows(path: str, rewards: str | None = None) -> dict[str, Any]:
    """The chain file at ``path`` with its numbers as Python floats (strings such as ``"1/3"`` kept):
    a JSON chain file, or a CSV edge list (``source,target,probability``) with an optional reward CSV
    (``rewards``; the rules of :mod:`exactpte.io.csv`)."""
    from exactpte.io import read_text
    from exactpte.io.csv import edge_rows

    name = str(path).lower()
    for codec in (".gz", ".xz", ".bz2"):  # a compressed chain file: judged by the name under the codec's ending
        name = name.removesuffix(codec)
    if name.endswith(".csv"):
        n, edges, r = edge_rows(read_text(path), read_text(rewards) if rewards else None, value=_float_token, zero=0,
                                source=str(path), reward_source=str(rewards), index=_float_index)
        return {"n": n, "edges": edges, "r": r}
    if rewards is not None:
        raise UsageError(f"--rewards goes with a .csv edge list on the float route; a .json chain file has its 'r' ({path})")
    if not name.endswith(".json"):
        raise UsageError(f"the float route (--floats exact, --limit-denominator, --clip-negative) reads .json chain files "
                         f"and .csv edge lists; for {path} import in Python with MarkovRewardProcess.from_float")
    from exactpte.io.json import KEYS, integer_literal, unique_keys

    try:  # the format's rules as the exact reader keeps them (docs/formats.md); only the decimals are read otherwise
        data = json.loads(read_text(path), parse_float=lambda token: _float_token(token, str(path)),
                          parse_int=integer_literal, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{path}: not valid JSON ({e})") from None
    except (ValueError, RecursionError) as e:  # a repeated key, an integer past the digit limit, deep nesting
        raise ChainFileError(f"{path}: {'nested too deeply' if isinstance(e, RecursionError) else e}") from None
    if "params" in (data if isinstance(data, dict) else {}):
        raise UsageError(f"{path} is a parametric chain: the float route reads numbers, not expressions")
    _json_form(data, str(path), KEYS)
    checked: dict[str, Any] = data  # _json_form has checked it is an object of the format's keys
    return checked


def _json_form(data: Any, path: str, keys: Sequence[str]) -> None:
    """The shape rules of a JSON chain file (json-unknown-key, json-form, json-types): the float route's values are
    checked by :func:`exactpte.model.chain.import_chain`, its shape here (a string row was split into characters,
    a fourth entry of an edge dropped, a label 5 read as ``"5"``)."""
    if not isinstance(data, dict) or "r" not in data or ("P" in data) == ("n" in data or "edges" in data):
        raise ChainFileError(f"{path}: a chain file has 'r' and either 'P' (dense) or 'n' and 'edges' (sparse), not both")
    if unknown := sorted(str(k) for k in data if k not in keys):
        raise ChainFileError(f"{path}: unknown key(s) {unknown}; a chain file has the keys {', '.join(keys)}")
    rows, what = (data["P"], "P") if "P" in data else (data.get("edges"), "edges")
    if not isinstance(rows, list) or not isinstance(data["r"], list):
        raise ChainFileError(f"{path}: '{what}' and 'r' are lists")
    for i, row in enumerate(rows):
        if not isinstance(row, list) or (what == "edges" and len(row) != 3):
            raise ChainFileError(f"{path}: {what}[{i}] is {brief(json.dumps(row), 40)}, expected "
                                 + ("a list of numbers" if what == "P" else "[i, j, p]"))
    labels = data.get("labels")
    if labels is not None and (not isinstance(labels, list) or not all(isinstance(x, str) for x in labels)):
        bad = next((i for i, x in enumerate(labels) if not isinstance(x, str)), None) if isinstance(labels, list) else None
        raise ChainFileError(f"{path}: {'labels' if bad is None else f'labels[{bad}]'} must be strings (one per state)")


def _clip(value: Any, atol: float | None, where: str, clipped: list[float]) -> Any:
    if atol is not None and isinstance(value, float) and -atol <= value < 0:
        clipped.append(value)
        return 0.0
    return value


def load_float_chain(path: str, args: argparse.Namespace, tol: float | None) -> MarkovRewardProcess:
    """The chain at ``path`` (with ``args.rewards`` for a CSV edge list) read by the float route (module
    docstring); ``tol``: ``None`` for the default."""
    from exactpte.errors import NegativeEntryError, RowSumError, ShapeError
    from exactpte.model.chain import import_chain

    rewards = getattr(args, "rewards", None)
    data = float_rows(path, rewards[0] if rewards else None)
    clipped: list[float] = []
    atol = args.clip_negative
    if "P" in data:
        P: Any = [[_clip(x, atol, f"P[{i}][{j}]", clipped) for j, x in enumerate(row)] for i, row in enumerate(data["P"])]
        n = None
    else:
        P = [(e[0], e[1], _clip(e[2], atol, f"edges[{k}]", clipped)) for k, e in enumerate(data["edges"])]
        n = data["n"]
    try:
        chain, _ = import_chain(P, data["r"], n=n, labels=data.get("labels"), limit_denominator=args.limit_denominator,
                                tol=1e-9 if tol is None else tol, duplicates="error")  # a file gives each transition once
    except ShapeError as e:  # a repeated transition: the API's duplicates='sum' is no option of the command line
        raise type(e)(f"{path}: {str(e).partition(' (or pass')[0]}") from None
    except (RowSumError, NegativeEntryError) as e:
        hint = suggestion(P if n is None else None, tol=tol, clip=atol, edges=None if n is None else P)
        hint = hint.removeprefix("--floats exact").strip()  # given already
        raise type(e)(f"{path}: {e}" + (f"; try {hint}" if hint and not hint.startswith("(") else "")) from None
    if clipped:
        chain.notes = (f"{len(clipped)} negative entr{'y' if len(clipped) == 1 else 'ies'} down to {min(clipped):.3g} "
                       f"set to 0 (--clip-negative {atol:g})",) + tuple(chain.notes)
    return chain


def _row_sums(P: Sequence[Sequence[Any]] | None, edges: Sequence[Sequence[Any]] | None) -> tuple[list[float], float]:
    """Each row's float sum and the most negative entry (0 when none).  An exact text entry (``"1/3"``,
    ``"0.6"``: kept exact by the float route) counts with its value, so a row of texts far from 1 gets
    no float suggestion; a text that is no number is left to the exact reader's refusal."""
    sums: dict[int, float] = {}
    low = 0.0
    items = ((i, x) for i, row in enumerate(P) for x in row) if P is not None else ((e[0], e[2]) for e in edges or ())
    for i, x in items:
        if isinstance(x, str):
            try:
                x = float(Fraction(x.strip()))
            except (ValueError, ZeroDivisionError, OverflowError):
                continue
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            sums[i] = sums.get(i, 0.0) + float(x)
            low = min(low, float(x))
    return [sums[i] for i in sorted(sums)], low


def suggestion(P: Sequence[Sequence[Any]] | None, *, tol: float | None = None, clip: float | None = None,
               edges: Sequence[Sequence[Any]] | None = None) -> str:
    """The float-route option that fits rows ``P`` (or ``edges``), as text; empty if none does (a row far
    from 1, or an entry too negative to be a rounding residue)."""
    sums, low = _row_sums(P, edges)
    if not sums:
        return ""
    off = max(abs(1.0 - s) for s in sums)
    parts = ["--floats exact"]
    if low < 0:
        if low < -1e-9:
            return ""
        if clip is None or clip < -low:
            parts.append(f"--clip-negative {max(1e-12, 10.0 ** math.ceil(math.log10(-low))):g}")
    if off > 1e-9:
        if off > FLOAT32_TOL:
            return ""
        if tol is None or tol < off:
            parts.append("--tol 1e-6")
            return " ".join(parts) + f" (float32 rows, about 7 significant digits: off by up to {off:.2g})"
    if len(parts) > 1 and low < 0:
        return " ".join(parts) + f" (an entry {low:.3g}: a float subtraction's residue)"
    return " ".join(parts) + " (float rows: each number read as its exact binary value, rows repaired within --tol 1e-9)"
