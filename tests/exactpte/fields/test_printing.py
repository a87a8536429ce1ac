"""Closed forms print from the polynomials: the text parses back to the same rational function,
is canonical: the numerator over the denominator, small polynomials factored when shorter."""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactpte.fields import RationalFunctionField
from conftest import scaled

F = RationalFunctionField(["b", "p", "q"])
ATOMS = ["p", "q", "b", "1", "2", "3", "(1-p)", "(p+q)", "(2*q-1)"]


@st.composite
def fractions(draw):
    """``(numerator, denominator)`` texts, sums and products of ATOMS (no division inside, so the
    only possible division by zero is the denominator as a whole)."""
    def part(k):
        n = draw(st.integers(1, k))
        return "".join(draw(st.sampled_from(ATOMS)) + draw(st.sampled_from(["+", "-", "*", "*"])) for _ in range(n)) + \
            draw(st.sampled_from(["p", "q", "2", "(1-q)"]))
    return part(5), part(4)


@settings(scaled(300/40))
@given(fraction=fractions())
def test_text_parses_back_to_the_same_function(fraction):
    """Printing a rational function and parsing the text back gives the same function."""
    numerator, denominator = fraction
    assume(F.convert(denominator) != F.convert("0"))  # a zero denominator drawn: not a function
    x = F.convert(f"({numerator})/({denominator})")
    printed = F.to_text(x)
    assert F.convert(printed) == x, (numerator, denominator, printed)


@settings(scaled(300/40))
@given(fraction=fractions())
def test_printing_is_canonical(fraction):
    """The printed text is a function of the value: reprinting the parsed text gives the same text."""
    numerator, denominator = fraction
    assume(F.convert(denominator) != F.convert("0"))  # a zero denominator drawn: not a function
    printed = F.to_text(F.convert(f"({numerator})/({denominator})"))
    assert F.to_text(F.convert(printed)) == printed


@pytest.mark.parametrize("text, printed", [
    ("1-p", "1 - p"), ("p-1", "p - 1"), ("(3-2*q)/3", "(3 - 2*q)/3"), ("2*p/3", "2*p/3"), ("(p^2+1)/6", "(p**2 + 1)/6"), ("p^2*q-2*p+1", "p**2*q - 2*p + 1"),
    ("q/(p+q)", "q/(p + q)"), ("p/(p+q)^2", "p/(p + q)**2"), ("-1/(p-2)", "-1/(p - 2)"),
    ("-(p-1)*(q+2)^2", "-(p - 1)*(q + 2)**2"), ("2*(1-p)^2/(3*(p+q)^2)", "2*(p - 1)**2/(3*(p + q)**2)"),
])
def test_known_forms(text, printed):
    """Known inputs print in the expected form: the numerator with integer coefficients over the denominator,
    small polynomials factored when that is shorter, signs normalised."""
    assert F.to_text(F.convert(text)) == printed


def test_twenty_state_chain_json_closed_forms_parse_back():
    """Every closed form that a 20-state two-parameter chain's JSON prints for rho and h parses back
    to the decomposition's own value (the printer on a realistic chain, not only on drawn
    fractions; how fast it prints is measured in benchmarks/bench_symbolic.py, not here)."""
    import json

    import exactpte
    from exactpte.testing.random_chains import parametrize, random_chain

    rng = random.Random(1)
    chain = parametrize(random_chain(20, seed=1, n_classes=3), rng.randint, params=("p", "q"), max_rows=6)
    dec = exactpte.decompose(chain)
    data = json.loads(dec.to_json())
    assert data["params"] == ["p", "q"]
    for key, values in (("rho", dec.rho), ("h", dec.h)):
        assert [chain.field.convert(s) for s in data[key]] == list(values), key
