"""Exact sign of a one-parameter polynomial on the real line (Sturm sequences).

Examples
--------
>>> import flint
>>> never_positive(flint.fmpz_poly([-1, 1, -1])), never_positive(flint.fmpz_poly([0, 1, -1]))
(True, False)
"""

from __future__ import annotations

import flint

__all__ = ["real_root_count", "never_positive"]


def real_root_count(g: flint.fmpz_poly) -> int:
    """Number of distinct real roots of a squarefree ``g`` (Sturm's theorem, exact)."""
    if g.degree() < 1:
        return 0
    chain = [flint.fmpq_poly(g), flint.fmpq_poly(g.derivative())]
    while chain[-1].degree() > 0:
        rem = chain[-2] % chain[-1]
        if rem == 0:
            break
        chain.append(-rem)

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
