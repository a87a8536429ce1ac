"""Exact conversion of user scalars to python-flint rationals.

The exact path never touches a binary float: a ``float`` (or numpy floating
scalar, or sympy ``Float``) is refused unless the caller asks for a conversion,
either the float's exact binary value (``floats="exact"``) or the closest
fraction with a bounded denominator (``limit_denominator=N``).
"""

from __future__ import annotations

import math
import numbers
import re
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

import flint

from exactpte.errors import EntryError, FloatEntryError, UsageError

__all__ = ["to_fmpq", "parse_number", "FloatPolicy", "is_float_like", "is_bool", "as_int", "numpy_if_loaded",
           "MAX_DIGITS", "MAX_DECIMAL_EXPONENT"]


def numpy_if_loaded() -> Any:
    """numpy when some code has imported it, else ``None``.  The exact and parametric routes never import
    numpy (``exactpte decompose`` on a small chain does not pay its start-up); and while it is not
    loaded no numpy object can exist, so type checks against numpy's scalar and array types ask this
    first instead of importing it."""
    return sys.modules.get("numpy")


def is_bool(x: Any) -> bool:
    """Whether ``x`` is a bool, Python's or numpy's (never an integer or a probability here)."""
    if isinstance(x, bool):
        return True
    np = numpy_if_loaded()
    return np is not None and isinstance(x, np.bool_)


def as_int(x: Any) -> int | None:
    """``x`` as a Python ``int`` when it is an integer scalar (``int``, numpy integer, ``flint.fmpz``,
    any ``numbers.Integral``), else ``None``; bools (Python's and numpy's) are not integers here.

    Examples
    --------
    >>> import numpy as np
    >>> as_int(np.int64(3)), as_int(np.uint64(2**63)), as_int(True), as_int(3.0)
    (3, 9223372036854775808, None, None)
    """
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x
    if is_bool(x):
        return None
    if isinstance(x, (flint.fmpz, numbers.Integral)):  # (numpy registers its integers as Integral)
        return int(x)
    np = numpy_if_loaded()
    if np is not None and isinstance(x, np.integer):
        return int(x)
    return None


class FloatPolicy:
    """How floats are treated: refused (default), exact binary value, or limited denominator."""

    __slots__ = ("mode", "limit_denominator")

    def __init__(self, floats: str = "refuse", limit_denominator: int | None = None) -> None:
        if floats not in ("refuse", "exact"):
            raise UsageError(f"floats must be 'refuse' or 'exact', got {floats!r}")
        if limit_denominator is not None:
            limit = as_int(limit_denominator)
            if limit is None or limit < 1:
                raise UsageError(f"limit_denominator must be a positive int, got {limit_denominator!r}")
            limit_denominator = limit
        self.mode = "limit" if limit_denominator is not None else floats
        self.limit_denominator = limit_denominator

    def convert(self, x: float, where: str) -> flint.fmpq:
        """One float converted as the policy says (refused by default), ``where`` naming it in errors."""
        if math.isnan(x) or math.isinf(x):
            raise EntryError(f"{where} is {x}, expected a finite exact number")
        if self.mode == "refuse":
            raise FloatEntryError(
                f"{where} is the float {x!r}; the exact API refuses floats. Pass an exact value "
                f"(int, Fraction, or a string such as '3/7'), or ask for a conversion with "
                f"floats='exact' (the float's exact binary value) or limit_denominator=N"
            )
        f = Fraction(x)
        if self.mode == "limit" and self.limit_denominator is not None:
            f = f.limit_denominator(self.limit_denominator)
        return flint.fmpq(f.numerator, f.denominator)


REFUSE = FloatPolicy()


def is_float_like(x: Any) -> bool:
    """Whether ``x`` is a binary floating-point number (Python, numpy or sympy ``Float``)."""
    if isinstance(x, float):
        return True
    np = numpy_if_loaded()
    if np is not None and isinstance(x, (np.floating, np.complexfloating)):
        return True
    return type(x).__name__ == "Float" and type(x).__module__.startswith("sympy")


def to_fmpq(x: Any, where: str = "entry", policy: FloatPolicy = REFUSE) -> flint.fmpq:
    """Convert one scalar exactly; ``where`` names it in error messages.

    Examples
    --------
    >>> to_fmpq("3/7") == flint.fmpq(3, 7), to_fmpq("0.1") == flint.fmpq(1, 10)
    (True, True)
    >>> to_fmpq(0.5)
    Traceback (most recent call last):
    ...
    exactpte.errors.FloatEntryError: entry is the float 0.5; the exact API refuses floats. Pass an exact value (int, Fraction, or a string such as '3/7'), or ask for a conversion with floats='exact' (the float's exact binary value) or limit_denominator=N
    """
    if isinstance(x, flint.fmpq):
        return x
    if is_bool(x):
        raise EntryError(f"{where} is the bool {x!r}, expected a number")
    if isinstance(x, (int, flint.fmpz)):
        return flint.fmpq(x)
    if isinstance(x, Fraction):  # (int(): Fraction(1, np.int64(4)) keeps the numpy denominator)
        return flint.fmpq(int(x.numerator), int(x.denominator))
    if isinstance(x, str):
        return _parse_string(x, where)
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise EntryError(f"{where} is {x}, expected a finite exact number")
        return _parse_string(str(x), where)  # bounded: Fraction(Decimal("1e999999999")) would not return
    if is_float_like(x):
        return policy.convert(float(x), where)
    if isinstance(x, numbers.Integral):  # numpy integers and other integral types
        return flint.fmpq(int(x))
    if isinstance(x, numbers.Rational):
        return flint.fmpq(int(x.numerator), int(x.denominator))
    mod = type(x).__module__
    if mod.startswith("sympy"):
        return _from_sympy(x, where)
    raise EntryError(f"{where} has type {type(x).__name__} ({x!r}); expected an exact number")


MAX_DIGITS = 1_000_000
"""Most digits a number literal may have.  Digits are converted by flint, not by ``int(str)``, so
Python's own limit (``sys.set_int_max_str_digits``, 4,300 by default) does not apply and is never changed."""
MAX_DECIMAL_EXPONENT = 100_000
"""Largest ``|e|`` in a literal such as ``1e-5`` (so that ``1e999999999`` cannot exhaust memory)."""

_LITERAL = re.compile(
    r"(?P<sign>[+-]?)(?:(?P<num>\d+)/(?P<den>\d+)"
    r"|(?P<int>\d*)(?:\.(?P<frac>\d*))?(?:[eE](?P<exp>[+-]?\d+))?)",
    re.ASCII,  # ASCII digits only: flint converts them
)


def parse_number(text: str) -> flint.fmpq | None:
    """The exact value of a number literal, or ``None`` when ``text`` is not one.

    Accepted: integers (``-3``), fractions (``3/7``), decimals (``0.25``, ``.5``, ``2.``) and
    scientific notation (``1e-5``, ``2.5E3``), read exactly (``0.1`` is 1/10).  At most
    :data:`MAX_DIGITS` digits and a decimal exponent of at most :data:`MAX_DECIMAL_EXPONENT`
    (a larger literal raises :class:`~exactpte.errors.EntryError` before any work is done).

    Examples
    --------
    >>> parse_number("0.1"), parse_number("-3/6"), parse_number("1e-3"), parse_number("1/0"), parse_number("x")
    (1/10, -1/2, 1/1000, None, None)
    """
    m = _LITERAL.fullmatch(text.strip())
    if m is None:
        return None
    sign = -1 if m.group("sign") == "-" else 1
    if m.group("num") is not None:
        num, den = m.group("num"), m.group("den")
        _require_digits(len(num) + len(den), text)
        return None if _digits(den) == 0 else flint.fmpq(sign * _digits(num), _digits(den))
    whole, frac, exp = m.group("int") or "", m.group("frac"), m.group("exp")
    frac = frac or ""
    if not whole and not frac:
        return None  # "", ".", "e5"
    _require_digits(len(whole) + len(frac), text)
    e = int(exp) if exp is not None else 0
    if exp is not None and (len(exp) > 8 or abs(e) > MAX_DECIMAL_EXPONENT):
        raise EntryError(f"{text.strip()!r} has a decimal exponent beyond +-{MAX_DECIMAL_EXPONENT}; write the number exactly as a fraction")
    mantissa = _digits(whole + frac)
    scale = e - len(frac)
    value = flint.fmpq(mantissa) * (flint.fmpq(10) ** scale if scale >= 0 else flint.fmpq(1, 10 ** (-scale)))
    return sign * value


def _digits(text: str) -> flint.fmpz:
    """A string of decimal digits as an integer, of any length (flint's conversion: Python's
    ``int(str)`` refuses more than 4,300 digits by default)."""
    return flint.fmpz(text) if text else flint.fmpz(0)


def _require_digits(count: int, text: str) -> None:
    if count > MAX_DIGITS:
        raise EntryError(f"a number literal has {count} digits, more than the {MAX_DIGITS} allowed ({text.strip()[:20]}...)")


def _parse_string(s: str, where: str) -> flint.fmpq:
    try:
        q = parse_number(s)
    except EntryError as e:
        raise EntryError(f"{where}: {e}") from None
    if q is None:
        names = sorted(set(re.findall(r"[A-Za-z_]\w*", s)) - {"e", "E"}) if len(s) <= 200 else []
        symbolic = (f"; an expression of parameters ({', '.join(names[:4])}) needs them declared: ParametricChain(..., "
                    f"params=[...]), or \"params\": [...] in a chain file") if names and not re.search(r"nan|inf", s, re.I) else ""
        raise EntryError(
            f"{where} is {s!r}, which is not an exact number (write it as an integer, "
            f"a fraction 'p/q', or a decimal such as '0.25'){symbolic}"
        )
    return q


def _from_sympy(x: Any, where: str) -> flint.fmpq:
    import sympy

    if getattr(x, "free_symbols", None):
        raise EntryError(
            f"{where} is the symbolic expression {x}; a rational chain needs numbers "
            f"(use a parametric chain for symbolic entries)"
        )
    if isinstance(x, sympy.Rational):
        return flint.fmpq(int(x.p), int(x.q))
    if x in (sympy.nan, sympy.oo, -sympy.oo, sympy.zoo):
        raise EntryError(f"{where} is {x}, expected a finite exact number")
    raise EntryError(f"{where} is {x}, which is not rational (irrational constants are not supported)")
