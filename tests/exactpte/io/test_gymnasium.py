"""The gymnasium bridge (exactpte.io.gym.from_gym): a hand-built table in gymnasium's P format
(no gymnasium needed), then every toy-text environment with gymnasium installed (the ``gym``
extra), decomposed exactly under a uniform and a greedy policy."""

import flint
import numpy as np
import pytest

import exactpte
from exactpte.errors import NegativeEntryError, RowSumError, ShapeError, UsageError
from exactpte.io.gym import from_gym

# a FrozenLake-like table: gymnasium's float thirds, a transition listed twice, terminated moves
THIRD_HI, THIRD = 0.33333333333333337, 0.3333333333333333
TABLE = {
    0: {0: [(THIRD_HI, 0, 0, False), (THIRD, 0, 0, False), (THIRD_HI, 1, 0, False)],
        1: [(1.0, 1, 0, False)]},
    1: {0: [(THIRD_HI, 0, 0, False), (THIRD, 2, 1.0, True), (THIRD_HI, 1, 0, False)],
        1: [(1.0, 2, 1.0, True)]},
    2: {0: [(1.0, 2, 0, True)], 1: [(1.0, 2, 0, True)]},
}


def _stochastic(m):
    return all(sum(q for _, q in m.row(i)) == 1 for i in range(m.n))


def test_uniform_policy_on_a_table_without_gymnasium():
    m = from_gym(TABLE, "uniform")
    third = flint.fmpq(1, 3)
    assert m.row(0) == ((0, third), (1, 1 - third))  # 0 -> 0 listed twice: summed to 2/3 under action 0
    assert m.row(1) == ((0, third / 2), (1, third / 2), (2, 1 - third))
    assert m.r == (0, (third + 1) / 2, 0)
    assert m.row(2) == ((2, 1),) and _stochastic(m)
    assert m.notes[0] == "gymnasium model: policy uniform over the actions; terminated transitions kept as listed"
    assert "1 duplicate transition listing summed" in m.notes


@pytest.mark.parametrize("policy", [[1, 1, 0], np.array([1, 1, 0]), {0: 1, 1: np.int64(1), 2: 0}, lambda s: 0 if s == 2 else 1,
                                    [[0, 1], {1: 1.0}, [1.0, 0.0]]])
def test_policy_forms_agree(policy):
    m = from_gym(TABLE, policy)
    assert m.row(0) == ((1, 1),) and m.row(1) == ((2, 1),) and m.r == (0, 1, 0)


def test_on_done_absorb_and_reset():
    absorb = from_gym(TABLE, [1, 1, 0], on_done="absorb", labels=["a", "b", "c"])
    assert absorb.n == 4 and absorb.row(1) == ((3, 1),) and absorb.row(3) == ((3, 1),) and absorb.r[3] == 0
    assert absorb.labels == ("a", "b", "c", "done")
    reset = from_gym(TABLE, [1, 1, 0], on_done="reset", initial=0)
    assert reset.row(1) == ((0, 1),) and reset.r[1] == 1 and reset.row(2) == ((0, 1),)
    assert exactpte.gain(reset) == (flint.fmpq(1, 2),) * 3  # one reward every second step
    spread = from_gym(TABLE, [1, 1, 0], on_done="reset", initial=[0.5, 0.5, 0.0])
    assert spread.row(1) == ((0, flint.fmpq(1, 2)), (1, flint.fmpq(1, 2)))


def test_exact_binary_values_need_the_repair():
    """With limit_denominator=None the thirds keep their binary values; the row repair makes them
    sum to 1 and reports it; repair=None refuses them, naming the (state, action)."""
    m = from_gym(TABLE, "uniform", limit_denominator=None)
    assert _stochastic(m) and m.notes[1] == "floats read as their exact binary values"
    with pytest.raises(RowSumError, match=r"P\[0\]\[0\] sums to"):
        from_gym(TABLE, "uniform", limit_denominator=None, repair=None)


@pytest.mark.parametrize("table, policy, kwargs, error, message", [
    ({0: {0: [(0.5, 0, 0, False)]}}, "uniform", {}, RowSumError, r"P\[0\]\[0\] sums to 1/2, 0.5 away from 1"),
    ({0: {0: [(-0.5, 0, 0, False), (1.5, 0, 0, False)]}}, "uniform", {}, NegativeEntryError, r"P\[0\]\[0\]\[0\] probability is -1/2"),
    ({0: {0: [(1.0, 3, 0, False)]}}, "uniform", {}, ShapeError, r"P\[0\]\[0\]\[0\] goes to 3"),
    ({0: {0: [(1.0, 0, 0)]}}, "uniform", {}, ShapeError, r"expected \(probability, next_state, reward, terminated\)"),
    ({1: {0: [(1.0, 1, 0, False)]}}, "uniform", {}, ShapeError, r"states of P must be 0..0"),
    (TABLE, [1, 2, 0], {}, ShapeError, "takes action 2 in state 1"),
    (TABLE, [[0.5, 0.4], 1, 0], {}, RowSumError, r"policy\[0\] sums to"),
    (TABLE, "greedy", {}, UsageError, "policy must be 'uniform'"),
    (TABLE, "uniform", {"on_done": "restart"}, UsageError, "on_done must be"),
    (TABLE, "uniform", {"on_done": "reset"}, UsageError, "pass initial=STATE"),
])
def test_bad_tables_and_options_are_named(table, policy, kwargs, error, message):
    with pytest.raises(error, match=message):
        from_gym(table, policy, **kwargs)


def test_an_env_without_P_is_refused_by_name():
    class Blackjack:  # what gymnasium's BlackjackEnv looks like to the bridge: no P
        unwrapped = None

    with pytest.raises(UsageError, match="^Blackjack has no transition table env.unwrapped.P"):
        from_gym(Blackjack(), "uniform")


# -- with gymnasium (the gym extra) -----------------------------------------------------------------------
def _greedy(P, gamma=0.95, sweeps=3000):
    """A greedy policy from discounted value iteration in floats (what a user's solver gives)."""
    n, A = len(P), len(P[0])
    V = np.zeros(n)
    for _ in range(sweeps):
        Q = np.array([[sum(p * (r + gamma * V[s2] * (not d)) for p, s2, r, d in P[s][a]) for a in range(A)] for s in range(n)])
        if np.max(np.abs(Q.max(1) - V)) < 1e-12:
            break
        V = Q.max(1)
    return Q.argmax(1)


ENVS = [("FrozenLake-v1", {}), ("FrozenLake-v1", {"map_name": "8x8"}), ("CliffWalking-v1", {}), ("Taxi-v3", {})]


@pytest.mark.extra("gym")
@pytest.mark.parametrize("name, kwargs", ENVS, ids=lambda x: x if isinstance(x, str) else "-".join(map(str, x.values())))
@pytest.mark.parametrize("on_done", ["keep", "reset", "absorb"])
def test_toy_text_environments_decompose_exactly(name, kwargs, on_done):
    gym = pytest.importorskip("gymnasium", reason='gymnasium is not installed (pip install ".[gym]")')
    if name not in gym.registry:  # Taxi-v3 became Taxi-v4 in gymnasium 1.4
        name = name.replace("-v3", "-v4")
    env = gym.make(name, **kwargs)
    for policy in ("uniform", _greedy(env.unwrapped.P)):
        m = from_gym(env, policy, on_done=on_done)
        assert _stochastic(m)
        d = exactpte.decompose(m)
        g = exactpte.gain(m)
        assert tuple(d.rho) == g and tuple(m.matvec(g)) == g  # the gain, exact, invariant under P
        if on_done == "absorb":
            assert g == (0,) * m.n  # everything ends in the absorbing state


@pytest.mark.extra("gym")
def test_blackjack_has_no_table():
    gym = pytest.importorskip("gymnasium", reason='gymnasium is not installed (pip install ".[gym]")')
    with pytest.raises(UsageError, match="Blackjack-v1 has no transition table"):
        from_gym(gym.make("Blackjack-v1"), "uniform")


@pytest.mark.extra("gym")
def test_taxi_reset_uses_the_initial_distribution():
    gym = pytest.importorskip("gymnasium", reason='gymnasium is not installed (pip install ".[gym]")')
    name = "Taxi-v3" if "Taxi-v3" in gym.registry else "Taxi-v4"
    m = from_gym(gym.make(name), "uniform", on_done="reset")
    dropoff = next(s for s in range(500) if any(d for _, _, _, d in gym.make(name).unwrapped.P[s][5]))
    assert len(m.row(dropoff)) > 300  # the successful dropoff restarts anywhere among the 300 start states
    assert _stochastic(m)
