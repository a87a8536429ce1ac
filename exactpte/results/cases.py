"""The strata of a parametric chain merged into cases, as a paper writes a piecewise closed form.

A quantity's closed forms on the strata (:class:`~exactpte.results.strata.StratifiedDecomposition`) repeat
themselves: the generic ``q/(p + q)`` holds on the line ``p = 0`` too (it is ``1`` there, as the line's own
decomposition says), ``ρ = 1/2`` on eight of nine strata.  :func:`cases` groups the strata into one case per
distinct closed form, exactly:

- a stratum joins a case when the case's closed form, restricted to the stratum (its parameters substituted),
  *is* the stratum's value, and the form is defined at every point of the stratum: its denominator, restricted,
  vanishes nowhere there (each irreducible factor is one the stratum's conditions or entries keep nonzero, or has
  no root on it: a certificate on a box, or the exact real roots with one parameter left); strata are taken from
  the largest (most free parameters) down, so a case's form is its most general one;
- :func:`region` writes a case's strata in their simplest form: a line ``f = 0`` all of whose valid points lie
  in the case is written as the line (``p = 0``, not ``(p = 0 and 0 < q < 1) or (p = 0 and q = 0) or ...``),
  decided exactly (every stratum on the line is in the case, and every other stratum is shown not to meet it);
  the rest stratum by stratum.

Examples
--------
>>> import exactpte
>>> strat = exactpte.stratify(exactpte.example("two-state-pq"))
>>> [(str(c.value), region(strat, c.members)) for c in cases(strat, "g_star", 0)][1:]
[('1', [['p = 0', 'q = 0'], ['p = 1', 'q = 1']])]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from exactpte.fields import RationalFunctionField, polynomials
from exactpte.fields.region import bounding_box, root_free_on_box
from exactpte.fields.signs import real_roots, sign_at_root

__all__ = ["Case", "cases", "grouped", "region", "restricts"]


@dataclass(frozen=True)
class Case:
    """Strata (their indices) on which one closed form holds: ``value`` (in the field of stratum ``head``,
    the largest of them)."""

    value: Any
    head: int
    members: tuple[int, ...]


def cases(strat: Any, name: str, state: int) -> list[Case]:
    """The strata grouped by the closed form of ``name[state]`` (see the module docstring), in the order of
    their first stratum; pointwise strata (no closed form) make one case of their own, ``value`` ``None``."""
    def value(k: int) -> Any:
        dec = strat.strata[k].decomposition
        return None if dec is None else getattr(dec, name)[state]

    def joins(head: int, k: int) -> bool:
        a, b = value(head), value(k)
        if a is None or b is None:
            return a is None and b is None
        return restricts(strat, head, a, k, b)

    return [Case(value(g[0]), g[0], tuple(sorted(g))) for g in grouped(strat, joins)]


def grouped(strat: Any, joins: Callable[[int, int], bool]) -> list[list[int]]:
    """The strata's indices grouped: each stratum, from the largest (most free parameters) down, joins the
    first group whose head (its first, largest stratum) ``joins(head, k)``, else heads a new group.  Groups
    in the order of their smallest index."""
    order = sorted(range(len(strat.strata)), key=lambda k: (-len(strat.strata[k].params), k))
    groups: list[list[int]] = []
    for k in order:
        for g in groups:
            if joins(g[0], k):
                g.append(k)
                break
        else:
            groups.append([k])
    return sorted(groups, key=min)


def _images(strat: Any, k: int) -> tuple[Any, list[Any]]:
    """``(field, images)``: stratum ``k``'s field (it has a closed form) and the original parameters as its
    elements (a substituted parameter as its value there, a free one as itself)."""
    stratum = strat.strata[k]
    G = stratum.decomposition.field
    images = [stratum.substitution[p] if p in stratum.substitution else G.variable(p) for p in strat.params]
    return G, images


def restricts(strat: Any, head: int, a: Any, k: int, b: Any) -> bool:
    """Whether the closed form ``a`` (of stratum ``head``) holds on stratum ``k``, whose value is ``b``: its
    restriction equals ``b`` and its denominator vanishes at no point of stratum ``k`` (decided exactly; an
    undecided one does not hold)."""
    if head == k:
        return True
    Fh = strat.strata[head].decomposition.field
    G, images = _images(strat, k)
    if not getattr(Fh, "is_parametric", False):  # a number: it holds where the stratum's value is that number
        if getattr(G, "is_parametric", False):
            return bool(G.is_constant(b) and b.constant_value() == a)
        return bool(a == b)
    F: RationalFunctionField = strat.field
    head_params = list(strat.strata[head].params)
    sub = [images[strat.params.index(p)] for p in head_params]
    num, den = Fh.compose_poly(a.num, sub, G), Fh.compose_poly(a.den, sub, G)
    if den == 0:
        return False
    if num / den != b:
        return False
    if not getattr(G, "is_parametric", False):
        return True  # a point: the denominator is a nonzero number there
    bottom = den.num  # the restricted denominator's numerator: where it vanishes, the written form is undefined
    return not meets(strat, k, bottom, F, images)


def _kept_nonzero(strat: Any, k: int, F: RationalFunctionField, images: Sequence[Any]) -> list[Any]:
    """Irreducible polynomials (in stratum ``k``'s ring) nonzero at every point of it: the factors of its
    inequations and of its chain's entries (every entry is positive on a stratum with a closed form)."""
    stratum = strat.strata[k]
    G = stratum.decomposition.field
    out: list[Any] = []
    for c in stratum.inequations:
        z = F.compose_poly(c.poly, images, G)
        if z != 0 and not G.is_constant(z):
            out += G.irreducible_factors(z.num)
    for _i, _j, e in stratum.chain.edges():
        if not G.is_constant(e):
            out += G.irreducible_factors(e.num) + G.irreducible_factors(e.den)
    return out


def meets(strat: Any, k: int, f: Any, F: RationalFunctionField, images: Sequence[Any]) -> bool:
    """Whether the polynomial ``f`` of stratum ``k``'s ring may vanish at a point of stratum ``k``: ``False``
    only when decided (each irreducible factor of ``f`` kept nonzero by the stratum's conditions or entries,
    or without a root there: a box certificate, or with one parameter its exact real roots)."""
    stratum = strat.strata[k]
    if stratum.decomposition is None:
        return True
    G = stratum.decomposition.field
    if not getattr(G, "is_parametric", False):
        return bool(f == 0)
    if f.is_constant():
        return bool(f.is_zero())
    kept = _kept_nonzero(strat, k, F, images)
    entries = [e for _i, _j, e in stratum.chain.edges() if not G.is_constant(e)]
    box = bounding_box(G, entries) if entries else None
    for g in G.irreducible_factors(f):
        if any(g == h or g == -h for h in kept):
            continue
        if box is not None and root_free_on_box(g, box):
            continue
        if len(G.params) == 1 and not _root_on_line(g, entries, [h for h in kept]):
            continue
        return True
    return False


def _root_on_line(g: Any, entries: Sequence[Any], kept: Sequence[Any]) -> bool:
    """One parameter: whether ``g`` has a real root where every entry is positive (exact)."""
    u = polynomials.univariate(g)
    if u.degree() < 1:
        return False
    pairs = [(polynomials.univariate(e.num), polynomials.univariate(e.den)) for e in entries]
    for interval in real_roots(u):
        if any(sign_at_root(den, u, interval) == 0 for _num, den in pairs):
            continue
        if all(sign_at_root(num, u, interval) * sign_at_root(den, u, interval) > 0 for num, den in pairs):
            return True
    return False


def _on_line(strat: Any, k: int, poly: Any) -> bool | None:
    """Whether stratum ``k`` lies on the curve ``poly = 0`` (its substitution makes ``poly`` vanish
    identically): ``True``; ``False`` when it shown not to meet it; ``None`` when it may meet it."""
    F: RationalFunctionField = strat.field
    if strat.strata[k].decomposition is None:
        stratum = strat.strata[k]
        return True if any(c.poly == poly for c in stratum.equations) else None
    G, images = _images(strat, k)
    z = F.compose_poly(poly, images, G)
    if z == 0:
        return True
    if not getattr(G, "is_parametric", False):
        return False
    return None if meets(strat, k, z.num, F, images) else False


def region(strat: Any, members: Sequence[int]) -> list[list[str]]:
    """The union of the strata ``members`` as pieces to be read with "or", each a list of conditions to be read
    with "and", in its simplest form: a whole line ``f = 0`` (every valid point of it in the union, decided
    exactly) as the line (``["p = 0"]``), the other strata by their
    :attr:`~exactpte.results.strata.Stratum.where_marked`.  Empty for every stratum (the whole valid region)."""
    members = sorted(set(members))
    if len(members) == len(strat.strata):
        return []
    chosen, covered = _lines(strat, members)
    pieces = [[c.simplest()] for c in chosen]
    for k in members:
        if k not in covered:
            pieces.append(list(strat.strata[k].where_marked))
    return pieces


def _lines(strat: Any, members: Sequence[int]) -> tuple[list[Any], set[int]]:
    """The whole lines among the equations of ``members`` (largest first) and the strata they cover."""
    inside = set(members)
    candidates: list[Any] = []
    for k in members:
        for c in strat.strata[k].equations:
            if c.decided and not any(c.poly == d.poly for d in candidates):
                candidates.append(c)
    whole: list[tuple[Any, set[int]]] = []
    for c in candidates:
        on: list[int] = []
        for k in range(len(strat.strata)):
            where = _on_line(strat, k, c.poly)
            if where is None or (where and k not in inside):
                break
            if where:
                on.append(k)
        else:
            whole.append((c, set(on)))
    chosen: list[Any] = []
    covered: set[int] = set()
    for c, line in sorted(whole, key=lambda item: -len(item[1])):
        if len(line) > 1 and not line <= covered:
            chosen.append(c)
            covered |= line
    return chosen, covered
