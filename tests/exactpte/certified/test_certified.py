"""Certified enclosures (``exactpte.decompose_certified``): the exact answer lies inside every enclosure,
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
from exactpte.cli.commands import main
from exactpte.errors import UsageError
from exactpte.testing.strategies import chains, edge_case_chains
from exactpte.oracle.comparison import compare
from exactpte.testing.random_chains import random_chain, random_chain_arrays
from conftest import scaled


def assert_encloses(chain, tol=None):
    cert = decompose_certified(chain)
    dec = exactpte.decompose(chain)
    inside = cert.contains(dec)
    assert all(inside.values()), inside
    assert all(c.certified for c in cert.certificates), [c.system for c in cert.certificates if not c.certified]
    if tol is not None:
        assert max(cert.widths().values()) <= tol, cert.widths()
    return cert


@settings(scaled(1), deadline=None)
@given(chain=chains())
def test_exact_answer_inside_enclosures_on_random_chains(chain):
    assert_encloses(chain, tol=1e-9)


@settings(scaled(10/40), deadline=None)
@given(chain=edge_case_chains())
def test_exact_answer_inside_enclosures_on_edge_cases(chain):
    assert_encloses(chain, tol=1e-9)


@pytest.mark.parametrize("n, seed", [(300, 0), (300, 1), (1000, 2)])
def test_large_transient_blocks(n, seed):
    assert_encloses(random_chain(n, seed=seed, transient_target_percent=85), tol=1e-9)


def test_class_solver_route_is_certified_too(monkeypatch):
    """Classes past DIRECT_LIMIT take the deviation-operator float solves; the bounds still hold."""
    import exactpte.certified.decomposition as cd

    monkeypatch.setattr(cd, "DIRECT_LIMIT", 10)
    rows, cols, num, den, r = random_chain_arrays(400, seed=3, transient_target_percent=85, n_classes=3)
    chain = MarkovRewardProcess.from_arrays(400, rows, cols, num, den, r)
    assert_encloses(chain, tol=1e-9)


def test_iterative_transient_route_is_certified_too(monkeypatch):
    """Blocks past DIRECT_LIMIT (fixed point, GMRES) with refinement on compensated residuals."""
    import exactpte.certified.systems as cs

    monkeypatch.setattr(cs, "DIRECT_LIMIT", 10)
    assert_encloses(random_chain(300, seed=4, transient_target_percent=85), tol=1e-9)


# -- compensated residuals: the bound holds, and it is what makes the widths small ------------------------
def _fraction_residual(M, C, Xh, Xl, C_low, exact_entries, identity=True):
    rows = []
    for i in range(M.hi.shape[0]):
        lo, hi = M.hi.indptr[i], M.hi.indptr[i + 1]
        acc = Fraction(C[i]) + Fraction(C_low[i])
        if identity:
            acc -= Fraction(Xh[i]) + Fraction(Xl[i])
        for p in range(lo, hi):
            j = M.hi.indices[p]
            acc += exact_entries[(i, j)] * (Fraction(Xh[j]) + Fraction(Xl[j]))
        rows.append(acc)
    return rows


@st.composite
def residual_problems(draw):
    """A substochastic sparse matrix with exact rational entries, a float pair ``Xh + Xl`` close to a
    solution (the regime refinement lives in), and a right-hand side pair."""
    n = draw(st.integers(1, 6))
    exact, rows, cols = {}, [], []
    for i in range(n):
        succ = draw(st.lists(st.integers(0, n - 1), min_size=0, max_size=n, unique=True))
        weights = [draw(st.integers(1, 7)) for _ in succ]
        total = sum(weights) + draw(st.integers(1, 5))  # row sums < 1: I - M nonsingular
        for j, w in zip(succ, weights):
            exact[(i, j)] = Fraction(w * draw(st.integers(1, 3)), total * 3)
            rows.append(i)
            cols.append(j)
    floats = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
    C = np.array([draw(floats) for _ in range(n)])
    C_low = np.array([draw(floats) for _ in range(n)]) * 2.0**-60
    Xh = np.array([draw(floats) for _ in range(n)])
    Xl = np.array([draw(floats) for _ in range(n)]) * 2.0**-55
    return n, exact, rows, cols, C, C_low, Xh, Xl


def _split_matrix(n, exact, rows, cols):
    from exactpte.certified.residual import SplitMatrix

    hi = [float(exact[(i, j)]) for i, j in zip(rows, cols)]
    lo = [float(exact[(i, j)] - Fraction(h)) for (i, j), h in zip(zip(rows, cols), hi)]
    M = sp.csr_matrix((hi, (rows, cols)), shape=(n, n))
    order = sp.csr_matrix((np.arange(1, len(hi) + 1, dtype=float), (rows, cols)), shape=(n, n))
    k = order.data.astype(int) - 1
    return SplitMatrix.exact(M, np.array(lo)[k] if len(lo) else np.zeros(0))


@settings(scaled(150/40), deadline=None)
@given(problem=residual_problems(), identity=st.booleans())
def test_compensated_residual_bound_holds_exactly(problem, identity):
    from exactpte.certified.residual import RowSchedule, dd_residual

    n, exact, rows, cols, C, C_low, Xh, Xl = problem
    M = _split_matrix(n, exact, rows, cols)
    R, err = dd_residual(M, RowSchedule(M), C[:, None], Xh[:, None], Xl[:, None], C_low[:, None], identity=identity)
    truth = _fraction_residual(M, C, Xh, Xl, C_low, exact, identity)
    for i in range(n):
        assert abs(Fraction(R[i, 0]) - truth[i]) <= Fraction(err[i, 0])
        # and the bound is second order in the leading terms: far below a plain float residual's
        # 2^-53 Σ|terms|; first order only in the small parts (C_low, Xl) and the result itself
        lead = abs(C[i]) + abs(Xh[i]) + sum(float(exact[(i, j)]) * abs(Xh[j]) for (a, j) in exact if a == i)
        small = abs(C_low[i]) + abs(Xl[i]) + sum(float(exact[(i, j)]) * abs(Xl[j]) for (a, j) in exact if a == i)
        assert err[i, 0] <= 2.0**-90 * lead + 2.0**-46 * (small + abs(R[i, 0])) + 1e-300


def test_a_residual_without_its_error_terms_is_caught():
    """Drop TwoProduct's error term and the exact comparison above rejects the result."""
    import exactpte.certified.residual as res

    exact = {(0, 0): Fraction(1, 3), (0, 1): Fraction(1, 7), (1, 0): Fraction(2, 9)}
    M = _split_matrix(2, exact, [0, 0, 1], [0, 1, 0])
    Xh = np.array([1.2345678901234567, 3.141592653589793])
    Xl = np.zeros(2)
    C = (Xh - M.hi @ Xh)  # near-cancelling residual: the lost product bits dominate
    honest = res.dd_residual(M, res.RowSchedule(M), C[:, None], Xh[:, None], Xl[:, None])
    truth = _fraction_residual(M, C, Xh, Xl, np.zeros(2), exact)
    assert all(abs(Fraction(honest[0][i, 0]) - truth[i]) <= Fraction(honest[1][i, 0]) for i in range(2))
    broken_prod = lambda a, a_split, b: (a * b, np.zeros_like(a * b))
    original = res.two_prod
    try:
        res.two_prod = broken_prod
        R, err = res.dd_residual(M, res.RowSchedule(M), C[:, None], Xh[:, None], Xl[:, None])
    finally:
        res.two_prod = original
    assert not all(abs(Fraction(R[i, 0]) - truth[i]) <= Fraction(err[i, 0]) for i in range(2))


def test_split_matrix_moves_carry_the_low_parts():
    exact = {(0, 1): Fraction(1, 3), (1, 0): Fraction(1, 7), (1, 1): Fraction(2, 9), (2, 0): Fraction(1, 11)}
    M = _split_matrix(3, exact, [0, 1, 1, 2], [1, 0, 1, 0])

    def entries(S, f):
        out = {}
        for i in range(S.hi.shape[0]):
            for p in range(S.hi.indptr[i], S.hi.indptr[i + 1]):
                out[(i, int(S.hi.indices[p]))] = Fraction(S.hi.data[p]) + Fraction(S.lo[p])
        return out

    close = lambda a, b: all(abs(a[k] - b[k]) <= b[k] / 2**100 for k in b) and set(a) == set(b)
    assert close(entries(M, None), exact)
    assert close(entries(M.transpose(), None), {(j, i): q for (i, j), q in exact.items()})
    assert close(entries(M.take(np.array([1, 2]), np.array([0, 1])), None),
                 {(0, 0): exact[(1, 0)], (0, 1): exact[(1, 1)], (1, 0): exact[(2, 0)]})
    aug = entries(M.kron_cycle(2), None)
    assert close(aug, {**{(i, 3 + j): q for (i, j), q in exact.items()}, **{(3 + i, j): q for (i, j), q in exact.items()}})


def test_widths_reach_last_bits_on_a_slow_class():
    """A 400-state ring class (hitting times ~ 10^3): plain float residuals left h at 6.9e-9 (measured
    before the compensated residuals); refinement on them brings every quantity to 1e-12."""
    n = 400
    rows, cols, vals = [], [], []
    for s in range(n):  # mostly forward on a ring, sometimes back: slow mixing, aperiodic
        for t, q in (((s + 1) % n, Fraction(3, 5)), ((s - 1) % n, Fraction(1, 5)), (s, Fraction(1, 5))):
            rows.append(s)
            cols.append(t)
            vals.append(q)
    r = [Fraction((s * 7919) % 13 - 6, 5) for s in range(n)]
    chain = MarkovRewardProcess.from_edges(n, list(zip(rows, cols, vals)), r)
    cert = assert_encloses(chain)
    assert max(cert.widths().values()) <= 1e-12, cert.widths()


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
    system = MMatrixSystem(M, "lying solver", solver=lambda C, rtol: np.linalg.solve(np.eye(2) - M.toarray(), C) + 1e-3)
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


@settings(scaled(5))
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
    cert = exactpte.decompose_certified(exactpte.example("branching"))
    assert cert.structure == exactpte.example("branching").structure
    with pytest.raises(TypeError):
        exactpte.decompose(exactpte.example("branching"), arithmetic="certified")  # type: ignore[call-arg]
    with pytest.raises(UsageError, match="rational chains"):
        exactpte.decompose_certified(exactpte.example("two-state-pq"))
    with pytest.raises(UsageError, match="tol"):
        decompose_certified(exactpte.example("branching"), tol=float("nan"))


def test_cli_certified_json(capsys):
    """exactpte decompose --certified --json: the exact structure, and an enclosure [lo, hi] around
    every exact value, every certificate certified and within tolerance."""
    assert main(["decompose", "--example", "paper-benchmark", "--certified", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    exact = exactpte.decompose(exactpte.example("paper-benchmark")).to_dict()
    for key in ("classes", "transient", "periods", "cyclic_classes", "anchors"):
        assert d[key] == exact[key]
    for key in ("g_star", "v_star", "rho", "h", "psi", "theta"):
        for (lo, hi), x in zip(d[key], exact[key]):
            assert Fraction(lo) <= Fraction(x) <= Fraction(hi)
    assert d["certificate"] and all(c["certified"] for c in d["certificate"]) and all(d["within_tol"].values())


@pytest.mark.parametrize("argv", [("--certified", "--strata"), ("--tol", "1e-6")], ids=["certified-strata", "tol-without-certified"])
def test_cli_certified_usage_errors(argv):
    """--certified does not combine with --strata, and --tol needs --certified: both exit with status 2."""
    assert main(["decompose", "--example", "branching", *argv]) == 2


def _paper_benchmark_candidate():
    """The paper benchmark and a right float candidate for it (rho, h, classes)."""
    chain = exactpte.example("paper-benchmark")
    dec = exactpte.decompose(chain)
    return chain, dec, {"rho": [float(x) for x in dec.rho], "h": [float(x) for x in dec.h], "classes": [list(c) for c in dec.classes]}


def test_oracle_against_enclosures_accepts_a_right_candidate():
    """compare() against certified enclosures accepts the exact answer rounded to floats."""
    chain, _, good = _paper_benchmark_candidate()
    assert compare(good, decompose_certified(chain), atol=1e-9).ok


def test_oracle_against_enclosures_names_a_wrong_entry():
    """compare() against certified enclosures refuses an h off by 1e-6 at one state and says the
    reference was the certified enclosures."""
    chain, dec, good = _paper_benchmark_candidate()
    bad = dict(good, h=[float(x) + (1e-6 if s == 40 else 0) for s, x in enumerate(dec.h)])
    report = compare(bad, decompose_certified(chain), atol=1e-9)
    assert not report.ok and "certified enclosures" in next(f.detail for f in report.findings if f.key == "h")


@pytest.mark.parametrize("argv, reference", [
    (("--arithmetic", "certified"), "reference: certified enclosures (asked for)"),
    ((), "reference: exact decomposition"),
], ids=["certified-asked-for", "exact-by-default"])
def test_check_cli_names_its_reference(tmp_path, capsys, argv, reference):
    """exactpte check accepts a right candidate and says which reference judged it: the certified
    enclosures when asked for, the exact decomposition by default."""
    chain, _, good = _paper_benchmark_candidate()
    path = tmp_path / "candidate.json"
    path.write_text(json.dumps(good))
    chain_file = tmp_path / "chain.json"
    exactpte.dump(chain, chain_file)
    assert main(["check", str(path), "--chain", str(chain_file), *argv]) == 0
    assert reference in capsys.readouterr().out


@pytest.mark.parametrize("reward", [10**400, -(10**309)])
def test_reward_past_the_double_range_is_refused_by_name(reward, tmp_path, capsys):
    # A reward no double can hold: the certified route computes in doubles, so it refuses with a
    # named error (exit 2 from the CLI) instead of an OverflowError traceback.
    chain = MarkovRewardProcess([["1/2", "1/2"], ["1", "0"]], [reward, 0])
    with pytest.raises(UsageError, match="past the largest double"):
        decompose_certified(chain)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"P": [["1/2", "1/2"], ["1", "0"]], "r": [str(reward), "0"]}))
    assert main(["decompose", str(path), "--certified"]) == 2
    assert "past the largest double" in capsys.readouterr().err
    # The exact route takes the same chain.
    assert exactpte.decompose(chain).rho[0] == flint.fmpq(2 * reward, 3)


def _many_small_components(n_blocks=40):
    """A chain whose transient states form many 3-state cycles feeding each other and 4 absorbing states:
    more transient states than a patched DIRECT_LIMIT, every strongly connected component below it."""
    from exactpte.model.chain import MarkovRewardProcess as MRP
    rows, cols, num, den = [], [], [], []
    m = 3 * n_blocks
    for b in range(n_blocks):
        for j in range(3):
            s = 3 * b + j
            succ = [3 * b + (j + 1) % 3, m + (s % 4)] + ([3 * (b + 1)] if b + 1 < n_blocks else [])
            for t in succ:
                rows.append(s), cols.append(t), num.append(1), den.append(len(succ))
    for a in range(4):
        rows.append(m + a), cols.append(m + a), num.append(1), den.append(1)
    r = [(s % 5) - 2 for s in range(m + 4)]
    return MRP.from_arrays(m + 4, rows, cols, num, den, r)


def test_sparse_lu_on_small_components_is_certified(monkeypatch):
    """A block larger than DIRECT_LIMIT whose components are all small is factored (the crowds-5-5 route)."""
    import exactpte.certified.systems as cs

    monkeypatch.setattr(cs, "DIRECT_LIMIT", 10)
    monkeypatch.setattr(cs, "LU_CHUNK", 2)  # the chunked solves too
    monkeypatch.setattr(cs, "RESIDUAL_CHUNK", 1)
    chain = _many_small_components()
    system = cs.MMatrixSystem(sp.csr_matrix(np.eye(12, k=1) * 0.5), "chain of 12")
    assert system.direct and system.m > cs.DIRECT_LIMIT
    assert_encloses(chain, tol=1e-9)


@pytest.mark.parametrize("corruption", ["noise", "garbage"])
def test_corrupted_fast_solves_are_caught(monkeypatch, corruption):
    """The chunked LU solves are never trusted: noisy ones are refined away, garbage ones leave
    uncertified (infinite) bounds rather than wrong ones; the exact answer is always inside."""
    import exactpte.certified.systems as cs

    monkeypatch.setattr(cs, "DIRECT_LIMIT", 10)
    monkeypatch.setattr(cs, "LU_CHUNK", 2)
    real = cs.MMatrixSystem._float_solve
    rng = np.random.default_rng(0)

    def corrupted(self, C, rtol):
        X = real(self, C, rtol)
        if corruption == "noise":
            return X * (1 + 1e-6 * rng.standard_normal(X.shape))
        return X + rng.standard_normal(X.shape)

    monkeypatch.setattr(cs.MMatrixSystem, "_float_solve", corrupted)
    chain = _many_small_components()
    cert = decompose_certified(chain)
    assert all(cert.contains(exactpte.decompose(chain)).values())
    if corruption == "noise":
        assert all(c.certified for c in cert.certificates) and max(cert.widths().values()) < 1e-9


def test_contains_fast_path_is_exact_at_the_edges():
    """``Interval.contains`` decides by the correctly rounded float only strictly inside; at an end it
    decides exactly (a rational between two doubles, one past the double range)."""
    from exactpte.certified.rounding import down, up

    tenth = flint.fmpq(1, 10)
    x = flint.fmpq(*(0.1).as_integer_ratio())
    above_x = x + flint.fmpq(1, 10**30)
    assert Interval(np.array([0.1]), np.array([0.1])).contains([tenth]).tolist() == [False]  # 0.1 is not 1/10
    assert Interval(np.array([0.1]), np.array([0.1])).contains([x]).tolist() == [True]
    assert Interval(np.array([0.1]), np.array([up(0.1)])).contains([above_x]).tolist() == [True]
    assert Interval(np.array([down(0.1)]), np.array([0.1])).contains([above_x]).tolist() == [False]
    assert Interval(np.array([down(0.1)]), np.array([up(0.1)])).contains([tenth]).tolist() == [True]
    huge = flint.fmpq(10**400)
    assert Interval(np.array([0.0]), np.array([np.inf])).contains([huge]).tolist() == [True]
    assert Interval(np.array([0.0]), np.array([1e308])).contains([huge]).tolist() == [False]
