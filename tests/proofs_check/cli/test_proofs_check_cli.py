"""proofs-check CLI in-process: chain, result (judging another tool's output), sweep."""

import json

import pytest

import exactpte
from proofs_check.cli import main


def test_chain_command(tmp_path, capsys):
    path = tmp_path / "c.json"
    exactpte.dump(exactpte.example("branching"), path)
    assert main(["chain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "thm:wellposed" in out and "0 failed" in out


def _branching_files(tmp_path):
    """The branching example as a chain file, its exact decomposition as a dict, and a result path."""
    chain = exactpte.example("branching")
    cpath = tmp_path / "c.json"
    exactpte.dump(chain, cpath)
    return cpath, json.loads(exactpte.decompose(chain).to_json()), tmp_path / "r.json"


def test_result_command_accepts_exactptes_own_output(tmp_path):
    """proofs-check result on exactpte's exact JSON output for the chain exits 0."""
    cpath, data, rpath = _branching_files(tmp_path)
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(cpath)]) == 0


def test_result_command_names_the_failed_theorem_and_states(tmp_path, capsys):
    """A result from another tool that reports the classical bias h as its transient part v*
    exits 1; the JSON verdicts say thm:wellposed does not hold and name the states."""
    cpath, data, rpath = _branching_files(tmp_path)
    data["v_star"] = data["h"]
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(cpath), "--json"]) == 1
    verdicts = {v["key"]: v for v in json.loads(capsys.readouterr().out)}
    assert verdicts["thm:wellposed"]["holds"] is False
    assert "states" in verdicts["thm:wellposed"]["detail"]


@pytest.mark.parametrize("key", ["g_star", "basis", "theta", "anchors", "classes"])
def test_result_command_refuses_a_result_lacking_a_key(tmp_path, capsys, key):
    """A result without a required key exits with status 2, says the key is missing (not malformed)
    and points to `proofs-check verify`, which judges partial claims."""
    cpath, data, rpath = _branching_files(tmp_path)
    del data[key]
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(cpath)]) == 2
    err = capsys.readouterr().err
    assert f"lacks the required key '{key}'" in err and "proofs-check verify" in err


def test_sweep_command_writes_report(tmp_path, capsys):
    report = tmp_path / "rep.json"
    code = main(["sweep", "--chains", "12", "--max-states", "8", "--seed", "3", "--json", str(report), "--quiet",
                 "--failures", str(tmp_path / "fail")])
    assert code == 0
    data = json.loads(report.read_text())
    assert data["chains"] == 12
    row = data["checks"]["thm:wellposed"]
    assert row["checked"] == 12 and row["held"] == 12 and row["failed"] == 0
    assert "all checks held" in capsys.readouterr().out


def test_sweep_with_workers_and_only(tmp_path, capsys):
    code = main(["sweep", "--chains", "8", "--max-states", "6", "--workers", "2", "--only", "thm:wellposed,def:main_b", "--quiet"])
    assert code == 0
    out = capsys.readouterr().out
    assert "def:main_b" in out and "lem:shift_b" not in out
    assert main(["sweep", "--chains", "1", "--only", "nope", "--quiet"]) == 2


def test_chains_past_the_dense_limit_are_not_checked_never_held_and_never_abort(tmp_path, capsys):
    """Past --max-dense a check runs on block routes when it has them, else it is "not checked"."""
    from proofs_check.checks import CHECKS, run_checks
    from proofs_check.judging.claims import from_decomposition

    chain = exactpte.example("branching")
    verdicts = run_checks(chain, from_decomposition(exactpte.decompose(chain)), max_dense=3)
    by_status = {}
    for v in verdicts:
        by_status.setdefault(v.status, set()).add(v.key)
    sparse = {k for k, c in CHECKS.items() if c.sparse}
    blocks = {k for k, c in CHECKS.items() if c.block is not None}
    assert by_status["held"] <= sparse | blocks and "structure:cyclic_classes" in by_status["held"]
    assert blocks - {"P_inf", "prop:aperiodic_reduction", "prop:deterministic_cycle"} <= by_status["held"]
    # every check now has a sparse or a block version, so nothing is left "not checked" past the dense limit
    assert set(CHECKS) - sparse - blocks == set()
    assert by_status.get("not checked", set()) == set()
    path = tmp_path / "c.json"
    exactpte.dump(chain, path)
    assert main(["chain", str(path), "--max-dense", "3"]) == 0
    out = capsys.readouterr().out
    assert " 0 failed" in out and "0 not checked" in out


def test_only_takes_comma_separated_keys_and_repeats(capsys):
    """proofs-check --only a,b (as --require and exactpte's --only) and --only a --only b run exactly those checks."""
    for argv in (["--only", "claim:rho,claim:h"], ["--only", "claim:rho", "--only", "claim:h"]):
        assert main(["chain", "--example", "branching", *argv, "--json"]) == 0
        assert sorted(v["key"] for v in json.loads(capsys.readouterr().out)) == ["claim:h", "claim:rho"]


@pytest.mark.parametrize("key, value", [
    ("periods", [2.9, "3"]), ("periods", [1e300, 3]), ("periods", [True, 3]), ("periods", ["23"]),
    ("classes", ["01", "234"]), ("classes", [[False, True], [2, 3, 4]]), ("classes", [[0, 1], [2, 3, "\u0664"]]),
    ("classes", [[0, 1.0000000001], [2, 3, 4]]), ("transient", "56"), ("transient", [5, 6.0]),
    ("anchors", [[0, 0, 0], [0, 1, 1], [1, 0, 2], [1, 1, 3], [1, 2, 10**30]]),
    ("anchors", [[0, 0, 0], [0, 1, 1], [1, 0, 2], [1, 1, 3], [1, 7, 4]]),
])
def test_result_command_refuses_structure_keys_that_are_not_json_integers(tmp_path, capsys, key, value):
    """State indices and periods are JSON integers in range: a float, a bool, a string (never split into
    characters), a non-ASCII digit or an index out of range is refused with exit 2 naming the key; none
    is converted into a claim that then holds, and none escapes as a traceback."""
    cpath, data, rpath = _branching_files(tmp_path)
    data[key] = value
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(cpath)]) == 2
    assert key in capsys.readouterr().err


def test_a_transient_state_listed_twice_is_named(tmp_path, capsys):
    """transient = [5, 6, 6] said 'recurrent states claimed transient: []; transient states not claimed: []'."""
    cpath, data, rpath = _branching_files(tmp_path)
    data["transient"] = [5, 6, 6]
    rpath.write_text(json.dumps(data))
    assert main(["result", str(rpath), "--chain", str(cpath)]) == 1
    assert "transient states listed more than once: [6]" in capsys.readouterr().out


def test_result_text_report_shortens_a_hostile_claims_huge_numbers(tmp_path, capsys):
    """A claim with a 5000-digit entry failed several checks, each printing the number whole; the text report
    shortens every integer past 60 digits (the verdicts still fail)."""
    import json as _json

    import exactpte
    from proofs_check.cli import main as pc_main

    chain = tmp_path / "c.json"
    exactpte.dump(exactpte.example("branching"), str(chain))
    claim = _json.loads(exactpte.decompose(exactpte.example("branching")).to_json())
    claim["v_star"][3] = "1/" + "9" * 5000
    path = tmp_path / "claim.json"
    path.write_text(_json.dumps(claim))
    assert pc_main(["result", str(path), "--chain", str(chain), "--max-dense", "2"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "(5000 digits)" in out and max(len(line) for line in out.splitlines()) < 1000


@pytest.mark.parametrize("argv, message", [
    (["sweep", "--chains", "2", "--json", "{tmp}/no/r.json"], "--json {tmp}/no/r.json: no folder '{tmp}/no' to write it in"),
    (["sweep", "--chains", "2", "--json", "{tmp}"], "cannot write there (a directory)"),
    (["sweep", "--chains", "2", "--plot", "{tmp}/cov.txt"], "--plot takes a .svg, .png or .pdf file"),
    (["exhaustive", "--max-states", "1", "--json", "{tmp}/no/r.json"], "no folder '{tmp}/no'"),
    (["exhaustive", "--max-states", "1", "--state", "{tmp}/no/s.jsonl"], "--state {tmp}/no/s.jsonl: no folder '{tmp}/no'"),
    (["sweep", "--chains", "2", "--failures", "{tmp}/file.txt"], "--failures {tmp}/file.txt: a file, not a folder"),
])
def test_an_output_that_cannot_be_written_is_refused_before_the_run(tmp_path, capsys, monkeypatch, argv, message):
    """A report or picture the run could not write ends neither in a traceback nor after the work: exit 2 at once."""
    import proofs_check.cli as cli

    def never(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(cli, "sweep", never)
    monkeypatch.setattr("proofs_check.runs.exhaustive.exhaustive", never)
    (tmp_path / "file.txt").write_text("")
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv] + ["--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message.replace("{tmp}", str(tmp_path)) in err
