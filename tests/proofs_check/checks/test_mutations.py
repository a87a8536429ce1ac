"""Every check fails on a wrong answer: a check that cannot fail is a defect.

Each case plants one error class in an otherwise exact decomposition and asserts
that the named check reports it (and says where).
"""

import flint
import pytest

from proofs_check.checks import CHECKS, run_checks

from mutation_chains import CHAINS, chain_and_claim

ONE = flint.fmpq(1)


def swap_cols(basis, a, b):
    out = []
    for row in basis:
        row = list(row)
        row[a], row[b] = row[b], row[a]
        out.append(tuple(row))
    return tuple(out)


def set_col(basis, c, values):
    return tuple(tuple(values[s] if j == c else x for j, x in enumerate(row)) for s, row in enumerate(basis))


def bump(v, s, by=ONE):
    v = list(v)
    v[s] += by
    return tuple(v)


def mutations():
    """(check key, chain name, corruption) triples."""
    cases = []
    add = lambda key, chain, f: cases.append(pytest.param(key, chain, f, id=f"{key}-{len(cases)}"))
    # structure claims, each rejected by its own key
    add("structure:classes", "rich", lambda c: c.replace(classes=((0, 1, 6), (2, 3, 4, 5))))  # a transient state claimed recurrent
    add("structure:transient", "rich", lambda c: c.replace(transient=(7,)))
    add("structure:periods", "rich", lambda c: c.replace(periods=(1, 4)))  # same N, wrong periods
    add("structure:cyclic_classes", "rich", lambda c: c.replace(cyclic_classes=(((0,), (1,)), ((2,), (3,), (4,)))))  # 5 dropped
    add("structure:cyclic_classes", "rich", lambda c: c.replace(cyclic_classes=(((0,), (1,)), ((2,), (3, 5), (4,)))))  # 5 moved
    add("structure:anchors", "rich", lambda c: c.replace(anchors=((0, 0, 0), (0, 1, 1), (1, 0, 3), (1, 1, 3), (1, 2, 4))))
    add("structure:basis_order", "rich", lambda c: c.replace(anchors=(c.anchors[2], c.anchors[3], c.anchors[4], c.anchors[0], c.anchors[1]),
                                                            basis=tuple(row[2:] + row[:2] for row in c.basis)))
    add("lem:Pi_identity", "rich", lambda c: c.replace(basis=set_col(c.basis, 4, [ONE if s == 6 else 0 for s in range(8)])))
    add("lem:invariant_constant_on_class", "branching", lambda c: c.replace(classes=((0, 1, 2, 3, 4),), periods=(5,), cyclic_classes=(((0,), (1,), (2,), (3,), (4,)),), anchors=tuple((0, k, s) for k, (_, _, s) in enumerate(c.anchors))))
    add("thm:minimal_quotient", "branching", lambda c: c.replace(basis=set_col(c.basis, 1, c.b(0))))  # one phase dropped
    add("thm:quotient_contraction", "rich", lambda c: c.replace(basis=set_col(c.basis, 1, c.b(0))))  # a phase dropped
    add("thm:quotient_contraction", "rich", lambda c: c.replace(basis=set_col(c.basis, 4, [ONE if s == 6 else 0 for s in range(8)])))
    add("thm:wellposed", "rich", lambda c: c.replace(v_star=c.h))  # classical h in place of v*
    add("thm:wellposed", "branching", lambda c: c.replace(g_star=c.rho))  # rho in place of g*
    add("cor:recover_invariant_gain", "rich", lambda c: c.replace(rho=c.g_star))
    add("cor:recover_invariant_gain", "rich", lambda c: c.replace(g_star=bump(c.g_star, 5)))
    add("prop:aperiodic_reduction", "aperiodic", lambda c: c.replace(g_star=bump(c.g_star, 0)))
    add("thm:comparison_gain_bias", "rich", lambda c: c.replace(h=bump(c.h, 7)))
    add("thm:comparison_gain_bias", "rich", lambda c: c.replace(psi=bump(c.psi, 6, flint.fmpq(1, 2))))
    add("thm:comparison_gain_bias", "rich", lambda c: c.replace(v_star=bump(c.v_star, 6)))
    add("cor:projected_bias", "rich", lambda c: c.replace(v_star=c.h))
    add("def:main_b", "rich", lambda c: c.replace(basis=swap_cols(c.basis, 2, 3)))
    add("def:main_b", "rich", lambda c: c.replace(anchors=tuple((i, k, 3 if s == 2 else s) for i, k, s in c.anchors)))  # wrong anchor
    add("lem:main_b_identify", "rich", lambda c: c.replace(basis=set_col(c.basis, 1, c.b(0))))
    add("lem:app_telescoping", "rich", lambda c: c.replace(g_star=c.rho, theta=tuple(c.rho[s] for _, _, s in c.anchors)))
    add("lem:app_telescoping", "rich", lambda c: c.replace(v_star=bump(c.v_star, 7)))
    add("prop:app_vstar_transient_cost", "rich", lambda c: c.replace(v_star=bump(c.v_star, 6, flint.fmpq(1, 1000))))
    add("prop:deterministic_cycle", "cycle-24", lambda c: c.replace(h=bump(c.h, 3)))
    add("prop:deterministic_cycle", "cycle-24", lambda c: c.replace(v_star=bump(c.v_star, 3)))
    add("cor:return_error", "rich", lambda c: c.replace(g_star=c.rho))
    add("lem:recurrent_decomp", "rich", lambda c: c.replace(classes=(c.classes[0] + (6,), c.classes[1])))
    add("lem:shift_b", "rich", lambda c: c.replace(basis=swap_cols(c.basis, 2, 3)))
    add("lem:Pi_kernel", "rich", lambda c: c.replace(basis=set_col(c.basis, 2, [x * 2 for x in c.b(2)])))
    add("lem:kernel_equals_peripheral", "rich", lambda c: c.replace(basis=set_col(c.basis, 4, [ONE if s == 6 else 0 for s in range(8)])))
    add("rem:peripheral_semisimple", "rich", lambda c: c.replace(periods=(1, 3)))  # wrong period
    add("lem:W_norm_equiv", "rich", lambda c: c.replace(anchors=tuple((i, k, 0 if s == 1 else s) for i, k, s in c.anchors)))
    add("lem:b_simplex", "rich", lambda c: c.replace(basis=set_col(c.basis, 0, bump(c.b(0), 6, flint.fmpq(1, 10)))))
    add("lem:anchor_interpolation", "rich", lambda c: c.replace(basis=swap_cols(c.basis, 2, 4)))
    add("def:theta_star", "rich", lambda c: c.replace(theta=tuple(reversed(c.theta))))
    add("certified:enclosures", "rich", lambda c: c.replace(h=bump(c.h, 7, flint.fmpq(1, 10**6))))  # off by 1e-6
    add("certified:enclosures", "paper-benchmark", lambda c: c.replace(v_star=bump(c.v_star, 40, flint.fmpq(1, 10**7))))
    add("P_inf", "rich", lambda c: c.replace(P_inf=tuple(tuple(x + (ONE if (s, y) == (6, 0) else 0) for y, x in enumerate(row)) for s, row in enumerate(c.P_inf))))
    # every other claimed quantity on its own key
    add("claim:rho", "rich", lambda c: c.replace(rho=bump(c.rho, 7, flint.fmpq(1, 10**9))))
    add("claim:h", "rich", lambda c: c.replace(h=bump(c.h, 2)))
    add("claim:psi", "rich", lambda c: c.replace(psi=bump(c.psi, 6, flint.fmpq(1, 2))))
    add("claim:psi", "rich", lambda c: c.replace(psi=c.h))  # h solves the Poisson equation with rho, not g*'s
    add("claim:stationary", "rich", lambda c: c.replace(stationary=(c.stationary[0], bump(bump(c.stationary[1], 0, flint.fmpq(1, 10)), 1, flint.fmpq(-1, 10)))))
    add("claim:stationary", "rich", lambda c: c.replace(stationary=(c.stationary[0], c.stationary[1][1:] + c.stationary[1][:1])))
    add("claim:class_gain", "rich", lambda c: c.replace(class_gain=tuple(reversed(c.class_gain))))
    add("claim:absorption", "rich", lambda c: c.replace(absorption=tuple(tuple(reversed(row)) if s == 6 else row for s, row in enumerate(c.absorption))))
    add("claim:hitting_times", "rich", lambda c: c.replace(hitting_times=bump(c.hitting_times, 6, flint.fmpq(1, 3))))
    add("claim:labels", "branching", lambda c: c.replace(labels=tuple(reversed(c.labels))))
    add("claim:labels", "rich", lambda c: c.replace(labels=tuple(f"s{i}" for i in range(8))))
    # theorems tested as stated (issue #22)
    add("thm:minimal_quotient", "rich", lambda c: c.replace(basis=tuple(row + (ONE if s == 6 else 0,) for s, row in enumerate(c.basis)),
                                                            anchors=c.anchors + ((1, 3, 6),), periods=(2, 4), theta=c.theta + (0,)))  # span(b) = K + an eigenvector of 1/3
    add("prop:app_vstar_transient_cost", "rich", consistent_pair_off_K)  # r = g + (I-P)v, v = 0 at anchors, g not in K
    add("lem:pihat_dev", "rich", lambda c: c.replace(basis=set_col(set_col(c.basis, 0, bump(c.b(0), 6, flint.fmpq(1, 10))), 1, bump(c.b(1), 6, flint.fmpq(-1, 10)))))  # on the simplex, wrong
    add("lem:pihat_infty_norm", "rich", lambda c: c.replace(basis=set_col(set_col(c.basis, 0, bump(c.b(0), 7, flint.fmpq(1, 2))), 2, bump(c.b(2), 7, flint.fmpq(-1, 2)))))  # row sums 1, a negative entry
    for key in ("lem:contract_noise_bounded_iterates", "lem:projSA_stability_template", "lem:optionB_stability"):
        add(key, "rich", lambda c: c.replace(v_star=bump(c.v_star, 6, flint.fmpq(1, 10))))  # not the fixed point: SA drifts past the bound
        add(key, "rich", lambda c: c.replace(basis=set_col(set_col(c.basis, 0, bump(c.b(0), 7, flint.fmpq(1, 2))), 2, bump(c.b(2), 7, flint.fmpq(-1, 2)))))
    return cases


def consistent_pair_off_K(c):
    """``(g* + (I-P)e_6, v* - e_6)``: still ``r = g + (I-P)v`` with ``v = 0`` at the anchors (state 6 is transient and
    no anchor), and ``v`` is still the hitting cost of ``r - g``; but ``g`` is not in K(P)."""
    chain = CHAINS["rich"]
    e = [ONE if s == 6 else flint.fmpq(0) for s in range(8)]
    Pe = chain.matvec(e)
    return c.replace(g_star=tuple(g + x - y for g, x, y in zip(c.g_star, e, Pe)), v_star=tuple(v - x for v, x in zip(c.v_star, e)))


@pytest.mark.parametrize("key, chain_name, corrupt", mutations())
def test_check_fails_on_planted_error(key, chain_name, corrupt):
    chain, claim = chain_and_claim(chain_name)
    (good,) = run_checks(chain, claim, only=[key])
    assert good.holds is True, good.detail
    (bad,) = run_checks(chain, corrupt(claim), only=[key])
    assert bad.holds is False and bad.detail


BLOCK_KEYS = sorted(k for k, c in CHECKS.items() if c.block is not None)


@pytest.mark.parametrize("key, chain_name, corrupt", [p for p in mutations() if p.values[0] in BLOCK_KEYS])
def test_block_route_version_fails_on_planted_error(key, chain_name, corrupt):
    """The same mutations through the block-route versions (max_dense=0 forces them)."""
    chain, claim = chain_and_claim(chain_name)
    (good,) = run_checks(chain, claim, only=[key], max_dense=0)
    assert good.holds is True, good.detail
    (bad,) = run_checks(chain, corrupt(claim), only=[key], max_dense=0)
    assert bad.holds is False and bad.detail


def test_every_block_route_has_a_mutation():
    covered = {p.values[0] for p in mutations()} | {"lem:vhat_star_unique"}  # fed a wrong b^ below, on both routes
    assert set(BLOCK_KEYS) <= covered and len(BLOCK_KEYS) >= 9


def test_every_check_has_a_mutation():
    covered = {p.values[0] for p in mutations()}
    estimator_side = {"lem:vhat_star_unique"}  # fed a wrong b^ below
    assert set(CHECKS) - covered == estimator_side


def test_estimator_side_checks_catch_a_wrong_gauge_map():
    chain, claim = chain_and_claim("rich")
    for key in ("lem:pihat_dev", "lem:pihat_infty_norm", "lem:vhat_star_unique"):
        assert run_checks(chain, claim, only=[key])[0].holds is True
    # a gauge map that scales instead of projecting
    wrong = lambda v: [5 * x for x in v]
    for key in ("lem:pihat_dev", "lem:pihat_infty_norm"):
        (v,) = run_checks(chain, claim, only=[key], apply_pihat=wrong)
        assert v.holds is False, key
    # a learned b^ off the simplex
    bhat = [list(row) for row in claim.basis]
    bhat[6][0] += flint.fmpq(1, 3)
    (v,) = run_checks(chain, claim, only=["lem:b_simplex"], bhat=bhat)
    assert v.holds is False and "simplex" in v.detail
    # a learned b^ that is not exact at an anchor: range(Pi^) is no longer W
    bhat = [list(row) for row in claim.basis]
    bhat[2] = [flint.fmpq(1, 5)] * 5
    for max_dense in (None, 0):  # the dense check and its block route
        kw = {} if max_dense is None else {"max_dense": max_dense}
        assert run_checks(chain, claim, only=["lem:vhat_star_unique"], **kw)[0].holds is True
        (v,) = run_checks(chain, claim, only=["lem:vhat_star_unique"], bhat=bhat, **kw)
        assert v.holds is False and "anchor" in v.detail


def test_malformed_claims_fail_every_check_with_a_reason():
    chain, claim = chain_and_claim("rich")
    bad = claim.replace(theta=claim.theta[:-1])
    verdicts = run_checks(chain, bad)
    assert all(v.holds is False and "theta has" in v.detail for v in verdicts)


def test_power_norm_certificate_decides_both_ways():
    from proofs_check.routes.certificates import power_norm_certificate as _power_norm_certificate

    assert _power_norm_certificate(flint.fmpq_mat([[flint.fmpq(1, 2), 3], [0, flint.fmpq(9, 10)]])) is None
    assert "no power" in _power_norm_certificate(flint.fmpq_mat([[0, 1], [1, 0]]), max_doublings=6)
    assert "no power" in _power_norm_certificate(flint.fmpq_mat([[flint.fmpq(101, 100)]]), max_doublings=6)


def test_estimator_lemmas_are_tight_so_a_slightly_wrong_gauge_map_fails():
    """On vectors where the bounds are attained, a Pi^ off by 1% fails both lemmas (random vectors would miss it);
    a given b^ off the simplex makes lem:pihat_infty_norm not applicable, never held or failed."""
    from proofs_check.checks.appendix import perturbed_basis
    from proofs_check.judging.registry import Context
    from proofs_check.routes.dense import Routes

    chain, claim = chain_and_claim("rich")
    bhat = perturbed_basis(Context(chain, claim, Routes(chain)), flint.fmpq(1, 5))
    right = lambda v: claim.project(v, bhat)
    off = lambda v: [p + (x - p) * flint.fmpq(101, 100) for p, x in zip(claim.project(v), claim.project(v, bhat))]
    for key in ("lem:pihat_dev", "lem:pihat_infty_norm"):
        assert run_checks(chain, claim, only=[key], bhat=bhat, apply_pihat=right)[0].holds is True
    assert run_checks(chain, claim, only=["lem:pihat_dev"], bhat=bhat, apply_pihat=off)[0].holds is False
    vertex = [list(row) for row in claim.basis]
    vertex[6] = [ONE, 0, 0, 0, 0]
    over = lambda v: [x * flint.fmpq(101, 100) for x in claim.project(v, vertex)]
    assert run_checks(chain, claim, only=["lem:pihat_infty_norm"], bhat=vertex, apply_pihat=over)[0].holds is False
    offsimplex = [list(row) for row in claim.basis]
    offsimplex[6] = [ONE, ONE, 0, 0, -ONE]
    (v,) = run_checks(chain, claim, only=["lem:pihat_infty_norm"], bhat=offsimplex)
    assert v.status == "not applicable" and "simplex" in v.detail


def test_general_projections_judge_the_claim():
    """thm:wellposed and lem:Pi_identity for random projections with kernel K (not only the anchor Pi)."""
    from proofs_check.checks.appendix import random_projections_problem
    from proofs_check.checks.decomposition import general_projection_problem
    from proofs_check.judging.registry import Context
    from proofs_check.routes.dense import Routes

    chain, claim = chain_and_claim("rich")
    ctx = lambda c: Context(chain, c, Routes(chain))
    assert general_projection_problem(ctx(claim)) is None and random_projections_problem(ctx(claim)) is None
    assert "[v*]" in general_projection_problem(ctx(claim.replace(v_star=bump(claim.v_star, 6))))
    wrong = claim.replace(basis=set_col(claim.basis, 4, [ONE if s == 6 else 0 for s in range(8)]))
    assert "not in K(P)" in random_projections_problem(ctx(wrong))
