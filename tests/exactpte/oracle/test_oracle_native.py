"""No false alarm on a chain peer's native output: PyDTMC's real outputs (stored in tests/data/pydtmc, made by
``make_pydtmc_outputs.py`` in an environment of their own) agree where they are right; the native-name
table is PyDTMC's real API; causes are named only when their test holds."""

import json

import numpy as np
import pytest
from paths import DATA

import exactpte
from exactpte.io import from_dict
from exactpte.model.to_float import float_sparse_matrix
from exactpte.oracle import compare
from exactpte.oracle.peers import NATIVE_NAMES

PYDTMC = json.loads((DATA / "pydtmc" / "pydtmc_outputs.json").read_text())


def _subsets(out):
    """The whole output, and each key beside ``states`` (with what it needs: ``targets``, ``communicating_classes``)."""
    yield dict(out)
    for key in out:
        if key in ("states", "targets"):
            continue
        cand = {"states": out["states"], key: out[key]}
        if key in ("hitting_times", "mean_first_passage_times_to"):
            cand["targets"] = out["targets"]
        if key == "periods":
            cand["communicating_classes"] = out["communicating_classes"]
        yield cand






def test_pydtmc_real_outputs_agree_where_they_are_right():
    judged, refused = 0, 0
    wrong_periods = []
    for k, record in enumerate(PYDTMC["records"]):
        chain = from_dict(record["chain"])
        for cand in _subsets(record["output"]):
            try:
                report = compare(cand, chain)
            except exactpte.CandidateError as e:  # nothing left to judge: every value PyDTMC's 'not applicable'
                assert "none of the compared quantities" in str(e) and "not claimed" in str(e)
                refused += 1
                continue
            judged += 1
            for f in report.findings:
                if not f.ok:
                    assert f.key == "periods", (k, cand.keys(), f)
                    wrong_periods.append((k, f.detail))
    assert judged > 700 and refused < judged
    # PyDTMC's one real defect here: a transient class of period d > 1 gets period 1 (checked by a route of its own)
    assert wrong_periods
    for k, detail in wrong_periods:
        chain = from_dict(PYDTMC["records"][k]["chain"])
        smallest = int(detail.split("smallest state ")[1].split(":")[0])
        expected = int(detail.split("expected period ")[1].split(",")[0])
        scc = next(c for c in chain.structure.transient_sccs if min(c) == smallest)
        assert _cycle_gcd(chain, sorted(scc)) == expected > 1 and detail.endswith("got 1")


def _cycle_gcd(chain, members):
    """The period of a strongly connected set by BFS levels inside it (the textbook definition)."""
    import math

    inside = set(members)
    level = {members[0]: 0}
    queue = [members[0]]
    g = 0
    while queue:
        s = queue.pop(0)
        for t, _ in chain.row(s):
            if t not in inside:
                continue
            if t in level:
                g = math.gcd(g, level[s] + 1 - level[t])
            else:
                level[t] = level[s] + 1
                queue.append(t)
    return g


def test_states_beside_an_empty_list_or_pi_alone_are_no_labels():
    record = PYDTMC["records"][0]
    chain = from_dict(record["chain"])
    out = record["output"]
    for cand in ({"states": out["states"], "absorbing_states": []}, {"states": out["states"], "pi": out["pi"]}):
        report = compare(cand, chain)
        assert report.ok and all(f.key != "labels" for f in report.findings)
        assert any("used to map state names only" in r for r in report.readings)
    labelled = exactpte.MarkovRewardProcess(chain.dense(), chain.r, labels=[str(s + 1) for s in range(chain.n)])
    assert compare({"states": out["states"], "pi": out["pi"]}, labelled).ok  # with labels: judged, and equal
    other = exactpte.MarkovRewardProcess(chain.dense(), chain.r, labels=[f"s{s}" for s in range(chain.n)])
    assert not compare({"states": out["states"], "pi": out["pi"]}, other).ok


def test_not_applicable_values_are_not_claimed():
    chain = exactpte.MarkovRewardProcess([[0, "1/2", "1/2", 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], [0] * 4)
    pi = [[0, 0.5, 0.5, 0], [0, 0, 0, 1]]
    report = compare({"pi": pi, "cyclic_classes": [], "fundamental_matrix": None, "absorption_probabilities": None}, chain)
    assert report.ok and [f.key for f in report.findings] == ["stationary"]
    assert sum("not claimed" in r for r in report.readings) == 3
    assert not compare({"cyclic_classes": [], "pi": pi}, exactpte.example("periodic")).ok  # irreducible: [] is wrong


def test_pydtmc_names_in_pydtmc_meaning():
    chain = exactpte.MarkovRewardProcess([["1/2", "1/2", 0], [0, 1, 0], [0, 0, 1]], [0] * 3)
    report = compare({"hitting_times": [2.0, 0.0, float("inf")], "targets": [1]}, chain)
    assert report.ok and report.findings[0].key == "first_passage"
    square = exactpte.MarkovRewardProcess([[1, 0, 0, 0], ["5/6", 0, "1/6", 0], [0, 0, "2/5", "3/5"], [0, 0, 0, 1]], [0] * 4)
    # PyDTMC's absorption_probabilities(): one row per absorbing state, here square (2 x 2): read transposed
    assert compare({"absorption_probabilities": [[5 / 6, 0.0], [1 / 6, 1.0]]}, square).ok
    pi = [[1.0, 0, 0], [0, 1.0, 0]]
    assert compare({"pi": pi, "stationary_distributions": pi, "steady_states": pi}, exactpte.MarkovRewardProcess(
        [[1, 0, 0], [0, 1, 0], ["1/2", "1/2", 0]], [0] * 3)).ok
    with pytest.raises(exactpte.CandidateError, match="given twice, with different values"):
        compare({"pi": pi, "stationary_distributions": pi[::-1][:1]}, chain)
    with pytest.raises(exactpte.CandidateError, match=r"^fundamental_matrix \(read as fundamental"):
        compare({"fundamental_matrix": "x"}, chain)


def test_the_native_table_is_pydtmcs_real_api():
    api = set(PYDTMC["api"])
    for entry in NATIVE_NAMES:
        if entry.peers == "PyDTMC":
            assert entry.name in api, entry.name
    assert "mfpt" not in api and not any(e.name == "mfpt" for e in NATIVE_NAMES)


@pytest.mark.extra("peers")
def test_the_native_table_is_the_other_peers_real_api():
    qe = pytest.importorskip("quantecon", reason="quantecon (the peers extra) is not installed")
    mdptoolbox = pytest.importorskip("mdptoolbox.mdp", reason="pymdptoolbox (the peers extra) is not installed")
    dmc = pytest.importorskip("discreteMarkovChain", reason="discreteMarkovChain (the peers extra) is not installed")
    mc = qe.MarkovChain(np.array([[0.5, 0.5], [0.5, 0.5]]))
    rvi = mdptoolbox.RelativeValueIteration(np.array([[[0.5, 0.5], [0.5, 0.5]]]), np.array([[1.0], [0.0]]))
    rvi.run()
    pi = dmc.markovChain(np.array([[0.5, 0.5], [0.5, 0.5]]))
    pi.computePi("linear")
    for entry in NATIVE_NAMES:
        if entry.peers == "QuantEcon":
            assert hasattr(mc, entry.name), entry.name
        elif entry.peers.startswith("pymdptoolbox"):
            assert hasattr(rvi, entry.name), entry.name
        elif entry.peers == "discreteMarkovChain":
            assert hasattr(pi, entry.name), entry.name


def test_a_power_of_a_periodic_chain_is_named_periodic_not_transient_mass():
    chain = exactpte.MarkovRewardProcess([["1/2", "1/2", 0], [0, 0, 1], [0, 1, 0]], [0, 1, 0])
    P = float_sparse_matrix(chain).toarray()
    x = np.array([1.0, 0, 0]) @ np.linalg.matrix_power(P, 1000)  # 9e-302 left on the transient state
    f = compare({"stationary": x.tolist()}, chain).findings[0]
    assert not f.ok and f.diagnosis.startswith("periodic: x P^2 = x but x P != x") and "transient" not in f.diagnosis
    leaky = np.array([0.2, 0.4, 0.4])  # real mass left on the transient state: named as such
    assert "mass 0.2 left on transient states" in compare({"stationary": leaky.tolist()}, chain).findings[0].diagnosis


def test_a_stopping_tolerance_is_not_a_negative_cycle():
    chain = exactpte.MarkovRewardProcess([[0, "1/2", "1/2"], [1, 0, 0], [0, 0, 1]], [-1, -1, 0])  # exact (-3, -4, 0)
    f = compare({'R{"r"}=? [ C ]': [-3.000002, -4.000002, 0.0]}, chain).findings[0]
    assert not f.ok and "negative rewards" not in f.diagnosis and "stopping precision" in f.diagnosis
    assert "expected -4, got -4.000002" in f.diagnosis
    f = compare({'R{"r"}=? [ C ]': [0.0, 0.0, 0.0]}, chain).findings[0]
    assert f.diagnosis.startswith("negative rewards on a transient cycle") and "expected -4, got 0" in f.diagnosis


def test_zero_where_no_positive_reward_is_reachable_names_the_preprocessing():
    acyclic = exactpte.MarkovRewardProcess([[0, 1, 0], [0, 0, 1], [0, 0, 1]], [-1, -2, 0])  # exact (-3, -2, 0), no cycle
    f = compare({'R{"r"}=? [ C ]': [0.0, 0.0, 0.0]}, acyclic).findings[0]
    assert "assumes non-negative rewards" in f.diagnosis and "negative rewards on a transient cycle" not in f.diagnosis
    mixed = exactpte.MarkovRewardProcess([[0, 1, 0], [0, 0, 1], [0, 0, 1]], [-1, 2, 0])  # (1, 2, 0): no such cause
    assert "non-negative" not in compare({'R{"r"}=? [ C ]': [0.0, 0.0, 0.0]}, mixed).findings[0].diagnosis


def test_power_iteration_value_on_an_aperiodic_chain_does_not_say_periodic():
    chain = exactpte.MarkovRewardProcess([["1/2", "1/2", 0], ["1/5", "3/10", "1/2"], ["3/5", 0, "2/5"]], [1, 0, 3])
    P = float_sparse_matrix(chain).toarray()
    r = np.array([1.0, 0, 3.0])
    k3 = np.linalg.matrix_power(P, 3) @ r
    f = compare({"rho": k3.tolist()}, chain).findings[0]
    assert not f.ok and "periodic" not in f.diagnosis and "unconverged power iteration" in f.diagnosis


def test_read_lines_say_what_the_judgement_does():
    chain = exactpte.MarkovRewardProcess([[1, 0, 0], [0, 1, 0], ["1/2", "1/2", 0]], [0] * 3)
    rows = compare({"stationary_distributions": [[1.0, 0, 0], [0, 1.0, 0]]}, chain)
    assert rows.ok and "each class exactly once" in rows.readings[0]
    one = compare({"pi": [0.5, 0.5, 0.0]}, chain)
    assert one.ok and "any mixture" in one.readings[0]
