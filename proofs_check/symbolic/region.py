"""The region of a family: where its closed forms hold, and exact decisions on it.

A :class:`Region` is the set of parameter points where every non-constant support entry is positive and no
inequation of the stratum vanishes.  On it, a polynomial is certified nonzero (:meth:`Region.nonzero_certificate`)
and a sign decided (:meth:`Region.sign`) exactly where a certificate exists: one parameter by Sturm sequences, a
polynomial whose coefficients have one sign in parameters positive on the region, or the positive chart of a
weight parametrisation; otherwise the caller samples rational points (:meth:`Region.iter_points`).

Examples
--------
>>> import exactpte
>>> chain = exactpte.ParametricChain([["1-p", "p"], ["1", "0"]], [1, 0], params=["p"])
>>> region = Region(chain.field, [e for _i, _j, e in chain.edges() if not e.is_constant()])
>>> region.contains([flint.fmpq(1, 2)]), region.contains([flint.fmpq(3, 2)])
(True, False)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

import flint

from exactpte import Chain
from exactpte.fields import RationalFunction, RationalFunctionField
from exactpte.fields.region import has_valid_point, vanishes_in_region

__all__ = ["Region", "region_of", "counterexample_point"]


@dataclass
class Region:
    """Where a family's closed forms hold: every non-constant support entry ``> 0`` and no inequation
    (a polynomial of the field's ring) zero.  ``rows``: optional groups of parameters ``x`` of a
    weight chart, each row's entries ``x_k`` and ``1 - sum x_k`` (the exhaustive graphs), so the region
    is the image of ``w > 0`` under ``x_k = w_k / (1 + sum w)``."""

    field: RationalFunctionField
    entries: list[Any]
    inequations: list[Any] = dataclass_field(default_factory=list)
    rows: list[list[int]] | None = None
    where: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        F: Any = self.field
        gens = [F.variable(p) for p in F.params]
        self.positive = {k for k, g in enumerate(gens) if any(e == g for e in self.entries)}
        in_rows = {k for row in self.rows or [] for k in row}
        self.positive |= in_rows
        self.boxes = {k: box for k, box in self._boxes().items() if k not in in_rows}
        self._neq_factors = [g for f in self.inequations for g in self.field.irreducible_factors(f)]
        self._signs: dict[str, int] = {}

    def _boxes(self) -> dict[int, tuple[flint.fmpq | None, flint.fmpq | None]]:
        """Bounds ``lo < x_k < hi`` the region implies through entries linear in one parameter (``p``, ``1 - p``)."""
        lo: dict[int, flint.fmpq] = {}
        hi: dict[int, flint.fmpq] = {}
        for e in self.entries:
            if not e.den.is_constant() or e.num.total_degree() != 1:
                continue
            used = [k for k, d in enumerate(e.num.degrees()) if d]
            if len(used) != 1:
                continue
            k, terms = used[0], e.num.to_dict()
            c1 = flint.fmpq(int(next(c for exps, c in terms.items() if exps[k] == 1)))
            c0 = flint.fmpq(int(terms.get(tuple(0 for _ in e.num.degrees()), 0)))
            bound = -c0 / c1  # c1 x + c0 > 0 (the denominator is a positive constant)
            if c1 > 0:
                lo[k] = max(lo[k], bound) if k in lo else bound
            else:
                hi[k] = min(hi[k], bound) if k in hi else bound
        return {k: (lo.get(k), hi.get(k)) for k in set(lo) | set(hi)}

    def _charted(self, g: Any) -> Any:
        """``g`` in chart coordinates that are positive exactly on the region's coordinates: each row of a weight
        chart ``x_k = w_k / (1 + sum w)`` and each bounded parameter ``x = (lo + hi t)/(1 + t)`` (``lo + t``,
        ``hi - t`` on a half-line), cleared of the chart's positive denominators; a polynomial over ``QQ``.

        Each term is made homogeneous in one new variable per row (degree ``top``, the row's largest degree in
        ``g``) and per two-sided box (``g``'s degree in it), then one composition replaces the new variables by
        the chart's denominators (``1 + sum w``, ``1 + t``) and the boxed parameters by their numerators."""
        if not self.rows and not self.boxes:
            return g
        rows, boxes, m = self.rows or [], self.boxes, len(self.field.params)
        two_sided = [k for k, (lo, hi) in boxes.items() if lo is not None and hi is not None]
        terms = g.to_dict()
        top = [max((sum(e[k] for k in row) for e in terms), default=0) for row in rows]
        degrees = g.degrees()
        homogeneous = {(*e, *(t - sum(e[k] for k in row) for t, row in zip(top, rows)),
                        *(degrees[k] - e[k] for k in two_sided)): int(c) for e, c in terms.items()}
        names = (*self.field.params, *(f"_row{i}" for i in range(len(rows))), *(f"_box{k}" for k in two_sided))
        ctx, wide = self.field.qctx, flint.fmpq_mpoly_ctx.get(names, "degrevlex")
        gens, one = ctx.gens(), ctx.constant(1)
        images = list(gens)
        for k, (lo, hi) in boxes.items():
            images[k] = lo + hi * gens[k] if lo is not None and hi is not None else lo + gens[k] if lo is not None else \
                hi - gens[k]  # type: ignore[operator]  # a box has at least one bound
        images += [one + sum((gens[k] for k in row), ctx.constant(0)) for row in rows]
        images += [one + gens[k] for k in two_sided]
        assert len(images) == m + len(rows) + len(two_sided)
        return wide.from_dict(homogeneous).compose(*images, ctx=ctx)

    def _one_sign(self, g: Any) -> int:
        """``1`` or ``-1`` when ``g`` (charted) has coefficients of one sign and only positive parameters, else ``0``
        (remembered per polynomial: a family's closed forms share their denominators)."""
        if g.is_constant():
            c = g.leading_coefficient() if not g.is_zero() else 0
            return (c > 0) - (c < 0)
        key = str(g)
        known = self._signs.get(key)
        if known is None:
            known = self._signs[key] = self._charted_sign(g)
        return known

    def _charted_sign(self, g: Any) -> int:
        h = self._charted(g)
        used = [k for k, d in enumerate(h.degrees()) if d]
        if any(k not in self.positive and k not in self.boxes for k in used):
            return 0
        coeffs = list(h.coeffs())
        return 1 if all(c > 0 for c in coeffs) else -1 if all(c < 0 for c in coeffs) else 0

    def nonzero_certificate(self, g: Any) -> str | None:
        """Why the irreducible polynomial ``g`` has no zero on the region, or ``None`` when no certificate is found."""
        if g.is_constant():
            return "a nonzero constant"
        if g in self._neq_factors or -g in self._neq_factors:
            return "a condition of the stratum"
        if self._one_sign(g):
            return "coefficients of one sign in parameters positive on the region" + \
                (" (weight chart)" if self.rows else " (interval chart)" if self.boxes else "")
        if len(self.field.params) == 1 and vanishes_in_region(self.field, self.entries, g) is False:
            return "no real root in the region (Sturm sequences)"
        return None

    def sign(self, value: Any, strict: bool) -> bool | None:
        """Whether ``value >= 0`` (``> 0`` when ``strict``) on the whole region, decided exactly; ``None``
        when no certificate decides it (then it is sampled)."""
        if value == 0:
            return not strict
        sn, sd = self._one_sign(value.num), self._one_sign(value.den)
        if sn and sd:
            return sn * sd > 0
        if len(self.field.params) == 1:
            negative_somewhere = has_valid_point(self.field, [*self.entries, -value], self.inequations)
            if negative_somewhere:
                return False
            return True if not strict else (vanishes_in_region(self.field, self.entries, value.num) is False or None)
        return None

    def points(self, count: int, *, seed: int = 0) -> list[list[flint.fmpq]]:
        """Up to ``count`` distinct rational points of the region (:meth:`iter_points`)."""
        return list(itertools.islice(self.iter_points(seed=seed, attempts=50 * count), count))

    def points_on(self, values: Sequence[Any], count: int, *, seed: int = 0) -> list[list[flint.fmpq]]:
        """Up to ``count`` rational points of the region where one of ``values`` (rational functions) vanishes: a
        random point of the region with one parameter, in which a value's numerator is linear, solved for.  Where a
        statement's comparison was undecided, its counterexamples lie on such sets (``2 p = 1``, ``r0 = r1``)."""
        F = self.field
        out: list[list[flint.fmpq]] = []
        for base in self.iter_points(seed=seed, attempts=20 * count):
            for value in values:
                num = value.num
                for k, degree in enumerate(num.degrees()):
                    if degree != 1 or len(out) >= count:
                        continue
                    images = [F.qctx.gens()[k] if j == k else F.qctx.constant(base[j]) for j in range(len(base))]
                    line = F.qctx.from_dict({e: int(c) for e, c in num.to_dict().items()}).compose(*images)
                    coeffs = {e[k]: c for e, c in line.to_dict().items()}
                    if coeffs.get(1, 0) == 0:
                        continue
                    point = list(base)
                    point[k] = -flint.fmpq(coeffs.get(0, 0)) / flint.fmpq(coeffs[1])
                    if point not in out and self.contains(point):
                        out.append(point)
            if len(out) >= count:
                break
        return out

    def iter_points(self, *, seed: int = 0, attempts: int = 2000) -> Iterator[list[flint.fmpq]]:
        """Distinct rational points of the region, drawn from ``seed``: weights through the chart, other
        parameters small random rationals, each kept when every entry is positive and no inequation vanishes."""
        rng = random.Random(f"region:{seed}")
        seen: list[list[flint.fmpq]] = []
        m = len(self.field.params)
        for _attempt in range(attempts):
            point = [flint.fmpq(rng.randint(-6, 6), rng.randint(1, 7)) for _ in range(m)]
            if self.rows:
                for row in self.rows:
                    w = [flint.fmpq(rng.randint(1, 9), rng.randint(1, 5)) for _ in row]
                    total = 1 + sum(w, flint.fmpq(0))
                    for k, wk in zip(row, w):
                        point[k] = wk / total
            if point not in seen and self.contains(point):
                seen.append(point)
                yield point

    def contains(self, point: Sequence[flint.fmpq]) -> bool:
        """Whether every entry is positive and no inequation vanishes at ``point``."""
        F = self.field
        try:
            return all(F.evaluate(e, list(point)) > 0 for e in self.entries) and \
                all(F._eval_poly(f, list(point)) != 0 for f in self.inequations)
        except ZeroDivisionError:
            return False


def region_of(stratum: Any, chain: Chain) -> Region | None:
    """The region of one stratum in its own parameters (``None`` for a stratum that is a single chain)."""
    F = chain.field
    if not isinstance(F, RationalFunctionField) or not F.params:
        return None
    entries = list(dict.fromkeys(e for _i, _j, e in chain.edges() if not e.is_constant()))
    neqs = [F.convert(c.text, "a stratum's condition").num for c in stratum.inequations]
    return Region(F, entries, neqs, where=tuple(stratum.where))


def counterexample_point(region: Region | None, values: Sequence[Any], *, seed: int = 0, sign: bool | None = None,
                         tries: int = 400) -> list[flint.fmpq] | None:
    """A rational point of ``region`` where the first of ``values`` is nonzero (``sign=None``), negative
    (``sign=False``) or not positive (``sign=True``), every value defined; ``None`` when none is found."""
    if region is None:
        return None
    F = region.field
    for point in region.iter_points(seed=seed, attempts=50 * tries):
        try:  # a structural residual (a count, the int 1) is one constant: its value is the same at every point
            x = [F.evaluate(v, point) if isinstance(v, RationalFunction) else flint.fmpq(v) for v in values][0]
        except ZeroDivisionError:
            continue
        if (sign is None and x != 0) or (sign is False and x < 0) or (sign is True and x <= 0):
            return point
    return None
