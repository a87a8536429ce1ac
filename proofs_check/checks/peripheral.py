"""``thm:minimal_quotient`` and ``thm:quotient_contraction`` on chains past the dense routes, decided exactly by
structure and small exact algebra (:mod:`proofs_check.routes.quotient`), never by a float.

The claimed ``span(b)`` is tested, then every ``K'`` of the dense route's family, each through ``P`` restricted to
``K'`` (a ``dim K' x dim K'`` matrix) and the periods of the support graph: ``span(b)`` minus one class, minus one
Fourier pair, ``ker(I - P)``, and a ``K'`` strictly larger than ``K``: ``span(b) ⊕ E_U`` with ``E_U`` the vectors
supported on a transient strongly connected block ``U`` that no other state enters (``P`` maps ``E_U`` into
itself, acting as ``P[U, U]``).
"""

from __future__ import annotations

import flint

from proofs_check.routes.quotient import coordinate_subspaces, cyclotomic_degree, peripheral_factors, restricted_operator, sub_operator
from proofs_check.judging.registry import Context, Held, NotChecked, Outcome, block_route

SOURCE_BLOCK_LIMIT = 200
"""Largest transient source block whose ``P[U, U]`` characteristic polynomial the strictly-larger test computes."""


GENERAL_LIMIT = 200
"""Largest ``N`` for which ``P`` on ``span(b)`` is handled as one ``N x N`` matrix when it is not block diagonal by class."""

Blocks = list[tuple[list[int], flint.fmpq_mat]]  # (basis columns, P on their span in those coordinates)


def _images(ctx: Context) -> list[list[flint.fmpq]]:
    """The rows of ``P B`` (``B`` the claimed basis), each ``Σ_j P(s, j) B[j, :]`` as one ``1 x N`` product in C."""
    c, N = ctx.claimed, ctx.claimed.N
    rows = [flint.fmpq_mat(1, N, list(r)) for r in c.basis]
    out = []
    for row in ctx.blocks.rows:
        acc = flint.fmpq_mat(1, N)
        for j, q in row.items():
            acc += rows[j] * q
        out.append(acc.entries())
    return out


def _claimed_blocks(ctx: Context) -> Blocks | str | NotChecked:
    """:func:`_build_blocks`, once per context (both quotient theorems use it)."""
    return ctx.shared("peripheral:blocks", lambda: _build_blocks(ctx))


def _build_blocks(ctx: Context) -> Blocks | str | NotChecked:
    """``P`` on ``span(b)`` in the claimed basis's coordinates, as diagonal blocks: one per claimed class when the
    basis takes the value δ at the anchors (then the coordinates of ``P b_j`` are its anchor values) and ``P b_j`` is
    one multiple of one column of its own class (a correct claim: ``P b_{i,k} = b_{i,k-1}``, so 1260 absorbing
    classes cost 1260 ``1 x 1`` blocks); else one ``N x N`` block (up to :data:`GENERAL_LIMIT`); or what is wrong with
    ``span(b)``.  Invariance ``P B = B A`` is checked on every entry exactly."""
    c, n, N = ctx.claimed, ctx.chain.n, ctx.claimed.N
    anchors = c.anchor_states
    if N and all(c.basis[a][k] == (1 if k == j else 0) for j, a in enumerate(anchors) for k in range(N)):
        cls = [i for i, _, _ in c.anchors]
        images = _images(ctx)
        coords = [[images[anchors[k]][j] for k in range(N)] for j in range(N)]  # column j of A
        single = [[(k, x) for k, x in enumerate(col) if x != 0] for col in coords]
        if all(len(t) == 1 and cls[t[0][0]] == cls[j] for j, t in enumerate(single)):
            perm = [t[0] for t in single]
            expected = flint.fmpq_mat(n, N, [row[k] * x for row in c.basis for k, x in perm])
            if flint.fmpq_mat(n, N, [x for row in images for x in row]) != expected:
                return "the claimed basis: its span is not P-invariant"
            blocks: dict[int, list[int]] = {}
            for j, i in enumerate(cls):
                blocks.setdefault(i, []).append(j)
            return [(m, flint.fmpq_mat([[coords[b][a] for b in m] for a in m])) for m in blocks.values()]
    if N > GENERAL_LIMIT:
        return NotChecked(f"P on span(b) is not a shift of columns within classes in the claimed basis (or b(a) != delta) "
                          f"and N = {N} exceeds {GENERAL_LIMIT} for the N x N route")
    A = restricted_operator(ctx.blocks.matvec, c.basis_matrix())
    return f"the claimed basis: {A}" if isinstance(A, str) else [(list(range(N)), A)]


def _cyclotomic_degree(blocks: Blocks) -> int:
    """The degree of the cyclotomic part of ``charpoly(P|span)`` from its diagonal blocks."""
    return sum(cyclotomic_degree(A.charpoly()) if A.nrows() else 0 for _, A in blocks)


def _source_block(ctx: Context) -> list[int] | None:
    """The smallest transient strongly connected block no state outside it enters (``None``: no transient state)."""
    g = ctx.blocks.graph
    comps = g.components
    closed = {tuple(sorted(c)) for c in g.closed_classes()}
    comp_of = {s: k for k, c in enumerate(comps) for s in c}
    entered = {comp_of[j] for s in range(g.n) for j in g.succ[s] if comp_of[j] != comp_of[s]}
    sources = [sorted(c) for k, c in enumerate(comps) if k not in entered and tuple(sorted(c)) not in closed]
    return min(sources, key=len) if sources else None


def _strictly_larger(ctx: Context, cyclotomic: int) -> tuple[str, bool]:
    """(the ``K' ⊋ K`` tried, whether its quotient keeps a unimodular eigenvalue: it must not)."""
    U = _source_block(ctx)
    if U is None or len(U) > SOURCE_BLOCK_LIMIT:
        # no small transient source block: K' = R^n, whose quotient is {0} (nothing is kept)
        return "R^n (no transient source block of at most 200 states)", False
    rows = [dict(ctx.chain.row(s)) for s in U]
    PU = flint.fmpq_mat([[row.get(t, 0) for t in U] for row in rows])
    extra = cyclotomic_degree(PU.charpoly())
    return f"span(b) + E_U (U = transient source block {U[:6]}{'...' if len(U) > 6 else ''})", cyclotomic + extra < sum(ctx.blocks.periods)


def _family(ctx: Context, blocks: Blocks) -> list[tuple[str, int | None]]:
    """Each ``K' ⊊ K`` of the theorem's family with the cyclotomic degree of ``charpoly(P|K')`` (``None``: ``K'`` is
    not invariant): ``span(b)`` without each class, without each Fourier component, and ``ker(I - P)``."""
    c, periods = ctx.claimed, ctx.blocks.periods
    cls = [i for i, _, _ in c.anchors]
    whole = [(cols, cyclotomic_degree(A.charpoly()) if A.nrows() else 0) for cols, A in blocks]
    out: list[tuple[str, int | None]] = []
    if len(blocks) == len(set(cls)) and all(len({cls[j] for j in cols}) == 1 for cols, _ in blocks):  # one block a class
        for i in sorted(set(cls)):
            out.append((f"span(b) without class {i}", sum(d for cols, d in whole if cls[cols[0]] != i)))
    else:
        (cols, A), = blocks
        for i in sorted(set(cls)):
            keep = [j for j in range(c.N) if cls[j] != i]
            Z = flint.fmpq_mat([[int(j == k) for k in keep] for j in range(c.N)]) if keep else flint.fmpq_mat(c.N, 0)
            sub = sub_operator(A, Z)
            out.append((f"span(b) without class {i}", None if sub is None else _cyclotomic_degree([(keep, sub)])))
    named: dict[str, int | None] = {}
    factors = peripheral_factors(periods)
    for _, A in blocks:
        for name, Z in coordinate_subspaces(A, periods, factors):
            sub = sub_operator(A, Z)
            prev = named.get(name, 0)
            named[name] = None if sub is None or prev is None else prev + _cyclotomic_degree([([], sub)])
    return out + list(named.items())


@block_route("thm:minimal_quotient")
def _minimal_quotient(ctx: Context) -> Outcome:
    blocks = _claimed_blocks(ctx)
    if isinstance(blocks, (str, NotChecked)):
        return blocks
    periods, c = ctx.blocks.periods, ctx.claimed
    N = sum(periods)
    cyclotomic = _cyclotomic_degree(blocks)
    if cyclotomic < N:
        return "the quotient by span(b) keeps a unimodular eigenvalue (charpoly of P on span(b) lacks part of prod (x^d_i - 1))"
    if c.N != N:
        return f"span(b) has dimension {c.N} but K(P) has sum of periods = {N}: span(b) is not the minimal K'"
    family = _family(ctx, blocks)
    for name, degree in family:
        if degree is None:
            return f"K' = {name} is not P-invariant"
        if degree >= N:
            return f"the quotient by K' = {name} keeps no unimodular eigenvalue"
    name, keeps = _strictly_larger(ctx, cyclotomic)
    if keeps:
        return f"the quotient by K' = {name} (strictly larger than K) keeps a unimodular eigenvalue"
    return Held(f"decided by structure: {len(family) + 2} subspaces K', each through P restricted to it ({len(blocks)} diagonal blocks)")


@block_route("thm:quotient_contraction")
def _quotient_contraction(ctx: Context) -> Outcome:
    blocks = _claimed_blocks(ctx)
    if isinstance(blocks, (str, NotChecked)):
        return blocks
    if _cyclotomic_degree(blocks) < sum(ctx.blocks.periods):
        return "the quotient operator has an eigenvalue of modulus 1 (charpoly of P on span(b) lacks part of prod (x^d_i - 1)): no norm contracts it"
    return Held("decided exactly: rho(quotient) < 1, as the quotient keeps no root of unity (no float certificate on "
                f"{ctx.chain.n - ctx.claimed.N} quotient dimensions)")


MODULAR_LIMIT = 2000
"""Largest strongly connected block whose ``(P_SS^D - I)²`` the semisimplicity check reduces mod ``p`` densely."""


def _block_rank_mod(ctx: Context, S: list[int], D: int, p: int) -> int | None:
    """``rank((P_SS^D - I)²)`` mod ``p`` for the diagonal block ``S`` (rows scaled to integers over their own
    denominators), or ``None`` when ``p`` divides one of them."""
    rows, dens = ctx.blocks._integer_rows
    where = {s: a for a, s in enumerate(S)}
    m = len(S)
    M = flint.nmod_mat(m, m, p)
    for a, s in enumerate(S):
        (succ, nums), d = rows[s], dens[s]
        if d % p == 0:
            return None
        inv = pow(d, -1, p)
        for j, v in zip(succ, nums):
            if j in where:
                M[a, where[j]] = v * inv % p
    one = flint.nmod_mat(m, m, [int(i == j) for i in range(m) for j in range(m)], p)
    out, base, e = one, M, D
    while e:
        if e & 1:
            out = out * base
        base, e = base * base, e >> 1
    out = out - one
    return (out * out).rank()


@block_route("rem:peripheral_semisimple")
def _semisimple(ctx: Context) -> Outcome:
    """``rank(P^D - I) = rank((P^D - I)²) = n - dim K`` with ``D`` = lcm of the claimed periods, by ranks, with no
    ``n x n`` algebra.  Upper bound: the ``Σ d_i`` basis vectors of the block routes (``b(a) = δ``: independent)
    fixed by ``P^D`` give ``rank(P^D - I) <= n - Σ d_i``.  Lower bound: in an order of the strongly connected blocks
    ``S`` along the support graph, ``P`` is block triangular, so ``(P^D - I)²`` is too, with diagonal blocks
    ``(P_SS^D - I)²``, and its rank is at least the sum of theirs, each at least its rank mod a prime.  When the
    bounds meet, ``rank((P^D - I)²) = rank(P^D - I) = n - Σ d_i``: exact.  ``ker(P^D - I) ⊆ K``, so a vector of
    ``K`` not fixed by ``P^D`` is an exact failure."""
    from math import lcm

    from proofs_check.algebra.linalg import MODULAR_PRIMES

    n, B = ctx.chain.n, ctx.blocks
    D = lcm(*ctx.claimed.periods) if ctx.claimed.periods else 1
    N = sum(B.periods)
    for i, d in enumerate(B.periods):
        for k in range(d):
            x = B.sparse_basis_column((i, k))  # P^D x through x's nonzeros only: N columns, not N passes over P
            y = x
            for _ in range(D):
                y = B.matvec_sparse(y)
            if y != x:
                return f"b_({i},{k}) in K(P) is not fixed by P^D (D = lcm of the claimed periods = {D}): dim ker(P^D - I) < dim K(P) = {N}"
    blocks = B.graph.components
    if max(map(len, blocks), default=0) > MODULAR_LIMIT:
        return NotChecked(f"a strongly connected block has more than {MODULAR_LIMIT} states: its modular rank is not computed")
    total = 0
    for S in blocks:
        ranks = [r for p in MODULAR_PRIMES[:2] if (r := _block_rank_mod(ctx, S, D, p)) is not None]
        total += max(ranks, default=0)
    if total > n - N:  # pragma: no cover - would contradict rank((P^D - I)^2) <= rank(P^D - I) <= n - N
        return f"rank((P^D - I)^2) >= {total} > n - dim K = {n - N}"
    if total < n - N:
        return NotChecked(f"the blocks' modular ranks of (P^D - I)^2 sum to {total} < n - dim K = {n - N}: undecided")
    return Held(f"rank(P^D - I) = rank((P^D - I)^2) = n - {N} (an exact kernel basis; block ranks mod p, D = {D})")
