"""``exactpte conform`` (issue 45): exit codes 0 / 1 / 2, the text and ``--json`` reports, ``--failures DIR``,
inputs as promised, progress on standard error, unusable input named in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from exactpte.cli.commands import main

from paths import ROOT

DATA = ROOT / "tests" / "data" / "conform"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_all_agree_exits_0_and_any_failure_exits_1(capsys):
    code, out, err = run(capsys, "conform", DATA / "cesaro_gain.py", "--corpus", "exhaustive:3")
    assert code == 0 and out.strip().endswith("all agree") and "353 agree, 0 fail" in out
    assert "conform: 353/353 chains" in err  # progress on standard error
    code, out, err = run(capsys, "conform", DATA / "power_gain.py:solve", "--corpus", "exhaustive:3", "--quiet")
    assert code == 1 and err == ""
    assert "FAIL 27 x power-iteration value on a periodic class" in out and "P = [[0, 1], [1, 0]]" in out
    assert "smallest counterexample (2 states" in out and out.strip().endswith("27 of 353 DISAGREE")


def test_json_to_stdout_replaces_the_text_and_to_a_file_comes_beside_it(capsys, tmp_path):
    code, out, _ = run(capsys, "conform", DATA / "power_gain.py", "--corpus", "exhaustive:2", "--json", "-", "--quiet")
    data = json.loads(out)
    assert code == 1 and (data["judged"], data["agreed"]) == (10, 9)
    (failure,) = data["failures"]
    assert (failure["cause"], failure["keys"], failure["count"]) == ("power-iteration value on a periodic class", ["rho"], 1)
    assert failure["smallest"] == {"P": [["0", "1"], ["1", "0"]], "r": ["1", "0"]} and failure["output"] == {"rho": [1.0, 0.0]}
    report = tmp_path / "r.json"
    code, out, _ = run(capsys, "conform", DATA / "power_gain.py", "--corpus", "exhaustive:2", "--json", report, "--quiet")
    assert code == 1 and "FAIL 1 x" in out and json.loads(report.read_text())["failures"][0]["count"] == 1


def test_failures_dir_holds_files_that_check_and_decompose_read(capsys, tmp_path):
    code, _, err = run(capsys, "conform", DATA / "power_gain.py", "--corpus", "exhaustive:2,edge", "--failures",
                       tmp_path / "out", "--quiet")
    folders = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert code == 1 and folders == ["01-power-iteration-value-on-a-periodic-class", "02-unconverged-iteration"]
    assert err.count("exactpte: wrote") == 2
    first = tmp_path / "out" / folders[0]
    assert "again: exactpte check output.json --chain chain.json --atol 1e-09" in (first / "verdict.txt").read_text()
    code, out, _ = run(capsys, "check", first / "output.json", "--chain", first / "chain.json")
    assert code == 1 and "DISAGREES" in out
    code, out, _ = run(capsys, "decompose", first / "chain.json", "--json")
    assert code == 0 and json.loads(out) == json.loads((first / "exact.json").read_text())


@pytest.mark.parametrize("flag, adapter", [("--exact", "exact_classes.py"), ("--sparse", "sparse_classes.py")])
def test_exact_and_sparse_inputs(capsys, flag, adapter):
    code, out, _ = run(capsys, "conform", DATA / adapter, flag, "--corpus", "exhaustive:3", "--quiet")
    assert code == 0 and "353 agree" in out
    code, out, _ = run(capsys, "conform", DATA / adapter, "--corpus", "exhaustive:1", "--quiet")  # float arrays: refused inside
    assert code == 1 and ("raised" in out)


def test_tolerances_and_seed_are_the_runs(capsys):
    code, out, _ = run(capsys, "conform", DATA / "cesaro_gain.py", "--corpus", "random:20:3", "--seed", "3", "--quiet",
                       "--json", "-", "--atol", "1e-7", "--rtol", "1e-9")
    data = json.loads(out)
    assert data["corpora"] == ["random:20:3"] and data["tolerance"] == {"atol": 1e-7, "rtol": 1e-9, "up_to_gauge": False}
    assert data["judged"] == 20


@pytest.mark.parametrize("argv, message", [
    (["missing.py"], "adapter missing.py: no such file"),
    ([DATA / "power_gain.py:gain"], "defines no function 'gain' (its functions: solve"),
    ([DATA / "power_gain.py", "--corpus", "exhaustive:5"], "corpus 'exhaustive:5': N must be an integer from 1 to 4"),
    ([DATA / "power_gain.py", "--corpus", "exhaustive:2,nope"], "'nope' is not a corpus"),
    ([DATA / "power_gain.py", "--json", "/no/such/folder/r.json"], "no folder '/no/such/folder'"),
    ([DATA / "power_gain.py", "--atol", "-1"], "expected a finite number >= 0"),
    ([DATA / "power_gain.py", "--exact", "--sparse"], "not allowed with argument --exact"),
])
def test_unusable_input_exits_2_with_one_named_line(capsys, argv, message):
    code, out, err = run(capsys, "conform", *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_adapter_that_fails_to_load_is_named_without_a_traceback(tmp_path):
    (tmp_path / "broken.py").write_text("import no_such_library_anywhere\n")
    res = subprocess.run([sys.executable, "-m", "exactpte", "conform", str(tmp_path / "broken.py")], capture_output=True,
                         text=True, cwd=ROOT)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == (f"exactpte: error: adapter {tmp_path / 'broken.py'}: loading it raised ModuleNotFoundError: "
                                  "No module named 'no_such_library_anywhere' (at broken.py:1, in <module>)")


def test_what_the_adapter_prints_goes_to_standard_error(tmp_path):
    (tmp_path / "chatty.py").write_text("print('loading my library')\ndef solve(P, r):\n    print('solving')\n    return {'rho': r}\n")
    res = subprocess.run([sys.executable, "-m", "exactpte", "conform", str(tmp_path / "chatty.py"), "--corpus", "exhaustive:1",
                          "--json", "-", "--quiet"], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0 and json.loads(res.stdout)["agreed"] == 1
    assert res.stderr.splitlines()[:2] == ["loading my library", "solving"]
