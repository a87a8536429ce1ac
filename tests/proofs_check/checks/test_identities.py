"""Every theorem identity holds exactly on every chain of the suite (independent routes in proofs_check)."""

import pytest
from hypothesis import event, given, strategies as st

import exactpte
from exactpte.model.examples import deterministic_cycle, two_paths
from exactpte.testing.random_chains import random_chain
from exactpte.testing.strategies import chains, edge_case_chains
from exactpte.testing.strategies import describe

from conftest import scaled
from proofs_check.checks import CHECKS, run_checks
from proofs_check.judging.claims import from_decomposition

SUITE = {name: exactpte.example(name) for name in exactpte.EXAMPLES}
SUITE = {k: v for k, v in SUITE.items() if isinstance(v, exactpte.MarkovRewardProcess)}  # parametric ones: test_symbolic
SUITE.update({f"cycle-{d}": deterministic_cycle(d) for d in (1, 3, 6)})
SUITE["paths-1-2-5"] = two_paths((1, 2, 5))
SUITE.update({f"random-{s}": random_chain(16, seed=s, n_classes=3) for s in range(6)})


def failures(chain, dec, **kw):
    return [(v.key, v.detail) for v in run_checks(chain, from_decomposition(dec), **kw) if v.holds is False]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SUITE))
def test_every_check_holds_on_suite_chain(name):
    chain = SUITE[name]
    assert failures(chain, exactpte.decompose(chain)) == []


@given(chains(max_states=12))
def test_every_check_holds_on_random_chains(chain):
    for label in describe(chain):  # the mix explored: pytest --hypothesis-show-statistics
        event(label)
    assert failures(chain, exactpte.decompose(chain)) == []


@given(edge_case_chains())
def test_every_check_holds_on_edge_case_chains(chain):
    event(f"n={chain.n}")
    assert failures(chain, exactpte.decompose(chain)) == []


@scaled(0.5)
@given(chains(max_states=9))
def test_both_arithmetic_fields_give_the_same_decomposition(chain):
    """QQ (fmpq) and QQ() (rational functions of no parameter, fmpz_mpoly) run the same algorithms:
    every quantity must come out the same."""
    from exactpte.fields import RationalFunctionField

    a = exactpte.decompose(chain)
    b = exactpte.decompose(chain.over(RationalFunctionField(())))
    for key in ("basis", "theta", "g_star", "v_star", "rho", "h", "psi", "stationary", "class_gain", "P_inf"):
        assert a.to_dict()[key] == b.to_dict()[key], key


@given(chains(max_states=10, max_transient=4), st.data())
def test_identities_hold_for_user_anchors(chain, data):
    S = chain.structure
    anchors = [data.draw(st.sampled_from(states)) for cyc in S.cyclic_classes for states in cyc]
    dec = exactpte.decompose(chain, anchors=anchors)
    keys = ["thm:wellposed", "thm:comparison_gain_bias", "cor:projected_bias", "lem:main_b_identify", "def:main_b",
            "prop:app_vstar_transient_cost", "def:theta_star"]
    assert failures(chain, dec, only=keys) == []


def test_every_paper_label_has_a_check_or_a_reason():
    """The shipped label list (proofs_check.judging.labels, extracted from the paper) is fully accounted for."""
    from proofs_check.judging.labels import COVERAGE, PAPER_LABELS
    from proofs_check.statistical.checks import STATISTICAL

    assert len(PAPER_LABELS) == len(set(PAPER_LABELS)) == len(COVERAGE) > 100
    known = set(CHECKS) | set(STATISTICAL)
    uncovered = [c.label for c in COVERAGE.values() if not c.checks and not c.reason.strip()]
    dangling = [(c.label, k) for c in COVERAGE.values() for k in c.checks if k not in known]
    assert uncovered == [] and dangling == []
    results = [lab for lab in PAPER_LABELS if lab.split(":")[0] in ("thm", "lem", "cor", "prop", "def")]
    reason_only = {lab for lab in results if not COVERAGE[lab].checks}
    # the end-to-end summary (the stability lemmas are checked with their stated bounds: checks/stability.py)
    assert reason_only == {"thm:sample_summary_main"}
    # every registered check key is a label of the paper or a structure/claimed-quantity/P_inf key of our own
    own = {k for k in CHECKS if k.startswith(("structure:", "claim:"))} | {"P_inf", "rem:peripheral_semisimple", "certified:enclosures"}
    assert set(CHECKS) - set(PAPER_LABELS) == own
