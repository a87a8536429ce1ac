"""Readers and writers for the formats users' chains come in: exact round trips and named errors."""

import flint
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given

import exactpte
from exactpte import ChainFileError, FloatEntryError, MarkovRewardProcess
from exactpte.io import read_drn, read_edge_csv, read_prism, to_drn, to_edge_csv, to_prism
from exactpte.testing.strategies import chains


@given(chains(max_states=12, reward_denominator=3))
def test_round_trips_are_exact(chain):
    assert read_drn(to_drn(chain)) == chain
    tra, srew, lab = to_prism(chain)
    assert read_prism(tra, srew, lab) == chain
    assert read_prism(*to_prism(chain, flavour="storm")) == chain
    edges, rewards = to_edge_csv(chain)
    assert read_edge_csv(edges, rewards, n=chain.n) == chain


def test_load_dispatches_on_the_file_ending(tmp_path):
    chain = exactpte.example("branching")
    (tmp_path / "m.drn").write_text(to_drn(chain))
    tra, srew, lab = to_prism(chain)
    (tmp_path / "m.tra").write_text(tra)
    (tmp_path / "m.srew").write_text(srew)
    (tmp_path / "m.lab").write_text(lab)
    e, r = to_edge_csv(chain)
    (tmp_path / "e.csv").write_text(e)
    (tmp_path / "r.csv").write_text(r)
    assert exactpte.load(tmp_path / "m.drn") == chain
    assert exactpte.load(tmp_path / "m.tra", rewards=tmp_path / "m.srew", labels=tmp_path / "m.lab") == chain
    assert exactpte.load(tmp_path / "e.csv", rewards=tmp_path / "r.csv") == chain
    no_rewards = exactpte.load(tmp_path / "m.tra")
    assert set(no_rewards.r) == {0} and any("r = 0" in note for note in no_rewards.notes)
    with pytest.raises(ChainFileError, match="separate reward file"):
        exactpte.load(tmp_path / "m.drn", rewards=tmp_path / "m.srew")


def test_decimals_are_exact_and_the_conversion_is_stated():
    m = read_prism("2 3\n0 0 0.1\n0 1 0.9\n1 1 1\n", "2 1\n0 2.5\n")
    assert dict(m.row(0)) == {0: flint.fmpq(1, 10), 1: flint.fmpq(9, 10)} and m.r[0] == flint.fmpq(5, 2)
    assert any("exact decimals" in note for note in m.notes)
    m = read_drn("@type: DTMC\n@nr_states\n1\n@model\nstate 0 [0.25]\n action 0\n  0 : 1\n")
    assert m.r == (flint.fmpq(1, 4),)


@pytest.mark.parametrize(
    "reader, text, message",
    [
        (read_prism, "1 2\n0 0 1\n", "announces 2 transitions, the file has 1"),
        (read_prism, "x\n", "the first line is 'states transitions'"),
        (read_prism, "2 2\n0 1 1\n1 1 1 9 9\n", "line 3: expected 'source target probability'"),
        (read_drn, "@type: MDP\n", "MDP is not supported"),
        (read_drn, "@model\nstate 0\n action 0\n 0 : 1\n", "missing '@type: DTMC'"),
        (read_edge_csv, "source,target,probability\n0,1\n", "line 2: expected 'source,target,probability'"),
    ],
)
def test_bad_files_are_named(reader, text, message):
    with pytest.raises(ChainFileError, match=message):
        reader(text)


def test_invalid_probabilities_in_other_formats_name_the_row():
    with pytest.raises(exactpte.RowSumError, match="row 0 sums to 9/10"):
        read_prism("2 2\n0 1 0.9\n1 1 1\n")


def test_scipy_sparse_needs_an_explicit_exact_conversion():
    m = MarkovRewardProcess.from_sparse(sp.csr_matrix(np.array([[1, 3], [0, 4]])), [0, 1], denominator=4)
    assert dict(m.row(0)) == {0: flint.fmpq(1, 4), 1: flint.fmpq(3, 4)}
    F = sp.csr_matrix(np.array([[0.25, 0.75], [0.0, 1.0]]))
    with pytest.raises(FloatEntryError):
        MarkovRewardProcess.from_sparse(F, [0, 1])
    assert MarkovRewardProcess.from_sparse(F, [0, 1], floats="exact") == m
    G = sp.csr_matrix(np.array([[0.1, 0.9], [0.0, 1.0]]))
    assert dict(MarkovRewardProcess.from_sparse(G, [0, 1], limit_denominator=100).row(0))[0] == flint.fmpq(1, 10)


def test_cli_reads_prism_with_rewards(tmp_path, capsys):
    from exactpte.cli.commands import main

    tra, srew, _ = to_prism(exactpte.example("two-paths"))
    (tmp_path / "m.tra").write_text(tra)
    (tmp_path / "m.srew").write_text(srew)
    assert main(["decompose", str(tmp_path / "m.tra"), "--rewards", str(tmp_path / "m.srew"), "--table"]) == 0
    assert "-14" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["m.json", "m.json.gz", "m.drn", "m.drn.xz", "m.drn.bz2"])
@pytest.mark.parametrize("example", ["periodic", "branching", "two-state-pq"])
def test_dump_writes_the_format_the_ending_names(tmp_path, name, example):
    """dump(chain, 'x.drn') wrote JSON, which load('x.drn') could not read: the ending now chooses the
    format (and the compression), and load reads it back equal."""
    chain = exactpte.example(example)
    exactpte.dump(chain, tmp_path / name)
    assert exactpte.load(tmp_path / name) == chain


@pytest.mark.parametrize("name", ["m.tra", "m.csv", "m.txt", "m.gz"])
def test_dump_refuses_an_ending_it_cannot_write(tmp_path, name):
    with pytest.raises(exactpte.errors.UsageError, match="dump writes .json or .drn"):
        exactpte.dump(exactpte.example("periodic"), tmp_path / name)
    assert not (tmp_path / name).exists()
