"""Real roots and the regions built on them: every root found (Cauchy's bound), so printed regions
and left-out denominator conditions are exact (found by review: a wrong bound lost the roots of
polynomials whose leading coefficient exceeds 1)."""

import flint
from hypothesis import given
from hypothesis import strategies as st

from exactpte import ParametricChain
from exactpte.fields import RationalFunctionField
from exactpte.fields.region import vanishes_in_region
from exactpte.fields.signs import real_roots


def test_real_roots_finds_every_root_whatever_the_leading_coefficient():
    """``5q² − 1`` has two roots ±1/√5; ``4q² − 1`` has ±1/2 (one of them on the old bound)."""
    assert len(real_roots(flint.fmpz_poly([-1, 0, 5]))) == 2
    assert len(real_roots(flint.fmpz_poly([-1, 0, 4]))) == 2


@given(st.lists(st.fractions(min_value=-20, max_value=20, max_denominator=12), min_size=1, max_size=5, unique=True),
       st.integers(1, 50))
def test_real_roots_isolates_each_rational_root_of_a_product_of_linear_factors(roots, scale):
    """``scale · Π (den x − num)`` has exactly the drawn roots: as many isolating intervals, each holding one."""
    g = flint.fmpz_poly([scale])
    for r in roots:
        g *= flint.fmpz_poly([-r.numerator, r.denominator])
    intervals = real_roots(g)
    assert len(intervals) == len(roots)
    for r in roots:
        assert sum(1 for a, b in intervals if a <= flint.fmpq(r.numerator, r.denominator) <= b) == 1


def test_the_printed_region_excludes_points_where_an_entry_is_negative():
    """Entries ``p``, ``1 − p``, ``(5p² − 1)/4``, ``5(1 − p²)/4``: valid for ``1/√5 < p < 1`` only, so the
    region is not printed as ``0 < p < 1`` (at ``p = 2/5`` an entry is ``−1/20``)."""
    m = ParametricChain([["p", "1-p"], ["(5*p**2-1)/4", "(5-5*p**2)/4"]], [0, 1], params=["p"])
    assert m.assumptions() != ["0 < p < 1"]


def test_a_denominator_with_a_root_in_the_region_is_kept():
    """``5p² − 1`` vanishes at ``1/√5``, inside ``0 < p < 1``: its condition stays."""
    m = ParametricChain([["p", "1-p"], ["p", "1-p"]], [0, 1], params=["p"])
    assert "5*p**2 - 1 != 0" in m.conditions([m.field.convert("1/(5*p**2-1)")])


def test_a_root_on_the_old_bound_counts():
    """``4p² − 1`` vanishes at ``−1/2``, where ``5p³ − 5p − 1 = 7/8 > 0``."""
    F = RationalFunctionField(["p"])
    assert vanishes_in_region(F, [F.convert("5*p**3 - 5*p - 1")], F.convert("4*p**2 - 1").num) is True


def test_sign_at_a_root_of_even_multiplicity():
    """``sign_at_root`` bisects on the squarefree part of ``g``: at the roots ±√2 of ``(x² − 2)²`` (which
    never changes sign), ``x − 1`` is positive at √2 and negative at −√2, and ``x² − 2`` vanishes."""
    from exactpte.fields.signs import sign_at_root
    g, h = flint.fmpz_poly([-2, 0, 1]) ** 2, flint.fmpz_poly([-1, 1])
    signs = sorted(sign_at_root(h, g, interval) for interval in real_roots(g))
    assert signs == [-1, 1]
    assert [sign_at_root(flint.fmpz_poly([-2, 0, 1]), g, interval) for interval in real_roots(g)] == [0, 0]
