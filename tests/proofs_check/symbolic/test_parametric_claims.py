"""``proofs-check result`` on a parametric chain reads the claim as strictly as a rational one (issue 36): a key
twice (the last one was judged), an unknown key, another ``n``, another format, params that are not the chain's,
deep nesting (a traceback), a long integer (a traceback) are refused with exit 2; a valid answer is read under an
answer's bounds (``p**70`` on a path of 72 states was refused by a chain entry's bound of 64), and the factored
form is read."""

from __future__ import annotations

import json

import pytest

import exactpte
from proofs_check.cli import main

CHAIN = {"params": ["p"], "P": [["1-p", "p"], [1, 0]], "r": [1, 0]}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "chain.json").write_text(json.dumps(CHAIN))
    text = exactpte.decompose(exactpte.load(tmp_path / "chain.json")).to_json(include_P_inf=False)
    return tmp_path, text


def _run(tmp_path, text, chain="chain.json"):
    (tmp_path / "claim.json").write_text(text)
    return main(["result", str(tmp_path / "claim.json"), "--chain", str(tmp_path / chain)])


def test_a_valid_parametric_claim_is_judged(files, capsys):
    tmp_path, text = files
    assert _run(tmp_path, text) == 0
    assert "Strength." not in capsys.readouterr().out  # the summary names strengths by value ("30 proved")


@pytest.mark.parametrize("edit, words", [
    (lambda d, t: t.replace('"g_star": [', '"g_star": ["7", "7"], "g_star": ['), "appears twice"),
    (lambda d, t: json.dumps({**d, "junk": 5}), "unknown key"),
    (lambda d, t: json.dumps({**d, "n": 3}), "n is 3"),
    (lambda d, t: json.dumps({**d, "format": "exactpte.certified/1"}), "format"),
    (lambda d, t: json.dumps({**d, "params": ["q"]}), "not the chain's"),
    (lambda d, t: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (lambda d, t: t.replace('"n": 2', '"n": ' + "9" * 5000), "digits"),
])
def test_a_malformed_parametric_claim_is_refused_by_name(files, capsys, edit, words):
    tmp_path, text = files
    assert _run(tmp_path, edit(json.loads(text), text)) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_an_answer_with_a_power_past_a_chain_entrys_bound_is_read(tmp_path, capsys):
    K = 70  # b(0) = p**70: the chance of walking the whole path
    P = [[0] * (K + 2) for _ in range(K + 2)]
    for i in range(K):
        P[i][i + 1], P[i][K + 1] = "p", "1-p"
    P[K][K] = P[K + 1][K + 1] = 1
    (tmp_path / "path.json").write_text(json.dumps({"params": ["p"], "P": P, "r": [0] * K + [1, 0]}))
    text = exactpte.decompose(exactpte.load(tmp_path / "path.json")).to_json(include_P_inf=False)
    assert "p**70" in text
    assert _run(tmp_path, text, "path.json") == 0


def test_a_factored_parametric_claim_is_read_and_a_wrong_name_fails(files, capsys):
    tmp_path, _ = files
    dec = exactpte.decompose(exactpte.load(tmp_path / "chain.json"))
    data = json.loads(dec.to_json(include_P_inf=False, factored=True))
    assert _run(tmp_path, json.dumps(data)) == 0
    data["denominators"]["D1"] = "p + 2"
    assert _run(tmp_path, json.dumps(data)) == 1


def test_a_heavy_entry_is_refused_quickly_not_expanded(files, capsys):
    import time

    tmp_path, text = files
    data = json.loads(text)
    data["h"] = ["+".join(f"1/(p+{i})" for i in range(1, 3000))] * 2  # 3,000 distinct factors: past a chain entry's length
    t = time.process_time()
    assert _run(tmp_path, json.dumps(data)) == 2
    assert "characters" in capsys.readouterr().err and time.process_time() - t < 10
