"""Exact sign of a one-parameter polynomial on the real line (Sturm sequences).

Examples
--------
>>> import flint
>>> never_positive(flint.fmpz_poly([-1, 1, -1])), never_positive(flint.fmpz_poly([0, 1, -1]))
(True, False)
"""

from __future__ import annotations

import functools

import flint

__all__ = ["real_root_count", "never_positive"]


def _sturm_chain(g: flint.fmpz_poly) -> list[flint.fmpq_poly]:
    """The Sturm sequence ``g, g', -rem(g, g'), ...`` of ``g`` (computed once per polynomial: the
    bisections of :func:`real_roots` count roots in many intervals of the same ``g``)."""
    return _sturm_chain_of(tuple(int(c) for c in g.coeffs()))


@functools.lru_cache(maxsize=256)
def _sturm_chain_of(coeffs: tuple[int, ...]) -> list[flint.fmpq_poly]:
    g = flint.fmpz_poly(list(coeffs))
    chain = [flint.fmpq_poly(g), flint.fmpq_poly(g.derivative())]
    while chain[-1].degree() > 0:
        rem = chain[-2] % chain[-1]
        if rem.is_zero():
            break
        chain.append(-rem)
    return chain


def real_root_count(g: flint.fmpz_poly) -> int:
    """Number of distinct real roots of a squarefree ``g`` (Sturm's theorem, exact)."""
    if g.degree() < 1:
        return 0
    chain = _sturm_chain(g)

    def changes(at_plus_infinity: bool) -> int:
        signs = []
        for h in chain:
            lead = h.coeffs()[-1] if h.degree() >= 0 else 0
            if lead == 0:
                continue
            sign = 1 if lead > 0 else -1
            if not at_plus_infinity and h.degree() % 2 == 1:
                sign = -sign
            signs.append(sign)
        return sum(1 for a, b in zip(signs, signs[1:]) if a != b)

    return changes(False) - changes(True)


def never_positive(f: flint.fmpz_poly) -> bool:
    """Whether ``f(x) <= 0`` for every real ``x`` with ``f`` not identically zero: no factor of odd
    multiplicity has a real root (so ``f`` never changes sign) and ``f`` is negative at infinity."""
    _, factors = f.factor()
    if any(e % 2 == 1 and real_root_count(g) > 0 for g, e in factors):
        return False  # f changes sign somewhere
    return f.coeffs()[-1] < 0 if f.degree() % 2 == 0 else False


def real_roots(g: flint.fmpz_poly) -> list[tuple[flint.fmpq, flint.fmpq]]:
    """Isolating intervals ``[a, b]`` of the distinct real roots of ``g`` (``a == b`` for a rational
    root), exact: Sturm counts and bisection.

    Examples
    --------
    >>> real_roots(flint.fmpz_poly([3, -3, 1]))          # q^2 - 3q + 3: no real root
    []
    >>> [(str(a), str(b)) for a, b in real_roots(flint.fmpz_poly([-2, 0, 1]))]
    [('-3', '0'), ('0', '3')]
    >>> len(real_roots(flint.fmpz_poly([-1, 0, 5])))    # 5q^2 - 1: roots +-1/sqrt(5), a leading coefficient > 1
    2
    """
    g = _squarefree(g)
    if g.degree() < 1:
        return []
    # Cauchy's bound: every root has |x| < 1 + max |c_i / c_n|, so the roots lie strictly inside (-bound, bound)
    bound = 1 + flint.fmpq(max(abs(int(c)) for c in g.coeffs()[:-1]), abs(int(g.coeffs()[-1])))
    return _isolate(g, -bound, bound)


def _squarefree(g: flint.fmpz_poly) -> flint.fmpz_poly:
    out = flint.fmpz_poly([1])
    for h, _e in g.factor()[1]:
        out *= h
    return out


def _count(g: flint.fmpz_poly, a: flint.fmpq, b: flint.fmpq) -> int:
    """Distinct roots of the squarefree ``g`` in ``(a, b]`` (Sturm's theorem)."""
    chain = _sturm_chain(g)

    def changes(x: flint.fmpq) -> int:
        signs = [v > 0 for v in (h(x) for h in chain) if v != 0]
        return sum(1 for u, v in zip(signs, signs[1:]) if u != v)

    return changes(a) - changes(b)


def _isolate(g: flint.fmpz_poly, a: flint.fmpq, b: flint.fmpq) -> list[tuple[flint.fmpq, flint.fmpq]]:
    """Roots of ``g`` in ``(a, b]`` (``g(a) != 0 != g(b)``) as isolating intervals whose ends are not roots
    (so open, half-open and closed read the same), or ``(r, r)`` for a rational root ``r`` met exactly."""
    k = _count(g, a, b)
    if k == 0:
        return []
    if k == 1:
        return [(a, b)]
    m = (a + b) / 2
    if g(m) != 0:
        return _isolate(g, a, m) + _isolate(g, m, b)
    eps = (b - a) / 4  # m is a root: shrink a window around it until it holds no other root and its ends are not roots
    while g(m - eps) == 0 or g(m + eps) == 0 or _count(g, m - eps, m + eps) != 1:
        eps /= 2
    return _isolate(g, a, m - eps) + [(m, m)] + _isolate(g, m + eps, b)


def sign_at_root(h: flint.fmpz_poly, g: flint.fmpz_poly, interval: tuple[flint.fmpq, flint.fmpq]) -> int:
    """The sign (-1, 0, 1) of ``h`` at the root of ``g`` isolated in ``interval`` (by :func:`real_roots`)
    (exact: ``h`` vanishes there when ``gcd(g, h)`` has that root; else the interval is halved, on the
    sign changes of ``g``'s squarefree part, until ``h`` has no root in it)."""
    a, b = interval
    if a == b:
        v = h(a)
        return (v > 0) - (v < 0)
    g = _squarefree(g)  # a root of even multiplicity would not change g's sign: bisect on the squarefree part
    common = g.gcd(h)
    if common.degree() >= 1 and _count(common, a, b) == 1:
        return 0
    hs = _squarefree(h) if h.degree() >= 1 else h
    while hs.degree() >= 1 and _count(hs, a, b) > 0:
        m = (a + b) / 2
        if g(m) == 0:
            a = b = m
            break
        if (g(m) > 0) == (g(b) > 0):  # g(b) != 0 throughout (real_roots' intervals end at non-roots)
            b = m
        else:
            a = m
    v = h((a + b) / 2) if a != b else h(a)
    return (v > 0) - (v < 0)
