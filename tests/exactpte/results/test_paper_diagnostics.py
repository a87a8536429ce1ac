"""The paper's exact diagnostic table (Numerical Experiments, Table "Exact diagnostic checks")."""

import pytest

import exactpte
from exactpte.model.examples import deterministic_cycle, two_paths


def norm(v):
    return max(abs(x) for x in v)


def test_pure_periodic_24_cycle():
    dec = exactpte.decompose(exactpte.example("cycle-24"))
    assert norm(dec.h) == 3
    assert all(v == 0 for v in dec.v_star)
    assert dec.g_star == dec.chain.r
    assert {str(x) for x in dec.rho} == {"1/2"}


def test_same_regime_different_path_cost():
    m = two_paths((3, 14))
    dec = exactpte.decompose(m)
    assert set(dec.g_star) == {1}
    start3 = m.labels.index("p0_3")
    start14 = m.labels.index("p1_14")
    assert (dec.v_star[start3], dec.v_star[start14]) == (-3, -14)
    # every state at distance l has v* = -l
    for s, lab in enumerate(m.labels):
        if lab != "a":
            assert dec.v_star[s] == -int(lab.split("_")[1])
    # return curves differ: J_H(start3) - J_H(start14) = 11 for H >= 14
    J = dec.returns(20)
    assert J[start3] - J[start14] == 11


def test_same_average_different_persistent_profile():
    dec = exactpte.decompose(exactpte.example("two-cycles"))
    gA, gB = dec.g_star[:4], dec.g_star[4:]
    rA, rB = dec.rho[:4], dec.rho[4:]
    assert norm([a - b for a, b in zip(rA, rB)]) == 0
    assert norm([a - b for a, b in zip(gA, gB)]) == 1


def test_aperiodic_reduction_vs_periodic_gap():
    ap = exactpte.decompose(exactpte.example("aperiodic"))
    per = exactpte.decompose(exactpte.example("periodic"))
    assert norm([g - r for g, r in zip(ap.g_star, ap.rho)]) == 0  # exactly, not 5.6e-16
    assert str(norm([g - r for g, r in zip(per.g_star, per.rho)])) == "1/2"


@pytest.mark.parametrize("d", [2, 4, 6, 8, 10, 12, 16, 24, 30, 40, 64])
def test_deterministic_cycle_bias_is_d_over_8(d):
    dec = exactpte.decompose(deterministic_cycle(d))
    assert all(v == 0 for v in dec.v_star)
    assert dec.g_star == dec.chain.r
    assert norm(dec.h) * 8 == d
    # Pi = 0: projecting anything gives 0
    assert all(x == 0 for x in dec.project(list(range(d))))


@pytest.mark.parametrize("d", [1, 3, 5, 7])
def test_odd_cycles_have_zero_transient_part_too(d):
    dec = exactpte.decompose(deterministic_cycle(d))
    assert all(v == 0 for v in dec.v_star) and dec.g_star == dec.chain.r
