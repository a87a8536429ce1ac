"""The quotient theorems and the semisimplicity remark scale (issue 31): on herman9 (512 states, PRISM's Herman
ring, ``benchmarks/data/make_scaling_models.py``) ``thm:minimal_quotient`` took 245 s through the characteristic
polynomial of the whole chain; by structure (``P`` restricted to each ``K'``, the support graph's periods) and
block-triangular modular ranks they take seconds.  CPU time, not wall time: the machine may be shared."""

import time

import flint
import pytest

import exactpte
from paths import ROOT
from proofs_check.checks import run_checks
from proofs_check.judging.claims import from_decomposition
from proofs_check.judging.strength import Strength

DATA = ROOT / "benchmarks" / "data"
KEYS = ["thm:minimal_quotient", "thm:quotient_contraction", "rem:peripheral_semisimple", "lem:Pi_identity"]


@pytest.fixture(scope="module")
def herman9():
    chain = exactpte.load(DATA / "herman9.drn.gz")
    return chain, from_decomposition(exactpte.decompose(chain), with_P_inf=False)


def test_quotient_theorems_on_herman9_are_exact_and_fast(herman9):
    chain, claim = herman9
    t0 = time.process_time()
    verdicts = run_checks(chain, claim, only=KEYS)
    cpu = time.process_time() - t0
    assert [v.status for v in verdicts] == ["held"] * len(KEYS), [(v.key, v.detail) for v in verdicts]
    assert all(v.strength is Strength.EXACT for v in verdicts)
    assert cpu < 60, f"{cpu:.0f} s of CPU"


def test_structural_routes_reject_a_claim_that_drops_part_of_K(herman9):
    chain, claim = herman9
    scaled = claim.replace(basis=tuple((row[0] * 2,) for row in claim.basis))
    (v,) = run_checks(chain, scaled, only=["thm:minimal_quotient"])
    assert v.holds is True  # the same span K: the theorem is about the subspace
    shifted = claim.replace(basis=tuple((flint.fmpq(1 + (s == 0)),) for s in range(chain.n)))  # 1 + e_0: not invariant
    for key in ("thm:minimal_quotient", "thm:quotient_contraction"):
        (bad,) = run_checks(chain, shifted, only=[key])
        assert bad.holds is False and "invariant" in bad.detail
