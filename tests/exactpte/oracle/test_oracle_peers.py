"""The case studies of docs/oracle.md, run: the oracle flags real defects of peers, in their own shapes.

Every test needs the ``peers`` extra (marked, so the extras stage of CI fails rather than skips
them); each asserts the finding of our runs (versions in docs/oracle.md) and exactpte's diagnosis.
"""

import runpy

from paths import EXAMPLES

import pytest

pytestmark = pytest.mark.extra("peers")

STUDIES = runpy.run_path(str(EXAMPLES / "oracle_peers.py"))


def _need(module):
    """importorskip for a module of the ``peers`` extra (every test here is marked with it)."""
    return pytest.importorskip(module, reason=f"{module} (the peers extra) is not installed")


def test_pymdptoolbox_rvi_is_caught_with_power_iteration_and_unichain_diagnoses():
    _need("mdptoolbox")
    (_, cycle), (_, lazy), (_, multi) = STUDIES["pymdptoolbox"]()
    assert not cycle.ok and "power-iteration value" in cycle.findings[0].diagnosis
    assert not lazy.ok and "unconverged power (value) iteration" in lazy.findings[0].diagnosis
    rho, h = multi.findings
    assert rho.diagnosis.startswith("one gain for all classes: a unichain assumption")
    assert h.status == "same up to gauge" and "relative value iteration diverging" in h.diagnosis
    for report in (cycle, lazy, multi):
        assert all("scale" not in f.diagnosis for f in report.findings)


def test_quantecon_stored_zeros_are_caught():
    _need("quantecon")
    ((_, report),) = STUDIES["quantecon"]()
    classes = next(f for f in report.findings if f.key == "classes")
    assert classes.status == "structure mismatch" and "[[0, 1], [2, 3]]" in classes.detail


def test_discrete_markov_chain_solvers_are_caught():
    _need("discreteMarkovChain")
    found = {what.split(":")[0].split(" on ")[0]: report for what, report in STUDIES["discrete_markov_chain"]()}
    assert "nearly invariant" in found["power"].findings[0].diagnosis
    for method in ("eigen", "linear"):
        report = found[method]
        if report is not None and not report.ok:  # eigen's answer depends on its random start
            assert "closed classes" in report.findings[0].diagnosis
