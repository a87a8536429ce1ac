"""Argparse option types, each naming the rule it enforces in its error (shared by every command line
of the project, and by the float route's options)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["positive_int", "nonnegative_int", "tolerance", "figure_size", "discount"]


# -- option types: each names the rule it enforces -------------------------------------------------
def _integer_at_least(minimum: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
        return value

    parse.__doc__ = f"An argparse type: {what}."
    return parse


positive_int = _integer_at_least(1, "a positive integer")
"""An argparse type: an integer ``>= 1``."""
nonnegative_int = _integer_at_least(0, "an integer >= 0")
"""An argparse type: an integer ``>= 0``."""


def tolerance(text: str) -> float:
    """An argparse type: a finite number ``>= 0`` (``nan``, ``inf`` and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, got {text}")
    return value


def figure_size(text: str) -> tuple[float, float]:
    """An argparse type: ``W,H``, a picture's width and height in inches (finite, between 1 and 200)."""
    parts = text.split(",")
    try:
        width, height = (float(x) for x in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        width = height = math.nan
    if not all(math.isfinite(x) and 1 <= x <= 200 for x in (width, height)):
        raise argparse.ArgumentTypeError(f"expected W,H in inches (each between 1 and 200, e.g. 8,6), got {text!r}")
    return width, height


def discount(text: str) -> object:
    """An argparse type: a discount strictly between 0 and 1, read exactly (``9/10``, ``0.9``, ``0.999``):
    an exact rational (``flint.fmpq``), never a binary float."""
    from exactpte.numbers.scalars import parse_number

    try:
        value = parse_number(text)
    except ValueError:  # (EntryError: a literal past the digit limits)
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a number strictly between 0 and 1 such as 9/10 or 0.9, got {text!r}")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a discount strictly between 0 and 1, got {text}"
                                         + (" (for the average reward, leave --discount out)" if value == 1 else ""))
    return value
