"""Text of polynomials and rational functions, printed straight from ``fmpz_mpoly`` (no sympy).

The format is sympy's ``str`` syntax (``p**2*q - 2*p + 1``, ``(1 - p)/(p + q)``, ``2*b/3``), so
``sympy.sympify`` parses it back; it is canonical (a function of the cancelled fraction only),
and of the expanded and the factored forms the shorter is printed (the expanded on a tie).
Terms are ordered lexicographically with the parameters sorted by name, highest first, as sympy
orders them; a positive constant leads a two-term sum whose other term is negative (``1 - p``).

Examples
--------
>>> import flint
>>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
>>> p, q = ctx.gens()
>>> rational_text(-(p - 1) * (q + 2)**2, ctx.constant(1), ("p", "q"))
'-(p - 1)*(q + 2)**2'
>>> rational_text(3 - 2 * q, ctx.constant(3), ("p", "q"))
'1 - 2*q/3'
>>> rational_text(q, p + q, ("p", "q")), rational_text(p, (p + q)**2, ("p", "q"))
('q/(p + q)', 'p/(p + q)**2')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import gcd

from exactpte.fields.polynomials import factor

__all__ = ["poly_text", "rational_text"]


def _terms(f, names: Sequence[str]) -> list[tuple[int, tuple[int, ...]]]:
    """``(coefficient, exponents)`` in sympy's order: lex, parameters sorted by name, highest first."""
    order = sorted(range(len(names)), key=lambda i: names[i])
    terms = [(int(c), tuple(int(e) for e in exps)) for exps, c in f.to_dict().items()]
    return sorted(terms, key=lambda t: tuple(t[1][i] for i in order), reverse=True)


def _monomial(exps: tuple[int, ...], names: Sequence[str]) -> str:
    order = sorted(range(len(names)), key=lambda i: names[i])
    return "*".join(names[i] if exps[i] == 1 else f"{names[i]}**{exps[i]}" for i in order if exps[i])


def _term(c: Fraction, exps: tuple[int, ...], names: Sequence[str]) -> str:
    """One signed term: ``2*p**2/3``, ``-q``, ``5``."""
    mono = _monomial(exps, names)
    sign = "-" if c < 0 else ""
    a, b = abs(c.numerator), c.denominator
    if not mono:
        return f"{sign}{a}" + (f"/{b}" if b != 1 else "")
    head = mono if a == 1 else f"{a}*{mono}"
    return f"{sign}{head}" + (f"/{b}" if b != 1 else "")


def _join(terms: list[str]) -> str:
    out = terms[0]
    for t in terms[1:]:
        out += f" - {t[1:]}" if t.startswith("-") else f" + {t}"
    return out


def poly_text(f, names: Sequence[str], scale: int = 1) -> str:
    """The expanded polynomial ``f / scale`` (``scale`` a positive integer)."""
    terms = _terms(f, names)
    if not terms:
        return "0"
    parts = [(Fraction(c, scale), e) for c, e in terms]
    if len(parts) == 2 and not any(parts[1][1]) and parts[1][0] > 0 and parts[0][0] < 0 and sum(1 for x in parts[0][1] if x) == 1 \
            and sum(parts[0][1]) == max(parts[0][1]):
        parts = [parts[1], parts[0]]  # "1 - p", not "-p + 1" (a constant and one negative power)
    return _join([_term(c, e, names) for c, e in parts])


def _is_sum(f) -> bool:
    return len(f.to_dict()) > 1


def _product(factors: list[tuple[object, int]], names: Sequence[str]) -> str:
    """``f1**e1*f2...`` with multi-term factors in parentheses."""
    out = []
    for g, e in factors:
        text = poly_text(g, names)
        if _is_sum(g) or (e != 1 and ("*" in text or text.startswith("-"))):
            text = f"({text})"
        out.append(text if e == 1 else f"{text}**{e}")
    return "*".join(out)


def _factors(f) -> tuple[int, list]:
    """``f = c * prod g**e`` with primitive ``g`` of positive leading coefficient, sorted canonically."""
    c, raw = factor(f)
    c = int(c)
    factors = []
    for g, e in raw:
        if g.leading_coefficient() < 0:
            g = -g
            c = c * (-1) ** int(e)
        factors.append((g, int(e)))
    factors.sort(key=lambda ge: (sum(ge[0].degrees()), len(ge[0].to_dict()), str(ge[0])))
    return c, factors


def rational_text(num, den, names: Sequence[str]) -> str:
    """``num / den`` (cancelled, ``den`` with a positive leading coefficient): expanded or factored, the shorter."""
    if num.is_zero():
        return "0"
    d_terms = den.to_dict()
    if len(d_terms) == 1 and not any(next(iter(d_terms))):  # constant denominator
        scale = int(next(iter(d_terms.values())))
        expanded = poly_text(num, names, scale)
    else:
        n_text, d_text = poly_text(num, names), poly_text(den, names)
        expanded = f"{_paren(n_text, _is_sum(num))}/{_paren(d_text, _is_sum(den) or _has_product(den))}"
    factored = _factored(num, den, names)
    return factored if factored is not None and len(factored) < len(expanded) else expanded


def _paren(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def _has_product(f) -> bool:
    (exps, c), = f.to_dict().items()
    return abs(int(c)) != 1 or sum(1 for e in exps if e) > 1 or any(e > 1 for e in exps)


def _factored(num, den, names: Sequence[str]) -> str | None:
    if num.is_constant() and den.is_constant():
        return None
    cn, fn = _factors(num) if not num.is_constant() else (int(num.leading_coefficient()), [])
    cd, fd = _factors(den) if not den.is_constant() else (int(den.leading_coefficient()), [])
    if cd < 0:
        cn, cd = -cn, -cd
    g = gcd(cn, cd)
    cn, cd = cn // g, cd // g
    if fd == [] and len(fn) == 1 and fn[0][1] == 1 and _is_sum(fn[0][0]):
        return None  # a number times one sum is the expanded form (sympy distributes it too)
    sign = "-" if cn < 0 else ""
    a = abs(cn)
    top = _product(fn, names)
    if not top:
        top = str(a)
    elif a != 1:
        top = f"{a}*{top}"
    bottom = _product(fd, names)
    if not bottom:
        return f"{sign}{top}" + (f"/{cd}" if cd != 1 else "")
    multi = cd != 1 or len(fd) > 1  # a product below the bar needs parentheses; one power does not
    if cd != 1:
        bottom = f"{cd}*{bottom}"
    return f"{sign}{top}/" + (f"({bottom})" if multi else bottom)
