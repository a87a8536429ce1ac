"""Certified enclosures (``arithmetic="certified"``): the exact answer lies inside every enclosure,
bounds that cannot be certified widen instead of lying, and the oracle judges against them."""

import json
import math
from fractions import Fraction

import flint
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import exactpte
from exactpte import MarkovRewardProcess
from exactpte.certified import Interval, MMatrixSystem, decompose_certified
from exactpte.certified.systems import ClassSolver
from exactpte.cli import main
from exactpte.errors import UsageError
from exactpte.strategies import chains, edge_case_chains
from exactpte.testing.oracle import compare
from exactpte.testing.random_chains import random_chain, random_chain_arrays


def assert_encloses(chain, tol=None):
    cert = decompose_certified(chain)
    dec = exactpte.decompose(chain)
    inside = cert.contains(dec)
    assert all(inside.values()), inside
    assert all(c.certified for c in cert.certificates), [c.system for c in cert.certificates if not c.certified]
    if tol is not None:
        assert max(cert.widths().values()) <= tol, cert.widths()
    return cert


@settings(max_examples=40, deadline=None)
@given(chain=chains())
def test_exact_answer_inside_enclosures_on_random_chains(chain):
    assert_encloses(chain, tol=1e-9)


@settings(max_examples=10, deadline=None)
@given(chain=edge_case_chains())
def test_exact_answer_inside_enclosures_on_edge_cases(chain):
    assert_encloses(chain, tol=1e-9)


@pytest.mark.parametrize("n, seed", [(300, 0), (300, 1), (1000, 2)])
def test_large_transient_blocks(n, seed):
    assert_encloses(random_chain(n, seed=seed, transient_target_percent=85), tol=1e-6)


def test_class_solver_route_is_certified_too(monkeypatch):
    """Classes past DIRECT_LIMIT take the deviation-operator float solves; the bounds still hold."""
    import exactpte.certified.decomposition as cd

    monkeypatch.setattr(cd, "DIRECT_LIMIT", 10)
    rows, cols, num, den, r = random_chain_arrays(400, seed=3, transient_target_percent=85, n_classes=3)
    chain = MarkovRewardProcess.from_arrays(400, rows, cols, num, den, r)
    assert_encloses(chain)


# -- the certificate cannot be fooled ---------------------------------------------------------------------
def test_a_matrix_that_is_not_an_m_matrix_gets_no_certificate():
    M = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))  # I - M singular: no witness exists
    system = MMatrixSystem(M, "singular")
    assert not system.certificate.certified
    x = system.solve(Interval(np.array([[1.0], [0.0]])))
    assert np.all(np.isinf(x.lo)) and np.all(np.isinf(x.hi))  # widened, never a finite lie


def test_a_wrong_float_solver_is_caught_by_the_bounds():
    """A float solver that lies moves x̂, but the certified interval still holds the exact solution."""
    M = sp.csr_matrix(np.array([[0.0, 0.5], [0.25, 0.0]]))
    system = MMatrixSystem(M, "lying solver", solver=lambda C: np.linalg.solve(np.eye(2) - M.toarray(), C) + 1e-3)
    x = system.solve(Interval(np.array([[1.0], [1.0]])))
    exact = [Fraction(12, 7), Fraction(10, 7)]  # (I - M)^{-1} (1, 1)
    assert x[:, 0].contains([flint.fmpq(v.numerator, v.denominator) for v in exact]).all()
    assert x.width.max() > 1e-3  # the lie shows up as width, not as a wrong answer


def test_class_solver_matches_a_direct_solve():
    P = sp.csr_matrix(np.array([[0, 0.5, 0.5], [1, 0, 0], [0.5, 0.5, 0]]))
    cs = ClassSolver(P)
    B = np.array([[1.0], [2.0]])
    x = cs.first_passage([0], B)
    direct = np.linalg.solve(np.eye(2) - P.toarray()[1:, 1:], B)
    assert np.allclose(x, direct, atol=1e-13)
    y = cs.first_passage([0], B, transpose=True)
    assert np.allclose(y, np.linalg.solve((np.eye(2) - P.toarray()[1:, 1:]).T, B), atol=1e-13)


@settings(max_examples=200)
@given(a=st.fractions(), b=st.fractions(), c=st.fractions(min_value=Fraction(1, 100), max_value=100))
def test_interval_arithmetic_encloses_exact_results(a, b, c):
    q = lambda f: flint.fmpq(f.numerator, f.denominator)
    A, B, C = (Interval.exact([q(x)]) for x in (a, b, c))
    for iv, exact in [(A + B, a + b), (A - B, a - b), (A * B, a * b), (A.divide_positive(C), a / c), ((A * B - C) * A, (a * b - c) * a)]:
        assert iv.contains([q(exact)])[0]


def test_undefined_bounds_widen_and_are_reported():
    iv = Interval(np.array([math.nan]), np.array([1.0]))
    assert iv.lo[0] == -math.inf and iv.contains([flint.fmpq(-10**9)])[0] and not iv.contains([flint.fmpq(2)])[0]
    assert math.isinf(iv.width[0])


# -- front ends -----------------------------------------------------------------------------------------
def test_decompose_dispatch_and_refusals():
    cert = exactpte.decompose(exactpte.example("branching"), arithmetic="certified")
    assert cert.structure == exactpte.example("branching").structure
    with pytest.raises(UsageError, match="arithmetic must be"):
        exactpte.decompose(exactpte.example("branching"), arithmetic="float")
    with pytest.raises(UsageError, match="rational chains"):
        exactpte.decompose(exactpte.example("two-state-pq"), arithmetic="certified")
    with pytest.raises(UsageError, match="tol"):
        decompose_certified(exactpte.example("branching"), tol=float("nan"))


def test_cli_certified_json(capsys):
    assert main(["decompose", "--example", "paper-benchmark", "--certified", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    exact = exactpte.decompose(exactpte.example("paper-benchmark")).to_dict()
    for key in ("classes", "transient", "periods", "cyclic_classes", "anchors"):
        assert d[key] == exact[key]
    for key in ("g_star", "v_star", "rho", "h", "psi", "theta"):
        for (lo, hi), x in zip(d[key], exact[key]):
            assert Fraction(lo) <= Fraction(x) <= Fraction(hi)
    assert d["certificate"] and all(c["certified"] for c in d["certificate"]) and all(d["within_tol"].values())
    assert main(["decompose", "--example", "branching", "--certified", "--strata"]) == 2
    assert main(["decompose", "--example", "branching", "--tol", "1e-6"]) == 2


def test_oracle_against_enclosures(tmp_path, capsys):
    chain = exactpte.example("paper-benchmark")
    cert = decompose_certified(chain)
    dec = exactpte.decompose(chain)
    good = {"rho": [float(x) for x in dec.rho], "h": [float(x) for x in dec.h], "classes": [list(c) for c in dec.classes]}
    assert compare(good, cert, atol=1e-9).ok
    bad = dict(good, h=[float(x) + (1e-6 if s == 40 else 0) for s, x in enumerate(dec.h)])
    report = compare(bad, cert, atol=1e-9)
    assert not report.ok and "certified enclosures" in next(f.detail for f in report.findings if f.key == "h")
    path = tmp_path / "candidate.json"
    path.write_text(json.dumps(good))
    chain_file = tmp_path / "chain.json"
    exactpte.dump(chain, chain_file)
    assert main(["check", str(path), "--chain", str(chain_file), "--arithmetic", "certified"]) == 0
    assert "reference: certified enclosures (asked for)" in capsys.readouterr().out
    assert main(["check", str(path), "--chain", str(chain_file)]) == 0
    assert "reference: exact decomposition" in capsys.readouterr().out
