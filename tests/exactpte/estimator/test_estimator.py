"""The float estimator, tied stage by stage to the exact answers (small budgets, seeded)."""

import json

import numpy as np
import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.estimator import (
    CallbackModel,
    TableModel,
    build_gauge,
    estimate,
    estimate_weights,
    learn_structure,
    metrics,
    plug_in,
    truth_of,
)
from exactpte.estimator.algorithms import harmonic_step_size, structure_from
from exactpte.estimator.experiments import edge_deletion, storage_proxy
from exactpte.testing.random_chains import random_chain
from proofs_check.statistical.checks import check_g_rate, check_learned_contraction, check_query_count, check_sa_rate, check_support_recovery, check_weight_concentration

NOISY = random_chain(20, seed=3, n_classes=2)  # periods (2, 2), genuine sampling noise everywhere


def test_sampler_matches_the_table():
    chain = exactpte.example("branching")
    model = TableModel.from_chain(chain)
    rng = np.random.default_rng(0)
    draws = model.sample(np.full(60_000, 6), rng)
    freq = np.bincount(draws, minlength=7) / draws.size
    # t1 -> x0 w.p. 1/3, y1 w.p. 2/3: within 5 standard errors
    assert abs(freq[0] - 1 / 3) < 5 * np.sqrt(2 / 9 / draws.size)
    assert abs(freq[3] - 2 / 3) < 5 * np.sqrt(2 / 9 / draws.size)
    assert set(np.nonzero(freq)[0]) == {0, 3}
    assert np.allclose(model.dense(), truth_of(chain).P)


def test_same_seed_same_answer():
    a = estimate(NOISY, K=40, M=50, T=200, J=10, seed=7)
    b = estimate(NOISY, K=40, M=50, T=200, J=10, seed=7)
    c = estimate(NOISY, K=40, M=50, T=200, J=10, seed=8)
    assert np.array_equal(a.v_hat, b.v_hat) and np.array_equal(a.g_hat, b.g_hat) and a.queries == b.queries
    assert not np.array_equal(a.v_hat, c.v_hat)


def test_learned_structure_equals_exact_structure():
    v = check_support_recovery(NOISY, runs=30)
    assert v.holds, v.detail


def test_support_recovery_check_fails_on_an_undersampling_learner():
    starved = lambda model, K, rng: learn_structure(model, max(1, K // 40), rng)
    v = check_support_recovery(NOISY, runs=30, learn=starved)
    assert v.holds is False


def test_weight_concentration_and_its_mutation():
    assert check_weight_concentration(NOISY, runs=10).holds
    chain = exactpte.example("branching")

    def wrong_offset(model, learned, M, rng):  # phase + tau instead of phase - tau
        b = estimate_weights(model, learned, M, rng)
        b[5] = b[5][[1, 0, 2, 4, 3]]
        return b

    assert check_weight_concentration(chain, runs=10).holds
    assert check_weight_concentration(chain, runs=10, weights=wrong_offset).holds is False


def test_pihat_deviation_bound_with_monte_carlo_weights():
    truth = truth_of(NOISY)
    learned = structure_from([NOISY.support[s] for s in range(NOISY.n)])
    bhat = estimate_weights(TableModel.from_chain(NOISY), learned, 200, np.random.default_rng(0))
    eps_b = np.max(np.abs(bhat - truth.basis).sum(axis=1))
    assert eps_b > 0
    Pi_hat, Pi = build_gauge(learned.anchors, bhat), build_gauge(learned.anchors, truth.basis)
    rng = np.random.default_rng(1)
    for _ in range(50):
        v = rng.normal(size=NOISY.n)
        assert np.max(np.abs(Pi_hat(v) - Pi(v))) <= eps_b * np.max(np.abs(v)) + 1e-12
        assert np.max(np.abs(Pi_hat(v))) <= 2 * np.max(np.abs(v)) + 1e-12  # lem:pihat_infty_norm


def test_learned_operator_is_contractive():
    v = check_learned_contraction(NOISY)
    assert v.holds, v.detail


def test_contraction_check_fails_on_misassigned_phases():
    swapped = lambda model, learned, M, rng: estimate_weights(model, learned, M, rng)[:, ::-1]  # columns in reverse
    v = check_learned_contraction(NOISY, weights=swapped)
    assert v.holds is False and "spectral radius" in v.detail


def test_sa_error_falls_like_inverse_sqrt_T():
    v = check_sa_rate(NOISY, runs=8)
    assert v.holds, v.detail
    slope = float(v.detail.split("slope ")[1].split()[0])
    assert -0.75 <= slope <= -0.3  # noisy chain: near -1/2, not faster


def test_sa_rate_check_fails_when_steps_vanish_too_fast():
    frozen = lambda t: 1.0 / (np.asarray(t, dtype=float) + 1.0) ** 3  # iterates stop moving
    assert check_sa_rate(NOISY, runs=3, step=frozen).holds is False


def test_query_counts():
    v = check_query_count(NOISY)
    assert v.holds, v.detail


@pytest.mark.parametrize("factor", [2.0, 0.9])
def test_query_count_check_fails_on_an_estimator_spending_other_episode_counts(factor):
    spender = lambda chain, M, **kw: estimate(chain, M=int(factor * M), **kw)  # reports M, runs factor * M
    v = check_query_count(NOISY, run=spender)
    assert v.holds is False and "episode queries" in v.detail


def test_query_count_check_fails_on_extra_sa_queries():
    extra = lambda chain, T, **kw: estimate(chain, T=T + 1, **kw)
    v = check_query_count(NOISY, run=extra)
    assert v.holds is False and "SA queries" in v.detail


def test_profile_error_within_the_theorem_bound():
    v = check_g_rate(NOISY, runs=4, T=800)
    assert v.holds, v.detail


def test_g_rate_check_fails_when_residuals_use_fewer_samples_than_stated():
    starved = lambda chain, J, **kw: estimate(chain, J=max(1, J // 50), **kw)
    v = check_g_rate(NOISY, runs=16, T=800, run=starved)
    assert v.holds is False, v.detail


def test_projected_sa_iterates_stay_bounded():
    """lem:optionB_stability, lem:projSA_stability_template, lem:contract_noise_bounded_iterates:
    under the lemmas' step sizes the iterates stay bounded; a step size outside them (2.5 > 2)
    makes them diverge, so this test can fail."""
    truth = truth_of(NOISY)

    def sup_norm(step):
        sup = 0.0

        def record(t, v):
            nonlocal sup
            sup = max(sup, float(np.max(np.abs(v - truth.v_star))))

        estimate(NOISY, T=1500, J=1, seed=0, structure="true", weights="exact", truth=truth, step_size=step, record=record)
        return sup

    bounded = sup_norm(harmonic_step_size(2.0))
    assert bounded <= 2 * float(np.max(np.abs(truth.v_star))) + 1.0  # the start v_0 = 0 is ||v*|| away
    with np.errstate(over="ignore", invalid="ignore"):  # the diverging run overflows on purpose
        assert sup_norm(lambda t: np.full(np.shape(t), 2.5)) > 1e6


def test_estimates_land_near_the_exact_answer_on_random_chains():
    for seed in range(3):
        chain = random_chain(16, seed=seed, n_classes=2)
        truth = truth_of(chain)
        est = estimate(chain, K=300, M=1500, T=3000, J=300, seed=seed, truth=truth, step_size=harmonic_step_size(2.0))
        m = metrics(truth, est.g_hat, est.v_hat, 20)
        scale = 1 + np.max(np.abs(truth.v_star))
        assert m["E_g"] < 0.15 * scale and m["E_v"] < 0.5 * scale, (seed, m)


def test_plug_in_and_callback_model():
    chain = exactpte.example("branching")
    truth = truth_of(chain)
    p = plug_in(chain, 2000, seed=0)
    assert metrics(truth, p.g_hat, p.v_hat, 10)["E_g"] < 0.1
    P = truth.P
    model = CallbackModel(chain.n, lambda s, rng: np.array([rng.choice(chain.n, p=P[x]) for x in s]))
    est = estimate(model, r=truth.r, K=30, M=50, T=100, J=10, seed=0)
    assert est.structure.structure.periods == (2, 3)
    bad = CallbackModel(chain.n, lambda s, rng: s + 100)
    with pytest.raises(ValueError, match="outside"):
        bad.sample(np.array([0]), np.random.default_rng(0))


def test_paper_benchmark_pinned_details():
    deletion = edge_deletion()
    assert deletion["changed"] == 0 and deletion["edges"] == 582
    rows = storage_proxy((290,))
    assert rows[0]["N"] == 5 and 28 < rows[0]["ratio"] < 31


def test_estimate_cli_json(capsys):
    assert main(["estimate", "--example", "branching", "--K", "30", "--M", "50", "--T", "100", "--J", "10", "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"g_hat", "v_hat", "theta_hat", "queries", "errors"}
    assert len(data["g_hat"]) == 7 and set(data["errors"]) == {"E_g", "E_v", "E_J"}
    assert main(["estimate", "--example", "branching", "--T", "0"]) == 2
