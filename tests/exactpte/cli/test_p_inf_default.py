"""``exactpte decompose --json`` leaves the dense P_inf out past P_INF_STATES states unless --p-inf asks
for it, and says so on standard error; at or below the size it is written as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactpte.cli.commands import P_INF_STATES, main
from exactpte.io import dump
from exactpte.model.chain import MarkovRewardProcess


def funnel(path: Path, n: int) -> str:
    """A chain of ``n`` states that all move to the absorbing state 0, written as a chain file."""
    chain = MarkovRewardProcess.from_edges(n, [(s, 0, 1) for s in range(n)], [1] + [0] * (n - 1))
    dump(chain, path)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_past_the_size_p_inf_is_left_out_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At P_INF_STATES + 1 states --json has every key but P_inf, and standard error names --p-inf."""
    path = funnel(tmp_path / "big.json", P_INF_STATES + 1)
    code, out, err = run(capsys, "decompose", path, "--json", "--quiet")
    data = json.loads(out)
    assert code == 0 and "P_inf" not in data and data["rho"] == ["1"] * (P_INF_STATES + 1)
    assert "P_inf" in err and "--p-inf" in err


def test_p_inf_asked_for_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--p-inf writes the n x n P_inf past the size (column 0 all ones here), with no note."""
    n = P_INF_STATES + 1
    code, out, err = run(capsys, "decompose", funnel(tmp_path / "big.json", n), "--json", "--p-inf", "--quiet")
    data = json.loads(out)
    assert code == 0 and len(data["P_inf"]) == n and all(row[0] == "1" and row[1] == "0" for row in data["P_inf"])
    assert "--p-inf" not in err


def test_at_the_size_p_inf_is_written_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At P_INF_STATES states P_inf is in --json by default, and nothing is said."""
    code, out, err = run(capsys, "decompose", funnel(tmp_path / "edge.json", P_INF_STATES), "--json", "--quiet")
    assert code == 0 and len(json.loads(out)["P_inf"]) == P_INF_STATES and "P_inf" not in err


def test_p_inf_and_no_p_inf_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """The two flags contradict each other: a usage error naming both, no output."""
    code, out, err = run(capsys, "decompose", "--example", "two-paths", "--json", "--p-inf", "--no-p-inf")
    assert code == 2 and out == "" and "--p-inf and --no-p-inf" in err


def test_p_inf_outside_json_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--p-inf applies to --json only."""
    code, out, err = run(capsys, "decompose", "--example", "two-paths", "--p-inf")
    assert code == 2 and "--p-inf" in err


def test_a_long_write_reports_its_progress(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a --json write has taken WRITE_PROGRESS_SECONDS (0 here), each key written is reported on
    standard error, the last as all of them; the output is unchanged."""
    import exactpte.cli.commands as cli

    code, quiet_out, _ = run(capsys, "decompose", "--example", "branching", "--json")
    monkeypatch.setattr(cli, "PROGRESS_STATES", 1)
    monkeypatch.setattr(cli, "WRITE_PROGRESS_SECONDS", 0.0)
    code, out, err = run(capsys, "decompose", "--example", "branching", "--json")
    lines = [ln for ln in err.splitlines() if ln.startswith("exact decomposition: writing:")]
    assert code == 0 and out == quiet_out and lines and lines[-1].startswith("exact decomposition: writing: 10/10 keys")
