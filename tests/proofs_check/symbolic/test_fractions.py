"""The residuals' arithmetic over factored denominators: never cancelled, yet equal to the field's cancelled
arithmetic, and zero exactly when the rational function is zero."""

from __future__ import annotations

import sympy
from hypothesis import example, given
from hypothesis import strategies as st

from exactpte.fields import RationalFunctionField
from proofs_check.symbolic.fractions import Atoms, Unreduced, lift_value

F = RationalFunctionField(["p", "q"])
FACTORS = [F.convert(t).num for t in ("p", "q", "1 - p", "p + q", "2*p - 1", "p*q + 1", "-1", "3", "p**2 + q + 1")]


@st.composite
def fractions(draw: st.DrawFn):
    """``num / den`` from products of a few factors of one pool (shared factors: where a sum or product
    would cancel)."""
    def product():
        out = F.ctx.constant(1)
        for j in draw(st.lists(st.integers(0, len(FACTORS) - 1), max_size=3)):
            out *= FACTORS[j] ** draw(st.integers(1, 2))
        return out
    return F.fraction(product() * draw(st.sampled_from([0, 1, 1, 2, -3])), product())


def _same(value: Unreduced, reference) -> bool:
    got = value.reduced()
    return got.num == reference.num and got.den == reference.den


@given(st.lists(fractions(), min_size=2, max_size=5), st.lists(st.sampled_from(["+", "-", "*"]), min_size=4, max_size=4))
@example([F.convert("1/(1 - p)"), F.convert("p/(1 - p)**2")], ["-", "+", "*", "*"])
def test_every_expression_equals_the_cancelled_arithmetic(values, ops):
    atoms = Atoms(F)
    lifted = [atoms.lift(x) for x in values]
    exact, fast = values[0], lifted[0]
    for op, x, y in zip(ops, values[1:], lifted[1:]):
        exact = exact + x if op == "+" else exact - x if op == "-" else exact * x
        fast = fast + y if op == "+" else fast - y if op == "-" else fast * y
    assert _same(fast, exact)
    assert (fast == 0) == (exact == 0) and (fast != 0) == (exact != 0)
    assert (fast == lifted[0]) == (exact == values[0])
    assert sympy.cancel(fast.reduced().to_sympy() - exact.to_sympy()) == 0


@given(fractions(), st.sampled_from([0, 1, -2, 3]))
def test_numbers_mix_in(x, k):
    atoms = Atoms(F)
    u = atoms.lift(x)
    assert _same(u + k, x + k) and _same(k - u, k - x) and _same(u * k, x * k) and _same(0 * u, F.zero)
    assert (u - u) == 0 and u + k - k == u


def test_a_nonzero_residual_is_never_zero_and_reports_its_value():
    atoms = Atoms(F)
    x, y = atoms.lift(F.convert("1/(1 - p)")), atoms.lift(F.convert("p/(1 - p)**2"))
    assert x - x * x + y == 0
    wrong = x - x * x + y + atoms.lift(F.convert("q/(p + q)"))  # a stray term
    assert wrong != 0 and str(wrong) == "q/(p + q)"
    assert len(atoms.polys) == 2  # 1 - p and p + q: each denominator factored once


def test_lift_value_keeps_the_shape():
    atoms = Atoms(F)
    rows = ((F.convert("p"), F.convert("1/q")), (F.zero, 1))
    lifted = lift_value(atoms, rows)
    assert isinstance(lifted, tuple) and isinstance(lifted[0][1], Unreduced) and lifted[1][1] == 1
    assert [[_same(a, b) for a, b in zip(r, s) if isinstance(a, Unreduced)] for r, s in zip(lifted, rows)] == [[True, True], [True]]
