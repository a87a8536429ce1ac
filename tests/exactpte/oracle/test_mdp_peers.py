"""The MDP judge on real solvers' native outputs (examples/judge_mdp_solvers.py): pymdptoolbox, mdptoolbox-hiive
and QuantEcon, every verdict and the cause it names asserted (the peers extra: marked, so CI's extras stage
fails rather than skips them)."""

import runpy

import pytest
from paths import EXAMPLES

pytestmark = pytest.mark.extra("peers")

STUDY = runpy.run_path(str(EXAMPLES / "judge_mdp_solvers.py"))


def _results(peer):
    runs = dict(STUDY["studies"]())[peer]
    return {(solver.split(" ", 1)[1], name): report for solver, name, report in STUDY["judged"](runs())}


def _cause(report, key):
    return next(f for f in report.findings if f.key == key).diagnosis


def test_pymdptoolbox():
    pytest.importorskip("mdptoolbox", reason="pymdptoolbox (the peers extra) is not installed")
    r = _results("pymdptoolbox")
    assert "unichain assumption" in _cause(r["RelativeValueIteration", "multichain"], "gain")
    for name in ("2-cycle", "periodic"):
        assert _cause(r["RelativeValueIteration", name], "gain").startswith("periodic:")
    near = _cause(r["RelativeValueIteration", "near tie"], "policy")
    assert "near tie" in near and "1/1000" in near
    for name in STUDY["MDPS"]:
        assert r["PolicyIteration", name].ok
        vi = r["ValueIteration", name]
        assert not vi.ok and "cut short by a stopping rule" in _cause(vi, "value")
    assert r["RelativeValueIteration", "loop trap"].ok


def test_mdptoolbox_hiive():
    pytest.importorskip("hiive", reason="mdptoolbox-hiive (the peers extra) is not installed")
    r = _results("mdptoolbox-hiive")
    for name in STUDY["MDPS"]:
        assert "has no attribute 'gamma'" in r["RelativeValueIteration", name]  # its RVI crashes on every input
        assert r["PolicyIteration", name].ok


def test_quantecon():
    pytest.importorskip("quantecon", reason="quantecon (the peers extra) is not installed")
    r = _results("QuantEcon")
    for name in STUDY["MDPS"]:
        assert r["policy_iteration (beta=0.9)", name].ok
    stand_in = _cause(r["policy_iteration (beta=0.999999)", "stand-in"], "policy")
    assert "stand-in for the average reward" in stand_in and "999999/1000000" in stand_in
    silent = _cause(r["value_iteration (beta=0.999999)", "near tie"], "policy")
    assert "near tie" in silent and "silent max_iter" in silent


def test_storm_exact_long_run_average_and_scheduler():
    pytest.importorskip("stormpy", reason="stormpy (the peers extra) is not installed")
    runs = dict(STUDY["studies"]())["Storm"]
    results = list(STUDY["judged"](runs()))
    assert len(results) == len(STUDY["MDPS"])
    for solver, name, report in results:
        assert report.ok, (name, report)  # exact values, and its scheduler when it gives one: optimal
        assert solver.endswith("+ scheduler") == any(f.key == "policy" for f in report.findings)
