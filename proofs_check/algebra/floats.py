"""Leaving the exact side of a check: every rational that becomes a float in ``proofs_check`` goes through here.

A rational of a valid chain can be far outside the double range (``1/2 + 10^-400`` has a 400-digit
numerator and denominator; a 300-digit entry over another one is fine as a ratio but not as two
floats), so ``float(p) / float(q)`` raises ``OverflowError`` and ``float(x)`` can too.  The helpers here
never raise:

- :func:`nearest_float`: the correctly rounded double (``±inf`` past the largest double, ``0`` or a
  subnormal below the smallest normal), for uses where a float only *proposes* something that is then
  decided exactly (a Lyapunov matrix, a printed approximation); :func:`nearest_floats` for many at once;
- :func:`float_range_problem`: ``None`` when every value's double is finite and keeps its relative
  precision, else the reason why not, for uses where the floats themselves carry the verdict (a check
  that cannot be decided in floats is "not checked" with that reason, never a traceback);
- :func:`shown`: a short text of an exact number for a message (``1.5e+400`` as text, whatever its size).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from exactpte.model.to_float import to_float

__all__ = ["nearest_float", "nearest_floats", "float_range_problem", "shown", "SMALLEST_NORMAL"]

SMALLEST_NORMAL = 2.0**-1022
"""The smallest positive normal double: a nonzero rational below it in magnitude loses relative precision."""


def nearest_float(x: Any) -> float:
    """The nearest double to an exact rational (``fmpq``, ``Fraction``, ``int``), ``±inf`` past the range.

    >>> import flint
    >>> nearest_float(flint.fmpq(10**400 + 1, 2 * 10**400)), nearest_float(flint.fmpq(10**400, 3))
    (0.5, inf)
    >>> nearest_float(Fraction(1, 10**400))
    0.0
    """
    return to_float(x)


def nearest_floats(values: Iterable[Any]) -> list[float]:
    """:func:`nearest_float` of every value: for ``fmpq`` entries ``float(x)``, which python-flint computes as Python's
    correctly rounded ``int(p) / int(q)`` (the same double; ``tests/proofs_check/checks/test_sweep_fast_paths.py`` compares
    them), without a Python frame per entry; past the double range (``OverflowError``) entry by entry.

    >>> import flint
    >>> nearest_floats([flint.fmpq(1, 3), flint.fmpq(10**400, 3), 2])
    [0.3333333333333333, inf, 2.0]
    """
    values = list(values)
    try:
        return [float(x) for x in values]
    except OverflowError:
        return [to_float(x) for x in values]


def float_range_problem(values: Iterable[Any], *, name: str) -> str | None:
    """``None`` when every value's nearest double is finite and, for a nonzero value, normal (so its relative
    error is at most ``2^-53``); else a sentence naming the first value that is not and why.

    >>> float_range_problem([Fraction(1, 2), 3], name="P")
    >>> float_range_problem([1, Fraction(1, 10**400)], name="P")
    'P[1] = 1e-400 is below the double range (it rounds to 0.0)'
    """
    for k, x in enumerate(values):
        f = to_float(x)
        if math.isinf(f):
            return f"{name}[{k}] = {shown(x)} is beyond the double range (it rounds to {f})"
        if f == 0.0 and x != 0 or 0.0 < abs(f) < SMALLEST_NORMAL:
            return f"{name}[{k}] = {shown(x)} is below the double range (it rounds to {f!r})"
    return None


def shown(x: Any, *, digits: int = 6) -> str:
    """A short text of an exact rational: the nearest double's ``%g`` text when it is finite and normal, else a
    decimal in scientific notation computed exactly (any size).

    >>> shown(Fraction(1, 3)), shown(Fraction(10**400, 3)), shown(Fraction(-1, 10**400))
    ('0.333333', '3.33333e+399', '-1e-400')
    >>> shown(Fraction(1, 10**200_000 - 1)), shown(Fraction(7 * 10**9_999, 3))
    ('1e-200000', '2.33333e+9999')
    """
    f = to_float(x)
    if math.isfinite(f) and (f == 0.0 and x == 0 or abs(f) >= SMALLEST_NORMAL):
        return f"{f:.{digits}g}"
    q = Fraction(int(getattr(x, "p", getattr(x, "numerator", 0))), int(getattr(x, "q", getattr(x, "denominator", 1))))
    sign, q = ("-" if q < 0 else ""), abs(q)
    # the decimal exponent from the bit lengths (no decimal text: Python refuses str() past 4,300 digits), then exactly
    exp = math.floor((q.numerator.bit_length() - q.denominator.bit_length()) * math.log10(2))
    while q >= Fraction(10) ** (exp + 1):
        exp += 1
    while q < Fraction(10) ** exp:  # now 10^exp <= q < 10^(exp + 1)
        exp -= 1
    mantissa = q / Fraction(10) ** exp
    return f"{sign}{float(mantissa):.{digits}g}e{exp:+d}"
