"""Claims read from files: the JSON contract of ``exactpte decompose --json`` as a :class:`~proofs_check.judging.claims.Claimed`.

Every reader is strict: a key twice, an unknown key, a ``format`` or ``n`` other than the chain's, NaN,
infinities, floats or text where a number belongs are refused with a :class:`~exactpte.ChainFileError` naming
the key; a factored result (``--factored``) is written out by exactpte's one reader of that form
(:func:`exactpte.results.factored.expand`), after its denominators are checked to be integers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from exactpte.errors import ChainFileError, ExactpteError
from exactpte.io import unique_keys
from exactpte.numbers import to_fmpq
from exactpte.results.factored import expand
from exactpte.results.quantities import QUANTITY_KEYS, STRUCTURE_KEYS
from exactpte.results.report import FORMAT
from exactpte.deprecation import renamed

from proofs_check.judging.claims import Claimed, Vec

__all__ = ["from_json_dict", "load_result", "read_result_json", "written_out", "require_result_header", "OPTIONAL_VECTORS",
           "OPTIONAL_MATRICES", "RESULT_KEYS"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_header": "require_result_header"})


OPTIONAL_VECTORS = ("rho", "h", "psi", "class_gain", "hitting_times")
"""Optional vector keys of the contract (``class_gain`` per class, the others per state)."""
OPTIONAL_MATRICES = ("stationary", "absorption", "P_inf")
"""Optional nested keys: ``stationary`` per class (aligned with ``classes[i]``), ``absorption`` n x classes, ``P_inf`` n x n."""


def _numbers(raw: object, key: str, length: int | None) -> Vec:
    """A list of exact numbers (``ChainFileError`` naming the key on anything else: NaN, inf, floats, text)."""
    if not isinstance(raw, list) or (length is not None and len(raw) != length):
        raise ChainFileError(f"result key {key!r} must be a list of {length} numbers")
    try:
        return tuple(to_fmpq(x, f"{key}[{i}]") for i, x in enumerate(raw))
    except ExactpteError as e:
        raise ChainFileError(str(e)) from None


def _required_vec(data: dict[str, Any], key: str, n: int) -> Vec:
    if data.get(key) is None:
        raise ChainFileError(_MISSING.format(key=key))
    return _numbers(data[key], key, n)


def _rows(raw: object, key: str, lengths: Sequence[int]) -> tuple[Vec, ...]:
    if not isinstance(raw, list) or len(raw) != len(lengths):
        raise ChainFileError(f"result key {key!r} must be a list of {len(lengths)} rows")
    return tuple(_numbers(row, f"{key}[{i}]", m) for i, (row, m) in enumerate(zip(raw, lengths)))


def _optional(data: dict[str, Any], n: int, classes: tuple[tuple[int, ...], ...]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The optional quantity keys that are present, read strictly; a key that cannot be read is
    recorded as malformed (its check then fails, naming the problem) instead of being dropped."""
    nc = len(classes)
    shapes: dict[str, Any] = {
        "rho": n, "h": n, "psi": n, "hitting_times": n, "class_gain": nc,
        "stationary": [len(c) for c in classes], "absorption": [nc] * n, "P_inf": [n] * n,
    }
    got: dict[str, Any] = {}
    bad: list[tuple[str, str]] = []
    for key, shape in shapes.items():
        if data.get(key) is None:
            continue
        try:
            got[key] = _rows(data[key], key, shape) if isinstance(shape, list) else _numbers(data[key], key, shape)
        except ChainFileError as e:
            bad.append((key, str(e)))
    if "labels" in data:
        raw = data["labels"]
        got["labels_claimed"] = True
        if raw is not None and (not isinstance(raw, list) or len(raw) != n or not all(isinstance(x, str) for x in raw)):
            bad.append(("labels", f"result key 'labels' must be null or a list of {n} strings"))
        elif raw is not None:
            got["labels"] = tuple(raw)
    return got, bad


_MISSING = ("result lacks the required key '{key}' (a partial result, such as `exactpte decompose --only ...`, "
            "is judged by `proofs-check verify`, which solves for what a claim leaves out)")


def _integers(raw: object, key: str, depth: int, n: int | None, *, least: int = 0) -> Any:
    """``raw`` as nested tuples of JSON integers, ``depth`` levels of lists deep; every integer a state
    in ``0..n-1`` when ``n`` is given, else at least ``least``.  Nothing is converted: a float, a bool,
    a string (never split into characters) or a number out of range is refused, naming the key."""
    if depth == 0:
        if type(raw) is not int or not (0 <= raw < n if n is not None else raw >= least):
            what = f"a state in 0..{n - 1}" if n is not None else f"an integer >= {least}"
            raise ChainFileError(f"result key {key!r} holds {_quoted(raw)}, expected {what} (a JSON integer)")
        return raw
    if not isinstance(raw, list):
        raise ChainFileError(f"result key {key!r} holds {_quoted(raw)} where a list is expected")
    return tuple(_integers(x, key, depth - 1, n, least=least) for x in raw)


def _quoted(x: object) -> str:
    """A value as the message shows it: its repr, at most 60 characters."""
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _structure(data: dict[str, Any], n: int) -> tuple[Any, Any, Any, Any, Any]:
    for key in ("classes", "periods", "cyclic_classes", "anchors"):
        if data.get(key) is None:
            raise ChainFileError(_MISSING.format(key=key))
    classes = _integers(data["classes"], "classes", 2, n)
    periods = _integers(data["periods"], "periods", 1, None, least=1)
    cyclic = _integers(data["cyclic_classes"], "cyclic_classes", 3, n)
    anchors = _integers(data["anchors"], "anchors", 2, None)  # each triple's class, phase and state are checked below
    if any(len(a) != 3 or not (a[0] < min(len(classes), len(periods)) and a[1] < periods[a[0]] and a[2] < n) for a in anchors):
        raise ChainFileError("result key 'anchors' must hold [class, phase, state] triples of a class, a phase and a state")
    transient = _integers(data["transient"], "transient", 1, n) if data.get("transient") is not None else None
    return classes, periods, cyclic, anchors, transient


def from_json_dict(data: dict[str, Any], n: int) -> Claimed:
    """Parse the JSON contract of ``exactpte decompose --json`` (numbers as ``"p/q"`` strings).

    The structure keys, ``basis``, ``theta``, ``g_star`` and ``v_star`` are required
    (``ChainFileError`` when absent or unreadable); every other quantity key is optional, read
    strictly when present (NaN, infinities, floats or text never pass: the key is recorded in
    :attr:`Claimed.malformed` and its check fails).
    """
    classes, periods, cyclic, anchors, transient = _structure(data, n)
    N = len(anchors)
    basis_raw = data.get("basis")
    if basis_raw is None:
        raise ChainFileError(_MISSING.format(key="basis"))
    if not isinstance(basis_raw, list) or len(basis_raw) != n or any(not isinstance(r, list) or len(r) != N for r in basis_raw):
        raise ChainFileError(f"result key 'basis' must be {n} rows of N = {N} numbers")
    basis = _rows(basis_raw, "basis", [N] * n)
    optional, malformed = _optional(data, n, classes)
    return Claimed(
        classes=classes,
        periods=periods,
        cyclic_classes=cyclic,
        anchors=anchors,
        basis=basis,
        theta=_required_vec(data, "theta", N),
        g_star=_required_vec(data, "g_star", n),
        v_star=_required_vec(data, "v_star", n),
        transient=transient,
        malformed=tuple(malformed),
        **optional,
    )


def load_result(path: str, n: int) -> Claimed:
    """Read a JSON result file (the ``exactpte decompose --json`` contract) as a :class:`Claimed` for a chain of ``n`` states."""
    data = written_out(read_result_json(path), path)
    require_result_header(data, n, path)
    return from_json_dict(data, n)


def read_result_json(path: str, *, parametric_n: int | None = None) -> dict[str, Any]:
    """The JSON object of a result file, else :class:`ChainFileError` (unreadable, not JSON, a key twice, nested too
    deeply, an integer past the digit limit).  With ``parametric_n`` (a parametric chain's state count) the header
    is checked as :func:`load_result` checks a rational result's (unknown keys, ``format``, ``n``), ``params`` and
    ``assumptions`` allowed."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh, object_pairs_hook=unique_keys)
    except OSError as e:
        raise ChainFileError(f"{path}: cannot read ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise ChainFileError(f"{path}: JSON nested too deeply to be a result file") from None
    except ValueError as e:  # a repeated key, an integer of more than 4,300 digits
        raise ChainFileError(f"{path}: {e}") from None
    if not isinstance(data, dict):
        raise ChainFileError(f"{path}: a result file is a JSON object")
    if parametric_n is not None:
        require_result_header({k: v for k, v in data.items() if k not in ("params", "assumptions", "denominators")}, parametric_n, path)
    return data


def written_out(data: dict[str, Any], path: str) -> dict[str, Any]:
    """A result in the factored form (``exactpte decompose --json --factored``: ``"denominators": {"D1": "4250"}``,
    entries ``"3/D1"``) with each name replaced by its integer denominator; any other result as it is.  A name not
    defined, or defined as anything but a positive integer, is refused (a rational result names integers only), and
    so is a result whose written-out text would exceed exactpte's bound for reading factored answers.

    >>> written_out({"g_star": ["3/D1", "0"], "denominators": {"D1": "4250"}}, "claim.json")
    {'g_star': ['3/4250', '0']}
    """
    names = data.get("denominators")
    if names is None:
        return data
    if not isinstance(names, dict) or not all(isinstance(v, str) and re.fullmatch(r"[1-9][0-9]*", v) for v in names.values()):
        raise ChainFileError(f"{path}: 'denominators' must map names (D1, ...) to positive integers as text")
    try:
        return expand(data)
    except ValueError as e:
        raise ChainFileError(f"{path}: {str(e).replace(': not read', ': not judged')}") from None


RESULT_KEYS = frozenset({"format", "n", "labels", *STRUCTURE_KEYS, *QUANTITY_KEYS, *OPTIONAL_MATRICES})
"""Every key a result file may hold (the JSON contract of ``exactpte decompose --json``)."""


def require_result_header(data: dict[str, Any], n: int, path: str) -> None:
    """Unknown keys, a ``format`` other than the exact contract's, an ``n`` other than the chain's: refused."""
    unknown = sorted(str(k) for k in data if k not in RESULT_KEYS)
    if unknown:
        raise ChainFileError(f"{path}: unknown key(s) {', '.join(map(repr, unknown))}; a result file holds some of "
                             f"{', '.join(sorted(RESULT_KEYS))}")
    if "format" in data and data["format"] != FORMAT:
        raise ChainFileError(f"{path}: format is {data['format']!r:.60}, expected {FORMAT!r} (rational results only)")
    if "n" in data and (isinstance(data["n"], bool) or data["n"] != n or not isinstance(data["n"], int)):
        raise ChainFileError(f"{path}: n is {data['n']!r:.40}, but the chain has {n} states")

