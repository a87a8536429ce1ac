"""``exactpte mdp`` and ``exactpte check --mdp``, called in-process: exactly the documented keys, exit codes."""

import json
from fractions import Fraction

import pytest

from exactpte.cli.commands import main
from exactpte.io import dumps_mdp
from exactpte.mdp import MDP
from exactpte.testing.mdps import brute_force

MULTI = MDP.from_actions([[[0, 1, 0], [0, 0, 1]], [[0, 1, 0]], [[0, 0, 1]]], [[5, 0], [1], [2]])


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(dumps_mdp(MULTI))
    return path


def test_mdp_json_prints_exactly_the_documented_keys(capsys, model):
    code, out, _ = run(capsys, "mdp", model, "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == ["gain", "bias", "policy", "gain_optimal_actions", "bias_optimal_actions"]
    assert data["gain"] == ["2", "1", "2"] and data["bias"] == ["-2", "0", "0"] and data["gain_optimal_actions"] == [[1], [0], [0]]
    code, out, _ = run(capsys, "mdp", model, "--json", "--discount", "9/10")
    data = json.loads(out)
    assert list(data)[-2:] == ["value", "discount_optimal_actions"]
    bf = brute_force(MULTI, discount="9/10")
    assert data["value"] == bf["value"] and data["discount_optimal_actions"] == bf["discount_optimal_actions"]
    numbers = data["gain"] + data["bias"] + data["value"]
    assert all(str(Fraction(x)) == x for x in numbers)  # reduced p/q strings (integers without /1)


def test_mdp_text_is_a_table_per_state(capsys, model):
    code, out, _ = run(capsys, "mdp", model, "--discount", "0.5")
    lines = out.splitlines()
    assert code == 0 and lines[1].split()[:3] == ["state", "gain", "g*"] and "value (γ = 1/2)" in lines[1]
    assert lines[2].split()[:3] == ["0", "2", "-2"]


@pytest.mark.parametrize("argv, words", [
    (["--discount", "1"], "strictly between 0 and 1"),
    (["--discount", "x"], "expected a number strictly between 0 and 1"),
    (["--indent", "2"], "--indent applies to --json output"),
])
def test_mdp_bad_options_exit_2(capsys, model, argv, words):
    code, _, err = run(capsys, "mdp", model, *argv)
    assert code == 2 and words in err


def test_mdp_bad_file_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"P": [[["1/2", "1/3"], [0, 1]]], "R": [[0], [0]]}')
    code, _, err = run(capsys, "mdp", bad)
    assert code == 2 and err.strip() == f"exactpte: error: {bad}: P(.|0, a=0) sums to 5/6, expected exactly 1"


def test_check_mdp_exit_codes_and_json(capsys, model, tmp_path):
    right = tmp_path / "right.json"
    right.write_text(json.dumps({"policy": [1, 0, 0], "gain": [2, 1, 2], "bias": ["-2", 0, 0]}))
    code, out, _ = run(capsys, "check", right, "--mdp", model)
    assert code == 0 and out.splitlines()[-1] == "agrees"
    wrong = tmp_path / "rvi.json"
    wrong.write_text(json.dumps({"V": [0.0, -998.0, 2.0], "policy": [1, 0, 0], "average_reward": 1.0}))
    code, out, _ = run(capsys, "check", wrong, "--mdp", model, "--json")
    report = json.loads(out)
    gain = next(f for f in report["findings"] if f["key"] == "gain")
    assert code == 1 and not report["agrees"] and "unichain assumption" in gain["diagnosis"]
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"policy": [1, 0]}))
    code, _, err = run(capsys, "check", short, "--mdp", model)
    assert code == 2 and "the policy has 2 entries, the MDP has 3 states" in err
    code, _, err = run(capsys, "check", right, "--chain", model, "--discount", "1/2")
    assert code == 2 and "--discount applies to --mdp" in err
    code, _, err = run(capsys, "check", right, "--mdp", model, "--floats", "exact")
    assert code == 2 and "does not apply to --mdp" in err


def test_check_mdp_reads_a_csv_candidate(capsys, model, tmp_path):
    csv = tmp_path / "out.csv"
    csv.write_text("state,policy,V\n0,1,-2\n1,0,0\n2,0,0\n")  # RVI's relative values: h* itself here
    code, out, _ = run(capsys, "check", csv, "--mdp", model)
    assert code == 0 and out.splitlines()[-1] == "agrees"
