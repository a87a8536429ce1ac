"""``thm:minimal_quotient`` and ``thm:quotient_contraction`` on chains past the dense routes, decided exactly by
structure and small exact algebra (:mod:`proofs_check.quotient`), never by a float.

The claimed ``span(b)`` is tested, then every ``K'`` of the dense route's family, each through ``P`` restricted to
``K'`` (a ``dim K' x dim K'`` matrix) and the periods of the support graph: ``span(b)`` minus one class, minus one
Fourier pair, ``ker(I - P)``, and a ``K'`` strictly larger than ``K``: ``span(b) ⊕ E_U`` with ``E_U`` the vectors
supported on a transient strongly connected block ``U`` that no other state enters (``P`` maps ``E_U`` into
itself, acting as ``P[U, U]``).
"""

from __future__ import annotations

import flint

from ..quotient import coordinate_subspaces, keeps_unimodular, restricted_operator, sub_operator
from ..registry import Context, Held, NotChecked, Outcome, block_route

SOURCE_BLOCK_LIMIT = 200
"""Largest transient source block whose ``P[U, U]`` characteristic polynomial the strictly-larger test computes."""


def _claimed_operator(ctx: Context) -> flint.fmpq_mat | str:
    """``P`` on ``span(b)`` in the claimed basis's coordinates, or what is wrong with ``span(b)``."""
    A = restricted_operator(ctx.blocks.matvec, ctx.claimed.basis_matrix())
    return f"the claimed basis: {A}" if isinstance(A, str) else A


def _source_block(ctx: Context) -> list[int] | None:
    """The smallest transient strongly connected block no state outside it enters (``None``: no transient state)."""
    g = ctx.blocks.graph
    comps = g.components
    closed = {tuple(sorted(c)) for c in g.closed_classes()}
    comp_of = {s: k for k, c in enumerate(comps) for s in c}
    entered = {comp_of[j] for s in range(g.n) for j in g.succ[s] if comp_of[j] != comp_of[s]}
    sources = [sorted(c) for k, c in enumerate(comps) if k not in entered and tuple(sorted(c)) not in closed]
    return min(sources, key=len) if sources else None


def _strictly_larger(ctx: Context, A: flint.fmpq_mat) -> tuple[str, bool]:
    """(the ``K' ⊋ K`` tried, whether its quotient keeps a unimodular eigenvalue: it must not)."""
    U = _source_block(ctx)
    periods = ctx.blocks.periods
    if U is None or len(U) > SOURCE_BLOCK_LIMIT:
        # no small transient source block: K' = R^n, whose quotient is {0} (nothing is kept)
        return "R^n (no transient source block of at most 200 states)", False
    rows = [dict(ctx.chain.row(s)) for s in U]
    PU = flint.fmpq_mat([[row.get(t, 0) for t in U] for row in rows])
    return f"span(b) + E_U (U = transient source block {U[:6]}{'...' if len(U) > 6 else ''})", keeps_unimodular(A, periods, PU.charpoly())


@block_route("thm:minimal_quotient")
def _minimal_quotient(ctx: Context) -> Outcome:
    A = _claimed_operator(ctx)
    if isinstance(A, str):
        return A
    periods, c = ctx.blocks.periods, ctx.claimed
    if keeps_unimodular(A, periods):
        return "the quotient by span(b) keeps a unimodular eigenvalue (charpoly of P on span(b) lacks part of prod (x^d_i - 1))"
    if c.N != sum(periods):
        return f"span(b) has dimension {c.N} but K(P) has sum of periods = {sum(periods)}: span(b) is not the minimal K'"
    family: list[tuple[str, flint.fmpq_mat | None, bool]] = []
    for i in range(len(c.classes)):
        keep = [j for j, (ci, _, _) in enumerate(c.anchors) if ci != i]
        Z = flint.fmpq_mat([[int(j == k) for k in keep] for j in range(c.N)]) if keep else flint.fmpq_mat(c.N, 0)
        family.append((f"span(b) without class {i}", sub_operator(A, Z), True))
    for name, Z in coordinate_subspaces(A, periods):
        family.append((name, sub_operator(A, Z), True))
    for name, sub, must_keep in family:
        if sub is None:
            return f"K' = {name} is not P-invariant"
        if keeps_unimodular(sub, periods) != must_keep:
            return f"the quotient by K' = {name} keeps no unimodular eigenvalue"
    name, keeps = _strictly_larger(ctx, A)
    if keeps:
        return f"the quotient by K' = {name} (strictly larger than K) keeps a unimodular eigenvalue"
    return Held(f"decided by structure: {len(family) + 2} subspaces K', each through P restricted to it")


@block_route("thm:quotient_contraction")
def _quotient_contraction(ctx: Context) -> Outcome:
    A = _claimed_operator(ctx)
    if isinstance(A, str):
        return A
    if keeps_unimodular(A, ctx.blocks.periods):
        return "the quotient operator has an eigenvalue of modulus 1 (charpoly of P on span(b) lacks part of prod (x^d_i - 1)): no norm contracts it"
    return Held("decided exactly: rho(quotient) < 1, as the quotient keeps no root of unity (no float certificate on "
                f"{ctx.chain.n - ctx.claimed.N} quotient dimensions)")


MODULAR_LIMIT = 2000
"""Largest chain whose ``P^D - I`` the semisimplicity check reduces mod ``p`` as a dense matrix."""


def _power_mod(ctx: Context, D: int, p: int) -> flint.nmod_mat | None:
    """``P^D - I`` mod ``p`` (rows scaled to integers over their own denominators), or ``None`` when ``p`` divides one."""
    rows, dens = ctx.blocks._integer_rows
    n = ctx.chain.n
    if any(d % p == 0 for d in dens):
        return None
    M = flint.nmod_mat(n, n, p)
    for s, ((succ, nums), d) in enumerate(zip(rows, dens)):
        inv = pow(d, -1, p)
        for j, v in zip(succ, nums):
            M[s, j] = v * inv % p
    out, base, e = flint.nmod_mat(n, n, [int(i == j) for i in range(n) for j in range(n)], p), M, D
    while e:
        if e & 1:
            out = out * base
        base, e = base * base, e >> 1
    return out - flint.nmod_mat(n, n, [int(i == j) for i in range(n) for j in range(n)], p)


@block_route("rem:peripheral_semisimple")
def _semisimple(ctx: Context) -> Outcome:
    """``rank(P^D - I) = rank((P^D - I)²) = n - dim K`` with ``D`` = lcm of the claimed periods, by ranks: the
    ``Σ d_i`` basis vectors of the block routes (``b(a) = δ``: independent) fixed by ``P^D`` give
    ``rank(P^D - I) <= n - Σ d_i``; a rank of ``(P^D - I)²`` mod a prime gives ``rank((P^D - I)²) >= r_p``.  When
    ``r_p = n - Σ d_i`` the chain of inequalities closes: exact.  ``ker(P^D - I) ⊆ K``, so a vector of ``K`` not
    fixed by ``P^D``, or ``n - r_p < Σ d_i``, is an exact failure."""
    from math import lcm

    from ..linalg import MODULAR_PRIMES

    n, B = ctx.chain.n, ctx.blocks
    if n > MODULAR_LIMIT:
        return NotChecked(f"the modular rank of (P^D - I)^2 needs a dense {n} x {n} matrix mod p; the limit is {MODULAR_LIMIT} states")
    D = lcm(*ctx.claimed.periods) if ctx.claimed.periods else 1
    N = sum(B.periods)
    for i, d in enumerate(B.periods):
        for k in range(d):
            x = B.basis_column((i, k))
            y = list(x)
            for _ in range(D):
                y = B.matvec(y)
            if y != list(x):
                return f"b_({i},{k}) in K(P) is not fixed by P^D (D = lcm of the claimed periods = {D}): dim ker(P^D - I) < dim K(P) = {N}"
    best = 0
    for p in MODULAR_PRIMES:
        M = _power_mod(ctx, D, p)
        if M is not None:
            best = max(best, (M * M).rank())
        if best >= n - N:
            break
    if best > n - N:  # pragma: no cover - would contradict rank((P^D - I)^2) <= rank(P^D - I) <= n - N
        return f"rank((P^D - I)^2) >= {best} > n - dim K = {n - N}"
    if best < n - N:
        return NotChecked(f"modular ranks of (P^D - I)^2 reach {best} < n - dim K = {n - N} for every prime tried: undecided")
    return Held(f"rank(P^D - I) = rank((P^D - I)^2) = n - {N} (an exact kernel basis and a modular rank, D = {D})")
