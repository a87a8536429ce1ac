"""Every claimed key is judged, every missing key is named, garbage never agrees.

Through the JSON contract (what another tool writes) and proofs-check's command line:
``--require``, ``--strict``, the chain-input options of ``exactpte decompose`` and the r = 0 note.
"""

import json
from fractions import Fraction

import pytest

import exactpte
from proofs_check.checks import run_checks
from proofs_check.checks.quantities import QUANTITY_CHECKS
from proofs_check.judging.readers import from_json_dict
from proofs_check.cli import main

OPTIONAL = ["rho", "h", "psi", "stationary", "class_gain", "hitting_times", "P_inf", "labels"]
GARBAGE = [float("nan"), float("inf"), "nan", "-inf", "abc", 0.5, None, True, [1], "1/0"]


def _data(name="branching"):
    chain = exactpte.example(name)
    return chain, json.loads(exactpte.decompose(chain).to_json(include_hitting_times=True))


def _plant(data, key, junk):
    """``junk`` in the first number of ``key`` (or as the whole key for labels)."""
    data = json.loads(json.dumps(data))
    if key == "labels":
        data[key] = [junk] * len(data[key]) if junk is not None else 7
    elif isinstance(data[key][0], list):
        data[key][0][0] = junk
    else:
        data[key][0] = junk
    return data


@pytest.mark.parametrize("key", OPTIONAL)
@pytest.mark.parametrize("junk", GARBAGE, ids=repr)
def test_garbage_in_any_claimed_key_is_rejected(key, junk):
    chain, data = _data()
    claim = from_json_dict(_plant(data, key, junk), chain.n)
    (v,) = run_checks(chain, claim, only=[QUANTITY_CHECKS[key]])
    assert v.holds is False, (key, junk, v)
    assert "malformed" in v.detail or (key == "labels" and isinstance(junk, str)), v.detail  # a string is a label, just the wrong one


@pytest.mark.parametrize("key", OPTIONAL)
def test_a_wrong_shape_is_rejected(key):
    chain, data = _data()
    data[key] = data[key][:-1]
    (v,) = run_checks(chain, from_json_dict(data, chain.n), only=[QUANTITY_CHECKS[key]])
    assert v.holds is False


@pytest.mark.parametrize("key", ["g_star", "v_star", "theta", "basis"])
@pytest.mark.parametrize("junk", [float("nan"), "inf", "abc", 0.5])
def test_garbage_in_a_required_key_is_refused(tmp_path, capsys, key, junk):
    chain, data = _data()
    cpath, rpath = tmp_path / "c.json", tmp_path / "r.json"
    exactpte.dump(chain, cpath)
    rpath.write_text(json.dumps(_plant(data, key, junk)))
    assert main(["result", str(rpath), "--chain", str(cpath)]) == 2
    assert key in capsys.readouterr().err


def test_omitted_keys_are_named_quantity_by_quantity(tmp_path, capsys):
    """A bare g*/v*/basis claim is not 'fully verified': every left-out quantity is 'not claimed'."""
    chain, data = _data()
    for key in OPTIONAL:
        del data[key]
    verdicts = {v.key: v for v in run_checks(chain, from_json_dict(data, chain.n))}
    for key in OPTIONAL:
        assert verdicts[QUANTITY_CHECKS[key]].status == "not claimed", key
    assert not any(v.holds is False for v in verdicts.values())
    cpath, rpath = tmp_path / "c.json", tmp_path / "r.json"
    exactpte.dump(chain, cpath)
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(cpath)]) == 0
    out = capsys.readouterr().out
    assert "not claimed (the result leaves them out" in out and "rho" in out.splitlines()[-1]
    assert main(["result", str(rpath), "--chain", str(cpath), "--strict"]) == 1
    assert "--strict" in capsys.readouterr().out
    assert main(["result", str(rpath), "--chain", str(cpath), "--require", "g_star,v_star"]) == 0
    capsys.readouterr()
    assert main(["result", str(rpath), "--chain", str(cpath), "--require", "g_star,rho"]) == 1
    assert "required rho: not claimed" in capsys.readouterr().out
    assert main(["result", str(rpath), "--chain", str(cpath), "--require", "nope"]) == 2


def test_not_checked_is_counted_and_strict_fails_it(tmp_path, capsys):
    """Every check now runs past --max-dense; a chain whose 300-digit entries make 20 exact steps too tall still
    leaves the horizon checks "not checked"."""
    big = 10**300 + 7
    P = [[Fraction(1, 3), Fraction(big - 1, 3 * big), None], [0, 1, 0], [0, Fraction(1, 2), Fraction(1, 2)]]
    P[0][2] = 1 - P[0][0] - P[0][1]
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"P": [[str(x) for x in row] for row in P], "r": ["1", "0", "2"]}))
    assert main(["chain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "WARNING" in out and "not checked" in out
    assert main(["chain", str(path), "--strict"]) == 1


def test_cross_check_is_reported_apart(tmp_path, capsys):
    path = tmp_path / "c.json"
    exactpte.dump(exactpte.example("branching"), path)
    assert main(["chain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "exactpte's own cross-check (not independent" in out and "cross-check(s) by exactpte" in out
    assert main(["chain", str(path), "--json"]) == 0
    kinds = {v["key"]: v["kind"] for v in json.loads(capsys.readouterr().out)}
    assert kinds["certified:enclosures"] == "cross-check" and kinds["thm:wellposed"] == "exact"


def test_chain_and_result_take_exactptes_input_options(tmp_path, capsys):
    """--example, --anchors; a .tra chain without --rewards says r = 0, with --rewards it is checked with them."""
    assert main(["chain", "--example", "branching", "--only", "thm:wellposed"]) == 0
    assert main(["chain", "--example", "periodic", "--anchors", "1,0"]) in (0, 2)  # wrong phase: a named error, never a crash
    capsys.readouterr()
    chain = exactpte.example("branching")
    tra, rew = tmp_path / "c.tra", tmp_path / "c.srew"
    tra.write_text(f"{chain.n} {sum(len(chain.support[s]) for s in range(chain.n))}\n" + "".join(
        f"{s} {j} {p}\n" for s in range(chain.n) for j, p in chain.row(s)))
    rew.write_text(f"{chain.n} {chain.n}\n" + "".join(f"{s} {r}\n" for s, r in enumerate(chain.r)))
    assert main(["chain", str(tra), "--only", "claim:rho"]) == 0
    cap = capsys.readouterr()
    assert "r = 0" in cap.out and "r = 0" in cap.err
    assert main(["chain", str(tra), "--rewards", str(rew), "--only", "claim:rho"]) == 0
    assert "r = 0" not in capsys.readouterr().out
    rpath = tmp_path / "r.json"
    data = json.loads(exactpte.decompose(chain).to_json())
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--example", "branching"]) == 0
    assert main(["result", str(rpath), "--chain", str(tra), "--rewards", str(rew)]) == 1  # the .tra chain has no labels
    data["labels"] = None
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(tra), "--rewards", str(rew)]) == 0
    assert main(["result", str(rpath), "--chain", str(tra)]) == 1  # r = 0: the claim (for the rewards) is wrong


def _result_file(tmp_path, text: str) -> list[str]:
    """The proofs-check result command line for a result file with ``text`` and the branching chain."""
    chain = tmp_path / "chain.json"
    exactpte.dump(exactpte.example("branching"), str(chain))
    result = tmp_path / "result.json"
    result.write_text(text, encoding="utf-8")
    return ["result", str(result), "--chain", str(chain)]


@pytest.mark.parametrize("key, value, message", [
    ("zzz", 1, "unknown key"),
    ("n", "seven", "n is 'seven'"),
    ("n", 8, "but the chain has 7 states"),
    ("n", True, "n is True"),
    ("format", "exactpte.strata/1", "expected 'exactpte.decomposition/1'"),
])
def test_a_result_file_with_a_wrong_header_is_refused_by_name(tmp_path, capsys, key, value, message):
    """An unknown key, a wrong n or another format is unusable input (exit 2), named; never judged as held."""
    data = _data()[1]
    data[key] = value
    assert main(_result_file(tmp_path, json.dumps(data))) == 2
    assert message in capsys.readouterr().err


def test_a_repeated_key_is_refused(tmp_path, capsys):
    """A key given twice in one object (the last value would win unseen) is refused, naming the key."""
    text = json.dumps(_data()[1]).replace('"h": [', '"h": ["9", "9", "9", "9", "9", "9", "9"], "h": [', 1)
    assert main(_result_file(tmp_path, text)) == 2
    assert "the key 'h' appears twice" in capsys.readouterr().err


def test_a_deeply_nested_result_file_is_a_named_error(tmp_path, capsys):
    """JSON nested 100,000 deep gives a named error (exit 2), not a RecursionError traceback."""
    assert main(_result_file(tmp_path, "[" * 100_000 + "]" * 100_000)) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_the_valid_result_file_still_holds(tmp_path):
    """The same command on exactpte's own output exits 0 (the header checks refuse nothing valid)."""
    assert main(_result_file(tmp_path, json.dumps(_data()[1]))) == 0
