"""A tiny chain file whose row misses 1 by 10^-99999 (or whose entry is a 100,000-digit negative number) is refused
with a message of a line, not with the 200,000-digit sum printed whole (issue 36)."""

from __future__ import annotations

import pytest

import exactpte
from exactpte.errors import InvalidChainError, brief


@pytest.mark.parametrize("name, text", [
    ("c.json", '{"P": [["1e-99999", "1/2"], [0, 1]], "r": [0, 0]}'),
    ("c.tra", "2 3\n0 0 1e-99999\n0 1 0.5\n1 1 1\n"),
    ("n.json", '{"P": [["-1e-99999", 1], [0, 1]], "r": [0, 0]}'),
    ("e.json", '{"n": 2, "edges": [[0, 0, "-1e-99999"], [0, 1, 1], [1, 1, 1]], "r": [0, 0]}'),
])
def test_a_tiny_file_gets_a_short_error(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    with pytest.raises(InvalidChainError) as e:
        exactpte.load(tmp_path / name)
    assert len(str(e.value)) < 400 and "characters)" in str(e.value)


def test_brief_keeps_short_text_and_cuts_long_text():
    assert brief("1/2") == "1/2"
    assert brief("7" * 1000) == "7" * 27 + "..." + "7" * 27 + " (1000 characters)"
