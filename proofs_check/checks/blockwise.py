"""The main identities on block routes (:mod:`proofs_check.routes.blocks`), for chains past ``--max-dense``.

Each function here is registered as the block version of a dense check (same key, same
statement): it judges the same claim against objects computed block by block (``ρ``, ``h``,
``b``, ``π`` from one strongly connected block at a time; ``K(P)`` as ``{x : P^D x = x}`` with
``dim K = Σ d_i``) and sparse exact identities.  ``tests/proofs_check/checks/test_mutations.py`` runs every mutation
through these versions too (``max_dense=0``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flint

from proofs_check.algebra.graph import SupportGraph
from proofs_check.algebra.linalg import Exact, random_vector, rank, rank_lower_bound
from proofs_check.judging.registry import NOT_APPLICABLE, Context, NotChecked, Outcome, block_route, few, mismatch, sampled
from proofs_check.checks.appendix import projection_problem, quotient_class_problem
from proofs_check.checks.decomposition import indicator_problem
from proofs_check.checks.evaluation import _orbit_sum

ZERO = flint.fmpq(0)


def _claimed_columns(ctx: Context) -> list[tuple[int, int]] | str:
    """The block route's ``(class, phase)`` of each claimed anchor (a message when one is not recurrent)."""
    B = ctx.blocks
    out = []
    for i, k, s in ctx.claimed.anchors:
        if s not in B.class_of:
            return f"claimed anchor {s} of ({i}, {k}) is not in a closed class"
        out.append((B.class_of[s], B.phase_of[s]))
    if sorted(out) != sorted((i, k) for i, d in enumerate(B.periods) for k in range(d)):
        return "the claimed anchors do not pick exactly one state of every cyclic class (block route's structure)"
    return out


def _project(ctx: Context, cols: list[tuple[int, int]], v: Sequence[flint.fmpq]) -> list[flint.fmpq]:
    """``Π v = v - Σ_c v(a_c) b_c`` with the block route's basis."""
    B, anchors = ctx.blocks, ctx.claimed.anchor_states
    out = list(v)
    for (ik, a) in zip(cols, anchors):
        x = v[a]
        if x != 0:
            i, k = ik
            for st in B.phases[i][k]:
                out[st] -= x
            for st, bs in B.basis_transient[ik].items():
                out[st] -= x * bs
    return out


def _sub(a: Sequence[flint.fmpq], b: Sequence[flint.fmpq]) -> list[flint.fmpq]:
    return [x - y for x, y in zip(a, b)]


@block_route("thm:wellposed")
def _wellposed(ctx: Context) -> Outcome:
    c, chain, B = ctx.claimed, ctx.chain, ctx.blocks
    Pv = chain.matvec(c.v_star)
    bad = [s for s, (r, g, v, pv) in enumerate(zip(chain.r, c.g_star, c.v_star, Pv)) if r - g - v + pv != 0]
    if bad:
        return f"r != g* + (I-P)v* at states {few(bad)}"
    if not B.in_K(c.g_star):
        return f"g* is not in K(P) (block route: P^D g* != g* with D = {B.D})"
    nonzero = [a for a in c.anchor_states if c.v_star[a] != 0]
    if nonzero:
        return f"v* is not in range(Pi): nonzero at anchors {few(nonzero)}"
    cols = _claimed_columns(ctx)
    if isinstance(cols, str):
        return cols
    # uniqueness: b_{i,k}(a_{j,l}) = δ for the block basis, so W ∩ K = {0} (dim K = Σ d_i = N)
    for ik, a in zip(cols, c.anchor_states):
        for ik2, a2 in zip(cols, c.anchor_states):
            if B.basis_value(ik, a2) != (1 if ik == ik2 else 0):
                return "the claimed anchors do not identify K(P): b(a) is not the identity"
    fixed = _project(ctx, cols, [r + pv for r, pv in zip(chain.r, Pv)])
    return mismatch("v*", c.v_star, fixed, "Pi(r + P v*) (block basis)")


@block_route("cor:recover_invariant_gain")
def _recover_gain(ctx: Context) -> Outcome:
    B = ctx.blocks
    m = mismatch("P_inf g*", B.P_inf_apply(list(ctx.claimed.g_star)), B.rho, "rho (block route)")
    if m:
        return m
    if ctx.claimed.rho is not None:
        return mismatch("rho", ctx.claimed.rho, B.rho, "the block route")
    return None


def _psi(ctx: Context, cols: list[tuple[int, int]]) -> list[flint.fmpq] | str:
    """``ψ ∈ K ∩ ker P∞`` with ``(I - P) ψ = g* - ρ``: per class, ``c_k - c_{k+1} = θ_k - γ_i`` and
    ``Σ_k c_k = 0``, solved exactly (a ``d x d`` system), then ``ψ = Σ c b``."""
    B, g = ctx.blocks, ctx.claimed.g_star
    psi = [ZERO] * ctx.chain.n
    for i, d in enumerate(B.periods):
        theta = [g[B.phases[i][k][0]] for k in range(d)]
        A = flint.fmpq_mat(d, d)
        rhs = flint.fmpq_mat(d, 1)
        for k in range(d - 1):
            A[k, k], A[k, k + 1] = 1, -1
            rhs[k, 0] = theta[k] - B.class_gain[i]
        for k in range(d):
            A[d - 1, k] = 1
        coef = A.solve(rhs).entries()
        for k in range(d):
            for s in B.phases[i][k]:
                psi[s] += coef[k]
            for s, bs in B.basis_transient[(i, k)].items():
                psi[s] += coef[k] * bs
    return psi


@block_route("thm:comparison_gain_bias")
def _comparison(ctx: Context) -> Outcome:
    c, chain, B = ctx.claimed, ctx.chain, ctx.blocks
    m = mismatch("P_inf g*", B.P_inf_apply(list(c.g_star)), B.rho, "rho (block route)")
    if m:
        return m
    cols = _claimed_columns(ctx)
    if isinstance(cols, str):
        return cols
    psi = _psi(ctx, cols)
    Ppsi = chain.matvec(psi)
    if [p - pp for p, pp in zip(psi, Ppsi)] != _sub(c.g_star, B.rho):
        return "no psi in K cap ker P_inf solves g* = rho + (I-P) psi (block route)"
    if c.psi is not None:
        m = mismatch("psi", c.psi, psi, "the block route's solve in K cap ker P_inf")
        if m:
            return m
    Pv = B.P_inf_apply(list(c.v_star))
    h_thm = [v + p - pv for v, p, pv in zip(c.v_star, psi, Pv)]
    m = mismatch("v* + psi - P_inf v*", h_thm, B.h, "h from the class deviation matrices (block route)")
    if m:
        return m
    if c.h is not None:
        return mismatch("h", c.h, B.h, "the block route")
    return None


@block_route("cor:projected_bias")
def _projected_bias(ctx: Context) -> Outcome:
    c, chain, B = ctx.claimed, ctx.chain, ctx.blocks
    cols = _claimed_columns(ctx)
    if isinstance(cols, str):
        return cols
    Ph = _project(ctx, cols, B.h)
    m = mismatch("Pi h", Ph, c.v_star, "claimed v*")
    if m:
        return "v* " + m.replace("Pi h differs from claimed v*", "differs from Pi h")
    rest = _sub(B.h, Ph)
    g = [r + x - px for r, x, px in zip(B.rho, rest, chain.matvec(rest))]
    return mismatch("g*", c.g_star, g, "rho + (I-P)(I-Pi)h (block route)")


@block_route("def:main_b")
def _def_b(ctx: Context) -> Outcome:
    c = ctx.claimed
    cols = _claimed_columns(ctx)
    if isinstance(cols, str):
        return cols
    for j, ik in enumerate(cols):
        if c.sparse_columns[j] == ctx.blocks.sparse_basis_column(ik):  # the nonzeros agree: the columns do
            continue
        m = mismatch(f"b column {j} {c.anchors[j][:2]}", c.b(j), ctx.blocks.basis_column(ik), "the phase-augmented block solves")
        if m:
            return m
    return indicator_problem(c)


@block_route("lem:anchor_interpolation")
def _anchor_interpolation(ctx: Context) -> Outcome:
    c = ctx.claimed
    cols = _claimed_columns(ctx)
    if isinstance(cols, str):
        return cols
    rest = _project(ctx, cols, list(c.g_star))
    bad = [s for s, x in enumerate(rest) if x != 0]
    if bad:
        return f"g* != sum g*(a) b (block basis) at states {few(bad)}"
    claimed_rest = list(c.g_star)
    for j, a in enumerate(c.anchor_states):
        claimed_rest = [x - c.g_star[a] * b for x, b in zip(claimed_rest, c.b(j))]
    bad = [s for s, x in enumerate(claimed_rest) if x != 0]
    return f"g* != sum g*(a) b (claimed basis) at states {few(bad)}" if bad else None


@block_route("prop:aperiodic_reduction")
def _aperiodic(ctx: Context) -> Outcome:
    c, B = ctx.claimed, ctx.blocks
    if any(d != 1 for d in c.periods):
        return NOT_APPLICABLE
    m = mismatch("g*", c.g_star, B.rho, "rho (block route)")
    if m:
        return m
    d = _sub(c.v_star, B.h)
    if ctx.chain.matvec(d) != d:
        return "v* - h is not in ker(I-P) (block route)"
    return None


@block_route("lem:invariant_constant_on_class")
def _invariant_constant(ctx: Context) -> Outcome:
    """``ker(I - P)`` is spanned by the absorption vectors ``α_i`` (one per class, ``dim = #classes``):
    each is invariant (checked on every state at once) and is ``1`` on its class, ``0`` on the others."""
    B = ctx.blocks
    rows = B.absorption_rows
    for s, row in enumerate(rows):
        i = B.class_of.get(s)
        if i is not None:
            if row != {i: 1}:
                return f"the absorption vectors are not the indicator of class {i} on its state {s}"
            continue
        Prow: dict[int, flint.fmpq] = {}
        for j, q in B.rows[s].items():
            for ci, a in rows[j].items():
                Prow[ci] = Prow.get(ci, ZERO) + q * a
        if {k: v for k, v in Prow.items() if v != 0} != row:
            return f"an absorption vector is not invariant at state {s}"
    if sorted(map(sorted, ctx.claimed.classes)) != B.classes:
        return "the claimed classes differ from the closed classes"
    return None


@block_route("P_inf")
def _P_inf(ctx: Context) -> Outcome:
    c, B = ctx.claimed, ctx.blocks
    if c.problem("P_inf"):
        return f"malformed claim: {c.problem('P_inf')}"
    if c.P_inf is None:
        from proofs_check.judging.registry import NotClaimed

        return NotClaimed("P_inf")
    for s, row in enumerate(c.P_inf):
        for y, x in enumerate(row):
            i = B.class_of.get(y)
            want = ZERO if i is None else B.absorption_rows[s].get(i, ZERO) * B.stationary[i][B.classes[i].index(y)]
            if x != want:
                return f"P_inf[{s}][{y}] is {x}, the block route gives {want}"
    return None


# -- the appendix and Section 4, block by block ------------------------------------------------------------
def _claimed_in_K(ctx: Context) -> str | None:
    """Each claimed basis column lies in ``K(P)`` (``P^D b = b``) and ``b(a) = δ`` for the claimed anchors:
    then the ``N = Σ d_i = dim K`` columns are independent and span ``K``."""
    return ctx.shared("blocks:claimed_in_K", lambda: _claimed_in_K_problem(ctx))


def _claimed_in_K_problem(ctx: Context) -> str | None:
    """:func:`_claimed_in_K`, decided once per chain (three checks ask it): each column's ``P^D b`` through the
    nonzeros of ``b`` only (:meth:`~proofs_check.routes.blocks.BlockRoutes.in_K_sparse`), so the ``N`` columns together
    cost about one pass of ``P`` over the basis' nonzeros, not ``N`` passes over the whole chain."""
    c, B = ctx.claimed, ctx.blocks
    if c.N != B.N:
        return f"{c.N} basis columns, but dim K(P) = sum of the periods = {B.N}"
    for j, col in enumerate(c.sparse_columns):
        if not B.in_K_sparse(col):
            return f"basis column {j} {c.anchors[j][:2]} is not in K(P) (P^D b != b)"
    for j, a in enumerate(c.anchor_states):
        row = c.basis[a]
        if any(x != (1 if jj == j else 0) for jj, x in enumerate(row)):
            return f"b(a) is not the identity at anchor {a}"
    return None


@block_route("lem:kernel_equals_peripheral")
def _kernel_peripheral(ctx: Context) -> Outcome:
    return _claimed_in_K(ctx)


@block_route("lem:main_b_identify")
def _b_identify(ctx: Context) -> Outcome:
    # Pi b_j = b_j - Σ_c b_j(a_c) b_c = 0 follows from b(a) = δ, checked in _claimed_in_K
    # (projecting all N columns would cost N^2 n: 10^10 operations on crowds-5-5)
    return _claimed_in_K(ctx)


@block_route("lem:W_norm_equiv")
def _W_cap_K(ctx: Context) -> Outcome:
    cols = _claimed_columns(ctx)
    if isinstance(cols, str):
        return cols
    B, anchors = ctx.blocks, ctx.claimed.anchor_states
    for ik in cols:
        for ik2, a2 in zip(cols, anchors):
            if B.basis_value(ik, a2) != (1 if ik == ik2 else 0):
                return "K[anchors, :] is singular: a nonzero element of K vanishes at every anchor (block basis)"
    return None


@block_route("lem:Pi_kernel")
def _Pi_kernel(ctx: Context) -> Outcome:
    m = projection_problem(ctx)
    if m:
        return m
    # ker Pi = span b and dim ker Pi = N: b(a) = δ (so the columns are independent and Pi b_j =
    # b_j - b_j = 0), and v = Pi v + Σ v(a) b for every v (so nothing else is in the kernel)
    return _claimed_in_K(ctx)


@block_route("lem:Pi_identity")
def _Pi_identity(ctx: Context) -> Outcome:
    return projection_problem(ctx) or quotient_class_problem(ctx, ctx.blocks.in_K_sparse)


@block_route("lem:recurrent_decomp")
def _recurrent(ctx: Context) -> Outcome:
    c, B = ctx.claimed, ctx.blocks
    if sorted(map(sorted, c.classes)) != B.classes:
        return "the claimed classes differ from the closed strongly connected components"
    for i, (cls, pi) in enumerate(zip(B.classes, B.stationary)):
        if any(p <= 0 for p in pi):
            return f"class {i} is not irreducible (a stationary probability is not positive)"
        members = set(cls)
        for s in cls:
            if any(j not in members for j in B.rows[s]):
                return f"claimed class {i} is not closed (state {s} leaves it)"
    return None


def _orbit(ctx: Context, x: Sequence[Exact], T: int) -> tuple[list[flint.fmpq], list[flint.fmpq]]:
    """``(Σ_{t<T} P^t x, P^T x)`` by sparse products, going on from the longest horizon already computed for this
    ``x`` (the checks ask for the same vectors at increasing horizons: one pass, not one per horizon)."""
    memo: dict[tuple[Any, ...], Any] = ctx.shared("blockwise:orbits", dict)
    key = tuple(x)
    fresh: tuple[int, list[Any], list[Any], dict[int, tuple[list[Any], list[Any]]]] = (0, [ZERO] * ctx.chain.n, list(x), {})
    t, acc, y, done = memo.get(key) or fresh
    if T not in done:
        if t > T:  # an earlier horizon than the memo's: start again (not reached: horizons come in order)
            t, acc, y = 0, [ZERO] * ctx.chain.n, list(x)
        while t < T:
            acc, y, t = [a + b for a, b in zip(acc, y)], ctx.blocks.matvec(y), t + 1
        done[T] = (acc, y)
        memo[key] = (t, acc, y, done)
    return done[T]


def _returns(ctx: Context, x: Sequence[Exact], T: int) -> list[flint.fmpq]:
    """``Σ_{t<T} P^t x`` by sparse products."""
    return _orbit(ctx, x, T)[0]


def _power(ctx: Context, x: Sequence[Exact], T: int) -> list[flint.fmpq]:
    """``P^T x`` by sparse products."""
    return _orbit(ctx, x, T)[1]


def _horizons(ctx: Context) -> list[int]:
    D = ctx.blocks.D
    return sorted({1, 2, D, 3 * D + 1, 20})


@block_route("lem:app_telescoping")
def _telescoping(ctx: Context) -> Outcome:
    c, chain = ctx.claimed, ctx.chain
    ctx.routes.require_horizon(max(_horizons(ctx)))
    for T in _horizons(ctx):
        J = _returns(ctx, list(chain.r), T)
        for v in (list(c.v_star), random_vector(ctx.rng(f"tele{T}"), chain.n)):
            gv = [r - x + y for r, x, y in zip(chain.r, v, chain.matvec(v))]
            rhs = [o + a - b for o, a, b in zip(_returns(ctx, gv, T), v, _power(ctx, v, T))]
            if rhs != J:
                return f"return identity fails at T = {T}"
        # the claimed split: persistent orbit from theta and b (P b_(i,k) = b_(i,k-1)) plus boundary
        split = [o + v - pv for o, v, pv in zip(_orbit_sum(c, T), c.v_star, _power(ctx, list(c.v_star), T))]
        m = mismatch(f"sum_t P^t g* + v* - P^T v* (T = {T})", split, J, "J_T by sparse products")
        if m:
            return m
    return sampled(2 * len(_horizons(ctx)))


@block_route("cor:return_error")
def _return_error(ctx: Context) -> Outcome:
    c, chain = ctx.claimed, ctx.chain
    ctx.routes.require_horizon(max(_horizons(ctx)))
    n = chain.n
    for trial in range(3):
        rng = ctx.rng(f"ret{trial}")
        dg = [flint.fmpq(rng.randint(-3, 3), 3) for _ in range(n)] if trial else [ZERO] * n
        dv = [flint.fmpq(rng.randint(-3, 3), 3) for _ in range(n)] if trial else [ZERO] * n
        gh = [a + b for a, b in zip(c.g_star, dg)]
        vh = [a + b for a, b in zip(c.v_star, dv)]
        for T in _horizons(ctx):
            Jh = [o + a - b for o, a, b in zip(_returns(ctx, gh, T), vh, _power(ctx, vh, T))]
            J = _returns(ctx, list(chain.r), T)
            err = max(abs(a - b) for a, b in zip(Jh, J))
            bound = T * max(map(abs, dg)) + 2 * max(map(abs, dv))
            if err > bound:
                return f"return error {err} exceeds T||dg|| + 2||dv|| = {bound} at T = {T}"
    return sampled(3 * len(_horizons(ctx)))


@block_route("prop:app_vstar_transient_cost")
def _transient_cost(ctx: Context) -> Outcome:
    c, chain = ctx.claimed, ctx.chain
    g = c.g_star
    if not ctx.blocks.in_K(list(g)):
        return "g* is not in K(P) (P^D g* != g*): the proposition is about the decomposition's g*, not any consistent pair"
    expected = ctx.blocks.hitting_cost(set(c.anchor_states), lambda s: chain.r[s] - g[s])
    if expected is None:
        return "the anchors are not reached almost surely from every state (a hitting block is singular)"
    return mismatch("v*", c.v_star, expected, "the hitting-cost solves with anchors absorbing (block by block)")


@block_route("prop:deterministic_cycle")
def _det_cycle(ctx: Context) -> Outcome:
    from proofs_check.checks.evaluation import _cycle_order

    order = _cycle_order(ctx.chain)
    if order is None:
        return NOT_APPLICABLE
    c, n, B = ctx.claimed, ctx.chain.n, ctx.blocks
    if B.N != n or c.N != n:
        return f"dim K = {B.N} on a {n}-cycle, expected {n}"
    m = _claimed_in_K(ctx)  # every state an anchor and b(a) = δ: Pi = 0
    if m:
        return f"Pi is not the zero map on the cycle: {m}"
    m = mismatch("v*", c.v_star, [ZERO] * n, "zero") or mismatch("g*", c.g_star, list(ctx.chain.r), "r")
    if m:
        return m
    rbar = sum(ctx.chain.r, ZERO) / n
    h = B.h
    for k in range(n):
        s, t = order[k], order[(k + 1) % n]
        if h[s] - h[t] != ctx.chain.r[s] - rbar:
            return f"h(k) - h(k+1) != r(k) - rbar at k = {k}"
    if n % 2 == 0 and all(ctx.chain.r[order[k]] == (1 if 2 * k < n else 0) for k in range(n)):
        if max(map(abs, h)) != flint.fmpq(n, 8):
            return f"||h|| = {max(map(abs, h))}, expected d/8 = {flint.fmpq(n, 8)}"
    if c.h is not None:
        return mismatch("h", c.h, h, "the class deviation matrix (block route)")
    return None


@block_route("lem:vhat_star_unique")
def _vhat_unique(ctx: Context) -> Outcome:
    """The dense check's two parts, decided for every ``v`` and without ``n x n`` matrices: ``range(Π̂) = W``
    exactly when ``b̂(a_k) = e_k`` at every anchor (``(Π̂v)(a_k) = v(a_k) - Σ_j v(a_j) b̂_j(a_k)``; ``Π̂`` fixes every
    ``v`` vanishing at the anchors by its formula), and ``(I - Π̂P)[W, W] = I - P[W, W] + b̂[W, :] P[A, W]`` is
    nonsingular exactly when every diagonal block of its strongly connected components is (the components'
    order makes it block triangular); each block by a modular rank (full rank mod ``p`` proves it) or an exact one."""
    if ctx.apply_pihat is not None:
        return NotChecked("a Pi^ given only as a function is judged on the dense route (n x n), not past it")
    c = ctx.claimed
    bh = _learned_row(ctx)
    anchors = c.anchor_states
    for k, a in enumerate(anchors):
        if any(x != (1 if j == k else 0) for j, x in enumerate(bh(a))):
            return "Pi^ v is not zero at the anchors: b^ is not exact at the anchors, so range(Pi^) != W"
    anchor_set = set(anchors)
    W = [s for s in range(ctx.chain.n) if s not in anchor_set]
    local = {s: i for i, s in enumerate(W)}
    rows = [{local[j]: -q for j, q in ctx.blocks.rows[s].items() if j in local} for s in W]
    for i, row in enumerate(rows):
        row[i] = row.get(i, ZERO) + 1
    for j, a in enumerate(anchors):
        enter = {local[k]: q for k, q in ctx.blocks.rows[a].items() if k in local}
        if enter:
            for i, s in enumerate(W):
                x = bh(s)[j]
                if x:
                    for k, q in enter.items():
                        rows[i][k] = rows[i].get(k, ZERO) + x * q
    graph = SupportGraph([[k for k, x in row.items() if x] for row in rows])
    for comp in graph.components:
        block = flint.fmpq_mat([[rows[i].get(k, ZERO) for k in comp] for i in comp])
        if rank_lower_bound(block) < len(comp) and rank(block) < len(comp):
            return "the Pi^-projected fixed-point system is singular"
    return None


def _learned_row(ctx: Context) -> Callable[[int], Sequence[flint.fmpq]]:
    """``s -> b̂(s)``: the ``b̂`` given in the context, else the claimed row on recurrent states and
    ``(1 - ε) b(s) + ε u(s)`` (``ε = 1/100``, ``u(s)`` random on the simplex, seeded per state) on transient ones,
    as :func:`~.appendix.perturbed_basis` builds it, but row by row on demand: the block route reads ``b̂`` only at
    the anchors and on the rows an anchor's successors make it need (none when every anchor is absorbing)."""
    c, eps = ctx.claimed, flint.fmpq(1, 100)
    if ctx.bhat is not None:
        given = ctx.bhat
        return lambda s: given[s]
    recurrent = {s for cls in c.classes for s in cls}

    def row(s: int) -> Sequence[flint.fmpq]:
        if s in recurrent:
            return c.basis[s]
        rng = ctx.rng(f"bhat:{s}")
        w = [rng.randint(0, 5) for _ in range(c.N)]
        if sum(w) == 0:
            w[rng.randrange(c.N)] = 1
        tot = sum(w)
        return [(1 - eps) * b + eps * flint.fmpq(x, tot) for b, x in zip(c.basis[s], w)]

    return row
