"""Every verdict says what a "held" is worth (issue 31): ``strength`` on every verdict, in the text table, the JSON
report and ``proofs-check list``, and docs/verdict-strength.md in step with the registry.  Before: no verdict had a
strength, and a check on four random vectors printed the same "ok" as an identity decided for every vector."""

import json
import re

import pytest

import exactpte
from paths import ROOT
from proofs_check.checks import CHECKS, run_checks
from proofs_check.judging.claims import from_decomposition
from proofs_check.cli import main
from proofs_check.judging.registry import strength_label
from proofs_check.statistical.tests import ALPHA
from proofs_check.statistical.checks import STATISTICAL
from proofs_check.judging.strength import Strength

DOC = ROOT / "docs" / "verdict-strength.md"


def test_every_verdict_in_the_json_report_carries_its_strength(capsys):
    assert main(["chain", "--example", "branching", "--json"]) == 0
    verdicts = json.loads(capsys.readouterr().out)
    assert {v["key"] for v in verdicts} == set(CHECKS)
    for v in verdicts:
        if v["holds"] is None:  # n/a, not claimed, not checked: decided nothing, so it rests on no evidence
            assert v["strength"] is None, v
            continue
        assert Strength(v["strength"]) is CHECKS[v["key"]].strength or v["strength"] == "witnesses", v
        if v["strength"] == "witnesses":
            assert isinstance(v["witnesses"], int) and v["witnesses"] >= 1
    assert {v["key"]: v["strength"] for v in verdicts}["certified:enclosures"] == "certified"


def test_witness_counts_are_the_ones_decided():
    chain = exactpte.example("periodic")  # D = 2: horizons {1, 2, 7, 20}, not 5 of them
    (v,) = run_checks(chain, from_decomposition(exactpte.decompose(chain)), only=["lem:app_telescoping"])
    assert v.holds and v.strength is Strength.WITNESSES and v.witnesses == 2 * 4


def test_sampled_checks_made_exact_say_exact():
    chain = exactpte.example("paper-benchmark")
    claim = from_decomposition(exactpte.decompose(chain))
    for v in run_checks(chain, claim, only=["lem:Pi_identity", "lem:Pi_kernel", "lem:main_b_identify", "thm:quotient_contraction"]):
        assert v.holds and v.strength is Strength.EXACT and v.witnesses is None, v


def test_text_table_and_list_show_the_strength(capsys):
    assert main(["chain", "--example", "branching"]) == 0
    table = capsys.readouterr().out
    assert re.search(r"^check\s+verdict\s+strength\s+detail$", table, re.M)  # a header names the columns
    assert re.search(r"^lem:app_telescoping\s+held\s+witnesses \(N = \d+\)", table, re.M)
    assert re.search(r"^thm:wellposed\s+held\s+exact", table, re.M)
    assert re.search(r"^prop:deterministic_cycle\s+not applicable\s+-", table, re.M)  # decided nothing: no strength shown
    assert main(["list"]) == 0
    listing = capsys.readouterr().out
    assert re.match(r"check\s+kind\s+strength of a held\s+statement\n", listing)  # labelled columns, no brackets
    for key, chk in CHECKS.items():
        assert re.search(rf"^{re.escape(key)}\s+{chk.kind}\s+{re.escape(strength_label(chk.strength, witnesses=chk.witnesses))}\s",
                         listing, re.M), key
    for key in STATISTICAL:
        assert re.search(rf"^{re.escape(key)}\s+statistical\s+statistical \(level {ALPHA:g}\)\s", listing, re.M), key


def test_statistical_verdicts_state_the_level_their_decision_used():
    """The level a verdict states is the one its test ran at: the normal quantile in its detail is that level's
    (1.96 at 0.05), and without ``alpha`` the level is the checks' default, ALPHA."""
    from proofs_check.statistical.checks import check_query_count
    from proofs_check.statistical.tests import normal_quantile

    chain = exactpte.example("branching")  # transient states: the episode count is tested at the level
    v = check_query_count(chain, runs=2, alpha=0.05)
    assert v.strength is Strength.STATISTICAL and v.to_dict()["level"] == 0.05 and "+- 1.96 sd" in v.detail, v.detail
    default = check_query_count(chain, runs=2)
    assert default.level == ALPHA != 0.05 and f"+- {normal_quantile(ALPHA):.2f} sd" in default.detail, default.detail
    assert default.strength_text == f"statistical (level {ALPHA:g})"


def test_verdicts_serialise_strength_as_a_plain_string_and_size_only_where_it_has_one():
    """Every verdict of a run in JSON: ``strength`` a plain ``str`` (Strength is a str Enum: ``==`` alone would pass
    the member itself), ``None`` for a verdict that decided nothing, ``witnesses`` exactly on witness verdicts."""
    chain = exactpte.example("branching")
    verdicts = run_checks(chain, from_decomposition(exactpte.decompose(chain)))
    assert {v.strength for v in verdicts if v.holds is not None} >= {Strength.EXACT, Strength.WITNESSES}
    assert any(v.holds is None for v in verdicts)
    for v in verdicts:
        d = v.to_dict()
        assert json.loads(json.dumps(d)) == d
        if v.holds is None:
            assert d["strength"] is None, d
        else:
            assert type(d["strength"]) is str and Strength(d["strength"]) is v.strength, d
        assert ("witnesses" in d) == (v.strength is Strength.WITNESSES) and d.get("witnesses") == v.witnesses, d


def test_a_witness_check_must_state_its_number():
    from proofs_check.judging.registry import register_check

    with pytest.raises(ValueError):
        register_check("x:y", "statement", strength=Strength.WITNESSES)


def test_docs_page_lists_every_check_with_its_strength():
    text = DOC.read_text()
    rows = dict(re.findall(r"^\| `([^`]+)` \| ([^|]+?) \|$", text, re.M))
    expected = {k: strength_label(c.strength, witnesses=c.witnesses) for k, c in CHECKS.items()}
    expected.update({k: strength_label(Strength.STATISTICAL, level=ALPHA) for k in STATISTICAL})
    assert rows == expected
