"""The conformance engine (issue 45): corpora, verdicts and causes, grouping, shrinking, the written files.

The adapters are files of tests/data/conform (numpy only here; QuantEcon's and pymdptoolbox's are
judged in test_conform_peers.py).  Every acceptance is paired with a wrong adapter that is rejected.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

import exactpte
from exactpte.errors import UsageError
from exactpte.oracle.conformance import CHAINS, Conformance, Tolerance, load_adapter, plain_output, split_adapter, write_failures
from exactpte.oracle.corpora import cases_of, corpus_cases, edge_cases, exhaustive_cases, parse_corpus, random_cases
from exactpte.oracle.shrinking import chain_size, shrink, smaller_chains

from paths import ROOT

DATA = ROOT / "tests" / "data" / "conform"


def _adapter(name: str):
    return load_adapter(str(DATA / name))


@pytest.fixture(scope="module")
def three():
    return corpus_cases("exhaustive:3")


# -- corpora ----------------------------------------------------------------------------------------------------
def test_exhaustive_lists_every_labelled_support_graph_once(three):
    assert [len(exhaustive_cases(n)) for n in (1, 2, 3)] == [1, 10, 353]
    names = [c.name for c in three]
    assert len(set(names)) == len(names)
    graphs = set()
    for case in three:
        chain = case.problem
        succ = [tuple(j for j, _ in chain.row(s)) for s in range(chain.n)]
        assert case.name == "-".join("".join(map(str, s)) for s in succ)  # named after its graph
        assert all((int(q.p), int(q.q)) == (1, len(s)) for row, s in zip((chain.row(i) for i in range(chain.n)), succ) for _, q in row)
        assert [int(x) for x in chain.r] == [2**s for s in range(chain.n)]
        graphs.add(tuple(succ))
    every = {g for n in (1, 2, 3) for g in itertools.product(
        [tuple(j for j in range(n) if m >> j & 1) for m in range(1, 1 << n)], repeat=n)}
    assert graphs == every


def test_random_and_edge_corpora_are_seeded_reducible_and_periodic():
    a, b, c = random_cases(30, seed=4), random_cases(30, seed=4), random_cases(30, seed=5)
    assert [x.problem for x in a] == [x.problem for x in b] and [x.problem for x in a] != [x.problem for x in c]
    structures = [exactpte.decompose(x.problem) for x in a]
    assert any(len(d.classes) > 1 for d in structures) and any(max(d.periods) > 1 for d in structures)
    assert any(d.transient for d in structures) and max(x.problem.n for x in a) <= 8
    edge = {x.name: exactpte.decompose(x.problem) for x in edge_cases()}
    assert max(max(d.periods) for d in edge.values()) >= 4 and max(len(d.classes) for d in edge.values()) >= 10
    assert max(len(d.transient) for d in edge.values()) >= 40
    assert min(Fraction(int(q.p), int(q.q)) for d in edge.values() for _, _, q in d.chain.edges()) <= Fraction(1, 10**12)


@pytest.mark.parametrize("spec, message", [
    ("exhaustive:5", "N must be an integer from 1 to 4"), ("exhaustive:", "N must be"), ("exhaustive:-1", "N must be"),
    ("random:0", "K must be"), ("random:3:0", "N (the most states) must be"), ("random:x", "K must be"),
    ("edge:3", "is not a corpus"), ("graphs:3", "is not a corpus"), ("", "is not a corpus")])
def test_a_bad_corpus_spec_is_named(spec, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_corpus(spec)


def test_several_corpora_give_each_chain_once():
    cases = cases_of(["exhaustive:2", "exhaustive:1,edge"])
    assert len(cases) == 10 + len(edge_cases()) and len({c.name for c in cases}) == len(cases)
    with pytest.raises(UsageError, match="no corpus"):
        cases_of(" , ")


# -- verdicts and groups ---------------------------------------------------------------------------------------
def test_a_correct_adapter_agrees_everywhere_and_p200_r_fails_on_every_periodic_class(three):
    good = Conformance(_adapter("cesaro_gain.py")).run(three)
    assert (good.judged, good.agreed, good.groups) == (353, 353, [])
    bad = Conformance(_adapter("power_gain.py")).run(three)
    periodic = {c.name for c in three if max(exactpte.decompose(c.problem).periods) > 1}
    assert len(periodic) == 27 and bad.judged - bad.agreed == 27
    (group,) = bad.groups
    assert group.cause == "power-iteration value on a periodic class" and group.keys == ("rho",)
    assert set(group.cases) == periodic and group.count == 27
    assert group.problem.dense() == [[0, 1], [1, 0]] and [int(x) for x in group.problem.r] == [1, 0]


def test_exact_and_sparse_inputs_reach_the_adapter_as_promised(three):
    for name, inputs in (("exact_classes.py", "exact"), ("sparse_classes.py", "sparse")):
        report = Conformance(_adapter(name), inputs=inputs).run(three)
        assert report.ok and report.judged == 353, report.text()
    # the float arrays are not what the exact adapter takes (it checks its types): every output fails, with the exception
    wrong = Conformance(_adapter("exact_classes.py")).run(three[:10])
    assert [g.cause for g in wrong.groups] == ["raised AssertionError"] and wrong.agreed == 0
    sparse = Conformance(_adapter("sparse_classes.py"), inputs="sparse").run(three[:3])
    assert sparse.not_judged == ("solver_seconds",)


def test_an_adapter_that_raises_or_returns_no_dict_is_a_failure_and_the_run_goes_on(three):
    def solve(P, r):
        if P.shape[0] == 2:
            return 1 / 0
        if P.shape[0] == 3 and P[0, 0] > 0:
            return [0.5]
        return {"rho": np.full(len(r), np.nan)}

    report = Conformance(solve).run(three)
    groups = {g.verdict.group: g for g in report.groups}
    assert report.agreed == 0 and sum(g.count for g in report.groups) == 353
    assert groups["raised ZeroDivisionError"].count == 9
    assert "ZeroDivisionError: division by zero (at test_conformance.py:" in groups["raised ZeroDivisionError"].verdict.detail
    assert groups["unreadable output"].verdict.detail.endswith("must be a JSON object, got list")
    nan = groups["mismatch: rho"]  # NaN never agrees; no cause is named, so the key groups them
    assert nan.cause is None and nan.problem.n == 1 and nan.verdict.output == {"rho": ["nan"]}


def test_the_cause_is_named_when_the_oracle_names_one():
    def unichain(P, r):  # one gain for every state: state 0's value of P^1000 r
        return {"rho": float(np.linalg.matrix_power(P, 1000)[0] @ r)}

    report = Conformance(unichain).run(corpus_cases("exhaustive:2"))
    causes = {g.cause: g for g in report.groups}
    assert set(causes) == {"unichain assumption", "power-iteration value on a periodic class"}
    assert causes["unichain assumption"].cases == ["0-1"]  # two absorbing states, gains 1 and 2
    assert causes["power-iteration value on a periodic class"].cases == ["1-0"]
    assert all(g.problem.n == 2 for g in report.groups)


def test_tolerances_and_gauge_follow_check():
    def h_off_by_one(P, r):  # the normalised bias of the 2-cycle with r = (1, 2), (-1/4, 1/4), plus 1: same up to gauge
        return {"h": [0.75, 1.25]}

    cases = [c for c in corpus_cases("exhaustive:2") if c.name == "1-0"]
    strict = Conformance(h_off_by_one).run(cases)
    assert strict.groups[0].cause == "another normalisation"
    assert Conformance(h_off_by_one, tolerance=Tolerance(up_to_gauge=True)).run(cases).ok

    def near(P, r):
        return {"rho": [1.5 + 1e-6, 1.5 + 1e-6]}

    assert not Conformance(near).run(cases).ok
    assert Conformance(near, tolerance=Tolerance(atol=1e-5)).run(cases).ok
    assert Conformance(near, tolerance=Tolerance(atol=0, rtol=1e-5)).run(cases).ok


# -- shrinking -------------------------------------------------------------------------------------------------
def test_shrink_keeps_the_cause_and_reaches_a_minimal_chain():
    # a 6-state chain whose closed 3-cycle makes P^200 r wrong: the periodic cause survives down to the 2-cycle
    chain = exactpte.MarkovRewardProcess([
        [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0],
        [0, "1/3", 0, "1/2", 0, "1/6"], [0, 0, 0, 0, 1, 0], ["1/7", 0, 0, 0, "6/7", 0]], [3, -1, 2, 5, 0, 1])
    run = Conformance(_adapter("power_gain.py"))
    verdict = run.verdict(chain)
    assert verdict.cause == "power-iteration value on a periodic class"
    small, small_verdict, calls = run.smallest(chain, verdict)
    assert small.n == 2 and small.dense() == [[0, 1], [1, 0]] and small_verdict.cause == verdict.cause and 0 < calls <= 200
    assert chain_size(small) < chain_size(chain)
    assert run.smallest(chain, verdict)[2] == calls  # shrunk once per cause


def test_every_shrink_candidate_is_a_valid_chain_and_shrink_respects_its_budget():
    chain = random_cases(1, seed=11, max_states=8)[0].problem
    candidates = list(smaller_chains(chain))
    assert candidates and all(isinstance(c, exactpte.MarkovRewardProcess) for c in candidates)  # validated rows
    calls = []

    def never(c):
        calls.append(c)
        return False

    assert shrink(chain, never, size=chain_size, smaller=smaller_chains, budget=7) == (chain, 7) and len(calls) == 7


def test_a_group_reports_its_smallest_counterexample_by_states_then_denominators():
    report = Conformance(_adapter("power_gain.py")).run(corpus_cases("exhaustive:3"), shrink_failures=False)
    (group,) = report.groups
    assert group.problem.n == 2 and group.shrink_calls == 0  # the smallest corpus chain of the group, unshrunk


# -- outputs --------------------------------------------------------------------------------------------------
def test_the_json_report_has_the_promised_shape(three):
    report = Conformance(_adapter("power_gain.py")).run(three)
    data = json.loads(json.dumps(report.to_dict()))
    assert {"judged", "agreed", "failures"} <= set(data) and (data["judged"], data["agreed"]) == (353, 326)
    (failure,) = data["failures"]
    assert {"cause", "keys", "count", "smallest", "output"} <= set(failure)
    assert failure["smallest"] == {"P": [["0", "1"], ["1", "0"]], "r": ["1", "0"]}
    assert failure["output"] == {"rho": [1.0, 0.0]} and failure["exact"]["rho"] == ["1/2", "1/2"]
    again = Conformance(_adapter("power_gain.py")).run(three).to_dict()
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in data.items() if k != "seconds"}


def test_written_failures_reproduce_with_check_and_decompose(tmp_path, capsys):
    from exactpte.cli import main

    report = Conformance(_adapter("power_gain.py")).run(corpus_cases("exhaustive:2"))
    (folder,) = write_failures(report, str(tmp_path))
    files = sorted(p.name for p in (tmp_path / folder).iterdir())
    assert files == ["chain.json", "exact.json", "output.json", "verdict.txt"]
    assert exactpte.load(tmp_path / folder / "chain.json") == report.groups[0].problem
    capsys.readouterr()
    assert main(["check", str(tmp_path / folder / "output.json"), "--chain", str(tmp_path / folder / "chain.json")]) == 1
    assert "P^k r" in capsys.readouterr().out
    assert main(["decompose", str(tmp_path / folder / "chain.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((tmp_path / folder / "exact.json").read_text())


def test_plain_output_keeps_every_number_the_oracle_reads():
    out = plain_output({"a": np.float32(0.25), "b": (np.int64(3), Fraction(-1, 3)), "c": float("-inf"), "d": {np.int32(1): [True]}})
    assert out == {"a": 0.25, "b": [3, "-1/3"], "c": "-inf", "d": {"1": [True]}}
    assert json.loads(json.dumps(out)) == out


# -- adapters --------------------------------------------------------------------------------------------------
def test_adapter_specs_are_split_and_refused_by_name(tmp_path):
    assert split_adapter("C:/x/a.py") == ("C:/x/a.py", "solve") and split_adapter("a.py:f") == ("a.py", "f")
    (tmp_path / "a.py").write_text("x = 1\ndef one(P):\n    return {}\ndef solve(P, r, *, k=1):\n    return {}\n")
    (tmp_path / "boom.py").write_text("raise RuntimeError('no library here')\n")
    (tmp_path / "a.txt").write_text("")
    assert callable(load_adapter(str(tmp_path / "a.py")))
    for spec, message in ((tmp_path / "missing.py", "no such file"), (f"{tmp_path / 'a.py'}:two", "defines no function 'two'"),
                          (f"{tmp_path / 'a.py'}:x", "x is not a function"), (f"{tmp_path / 'a.py'}:one", r"cannot be called as one\(P, r\)"),
                          (tmp_path / "boom.py", "loading it raised RuntimeError: no library here"), (tmp_path / "a.txt", "not a Python file")):
        with pytest.raises(UsageError, match=message):
            load_adapter(str(spec))


def test_the_chain_kind_decomposes_each_chain_once():
    chain = corpus_cases("exhaustive:1")[0].problem
    assert CHAINS.decomposition(chain) is CHAINS.decomposition(exactpte.MarkovRewardProcess([[1]], [1]))


def test_every_cause_is_documented_and_no_phrase_names_two():
    from exactpte.oracle.causes import CAUSES, cause_of

    page = (ROOT / "docs" / "conform.md").read_text(encoding="utf-8")
    assert [c.name for c in CAUSES if f"`{c.name}`" not in page] == []
    for cause in CAUSES:
        for phrase in cause.phrases:
            assert cause_of(phrase) == cause.name, phrase
