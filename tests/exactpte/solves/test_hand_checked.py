"""Small chains whose every object was worked out by hand (derivations in the comments)."""

import exactpte
from exactpte import MarkovRewardProcess


def vals(v):
    return [str(x) for x in v]


def test_branching_example():
    # F0 = 2-cycle x0 <-> x1 (r = 1, 0); F1 = 3-cycle y0 -> y1 -> y2 (r = 0, 3, 0)
    # t1 -> x0 (1/3, tau = 1, offset 0 - 1 = 1 mod 2) or y1 (2/3, offset 1 - 1 = 0 mod 3)
    # t0 -> x1 (1/2, offset 1 - 1 = 0) or t1 (then tau = 2: x0 offset 0 mod 2, y1 offset 1 - 2 = 2 mod 3)
    dec = exactpte.decompose(exactpte.example("branching"))
    assert dec.classes == ((0, 1), (2, 3, 4)) and dec.periods == (2, 3) and dec.transient == (5, 6)
    assert vals(dec.basis[5]) == ["2/3", "0", "0", "0", "1/3"]
    assert vals(dec.basis[6]) == ["0", "1/3", "2/3", "0", "0"]
    assert vals(dec.theta) == ["1", "0", "0", "3", "0"]
    # g*(t0) = 1 * 2/3 + 0 * 1/3; v*(t0) = 0 - 2/3 + (1/2) v*(x1) + (1/2) v*(t1) = -2/3
    assert vals(dec.g_star) == ["1", "0", "0", "3", "0", "2/3", "0"]
    assert vals(dec.v_star) == ["0", "0", "0", "0", "0", "-2/3", "0"]
    # rho(t1) = 1/3 * 1/2 + 2/3 * 1; rho(t0) = 1/2 * 1/2 + 1/2 * 5/6
    assert vals(dec.rho) == ["1/2", "1/2", "1", "1", "1", "2/3", "5/6"]
    # psi coordinates: c_k - c_{k+1} = theta_k - gain, sum_k c_k = 0 per class
    assert vals(dec.psi_coords) == ["1/4", "-1/4", "0", "1", "-1"]
    assert vals(dec.psi) == ["1/4", "-1/4", "0", "1", "-1", "-1/6", "-1/12"]
    assert vals(dec.h) == ["1/4", "-1/4", "0", "1", "-1", "-5/6", "-1/12"]
    assert vals(dec.stationary[1]) == ["1/3", "1/3", "1/3"]


def test_self_loop_into_two_cycle():
    # x0 <-> x1 with r = (2, 0); t: self-loop 1/2, else -> x0, r(t) = 1.
    # tau ~ Geometric(1/2), entering x0 (phase 0): offset = -tau mod 2; P(tau odd) = 2/3
    dec = exactpte.decompose(MarkovRewardProcess([[0, 1, 0], [1, 0, 0], ["1/2", 0, "1/2"]], [2, 0, 1]))
    assert vals(dec.basis[2]) == ["1/3", "2/3"]
    assert vals(dec.g_star) == ["2", "0", "2/3"]
    # v*(t) = 1 - 2/3 + v*(t)/2  ->  v*(t) = 2/3
    assert vals(dec.v_star) == ["0", "0", "2/3"]
    assert vals(dec.rho) == ["1", "1", "1"]
    # psi = (1/2) b_00 - (1/2) b_01; h = v* + psi - P_inf v* with P_inf v* = 0
    assert vals(dec.psi) == ["1/2", "-1/2", "-1/6"]
    assert vals(dec.h) == ["1/2", "-1/2", "1/2"]
    # expected anchor hitting time from t: 1 / (1/2) = 2
    assert vals(dec.hitting_times) == ["0", "0", "2"]


def test_absorbing_gambler():
    # 0 and 3 absorbing (r = 0 and 6); 1, 2 move left/right with probability 1/2
    m = MarkovRewardProcess([[1, 0, 0, 0], ["1/2", 0, "1/2", 0], [0, "1/2", 0, "1/2"], [0, 0, 0, 1]], [0, 1, 1, 6])
    dec = exactpte.decompose(m)
    assert dec.classes == ((0,), (3,)) and dec.periods == (1, 1)
    # absorption into 3 from 1 is 1/3, from 2 is 2/3
    assert vals(dec.b(1, 0)) == ["0", "1/3", "2/3", "1"]
    assert vals(dec.g_star) == ["0", "2", "4", "6"] == vals(dec.rho)
    # v(1) = 1 - 2 + (v0 + v2)/2 = -1 + v2/2 and v(2) = 1 - 4 + (v1 + v3)/2 = -3 + v1/2
    # -> (3/4) v1 = -5/2, v1 = -10/3, v2 = -14/3
    assert vals(dec.v_star) == ["0", "-10/3", "-14/3", "0"]
    assert vals(dec.h) == vals(dec.v_star)  # aperiodic, P_inf v* = 0 here
    assert vals(dec.hitting_times) == ["0", "2", "2", "0"]


def test_n_equals_one():
    dec = exactpte.decompose(MarkovRewardProcess([[1]], ["5/7"]))
    assert vals(dec.g_star) == ["5/7"] and vals(dec.v_star) == ["0"] and vals(dec.h) == ["0"]
    assert dec.anchors == ((0,),) and vals(dec.P_inf[0]) == ["1"]
