"""`exactpte check` judges what it is given, completely (issue 31): full-length stationary rows cover
each closed class exactly once, anchors are read as whole triples, periods without classes are
refused, and answers in another valid convention (class order, phase rotation, anchors) agree.

The answers in another convention are built independently of the oracle's alignment: exactpte's own
``decompose(chain, anchors=...)`` gives the gauge-dependent quantities at the other anchors, and the
columns are permuted here by hand."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactpte
from exactpte.cli.commands import main
from exactpte.oracle import compare
from exactpte.testing.strategies import chains

H, T = "1/2", "1/3"
# classes {0, 1, 2, 3} (period 2, phases {0, 1}, {2, 3}) and {4, 5, 6, 7} (period 3, phases {4}, {5, 6}, {7});
# transient 8 and 9 reach both; cyclic classes of two states, so other anchors exist
P = [[0, 0, H, H, 0, 0, 0, 0, 0, 0],
     [0, 0, "1/4", "3/4", 0, 0, 0, 0, 0, 0],
     [H, H, 0, 0, 0, 0, 0, 0, 0, 0],
     [T, "2/3", 0, 0, 0, 0, 0, 0, 0, 0],
     [0, 0, 0, 0, 0, H, H, 0, 0, 0],
     [0, 0, 0, 0, 0, 0, 0, 1, 0, 0],
     [0, 0, 0, 0, 0, 0, 0, 1, 0, 0],
     [0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
     [H, 0, 0, 0, "1/4", 0, 0, 0, "1/4", 0],
     [0, 0, 0, 0, 0, 0, H, 0, H, 0]]
R = [1, -2, 3, 0, 2, -1, 5, 1, 4, -3]


@pytest.fixture(scope="module")
def chain() -> exactpte.MarkovRewardProcess:
    return exactpte.MarkovRewardProcess(P, R)


def floats(xs: Any) -> list[float]:
    return [float(x) for x in xs]


def in_convention(chain: exactpte.MarkovRewardProcess, order: list[int], shifts: list[int],
                  pick: dict[tuple[int, int], int] | None = None) -> dict[str, Any]:
    """The exact answer as floats in another convention: the candidate's class ``j`` is the reference's
    ``order[j]``, its phase ``k`` the reference's ``k + shifts[j]``, and the anchor of the reference's
    cyclic class ``(i, k)`` is ``pick[(i, k)]`` (its smallest state when not picked)."""
    dec = exactpte.decompose(chain)
    cyc = dec.cyclic_classes
    anchors = {(i, k): (pick or {}).get((i, k), cyc[i][k][0]) for i, d in enumerate(dec.periods) for k in range(d)}
    moved = exactpte.decompose(chain, anchors=anchors)  # v*, g*, theta, psi, hitting times at the other anchors
    col = {(i, k): c for c, (i, k, _) in enumerate(dec.anchor_list)}
    labels = [(j, k, order[j], (k + shifts[j]) % dec.periods[order[j]]) for j in range(len(order))
              for k in range(dec.periods[order[j]])]
    cols = [col[(i, ki)] for _, _, i, ki in labels]
    return {
        "classes": [list(dec.classes[i]) for i in order],
        "periods": [dec.periods[i] for i in order],
        "cyclic_classes": [[list(cyc[i][(k + shifts[j]) % dec.periods[i]]) for k in range(dec.periods[i])]
                           for j, i in enumerate(order)],
        "anchors": [[j, k, anchors[(i, ki)]] for j, k, i, ki in labels],
        "basis": [[float(row[c]) for c in cols] for row in dec.basis],
        "theta": [float(moved.theta[c]) for c in cols],
        "g_star": floats(moved.g_star), "v_star": floats(moved.v_star), "psi": floats(moved.psi),
        "hitting_times": floats(moved.hitting_times), "rho": floats(dec.rho), "h": floats(dec.h),
        "stationary": [floats(dec.stationary[i]) for i in order],
        "class_gain": [float(dec.class_gain[i]) for i in order],
    }


def statuses(report: Any) -> dict[str, str]:
    return {f.key: f.status for f in report.findings}


# -- full-length stationary rows: each closed class exactly once ---------------------------------------------
def embedded(chain: exactpte.MarkovRewardProcess) -> list[np.ndarray]:
    dec = exactpte.decompose(chain)
    out = []
    for members, pi in zip(dec.classes, dec.stationary):
        x = np.zeros(dec.n)
        x[list(members)] = floats(pi)
        out.append(x)
    return out


def test_full_length_rows_one_per_class_in_any_order_agree(chain):
    pi0, pi1 = embedded(chain)
    for rows in ([pi0, pi1], [pi1, pi0]):
        (f,) = compare({"stationary": np.vstack(rows)}, chain, atol=1e-12).findings
        assert f.ok and "one row per closed class" in f.detail
    # with the candidate's classes, row k stands for its class k
    assert compare({"classes": [[4, 5, 6, 7], [0, 1, 2, 3]], "stationary": [list(pi1), list(pi0)]}, chain, atol=1e-12).ok


@pytest.mark.parametrize("what", ["one row for two classes", "a class listed twice", "three rows of one mixture",
                                  "one class missing", "rows against the candidate's class order"])
def test_full_length_rows_that_do_not_cover_each_class_once_disagree(chain, what):
    pi0, pi1 = embedded(chain)
    mix = 0.25 * pi0 + 0.75 * pi1
    cand: dict[str, Any] = {
        "one row for two classes": {"stationary": [list(mix)]},
        "a class listed twice": {"stationary": [list(pi0), list(pi0)]},
        "three rows of one mixture": {"stationary": [list(mix)] * 3},
        "one class missing": {"stationary": [list(pi1)]},
        "rows against the candidate's class order": {"classes": [[0, 1, 2, 3], [4, 5, 6, 7]], "stationary": [list(pi1), list(pi0)]},
    }[what]
    report = compare(cand, chain, atol=1e-9)
    assert not report.ok and statuses(report)["stationary"] == "mismatch"


def test_a_mixture_row_is_named_as_one(chain):
    pi0, pi1 = embedded(chain)
    (f,) = compare({"stationary": [list(0.5 * pi0 + 0.5 * pi1), list(pi1)]}, chain).findings
    assert not f.ok and "mixture" in f.diagnosis and "each row stands for one closed class" in f.diagnosis
    (f,) = compare({"stationary": [list(pi0), list(pi0)]}, chain).findings
    assert "listed 2 times" in f.detail and "has no row" in f.detail


def test_one_flat_vector_still_stands_for_a_mixture(chain):
    pi0, pi1 = embedded(chain)
    (f,) = compare({"stationary": list(0.25 * pi0 + 0.75 * pi1)}, chain, atol=1e-12).findings
    assert f.ok and "mixture" in f.detail


# -- anchors read whole -------------------------------------------------------------------------------------------
CANONICAL = [[0, 0, 0], [0, 1, 2], [1, 0, 4], [1, 1, 5], [1, 2, 7]]


def with_triple(k: int, triple: list[int]) -> list[list[int]]:
    out = [list(t) for t in CANONICAL]
    out[k] = triple
    return out


@pytest.mark.parametrize("anchors, said", [
    (with_triple(4, [7, 2, 7]), "class 7 is not a class label"),
    (with_triple(4, [-1, 2, 7]), "class -1 is not a class label"),
    (with_triple(4, [1, -1, 7]), "phase -1"),
    (with_triple(4, [1, 5, 7]), "phase 5"),
    (with_triple(1, [0, 1, 4]), "not in the candidate's class 0"),
    (with_triple(3, [1, 2, 5]), "cyclic class"),                   # (1, 2) twice, (1, 1) never
    ([[0, 0, 0], [0, 1, 2], [1, 0, 4], [1, 2, 5], [1, 1, 7]], "cyclic order"),  # phases 0, 2, 1: not a rotation
    ([[0, 0, 0], [0, 1, 2], [0, 0, 4], [0, 1, 5], [0, 2, 7]], "not in the candidate's class 0"),  # one label, two classes
    (with_triple(0, [0, 0, 99]), "state 99"),
    (with_triple(0, [0, 0, 8]), "state 8"),                        # a transient state
    (CANONICAL[:4], "4 anchors"),
])
def test_anchor_triples_with_wrong_labels_disagree(chain, anchors, said):
    report = compare({"anchors": anchors}, chain)
    (f,) = report.findings
    assert f.status == "structure mismatch" and said in f.detail and not report.ok


def test_anchor_labels_are_judged_against_the_candidates_classes(chain):
    assert compare({"anchors": CANONICAL}, chain).ok
    # the same anchors labelled in the candidate's order: class 0 is {4..7}; its phase 0 is {5, 6}
    relabelled = [[0, 0, 5], [0, 1, 7], [0, 2, 4], [1, 0, 2], [1, 1, 0]]
    assert compare({"classes": [[4, 5, 6, 7], [0, 1, 2, 3]], "anchors": relabelled}, chain).ok
    assert compare({"anchors": relabelled}, chain).ok  # labels read from the anchors alone: one order, rotated phases
    assert not compare({"classes": [[0, 1, 2, 3], [4, 5, 6, 7]], "anchors": relabelled}, chain).ok
    cyclic = [[[4], [5, 6], [7]], [[0, 1], [2, 3]]]  # class 0 = {4..7} with phase 0 = {4}: (0, 0, 5) is wrong
    assert not compare({"cyclic_classes": cyclic, "anchors": relabelled}, chain).ok


# -- periods without classes ---------------------------------------------------------------------------------------
def test_periods_without_classes_are_refused_naming_what_to_add(chain):
    for periods in ([2, 3], [3, 2]):
        with pytest.raises(exactpte.UsageError, match="add classes"):
            compare({"periods": periods}, chain)
    assert not compare({"classes": [[0, 1, 2, 3], [4, 5, 6, 7]], "periods": [3, 2]}, chain).ok
    assert compare({"classes": [[4, 5, 6, 7], [0, 1, 2, 3]], "periods": [3, 2]}, chain).ok
    cyclic = [[[4], [5, 6], [7]], [[0, 1], [2, 3]]]  # per-class cyclic classes order the classes too
    assert compare({"cyclic_classes": cyclic, "periods": [3, 2]}, chain).ok
    assert not compare({"cyclic_classes": cyclic, "periods": [2, 3]}, chain).ok


def test_check_cli_exits_2_for_periods_without_classes(chain, tmp_path, capsys):
    cpath, jpath = tmp_path / "c.json", tmp_path / "cand.json"
    exactpte.dump(chain, cpath)
    jpath.write_text(json.dumps({"periods": [3, 2]}))
    assert main(["check", str(jpath), "--chain", str(cpath)]) == 2
    assert "classes" in capsys.readouterr().err


# -- answers in another convention ----------------------------------------------------------------------------------
CONVENTIONS = [([1, 0], [0, 0], None), ([0, 1], [1, 2], None), ([1, 0], [2, 1], {(0, 0): 1, (0, 1): 3, (1, 1): 6}),
               ([0, 1], [0, 0], {(0, 0): 1, (1, 1): 6})]


@pytest.mark.parametrize("order, shifts, pick", CONVENTIONS, ids=["classes swapped", "phases rotated", "all three", "anchors"])
@pytest.mark.parametrize("up_to_gauge", [False, True])
def test_answers_in_another_convention_agree(chain, order, shifts, pick, up_to_gauge):
    report = compare(in_convention(chain, order, shifts, pick), chain, atol=1e-9, up_to_gauge=up_to_gauge)
    assert report.ok, report.table()
    assert set(statuses(report).values()) == {"ok"}


def test_anchors_alone_fix_the_convention(chain):
    cand = in_convention(chain, [1, 0], [2, 1], {(0, 0): 1, (0, 1): 3, (1, 1): 6})
    for key in ("classes", "cyclic_classes", "periods"):
        del cand[key]
    del cand["stationary"], cand["class_gain"]  # per-class keys follow classes, given no more
    assert compare(cand, chain, atol=1e-9).ok


@pytest.mark.parametrize("corrupt", ["theta in exactpte's column order", "basis in exactpte's column order",
                                     "v* at exactpte's anchors", "theta at exactpte's anchors", "psi at exactpte's anchors",
                                     "hitting times of exactpte's anchors"])
def test_answers_mixing_two_conventions_disagree(chain, corrupt):
    cand = in_convention(chain, [1, 0], [2, 1], {(0, 0): 1, (0, 1): 3, (1, 1): 6})
    own = in_convention(chain, [1, 0], [2, 1])     # same labels, exactpte's anchors
    plain = in_convention(chain, [0, 1], [0, 0], {(0, 0): 1, (0, 1): 3, (1, 1): 6})  # same anchors, exactpte's labels
    key, source = {"theta in exactpte's column order": ("theta", plain), "basis in exactpte's column order": ("basis", plain),
                   "v* at exactpte's anchors": ("v_star", own), "theta at exactpte's anchors": ("theta", own),
                   "psi at exactpte's anchors": ("psi", own),
                   "hitting times of exactpte's anchors": ("hitting_times", own)}[corrupt]
    assert cand[key] != source[key]
    cand[key] = source[key]
    report = compare(cand, chain, atol=1e-9)
    assert not report.ok and statuses(report)[key] != "ok"
    if key != "v_star":  # v* at other anchors is v* up to K(P): accepted up to gauge, and only then
        assert not compare(cand, chain, atol=1e-9, up_to_gauge=True).ok


def test_check_cli_accepts_another_convention_with_and_without_up_to_gauge(chain, tmp_path, capsys):
    cpath, jpath = tmp_path / "c.json", tmp_path / "cand.json"
    exactpte.dump(chain, cpath)
    jpath.write_text(json.dumps(in_convention(chain, [1, 0], [2, 1], {(0, 0): 1, (0, 1): 3, (1, 1): 6})))
    assert main(["check", str(jpath), "--chain", str(cpath)]) == 0
    assert main(["check", str(jpath), "--chain", str(cpath), "--up-to-gauge"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("agrees")


@settings(max_examples=25)
@given(st.data())
def test_every_valid_convention_of_a_random_chain_agrees_and_a_swap_of_theta_does_not(data):
    chain = data.draw(chains(max_states=9, max_classes=3))
    dec = exactpte.decompose(chain)
    K = len(dec.classes)
    order = data.draw(st.permutations(range(K)))
    shifts = [data.draw(st.integers(0, dec.periods[i] - 1)) for i in order]
    pick = {(i, k): data.draw(st.sampled_from(part)) for i, cyc in enumerate(dec.cyclic_classes) for k, part in enumerate(cyc)}
    cand = in_convention(chain, list(order), shifts, pick)
    # the change of convention is exact, so the nearest floats of the answer agree at atol = rtol = 0
    assert compare(cand, dec, atol=0).ok, compare(cand, dec, atol=0).table()
    theta = cand["theta"]
    j = data.draw(st.integers(0, len(theta) - 1))
    k = data.draw(st.integers(0, len(theta) - 1))
    if abs(theta[j] - theta[k]) > 1e-6:  # two columns swapped: the answer of no convention
        theta[j], theta[k] = theta[k], theta[j]
        assert not compare(cand, dec, atol=1e-9, rtol=1e-9, up_to_gauge=True).ok


def test_certified_reference_refuses_another_convention_rather_than_misjudging(chain):
    from exactpte.certified import decompose_certified

    cand = in_convention(chain, [1, 0], [2, 1], {(0, 0): 1, (0, 1): 3, (1, 1): 6})
    with pytest.raises(exactpte.CandidateError, match="another convention"):
        compare({k: cand[k] for k in ("classes", "anchors", "theta", "v_star")}, decompose_certified(chain))



def test_certified_reference_aligns_per_class_values_with_the_candidates_classes(chain):
    from exactpte.certified import decompose_certified

    dec, cert = exactpte.decompose(chain), decompose_certified(chain)
    members = [[7, 6, 5, 4], [3, 1, 2, 0]]  # classes swapped, members in the candidate's own order
    where = [{s: t for t, s in enumerate(dec.classes[i])} for i in (1, 0)]
    cand = {"classes": members, "class_gain": [float(dec.class_gain[1]), float(dec.class_gain[0])],
            "stationary": [[float(dec.stationary[i][where[j][s]]) for s in members[j]] for j, i in enumerate((1, 0))]}
    assert compare(cand, dec, atol=1e-9).ok and compare(cand, cert, atol=1e-9).ok
    cand["class_gain"].reverse()
    assert not compare(cand, cert, atol=1e-9).ok


def test_anchors_out_of_class_phase_order_disagree_as_proofs_check_says(chain):
    """Anchors are listed in basis-column order, which the contract fixes as (class, phase) order
    (`structure:basis_order` in proofs-check): listing them otherwise is no convention."""
    shuffled = [CANONICAL[k] for k in (2, 3, 4, 0, 1)]
    (f,) = compare({"anchors": shuffled}, chain).findings
    assert f.status == "structure mismatch" and "(class, phase) order" in f.detail
