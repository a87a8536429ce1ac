"""Fractions over factored denominators, never cancelled: the arithmetic of the symbolic identities.

An identity over ``QQ(params)`` is proved by showing a residual is the zero rational function.  Cancelled
arithmetic (:class:`~exactpte.fields.RationalFunction`) pays a polynomial gcd on almost every sum; a residual
needs none.  Here each closed form's denominator is factored once into irreducible polynomials (the *atoms* of a
family, numbered as they are met), an element is ``num / (c * prod atom_k^e_k)`` with an integer ``c > 0``, and

- a product adds exponents; a sum goes over the exponentwise maximum (a common multiple of the denominators,
  from the factorisations: no gcd), each numerator times its cofactor (products of atoms, each computed once);
- ``x == 0`` is ``num == 0``: the denominator is a product of nonzero polynomials, so the fraction is the zero
  rational function exactly when its numerator is the zero polynomial.  Nothing is decided differently from
  cancelled arithmetic; only the gcds are gone.

A value that must be reported or signed (a nonzero residual, an inequality) is turned back into the cancelled
:class:`~exactpte.fields.RationalFunction` by :meth:`Unreduced.reduced`.

Examples
--------
>>> from exactpte.fields import RationalFunctionField
>>> F = RationalFunctionField(["p"])
>>> atoms = Atoms(F)
>>> x, y = atoms.lift(F.convert("1/(1 - p)")), atoms.lift(F.convert("p/(1 - p)^2"))
>>> s = x - x * x + y  # 1/(1-p) - 1/(1-p)^2 + p/(1-p)^2 = 0
>>> s == 0, str((x + y).reduced())
(True, '1/(p - 1)**2')
"""

from __future__ import annotations

from math import lcm
from typing import Any, Union

import flint

from exactpte.fields import RationalFunction, RationalFunctionField
from exactpte.fields.printing import FactorBase

__all__ = ["Atoms", "Unreduced", "lift_value"]

Exponents = tuple[tuple[int, int], ...]
"""A denominator's atoms as sorted ``(atom, exponent)`` pairs."""

Operand = Union["Unreduced", int, flint.fmpz, flint.fmpq]


class Atoms:
    """The irreducible denominator factors of one family, numbered, with the products of their powers (each
    computed once) and each distinct denominator's factorisation (each factored once)."""

    def __init__(self, field: RationalFunctionField) -> None:
        self.field = field
        self.polys: list[flint.fmpz_mpoly] = []
        self._index: dict[str, int] = {}
        self._dens: dict[str, tuple[int, Exponents]] = {}
        self._by_object: dict[int, tuple[flint.fmpz_mpoly, tuple[int, Exponents]]] = {}
        self._base = FactorBase(field.ctx)  # trial division by the factors met before: h's Z^2 is pi's Z twice
        self._products: dict[Exponents, flint.fmpz_mpoly] = {(): field.ctx.constant(1)}
        self._small: dict[int, Unreduced] = {}
        self.zero = self.constant(0)

    def factored(self, den: flint.fmpz_mpoly) -> tuple[int, Exponents]:
        """``(c, exponents)`` with ``den = c * prod atom^e`` (``c`` a nonzero integer); looked up by the polynomial
        object first (entries of one solve share theirs), then by its text."""
        seen = self._by_object.get(id(den))
        if seen is not None and seen[0] is den:
            return seen[1]
        key = str(den)
        hit = self._dens.get(key)
        if hit is not None:
            self._by_object[id(den)] = (den, hit)
            return hit
        c, pieces = self._base.factor(den) if not den.is_constant() else (int(den.leading_coefficient()), [])
        exps: dict[int, int] = {}
        for g, e in pieces:  # irreducible, primitive, positive leading coefficients
            k = self._index.setdefault(str(g), len(self.polys))
            if k == len(self.polys):
                self.polys.append(g)
            exps[k] = exps.get(k, 0) + e
        out = (c, tuple(sorted(exps.items())))
        self._dens[key] = out
        self._by_object[id(den)] = (den, out)  # the object is kept, so its id stays its own
        return out

    def product(self, exps: Exponents) -> flint.fmpz_mpoly:
        """``prod atom^e``."""
        hit = self._products.get(exps)
        if hit is None:
            hit = self._products[exps] = self.product(exps[:-1]) * self.polys[exps[-1][0]] ** exps[-1][1]
        return hit

    def lift(self, x: RationalFunction) -> Unreduced:
        """A cancelled rational function as an :class:`Unreduced` (remembering ``x`` itself for :meth:`Unreduced.reduced`)."""
        if x.den.is_one():
            return Unreduced(x.num, 1, (), self, x)
        c, exps = self.factored(x.den)
        return Unreduced(x.num if c > 0 else -x.num, abs(c), exps, self, x)

    def constant(self, x: int | flint.fmpz | flint.fmpq) -> Unreduced:
        """An exact number (small integers made once: the checks mix ``0`` and ``1`` in everywhere)."""
        if isinstance(x, int) and -2 <= x <= 2:
            hit = self._small.get(x)
            if hit is None:
                hit = self._small[x] = Unreduced(self.field.ctx.constant(x), 1, (), self)
            return hit
        q = flint.fmpq(x)
        return Unreduced(self.field.ctx.constant(int(q.p)), int(q.q), (), self)


class Unreduced:
    """``num / (c * prod atom^e)``, never cancelled (see the module's docstring); ``==``, ``!=`` with another
    element or a number are exact."""

    __slots__ = ("num", "c", "exps", "atoms", "original")

    def __init__(self, num: flint.fmpz_mpoly, c: int, exps: Exponents, atoms: Atoms,
                 original: RationalFunction | None = None) -> None:
        self.num, self.c, self.exps, self.atoms, self.original = num, c, exps, atoms, original

    def _coerce(self, other: Operand) -> Unreduced:
        return other if isinstance(other, Unreduced) else self.atoms.constant(other)

    def __add__(self, other: Operand) -> Unreduced:
        o = other if isinstance(other, Unreduced) else self.atoms.constant(other)
        if o.num.is_zero():
            return self
        if self.num.is_zero():
            return o
        if self.exps == o.exps:
            if self.c == o.c:
                return Unreduced(self.num + o.num, self.c, self.exps, self.atoms)
            c = lcm(self.c, o.c)
            return Unreduced(self.num * (c // self.c) + o.num * (c // o.c), c, self.exps, self.atoms)
        top = dict(self.exps)
        for k, e in o.exps:
            if e > top.get(k, 0):
                top[k] = e
        exps = tuple(sorted(top.items()))
        c = lcm(self.c, o.c)
        return Unreduced(self._scaled(exps, c) + o._scaled(exps, c), c, exps, self.atoms)

    def _scaled(self, exps: Exponents, c: int) -> flint.fmpz_mpoly:
        """The numerator over ``c * prod atom^exps`` (a multiple of this denominator)."""
        mine = dict(self.exps)
        rest = tuple((k, e - mine.get(k, 0)) for k, e in exps if e > mine.get(k, 0))
        num = self.num * self.atoms.product(rest) if rest else self.num
        return num * (c // self.c) if c != self.c else num

    __radd__ = __add__

    def __neg__(self) -> Unreduced:
        return Unreduced(-self.num, self.c, self.exps, self.atoms)

    def __sub__(self, other: Operand) -> Unreduced:
        return self + (-self._coerce(other))

    def __rsub__(self, other: Operand) -> Unreduced:
        return self._coerce(other) - self

    def __mul__(self, other: Operand) -> Unreduced:
        o = other if isinstance(other, Unreduced) else self.atoms.constant(other)
        a, b = self.num, o.num
        if a.is_zero() or b.is_zero():
            return self.atoms.zero
        mine, theirs = self.exps, o.exps
        if not theirs:  # times a polynomial (a transition probability): the denominator stays
            return self if o.c == 1 and b.is_one() else Unreduced(a * b, self.c * o.c, mine, self.atoms)
        if not mine:
            return o if self.c == 1 and a.is_one() else Unreduced(a * b, self.c * o.c, theirs, self.atoms)
        top = dict(mine)
        for k, e in theirs:
            top[k] = top.get(k, 0) + e
        return Unreduced(a * b, self.c * o.c, tuple(sorted(top.items())), self.atoms)

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if other.__class__ is int and other == 0:
            return bool(self.num.is_zero())
        if not isinstance(other, (Unreduced, int, flint.fmpz, flint.fmpq)):
            return NotImplemented
        o = self._coerce(other)
        if self.exps == o.exps and self.c == o.c:
            return bool(self.num == o.num)
        return bool((self - o).num.is_zero())

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]  # equal values may differ in form

    def reduced(self) -> RationalFunction:
        """The cancelled rational function."""
        if self.original is not None:
            return self.original
        F = self.atoms.field
        return RationalFunction(self.num, self.atoms.product(self.exps) * self.c, F)

    def __str__(self) -> str:
        return str(self.reduced())

    def __repr__(self) -> str:
        return f"Unreduced({self})"


def lift_value(atoms: Atoms, x: Any) -> Any:
    """``x`` with every rational function in it (nested tuples and lists kept) as an :class:`Unreduced`."""
    if isinstance(x, RationalFunction):
        return atoms.lift(x)
    if isinstance(x, tuple):
        return tuple(lift_value(atoms, y) for y in x)
    if isinstance(x, list):
        return [lift_value(atoms, y) for y in x]
    return x
