"""The CLI, called in-process."""

import json

import pytest

import exactpte
from exactpte.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_examples_lists_one_a_line_name_first(capsys):
    code, out, _ = run(capsys, "examples")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert names == list(exactpte.EXAMPLES)


def test_decompose_example_default_json_latex_table(capsys):
    code, out, _ = run(capsys, "decompose", "--example", "two-paths")
    assert code == 0 and "-14" in out and "F0/C0" in out
    code, out, _ = run(capsys, "decompose", "--example", "two-paths", "--json")
    data = json.loads(out)
    assert code == 0 and data["v_star"][data["labels"].index("p1_14")] == "-14"
    code, out, _ = run(capsys, "decompose", "--example", "branching", "--latex")
    assert code == 0 and "\\begin{tabular}" in out
    code, out, _ = run(capsys, "decompose", "--example", "branching", "--table")
    assert code == 0 and out.startswith("state")


def test_decompose_file_with_anchors(tmp_path, capsys):
    path = tmp_path / "c.json"
    exactpte.dump(exactpte.example("aperiodic"), path)
    code, out, _ = run(capsys, "decompose", str(path), "--json", "--anchors", "1", "--no-p-inf", "--hitting-times")
    data = json.loads(out)
    assert code == 0 and data["anchors"] == [[0, 0, 1]] and data["v_star"] == ["1", "0"]
    assert "P_inf" not in data and data["hitting_times"] == ["2", "0"]


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"P": [[1, 0], ["1/2", "3/5"]], "r": [0, 0]}', "row 1 sums to 11/10, expected exactly 1"),
        ("not json", "not valid JSON"),
        ('{"P": [[1]]}', "missing key 'r'"),
        ('{"P": [[1, 0], [0, 1]], "r": [0, 0.5]}', None),
    ],
)
def test_errors_are_one_line_without_traceback(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run(capsys, "decompose", str(path))
    if message is None:  # a decimal literal in a file is an exact decimal, not a refused float
        assert code == 0
        return
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_bad_anchor_and_unknown_example(capsys):
    code, _, err = run(capsys, "decompose", "--example", "branching", "--anchors", "1,0,2,3,4")
    assert code == 2 and "anchor for class 0, phase 0 is state 1" in err
    code, _, err = run(capsys, "decompose", "--example", "nope")
    assert code == 2 and "unknown example 'nope'" in err
    code, _, err = run(capsys, "decompose", "--example", "branching", "--anchors", "a,b")
    assert code == 2 and "--anchors takes" in err


@pytest.mark.parametrize("argv, total", [((), 6), (("--json", "--no-p-inf"), 9), (("--json", "--only", "rho,h"), 2)])
def test_decompose_reports_progress_on_large_chains(capsys, monkeypatch, argv, total):
    """Past PROGRESS_STATES states the quantities the output prints are computed one by one with a
    progress line on standard error (plain lines off a terminal); --quiet silences it; the output
    itself is unchanged."""
    import exactpte.cli as cli

    code, quiet_out, quiet_err = run(capsys, "decompose", "--example", "branching", *argv)
    assert code == 0 and "exact decomposition" not in quiet_err  # below the threshold: nothing
    monkeypatch.setattr(cli, "PROGRESS_STATES", 1)
    code, out, err = run(capsys, "decompose", "--example", "branching", *argv)
    assert code == 0 and out == quiet_out
    assert err.splitlines()[0].startswith(f"exact decomposition: 0/{total} quantities")
    assert err.splitlines()[-1].startswith(f"exact decomposition: {total}/{total} quantities")
    code, out, err = run(capsys, "decompose", "--example", "branching", "--quiet", *argv)
    assert code == 0 and out == quiet_out and "exact decomposition" not in err
