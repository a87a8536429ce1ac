"""Parametric chains: entries that are rational functions of the chain's parameters.

A :class:`ParametricChain` is a :class:`~exactpte.model.chain.Chain` over the field
``QQ(params)`` (:class:`~exactpte.fields.RationalFunctionField`), validated by the same
function as rational chains, so :func:`exactpte.decompose` runs unchanged and returns the
decomposition as closed forms.  The *generic region* (every support entry positive) is where
those closed forms hold; :meth:`ParametricChain.at` substitutes a point.

Examples
--------
>>> import exactpte
>>> m = ParametricChain([["1-p", "p"], ["q", "1-q"]], [1, 0], params=["p", "q"])
>>> dec = exactpte.decompose(m)
>>> str(dec.rho[0]), str(dec.h[0])
('q/(p + q)', 'p/(p + q)**2')
>>> dec.at({"p": "1/3", "q": "1/2"}).rho == exactpte.decompose(m.at({"p": "1/3", "q": "1/2"})).rho
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import flint

from exactpte.numbers.scalars import to_fmpq
from exactpte.model.chain import Chain, Csr, MarkovRewardProcess, csr_of_rows
from exactpte.numbers.arrays import require_labels, dense_rows, reward_vector, sparse_from_dense, sparse_from_edges
from exactpte.deprecation import warn_renamed
from exactpte.errors import GenericRegionError, SymbolicEntryError, brief
from exactpte.fields import RationalFunction, RationalFunctionField, polynomials
from exactpte.fields.printing import signature
from exactpte.fields.region import simplest_region, vanishes_in_region

SHARED_FACTORING = 200
"""Denominators of more than this many terms are factored through their coprime base
(:func:`~exactpte.fields.polynomials.shared_irreducible_factors`: gcds, then the small pieces
factored once); smaller ones are factored one by one, their factors in flint's order."""

__all__ = ["ParametricChain", "parameter_field"]


def parameter_field(params: Sequence[Any]) -> RationalFunctionField:
    """The field ``QQ(params)`` after checking the names: a non-empty list of distinct identifiers.

    Examples
    --------
    >>> parameter_field(["p", "q"]).name
    'QQ(p, q)'
    >>> parameter_field(["p", "p"])
    Traceback (most recent call last):
    ...
    exactpte.errors.SymbolicEntryError: parameters ['p', 'p'] repeat a name
    """
    if isinstance(params, (str, bytes)) or not isinstance(params, Sequence):
        raise SymbolicEntryError(f"params must be a list of parameter names, got {brief(params, 40, quoted=True)}")
    names = [str(p) for p in params]
    if not names:
        raise SymbolicEntryError("a parametric chain needs at least one parameter (give params=[...]); "
                                 "for a chain without parameters use MarkovRewardProcess")
    bad = [p for p in names if not (p.isidentifier() and p.isascii())]  # python-flint's names are ASCII
    if bad:
        raise SymbolicEntryError(f"parameter names must be ASCII identifiers such as p or q_1, got {bad}")
    if len(set(names)) != len(names):
        raise SymbolicEntryError(f"parameters {names} repeat a name")
    return RationalFunctionField(names)


def _parametric_parts(field: RationalFunctionField, rows: Sequence[Sequence[tuple[int, Any]]], r: Any,
                      labels: Sequence[str] | None) -> tuple[Csr, tuple[RationalFunction, ...], tuple[str, ...] | None]:
    """A parametric chain's parts from sparse rows over ``field``, checked in this order: the rows
    (:func:`~exactpte.model.chain.validated_rows`, sums identically 1), the reward, the labels."""
    n = len(rows)
    csr = csr_of_rows(rows, field, identically=True)
    reward = tuple(field.convert(x, f"r[{i}]") for i, x in enumerate(reward_vector(r, n)))
    return csr, reward, require_labels(labels, n)


class ParametricChain(Chain):
    """A Markov reward process whose entries are rational functions of parameters.

    Entries may be sympy expressions or strings (``"1-p"``, ``"p*q/2"``) in the declared
    ``params``; the support is the set of entries that are not identically zero.  Rows must
    sum to 1 identically.  The *generic region* is where every such entry is positive
    (:meth:`assumptions`); there the structure, and so every closed form, is fixed.
    """

    field: RationalFunctionField
    r: tuple[RationalFunction, ...]

    def __init__(self, P: Any, r: Any, *, params: Sequence[Any], labels: Sequence[str] | None = None) -> None:
        F = parameter_field(params)
        csr, reward, names = _parametric_parts(F, sparse_from_dense(dense_rows(P), F.convert), r, labels)
        self._assign(csr, reward, labels=names, field=F)

    @classmethod
    def from_edges(cls, n: int, edges: Any, r: Any, *, params: Sequence[Any], labels: Sequence[str] | None = None) -> "ParametricChain":
        """Build from a sparse edge list ``(i, j, entry)`` (nonzero entries only; each transition once).

        Examples
        --------
        >>> m = ParametricChain.from_edges(2, [(0, 0, "1-p"), (0, 1, "p"), (1, 0, 1)], [1, 0], params=["p"])
        >>> [(j, str(e)) for j, e in m.row(0)]
        [(0, '1 - p'), (1, 'p')]
        """
        F = parameter_field(params)
        csr, reward, names = _parametric_parts(F, sparse_from_edges(n, edges, F.convert), r, labels)
        return cls._from_csr(csr, reward, labels=names, field=F)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[tuple[int, Any]]], r: Sequence[Any], *, field: RationalFunctionField,
                  labels: Sequence[str] | None = None) -> "ParametricChain":
        """Build from sparse rows ``rows[i] = [(j, P[i][j]), ...]`` (columns increasing, each once) whose
        entries are already elements of ``field``, as a file reader holds them: nothing is converted
        again, and an entry repeated as one object is checked once.  Rows are validated as everywhere.

        Examples
        --------
        >>> F = parameter_field(["p"])
        >>> p = F.variable("p")
        >>> m = ParametricChain.from_rows([[(0, 1 - p), (1, p)], [(0, F.one)]], [F.one, F.zero], field=F)
        >>> m.field is F, [str(e) for _, e in m.row(0)]
        (True, ['1 - p', 'p'])
        """
        csr, reward, names = _parametric_parts(field, rows, r, labels)
        return cls._from_csr(csr, reward, labels=names, field=field)

    @property
    def params(self) -> tuple[str, ...]:
        """The parameter names, in the order of the field ``QQ(params)``."""
        return self.field.params

    def __repr__(self) -> str:
        return f"ParametricChain(n={self.n}, params={list(self.params)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ParametricChain) and self.params == other.params and \
            self.r == other.r and self._same_rows(other)

    __hash__ = None  # type: ignore[assignment]

    def _point(self, point: Mapping[Any, Any]) -> list[flint.fmpq]:
        if not isinstance(point, Mapping):
            raise GenericRegionError(f"a point is a mapping such as {{'{self.params[0]}': '1/3'}}, got {type(point).__name__}")
        given = {str(k): v for k, v in point.items()}
        missing = [p for p in self.params if p not in given]
        extra = [k for k in given if k not in self.params]
        if missing or extra:
            wrong = "; ".join(f"{what} {names}" for what, names in (("missing", missing), ("unknown", extra)) if names)
            raise GenericRegionError(f"a point needs a value for each parameter {list(self.params)}; {wrong}")
        return [to_fmpq(given[p], f"value of {p}") for p in self.params]

    def require_generic_point(self, point: Mapping[Any, Any]) -> list[flint.fmpq]:
        """The point's values, after checking it lies in the generic region (every support entry > 0);
        :class:`~exactpte.errors.GenericRegionError` otherwise.

        Examples
        --------
        >>> m = ParametricChain([["1-p", "p"], [1, 0]], [1, 0], params=["p"])
        >>> m.require_generic_point({"p": "1/3"})
        [1/3]
        >>> m.require_generic_point({"p": 1})
        Traceback (most recent call last):
        ...
        exactpte.errors.GenericRegionError: P[0][0] = 1 - p vanishes at this point: it leaves the generic region (the support changes); decompose chain.at(point, check=False) instead of substituting into the closed form
        """
        values = self._point(point)
        for i, j, e in self.edges():
            try:
                x = e.evaluate(values)
            except ZeroDivisionError:
                raise GenericRegionError(f"P[{i}][{j}] = {e} has a pole at this point") from None
            if x < 0:  # no chain there at all: chain.at(point, check=False) would not help
                raise GenericRegionError(f"P[{i}][{j}] = {e} is {x} < 0 at this point: not a probability, so no chain "
                                         f"of the family lies there (the generic region: {', '.join(self.assumptions())})")
            if x == 0:
                raise GenericRegionError(
                    f"P[{i}][{j}] = {e} vanishes at this point: it leaves the generic region (the support changes); "
                    f"decompose chain.at(point, check=False) instead of substituting into the closed form")
        return values

    def check_point(self, point: Mapping[Any, Any]) -> list[flint.fmpq]:
        """Deprecated name of :meth:`require_generic_point` (a ``check_*`` name runs checks and returns verdicts),
        kept for one release."""
        warn_renamed("exactpte.ParametricChain.check_point", "exactpte.ParametricChain.require_generic_point")
        return self.require_generic_point(point)

    def at(self, point: Mapping[Any, Any], *, check: bool = True) -> MarkovRewardProcess:
        """The rational chain at ``point`` (``{"p": "1/3", ...}``); ``check`` refuses points outside
        the generic region, ``check=False`` allows them (the structure may then differ)."""
        values = self.require_generic_point(point) if check else self._point(point)

        def value(x: RationalFunction, where: str) -> flint.fmpq:
            try:
                return x.evaluate(values)
            except ZeroDivisionError:
                raise GenericRegionError(f"{where} = {x} has a pole at this point") from None

        edges = [(i, j, value(e, f"P[{i}][{j}]")) for i, j, e in self.edges()]
        return MarkovRewardProcess.from_edges(self.n, edges, [value(x, f"r[{s}]") for s, x in enumerate(self.r)], labels=self.labels)

    def assumptions(self) -> list[str]:
        """The generic region, as conditions: where every non-constant support entry is positive,
        in its simplest form (:func:`~exactpte.fields.region.simplest_region`: ``0 < p < 1``), or entry
        by entry (``e > 0``) when that form does not apply.

        (Rows sum to 1 identically; that is checked on construction.)

        Examples
        --------
        >>> ParametricChain([["p", "1 - p"], ["p**2", "1 - p**2"]], [0, 1], params=["p"]).assumptions()
        ['0 < p < 1']
        """
        entries = self._varying_entries()
        region = simplest_region(self.field, entries, [])
        return list(region) if region is not None else [f"{e} > 0" for e in entries]

    def _varying_entries(self) -> list[RationalFunction]:
        """The distinct non-constant support entries, in edge order."""
        return list(dict.fromkeys(e for _i, _j, e in self.edges() if not e.is_constant()))

    def conditions(self, values: Iterable[Any]) -> list[str]:
        """Where closed forms ``values`` hold: the generic region (:meth:`assumptions`), then
        ``f != 0`` for each irreducible factor ``f`` of a denominator among ``values`` that can vanish
        there (a factor with no root in the region is left out: decided exactly for one parameter, and for
        several by a root-free certificate on a box holding the region, :func:`~exactpte.fields.region.root_free_on_box`).

        Examples
        --------
        >>> m = ParametricChain([["p", "1 - p"], ["p", "1 - p"]], [0, 1], params=["p"])
        >>> F = m.field
        >>> m.conditions([F.convert("1/(p - 2)"), F.convert("1/(3*p - 1)")])
        ['0 < p < 1', '3*p - 1 != 0']
        """
        F, entries = self.field, self._varying_entries()
        seen: dict[str, bool] = {}
        met: dict[tuple[Any, ...], list[Any]] = {}  # outputs share a few denominators: each factored once
        dens: list[Any] = []
        for x in values:
            if x.den.is_constant():
                continue
            same = met.setdefault(signature(x.den), [])
            if any(d is x.den or d == x.den for d in same):
                continue
            same.append(x.den)
            dens.append(x.den)
        big = [d for d in dens if len(d) > SHARED_FACTORING]  # big ones share their factors: a coprime base first
        shared = dict(zip(map(id, big), polynomials.shared_irreducible_factors(big))) if len(big) > 1 else {}
        for den in dens:
            for g in shared.get(id(den)) or F.irreducible_factors(den):
                text = F.poly_text(g)
                if text not in seen:
                    seen[text] = vanishes_in_region(F, entries, g) is not False
        return self.assumptions() + [f"{text} != 0" for text, kept in seen.items() if kept]
