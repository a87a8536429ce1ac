"""A long run's state file: items written as they finish, read back after an interruption, never mixed with another
run's, a line cut short dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactpte.errors import UsageError
from proofs_check.runs.state import StateFile


def test_items_come_back_and_more_are_appended(tmp_path: Path) -> None:
    path = str(tmp_path / "s.jsonl")
    with StateFile(path, "run", {"a": 1}) as state:
        assert list(state.done()) == []
        for k in range(3):
            state.append({"k": k})
    with StateFile(path, "run", {"a": 1}) as state:
        assert [x["k"] for x in state.done()] == [0, 1, 2]
        state.append({"k": 3})
    with StateFile(path, "run", {"a": 1}) as state:
        assert [x["k"] for x in state.done()] == [0, 1, 2, 3]


def test_a_line_cut_short_is_dropped_and_written_over(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    with StateFile(str(path), "run", {}) as state:
        state.append({"k": 0})
        state.append({"k": 1})
    text = path.read_text()
    for cut in (text[:-1], text[:-4], text + '{"k": 2'):  # the newline, part of the item, a new item lost
        path.write_text(cut)
        with StateFile(str(path), "run", {}) as state:
            done = [x["k"] for x in state.done()]
            state.append({"k": 9})
        assert done == ([0] if cut in (text[:-1], text[:-4]) else [0, 1])
        assert path.read_text() == "\n".join(text.splitlines()[: len(done) + 1]) + '\n{"k":9}\n'


def test_another_run_or_a_foreign_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    with StateFile(str(path), "run", {"a": 1}) as state:
        state.append({"k": 0})
    before = path.read_text()
    with pytest.raises(UsageError, match="holds another run"):
        StateFile(str(path), "run", {"a": 2})
    other = tmp_path / "notes.txt"
    other.write_text("my notes, one line")
    with pytest.raises(UsageError, match="not a run's header"):
        StateFile(str(other), "run", {"a": 1})
    assert path.read_text() == before and other.read_text() == "my notes, one line"


def test_a_damaged_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    with StateFile(str(path), "run", {}) as state:
        state.append({"k": 0})
        state.append({"k": 1})
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "garbage", lines[2]]) + "\n")
    with StateFile(str(path), "run", {}) as state, pytest.raises(UsageError, match="line 2 is not an item"):
        list(state.done())


def test_a_header_cut_short_is_written_anew(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    with StateFile(str(path), "run", {"a": 1}):
        pass
    path.write_text(path.read_text()[:10])
    with StateFile(str(path), "run", {"a": 1}) as state:
        assert list(state.done()) == []
    assert path.read_text() == '{"run":"run","parameters":{"a":1}}\n'
