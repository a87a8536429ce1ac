"""proofs-check chain / result on parametric chains: per-stratum proofs, agreement with the rational
checks at points of each stratum, wrong closed forms refuted at a rational point."""

from __future__ import annotations

import json
import re
from pathlib import Path

import flint
import pytest

import exactpte
from proofs_check.checks import run_checks
from proofs_check.judging.claims import from_decomposition
from proofs_check.cli import main
from proofs_check.judging.strength import Strength
from proofs_check.symbolic.region import Region, region_of
from proofs_check.symbolic.proving import check_claim, check_family, rational_failure
from proofs_check.symbolic.claims import evaluate_claim, parametric_claim
from proofs_check.symbolic.identities import SYMBOLIC_CHECKS

CHAIN = {"params": ["p", "q"], "P": [["1-p", "p", 0], [0, "1-q", "q"], ["q", 0, "1-q"]], "r": [1, 0, "p"]}


@pytest.fixture(scope="module")
def chain() -> exactpte.ParametricChain:
    return exactpte.ParametricChain(CHAIN["P"], CHAIN["r"], params=CHAIN["params"])


def test_every_stratum_proved(chain: exactpte.ParametricChain) -> None:
    verdicts = check_family(chain)
    assert not [v for v in verdicts if v.holds is False]
    generic = [v for v in verdicts if v.stratum == 0]
    assert sum(v.holds is True and v.strength == "proved" for v in generic) >= 20
    strata = exactpte.stratify(chain).strata
    assert {v.stratum for v in verdicts} == set(range(len(strata)))
    # every stratum is named by its conditions, a single point too (p = 0, q = 0), never left blank
    assert {v.stratum: tuple(v.where) for v in verdicts} == {k: tuple(s.where) for k, s in enumerate(strata)}
    assert ("p = 0", "q = 0") in {tuple(v.where) for v in verdicts}


def test_stratum_verdicts_agree_with_rational_checks_at_points(chain: exactpte.ParametricChain) -> None:
    keys = [k for k in SYMBOLIC_CHECKS if k.startswith(("thm:", "claim:", "lem:shift", "cor:", "def:theta"))]
    for stratum in exactpte.stratify(chain).strata:
        if stratum.decomposition is None or not stratum.params:
            continue
        region = region_of(stratum, stratum.chain)
        assert region is not None
        claimed = from_decomposition(stratum.decomposition, with_P_inf=False, with_hitting_times=False)
        for point in region.points(3, seed=7):
            assert stratum.contains(chain.field, _original(chain, stratum, point))
            rational = stratum.chain.at(dict(zip(stratum.params, point)))
            verdicts = run_checks(rational, evaluate_claim(claimed, region.field, point), only=keys)
            assert all(v.holds is not False for v in verdicts), [v.detail for v in verdicts if v.holds is False]


def _original(chain: exactpte.ParametricChain, stratum, point) -> list[flint.fmpq]:
    values = dict(zip(stratum.params, point))
    out = []
    for name in chain.params:
        if name in values:
            out.append(values[name])
        else:
            x = stratum.substitution[name]
            out.append(x.evaluate(point) if hasattr(x, "evaluate") else flint.fmpq(x))
    return out


def _claim(chain: exactpte.ParametricChain) -> dict:
    return json.loads(exactpte.decompose(chain).to_json())


def test_correct_closed_form_accepted(chain: exactpte.ParametricChain) -> None:
    verdicts = check_claim(chain, parametric_claim(_claim(chain), chain))
    assert not [v for v in verdicts if v.holds is False]
    assert sum(v.strength == "proved" for v in verdicts if v.holds) >= 10


@pytest.mark.parametrize(("key", "entry"), [("h", 1), ("v_star", 2), ("g_star", 0), ("basis", None)])
def test_wrong_closed_form_refuted_at_a_rational_point(chain: exactpte.ParametricChain, key: str, entry: int | None) -> None:
    data = _claim(chain)
    if key == "basis":
        data["basis"][1][0] = f"({data['basis'][1][0]}) + p*q/1000000"
    else:
        data[key][entry] = f"({data[key][entry]}) + p*q/1000000"
    claimed = parametric_claim(data, chain)
    failed = [v for v in check_claim(chain, claimed) if v.holds is False]
    assert failed
    for v in failed:
        assert v.counterexample is not None
        point = [v.counterexample[p] for p in chain.params]  # exact rationals, never text parsed back
        assert all(isinstance(x, flint.fmpq) for x in point)
        assert all(0 < x < 1 for x in point)  # inside the region 0 < p, q < 1
        _, rational = rational_failure(chain, claimed, point, v.key)
        assert any(r.holds is False for r in rational), v.key  # fails at the rational level too


def test_cli_chain_and_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pq.json"
    path.write_text(json.dumps(CHAIN))
    assert main(["chain", str(path), "--json"]) == 0
    verdicts = json.loads(capsys.readouterr().out)
    assert sum(v["strength"] == "proved" and v["holds"] for v in verdicts) >= 10
    chain = exactpte.ParametricChain(CHAIN["P"], CHAIN["r"], params=CHAIN["params"])
    data = _claim(chain)
    data["h"][0] = f"({data['h'][0]}) + p*q/1000000"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["result", str(bad), "--chain", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "the rational check" in out
    assert re.fullmatch(r"\d+ failed, \d+ proved \(\d+ verdicts\)", out.rstrip().splitlines()[-1])  # strengths by name


def test_claim_expressions_are_parsed_never_evaluated(chain: exactpte.ParametricChain, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    data = _claim(chain)
    data["h"][0] = "__import__('os').getcwd()"
    path, bad = tmp_path / "pq.json", tmp_path / "bad.json"
    path.write_text(json.dumps(CHAIN))
    bad.write_text(json.dumps(data))
    assert main(["result", str(bad), "--chain", str(path)]) == 2
    assert "h[0]" in capsys.readouterr().err


def test_one_parameter_signs_by_sturm() -> None:
    m = exactpte.ParametricChain([["1-p", "p"], ["p", "1-p"]], [1, 0], params=["p"])
    region = Region(m.field, [m.field.convert("p"), m.field.convert("1 - p")])
    F = m.field
    assert region.sign(F.convert("p*(1-p)"), True) is True
    assert region.sign(F.convert("2*p - 1"), False) is False
    assert region.sign(F.convert("(2*p - 1)^2"), False) is True
    assert region.sign(F.convert("(2*p - 1)^2"), True) is None  # vanishes at p = 1/2 inside the region
    assert region.nonzero_certificate(F.convert("p - 2").num) is not None
    assert region.nonzero_certificate(F.convert("3*p - 1").num) is None


def test_sampled_inequality_says_witnesses() -> None:
    # a region no certificate describes (two parameters, not positive coordinates): b >= 0 is sampled
    m = exactpte.ParametricChain([["p*q", "1 - p*q"], ["q", "1-q"]], ["a", 0], params=["p", "q", "a"])
    dec = exactpte.decompose(m)
    region = Region(m.field, [e for _i, _j, e in m.edges() if not e.is_constant()])
    region.positive = set()  # forget that p, q > 0: no certificate left
    from proofs_check.symbolic.proving import prove

    verdicts = {v.key: v for v in prove(m, from_decomposition(dec, with_P_inf=False, with_hitting_times=False), region,
                                        only=["claim:stationary", "claim:h"])}
    assert verdicts["claim:stationary"].strength == "witnesses" and "rational points" in verdicts["claim:stationary"].detail
    # the identity holds as rational functions, but without the positivity of p, q its denominators have no
    # certificate: reported "exact" with the factors named, never "proved"
    assert verdicts["claim:h"].holds is True and verdicts["claim:h"].strength == "exact"
    assert "not certified" in verdicts["claim:h"].detail


def test_cli_require_and_unsupported_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pq.json"
    path.write_text(json.dumps(CHAIN))
    assert main(["chain", str(path), "--require", "h,thm:wellposed", "--strict"]) == 0
    capsys.readouterr()
    assert main(["chain", str(path), "--anchors", "0"]) == 2
    assert "apply to rational chains" in capsys.readouterr().err


def test_strict_refuses_a_verdict_that_is_not_proved(capsys: pytest.CaptureFixture[str]) -> None:
    from proofs_check.symbolic.proving import FamilyVerdict
    from proofs_check.cli.families import _unmet

    weak = [FamilyVerdict("claim:h", "", True, "", strength=Strength.WITNESSES), FamilyVerdict("claim:rho", "", True, "")]
    assert _unmet(weak, ["h"], False) == ["required h: not proved on every stratum"]
    assert _unmet(weak, ["rho"], True) and not _unmet(weak[1:], ["rho"], True)


def test_wrong_p_inf_refuted_when_absorption_is_read_off_it() -> None:
    m = exactpte.ParametricChain([["1-p", "p", 0, 0], [0, 0, 1, 0], [0, "q", 0, "1-q"], [0, 0, 1, 0]], [1, 0, "p", 2],
                                 params=["p", "q"])
    data = _claim(m)
    assert "absorption" not in data and "P_inf" in data  # exactpte's JSON: P_inf, not the absorption probabilities
    good = check_claim(m, parametric_claim(data, m))
    assert not [v for v in good if v.holds is False]
    assert {v.key for v in good if v.strength == "proved" and v.holds} >= {"P_inf", "claim:absorption", "claim:h"}
    data["P_inf"][2][1] = f"({data['P_inf'][2][1]}) + p*q/1000000"
    claimed = parametric_claim(data, m)
    bad = {v.key: v for v in check_claim(m, claimed) if v.holds is False}
    assert "P_inf" in bad and "the rational check" in bad["P_inf"].detail


def test_interval_chart_certifies_only_true_signs() -> None:
    m = exactpte.ParametricChain([["1-p", "p"], ["q/(1+q)", "1/(1+q)"]], [1, 0], params=["p", "q"])
    F = m.field
    region = Region(F, [F.convert("p"), F.convert("1 - p"), F.convert("q/(1+q)"), F.convert("1/(1+q)")])
    assert region.boxes[0] == (0, 1)  # 0 < p < 1 read off the entries p and 1 - p
    assert region.nonzero_certificate(F.convert("p - 2").num) is not None
    assert region.sign(F.convert("p + q"), True) is None  # q > 0 is not read off q/(1+q): no certificate, never a guess
    assert region.sign(F.convert("p^2 + p + 1/10"), True) is True
    assert region.sign(F.convert("2 - p"), True) is True
    assert region.sign(F.convert("1/2 - p"), False) is None  # changes sign at p = 1/2: never certified
    assert region.nonzero_certificate(F.convert("2*p - 1").num) is None
    assert region.sign(F.convert("p - 1"), False) is False
