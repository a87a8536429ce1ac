"""The DRN reader's whole-text route (``drn._plain_model``, files laid out as Storm writes them) takes only
files the line reader takes, to the same chain, notes included; every other file, and every error, goes to the
line reader, which names the rule and the line.  Checked on Storm's files, on random chains, and on mutated
files: the outcome with the route (chain and notes, or error class and message) is the outcome without it."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactpte import ExactpteError
from exactpte.io import drn, read_drn, to_drn
from exactpte.io.common import DECIMAL_NOTE
from exactpte.testing.strategies import chains

from paths import ROOT
from text_mutations import mutated

FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
FILES = sorted((ROOT / "benchmarks" / "data").glob("*.drn.gz")) + sorted((ROOT / "tests" / "data" / "storm").glob("*.drn*"))

STORM_LIKE = """// Exported by storm
@type: DTMC
@value_type: rational
@parameters

@reward_models
steps tokens
@nr_states
4
@nr_choices
4
@model
state 0 [1, 0] init start
\taction 0 [0, 1/2]
\t\t1 : 1/3
\t\t2 : 2/3
state 1 [0, 2]
\taction 0 [1, 0]
\t\t1 : 1/2
\t\t3 : 1/2
state 2 [0, 0] done
\taction 0 [0, 0]
\t\t2 : 1
state 3 [2.5, 1e-1]
\taction 0 [0, 0]
\t\t0 : 1/4
\t\t3 : 3/4
"""


def text_of(path: Path) -> str:
    opener = {".gz": gzip.open, ".xz": lzma.open, ".bz2": bz2.open}.get(path.suffix, open)
    with opener(path, "rt") as fh:
        return fh.read()


def outcome(text: str, plain: bool, **options) -> tuple:
    """``("chain", chain, notes)``, or ``("error", class, message)``, and whether the whole-text route built it."""
    used = []

    def spy(*args):
        got = original(*args) if plain else None
        used.append(got is not None)
        return got

    original = drn._plain_model
    drn._plain_model = spy
    try:
        chain = read_drn(text, source="m.drn", **options)
    except ExactpteError as e:
        return ("error", type(e), str(e)), any(used)
    finally:
        drn._plain_model = original
    return ("chain", chain, chain.notes), any(used)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_storm_files_take_the_whole_text_route_to_the_same_chain(path: Path) -> None:
    text = text_of(path)
    options = {"reward_model": 0} if "two-rewards" in path.name else {}
    fast, used = outcome(text, True, **options)
    slow, _ = outcome(text, False, **options)
    assert used, "a file Storm wrote went to the line reader"
    assert fast[0] == "chain" and fast == slow


@pytest.mark.parametrize("reward_model", [None, "steps", "tokens", 1, "missing"])
def test_rewards_labels_and_decimals_read_as_the_line_reader_reads_them(reward_model) -> None:
    fast, used = outcome(STORM_LIKE, True, reward_model=reward_model)
    assert fast == outcome(STORM_LIKE, False, reward_model=reward_model)[0]
    assert used == (reward_model not in (None, "missing"))  # (None: two reward models, the line reader's message)
    if reward_model == "tokens":
        assert [str(x) for x in fast[1].r] == ["1/2", "2", "0", "1/10"]
        assert fast[2] == (DECIMAL_NOTE,)


@FUZZ
@given(chains(max_states=8, max_classes=3, max_period=3, max_transient=4, reward_denominator=3))
def test_random_chains_written_by_to_drn(chain) -> None:
    fast, used = outcome(to_drn(chain), True)
    assert used and fast[1] == chain and fast == outcome(to_drn(chain), False)[0]


@FUZZ
@given(st.data())
def test_mutated_files_read_as_the_line_reader_reads_them(data) -> None:
    """A few random edits (characters, tokens, whole lines) of a Storm-like file: the route changes nothing
    (a file it cannot take goes to the line reader, and so does every error)."""
    text = data.draw(mutated(STORM_LIKE))
    reward_model = data.draw(st.sampled_from([None, "steps", 1]))
    assert outcome(text, True, reward_model=reward_model)[0] == outcome(text, False, reward_model=reward_model)[0]


@pytest.mark.parametrize("edit", [
    ("\t\t3 : 1/2\n", "\t\t3 :  1/2\n"),  # two spaces
    ("\t\t3 : 1/2\n", "\t\t3 : 1/2\n// a comment\n"),
    ("\t\t3 : 1/2\n", "\t\t3 : 1/2\n\n"),  # a blank line inside the model
    ("\t\t1 : 1/3\n\t\t2 : 2/3\n", "\t\t2 : 2/3\n\t\t1 : 1/3\n"),  # targets out of order: sorted by the line reader
    ("state 1 [0, 2]", "state  1 [0, 2]"),
    ("state 1 [0, 2]", "state 1  [0, 2]"),
    ("state 1 [0, 2]", "state 1\t[0, 2]"),
    ("\t\t3 : 3/4\n", "\t\t3 : 3/4\r\n"),
    ("\t\t2 : 1\n", "\t\t2 : 1\n\t\t3 : 0\n"),  # a zero probability
    ("\t\t2 : 1\n", "\t\t2 : 1\n\t\t2 : 0\n"),  # a repeated target
    ("\t\t2 : 1\n", "\t\t2 : 2\n"),  # a row summing to 2
    ("\t\t2 : 1\n", ""),  # a state without transitions
    ("\taction 0 [0, 0]\n\t\t2 : 1\n", "\taction 0 [0, 0]\n\taction 1\n\t\t2 : 1\n"),
    ("state 3", "state 4"),
    ("\t\t1 : 1/3", "\t\t7 : 1/3"),
    ("\t\t1 : 1/3", "\t\t\u0661 : 1/3"),
    ("[1, 0] init", "[1, x] init"),
])
def test_each_departure_from_storm_layout_reads_as_the_line_reader_reads_it(edit) -> None:
    old, new = edit
    assert old in STORM_LIKE
    text = STORM_LIKE.replace(old, new, 1)
    assert outcome(text, True, reward_model="steps")[0] == outcome(text, False, reward_model="steps")[0]


@given(st.text(alphabet="0123456789\u0663.eE+-x \n", max_size=30))
def test_the_decimal_note_searches_what_the_single_pattern_searched(text) -> None:
    import re

    from exactpte import MarkovRewardProcess
    from exactpte.io.common import note_decimals

    noted = DECIMAL_NOTE in note_decimals(MarkovRewardProcess([[1]], [0]), [text]).notes
    assert noted == bool(re.search(r"\d\.\d|\d[eE][+-]?\d", text))  # the pattern it replaces
