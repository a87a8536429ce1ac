"""One small exception hierarchy for everything exactpte refuses.

Every error names the problem and, where it can, how to fix the input
(``row 2 sums to 11/10, expected exactly 1``).  Input errors are also
``ValueError`` so callers that already catch ``ValueError`` keep working.

>>> issubclass(RowSumError, InvalidChainError) and issubclass(RowSumError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "ExactpteError",
    "InvalidChainError",
    "ShapeError",
    "EntryError",
    "FloatEntryError",
    "NegativeEntryError",
    "RowSumError",
    "LabelError",
    "ChainFileError",
    "AnchorError",
]


class ExactpteError(Exception):
    """Base class of every error exactpte raises on purpose."""


class InvalidChainError(ExactpteError, ValueError):
    """The Markov reward process given is not a valid one."""


class ShapeError(InvalidChainError):
    """Sizes disagree: non-square or empty matrix, reward of the wrong length, bad index."""


class EntryError(InvalidChainError):
    """An entry is not an exact number (unparsable string, NaN, infinity, wrong type)."""


class FloatEntryError(EntryError, TypeError):
    """A binary float reached the exact API without an explicit conversion request."""


class NegativeEntryError(InvalidChainError):
    """A transition probability is negative."""


class RowSumError(InvalidChainError):
    """A row of the transition matrix does not sum to exactly 1."""


class LabelError(InvalidChainError):
    """State labels are duplicated or of the wrong number."""


class ChainFileError(ExactpteError, ValueError):
    """A chain file cannot be read: not JSON, missing keys, unknown format."""


class AnchorError(ExactpteError, ValueError):
    """User anchors do not pick exactly one state in every cyclic class."""
