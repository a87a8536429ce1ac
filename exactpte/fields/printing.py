"""Text of polynomials and rational functions, printed straight from ``fmpz_mpoly`` (no sympy).

The format is sympy's ``str`` syntax (``p**2*q - 2*p + 1``, ``(1 - p)/(p + q)``, ``2*b/3``), so
``sympy.sympify`` (and :func:`exactpte.fields.expressions.parse_expression`) parses it back.  It is
canonical, a function of the cancelled fraction only, and cheap to compute:

- the numerator with integer coefficients over the denominator, ``(N)/D`` (``(3 - 2*q)/3``, not
  ``1 - 2*q/3``); over 1 the numerator alone;
- each polynomial expanded (flint's own ``str`` in a lex context: one C call, no Python per term),
  except a small one (at most :data:`SMALL_TERMS` terms and total degree :data:`SMALL_DEGREE`),
  printed factored when that is shorter (``(p + q)**2``, ``-(p - 1)*(q + 2)**2``), and a product
  along paths (:data:`PRODUCT_TERMS`), printed factored; those factorisations are found by trial
  division with the factors met before (:class:`FactorBase`), and no other polynomial is factored;
- parentheses only where the syntax needs them (a sum before ``/``; a product or sum after it).

Terms are ordered lexicographically with the parameters sorted by name, highest first, as sympy
orders them; a positive constant leads a two-term sum whose other term is negative (``1 - p``).
Texts of the earlier convention (the shorter of the fully expanded and fully factored forms,
``1 - 2*q/3``) denote the same functions and are read as before.

Examples
--------
>>> import flint
>>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
>>> p, q = ctx.gens()
>>> rational_text(-(p - 1) * (q + 2)**2, ctx.constant(1), ("p", "q"))
'-(p - 1)*(q + 2)**2'
>>> rational_text(3 - 2 * q, ctx.constant(3), ("p", "q"))
'(3 - 2*q)/3'
>>> rational_text(q, p + q, ("p", "q")), rational_text(p, (p + q)**2, ("p", "q"))
('q/(p + q)', 'p/(p + q)**2')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from math import gcd
from typing import Any, TypeVar

import flint
from flint.utils.flint_exceptions import DomainError

from exactpte.fields.polynomials import factor

T = TypeVar("T")

__all__ = ["poly_text", "polynomial_form", "rational_text", "rational_latex", "latex_of_text", "TextCache", "signature", "FactorBase", "remembered"]

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


_FACTOR_TEXTS: dict[tuple[Any, ...], list[tuple[Any, str]]] = {}
"""The texts of irreducible factors met (products along paths repeat the same few factors)."""


def remembered(table: dict[Any, list[tuple[Any, T]]], key: Any, value: Any, make: Callable[[], T]) -> T:
    """What ``make()`` gave for a value equal to ``value`` met before under ``key`` (a cheap invariant of the
    value: equal values have equal keys, and ``==`` tells the values of one key apart), else ``make()``,
    remembered.

    >>> table: dict[Any, list[tuple[Any, str]]] = {}
    >>> remembered(table, 1, 7, lambda: "seven"), remembered(table, 1, 7, lambda: "again")
    ('seven', 'seven')
    """
    bucket = table.setdefault(key, [])
    for held, result in bucket:
        if held == value:
            return result
    result = make()
    bucket.append((value, result))
    return result


def _factor_text(g: Any, names: Sequence[str]) -> str:
    """``poly_text(g)``, remembered by value (the factor's context names are part of the key)."""
    if len(_FACTOR_TEXTS) > 20_000:
        _FACTOR_TEXTS.clear()
    return remembered(_FACTOR_TEXTS, (g.context().names(), len(g), g.total_degree()), g, lambda: poly_text(g, names))


def _product(factors: list[tuple[Any, int]], names: Sequence[str]) -> str:
    """``f1**e1*f2...`` with multi-term factors in parentheses."""
    out = []
    for g, e in factors:
        text = _factor_text(g, names)
        if len(g) > 1 or (e != 1 and ("*" in text or text.startswith("-"))):
            text = f"({text})"
        out.append(text if e == 1 else f"{text}**{e}")
    return "*".join(out)


def _normalised(c: Any, raw: Sequence[tuple[Any, Any]]) -> tuple[int, list[tuple[Any, int]]]:
    """A factorisation ``(c, [(g, e), ...])`` with each ``g`` of positive leading coefficient (``c``
    takes the signs)."""
    c = int(c)
    factors = []
    for g, e in raw:
        if g.leading_coefficient() < 0:
            g = -g
            c = c * (-1) ** int(e)
        factors.append((g, int(e)))
    return c, factors


def _factors(f: Any) -> tuple[int, list[tuple[Any, int]]]:
    """``f = c * prod g**e`` with primitive ``g`` of positive leading coefficient, sorted canonically:
    by the sum of the degrees, the number of terms, then (only among ties) flint's text.

    The factors are :func:`~exactpte.fields.polynomials.factor`'s, found by trial division with the
    factors met before (:class:`FactorBase`) when that is cheaper: a polynomial of more than
    :data:`SMALL_TERMS` terms goes through its ring's base, a smaller one to ``factor`` directly."""
    if len(f) > SMALL_TERMS:
        c, factors = _base(f.context()).factor(f)
    else:
        c, factors = _normalised(*factor(f))
    keys = [_order_key(g) for g, _ in factors]
    if len(set(keys)) == len(keys):
        order = sorted(range(len(factors)), key=keys.__getitem__)
    else:  # a tie: the text decides (computed only then)
        order = sorted(range(len(factors)), key=lambda i: (*keys[i], _tie_text(factors[i][0])))
    return c, [factors[i] for i in order]


_KEYS: dict[int, tuple[Any, tuple[int, int], list[str]]] = {}
"""By the id of a factor object (held, so the id stays valid): its order key and, once asked, its
text; the factor base hands out the same objects again and again (the parameters tie every time)."""


def _held(g: Any) -> tuple[Any, tuple[int, int], list[str]]:
    hit = _KEYS.get(id(g))
    if hit is None or hit[0] is not g:
        if len(_KEYS) > 20_000:
            _KEYS.clear()
        hit = _KEYS[id(g)] = (g, (int(sum(g.degrees())), len(g)), [])
    return hit


def _order_key(g: Any) -> tuple[int, int]:
    """The sum of ``g``'s degrees and its number of terms."""
    return _held(g)[1]


def _tie_text(g: Any) -> str:
    """flint's text of ``g`` (in its own context), which orders factors of equal :func:`_order_key`."""
    texts = _held(g)[2]
    if not texts:
        texts.append(str(g))
    return texts[0]


_INT_BOUND = 2**31
"""python-flint's ``factor`` orders its factors by comparing coefficients as C ``int``s: a factor
with a coefficient of absolute value 2^31 or more can make it raise (:func:`factor` then falls back
to the content split), so a factorisation with such a factor is left to ``factor`` itself."""


class FactorBase:
    """The irreducible factors met in one polynomial ring, to factor the next polynomial by trial
    division: outputs are products of a few factors (a path's probability is a product of
    transition probabilities), so a known factor divides most polynomials, exactly and repeatedly.

    :meth:`factor` gives exactly what :func:`~exactpte.fields.polynomials.factor` gives, normalised
    (the same irreducible factors, multiplicities and constant): the monomial content is split off
    first, each known factor ``g`` is divided out as often as it divides, and a cofactor that is
    neither constant nor divisible by a known factor goes to ``factor`` (its factors are then known).
    How often ``g`` divides is read from one integer: ``f(a)`` at a fixed point ``a`` (primes from 29
    up: small values are cheap to compute, large ones rarely overcount), which ``g(a)**e`` divides
    when ``g**e`` divides ``f``; so the number of times ``g(a)`` divides ``f(a)`` bounds ``e`` (and is
    ``e`` unless the cofactor's value shares ``g(a)``), and one exact division by ``g**e`` proves it
    (a failed one lowers ``e``).  A factor whose value is 0 or
    +-1 there, or a polynomial that vanishes there, is tried by repeated division.  Where ``factor``
    would fall back to its coarse split (:data:`_INT_BOUND`), ``factor`` itself is called.

    Only the speed depends on what the base holds; the result never does.

    >>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
    >>> p, q = ctx.gens()
    >>> base = FactorBase(ctx)
    >>> base.factor(-6 * p**3 * (p*q - 3)**5 * (q + 2))
    (-6, [(p, 3), (q + 2, 1), (p*q - 3, 5)])
    >>> base.factor(p * (p*q - 3)**2 * (p + q)), len(base.known)
    ((1, [(p, 1), (p*q - 3, 2), (p + q, 1)]), 3)
    """

    LIMIT = 256
    """At most this many factors are kept (the most used, when more are met)."""

    def __init__(self, ctx: Any) -> None:
        self.gens = ctx.gens()
        self.point = _point(len(self.gens))
        self.known: list[_Known] = []  # the most used first

    def factor(self, f: Any) -> tuple[int, list[tuple[Any, int]]]:
        """``f = c * prod g**e`` (``f`` not constant), each ``g`` irreducible, primitive, with a positive
        leading coefficient; the factors in no particular order."""
        m = f.term_content()  # the content times the monomial content: divided out with the first factor
        found = [(x, int(a)) for x, a in zip(self.gens, m.monoms()[0]) if a]
        r, small = self._divide(f, None if m.is_one() else m, found)
        if not r.is_constant():
            try:
                c, raw = r.factor()
            except OverflowError:
                return _normalised(*factor(f))
            c, new = _normalised(c, raw)
            found += new
            small = self._learn(new) and small
            r = r.context().constant(c)
        if not small:  # python-flint's factor(f) may take its coarse fallback: ask it
            return _normalised(*factor(f))
        return int(m.leading_coefficient()) * int(r.leading_coefficient()), found

    def _divide(self, f: Any, m: Any, found: list[tuple[Any, int]]) -> tuple[Any, bool]:
        """``r = f / m`` with every known factor divided out (appended to ``found``), and whether those
        factors' coefficients are all below :data:`_INT_BOUND`.  ``m`` (the term content, or None)
        is divided out with the first factor found (one division, not two)."""
        r, degrees, small, used = f, f.degrees(), True, False
        value = int(f(*self.point)) if m is None else int(f(*self.point)) // int(m(*self.point))
        for k in self.known:
            if any(a > b for a, b in zip(k.degrees, degrees)):
                continue
            if m is not None and (k.value in (0, 1, -1) or value == 0):  # repeated division: r / m first
                r, m = r / m, None
            e, r, value = k.divide_out(r, value, self.point, m)
            if e:
                m = None
                found.append((k.g, e))
                k.used += 1
                small, used = small and k.small, True
                if r.is_constant():
                    break
                degrees = r.degrees()
        if used:
            self.known.sort(key=_uses)
        return (r if m is None else r / m), small

    def _learn(self, factors: list[tuple[Any, int]]) -> bool:
        """Add new irreducible factors; whether their coefficients are all below :data:`_INT_BOUND`."""
        new = [_Known(g, self.point) for g, _ in factors]
        if len(self.known) + len(new) > self.LIMIT:  # the least used half goes (the new ones stay)
            del self.known[self.LIMIT // 2:]
        self.known += new
        return all(k.small for k in new)


class _Known:
    """A known irreducible factor ``g``: its value at the base's point, degrees, how often it was used,
    whether its coefficients are small (:data:`_INT_BOUND`), and its powers met so far (at most 32,
    of at most 4,096 terms each)."""

    __slots__ = ("g", "value", "degrees", "used", "small", "powers")

    def __init__(self, g: Any, point: Sequence[Any]) -> None:
        self.g, self.value, self.degrees, self.used = g, int(g(*point)), g.degrees(), 1
        self.small = all(-_INT_BOUND < int(c) < _INT_BOUND for c in g.coeffs())
        self.powers: dict[int, Any] = {1: g}

    def divide_out(self, r: Any, value: int, point: Sequence[Any], m: Any = None) -> tuple[int, Any, int]:
        """``(e, r / (m * g**e), its value)`` with ``e`` the multiplicity of ``g`` in ``r / m``, whose
        value is ``value`` (``m``: a monomial dividing ``r``, or None, and None when ``g``'s value
        is 0 or +-1 or ``value`` is 0); ``e = 0``: ``r`` unchanged."""
        w = self.value
        if w in (0, 1, -1) or value == 0:  # no valuation to read (``m`` already divided out then)
            e = 0
            while (q := _exact(r, self.g)) is not None:
                r, e = q, e + 1
            return e, r, (int(r(*point)) if e else value)
        e, v = 0, value
        while v % w == 0:
            v, e = v // w, e + 1
        while e:
            power = self.powers.get(e)
            if power is None:
                power = self.g**e
                if len(self.powers) < 32 and len(power) <= 4096:  # memory stays bounded
                    self.powers[e] = power
            q = _exact(r, power if m is None else power * m)
            if q is not None:
                return e, q, value // w**e
            e -= 1
        return 0, r, value


def _uses(k: _Known) -> int:
    return -k.used


def _exact(f: Any, g: Any) -> Any:
    """``f / g`` when ``g`` divides ``f`` exactly, else None."""
    try:
        return f / g
    except DomainError:
        return None


def _point(n: int) -> list[flint.fmpz]:
    """``n`` distinct primes from 29 up: where :class:`FactorBase` evaluates."""
    out: list[flint.fmpz] = []
    x = flint.fmpz(29)
    while len(out) < n:
        if x.is_prime():
            out.append(x)
        x += 2
    return out


_BASES: dict[Any, FactorBase] = {}
"""One :class:`FactorBase` per polynomial ring (a context), kept across writes."""


def _base(ctx: Any) -> FactorBase:
    base = _BASES.get(ctx)
    if base is None:
        if len(_BASES) > 64:
            _BASES.clear()
        base = _BASES[ctx] = FactorBase(ctx)
    return base


SMALL_TERMS = 16
"""A polynomial of at most this many terms and total degree at most :data:`SMALL_DEGREE` is printed
factored when that is shorter."""

SMALL_DEGREE = 16
"""See :data:`SMALL_TERMS`."""

PRODUCT_TERMS = 1024
"""A larger polynomial is factored only when it has at most this many terms and a parameter divides
it (a denominator: at most this many terms), and is then printed factored whenever the factorisation
is not trivial (its expanded text is not computed); any other is printed expanded, never factored.
Products along paths (``-pK**50*pL**50*(pK - 1)**3*(...)**50``, an absorption probability of
``brp64_2``: 7 KB expanded, 60 characters factored) factor in about a millisecond; a dense
irreducible numerator of the same size costs 5-10 ms and gains nothing."""


def _factored_text(f: Any, names: Sequence[str]) -> str | None:
    """``f`` as ``c*g1**e1*g2...`` (``-`` leading a negative ``c``), or None when that is ``f``'s
    expanded form again (a monomial, or a number times one sum: sympy distributes it too)."""
    if len(f) == 1:
        return None
    c, fs = _factors(f)
    if len(fs) == 1 and fs[0][1] == 1:
        return None
    sign, a = ("-" if c < 0 else ""), abs(c)
    body = _product(fs, names)
    return sign + (body if a == 1 else f"{a}*{body}")


def polynomial_form(f: Any, names: Sequence[str], denominator: bool = False) -> tuple[str, bool]:
    """The canonical text of a nonzero polynomial and whether it is a sum (needs parentheses before
    ``/``): a small polynomial (:data:`SMALL_TERMS`) factored when that is shorter (the expanded on a
    tie); a larger one factored when :data:`PRODUCT_TERMS` says so and the factorisation is not
    trivial; any other expanded.

    >>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
    >>> p, q = ctx.gens()
    >>> polynomial_form(p**2 + 2*p*q + q**2, ("p", "q")), polynomial_form(3 - p, ("p", "q"))
    (('(p + q)**2', False), ('3 - p', True))
    """
    n = len(f)
    if n == 1:
        return poly_text(f, names), False
    if n <= SMALL_TERMS and f.total_degree() <= SMALL_DEGREE:
        expanded, factored = poly_text(f, names), _factored_text(f, names)
        return (expanded, True) if factored is None or len(factored) >= len(expanded) else (factored, False)
    if n <= PRODUCT_TERMS and (denominator or not f.term_content().is_constant()):
        factored = _factored_text(f, names)
        if factored is not None:
            return factored, False
    return poly_text(f, names), True


_ATOM = re.compile(r"[0-9]+|[A-Za-z_][A-Za-z0-9_]*(?:\*\*[0-9]+)?|\([^()]*\)(?:\*\*[0-9]+)?")
"""A denominator's text that needs no parentheses after ``/``: a number, a power of one parameter,
or a power of one parenthesised sum."""


def _over(top: str, top_sum: bool, bottom: str) -> str:
    """``top/bottom`` with the parentheses sympy's syntax needs: ``(N)/D``, ``N/(D)``."""
    if top_sum:
        top = f"({top})"
    return f"{top}/{bottom}" if _ATOM.fullmatch(bottom) else f"{top}/({bottom})"


def signature(f: Any) -> tuple[Any, ...]:
    """A cheap key of a polynomial's value (a few flint calls, no text): equal polynomials have
    equal signatures; polynomials of one signature are told apart with ``==``."""
    if f.is_zero():
        return (0,)
    return len(f), f.leading_coefficient(), f.coefficient(len(f) - 1)


Pieces = tuple[str, bool, str]
"""A rational function's text in pieces: the numerator's text, whether it is a sum, the denominator's
text (``""`` over 1)."""


Entry = tuple[Any, Any, str, "Pieces | None"]
"""A remembered value: its numerator and denominator, its text, the pieces of the text."""


class TextCache:
    """The texts of one field's values, each computed once.

    Outputs repeat values (a class's ``ρ`` on every state, a basis column's entries) as the same
    objects and as equal objects, and a few denominators on thousands of entries: an entry is looked
    up by identity, then by value (the sizes and degrees, then ``==``), and a denominator's text is
    computed once per distinct denominator.  Held objects keep their ids valid.
    """

    LIMIT = 200_000

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[Any, Any, Entry]] = {}  # id(num) -> (that num, its den, the entry)
        self._by_value: dict[tuple[Any, ...], list[Entry]] = {}
        self._dens: dict[tuple[Any, ...], list[tuple[Any, str]]] = {}
        self._latex: dict[int, str] = {}  # by the id of an entry (held in _by_value, cleared with it)

    def _entry(self, num: Any, den: Any, names: Sequence[str]) -> Entry:
        hit = self._by_id.get(id(num))
        if hit is not None and hit[0] is num and (hit[1] is den or hit[1] == den):  # one numerator object over
            return hit[2]  # equal denominators held by distinct objects (a constant 1 made for every entry)
        return self._found(num, den, names)

    def _found(self, num: Any, den: Any, names: Sequence[str]) -> Entry:
        """The entry of a numerator object not met before: found by value (sizes, then ``==``) or made."""
        key = (len(num), num.total_degree(), len(den), den.total_degree())
        bucket = self._by_value.get(key)
        if bucket is None:
            bucket = self._by_value[key] = []
        for entry in bucket:
            if entry[0] == num and entry[1] == den:
                break
        else:
            pieces = _pieces(num, den, names, self)
            entry = (num, den, _joined(num, den, pieces), pieces)
            bucket.append(entry)
        if len(self._by_id) > self.LIMIT:
            self._by_id.clear()
            self._by_value.clear()
            self._latex.clear()
        self._by_id[id(num)] = (num, den, entry)  # this num held: its id stays valid
        return entry

    def text(self, num: Any, den: Any, names: Sequence[str]) -> str:
        """:func:`rational_text` of ``num / den``, remembered."""
        return self._entry(num, den, names)[2]

    def texts(self, values: Iterable[Any], names: Sequence[str]) -> list[str]:
        """:meth:`text` of each value (an object with ``num`` and ``den``), in one loop: a numerator
        object met before is found by identity without a call."""
        by_id, found = self._by_id, self._found
        out: list[str] = []
        put = out.append
        for x in values:
            num, den = x.num, x.den
            hit = by_id.get(id(num))
            if hit is not None and hit[0] is num and (hit[1] is den or hit[1] == den):
                put(hit[2][2])
            else:
                put(found(num, den, names)[2])
        return out

    def latex(self, num: Any, den: Any, names: Sequence[str]) -> str:
        """:func:`rational_latex` of ``num / den``, from the remembered pieces of its text."""
        entry = self._entry(num, den, names)
        out = self._latex.get(id(entry))
        if out is None:
            out = self._latex[id(entry)] = _latex(entry[0], entry[1], entry[3])
        return out

    def denominator(self, den: Any, names: Sequence[str]) -> str:
        """The canonical text of a non-constant denominator, once per distinct polynomial (they are few)."""
        return remembered(self._dens, signature(den), den, lambda: polynomial_form(den, names, True)[0])


def _pieces(num: Any, den: Any, names: Sequence[str], cache: TextCache | None) -> Pieces | None:
    """The pieces of ``num / den``'s text; None for a constant (printed as ``fmpq`` prints it)."""
    if num.is_zero() or (num.is_constant() and den.is_constant()):
        return None
    top, top_sum = polynomial_form(num, names)
    if den.is_one():
        return top, top_sum, ""
    if den.is_constant():
        return top, top_sum, str(int(den.leading_coefficient()))
    return top, top_sum, (cache.denominator(den, names) if cache is not None else polynomial_form(den, names, True)[0])


def _joined(num: Any, den: Any, pieces: Pieces | None) -> str:
    if pieces is None:
        return "0" if num.is_zero() else str(flint.fmpq(int(num.leading_coefficient()), int(den.leading_coefficient())))
    top, top_sum, bottom = pieces
    return top if not bottom else _over(top, top_sum, bottom)


def rational_text(num: Any, den: Any, names: Sequence[str], cache: TextCache | None = None) -> str:
    """The canonical text of ``num / den`` (cancelled, ``den`` with a positive leading coefficient):
    the numerator with integer coefficients over the denominator, ``(N)/D``, each as
    :func:`polynomial_form` prints it (``1 - 2*q/3`` is ``(3 - 2*q)/3``: no ``/c`` on every term).

    >>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
    >>> p, q = ctx.gens()
    >>> rational_text(2*p*q - 1, 3*p + 3*q, ("p", "q")), rational_text(-2*p, ctx.constant(3), ("p", "q"))
    ('(2*p*q - 1)/(3*p + 3*q)', '-2*p/3')
    """
    return _joined(num, den, _pieces(num, den, names, cache))


_POWER = re.compile(r"\*\*([0-9]+)")


_SUPERSCRIPTS: dict[str, str] = {}
"""``"12"`` -> ``"^{12}"``: the exponents met (a polynomial's text holds thousands, of few values)."""


def latex_of_text(text: str) -> str:
    """A polynomial's text in :func:`polynomial_form`'s syntax as LaTeX (``2*(p - 1)**2`` as
    ``2 (p - 1)^{2}``): ``**k`` as ``^{k}`` (the text split at the powers in one C call, each
    exponent's superscript looked up, no Python per power), then ``*`` as a space.

    >>> latex_of_text("-3*p**2*q**10 + p*(q - 1)**2")
    '-3 p^{2} q^{10} + p (q - 1)^{2}'
    """
    parts = _POWER.split(text)
    if len(parts) > 1:
        exponents = parts[1::2]
        new = set(exponents).difference(_SUPERSCRIPTS)
        if new:
            if len(_SUPERSCRIPTS) > 100_000:
                _SUPERSCRIPTS.clear()
                new = set(exponents)
            _SUPERSCRIPTS.update((k, f"^{{{k}}}") for k in new)
        parts[1::2] = map(_SUPERSCRIPTS.__getitem__, exponents)
        text = "".join(parts)
    return text.replace("*", " ")


def _latex(num: Any, den: Any, pieces: Pieces | None) -> str:
    if pieces is None:
        if num.is_zero():
            return "0"
        a, b = int(num.leading_coefficient()), int(den.leading_coefficient())
        return str(a) if b == 1 else ("- " if a < 0 else "") + rf"\frac{{{abs(a)}}}{{{b}}}"
    top, top_sum, bottom = pieces
    if not bottom:
        return latex_of_text(top)
    sign = ""
    if top.startswith("-") and not top_sum:  # -2*p/3: the sign before the fraction
        sign, top = "- ", top[1:]
    return sign + rf"\frac{{{latex_of_text(top)}}}{{{latex_of_text(bottom)}}}"


def rational_latex(num: Any, den: Any, names: Sequence[str], cache: TextCache | None = None) -> str:
    r"""``num / den`` in LaTeX from the same pieces as :func:`rational_text`: ``\frac{N}{D}``.

    >>> ctx = flint.fmpz_mpoly_ctx.get(("p", "q"), "degrevlex")
    >>> p, q = ctx.gens()
    >>> rational_latex(q, (p + q)**2, ("p", "q")), rational_latex(-p**2, ctx.constant(3), ("p", "q"))
    ('\\frac{q}{(p + q)^{2}}', '- \\frac{p^{2}}{3}')
    """
    return _latex(num, den, _pieces(num, den, names, cache))
