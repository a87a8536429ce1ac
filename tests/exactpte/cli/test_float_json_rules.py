"""The float route (``--floats exact``, ``--limit-denominator``, ``--clip-negative``) reads a JSON chain file under the
format's rules (docs/formats.md: json-duplicate-key, json-unknown-key, json-form, json-types, number-literal), as the
exact reader does; only the values are read differently.  Each file below was accepted (a wrong read) or raised a
traceback (a 5,000-digit integer) on the float route."""

from __future__ import annotations

import json

import pytest

from exactpte.cli.commands import main

ROWS = '[[0.5, 0.5], [0.25, 0.75]]'


@pytest.mark.parametrize("text, words", [
    ('{"P": ' + ROWS + ', "r": [1, 0], "r": [0, 1]}', "appears twice"),  # the last 'r' won, unseen
    ('{"P": ' + ROWS + ', "r": [1, 0], "rewards": [5, 5]}', "unknown key"),  # ignored
    ('{"P": ' + ROWS + ', "n": 2, "edges": [[0, 0, 1], [1, 1, 1]], "r": [1, 0]}', "not both"),  # P won
    ('{"P": ["1"], "r": [0]}', "P[0]"),  # the string "1" was split into characters: the row [1]
    ('{"n": 1, "edges": [[0, 0, 1.0, 7]], "r": [0]}', "edges[0]"),  # the 7 was dropped
    ('{"P": [[1.0]], "r": [0], "labels": [5]}', "labels[0]"),  # read as the label "5"
    ('{"P": [[1]], "r": [' + "9" * 5000 + ']}', None),  # a traceback (Python's 4,300-digit limit)
])
def test_the_float_route_keeps_the_json_rules(tmp_path, capsys, text, words):
    path = tmp_path / "c.json"
    path.write_text(text)
    code = main(["decompose", str(path), "--floats", "exact", "--json", "--only", "rho"])
    out = capsys.readouterr()
    if words is None:  # read exactly, as the exact reader does
        assert code == 0 and json.loads(out.out)["rho"] == ["9" * 5000]
    else:
        assert code == 2 and words in out.err and "Traceback" not in out.err


def test_a_valid_float_json_file_still_reads(tmp_path, capsys):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"n": 2, "edges": [[0, 0, 1 / 3], [0, 1, 2 / 3], [1, 1, 1.0]], "r": ["1/3", 0], "labels": ["a", "b"]}))
    assert main(["decompose", str(path), "--floats", "exact", "--json", "--only", "rho"]) == 0
    assert json.loads(capsys.readouterr().out)["rho"] == ["0", "0"]
