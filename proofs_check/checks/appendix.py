"""Checks for the appendix lemmas (their deterministic parts) and for ``P∞`` itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import lcm

import flint

from proofs_check.algebra.linalg import all_nonnegative, argmax, column_norms_inf, exact_max, greater, identity, matvec, nullspace, norm_inf, random_integers, random_vector, rank, rank_lower_bound, row_l1, same_span, subtract_scaled
from proofs_check.judging.registry import Context, NotApplicable, NotClaimed, Outcome, PiHat, register_check, few, mismatch
from proofs_check.checks import pihat_sparse
from proofs_check.checks.decomposition import random_projection

ZERO, ONE = flint.fmpq(0), flint.fmpq(1)


@register_check("lem:recurrent_decomp", "closed SCCs of the support graph = recurrent classes")
def _recurrent(ctx: Context) -> Outcome:
    c, n = ctx.claimed, ctx.chain.n
    Pinf = ctx.routes.P_inf
    recurrent = {y for y in range(n) if any(Pinf[s, y] != 0 for s in range(n))}
    claimed = {s for cls in c.classes for s in cls}
    if recurrent != claimed:
        return f"claimed recurrent set differs from the states with a nonzero P_inf column: {few(sorted(recurrent ^ claimed))}"
    for i, cls in enumerate(c.classes):
        S = set(cls)
        # one class: every state's P_inf row restricted to the class is the same positive vector
        ref = [Pinf[cls[0], y] for y in cls]
        if any(x <= 0 for x in ref):
            return f"claimed class {i} is not irreducible"
        for s in cls:
            if [Pinf[s, y] for y in cls] != ref:
                return f"claimed class {i} mixes states of different classes"
            if any(y not in S for y in ctx.chain.support[s]):
                return f"claimed class {i} is not closed (state {s} leaves it)"
    return None


@register_check("lem:shift_b", "P b_{i,k} = b_{i,k-1 mod d_i}", sparse=True)
def _shift(ctx: Context) -> Outcome:
    c = ctx.claimed
    col_of = {(i, k): j for j, (i, k, _) in enumerate(c.anchors)}
    for j, (i, k, _) in enumerate(c.anchors):
        prev = col_of.get((i, (k - 1) % c.periods[i]))
        if prev is None:
            return f"no basis column for ({i}, {(k - 1) % c.periods[i]})"
        if ctx.blocks.matvec_sparse(c.sparse_columns[j]) == c.sparse_columns[prev]:  # P b_j through b_j's nonzeros
            continue
        m = mismatch(f"P b_{i},{k}", ctx.chain.matvec(c.b(j)), c.b(prev), f"b_{i},{(k - 1) % c.periods[i]}")
        if m:
            return m
    return None


def projection_problem(ctx: Context) -> str | None:
    """``Π² = Π`` and ``(Π v)(a) = 0`` for *every* ``v``, decided exactly on a basis (shared by the dense and block
    versions).  ``Π`` is linear and fixes every ``v`` vanishing at the anchors (its formula
    ``Π v = v - Σ_j v(a_j) b_j`` reads ``v`` elsewhere only through ``v`` itself, checked on one such vector), so
    both identities hold for all ``v`` exactly when they hold on the ``N`` unit vectors ``e_a`` at the anchors.
    The unit vectors and their images are sparse (:meth:`~proofs_check.judging.claims.Claimed.project_sparse`): ``N``
    projections cost the basis' nonzeros, not ``N`` dense products with the ``n x N`` basis."""
    c, n = ctx.claimed, ctx.chain.n
    anchors = c.anchor_states
    anchor_set = set(anchors)
    off = next((s for s in range(n) if s not in anchor_set), None)
    if off is not None and c.project_sparse({off: ONE}) != {off: ONE}:
        return f"Pi does not fix e_{off}, which vanishes at the anchors (not the projection v - sum_j v(a_j) b_j)"
    for a in anchors:
        w = c.project_sparse({a: ONE})
        if c.project_sparse(w) != w:
            return f"Pi is not idempotent (Pi^2 e_{a} != Pi e_{a})"
        bad = [b for b in anchors if b in w]
        if bad:
            return f"(Pi e_{a}) is nonzero at anchors {few(bad)}"
    return None


def quotient_class_problem(ctx: Context, in_K: Callable[[dict[int, flint.fmpq]], bool]) -> str | None:
    """``v - Π v ∈ K(P)`` for *every* ``v``, decided exactly on a basis: ``v - Π v`` is linear in ``v`` and vanishes
    on every ``v`` that vanishes at the anchors (:func:`projection_problem`), so it lies in ``K(P)`` for all ``v``
    exactly when it does for the ``N`` unit vectors at the anchors (``in_K``, on a sparse vector ``{state: value}``:
    an independent route)."""
    c = ctx.claimed
    for a in c.anchor_states:
        diff = {a: ONE}  # e_a - Pi e_a
        subtract_scaled(diff, ONE, c.project_sparse({a: ONE}))
        if not in_K(diff):
            return f"e_{a} - Pi e_{a} is not in K(P): [Pi v] != [v] for v = e_{a}"
    return None


def dense_in_K(ctx: Context) -> Callable[[dict[int, flint.fmpq]], bool]:
    """The charpoly route's ``in_K`` on a sparse vector."""
    n = ctx.chain.n

    def in_K(x: dict[int, flint.fmpq]) -> bool:
        return ctx.routes.in_K([x.get(s, ZERO) for s in range(n)])

    return in_K


@register_check("lem:Pi_kernel", "Pi^2 = Pi, (Pi v)(a) = 0, ker Pi = span b, dim ker Pi = N")
def _Pi_kernel(ctx: Context) -> Outcome:
    c = ctx.claimed
    m = projection_problem(ctx)
    if m:
        return m
    Pi = c.projection_matrix()
    ker = nullspace(Pi)
    if ker.ncols() != c.N:
        return f"dim ker Pi = {ker.ncols()}, expected N = {c.N}"
    if not same_span(ker, c.basis_matrix()):
        return "ker Pi != span b"
    return None


@register_check("lem:kernel_equals_peripheral", "span b = K(P)")
def _kernel_peripheral(ctx: Context) -> Outcome:
    c = ctx.claimed
    Bm = c.basis_matrix()
    if not same_span(Bm, ctx.routes.K):
        return "span b != K(P) (kernel of the cyclotomic part of charpoly)"
    if not same_span(Bm, ctx.routes.K_power(c.periods)):
        return "span b != ker(P^D - I)"
    return None


@register_check("rem:peripheral_semisimple", "no Jordan blocks on the unit circle: rank(P^D - I) = rank((P^D - I)^2)")
def _semisimple(ctx: Context) -> Outcome:
    routes = ctx.routes
    D = lcm(*ctx.claimed.periods) if ctx.claimed.periods else 1
    M = routes.P_pow(D) - routes.I
    if rank(M) != rank(M * M):
        return "rank(P^D - I) != rank((P^D - I)^2)"
    if ctx.chain.n - rank(M) != routes.K.ncols():
        return f"dim ker(P^D - I) = {ctx.chain.n - rank(M)} with D = lcm(periods) = {D}, but dim K(P) = {routes.K.ncols()}"
    if routes.K.ncols() != routes.K_semisimple.ncols():
        return "peripheral generalized eigenspace is larger than the eigenspace"
    return None


@register_check("lem:W_norm_equiv", "W cap K = {0}")
def _W_cap_K(ctx: Context) -> Outcome:
    if ctx.routes.anchor_basis(ctx.claimed.anchor_states) is None:
        return "K[anchors, :] is singular: a nonzero element of K vanishes at every anchor"
    return None


def perturbed_basis(ctx: Context, eps: flint.fmpq) -> list[list[flint.fmpq]]:
    """The learned b^ given in the context, else an exact rational b^ on the simplex:
    (1 - eps) b(s) + eps u(s) on transient rows, b on recurrent rows."""
    if ctx.bhat is not None:
        return [list(row) for row in ctx.bhat]
    c = ctx.claimed
    out = []
    for s, w in enumerate(ctx.shared("bhat:weights", lambda: _simplex_weights(ctx))):
        if w is None:
            out.append(list(c.basis[s]))
            continue
        tot = sum(w)
        out.append([(1 - eps) * b + eps * flint.fmpq(x, tot) for b, x in zip(c.basis[s], w)])
    return out


def _simplex_weights(ctx: Context) -> list[list[int] | None]:
    """The random integer weights of :func:`perturbed_basis` per transient row (``None`` on recurrent rows), drawn
    once per chain and shared by every ``ε`` (the same draws, in the same order, as before they were shared)."""
    c, n = ctx.claimed, ctx.chain.n
    rng = ctx.rng("bhat")
    recurrent = {s for cls in c.classes for s in cls}
    out: list[list[int] | None] = []
    for s in range(n):
        if s in recurrent:
            out.append(None)
            continue
        w = random_integers(rng, 0, 5, c.N)  # rng.randint(0, 5) per column
        if sum(w) == 0:
            w[rng.randrange(c.N)] = 1
        out.append(w)
    return out


@register_check("lem:vhat_star_unique", "the Pi^-projected fixed point v = Pi^(r + P v) exists and is unique", witnesses=1)  # one b^
def _vhat_unique(ctx: Context) -> Outcome:
    c, n = ctx.claimed, ctx.chain.n
    bh = perturbed_basis(ctx, flint.fmpq(1, 100))
    A = set(c.anchor_states)
    W = [s for s in range(n) if s not in A]
    P = ctx.routes.P
    pihat = ctx.apply_pihat or c.projector(bh)
    rng = ctx.rng("range")
    for _ in range(3):  # the lemma's setting: range(Pi^) = W (anchor exactness)
        v = random_vector(rng, n)
        if any(x != 0 for s, x in enumerate(pihat(v)) if s in A):
            return "Pi^ v is not zero at the anchors: b^ is not exact at the anchors, so range(Pi^) != W"
        w = [0 if s in A else x for s, x in enumerate(v)]
        if pihat(w) != w:
            return "Pi^ does not fix W (vectors vanishing at the anchors)"
    # unknown v on W (v = 0 on anchors); equations (I - Pi^ P) v = Pi^ r on W rows
    if not W:
        return None
    if ctx.apply_pihat is None:  # Pi^ by its formula: (I - Pi^ P)[W, W] = I - P[W, W] + b^[W, :] P[anchors, W]
        M = _fixed_point_matrix(P, bh, list(c.anchor_states), W)
        if rank_lower_bound(M) == len(W) or rank(M) == len(W):  # a modular rank reaching len(W) is exact
            return None
        return "the Pi^-projected fixed-point system is singular"
    cols = []
    for j in W:
        e = [flint.fmpq(0)] * n
        e[j] = flint.fmpq(1)
        Pe = matvec(P, e)
        ImPiP = [a - b for a, b in zip(e, pihat(Pe))]
        cols.append([ImPiP[s] for s in W])
    if not W:
        return None
    M = flint.fmpq_mat([[cols[j][i] for j in range(len(W))] for i in range(len(W))])
    if rank(M) < len(W):
        return "the Pi^-projected fixed-point system is singular"
    return None


def _fixed_point_matrix(P: flint.fmpq_mat, bh: Sequence[Sequence[flint.fmpq]], anchors: list[int], W: list[int]) -> flint.fmpq_mat:
    """``(I - Π̂ P)`` on ``W`` (rows and columns), ``Π̂ v = v - Σ_j v(a_j) b̂_j``, as one product."""
    PW = flint.fmpq_mat([[P[s, j] for j in W] for s in W])
    PA = flint.fmpq_mat([[P[a, j] for j in W] for a in anchors])
    BW = flint.fmpq_mat([[bh[s][k] for k in range(len(anchors))] for s in W])
    one = identity(len(W))
    return one - PW + BW * PA


@register_check("lem:b_simplex", "b >= 0 and sum_{(i,k)} b_{i,k}(s) = 1 (also for b^)", sparse=True)
def _b_simplex(ctx: Context) -> Outcome:
    for s, row in enumerate(ctx.claimed.basis):
        if not all_nonnegative(row):
            neg = [j for j, x in enumerate(row) if x < 0]
            return f"b(s) has a negative entry at state {s}, column {neg[0]}"
        tot = sum(row, flint.fmpq(0))
        if tot != 1:
            return f"sum_(i,k) b_(i,k)(s) = {tot} at state {s}, expected 1"
    if ctx.bhat is None:  # the synthetic b^ = (1 - 1/7) b + (1/7) u, u on the simplex: on it whenever b is (just checked)
        return None
    for s, learned in enumerate(ctx.bhat):
        if any(x < 0 for x in learned) or sum(learned, flint.fmpq(0)) != 1:
            return f"the learned b^ leaves the simplex at state {s}"
    return None


def _l1(a: Sequence[flint.fmpq], b: Sequence[flint.fmpq] | None = None) -> flint.fmpq:
    if b is None:
        return sum(map(abs, a), flint.fmpq(0))
    if len(b) < len(a):
        raise IndexError(f"rows of lengths {len(a)} and {len(b)}")
    return sum((abs(x - y) for x, y in zip(a, b)), flint.fmpq(0))


def _on_simplex(bh: Sequence[Sequence[flint.fmpq]]) -> bool:
    """Every row nonnegative with entries summing to 1."""
    return all_nonnegative([x for row in bh for x in row]) and all(_l1(row) == 1 for row in bh)


def _true_basis_rows(ctx: Context) -> list[list[flint.fmpq]] | str:
    """``b`` from proofs_check's block routes, in the claimed anchors' column order (a message when an anchor is not recurrent)."""
    cols = ctx.blocks.anchor_columns(ctx.claimed.anchors, sparse=False)
    if isinstance(cols, str):
        return cols
    return [[col[s] for col in cols] for s in range(ctx.chain.n)]


def _bhats(ctx: Context, eps: flint.fmpq) -> list[tuple[str, list[list[flint.fmpq]]]]:
    """Learned bases the estimator lemmas are tried on: the context's (or an exact perturbation on the simplex),
    one off the simplex (signed noise, rows not summing to 1), one at the simplex's vertices, and the claimed b itself."""
    c = ctx.claimed
    learned = ("the learned b^", perturbed_basis(ctx, eps))
    if ctx.apply_pihat is not None:  # an implementation of Pi^ goes with its own b^ (the context's)
        return [learned]
    off, vertex = ctx.shared("bhat:adversarial", lambda: _adversarial_bases(ctx))  # the same two for both lemmas
    return [learned, ("b^ off the simplex", off), ("b^ at the simplex's vertices", vertex), ("b^ = the claimed b", [list(row) for row in c.basis])]



def _adversarial_bases(ctx: Context) -> tuple[list[list[flint.fmpq]], list[list[flint.fmpq]]]:
    """``b^`` off the simplex (signed noise on the transient rows) and at the simplex's vertices, drawn from the
    check's own random source (the same pair whenever asked)."""
    c, N = ctx.claimed, ctx.claimed.N
    rng = ctx.rng("bhat-adversarial")
    recurrent = {s for cls in c.classes for s in cls}
    off = [list(row) if s in recurrent else [x + flint.fmpq(k, 7) for x, k in zip(row, random_integers(rng, -3, 3, len(row)))]
           for s, row in enumerate(c.basis)]  # rng.randint(-3, 3) per entry
    vertex = [list(row) if s in recurrent else [flint.fmpq(int(j == rng.randrange(N))) for j in range(N)] for s, row in enumerate(c.basis)]
    return off, vertex


def _tight_vectors(ctx: Context, diff_rows: Sequence[Sequence[flint.fmpq]] | flint.fmpq_mat,
                   l1: Sequence[flint.fmpq] | None = None) -> list[list[flint.fmpq]]:
    """Vectors making ``|sum_j v(a_j) x_j(s)| = ||v|| ||x(s)||_1`` at the row where ``||x(s)||_1`` is largest
    (``v(a_j) = sign x_j(s)``, ``v = -1`` at ``s`` when ``s`` is not an anchor), plus random ones (``diff_rows``: the
    rows ``x(s)``, or their matrix; ``l1``: the rows' ``||x(s)||_1`` when the caller has them)."""
    c, n = ctx.claimed, ctx.chain.n
    out = [list(v) for v in pihat_sparse.random_witnesses(ctx)]  # three distinct draws, the same 3 each call
    if isinstance(diff_rows, flint.fmpq_mat):
        D = diff_rows
        if not D.nrows() or not c.N:
            return out
        norms = l1 if l1 is not None else row_l1(D)
        row_at: Callable[[int], Sequence[flint.fmpq]] = lambda s: [D[s, j] for j in range(c.N)]
    else:
        rows = diff_rows
        if not rows or not c.N:
            return out
        norms = l1 if l1 is not None else [_l1(rows[t]) for t in range(n)]
        row_at = lambda s: rows[s]
    anchors = set(c.anchor_states)
    rest = [t for t in range(n) if t not in anchors]  # the largest norm off the anchors, if any state is off them
    s = argmax(norms, rest or range(n))
    row = row_at(s)
    v = [flint.fmpq(0)] * n
    for j, a in enumerate(c.anchor_states):
        v[a] = flint.fmpq(-1 if greater(0, row[j]) else 1)
    if s not in c.anchor_states:
        v[s] = flint.fmpq(-1)
    return out + [v, [-x for x in v]]


@register_check("lem:pihat_dev", "||(Pi^ - Pi) v|| <= eps_b ||v|| when max_s ||b^(s) - b(s)||_1 <= eps_b", sparse=True,
       witnesses=20)  # 4 b^ (learned, off the simplex, vertices, b) x 5 vectors (3 random, 2 where the bound is tight)
def _pihat_dev(ctx: Context) -> Outcome:
    """Pi from proofs_check's own b (block routes) with the claimed anchors, eps_b measured against the claimed b, on
    learned bases on and off the simplex and on vectors where the bound is tight: fails for a wrong Pi^ and a wrong claimed b."""
    if pihat_sparse.applies(ctx):  # many basis columns: the same identities on sparse rows
        return pihat_sparse.dev(ctx)
    c = ctx.claimed
    true_rows = _true_basis_rows(ctx)
    if isinstance(true_rows, str):
        return true_rows
    n = ctx.chain.n
    Bc, Bt = _rows_matrix(c.basis, n, c.N), _rows_matrix(true_rows, n, c.N)
    for name, bh in _bhats(ctx, flint.fmpq(1, 5)):
        Bh = _rows_matrix(bh, n, c.N)
        if Bh is None or Bc is None or Bt is None or ctx.apply_pihat is not None:
            m = _pihat_dev_entrywise(ctx, name, bh, true_rows)
        else:  # (Pi^ - Pi) v = (v - b^ v(a)) - (v - b v(a)) = (b - b^) v(a): one product for the 5 vectors
            eps = exact_max(row_l1(Bh - Bc)) if n else flint.fmpq(0)
            D = Bh - Bt
            vs = _tight_vectors(ctx, D, row_l1(D))
            m = _exceeds(column_norms_inf(D * _columns(vs, c.anchor_states)), [eps * norm_inf(v) for v in vs],
                         lambda k, got, bound: f"{name}: ||(Pi^ - Pi)v|| = {got} exceeds eps_b ||v|| = {bound}")
        if m:
            return m
    return None


def _pihat_dev_entrywise(ctx: Context, name: str, bh: Sequence[Sequence[flint.fmpq]], true_rows: Sequence[Sequence[flint.fmpq]]) -> str | None:
    """``lem:pihat_dev`` on one learned basis vector by vector: a given ``Π^`` implementation, or a ragged ``b^``."""
    c = ctx.claimed
    eps = max((_l1(list(r1), list(r2)) for r1, r2 in zip(bh, c.basis)), default=flint.fmpq(0))
    diff = [[x - y for x, y in zip(r1, r2)] for r1, r2 in zip(bh, true_rows)]
    vs = _tight_vectors(ctx, diff)
    pihats = [ctx.apply_pihat(v) for v in vs] if ctx.apply_pihat else c.project_all(vs, bh)
    for v, ph, pt in zip(vs, pihats, c.project_all(vs, true_rows)):
        d = [a - b for a, b in zip(ph, pt)]
        if norm_inf(d) > eps * norm_inf(v):
            return f"{name}: ||(Pi^ - Pi)v|| = {norm_inf(d)} exceeds eps_b ||v|| = {eps * norm_inf(v)}"
    return None


def _rows_matrix(rows: Sequence[Sequence[flint.fmpq]], n: int, N: int) -> flint.fmpq_mat | None:
    """The ``n x N`` matrix of ``rows``, or ``None`` when there are not ``n`` rows of ``N`` entries."""
    if len(rows) != n or any(len(row) != N for row in rows):
        return None
    return flint.fmpq_mat(len(rows), N, [x for row in rows for x in row])


def _columns(vectors: Sequence[Sequence[flint.fmpq]], rows: Sequence[int]) -> flint.fmpq_mat:
    """The matrix with one column per vector, its entries at ``rows`` (all states, or the anchors)."""
    return flint.fmpq_mat(len(rows), len(vectors), [v[s] for s in rows for v in vectors])


def _exceeds(got: Sequence[flint.fmpq], bound: Sequence[flint.fmpq], say: Callable[[int, flint.fmpq, flint.fmpq], str]) -> str | None:
    """``say(k, got[k], bound[k])`` for the first ``k`` with ``got[k] > bound[k]``, else ``None``."""
    for k, (x, b) in enumerate(zip(got, bound)):
        if greater(x, b):
            return say(k, x, b)
    return None


@register_check("lem:pihat_infty_norm", "||Pi^ v|| <= 2||v|| (and the same for Pi) when every b^(s) lies on the simplex", sparse=True,
       witnesses=20)  # at most 4 bases on the simplex x 5 vectors (3 random, 2 where 2||v|| is attained)
def _pihat_norm(ctx: Context) -> Outcome:
    """The claimed Pi, and Pi^ on learned bases on the simplex (the lemma's hypothesis: a given b^ off it is
    "not applicable", an adversarial one is not tried), on vectors where ``2||v||`` is attained: fails for a Pi^
    or a claimed b that exceeds the bound by any amount."""
    if pihat_sparse.applies(ctx):
        return pihat_sparse.infty_norm(ctx)
    c = ctx.claimed
    cases: list[tuple[str, list[list[flint.fmpq]], PiHat | None]] = [("Pi (the claimed b)", [list(row) for row in c.basis], None)]
    for name, bh in _bhats(ctx, flint.fmpq(1, 3)):
        if _on_simplex(bh):
            cases.append((name, bh, ctx.apply_pihat if name == "the learned b^" else None))
        elif name == "the learned b^" and ctx.bhat is not None:
            return NotApplicable("not applicable: the given b^ leaves the simplex (the lemma's hypothesis; see lem:b_simplex)")
    for name, bh, impl in cases:
        if name == "b^ = the claimed b" and impl is None:
            continue  # the same basis and vectors as the first case, "Pi (the claimed b)", which held
        Bh = _rows_matrix(bh, ctx.chain.n, c.N)
        if impl is None and Bh is not None:  # Pi^ v = v - b^ v(a), one product for the 5 vectors
            vs = _tight_vectors(ctx, bh, row_l1(Bh))
            V = _columns(vs, range(ctx.chain.n))
            m = _exceeds(column_norms_inf(V - Bh * _columns(vs, c.anchor_states)), [2 * norm_inf(v) for v in vs],
                         lambda k, got, bound: f"{name}: ||Pi^ v|| = {got} exceeds 2||v|| = {bound}")
            if m:
                return m
            continue
        vs = _tight_vectors(ctx, bh)
        for v, w in zip(vs, [impl(v) for v in vs] if impl else c.project_all(vs, bh)):
            if norm_inf(w) > 2 * norm_inf(v):
                return f"{name}: ||Pi^ v|| = {norm_inf(w)} exceeds 2||v|| = {2 * norm_inf(v)}"
    return None


@register_check("lem:anchor_interpolation", "every g in K equals sum_(i,k) g(a_(i,k)) b_(i,k)")
def _anchor_interp(ctx: Context) -> Outcome:
    c, n = ctx.claimed, ctx.chain.n
    K = ctx.routes.K
    for j in range(K.ncols()):
        g = [K[s, j] for s in range(n)]
        if any(x != 0 for x in c.project(g)):
            return f"K basis vector {j} is not interpolated by its anchor values"
    return None


@register_check("def:theta_star", "theta*_(i,k) = g*(a_(i,k)) and g* = sum theta* b", sparse=True)
def _theta(ctx: Context) -> Outcome:
    c = ctx.claimed
    m = mismatch("theta", list(c.theta), [c.g_star[a] for a in c.anchor_states], "g* at the anchors")
    if m:
        return m
    g = [sum((t * b for t, b in zip(c.theta, row)), flint.fmpq(0)) for row in c.basis]
    return mismatch("g*", c.g_star, g, "sum theta b")


@register_check("P_inf", "claimed P_inf equals the spectral projector for eigenvalue 1")
def _P_inf(ctx: Context) -> Outcome:
    c, n = ctx.claimed, ctx.chain.n
    if c.problem("P_inf"):
        return f"malformed claim: {c.problem('P_inf')}"
    if c.P_inf is None:
        return NotClaimed("P_inf")
    Pinf = ctx.routes.P_inf
    bad = sorted({s for s in range(n) for y in range(n) if c.P_inf[s][y] != Pinf[s, y]})
    if bad:
        return f"P_inf differs from the spectral projector in rows {few(bad)}"
    return None


@register_check("lem:Pi_identity", "a projection with kernel K(P) keeps the quotient class: v - Pi v in K(P) for every v")
def _Pi_identity(ctx: Context) -> Outcome:
    m = projection_problem(ctx) or quotient_class_problem(ctx, dense_in_K(ctx))
    return m or random_projections_problem(ctx)


def random_projections_problem(ctx: Context, trials: int = 3) -> str | None:
    """``lem:Pi_identity`` for random projections ``Π_L = I - B (L B)^{-1} L`` with kernel span(claimed b) (not
    only the anchor ``Π``; an extra: ``v - Π_L v ∈ span b`` for every ``L``, so the basis test above decides it): ``Π_L² = Π_L``, ``Π_L b = 0``, and ``v - Π_L v ∈ K(P)`` (charpoly route) for random ``v``."""
    c, n = ctx.claimed, ctx.chain.n
    B = c.basis_matrix()
    rng = ctx.rng("Pi_identity-projections")
    for t in range(trials):
        Pi = random_projection(rng, B)
        if Pi is None:
            return "the claimed basis is rank deficient: no projection has kernel span(b) of dimension N"
        if Pi * Pi != Pi or Pi * B != flint.fmpq_mat(n, c.N):
            return f"random projection {t} with kernel span(b) is not a projection killing b"  # pragma: no cover
        vs = [random_vector(rng, n) for _ in range(2)]
        V = _columns(vs, range(n))
        X = V - Pi * V  # v - Pi v, one column per v: in K(P) exactly when the annihilator of span K kills it
        if not ctx.routes.in_K_all(X):
            return f"random projection {t} with kernel span(b): v - Pi v is not in K(P), so span(b) is not K(P)"
    return None
