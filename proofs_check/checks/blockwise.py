"""The main identities on block routes (:mod:`proofs_check.blocks`), for chains past ``--max-dense``.

Each function here is registered as the block version of a dense check (same key, same
statement): it judges the same claim against objects computed block by block (``ρ``, ``h``,
``b``, ``π`` from one strongly connected block at a time; ``K(P)`` as ``{x : P^D x = x}`` with
``dim K = Σ d_i``) and sparse exact identities.  ``tests/test_mutations.py`` runs every mutation
through these versions too (``max_dense=0``).
"""

from __future__ import annotations

import flint

from ..registry import NOT_APPLICABLE, Context, block_route, few, mismatch

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


def _project(ctx: Context, cols, v: list) -> list:
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


def _sub(a, b):
    return [x - y for x, y in zip(a, b)]


@block_route("thm:wellposed")
def _wellposed(ctx: Context):
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
def _recover_gain(ctx: Context):
    B = ctx.blocks
    m = mismatch("P_inf g*", B.P_inf_apply(list(ctx.claimed.g_star)), B.rho, "rho (block route)")
    if m:
        return m
    if ctx.claimed.rho is not None:
        return mismatch("rho", ctx.claimed.rho, B.rho, "the block route")
    return None


def _psi(ctx: Context, cols) -> list | str:
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
def _comparison(ctx: Context):
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
def _projected_bias(ctx: Context):
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
def _def_b(ctx: Context):
    c = ctx.claimed
    cols = _claimed_columns(ctx)
    if isinstance(cols, str):
        return cols
    for j, ik in enumerate(cols):
        m = mismatch(f"b column {j} {c.anchors[j][:2]}", c.b(j), ctx.blocks.basis_column(ik), "the phase-augmented block solves")
        if m:
            return m
    for j, (i, k, _) in enumerate(c.anchors):
        inside = set(c.cyclic_classes[i][k])
        for s in c.classes[i]:
            if c.basis[s][j] != (1 if s in inside else 0):
                return f"b_{{{i},{k}}} is {c.basis[s][j]} on state {s}; the claimed cyclic classes and basis disagree"
    return None


@block_route("lem:anchor_interpolation")
def _anchor_interpolation(ctx: Context):
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
def _aperiodic(ctx: Context):
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
def _invariant_constant(ctx: Context):
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
        Prow: dict = {}
        for j, q in B.rows[s].items():
            for ci, a in rows[j].items():
                Prow[ci] = Prow.get(ci, ZERO) + q * a
        if {k: v for k, v in Prow.items() if v != 0} != row:
            return f"an absorption vector is not invariant at state {s}"
    if sorted(map(sorted, ctx.claimed.classes)) != B.classes:
        return "the claimed classes differ from the closed classes"
    return None


@block_route("P_inf")
def _P_inf(ctx: Context):
    c, B = ctx.claimed, ctx.blocks
    if c.P_inf is None:
        from ..registry import NotClaimed

        return NotClaimed("P_inf")
    for s, row in enumerate(c.P_inf):
        for y, x in enumerate(row):
            i = B.class_of.get(y)
            want = ZERO if i is None else B.absorption_rows[s].get(i, ZERO) * B.stationary[i][B.classes[i].index(y)]
            if x != want:
                return f"P_inf[{s}][{y}] is {x}, the block route gives {want}"
    return None
