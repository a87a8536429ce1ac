"""The CLI, called in-process."""

import json

import pytest

import exactpte
from exactpte.cli.commands import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_examples_lists_one_a_line_name_first(capsys):
    """exactpte examples prints one example a line, its name first, in EXAMPLES order."""
    code, out, _ = run(capsys, "examples")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert names == list(exactpte.EXAMPLES)


def test_decompose_default_output_is_the_readable_summary(capsys):
    """exactpte decompose with no format option prints the summary: classes named F0/C0, exact values."""
    code, out, _ = run(capsys, "decompose", "--example", "two-paths")
    assert code == 0 and "-14" in out and "F0/C0" in out


def test_decompose_json_is_the_json_contract(capsys):
    """exactpte decompose --json prints the JSON contract, values by state label."""
    code, out, _ = run(capsys, "decompose", "--example", "two-paths", "--json")
    data = json.loads(out)
    assert code == 0 and data["v_star"][data["labels"].index("p1_14")] == "-14"


def test_decompose_latex_is_a_tabular(capsys):
    """exactpte decompose --latex prints a LaTeX tabular."""
    code, out, _ = run(capsys, "decompose", "--example", "branching", "--latex")
    assert code == 0 and "\\begin{tabular}" in out


def test_decompose_table_starts_with_its_header(capsys):
    """exactpte decompose --table prints the plain table, header first."""
    code, out, _ = run(capsys, "decompose", "--example", "branching", "--table")
    assert code == 0 and out.startswith("state")


def test_decompose_file_with_anchors(tmp_path, capsys):
    """A chain file decomposed with --anchors, --no-p-inf and --hitting-times: the chosen anchor is
    used, P_inf is left out, hitting times are added."""
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
    ],
)
def test_errors_are_one_line_without_traceback(tmp_path, capsys, content, message):
    """A bad chain file exits with status 2, nothing on standard output, and one line on standard
    error that names the problem (no traceback)."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run(capsys, "decompose", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_decimal_literal_in_a_file_is_an_exact_decimal(tmp_path, capsys):
    """A decimal number in a chain file (r = 0.5) is read as the exact decimal 1/2, not refused as a float."""
    path = tmp_path / "c.json"
    path.write_text('{"P": [[1, 0], [0, 1]], "r": [0, 0.5]}')
    code, out, _ = run(capsys, "decompose", str(path), "--json")
    assert code == 0 and json.loads(out)["rho"] == ["0", "1/2"]


@pytest.mark.parametrize("argv, message", [
    (("--example", "branching", "--anchors", "1,0,2,3,4"), "anchor for class 0, phase 0 is state 1"),
    (("--example", "branching", "--anchors", "a,b"), "--anchors takes"),
    (("--example", "nope"), "unknown example 'nope'"),
], ids=["anchor-in-the-wrong-phase", "anchors-not-numbers", "unknown-example"])
def test_usage_errors_exit_2_and_say_what_is_wrong(capsys, argv, message):
    """A bad --anchors or an unknown --example exits with status 2 and names the problem."""
    code, _, err = run(capsys, "decompose", *argv)
    assert code == 2 and message in err


@pytest.mark.parametrize("argv, total", [((), 6), (("--json", "--no-p-inf"), 9), (("--json", "--only", "rho,h"), 2)])
def test_decompose_reports_progress_on_large_chains(capsys, monkeypatch, argv, total):
    """Past PROGRESS_STATES states the quantities the output prints are computed one by one with a
    progress line on standard error (plain lines off a terminal); --quiet silences it; the output
    itself is unchanged."""
    import exactpte.cli.commands as cli

    code, quiet_out, quiet_err = run(capsys, "decompose", "--example", "branching", *argv)
    assert code == 0 and "exact decomposition" not in quiet_err  # below the threshold: nothing
    monkeypatch.setattr(cli, "PROGRESS_STATES", 1)
    code, out, err = run(capsys, "decompose", "--example", "branching", *argv)
    assert code == 0 and out == quiet_out
    assert err.splitlines()[0].startswith(f"exact decomposition: 0/{total} quantities")
    assert err.splitlines()[-2].startswith(f"exact decomposition: {total}/{total} quantities")
    assert err.splitlines()[-1] == "exact decomposition: writing the output"
    code, out, err = run(capsys, "decompose", "--example", "branching", "--quiet", *argv)
    assert code == 0 and out == quiet_out and "exact decomposition" not in err


@pytest.mark.parametrize("anchors", ["1 2", "1,,2", "-1,2", "", "0x1"])
def test_anchors_that_are_not_comma_separated_states_are_refused(capsys, anchors):
    """--anchors "1 2" is not the state 12 (nor "-1" a state): exit 2 with the expected form named."""
    assert main(["decompose", "--example", "branching", f"--anchors={anchors}"]) == 2
    assert "comma-separated state indices" in capsys.readouterr().err


def test_an_example_name_given_as_a_file_points_to_example(capsys):
    """'exactpte decompose two-paths' (no such file) suggests --example two-paths."""
    assert main(["decompose", "two-paths"]) == 2
    assert "--example two-paths" in capsys.readouterr().err


def test_a_directory_is_not_a_chain_file(tmp_path, capsys):
    """A directory given as the chain file is named as such, not as an unknown file ending."""
    assert main(["decompose", str(tmp_path)]) == 2
    assert "a directory, not a file" in capsys.readouterr().err


def _example_lines(parser):
    """Every worked example in the subcommands' ``--help`` epilogs: ``(prog, argv)`` pairs (``&&`` split,
    trailing ``# comments`` dropped)."""
    import argparse
    import shlex

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sp in sub.choices.items():
        assert sp.epilog and sp.epilog.startswith("examples:"), f"{name} has no worked examples"
        for line in sp.epilog.splitlines()[1:]:
            for command in line.split("&&"):
                words = shlex.split(command.split(" # ")[0].split(" > ")[0])
                yield words[0], words[1:]


def test_every_worked_example_in_the_help_parses():
    """The examples at the end of each subcommand's ``--help`` are valid command lines of their tool
    (options and values accepted by the parser), so the help cannot drift from the options."""
    from exactpte.cli.commands import _parser as exactpte_parser
    from proofs_check.cli import _parser as proofs_parser

    parsers = {"exactpte": exactpte_parser(), "proofs-check": proofs_parser()}
    seen = 0
    for prog, parser in parsers.items():
        for tool, argv in _example_lines(parser):
            parsers[tool].parse_args(argv)  # a usage error exits 2 (SystemExit): the test fails
            seen += 1
    assert seen >= 20


@pytest.mark.parametrize("argv, prog", [
    ([], "exactpte"),
    (["decompose"], "exactpte decompose"),
    (["decompose", "--example"], "exactpte decompose"),
    (["check", "x.json"], "exactpte check"),
])
def test_a_usage_error_is_one_line_naming_the_help(capsys, argv, prog):
    """A usage error (no command, a missing argument) is one line on standard error that ends by
    naming the help listing the options, exit 2."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"{prog}: error: ") and err.endswith(f" (see '{prog} --help')\n")


def test_draw_into_a_missing_folder_is_a_named_error(tmp_path, capsys):
    code, out, err = run(capsys, "draw", "--example", "branching", "-o", str(tmp_path / "no" / "b.png"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "no folder" in err
