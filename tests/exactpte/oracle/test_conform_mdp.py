"""``exactpte conform --mdp`` (issue 45, MDP solvers): MDP corpora, the MDP kind judged by the MDP oracle, shrinking,
the files written, the command line, the helper and the plugin.  Exact and numpy-only adapters here;
pymdptoolbox's in test_conform_peers.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.errors import UsageError
from exactpte.mdp import MDP
from exactpte.oracle.conformance import Conformance, load_adapter, write_failures
from exactpte.oracle.mdp_conformance import MDPKind, edge_mdps, exhaustive_mdps, mdp_cases_of, mdp_size, random_mdps, smaller_mdps
from exactpte.testing import conformance

from paths import ROOT

DATA = ROOT / "tests" / "data" / "conform"


def test_mdp_corpora_are_every_small_mdp_seeded_random_ones_and_edge_cases():
    cases = exhaustive_mdps(2)
    assert len(cases) == 1 + 81 and len({c.name for c in cases}) == 82
    supports = {tuple(tuple(tuple(j for j, _ in c.problem.row(s, a)) for a in range(2)) for s in range(c.problem.n)) for c in cases}
    assert len(supports) == 82 and all(c.problem.num_actions == (2,) * c.problem.n for c in cases)
    two = next(c.problem for c in cases if c.name == "0|01-1|1")
    assert [[int(two.reward(s, a)) for a in range(2)] for s in range(2)] == [[1, 2], [4, 8]]
    assert [c.problem for c in random_mdps(10, seed=3)] == [c.problem for c in random_mdps(10, seed=3)]
    assert {len(set(c.problem.num_actions)) for c in random_mdps(10, seed=3)} == {1}
    assert {c.name for c in edge_mdps()} >= {"edge-loop-trap", "edge-periodic-optimum", "edge-multichain", "edge-discount-trap"}
    with pytest.raises(UsageError, match="N must be an integer from 1 to 2 for MDPs"):
        mdp_cases_of("exhaustive:3")


def test_a_correct_mdp_solver_agrees_and_a_discounted_one_taken_for_the_gain_is_caught():
    good = Conformance(load_adapter(str(DATA / "mdp_enumeration.py")), kind=MDPKind(), inputs="exact")
    report = good.run(mdp_cases_of("exhaustive:2"))
    assert report.ok and report.judged == 82, report.text()
    bad = Conformance(load_adapter(str(DATA / "mdp_discounted.py")), kind=MDPKind())
    report = bad.run(mdp_cases_of("exhaustive:2,edge"))
    assert not report.ok and all(g.cause is not None and g.problem.n <= 3 for g in report.groups)
    assert "edge-discount-trap" in [name for g in report.groups for name in g.cases]
    assert report.to_dict()["kind"] == "mdp" and set(report.to_dict()["failures"][0]["smallest"]) == {"Q", "R"}
    assert Conformance(bad.solve, kind=MDPKind("9/10")).run(mdp_cases_of("edge")).ok  # judged for its own discount


def test_mdp_shrink_candidates_are_valid_and_smaller_first():
    mdp = next(c.problem for c in random_mdps(20, seed=5, max_states=6) if c.problem.n >= 3)
    candidates = list(smaller_mdps(mdp))
    assert candidates and all(isinstance(c, MDP) for c in candidates)
    assert any(mdp_size(c) < mdp_size(mdp) for c in candidates)
    assert any(c.n == mdp.n - 1 for c in candidates) and any(max(c.num_actions) < max(mdp.num_actions) for c in candidates)


def test_written_mdp_failures_reproduce_with_check_and_mdp(tmp_path, capsys):
    run = Conformance(load_adapter(str(DATA / "mdp_discounted.py")), kind=MDPKind())
    report = run.run(mdp_cases_of("edge"))
    folder = tmp_path / os.path.basename(write_failures(report, str(tmp_path))[0])
    assert sorted(p.name for p in folder.iterdir()) == ["exact.json", "mdp.json", "output.json", "verdict.txt"]
    assert "again: exactpte check output.json --mdp mdp.json" in (folder / "verdict.txt").read_text()
    capsys.readouterr()
    assert main(["check", str(folder / "output.json"), "--mdp", str(folder / "mdp.json")]) == 1
    assert main(["mdp", str(folder / "mdp.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == json.loads((folder / "exact.json").read_text())


def test_the_command_line_takes_mdp_and_discount(capsys):
    code = main(["conform", str(DATA / "mdp_discounted.py"), "--mdp", "--corpus", "edge", "--json", "-", "--quiet"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["kind"] == "mdp" and data["judged"] == len(edge_mdps())
    code = main(["conform", str(DATA / "mdp_discounted.py"), "--mdp", "--discount", "9/10", "--corpus", "edge", "--quiet"])
    assert code == 0 and "all agree" in capsys.readouterr().out
    code = main(["conform", str(DATA / "mdp_discounted.py"), "--discount", "9/10"])
    assert code == 2 and "--discount applies to --mdp" in capsys.readouterr().err
    code = main(["conform", str(DATA / "mdp_discounted.py"), "--mdp", "--corpus", "exhaustive:3"])
    assert code == 2 and "N must be an integer from 1 to 2 for MDPs" in capsys.readouterr().err


def test_the_helper_and_the_plugin_take_mdp_solvers(tmp_path):
    checks = conformance(str(DATA / "mdp_discounted.py"), mdp=True, corpus="edge")
    failing = [c for c in checks if not c.verdict().ok]
    assert "edge-discount-trap" in [str(c) for c in failing]
    with pytest.raises(AssertionError, match=r"(?s)MDP edge-discount-trap \(edge\): discount as a stand-in.*smallest MDP on which it fires"):
        next(c for c in failing if str(c) == "edge-discount-trap")()
    with pytest.raises(UsageError, match="a discount applies to MDP solvers"):
        conformance(str(DATA / "mdp_discounted.py"), discount="9/10")
    shutil.copy(DATA / "mdp_discounted.py", tmp_path / "mdp_discounted.py")
    res = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--exactpte-adapter", "mdp_discounted.py",
                          "--exactpte-mdp", "--exactpte-corpus", "edge"], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    assert res.returncode == 1 and "mdp_discounted.py::conform[edge-discount-trap]" in res.stdout
