"""The factored output (every distinct denominator named once) and the strata's closed forms from the CLI:
the factored form reads back to the same values (exactpte's candidate reader, proofs_check's result reader
and the small verify checker all accept it, and reject a corrupted name table), and `--strata` prints every
quantity `--only` asks in --latex, --table and --json, equal cases merged."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.results.factored import DenominatorNames, expand, latex_entry, to_latex_block

PARAMETRIC = ["two-state-pq", "paths-exit", "branching-b", "cycle-ac"]


def _values(dec: Any, data: dict[str, Any], key: str) -> list[Any]:
    F = dec.field
    rows = data[key]
    return [[F.convert(x) for x in row] for row in rows] if rows and isinstance(rows[0], list) else [F.convert(x) for x in rows]


@pytest.mark.parametrize("name", PARAMETRIC)
def test_factored_form_reads_back_to_the_plain_values(name: str) -> None:
    """Every quantity of the factored dict, its names written out, equals the plain dict's, value for value;
    each denominator is named once (no two names for one polynomial) and every name is used."""
    dec = exactpte.decompose(exactpte.example(name))
    plain, factored = dec.to_dict(include_P_inf=False), dec.to_dict(include_P_inf=False, factored=True)
    back = expand(factored)
    assert set(back) == set(plain)
    for key in ("basis", "theta", "g_star", "v_star", "rho", "h", "psi", "stationary", "class_gain"):
        assert _values(dec, back, key) == _values(dec, plain, key), key
    table = factored["denominators"]
    assert len(set(table.values())) == len(table)
    used = set(re.findall(r"D[0-9]+", json.dumps({k: v for k, v in factored.items() if k != "denominators"})))
    assert used == set(table)


def _path_into_cycles(k: int) -> exactpte.ParametricChain:
    """A transient path of ``k`` states (forward p, back q, stay 1 - p - q) into a 2-cycle and a 3-cycle
    (periodic37 in small)."""
    n = k + 5
    P: list[list[Any]] = [[0] * n for _ in range(n)]
    for i in range(k):
        P[i][i], P[i][i + 1 if i + 1 < k else k], P[i][i - 1 if i > 0 else k + 2] = "1-p-q", "p", "q"
    P[k][k + 1] = P[k + 1][k] = P[k + 2][k + 3] = P[k + 3][k + 4] = P[k + 4][k + 2] = 1
    return exactpte.ParametricChain(P, [1] + [0] * (n - 1), params=["p", "q"])


def test_each_denominator_is_written_once_where_the_plain_form_repeats_it() -> None:
    """On a path into two cycles the plain JSON writes the commonest denominator in many entries; the
    factored JSON writes every denominator once, and is no longer than the plain one."""
    dec = exactpte.decompose(_path_into_cycles(5))
    plain, factored = dec.to_json(), dec.to_json(factored=True)
    table = json.loads(factored)["denominators"]
    entries = [x for key in ("g_star", "v_star", "h", "psi") for x in getattr(dec, key)] + \
        [x for row in dec.basis for x in row]
    over_polynomials = [x for x in entries if not x.den.is_constant()]
    assert len(over_polynomials) >= 2 * len(table) > 0  # the plain form writes these denominators again and again
    assert all(factored.count(json.dumps(text)) == 1 for text in table.values() if len(text) > 20)
    assert len(factored) < len(plain)


def test_a_corrupted_name_table_changes_the_values() -> None:
    """The mutant: one denominator replaced; reading back no longer gives the decomposition's values."""
    dec = exactpte.decompose(exactpte.example("two-state-pq"))
    factored = dec.to_dict(only="rho", factored=True)
    factored["denominators"]["D1"] = factored["denominators"]["D1"] + " + 1"
    assert _values(dec, expand(factored), "rho") != list(dec.rho)
    with pytest.raises(ValueError, match="D9"):
        expand({"rho": ["1/D9"], "denominators": {"D1": "p"}})


def test_names_avoid_a_parameter_called_like_them() -> None:
    m = exactpte.ParametricChain([["1-D1", "D1"], ["1/2", "1/2"]], [1, 0], params=["D1"])
    names = DenominatorNames(m.field)
    dec = exactpte.decompose(m)
    texts = [names(x) for x in dec.rho]
    assert names.prefix == "DEN" and all("DEN1" in t for t in texts if "/" in t)
    assert [m.field.convert(t) for t in expand({"rho": texts, "denominators": names.table})["rho"]] == list(dec.rho)


def _rational(name: str) -> exactpte.MarkovRewardProcess:
    from exactpte.testing.random_chains import random_chain

    return exactpte.example(name) if name in exactpte.EXAMPLES else random_chain(14, seed=int(name.split("-")[1]), n_classes=3)


@pytest.mark.parametrize("name", ["branching", "random-2", "random-5"])
def test_rational_factored_results_pass_every_reader(name: str, tmp_path: Path) -> None:
    """A rational result in the factored form: the verify checker and proofs-check's result reader accept it as
    they accept the plain one; a wrong integer in the name table is rejected by both."""
    from proofs_check.judging.readers import load_result
    from proofs_check.trusted.verify import verify
    from exactpte.io import dump
    from exactpte.oracle.candidates import load_candidate

    chain = _rational(name)
    dec = exactpte.decompose(chain)
    factored = dec.to_dict(factored=True)
    if name == "branching":  # denominators of at most two digits: a name would be no shorter, none is made
        assert factored["denominators"] == {} and {**factored, "denominators": None} == {**dec.to_dict(), "denominators": None}
        return
    assert factored["denominators"] and any("/D" in x for x in factored["g_star"] + factored["v_star"])
    assert all(len(text) > 2 for text in factored["denominators"].values())  # only where the name is shorter
    chain_path = tmp_path / "chain.json"
    dump(chain, str(chain_path))
    chain_data = json.loads(chain_path.read_text())
    assert verify(factored, chain_data).valid
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(factored))
    assert load_result(str(path), chain.n) == load_result_plain(dec, tmp_path, chain.n)
    assert load_candidate(path)["g_star"] == dec.to_dict()["g_star"]
    bad = json.loads(json.dumps(factored))
    name_used = next(x for x in bad["v_star"] if "/D" in x).split("/")[1]
    bad["denominators"][name_used] = str(int(bad["denominators"][name_used]) + 1)
    assert not verify(bad, chain_data).valid
    path.write_text(json.dumps(bad))
    assert load_result(str(path), chain.n) != load_result_plain(dec, tmp_path, chain.n)
    bad["denominators"][name_used] = "p"
    path.write_text(json.dumps(bad))
    with pytest.raises(exactpte.errors.ExactpteError, match="positive integers"):
        load_result(str(path), chain.n)


def load_result_plain(dec: Any, tmp_path: Path, n: int) -> Any:
    from proofs_check.judging.readers import load_result

    path = tmp_path / "plain.json"
    path.write_text(dec.to_json())
    return load_result(str(path), n)


def test_cli_factored_json_and_latex(capsys: Any) -> None:
    assert main(["decompose", "--example", "two-state-pq", "--json", "--factored"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["denominators"] and all(x.endswith(tuple(data["denominators"])) or "/" not in x for x in data["h"]) and "D2" in data["denominators"]
    assert main(["decompose", "--example", "two-state-pq", "--latex", "--factored"]) == 0
    tex = capsys.readouterr().out
    assert r"\frac{q}{D_{1}}" in tex and "D_{1} &= p + q" in tex
    assert main(["decompose", "--example", "two-state-pq", "--table", "--factored"]) == 2


def test_cli_strata_latex_prints_every_quantity_asked_merged_and_labelled(capsys: Any) -> None:
    """--strata --latex --only g_star,h: a cases table per state for each, named by the state labels; the
    g*(on) = 1 of four strata written once, under their four conditions."""
    assert main(["decompose", "--example", "two-state-pq", "--strata", "--latex", "--only", "g_star,h"]) == 0
    tex = capsys.readouterr().out
    chain = exactpte.example("two-state-pq")
    for symbol in (r"g^\star_\Pi", "h"):
        for s in range(chain.n):
            assert f"{symbol}(\\text{{{chain.label(s)}}}) = " in tex
    g_on = next(line for line in tex.splitlines() if line.startswith(r"g^\star_\Pi(\text{on})"))
    cases = g_on.split(r"\begin{cases}")[1].split(r"\\")
    # 9 strata, 2 closed forms: q/(p + q) holds on every line (restricted), 1 at p = q = 0 (two absorbing states)
    # and at p = q = 1 (a 2-cycle), where q/(p + q) is 0/0 or 1/2
    assert len(cases) == 2
    assert cases[0].strip() == r"1 & (p = 0,\ q = 0)\ \text{or}\ (p = 1,\ q = 1)"
    assert cases[1].strip().startswith(r"\frac{q}{p + q} & \text{otherwise}")


def test_cli_strata_table_and_json_take_only(capsys: Any) -> None:
    assert main(["decompose", "--example", "two-state-pq", "--strata", "--table", "--only", "rho"]) == 0
    table = capsys.readouterr().out
    assert "rho" in table and "g_star" not in table and "[0] p = 0 and q = 0\n" in table and "[1] otherwise\n" in table
    assert main(["decompose", "--example", "two-state-pq", "--strata", "--json", "--only", "rho,h"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all("rho" in s and "h" in s and "g_star" not in s for s in data["strata"])
    assert main(["decompose", "--example", "two-state-pq", "--strata", "--json", "--only", "rho", "--factored"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all("denominators" in s for s in data["strata"])
    assert main(["decompose", "--example", "two-state-pq", "--strata", "--latex", "--only", "gain"]) == 2


# --- review: the name table's rules (names are D<k> with the writer's prefix, never a parameter's, never nested)


def test_a_parameter_called_d1_reads_back_from_every_entry(tmp_path: Path, capsys: Any) -> None:
    """With a parameter D1 the writer names DEN1, DEN2; the parameter D1 in a numerator (h = D1/DEN2) is the
    parameter, not an undefined name (expand refused the writer's own output)."""
    m = exactpte.ParametricChain([["1-D1", "D1"], ["q", "1-q"]], [1, 0], params=["D1", "q"])
    dec = exactpte.decompose(m)
    factored = dec.to_dict(factored=True)
    assert any(re.search(r"\bD1\b", x) for x in factored["h"])
    assert _values(dec, expand(factored), "h") == list(dec.h)
    assert main(["decompose", str(_dumped(m, tmp_path)), "--json", "--factored"]) == 0
    assert _values(dec, expand(json.loads(capsys.readouterr().out)), "h") == list(dec.h)


def _dumped(m: Any, tmp_path: Path) -> Path:
    chain = tmp_path / "c.json"
    exactpte.dump(m, str(chain))
    return chain


def test_parameters_called_d1_and_den1_get_a_third_prefix() -> None:
    m = exactpte.ParametricChain([["1-D1", "D1"], ["DEN1", "1-DEN1"]], [1, 0], params=["D1", "DEN1"])
    dec = exactpte.decompose(m)
    names = DenominatorNames(m.field)
    texts = [names(x) for x in dec.h]
    assert names.prefix not in ("D", "DEN") and not set(names.table) & {"D1", "DEN1"}
    assert [m.field.convert(t) for t in expand({"h": texts, "denominators": names.table, "params": ["D1", "DEN1"]})["h"]] == list(dec.h)


def test_latex_names_a_denominator_by_its_index_whatever_its_prefix() -> None:
    """The LaTeX forms read a name's index off the one name pattern: ``D_{k}`` for ``Dk``, ``DENk``, ``DEN_k``; a key
    that is no name is refused (removing the characters D, E, N, _ from its left, as ``lstrip`` does, read ``END7`` as 7)."""
    assert to_latex_block({"DEN_12": "p", "D3": "q"}) == "\\[\n\\begin{aligned}\nD_{12} &= p \\\\\nD_{3} &= q\n\\end{aligned}\n\\]"
    assert latex_entry("(p + 1)/(6*DEN__4)") == r"\frac{p + 1}{6 D_{4}}" and latex_entry("q/D7") == r"\frac{q}{D_{7}}"
    with pytest.raises(ValueError, match="not a denominator's name"):
        to_latex_block({"END7": "p"})


@pytest.mark.parametrize("table, params, match", [
    ({"D1": "D2 + 1", "D2": "p"}, ["p"], "nested"),            # a name in a denominator
    ({"D1": "D1"}, ["p"], "nested"),                            # a name used recursively
    ({"D1": "p", "p": "q + 1"}, ["p", "q"], "not 'p'"),         # a key shadowing a parameter
    ({"D1": "p", "X": "q"}, ["p", "q"], "not 'X'"),             # a key that is no name at all
    ({"D1": "p", "DEN2": "q"}, ["p", "q"], "one prefix"),       # two prefixes
    ({"D1": "p"}, ["p", "D1"], "parameter 'D1'"),               # a name that is a parameter's
    ({"D1": "   "}, ["p"], "empty"),
])
def test_a_name_table_breaking_the_rules_is_refused(table: dict[str, str], params: list[str], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        expand({"rho": ["1/D1"], "denominators": table, "params": params})


@pytest.mark.parametrize("table", [{"D1": "D2", "D2": "p + 1"}, {"D1": "p**99999999999"}, {"D1": "__import__('pathlib').Path('PWNED').touch()"},
                                   {"D1": "0"}, {"D1": "1e999999999"}, {"D1": "4", "E": "3"}])
def test_check_refuses_a_hostile_name_table_by_name(table: dict[str, str], tmp_path: Path, capsys: Any) -> None:
    chain, cand = _dumped(exactpte.example("branching"), tmp_path), tmp_path / "cand.json"
    rho = exactpte.decompose(exactpte.example("branching")).to_dict(factored=True)["rho"]
    cand.write_text(json.dumps({"rho": [x if "/" not in x else x.split("/")[0] + "/D1" for x in rho], "denominators": table}))
    code = main(["check", str(cand), "--chain", str(chain)])
    out = capsys.readouterr()
    assert code != 0 and "Traceback" not in out.err and out.err.count("\n") == 1 and not Path("PWNED").exists(), out
