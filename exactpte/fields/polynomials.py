"""Helpers on python-flint integer polynomials (``fmpz_mpoly``), independent of any field object.

Factorisation that survives python-flint's overflow, the distinct irreducible factors, exact
evaluation at a rational point, degree-1 splitting, substitution into another field, and the
one-parameter view as an ``fmpz_poly``.  The printer, the sign test and the field build on these.

Examples
--------
>>> import flint
>>> ctx = flint.fmpz_mpoly_ctx.get(("p",), "degrevlex")
>>> p = ctx.gen(0)
>>> irreducible_factors(2 * p**2 - 2)
[p - 1, p + 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import flint

if TYPE_CHECKING:  # typing.Self is Python 3.11+; the checker's own typing_extensions has it
    from typing_extensions import Self


class FieldElement(Protocol):
    """What :func:`substitute` computes with: ``+``, ``*`` and ``/`` within one field."""

    def __add__(self, other: Any, /) -> Self:
        """The sum."""

    def __mul__(self, other: Any, /) -> Self:
        """The product."""

    def __truediv__(self, other: Any, /) -> Self:
        """The quotient."""


T = TypeVar("T", bound=FieldElement)
T_co = TypeVar("T_co", bound=FieldElement, covariant=True)


class TargetField(Protocol[T_co]):
    """A field to substitute into (:data:`~exactpte.fields.QQ`, a ``QQ(params)``): its zero and integers."""

    @property
    def zero(self) -> T_co:
        """The zero element."""

    def scalar(self, x: Any) -> T_co:
        """An exact number (an ``int`` here) as an element."""


class _WithContent(Protocol):
    """``fmpz_mpoly.content()`` (present at run time; python-flint 0.9's stubs omit it)."""

    def content(self) -> flint.fmpz:
        """The gcd of the coefficients."""


__all__ = ["factor", "irreducible_factors", "coprime_base", "shared_irreducible_factors", "poly_value", "linear_in", "substitute", "univariate", "univariate_in", "poly_lcm"]


def factor(f: flint.fmpz_mpoly) -> tuple[flint.fmpz | int, list[tuple[flint.fmpz_mpoly, int]]]:
    """``f.factor()``, or ``f`` as its own single factor when python-flint cannot order the factors
    (its sort compares coefficients as C ints: it can overflow on a factor with a coefficient of 2^31
    or more): still a correct factorisation, only coarser."""
    try:
        return f.factor()
    except OverflowError:
        c = cast(_WithContent, f).content()
        return (c, [(f / c, 1)]) if c != 1 else (1, [(f, 1)])


def irreducible_factors(f: flint.fmpz_mpoly) -> list[flint.fmpz_mpoly]:
    """The distinct non-constant irreducible factors of a polynomial, each primitive with a
    positive leading coefficient (so equal sets compare equal)."""
    if f.is_zero() or f.is_constant():
        return []
    out: list[flint.fmpz_mpoly] = []
    for g, _e in factor(f)[1]:
        if g.is_constant():
            continue
        if g.leading_coefficient() < 0:
            g = -g
        if g not in out:
            out.append(g)
    return out


def coprime_base(polys: Sequence[flint.fmpz_mpoly]) -> list[flint.fmpz_mpoly]:
    """Pairwise coprime non-constant polynomials such that each of ``polys`` is, up to a constant, a
    product of powers of them (a gcd-free basis: gcds and exact divisions only, no factoring).

    >>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
    >>> p, q = ctx.gens()
    >>> sorted(str(b) for b in coprime_base([(p + q) * (p - 1), (p - 1) * q**2, q]))
    ['p + q', 'p - 1', 'q']
    """
    return [b for b, _owners in _owned_base(polys)]


def _owned_base(polys: Sequence[flint.fmpz_mpoly]) -> list[tuple[flint.fmpz_mpoly, frozenset[int]]]:
    """:func:`coprime_base` with, for each piece, the indices of the ``polys`` it divides (every piece
    derived from ``f`` or merged with one divides ``f``; each irreducible factor of ``f`` ends in a piece
    that carries ``f``'s index), so no gcd is needed afterwards to tell which piece divides which."""
    base: list[tuple[flint.fmpz_mpoly, frozenset[int]]] = []
    pending = [(f, frozenset([k])) for k, f in enumerate(polys) if not f.is_constant()]
    while pending:
        f, mine = pending.pop()
        for k, (b, theirs) in enumerate(base):
            g = b.gcd(f)
            if not g.is_constant():
                base.pop(k)
                pending += [(h, owners) for h, owners in ((g, mine | theirs), (b // g, theirs), (f // g, mine))
                            if not h.is_constant()]
                break
        else:
            base.append((f, mine))
    return base


def shared_irreducible_factors(polys: Sequence[flint.fmpz_mpoly]) -> list[list[flint.fmpz_mpoly]]:
    """The distinct irreducible factors of each of ``polys`` (as :func:`irreducible_factors` gives them,
    possibly in another order), found by factoring the pieces of their :func:`coprime_base` once: big
    polynomials that share their factors (a decomposition's denominators: ``det(I - P_T)`` and its
    cyclotomic twins in every entry) cost a few gcds and the factoring of small pieces, not a
    factoring each.

    Examples
    --------
    >>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
    >>> p, q = ctx.gens()
    >>> [tuple(sorted(str(g) for g in fs)) for fs in shared_irreducible_factors([(p**2 - 1) * q, q**3 * (p + 1)])]
    [('p + 1', 'p - 1', 'q'), ('p + 1', 'q')]
    """
    base = _owned_base(polys)
    factors = [irreducible_factors(b) for b, _ in base]
    out: list[list[flint.fmpz_mpoly]] = [[] for _ in polys]
    for (_b, owners), fs in zip(base, factors):
        for k in sorted(owners):
            out[k] += [g for g in fs if g not in out[k]]
    return out


def poly_value(f: flint.fmpz_mpoly, qctx: flint.fmpq_mpoly_ctx, values: Sequence[flint.fmpq]) -> flint.fmpq:
    """The exact value of ``f`` at a rational point (``qctx``: the rational-coefficient context of ``f``'s variables)."""
    if f.is_zero():
        return flint.fmpq(0)
    # converted inside flint (15x faster than through a dict of its terms on a 13,000-term polynomial)
    return flint.fmpq_mpoly(f, qctx)(*values)


def linear_in(f: flint.fmpz_mpoly, var: int, ctx: flint.fmpz_mpoly_ctx) -> tuple[flint.fmpz_mpoly, flint.fmpz_mpoly] | None:
    """``(a, b)`` with ``f = a * x_var + b`` and ``a, b`` free of ``x_var``, when ``f`` has degree 1 in it."""
    a: dict[tuple[int, ...], int] = {}
    b: dict[tuple[int, ...], int] = {}
    for exps, c in f.to_dict().items():
        e = exps[var]
        if e > 1:
            return None
        rest = tuple(0 if k == var else x for k, x in enumerate(exps))
        (a if e == 1 else b)[rest] = int(c)
    if not a:
        return None
    return ctx.from_dict(a), ctx.from_dict(b)


def substitute(f: flint.fmpz_mpoly, images: Sequence[T], target: TargetField[T]) -> T:
    """``f`` with variable ``i`` replaced by ``images[i]``, computed in the field ``target``
    (anything with ``zero`` and ``scalar``: :data:`~exactpte.fields.QQ`, a ``QQ(params)``)."""
    acc = target.zero
    for exps, c in f.to_dict().items():
        term = target.scalar(int(c))
        for img, e in zip(images, exps):
            for _ in range(e):
                term = term * img
        acc = acc + term
    return acc


def univariate(f: flint.fmpz_mpoly) -> flint.fmpz_poly:
    """A polynomial in a single variable as an ``fmpz_poly``."""
    coeffs: dict[int, int] = {m[0]: int(c) for m, c in f.to_dict().items()}
    return flint.fmpz_poly([coeffs.get(k, 0) for k in range(max(coeffs) + 1)] if coeffs else [0])


def univariate_in(f: flint.fmpz_mpoly, var: int) -> list[int]:
    """The integer coefficients of a polynomial that involves only variable ``var``, lowest degree first."""
    coeffs: dict[int, int] = {m[var]: int(c) for m, c in f.to_dict().items()}
    return [coeffs.get(k, 0) for k in range(max(coeffs) + 1)] if coeffs else [0]


def poly_lcm(acc: flint.fmpz_mpoly, den: flint.fmpz_mpoly) -> flint.fmpz_mpoly:
    """``lcm(acc, den)`` up to a unit (``acc`` itself when ``den`` is 1): the fold step of common denominators."""
    return acc if den.is_one() else (acc * den) / acc.gcd(den)
