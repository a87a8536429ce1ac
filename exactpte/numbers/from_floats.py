"""Exact imports of float models, under a stated rule.

A transition matrix computed in floating point rarely has rows that sum to exactly 1 once its
entries are read exactly: three rounded thirds sum to ``1 - 2^-54``.  This module turns such a
matrix (dense, sparse, or an edge list) into exact rows under one documented rule, and reports
every change it made:

1. **Conversion.**  Every float entry becomes its exact binary value (default), or with
   ``limit_denominator=N`` the nearest fraction with denominator at most ``N``
   (``Fraction.limit_denominator``).  Exact entries (ints, ``Fraction``, strings such as
   ``"1/3"``, numpy integers) are taken as they are.  NaN, infinities and negative entries are
   refused (:class:`~exactpte.errors.EntryError`, :class:`~exactpte.errors.NegativeEntryError`).
2. **Duplicates.**  A transition listed twice (an edge list; gymnasium's FrozenLake does this) is
   the sum of its converted listings (``duplicates="sum"``, the default here), or refused
   (``duplicates="error"``).
3. **Repair.**  Each row's difference ``d = 1 - sum(row)`` (exact) is
   - ``repair="largest"`` (default): added to the row's largest entry (the first such column
     on a tie); the only entry changed, by ``|d|``;
   - ``repair="proportional"``: removed by dividing every entry by the row sum (ratios and
     support kept; every entry changes by ``|q d| / sum``; denominators grow);
   - ``repair=None``: not repaired: the row must already sum to exactly 1.

   A row is refused (:class:`~exactpte.errors.RowSumError`, naming the row and saying what to fix)
   when ``|d| > tol`` (default ``1e-9``, compared exactly), or when the repair would make an entry
   negative.

The :class:`ImportReport` states the rule, every repaired row (its difference, the column
changed, the largest change), the largest change overall, the largest conversion change under
``limit_denominator``, the nonzero entries that became 0 (the support changed), and the number
of duplicates summed; :meth:`ImportReport.notes` is what the chain records in ``notes``.

Examples
--------
>>> rows, report = exact_rows([[1/3, 1/3, 1/3], [0.5, 0.25, 0.25], [0.0, 0.1, 0.9]])
>>> sum(q for _, q in rows[0]) == 1, rows[1]
(True, [(0, 1/2), (1, 1/4), (2, 1/4)])
>>> print(report)
floats read as their exact binary values; 2 rows repaired by the 'largest' rule (the difference 1 - sum added to the row's largest entry), largest change 5.6e-17 (row 0), tolerance 1e-09
>>> rows, report = exact_rows([[1/3, 1/3, 1/3]] * 3, limit_denominator=1000)
>>> rows[0], report.repairs
([(0, 1/3), (1, 1/3), (2, 1/3)], ())
>>> exact_rows([[0.5, 0.4], [0, 1]])
Traceback (most recent call last):
...
exactpte.errors.RowSumError: row 0 sums to 8106479329266893/9007199254740992, 0.1 away from 1, more than tol = 1e-09: fix the row (a missing or wrong entry?), or raise tol= if a change that large is acceptable
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import flint

from exactpte.numbers.scalars import FloatPolicy, as_int, is_float_like, to_fmpq
from exactpte.numbers.arrays import dense_rows, sparse_from_dense, sparse_from_edges
from exactpte.errors import ExactpteError, NegativeEntryError, RowSumError, ShapeError, UsageError, brief
from exactpte.deprecation import renamed

__all__ = ["exact_rows", "repaired_rows", "require_repair", "ImportReport", "RowRepair", "repair_row", "Converter", "REPAIRS", "require_tol"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_tol": "require_tol", "check_repair": "require_repair"})

REPAIRS = ("largest", "proportional", None)
"""The repair rules: ``"largest"``, ``"proportional"``, or ``None`` (rows must sum to exactly 1)."""

Row = list[tuple[int, flint.fmpq]]


@dataclass(frozen=True)
class RowRepair:
    """One repaired row: ``deficit = 1 - sum`` before the repair, the column that took it
    (``None`` for the proportional rule, which changes every entry) and the largest change of an entry."""

    row: int
    deficit: flint.fmpq
    column: int | None
    change: flint.fmpq


@dataclass(frozen=True)
class ImportReport:
    """What an exact import did: the rule, every repaired row, the largest changes.

    Attributes
    ----------
    rule : str
        The conversion and repair rule in words.
    repairs : tuple of RowRepair
        The rows the repair changed, in order (rows not listed were not changed by it).
    repair : str or None
        The repair rule.
    max_conversion_change : fmpq
        The largest ``|exact entry - float entry|`` made by ``limit_denominator`` (0 otherwise).
    zeroed : tuple of str
        The nonzero float entries that the conversion turned into 0 (the support changed there).
    summed : int
        The number of duplicate listings summed into a transition.
    tol : fmpq
        The tolerance on ``|1 - sum|``.
    """

    rule: str
    repair: str | None
    tol: flint.fmpq
    repairs: tuple[RowRepair, ...] = ()
    max_conversion_change: flint.fmpq = field(default_factory=flint.fmpq)
    zeroed: tuple[str, ...] = ()
    summed: int = 0

    @property
    def max_change(self) -> flint.fmpq:
        """The largest change of one entry by the repair (0 when no row needed one)."""
        return max((rp.change for rp in self.repairs), default=flint.fmpq(0))

    @property
    def max_change_row(self) -> int | None:
        """The row of :attr:`max_change` (``None`` when no row was repaired)."""
        return max(self.repairs, key=lambda rp: rp.change).row if self.repairs else None

    def notes(self) -> tuple[str, ...]:
        """Sentences for a chain's ``notes``: the conversion, repairs, zeroed entries and duplicates
        (nothing for an import that changed nothing)."""
        out = []
        if self.rule != "exact input":
            out.append(self.rule + (f", largest change of an entry {_g(self.max_conversion_change)}"
                                    if self.max_conversion_change else ""))
        if self.repairs:
            out.append(self._repair_sentence())
        if self.zeroed:
            shown = ", ".join(self.zeroed[:5]) + (" ..." if len(self.zeroed) > 5 else "")
            out.append(f"{len(self.zeroed)} nonzero float entr{'y' if len(self.zeroed) == 1 else 'ies'} became 0 "
                       f"by the conversion (the support changed): {shown}")
        if self.summed:
            out.append(f"{self.summed} duplicate transition listing{'' if self.summed == 1 else 's'} summed")
        return tuple(out)

    def _repair_sentence(self) -> str:
        k = len(self.repairs)
        how = (_LARGEST if self.repair == "largest" else _PROPORTIONAL)
        return (f"{k} row{'' if k == 1 else 's'} repaired by the {self.repair!r} rule ({how}), "
                f"largest change {_g(self.max_change)} (row {self.max_change_row}), tolerance {_g(self.tol)}")

    def __str__(self) -> str:
        return "; ".join(self.notes()) or "exact input, every row summing to exactly 1: nothing changed"


_LARGEST = "the difference 1 - sum added to the row's largest entry"
_PROPORTIONAL = "every entry divided by the row sum"


def _g(q: Any) -> str:
    """A short decimal for a message (exact values stay in the report's fields)."""
    return f"{int(q.p) / int(q.q):.2g}" if isinstance(q, flint.fmpq) else f"{q:.2g}"


def require_tol(tol: Any) -> flint.fmpq:
    """``tol`` (a finite number ``>= 0``: int, float, ``Fraction``, string) as an exact rational."""
    if isinstance(tol, bool):
        raise UsageError(f"tol must be a number >= 0, got {tol!r}")
    try:
        t = to_fmpq(tol, "tol", FloatPolicy("exact"))
    except ExactpteError:  # to_fmpq names every value it cannot read exactly
        raise UsageError(f"tol must be a finite number >= 0, got {tol!r}") from None
    if t < 0:
        raise UsageError(f"tol must be >= 0, got {tol!r}")
    return t


def require_repair(repair: Any) -> str | None:
    """``repair`` after checking it names a rule (:data:`REPAIRS`)."""
    if repair not in REPAIRS:
        raise UsageError(f"repair must be 'largest', 'proportional' or None, got {repair!r}")
    rule: str | None = repair  # one of REPAIRS
    return rule


class Converter:
    """``convert(x, where)``: one entry converted under a float policy, tracking the largest change
    ``limit_denominator`` made and the nonzero floats it turned into 0."""

    def __init__(self, policy: FloatPolicy) -> None:
        self.policy = policy
        self.max_change = flint.fmpq(0)
        self.zeroed: list[str] = []
        self.floats = False

    def __call__(self, x: Any, where: str) -> flint.fmpq:
        q = to_fmpq(x, where, self.policy)
        if not self.floats and is_float_like(x):
            self.floats = True
        if self.policy.mode == "limit" and is_float_like(x):
            f = Fraction(float(x))
            change = abs(q - flint.fmpq(f.numerator, f.denominator))
            if change > self.max_change:
                self.max_change = change
            if q == 0 and f != 0:
                self.zeroed.append(where)
        return q

    def rule(self) -> str:
        """The conversion rule in words (``"exact input"`` when no float was met)."""
        if not self.floats:
            return "exact input"
        if self.policy.mode == "limit":
            return f"floats converted to the nearest fraction with denominator at most {self.policy.limit_denominator} (limit_denominator={self.policy.limit_denominator})"
        if self.policy.mode == "exact":
            return "floats read as their exact binary values"
        return "exact input"


def repair_row(pairs: Sequence[tuple[int, flint.fmpq]], repair: str | None, tol: flint.fmpq, *, row: int,
               name: str | None = None, entry: str | None = None) -> tuple[Row, RowRepair | None]:
    """One row's ``(column, entry)`` pairs repaired by the rule (zeros dropped, entries checked
    ``>= 0``); ``name`` says in errors which row it is (default ``row {row}``), ``entry`` which
    entry (a format string with ``{j}``, default ``P[{row}][{j}]``).

    Examples
    --------
    >>> third = flint.fmpq(1, 3) - flint.fmpq(1, 10**12)
    >>> pairs, rp = repair_row([(0, third), (1, third), (2, third + flint.fmpq(1, 10**11))], "largest", flint.fmpq(1, 10**9), row=0)
    >>> pairs[2][1] == 1 - 2 * third, rp.column, rp.deficit
    (True, 2, -7/1000000000000)
    >>> repair_row([(0, flint.fmpq(1, 2))], "largest", flint.fmpq(1, 10**9), row=4)
    Traceback (most recent call last):
    ...
    exactpte.errors.RowSumError: row 4 sums to 1/2, 0.5 away from 1, more than tol = 1e-09: fix the row (a missing or wrong entry?), or raise tol= if a change that large is acceptable
    """
    label = name if name is not None else f"row {row}"
    entry = entry if entry is not None else f"P[{row}][{{j}}]"
    kept = []
    for j, q in pairs:
        if q < 0:
            raise NegativeEntryError(f"{entry.format(j=j)} is {_short(q)}, expected a probability >= 0 (no repair "
                                     f"rule changes the sign of an entry: fix it)")
        if q != 0:
            kept.append((j, q))
    total = sum((q for _, q in kept), flint.fmpq(0))
    deficit = 1 - total
    if deficit == 0:
        return kept, None
    if repair is None:
        raise RowSumError(f"{label} sums to {_short(total)}, expected exactly 1 ({_g(abs(deficit))} away); fix the row, "
                          f"or pass repair='largest' (the difference goes to the row's largest entry) with tol=")
    if abs(deficit) > tol or total == 0:
        raise RowSumError(f"{label} sums to {_short(total)}, {_g(abs(deficit))} away from 1, more than tol = {_g(tol)}: "
                          f"fix the row (a missing or wrong entry?), or raise tol= if a change that large is acceptable")
    if repair == "largest":
        col, big = max(kept, key=lambda jq: jq[1])  # max() keeps the first of equal entries: the smallest column
        new = big + deficit
        if new < 0:  # (|deficit| <= tol < the largest entry in any sane row; checked all the same)
            raise NegativeEntryError(f"{label}: putting the difference {_short(deficit)} on {entry.format(j=col)} makes it negative; fix the row")
        out = [(j, new if j == col else q) for j, q in kept if j != col or new != 0]
        return out, RowRepair(row, deficit, col, abs(deficit))
    inv = 1 / total
    out = [(j, q * inv) for j, q in kept]
    change = max(q for _, q in kept) * abs(deficit) * inv
    return out, RowRepair(row, deficit, None, change)


def _short(q: flint.fmpq) -> str:
    """An exact value, or its decimal approximation when the fraction is long."""
    s = str(q)
    return s if len(s) <= 40 else f"{_g(q)} (= {s[:20]}...)"


def exact_rows(
    rows_or_edges: Any,
    *,
    n: int | None = None,
    limit_denominator: int | None = None,
    repair: str | None = "largest",
    tol: Any = 1e-9,
    duplicates: str = "sum",
) -> tuple[list[Row], ImportReport]:
    """Exact sparse rows of a float transition structure, under the module's rule, and the report.

    Parameters
    ----------
    rows_or_edges :
        A dense matrix (nested sequences, a numpy float array, a flint/sympy matrix), a scipy
        sparse matrix, a sequence of sparse rows given as mappings ``{column: p}``, or, with
        ``n=``, an edge list of ``(i, j, p)`` triples (repeated transitions allowed).
    n : int, optional
        The number of states of an edge list.
    limit_denominator : int, optional
        Convert each float to the nearest fraction with at most this denominator (default: its
        exact binary value).
    repair : {"largest", "proportional", None}
        The row repair rule (module docstring).
    tol : number
        The largest ``|1 - sum|`` a repair may remove (exactly compared; default ``1e-9``).
    duplicates : {"sum", "error"}
        Repeated transitions of an edge list (or a sparse matrix) are summed, or refused.

    Returns
    -------
    rows : list of lists of (column, fmpq)
        Row ``i``'s nonzero entries, columns increasing, every row summing to exactly 1.
    report : ImportReport
    """
    policy = FloatPolicy("exact", limit_denominator)
    tol_q = require_tol(tol)
    repair = require_repair(repair)
    convert = Converter(policy)
    summed = [0]
    rows = _raw_rows(rows_or_edges, n, convert, duplicates, summed)
    return repaired_rows(rows, repair, tol_q, convert, summed[0])


def repaired_rows(rows: Sequence[Row], repair: str | None, tol: flint.fmpq, convert: "Converter",
                  summed: int = 0) -> tuple[list[Row], ImportReport]:
    """Every converted row repaired by the rule (:func:`repair_row`), and the report of the whole import
    (the conversions ``convert`` made, the rows repaired, the ``summed`` duplicate listings)."""
    out, repairs = [], []
    for i, pairs in enumerate(rows):
        fixed, rp = repair_row(pairs, repair, tol, row=i)
        out.append(fixed)
        if rp is not None:
            repairs.append(rp)
    report = ImportReport(convert.rule(), repair, tol, tuple(repairs), convert.max_change, tuple(convert.zeroed), summed)
    return out, report


def _raw_rows(P: Any, n: Any, convert: Callable[[Any, str], flint.fmpq], duplicates: str, summed: list[int]) -> list[Row]:
    """Converted (not yet repaired) sparse rows of any input :func:`exact_rows` takes."""
    if n is not None:
        return sparse_from_edges(n, P, convert, duplicates=duplicates, summed=summed)
    if hasattr(P, "tocoo") and not hasattr(P, "tolist"):  # scipy sparse (a numpy array has tolist, no tocoo)
        coo = P.tocoo()
        if coo.shape[0] != coo.shape[1]:
            raise ShapeError(f"P is {coo.shape[0]}x{coo.shape[1]}, expected a square matrix")
        edges = list(zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()))
        return sparse_from_edges(coo.shape[0], edges, convert, duplicates=duplicates, summed=summed)
    if isinstance(P, Sequence) and P and all(isinstance(row, Mapping) for row in P):
        size, out = len(P), []
        for i, row in enumerate(P):
            pairs = {}
            for j, p in row.items():
                jj = as_int(j)
                if jj is None or not 0 <= jj < size:
                    raise ShapeError(f"row {i} has column {brief(j, 30, quoted=True)}, expected a state index in 0..{size - 1}")
                pairs[jj] = convert(p, f"P[{i}][{jj}]")
            out.append(sorted(pairs.items()))
        return out
    return sparse_from_dense(dense_rows(P), convert)
