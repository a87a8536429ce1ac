"""Every exception exactpte raises on purpose: one small hierarchy under :class:`ExactpteError`.

Every error names the problem and, where it can, how to fix the input
(``row 2 sums to 11/10, expected exactly 1``).  Each class also derives from the
built-in exception a Python caller would reach for (``ValueError`` for bad values,
``TypeError`` for wrong types, ``KeyError`` for unknown names), so existing
``except ValueError`` blocks keep working.

Examples
--------
>>> issubclass(RowSumError, InvalidChainError) and issubclass(RowSumError, ValueError)
True
>>> all(issubclass(e, ExactpteError) for e in (SymbolicEntryError, GenericRegionError, UnknownNameError))
True
"""

from __future__ import annotations

__all__ = [
    "ExactpteError",
    "InvalidChainError",
    "ShapeError",
    "EntryError",
    "FloatEntryError",
    "SymbolicEntryError",
    "NegativeEntryError",
    "RowSumError",
    "LabelError",
    "ChainFileError",
    "CandidateError",
    "AnchorError",
    "GenericRegionError",
    "SingularSystemError",
    "RouteTooLargeError",
    "UsageError",
    "UnknownNameError",
    "brief",
]


def brief(value: object, limit: int = 60, *, quoted: bool = False) -> str:
    """``value`` as quoted in an error message (its ``repr`` when ``quoted``): whole when at most ``limit`` characters,
    else its first and last characters and its length (a row summing to ``1 + 10^-99999``, written by a 30-byte
    file, was printed whole: 200,000 characters of error).  An integer past Python's 4,300-digit limit on
    ``str(int)``, or a list holding one, is described, not converted (formatting it raised ``ValueError``)."""
    try:
        t = repr(value) if quoted else str(value)
    except ValueError:
        return (f"<an integer of about {int(abs(value).bit_length() * 0.30103) + 1} digits>" if isinstance(value, int)
                else f"<a {type(value).__name__} holding an integer of more than 4,300 digits>")
    return t if len(t) <= limit else f"{t[: limit // 2 - 3]}...{t[-(limit // 2 - 3):]} ({len(t)} characters)"


class ExactpteError(Exception):
    """Base class of every error exactpte (and proofs_check) raises on purpose."""


# -- the chain given is not a valid Markov reward process ------------------------------------
class InvalidChainError(ExactpteError, ValueError):
    """The Markov reward process given is not a valid one."""


class ShapeError(InvalidChainError):
    """Sizes disagree: non-square or empty matrix, reward of the wrong length, bad index."""


class EntryError(InvalidChainError):
    """An entry is not an exact number (unparsable string, NaN, infinity, wrong type)."""


class FloatEntryError(EntryError, TypeError):
    """A binary float reached the exact API without an explicit conversion request."""


class SymbolicEntryError(EntryError):
    """A parametric entry is not a rational function of the declared parameters."""


class NegativeEntryError(InvalidChainError):
    """A transition probability is negative."""


class RowSumError(InvalidChainError):
    """A row of the transition matrix does not sum to exactly 1."""


class LabelError(InvalidChainError):
    """State labels are duplicated or of the wrong number."""


# -- files --------------------------------------------------------------------------------------
class ChainFileError(ExactpteError, ValueError):
    """A chain file cannot be read: not JSON, missing keys, unknown format."""


class CandidateError(ChainFileError):
    """Another implementation's output (for ``exactpte check``) is malformed."""


# -- using the results ------------------------------------------------------------------------
class AnchorError(ExactpteError, ValueError):
    """User anchors do not pick exactly one state in every cyclic class."""


class GenericRegionError(ExactpteError, ValueError):
    """A parameter point leaves the generic region: an entry vanishes or turns negative there,
    so the structure (and the closed form) changes; decompose the chain at that point instead."""


class SingularSystemError(ExactpteError, ArithmeticError):
    """A block system that the theory says is nonsingular turned out singular (a defect)."""


class RouteTooLargeError(ExactpteError, MemoryError):
    """A chain is too large for proofs_check's dense independent routes; the checks needing them are
    reported "not checked", before anything large is allocated."""


class UsageError(ExactpteError, ValueError):
    """An argument of the API or the command line is out of range or does not apply."""


class UnknownNameError(ExactpteError, KeyError):
    """An unknown example name, check key or quantity name.

    ``str()`` gives the plain message (``KeyError`` would quote it).
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
