"""exactpte as an oracle: planted error classes are caught, gauge shifts are recognised."""

import json
import runpy

from paths import EXAMPLES

import numpy as np
import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.model.to_float import float_matrix, to_floats
from exactpte.testing import assert_bias_close, assert_decomposition_close, assert_gain_close, compare

EXAMPLES_DIR = EXAMPLES


f = to_floats


@pytest.fixture(scope="module")
def dec():
    return exactpte.decompose(exactpte.example("branching"))


def good(dec):
    return {
        "classes": [list(c) for c in dec.classes], "periods": list(dec.periods),
        "cyclic_classes": [[list(ck) for ck in cyc] for cyc in dec.cyclic_classes],
        "g_star": f(dec.g_star), "v_star": f(dec.v_star), "rho": f(dec.rho), "h": f(dec.h), "psi": f(dec.psi),
        "theta": f(dec.theta), "basis": [f(row) for row in dec.basis],
    }


def test_exact_answer_passes(dec):
    assert assert_decomposition_close(good(dec), dec, atol=1e-12).ok


@pytest.mark.parametrize(
    "plant, key, status",
    [
        (lambda c: c.update(classes=[[0, 1, 2, 3, 4]], periods=[6]), "classes", "structure mismatch"),
        (lambda c: c.update(periods=[1, 3]), "periods", "structure mismatch"),
        (lambda c: c.update(cyclic_classes=[[[0, 1]], [[2], [3], [4]]]), "cyclic_classes", "structure mismatch"),
        (lambda c: c.update(h=c["h"] + np.array([0, 0, 0, 0, 0, 0.5, 0])), "h", "mismatch"),  # not in ker(I-P)
        (lambda c: c.update(rho=c["rho"] + 1e-6), "rho", "mismatch"),
        (lambda c: c.update(v_star=c["h"]), "v_star", "mismatch"),
        (lambda c: c.update(basis=[row[::-1] for row in c["basis"]]), "basis", "mismatch"),
    ],
)
def test_planted_errors_are_caught(dec, plant, key, status):
    cand = good(dec)
    plant(cand)
    report = compare(cand, dec, atol=1e-9)
    finding = next(x for x in report.findings if x.key == key)
    assert finding.status == status and not report.ok
    with pytest.raises(AssertionError, match=key):
        assert_decomposition_close(cand, dec, atol=1e-9)


def test_float_rho_off_by_1e6_is_caught_with_atol_1e9_and_worst_states_named(dec):
    rho = f(dec.rho)
    rho[6] += 1e-6
    with pytest.raises(AssertionError, match=r"rho: mismatch .*worst states \[6\].*expected 0.833333, got 0.833334"):
        assert_gain_close(rho, dec, atol=1e-9)
    assert_gain_close(rho, dec, atol=1e-5)


def test_gauge_shifted_answers_are_recognised(dec):
    # v shifted by an element of K(P) (here 2 * b_(1,0) + b_(0,1)), with the matching g
    chain = dec.chain
    shift = 2 * f(dec.b(1, 0)) + f(dec.b(0, 1))
    v = f(dec.v_star) + shift
    P = float_matrix(chain)
    g = f(chain.r) - (np.eye(chain.n) - P) @ v
    report = compare({"v_star": v, "g_star": g}, dec, atol=1e-9)
    assert {x.key: x.status for x in report.findings} == {"v_star": "same up to gauge", "g_star": "same up to gauge"}
    assert "anchors" in next(x.detail for x in report.findings if x.key == "v_star") and not report.ok
    assert compare({"v_star": v, "g_star": g}, dec, atol=1e-9, up_to_gauge=True).ok
    # h shifted by an invariant vector (absorption into class 1)
    h = f(dec.h) + 3 * np.array([row[1] for row in f2(dec.absorption)])
    with pytest.raises(AssertionError, match="same up to gauge.*P_inf h = 0"):
        assert_bias_close(h, dec, atol=1e-9)
    assert_bias_close(h, dec, atol=1e-9, up_to_gauge=True)


def f2(rows):
    return [f(row) for row in rows]


def test_candidate_with_no_known_key(dec):
    with pytest.raises(exactpte.CandidateError, match="none of the compared quantities"):
        compare({}, dec)
    # an unknown key is never silently ignored: listed as not judged (issue 33), refused with strict=True
    report = compare({"foo": [1], "rho": f(dec.rho)}, dec)
    assert report.ok and report.not_judged == ("foo",) and "not judged (keys the oracle does not know): foo" in report.table()
    # a misspelt quantity is named with the unclaimed key it likely means; the report still lists it as not judged
    report = compare({"rho": f(dec.rho), "hh": f(dec.h), "time": 3}, dec)
    assert report.not_judged == ("hh", "time")
    assert "not judged (keys the oracle does not know): hh (did you mean h?), time\n" in report.table()
    with pytest.raises(exactpte.CandidateError, match="keys the oracle does not know: 'foo'"):
        compare({"foo": [1], "rho": f(dec.rho)}, dec, strict=True)
    with pytest.raises(exactpte.CandidateError, match="none of the compared quantities .* \\(not judged: foo\\)"):
        compare({"foo": [1]}, dec)


@pytest.fixture
def chain_path(tmp_path, dec):
    path = tmp_path / "c.json"
    exactpte.dump(dec.chain, path)
    return path


def test_check_cli_accepts_a_right_json_candidate(tmp_path, capsys, dec, chain_path):
    """exactpte check on a JSON candidate with the right rho (floats) and h (exact strings) exits 0: agrees."""
    cand = {"rho": [float(x) for x in f(dec.rho)], "h": [str(x) for x in dec.h]}
    jp = tmp_path / "cand.json"
    jp.write_text(json.dumps(cand))
    assert main(["check", str(jp), "--chain", str(chain_path)]) == 0
    assert "agrees" in capsys.readouterr().out


def test_check_cli_reports_a_shifted_bias_in_a_csv_candidate(tmp_path, capsys, dec, chain_path):
    """exactpte check on a CSV candidate (rows in any order) whose h is shifted by 1/2 exits 1 and
    reports the mismatch (or the gauge shift)."""
    cp = tmp_path / "cand.csv"
    rows = ["state,rho,h"] + [f"{s},{a},{b}" for s, (a, b) in reversed(list(enumerate(zip(f(dec.rho), f(dec.h) + 0.5))))]
    cp.write_text("\n".join(rows))
    assert main(["check", str(cp), "--chain", str(chain_path)]) == 1
    out = capsys.readouterr().out
    assert "mismatch" in out or "same up to gauge" in out


def test_check_cli_judges_an_npz_candidate_at_the_given_tolerance(tmp_path, dec, chain_path):
    """exactpte check on an .npz candidate off by 1e-6: refused at --atol 1e-9, accepted at 1e-5."""
    npz = tmp_path / "cand.npz"
    np.savez(npz, rho=f(dec.rho) + 1e-6)
    assert main(["check", str(npz), "--chain", str(chain_path), "--atol", "1e-9"]) == 1
    assert main(["check", str(npz), "--chain", str(chain_path), "--atol", "1e-5"]) == 0


def test_check_cli_exits_2_on_an_unreadable_candidate(tmp_path, chain_path):
    """exactpte check on a candidate file that is not valid JSON exits with status 2 (a usage error)."""
    bad = tmp_path / "bad.json"
    bad.write_text("{]")
    assert main(["check", str(bad), "--chain", str(chain_path)]) == 2


def test_worked_oracle_example_catches_the_periodic_failure(capsys):
    mod = runpy.run_path(str(EXAMPLES_DIR / "oracle_example.py"))
    assert mod["main"]() == 0  # agrees on the aperiodic chain, caught on the periodic one
    out = capsys.readouterr().out
    assert "CAUGHT" in out and "AGREES" in out


def _power_limit_bias(chain, T=1000):
    """A float bias computed with the power limit P^T in place of the Cesaro limit (a common mistake)."""
    P, r = float_matrix(chain), f(chain.r)
    PT = np.linalg.matrix_power(P, T)
    h, x = np.zeros(chain.n), r.copy()
    for _ in range(T):
        h += x - PT @ r
        x = P @ x
    return h, PT


@pytest.mark.parametrize("name", ["cycle-24", "branching"])
def test_power_limit_bias_is_diagnosed_as_a_persistent_periodic_mode(name, capsys):
    chain = exactpte.example(name)
    h, PT = _power_limit_bias(chain)
    report = compare({"h": h, "P_inf": PT}, chain, atol=1e-6)
    fh, fp = report.findings
    assert fh.status == "mismatch" and fh.diagnosis.startswith("a persistent periodic mode")
    assert fp.status == "mismatch" and fp.diagnosis.startswith("a power limit P^t along the period")
    assert fp.detail.startswith("row ")  # a P_inf mismatch names row and column
    with pytest.raises(AssertionError, match="likely: a persistent periodic mode"):
        assert_bias_close(h, chain, atol=1e-6)


def test_gauge_shift_and_transient_only_errors_are_diagnosed(dec):
    P, r = float_matrix(dec.chain), f(dec.chain.r)
    v = f(dec.v_star) + 2 * f([row[0] for row in dec.basis])
    g = r - (np.eye(dec.n) - P) @ v
    report = compare({"v_star": v, "g_star": g}, dec)
    assert all(x.diagnosis.startswith("a gauge shift inside K(P)") for x in report.findings)
    bad = f(dec.v_star).copy()
    bad[list(dec.transient)] += 0.3
    (fv,) = compare({"v_star": bad}, dec).findings
    assert fv.diagnosis.startswith("an error confined to transient states")
    (fr,) = compare({"rho": -f(dec.rho)}, dec).findings
    assert fr.diagnosis.startswith("the sign is flipped")
    (fs,) = compare({"rho": 3 * f(dec.rho)}, dec).findings
    assert fs.diagnosis.startswith("a scale error: rho = 3")


def test_diagnoses_reach_the_cli_and_its_json(tmp_path, capsys):
    chain = exactpte.example("cycle-24")
    h, _ = _power_limit_bias(chain)
    cpath, jpath = tmp_path / "c.json", tmp_path / "cand.json"
    exactpte.dump(chain, cpath)
    jpath.write_text(json.dumps({"h": h.tolist()}))
    assert main(["check", str(jpath), "--chain", str(cpath), "--atol", "1e-6"]) == 1
    assert "likely: a persistent periodic mode" in capsys.readouterr().out
    assert main(["check", str(jpath), "--chain", str(cpath), "--atol", "1e-6", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["agrees"] is False and data["findings"][0]["diagnosis"].startswith("a persistent periodic mode")


# -- issue #23: gain diagnoses, gauge split, absorbing-chain keys, peers' conventions ----------------------
def _multichain():
    """Transient 0 splits into the absorbing 1 (r = 1) and the 2-cycle {2, 3} (r = (1, 0)): gains 1 and 1/2."""
    return exactpte.MarkovRewardProcess([[0, "1/2", "1/2", 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], [0, 1, 1, 0])


def test_scalar_gain_on_a_multichain_is_named_a_unichain_assumption():
    chain = _multichain()
    (fr,) = compare({"rho": 0.75}, chain).findings
    assert fr.status == "mismatch" and "a scalar gain" in fr.detail
    assert fr.diagnosis.startswith("one gain for all classes: a unichain assumption")
    assert "scale" not in fr.diagnosis and "normalisation" not in fr.diagnosis
    assert compare({"gain": 0.5}, exactpte.example("periodic"), atol=1e-12).ok  # a scalar gain on a unichain


@pytest.mark.parametrize("value", [0.0, 1.0, 0.501, -7e-14, 0.5 + 1e-6])
def test_a_constant_gain_is_never_a_scale_error(value):
    for chain in (exactpte.example("periodic"), _multichain(), exactpte.example("branching")):
        report = compare({"rho": [value] * chain.n}, chain, atol=1e-9)
        assert all("scale" not in x.diagnosis and "normalisation" not in x.diagnosis for x in report.findings)
        assert not report.ok and report.findings[0].diagnosis


def test_power_iteration_values_on_a_periodic_class_are_named():
    chain = exactpte.example("periodic")  # exact gain 1/2 on both states
    (f0,) = compare({"rho": 0.0}, chain).findings
    assert "min over states of P^k r" in f0.diagnosis and "power-iteration value" in f0.diagnosis
    (fk,) = compare({"rho": [0.0, 1.0]}, chain).findings
    assert fk.diagnosis.startswith("the value of P^k r after k = 1 steps")


def test_bias_error_is_split_into_gauge_part_and_residual():
    chain = _multichain()
    dec = exactpte.decompose(chain)
    h, rho = f(dec.h), f(dec.rho)
    k_rho = h + 1000 * rho  # relative value iteration on a multichain: V grows like k rho
    (fg,) = compare({"h": k_rho}, dec, up_to_gauge=True).findings
    assert fg.status == "same up to gauge" and fg.gauge_part > 900 and fg.residual < 1e-9
    assert "relative value iteration diverging" in fg.diagnosis
    off = h + 26 * rho
    off[0] += 0.02  # plus an unconverged residual on the transient state
    (fo,) = compare({"h": off}, dec).findings
    assert fo.status == "mismatch" and abs(fo.residual - 0.02) < 1e-9 and fo.gauge_part == pytest.approx(26, abs=0.1)
    assert "residual of 0.02" in fo.detail and "the residual is the real error" in fo.diagnosis
    assert compare({"h": off}, dec).to_dict()["findings"][0]["residual"] == pytest.approx(0.02)


def test_absorbing_chain_keys_right_and_wrong():
    from exactpte.oracle import references

    chain = exactpte.example("branching")
    dec = exactpte.decompose(chain)
    A = np.array([f(row) for row in references.absorption(chain)])
    assert np.array_equal(A, np.array([f(row) for row in dec.absorption]))  # two routes agree
    N = np.array([f(row) for row in references.fundamental(chain)])
    fp = [np.inf if x is None else float(x) for x in references.first_passage(chain, [2, 3, 4])]
    good_cand = {"absorption": A, "fundamental": N, "first_passage": fp, "targets": [2, 3, 4],
                 "total_reward": f(references.total_reward(chain))}
    assert compare(good_cand, dec, atol=1e-12).ok
    bad_A, bad_N = A.copy(), N.copy()
    bad_A[5] = bad_A[5][::-1]
    bad_N[0, 1] += 0.1
    report = compare({"absorption": bad_A, "fundamental": bad_N}, dec)
    fa, fn = report.findings
    assert fa.status == fn.status == "mismatch" and fa.worst_states == [5] and fn.detail.startswith("row 0, column 1")
    (fi,) = compare({"fundamental": N - np.eye(len(N))}, dec).findings
    assert fi.diagnosis.startswith("N - I")
    (fc,) = compare({"absorption": A[:, ::-1]}, dec).findings
    assert fc.diagnosis.startswith("the classes in another order")
    (ff,) = compare({"first_passage": [0.0 if np.isinf(x) else x for x in fp], "targets": [2, 3, 4]}, dec).findings
    assert ff.status == "mismatch" and "missed with positive probability" in ff.diagnosis
    with pytest.raises(exactpte.CandidateError, match="needs targets"):
        compare({"first_passage": fp}, dec)


def test_full_length_stationary_vectors_are_judged_as_mixtures():
    chain = exactpte.example("branching")  # classes {0, 1} (period 2) and {2, 3, 4} (period 3)
    pi0, pi1 = np.array([0.5, 0.5, 0, 0, 0, 0, 0]), np.array([0, 0, 1 / 3, 1 / 3, 1 / 3, 0, 0])
    for x in (pi0, pi1, 0.3 * pi0 + 0.7 * pi1):
        (fs,) = compare({"stationary": x}, chain, atol=1e-12).findings
        assert fs.ok and "mixture" in fs.detail
    assert compare({"stationary_distributions": np.vstack([pi0, pi1])}, chain, atol=1e-12).ok  # QuantEcon's shape
    for bad in (pi0 * 1.1, pi0 - 0.2 * pi1, pi0 + [0, 0, 0, 0, 0, 0.1, -0.1], [0.5, 0.5, 0.2, 0.4, 0.4, 0, 0]):
        (fs,) = compare({"stationary": list(bad)}, chain).findings
        assert fs.status == "mismatch" and "not a stationary distribution of the chain" in fs.detail


def test_the_nearest_floats_of_a_stationary_vector_pass_at_atol_zero():
    """The oracle's own float sums (class weights, the total) round: 1/3 + 4/9 + 2/9 is 1 + 2^-52 in
    floats.  That rounding is not the candidate's error, so the nearest floats of the answer pass at
    atol = 0, in both shapes; a vector off by 1e-9 at one state still fails."""
    chain = exactpte.MarkovRewardProcess([["3/5", "2/5", 0], [0, "1/2", "1/2"], ["3/5", "2/5", 0]], [0, 0, 0])
    assert compare({"stationary": [1 / 3, 4 / 9, 2 / 9]}, chain, atol=0).ok
    assert compare({"stationary": [[1 / 3, 4 / 9, 2 / 9]]}, chain, atol=0).ok
    assert compare({"stationary": ["1/3", "4/9", "2/9"]}, chain).ok  # exact text, at a tolerance
    assert not compare({"stationary": [1 / 3, 4 / 9 + 1e-9, 2 / 9]}, chain, atol=0).ok
    (off,) = compare({"stationary": [1 / 3 + 1e-7, 4 / 9, 2 / 9]}, chain).findings
    assert "sums to 1 + 1e-07, not 1" in off.detail  # it said 'sums to 1, not 1'


def test_exact_candidates_the_float_oracle_cannot_judge_are_refused():
    """Exact text was rounded to floats: at atol = rtol = 0 a rho off by 1e-20 agreed 'with error 0', a
    value past the float range was 'not finite' though exactly right, and two tiny values (one twice
    the other) agreed by both underflowing to 0.  Each is now refused, pointing to the exact checker."""
    chain = exactpte.example("branching")
    off = ["50000000000000000001/100000000000000000000", "1/2", 1, 1, 1, "2/3", "5/6"]
    with pytest.raises(exactpte.CandidateError, match=r"rho\[0\] = 5000.*proofs-check verify"):
        compare({"rho": off}, chain, atol=0, rtol=0)
    assert compare({"rho": [0.5, 0.5, 1, 1, 1, 2 / 3, 5 / 6]}, chain, atol=0, rtol=0).ok  # floats: their own values
    huge, tiny = "1" + "0" * 400, "1/1" + "0" * 400
    for reward, claimed in ((huge, huge), (tiny, "2/1" + "0" * 400)):  # the exact answer has no float
        with pytest.raises(exactpte.UsageError, match="no float holds"):
            compare({"rho": [claimed]}, exactpte.MarkovRewardProcess([[1]], [reward]))
    with pytest.raises(exactpte.CandidateError, match="does not fit a float"):  # a fraction that underflows
        compare({"rho": [tiny] + off[1:]}, chain)


@pytest.mark.slow
def test_what_floats_denote_is_judged_at_atol_zero():
    """A second review: the shortest text of a float (a CSV cell '0.6666666666666666') is that float, as in
    JSON; labels are no numbers; and the stationary allowance is a few units in the last place of each
    entry: an n-cycle's 1/n off by n eps (which an allowance proportional to n passed) fails."""
    chain = exactpte.example("branching")
    text = ["0.5", "0.5", "1", "1", "1", repr(2 / 3), repr(5 / 6)]
    assert compare({"rho": text}, chain, atol=0, rtol=0).ok
    labelled = exactpte.MarkovRewardProcess([["1/2", "1/2"], ["1/4", "3/4"]], [1, 0], labels=["0.1", "1/3"])
    assert compare({"rho": [1 / 3, 1 / 3], "labels": ["0.1", "1/3"]}, labelled, atol=0, rtol=0).ok
    n = 2000
    cycle = exactpte.MarkovRewardProcess.from_edges(n, [(i, (i + 1) % n, 1) for i in range(n)], [0] * n)
    x = np.full(n, 1 / n)
    b = 1.9 * (n + 1) * np.finfo(float).eps
    x[0::2] += b
    x[1::2] -= b
    assert not compare({"stationary": x}, cycle, atol=0, rtol=0).ok
    assert compare({"stationary": np.full(n, 1 / n)}, cycle, atol=0, rtol=0).ok


def test_peers_structure_conventions():
    chain = exactpte.example("branching")  # transient 5, 6 (trivial SCCs, period 1)
    assert compare({"cyclic_classes": [[1], [0], [3], [2], [4]]}, chain).ok  # flat, any order
    (fc,) = compare({"cyclic_classes": [[[0], [1]], [[2], [4], [3]]]}, chain).findings
    assert fc.ok and "not in cyclic order" in fc.detail
    assert not compare({"cyclic_classes": [[0, 1], [2], [3], [4]]}, chain).ok
    with pytest.raises(exactpte.UsageError, match="communicating_classes"):  # periods alone: which class has which?
        compare({"periods": [1, 3, 2, 1]}, chain)
    report = compare({"communicating_classes": [[2, 3, 4], [0, 1], [6], [5]], "periods": [2, 3, 1, 1]}, chain)
    assert not report.ok and "expected period 3, got 2" in report.findings[1].detail  # swapped periods are found


def test_assert_helpers_hide_their_frames():
    import inspect

    from exactpte.testing import assertions

    for fn in (assertions.assert_decomposition_close, assertions.assert_gain_close, assertions.assert_bias_close):
        assert "__tracebackhide__ = True" in inspect.getsource(fn)


def test_check_cli_on_a_multichain(tmp_path, capsys):
    """The issue's 'done when': scalar rho named unichain, full-length stationary mixture accepted
    or rejected, absorption and fundamental judged, a wrong entry named."""
    chain = _multichain()
    cpath, jpath = tmp_path / "c.json", tmp_path / "cand.json"
    exactpte.dump(chain, cpath)
    jpath.write_text(json.dumps({"rho": 0.75, "stationary": [0, 0.2, 0.4, 0.4],
                                 "absorption": [[0.5, 0.5], [1, 0], [0, 1], [0, 1]], "fundamental": [[1]]}))
    assert main(["check", str(jpath), "--chain", str(cpath)]) == 1
    out = capsys.readouterr().out
    assert "unichain" in out and "scale" not in out and "np.float64" not in out
    status = {line.split()[0]: line.split()[1] for line in out.splitlines()[2:] if len(line.split()) > 1}
    assert status["stationary"] == status["absorption"] == status["fundamental"] == "ok"
    jpath.write_text(json.dumps({"stationary": [0.1, 0.2, 0.4, 0.3], "absorption": [[0.5, 0.5], [1, 0], [0, 1], [0.1, 0.9]]}))
    assert main(["check", str(jpath), "--chain", str(cpath)]) == 1
    out = capsys.readouterr().out
    assert "transient state 0" in out and "row 3, column 0: expected 0, got 0.1" in out and "closed classes only" in out


def test_messages_show_plain_numbers_not_numpy_reprs():
    chain = exactpte.example("periodic")
    with pytest.raises(exactpte.CandidateError) as err:
        compare({"classes": np.array([[0.0, 1.0]])}, chain)
    assert "np.float64" not in str(err.value) and "0.0" in str(err.value)
    with pytest.raises(exactpte.UsageError) as err:
        compare({"rho": [0.5, 0.5]}, chain, atol=np.float64(-1.0))
    assert "np.float64" not in str(err.value)
    report = compare({"rho": np.float64(0.25), "stationary": np.array([0.5, 0.5]), "h": np.zeros(2)}, chain)
    assert "np." not in report.table() and "np." not in str(report.to_dict())


def test_certified_reference_refuses_exact_only_keys_and_takes_a_scalar_gain():
    from exactpte.certified import decompose_certified

    chain = _multichain()
    cert = decompose_certified(chain)
    with pytest.raises(exactpte.CandidateError, match="exact reference only"):
        compare({"absorption": [[0.5, 0.5], [1, 0], [0, 1], [0, 1]]}, cert)
    with pytest.raises(exactpte.CandidateError, match="exact reference only"):
        compare({"stationary": [0, 1, 0, 0]}, cert)
    assert not compare({"rho": 0.75}, cert).ok
    assert compare({"rho": 0.5}, decompose_certified(exactpte.example("periodic"))).ok


def test_the_reference_kind_picks_the_route_and_any_other_reference_is_refused_by_name():
    """A chain or its Decomposition takes the exact route, a CertifiedDecomposition the certified one (a certified
    route refuses exact-only keys: the tell of which route ran); a reference of another kind is a UsageError naming
    the three kinds, whether or not exactpte.certified was imported before."""
    from exactpte.certified import decompose_certified

    chain = _multichain()
    absorption = {"absorption": [[0.5, 0.5], [1, 0], [0, 1], [0, 1]]}
    assert compare(absorption, chain).ok and compare(absorption, exactpte.decompose(chain)).ok
    with pytest.raises(exactpte.CandidateError, match="exact reference only"):
        compare(absorption, decompose_certified(chain))
    for other in ("chain.json", {"rho": [0.5]}, None):
        with pytest.raises(exactpte.UsageError, match="a chain, its Decomposition or its CertifiedDecomposition"):
            compare({"rho": [0.5, 0.5]}, other)


def test_a_value_past_every_double_disagrees_without_a_traceback(tmp_path, capsys):
    """h[0] = 1e400 (JSON string) or a 5,000-digit JSON integer: a literal is the float it denotes, an
    infinity, and disagrees with the finite exact answer, exit 1 (no OverflowError, no Python
    digit-limit message)."""
    chain = exactpte.example("branching")
    chain_file = tmp_path / "chain.json"
    exactpte.dump(chain, str(chain_file))
    good = json.loads(exactpte.decompose(chain).to_json())
    for first in ('"1e400"', "9" * 5000):
        cand_dict = dict(good, h=["PLACEHOLDER"] + good["h"][1:])
        cand = tmp_path / "cand.json"
        cand.write_text(json.dumps(cand_dict).replace('"PLACEHOLDER"', first))
        assert main(["check", str(cand), "--chain", str(chain_file)]) == 1
        out = capsys.readouterr().out
        assert "not finite" in out and out.rstrip().endswith("DISAGREES")


def test_quantities_left_out_are_named_not_claimed(dec):
    """A candidate giving only the classes agrees on them and names everything else as not claimed."""
    report = compare({"classes": [list(c) for c in dec.classes]}, dec)
    assert report.ok and "g_star" in report.not_claimed and "rho" in report.not_claimed
    assert "not claimed (not judged): " in report.table()
    assert report.to_dict()["not_claimed"] == list(report.not_claimed)


def test_a_key_given_twice_is_refused(tmp_path, capsys, dec, chain_path):
    """A JSON candidate with a repeated key (the last value would win unseen) is unusable: exit 2, named."""
    cand = tmp_path / "cand.json"
    cand.write_text('{"rho": [0, 0, 0, 0, 0, 0, 0], "rho": ' + json.dumps([float(x) for x in to_floats(dec.rho)]) + "}")
    assert main(["check", str(cand), "--chain", str(chain_path)]) == 2
    assert "appears twice" in capsys.readouterr().err
