"""A state index, a count or a label id of 5,000 digits is refused with a ChainFileError/ShapeError naming it, not
with Python's ``ValueError: Exceeds the limit (4300 digits) for integer string conversion`` raised while the
reader converted or printed it (issue 36: found by fuzzing each reader with one-character edits)."""

from __future__ import annotations

import pytest

import exactpte
from exactpte.errors import ExactpteError, brief

BIG = "9" * 5000
DRN = ("@type: DTMC\n@value_type: rational\n@reward_models\nr\n@nr_states\n{n}\n@nr_choices\n{c}\n@model\n"
       "state {s} [1] init\n\taction 0\n\t\t0 : 1/2\n\t\t{t} : 1/2\nstate 1 [0]\n\taction 0\n\t\t1 : 1\n")


@pytest.mark.parametrize("name, text", [
    ("a.json", '{"n": 3, "edges": [[' + BIG + ', 1, "1/2"], [0, 2, 0.5], [1, 1, 1], [2, 0, 1]], "r": [1, 0, 0]}'),
    ("b.json", '{"n": ' + BIG + ', "edges": [[0, 1, 1], [1, 1, 1]], "r": [1, 0]}'),
    ("c.json", '{"n": 2, "edges": [[0, 1, 1], [1, 1, 1, ' + BIG + ']], "r": [1, 0]}'),
    ("a.drn", DRN.format(n=BIG, c=2, s=0, t=1)),
    ("b.drn", DRN.format(n=2, c=BIG, s=0, t=1)),
    ("c.drn", DRN.format(n=2, c=2, s=BIG, t=1)),
    ("d.drn", DRN.format(n=2, c=2, s=0, t=BIG)),
])
def test_a_huge_index_or_count_is_a_named_error(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    with pytest.raises(ExactpteError) as e:
        exactpte.load(tmp_path / name)
    assert len(str(e.value)) < 300


@pytest.mark.parametrize("lab", ['0="init" ' + BIG + '="x"\n0: 0\n', '0="init" 1="x"\n0: ' + BIG + "\n"])
def test_a_huge_label_id_is_a_named_error(tmp_path, lab):
    (tmp_path / "m.tra").write_text("2 3\n0 0 0.5\n0 1 0.5\n1 1 1\n")
    (tmp_path / "m.lab").write_text(lab)
    with pytest.raises(ExactpteError, match="label"):
        exactpte.load(tmp_path / "m.tra", labels=tmp_path / "m.lab")


def test_brief_describes_an_integer_it_cannot_print():
    big = 10**5000 - 1  # (int(BIG) itself is refused by Python's limit)
    assert brief(big) == "<an integer of about 5001 digits>"
    assert "holding an integer" in brief([big], quoted=True)


def test_an_anchor_of_5000_digits_on_the_command_line_is_a_usage_error(capsys):
    from exactpte.cli.commands import main

    assert main(["decompose", "--example", "branching", "--anchors", BIG + ",2,3,4,5"]) == 2
    err = capsys.readouterr().err
    assert "--anchors takes comma-separated state indices" in err and len(err) < 300
