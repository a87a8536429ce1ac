"""``exactpte conform`` on real peers (issue 45), in the peers stage of CI: the issue's adapters of QuantEcon
and pymdptoolbox on every chain with at most three states, the pytest plugin on them, and the two examples
that show each library's bugs with their smallest counterexamples."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from exactpte.cli.commands import main

from paths import ROOT

DATA = ROOT / "tests" / "data" / "conform"
pytestmark = pytest.mark.extra("peers")


def _need(module: str) -> None:
    pytest.importorskip(module, reason=f"{module} (the peers extra) is not installed")


def _conform(capsys, adapter: str) -> tuple[int, dict]:
    code = main(["conform", str(DATA / adapter), "--corpus", "exhaustive:3", "--json", "-", "--quiet"])
    return code, json.loads(capsys.readouterr().out)


def test_quantecon_dense_agrees_on_every_chain_and_stored_zeros_are_named(capsys):
    _need("quantecon")
    code, data = _conform(capsys, "quantecon_dense.py")
    assert code == 0 and data["judged"] == data["agreed"] == 353 and data["failures"] == []
    code, data = _conform(capsys, "quantecon_csr_zeros.py")
    (failure,) = data["failures"]
    assert code == 1 and (failure["cause"], failure["count"]) == ("zero entries taken as edges", 208)
    assert failure["smallest"]["P"] == [["1", "0"], ["1", "0"]] and failure["output"]["recurrent_classes"] == [[0, 1]]


def test_pymdptoolbox_rvi_fails_on_periodic_and_multichain_chains_each_named_with_two_states(capsys):
    _need("mdptoolbox")
    code, data = _conform(capsys, "mdptoolbox_rvi.py")
    causes = {f["cause"]: f for f in data["failures"]}
    assert code == 1 and {"power-iteration value on a periodic class", "unichain assumption"} <= set(causes)
    assert all(f["cause"] is not None and f["states"] <= 2 for f in data["failures"])
    assert causes["power-iteration value on a periodic class"]["smallest"] == {"P": [["0", "1"], ["1", "0"]], "r": ["1", "0"]}
    assert causes["unichain assumption"]["smallest"] == {"P": [["1", "0"], ["0", "1"]], "r": ["1", "0"]}


def test_pymdptoolbox_rvi_as_an_mdp_solver_fails_on_periodic_and_multichain_mdps(capsys):
    _need("mdptoolbox")
    code = main(["conform", str(DATA / "mdp_rvi.py"), "--mdp", "--json", "-", "--quiet"])
    data = json.loads(capsys.readouterr().out)
    causes = {f["cause"]: f for f in data["failures"]}
    assert code == 1 and data["judged"] == 90 and data["kind"] == "mdp"
    assert causes["power-iteration value on a periodic class"]["states"] <= 2 and causes["unichain assumption"]["states"] <= 2


@pytest.mark.parametrize("adapter, status", [("quantecon_dense.py", 0), ("quantecon_csr_zeros.py", 1), ("mdptoolbox_rvi.py", 1)])
def test_the_plugin_exits_0_on_the_correct_adapter_and_1_on_a_wrong_one(tmp_path, adapter, status):
    _need("quantecon")
    _need("mdptoolbox")
    shutil.copy(DATA / adapter, tmp_path / adapter)
    res = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--exactpte-adapter", adapter,
                          "--exactpte-corpus", "exhaustive:2"], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    assert res.returncode == status, res.stdout[-3000:]
    if status:
        assert "smallest chain on which it fires (2 states" in res.stdout


@pytest.mark.parametrize("example, shown", [
    ("conform_quantecon.py", ["FAIL 208 x zero entries taken as edges", "P = [[1, 0], [1, 0]]", "exit statuses: [0, 1, 0]"]),
    ("conform_mdptoolbox.py", ["FAIL 24 x power-iteration value on a periodic class", "FAIL 31 x unichain assumption",
                               "P = [[0, 1], [1, 0]]", "P = [[1, 0], [0, 1]]", "exit statuses: [1, 1]"]),
])
def test_the_examples_show_each_librarys_bugs_with_their_smallest_counterexamples(example, shown):
    _need("quantecon")
    _need("mdptoolbox")
    res = subprocess.run([sys.executable, str(ROOT / "examples" / example)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=900)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    for text in shown:
        assert text in res.stdout, text
