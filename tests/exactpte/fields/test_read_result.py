"""A parametric answer reads back (``field.read_result``) under bounds larger than a chain entry's, and
still bounded: a hostile text is refused by name, before the work it asks for."""

from __future__ import annotations

import json
import time

import pytest

import exactpte
from exactpte import ParametricChain
from exactpte.errors import SymbolicEntryError
from exactpte.fields import RationalFunctionField
from exactpte.results.factored import expand


def _path(k: int) -> ParametricChain:
    """A path of ``k`` states exiting with probability ``e`` at each step into an absorbing state."""
    P = [["0"] * (k + 1) for _ in range(k + 1)]
    for s in range(k - 1):
        P[s][s + 1], P[s][k] = "1 - e", "e"
    P[k - 1][k] = P[k][k] = "1"
    return ParametricChain(P, [1] * k + [0], params=["e"])


@pytest.mark.parametrize("factored", [False, True])
def test_a_long_paths_answer_reads_back_exactly(factored):
    dec = exactpte.decompose(_path(71))
    data = json.loads(dec.to_json(only="v_star,h", factored=factored))
    data = expand(data) if factored else data
    assert [dec.field.read_result(t) for t in data["v_star"]] == list(dec.v_star)
    assert [dec.field.read_result(t) for t in data["h"]] == list(dec.h)
    with pytest.raises(SymbolicEntryError, match="exponent 70 exceeds 64: the bound on a chain's entries; read an answer with field.read_result"):
        dec.field.convert(data["v_star"][0])  # a chain entry's bound, named


@pytest.mark.parametrize("text", ["(1 + e)^100000", "(3 + 7*e)^99999", "e^100001", "(" * 101 + "e" + ")" * 101])
def test_hostile_answer_texts_are_refused_by_name_quickly(text):
    F = RationalFunctionField(["e"])
    t = time.process_time()
    with pytest.raises(SymbolicEntryError, match="not an expression of the parameters"):
        F.read_result(text)
    assert time.process_time() - t < 30  # bounded before the work: far under this (a hang guard, not a benchmark)


def _sequential(field, terms):
    """The sum of ``(sign, text)`` terms added left to right (the order the parser used to add in)."""
    total = field.zero
    for sign, text in terms:
        x = field.convert(text)
        total = total + x if sign == "+" else total - x
    return total


def test_a_long_sum_is_summed_in_a_tree_with_the_same_value():
    """Sums are added pairwise (k log k work, where left to right cost k^2: a 3,000-term numerator took 4.8 s to
    read); the value is the left-to-right sum, signs included, for polynomials and for fractions."""
    F = RationalFunctionField(["p", "q"])
    monomials = [("+" if i % 3 else "-", f"{7 ** (i % 40) + i}*p^{i % 9}*q^{i % 5}") for i in range(301)]
    text = " ".join(f"{sign} {t}" for sign, t in monomials).lstrip("+ ")
    assert F.read_result("(" + text + ")/(1 + p*q)") == _sequential(F, monomials) / F.convert("1 + p*q")
    fractions = [("+" if i % 4 else "-", f"1/(p + {i}*q + 1)") for i in range(1, 41)]
    text = " ".join(f"{sign} {t}" for sign, t in fractions).lstrip("+ ")
    assert F.convert(text) == _sequential(F, fractions)


def test_a_sum_of_many_fractions_in_a_chain_entry_is_bounded():
    """A chain entry of 9,000 characters summing 900 fractions 1/(p + k) (a denominator of degree 900, coefficients
    of 7,500 bits) reads without running away: its value is right (the sum's derivative identity at p = 1 would be
    slow to state, so: the denominator is the product of the 900 factors)."""
    F = RationalFunctionField(["p"])
    x = F.convert("+".join(f"1/(p+{k})" for k in range(1, 901)))
    product = F.one
    for k in range(1, 901):
        product = product * F.convert(f"p + {k}")
    assert x.den == product.num and x.num.degrees() == (899,)
