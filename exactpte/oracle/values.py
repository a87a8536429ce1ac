"""Reading a candidate's values: scalars, vectors, matrices, state indices, and the tolerance.

Every reader names the quantity and position of a malformed value (:class:`~exactpte.errors.CandidateError`).
A decimal or integer literal is the float it denotes (as in JSON); a fraction ``"p/q"`` is exact, and
one that no float holds (past the range, or nonzero below the normal range) is refused, never misjudged.

Examples
--------
>>> vector(["1/4", 0.5, "nan"], "rho").tolist()
[0.25, 0.5, nan]
>>> nested([[0, 1], [2]], "classes", 2)
[[0, 1], [2]]
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from exactpte.errors import CandidateError, ExactpteError, UsageError, brief
from exactpte.model.to_float import to_float
from exactpte.numbers.scalars import parse_number
from exactpte.deprecation import renamed

__all__ = ["require_tolerance"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_tolerance": "require_tolerance"})

NONFINITE = {"nan": math.nan, "+nan": math.nan, "-nan": math.nan, "inf": math.inf, "+inf": math.inf, "-inf": -math.inf,
             "infinity": math.inf, "+infinity": math.inf, "-infinity": -math.inf}
"""The spellings of NaN and infinity a candidate's number strings may use (judged later: never agree)."""
_SMALLEST_NORMAL = float(np.finfo(float).tiny)


def scalar(x: Any, where: str) -> float:
    """One candidate number as a float: ints, floats (NaN/inf kept, judged later), exact strings."""
    if isinstance(x, (bool, np.bool_)) or x is None:
        raise CandidateError(f"{where} is {plain(x)!r}, expected a number")
    if isinstance(x, str):
        text = x.strip()
        if text.lower() in NONFINITE:
            return NONFINITE[text.lower()]
        try:
            q = parse_number(text)
        except Exception as e:  # EntryError: too many digits
            raise CandidateError(f"{where}: {e}") from None
        if q is None:
            raise CandidateError(f"{where} is {brief(x, 40, quoted=True)}, not a number (write 0.25, 1/4 or 2.5e-1)")
        # a decimal or integer literal is the float it denotes, as in JSON; a fraction 'p/q' is exact
        return as_float(q, text, where) if "/" in text else nearest_float(q)
    if isinstance(x, numbers.Rational) and not isinstance(x, (int, np.integer)):
        return as_float(x, str(x), where)
    if isinstance(x, (int, np.integer)):
        return nearest_float(int(x))
    if isinstance(x, numbers.Real):
        return float(x)
    raise CandidateError(f"{where} has type {type(x).__name__}, expected a number")


def nearest_float(q: Any) -> float:
    """The float nearest an exact number (an infinity past the range): what a decimal or integer
    literal denotes."""
    try:
        return to_float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def no_float_holds(q: Any, f: float) -> bool:
    """Whether ``f``, the nearest float of the exact ``q``, stands for it so poorly that a comparison in
    floats could misjudge it: past the range, or nonzero below the normal range (0 or a subnormal)."""
    return math.isinf(f) or (q != 0 and abs(f) < _SMALLEST_NORMAL)


def as_float(q: Any, text: str, where: str) -> float:
    """An exact candidate number as the float the comparison uses; one that no float holds is refused,
    never misjudged."""
    f = nearest_float(q)
    if no_float_holds(q, f):
        shown = text if len(text) <= 40 else f"{text[:18]}...{text[-18:]} ({len(text)} characters)"
        raise CandidateError(f"{where} = {shown} does not fit a float: the oracle compares floats; judge exact claims "
                             "exactly with `proofs-check verify`")
    return f


def exact_values_no_float_holds(x: Any, where: str) -> str | None:
    """The first place (``rho[2] = 1/3``) where the candidate writes a fraction (``"1/3"``, a
    ``Fraction``) that no float equals, or None (nested lists, tuples, arrays and mappings are walked;
    decimal and integer literals are the floats they denote)."""
    if isinstance(x, Mapping):
        x = list(x.values())
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        for k, v in enumerate(x):
            if (hit := exact_values_no_float_holds(v, f"{where}[{k}]")) is not None:
                return hit
        return None
    if isinstance(x, bool) or x is None:
        return None
    try:
        q = parse_number(x.strip()) if isinstance(x, str) and "/" in x else (
            x if isinstance(x, numbers.Rational) and not isinstance(x, (int, np.integer)) else None)
        exact = None if q is None else Fraction(int(q.numerator), int(q.denominator))
        return None if exact is None or Fraction(to_float(q)) == exact else f"{where} = {x}"
    except (ExactpteError, OverflowError, ValueError):  # unreadable, or past the float range: reading it says why
        return None


def plain(x: Any) -> Any:
    """A numpy scalar as the Python number it holds (messages show ``1.5``, never ``np.float64(1.5)``)."""
    return x.item() if isinstance(x, np.generic) else x


def is_scalar(x: Any) -> bool:
    """Whether a candidate value is one number (a Python/numpy scalar, a 0-d array or a number string)."""
    if isinstance(x, np.ndarray):
        return x.ndim == 0
    return isinstance(x, (numbers.Number, str, np.generic)) and not isinstance(x, (bool, np.bool_))


def vector(x: Any, where: str) -> np.ndarray:
    """A candidate vector (a list or 1-d array of numbers) as floats; ``where`` names it in errors."""
    if isinstance(x, np.ndarray):
        if x.ndim != 1:
            raise CandidateError(f"{where} is a {x.ndim}-d array, expected a vector")
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list of numbers")
    return np.array([scalar(v, f"{where}[{i}]") for i, v in enumerate(x)], dtype=float)


def matrix(x: Any, where: str) -> np.ndarray:
    """A candidate matrix (rows of equal length, or a 2-d array) as floats."""
    if isinstance(x, np.ndarray):
        if x.ndim != 2:
            raise CandidateError(f"{where} is a {x.ndim}-d array, expected a matrix")
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list of rows")
    rows = [vector(row, f"{where}[{i}]") for i, row in enumerate(x)]
    if len({len(r) for r in rows}) > 1:
        raise CandidateError(f"{where} has rows of different lengths")
    return np.array(rows, dtype=float) if rows else np.zeros((0, 0))


def index(x: Any, where: str) -> int:
    """One state index (an integer, never a bool or a float)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Integral, np.integer)):
        raise CandidateError(f"{where} is {brief(plain(x), 30, quoted=True)}, expected a state index (an integer)")
    return int(x)


def index_list(x: Any, where: str) -> list[int]:
    """A list of state indices."""
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list of integers")
    return [index(v, f"{where}[{i}]") for i, v in enumerate(x)]


def nested(x: Any, where: str, depth: int) -> list[Any]:
    """Lists of state indices nested ``depth`` deep (2 for classes, 3 for cyclic classes per class)."""
    if depth == 1:
        return index_list(x, where)
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list")
    return [nested(v, f"{where}[{i}]", depth - 1) for i, v in enumerate(x)]


def depth(x: Any) -> int:
    """Nesting depth of a list (its first elements followed down); 0 for a scalar."""
    d = 0
    while isinstance(x, (list, tuple, np.ndarray)) and not isinstance(x, (str, bytes)):
        d += 1
        if len(x) == 0:
            break
        x = x[0]
    return d


def few(xs: Sequence[int], k: int = 8) -> str:
    """The first ``k`` integers of ``xs`` as a list, ``...`` marking the rest (for messages)."""
    xs = [int(x) for x in xs]
    return str(xs[:k])[:-1] + (", ...]" if len(xs) > k else "]")


def few_sets(sets: Sequence[Sequence[int]], k: int = 6) -> str:
    """The first ``k`` sets of ``sets``, ``...`` marking the rest (for messages)."""
    return "[" + ", ".join(str(list(c)) for c in list(sets)[:k]) + (", ...]" if len(sets) > k else "]")


def require_tolerance(value: Any, name: str) -> float:
    """A tolerance after checking it is a finite real number ``>= 0`` (:class:`UsageError` otherwise).

    Examples
    --------
    >>> require_tolerance(1e-9, "atol")
    1e-09
    >>> require_tolerance(float("nan"), "atol")
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: atol must be a finite number >= 0, got nan
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)) or value < 0:
        raise UsageError(f"{name} must be a finite number >= 0, got {plain(value)!r}")
    return float(value)
