"""The float route reads CSV edge lists too (what a numpy pipeline writes: ``np.savetxt`` rows of
``source,target,probability``), under the same rule as JSON chain files, with ``--rewards R.csv``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactpte.cli.commands import main

THIRD = repr(1 / 3)  # 0.3333333333333333: three of them sum to 1 - 2^-54, not to 1
EDGES = f"source,target,probability\n0,0,{THIRD}\n0,1,{THIRD}\n0,2,{THIRD}\n1,1,1\n2,2,1.0\n"
REWARDS = "state,reward\n0,1\n1,0\n2,2\n"


def _files(tmp_path: Path, edges: str = EDGES, rewards: str = REWARDS) -> tuple[str, str]:
    (tmp_path / "e.csv").write_text(edges)
    (tmp_path / "r.csv").write_text(rewards)
    return str(tmp_path / "e.csv"), str(tmp_path / "r.csv")


def test_float_csv_is_refused_exactly_and_read_by_the_float_route(tmp_path, capsys):
    edges, rewards = _files(tmp_path)
    assert main(["decompose", edges, "--rewards", rewards, "--json", "--only", "rho"]) == 2
    assert "from the command line: --floats exact" in capsys.readouterr().err  # the exact reader's refusal, with its hint
    assert main(["decompose", edges, "--rewards", rewards, "--floats", "exact", "--json", "--only", "rho"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["rho"] == ["1", "0", "2"]  # state 0 is transient: ρ(0) = (0 + 2) / 2 after repair
    assert "1 row repaired" in out.err
    # the same chain as a JSON file gives the same answer by the same rule
    (tmp_path / "c.json").write_text(json.dumps({"P": [[1 / 3] * 3, [0, 1, 0], [0, 0, 1]], "r": [1, 0, 2]}))
    assert main(["decompose", str(tmp_path / "c.json"), "--floats", "exact", "--json", "--only", "rho"]) == 0
    assert json.loads(capsys.readouterr().out)["rho"] == ["1", "0", "2"]


def test_float_csv_without_rewards_and_with_limit_denominator(tmp_path, capsys):
    edges, _ = _files(tmp_path)
    assert main(["decompose", edges, "--limit-denominator", "10", "--json", "--only", "rho"]) == 0
    assert json.loads(capsys.readouterr().out)["rho"] == ["0", "0", "0"]


@pytest.mark.parametrize("token", ["nan", "inf", "1_0", "0x1", "1/0x3", "½", ""])
def test_float_csv_refuses_what_is_not_a_number_by_line(tmp_path, capsys, token):
    edges, rewards = _files(tmp_path, rewards=f"state,reward\n0,{token}\n1,0\n2,2\n")
    assert main(["decompose", edges, "--rewards", rewards, "--floats", "exact"]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "not a number" in err and err.count("\n") == 1


def test_float_route_rewards_rules(tmp_path, capsys):
    edges, rewards = _files(tmp_path)
    assert main(["decompose", edges, "--rewards", rewards, "--rewards", rewards, "--floats", "exact"]) == 2
    assert "one reward CSV" in capsys.readouterr().err
    (tmp_path / "c.json").write_text(json.dumps({"P": [[1.0]], "r": [1]}))
    assert main(["decompose", str(tmp_path / "c.json"), "--rewards", rewards, "--floats", "exact"]) == 2
    assert "has its 'r'" in capsys.readouterr().err


# --- review: hostile number tokens and repeated edges on the float route ---------------------------


@pytest.mark.parametrize("token", ["1e999", "-1e999", "9" * 400 + ".5", "1e99999999999", "١", "٣/٤", "1/0", "2/00", "1 / 3"])
def test_float_csv_refuses_overflow_foreign_digits_and_zero_denominators_by_line(tmp_path, capsys, token):
    # 1e999 is inf as a float, '١' (Arabic-Indic one) is int('١') == 1 in Python; the exact reader refuses
    # both, so the float route must too, naming the line rather than a later "r[0]"
    edges, rewards = _files(tmp_path, rewards=f"state,reward\n0,{token}\n1,0\n2,2\n")
    assert main(["decompose", edges, "--rewards", rewards, "--floats", "exact"]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and err.count("\n") == 1, err


def test_float_csv_refuses_a_positive_probability_that_underflows_to_zero(tmp_path, capsys):
    # 0 -> 1 with 1e-999 is an edge of the graph; as a float it is 0.0, and dropping it silently
    # would change the classes (state 0 would become absorbing)
    edges, _ = _files(tmp_path, edges="0,0,1\n0,1,1e-999\n1,0,1\n")
    assert main(["decompose", edges, "--floats", "exact"]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "0" in err and err.count("\n") == 1, err
    edges, _ = _files(tmp_path, edges="0,0,1\n0,1,0e-999\n0,1,-0.0\n1,0,1\n")  # written zeros stay zeros
    assert main(["decompose", edges, "--floats", "exact", "--json", "--only", "rho"]) == 2  # ... but 0 -> 1 twice
    assert "repeats the transition 0 -> 1" in capsys.readouterr().err


def test_float_csv_refuses_a_repeated_transition_as_the_exact_reader_does(tmp_path, capsys):
    # docs/formats.md chain-duplicate-edge: "each transition i -> j is given once (in files always)"
    edges, _ = _files(tmp_path, edges="0,1,0.5\n0,1,0.5\n1,0,1\n")
    assert main(["decompose", edges]) == 2
    assert "repeats the transition 0 -> 1" in capsys.readouterr().err
    assert main(["decompose", edges, "--floats", "exact"]) == 2
    err = capsys.readouterr().err
    assert "repeats the transition 0 -> 1" in err and err.count("\n") == 1, err
    (tmp_path / "c.json").write_text(json.dumps({"n": 2, "edges": [[0, 1, 0.5], [0, 1, 0.5], [1, 0, 1.0]], "r": [0, 0]}))
    assert main(["decompose", str(tmp_path / "c.json"), "--floats", "exact"]) == 2
    assert "repeats the transition 0 -> 1" in capsys.readouterr().err



def test_float_json_refuses_a_positive_probability_that_underflows_to_zero(tmp_path, capsys):
    """The JSON chain file's decimals on the float route follow the CSV rule: 1e-999 is no silent 0.0."""
    path = tmp_path / "c.json"
    path.write_text('{"P": [[1, 1e-999], [1, 0]], "r": [0, 0]}')
    assert main(["decompose", str(path), "--floats", "exact"]) == 2
    err = capsys.readouterr().err
    assert "underflows" in err and err.count("\n") == 1, err
    path.write_text('{"P": [[1.0, 0.0], [1.0, 0e5]], "r": [0.5, 0]}')
    assert main(["decompose", str(path), "--floats", "exact", "--json", "--only", "rho"]) == 0


def test_float_csv_as_np_savetxt_writes_it(tmp_path, capsys):
    """np.savetxt(..., delimiter=",") on a float array writes the index columns as floats too
    (0.000000000000000000e+00): the float route reads them as the integers they are; the exact reader
    refuses them naming that route; an index that is not an integer is refused on both."""
    import numpy as np

    np.savetxt(tmp_path / "e.csv", np.array([[0, 0, 1 / 3], [0, 1, 1 / 3], [0, 2, 1 / 3], [1, 1, 1], [2, 2, 1]]), delimiter=",")
    np.savetxt(tmp_path / "r.csv", np.array([1.0, 0.0, 2.0]), delimiter=",")
    edges, rewards = str(tmp_path / "e.csv"), str(tmp_path / "r.csv")
    assert main(["decompose", edges, "--rewards", rewards, "--floats", "exact", "--json", "--only", "rho"]) == 0
    assert json.loads(capsys.readouterr().out)["rho"] == ["1", "0", "2"]
    assert main(["decompose", edges, "--rewards", rewards, "--json"]) == 2
    err = capsys.readouterr().err
    assert "'0.000000000000000000e+00' is not a state index" in err and "--floats exact reads the indices" in err
    (tmp_path / "e.csv").write_text("0,0,0.5\n0,1.5,0.5\n1,1,1\n")
    assert main(["decompose", edges, "--floats", "exact", "--json"]) == 2
    assert "line 2: '1.5' is not a state index" in capsys.readouterr().err
