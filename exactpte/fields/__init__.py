"""The narrow arithmetic interface every algorithm is written against, and its two fields.

An algorithm needs exact scalars with ``+ - * /`` and ``== 0``, and dense matrices
(for the blocks that need a solve) with ``+ - *``, a solve and a way back to lists.
:class:`Field` states that contract as a :class:`typing.Protocol`; two fields provide it:

- :data:`QQ` (:class:`~exactpte.fields.rational.RationalField`): python-flint ``fmpq`` and
  ``fmpq_mat``;
- :class:`~exactpte.fields.rational_functions.RationalFunctionField`: ``QQ(p, q, ...)``,
  cancelled fractions of python-flint ``fmpz_mpoly`` polynomials, fraction-free solves.

Every stage (:mod:`exactpte.solves.absorption`, :mod:`exactpte.solves.work`,
:mod:`exactpte.solves.classical`, :mod:`exactpte.solves.evaluation`) takes ``chain.field`` and never asks
which field it got.  Output and evaluation go through the same protocol (``to_text``,
``to_latex``, ``evaluate``, ``denominator_factors``), so no caller inspects element types.

Examples
--------
>>> from exactpte.fields import QQ, Field, RationalFunctionField
>>> isinstance(QQ, Field) and isinstance(RationalFunctionField(["p"]), Field)
True
>>> all(isinstance(QQ, service) for service in (Scalars, Fractions, Solves, Printing))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import flint

from exactpte.fields.polymatrix import PolyMatrix
from exactpte.fields.rational import QQ, RationalField
from exactpte.fields.rational_functions import RationalFunction, RationalFunctionField

__all__ = ["Field", "Scalars", "Fractions", "Solves", "Printing", "QQ", "RationalField", "RationalFunctionField", "RationalFunction", "PolyMatrix"]

E = TypeVar("E")
E_contra = TypeVar("E_contra", contravariant=True)


@runtime_checkable
class Scalars(Protocol[E]):
    """Scalar arithmetic: the field's elements and what an algorithm asks of one element.

    Attributes
    ----------
    name : str
        ``"QQ"`` or ``"QQ(p, q)"``.
    zero, one
        The field's neutral elements.
    is_parametric : bool
        Whether elements are rational functions of parameters (changes output keys only).
    params : tuple of str
        The parameters' names (none over ``QQ``).
    """

    name: str
    zero: E
    one: E
    is_parametric: bool
    params: tuple[str, ...]

    def scalar(self, x: Any) -> E:
        """The field element for an exact input number (int, ``fmpq``, ...)."""

    def convert(self, x: Any, where: str = "entry") -> E:
        """One user value (number, or expression text for rational functions) as a field element."""

    def is_negative(self, x: E) -> bool:
        """Whether ``x < 0`` (for rational functions: at every point where it is defined, when decidable)."""

    def is_constant(self, x: E) -> bool:
        """Whether ``x`` does not depend on any parameter."""

    def evaluate(self, x: E, values: Sequence[flint.fmpq]) -> flint.fmpq:
        """The exact rational value of ``x`` at a parameter point (``x`` itself over ``QQ``)."""


@runtime_checkable
class Fractions(Protocol[E]):
    """Sums on numerators over a common denominator, cancelled once: the fraction plumbing that keeps
    sums of many elements cheap (ring elements are ``fmpz`` over ``QQ``, ``fmpz_mpoly`` over ``QQ(params)``)."""

    def split(self, xs: Sequence[E]) -> tuple[list[Any], Any]:
        """``xs`` over one common denominator: ``(numerators, den)`` in the field's ring
        (integers over ``QQ``, polynomials over ``QQ(params)``), ``x = num / den``.

        Sums of many fractions are done on numerators and cancelled once (:meth:`fraction`),
        instead of cancelling after every addition.
        """

    def fraction(self, num: Any, den: Any) -> E:
        """The field element ``num / den`` (ring elements), cancelled."""

    def sum_fractions(self, pairs: Sequence[tuple[Any, Any]]) -> E:
        """``sum num / den`` over a handful of ``(num, den)`` pairs of ring elements, cancelled: over
        ``QQ`` on the pairs' lcm; over ``QQ(params)`` piece by piece, so no gcd is taken with the
        product of every denominator."""

    def cofactors(self, dens: Sequence[Any]) -> tuple[list[Any], Any]:
        """``([lcm / den for den in dens], lcm)`` for ring elements (over ``QQ(params)`` remembered by
        the denominators' identity: the pieces of one solve share their denominator object)."""


@runtime_checkable
class Solves(Protocol[E]):
    """Dense block matrices and the solves on them (the transient block, each closed class).

    Matrices are the field's own dense type (``fmpq_mat``, :class:`PolyMatrix`), used only through
    these methods.

    Attributes
    ----------
    splits_periods : bool
        Whether periodic phase systems are solved as their mean (the ``d = 1`` answer over ``d``) and
        their zero-sum deviations through ``I + Q + .. + Q^(d-1)`` (whose determinant is
        ``det(I - Q^d) / det(I - Q)``): ``QQ(params)``, where each solve costs by the degree of its
        determinant.  ``QQ`` solves ``I - Q^d`` (by lifting on large blocks) instead.
    """

    splits_periods: bool

    def matrix(self, rows: Sequence[Sequence[Any]], ncols: int | None = None) -> Any:
        """A dense matrix from row lists (``ncols`` for an empty one)."""

    def zeros(self, m: int, c: int) -> Any:
        """The ``m x c`` zero matrix (entries set with ``M[i, j] = x``)."""

    def identity(self, m: int) -> Any:
        """The ``m x m`` identity matrix."""

    def to_lists(self, M: Any) -> list[list[E]]:
        """The matrix's entries as a list of rows."""

    def solve(self, A: Any, B: Any) -> Any:
        """``X`` with ``A X = B``; raises :class:`~exactpte.errors.SingularSystemError` if ``A`` is singular."""

    def solve_split(self, A: Any, B: Any) -> tuple[list[list[Any]], Any]:
        """``X`` with ``A X = B`` over one common denominator, ``(rows of numerators, den)``, not
        necessarily the least one: a caller that sums over ``X`` cancels each sum once
        (over the lcm of its pieces' denominators, :meth:`cofactors`), not each entry of ``X``."""

    def solve_sparse(self, rows: Sequence[Sequence[tuple[int, E]]], B: Sequence[Sequence[E]]) -> list[list[E]]:
        """``X`` with ``A X = B`` for a square ``A`` given as sparse rows ``[(column, value), ...]``
        (:func:`~exactpte.fields.rows.solve_rows_densely`, or a field-specific faster route)."""

    def solve_phase_system(self, Q_rows: Sequence[Sequence[tuple[int, E]]], C: Sequence[Sequence[Sequence[E]]],
                           d: int, mean: tuple[list[Any], Any] | None = None) -> tuple[list[list[list[Any]]], Any] | None:
        """``x_0 .. x_{d-1}`` with ``x_k = Q x_{k+1} + C_k`` (``x_d = x_0``) by a field-specific fast
        route, as ``(nums, den)`` with ``x_k[a][j] = fraction(nums[k][a][j], den)``; or ``None``: the
        caller then solves ``(I - Q^d) x_0 = Σ_j Q^j C_j`` itself.  ``mean``, when the caller knows it, is
        ``Σ_k x_k`` (numerators row by row over one denominator), which a route may use."""

    def matrix_split(self, M: Any) -> tuple[list[list[Any]], Any]:
        """A matrix over one common denominator: ``(rows of numerators, den)``."""


@runtime_checkable
class Printing(Protocol[E_contra]):
    """Canonical text and LaTeX of one element, and its denominator's factors (for assumptions)."""

    def to_text(self, x: E_contra) -> str:
        """Canonical text: ``"p/q"`` for rationals, a sympy-parsable expression otherwise."""

    def to_latex(self, x: E_contra) -> str:
        """LaTeX for one element (without ``$``)."""

    def denominator_factors(self, x: E_contra) -> list[str]:
        """Irreducible non-constant factors of ``x``'s denominator, as text (none over ``QQ``)."""


@runtime_checkable
class Field(Scalars[E], Fractions[E], Solves[E], Printing[E], Protocol[E]):
    """What an exact field offers the algorithms, generic over its element type ``E``:
    :class:`RationalField` is a ``Field[flint.fmpq]``, :class:`RationalFunctionField` a
    ``Field[RationalFunction]``.  It is the union of four narrow services — :class:`Scalars`
    (arithmetic of one element), :class:`Fractions` (sums over a common denominator),
    :class:`Solves` (dense block matrices and their solves) and :class:`Printing` — and a module
    that needs only one of them types its argument with that one.
    """


def _conforms(qq: RationalField, qp: RationalFunctionField) -> tuple[Field[flint.fmpq], Field[RationalFunction]]:
    """(For the type checker: each field implements the protocol over its element type.)"""
    return qq, qp
