"""Conjectures of your own: a true one holds, a false one gets a shrunk counterexample, sweeps report them."""

import json

import pytest

import exactpte
import proofs_check
from proofs_check.cli import main
from proofs_check.runs.shrink import shrink

CONJECTURE_FILE = '''
import proofs_check

@proofs_check.conjecture("my:rho_within_rewards")
def rho_within_rewards(chain, dec):
    """min r <= rho <= max r"""
    return all(min(chain.r) <= x <= max(chain.r) for x in dec.rho)

@proofs_check.conjecture("my:h_is_v_star")
def h_is_v_star(chain, dec):
    """the classical bias equals the gauge-fixed transient part (false)"""
    return dec.h == dec.v_star
'''


def test_true_conjecture_holds_everywhere():
    @proofs_check.conjecture("test:g_star_mean_is_rho")
    def mean(chain, dec):  # P_inf g* = rho (cor:recover_invariant_gain), stated as a user would
        return dec.P_inf_apply(dec.g_star) == dec.rho

    res = proofs_check.run_conjecture("test:g_star_mean_is_rho", chains=60, seed=1, max_states=8)
    assert (res.checked, res.held, res.failed, res.counterexamples) == (60, 60, 0, [])


def test_false_conjecture_gets_a_counterexample_of_at_most_three_states():
    @proofs_check.conjecture("test:h_is_v_star")
    def h_is_v(chain, dec):
        return dec.h == dec.v_star

    res = proofs_check.run_conjecture("test:h_is_v_star", chains=80, seed=2, max_states=10)
    assert res.failed > 0 and res.held + res.failed == 80
    small = res.counterexamples[0]
    assert small.n <= 3
    dec = exactpte.decompose(small)
    assert dec.h != dec.v_star  # still a counterexample
    assert [c.n for c in res.counterexamples] == sorted(c.n for c in res.counterexamples)


def test_conjecture_that_raises_is_a_finding_not_a_crash():
    res = proofs_check.run_conjecture(lambda chain, dec: 1 / 0, chains=3, max_states=5)
    assert res.failed == 3 and "ZeroDivisionError" in res.details[0]


@pytest.fixture(scope="module")
def conjecture_sweep(tmp_path_factory):
    """One CLI sweep of CONJECTURE_FILE over 60 chains (shared by the tests below: it is the costly
    part): the exit code, the JSON report and what it printed."""
    import contextlib
    import io

    tmp = tmp_path_factory.mktemp("sweep")
    path = tmp / "my_conjectures.py"
    path.write_text(CONJECTURE_FILE)
    report, fails = tmp / "rep.json", tmp / "fails"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["sweep", "--checks", str(path), "--chains", "60", "--seed", "4", "--max-states", "9", "--json",
                     str(report), "--failures", str(fails), "--quiet", "--only", "my:rho_within_rewards,my:h_is_v_star"])
    return code, json.loads(report.read_text()), printed.getvalue()


def test_sweep_exits_1_when_a_conjecture_fails(conjecture_sweep):
    """proofs-check sweep exits with status 1 when a conjecture of the file fails on some chain."""
    code, _, _ = conjecture_sweep
    assert code == 1


def test_sweep_reports_a_true_conjecture_held_on_every_chain(conjecture_sweep):
    """The report counts a true conjecture checked and held on all 60 chains, with no counterexample."""
    true = conjecture_sweep[1]["checks"]["my:rho_within_rewards"]
    assert true["checked"] == true["held"] == 60 and true["failed"] == 0 and true["counterexamples"] == []


def test_sweep_writes_shrunk_counterexamples_of_a_false_conjecture(conjecture_sweep):
    """A false conjecture's counterexamples are chain files exactpte reads, smallest first, the
    first of at most 3 states; its entry is timed."""
    false = conjecture_sweep[1]["checks"]["my:h_is_v_star"]
    assert false["failed"] > 0 and false["checked"] == 60 and "seconds" in false
    first = exactpte.load(false["counterexamples"][0])
    assert first.n <= 3
    sizes = [exactpte.load(p).n for p in false["counterexamples"]]
    assert sizes == sorted(sizes)


def test_sweep_reports_and_prints_its_coverage(conjecture_sweep):
    """The report has coverage histograms of states, classes, periods, transient states and the largest
    transient strongly connected block over all 60 chains, and the sweep prints them."""
    _, data, printed = conjecture_sweep
    assert set(data["coverage"]) == {"states", "classes", "periods", "transient", "transient_block"}
    assert sum(data["coverage"]["transient_block"].values()) == 60 and "largest transient SCC" in printed
    assert sum(data["coverage"]["states"].values()) == 60
    assert "coverage:" in printed and "periods (per class)" in printed


def test_built_in_check_failures_are_shrunk_too():
    """A planted bug shrinks to a small chain on which the same check still fails."""
    from proofs_check.checks import run_checks
    from proofs_check.judging.claims import from_decomposition

    def broken_claim(chain):  # a tool that reports the classical bias as v*
        c = from_decomposition(exactpte.decompose(chain))
        return c.replace(v_star=c.h)

    def fails(chain):
        return run_checks(chain, broken_claim(chain), only=["thm:wellposed"])[0].holds is False

    big = exactpte.example("paper-benchmark")
    assert fails(big)
    small = shrink(big, fails)
    assert fails(small) and small.n <= 3


def test_sweeps_give_the_same_report_serially_and_in_workers(tmp_path):
    from proofs_check.runs.sweep import sweep

    a = sweep(24, seed=5, max_states=8, progress=None).to_dict()
    b = sweep(24, seed=5, max_states=8, workers=2, progress=None).to_dict()
    strip = lambda d: {k: {kk: vv for kk, vv in v.items() if kk != "seconds"} for k, v in d["checks"].items()}
    assert strip(a) == strip(b) and a["coverage"] == b["coverage"] and a["failures"] == b["failures"]


@pytest.mark.extra("dask")
def test_a_dask_cluster_sweep_reports_what_a_serial_sweep_reports(tmp_path):
    """Per-chain seeds do not depend on where a chain runs: a local Dask cluster gives the serial report."""
    distributed = pytest.importorskip("distributed", reason="dask's distributed scheduler is not installed (pip install \".[dask]\")")
    from proofs_check.runs.sweep import sweep

    path = tmp_path / "my_conjectures.py"
    path.write_text(CONJECTURE_FILE)
    serial = sweep(16, seed=6, max_states=7, progress=None, conjecture_files=[str(path)])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = sweep(16, seed=6, max_states=7, progress=None, conjecture_files=[str(path)], dask=cluster.scheduler_address)
    strip = lambda r: {k: {kk: vv for kk, vv in v.items() if kk != "seconds"} for k, v in r.to_dict()["checks"].items()}
    assert strip(serial) == strip(on_dask) and serial.to_dict()["coverage"] == on_dask.to_dict()["coverage"]
    assert serial.checks["my:h_is_v_star"]["failed"] > 0
