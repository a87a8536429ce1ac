"""The exact MDP answers: known answers by hand, the enumeration route on random MDPs (seeded and
Hypothesis), both optimality equations checked, and the optimal chain's decomposition."""

import flint
import pytest
from conftest import scaled
from hypothesis import given
from hypothesis import strategies as st

from exactpte.mdp import MDP, optimality_levels, solve, solve_average, solve_discounted, bellman_actions
from exactpte.mdp.actions import completable, end_components
from exactpte.testing.mdps import brute_force, random_mdp
from exactpte.testing.strategies import mdps

q = flint.fmpq
KEYS = ("gain", "bias", "gain_optimal_actions", "bias_optimal_actions", "value", "discount_optimal_actions")


def _agree(m, discount="9/10"):
    sol = solve(m, discount=discount)
    answer, bf = sol.to_dict(), brute_force(m, discount=discount)
    assert {k: answer[k] for k in KEYS} == {k: bf[k] for k in KEYS}
    assert tuple(answer["policy"]) in bf["bias_optimal_policies"]
    assert tuple(sol.discounted.policy) in bf["discount_optimal_policies"]
    lv = optimality_levels(m, sol.average.gain, sol.average.bias, sol.average.w)
    assert lv.problems == ()
    assert bellman_actions(m, sol.discounted.value, discount)[1] == ()
    return sol


def test_multichain_two_absorbing_classes():
    m = MDP.from_actions([[[0, 1, 0], [0, 0, 1]], [[0, 1, 0]], [[0, 0, 1]]], [[5, 0], [1], [2]])
    sol = _agree(m).average
    assert sol.gain == (2, 1, 2) and sol.bias == (-2, 0, 0) and sol.gain_optimal_actions == ((1,), (0,), (0,))


def test_the_self_loop_trap_attains_the_first_equation_but_is_no_optimal_action():
    # state 0: a self-loop earning 0 (attains max_a P_a g* = g*(0): g* is constant) or a move to the
    # 2-state loop earning 1 a step
    m = MDP.from_actions([[[1, 0, 0], [0, 1, 0]], [[0, 0, 1]], [[0, 1, 0]]], [[0, 0], [1], [1]])
    sol = _agree(m).average
    assert sol.levels.first[0] == (0, 1) and sol.gain_optimal_actions[0] == (1,)


def test_an_action_off_the_second_equation_is_optimal_on_a_state_left_for_good():
    # state 0 moves to state 1 either directly (reward 0) or via state 2 ... every route ends in the same
    # class; a transient state may take any first-equation action of a gain-optimal policy
    m = MDP.from_actions([[[0, 1, 0], [0, 0, 1]], [[0, 1, 0]], [[0, 1, 0]]], [[0, 5], [1], [0]])
    sol = _agree(m).average
    assert sol.gain == (1, 1, 1) and sol.gain_optimal_actions[0] == (0, 1) and sol.bias_optimal_actions[0] == (1,)


def test_periodic_class_and_exact_tie():
    m = MDP.from_actions([[[0, 1], [0, 1]], [[1, 0]]], [[2, 2], [0]])   # two identical actions around a 2-cycle
    sol = _agree(m).average
    assert sol.gain == (1, 1) and sol.bias == (q(1, 2), q(-1, 2)) and sol.gain_optimal_actions == ((0, 1), (0,))
    assert sol.chain.structure.periods == (2,)


def test_near_tie_is_decided_exactly():
    m = MDP.from_actions([[[1, 0], [0, 1]], [[0, 1]]], [[1, 0], ["1001/1000"]])
    sol = _agree(m).average
    assert sol.gain == (q(1001, 1000),) * 2 and sol.policy == (1, 0)


def test_the_optimal_chain_decomposes_with_the_paper_identity():
    m = random_mdp("decompose", max_states=6)
    sol = solve_average(m)
    dec = sol.decomposition
    assert tuple(dec.rho) == sol.gain and tuple(dec.h) == sol.bias
    chain = sol.chain
    residual = [r - g - v + sum(p * dec.v_star[j] for j, p in chain.row(s)) for s, (r, g, v) in enumerate(zip(chain.r, dec.g_star, dec.v_star))]
    assert all(x == 0 for x in residual)  # r = g* + (I - P) v*


@pytest.mark.parametrize("seed", range(60))
def test_random_mdps_agree_with_enumeration(seed):
    _agree(random_mdp(seed, max_states=5, max_actions=3))
    _agree(random_mdp(f"ties{seed}", max_states=6, max_actions=2, reward_range=(0, 1)))
    _agree(random_mdp(f"near{seed}", max_states=4, max_actions=3, reward_range=(990, 1000), reward_denominator=1000),
           discount="99/100")


@scaled(0.5)
@given(mdps(max_states=5, max_actions=3), st.sampled_from(["1/2", "9/10", "99/100"]))
def test_property_agrees_with_enumeration(m, discount):
    _agree(m, discount=discount)


def test_a_wrong_answer_fails_the_equations():
    m = random_mdp(7, max_states=5)
    sol = solve_average(m)
    g = list(sol.gain)
    g[0] += 1
    assert optimality_levels(m, g, sol.bias, sol.w).problems
    v = list(solve_discounted(m, discount="1/2").value)
    v[0] -= q(1, 100)
    assert bellman_actions(m, v, "1/2")[1]


def test_end_components_and_completable_by_hand():
    succ = [[(1,), (0,)], [(0,)], [(2,)]]
    assert end_components(succ, [[0, 1], [0], [0]])[0] == [[0, 1], [2]]
    # state 0's self-loop (action 1) is completable only when some end component avoids state 0
    assert completable(succ, [[0, 1], [0], [0]], [[0], [0], [0]]) == [(0,), (0,), (0,)]
    assert completable([[(1,), (0,), (2,)], [(0,)], [(2,)]], [[0, 1, 2], [0], [0]], [[0], [0], [0]]) == [(0, 2), (0,), (0,)]
