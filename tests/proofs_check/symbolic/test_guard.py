"""The guard a statement runs under on a family (``proofs_check.symbolic.decided``): every decision is decided on the
whole region or recorded as undecided; what a closed form answers differently from a number at a point (hash, text,
conversions, identity and type tests, the field, the parameters) is refused unless it is one constant, where it
answers exactly as ``fmpq`` does."""

from __future__ import annotations

import math

import flint
import pytest

import exactpte
from proofs_check.symbolic.decided import Decided, Guard, code_hazards, guarded_views
from proofs_check.symbolic.graphs import graph_chain


@pytest.fixture
def family():
    chain, region = graph_chain(((0, 1), (0,)))  # x0_0 = P(0, 0) in (0, 1); rewards r0, r1
    guard = Guard(region)
    view_chain, view_dec = guarded_views(exactpte.decompose(chain), guard)
    return guard, view_chain, view_dec, region.field


def _const(guard: Guard, field, text: str) -> Decided:
    return Decided(field.convert(text), guard, text)


@pytest.mark.parametrize("op", [hash, str, repr, float, int, round, math.floor, math.ceil, math.trunc, abs, lambda x: -x,
                                lambda x: +x, lambda x: format(x, ""), lambda x: x.numer(), lambda x: x.denom(),
                                lambda x: x ** 2, lambda x: x ** -1, lambda x: 2 ** 0 * x, lambda x: x == 0.5,
                                lambda x: x == "7/3", lambda x: x == None, lambda x: round(x, 1)])  # noqa: E711
def test_a_constant_answers_as_fmpq_does(family, op) -> None:
    guard, _c, _d, F = family
    for text in ("7/3", "-1/2", "0", "5"):
        x, q = _const(guard, F, text), flint.fmpq(*map(int, text.split("/"))) if "/" in text else flint.fmpq(int(text))
        try:
            expected = op(q)
        except Exception as e:
            with pytest.raises(type(e)):
                op(x)
            continue
        got = op(x)
        got = got._f.constant_value() if isinstance(got, Decided) else got
        assert got == expected and type(got) is type(expected), (text, got, expected)
    assert guard.undecided == []


@pytest.mark.parametrize("op, words", [(str, "text"), (repr, "text"), (lambda x: f"{x}", "text"),
                                       (float, "float"), (int, "int"), (round, "round"), (math.floor, "floor"),
                                       (lambda x: x.numer(), ".numer")])
def test_a_closed_form_that_is_not_constant_is_refused_and_recorded(family, op, words) -> None:
    guard, _c, dec, _F = family
    with pytest.raises(exactpte.UsageError):
        op(dec.rho[0])
    assert guard.undecided and words in guard.undecided[-1]


def test_hashing_a_closed_form_is_recorded_and_a_set_then_asks_equality(family) -> None:
    guard, chain, dec, _F = family
    assert len({chain.P[0][0], chain.P[0][0] * 1}) == 1  # hashed (recorded), then == decided: the same function
    assert guard.undecided and "hash" in guard.undecided[0]
    with pytest.raises(exactpte.UsageError):
        {chain.r[0], chain.r[1]}  # r0 == r1 somewhere: the undecided comparison names where
    assert guard.targets and str(guard.targets[-1]) in ("r0 - r1", "-r0 + r1")


def test_comparisons_are_decided_on_the_whole_region_or_recorded(family) -> None:
    guard, chain, dec, F = family
    assert all(0 < x <= 1 for x in dec.stationary[0]) and dec.rho[0] == dec.rho[1]
    assert sorted([chain.P[1][0], chain.P[0][0]]) == [chain.P[0][0], chain.P[1][0]]  # x0_0 < 1 on the whole region
    assert max(chain.P[0][0], 0) == chain.P[0][0]
    assert guard.undecided == []
    try:
        if dec.h[0] < dec.v_star[1]:  # the statement catches the refusal: the record stands
            pass
    except exactpte.UsageError:
        pass
    assert guard.undecided == ["h[0] < v_star[1] is neither true nor false on the whole region"]


def test_operands_fmpq_refuses_are_refused_as_by_fmpq(family) -> None:
    guard, _c, dec, _F = family
    x = dec.rho[0]
    with pytest.raises(TypeError):
        x + 0.5
    with pytest.raises(TypeError):
        x < 0.5
    assert (x == 0.5) is False and (x != "a") is True and guard.undecided == []


def test_a_division_needs_a_divisor_nonzero_on_the_whole_region(family) -> None:
    guard, chain, dec, F = family
    x = chain.P[0][0]
    assert (1 / x) * x == 1 and guard.undecided == []  # x0_0 > 0 on the region
    with pytest.raises(ZeroDivisionError):
        x / (x - x)  # zero everywhere: as at every point
    with pytest.raises(exactpte.UsageError):
        x / (chain.r[0] - chain.r[1])  # zero where the rewards are equal
    assert "vanishes somewhere" in guard.undecided[-1]


@pytest.mark.parametrize("read", [lambda c, d: d.field, lambda c, d: c.params, lambda c, d: d.to_dict(), lambda c, d: c.field,
                                  lambda c, d: d.is_parametric, lambda c, d: d.at, lambda c, d: str(c), lambda c, d: c == d.chain])
def test_what_a_family_answers_differently_is_refused(family, read) -> None:
    guard, chain, dec, _F = family
    with pytest.raises(exactpte.UsageError):
        read(chain, dec)
    assert guard.undecided


def test_methods_and_containers_keep_the_guard(family) -> None:
    guard, chain, dec, _F = family
    assert isinstance(chain.matvec(dec.rho)[0], Decided) and isinstance(next(iter(chain.edges()))[2], Decided)
    assert isinstance(dec.project(dec.h)[0], Decided) and isinstance(dec.P_inf[0][0], Decided)
    assert dec.project(dec.h) == dec.v_star and guard.undecided == []
    assert {"rho", "h", "project", "P_inf", "v_star", "chain.matvec", "chain.edges"} <= guard.read


def _helper(x, y):
    return x is y


def _clean(x):
    return x is None


def test_identity_and_type_tests_are_found_in_the_statements_code() -> None:
    assert code_hazards(lambda c, d: d.rho[0] is d.rho[1]) == ["an identity test (is)"]
    assert code_hazards(lambda c, d: d.rho[0] is not None and None is d.h and c.labels is None) == []
    assert code_hazards(lambda c, d: _helper(d.rho[0], d.h[0])) == ["an identity test (is)"]
    assert code_hazards(lambda c, d: _clean(d.rho[0])) == []
    assert code_hazards(lambda c, d: isinstance(d.rho[0], flint.fmpq)) == ["a type test (isinstance)"]
    assert code_hazards(lambda c, d: type(d.rho[0]) == type(d.h[0])) == ["a type test (type)"]
    assert code_hazards(lambda c, d: id(d.rho[0])) == ["an identity test (id)"]
    assert code_hazards(lambda c, d: [x for x in d.rho if x.__class__]) == ["a type test (__class__)"]

    def inner(c, d):
        return any(x is y for x in d.rho for y in d.h)

    assert code_hazards(lambda c, d: inner(c, d)) == ["an identity test (is)"]
    assert code_hazards(lambda c, d: __import__("random").random() < 0.5) == ["randomness (random)"]


COUNT = 0


def _stateful(chain, dec):
    global COUNT
    COUNT += 1
    return COUNT < 2


def test_a_statement_that_keeps_state_between_runs_is_checked_at_points() -> None:
    assert code_hazards(_stateful) == ["state kept between runs (global COUNT)"]
