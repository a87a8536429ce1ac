"""No false alarm: every valid convention of a decomposition is accepted by every check.

A decomposition is fixed by the chain up to the class order, which cyclic class is phase 0 and
the anchor in each cyclic class (proofs_check.judging.conventions).  Each of those, and every combination,
is a valid answer: no check may fail it (dense routes and block routes), and exactpte's certified
cross-check must accept it too.
"""

import pytest
import json

from hypothesis import given, strategies as st

import exactpte
from conftest import scaled
from exactpte.testing.strategies import chains
from proofs_check import check_chain
from proofs_check.checks import run_checks
from proofs_check.judging.claims import from_decomposition
from proofs_check.judging.readers import from_json_dict
from proofs_check.cli import main
from proofs_check.judging.conventions import canonical, relabel
from mutation_chains import chain_and_claim

SMALL = dict(max_classes=3, max_period=3, max_phase_size=2, max_transient=3)


@st.composite
def conventions(draw):
    """A chain, anchors (one state per cyclic class), a class order and phase shifts."""
    chain = draw(chains(**SMALL))
    S = exactpte.decompose(chain).structure
    anchors = [[draw(st.sampled_from(sorted(part))) for part in cyc] for cyc in S.cyclic_classes]
    order = draw(st.permutations(range(len(S.classes))))
    shifts = [draw(st.integers(0, S.periods[i] - 1)) for i in order]
    return chain, anchors, list(order), shifts


def _failed(verdicts):
    return {v.key: v.detail for v in verdicts if v.holds is False}


@pytest.mark.slow
@scaled(0.5)
@given(conventions())
def test_every_convention_is_accepted_by_every_check(case):
    chain, anchors, order, shifts = case
    claim = relabel(from_decomposition(exactpte.decompose(chain, anchors=anchors)), order, shifts)
    assert _failed(run_checks(chain, claim)) == {}
    assert _failed(run_checks(chain, claim, max_dense=0)) == {}  # block routes too


@scaled(0.25)
@given(conventions())
def test_every_convention_survives_the_json_contract(case):
    """Through the JSON contract (what another tool writes), with every key present."""
    chain, anchors, order, shifts = case
    dec = exactpte.decompose(chain, anchors=anchors)
    data = json.loads(dec.to_json(include_hitting_times=True))
    claim = relabel(from_json_dict(data, chain.n), order, shifts)
    verdicts = run_checks(chain, claim)
    assert _failed(verdicts) == {}
    assert not [v.key for v in verdicts if v.status == "not claimed" and v.key != "claim:absorption"]  # absorption is not in the JSON contract


def test_check_chain_with_other_anchors_holds_everywhere():
    chain, _ = chain_and_claim("rich")
    assert _failed(check_chain(chain, anchors=[[0, 1], [5, 3, 4]])) == {}


def test_relabel_round_trips_through_canonical():
    _, claim = chain_and_claim("rich")
    assert canonical(relabel(claim, [1, 0], [2, 1])) == claim


def test_result_command_accepts_another_convention(tmp_path):
    """exactpte's own output with other anchors, classes listed in the other order and phases rotated."""
    chain, _ = chain_and_claim("rich")
    cpath, rpath = tmp_path / "c.json", tmp_path / "r.json"
    exactpte.dump(chain, cpath)
    data = json.loads(exactpte.decompose(chain, anchors=[[0, 1], [5, 3, 4]]).to_json())
    claim = relabel(from_json_dict(data, chain.n), [1, 0], [1, 1])
    data.update(classes=[list(c) for c in claim.classes], periods=list(claim.periods), anchors=[list(a) for a in claim.anchors],
                cyclic_classes=[[list(p) for p in cyc] for cyc in claim.cyclic_classes],
                basis=[[str(x) for x in row] for row in claim.basis], theta=[str(x) for x in claim.theta],
                stationary=[[str(x) for x in pi] for pi in claim.stationary], class_gain=[str(x) for x in claim.class_gain])
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(cpath)]) == 0
