"""``validated_csr`` (rows laid end to end, each distinct entry object checked and each distinct row of objects
summed once, by C-level passes) reports what the row-by-row validator it replaced reported: the same rows kept,
zeros dropped, and the first fault in row order (a negative entry before its row's sum), with the same message."""

from __future__ import annotations

import flint
from hypothesis import given
from hypothesis import strategies as st

from exactpte.errors import ExactpteError, NegativeEntryError, RowSumError, brief
from exactpte.fields import QQ
from exactpte.model.chain import validated_csr, validated_rows


def reference(rows, field):
    """The row-by-row formulation ``validated_rows`` had before (kept here as the independent route)."""
    cols, vals = [], []
    for i, row in enumerate(rows):
        c, v = [], []
        for j, q in row:
            if q == 0:
                continue
            if field.is_negative(q):
                raise NegativeEntryError(f"P[{i}][{j}] is {brief(field.to_text(q))}, expected a probability >= 0")
            c.append(j)
            v.append(q)
        total = sum(v[1:], v[0]) if v else field.zero
        if total != field.one:
            raise RowSumError(f"row {i} sums to {brief(field.to_text(total))}, expected exactly 1")
        cols.append(tuple(c))
        vals.append(tuple(v))
    return tuple(cols), tuple(vals)


POOL = [flint.fmpq(p, q) for p, q in [(0, 1), (1, 1), (1, 2), (1, 3), (2, 3), (1, 4), (3, 4), (-1, 4), (5, 4), (-1, 2)]]


@st.composite
def row_lists(draw):
    """Rows of entries drawn from a small pool of shared objects (a reader's repeated values), mostly stochastic."""
    rows = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["half", "third", "one", "free"]))
        if kind == "half":
            row = [POOL[2], POOL[2]]
        elif kind == "third":
            row = [POOL[3], POOL[4]]
        elif kind == "one":
            row = [POOL[1]]
        else:
            row = draw(st.lists(st.sampled_from(POOL), max_size=4))
        if draw(st.booleans()):
            row = row + [POOL[0]]
        rows.append([(j, q) for j, q in enumerate(row)])
    return rows


def outcome(f, *args):
    try:
        return f(*args)
    except ExactpteError as e:
        return type(e), str(e)


@given(row_lists())
def test_same_rows_and_same_first_fault_as_the_row_by_row_validator(rows) -> None:
    assert outcome(validated_rows, rows, QQ) == outcome(reference, rows, QQ)


def test_a_negative_entry_in_a_later_row_comes_after_an_earlier_row_sum() -> None:
    rows = [[(0, POOL[2])], [(0, POOL[7]), (1, POOL[8])]]
    assert outcome(validated_csr, [0, 1, 3], [0, 0, 1], [POOL[2], POOL[7], POOL[8]], QQ)[1] == "row 0 sums to 1/2, expected exactly 1"
    assert outcome(validated_rows, rows[1:], QQ) == (NegativeEntryError, "P[0][0] is -1/4, expected a probability >= 0")
