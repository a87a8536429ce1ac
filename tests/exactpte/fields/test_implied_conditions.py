"""Implied inequations dropped on two parameters where a certificate decides them (fields.region.root_free_on_box
on the box the entries bound), kept where it cannot."""

from __future__ import annotations

import flint
from conftest import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

import exactpte
from exactpte.fields import RationalFunctionField
from exactpte.fields.region import bounding_box, root_free_on_box, vanishes_in_region

FIELD = RationalFunctionField(["p", "q"])
CTX = FIELD.ctx
UNIT = [(flint.fmpq(0), flint.fmpq(1))] * 2


@settings(scaled(60/40), deadline=None)
@given(coefficients=st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)), st.integers(-6, 6), min_size=1, max_size=6))
def test_a_certified_polynomial_has_one_sign_on_the_box(coefficients: dict[tuple[int, int], int]) -> None:
    """Whenever the certificate holds, the polynomial has one strict sign at every grid point inside the box
    (a wrong certificate would show a zero or a sign change here)."""
    f = CTX.from_dict({k: v for k, v in coefficients.items() if v})
    if f.is_zero() or not root_free_on_box(f, UNIT):
        return
    grid = [flint.fmpq(k, 9) for k in range(1, 9)]
    values = [FIELD._eval_poly(f, [a, b]) for a in grid for b in grid]
    signs = {(v > 0) - (v < 0) for v in values}
    assert signs in ({1}, {-1})


def test_the_certificate_refuses_polynomials_with_a_root_inside() -> None:
    p, q = CTX.gens()
    for f in (2 * p - 1, p - q, 4 * p * q - 1, p * p - q):
        assert not root_free_on_box(f, UNIT), f


def test_two_parameter_assumptions_leave_out_what_cannot_vanish() -> None:
    """g* = -1/(p - 2) on 0 < p, q < 1: 'p - 2 != 0' is implied and left out; a factor p - q that does vanish
    inside the region is kept."""
    m = exactpte.ParametricChain([[0, "q", "1-q"], [0, "p", "1-p"], [0, 1, 0]], [0, 1, 0], params=["p", "q"])
    assert exactpte.decompose(m).to_dict(only="g_star")["assumptions"] == ["0 < p < 1", "0 < q < 1"]
    F = RationalFunctionField(["p", "q"])
    entries = [F.convert(t) for t in ("p", "1 - p", "q", "1 - q")]
    assert [vanishes_in_region(F, entries, F.convert(t).num) for t in ("p - 2", "p + 3*q", "p**2*q**2 + p*q + 1", "p - q")] \
        == [False, False, False, None]


def test_no_box_no_decision() -> None:
    """Without an upper bound on q (only q > 0), no box is read off and nothing is dropped."""
    F = RationalFunctionField(["p", "q"])
    entries = [F.convert(t) for t in ("p", "1 - p", "q")]
    assert bounding_box(F, entries) is None
    assert vanishes_in_region(F, entries, F.convert("p - 2").num) is None
