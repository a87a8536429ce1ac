"""The sweep's fast paths give exactly what the slower formulations they replaced give (issue #35: a sweep at
>= 100 chains per CPU second without any check losing power): the same random draws, the same matrices, the
same verdicts on exact and on corrupted claims."""

import random

import flint
import pytest

import exactpte
from exactpte.testing.random_chains import sweep_chain
from proofs_check.certificates import positive_definite
from proofs_check.checks import appendix, decomposition
from proofs_check.claimed import from_decomposition
from proofs_check.linalg import (column_norms_inf, identity, in_span, in_span_all, mat_poly, norm_inf, orbits, random_integers,
                                 random_vector, rank, row_l1, vec)
from proofs_check.registry import Context, run_checks
from proofs_check.routes import Routes


def _contexts(count, seed="fast"):
    for i in range(count):
        chain = sweep_chain(f"{seed}:{i}", min_states=2, max_states=9)
        yield Context(chain, from_decomposition(exactpte.decompose(chain)), Routes(chain), 7)


def _corrupted(claim, rng):
    """The claim with one transient-or-any basis row moved along the simplex, and with v* moved off the fixed point."""
    n = len(claim.basis)
    s = rng.randrange(n)
    row = list(claim.basis[s])
    if len(row) > 1:
        row[0], row[1] = row[0] + flint.fmpq(1, 10), row[1] - flint.fmpq(1, 10)
    basis = claim.basis[:s] + (tuple(row),) + claim.basis[s + 1:]
    v = list(claim.v_star)
    v[rng.randrange(n)] += flint.fmpq(1, 3)
    return [claim.replace(basis=basis), claim.replace(v_star=tuple(v))]


@pytest.mark.parametrize("seed", range(20))
def test_draws_are_randint_draws(seed):
    a, b = random.Random(seed), random.Random(seed)
    for bound in (1, 3, 9):
        n = seed % 11
        assert random_vector(a, n, bound=bound) == [flint.fmpq(b.randint(-bound, bound), b.randint(1, 4)) for _ in range(n)]
        assert random_integers(a, -3, 3, n) == [b.randint(-3, 3) for _ in range(n)]
        assert random_integers(a, 5, 5, 2) == [b.randint(5, 5) for _ in range(2)]
        assert a.random() == b.random()  # the generator is left in the same state


def _random_matrix(rng, rows, cols):
    return flint.fmpq_mat(rows, cols, [flint.fmpq(rng.randint(-9, 9), rng.randint(1, 6)) for _ in range(rows * cols)])


def test_integer_numerator_routes_equal_the_rational_ones():
    rng = random.Random(35)
    for _ in range(200):
        n, k = rng.randint(0, 6), rng.randint(0, 4)
        M, P, X = _random_matrix(rng, n, k), _random_matrix(rng, n, n), _random_matrix(rng, n, k)
        assert column_norms_inf(M) == [norm_inf([M[i, j] for i in range(n)]) for j in range(k)]
        assert row_l1(M) == [sum((abs(M[i, j]) for j in range(k)), flint.fmpq(0)) for i in range(n)]
        coeffs = [rng.randint(-3, 3) for _ in range(rng.randint(0, 7))]
        horner = flint.fmpq_mat(n, n)
        for c in reversed(coeffs):
            horner = horner * P + identity(n) * c
        assert mat_poly(coeffs, P) == horner
        acc, Y, sums = flint.fmpq_mat(n, k), X, {}
        for t in range(1, 9):
            acc, Y = acc + Y, P * Y
            sums[t] = acc
        horizons = rng.sample(range(1, 9), 3)
        assert orbits(P, X, horizons) == {T: sums[T] for T in horizons}
        B = _random_matrix(rng, n, rng.randint(0, 3))
        if B.ncols() and n:
            assert in_span_all(B, M) == all(in_span(B, [M[i, j] for i in range(n)]) for j in range(M.ncols()))
            assert in_span_all(B, B * _random_matrix(rng, B.ncols(), 2))


def test_positive_definite_equals_the_leading_minors():
    rng = random.Random(7)
    for _ in range(500):
        q = rng.randint(1, 5)
        H = _random_matrix(rng, q, q)
        H = H + H.transpose()
        if rng.random() < 0.5:
            H = H * H.transpose() + identity(q) * rng.randint(0, 2)
        rows = H.tolist()
        minors = all(flint.fmpq_mat([row[:k] for row in rows[:k]]).det() > 0 for k in range(1, q + 1))
        assert positive_definite(H) == minors


def test_projection_matrix_is_the_projection_of_the_unit_vectors():
    for ctx in _contexts(30):
        c, n = ctx.claimed, ctx.chain.n
        for claim in (c, c.replace(anchors=c.anchors[:-1] + ((0, 0, c.anchors[0][2]),))):
            units = [[flint.fmpq(int(i == j)) for i in range(n)] for j in range(n)]
            assert claim.projection_matrix() == flint.fmpq_mat([claim.project(u) for u in units]).transpose()


def _pihat_dev_reference(ctx):
    true_rows = appendix._true_basis_rows(ctx)
    if isinstance(true_rows, str):
        return true_rows
    for name, bh in appendix._bhats(ctx, flint.fmpq(1, 5)):
        m = appendix._pihat_dev_entrywise(ctx, name, bh, true_rows)
        if m:
            return m
    return None


def _pihat_norm_reference(ctx):
    c = ctx.claimed
    cases = [("Pi (the claimed b)", [list(row) for row in c.basis])]
    cases += [(name, bh) for name, bh in appendix._bhats(ctx, flint.fmpq(1, 3)) if appendix._on_simplex(bh)]
    for name, bh in cases:
        vs = appendix._tight_vectors(ctx, bh)
        for v, w in zip(vs, c.project_all(vs, bh)):
            if norm_inf(w) > 2 * norm_inf(v):
                return f"{name}: ||Pi^ v|| = {norm_inf(w)} exceeds 2||v|| = {2 * norm_inf(v)}"
    return None


def _general_projection_reference(ctx, trials=2):
    routes, n = ctx.routes, ctx.chain.n
    rng = ctx.rng("wellposed-projections")
    for t in range(trials):
        Pi = decomposition.random_projection(rng, routes.K)
        A = flint.fmpq_mat(2 * n, n, (routes.I - Pi * routes.P).entries() + (routes.I - Pi).entries())
        rhs = flint.fmpq_mat(2 * n, 1, (Pi * routes.r).entries() + [0] * n)
        if rank(A) < n:
            return "not unique"
        v = (A.transpose() * A).solve(A.transpose() * rhs)
        if A * v != rhs:
            return "no fixed point"
        if not routes.in_K(vec(routes.r - (routes.I - routes.P) * v)):
            return "g"
        if not routes.in_K([a - b for a, b in zip(vec(v), ctx.claimed.v_star)]):
            return "class"
    return None


def test_vectorised_checks_decide_as_the_entrywise_ones():
    """lem:pihat_dev, lem:pihat_infty_norm and thm:wellposed's random projections on exact and corrupted claims."""
    rng = random.Random(0)
    decided = {False: 0, True: 0}
    for ctx in _contexts(40):
        for claim in [ctx.claimed, *_corrupted(ctx.claimed, rng)]:
            c2 = Context(ctx.chain, claim, ctx.routes, ctx.seed)
            for fast, slow in ((appendix._pihat_dev, _pihat_dev_reference), (appendix._pihat_norm, _pihat_norm_reference)):
                got, want = fast(Context(ctx.chain, claim, ctx.routes, ctx.seed)), slow(c2)
                assert (got is None) == (want is None) and (got is None or got == want)
                decided[got is None] += 1
            general = decomposition.general_projection_problem(Context(ctx.chain, claim, ctx.routes, ctx.seed))
            reference = _general_projection_reference(Context(ctx.chain, claim, ctx.routes, ctx.seed))
            assert (general is None) == (reference is None)
    assert decided[False] and decided[True]  # both verdicts occur


def test_a_sweep_chain_holds_every_check():
    chain = sweep_chain("7331:11", min_states=1, max_states=12)
    verdicts = run_checks(chain, from_decomposition(exactpte.decompose(chain)), seed=7331)
    assert all(v.holds is not False for v in verdicts)


def test_a_float_gamma_is_only_a_proposal(monkeypatch):
    """The float spectral radius only proposes gamma: a gamma below rho(A) fails H's exact check and the arb route
    decides; a matrix with rho = 1 gets no float gamma and no certificate."""
    from proofs_check import certificates

    A = flint.fmpq_mat([[flint.fmpq(1, 2), 1], [0, flint.fmpq(1, 3)]])
    assert certificates._float_gamma(A) is not None and certificates.lyapunov_certificate(A) is None
    assert certificates.proposed_lyapunov_matrix(A * 100) is None  # gamma = 1/100 < rho(A) = 1/2: no H passes
    monkeypatch.setattr(certificates, "_float_gamma", lambda A: flint.fmpq(1, 100))
    assert certificates.lyapunov_certificate(A) is None  # decided by the enclosure route
    monkeypatch.undo()
    one = flint.fmpq_mat([[1, 0], [0, 0]])
    assert certificates._float_gamma(one) is None and certificates.lyapunov_certificate(one) is not None


def _nullspace_by_entries(M):
    """The nullspace as it was built before: entry by entry into an fmpq_mat."""
    m, n = M.nrows(), M.ncols()
    if m == 0:
        return identity(n)
    R, rk = M.rref()
    pivots, row = [], 0
    for c in range(n):
        if row < rk and R[row, c] != 0:
            pivots.append(c)
            row += 1
    free = [c for c in range(n) if c not in pivots]
    N = flint.fmpq_mat(n, len(free))
    for j, f in enumerate(free):
        N[f, j] = 1
        for i, p in enumerate(pivots):
            N[p, j] = -R[i, f]
    return N


def test_nullspace_from_lists_equals_the_entrywise_one():
    from proofs_check.linalg import nullspace
    rng = random.Random(3535)
    for _ in range(300):
        m, n, r = rng.randint(0, 6), rng.randint(0, 6), rng.randint(0, 3)
        A, B = _random_matrix(rng, m, r), _random_matrix(rng, r, n)  # rank <= r: nontrivial kernels
        M = A * B if r else flint.fmpq_mat(m, n)
        assert nullspace(M) == _nullspace_by_entries(M)
        assert M * nullspace(M) == flint.fmpq_mat(m, nullspace(M).ncols())


def test_basis_matrix_flat_equals_entrywise_and_is_a_copy():
    for ctx in _contexts(15, "basis-matrix"):
        for claim in [ctx.claimed, *_corrupted(ctx.claimed, random.Random(1))]:
            n, N = len(claim.basis), claim.N
            M = flint.fmpq_mat(n, N)
            for s in range(n):
                for j in range(N):
                    M[s, j] = claim.basis[s][j]
            B = claim.basis_matrix()
            assert B == M
            if n and N:
                B[0, 0] += 1  # a caller changing its matrix does not change the claim's next one
                assert claim.basis_matrix() == M
    ragged = ctx.claimed.replace(basis=ctx.claimed.basis[:-1] + (ctx.claimed.basis[-1][:-1],))
    if ctx.claimed.N:
        with pytest.raises(IndexError):
            ragged.basis_matrix()


def _wellposed_as_before(ctx):
    """thm:wellposed's gauge-fixed matrix and augmented fixed-point systems built entry by entry (as before)."""
    routes, n, c = ctx.routes, ctx.chain.n, ctx.claimed
    W = [s for s in range(n) if s not in set(c.anchor_states)]
    IP, K = routes.I - routes.P, routes.K
    M = flint.fmpq_mat([[IP[i, j] for j in W] + [K[i, j] for j in range(K.ncols())] for i in range(n)])
    return M


def test_wellposed_decides_as_before_on_exact_and_corrupted_claims():
    rng = random.Random(77)
    for ctx in _contexts(25, "wellposed"):
        M = _wellposed_as_before(ctx)
        W = [s for s in range(ctx.chain.n) if s not in set(ctx.claimed.anchor_states)]
        IP, K = ctx.routes.I - ctx.routes.P, ctx.routes.K
        assert M == flint.fmpq_mat([[row[j] for j in W] + krow for row, krow in zip(IP.tolist(), K.tolist())])
        verdicts = [decomposition._wellposed(Context(ctx.chain, claim, ctx.routes, 7))
                    for claim in [ctx.claimed, *_corrupted(ctx.claimed, rng)]]
        assert verdicts[0] is None
        assert verdicts[2] is not None  # v* off the fixed point is caught


def _general_projection_by_rref(ctx, trials=2):
    """thm:wellposed's random-projection part as it was: one rref of the 2n x (n + 1) system
    [(I - Pi P); (I - Pi)] v = [Pi r; 0] (the decision only: None, 'not unique', 'no fixed point', 'g', 'v*')."""
    from proofs_check.linalg import pivot_columns
    routes, n = ctx.routes, ctx.chain.n
    rng = ctx.rng("wellposed-projections")
    r = routes.r
    for _ in range(trials):
        Pi = decomposition.random_projection(rng, routes.K)
        if Pi is None:
            return "rank deficient"
        A = (routes.I - Pi * routes.P).entries() + (routes.I - Pi).entries()
        rhs = (Pi * r).entries() + [0] * n
        R, rk = flint.fmpq_mat(2 * n, n + 1, [x for i in range(2 * n) for x in (*A[i * n:(i + 1) * n], rhs[i])]).rref()
        pivots = pivot_columns(R, rk)
        if sum(1 for p in pivots if p < n) < n:
            return "not unique"
        if n in pivots:
            return "no fixed point"
        v = flint.fmpq_mat(n, 1, [R[i, n] for i in range(n)])
        if not routes.in_K(vec(r - (routes.I - routes.P) * v)):
            return "g"
        if not routes.in_K([a - b for a, b in zip(vec(v), ctx.claimed.v_star)]):
            return "v*"
    return None


def _decision(message):
    if message is None:
        return None
    for word, key in (("rank deficient", "rank deficient"), ("not unique", "not unique"), ("no fixed point", "no fixed point"),
                      ("g = r", "g"), ("v* is not", "v*")):
        if word in message:
            return key
    raise AssertionError(message)


def test_general_projection_solve_decides_as_the_rref():
    """The square solve decides as the 2n-row rref it replaced: on exact claims, on v* moved off its class, and on
    a wrong K (a column dropped or added: the fixed point is then not unique, or g leaves K)."""
    rng = random.Random(5)
    seen = set()
    for ctx in _contexts(30, "projection-solve"):
        claims = [ctx.claimed, *_corrupted(ctx.claimed, rng)]
        K = ctx.routes.K
        wrong = [decomposition.columns(K, list(range(K.ncols() - 1)))] if K.ncols() > 1 else []
        if K.ncols() < ctx.chain.n:
            wrong.append(decomposition.join(K, flint.fmpq_mat(ctx.chain.n, 1, [rng.randint(-2, 2) for _ in range(ctx.chain.n)])))
        for Kw in [None, *wrong]:
            routes = Routes(ctx.chain)
            if Kw is not None:
                routes.__dict__["K"] = Kw  # the cached route replaced: K_projector and in_K follow it
            for claim in claims:
                c = Context(ctx.chain, claim, routes, 7)
                got, want = _decision(decomposition.general_projection_problem(c)), _general_projection_by_rref(c)
                assert got == want
                seen.add(want)
    assert {None, "v*"} <= seen and len(seen) >= 3


def test_quotient_theorems_share_the_claimed_quotient_and_decide_alike():
    """thm:minimal_quotient and thm:quotient_contraction read the claimed quotient from ctx.shared: the same verdicts
    whichever runs first, and as when each computes it itself (a fresh context per check), on exact and corrupted claims."""
    rng = random.Random(11)
    for ctx in _contexts(20, "quotient-share"):
        for claim in [ctx.claimed, *_corrupted(ctx.claimed, rng)]:
            alone = [_outcome(f(Context(ctx.chain, claim, Routes(ctx.chain), 7)))
                     for f in (decomposition._minimal_quotient, decomposition._quotient_contraction)]
            both = Context(ctx.chain, claim, Routes(ctx.chain), 7)
            first = _outcome(decomposition._quotient_contraction(both))
            assert [_outcome(decomposition._minimal_quotient(both)), first] == alone


def _outcome(out):
    """An outcome as comparable data (a Held has no equality of its own)."""
    return (type(out).__name__, getattr(out, "note", out))
