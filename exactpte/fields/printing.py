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

import re
from collections.abc import Sequence
from math import gcd
from typing import Any

import flint

from exactpte.fields.polynomials import factor

__all__ = ["poly_text", "rational_text", "TextCache", "signature"]

_SEPARATOR = re.compile(r" ([+-]) ")
"""Between the terms of flint's text (a term's own sign is never spaced: ``-3*p``)."""


def _lex(f: Any) -> Any:
    """``f`` in the lex context of its parameters sorted by name, the order sympy prints in; then
    flint's own ``str`` gives the terms in sympy's order (one C call, no Python per term)."""
    ctx = f.context()
    names = ctx.names()
    lex = _LEX.get(names)
    if lex is None:
        lex = _LEX[names] = flint.fmpz_mpoly_ctx.get(tuple(sorted(names)), "lex")
    return f.project_to_context(lex)


_LEX: dict[tuple[str, ...], Any] = {}


def _flint_text(f: Any) -> str:
    """flint's text of ``f`` in sympy's order and power syntax (``p**2*q - 2*p + 1``)."""
    return str(_lex(f)).replace("^", "**")


def _scaled(text: str, scale: int) -> str:
    """Every term of the expanded ``text`` divided by ``scale``, each coefficient reduced: ``2*p**2/3``."""
    pieces = _SEPARATOR.split(text)
    signs, bodies = ["-" if pieces[0].startswith("-") else "+"] + pieces[1::2], [pieces[0].lstrip("-")] + pieces[2::2]
    out = []
    for sign, body in zip(signs, bodies):
        head, star, mono = body.partition("*")
        if head.isdigit():
            a, rest = int(head), (mono if star else "")
        else:
            a, rest = 1, body
        g = gcd(a, scale)
        a, b = a // g, scale // g
        core = (str(a) if not rest else rest if a == 1 else f"{a}*{rest}") + (f"/{b}" if b != 1 else "")
        out.append((sign, core))
    first = ("-" if out[0][0] == "-" else "") + out[0][1]
    return first + "".join(f" {sign} {core}" for sign, core in out[1:])


def poly_text(f: Any, names: Sequence[str], scale: int = 1) -> str:
    """The expanded polynomial ``f / scale`` (``scale`` a positive integer): flint's text in sympy's
    order, ``**`` for powers, every coefficient divided by ``scale`` and reduced.

    ``names`` are ``f``'s parameters (its context's names, which are what is printed).

    >>> ctx = flint.fmpz_mpoly_ctx.get(("q", "p"), "degrevlex")
    >>> q, p = ctx.gens()
    >>> poly_text(1 - p**2, ("q", "p")), poly_text(4*p*q - 2, ("q", "p"), 6)
    ('1 - p**2', '2*p*q/3 - 1/3')
    """
    if f.is_zero():
        return "0"
    text = _flint_text(f)
    if len(f) == 2:
        text = _constant_first(f, text)
    return text if scale == 1 else _scaled(text, scale)


def _constant_first(f: Any, text: str) -> str:
    """``1 - p``, not ``-p + 1``: a positive constant leads a two-term sum whose other term is a
    negative power of one parameter (sympy's order)."""
    head, sep, tail = text.partition(" + ")
    if not sep or not head.startswith("-") or not tail.isdigit():
        return text
    exps = next(e for e in f.monoms() if any(e))
    if sum(1 for x in exps if x) != 1:
        return text
    return f"{tail} - {head[1:]}"


def _is_sum(f: Any) -> bool:
    return len(f) > 1


def _product(factors: list[tuple[Any, int]], names: Sequence[str]) -> str:
    """``f1**e1*f2...`` with multi-term factors in parentheses."""
    out = []
    for g, e in factors:
        text = poly_text(g, names)
        if _is_sum(g) or (e != 1 and ("*" in text or text.startswith("-"))):
            text = f"({text})"
        out.append(text if e == 1 else f"{text}**{e}")
    return "*".join(out)


def _factors(f: Any) -> tuple[int, list[tuple[Any, int]]]:
    """``f = c * prod g**e`` with primitive ``g`` of positive leading coefficient, sorted canonically:
    by the sum of the degrees, the number of terms, then (only among ties) flint's text."""
    c, raw = factor(f)
    c = int(c)
    factors = []
    for g, e in raw:
        if g.leading_coefficient() < 0:
            g = -g
            c = c * (-1) ** int(e)
        factors.append((g, int(e)))
    keys = [(sum(g.degrees()), len(g)) for g, _ in factors]
    if len(set(keys)) == len(keys):
        order = sorted(range(len(factors)), key=keys.__getitem__)
    else:  # a tie: the text decides (computed only then)
        order = sorted(range(len(factors)), key=lambda i: (*keys[i], str(factors[i][0])))
    return c, [factors[i] for i in order]


def signature(f: Any) -> tuple[int, tuple[int, ...], int, int]:
    """A cheap key of a polynomial's value (a few flint calls, no text): equal polynomials have
    equal signatures; polynomials of one signature are told apart with ``==``."""
    if f.is_zero():
        return 0, (), 0, 0
    return len(f), tuple(f.degrees()), int(f.leading_coefficient()), int(f.coefficient(len(f) - 1))


class TextCache:
    """The texts of one field's values, each computed once.

    Outputs repeat values (a class's ``ρ`` on every state, a basis column's entries) as the same
    objects and as equal objects, and a few denominators on thousands of entries: an entry is looked
    up by identity, then by value (:func:`_signature`, then ``==``), and a denominator's
    factorisation is computed once per distinct denominator.  Held objects keep their ids valid.
    """

    LIMIT = 200_000

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[Any, Any, str]] = {}
        self._by_value: dict[tuple[Any, ...], list[tuple[Any, Any, str]]] = {}
        self._den_factors: dict[tuple[Any, ...], list[tuple[Any, tuple[int, list[tuple[Any, int]]]]]] = {}

    def text(self, num: Any, den: Any, names: Sequence[str]) -> str:
        """:func:`rational_text` of ``num / den``, remembered."""
        hit = self._by_id.get(id(num))
        if hit is not None and hit[0] is num and hit[1] is den:
            return hit[2]
        value_key = (*signature(num), *signature(den))
        bucket = self._by_value.setdefault(value_key, [])
        for n, d, text in bucket:
            if n == num and d == den:
                break
        else:
            text = rational_text(num, den, names, self)
            bucket.append((num, den, text))
        if len(self._by_id) > self.LIMIT:
            self._by_id.clear()
            self._by_value.clear()
        self._by_id[id(num)] = (num, den, text)
        return text

    def factors(self, f: Any) -> tuple[int, list[tuple[Any, int]]]:
        """``_factors(f)``, once per distinct polynomial (for denominators: few, repeated)."""
        bucket = self._den_factors.setdefault(signature(f), [])
        for g, out in bucket:
            if g == f:
                return out
        out = _factors(f)
        bucket.append((f, out))
        return out


def rational_text(num: Any, den: Any, names: Sequence[str], cache: TextCache | None = None) -> str:
    """``num / den`` (cancelled, ``den`` with a positive leading coefficient): expanded or factored, the shorter."""
    if num.is_zero():
        return "0"
    if den.is_constant():
        expanded = poly_text(num, names, int(den.leading_coefficient()))
    else:
        n_text, d_text = poly_text(num, names), poly_text(den, names)
        expanded = f"{_paren(n_text, _is_sum(num))}/{_paren(d_text, _is_sum(den) or _has_product(den))}"
    factored = _factored(num, den, names, cache)
    return factored if factored is not None and len(factored) < len(expanded) else expanded


def _paren(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def _has_product(f: Any) -> bool:
    (exps,), (c,) = f.monoms(), f.coeffs()
    return abs(int(c)) != 1 or sum(1 for e in exps if e) > 1 or any(e > 1 for e in exps)


def _factored(num: Any, den: Any, names: Sequence[str], cache: TextCache | None = None) -> str | None:
    if num.is_constant() and den.is_constant():
        return None
    fn: list[tuple[Any, int]] = []
    fd: list[tuple[Any, int]] = []
    if num.is_constant():
        cn = int(num.leading_coefficient())
    else:
        cn, fn = _factors(num)
    if den.is_constant():
        cd = int(den.leading_coefficient())
    else:
        cd, fd = cache.factors(den) if cache is not None else _factors(den)
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
