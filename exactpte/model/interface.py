"""The one interface every result shares, generic in its element type.

Three result kinds, one protocol each reader types against (report, evaluation, plotting, the
oracle):

- :class:`Output` — what every result kind prints: ``to_dict`` and ``to_json`` with the same
  keyword-only options and defaults.  The exact :class:`~exactpte.Decomposition`, the
  :class:`~exactpte.certified.CertifiedDecomposition` and the
  :class:`~exactpte.results.strata.StratifiedDecomposition` have it.
- :class:`Result` ``[E]`` — a decomposition: the chain, its structure and anchors, and every
  quantity named after the paper's symbol, as :data:`Vector` ``[E]`` and :data:`Matrix` ``[E]`` of
  one element type ``E``: ``fmpq`` for a rational chain, a rational function for a parametric one
  (both exact), an :class:`~exactpte.certified.Interval` for a certified enclosure.  A stratified
  result holds one ``Result`` per stratum.
- :class:`ExactResult` ``[E]`` — an exact decomposition: also its field, its anchors as
  ``(class, phase, state)`` triples and the basis as sparse rows (what the printers read).

Examples
--------
>>> import exactpte
>>> def gains(result: Result[object]) -> Vector[object]:
...     return result.rho
>>> chain = exactpte.example("periodic")
>>> exact, certified = gains(exactpte.decompose(chain)), gains(exactpte.decompose_certified(chain))
>>> [str(x) for x in exact], [bool(certified[s].lo <= 0.5 <= certified[s].hi) for s in range(2)]
(['1/2', '1/2'], [True, True])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, Union, overload

from exactpte.graph.structure import Structure
from exactpte.graph.view import Anchors

if TYPE_CHECKING:  # pragma: no cover
    from exactpte.fields import Field
    from exactpte.model.chain import Chain

__all__ = ["E", "Vector", "Matrix", "Only", "Output", "Result", "ExactResult"]

E = TypeVar("E", covariant=True)
"""The element type of a result: ``fmpq``, a rational function, or an interval."""



class Vector(Protocol[E]):
    """One element per state (or per class, or per basis column): a tuple of exact elements, or an
    :class:`~exactpte.certified.Interval` vector whose items are intervals."""

    def __len__(self) -> int:
        """The number of entries."""

    @overload
    def __getitem__(self, index: int) -> E: ...

    @overload
    def __getitem__(self, index: slice) -> Vector[E]: ...

    def __getitem__(self, index: int | slice) -> E | Vector[E]:
        """One entry, or a slice of them."""

    def __iter__(self) -> Iterator[E]:
        """The entries in order."""


Matrix = Vector[Vector[E]]
"""Rows of elements: ``basis`` (n x N), ``absorption`` (n x classes), ``P_inf`` (n x n)."""

Only = Union[str, Iterable[str], None]
"""An ``only=`` option: quantity names (``["rho", "h"]``), comma-separated text (``"rho,h"``), or ``None`` for all."""


class Output(Protocol):
    """What every result kind prints, with the same keyword-only options and defaults: ``only``
    (just these quantities), ``include_P_inf`` (the dense ``n x n`` Cesàro limit),
    ``include_hitting_times``, ``factored`` (each distinct denominator named once), and for the text
    ``indent``."""

    def to_dict(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False) -> dict[str, Any]:
        """The JSON contract as a dict."""

    def to_json(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False, indent: int | None = None) -> str:
        """JSON text of :meth:`to_dict`."""


class Result(Output, Protocol[E]):
    """A decomposition of one chain: structure, anchors and every quantity, elements of type ``E``."""

    @property
    def chain(self) -> Chain:
        """The chain decomposed."""

    @property
    def structure(self) -> Structure:
        """Classes, periods, cyclic classes, transient states."""

    @property
    def anchors(self) -> Anchors:
        """``anchors[i][k] = a_{i,k}``."""

    @property
    def n(self) -> int:
        """Number of states."""

    @property
    def N(self) -> int:
        """``N = sum_i d_i``."""

    @property
    def periods(self) -> tuple[int, ...]:
        """Period ``d_i`` of every closed class."""

    @property
    def basis(self) -> Matrix[E]:
        """``basis[s][c] = b_{i,k}(s)``, columns in ``(class, phase)`` order (``def:main_b``)."""

    @property
    def theta(self) -> Vector[E]:
        """``θ*_{i,k} = g*(a_{i,k})`` in basis-column order."""

    @property
    def g_star(self) -> Vector[E]:
        """``g* ∈ K(P)`` with ``r = g* + (I - P) v*`` (``thm:wellposed``)."""

    @property
    def v_star(self) -> Vector[E]:
        """``v*``, zero at the anchors, with ``r = g* + (I - P) v*``."""

    @property
    def rho(self) -> Vector[E]:
        """The classical gain ``ρ = P∞ r``."""

    @property
    def h(self) -> Vector[E]:
        """The normalized bias: ``r = ρ + (I - P) h``, ``P∞ h = 0``."""

    @property
    def psi(self) -> Vector[E]:
        """``ψ ∈ K ∩ ker P∞`` with ``g* = ρ + (I - P) ψ``."""

    @property
    def psi_coords(self) -> Vector[E]:
        """Coordinates of ``ψ`` in the basis ``b``."""

    @property
    def stationary(self) -> Sequence[Vector[E]]:
        """``stationary[i]``: the stationary distribution of ``F_i``, aligned with ``classes[i]``."""

    @property
    def absorption(self) -> Matrix[E]:
        """``absorption[s][i] = α_i(s)``, the probability of ending in ``F_i``."""

    @property
    def class_gain(self) -> Vector[E]:
        """``class_gain[i] = π_i · r``."""

    @property
    def P_inf(self) -> Matrix[E]:
        """The Cesàro limit ``P∞(s, y) = α_i(s) π_i(y)``."""


class ExactResult(Result[E], Protocol[E]):
    """An exact decomposition: a :class:`Result` with its field, the anchors as triples and the basis
    as sparse rows (what :mod:`exactpte.results.report` reads)."""

    @property
    def field(self) -> Field[Any]:
        """Its field (``QQ`` or ``QQ(params)``)."""

    @property
    def anchor_list(self) -> list[tuple[int, int, int]]:
        """``(class, phase, state)`` per basis column."""

    @property
    def basis_sparse(self) -> Sequence[dict[int, Any]]:
        """``basis_sparse[s] = {c: b_c(s)}``, nonzero entries only."""
