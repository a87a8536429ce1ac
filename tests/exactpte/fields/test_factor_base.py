"""The printer's trial division (``FactorBase``) gives exactly what ``fmpz_mpoly.factor`` gives:
the same irreducible factors, multiplicities and constant, so the canonical text is unchanged
(issue 35: products along paths are factored by dividing out the factors met before)."""

import os

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactpte
from exactpte.fields import printing
from exactpte.fields.polynomials import factor
from exactpte.fields.printing import FactorBase, _INT_BOUND, _normalised
from conftest import scaled

CTX = flint.fmpz_mpoly_ctx.get(("p", "q", "s"), "degrevlex")
p, q, s = CTX.gens()
POOL = [p - 1, q - 1, p * q - 1, p**2 * q**2 - 3 * p * q + 3, 2 * p * q - p - 1, p + q + s, p - 29, p - 28,
        p - 30, p + 68, q**3 - 2 * s + 5, p * s - q**2 + 7]
"""Irreducible factors: path-product factors (brp's), ones whose value at the base's point (29, 31, 37)
is 0 or +-1 (``p - 29``, ``p - 28``, ``p - 30``), one of ``p + q + s``'s value (``p + 68``: 97)."""
DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks", "data")


def reference(f):
    """``factor``'s answer, normalised and in a comparable order."""
    c, fs = _normalised(*factor(f))
    return c, sorted((str(g), e) for g, e in fs)


def by_base(base, f):
    c, fs = base.factor(f)
    return c, sorted((str(g), e) for g, e in fs)


SHARED = FactorBase(CTX)
"""One base across the examples, as in a write: what it holds changes only the speed."""


@settings(scaled(300 / 40))
@given(picks=st.lists(st.tuples(st.integers(0, len(POOL) - 1), st.integers(1, 9)), min_size=1, max_size=5),
       monomial=st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 3)),
       constant=st.sampled_from([1, -1, 2, -6, 35]),
       dense=st.booleans(), seed=st.integers(0, 10**6))
def test_products_factor_as_factor_does(picks, monomial, constant, dense, seed):
    """Random products of known and unknown factors (and, drawn, a dense cofactor only ``factor``
    splits): the base's factorisation is ``factor``'s, whether the base is fresh or has seen others."""
    f = CTX.constant(constant) * p**monomial[0] * q**monomial[1] * s**monomial[2]
    for i, e in picks:
        f *= POOL[i]**e
    if dense:  # a cofactor of pseudo-random coefficients (usually irreducible, sometimes not)
        g = CTX.from_dict({(a, b, c): (seed * (a + 3 * b + 7 * c + 1)) % 13 - 6 for a in range(3) for b in range(3)
                           for c in range(2)})
        if not g.is_zero():
            f *= g
    if f.is_constant():
        return
    assert by_base(SHARED, f) == reference(f)
    assert by_base(FactorBase(CTX), f) == reference(f)


def test_known_factor_divides_repeatedly_and_cofactor_is_factored():
    """The known factors are divided out (their multiplicities read from one value), and the cofactor
    that none divides goes to ``factor``: its factors are known afterwards."""
    base = FactorBase(CTX)
    g = p**2 * q**2 - 3 * p * q + 3
    f = -4 * p**50 * q**50 * g**50 * (p - 1)**3
    assert by_base(base, f) == reference(f)
    assert sorted(str(k.g) for k in base.known) == sorted([str(g), "p - 1"])
    new = q**3 - 2 * s + 5  # unknown: the cofactor's own factorisation
    f2 = p * g**7 * new**2 * (p - 1)
    assert by_base(base, f2) == reference(f2)
    assert str(new) in [str(k.g) for k in base.known]


@pytest.mark.parametrize("g", [p - 29, p - 28, p - 30], ids=["value-0", "value-1", "value-minus-1"])
def test_factor_without_a_valuation(g):
    """A known factor whose value at the point is 0 or +-1 (no valuation to read) is divided out by
    repeated division; so is every factor of a polynomial that vanishes there."""
    base = FactorBase(CTX)
    base.factor(g * (p + q + s) ** 2 * q)  # g and p + q + s known
    for f in (g**5 * (p + q + s) * p**2, (p - 29) * (p + q + s)**3 * g**2 * s):
        assert by_base(base, f) == reference(f)


def test_overcounted_valuation(monkeypatch):
    """``p + 68`` has the value of ``p + q + s`` at the point (97): the valuation overcounts, the
    exact division refuses, the multiplicity is lowered until one divides."""
    base = FactorBase(CTX)
    base.factor((p + q + s) * (p * q - 1) * q)
    refused = []
    exact = printing._exact
    monkeypatch.setattr(printing, "_exact", lambda f, g: refused.append(g) if (r := exact(f, g)) is None else r)
    f = (p + q + s)**2 * (p + 68)**3 * (p * q - 1)
    assert by_base(base, f) == reference(f)
    assert refused  # the overcount was met


def test_large_coefficients_take_factors_own_answer():
    """Where python-flint's ``factor`` cannot order factors with coefficients of 2^31 and more (and falls
    back to the content split), the base gives that same coarse answer, whether the large factor is
    known or new."""
    big1, big2 = p + _INT_BOUND, p + _INT_BOUND + 1
    f = 3 * big1 * big2 * q**2 * (p * q - 1)
    with pytest.raises(OverflowError):
        f.factor()
    assert len(reference(f)[1]) == 1  # the coarse split
    for base in (FactorBase(CTX), SHARED):
        assert by_base(base, f) == reference(f)  # new: the cofactor's factor() overflows
        small = big1 * (p * q - 1) * q  # factor() orders these: big1 is known afterwards
        assert by_base(base, small) == reference(small)
        assert str(big1) in [str(k.g) for k in base.known]
        assert by_base(base, f) == reference(f)  # known: the large factor sends f to factor()


def test_brp_writes_as_with_factor():
    """brp16_2's answer written with the base (fresh and warm) is byte for byte the answer written with
    ``factor`` on every polynomial, and the base's factorisations of its 328 polynomials are ``factor``'s."""
    dec = exactpte.decompose(exactpte.load(os.path.join(DATA, "brp16_2.drn.gz")))
    met = []

    class Plain:
        def factor(self, f):
            met.append(f)
            return _normalised(*factor(f))

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(printing, "_base", lambda ctx: Plain())
        plain = dec.to_json(include_P_inf=False)
    finally:
        mp.undo()
    assert len(met) > 300
    fresh = FactorBase(met[0].context())
    assert all(by_base(fresh, f) == reference(f) for f in met)
    printing._BASES.clear()
    dec.field._texts = printing.TextCache()
    assert dec.to_json(include_P_inf=False) == plain
    dec.field._texts = printing.TextCache()
    assert dec.to_json(include_P_inf=False) == plain  # the base warm from the first write


def test_a_full_base_keeps_its_most_used_factors_and_the_new_ones():
    """Past FactorBase.LIMIT factors the least used half is dropped, the new ones kept; answers unchanged."""
    base = FactorBase(CTX)
    base.LIMIT = 6
    for k in range(10):
        f = (p * q - 1)**2 * (p + k * q + 1) * (q + k * s + 2)
        assert by_base(base, f) == reference(f)
        assert len(base.known) <= 6
    assert str(p * q - 1) in [str(k.g) for k in base.known]  # used every time: kept
    assert str(q + 9 * s + 2) in [str(k.g) for k in base.known]  # new: kept
