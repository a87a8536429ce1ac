"""The pytest plugin and :func:`exactpte.testing.conformance` (issue 45): one test per chain named after its
graph, a failure that prints the cause and the smallest chain, exit 0 / 1, and no cost when not asked for."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from exactpte.testing import conformance

from paths import ROOT

DATA = ROOT / "tests" / "data" / "conform"
PLUGIN = "exactpte.testing.pytest_plugin"


def _installed() -> bool:
    return any(ep.value == PLUGIN for ep in importlib.metadata.entry_points(group="pytest11"))


def _pytest(cwd, *args: str, adapters=None) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` in ``cwd`` with this tree's exactpte, the plugin loaded as an installation loads it
    (through its entry point; by ``-p`` when exactpte is not installed).  The adapters of tests/data/conform are
    copied into ``adapters`` (default ``cwd``), so no ini file of this project applies."""
    for adapter in DATA.glob("*.py"):
        shutil.copy(adapter, (adapters or cwd) / adapter.name)
    load = [] if _installed() else ["-p", PLUGIN]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *load, *args], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=600)


def test_the_plugin_is_registered_through_the_pytest11_entry_point():
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["pytest11"] == {"exactpte": PLUGIN}


def test_one_test_per_chain_named_after_its_graph_and_exit_0_when_all_agree(tmp_path):
    res = _pytest(tmp_path, "--exactpte-adapter", "cesaro_gain.py:solve", "--exactpte-corpus", "exhaustive:2", "-v")
    ids = [line.split()[0].rsplit("::", 1)[-1] for line in res.stdout.splitlines() if " PASSED" in line]
    assert res.returncode == 0 and "10 passed" in res.stdout
    assert ids[:4] == ["conform[0]", "conform[0-0]", "conform[0-1]", "conform[0-01]"] and len(ids) == 10


def test_a_wrong_adapter_exits_1_and_prints_the_cause_and_the_smallest_chain(tmp_path):
    res = _pytest(tmp_path, "--exactpte-adapter", "power_gain.py", "--exactpte-corpus", "exhaustive:3")
    assert res.returncode == 1 and "27 failed, 326 passed" in res.stdout
    assert "chain 1-0-01 (exhaustive:3): power-iteration value on a periodic class" in res.stdout
    assert 'smallest chain on which it fires (2 states' in res.stdout and '{"P": [["0", "1"], ["1", "0"]], "r": ["1", "0"]}' in res.stdout
    assert "FAILED" in res.stdout and "power_gain.py::conform[1-0]" in res.stdout


def test_an_adapter_outside_the_root_folder_keeps_its_path_in_the_test_ids(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    res = _pytest(tmp_path / "elsewhere", "--exactpte-adapter", f"{tmp_path / 'power_gain.py'}:solve", "--exactpte-corpus", "exhaustive:2",
                  adapters=tmp_path)
    assert res.returncode == 1 and "FAILED ../power_gain.py::conform[1-0]" in res.stdout


def test_options_follow_conform(tmp_path):
    res = _pytest(tmp_path, "--exactpte-adapter", "exact_classes.py", "--exactpte-inputs", "exact",
                  "--exactpte-corpus", "exhaustive:1", "--exactpte-corpus", "edge,random:5", "--exactpte-seed", "2", "-q")
    assert res.returncode == 0 and f"{1 + 21 + 5} passed" in res.stdout, res.stdout[-2000:]
    res = _pytest(tmp_path, "--exactpte-adapter", "power_gain.py", "--exactpte-corpus", "exhaustive:2", "--exactpte-atol", "1", "-q")
    assert res.returncode == 0 and "10 passed" in res.stdout  # the 2-cycle's P^200 r = (1, 2) lies within 1 of (3/2, 3/2)


@pytest.mark.parametrize("args, message", [
    (["--exactpte-adapter", "missing.py"], "exactpte: adapter missing.py: no such file"),
    (["--exactpte-adapter", "x.py", "--exactpte-corpus", "exhaustive:9"], "corpus 'exhaustive:9': N must be"),
])
def test_unusable_input_is_a_usage_error(tmp_path, args, message):
    (tmp_path / "x.py").write_text("def solve(P, r):\n    return {}\n")
    res = _pytest(tmp_path, *args)
    assert res.returncode == 4 and message in res.stderr


def test_the_plugin_costs_nothing_when_not_asked_for(tmp_path):
    (tmp_path / "test_light.py").write_text(
        "import sys\n\ndef test_nothing_heavy_loaded():\n"
        "    loaded = [m for m in ('numpy', 'scipy', 'flint', 'sympy', 'exactpte.oracle', 'exactpte.model') if m in sys.modules]\n"
        "    assert 'exactpte.testing.pytest_plugin' in sys.modules and loaded == []\n")
    res = _pytest(tmp_path, "-q")
    assert res.returncode == 0 and "1 passed" in res.stdout, res.stdout[-2000:]


# -- the helper, in a parametrized test of this suite ------------------------------------------------------------
def _cesaro(P, r):
    Pk = np.linalg.matrix_power(P, 600)
    return {"rho": np.mean([np.linalg.matrix_power(P, k) @ (Pk @ r) for k in range(6)], axis=0)}


@pytest.mark.parametrize("check", conformance(_cesaro, corpus="exhaustive:2"), ids=str)
def test_the_helper_gives_one_check_per_chain(check):
    check()


def test_a_failing_check_names_the_cause_and_the_smallest_chain():
    checks = {str(c): c for c in conformance(str(DATA / "power_gain.py"), corpus=["exhaustive:3"])}
    assert len(checks) == 353 and checks["01-1"].verdict().ok
    with pytest.raises(AssertionError) as info:
        checks["012-2-1"]()
    text = str(info.value)
    assert text.startswith("chain 012-2-1 (exhaustive:3): power-iteration value on a periodic class")
    assert '{"P": [["0", "1"], ["1", "0"]], "r": ["1", "0"]}' in text
