"""The valid region of a parametric chain, written in its simplest form.

A parametric chain is valid where every support entry is positive.  Written entry by entry
that reads ``p**5 > 0, -p**5 + p**4 > 0, …``; when every entry has at most one irreducible
factor of odd multiplicity, the region is the sign conditions of those factors, and linear
factors in one parameter combine into intervals: ``0 < p < 1``.

Examples
--------
>>> from exactpte.fields import RationalFunctionField
>>> F = RationalFunctionField(["p"])
>>> simplest_region(F, [F.convert("p**5"), F.convert("p**4 - p**5"), F.convert("p**3*(p - 1)**2")], [])
('0 < p < 1',)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import flint

from exactpte.fields import polynomials
from exactpte.fields.signs import real_roots, sign_at_root

if TYPE_CHECKING:  # pragma: no cover
    from exactpte.fields.rational_functions import RationalFunction, RationalFunctionField

__all__ = ["has_valid_point", "simplest_region", "sample_point", "vanishes_in_region"]


_SAMPLES = [flint.fmpq(a, b) for b in (2, 3, 4, 5, 7, 11) for a in range(1, b) if flint.fmpz(a).gcd(b) == 1]


def sample_point(F: RationalFunctionField, entries: Sequence[RationalFunction], neqs: Sequence[Any]) -> list[flint.fmpq] | None:
    """A rational point where every entry is positive and no inequation vanishes: every parameter equal first (small
    values among them, so that many probabilities summing below 1 are met at once), then a small grid."""
    m = len(F.params)
    equal = [flint.fmpq(1, m + k) for k in (1, 2, 3)] + _SAMPLES
    candidates = itertools.chain(([c] * m for c in equal), itertools.islice(itertools.product(_SAMPLES, repeat=m), 4000))
    for point in candidates:
        if _valid_at(F, entries, neqs, point):
            return list(point)
    return None


def has_valid_point(F: RationalFunctionField, entries: Sequence[RationalFunction], neqs: Sequence[Any]) -> bool:
    """Whether some real value of the one parameter makes every entry positive and no inequation
    vanish, decided exactly.

    Every sign involved is constant between consecutive distinct real roots of the entries'
    numerators and denominators and of the inequations, and the region avoids those roots, so one
    rational point in each gap decides it.  The linear factors give their rational roots exactly;
    the roots of the other irreducible factors are isolated in disjoint intervals that end at
    non-roots (:func:`~exactpte.fields.signs.real_roots`), halved until none holds a rational root;
    the midpoint of one root's right end and the next one's left end lies strictly between the two.

    Examples
    --------
    >>> from exactpte.fields import RationalFunctionField
    >>> F = RationalFunctionField(["p"])
    >>> has_valid_point(F, [F.convert("4*p*(1 - p)"), F.convert("(2*p - 1)^2")], [])   # 0 < p < 1, p != 1/2
    True
    >>> has_valid_point(F, [F.convert("p^2 - p"), F.convert("p")], [])                # p > 1 only
    True
    >>> has_valid_point(F, [F.convert("p - p^2"), F.convert("p - 1")], [])            # empty
    False
    >>> has_valid_point(F, [F.convert("-(3*p - 2)*(2*p^2 - 1)"), F.convert("p")], [])  # only 2/3 < p < 1/sqrt(2)
    True
    >>> has_valid_point(F, [F.convert("-(3*p - 2)*(2*p^2 - 1)"), F.convert("p")], [F.convert("p - 2/3").num])
    True
    """
    rational, factors = _roots_and_factors(entries, neqs)
    nonlinear = flint.fmpz_poly([1])
    for h in factors:
        nonlinear *= h
    intervals = [(r, r) for r in rational]
    for a, b in real_roots(nonlinear) if nonlinear.degree() > 0 else []:
        while any(a <= r <= b for r in rational):  # halve on the sign change (no rational root of nonlinear)
            m = (a + b) / 2
            a, b = (a, m) if (nonlinear(a) > 0) != (nonlinear(m) > 0) else (m, b)
        intervals.append((a, b))
    intervals.sort()
    if not intervals:
        points = [flint.fmpq(0)]
    else:
        points = [intervals[0][0] - 1, intervals[-1][1] + 1]
        points += [(right + left) / 2 for (_, right), (left, _) in zip(intervals, intervals[1:])]
    return any(_valid_at(F, entries, neqs, [x]) for x in points)


def _roots_and_factors(entries: Sequence[RationalFunction], neqs: Sequence[Any]) -> tuple[set[flint.fmpq], list[flint.fmpz_poly]]:
    """The one-parameter polynomials of ``entries`` (numerators and denominators) and ``neqs``, factored:
    the rational roots of their linear factors, exactly (no Sturm sequence for the many linear factors
    of a chain), and their distinct irreducible factors of degree 2 or more."""
    rational: set[flint.fmpq] = set()
    nonlinear: dict[tuple[int, ...], flint.fmpz_poly] = {}
    for f in [f for e in entries for f in (e.num, e.den)] + list(neqs):
        for h, _m in ([] if f.is_constant() else polynomials.univariate(f).factor()[1]):
            if h.degree() == 1:  # c1 x + c0: the rational root -c0 / c1
                c0, c1 = h.coeffs()
                rational.add(flint.fmpq(-int(c0), int(c1)))
            else:
                h = h if h.coeffs()[-1] > 0 else -h
                nonlinear.setdefault(tuple(int(c) for c in h.coeffs()), h)
    return rational, list(nonlinear.values())


def simplest_region(F: RationalFunctionField, entries: Sequence[RationalFunction], neqs: Sequence[Any]) -> tuple[str, ...] | None:
    """The region where every one of ``entries`` is positive and no polynomial of ``neqs`` vanishes,
    in its simplest form.

    When every entry has at most one irreducible factor of odd multiplicity, the entries' signs are
    the signs of those factors (fixed by a sample point), the factors of even multiplicity and the
    inequations only say ``!= 0`` (dropped when a factor's sign already says it), and the linear
    factors in one parameter combine into intervals (``0 < p < 1``).  With one parameter, a region
    that is one interval between rational roots of the entries is written so whatever the entries'
    factors (``1 - p**2 > 0`` and ``p > 0``: ``0 < p < 1``).  ``None`` otherwise.
    """
    if len(F.params) == 1:
        interval = _one_interval(F, entries, neqs)
        if interval is not None:
            return (interval,)
    point = sample_point(F, entries, neqs)
    if point is None:
        return None
    signs: list[flint.fmpz_mpoly] = []
    nonzero: list[flint.fmpz_mpoly] = [g for f in neqs for g in F.irreducible_factors(f)]
    for e in entries:
        odd: list[flint.fmpz_mpoly] = []
        for poly in (e.num, e.den):
            for g, m in polynomials.factor(poly)[1]:
                if not g.is_constant():
                    (odd if m % 2 else nonzero).append(g if g.leading_coefficient() > 0 else -g)
        if len(odd) > 1:
            return None
        for g in odd:
            g = g if F._eval_poly(g, point) > 0 else -g
            if g not in signs:
                signs.append(g)
    return tuple(_region_text(F, signs, [g for g in nonzero if g not in signs and -g not in signs]))


def _region_text(F: RationalFunctionField, positive: list[flint.fmpz_mpoly], nonzero: list[flint.fmpz_mpoly]) -> list[str]:
    """``g > 0`` for each of ``positive`` (intervals for linear ones in one parameter), ``g != 0`` for the rest."""
    lo: dict[int, flint.fmpq] = {}
    hi: dict[int, flint.fmpq] = {}
    other = []
    for g in positive:
        degrees = g.degrees()
        used = [k for k, d in enumerate(degrees) if d]
        if len(used) == 1 and degrees[used[0]] == 1:
            k = used[0]
            coeffs = polynomials.univariate_in(g, k)
            a, b = coeffs[1], coeffs[0]
            bound = flint.fmpq(-b, a) if a > 0 else flint.fmpq(b, -a)
            if a > 0:
                lo[k] = max(lo[k], bound) if k in lo else bound
            else:
                hi[k] = min(hi[k], bound) if k in hi else bound
        else:
            other.append(f"{F.poly_text(g)} > 0")
    out = []
    for k, name in enumerate(F.params):
        if k in lo and k in hi:
            out.append(f"{lo[k]} < {name} < {hi[k]}")
        elif k in lo:
            out.append(f"{name} > {lo[k]}")
        elif k in hi:
            out.append(f"{name} < {hi[k]}")
    seen: list[flint.fmpz_mpoly] = []
    for g in nonzero:
        if g not in seen:
            seen.append(g)
    return out + other + [f"{F.poly_text(g)} != 0" for g in seen]


def vanishes_in_region(F: RationalFunctionField, entries: Sequence[RationalFunction], f: Any) -> bool | None:
    """Whether the polynomial ``f`` vanishes at some point where every one of ``entries`` is positive.

    Decided exactly for one parameter: at each real root of ``f`` (isolated by Sturm sequences) the
    sign of every entry's numerator and denominator is decided exactly.  For several parameters
    ``False`` when a certificate shows ``f`` has no root on a box holding the region
    (:func:`root_free_on_box`), else ``None`` (undecided: the condition is kept).

    Examples
    --------
    >>> from exactpte.fields import RationalFunctionField
    >>> F = RationalFunctionField(["p"])
    >>> entries = [F.convert("p"), F.convert("1 - p")]
    >>> [vanishes_in_region(F, entries, F.convert(t).num) for t in ("p - 2", "p**2 + 1", "3*p - 1", "p")]
    [False, False, True, False]
    >>> G = RationalFunctionField(["p", "q"])
    >>> box = [G.convert(t) for t in ("p", "1 - p", "q", "1 - q")]
    >>> [vanishes_in_region(G, box, G.convert(t).num) for t in ("p - 2", "p + 3*q", "p*q + p + 1", "p - q")]
    [False, False, False, None]
    """
    if len(F.params) != 1:
        box = bounding_box(F, entries)
        return False if box is not None and root_free_on_box(f, box) else None
    g = polynomials.univariate(f)
    if g.degree() < 1:
        return False
    numerators = [(polynomials.univariate(e.num), polynomials.univariate(e.den)) for e in entries]
    for interval in real_roots(g):
        if all(sign_at_root(num, g, interval) * sign_at_root(den, g, interval) > 0 for num, den in numerators):
            return True
    return False


def _valid_at(F: RationalFunctionField, entries: Sequence[RationalFunction], neqs: Sequence[Any],
              point: Sequence[flint.fmpq]) -> bool:
    """Every entry defined and positive at the rational ``point``, no inequation vanishing there."""
    try:
        return all(F.evaluate(e, point) > 0 for e in entries) and all(F._eval_poly(f, point) != 0 for f in neqs)
    except ZeroDivisionError:
        return False


def _one_interval(F: RationalFunctionField, entries: Sequence[RationalFunction], neqs: Sequence[Any]) -> str | None:
    """``a < p < b`` (or ``p > a``, ``p < b``) when the one-parameter region is a single open interval
    whose ends are rational roots; decided exactly: the entries' signs are constant between consecutive
    roots of their numerators and denominators, so one rational sample per gap and a test at each root
    settle the region.  ``None`` when a root is irrational or the region is not one interval."""
    roots, nonlinear = _roots_and_factors(entries, neqs)
    if any(real_roots(f) for f in nonlinear):  # irreducible of degree >= 2 with a real root: irrational
        return None
    cuts = sorted(roots)
    if not cuts:
        return None
    gaps = [cuts[0] - 1] + [(u + v) / 2 for u, v in zip(cuts, cuts[1:])] + [cuts[-1] + 1]
    inside = [_valid_at(F, entries, neqs, [x]) for x in gaps]
    # walk gaps and cut points in order; the region must be one run of positive pieces
    pieces = [inside[0]]
    for k, cut in enumerate(cuts):
        pieces += [_valid_at(F, entries, neqs, [cut]), inside[k + 1]]
    ends = [k for k in range(len(pieces)) if pieces[k] and (k == 0 or not pieces[k - 1])]
    if len(ends) != 1 or not pieces[ends[0]]:
        return None
    first = ends[0]
    last = max(k for k in range(len(pieces)) if pieces[k])
    if not all(pieces[first:last + 1]) or first % 2 or last % 2:
        return None  # several runs, or a run that starts or ends on a single point
    name = F.params[0]
    lo = cuts[first // 2 - 1] if first > 0 else None
    hi = cuts[last // 2] if last // 2 < len(cuts) else None
    if lo is not None and hi is not None:
        return f"{lo} < {name} < {hi}"
    if lo is not None:
        return f"{name} > {lo}"
    return f"{name} < {hi}" if hi is not None else None


def bounding_box(F: RationalFunctionField, entries: Sequence[RationalFunction]) -> list[tuple[flint.fmpq, flint.fmpq]] | None:
    """An open box ``lo_i < x_i < hi_i`` holding the region where every entry is positive, read off the
    entries linear in one parameter (``p > 0`` from ``p``, ``p < 1`` from ``1 - p``), then upper bounds from
    the entries linear in several (``p < 1`` from ``1 - p - q`` and ``q > 0``); ``None`` when some
    parameter gets no lower or no upper bound that way.

    Examples
    --------
    >>> from exactpte.fields import RationalFunctionField
    >>> F = RationalFunctionField(["p", "q"])
    >>> [tuple(map(str, b)) for b in bounding_box(F, [F.convert(t) for t in ("p", "1 - p - q", "q", "1 - q", "1 - p")])]
    [('0', '1'), ('0', '1')]
    >>> [tuple(map(str, b)) for b in bounding_box(F, [F.convert(t) for t in ("p", "q", "1/2 - p - q")])]  # a triangle
    [('0', '1/2'), ('0', '1/2')]
    """
    low: dict[int, flint.fmpq] = {}
    high: dict[int, flint.fmpq] = {}
    linear = [c for c in (_linear(F, e) for e in entries) if c is not None]
    for c0, slopes in linear:  # c0 + c_k x_k > 0: one bound on x_k
        used = [k for k, c in enumerate(slopes) if c]
        if len(used) == 1:
            k = used[0]
            bound = -c0 / slopes[k]
            if slopes[k] > 0:
                low[k] = max(low.get(k, bound), bound)
            else:
                high[k] = min(high.get(k, bound), bound)
    for c0, slopes in linear:  # c0 + sum c_j x_j > 0 (``1 - p - q``): x_k below what the others' bounds leave
        for k, ck in enumerate(slopes):
            rest = [(j, c) for j, c in enumerate(slopes) if c and j != k]
            if ck >= 0 or not rest or not all(j in (low if c < 0 else high) for j, c in rest):
                continue
            bound = (c0 + sum((c * (low[j] if c < 0 else high[j]) for j, c in rest), flint.fmpq(0))) / -ck
            high[k] = min(high.get(k, bound), bound)
    if len(low) != len(F.params) or len(high) != len(F.params) or any(low[k] >= high[k] for k in low):
        return None
    return [(low[k], high[k]) for k in range(len(F.params))]


def _linear(F: RationalFunctionField, e: RationalFunction) -> tuple[flint.fmpq, list[flint.fmpq]] | None:
    """``(c0, [c_1, ...])`` for an entry ``c0 + sum c_k x_k`` over a positive constant, else ``None``."""
    if not e.den.is_constant() or any(d > 1 for d in e.num.degrees()) or e.num.total_degree() > 1:
        return None
    scale = flint.fmpq(int(e.den.leading_coefficient()))
    n = len(F.params)
    c0, slopes = flint.fmpq(0), [flint.fmpq(0)] * n
    for exps, c in e.num.to_dict().items():
        used = [k for k, x in enumerate(exps) if x]
        if used:
            slopes[used[0]] = flint.fmpq(int(c)) / scale
        else:
            c0 = flint.fmpq(int(c)) / scale
    return c0, slopes


def root_free_on_box(f: Any, box: Sequence[tuple[flint.fmpq, flint.fmpq]], *, max_terms: int = 400) -> bool:
    """A certificate that the polynomial ``f`` has no root in the open box ``lo_i < x_i < hi_i``: with
    ``x_i = (lo_i + hi_i y_i) / (1 + y_i)`` the box is the positive orthant ``y > 0``, and
    ``f · prod (1 + y_i)^(deg_i f)`` (cleared of denominators) has all its coefficients of one sign, so
    it is positive (or negative) wherever every ``y_i > 0``.  ``False`` means not certified (``f`` may
    or may not vanish there); skipped past ``max_terms`` terms (a denominator's big factors).

    Examples
    --------
    >>> import flint
    >>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
    >>> p, q = ctx.gens()
    >>> unit = [(flint.fmpq(0), flint.fmpq(1))] * 2
    >>> root_free_on_box(p + 3 * q, unit), root_free_on_box(p - 2, unit), root_free_on_box(2 * p - 1, unit)
    (True, True, False)
    """
    if f.is_constant() or len(f) > max_terms:
        return not f.is_zero() and f.is_constant()
    ctx = f.context()
    ys = ctx.gens()
    degrees = [int(d) for d in f.degrees()]
    scale = [int(flint.fmpz(lo.q) * flint.fmpz(hi.q) // flint.fmpz(lo.q).gcd(flint.fmpz(hi.q))) for lo, hi in box]
    top = [int(lo * m) + int(hi * m) * y for (lo, hi), m, y in zip(box, scale, ys)]  # m x_i (1 + y_i)
    bottom = [m * (1 + y) for m, y in zip(scale, ys)]
    total = ctx.from_dict({})
    for exps, c in f.to_dict().items():
        term = ctx.constant(int(c))
        for k, e in enumerate(exps):
            term *= top[k] ** int(e) * bottom[k] ** (degrees[k] - int(e))
        total += term
    signs = {int(c) > 0 for c in total.coeffs()}
    return len(signs) == 1
