"""A region's chart: a polynomial in chart coordinates equals the polynomial at the charted point times the
chart's positive denominators, so one-sign coefficients there decide a sign on the whole region."""

from __future__ import annotations

import flint
from hypothesis import given
from hypothesis import strategies as st

import exactpte
from proofs_check.symbolic.graphs import graph_chain
from proofs_check.symbolic.region import Region

F = exactpte.fields.RationalFunctionField(["p", "q", "a", "b"])
# p in (0, 1), q in (0, 2), a > 1/3 and b < 2 (half-lines), every other parameter free
BOXED = Region(F, [F.convert(e) for e in ("p", "1 - p", "q", "2 - q", "3*a - 1", "2 - b")])


@st.composite
def polynomials(draw: st.DrawFn, ctx) -> flint.fmpz_mpoly:
    m = len(ctx.gens())
    terms = draw(st.lists(st.tuples(st.tuples(*[st.integers(0, 3)] * m), st.integers(-5, 5)), min_size=1, max_size=6))
    return ctx.from_dict(dict(terms))


def _value(g, point) -> flint.fmpq:
    """``g`` at a rational point, term by term (an integer or a rational polynomial alike)."""
    total = flint.fmpq(0)
    for exps, c in g.to_dict().items():
        term = flint.fmpq(c)
        for x, e in zip(point, exps):
            term *= x ** e
        total += term
    return total


@given(st.data())
def test_the_box_chart_is_the_polynomial_times_positive_denominators(data):
    g = data.draw(polynomials(F.ctx))
    t = [flint.fmpq(data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))) for _ in range(4)]
    assert BOXED.boxes == {0: (0, 1), 1: (0, 2), 2: (flint.fmpq(1, 3), None), 3: (None, 2)}
    x = [(0 + 1 * t[0]) / (1 + t[0]), (0 + 2 * t[1]) / (1 + t[1]), flint.fmpq(1, 3) + t[2], 2 - t[3]]
    D = g.degrees()
    expected = _value(g, x) * (1 + t[0]) ** D[0] * (1 + t[1]) ** D[1]
    assert _value(BOXED._charted(g), t) == expected


@given(st.data())
def test_the_weight_chart_is_the_polynomial_times_the_row_sums(data):
    chain, region = graph_chain(((0, 1, 2), (0, 2), (1,)))  # rows x0_0, x0_1 | x1_0; rewards r0..r2 free
    ctx = chain.field.ctx
    g = data.draw(polynomials(ctx))
    w = [flint.fmpq(data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))) for _ in ctx.gens()]
    x = list(w)
    expected_factor = flint.fmpq(1)
    for row in region.rows:
        total = 1 + sum((w[k] for k in row), flint.fmpq(0))
        for k in row:
            x[k] = w[k] / total
        top = max((sum(e[k] for k in row) for e in g.to_dict()), default=0)
        expected_factor *= total ** top
    assert _value(region._charted(g), w) == _value(g, x) * expected_factor
