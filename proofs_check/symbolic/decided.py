"""Conjectures on a whole family: a conjecture function run once on the symbolic decomposition.

A conjecture (``@proofs_check.conjecture``) is ordinary Python over the chain and its decomposition.
Here it receives them with every closed form wrapped as a :class:`Decided` rational function, whose
``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=`` and truth value answer for the **whole region**: ``True``
when the relation holds at every point, ``False`` when it fails at every point, and otherwise
:class:`~exactpte.errors.UsageError` (undecided) is raised.  So every comparison the function makes has one truth value on the
whole region, the function takes the same path at every point, and its answer is the answer at
every point: ``True`` proves the conjecture for every chain of the family, ``False`` refutes it at
every point (a rational counterexample is then any point; it is confirmed on the rational chain).
An equation between closed forms that differ somewhere but not everywhere, or a comparison no
certificate decides (:meth:`~proofs_check.symbolic.region.Region.sign`), leaves the conjecture undecided:
it is then checked on the rational chains at stated points of the region (``witnesses``) and a
failing point is a rational counterexample.

Examples
--------
>>> from proofs_check.runs.exhaustive import graph_chain
>>> import exactpte
>>> chain, region = graph_chain(((0, 1), (0,)))
>>> dec = exactpte.decompose(chain)
>>> wrapped_chain, wrapped_dec = decided_views(chain, dec, region)
>>> all(x >= 0 for x in wrapped_dec.stationary[0]), wrapped_dec.rho[0] == wrapped_dec.rho[1]
(True, True)
>>> try:
...     wrapped_dec.h[0] == wrapped_dec.v_star[0]
... except exactpte.UsageError:
...     print("undecided")
undecided
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from exactpte.errors import UsageError
from exactpte.fields.rational_functions import RationalFunction

from proofs_check.symbolic.region import Region

__all__ = ["Decided", "decided_views"]


class Decided(RationalFunction):
    """A rational function whose comparisons are decided on a region (see the module docstring);
    arithmetic keeps the wrapper, so derived values compare the same way."""

    __slots__ = ()
    region: Region

    def _relation(self, other: Any, holds: Callable[[Any], bool | None], fails: Callable[[Any], bool | None], what: str) -> bool:
        d: Any = RationalFunction.__sub__(self, other)
        d = RationalFunction(d.num, d.den, d.field, canonical=True)
        if holds(d) is True:
            return True
        if fails(d) is True:
            return False
        raise UsageError(f"{self} {what} {other} is neither true nor false on the whole region (or no certificate decides it)")

    def __eq__(self, other: Any) -> bool:
        sign = self.region.sign
        return self._relation(other, lambda d: d == 0, lambda d: sign(d, True) or sign(-d, True), "==")

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    __hash__ = RationalFunction.__hash__

    def __le__(self, other: Any) -> bool:
        sign = self.region.sign
        return self._relation(other, lambda d: sign(-d, False), lambda d: sign(d, True), "<=")

    def __lt__(self, other: Any) -> bool:
        sign = self.region.sign
        return self._relation(other, lambda d: sign(-d, True), lambda d: sign(d, False), "<")

    def __ge__(self, other: Any) -> bool:
        sign = self.region.sign
        return self._relation(other, lambda d: sign(d, False), lambda d: sign(-d, True), ">=")

    def __gt__(self, other: Any) -> bool:
        sign = self.region.sign
        return self._relation(other, lambda d: sign(d, True), lambda d: sign(-d, False), ">")

    def __bool__(self) -> bool:
        return self.__ne__(0)


def _rewrap(name: str) -> Callable[..., Any]:
    base = getattr(RationalFunction, name)

    def op(self: Decided, *args: Any) -> Any:
        out = base(self, *args)
        return type(self)(out.num, out.den, out.field, canonical=True) if isinstance(out, RationalFunction) else out

    op.__name__ = name
    op.__doc__ = f"{base.__doc__ or name} (a :class:`Decided` function again)"
    return op


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__", "__neg__",
              "inverse"):
    setattr(Decided, _name, _rewrap(_name))


def _wrap(x: Any, cls: type[Decided]) -> Any:
    if isinstance(x, tuple):
        return tuple(_wrap(y, cls) for y in x)
    if isinstance(x, list):
        return [_wrap(y, cls) for y in x]
    if isinstance(x, RationalFunction):
        return cls(x.num, x.den, x.field, canonical=True)
    return x


class _DecidedDecomposition:
    """A decomposition whose closed forms are :class:`Decided` (structure and everything else passed through)."""

    def __init__(self, dec: Any, cls: type[Decided]) -> None:
        self._dec, self._cls = dec, cls

    def __getattr__(self, name: str) -> Any:
        return _wrap(getattr(self._dec, name), self._cls)


def decided_views(chain: Any, dec: Any, region: Region) -> tuple[Any, Any]:
    """``(chain, dec)`` with every closed form (rewards, entries read through ``r``, quantities) a
    :class:`Decided` rational function on ``region``."""
    cls = type("DecidedOnRegion", (Decided,), {"__slots__": (), "region": region})
    view = copy.copy(chain)
    view.r = _wrap(tuple(chain.r), cls)
    return view, _DecidedDecomposition(dec, cls)
