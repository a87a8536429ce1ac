"""The shape of ``QQ(params)`` as its helpers see it: a cancelled fraction of polynomials and the
field that makes them.

The expression parser (:mod:`~exactpte.fields.expressions`) and the fraction-free solves
(:mod:`~exactpte.fields.polymatrix`) sit below :mod:`~exactpte.fields.rational_functions`, which
uses them; they type their arguments with these protocols, so no import runs back up, not even
for type checking.  :class:`~exactpte.fields.rational_functions.RationalFunction` and
:class:`~exactpte.fields.rational_functions.RationalFunctionField` satisfy them structurally.

Examples
--------
>>> from exactpte.fields import RationalFunctionField
>>> F = RationalFunctionField(["p"])
>>> isinstance(F, FractionField) and isinstance(F.one, PolyFraction)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

import flint

if TYPE_CHECKING:  # typing.Self is Python 3.11+; the checker's own typing_extensions has it
    from typing_extensions import Self

__all__ = ["PolyFraction", "FractionField"]


@runtime_checkable
class PolyFraction(Protocol):
    """``num / den``, two ``fmpz_mpoly`` polynomials, with field arithmetic."""

    @property
    def num(self) -> flint.fmpz_mpoly:
        """The numerator, an ``fmpz_mpoly``."""

    @property
    def den(self) -> flint.fmpz_mpoly:
        """The denominator, an ``fmpz_mpoly`` with a positive leading coefficient."""

    def __add__(self, other: Any) -> Self:
        """The sum."""

    def __sub__(self, other: Any) -> Self:
        """The difference."""

    def __mul__(self, other: Any) -> Self:
        """The product."""

    def __truediv__(self, other: Any) -> Self:
        """The quotient."""

    def __neg__(self) -> Self:
        """The negation."""

    def inverse(self) -> Self:
        """``1 / self``."""


E_co = TypeVar("E_co", bound=PolyFraction, covariant=True)


@runtime_checkable
class FractionField(Protocol[E_co]):
    """What the parser and the solves ask of ``QQ(params)``: its parameters, constants, and fractions
    made from polynomials."""

    @property
    def params(self) -> tuple[str, ...]:
        """The parameters' names."""

    @property
    def zero(self) -> E_co:
        """The zero fraction."""

    @property
    def one(self) -> E_co:
        """The unit fraction."""

    def scalar(self, x: Any) -> E_co:
        """An exact number as a constant fraction."""

    def variable(self, name: str) -> E_co:
        """The parameter ``name`` as a fraction."""

    def fraction(self, num: flint.fmpz_mpoly, den: flint.fmpz_mpoly) -> E_co:
        """``num / den`` (polynomials), cancelled."""

    def identity(self, n: int) -> Any:
        """The ``n x n`` identity matrix."""
