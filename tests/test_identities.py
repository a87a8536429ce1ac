"""Every theorem identity holds exactly on every chain of the suite (independent routes in proofs_check)."""

import pytest
from hypothesis import given, strategies as st

import exactpte
from exactpte.examples import deterministic_cycle, two_paths
from exactpte.testing.random_chains import random_chain
from exactpte.strategies import chains, edge_case_chains
from proofs_check.checks import CHECKS, run_checks
from proofs_check.claimed import from_decomposition

SUITE = {name: exactpte.example(name) for name in exactpte.EXAMPLES}
SUITE = {k: v for k, v in SUITE.items() if isinstance(v, exactpte.MarkovRewardProcess)}  # parametric ones: test_symbolic
SUITE.update({f"cycle-{d}": deterministic_cycle(d) for d in (1, 3, 6)})
SUITE["paths-1-2-5"] = two_paths((1, 2, 5))
SUITE.update({f"random-{s}": random_chain(16, seed=s, n_classes=3) for s in range(6)})


def failures(chain, dec, **kw):
    return [(v.key, v.detail) for v in run_checks(chain, from_decomposition(dec), **kw) if v.holds is False]


@pytest.mark.parametrize("name", sorted(SUITE))
def test_every_check_holds_on_suite_chain(name):
    chain = SUITE[name]
    assert failures(chain, exactpte.decompose(chain)) == []


@given(st.one_of(chains(max_states=12), edge_case_chains()))
def test_every_check_holds_on_random_chains(chain):
    assert failures(chain, exactpte.decompose(chain)) == []


@given(chains(max_states=10, max_transient=4), st.data())
def test_identities_hold_for_user_anchors(chain, data):
    S = chain.structure
    anchors = [data.draw(st.sampled_from(states)) for cyc in S.cyclic_classes for states in cyc]
    dec = exactpte.decompose(chain, anchors=anchors)
    keys = ["thm:wellposed", "thm:comparison_gain_bias", "cor:projected_bias", "lem:main_b_identify", "def:main_b",
            "prop:app_vstar_transient_cost", "def:theta_star"]
    assert failures(chain, dec, only=keys) == []


def test_every_theorem_label_has_a_check():
    labels = {
        "lem:invariant_constant_on_class", "thm:minimal_quotient", "thm:quotient_contraction", "thm:wellposed",
        "cor:recover_invariant_gain", "prop:aperiodic_reduction", "thm:comparison_gain_bias", "cor:projected_bias",
        "def:main_b", "lem:main_b_identify", "lem:app_telescoping", "prop:app_vstar_transient_cost",
        "prop:deterministic_cycle", "cor:return_error", "lem:recurrent_decomp", "lem:shift_b", "lem:Pi_kernel",
        "lem:kernel_equals_peripheral", "rem:peripheral_semisimple", "lem:W_norm_equiv", "lem:vhat_star_unique",
        "lem:b_simplex", "lem:pihat_dev", "lem:pihat_infty_norm", "lem:anchor_interpolation", "def:theta_star",
    }
    assert labels <= set(CHECKS)
