"""Exact imports of float models (exactpte.numbers.from_floats, MarkovRewardProcess.from_float, the float
rule of from_edges / from_policy): conversion, duplicates summed, the documented repair rules,
the report and the refusals above the tolerance."""

from fractions import Fraction

import flint
import numpy as np
import pytest
import scipy.sparse as sp

from exactpte import MarkovRewardProcess
from exactpte.errors import EntryError, FloatEntryError, NegativeEntryError, RowSumError, ShapeError, UsageError
from exactpte.model.chain import import_chain
from exactpte.numbers.from_floats import ImportReport, exact_rows

THIRDS = [[1 / 3, 1 / 3, 1 / 3]] * 3
THIRD = Fraction(1 / 3)  # the float 1/3's exact binary value


def _sums_to_one(rows):
    return all(sum((q for _, q in row), flint.fmpq(0)) == 1 for row in rows)


def test_rounded_thirds_fail_floats_exact_with_a_hint():
    """Before: floats="exact" on rounded thirds fails the row sum; the error now names the repair."""
    with pytest.raises(RowSumError, match=r"row 0 sums to 18014398509481983/18014398509481984.*from_float"):
        MarkovRewardProcess(THIRDS, [0, 0, 0], floats="exact")


def test_rounded_thirds_import_exactly_under_the_largest_rule():
    """Each row's deficit 2^-54 goes to its largest entry (the first on a tie); the report says so."""
    rows, report = exact_rows(THIRDS)
    assert _sums_to_one(rows)
    q = flint.fmpq(THIRD.numerator, THIRD.denominator)
    assert rows[0] == [(0, q + flint.fmpq(1, 2**54)), (1, q), (2, q)]
    assert [rp.row for rp in report.repairs] == [0, 1, 2]
    assert all(rp.deficit == flint.fmpq(1, 2**54) and rp.column == 0 for rp in report.repairs)
    assert report.max_change == flint.fmpq(1, 2**54) and report.max_change_row == 0
    assert "3 rows repaired by the 'largest' rule" in str(report) and "largest change 5.6e-17 (row 0)" in str(report)


def test_from_float_records_the_report_in_notes():
    m = MarkovRewardProcess.from_float(THIRDS, [1.5, 0, 0])
    assert all(sum(q for _, q in m.row(i)) == 1 for i in range(3))
    assert m.r[0] == flint.fmpq(3, 2)
    assert m.notes[0] == "floats read as their exact binary values"
    assert m.notes[1].startswith("3 rows repaired by the 'largest' rule")


def test_limit_denominator_recovers_thirds_without_repair():
    chain, report = import_chain(THIRDS, [0, 0, 0], limit_denominator=1000)
    assert chain.row(0) == ((0, flint.fmpq(1, 3)), (1, flint.fmpq(1, 3)), (2, flint.fmpq(1, 3)))
    assert report.repairs == () and report.max_change == 0
    assert report.max_conversion_change == abs(flint.fmpq(1, 3) - flint.fmpq(THIRD.numerator, THIRD.denominator))
    assert "denominator at most 1000" in chain.notes[0]


def test_proportional_rule_divides_by_the_row_sum():
    rows, report = exact_rows([[0.5, 0.25, 0.25 + 1e-12], [0, 1, 0], [0, 0, 1]], repair="proportional")
    assert _sums_to_one(rows)
    (a, pa), (b, pb), (c, pc) = rows[0]
    assert pa / pb == 2 and report.repairs[0].column is None
    assert report.max_change == report.repairs[0].change > 0


@pytest.mark.parametrize("repair", ["largest", "proportional"])
def test_a_row_beyond_tol_is_refused(repair):
    with pytest.raises(RowSumError, match=r"row 0 sums to .*more than tol = 1e-09: fix the row"):
        exact_rows([[0.5, 0.4], [0, 1]], repair=repair)
    rows, report = exact_rows([[0.5, 0.4], [0, 1]], repair=repair, tol=0.2)  # a larger tol accepts it
    assert _sums_to_one(rows) and report.max_change > 0


def test_tol_is_compared_exactly():
    """|1 - sum| = 2^-54 passes tol = 2^-54 and fails tol = 2^-55 (compared as rationals)."""
    exact_rows(THIRDS, tol=Fraction(1, 2**54))
    with pytest.raises(RowSumError, match="more than tol"):
        exact_rows(THIRDS, tol=2.0**-55)


def test_repair_none_needs_exact_rows():
    with pytest.raises(RowSumError, match="pass repair='largest'"):
        exact_rows(THIRDS, repair=None)
    rows, report = exact_rows([[0.5, 0.5], [0.25, 0.75]], repair=None)
    assert report.repairs == () and rows[1] == [(0, flint.fmpq(1, 4)), (1, flint.fmpq(3, 4))]


@pytest.mark.parametrize("P, error, message", [
    ([[-1e-18, 1.0], [0, 1]], NegativeEntryError, r"P\[0\]\[0\] is .*expected a probability >= 0"),
    ([[float("nan"), 1.0], [0, 1]], EntryError, r"P\[0\]\[0\] is nan"),
    ([[0.0, 0.0], [0, 1]], RowSumError, "row 0 sums to 0"),
])
def test_bad_entries_are_refused(P, error, message):
    with pytest.raises(error, match=message):
        exact_rows(P)


@pytest.mark.parametrize("kwargs, message", [
    ({"repair": "nearest"}, "repair must be"),
    ({"tol": -1}, "tol must be >= 0"),
    ({"tol": float("inf")}, "tol must be a finite number"),
    ({"limit_denominator": 0}, "limit_denominator must be a positive int"),
])
def test_bad_options_are_usage_errors(kwargs, message):
    with pytest.raises(UsageError, match=message):
        exact_rows(THIRDS, **kwargs)


def test_edges_with_duplicates_are_summed_and_counted():
    edges = [(0, 1, 1 / 3), (0, 1, 1 / 3), (0, 0, 1 / 3), (1, 1, 1.0)]
    rows, report = exact_rows(edges, n=2, limit_denominator=100)
    assert rows == [[(0, flint.fmpq(1, 3)), (1, flint.fmpq(2, 3))], [(1, flint.fmpq(1))]]
    assert report.summed == 1 and "1 duplicate transition listing summed" in report.notes()
    with pytest.raises(ShapeError, match="repeats the transition 0 -> 1"):
        exact_rows(edges, n=2, duplicates="error")


def test_sparse_and_mapping_rows():
    P = sp.csr_matrix(np.array(THIRDS))
    assert exact_rows(P, limit_denominator=10)[0] == exact_rows([{0: 1 / 3, 1: 1 / 3, 2: 1 / 3}] * 3, limit_denominator=10)[0]


def test_entries_zeroed_by_the_conversion_are_reported():
    """A tiny float that limit_denominator turns into 0 changes the support: the report names it."""
    rows, report = exact_rows([[1e-12, 1 - 1e-12], [0, 1]], limit_denominator=1000)
    assert rows[0] == [(1, flint.fmpq(1))]
    assert report.zeroed == ("P[0][0]",) and "the support changed" in report.notes()[-1]


def test_report_of_an_exact_input_is_empty():
    rows, report = exact_rows([["1/2", "1/2"], [0, 1]])
    assert isinstance(report, ImportReport) and report.notes() == () and "nothing changed" in str(report)


# -- from_edges: duplicates and the float rule -------------------------------------------------
def test_from_edges_duplicates_default_error_names_the_option():
    with pytest.raises(ShapeError, match=r"edge 1 repeats the transition 0 -> 0.*duplicates='sum'"):
        MarkovRewardProcess.from_edges(1, [(0, 0, "1/2"), (0, 0, "1/2")], [0])


def test_from_edges_sums_duplicates_when_asked():
    m = MarkovRewardProcess.from_edges(1, [(0, 0, "1/2"), (0, 0, "1/2")], [0], duplicates="sum")
    assert m.row(0) == ((0, 1),) and m.notes == ("1 duplicate transition listing summed",)


def test_from_edges_float_rule_with_repair():
    edges = [(i, j, 1 / 3) for i in range(3) for j in range(3)]
    with pytest.raises(RowSumError, match="repair='largest'"):
        MarkovRewardProcess.from_edges(3, edges, [0] * 3, floats="exact")
    m = MarkovRewardProcess.from_edges(3, edges, [0] * 3, floats="exact", repair="largest")
    assert all(sum(q for _, q in m.row(i)) == 1 for i in range(3)) and "repaired" in m.notes[1]
    with pytest.raises(FloatEntryError):  # floats still need asking for
        MarkovRewardProcess.from_edges(3, edges, [0] * 3, duplicates="sum")


# -- from_policy: the float rule ------------------------------------------------------------------
def test_from_policy_error_recommends_options_it_now_takes():
    with pytest.raises(FloatEntryError, match="floats='exact'"):
        MarkovRewardProcess.from_policy([[[0.5, 0.5], [0, 1]]], [[0], [0]], [[1], [1]])
    m = MarkovRewardProcess.from_policy([[[0.5, 0.5], [0, 1]]], [[0.25], [0]], [[1], [1]], floats="exact")
    assert m.row(0) == ((0, flint.fmpq(1, 2)), (1, flint.fmpq(1, 2))) and m.r[0] == flint.fmpq(1, 4)


def test_from_policy_repairs_action_rows_and_policy_rows():
    T = [THIRDS, [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]]
    pi = [[1 / 3, 2 / 3]] * 3
    with pytest.raises(RowSumError, match=r"transitions\[0\] row 0 sums to"):
        MarkovRewardProcess.from_policy(T, [[0, 0]] * 3, [[0.25, 0.75]] * 3, floats="exact")
    with pytest.raises(RowSumError, match=r"policy\[0\] sums to"):
        MarkovRewardProcess.from_policy(T[1:], [[0]] * 3, [[1 / 3]] * 3, floats="exact")
    m = MarkovRewardProcess.from_policy(T, [[0.5, 1]] * 3, pi, floats="exact", repair="largest")
    assert all(sum(q for _, q in m.row(i)) == 1 for i in range(3))
    m = MarkovRewardProcess.from_policy(T, [[0.5, 1]] * 3, pi, limit_denominator=10)
    assert m.row(0) == ((0, flint.fmpq(7, 9)), (1, flint.fmpq(1, 9)), (2, flint.fmpq(1, 9)))
    assert m.r[0] == flint.fmpq(1, 6) + flint.fmpq(2, 3)


def test_a_negative_listing_cannot_hide_in_a_sum():
    with pytest.raises(NegativeEntryError, match=r"edge 0 \(0 -> 0\) is -1/2"):
        exact_rows([(0, 0, -0.5), (0, 0, 1.5)], n=1)


def test_from_sparse_sums_stored_duplicates_and_repairs():
    """A COO matrix may store an entry twice; scipy adds them, and so does from_sparse."""
    coo = sp.coo_matrix(([1, 1, 2], ([0, 0, 1], [1, 1, 1])), shape=(2, 2))
    m = MarkovRewardProcess.from_sparse(coo, [0, 0], denominator=2)
    assert m.row(0) == ((1, 1),) and m.notes == ("1 duplicate transition listing summed",)
    floats = sp.csr_matrix(np.array(THIRDS))
    with pytest.raises(RowSumError):
        MarkovRewardProcess.from_sparse(floats, [0] * 3, floats="exact")
    m = MarkovRewardProcess.from_sparse(floats, [0] * 3, floats="exact", repair="largest")
    assert all(sum(q for _, q in m.row(i)) == 1 for i in range(3))
