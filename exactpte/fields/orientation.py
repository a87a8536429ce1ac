"""Text of rational functions for reading: every denominator positive on the valid region.

The canonical text (:mod:`exactpte.fields.printing`, what JSON and CSV carry) gives a denominator a
positive leading coefficient, whatever its sign where the chain is valid: ``(-p*q + 4*p + 1)/(4*p*q - 4)``
on ``0 < p, q < 1``, where ``4*p*q - 4`` is negative.  A paper writes ``(p*q - 4*p - 1)/(4*(1 - p*q))``.
:class:`RegionPrinter` prints that form for the human-facing outputs (tables, summaries, LaTeX, the
factored form, pictures):

- the sign of each irreducible denominator factor on the region is decided exactly, by a certificate
  that it has no root on a box holding the region (:func:`~exactpte.fields.region.root_free_on_box`,
  the box read off the entries, :func:`~exactpte.fields.region.bounding_box`) and its value at the
  box's centre; a factor it cannot decide keeps the canonical sign;
- a denominator is written with its factors so oriented (``1 - p*q``, a positive term first), its
  integer content in front (``4*(1 - p*q)``), the sign moved to the numerator;
- small denominators (:data:`~exactpte.fields.printing.SMALL_TERMS`) are written factored, larger ones
  expanded (a positive term first).

The value is never changed, only its spelling: the text reads back (sympy's syntax) to the same function.

Examples
--------
>>> from exactpte.fields import RationalFunctionField
>>> F = RationalFunctionField(["p", "q"])
>>> printer = RegionPrinter(F, [F.convert(t) for t in ("p", "1 - p", "q", "1 - q")])
>>> x = F.convert("(-p*q + 4*p + 1)/(4*p*q - 4)")
>>> F.to_text(x), printer.text(x)
('(-p*q + 4*p + 1)/(4*p*q - 4)', '(p*q - 4*p - 1)/(4*(1 - p*q))')
>>> printer.latex(x)
'\\\\frac{p q - 4 p - 1}{4 (1 - p q)}'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from exactpte.fields import printing
from exactpte.fields.region import bounding_box, root_free_on_box

__all__ = ["RegionPrinter", "positive_first", "is_sum"]


class RegionPrinter:
    """Text and LaTeX of a field's elements with every denominator positive on the region where ``entries``
    (a chain's transition probabilities) are all positive; over ``QQ`` (or with no box to decide on) the
    field's own canonical text.  Each distinct denominator is oriented once."""

    def __init__(self, field: Any, entries: Sequence[Any] = ()) -> None:
        self.field = field
        self.params: tuple[str, ...] = tuple(getattr(field, "params", ()))
        self.box: list[tuple[Any, Any]] | None = None
        if getattr(field, "is_parametric", False) and self.params:
            varying = [e for e in entries if not e.is_constant()]
            self.box = bounding_box(field, varying) if varying else None
        self._signs: dict[tuple[Any, ...], list[tuple[Any, int]]] = {}
        self._pieces: dict[tuple[Any, ...], list[tuple[Any, tuple[int, str]]]] = {}

    @classmethod
    def of_chain(cls, chain: Any) -> "RegionPrinter":
        """The printer for a chain's region (its edges' probabilities bound it)."""
        return cls(chain.field, [q for _i, _j, q in chain.edges()] if getattr(chain.field, "is_parametric", False) else ())

    def sign(self, f: Any) -> int:
        """``+1`` or ``-1`` when the polynomial ``f`` has that sign on the whole region (decided by a
        certificate on the box), ``0`` when not decided."""
        box = self.box
        if box is None or f.is_zero():
            return 0
        if f.is_constant():
            return 1 if f.leading_coefficient() > 0 else -1

        def decide() -> int:
            if not root_free_on_box(f, box):
                return 0
            centre = [(lo + hi) / 2 for lo, hi in box]
            return 1 if self.field._eval_poly(f, centre) > 0 else -1

        return printing.remembered(self._signs, printing.signature(f), f, decide)

    def oriented(self, x: Any) -> tuple[Any, Any]:
        """``(num, den)`` of ``x`` with ``den`` positive on the region where that is decided (else as held)."""
        num, den = x.num, x.den
        if not den.is_constant() and self.sign(den) < 0:
            return -num, -den
        return num, den

    def text(self, x: Any) -> str:
        """``x`` in sympy's syntax, its denominator positive on the region (the canonical text over ``QQ``)."""
        if self.box is None:
            return str(self.field.to_text(x))
        num, den = self.oriented(x)
        if den.is_constant():
            return str(self.field.to_text(x))
        return printing._joined(num, den, self._pieces_of(num, den))

    def latex(self, x: Any) -> str:
        """LaTeX of :meth:`text`'s form (``\\frac{N}{D}``)."""
        if self.box is None:
            return str(self.field.to_latex(x))
        num, den = self.oriented(x)
        if den.is_constant():
            return str(self.field.to_latex(x))
        return printing._latex(num, den, self._pieces_of(num, den))

    def _pieces_of(self, num: Any, den: Any) -> printing.Pieces:
        top, top_sum = printing.polynomial_form(num, self.params)
        return top, top_sum, self.denominator(den)[1]

    def denominator(self, den: Any) -> tuple[int, str]:
        """``(content, text)`` of a denominator positive on the region: its integer content and its text with
        that content in front (``4*(1 - p*q)``), each small factor oriented (``(1 - p)*(1 - q)``)."""
        return printing.remembered(self._pieces, printing.signature(den), den, lambda: self._denominator(den))

    def _denominator(self, den: Any) -> tuple[int, str]:
        content = int(den.content())
        primitive = den if content == 1 else den // content
        if len(primitive) <= printing.SMALL_TERMS and primitive.total_degree() <= printing.SMALL_DEGREE and len(primitive) > 1:
            body = self._factored(primitive)
            if body is not None:
                return content, body if content == 1 else f"{content}*{_wrapped(body)}"
        text = positive_first(printing.poly_text(primitive, self.params))
        return content, text if content == 1 else f"{content}*{_wrapped(text)}"

    def _factored(self, f: Any) -> str | None:
        """The primitive ``f`` (positive on the region) as a product of oriented factors, ``None`` when a
        factor's sign is not decided and the product's sign would need it."""
        c, factors = printing._factors(f)
        out = []
        alone = len(factors) == 1 and factors[0][1] == 1 and abs(c) == 1
        for g, e in factors:
            if len(g) > 1 and self.sign(g) < 0:
                g, c = -g, c * (-1) ** e
            text = positive_first(printing.poly_text(g, self.params))
            if not alone and (len(g) > 1 or (e != 1 and ("*" in text or text.startswith("-")))):
                text = f"({text})"
            out.append(text if e == 1 else f"{text}**{e}")
        if c < 0:
            return None
        body = "*".join(out)
        return body if c == 1 else f"{c}*{body}"


def _wrapped(text: str) -> str:
    """``text`` in parentheses unless it is a product of atoms already (``(1 - p)*(1 - q)``, ``p``)."""
    return text if printing._ATOM.fullmatch(text) or not is_sum(text) else f"({text})"


def is_sum(text: str) -> bool:
    """Whether ``text`` has a ``+`` or a binary ``-`` outside parentheses (then ``/D`` or ``c*`` needs them around it).

    >>> is_sum("1 - p*q"), is_sum("-p*(1 - q)")
    (True, False)
    """
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in "+-" and k > 0 and text[k - 1] == " ":
            return True
    return False


_TERMS = re.compile(r" ([+-]) ")


def positive_first(text: str) -> str:
    """An expanded polynomial's text with its positive terms before its negative ones (``-p*q + 1`` as
    ``1 - p*q``, ``-p - q + 2`` as ``2 - p - q``): how a quantity positive on the region is read.

    >>> positive_first("-p*q + 1"), positive_first("p - 1"), positive_first("-p - q")
    ('1 - p*q', 'p - 1', '-p - q')
    """
    if not text.startswith("-"):
        return text
    pieces = _TERMS.split(text)
    terms = [("-", pieces[0][1:])] + list(zip(pieces[1::2], pieces[2::2]))
    if "(" in text or all(sign == "-" for sign, _ in terms):
        return text
    ordered = [t for t in terms if t[0] == "+"] + [t for t in terms if t[0] == "-"]
    return ordered[0][1] + "".join(f" {sign} {body}" for sign, body in ordered[1:])
