"""The reports a researcher reads (issue 41): one vocabulary (held, failed, not applicable, not claimed, not checked,
not provable) with a header and a strength in every table; ``--json -`` on stdout for every command; a structural
residual is FAILED, never a traceback; strata without a closed form are checked at rational points, empty ones say
so, and ``--require`` asks each stratum that holds chains; a corner that is one chain gets the checks
``proofs-check chain`` decides on it; ``chain FAMILY --checks F.py`` runs your own statements; ``exhaustive`` lists
every graph's verdicts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import exactpte
from proofs_check.cli import main
from proofs_check.runs.conjectures import CONJECTURES

PQ = {"params": ["p", "q"], "P": [["1-p", "p", 0], [0, "1-q", "q"], ["q", 0, "1-q"]], "r": [1, 0, "p"]}
CIRCLE = {"params": ["p", "q"], "P": [["(p^2+q^2)/4", "1-(p^2+q^2)/4", 0], ["p/2", 0, "1-p/2"], ["q/2", "1-q/2", 0]],
          "r": [1, 0, 0]}
EMPTY_CURVES = {"params": ["p", "a"], "P": [["2*p*(1-p)", "1-2*p*(1-p)"], ["1-p", "p"]], "r": ["a", 0]}
WORDS = ("held", "FAILED", "not applicable", "not claimed", "not checked", "not provable")


def _write(tmp_path: Path, name: str, data: dict) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_a_claim_with_a_wrong_period_fails_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chain = _write(tmp_path, "pq.json", PQ)
    claim = json.loads(exactpte.decompose(exactpte.load(chain)).to_json())
    claim["periods"] = [2]
    assert main(["result", _write(tmp_path, "claim.json", claim), "--chain", chain]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "AttributeError" not in out + err
    assert re.search(r"^\s+structure:periods\s+FAILED\s+exact", out, re.M)


@pytest.mark.parametrize("argv", [
    ["chain", "--example", "branching", "--only", "claim:h"],
    ["result", "{claim}", "--example", "branching", "--only", "claim:h"],
    ["verify", "{claim}", "--example", "branching"],
    ["sweep", "--chains", "2", "--max-states", "3", "--only", "claim:h", "--quiet"],
    ["exhaustive", "--max-states", "1", "--only", "claim:h", "--quiet"],
    ["statistical", "--example", "two-paths", "--only", "thm:main_support_recovery", "--runs", "2"],
    ["chain", "{family}", "--only", "claim:h"],
])
def test_json_dash_writes_to_stdout_on_every_command(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    claim = tmp_path / "claim.json"
    claim.write_text(exactpte.decompose(exactpte.example("branching")).to_json())
    family = _write(tmp_path, "pq.json", PQ)
    args = [a.replace("{claim}", str(claim)).replace("{family}", family) for a in argv]
    assert main([*args, "--json", "-"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)  # stdout holds the JSON alone
    assert data and not (tmp_path / "-").exists()


def test_tables_have_a_header_and_speak_one_vocabulary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chain", "--example", "branching"]) == 0
    table = capsys.readouterr().out
    assert re.search(r"^check\s+verdict\s+strength\s+detail$", table, re.M)
    marks = {line.split()[1] for line in table.splitlines()[1:] if re.match(r"^[a-z_]+:\S+\s", line)}
    assert marks <= {"held", "FAILED", "not"}, marks
    assert main(["chain", _write(tmp_path, "pq.json", PQ), "--only", "claim:h,thm:minimal_quotient"]) == 0
    family = capsys.readouterr().out
    assert re.search(r"^\s+check\s+verdict\s+strength\s+detail$", family, re.M)
    assert re.search(r"^\s+thm:minimal_quotient\s+not provable\s+-", family, re.M)
    assert not re.search(r"\s(ok|n/a|n/c|skip)\s", table + family)
    assert main(["verify", _claim(tmp_path), "--example", "branching"]) == 0
    verify = capsys.readouterr().out
    assert re.search(r"^key\s+verdict\s+strength\s+detail$", verify, re.M) and re.search(r"^g_star\s+held\s+exact", verify, re.M)


def _claim(tmp_path: Path) -> str:
    path = tmp_path / "claim.json"
    path.write_text(exactpte.decompose(exactpte.example("branching")).to_json())
    return str(path)


def test_the_whole_region_is_stated_with_its_bounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chain", _write(tmp_path, "curves.json", EMPTY_CURVES), "--only", "thm:wellposed"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "p > 0" in first and "1 - p > 0" in first and "p - 1 != 0" in first  # bounds, not only the inequations


def test_strata_without_a_closed_form_are_checked_at_rational_points(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "circle.json", CIRCLE)
    assert main(["chain", path, "--only", "thm:wellposed,claim:h", "--json", "-"]) == 0
    verdicts = json.loads(capsys.readouterr().out)
    curve = [v for v in verdicts if v["where"][0].startswith("p**2 + q**2 - 4 = 0")]
    assert {v["key"] for v in curve} == {"thm:wellposed", "claim:h"}
    assert all(v["holds"] is True and v["strength"] == "witnesses" and v["witnesses"] >= 2 for v in curve)
    assert any("0 < p < 2" in w for w in curve[0]["where"])
    # --require: held at points is not proved for every chain of the stratum
    assert main(["chain", path, "--require", "thm:wellposed,claim:h,claim:rho"]) == 1
    assert "required thm:wellposed: not proved on every stratum" in capsys.readouterr().err


def test_a_stratum_without_a_chain_says_it_is_empty_and_require_skips_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "curves.json", EMPTY_CURVES)  # 2p^2 - 2p + 1 = 0 and 2p^2 - 3p + 2 = 0: no real p
    assert main(["chain", path, "--only", "thm:wellposed,claim:h", "--require", "thm:wellposed,claim:h"]) == 0
    out = capsys.readouterr().out
    assert out.count("the stratum holds no chain (empty)") == 2


def test_a_corner_that_is_one_chain_gets_the_rational_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chain", _write(tmp_path, "pq.json", PQ), "--json", "-"]) == 0
    verdicts = json.loads(capsys.readouterr().out)
    corner = {v["key"]: v for v in verdicts if v["where"] == ["p = 0", "q = 0"]}
    assert corner["thm:minimal_quotient"]["status"] == "held" and corner["thm:minimal_quotient"]["strength"] == "exact"
    assert corner["certified:enclosures"]["status"] == "held"
    assert not [k for k, v in corner.items() if v["status"] == "not provable"]


CONJECTURES_FILE = '''
import proofs_check

@proofs_check.conjecture("my:gain_below_one")
def gain_below_one(chain, dec):
    """the gain is at most 1"""
    return all(x <= 1 for x in dec.rho)

@proofs_check.conjecture("my:no_half")
def no_half(chain, dec):
    """no transition probability is one half"""
    return all(2 * p != 1 for _i, _j, p in chain.edges())
'''


def test_your_own_conjectures_on_your_own_family(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checks = tmp_path / "mine.py"
    checks.write_text(CONJECTURES_FILE)
    try:
        code = main(["chain", _write(tmp_path, "pq.json", PQ), "--checks", str(checks), "--only", "my:gain_below_one,my:no_half",
                     "--json", "-"])
    finally:
        CONJECTURES.pop("my:gain_below_one", None)
        CONJECTURES.pop("my:no_half", None)
    assert code == 1
    verdicts = json.loads(capsys.readouterr().out)
    generic = {v["key"]: v for v in verdicts if v["stratum"] == 0}
    assert set(generic) == {"my:gain_below_one", "my:no_half"}
    assert generic["my:gain_below_one"]["strength"] == "proved"  # r = (1, 0, p) with 0 < p < 1: rho <= 1 decided
    assert generic["my:no_half"]["status"] == "failed" and "counterexample" in generic["my:no_half"]


def test_exhaustive_lists_every_graphs_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    assert main(["exhaustive", "--max-states", "2", "--only", "claim:h,thm:wellposed", "--json", str(out), "--quiet"]) == 0
    report = json.loads(out.read_text())
    assert len(report["graphs"]) == 7
    assert {"n": 2, "graph": [[0, 1], [1]], "checks": {"claim:h": "proved", "thm:wellposed": "proved"}} in report["graphs"]
    assert all(set(g["checks"]) == {"claim:h", "thm:wellposed"} and set(g["checks"].values()) == {"proved"} for g in report["graphs"])
    assert [g["graph"] for g in report["graphs"] if g["n"] == 1] == [[[0]]]
    text = capsys.readouterr().out
    assert re.search(r"^check\s+graphs by verdict", text, re.M)


def test_exhaustive_names_each_counterexample_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checks = tmp_path / "mine.py"
    checks.write_text(CONJECTURES_FILE)
    try:
        code = main(["exhaustive", "--max-states", "2", "--checks", str(checks), "--only", "my:no_half", "--failures",
                     str(tmp_path / "cex"), "--quiet"])
    finally:
        CONJECTURES.pop("my:gain_below_one", None)
        CONJECTURES.pop("my:no_half", None)
    assert code == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAILED my:no_half")]
    assert lines and all(f"counterexample {tmp_path / 'cex'}" in line for line in lines)
