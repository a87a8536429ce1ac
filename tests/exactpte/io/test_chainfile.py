"""The JSON chain format: round trips, exact decimals, and named errors."""

import flint
import pytest
from hypothesis import given

import exactpte
from exactpte import ChainFileError, RowSumError
from exactpte.io import chain_to_dict
from exactpte.testing.strategies import chains


@given(chains(max_states=12))
def test_round_trip_dense_and_sparse(tmp_path_factory, chain):
    d = tmp_path_factory.mktemp("rt")
    for sparse in (True, False):
        path = d / f"c{sparse}.json"
        exactpte.dump(chain, path, sparse=sparse)
        assert exactpte.load(path) == chain


def test_decimal_literals_are_exact_decimals():
    m = exactpte.loads('{"P": [[0.1, 0.9], [0, 1]], "r": [0.25, "1e-3"]}')
    assert dict(m.row(0))[0] == flint.fmpq(1, 10)
    assert m.r == (flint.fmpq(1, 4), flint.fmpq(1, 1000))


def test_sparse_form_and_labels():
    m = exactpte.loads('{"n": 2, "edges": [[0, 1, 1], [1, 1, "1"]], "r": [1, 2], "labels": ["a", "b"]}')
    assert m.labels == ("a", "b") and dict(m.row(0)) == {1: 1}
    assert chain_to_dict(m, sparse=True)["edges"] == [[0, 1, "1"], [1, 1, "1"]]


@pytest.mark.parametrize(
    "text, message",
    [
        ("nope", "not valid JSON"),
        ("[1, 2]", "top level must be a JSON object"),
        ('{"P": [[1]]}', "missing key 'r'"),
        ('{"r": [1]}', "missing key 'P'"),
        ('{"edges": [], "r": [1]}', "needs 'n'"),
        ('{"P": [[NaN]], "r": [0]}', "NaN is not a number"),
        ('{"P": [[1]], "r": [0], "params": "p"}', "'params' is the string 'p', expected a list"),
    ],
)
def test_bad_files(text, message):
    with pytest.raises(ChainFileError, match=message):
        exactpte.loads(text)


def test_invalid_chain_in_file_names_the_row():
    with pytest.raises(RowSumError, match="row 0 sums to 9/10"):
        exactpte.loads('{"P": [[0.3, 0.6], [0, 1]], "r": [0, 0]}')


def test_missing_file():
    with pytest.raises(ChainFileError, match="cannot read"):
        exactpte.load("/nonexistent/chain.json")


def test_json_decimal_literals_are_noted_like_the_other_formats():
    """A JSON chain with decimal literals carries the note that they were read exactly; one without has none."""
    from exactpte.io.common import DECIMAL_NOTE

    assert exactpte.loads('{"P": [[0.25, 0.75], [0, 1]], "r": [1, 0]}').notes == (DECIMAL_NOTE,)
    assert exactpte.loads('{"P": [["1/4", "3/4"], [0, 1]], "r": [1, 0]}').notes == ()
