"""The small trusted checker (proofs_check/verify.py, issue #25): accepts every exact claim in any valid
convention, rejects every planted error (with its key and state), refuses unusable input, stays small and
standard-library only."""

from __future__ import annotations

import ast
import copy
import itertools
import json
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactpte
from exactpte import MarkovRewardProcess
from exactpte.results.report import QUANTITY_KEYS
from exactpte.testing.strategies import chains
from proofs_check.trusted import verify as trusted
from proofs_check.cli import main

from paths import ROOT
from conftest import scaled
VERIFY_PY = ROOT / "proofs_check" / "trusted" / "verify.py"
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))
RATIONAL_EXAMPLES = [name for name in exactpte.EXAMPLES if not exactpte.example(name).field.is_parametric]

# periodic classes (periods 2 and 3), transient branching, a transient self-loop (as in tests/test_mutations.py)
RICH = MarkovRewardProcess.from_edges(
    8,
    [(0, 1, 1), (1, 0, 1), (2, 3, 1), (3, 4, 1), (4, 2, "1/2"), (4, 5, "1/2"), (5, 3, 1),
     (6, 6, "1/3"), (6, 1, "1/3"), (6, 7, "1/3"), (7, 2, "1/2"), (7, 0, "1/2")],
    [1, 0, 2, 0, 5, 1, 0, -1],
)


def chain_dict(chain) -> dict:
    labels = {"labels": list(chain.labels)} if chain.labels is not None else {}
    return {"n": chain.n, "edges": [[i, j, str(p)] for i, j, p in chain.edges()], "r": [str(x) for x in chain.r], **labels}


def claim_of(chain, anchors=None, **kw) -> dict:
    return json.loads(exactpte.decompose(chain, anchors=anchors).to_json(include_hitting_times=True, **kw))


def get(name):
    return RICH if name == "rich" else exactpte.example(name)


def check(claim, chain) -> trusted.Report:
    return trusted.verify(claim, chain_dict(chain))


def F(x) -> Fraction:
    return Fraction(x)


def s(x) -> str:
    return str(Fraction(x))


def bump(v, i, by=1):
    v = list(v)
    v[i] = s(F(v[i]) + Fraction(by))
    return v


def set_col(basis, c, values):
    return [[s(values[r]) if j == c else x for j, x in enumerate(row)] for r, row in enumerate(basis)]


def col(claim, c):
    return [row[c] for row in claim["basis"]]


def swap_cols(basis, a, b):
    out = []
    for row in basis:
        row = list(row)
        row[a], row[b] = row[b], row[a]
        out.append(row)
    return out


# -- accepted ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_golden_file_verifies(path):
    claim = json.loads(path.read_text())
    report = check(claim, exactpte.example(path.stem))
    assert report.valid, report.text()
    assert all(status == "ok" for key, status, _ in report.results if key != "hitting_times")


@pytest.mark.parametrize("name", RATIONAL_EXAMPLES + ["rich"])
def test_every_builtin_example_verifies_with_every_key(name):
    report = check(claim_of(get(name)), get(name))
    assert report.valid, report.text()
    assert {status for _, status, _ in report.results} == {"ok"}


@settings(scaled(1), deadline=None)
@given(chains(max_states=12))
def test_random_chains_verify(chain):
    report = check(claim_of(chain), chain)
    assert report.valid, report.text()


def relabel(claim, perm, shifts, shuffle_members=False, seed=0):
    """The same decomposition in another valid labelling: class i becomes class perm[i], its phase k becomes
    (k - shifts[i]) mod d_i; basis columns and theta follow the new (class, phase) order."""
    import random

    c = copy.deepcopy(claim)
    nc = len(claim["classes"])
    inv = {perm[i]: i for i in range(nc)}
    col_of = {(a[0], a[1]): j for j, a in enumerate(claim["anchors"])}
    anchor_of = {(a[0], a[1]): a[2] for a in claim["anchors"]}
    order, anchors = [], []
    for new_i in range(nc):
        i = inv[new_i]
        d = claim["periods"][i]
        for new_k in range(d):
            k = (new_k + shifts[i]) % d
            order.append(col_of[i, k])
            anchors.append([new_i, new_k, anchor_of[i, k]])
    rng = random.Random(seed)
    classes, stationary = [], []
    for new_i in range(nc):
        i = inv[new_i]
        pairs = list(zip(claim["classes"][i], claim["stationary"][i]))
        if shuffle_members:
            rng.shuffle(pairs)
        classes.append([x for x, _ in pairs])
        stationary.append([p for _, p in pairs])
    c["classes"], c["stationary"] = classes, stationary
    c["periods"] = [claim["periods"][inv[i]] for i in range(nc)]
    c["class_gain"] = [claim["class_gain"][inv[i]] for i in range(nc)]
    c["cyclic_classes"] = [[claim["cyclic_classes"][inv[i]][(k + shifts[inv[i]]) % claim["periods"][inv[i]]]
                            for k in range(claim["periods"][inv[i]])] for i in range(nc)]
    c["anchors"] = anchors
    c["basis"] = [[row[j] for j in order] for row in claim["basis"]]
    c["theta"] = [claim["theta"][j] for j in order]
    return c


@pytest.mark.parametrize("name", ["rich", "branching", "paper-benchmark", "two-cycles"])
def test_claims_in_other_valid_conventions_are_accepted(name):
    chain = get(name)
    S = exactpte.decompose(chain)
    nc = len(S.classes)
    # other anchors: the largest state of every cyclic class
    other = [max(ck) for cyc in S.cyclic_classes for ck in cyc]
    base = claim_of(chain, anchors=other)
    assert check(base, chain).valid
    perm = list(reversed(range(nc)))
    shifts = [1 % d for d in S.periods]
    for claim in (relabel(base, perm, [0] * nc), relabel(base, list(range(nc)), shifts),
                  relabel(base, list(range(nc)), [0] * nc, shuffle_members=True),
                  relabel(base, perm, shifts, shuffle_members=True, seed=3)):
        report = check(claim, chain)
        assert report.valid, report.text()


@settings(scaled(25/40), deadline=None)
@given(chains(max_states=10, min_classes=2), st.randoms(use_true_random=False))
def test_random_relabellings_are_accepted(chain, rnd):
    S = exactpte.decompose(chain)
    anchors = [rnd.choice(ck) for cyc in S.cyclic_classes for ck in cyc]
    nc = len(S.classes)
    perm = list(range(nc))
    rnd.shuffle(perm)
    claim = relabel(claim_of(chain, anchors=anchors), perm, [rnd.randrange(d) for d in S.periods], True, rnd.randrange(99))
    report = check(claim, chain)
    assert report.valid, report.text()


# -- rejected: the corruptions of tests/test_mutations.py, on the JSON claim -----------------------------------------
def _rotate(basis, k):
    return [row[k:] + row[:k] for row in basis]


def cesaro_power_limit(c):
    """lim P^{mD} in place of P_inf: b_{i,phase(y)}(s) d_i pi_i(y) (the limit along multiples of the period)."""
    out = [[Fraction(0)] * c["n"] for _ in range(c["n"])]
    col = {(a[0], a[1]): j for j, a in enumerate(c["anchors"])}
    for i, members in enumerate(c["classes"]):
        d = c["periods"][i]
        for k, ck in enumerate(c["cyclic_classes"][i]):
            for y in ck:
                p = F(c["stationary"][i][members.index(y)])
                for x in range(c["n"]):
                    out[x][y] = F(c["basis"][x][col[i, k]]) * d * p
    return [[s(x) for x in row] for row in out]


MUTATIONS = [
    # (expected key, chain, corruption); the keys are verify.py's, the cases those of tests/test_mutations.py
    ("classes", "rich", lambda c: {**c, "classes": [[0, 1, 6], [2, 3, 4, 5]]}),  # a transient state claimed recurrent
    ("transient", "rich", lambda c: {**c, "transient": [7]}),  # a transient state dropped
    ("periods", "rich", lambda c: {**c, "periods": [1, 4]}),
    ("periods", "rich", lambda c: {**c, "periods": [2 * d for d in c["periods"]]}),  # doubled periods
    ("cyclic_classes", "rich", lambda c: {**c, "cyclic_classes": [[[0], [1]], [[2], [3], [4]]]}),  # 5 dropped
    ("cyclic_classes", "rich", lambda c: {**c, "cyclic_classes": [[[0], [1]], [[2], [3, 5], [4]]]}),  # 5 moved
    ("anchors", "rich", lambda c: {**c, "anchors": [[0, 0, 0], [0, 1, 1], [1, 0, 3], [1, 1, 3], [1, 2, 4]]}),
    ("anchors", "rich", lambda c: {**c, "anchors": c["anchors"][2:] + c["anchors"][:2], "basis": _rotate(c["basis"], 2)}),
    ("basis", "rich", lambda c: {**c, "basis": set_col(c["basis"], 4, [1 if x == 6 else 0 for x in range(8)])}),
    ("classes", "branching", lambda c: {**c, "classes": [[0, 1, 2, 3, 4]], "periods": [5], "stationary": [["1/5"] * 5],
                                        "cyclic_classes": [[[0], [1], [2], [3], [4]]], "class_gain": ["4/5"],
                                        "anchors": [[0, k, a[2]] for k, a in enumerate(c["anchors"])]}),
    ("basis", "branching", lambda c: {**c, "basis": set_col(c["basis"], 1, col(c, 0))}),  # a phase dropped
    ("basis", "rich", lambda c: {**c, "basis": set_col(c["basis"], 1, col(c, 0))}),
    ("v_star", "rich", lambda c: {**c, "v_star": c["h"]}),  # the classical bias in place of v*
    ("g_star", "branching", lambda c: {**c, "g_star": c["rho"]}),  # rho in place of g*
    ("rho", "rich", lambda c: {**c, "rho": c["g_star"]}),
    ("g_star", "rich", lambda c: {**c, "g_star": bump(c["g_star"], 5)}),
    ("v_star", "aperiodic", lambda c: {**c, "g_star": bump(c["g_star"], 0), "theta": bump(c["theta"], 0)}),
    ("h", "rich", lambda c: {**c, "h": bump(c["h"], 7)}),
    ("psi", "rich", lambda c: {**c, "psi": bump(c["psi"], 6, Fraction(1, 2))}),
    ("psi", "rich", lambda c: {**c, "psi": [s(-F(x)) for x in c["psi"]]}),  # psi's sign flipped
    ("v_star", "rich", lambda c: {**c, "v_star": bump(c["v_star"], 6)}),
    ("basis", "rich", lambda c: {**c, "basis": swap_cols(c["basis"], 2, 3)}),
    ("anchors", "rich", lambda c: {**c, "anchors": [[i, k, 3 if a == 2 else a] for i, k, a in c["anchors"]]}),  # wrong anchor
    ("g_star", "rich", lambda c: {**c, "g_star": c["rho"], "theta": [c["rho"][a] for _, _, a in c["anchors"]]}),
    ("v_star", "rich", lambda c: {**c, "v_star": bump(c["v_star"], 7)}),
    ("v_star", "rich", lambda c: {**c, "v_star": bump(c["v_star"], 6, Fraction(1, 1000))}),
    ("h", "cycle-24", lambda c: {**c, "h": bump(c["h"], 3)}),
    ("v_star", "cycle-24", lambda c: {**c, "v_star": bump(c["v_star"], 3)}),
    ("classes", "rich", lambda c: {**c, "classes": [c["classes"][0] + [6], c["classes"][1]]}),
    ("basis", "rich", lambda c: {**c, "basis": set_col(c["basis"], 2, [2 * F(x) for x in col(c, 2)])}),
    ("anchors", "rich", lambda c: {**c, "anchors": [[i, k, 0 if a == 1 else a] for i, k, a in c["anchors"]]}),
    ("basis", "rich", lambda c: {**c, "basis": set_col(c["basis"], 0, bump(col(c, 0), 6, Fraction(1, 10)))}),
    ("basis", "rich", lambda c: {**c, "basis": swap_cols(c["basis"], 2, 4)}),
    ("theta", "rich", lambda c: {**c, "theta": list(reversed(c["theta"]))}),
    ("h", "rich", lambda c: {**c, "h": bump(c["h"], 7, Fraction(1, 10**6))}),
    ("v_star", "paper-benchmark", lambda c: {**c, "v_star": bump(c["v_star"], 40, Fraction(1, 10**7))}),
    ("P_inf", "rich", lambda c: {**c, "P_inf": [bump(row, 0) if x == 6 else row for x, row in enumerate(c["P_inf"])]}),
    ("P_inf", "rich", lambda c: {**c, "P_inf": cesaro_power_limit(c)}),  # the limit of P^{mD}, not the Cesaro limit
    ("P_inf", "branching", lambda c: {**c, "P_inf": cesaro_power_limit(c)}),
    # phase labels rotated in one class (anchors follow) while the basis keeps the old labels
    ("basis", "rich", lambda c: {**c, "cyclic_classes": [c["cyclic_classes"][0], c["cyclic_classes"][1][1:] + c["cyclic_classes"][1][:1]],
                                 "anchors": c["anchors"][:2] + [[1, k, a] for k, (_, _, a) in enumerate(c["anchors"][3:] + c["anchors"][2:3])]}),
    ("cyclic_classes", "rich", lambda c: {**c, "cyclic_classes": [c["cyclic_classes"][0][::-1], c["cyclic_classes"][1][::-1]]}),
    ("classes", "two-cycles", lambda c: {**c, "classes": [c["classes"][0][:-1], c["classes"][1] + c["classes"][0][-1:]]}),  # wrong class
    ("stationary", "rich", lambda c: {**c, "stationary": [c["stationary"][0], c["stationary"][1][1:] + c["stationary"][1][:1]]}),
    ("stationary", "rich", lambda c: {**c, "stationary": [["1", "0"], c["stationary"][1]]}),
    ("class_gain", "rich", lambda c: {**c, "class_gain": list(reversed(c["class_gain"]))}),
    ("hitting_times", "rich", lambda c: {**c, "hitting_times": bump(c["hitting_times"], 6)}),
]


def test_another_gauge_is_rejected():
    """v* (and theta) of another anchor set, with the claimed anchors left as they were."""
    chain = RICH
    S = exactpte.decompose(chain)
    other = claim_of(chain, anchors=[max(ck) for cyc in S.cyclic_classes for ck in cyc])
    claim = claim_of(chain)
    report = check({**claim, "v_star": other["v_star"]}, chain)
    assert not report.valid and report.failure[0] == "v_star"
    report = check({**claim, "v_star": other["v_star"], "basis": other["basis"], "theta": other["theta"]}, chain)
    assert not report.valid


@pytest.mark.parametrize("key, name, corrupt", MUTATIONS, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(MUTATIONS)])
def test_planted_errors_are_rejected_with_their_key(key, name, corrupt):
    chain = get(name)
    claim = claim_of(chain)
    assert check(claim, chain).valid
    report = check(corrupt(claim), chain)
    assert not report.valid
    assert report.failure[0] in (PAIR if key in PAIR else (key,)), report.text()
    assert report.failure[2] and ("FAIL" in report.text() and "INVALID" in report.text())


PAIR = ("g_star", "v_star")  # r = g* + (I - P) v* is one equation: a wrong pair fails it under either key

ENTRY_KEYS = ["g_star", "v_star", "h", "rho", "psi", "theta", "basis", "class_gain", "stationary", "hitting_times", "P_inf"]


@pytest.mark.slow
@settings(scaled(60/40), deadline=None)
@given(st.sampled_from(["rich", "paper-benchmark", "branching"]), st.sampled_from(ENTRY_KEYS), st.data())
def test_a_change_of_ten_to_the_minus_thirty_in_any_entry_is_rejected(name, key, data):
    chain = get(name)
    claim = claim_of(chain)
    tiny = Fraction(1, 10**30)
    value = claim[key]
    i = data.draw(st.integers(0, len(value) - 1), label="index")
    if isinstance(value[i], list):
        j = data.draw(st.integers(0, len(value[i]) - 1), label="column")
        value[i] = bump(value[i], j, tiny)
    else:
        claim[key] = bump(value, i, tiny)
    report = check(claim, chain)
    assert not report.valid, (key, i)
    assert report.failure[1] is not None or key in ("class_gain",), report.text()


GARBAGE = [float("nan"), float("inf"), "inf", "NaN", 0.5, "0.5", "abc", None, True, [], "1/0", "1 /2", "1e-30", "٣"]


@pytest.mark.parametrize("bad", GARBAGE, ids=repr)
@pytest.mark.parametrize("key", ["g_star", "v_star", "h", "rho", "psi", "theta", "basis", "stationary", "P_inf"])
def test_garbage_entries_are_rejected_with_key_and_state(key, bad):
    claim = claim_of(RICH)
    if isinstance(claim[key][0], list):
        claim[key][1][0] = bad
    else:
        claim[key][1] = bad
    report = check(claim, RICH)
    assert not report.valid and report.failure[0] == key
    expected_state = {"theta": claim["anchors"][1][2], "stationary": claim["classes"][1][0]}.get(key, 1)
    assert report.failure[1] == expected_state, report.failure


@pytest.mark.parametrize("key", ["g_star", "h", "basis", "theta", "P_inf", "stationary"])
def test_wrong_lengths_and_types_are_rejected(key):
    claim = claim_of(RICH)
    for bad in (claim[key][:-1], claim[key] + [claim[key][0]], "1/2", {"0": "1"}):
        report = check({**claim, key: bad}, RICH)
        assert not report.valid and report.failure[0] == key


def test_nan_and_infinity_in_a_json_file_are_rejected(tmp_path):
    claim = claim_of(RICH)
    text = json.dumps(claim).replace('"h": ["', '"h": [NaN, "', 1).replace('"rho": ["', '"rho": [Infinity, "', 1)
    (tmp_path / "c.json").write_text(text)
    loaded = trusted.load_json(tmp_path / "c.json")
    report = check(loaded, RICH)
    assert not report.valid and report.failure[0] in ("rho", "h")


def test_keys_left_out_are_not_claimed_never_held():
    claim = claim_of(RICH)
    for key in ("P_inf", "hitting_times", "psi", "h", "class_gain", "theta"):
        del claim[key]
    report = check(claim, RICH)
    assert report.valid
    status = {k: st for k, st, _ in report.results}
    assert all(status[k] == "not claimed" for k in ("P_inf", "hitting_times", "psi", "h", "class_gain", "theta"))
    assert "not claimed: " in report.text()
    # a witness left out is solved for by the checker (never trusted, never held): the claim stays valid
    for missing in ("stationary", "v_star", "g_star", "basis", "rho", "theta"):
        claim = claim_of(RICH)
        del claim[missing]
        report = check(claim, RICH)
        assert report.valid, (missing, report.text())
        status, detail = dict((k, (st, d)) for k, st, d in report.results)[missing]
        assert status == "not claimed" and (detail == "solved as a witness") == (missing not in ("v_star", "theta")), missing
    # a claimed key that rests on structure left out cannot be verified, and is not passed
    for missing, dependent in (("anchors", "basis"), ("classes", "stationary"), ("cyclic_classes", "anchors")):
        claim = claim_of(RICH)
        del claim[missing]
        report = check(claim, RICH)
        assert not report.valid and "not claimed" in report.failure[2], (missing, report.text())


# -- claims that leave witnesses out (decompose --only): the checker solves for them, exactly, and never trusts them ----
# every quantity alone and in pairs, as `exactpte decompose --only KEYS --json` writes them (structure keys always come)
ONLY = [",".join(ks) for ks in [(k,) for k in QUANTITY_KEYS] + list(itertools.combinations(QUANTITY_KEYS, 2))]
WITNESSES = ("stationary", "class_gain", "basis", "g_star", "v_star", "theta", "rho", "h", "psi", "P_inf")


def only_claim(chain, only) -> dict:
    return json.loads(exactpte.decompose(chain).to_json(only=only))


@pytest.mark.slow
@pytest.mark.parametrize("name", RATIONAL_EXAMPLES + ["rich"])
def test_claims_of_decompose_only_verify_with_their_witnesses_solved(name):
    chain, dec = get(name), exactpte.decompose(get(name))
    for only in ONLY:
        claim = json.loads(dec.to_json(only=only))
        report = check(claim, chain)
        assert report.valid, (only, report.text())
        status = {k: st for k, st, _ in report.results}
        assert all(status[k] == ("ok" if k in only.split(",") else "not claimed") for k in WITNESSES), (only, status)


def test_rho_and_h_without_stationary_through_the_cli(tmp_path, capsys):
    # the false alarm of exactpte decompose --example two-paths --only rho,h --json: "rho FAIL ... without stationary"
    path = tmp_path / "c1.json"
    path.write_text(exactpte.decompose(exactpte.example("two-paths")).to_json(only="rho,h"))
    assert main(["verify", str(path), "--example", "two-paths"]) == 0
    out = capsys.readouterr().out
    assert "VALID" in out and "not claimed: stationary" in out and "INVALID" not in out
    assert any(line.split()[:3] == ["stationary", "not", "claimed"] and "solved as a witness" in line for line in out.splitlines())


@settings(scaled(30/40), deadline=None)
@given(chains(max_states=12), st.sampled_from(["rho,h", "g_star,v_star", "rho", "h", "P_inf", "g_star", "v_star", "theta", "psi",
                                                "class_gain", "basis", "h,psi", "theta,P_inf"]))
def test_random_chains_verify_with_their_witnesses_solved(chain, only):
    report = check(only_claim(chain, only), chain)
    assert report.valid, (only, report.text())
    assert {k: st for k, st, _ in report.results}["stationary"] == "not claimed"


def corrupt(claim, key, change):
    """``claim`` with one nonzero entry of ``key`` changed by 10^-30 ("tiny") or negated ("sign"; +1 if all are 0)."""
    value, claim = claim[key], copy.deepcopy(claim)
    cells = [(i, j) for i, row in enumerate(value) for j in range(len(row))] if isinstance(value[0], list) else \
        [(i, None) for i in range(len(value))]
    at = lambda i, j: F(value[i] if j is None else value[i][j])  # noqa: E731
    i, j = next(((i, j) for i, j in cells if at(i, j)), cells[0])
    by = Fraction(1, 10**30) if change == "tiny" else -2 * at(i, j) or 1
    if j is None:
        claim[key] = bump(value, i, by)
    else:
        claim[key][i] = bump(value[i], j, by)
    return claim


# (the key changed, --only): every path on which a check rests on a solved witness
SOLVED_PATHS = [("rho", "rho"), ("h", "rho,h"), ("h", "h"), ("class_gain", "class_gain"), ("P_inf", "P_inf"),
                ("g_star", "g_star,v_star"), ("v_star", "g_star,v_star"), ("g_star", "g_star"), ("v_star", "v_star"),
                ("theta", "theta"), ("psi", "psi"), ("psi", "h,psi"), ("rho", "rho,psi"), ("g_star", "g_star,theta")]


@pytest.mark.parametrize("name", ["rich", "paper-benchmark", "branching", "two-paths"])
@pytest.mark.parametrize("key, only", SOLVED_PATHS, ids=[f"{k}-{o}" for k, o in SOLVED_PATHS])
@pytest.mark.parametrize("change", ["tiny", "sign"])
def test_claims_with_solved_witnesses_still_reject_a_changed_entry(name, key, only, change):
    chain = get(name)
    claim = only_claim(chain, only)
    assert check(claim, chain).valid
    report = check(corrupt(claim, key, change), chain)
    assert not report.valid, (key, only, report.text())
    assert report.failure[0] in ((key,) + (PAIR if key in PAIR else ())), report.text()
    assert {k: st for k, st, _ in report.results}["stationary"] == "not claimed"


def test_a_solved_witness_never_vouches_for_a_wrong_structure():
    # the witnesses rest on the claimed structure, checked first: a wrong class, phase or anchor still fails by its key
    claim = only_claim(RICH, "rho,h,g_star")
    for key, bad in (("classes", [[0, 1, 6], [2, 3, 4, 5]]), ("anchors", [[0, 0, 0], [0, 1, 1], [1, 0, 3], [1, 1, 3], [1, 2, 4]])):
        report = check({**claim, key: bad}, RICH)
        assert not report.valid and report.failure[0] == key, report.text()


def test_unknown_keys_and_a_wrong_n_are_reported():
    claim = claim_of(RICH)
    report = check({**claim, "gain": claim["rho"]}, RICH)
    assert not report.valid and report.failure[0] == "gain" and "unknown key" in report.failure[2]
    report = check({**claim, "n": 9}, RICH)
    assert not report.valid and report.failure[0] == "n"
    report = check({**claim, "labels": ["a"] * 3}, RICH)
    assert not report.valid and report.failure[0] == "labels"


def test_unusable_input_is_a_named_value_error():
    claim = claim_of(RICH)
    with pytest.raises(ValueError, match="parametric"):
        trusted.verify(json.loads(exactpte.decompose(exactpte.example("two-state-pq")).to_json()), chain_dict(RICH))
    with pytest.raises(ValueError, match="format"):
        trusted.verify({**claim, "format": "exactpte.certified/1"}, chain_dict(RICH))
    with pytest.raises(ValueError, match="sum to exactly 1"):
        trusted.verify(claim, {"P": [["1/2", "1/3"], [0, 1]], "r": [0, 0]})
    with pytest.raises(ValueError, match="parametric"):
        trusted.verify(claim, {"params": ["p"], "P": [["p", "1-p"], [0, 1]], "r": [0, 0]})
    with pytest.raises(ValueError, match="not an exact number"):
        trusted.verify(claim, {"P": [["1/2", "x"], [0, 1]], "r": [0, 0]})
    with pytest.raises(ValueError, match="twice"):
        trusted.verify(claim, {"n": 2, "edges": [[0, 1, 1], [0, 1, 1], [1, 1, 1]], "r": [0, 0]})
    with pytest.raises(ValueError, match="object"):
        trusted.verify([], chain_dict(RICH))


def test_dense_chain_and_decimal_literals_are_read_exactly(tmp_path):
    chain = MarkovRewardProcess([["0.5", "0.5"], [1, 0]], [1, 0])
    (tmp_path / "c.json").write_text('{"P": [[0.5, "1/2"], [1, 0]], "r": [1, "0e0"]}')
    report = trusted.verify(claim_of(chain), trusted.load_json(tmp_path / "c.json", exact_floats=True))
    assert report.valid, report.text()


def test_large_numbers_beyond_the_int_digit_limit_are_read():
    # a reward of 5,000 digits: every number of the claim is that big (Python refuses int(str) past 4,300 digits by default)
    big = 10**5000 + 1
    chain = MarkovRewardProcess.from_edges(3, [(0, 1, 1), (1, 0, 1), (2, 0, "1/3"), (2, 2, "2/3")], [big, 0, 1])
    with_int_limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    report = check(claim_of(chain), chain)
    assert report.valid, report.text()
    assert getattr(sys, "get_int_max_str_digits", lambda: 0)() == with_int_limit  # restored


# -- the trusted file itself ----------------------------------------------------------------------------------------
MAX_TRUSTED_STATEMENTS = 420
"""The trusted checker's size, counted in statements (the AST), not lines: it is formatted normally, one
statement a line, so a reader is never asked to trust a line packed to fit a line count."""


def test_verify_py_is_small_and_formatted_normally():
    text = VERIFY_PY.read_text(encoding="utf-8")
    tree = ast.parse(text)
    statements = sum(isinstance(node, ast.stmt) for node in ast.walk(tree))
    assert statements <= MAX_TRUSTED_STATEMENTS, statements
    assert "noqa" not in text
    lines = {}
    for node in ast.walk(tree):  # no two statements begin on one line (no ';', no 'def f(): return x')
        if isinstance(node, ast.stmt):
            assert node.lineno not in lines, f"line {node.lineno} holds two statements"
            lines[node.lineno] = node
    assert max(len(line) for line in text.splitlines()) <= 130


def test_verify_py_imports_only_the_standard_library():
    text = VERIFY_PY.read_text(encoding="utf-8")
    modules = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            modules.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            modules.add(node.module.split(".")[0])
    assert modules and modules <= set(sys.stdlib_module_names) | {"__future__"}, modules
    assert not modules & {"exactpte", "flint", "numpy", "proofs_check", "sympy", "scipy"}


def test_verify_py_runs_as_a_standalone_script(tmp_path):
    import subprocess

    (tmp_path / "claim.json").write_text(json.dumps(claim_of(RICH)))
    (tmp_path / "chain.json").write_text(json.dumps(chain_dict(RICH)))
    run = lambda claim: subprocess.run([sys.executable, str(VERIFY_PY), str(claim), str(tmp_path / "chain.json")],
                                       capture_output=True, text=True, cwd=tmp_path)
    ok = run(tmp_path / "claim.json")
    assert ok.returncode == 0 and "VALID" in ok.stdout
    (tmp_path / "bad.json").write_text(json.dumps({**claim_of(RICH), "h": bump(claim_of(RICH)["h"], 2)}))
    bad = run(tmp_path / "bad.json")
    assert bad.returncode == 1 and "first failed condition: h at state" in bad.stdout
    assert run(tmp_path / "missing.json").returncode == 2


# -- the CLI -----------------------------------------------------------------------------------------------------
def test_cli_exit_codes(tmp_path, capsys):
    cpath, rpath = tmp_path / "chain.json", tmp_path / "claim.json"
    exactpte.dump(RICH, cpath)
    claim = claim_of(RICH)
    rpath.write_text(json.dumps(claim))
    assert main(["verify", str(rpath), "--chain", str(cpath)]) == 0
    assert "VALID" in capsys.readouterr().out
    rpath.write_text(json.dumps({**claim, "psi": bump(claim["psi"], 6, Fraction(1, 10**30))}))
    assert main(["verify", str(rpath), "--chain", str(cpath), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and out["failure"]["key"] == "psi" and out["failure"]["state"] == 6
    # unusable input: a named error, never a traceback
    for args in (["verify", str(tmp_path / "nope.json"), "--chain", str(cpath)],
                 ["verify", str(rpath), "--chain", str(tmp_path / "nope.json")],
                 ["verify", str(rpath), "--chain", str(cpath), "--rewards", str(cpath)]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("proofs-check: error:") and "Traceback" not in err
    (tmp_path / "garbage.json").write_text("{not json")
    assert main(["verify", str(tmp_path / "garbage.json"), "--chain", str(cpath)]) == 2
    ppath = tmp_path / "param.json"
    ppath.write_text(exactpte.decompose(exactpte.example("two-state-pq")).to_json())
    assert main(["verify", str(ppath), "--chain", str(cpath)]) == 2
    assert "parametric" in capsys.readouterr().err


def test_cli_reads_other_formats_through_exactpte(tmp_path, capsys):
    from exactpte.io import load

    path = ROOT / "benchmarks" / "data" / "die.drn.gz"
    claim = tmp_path / "claim.json"
    claim.write_text(exactpte.decompose(load(path, reward_model="coin_flips")).to_json())
    assert main(["verify", str(claim), "--chain", str(path), "--reward-model", "coin_flips"]) == 0
    assert "VALID" in capsys.readouterr().out


def test_the_minimal_claims_of_the_docs_verify():
    gain_bias = {"classes": [[0, 1], [2, 3, 4]], "stationary": [["1/2", "1/2"], ["1/3", "1/3", "1/3"]],
                 "rho": ["1/2", "1/2", "1", "1", "1", "2/3", "5/6"], "h": ["1/4", "-1/4", "0", "1", "-1", "-5/6", "-1/12"]}
    report = check(gain_bias, exactpte.example("branching"))
    assert report.valid and "not claimed: transient" in report.text()
    pair = {"classes": [[0, 1]], "cyclic_classes": [[[0], [1]]], "anchors": [[0, 0, 0], [0, 1, 1]],
            "basis": [["1", "0"], ["0", "1"]], "g_star": ["1", "0"], "v_star": ["0", "0"]}
    assert trusted.verify(pair, {"P": [[0, 1], [1, 0]], "r": [1, 0]}).valid
    assert not trusted.verify({**pair, "v_star": ["0", "1"]}, {"P": [[0, 1], [1, 0]], "r": [1, 0]}).valid


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.floats(allow_nan=True) | st.sampled_from(["0", "1/2", "-1", "x", "1/0"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["P", "n", "r", "a"]), inner, max_size=3),
                    max_leaves=12)


def _replace(value, path, new):
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = _replace(value[path[0]], path[1:], new)
    return out


@settings(scaled(150/40), deadline=None)
@given(st.sampled_from(["rich", "branching"]), st.data())
def test_garbage_anywhere_in_a_claim_gives_a_verdict_or_a_named_error(name, data):
    """Replace any subtree of a claim by any JSON value: a Report (invalid unless nothing changed) or a ValueError with a
    message, never another exception."""
    chain = get(name)
    claim = claim_of(chain)
    key = data.draw(st.sampled_from(sorted(claim)), label="key")
    path, node = [key], claim[key]
    while isinstance(node, list) and node and data.draw(st.booleans(), label="deeper"):
        i = data.draw(st.integers(0, len(node) - 1), label="index")
        path.append(i)
        node = node[i]
    new = data.draw(JSON, label="new")
    bad = _replace(claim, path, new)
    try:
        report = check(bad, chain)
    except ValueError as e:
        assert str(e) and key in ("format",), e
        return
    assert isinstance(report, trusted.Report)
    assert report.valid == (report.failure is None) and ("INVALID" in report.text()) != report.valid


@st.composite
def near_chains(draw):
    """A valid dense chain of at most 4 states as JSON, in half the draws with one entry (of P or r) replaced by
    any JSON value: about half are chains, so what the reader accepts is judged too, not only what it refuses."""
    chain = draw(chains(max_states=4))
    data = {"P": [[str(x) for x in row] for row in chain.P], "r": [str(x) for x in chain.r]}
    if draw(st.booleans()):
        s = draw(st.integers(0, chain.n - 1))
        path = draw(st.sampled_from([["P", s, draw(st.integers(0, chain.n - 1))], ["r", s]]))
        data = _replace(data, path, draw(JSON))
    return data


@settings(scaled(100/40), deadline=None)
@given(JSON | near_chains())
def test_garbage_chains_are_refused_by_name_and_only_chains_are_read(chain):
    """Any JSON value: a ValueError naming the chain, or a chain exactpte reads as the same one (rows, rewards)."""
    try:
        n, rows, (R, L) = trusted.read_chain(chain)
    except ValueError as e:
        assert str(e).startswith("chain:"), e
        return
    expected = MarkovRewardProcess(chain["P"], chain["r"])  # what was accepted is a chain: exactpte reads it alike
    assert n == expected.n and [R[s] * expected.r[s].q == L * expected.r[s].p for s in range(n)] == [True] * n
    assert [[(j, Fraction(num, q)) for j, num in zip(cols, nums)] for cols, nums, q in rows] == \
        [[(j, Fraction(int(x.p), int(x.q))) for j, x in expected.row(s)] for s in range(n)]


def test_a_witness_too_large_to_solve_for_is_refused_not_judged_and_rho_needs_no_basis():
    """A claim leaving out the basis of a chain with |T| N > 20,000 is refused as unusable (ValueError, exit 2),
    never judged; ρ and h without stationary or basis verify through one absorbing solve in |T| unknowns."""
    n_classes, n_transient = 30, 700
    edges = [(i, i, 1) for i in range(n_classes)]
    for s in range(n_classes, n_classes + n_transient):
        edges += [(s, s % n_classes, "1/2"), (s, (s * 7 + 3) % n_classes, "1/4"), (s, max(n_classes, s - 1), "1/4")]
    chain = MarkovRewardProcess.from_edges(n_classes + n_transient, edges, [i % 3 for i in range(n_classes + n_transient)])
    claim = claim_of(chain, only="rho,h")
    assert check(claim, chain).valid
    claim["g_star"] = claim.pop("rho")
    with pytest.raises(ValueError, match="unknowns"):
        check(claim, chain)
