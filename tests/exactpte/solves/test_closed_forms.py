"""Issue #24: closed forms on periodic parametric chains, sums that stay small, real strata only."""

from __future__ import annotations

import flint
import pytest

import exactpte
from exactpte.fields import RationalFunctionField
from exactpte.fields.signs import real_roots, sign_at_root


def escape_cycle():
    """A 3-cycle whose state 2 escapes with probability p to a state that returns with probability q."""
    return exactpte.ParametricChain([[0, 1, 0, 0], [0, 0, 1, 0], ["1-p", 0, 0, "p"], ["q", 0, 0, "1-q"]], [1, 0, 0, 0],
                                    params=["p", "q"])


def periodic_walk(n: int = 6):
    """A transient path (forward p, backward q, stay 1 - p - q) feeding a 3-cycle and a 4-cycle."""
    T, c3, c4 = list(range(n)), [n, n + 1, n + 2], [n + 3, n + 4, n + 5, n + 6]
    size = n + 7
    P = [[0] * size for _ in range(size)]
    for s in T:
        P[s][s] = "1-p-q"
        P[s][s + 1 if s + 1 < n else c3[0]] = "p"
        P[s][s - 1 if s > 0 else c4[0]] = "q"
    P[n - 1][n - 1], P[n - 1][c3[1]] = 0, "1-p-q"
    for cyc in (c3, c4):
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            P[a][b] = 1
    r = [1 if s % 3 == 0 else 0 for s in T] + [1, 0, 0, 1, 0, 1, 0]
    return exactpte.ParametricChain(P, r, params=["p", "q"])


def test_no_stratum_without_a_real_valid_point():
    """q^2 - 3q + 3 has no real root: no stratum (pointwise or not) mentions it, and every stratum's
    equations fix the chain at a valid point."""
    strat = exactpte.stratify(escape_cycle())
    assert not any("q**2 - 3*q + 3" in c for s in strat.strata for c in s.conditions)
    assert all(not s.pointwise for s in strat.strata)
    assert len(strat.strata) == 9


def test_implied_inequations_are_dropped_and_the_region_is_simplest():
    """p + 3q != 0 follows from 0 < p < 1, 0 < q < 1: not listed; the generic region reads as intervals."""
    strat = exactpte.stratify(escape_cycle())
    assert not any("p + 3*q" in c for s in strat.strata for c in s.conditions)
    assert strat.strata[0].where == ["0 < p < 1", "0 < q < 1"]
    assert [s.where for s in strat.strata][1] == ["p = 0", "0 < q < 1"]


def test_strata_still_partition_the_valid_points():
    strat = exactpte.stratify(escape_cycle())
    for p in ("0", "1/3", "1"):
        for q in ("0", "1/2", "1"):
            point = {"p": p, "q": q}
            direct = exactpte.decompose(escape_cycle().at(point, check=False))
            assert strat.at(point).g_star == direct.g_star


def test_real_roots_and_signs_at_roots():
    assert real_roots(flint.fmpz_poly([3, -3, 1])) == []
    g = flint.fmpz_poly([-1, 0, 3])  # roots -1/sqrt(3), 1/sqrt(3)
    signs = [sign_at_root(flint.fmpz_poly([-1, 2]), g, iv) for iv in real_roots(g)]
    assert signs == [-1, 1]
    assert [sign_at_root(g, g, iv) for iv in real_roots(g)] == [0, 0]


def test_sum_fractions_is_the_cancelled_sum():
    F = RationalFunctionField(["p", "q"])
    xs = [F.convert(t) for t in ("p/(1-p)", "1/(p*(1-p))", "(p+q)/((1-p)**2*q)", "q/(p**2-1)", "(1-p)/(p*q)")]
    pairs = [(x.num, x.den) for x in xs]
    total = F.sum_fractions(pairs)
    product = F.one.num
    for _, d in pairs:
        product = product * d
    naive = F.fraction(sum((n * (product / d) for n, d in pairs), F.zero.num), product)  # one gcd with everything
    assert (total.num, total.den) == (naive.num, naive.den)


@pytest.mark.parametrize("point", [{"p": "1/3", "q": "1/5"}, {"p": "1/2", "q": "1/7"}])
def test_periodic_parametric_chain_agrees_with_the_rational_chain(point):
    """Mean + zero-sum deviations through I + Q + .. + Q^(d-1): every quantity, evaluated, equals the
    rational decomposition at the point."""
    m = periodic_walk()
    dec, at = exactpte.decompose(m), exactpte.decompose(m.at(point))
    values = [flint.fmpq(*map(int, point[p].split("/"))) for p in m.params]
    for name in ("g_star", "psi", "rho", "h", "v_star"):
        assert [x.evaluate(values) for x in getattr(dec, name)] == list(getattr(at, name)), name
    assert [[x.evaluate(values) for x in row] for row in dec.basis] == [list(row) for row in at.basis]


def test_sums_cancel_the_factors_their_denominators_share():
    F = RationalFunctionField(["p"])
    p = F.ctx.gen(0)
    total = F.sum_fractions([(p, 1 - p), (1 - 2 * p, p * (1 - p))])  # (1 - p)^2 / (p (1 - p))
    assert str(total) == "(1 - p)/p" and total.den == p
