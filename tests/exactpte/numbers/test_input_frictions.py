"""Input frictions of issue #23: numpy scalars wherever an int or a Fraction goes, integer literals
past Python's 4,300-digit limit, Storm's tar-in-gzip DRN files, row-sum errors naming the file,
``chain.P``, and ``dump``/``load`` with file objects."""

import gzip
import io
import sys
import tarfile
from fractions import Fraction

from paths import DATA

import flint
import numpy as np
import pytest

import exactpte
from exactpte import MarkovRewardProcess, ParametricChain
from exactpte.io import read_drn, to_drn
from exactpte.errors import ChainFileError, EntryError, FloatEntryError, RowSumError, ShapeError, UsageError

STORM = DATA / "storm"
BIG = "7" * 5000  # past Python's int <-> str limit (4,300 digits by default)


# -- numpy scalars -------------------------------------------------------------------------------
NUMPY_INTS = [np.int64(2), np.int32(2), np.uint64(2), np.int8(2)]


@pytest.mark.parametrize("k", NUMPY_INTS, ids=lambda k: type(k).__name__)
def test_numpy_integers_are_accepted_as_n_indices_entries_rewards(k):
    """gymnasium's ``action_space.n`` is a numpy integer: it goes wherever an int goes."""
    half = Fraction(1, k)  # before: Fraction(1, np.int64(2)) keeps a numpy denominator and flint raised TypeError
    m = MarkovRewardProcess.from_edges(k, [(np.int64(0), np.uint64(1), 1), (1, 0, half), (1, 1, half)], [k, half])
    assert m.r == (2, flint.fmpq(1, 2)) and m.row(1) == ((0, flint.fmpq(1, 2)), (1, flint.fmpq(1, 2)))
    assert MarkovRewardProcess(np.array([[1, 1], [0, 2]]), [k, 0], denominator=k).row(0)[0][1] == flint.fmpq(1, 2)
    assert MarkovRewardProcess([[0.5, 0.5], [0, 1]], [0, 0], limit_denominator=k).row(0)[0][1] == flint.fmpq(1, 2)
    assert MarkovRewardProcess.from_arrays(k, [0, 1], [1, 0], [1, 1], [1, 1], [0, 0]).n == 2
    assert MarkovRewardProcess.from_policy([[[1, 0], [0, 1]]], [[k], [half]], [[np.int64(1)], [np.uint8(1)]]).r == (2, flint.fmpq(1, 2))
    p = ParametricChain([["p", "1-p"], [np.int64(1), 0]], [k, half], params=["p"])
    assert str(p.r[1]) == "1/2"
    assert ParametricChain.from_edges(k, [(0, 0, "1-p"), (0, 1, "p"), (1, 0, 1)], [0, 0], params=["p"]).n == 2
    branching = exactpte.example("branching")
    assert read_drn(to_drn(branching), reward_model=np.int64(0)) == branching


@pytest.mark.parametrize("x, error", [
    (np.float64(0.5), FloatEntryError),  # a numpy float is a float: refused unless a conversion is asked
    (np.float32(0.5), FloatEntryError),
    (np.bool_(True), EntryError),  # a numpy bool is not a number
])
def test_numpy_floats_and_bools_are_refused(x, error):
    with pytest.raises(error, match=r"r\[0\]"):
        MarkovRewardProcess([[1]], [x])


def test_numpy_float_with_a_conversion():
    assert MarkovRewardProcess([[np.float64(1.0)]], [np.float32(0.5)], floats="exact").r == (flint.fmpq(1, 2),)


@pytest.mark.parametrize("n", [np.float64(2), np.bool_(True), "2"])
def test_n_must_still_be_an_integer(n):
    with pytest.raises(ShapeError, match="n must be a positive int"):
        MarkovRewardProcess.from_edges(n, [(0, 1, 1), (1, 0, 1)], [0, 0])


# -- integers past Python's digit limit -----------------------------------------------------------
def test_a_5000_digit_integer_is_read_exactly_everywhere(tmp_path):
    """Before: Python's own ValueError about sys.set_int_max_str_digits; now read exactly, the
    interpreter's limit untouched."""
    limit = sys.get_int_max_str_digits()
    big = flint.fmpz(BIG)
    (tmp_path / "c.json").write_text('{"P": [[1]], "r": [%s]}' % BIG)
    (tmp_path / "s.json").write_text('{"P": [[1]], "r": ["-%s/3"]}' % BIG)
    (tmp_path / "m.drn").write_text(f"@type: DTMC\n@nr_states\n1\n@model\nstate 0 [{BIG}.5]\n action 0\n  0 : 1\n")
    (tmp_path / "m.csv").write_text("0,0,1\n")
    (tmp_path / "r.csv").write_text(f"{BIG}\n")
    assert exactpte.load(tmp_path / "c.json").r == (big,)
    assert exactpte.load(tmp_path / "s.json").r == (-flint.fmpq(big, 3),)
    assert exactpte.load(tmp_path / "m.drn").r == (big + flint.fmpq(1, 2),)
    assert exactpte.load(tmp_path / "m.csv", rewards=tmp_path / "r.csv").r == (big,)
    assert MarkovRewardProcess([[1]], [BIG]).r == (big,)
    assert sys.get_int_max_str_digits() == limit


def test_a_literal_past_the_digit_bound_is_a_named_error():
    with pytest.raises(EntryError, match=r"more than the 1000000 allowed"):
        MarkovRewardProcess([[1]], ["1" * 1_000_001])


# -- Storm's tar-in-gzip DRN files -----------------------------------------------------------------
def _tar_gz(members):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if name.endswith("/"):
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
                continue
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue())


def test_a_tar_archive_in_gzip_is_read_as_its_one_member(tmp_path):
    """Storm's resources/examples/testfiles/dtmc/brp-16-2.drn.gz is a tar archive (one member, the
    DRN text) gzipped; before: "line 1: expected a header line starting with '@'" (the tar header)."""
    drn = gzip.decompress((STORM / "brp-16-2.drn.gz").read_bytes())
    path = tmp_path / "brp-16-2.drn.gz"
    path.write_bytes(_tar_gz([("brp-16-2.drn", drn)]))
    assert exactpte.load(path) == exactpte.load(STORM / "brp-16-2.drn.gz")


@pytest.mark.parametrize("members, message", [
    ([("a.drn", b"x"), ("b.drn", b"y")], r"a tar archive with 2 files \(a.drn, b.drn\)"),
    ([("models/", b"")], r"a tar archive with 0 files \(none\)"),
])
def test_a_tar_archive_needs_exactly_one_file(tmp_path, members, message):
    path = tmp_path / "m.drn.gz"
    path.write_bytes(_tar_gz(members))
    with pytest.raises(ChainFileError, match=message):
        exactpte.load(path)


# -- row-sum errors from files name the file -------------------------------------------------------
@pytest.mark.parametrize("name, content", [
    ("chain.json", '{"P": [[1, 0], ["1/2", "3/5"]], "r": [0, 0]}'),
    ("chain.csv", "0,0,1\n1,0,1/2\n1,1,3/5\n"),
    ("chain.tra", "2 3\n0 0 1\n1 0 1/2\n1 1 3/5\n"),
    ("chain.drn", "@type: DTMC\n@nr_states\n2\n@model\nstate 0\n action 0\n  0 : 1\nstate 1\n action 0\n  0 : 1/2\n  1 : 3/5\n"),
])
def test_row_sum_errors_from_files_name_the_file(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(RowSumError, match=rf"^{path}: row 1 sums to 11/10, expected exactly 1$"):
        exactpte.load(path)


def test_other_chain_errors_from_files_name_the_file_too():
    with pytest.raises(ShapeError, match=r"^m.json: P is not square"):
        exactpte.loads('{"P": [[1, 0]], "r": [0]}', source="m.json")


# -- chain.P -----------------------------------------------------------------------------------------
def test_chain_P_is_the_dense_exact_matrix_cached():
    m = exactpte.example("branching")
    assert m.P == tuple(tuple(row) for row in m.dense()) and m.P is m.P
    assert all(m.P[i][j] == q for i, j, q in m.edges())
    p = exactpte.example("two-state-pq")
    assert str(p.P[0][0]) == str(p.row(0)[0][1])


def test_chain_P_refuses_a_huge_chain():
    from exactpte.model.chain import MAX_DENSE_STATES

    n = MAX_DENSE_STATES + 1
    m = MarkovRewardProcess.from_arrays(n, np.arange(n), np.arange(n), np.ones(n, dtype=int), np.ones(n, dtype=int), np.zeros(n, dtype=int))
    with pytest.raises(UsageError, match=r"chain.row\(i\)"):
        m.P


# -- dump / load with file objects ---------------------------------------------------------------------
@pytest.mark.parametrize("buffer", [io.StringIO, io.BytesIO])
def test_dump_and_load_take_file_objects(buffer):
    m = exactpte.example("branching")
    fh = buffer()
    exactpte.dump(m, fh)
    fh.seek(0)
    assert exactpte.load(fh) == m


def test_load_takes_an_open_file_and_its_name(tmp_path):
    m = exactpte.example("branching")
    (tmp_path / "m.drn").write_text(to_drn(m))
    (tmp_path / "m.drn.gz").write_bytes(gzip.compress(to_drn(m).encode()))
    with open(tmp_path / "m.drn") as text, open(tmp_path / "m.drn.gz", "rb") as binary:
        assert exactpte.load(text) == m and exactpte.load(binary) == m
    with open(tmp_path / "m.drn", "rb") as fh:
        assert exactpte.load(fh, format="drn") == m
    with pytest.raises(ChainFileError, match="unknown format 'xml'"):
        exactpte.load(io.StringIO(""), format="xml")


def test_dump_to_an_open_text_file(tmp_path):
    m = exactpte.example("periodic")
    with open(tmp_path / "m.json", "w", encoding="utf-8") as fh:
        exactpte.dump(m, fh)
    assert exactpte.load(tmp_path / "m.json") == m


def test_numpy_integers_name_states_and_horizons():
    """numpy integers (and arrays) are accepted where states or a horizon are asked for."""
    import numpy as np

    chain = exactpte.example("branching")
    members = chain.structure.classes[1]
    expected = exactpte.stationary_distribution(chain, members=list(members))
    assert exactpte.stationary_distribution(chain, members=np.array(members)) == expected
    assert exactpte.stationary_distribution(chain, members=[np.int64(s) for s in members]) == expected
    dec = exactpte.decompose(chain)
    assert dec.returns(np.int64(3)) == dec.returns(3)
