"""The summation kernel of the decomposition: ``{s: sum_c w[c] rows[s][c]}`` for a few weight vectors.

Used for the combinations over the phase basis on the transient states
(``g* = sum θ b``, ``lem:anchor_interpolation``; ``ψ = sum c b``, ``thm:comparison_gain_bias``)
and over the absorption probabilities (``P∞ x = sum_i (π_i · x) α_i``).  The sums run on
numerators and every result is cancelled once (adding large fractions one by one would cancel
after every addition).  The steps:

1. each weight vector is split per group of columns (:func:`split_weights`: a group, e.g. a
   class, shares most of its denominator), and the groups' denominators brought to one lcm;
2. each row is cut into pieces over one common denominator (:func:`row_pieces`): the block
   solves' shared pieces (:class:`~exactpte.solves.absorption.Shared`) as they are, the rest split;
3. per piece, the groups it touches are summed over their common denominator; the pieces' sums
   (a handful, one per block solve) are brought over their lcm, whose cofactors are taken once per tuple of
   denominator objects (:func:`common_sum`: the rows of one block share them), and left uncancelled
   (:func:`row_pair`, :func:`weighted_pairs`) until the caller cancels each result once
   (:func:`weighted_sums`), or first adds it to another sum on numerators (``g* = ρ + ...``, ``v*``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from exactpte.solves.absorption import Shared, SparseVector
from exactpte.fields import Field

__all__ = ["weighted_sums", "weighted_pairs", "common_sum", "row_pair", "SplitWeights", "split_weights", "row_pieces", "SplitCache",
           "Pair", "Commons"]

SplitCache = dict[tuple[int, ...], tuple[tuple[list[Any], Any], list[Any]]]
"""Rows' values split over one denominator, by the identity of the values: ``{ids: ((numerators, den), values)}``
(the values are kept so that their ids stay valid)."""


class SplitWeights(NamedTuple):
    """One weight vector over ring numerators: ``w[c] = numerators[c] / group_den[groups[c]]``, and
    ``group_cof[g] = lcm / group_den[g]``."""

    numerators: list[Any]
    group_den: dict[int, Any]
    group_cof: dict[int, Any]
    lcm: Any


def _common_denominator(field: Field[Any], dens: list[Any]) -> tuple[list[Any], Any]:
    """The cofactors ``lcm / den`` and the lcm of ring elements."""
    one = field.split([field.one])[1]  # the ring's one
    return field.split([field.fraction(one, den) for den in dens])


def split_weights(field: Field[Any], w: Sequence[Any], members: dict[int, list[int]]) -> SplitWeights:
    """Split ``w`` per group of columns (``members[g]``: the columns of group ``g``).

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> sw = split_weights(QQ, [QQ.one / 2, QQ.one / 3], {0: [0], 1: [1]})
    >>> sw.numerators, sw.lcm
    ([1, 1], 6)
    """
    values = [field.scalar(x) for x in w]
    numerators: list[Any] = [0] * len(values)
    group_den: dict[int, Any] = {}
    for g, cols in members.items():
        nums, den = field.split([values[c] for c in cols])
        for c, v in zip(cols, nums):
            numerators[c] = v
        group_den[g] = den
    cofactors, lcm = _common_denominator(field, list(group_den.values()))
    return SplitWeights(numerators, group_den, dict(zip(group_den, cofactors)), lcm)


def row_pieces(field: Field[Any], row: SparseVector, shared: Sequence[Shared], splits: SplitCache | None) -> list[Shared]:
    """The row as pieces over one common denominator each: the ``shared`` pieces of block solves,
    then the entries they do not cover over the row's own common denominator (remembered in
    ``splits`` by the identity of the values, when given)."""
    pieces = list(shared)
    if pieces:
        covered = {c for piece in pieces for c in piece.columns}
        rest = {c: v for c, v in row.items() if c not in covered}
    else:
        rest = row
    if rest:
        values = list(rest.values())
        if splits is None:
            nums, den = field.split(values)
        else:
            key = tuple(map(id, values))
            if key not in splits:
                splits[key] = (field.split(values), values)  # the values keep their ids valid
            nums, den = splits[key][0]
        pieces.append(Shared(list(rest), nums, den))
    return pieces


def _partials(pieces: list[Shared], sw: SplitWeights, group_of: list[int]) -> list[dict[int, Any]]:
    """Per piece, per group: ``sum numerator(w[c]) * numerator(row[c])`` (zero sums dropped)."""
    partials: list[dict[int, Any]] = []
    for piece in pieces:
        partial: dict[int, Any] = {}
        for c, v in zip(piece.columns, piece.nums):
            n = sw.numerators[c]
            if n:
                g = group_of[c]
                partial[g] = partial[g] + n * v if g in partial else n * v
        partials.append({g: t for g, t in partial.items() if t})
    return partials


Pair = tuple[Any, Any]
"""A field element as ``(numerator, denominator)`` over the field's ring, not cancelled."""

Commons = dict[tuple[int, ...], tuple[list[Any], Any, list[Any]]]
"""Common denominators remembered by the identity of the denominators: ``{ids: (cofactors, lcm, dens)}`` (the
denominators are kept so that their ids stay valid).  The states of one block solve share their pieces'
denominator objects, so a sum over a row meets the same few tuples of denominators on every row of a block."""


def common_sum(field: Field[Any], terms: Sequence[Pair], commons: Commons | None = None) -> Pair:
    """``sum num / den`` as one :data:`Pair` over the denominators' lcm, nothing cancelled: the lcm and its
    cofactors are taken once per tuple of denominator objects when ``commons`` is given (an lcm of large
    denominators costs a gcd of their size, as much as cancelling the sum).

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> six, ten = QQ.one.q * 6, QQ.one.q * 10
    >>> common_sum(QQ, [(1, six), (1, ten)], {})
    (8, 30)
    """
    if len(terms) == 1:
        return terms[0]
    dens = [den for _, den in terms]
    if commons is None:
        cofactors, lcm = field.cofactors(dens)
    else:
        key = tuple(map(id, dens))
        hit = commons.get(key)
        if hit is None:
            hit = commons[key] = (*field.cofactors(dens), dens)
        cofactors, lcm = hit[0], hit[1]
    total = 0
    for (num, _), cofactor in zip(terms, cofactors):
        total += num * cofactor
    return total, lcm


def row_pair(field: Field[Any], pieces: list[Shared], sw: SplitWeights, group_of: list[int], commons: Commons,
             products: dict[tuple[int, int], tuple[Any, Any, Any]]) -> Pair | None:
    """``sum_c w[c] row[c]`` from the row's pieces as a :data:`Pair` (``None`` for zero): within a piece on
    numerators (a group alone over its own denominator), the pieces' sums over their common denominator
    (:func:`common_sum`; ``products`` remembers each piece denominator times a weight denominator, by identity,
    so that the rows of one block meet the same objects)."""
    terms: list[Pair] = []
    for piece, partial in zip(pieces, _partials(pieces, sw, group_of)):
        if not partial:
            continue
        if len(partial) == 1:  # one group: its own denominator, not the weights' lcm
            (g, total), = partial.items()
            weight_den = sw.group_den[g]
        else:
            total = 0
            for g, t in partial.items():
                total += t * sw.group_cof[g]
            weight_den = sw.lcm
        key = (id(piece.den), id(weight_den))
        hit = products.get(key)
        if hit is None:
            hit = products[key] = (piece.den * weight_den, piece.den, weight_den)
        terms.append((total, hit[0]))
    if not terms:
        return None
    return common_sum(field, terms, commons)


def weighted_pairs(field: Field[Any], rows: dict[int, SparseVector], weights: Sequence[Sequence[Any]], *,
                   shared: dict[int, list[Shared]] | None = None, groups: Sequence[int] | None = None,
                   splits: SplitCache | None = None) -> list[dict[int, Pair | None]]:
    """:func:`weighted_sums` before any cancelling: ``{s: (num, den)}`` (``None`` for a zero sum), the
    denominator shared by the rows whose pieces share theirs (the states of one block)."""
    group_of = list(groups) if groups is not None else [0] * max((len(w) for w in weights), default=0)
    members: dict[int, list[int]] = {}
    for c, g in enumerate(group_of):
        members.setdefault(g, []).append(c)
    split = [split_weights(field, w, members) for w in weights]
    out: list[dict[int, Pair | None]] = [{} for _ in weights]
    commons: Commons = {}
    products: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
    for s, row in rows.items():
        pieces = row_pieces(field, row, shared.get(s, ()) if shared is not None else (), splits)
        for sw, acc in zip(split, out):
            acc[s] = row_pair(field, pieces, sw, group_of, commons, products)
    return out


def weighted_sums(field: Field[Any], rows: dict[int, SparseVector], weights: Sequence[Sequence[Any]], *,
                  shared: dict[int, list[Shared]] | None = None, groups: Sequence[int] | None = None,
                  splits: SplitCache | None = None) -> list[dict[int, Any]]:
    """``{s: sum_c w[c] rows[s][c]}`` for every weight vector ``w`` (rows sparse).

    A row is read from ``shared[s]`` when given (pieces over a block solve's common denominator,
    :class:`~exactpte.solves.absorption.Shared`: no splitting at all), else brought to its own common
    denominator (:meth:`~exactpte.fields.Field.split`).  Each weight vector is split per group of
    columns (``groups[c]``, e.g. the column's class, whose weights share most of their
    denominator), so the products with the rows stay small and the groups' partial sums are
    brought to the weights' common denominator once per row.  ``splits`` (a dict kept by the
    caller) remembers rows already split: the absorption rows and the period-1 basis columns hold
    the same numbers.

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> weighted_sums(QQ, {0: {0: QQ.one, 2: QQ.one / 2}}, [[1, 5, 4]])
    [{0: 3}]
    >>> weighted_sums(QQ, {0: {0: QQ.one / 3, 1: QQ.one / 5}}, [[QQ.one / 7, QQ.one / 11]], groups=[0, 1])
    [{0: 76/1155}]
    """
    pairs = weighted_pairs(field, rows, weights, shared=shared, groups=groups, splits=splits)
    return [{s: field.zero if pair is None else field.fraction(*pair) for s, pair in acc.items()} for acc in pairs]
