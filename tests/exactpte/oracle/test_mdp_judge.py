"""The MDP judge: right answers in every convention agree, wrong ones are caught with their exact loss, and
each cause is named when (and only when) its test holds."""

import itertools
import math

import flint
import pytest

from exactpte.errors import CandidateError, UsageError
from exactpte.mdp import MDP, solve
from exactpte.oracle import judge_mdp
from exactpte.oracle.mdp_reading import MDP_NATIVE_NAMES, read_mdp_candidate
from exactpte.testing.mdps import brute_force, random_mdp

q = flint.fmpq
MULTI = MDP([[[0, 1, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 1], [0, 1, 0], [0, 0, 1]]], [[0, 0], [1, 1], [2, 2]])
CYCLE = MDP([[[0, 1], [1, 0]]], [[2], [0]])
NEAR = MDP([[[1, 0], [0, 1]], [[0, 1], [0, 1]]], [[1, 0], ["1001/1000", "1001/1000"]])
TRAP = MDP.from_actions([[[1, 0, 0], [0, 1, 0]], [[0, 0, 1]], [[0, 1, 0]]], [[0, 0], [1], [1]])


def finding(report, key):
    return next(f for f in report.findings if f.key == key)


def test_exact_answers_agree_in_every_form():
    for m in (MULTI, CYCLE, NEAR, TRAP, random_mdp(3, max_states=5)):
        answer = solve(m, discount="9/10").to_dict()
        assert judge_mdp(answer, m, discount="9/10").ok
        floats = {k: [float(q(x)) for x in v] if k in ("gain", "bias", "value") else v for k, v in answer.items()}
        assert judge_mdp(floats, m, discount="9/10", atol=1e-12).ok


def test_every_gain_optimal_policy_agrees_and_every_other_is_caught_with_its_exact_loss():
    m = random_mdp(11, max_states=5, max_actions=3)
    bf = brute_force(m)
    gain = [q(x) for x in bf["gain"]]
    for d in itertools.product(*(range(a) for a in m.num_actions)):
        f = finding(judge_mdp({"policy": list(d)}, m), "policy")
        if d in bf["gain_optimal_policies"]:
            assert f.ok, d
        else:
            assert f.status == "mismatch" and "exact loss" in f.detail
            loss = max(g - x for g, x in zip(gain, _gain(m, d)))
            assert math.isclose(f.max_error, float(loss.p) / float(loss.q))


def _gain(m, d):
    from exactpte.mdp import evaluate_average
    return evaluate_average(m, d).gain


def test_unichain_assumption_is_named_only_on_a_multichain_mdp():
    f = finding(judge_mdp({"average_reward": 1.0}, MULTI), "gain")
    assert not f.ok and "unichain assumption" in f.diagnosis
    f = finding(judge_mdp({"average_reward": 0.5}, CYCLE), "gain")  # g* is constant: no unichain cause
    assert not f.ok and "unichain" not in f.diagnosis
    assert finding(judge_mdp({"gain": 1}, CYCLE), "gain").ok


def test_periodicity_is_named_when_the_undamped_iteration_gives_the_value():
    f = finding(judge_mdp({"average_reward": 0.0, "policy": [0, 0]}, CYCLE), "gain")
    assert "periodic" in f.diagnosis and "aperiodicity transform" in f.diagnosis
    f = finding(judge_mdp({"average_reward": 0.7}, CYCLE), "gain")  # no iterate gives 0.7
    assert not f.ok and "periodic" not in f.diagnosis


def test_near_tie_names_the_exact_loss():
    f = finding(judge_mdp({"policy": [0, 0], "average_reward": 1.0}, NEAR), "policy")
    assert f.status == "mismatch" and "near tie" in f.diagnosis and "1/1000" in f.diagnosis and "exact loss 1/1000" in f.detail
    far = MDP([[[1, 0], [0, 1]], [[0, 1], [0, 1]]], [[1, 0], [2, 2]])
    f = finding(judge_mdp({"policy": [0, 0]}, far), "policy")
    assert f.status == "mismatch" and "near tie" not in f.diagnosis


def test_the_loop_trap_is_named():
    f = finding(judge_mdp({"policy": [0, 0, 0]}, TRAP), "policy")
    assert f.status == "mismatch" and "a loop that attains max_a P_a g*" in f.diagnosis and "self-loop" in f.diagnosis
    sets = finding(judge_mdp({"gain_optimal_actions": [[0, 1], [0], [0]]}, TRAP), "gain_optimal_actions")
    assert sets.status == "mismatch" and "first optimality equation" in sets.diagnosis


def test_a_discount_stand_in_is_named_with_its_discount():
    # staying earns 1 now; moving earns nothing for one step, then 1001/1000 forever: optimal for small discounts only
    m = NEAR
    f = finding(judge_mdp({"sigma": [0, 0], "beta": 0.5}, m), "policy")
    assert "stand-in" in f.diagnosis and "1/2" in f.diagnosis
    f = finding(judge_mdp({"sigma": [0, 0], "beta": 0.9999}, m), "policy")  # not optimal at 0.9999 either
    assert "stand-in" not in f.diagnosis


def test_values_cut_short_and_a_silent_max_iter():
    exact = [float(x) for x in solve(MULTI, discount="99/100").discounted.value]
    short = [0.9 * x for x in exact]  # VI from 0 after about ln(10)/ln(1/0.99) = 230 steps
    f = finding(judge_mdp({"V": short, "iter": 229, "max_iter": 229}, MULTI, discount="99/100"), "value")
    assert "cut short by a stopping rule" in f.diagnosis and "silent max_iter" in f.diagnosis
    f = finding(judge_mdp({"V": [x + 1 for x in exact[:2]] + [exact[2] - 1]}, MULTI, discount="99/100"), "value")
    assert not f.ok and "cut short" not in f.diagnosis


def test_relative_values_are_judged_up_to_a_constant():
    h = [float(x) for x in solve(CYCLE).average.bias]
    report = judge_mdp({"V": [x + 3 for x in h], "average_reward": 1.0, "policy": [0, 0]}, CYCLE)
    assert report.ok and finding(report, "bias").status == "same up to gauge"
    report = judge_mdp({"bias": [x + 3 for x in h]}, CYCLE)  # a plain bias must be the normalised one
    assert not report.ok and finding(report, "bias").status == "same up to gauge"
    assert judge_mdp({"bias": [x + 3 for x in h]}, CYCLE, up_to_gauge=True).ok


def test_nan_never_agrees_and_bad_candidates_are_named():
    assert not judge_mdp({"gain": [float("nan")] * 3}, MULTI).ok
    with pytest.raises(CandidateError, match="the policy has 2 entries"):
        judge_mdp({"policy": [0, 0]}, MULTI)
    with pytest.raises(CandidateError, match="action 5 in state 1"):
        judge_mdp({"policy": [0, 5, 0]}, MULTI)
    with pytest.raises(CandidateError, match="none of the judged quantities"):
        judge_mdp({"time": 0.1}, MULTI)
    with pytest.raises(CandidateError, match="does not know"):
        judge_mdp({"policy": [1, 0, 0], "time": 0.1}, MULTI, strict=True)
    with pytest.raises(UsageError):
        judge_mdp({"policy": [1, 0, 0]}, MULTI, discount="2")


def test_native_names_are_read_as_documented():
    c = read_mdp_candidate({"V": [1], "policy": [0]}, discounted=True)
    assert set(c.values) == {"value", "policy"}
    c = read_mdp_candidate({"V": [1], "average_reward": 1, "policy": [0]}, discounted=True)
    assert set(c.values) == {"bias", "gain", "policy"} and c.gauge_free == ("bias",)
    c = read_mdp_candidate({'R{"r"}max=? [ LRA ]': [1], "scheduler": [0]}, discounted=False)
    assert set(c.values) == {"gain", "policy"}
    with pytest.raises(CandidateError, match="minimal long-run average"):
        read_mdp_candidate({'R{"r"}min=? [ LRA ]': [1]}, discounted=False)
    assert {e.name for e in MDP_NATIVE_NAMES} >= {"V", "policy", "average_reward", "v", "sigma", "scheduler"}


def test_the_native_table_in_the_docs_is_the_code():
    from paths import ROOT

    from exactpte.oracle.mdp_reading import mdp_markdown_table

    assert mdp_markdown_table() in (ROOT / "docs" / "judging-mdp-solvers.md").read_text(encoding="utf-8")


@pytest.mark.extra("peers")
def test_the_mdp_native_names_are_the_solvers_real_api():
    import numpy as np

    mdptoolbox = pytest.importorskip("mdptoolbox.mdp", reason="pymdptoolbox (the peers extra) is not installed")
    qe = pytest.importorskip("quantecon", reason="quantecon (the peers extra) is not installed")
    P, R = np.array([[[1.0, 0.0], [0.0, 1.0]]]), np.array([[1.0], [0.0]])
    rvi = mdptoolbox.RelativeValueIteration(P, R)
    rvi.run()
    vi = mdptoolbox.ValueIteration(P, R, 0.9)
    vi.run()
    res = qe.markov.DiscreteDP(R, np.transpose(P, (1, 0, 2)), 0.9).solve()
    for entry in MDP_NATIVE_NAMES:
        for name in entry.name.split(", "):
            if entry.peers.startswith("pymdptoolbox"):
                assert hasattr(rvi if "RVI" in entry.peers else vi, name), name
            elif entry.peers.startswith("QuantEcon"):
                assert name in res, name


def test_a_result_object_dumped_whole_is_read():
    """pymdptoolbox's RelativeValueIteration dumped with vars(): its own `gain` (the reference state's value) beside
    `average_reward` is not judged; the model arrays and settings are listed as not judged."""
    h = [float(x) for x in solve(CYCLE).average.bias]
    out = {"V": [x + 3 for x in h], "policy": [0, 0], "average_reward": 1.0, "gain": 7.0, "iter": 12, "max_iter": 1000,
           "epsilon": 0.01, "discount": 1, "S": 2, "A": 1, "P": [[[0, 1], [1, 0]]], "R": [[2], [0]], "time": 0.01}
    report = judge_mdp(out, CYCLE)
    assert report.ok and {f.key for f in report.findings} == {"policy", "gain", "bias"}
    assert {"S", "A", "P", "R", "time", "gain"} <= set(report.not_judged)
