"""MDP files: the JSON MDP format's rules (strict in values, liberal in well-defined shapes), Storm's DRN
with @type: MDP, PRISM's explicit .tra with choices, load_mdp's dispatch."""

import gzip

import flint
import pytest

from exactpte.errors import ChainFileError, NegativeEntryError, RowSumError, ShapeError
from exactpte.io import dumps_mdp, load_mdp, loads_mdp, read_drn_mdp, read_prism_mdp, to_drn_mdp
from exactpte.mdp import MDP
from exactpte.testing.mdps import random_mdp

q = flint.fmpq
M = MDP([[[1, 0], [0, 1]], [[0, 1], ["1/2", "1/2"]]], [[1, 0], [0, "3/2"]])


def test_pymdptoolbox_layout():
    assert loads_mdp('{"P": [[[1, 0], [0, 1]], [[0, 1], ["1/2", 0.5]]], "R": [[1, 0], [0, "3/2"]]}') == M


def test_per_state_layout_under_q_and_where_only_it_fits_under_p():
    q_form = '{"Q": [[[1, 0], [0, 1]], [[0, 1], ["1/2", "1/2"]]], "R": [[1, 0], [0, "3/2"]]}'
    assert loads_mdp(q_form) == MDP.from_actions([[[1, 0], [0, 1]], [[0, 1], ["1/2", "1/2"]]], [[1, 0], [0, "3/2"]])
    ragged = loads_mdp('{"P": [[[1, 0, 0]], [[0, 1, 0], [0, 0, 1]], [{"0": 1}]], "R": [[0], [1, 2], [3]]}')
    assert ragged.num_actions == (1, 2, 1)
    three_by_two = loads_mdp('{"P": [[[1, 0, 0], [0, 1, 0]], [[0, 1, 0], [0, 0, 1]], [[1, 0, 0], [0, 0, 1]]], "R": [[0, 1], [1, 2], [3, 4]]}')
    assert three_by_two.num_actions == (2, 2, 2) and three_by_two.row(0, 1) == ((1, q(1)),)
    pairs = loads_mdp('{"Q": [[[[0, "1/2"], [1, "1/2"]]], [[[1, 1]]]], "R": [[0], [1]]}')
    assert pairs.row(0, 0) == ((0, q(1, 2)), (1, q(1, 2)))


def test_sparse_and_gymnasium_forms():
    sparse = loads_mdp('{"n": 2, "transitions": [[0, 0, 0, 1], [0, 1, 1, 1], [1, 0, 1, "1/2"], [1, 0, 0, "1/2"]], "r": [[1, 0], [3]]}')
    assert sparse.num_actions == (2, 1) and sparse.row(1, 0) == ((0, q(1, 2)), (1, q(1, 2)))
    gym = loads_mdp('{"P": {"0": {"0": [["1/2", 0, 1, false], ["1/2", 1, 0, true]]}, "1": {"0": [[1, 1, 0, true]]}}}')
    assert gym.reward(0, 0) == q(1, 2) and gym.row(0, 0) == ((0, q(1, 2)), (1, q(1, 2)))


def test_written_files_read_back_equal():
    for seed in range(10):
        m = random_mdp(seed, max_states=6)
        assert loads_mdp(dumps_mdp(m)) == m == loads_mdp(dumps_mdp(m, sparse=True)) == read_drn_mdp(to_drn_mdp(m))


@pytest.mark.parametrize("text, words", [
    ('{"P": [[[1]]], "R": [[1]], "P": [[[1]]]}', "appears twice"),
    ('{"P": [[[1]]], "R": [[1]], "gamma": 0.9}', "unknown key(s) ['gamma']"),
    ('{"P": [[[1]]], "R": [[1]], "discount": "x"}', "'discount'"),
    ('{"P": [[[1]]]}', "missing key 'R'"),
    ('{"R": [[1]]}', "missing key 'P'"),
    ('{"P": [[[1]]], "Q": [[[1]]], "R": [[1]]}', "not 'P' and 'Q'"),
    ('{"P": [[[true]]], "R": [[1]]}', "P[0][0][0] is the boolean true"),
    ('{"P": [[[null]]], "R": [[1]]}', "P[0][0][0] is null"),
    ('{"P": [[[1]]], "R": [[null]]}', "'R'[0][0] is null"),
    ('{"P": [[[1]]], "R": [[1]], "r": [[1]]}', "once, as 'R' or as 'r'"),
    ('{"P": [[[1]]], "R": [[NaN]]}', "NaN is not a number"),
    ('{"P": [[[1]]], "R": [[1]], "labels": [1]}', "'labels' must be a list of strings"),
    ('{"n": 1, "R": [[1]]}', "'n' and 'transitions' go together"),
    ('{"P": {"0": {"0": [[1, 0, 0, false]]}}, "R": [[0]]}', "holds its rewards in its outcomes"),
    ('[1]', "top level must be a JSON object"),
    ('{"P": [[[1]]', "not valid JSON"),
])
def test_format_rules_are_named_errors(text, words):
    with pytest.raises(ChainFileError) as info:
        loads_mdp(text, source="m.json")
    assert words in str(info.value) and str(info.value).startswith("m.json")


@pytest.mark.parametrize("text, error, words", [
    ('{"P": [[["1/2", "1/3"], [0, 1]]], "R": [[0], [0]]}', RowSumError, "m.json: P(.|0, a=0) sums to 5/6"),
    ('{"P": [[[2, -1], [0, 1]]], "R": [[0], [0]]}', NegativeEntryError, "P(1|0, a=0) is -1"),
    ('{"P": [[[1, 0], [0, 1]], [[1, 0], [0, 0, 1]]], "R": [[0, 0], [0, 0]]}', ShapeError, "P[1][1] has 3 entries"),
    ('{"P": [[[1, 0], [0, 1]], [[1, 0]]], "R": [[0, 0], [0, 0]]}', ShapeError, "R[1] has 2 rewards, state 1 has 1 actions"),
    ('{"P": [[[0.3333333333333333, 0.6666666666666667]]], "R": [[0]]}', ShapeError, "P[0][0] has 2 entries"),
])
def test_invalid_mdps_in_well_formed_files(text, error, words):
    with pytest.raises(error) as info:
        loads_mdp(text, source="m.json")
    assert words in str(info.value)


def test_a_discount_in_the_file_is_kept_exactly():
    m = loads_mdp('{"P": [[[1]]], "R": [[1]], "discount": 0.9}')
    assert m.discount == q(9, 10) and loads_mdp(dumps_mdp(m)).discount == q(9, 10)


def test_decimals_are_exact_and_say_so():
    m = loads_mdp('{"P": [[[0.25, 0.75], [0, 1]]], "R": [[0.1], [0]]}')
    assert m.reward(0, 0) == q(1, 10) and any("exact decimals" in n for n in m.notes)


def test_drn_mdp_reads_state_and_action_rewards():
    text = ("@type: mdp\n@parameters\n\n@reward_models\nr\n@nr_states\n2\n@nr_choices\n3\n@model\n"
            "state 0 [1] init\n\taction 0 [2]\n\t\t1 : 1/2\n\t\t0 : 1/2\n\taction a1\n\t\t1 : 1\n"
            "state 1\n\taction 0 [5]\n\t\t1 : 1\n")
    m = read_drn_mdp(text)
    assert m.num_actions == (2, 1) and m.reward(0, 0) == 3 and m.reward(0, 1) == 1 and m.reward(1, 0) == 5
    assert m.row(0, 0) == ((0, q(1, 2)), (1, q(1, 2)))
    with pytest.raises(ChainFileError, match="@nr_choices is '4'"):
        read_drn_mdp(text.replace("@nr_choices\n3", "@nr_choices\n4"))
    with pytest.raises(ChainFileError, match="exactpte mdp reads MDPs"):
        read_drn_mdp(text.replace("@type: mdp", "@type: dtmc"))


def test_prism_mdp_with_choices_and_transition_rewards():
    tra = "2 3 5\n0 0 0 1\n0 1 1 1/2\n0 1 0 1/2 go\n1 0 1 1\n"
    with pytest.raises(ChainFileError, match="announces 5 transitions"):
        read_prism_mdp(tra)
    tra = tra.replace("2 3 5", "2 3 4")
    m = read_prism_mdp(tra, "2 1\n1 5\n", trew="2 3 4\n0 1 1 4\n")
    assert m.num_actions == (2, 1) and m.reward(0, 1) == 2 and m.reward(1, 0) == 5
    assert read_prism_mdp("mdp\n0 0 0 1\n").n == 1


def test_load_mdp_dispatches_on_the_ending(tmp_path):
    (tmp_path / "m.json.gz").write_bytes(gzip.compress(dumps_mdp(M).encode()))
    (tmp_path / "m.drn").write_text(to_drn_mdp(M))
    assert load_mdp(tmp_path / "m.json.gz") == M == load_mdp(tmp_path / "m.drn")
    with pytest.raises(ChainFileError, match="unknown MDP-file ending '.csv'"):
        load_mdp(tmp_path / "m.csv")
    with pytest.raises(ChainFileError, match="no such file"):
        load_mdp(tmp_path / "missing.json")
