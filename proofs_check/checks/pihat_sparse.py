"""``lem:pihat_dev`` and ``lem:pihat_infty_norm`` on chains with many basis columns: the same identities on
sparse rows.

The dense versions (:mod:`.appendix`) build four learned bases as ``n x N`` lists (a perturbation of every entry)
and project through ``n x N`` matrices: on crowds-5-5 (8,607 states, 1,260 absorbing classes) that is 10.8M
rationals per basis and gigabytes.  Past :data:`DENSE_ENTRIES` entries, each basis is a list of sparse rows
``{column: value}`` and each ``Π̂ v = v - Σ_j v(a_j) b̂_j`` touches a row's nonzeros only.  The witnesses keep
their kinds, each perturbing a few columns per row instead of all ``N``: the learned ``b̂ = (1 - ε) b + ε u``
with ``u`` on the simplex supported on up to :data:`SUPPORT` random columns; ``b̂`` off the simplex (signed noise on
up to ``SUPPORT`` columns); ``b̂`` at a random vertex ``e_j`` per transient row; and the claimed ``b``.  The
vectors are three random ones and two on which the bound is attained at the row where it is tightest.
"""

from __future__ import annotations

from collections.abc import Sequence

import flint

from proofs_check.algebra.linalg import norm_inf, random_vector
from proofs_check.judging.registry import Context, Outcome

DENSE_ENTRIES = 1_000_000
"""Past ``n * N`` entries the two lemmas run on sparse rows."""
SUPPORT = 3
"""Columns perturbed per transient row in the sparse witnesses."""

Row = dict[int, flint.fmpq]
ZERO = flint.fmpq(0)


def applies(ctx: Context) -> bool:
    """The sparse versions run: many entries, ``b̂`` and ``Π̂`` not given (a given ``b̂`` is judged as given)."""
    return ctx.bhat is None and ctx.apply_pihat is None and ctx.chain.n * ctx.claimed.N > DENSE_ENTRIES


def _rows_of(columns: Sequence[dict[int, flint.fmpq]], n: int) -> list[Row]:
    rows: list[Row] = [{} for _ in range(n)]
    for j, col in enumerate(columns):
        for s, x in col.items():
            if x:
                rows[s][j] = x
    return rows


def _claimed_rows(ctx: Context) -> list[Row]:
    return ctx.shared("pihat:claimed-rows", lambda: _rows_of(ctx.claimed.sparse_columns, ctx.chain.n))


def _true_rows(ctx: Context) -> list[Row] | str:
    """``b`` from the block routes in the claimed anchors' column order, as sparse rows."""
    cols = ctx.blocks.anchor_columns(ctx.claimed.anchors, sparse=True)
    if isinstance(cols, str):
        return cols
    return _rows_of(cols, ctx.chain.n)


def _bases(ctx: Context, eps: flint.fmpq) -> list[tuple[str, list[Row]]]:
    """The learned ``b̂`` (this ``ε``), ``b̂`` off the simplex, at its vertices, and the claimed ``b``."""
    c, N = ctx.claimed, ctx.claimed.N
    claimed = _claimed_rows(ctx)
    recurrent = {s for cls in c.classes for s in cls}
    rng = ctx.rng("bhat-sparse")
    learned: list[Row] = []
    off: list[Row] = []
    vertex: list[Row] = []
    for s, row in enumerate(claimed):
        if s in recurrent or not N:
            for basis in (learned, off, vertex):
                basis.append(row)
            continue
        cols = sorted({rng.randrange(N) for _ in range(SUPPORT)})
        w = {j: rng.randint(1, 5) for j in cols}
        tot = sum(w.values())
        mixed = {j: (1 - eps) * x for j, x in row.items()}
        for j, x in w.items():
            mixed[j] = mixed.get(j, ZERO) + eps * flint.fmpq(x, tot)
        learned.append(mixed)
        noisy = dict(row)
        for j in cols:
            noisy[j] = noisy.get(j, ZERO) + flint.fmpq(rng.randint(-3, 3), 7)
        off.append(noisy)
        vertex.append({rng.randrange(N): flint.fmpq(1)})
    return [("the learned b^", learned), ("b^ off the simplex", off), ("b^ at the simplex's vertices", vertex),
            ("b^ = the claimed b", claimed)]


def _l1(row: Row) -> flint.fmpq:
    return sum((abs(x) for x in row.values()), ZERO)


def _minus(a: Row, b: Row) -> Row:
    out = dict(a)
    for j, x in b.items():
        out[j] = out.get(j, ZERO) - x
    return {j: x for j, x in out.items() if x}


def random_witnesses(ctx: Context) -> list[list[flint.fmpq]]:
    """The three random witness vectors of ``lem:pihat_dev`` and ``lem:pihat_infty_norm``: three draws from one
    random source (``ctx.rng("dev")``), drawn once per chain and shared by both lemmas (callers copy them)."""
    def draw() -> list[list[flint.fmpq]]:
        rng = ctx.rng("dev")
        return [random_vector(rng, ctx.chain.n) for _ in range(3)]
    return ctx.shared("pihat:random-vectors", draw)


def _vectors(ctx: Context, rows: Sequence[Row]) -> list[list[flint.fmpq]]:
    """Three random vectors and the two on which ``|Σ_j v(a_j) x_j(s)| = ‖v‖ ‖x(s)‖_1`` at the row ``s`` where
    ``‖x(s)‖_1`` is largest (``v(a_j) = sign x_j(s)``, ``v(s) = -1`` off the anchors)."""
    c, n = ctx.claimed, ctx.chain.n
    out = [list(v) for v in random_witnesses(ctx)]
    if not rows or not c.N:
        return out
    anchors = set(c.anchor_states)
    s = max(range(n), key=lambda t: (t not in anchors, _l1(rows[t])))
    v = [ZERO] * n
    for j, a in enumerate(c.anchor_states):
        v[a] = flint.fmpq(1 if rows[s].get(j, ZERO) >= 0 else -1)
    if s not in anchors:
        v[s] = flint.fmpq(-1)
    return out + [v, [-x for x in v]]


def _combine(ctx: Context, rows: Sequence[Row], v: Sequence[flint.fmpq]) -> list[flint.fmpq]:
    """``Σ_j v(a_j) x_j(s)`` per state ``s``."""
    va = [v[a] for a in ctx.claimed.anchor_states]
    return [sum((va[j] * x for j, x in row.items()), ZERO) for row in rows]


def dev(ctx: Context) -> Outcome:
    """``‖(Π̂ - Π) v‖ ≤ ε_b ‖v‖``: ``(Π̂ - Π) v = -Σ_j v(a_j) (b̂_j - b_j)`` on sparse rows (``Π`` from the block
    routes' ``b``, ``ε_b`` against the claimed ``b``)."""
    true_rows = _true_rows(ctx)
    if isinstance(true_rows, str):
        return true_rows
    claimed = _claimed_rows(ctx)
    for name, bh in _bases(ctx, flint.fmpq(1, 5)):
        eps = max((_l1(_minus(r1, r2)) for r1, r2 in zip(bh, claimed)), default=ZERO)
        diff = [_minus(r1, r2) for r1, r2 in zip(bh, true_rows)]
        for v in _vectors(ctx, diff):
            d = norm_inf(_combine(ctx, diff, v))
            if d > eps * norm_inf(v):
                return f"{name}: ||(Pi^ - Pi)v|| = {d} exceeds eps_b ||v|| = {eps * norm_inf(v)}"
    return None


def infty_norm(ctx: Context) -> Outcome:
    """``‖Π̂ v‖ ≤ 2‖v‖`` for the claimed ``b`` and every sparse ``b̂`` on the simplex."""
    claimed = _claimed_rows(ctx)
    cases = [("Pi (the claimed b)", claimed)]
    cases += [(name, bh) for name, bh in _bases(ctx, flint.fmpq(1, 3))
              if all(x >= 0 for row in bh for x in row.values()) and all(_l1(row) == 1 for row in bh)]
    for name, bh in cases:
        for v in _vectors(ctx, bh):
            w = [x - y for x, y in zip(v, _combine(ctx, bh, v))]
            if norm_inf(w) > 2 * norm_inf(v):
                return f"{name}: ||Pi^ v|| = {norm_inf(w)} exceeds 2||v|| = {2 * norm_inf(v)}"
    return None
