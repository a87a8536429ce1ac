"""Between ``fmpz_mpoly`` polynomials and sympy: sympy input (built by Python code, never parsed)
and sympy/LaTeX output.  sympy is imported only when one of these functions runs.

Examples
--------
>>> import flint
>>> ctx = flint.fmpz_mpoly_ctx.get(("p",), "degrevlex")
>>> p, = sympy_symbols(["p"])
>>> poly_to_sympy(ctx.gen(0) ** 2 - 1, [p])
p**2 - 1
"""

from __future__ import annotations

from collections.abc import Sequence
from math import lcm
from typing import TYPE_CHECKING, Any

import flint

from exactpte.errors import SymbolicEntryError
from exactpte.fields.polynomials import factor

if TYPE_CHECKING:  # pragma: no cover
    import sympy

__all__ = ["sympy_symbols", "poly_to_sympy", "factored_sympy", "display", "polynomials_from_sympy"]


def sympy_symbols(params: Sequence[str]) -> tuple[Any, ...]:
    """The parameters as real sympy symbols."""
    import sympy

    return tuple(sympy.Symbol(p, real=True) for p in params)


def poly_to_sympy(f: Any, symbols: Sequence[Any]) -> "sympy.Expr":
    """An ``fmpz_mpoly`` as a sympy polynomial expression in ``symbols``."""
    import sympy

    return sympy.Add(*[int(c) * sympy.Mul(*[s**e for s, e in zip(symbols, m)]) for m, c in f.to_dict().items()])


def factored_sympy(f: Any, symbols: Sequence[Any]) -> "sympy.Expr":
    """``f`` as a sympy product of its irreducible factors (unevaluated powers of expanded factors)."""
    import sympy

    if f.is_constant():
        return sympy.Integer(int(f.leading_coefficient())) if not f.is_zero() else sympy.Integer(0)
    c, factors = factor(f)
    return sympy.Integer(int(c)) * sympy.Mul(*[poly_to_sympy(g, symbols) ** e for g, e in factors])


def display(num: Any, den: Any, symbols: Sequence[Any]) -> "sympy.Expr":
    """The sympy expression printed for ``num / den``: factored when that prints shorter."""
    expanded = poly_to_sympy(num, symbols) / poly_to_sympy(den, symbols)
    if num.is_constant() and den.is_constant():
        return expanded
    factored = factored_sympy(num, symbols) / factored_sympy(den, symbols)
    return factored if len(str(factored)) < len(str(expanded)) else expanded


def polynomials_from_sympy(expr: Any, params: Sequence[str], symbols: Sequence[Any], ctx: flint.fmpz_mpoly_ctx,
                           where: str) -> tuple[Any, Any]:
    """``(num, den)`` integer polynomials in ``ctx`` with ``expr = num / den``, for a sympy expression
    object of the parameters (:class:`~exactpte.errors.SymbolicEntryError` for anything else)."""
    import sympy

    if not isinstance(expr, sympy.Expr):
        raise SymbolicEntryError(f"{where} is {expr!r}, which is not an expression")
    by_name = dict(zip(params, symbols))
    unknown = sorted(str(s) for s in expr.free_symbols if str(s) not in by_name)
    if unknown:
        raise SymbolicEntryError(f"{where} uses unknown symbol(s) {', '.join(unknown)}; declared parameters are {', '.join(params)}")
    expr = expr.xreplace({s: by_name[str(s)] for s in expr.free_symbols})
    if expr.has(sympy.Float):
        raise SymbolicEntryError(f"{where} is {expr}, which holds a float; write exact numbers")
    num, den = sympy.fraction(sympy.together(expr))
    try:
        pn = sympy.Poly(num, *symbols, domain="QQ")
        pd = sympy.Poly(den, *symbols, domain="QQ")
    except (sympy.PolynomialError, sympy.polys.polyerrors.CoercionFailed, sympy.GeneratorsNeeded):
        raise SymbolicEntryError(
            f"{where} is {expr}, which is not a rational function of {', '.join(params)} with rational "
            f"coefficients (irrational constants such as sqrt(2) are not supported)") from None
    if pd.is_zero:
        raise SymbolicEntryError(f"{where} is {expr}, which divides by zero")
    n_int, n_den = _integer_poly(pn, ctx)
    d_int, d_den = _integer_poly(pd, ctx)
    # num/den = (n_int / n_den) / (d_int / d_den)
    return n_int * ctx.constant(d_den), d_int * ctx.constant(n_den)


def _integer_poly(poly: Any, ctx: flint.fmpz_mpoly_ctx) -> tuple[Any, int]:
    """A sympy ``Poly`` over ``QQ`` as ``(integer polynomial, denominator)``."""
    terms = poly.terms()
    den = lcm(*(int(c.q) for _, c in terms)) if terms else 1
    return ctx.from_dict({m: int(c * den) for m, c in terms}), den
