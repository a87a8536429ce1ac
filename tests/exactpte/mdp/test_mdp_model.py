"""The MDP model: every input shape read exactly, every bad input one named error."""

from fractions import Fraction

import flint
import numpy as np
import pytest

from exactpte.errors import EntryError, FloatEntryError, LabelError, NegativeEntryError, RowSumError, ShapeError, UsageError
from exactpte.mdp import MDP, require_discount, evaluate_average, evaluate_discounted

q = flint.fmpq

P2 = [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]  # action 0 stays, action 1 swaps
R2 = [[1, 0], [0, 2]]


def test_pymdptoolbox_layout_and_per_state_lists_give_the_same_mdp():
    a = MDP(P2, R2)
    b = MDP.from_actions([[[1, 0], [0, 1]], [[0, 1], [1, 0]]], R2)
    c = MDP.from_actions([[{0: 1}, {1: 1}], [[(1, 1)], [(0, 1)]]], R2)
    d = MDP.from_transitions(2, [(0, 0, 0, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1)], R2)
    e = MDP(np.array(P2), np.array(R2))
    assert a == b == c == d == e
    assert a.row(1, 1) == ((0, q(1)),) and a.reward(1, 1) == 2


def test_scipy_sparse_matrices_per_action():
    import scipy.sparse as sp

    m = MDP([sp.csr_matrix(np.array(M)) for M in P2], R2)
    assert m == MDP(P2, R2)


def test_transition_rewards_are_folded_exactly():
    P = [[["1/3", "2/3"], [0, 1]]]
    R = [[[3, 6], [0, 5]]]  # R[a][s][s']
    m = MDP(P, R)
    assert m.reward(0, 0) == q(1, 3) * 3 + q(2, 3) * 6 and m.reward(1, 0) == 5


def test_state_rewards_give_every_action_the_same_reward():
    m = MDP(P2, [7, "1/2"])
    assert [m.reward(s, a) for s in range(2) for a in range(2)] == [7, 7, q(1, 2), q(1, 2)]


def test_states_may_have_different_numbers_of_actions():
    m = MDP.from_actions([[[1, 0, 0]], [[0, 1, 0], [0, 0, 1], ["1/2", 0, "1/2"]], [[0, 0, 1]]], [[0], [1, 2, 3], [4]])
    assert m.num_actions == (1, 3, 1) and m.num_choices == 5


@pytest.mark.parametrize("build, error, words", [
    (lambda: MDP([[[1, 0], [0, 1]], [[0, 1]]], R2), ShapeError, "P[1] has 1 rows"),
    (lambda: MDP(P2, [[1, 0, 3], [0, 2]]), ShapeError, "R[0] has 3 rewards, state 0 has 2 actions"),
    (lambda: MDP(P2, [[1, 0]]), ShapeError, "R has 1 rows, the MDP has 2 states"),
    (lambda: MDP([[["1/2", "1/3"], [0, 1]]], [[0], [0]]), RowSumError, "P(.|0, a=0) sums to 5/6"),
    (lambda: MDP([[["3/2", "-1/2"], [0, 1]]], [[0], [0]]), NegativeEntryError, "P(1|0, a=0) is -1/2"),
    (lambda: MDP([[[0.5, 0.5], [0, 1]]], [[0], [0]]), FloatEntryError, "P(0|0, a=0)"),
    (lambda: MDP([[["x", 1], [0, 1]]], [[0], [0]]), EntryError, "not an exact number"),
    (lambda: MDP([], []), ShapeError, "no actions"),
    (lambda: MDP.from_actions([[[1, 0]], []], [[0], []]), ShapeError, "state 1 has no action"),
    (lambda: MDP.from_actions([[{0: "1/2", 3: "1/2"}]], [[0]]), ShapeError, "successor 3 is outside 0..0"),
    (lambda: MDP.from_transitions(2, [(0, 1, 0, 1), (1, 0, 1, 1)], [[0, 0], [0]]), ShapeError, "none for action 0"),
    (lambda: MDP.from_transitions(1, [(0, 0, 0, "1/2"), (0, 0, 0, "1/2")], [[0]]), ShapeError, "given twice"),
    (lambda: MDP(P2, R2, labels=["a", "a"]), LabelError, "used by states 0 and 1"),
])
def test_bad_input_gets_one_named_error(build, error, words):
    with pytest.raises(error) as info:
        build()
    assert words in str(info.value)


def test_floats_only_under_a_stated_conversion():
    P = [[[1 / 3, 2 / 3], [0.0, 1.0]]]
    with pytest.raises(FloatEntryError):
        MDP(P, [[0.5], [0.0]])
    m = MDP(P, [[0.5], [0.0]], limit_denominator=1000)
    assert m.row(0, 0) == ((0, q(1, 3)), (1, q(2, 3))) and m.reward(0, 0) == q(1, 2)
    assert any("limit_denominator=1000" in n for n in m.notes)
    with pytest.raises(RowSumError, match="repair='largest'"):
        MDP(P, [[0.5], [0.0]], floats="exact")
    fixed = MDP(P, [[0.5], [0.0]], floats="exact", repair="largest")
    assert sum(p for _, p in fixed.row(0, 0)) == 1 and any("repaired" in n for n in fixed.notes)


def test_gymnasium_tables():
    P = {0: {0: [(1 / 3, 0, 0.0, False), (1 / 3, 1, 3.0, True), (1 / 3, 1, 3.0, True)]}, 1: {0: [(1.0, 1, 0.0, True)]}}
    m = MDP.from_gym(P)
    assert m.row(0, 0) == ((0, q(1, 3)), (1, q(2, 3))) and m.reward(0, 0) == 2
    assert m.notes[0] == "gymnasium model"


@pytest.mark.extra("gym")
def test_gymnasium_environment_frozen_lake():
    gym = pytest.importorskip("gymnasium")
    env = gym.make("FrozenLake-v1")
    m = MDP.from_gym(env)
    assert m.n == 16 and m.num_actions == (4,) * 16


@pytest.mark.parametrize("policy, words", [([0], "has 1 entries, the MDP has 2 states"),
                                           ([0, 2], "action 2 in state 1, which has actions 0..1"),
                                           ([0, "a"], "state 1 is 'a'"), ([0, True], "state 1 is True"), ("01", "sequence")])
def test_a_bad_policy_is_named(policy, words):
    with pytest.raises(ShapeError, match=words.replace("(", r"\(").replace(".", r"\.")):
        MDP(P2, R2).chain(policy)


@pytest.mark.parametrize("gamma", [0, 1, "3/2", -1, "0"])
def test_a_discount_outside_the_open_unit_interval_is_refused(gamma):
    with pytest.raises(UsageError, match="strictly between 0 and 1"):
        require_discount(gamma)


def test_a_float_discount_is_refused_and_exact_ones_are_read_exactly():
    with pytest.raises(FloatEntryError):
        require_discount(0.9)
    assert require_discount("0.9") == require_discount(Fraction(9, 10)) == q(9, 10)


def test_evaluation_by_hand():
    m = MDP.from_actions([[[0, 1]], [[1, 0]]], [[2], [0]])  # the 2-cycle
    ev = evaluate_average(m, [0, 0], with_w=True)
    assert ev.gain == (1, 1) and ev.bias == (q(1, 2), q(-1, 2))
    # w solves (I - P) w = -h with P* w = 0: w(0) - w(1) = -1/2, w(0) + w(1) = 0
    assert ev.w == (q(-1, 4), q(1, 4))
    assert evaluate_discounted(m, [0, 0], discount="1/2") == (q(8, 3), q(4, 3))  # v = r + P v / 2
