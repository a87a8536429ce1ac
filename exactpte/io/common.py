"""What the file readers share: the note a reader attaches when it read decimals exactly."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import flint

from exactpte.numbers.scalars import parse_number
from exactpte.mdp.model import MDP
from exactpte.model.chain import Chain
from exactpte.errors import ChainFileError, ExactpteError, InvalidChainError, brief

__all__ = ["DECIMAL_NOTE", "note_decimals", "note_decimals_mdp", "ascii_digits", "MAX_INDEX_DIGITS", "index_value", "state_index", "exact_value", "naming"]

DECIMAL_NOTE = "decimal numbers were read as exact decimals (0.1 = 1/10), not as binary floats"


C = TypeVar("C", bound=Chain)


_DECIMAL_SIGNS = (re.compile(r"\.(?<=\d\.)\d"), re.compile(r"e(?<=\de)[+-]?\d"), re.compile(r"E(?<=\dE)[+-]?\d"))
r"""``\d\.\d|\d[eE][+-]?\d`` as three searches that each start from a literal character (the regular expression
engine then skips to its occurrences: about 1 ms on crowds-5-5's 1.1 MB, where the alternation took 13 ms)."""


def note_decimals(chain: C, texts: Iterable[str | None]) -> C:
    """Add :data:`DECIMAL_NOTE` to ``chain.notes`` when any of ``texts`` spells a decimal number
    (a digit, then ``.`` and a digit, or ``e``/``E``, an optional sign and a digit)."""
    if any(sign.search(t) for t in texts if t for sign in _DECIMAL_SIGNS):
        chain.notes = chain.notes + (DECIMAL_NOTE,)
    return chain


def note_decimals_mdp(mdp: MDP, texts: Iterable[str | None]) -> MDP:
    """:func:`note_decimals` for an MDP read from files."""
    if any(re.search(r"\d\.\d|\d[eE][+-]?\d", t or "") for t in texts):
        mdp.notes = mdp.notes + (DECIMAL_NOTE,)
    return mdp


def ascii_digits(token: str) -> bool:
    """Whether ``token`` is a non-empty run of ASCII digits (``str.isdigit`` also takes ``'١'`` and ``'²'``).

    >>> ascii_digits("12"), ascii_digits("\u0661"), ascii_digits("\u00b2"), ascii_digits("")
    (True, False, False, False)
    """
    return token.isascii() and token.isdigit()


MAX_INDEX_DIGITS = 12
"""Most digits of a state index, a count or a label id in a file or an option (``int`` refuses 4,301 digits, and no
chain has 10^12 states)."""


def index_value(token: str) -> int | None:
    """``token`` as a non-negative integer when it is at most :data:`MAX_INDEX_DIGITS` ASCII digits, else ``None``.

    >>> index_value("42"), index_value("7" * 13), index_value("-1"), index_value("١")
    (42, None, None, None)
    """
    return int(token) if ascii_digits(token) and len(token) <= MAX_INDEX_DIGITS else None


def state_index(token: str, where: str, n: int | None = None) -> int:
    """A state index token (:func:`index_value`), in ``0..n-1`` when ``n`` is given."""
    i = index_value(token)
    if i is None:
        raise ChainFileError(f"{where}: {token[:20]!r} is not a state index (a non-negative integer)")
    if n is not None and i >= n:
        raise ChainFileError(f"{where}: state {i} is outside 0..{n - 1}")
    return i


def exact_value(token: str, where: str) -> flint.fmpq:
    """A number token read exactly (:func:`exactpte.numbers.scalars.parse_number`); the error names ``where``."""
    try:
        q = parse_number(token)
    except ExactpteError as e:
        raise ChainFileError(f"{where}: {e}") from None
    if q is None:
        raise ChainFileError(f"{where}: {brief(token, 30, quoted=True)} is not a number")
    return q


@contextmanager
def naming(source: str) -> Iterator[None]:
    """An :class:`~exactpte.errors.InvalidChainError` raised while a file's chain is built names
    the file: ``chain.json: row 2 sums to 11/10, expected exactly 1`` (same class, so ``except
    RowSumError`` still catches it).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> with naming("chain.json"):
    ...     MarkovRewardProcess([[1, 0], ["1/2", "3/5"]], [0, 0])
    Traceback (most recent call last):
    ...
    exactpte.errors.RowSumError: chain.json: row 1 sums to 11/10, expected exactly 1
    """
    try:
        yield
    except InvalidChainError as e:
        message = str(e)
        if message.startswith(f"{source}:"):
            raise
        raise type(e)(f"{source}: {message}") from None
