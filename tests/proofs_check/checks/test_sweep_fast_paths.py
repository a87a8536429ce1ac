"""The sweep's fast paths give exactly what the slower formulations they replaced give (issue #35: a sweep at
>= 100 chains per CPU second without any check losing power): the same random draws, the same matrices, the
same verdicts on exact and on corrupted claims."""

import random

import flint
import numpy as np
import pytest

import exactpte
from exactpte.testing.random_chains import sweep_chain
from proofs_check.routes.certificates import positive_definite
from proofs_check.checks import appendix, decomposition
from proofs_check.judging.claims import from_decomposition
from proofs_check.algebra.linalg import column_norms_inf, identity, in_span, in_span_all, mat_poly, norm_inf, orbits, random_integers, random_vector, rank, row_l1, vec
from proofs_check.judging.registry import Context, few, run_checks
from proofs_check.routes.dense import Routes


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
    from proofs_check.routes import certificates

    A = flint.fmpq_mat([[flint.fmpq(1, 2), 1], [0, flint.fmpq(1, 3)]])
    assert certificates._float_gamma(A) is not None and certificates.lyapunov_certificate(A) is None
    assert certificates.proposed_lyapunov_matrix(A * 100) is None  # gamma = 1/100 < rho(A) = 1/2: no H passes
    monkeypatch.setattr(certificates, "_float_gamma", lambda A, Af=None: flint.fmpq(1, 100))
    assert certificates.lyapunov_certificate(A) is None  # decided by the enclosure route
    # the proposal's floats come from A's doubles divided by gamma (not B's own): still only a proposal
    assert certificates.proposed_lyapunov_matrix(A * 100, floats=certificates._float_matrix(A) * 100) is None
    monkeypatch.undo()
    one = flint.fmpq_mat([[1, 0], [0, 0]])
    assert certificates._float_gamma(one) is None and certificates.lyapunov_certificate(one) is not None


def test_nearest_floats_are_the_correctly_rounded_doubles():
    """``nearest_floats`` (``float(fmpq)``, python-flint's ``int(p) / int(q)``) gives ``nearest_float``'s double for every
    entry: random heights up to 400 digits, halfway cases, subnormals, and past the double range (``±inf``)."""
    from fractions import Fraction

    from proofs_check.algebra.floats import nearest_float, nearest_floats

    rng = random.Random(5)
    values = [flint.fmpq(rng.randint(-10**rng.randint(1, 400), 10**rng.randint(1, 400)), rng.randint(1, 10**rng.randint(1, 400)))
              for _ in range(3000)]
    values += [flint.fmpq(2**53 + 1, 2**54), flint.fmpq(1, 3), flint.fmpq(1, 2**1074), flint.fmpq(1, 2**1080), 0, 7,
               Fraction(-1, 3)]
    assert nearest_floats(values) == [nearest_float(x) for x in values]
    huge = [flint.fmpq(1, 3), flint.fmpq(10**400, 3), flint.fmpq(-10**400, 7)]
    assert nearest_floats(huge) == [nearest_float(x) for x in huge] == [1 / 3, float("inf"), float("-inf")]


def test_lyapunov_proposal_decides_in_integers_as_in_rationals():
    """The proposal's exact check in integers (``Z > 0`` and ``b²Z - BnᵀZBn > 0``, ``H = Z/2^40``, ``M = Mn/b``) accepts
    exactly what ``H > 0`` and ``H - MᵀHM > 0`` accept: ``H`` proposed for a contracting ``B`` and tried on ``B``
    (accepted), on ``2B``, ``-3B`` and ``B`` plus a rank-one corruption (mostly refused), and a non-definite ``Z``."""
    from proofs_check.routes import certificates
    from proofs_check.routes.certificates import positive_definite, proposed_lyapunov_matrix

    rng = random.Random(3)
    decided = []
    for q in range(1, 9):
        rows = [[flint.fmpq(rng.randint(-5, 5), rng.randint(1, 9)) for _ in range(q)] for _ in range(q)]
        B = flint.fmpq_mat([[x * flint.fmpq(9, 10) / (sum((abs(y) for y in row), flint.fmpq(0)) or 1) for x in row] for row in rows])
        H = proposed_lyapunov_matrix(B)
        assert H is not None and positive_definite(H) and positive_definite(H - B.transpose() * H * B)
        Z = (H * 2**40).numer_denom()[0]
        for Zt in (Z, Z - flint.fmpz_mat(q, q, [int(i == j) for i in range(q) for j in range(q)]) * (2 * int(Z[0, 0]))):
            Ht = flint.fmpq_mat(Zt) * flint.fmpq(1, 2**40)
            for M in (B, B * 2, B * -3, B + flint.fmpq_mat(q, q, [flint.fmpq(1, 2)] * (q * q))):
                by_rationals = positive_definite(Ht) and positive_definite(Ht - M.transpose() * Ht * M)
                Mn, d = M.numer_denom()
                by_integers = certificates._positive_definite_integer(Zt) and certificates._positive_definite_integer(
                    Zt * (d * d) - Mn.transpose() * Zt * Mn)
                assert by_rationals == by_integers
                decided.append(by_integers)
    assert True in decided and False in decided


def test_the_three_random_pihat_witnesses_are_three_draws():
    """lem:pihat_dev and lem:pihat_infty_norm draw three random witnesses from one source (a fresh source per
    draw gave the same vector three times); both lemmas, dense and sparse, see the same three."""
    from proofs_check.checks import pihat_sparse
    from proofs_check.algebra.linalg import random_vector

    for ctx in _contexts(10):
        n = ctx.chain.n
        drawn = pihat_sparse.random_witnesses(ctx)
        rng = ctx.rng("dev")
        assert drawn == [random_vector(rng, n) for _ in range(3)]
        if n >= 2:
            assert len({tuple(v) for v in drawn}) == 3
        assert appendix._tight_vectors(ctx, [])[:3] == drawn == pihat_sparse._vectors(ctx, [])[:3]


def _fourier_members_by_intersection(ctx, B):
    """thm:minimal_quotient's "span(b) minus a Fourier pair" members as they were built: span(b) intersected with the
    n x n kernel ker (c / Φ_m^e)(P)."""
    from proofs_check.algebra.linalg import intersect, nullspace

    routes, out = ctx.routes, []
    for f, e in routes.charpoly_factors:
        if f.is_cyclotomic() and f.degree() >= 1 and f != flint.fmpz_poly([-1, 1]):
            rest = routes.cyclotomic_full // (f**e)
            out.append(intersect(B, nullspace(mat_poly([int(x) for x in rest.coeffs()], routes.P))))
    return out


def test_fourier_members_are_the_intersections_they_replace(monkeypatch):
    """span(b) ∩ ker rest(P) as {B y : rest(P) B y = 0} is the same subspace as the intersection (for the claimed b,
    a corrupted b and a random B), and thm:minimal_quotient decides as with the intersections on exact and corrupted claims."""
    from proofs_check.algebra.linalg import column_basis, mat_poly_apply, nullspace, same_span

    rng = random.Random(11)
    periodic = [ctx for ctx in _contexts(120, seed="fourier") if any(d > 2 for d in ctx.claimed.periods)]
    assert len(periodic) >= 5
    members = 0
    for ctx in periodic:
        n, N = ctx.chain.n, ctx.claimed.N
        for B in (ctx.claimed.basis_matrix(), _corrupted(ctx.claimed, rng)[0].basis_matrix(), _random_matrix(rng, n, N)):
            old = _fourier_members_by_intersection(ctx, B)
            new = [m for name, m, _ in decomposition._minimal_quotient_family(
                Context(ctx.chain, ctx.claimed.replace(basis=tuple(tuple(r) for r in B.tolist())), ctx.routes, 7))
                if "Fourier" in name]
            assert len(old) == len(new)
            for a, b in zip(old, new):
                assert a.ncols() == b.ncols() == rank(b) and (a.ncols() == 0 or same_span(a, b))
                members += 1
        for coeffs in ([1, -2, 1], [3], [], [0, 1, 1, 1]):
            X = _random_matrix(rng, n, 3)
            assert mat_poly_apply(coeffs, ctx.routes.P, X) == mat_poly(coeffs, ctx.routes.P) * X
    assert members >= 15

    def family_by_intersection(ctx):
        fourier = iter(_fourier_members_by_intersection(ctx, ctx.claimed.basis_matrix()))
        return [(name, next(fourier) if "Fourier" in name else K, keep) for name, K, keep in original(ctx)]

    original = decomposition._minimal_quotient_family
    verdicts = []
    for ctx in periodic:
        N = ctx.claimed.N
        G = _random_matrix(rng, N, N)
        mixed = ctx.claimed.basis_matrix() * G  # the same span in another basis: the family is built and tried
        random_basis = _random_matrix(rng, ctx.chain.n, N)
        for claim in [ctx.claimed, *_corrupted(ctx.claimed, rng), *[ctx.claimed.replace(basis=tuple(tuple(r) for r in M.tolist()))
                                                                     for M in (mixed, random_basis)]]:
            new = decomposition._minimal_quotient(Context(ctx.chain, claim, ctx.routes, 7))
            monkeypatch.setattr(decomposition, "_minimal_quotient_family", family_by_intersection)
            old = decomposition._minimal_quotient(Context(ctx.chain, claim, ctx.routes, 7))
            monkeypatch.setattr(decomposition, "_minimal_quotient_family", original)
            assert new == old
            verdicts.append(new is None)
    assert True in verdicts and False in verdicts


def _near_ties(rng, k):
    """Rationals many of which round to the same double: x, x + 1/10^30, x - 1/10^30, their negatives, zeros, values
    below the double range, past it, and Python ints."""
    out = []
    for _ in range(k):
        x = flint.fmpq(rng.randint(-9, 9), rng.randint(1, 4))
        kind = rng.randrange(7)
        if kind == 0:
            x += flint.fmpq(rng.choice((-1, 1)), 10**30)
        elif kind == 1:
            x = flint.fmpq(rng.choice((-1, 0, 1)), 10**400)
        elif kind == 2:
            x = flint.fmpq(rng.choice((-1, 1)) * 10**400 + rng.randint(-2, 2), 3)
        elif kind == 3:
            x = rng.randint(-3, 3)
        out.append(x)
    return out


def test_ordering_through_doubles_is_the_exact_order():
    """linalg's exact_max, argmax, all_nonnegative, greater and norm_inf (doubles first, exact where they tie) equal
    Python's max, max(key=), all(x >= 0), > and max(abs) on lists full of near ties, tiny and huge values."""
    from proofs_check.algebra.linalg import all_nonnegative, argmax, exact_max, greater

    rng = random.Random(9)
    for _ in range(3000):
        xs = _near_ties(rng, rng.randint(1, 9))
        assert exact_max(xs) == max(xs) and norm_inf(xs) == max(map(abs, xs))
        idx = rng.sample(range(len(xs)), rng.randint(1, len(xs)))
        assert argmax(xs, idx) == max(idx, key=xs.__getitem__)
        assert all_nonnegative(xs) == all(x >= 0 for x in xs)
        assert all_nonnegative([abs(x) for x in xs])
        a, b = rng.choice(xs), rng.choice(xs)
        assert greater(a, b) == (a > b) and greater(b, a) == (b > a)
        assert not greater(a, a)
    assert norm_inf([]) == 0


def _invariant_constant_by_sets(ctx):
    R = ctx.routes.invariant
    for j in range(R.ncols()):
        for i, members in enumerate(ctx.claimed.classes):
            if len({R[s, j] for s in members}) > 1:
                return f"invariant vector {j} is not constant on claimed class {i} {few(members)}"
    if R.ncols() != len(ctx.claimed.classes):
        return f"dim ker(I-P) = {R.ncols()} but {len(ctx.claimed.classes)} closed classes are claimed"
    return None


def test_invariant_constant_decides_as_with_sets():
    """lem:invariant_constant_on_class compares each class's entries with the first one instead of collecting a set
    (an fmpq hash costs about 5 us): the same verdicts on exact claims and on classes with a foreign, a moved, a
    missing state and an empty class."""
    rng = random.Random(4)
    decided = {True: 0, False: 0}
    for ctx in _contexts(60, seed="invariant"):
        c, n = ctx.claimed, ctx.chain.n
        claims = [c]
        others = [s for s in range(n) if all(s not in cls for cls in c.classes)]
        for _ in range(3):
            classes = [list(cls) for cls in c.classes]
            i = rng.randrange(len(classes))
            kind = rng.randrange(4)
            if kind == 0 and others:
                classes[i].append(rng.choice(others))
            elif kind == 1 and len(classes) > 1 and len(classes[i]) > 1:
                classes[(i + 1) % len(classes)].append(classes[i].pop())
            elif kind == 2:
                classes[i] = classes[i][1:]
            else:
                classes.append([])
            claims.append(c.replace(classes=tuple(tuple(cls) for cls in classes)))
        for claim in claims:
            ctx2 = Context(ctx.chain, claim, ctx.routes, 7)
            got, want = decomposition._invariant_constant(ctx2), _invariant_constant_by_sets(ctx2)
            assert got == want
            decided[got is None] += 1
    assert decided[True] and decided[False]


def test_cached_matrices_are_copied_out():
    """identity, integer_identity and Claimed.basis_matrix hand out copies of matrices built once: changing one does
    not change the next; exact_integers builds the same matrix as the ints; random_vector's shared fractions are the
    values drawn."""
    from proofs_check.algebra.linalg import exact_integers, integer_identity

    for n in (0, 1, 4, 9):
        I = identity(n)
        if n:
            I[0, n - 1] += 5
            Z = integer_identity(n)
            Z[n - 1, 0] = 7
        assert identity(n) == flint.fmpq_mat(n, n, [int(i == j) for i in range(n) for j in range(n)])
        assert integer_identity(n) == flint.fmpz_mat(n, n, [int(i == j) for i in range(n) for j in range(n)])
    ints = [random.Random(1).randint(-70, 70) for _ in range(40)]
    assert flint.fmpq_mat(5, 8, exact_integers(ints)) == flint.fmpq_mat(5, 8, ints)
    ctx = next(_contexts(1))
    B = ctx.claimed.basis_matrix()
    B[0, 0] += 1
    assert ctx.claimed.basis_matrix() == flint.fmpq_mat([list(row) for row in ctx.claimed.basis]) != B
    Pi = ctx.claimed.projection_matrix()
    Pi[0, 0] += 1
    units = [[flint.fmpq(int(i == j)) for i in range(ctx.chain.n)] for j in range(ctx.chain.n)]
    assert ctx.claimed.projection_matrix() == flint.fmpq_mat([ctx.claimed.project(u) for u in units]).transpose() != Pi


def test_block_routes_share_the_dense_routes_graph():
    """A context's block routes analyse the support graph once, with the dense routes (the same object, the same
    classes and periods as a graph of their own)."""
    from proofs_check.routes.blocks import BlockRoutes

    for ctx in _contexts(15, seed="graph"):
        assert ctx.blocks.graph is ctx.routes.graph
        own = BlockRoutes(ctx.chain)
        assert own.graph is not ctx.routes.graph
        assert (own.classes, own.phases, own.transient_blocks) == (ctx.blocks.classes, ctx.blocks.phases, ctx.blocks.transient_blocks)


def test_joins_and_column_selections_by_products_equal_the_lists():
    """linalg's [A | B] and column selection by 0/1 products equal the matrices built from the entries' lists, for
    empty blocks too, and keep refusing blocks with too few rows."""
    from proofs_check.algebra.linalg import _side_by_side, columns, join

    rng = random.Random(12)
    for _ in range(300):
        n, a, b = rng.randint(1, 9), rng.randint(0, 5), rng.randint(0, 5)
        A, B = _random_matrix(rng, n, a), _random_matrix(rng, n, b)
        rows_a, rows_b = A.tolist(), B.tolist()
        if a + b:
            assert join(A, B) == flint.fmpq_mat([x + y for x, y in zip(rows_a, rows_b)])
        rows = rng.randint(1, n)
        if a and b:
            assert _side_by_side(A, B, rows) == flint.fmpq_mat([x + y for x, y in zip(rows_a[:rows], rows_b[:rows])])
        if a:
            keep = [rng.randrange(a) for _ in range(rng.randint(1, 6))]
            assert columns(A, keep) == flint.fmpq_mat([[row[j] for j in keep] for row in rows_a])
    with pytest.raises(IndexError):
        _side_by_side(_random_matrix(rng, 2, 2), _random_matrix(rng, 3, 1), 3)


def _b_identify_by_projections(ctx):
    from proofs_check.algebra.linalg import same_span

    c, n = ctx.claimed, ctx.chain.n
    Bm = c.basis_matrix()
    if rank(Bm) != c.N:
        return f"the claimed basis has rank {rank(Bm)}, expected N = {c.N}"
    if not same_span(Bm, ctx.routes.K_power(c.periods)):
        return "span(b) != ker(P^D - I)"
    for j in range(c.N):
        if any(x != 0 for x in c.project(c.b(j))):
            return f"Pi b_{c.anchors[j][:2]} != 0"
    Pi = c.projection_matrix()
    if Pi * Pi != Pi:
        return "Pi is not idempotent"
    if rank(Pi) != n - c.N:
        return f"rank Pi = {rank(Pi)}, expected n - N = {n - c.N}"
    for j, (_, _, a) in enumerate(c.anchors):
        for l_ in range(c.N):
            if c.basis[a][l_] != (1 if l_ == j else 0):
                return f"delta property fails: b column {l_} at anchor {a} is {c.basis[a][l_]}"
    return None


def test_b_identify_projects_the_basis_in_one_product():
    """lem:main_b_identify's Pi b_j = 0 read off Pi B (one product) decides and words its failures as the N
    projections did: exact claims, corrupted ones, moved anchors and a basis in another order of the same span."""
    rng = random.Random(21)
    decided = {True: 0, False: 0}
    for ctx in _contexts(60, seed="identify"):
        c = ctx.claimed
        claims = [c, *_corrupted(c, rng)]
        if c.N > 1:
            claims.append(c.replace(anchors=c.anchors[1:] + c.anchors[:1]))  # columns no longer match their anchors
            claims.append(c.replace(basis=tuple(row[1:] + row[:1] for row in c.basis)))
        for claim in claims:
            ctx2 = Context(ctx.chain, claim, ctx.routes, 7)
            got = decomposition._b_identify(ctx2)
            assert got == _b_identify_by_projections(ctx2)
            decided[got is None] += 1
    assert decided[True] and decided[False]


def test_in_K_by_the_integer_annihilator_equals_the_projector():
    """Routes.in_K (A x = 0, A an integer matrix with kernel span K) decides as the orthogonal projector onto span K
    (K_projector x = x): vectors of K, of K plus a perturbation, random vectors, several columns at once, and the
    edge subspaces {0} and R^n."""
    rng = random.Random(17)
    seen = {True: 0, False: 0}
    for ctx in _contexts(60, seed="annihilator"):
        routes, n = ctx.routes, ctx.chain.n
        K = routes.K
        for _ in range(4):
            inside = vec(K * _random_matrix(rng, K.ncols(), 1)) if K.ncols() else [flint.fmpq(0)] * n
            for v in (inside, [x + (flint.fmpq(1, 7) if s == 0 else 0) for s, x in enumerate(inside)], random_vector(rng, n)):
                want = routes.K_projector * flint.fmpq_mat(n, 1, v) == flint.fmpq_mat(n, 1, v)
                assert routes.in_K(v) == want
                seen[want] += 1
            X = flint.fmpq_mat(n, 2, [x for pair in zip(inside, random_vector(rng, n)) for x in pair])
            assert routes.in_K_all(X) == (routes.K_projector * X == X)
        for edge, members in ((flint.fmpq_mat(n, 0), False), (identity(n), True)):
            r2 = Routes(ctx.chain)
            r2.__dict__["K"] = edge
            assert r2.in_K([flint.fmpq(0)] * n) and r2.in_K(random_vector(rng, n)) == members
    assert seen[True] and seen[False]


def test_stability_setup_reads_the_projection_matrix():
    """The stability lemmas' M = (Pi P)|_W and G = Pi|_{W rows} from the claim's projection matrix and 0/1 selections
    equal the entry-by-entry construction, on exact and corrupted claims."""
    from proofs_check.checks import stability

    rng = random.Random(8)
    built = 0
    for ctx in _contexts(40, seed="stability"):
        for claim in [ctx.claimed, *_corrupted(ctx.claimed, rng)]:
            c, n = claim, ctx.chain.n
            ctx2 = Context(ctx.chain, claim, ctx.routes, 7)
            setup = stability._build(ctx2)
            if not isinstance(setup, stability._Setup):
                continue
            W = [s for s in range(n) if s not in set(c.anchor_states)]
            Pi = identity(n)
            for s in range(n):
                for j, a in enumerate(c.anchor_states):
                    Pi[s, a] -= c.basis[s][j]
            PiP = Pi * ctx.routes.P
            M = flint.fmpq_mat([[PiP[i, j] for j in W] for i in W]) if W else flint.fmpq_mat(0, 0)
            G = flint.fmpq_mat([[Pi[i, j] for j in range(n)] for i in W]) if W else flint.fmpq_mat(0, n)
            assert setup.M == M and setup.noises[0] == G * G.transpose() * stability.SIGMA**2
            built += 1
    assert built >= 20



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
    from proofs_check.algebra.linalg import nullspace
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
    from proofs_check.algebra.linalg import pivot_columns
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
