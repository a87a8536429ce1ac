"""Every bad input gets a named error that says what is wrong and where."""

from decimal import Decimal
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy

import exactpte
from exactpte import (
    EntryError,
    FloatEntryError,
    LabelError,
    MarkovRewardProcess,
    NegativeEntryError,
    RowSumError,
    ShapeError,
)

OK_P = [["1/2", "1/2"], [0, 1]]


@pytest.mark.parametrize(
    "P, r, kw, err, message",
    [
        ([], [], {}, ShapeError, "P is empty"),
        ([[1, 0]], [0], {}, ShapeError, "row 0 has 2 entries, expected 1"),
        ([[1, 0], [1]], [0, 0], {}, ShapeError, "row 1 has 1 entries, expected 2"),
        (OK_P, [0], {}, ShapeError, "reward has length 1, expected 2"),
        (OK_P, [0, 0, 0], {}, ShapeError, "reward has length 3, expected 2"),
        ([[2, -1], [0, 1]], [0, 0], {}, NegativeEntryError, "P[0][1] is -1"),
        ([[1, 0], ["1/2", "3/5"]], [0, 0], {}, RowSumError, "row 1 sums to 11/10, expected exactly 1"),
        ([[1, 0], ["1/2", "1/3"]], [0, 0], {}, RowSumError, "row 1 sums to 5/6"),
        ([[0.5, 0.5], [0, 1]], [0, 0], {}, FloatEntryError, "P[0][0] is the float 0.5"),
        (OK_P, [0.25, 0], {}, FloatEntryError, "r[0] is the float 0.25"),
        ([[float("nan"), 1], [0, 1]], [0, 0], {"floats": "exact"}, EntryError, "P[0][0] is nan"),
        ([[float("inf"), 1], [0, 1]], [0, 0], {"floats": "exact"}, EntryError, "P[0][0] is inf"),
        ([["1/2", "x"], [0, 1]], [0, 0], {}, EntryError, "P[0][1] is 'x', which is not an exact number"),
        ([["1/2", "1/0"], [0, 1]], [0, 0], {}, EntryError, "P[0][1] is '1/0'"),
        ([[None, 1], [0, 1]], [0, 0], {}, EntryError, "P[0][0] has type NoneType"),
        ([[sympy.Symbol("p"), 1], [0, 1]], [0, 0], {}, EntryError, "symbolic expression p"),
        ([[sympy.sqrt(2), 1], [0, 1]], [0, 0], {}, EntryError, "not rational"),
        ([[True, 0], [0, 1]], [0, 0], {}, EntryError, "bool"),
        (OK_P, [0, 0], {"labels": ["a", "a"]}, LabelError, "label 'a' is used by states 0 and 1"),
        (OK_P, [0, 0], {"labels": ["a"]}, LabelError, "1 labels given for 2 states"),
        ("not a matrix", [0], {}, ShapeError, "P must be a matrix"),
        (np.zeros((2, 2, 2), dtype=int), [0, 0], {}, ShapeError, "3 dimensions"),
    ],
)
def test_bad_input_is_named(P, r, kw, err, message):
    with pytest.raises(err) as info:
        MarkovRewardProcess(P, r, **kw)
    assert message in str(info.value)
    assert isinstance(info.value, exactpte.ExactpteError) and isinstance(info.value, ValueError)


def test_float_message_says_how_to_fix():
    with pytest.raises(FloatEntryError, match="floats='exact'.*limit_denominator=N"):
        MarkovRewardProcess([[0.5, 0.5], [0, 1]], [0, 0])


def test_floats_exact_takes_each_float_binary_value():
    """floats="exact" converts each float to its exact binary value (0.25 is 1/4; 0.1 is not 1/10)."""
    exact = MarkovRewardProcess([[0.25, 0.75], [0, 1]], [0.1, 0], floats="exact")
    assert dict(exact.row(0)) == {0: flint.fmpq(1, 4), 1: flint.fmpq(3, 4)}
    assert exact.r[0] == flint.fmpq(Fraction(0.1).numerator, Fraction(0.1).denominator) != flint.fmpq(1, 10)


def test_floats_exact_refuses_a_row_whose_binary_values_miss_one():
    """The binary values of 0.1 and 0.9 do not sum to exactly 1: floats="exact" says so, with the sum."""
    with pytest.raises(RowSumError, match="row 0 sums to 36028797018963969/36028797018963968"):
        MarkovRewardProcess([[0.1, 0.9], [0, 1]], [0, 0], floats="exact")


def test_limit_denominator_takes_the_nearest_small_fraction():
    """limit_denominator=1000 reads 0.1 and 0.9 as 1/10 and 9/10."""
    limited = MarkovRewardProcess([[0.1, 0.9], [0, 1]], [0, 0], limit_denominator=1000)
    assert dict(limited.row(0)) == {0: flint.fmpq(1, 10), 1: flint.fmpq(9, 10)}


def test_limit_denominator_that_breaks_a_row_sum_is_refused():
    """A conversion that breaks stochasticity (1/3 three times with denominator 2) is still caught."""
    with pytest.raises(RowSumError):
        MarkovRewardProcess([[1 / 3, 1 / 3, 1 / 3], [0, 1, 0], [0, 0, 1]], [0, 0, 0], limit_denominator=2)


@pytest.mark.parametrize(
    "P",
    [
        [[Fraction(1, 3), Fraction(2, 3)], [0, 1]],
        [["1/3", "2/3"], ["0", "1"]],
        sympy.Matrix([[sympy.Rational(1, 3), sympy.Rational(2, 3)], [0, 1]]),
        flint.fmpq_mat([[flint.fmpq(1, 3), flint.fmpq(2, 3)], [0, 1]]),
        [[Fraction(1, 3), "2/3"], [Decimal("0"), Decimal("1.0")]],
    ],
)
def test_exact_input_forms_agree(P):
    m = MarkovRewardProcess(P, [1, 0])
    assert dict(m.row(0)) == {0: flint.fmpq(1, 3), 1: flint.fmpq(2, 3)}
    assert dict(m.row(1)) == {1: flint.fmpq(1)}


def test_numpy_integers_with_common_denominator():
    m = MarkovRewardProcess(np.array([[1, 2], [0, 3]]), np.array([1, 2]), denominator=3)
    assert dict(m.row(0)) == {0: flint.fmpq(1, 3), 1: flint.fmpq(2, 3)}
    assert m.r == (1, 2)
    with pytest.raises(RowSumError, match="row 0 sums to 3/2"):
        MarkovRewardProcess(np.array([[1, 2], [0, 2]]), [0, 0], denominator=2)


def test_numpy_float_array_is_refused():
    with pytest.raises(FloatEntryError, match=r"P\[0\]\[0\]"):
        MarkovRewardProcess(np.array([[0.5, 0.5], [0.0, 1.0]]), [0, 0])


def test_edges_drop_explicit_zeros():
    """from_edges builds the chain from (source, target, probability) triples; an explicit zero
    probability is dropped, not stored."""
    m = MarkovRewardProcess.from_edges(3, [(0, 1, "1/2"), (0, 2, "1/2"), (1, 1, 1), (2, 2, 1), (2, 0, 0)], [0, 1, 2])
    assert dict(m.row(2)) == {2: 1}


@pytest.mark.parametrize("n, edges, r, err, message", [
    (2, [(0, 1, "1/2"), (0, 1, "1/2"), (1, 1, 1)], [0, 0], ShapeError, "repeats the transition 0 -> 1"),
    (2, [(0, 5, 1), (1, 1, 1)], [0, 0], ShapeError, "edge 0 has target 5"),
    (2, [(0, 1), (1, 1, 1)], [0, 0], ShapeError, "expected a triple"),
    (2, [(0, 0, "1/2"), (0, 1, "1/2")], [0, 0], RowSumError, "row 1 sums to 0"),
    # bounded work: a declared size the edge list cannot fill is refused before anything is allocated
    (10**12, [(0, 0, 1), (1, 1, 1), (2, 2, 1)], [0, 0, 0], ShapeError, "need at least n transitions"),
    (0, [], [], ShapeError, "n must be a positive int"),
], ids=["repeated-edge", "target-out-of-range", "not-a-triple", "row-sum", "size-beyond-the-edges", "n-zero"])
def test_bad_edges_are_refused_by_name(n, edges, r, err, message):
    """Each bad edge list is refused with its named error and a message saying what is wrong."""
    with pytest.raises(err, match=message):
        MarkovRewardProcess.from_edges(n, edges, r)


STAY = [[1, 0], [0, 1]]
MOVE = [[0, 1], [1, 0]]


def test_policy_induced_chain():
    """from_policy mixes the actions' rows and rewards by the policy (two actions, stay and move;
    the policy mixes them in state 0 and moves in state 1)."""
    m = MarkovRewardProcess.from_policy([STAY, MOVE], [[2, 0], [0, 4]], [["1/4", "3/4"], [0, 1]])
    assert dict(m.row(0)) == {0: flint.fmpq(1, 4), 1: flint.fmpq(3, 4)}
    assert dict(m.row(1)) == {0: 1}
    assert m.r == (flint.fmpq(1, 2), 4)


@pytest.mark.parametrize("transitions, policy, err, message", [
    ([STAY, MOVE], [["1/4", "1/4"], [0, 1]], RowSumError, r"policy\[0\] sums to 1/2"),
    ([STAY, [[1, 1], [1, 0]]], [[1, 0], [1, 0]], RowSumError, r"transitions\[1\] row 0 sums to 2"),
    ([STAY, MOVE], [[1, 0], [-1, 2]], NegativeEntryError, r"policy\[1\]\[0\]"),
], ids=["policy-row-sum", "action-row-sum", "negative-policy-entry"])
def test_bad_policy_inputs_are_refused_by_name(transitions, policy, err, message):
    """A policy row or an action's transition row that is not a distribution is refused, named."""
    with pytest.raises(err, match=message):
        MarkovRewardProcess.from_policy(transitions, [[0, 0], [0, 0]], policy)


def test_chain_equality_and_dense():
    a = MarkovRewardProcess(OK_P, [1, 0])
    b = MarkovRewardProcess.from_edges(2, [(0, 0, "1/2"), (0, 1, "1/2"), (1, 1, 1)], [1, 0])
    assert a == b and hash(a) == hash(b)
    assert a.dense() == [[flint.fmpq(1, 2), flint.fmpq(1, 2)], [0, 1]]


def test_a_point_off_the_family_is_refused_without_the_check_false_advice():
    """A parameter point where an entry is negative holds no chain: chain.at(point, check=False) cannot help,
    so the refusal does not suggest it; a point with a missing or unknown parameter names only what is wrong."""
    from exactpte.errors import GenericRegionError

    chain = exactpte.ParametricChain([["1-p", "p"], ["q", "1-q"]], [1, 0], params=["p", "q"])
    with pytest.raises(GenericRegionError, match=r"P\[0\]\[0\] = 1 - p is -1/2 < 0 .*no chain of the family") as e:
        chain.require_generic_point({"p": "3/2", "q": "1/2"})
    assert "check=False" not in str(e.value) and "0 < p < 1, 0 < q < 1" in str(e.value)
    with pytest.raises(GenericRegionError, match=r"vanishes at this point.*check=False"):  # a lower stratum: still a chain
        chain.require_generic_point({"p": 0, "q": "1/2"})
    with pytest.raises(GenericRegionError, match=r"missing \['q'\]$"):
        chain.require_generic_point({"p": "1/2"})
    with pytest.raises(GenericRegionError, match=r"; unknown \['pp'\]$"):
        chain.require_generic_point({"p": "1/2", "q": "1/2", "pp": 1})


def test_an_expression_without_declared_parameters_says_how_to_declare_them():
    from exactpte.errors import EntryError

    with pytest.raises(EntryError, match=r"P\[0\]\[0\] is '1-p', which is not an exact number .*parameters \(p\) needs them "
                                         r"declared: ParametricChain\(\.\.\., params=\[\.\.\.\]\)"):
        exactpte.MarkovRewardProcess([["1-p", "p"], [0, 1]], [0, 0])
    with pytest.raises(EntryError) as e:  # no letter, no parameter hint
        exactpte.MarkovRewardProcess([["1/0", 1], [0, 1]], [0, 0])
    assert "params" not in str(e.value)


def test_an_integer_array_of_numerators_without_denominator_is_told_its_denominator():
    from exactpte.errors import RowSumError

    with pytest.raises(RowSumError, match=r"row 0 sums to 4, expected exactly 1 \(every row of this integer array sums to 4: "
                                          r"if the entries are numerators, pass denominator=4\)"):
        exactpte.MarkovRewardProcess(np.array([[1, 3], [0, 4]]), [1, 0])
    assert exactpte.MarkovRewardProcess(np.array([[1, 3], [0, 4]]), [1, 0], denominator=4).n == 2
    with pytest.raises(RowSumError) as e:  # rows of different sums: a wrong matrix, no denominator to suggest
        exactpte.MarkovRewardProcess(np.array([[1, 1], [0, 1]]), [1, 0])
    assert "denominator=" not in str(e.value)
