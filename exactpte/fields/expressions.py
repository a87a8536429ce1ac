"""Parametric entries parsed, never evaluated: text straight into ``QQ(params)``.

A chain file's parametric entry (``"1-p"``, ``"p*q/2"``, ``"(-1)*p+1"``, ``"p^2"``) is read by
a small recursive-descent parser whose only actions are field operations on
:class:`~exactpte.fields.rational_functions.RationalFunction` values.  Nothing reaches
``eval``, ``exec`` or ``sympy.sympify``: an entry such as ``__import__("os").system("...")``
is a syntax error naming the offending token, and nothing runs.

Grammar (whitespace between tokens is ignored)::

    expression := term (("+" | "-") term)*
    term       := unary (("*" | "/") unary)*
    unary      := ("+" | "-") unary | power
    power      := atom (("^" | "**") INTEGER)?
    atom       := NUMBER | NAME | "(" expression ")"

``NUMBER`` is an integer or decimal literal (``3``, ``0.25``, ``1e-3``; read exactly), ``NAME`` a
declared parameter, ``INTEGER`` a non-negative exponent of at most :data:`MAX_EXPONENT`.  As
in Python, ``-p^2`` is ``-(p^2)``; a power's exponent is a literal, so ``9**9**9`` is refused.

Work is bounded before it is done: at most :data:`MAX_LENGTH` characters and :data:`MAX_DEPTH`
nested parentheses or signs; no polynomial of more than :data:`MAX_TERMS` terms or with a
coefficient of more than :data:`MAX_BITS` bits is formed.

Examples
--------
>>> from exactpte.fields import RationalFunctionField
>>> F = RationalFunctionField(["p", "q"])
>>> F.to_text(parse_expression("(1 - p)^2 / (1 - p) + 0.5*q", F))
'(-2*p + q + 2)/2'
>>> parse_expression("exec(p)", F)
Traceback (most recent call last):
...
exactpte.errors.SymbolicEntryError: entry is 'exec(p)', which is not an expression of the parameters (unknown symbol 'exec' at position 0; the declared parameters are p, q)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from exactpte.numbers.scalars import parse_number
from exactpte.errors import EntryError, SymbolicEntryError

from exactpte.fields.fraction_protocols import FractionField, PolyFraction

E = TypeVar("E", bound=PolyFraction)

__all__ = ["parse_expression", "ParseLimits", "CHAIN_ENTRY", "RESULT_ENTRY", "MAX_LENGTH", "MAX_DEPTH", "MAX_EXPONENT",
           "MAX_TERMS", "MAX_BITS"]

MAX_LENGTH = 10_000
"""Most characters in one entry."""
MAX_DEPTH = 100
"""Most nested parentheses and unary signs."""
MAX_EXPONENT = 64
"""Largest exponent of ``^`` / ``**``."""
MAX_TERMS = 2_000
"""Most terms of a numerator or denominator formed while parsing."""
MAX_BITS = 20_000
"""Most bits of a coefficient formed while parsing."""



@dataclass(frozen=True)
class ParseLimits:
    """Bounds on one parsed entry, checked before the work they bound is done: characters, nesting,
    exponent, terms and coefficient bits of every polynomial formed, and term products of one product."""

    length: int
    depth: int
    exponent: int
    terms: int
    bits: int
    product_work: int


CHAIN_ENTRY = ParseLimits(MAX_LENGTH, MAX_DEPTH, MAX_EXPONENT, MAX_TERMS, MAX_BITS, MAX_TERMS * MAX_TERMS // 4)
"""The bounds on a chain's entries (untrusted text of a chain file: small expressions)."""
RESULT_ENTRY = ParseLimits(length=50_000_000, depth=MAX_DEPTH, exponent=100_000, terms=200_000, bits=1_000_000,
                           product_work=20_000_000)
"""The bounds on an entry of a decomposition's answer read back (``v*`` of a path of length 70 has ``e**69``;
periodic37's numerators have 10,000 terms): larger, and still bounded, so a hostile text cannot run away."""


_TOKEN = re.compile(
    # ASCII digits only ([0-9], not \d: int('\u0662') is 2, so an Arabic-Indic exponent was read as one); any whitespace
    r"\s*(?:(?P<number>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<op>\*\*|[-+*/^()]))"
)


def _show(text: str, limit: int = 60) -> str:
    """The entry as quoted in a message, cut to ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _tokens(text: str, where: str) -> list[tuple[str, str, int]]:
    out = []
    pos = 0
    stripped_end = len(text.rstrip())
    while pos < stripped_end:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            bad = text[pos:].lstrip()[:10]
            at = len(text) - len(text[pos:].lstrip())
            raise SymbolicEntryError(f"{where} is {_show(text)}, which is not an expression of the parameters (unexpected "
                                     f"{bad!r} at position {at}; allowed are numbers, parameter names, + - * / ^ ** and parentheses)")
        kind = cast(str, m.lastgroup)  # every alternative of _TOKEN is a named group
        out.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    return out


class _Parser(Generic[E]):
    def __init__(self, text: str, field: FractionField[E], where: str, limits: ParseLimits) -> None:
        self.text, self.F, self.where, self.limits = text, field, where, limits
        self.toks = _tokens(text, where)
        self.i = 0
        self.depth = 0

    # -- errors and bounds -----------------------------------------------------------------
    def fail(self, message: str) -> SymbolicEntryError:
        return SymbolicEntryError(f"{self.where} is {_show(self.text)}, which is not an expression of the parameters ({message})")

    def guard(self, x: E) -> E:
        for poly in (x.num, x.den):
            if len(poly) > self.limits.terms:
                raise self.fail(f"a polynomial of {len(poly)} terms is formed (at most {self.limits.terms})")
            if poly.coeffs() and max(abs(int(c)) for c in poly.coeffs()).bit_length() > self.limits.bits:
                raise self.fail(f"a coefficient of more than {self.limits.bits} bits is formed")
        return x

    def product(self, a: E, b: E) -> E:
        # bound the work of one product before doing it: term products of numerators and denominators
        if max(len(a.num) * len(b.num), len(a.den) * len(b.den)) > self.limits.product_work:
            raise self.fail(f"a product of polynomials with {len(a.num)} and {len(b.num)} terms is too large")
        return self.guard(a * b)

    # -- token access ----------------------------------------------------------------------
    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None) -> tuple[str, str, int] | None:
        tok = self.peek()
        if tok is not None and (value is None or tok[1] == value):
            self.i += 1
            return tok
        return None

    def nest(self) -> None:
        self.depth += 1
        if self.depth > self.limits.depth:
            raise self.fail(f"more than {self.limits.depth} nested parentheses or signs")

    # -- grammar ---------------------------------------------------------------------------
    def parse(self) -> E:
        if not self.toks:
            raise self.fail("empty expression")
        x = self.expression()
        tok = self.peek()
        if tok is not None:
            raise self.fail(f"unexpected {tok[1]!r} at position {tok[2]}")
        return x

    def expression(self) -> E:
        terms = [self.term()]
        while (tok := self.peek()) is not None and tok[1] in "+-" and tok[0] == "op":
            self.i += 1
            y = self.term()
            terms.append(y if tok[1] == "+" else -y)
        # summed in a balanced tree, not left to right: a sum of k terms then costs about k log k term copies
        # (and k log k gcds of small denominators) where adding each term to the growing sum cost k^2 (a
        # 3,000-term numerator read back took 4.8 s) -- every partial sum is still bounded by guard()
        while len(terms) > 1:
            terms = [self.guard(terms[j] + terms[j + 1]) if j + 1 < len(terms) else terms[j] for j in range(0, len(terms), 2)]
        return terms[0]

    def term(self) -> E:
        x = self.unary()
        while (tok := self.peek()) is not None and tok[0] == "op" and tok[1] in ("*", "/"):
            self.i += 1
            y = self.unary()
            if tok[1] == "*":
                x = self.product(x, y)
            else:
                if y.num.is_zero():
                    raise self.fail(f"division by zero at position {tok[2]}")
                x = self.product(x, y.inverse())
        return x

    def unary(self) -> E:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in "+-":
            self.i += 1
            self.nest()
            x = self.unary()
            self.depth -= 1
            return -x if tok[1] == "-" else x
        return self.power()

    def power(self) -> E:
        base = self.atom()
        tok = self.peek()
        if tok is None or tok[0] != "op" or tok[1] not in ("^", "**"):
            return base
        self.i += 1
        exp_tok = self.take()
        if exp_tok is None or exp_tok[0] != "number" or not (exp_tok[1].isascii() and exp_tok[1].isdigit()):
            where = f"at position {exp_tok[2]}" if exp_tok else "at the end"
            raise self.fail(f"the exponent after {tok[1]!r} must be a non-negative integer literal ({where})")
        k = int(exp_tok[1]) if len(exp_tok[1]) <= 7 else self.limits.exponent + 1
        if k > self.limits.exponent:
            bound = ": the bound on a chain's entries; read an answer with field.read_result" if self.limits == CHAIN_ENTRY else ""
            raise self.fail(f"exponent {exp_tok[1]} exceeds {self.limits.exponent}{bound}")
        nxt = self.peek()
        if nxt is not None and nxt[0] == "op" and nxt[1] in ("^", "**"):
            raise self.fail(f"chained powers at position {nxt[2]}; write (a^b)^c")
        if k == 0:
            if base.num.is_zero():
                raise self.fail("0^0 is undefined")
            return self.F.one
        result, square = None, base
        while k:  # binary powering, every product bounded
            if k & 1:
                result = square if result is None else self.product(result, square)
            k >>= 1
            if k:
                square = self.product(square, square)
        assert result is not None  # k >= 1: the loop multiplied at least once
        return result

    def atom(self) -> E:
        tok = self.take()
        if tok is None:
            raise self.fail("the expression ends too early")
        kind, value, pos = tok
        if kind == "number":
            try:
                q = parse_number(value)
            except EntryError as e:
                raise self.fail(str(e)) from None
            if q is None:  # pragma: no cover - the token pattern only matches literals
                raise self.fail(f"bad number {value!r} at position {pos}")
            if max(int(q.p).bit_length(), int(q.q).bit_length()) > self.limits.bits:
                # a literal is a coefficient formed too: 1e56464 is 187,572 bits and prints as 56,465 digits,
                # which no entry of the same bounds reads back
                raise self.fail(f"the number {value[:20]!r}{'...' if len(value) > 20 else ''} at position {pos} has more "
                                f"than {self.limits.bits} bits")
            return self.F.scalar(q)
        if kind == "name":
            if value not in self.F.params:
                raise self.fail(f"unknown symbol {value!r} at position {pos}; the declared parameters are {', '.join(self.F.params)}")
            return self.F.variable(value)
        if value == "(":
            self.nest()
            x = self.expression()
            self.depth -= 1
            if self.take(")") is None:
                nxt = self.peek()
                raise self.fail(f"missing ')' {'at position ' + str(nxt[2]) if nxt else 'at the end'}")
            return x
        raise self.fail(f"unexpected {value!r} at position {pos}")


def parse_expression(text: str, field: FractionField[E], where: str = "entry", *, limits: ParseLimits = CHAIN_ENTRY) -> E:
    """Parse one entry into ``field`` (see the module docstring for the grammar and bounds).

    Parameters
    ----------
    text : str
        The entry, e.g. ``"1-p"``, ``"p*q/2"``, ``"(-1)*p+1"``.
    field : RationalFunctionField
        The parameters' field; names must be its parameters.
    where : str
        How error messages name the entry (``"P[2][0]"``).
    limits : ParseLimits
        :data:`CHAIN_ENTRY` (default) for a chain's entries, :data:`RESULT_ENTRY` for an answer read back.

    Returns
    -------
    RationalFunction
        The cancelled rational function.

    Raises
    ------
    SymbolicEntryError
        Naming the entry and the offending token, for anything outside the grammar or bounds.

    Examples
    --------
    >>> from exactpte.fields import RationalFunctionField
    >>> F = RationalFunctionField(["p"])
    >>> parse_expression("p/(p*p)", F) == F.one / F.variable("p")
    True
    """
    if len(text) > limits.length:
        raise SymbolicEntryError(f"{where} has {len(text)} characters, more than the {limits.length} allowed")
    return _Parser(text, field, where, limits).parse()
