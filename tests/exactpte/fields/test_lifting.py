"""Numeric-symbolic lifting of the phase systems (``exactpte.fields.lifting``): its answers equal the
p-adic route's exactly, and every way it can go wrong ends in ``None`` (the p-adic route), never
in a wrong answer."""

import math

import flint
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exactpte
import exactpte.fields.lifting as lifting
from exactpte.fields import rational
from exactpte.testing.random_chains import random_chain
from conftest import scaled

q = flint.fmpq


def exact_phase_solution(Q_rows, C, d):
    """x_0 from (I - Q^d) x_0 = Σ_j Q^j C_j by flint, then x_k = C_k + Q x_{k+1}: the reference."""
    m = len(Q_rows)
    Q = flint.fmpq_mat(m, m)
    for a, row in enumerate(Q_rows):
        for b, v in row:
            Q[a, b] = v
    Cm = [flint.fmpq_mat(C[k]) for k in range(d)]
    power, y = Q, Cm[d - 1]
    for k in range(d - 2, -1, -1):
        y = Cm[k] + Q * y
    for _ in range(d - 1):
        power = power * Q
    I = flint.fmpq_mat(m, m)
    for i in range(m):
        I[i, i] = 1
    X = [None] * d
    X[0] = (I - power).solve(y)
    nxt = X[0]
    for k in range(d - 1, 0, -1):
        X[k] = Cm[k] + Q * nxt
        nxt = X[k]
    return [X[k].tolist() for k in range(d)]


@st.composite
def phase_systems(draw):
    """A strictly substochastic sparse Q (every row leaks, so I - Q^d is nonsingular), a period and
    small right-hand sides: the systems the phase basis solves."""
    m = draw(st.integers(2, 40))
    d = draw(st.integers(1, 4))
    c = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Q_rows = []
    for a in range(m):
        k = int(rng.integers(1, min(m, 4) + 1))
        succ = sorted(rng.choice(m, size=k, replace=False).tolist())
        den = int(rng.integers(k + 1, 11))
        weights = rng.integers(1, 3, size=k)
        while weights.sum() >= den:
            weights = np.maximum(weights - 1, 1)
            den += 1
        Q_rows.append([(b, q(int(w), den)) for b, w in zip(succ, weights)])
    C = [[[q(int(rng.integers(0, 4)), int(rng.integers(1, 11))) for _ in range(c)] for _ in range(m)] for _ in range(d)]
    return Q_rows, C, d


def as_fractions(answer):
    """The lifting's ``(nums, den)`` as ``fmpq`` entries (one common denominator for all)."""
    nums, den = answer
    return [[[q(v, den) for v in row] for row in Xk] for Xk in nums]


@pytest.mark.slow
@settings(scaled(1), deadline=None)
@given(system=phase_systems())
def test_lifting_equals_the_exact_solution(system):
    Q_rows, C, d = system
    got = lifting.lift_phase_system(Q_rows, C, d)
    assert got is not None
    assert as_fractions(got) == exact_phase_solution(Q_rows, C, d)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 2])
def test_decompositions_agree_with_the_p_adic_route(seed, monkeypatch):
    """With the thresholds lowered, the transient phase systems and the class systems take the
    lifting; the p-adic route alone gives the same decomposition, entry for entry."""
    monkeypatch.setattr(rational, "MIN_PHASE_BLOCK", 40)
    monkeypatch.setattr(rational, "MIN_BLOCK", 20)
    chain = random_chain(600, seed=seed, transient_target_percent=85)
    assert max(len(b) for b in chain.structure.transient_sccs) >= 40 and min(map(len, chain.structure.classes)) >= 20
    used = {"phase": 0, "sparse": 0, "mean": 0}
    phase, sparse = lifting.lift_phase_system, lifting.lift_sparse_system

    def count(name, f):
        def wrapped(*args):
            out = f(*args)
            used[name] += out is not None
            return out
        return wrapped

    monkeypatch.setattr(lifting, "lift_phase_system", count("phase", phase))
    monkeypatch.setattr(lifting, "lift_sparse_system", count("sparse", sparse))
    monkeypatch.setattr(lifting, "_mean_component", count("mean", lifting._mean_component))
    lifted = exactpte.decompose(chain)
    lifted_values = {name: tuple(getattr(lifted, name)) for name in ("basis", "g_star", "v_star", "psi", "rho", "h", "theta")}
    assert used["phase"] >= 2 and used["sparse"] >= 8 and used["mean"] >= 1, used
    monkeypatch.setattr(rational, "MIN_PHASE_BLOCK", 10**9)
    monkeypatch.setattr(rational, "MIN_BLOCK", 10**9)
    p_adic = exactpte.decompose(random_chain(600, seed=seed, transient_target_percent=85))
    for name, value in lifted_values.items():
        assert value == getattr(p_adic, name), name


@pytest.mark.parametrize("route", ["sparse", "dense", "components-sparse", "components-dense"])
@settings(scaled(15/40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(system=phase_systems())
def test_both_float_factorisations_give_the_exact_solution(route, system, monkeypatch):
    """The float solver is sparse LU (over the roots of unity for d > 1) when its fill is small, else a
    dense LU of I - Q^d; forced either way, the lifted answer is the exact one.  Periods 2-4 go through
    the cyclotomic components (one lifting per Φ_e(Q)) unless told not to; both routes are exact."""
    monkeypatch.setattr(lifting, "_SPARSE_PENALTY", 1e-9 if route.endswith("sparse") else 1e9)
    if not route.startswith("components"):
        monkeypatch.setattr(lifting, "_COMPONENTS", {})
    Q_rows, C, d = system
    got = lifting.lift_phase_system(Q_rows, C, d)
    assert got is not None
    assert as_fractions(got) == exact_phase_solution(Q_rows, C, d)


@pytest.mark.parametrize("log2_det", [0.0, 1e6, float("nan")])
def test_a_wrong_determinant_estimate_costs_attempts_not_exactness(log2_det, monkeypatch):
    """The determinant only schedules the reconstruction attempts: far too small (attempts every 5 %
    from the start), far too large or not finite, the answer is still the exact one."""
    real = lifting._phase_float_solver
    monkeypatch.setattr(lifting, "_phase_float_solver", lambda Qf, d, *a: lifting.FloatSolver(real(Qf, d, *a).solve, log2_det))
    Q_rows, C, d = small_system()
    got = lifting.lift_phase_system(Q_rows, C, d)
    assert got is not None and as_fractions(got) == exact_phase_solution(Q_rows, C, d)


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 6])
def test_roots_of_unity_split_inverts_i_minus_q_to_the_d(d, monkeypatch):
    """(I - Q^d)^{-1} = (1/d) Σ_ω (I - ωQ)^{-1}: the sparse float solver against a dense solve."""
    monkeypatch.setattr(lifting, "_SPARSE_PENALTY", 1e-9)  # any fill: the sparse route always
    rng = np.random.default_rng(d)
    m = 60
    Q = sp.random(m, m, density=0.05, random_state=rng, format="csr")
    Q = sp.diags(0.9 / np.maximum(np.asarray(Q.sum(axis=1)).ravel(), 1e-9)) @ Q  # row sums 0.9 (or 0)
    y = rng.standard_normal((m, 2))
    dense = np.linalg.solve(np.eye(m) - np.linalg.matrix_power(Q.toarray(), d), y)
    got = lifting._roots_solver(sp.csr_matrix(Q), d)
    assert got is not None
    assert np.allclose(got.solve(y), dense, rtol=1e-10, atol=1e-12)
    # and the determinant the reconstruction schedule starts from: det(I - Q^d) = Π_ω det(I - ωQ)
    assert got.log2_det == pytest.approx(np.linalg.slogdet(np.eye(m) - np.linalg.matrix_power(Q.toarray(), d))[1] / np.log(2),
                                         abs=1e-8)


def test_a_wrong_root_weight_is_caught(monkeypatch):
    """Drop the 1/d of the roots-of-unity split: the float solver is then a factor d off, the residual
    grows, and the lifting returns None (it never reaches a wrong answer)."""
    monkeypatch.setattr(lifting, "_SPARSE_PENALTY", 1e-9)
    real = lifting._roots_solver

    def wrong(Qf, d, *a):
        solve, log2_det = real(Qf, d, *a)
        return lifting.FloatSolver(lambda y: solve(y) * d, log2_det)

    monkeypatch.setattr(lifting, "_roots_solver", wrong)
    monkeypatch.setattr(lifting, "_COMPONENTS", {})  # the direct route: one lifting through every root
    assert lifting.lift_phase_system(*small_system()) is None


@pytest.mark.parametrize("d", sorted(lifting._COMPONENTS))
def test_cyclotomic_partial_fractions(d):
    """1 = Σ_e A_e(z) (1 - z^d) / Φ_e(z) as polynomials (checked at d + 3 points: degree below d)."""
    phi = {1: [1, -1], 2: [1, 1], 3: [1, 1, 1], 4: [1, 0, 1]}

    def value(coefficients, z):
        return sum(q(a) * z**t for t, a in enumerate(coefficients))

    for z in range(2, d + 5):
        z = q(z)
        total = sum(value(A, z) * (1 - z**d) / value(phi[e], z) for e, A in lifting._COMPONENTS[d])
        assert total == 1


def test_a_wrong_component_is_caught(monkeypatch):
    """A wrong partial-fraction coefficient makes x_0 wrong: the exact check x_0 = C_0 + Q x_1 refuses it
    and the direct route answers."""
    bad = {2: ((1, (q(1, 2),)), (2, (q(1, 3),)))}
    monkeypatch.setattr(lifting, "_COMPONENTS", bad)
    Q_rows, C, d = small_system()
    L = lifting._integer_rows(Q_rows)
    assert lifting._lift_by_components(Q_rows, C, d, L) is None
    assert as_fractions(lifting.lift_phase_system(Q_rows, C, d)) == exact_phase_solution(Q_rows, C, d)


# -- what it refuses ------------------------------------------------------------------------------------
def small_system():
    Q_rows = [[(1, q(1, 2))], [(0, q(1, 3)), (1, q(1, 3))]]
    C = [[[q(1, 2)], [q(2, 3)]], [[q(0)], [q(1, 5)]]]
    return Q_rows, C, 2


def test_a_float_solver_that_does_not_contract_ends_in_none(monkeypatch):
    real = lifting._phase_float_solver

    def biased(Qf, d, *a):
        solve, log2_det = real(Qf, d, *a)
        return lifting.FloatSolver(lambda Rf: solve(Rf) * (1 + 1e-3), log2_det)  # 10 bits: the residual grows

    monkeypatch.setattr(lifting, "_phase_float_solver", biased)
    monkeypatch.setattr(lifting, "_COMPONENTS", {})  # the direct route's float solver
    assert lifting.lift_phase_system(*small_system()) is None


def test_a_float_solver_returning_garbage_ends_in_none(monkeypatch):
    monkeypatch.setattr(lifting, "_phase_float_solver",
                        lambda Qf, d, *a: lifting.FloatSolver(lambda Rf: np.full(Rf.shape, np.nan), 0.0))
    monkeypatch.setattr(lifting, "_COMPONENTS", {})
    assert lifting.lift_phase_system(*small_system()) is None


def test_a_wrong_reconstruction_is_caught_by_the_exact_verification(monkeypatch):
    """Corrupt one numerator after reconstruction: the integer check rejects it, lifting goes on and
    ends in None rather than returning it."""
    real = lifting._verify

    def corrupted(N, den, *args):
        N = list(N)
        N[0] += 1
        return real(N, den, *args)

    monkeypatch.setattr(lifting, "_verify", corrupted)
    assert lifting.lift_phase_system(*small_system()) is None


def test_matrix_entries_beyond_machine_words_are_left_to_the_p_adic_route():
    Q_rows, C, d = small_system()
    Q_rows[0] = [(1, q(1, 2**21 + 1))]
    assert lifting.lift_phase_system(Q_rows, C, d) is None


def mean_of(solution):
    """``Σ_k x_k`` of an exact phase solution as numerators, row by row, over one denominator (what the caller passes)."""
    d, m, c = len(solution), len(solution[0]), len(solution[0][0])
    values = [sum((solution[k][a][j] for k in range(d)), q(0)) for a in range(m) for j in range(c)]
    den = flint.fmpz(1)
    for v in values:
        den = den.lcm(v.q)
    return [3 * v.p * (den // v.q) for v in values], den * 3  # (not the least denominator: any common one will do)


@settings(scaled(1), deadline=None)
@given(system=phase_systems().filter(lambda s: s[2] > 1), corrupt=st.booleans())
def test_a_known_mean_replaces_the_first_components_lifting(system, corrupt):
    """With ``Σ_k x_k`` known (the absorption probabilities, for the phase basis) the ``I - Q`` component is read off
    it, one lifting fewer, and the answer is the same; a wrong mean fails the exact check and the phase system is
    lifted whole, still exact."""
    Q_rows, C, d = system
    exact = exact_phase_solution(Q_rows, C, d)
    nums, den = mean_of(exact)
    if corrupt:
        nums[len(nums) // 2] += 1
    lifts, split = [], []
    rows, by_components = lifting._lift_rows, lifting._lift_by_components
    lifting._lift_rows = lambda *a: lifts.append(len(a[0])) or rows(*a)
    lifting._lift_by_components = lambda *a: split.append(by_components(*a)) or split[-1]
    try:
        got = lifting.lift_phase_system(Q_rows, C, d, (nums, den))
    finally:
        lifting._lift_rows, lifting._lift_by_components = rows, by_components
    assert got is not None and as_fractions(got) == exact
    assert len(lifts) == len(lifting._COMPONENTS[d]) - 1
    # the corrupted mean is refused by the exact check (then the whole system lifts); a good one succeeds wherever
    # the components do without it (on a few tiny systems a component does not lift either way)
    unaided = lifting._lift_by_components(Q_rows, C, d, lifting._integer_rows(Q_rows))
    assert (split[0] is None) == (corrupt or unaided is None)


def wide_row_system(fan: int, den: int):
    """A cycle of ``fan + 2`` states leaking ``1/4`` a step, whose first state fans out to ``fan`` states with
    probability ``1/den`` each (leader6_3's state with 729 successors of ``1/729``): a row whose product of
    denominators passes 64 bits while its lcm is small."""
    m = fan + 2
    rows = [[(1 + b, q(3, 4 * den)) for b in range(fan)]] + [[((a + 1) % m, q(3, 4))] for a in range(1, m)]
    return rows, [[[q(1, 4)] for _ in range(m)]], 1


def test_rows_whose_denominators_multiply_past_64_bits_still_lift():
    """The row lcm of a wide row is taken in Python, not refused: such a block lifted nothing before and went
    to the dense p-adic solve (leader6_3: 1.3 s of a 1.4 s rho)."""
    Q_rows, C, d = wide_row_system(40, 9)
    L, _, _ = lifting._integer_rows(Q_rows)
    assert L.tolist()[:2] == [12, 4]
    got = lifting.lift_phase_system(Q_rows, C, d)
    assert got is not None and as_fractions(got) == exact_phase_solution(Q_rows, C, d)


def test_a_wide_row_whose_lcm_passes_the_entry_bound_is_left_to_the_p_adic_route():
    Q_rows, C, d = wide_row_system(30, 9)
    Q_rows[0] = [(1 + b, q(1, 4 * (2**20 + 2 * b + 1))) for b in range(30)]  # pairwise coprime odd parts
    Q_rows[0] += [(31, 1 - sum((v for _, v in Q_rows[0]), q(0)) - q(1, 4))]
    assert lifting._integer_rows(Q_rows) is None
    assert lifting.lift_phase_system(Q_rows, C, d) is None


@pytest.mark.slow
@settings(scaled(25/40), deadline=None)
@given(system=phase_systems(), bits=st.one_of(st.integers(60, 3000), st.integers(9000, 20000)),
       seed=st.integers(0, 2**32 - 1))
def test_large_right_hand_sides_are_reduced_exactly_first(system, bits, seed):
    """Right-hand sides of thousands of bits (the bias solve's ``r - ρ + P h``): integer steps bring
    them below the digit lifting's range; the answer is still exact."""
    Q_rows, C, d = system
    rng = np.random.default_rng(seed)
    C = [[[q(int(rng.integers(-2**62, 2**62)) << int(rng.integers(0, bits)), int(rng.integers(1, 2**40)) | 1)
           for _ in row] for row in Ck] for Ck in C]
    got = lifting.lift_phase_system(Q_rows, C, d)
    assert got is not None
    assert as_fractions(got) == exact_phase_solution(Q_rows, C, d)


@pytest.mark.parametrize("window", [150, 1000])
def test_narrow_windows_of_the_residual_give_the_same_answer(window, monkeypatch):
    """The refinement works on a window of the residual's top bits and folds it back when used up;
    with windows far narrower than the right-hand side (many folds, steps below the window), the
    answer is still exact."""
    monkeypatch.setattr(lifting, "_WINDOW", window)
    rng = np.random.default_rng(window)
    Q_rows, C, d = small_system()
    C = [[[q(int(rng.integers(1, 2**62)) << int(rng.integers(2000, 6000)), int(rng.integers(1, 2**40)) | 1)
           for _ in row] for row in Ck] for Ck in C]
    got = lifting.lift_phase_system(Q_rows, C, d)
    assert got is not None and as_fractions(got) == exact_phase_solution(Q_rows, C, d)


@st.composite
def sparse_systems(draw):
    """Square sparse systems like the class systems: a diagonally dominant part plus a dense row of
    ones (the stationary distribution's normalisation) or a pinned unknown (the class bias)."""
    m = draw(st.integers(2, 30))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows = []
    for a in range(m):
        k = int(rng.integers(1, min(m, 4) + 1))
        succ = rng.choice(m, size=k, replace=False).tolist()
        den = int(rng.integers(k + 1, 12))
        row = [(a, q(1))] + [(b, -q(1, den)) for b in succ]  # repeated columns add up
        rows.append(row)
    if draw(st.booleans()):
        rows[-1] = [(a, q(1)) for a in range(m)]
    c = draw(st.integers(1, 3))
    B = [[q(int(rng.integers(-5, 6)), int(rng.integers(1, 9))) for _ in range(c)] for _ in range(m)]
    return rows, B


@settings(scaled(1), deadline=None)
@given(system=sparse_systems())
def test_sparse_lifting_equals_the_dense_solve(system):
    from exactpte.fields import QQ
    from exactpte.fields.rows import solve_rows_densely

    from hypothesis import assume

    from exactpte.errors import SingularSystemError

    rows, B = system
    try:
        reference = solve_rows_densely(QQ, rows, B)
    except SingularSystemError:  # the row of ones can (rarely) make it singular: not this test's case
        assume(False)
    got = lifting.lift_sparse_system(rows, B)
    assert got is not None
    assert got == reference


def convergent_denominator_stepwise(num: int, den: int, max_den: int) -> int:
    """The last convergent's denominator not above ``max_den``, one ``divmod`` a quotient: the reference (the
    formulation the Lehmer version replaced)."""
    n, d = num % den, den
    q0, q1 = 0, 1
    while n:
        a, r = divmod(d, n)
        q2 = a * q1 + q0
        if q2 > max_den:
            break
        q0, q1 = q1, q2
        d, n = n, r
    return q1


@given(num=st.integers(-2**3000, 2**3000), den_bits=st.integers(1, 3000), bound_bits=st.integers(1, 1600),
       power_of_two=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_lehmers_continued_fraction_gives_the_stepwise_denominators(num, den_bits, bound_bits, power_of_two, seed):
    """The continued fraction by Lehmer's steps (partial quotients from the leading bits, large numbers updated once a
    batch) stops at the same convergent as one ``divmod`` a quotient, wherever the bound falls."""
    rng = np.random.default_rng(seed)
    den = 1 << den_bits if power_of_two else int(rng.integers(1, 2**62)) << max(0, den_bits - 62) | 1
    max_den = 1 << bound_bits
    assert lifting._convergent_denominator(num, den, max_den) == convergent_denominator_stepwise(num, den, max_den)


def test_lehmers_continued_fraction_finds_a_large_denominator():
    rng = np.random.default_rng(5)
    q_ = int.from_bytes(rng.bytes(600), "little") | 1
    p_ = int.from_bytes(rng.bytes(590), "little")
    shift = 2 * q_.bit_length() + 128
    reduced = q_ // math.gcd(p_, q_)
    assert reduced.bit_length() > 4700
    assert lifting._convergent_denominator((p_ << shift) // q_, 1 << shift, 1 << (shift // 2 - 32)) == reduced
