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
   (a handful, one per block solve) are added by the field (:meth:`~exactpte.fields.Field.sum_fractions`:
   over ``QQ(params)`` each is cancelled on its own and only shared factors of two denominators are
   cancelled when adding, so no gcd is ever taken with the product of all of them) (:func:`row_sum`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from exactpte.solves.absorption import Shared, SparseVector
from exactpte.fields import Field

__all__ = ["weighted_sums", "SplitWeights", "split_weights", "row_pieces", "row_sum", "SplitCache"]

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


def row_sum(field: Field[Any], pieces: list[Shared], sw: SplitWeights, group_of: list[int]) -> Any:
    """``sum_c w[c] row[c]`` from the row's pieces: within a piece on numerators (a group alone over
    its own denominator), the pieces' sums added by :meth:`~exactpte.fields.Field.sum_fractions`."""
    partials = _partials(pieces, sw, group_of)
    touched = [j for j, partial in enumerate(partials) if partial]
    if not touched:
        return field.zero
    if len(touched) == 1 and len(partials[touched[0]]) == 1:  # one piece, one group: two denominators
        (g, t), = partials[touched[0]].items()
        return field.fraction(t, pieces[touched[0]].den * sw.group_den[g])
    per_piece = []
    for j in touched:
        if len(partials[j]) == 1:  # one group: its own denominator, not the weights' lcm
            (g, t), = partials[j].items()
            per_piece.append((t, pieces[j].den * sw.group_den[g]))
            continue
        total = 0
        for g, t in partials[j].items():
            total += t * sw.group_cof[g]
        per_piece.append((total, pieces[j].den * sw.lcm))
    if len(per_piece) == 1:
        return field.fraction(*per_piece[0])
    return field.sum_fractions(per_piece)


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
    group_of = list(groups) if groups is not None else [0] * max((len(w) for w in weights), default=0)
    members: dict[int, list[int]] = {}
    for c, g in enumerate(group_of):
        members.setdefault(g, []).append(c)
    split = [split_weights(field, w, members) for w in weights]
    out: list[dict[int, Any]] = [{} for _ in weights]
    for s, row in rows.items():
        pieces = row_pieces(field, row, shared.get(s, ()) if shared is not None else (), splits)
        for sw, acc in zip(split, out):
            acc[s] = row_sum(field, pieces, sw, group_of)
    return out
