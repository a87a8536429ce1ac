"""Absorbing systems on the transient block, and the phase-offset absorption basis.

Only the transient block ``Q = P[T, T]`` is ever solved here, one strongly
connected component at a time in reverse topological order (downstream first),
so a chain whose transient part is a DAG needs no matrix solve at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from math import lcm
from typing import Any, NamedTuple, overload

from exactpte.model.chain import Chain
from exactpte.fields import Field
from exactpte.fields.rows import solve_rows_densely
from exactpte.solves.cyclotomic import Spectrum, basis_rows, in_band_order, phase_spectrum
from exactpte.graph.structure import Structure

__all__ = ["solve_transient", "extend_to_transient", "transient_basis", "phase_offset_basis", "TransientBasis", "Shared", "ExactRows", "SparseRows"]

SparseVector = dict[int, Any]
"""``{column: nonzero scalar}``, a missing column is zero; scalars of the chain's field (``Chain.field`` is a
``Field[Any]``: the solves run unchanged over ``QQ`` and ``QQ(params)``)."""


def _sparse_power(rows: list[list[tuple[int, Any]]], d: int, field: Field[Any]) -> list[dict[int, Any]]:
    """Rows of ``Q^d`` from the rows of ``Q`` (sparse products: ``Q`` has a few entries a row)."""
    power = [dict(row) for row in rows]
    for _ in range(d - 1):
        power = _sparse_times(power, rows, field)
    return power


def _matvec(rows: list[list[tuple[int, Any]]], y: list[list[Any]], field: Field[Any]) -> list[list[Any]]:
    """``Q y`` for sparse ``Q`` (row lists) and a dense block ``y`` (list of rows)."""
    width = len(y[0]) if y else 0
    out: list[list[Any]] = []
    for row in rows:
        acc = [field.zero] * width
        for b, q in row:
            yb = y[b]
            for col in range(width):
                if yb[col] != 0:
                    acc[col] += q * yb[col]
        out.append(acc)
    return out


def _add_scaled(acc: SparseVector, q: Any, x: SparseVector) -> None:
    """``acc += q x`` for sparse vectors (what flows through one edge to an already-solved state)."""
    for col, v in x.items():
        acc[col] = acc[col] + q * v if col in acc else q * v


def _flow_in(field: Field[Any], edges: list[tuple[int, Any]], X_next: dict[int, SparseVector],
             pieces: dict[tuple[int, int], "Shared"], k_next: int, acc: SparseVector) -> None:
    """``acc += sum_{(j, q) in edges} q x_next(j)``; what flows to states of one block solve is summed on
    that solve's numerators and cancelled once per column (two large gcds per edge otherwise)."""
    groups: dict[int, list[tuple[Any, Shared]]] = {}
    for j, q in edges:
        piece = pieces.get((j, k_next))
        if piece is None:
            xj = X_next.get(j)
            if xj:
                _add_scaled(acc, q, xj)
        else:
            groups.setdefault(id(piece.den), []).append((q, piece))
    for group in groups.values():
        q_nums, q_den = field.split([q for q, _ in group])
        totals: dict[Any, Any] = {}
        for qn, (_, piece) in zip(q_nums, group):
            for col, v in zip(piece.columns, piece.nums):
                if v:
                    totals[col] = totals[col] + qn * v if col in totals else qn * v
        den = q_den * group[0][1].den
        for col, total in totals.items():
            value = field.fraction(total, den)
            acc[col] = acc[col] + value if col in acc else value


def _back_substitute(field: Field[Any], Q_rows: list[list[tuple[int, Any]]], C: list[list[list[Any]]], N: list[list[Any]],
                     L: Any) -> list[tuple[list[list[Any]], Any]]:
    """``x_k = C_k + Q x_{k+1}`` for ``k = d-1, .., 1`` (``x_d = x_0``), on numerators.

    ``x_0 = N / L``, ``Q = Q_z / q`` and ``C = C_z / c`` over common denominators, so
    ``x_k = (C_z q L + c Q_z N) / (c q L)``: ring products only (adding large fractions one by one
    cancels after every step).  Returns ``(numerators, denominator)`` of ``x_1 .. x_{d-1}``.
    """
    d = len(C)
    q_nums, q = field.split([v for row in Q_rows for _, v in row])
    c_flat = [v for k in range(1, d) for row in C[k] for v in row]
    c_nums, c = field.split(c_flat)
    width = len(N[0]) if N else 0
    cQ: list[list[tuple[int, Any]]] = []
    it = iter(q_nums)
    for row in Q_rows:
        cQ.append([(b, c * next(it)) for b, _ in row])
    it_c = iter(c_nums)
    Cz = {k: [[next(it_c) for _ in range(width)] for _ in C[k]] for k in range(1, d)}
    out: dict[int, tuple[list[list[Any]], Any]] = {}
    for k in range(d - 1, 0, -1):
        qL = q * L
        nxt: list[list[Any]] = []
        for a, row in enumerate(cQ):
            acc_row: list[Any] = []
            for col in range(width):
                acc = Cz[k][a][col] * qL
                for b, w in row:
                    acc += w * N[b][col]
                acc_row.append(acc)
            nxt.append(acc_row)
        N, L = nxt, c * qL
        out[k] = (N, L)
    return [out[k] for k in range(1, d)]


class Shared(NamedTuple):
    """Values of one block solve over one common denominator: ``value[j] = fraction(nums[j], den)``
    for ``columns[j]`` (ring elements: sums over them run on numerators and are cancelled once)."""

    columns: list[int]
    nums: list[Any]
    den: Any


def solve_transient(
    chain: Chain,
    structure: Structure,
    const: Sequence[dict[int, SparseVector]],
    shared: dict[tuple[int, int], Shared] | None = None,
    mean: dict[int, Shared] | None = None,
) -> list[dict[int, SparseVector]]:
    """Solve the phase-coupled absorbing system on the transient states.

    With ``d = len(const)`` and indices mod ``d``, find ``x_0 .. x_{d-1}`` on ``T`` with

        ``x_k(s) = sum_{s' in T} P(s, s') x_{k+1}(s') + const[k](s)``.

    ``d = 1`` is the ordinary absorbing system ``(I - Q) x = c``.  Vectors are sparse
    (``{column: value}``, zeros left out), so a state pays only for the columns it reaches.
    Each transient SCC ``S`` is solved downstream first; for ``d > 1`` the phases are
    eliminated into one system ``(I - Q_SS^d) x_0 = sum_j Q_SS^j c_j`` (``Q^d`` by sparse
    products, ``sum_j Q^j c_j`` by sparse Horner) and ``x_{d-1}, .., x_1`` follow by
    back-substitution, so no ``d|T|``-sized system is ever formed.  The matrix is
    nonsingular because ``Q`` is strictly substochastic on the transient block (spectral
    radius < 1); only the columns that are nonzero somewhere on ``S`` enter its solve.

    ``shared``, if given, receives ``{(s, k): Shared(columns, nums, den)}`` for the states of blocks
    solved by a matrix solve: the same values over the solve's common denominator.  ``mean``, if given, holds
    ``Σ_k x_k`` of such states as pieces (the phase basis: the absorption probabilities, ``Σ_k b_{i,k} = α_i``),
    which the field's phase route may use (:meth:`~exactpte.fields.Field.solve_phase_system`).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [0, 0])
    >>> x = solve_transient(m, m.structure, [{0: {0: m.field.one / 2}}])
    >>> x[0][0]
    {0: 1}
    """
    d = len(const)
    X: list[dict[int, SparseVector]] = [dict() for _ in range(d)]
    pieces: dict[tuple[int, int], Shared] = {} if shared is None else shared
    dens = _Denominators() if shared is not None and not chain.field.is_parametric else None
    for scc in map(lambda block: in_band_order(chain, block), structure.transient_sccs):
        if len(scc) == 1 and dens is not None and _singleton_pieces(chain, scc[0], const, X, pieces, dens):
            continue
        if d == 1 and len(scc) == 1:  # the common case on DAG-like transient parts: no solve at all
            _solve_state(chain, scc[0], const[0], X[0], pieces)
            continue
        Q_rows, c = _block_system(chain, scc, const, X, pieces)
        active = sorted({col for ck in c for vec in ck for col, v in vec.items() if v != 0})
        if not active:
            continue
        if not any(Q_rows):  # no coupling inside S: x_k = c_k
            for k in range(d):
                for a, s in enumerate(scc):
                    _store(X[k], s, c[k][a].items())
            continue
        _solve_block(chain.field, scc, Q_rows, c, active, X, pieces, keep_shared=shared is not None,
                     mean=_block_mean(scc, active, mean) if mean is not None and d > 1 else None)
    return X


class _Denominators:
    """Denominators ``small * base`` of the pieces of single states upstream of a block solve (``base`` the solve's
    denominator, ``small`` a machine-size integer): one object a value, so that the states' sums group by it."""

    def __init__(self) -> None:
        self.made: dict[tuple[int, int], Any] = {}  # (small, id(base)) -> small * base (the base kept alive in parts)
        self.parts: dict[int, tuple[int, Any]] = {}  # id(den) -> (small, base)

    def of(self, small: int, base: Any) -> Any:
        """The object ``small * base``."""
        if small == 1:
            return base
        key = (small, id(base))
        den = self.made.get(key)
        if den is None:
            den = self.made[key] = base * small
            self.parts[id(den)] = (small, base)
        return den

    def split(self, den: Any) -> tuple[int, Any]:
        """``(small, base)`` of a denominator made here (any other one is its own base)."""
        return self.parts.get(id(den), (1, den))


_SMALL_BITS = 62
"""A single state's piece keeps its denominator's small factor below this many bits (else its values are cancelled)."""


def _singleton_pieces(chain: Chain, s: int, const: Sequence[dict[int, SparseVector]], X: list[dict[int, SparseVector]],
                      pieces: dict[tuple[int, int], Shared], dens: _Denominators) -> bool:
    """A transient SCC of one state whose values flow from a block solve's pieces: each phase's vector
    ``x_k = c_k + sum_j P(s, j) x_{k+1}(j)`` (``/ (1 - P(s, s))`` with a self-loop, ``d = 1`` only) kept as one piece
    over ``small * base`` (the block solve's denominator ``base``; :class:`_Denominators`), the constants and the
    other successors' values brought over it: no value is cancelled (a gcd of the block's size a column, where a
    product costs a tenth of that).  Phases it cannot keep so (no piece flows in, pieces of two solves, a
    denominator past :data:`_SMALL_BITS`) are stored as values.  ``False``, with nothing stored, when no phase is
    kept as a piece: the caller's route then takes the state."""
    d = len(const)
    loop, outside = None, []
    for j, q in chain.row(s):
        if j == s:
            loop = q
        else:
            outside.append((j, q))
    if loop is not None and d > 1:
        return False
    made = [_flowed_piece(outside, const[k].get(s, {}), X[(k + 1) % d], pieces, (k + 1) % d, dens, loop) for k in range(d)]
    if all(piece is None for piece in made):
        return False
    field = chain.field
    for k, piece in enumerate(made):
        if piece is not None:
            if piece.columns:
                pieces[(s, k)] = piece
            continue
        acc = dict(const[k].get(s, ()))
        _flow_in(field, outside, X[(k + 1) % d], pieces, (k + 1) % d, acc)
        if loop is not None:
            scale = field.one / (field.one - loop)
            acc = {col: v * scale for col, v in acc.items()}
        _store(X[k], s, acc.items())
    return True


def _flowed_piece(edges: list[tuple[int, Any]], const: SparseVector, X_next: dict[int, SparseVector],
                  pieces: dict[tuple[int, int], Shared], k_next: int, dens: _Denominators, loop: Any) -> Shared | None:
    """``(const + sum_{(j, q)} q x_next(j)) / (1 - loop)`` as one piece over ``small * base``, or ``None``."""
    base = None
    flows: list[tuple[Any, Shared, int]] = []
    values: list[tuple[Any, SparseVector]] = []
    for j, q in edges:
        piece = pieces.get((j, k_next))
        if piece is None:
            vec = X_next.get(j)
            if vec:
                values.append((q, vec))
            continue
        small, piece_base = dens.split(piece.den)
        if base is None:
            base = piece_base
        elif piece_base is not base:
            return None
        flows.append((q, piece, small))
    if base is None:
        return None
    small = 1
    for q, _, s_j in flows:
        small = lcm(small, int(q.q) * s_j)
    scaled: list[tuple[int, Any]] = [(col, v) for col, v in const.items()]
    for q, vec in values:
        scaled.extend((col, q * v) for col, v in vec.items())
    for _, v in scaled:
        small = lcm(small, int(v.q))
    if small.bit_length() > _SMALL_BITS:
        return None
    totals: dict[int, Any] = {}
    for q, piece, s_j in flows:
        coefficient = int(q.p) * (small // (int(q.q) * s_j))
        for col, v in zip(piece.columns, piece.nums):
            if v:
                totals[col] = totals[col] + coefficient * v if col in totals else coefficient * v
    for col, v in scaled:
        if v:
            term = base * (int(v.p) * (small // int(v.q)))
            totals[col] = totals[col] + term if col in totals else term
    if loop is not None:  # x = acc / (1 - loop) = acc loop.q / (loop.q - loop.p)
        keep, small = int(loop.q), small * (int(loop.q) - int(loop.p))
        if small.bit_length() > _SMALL_BITS:
            return None
        totals = {col: v * keep for col, v in totals.items()}
    columns = sorted(col for col, v in totals.items() if v)
    return Shared(columns, [totals[col] for col in columns], dens.of(small, base))


def _block_mean(scc: Sequence[int], active: list[int], mean: dict[int, Shared]) -> tuple[list[Any], Any] | None:
    """The pieces of ``mean`` on the block's states as numerators (row by row, the ``active`` columns) over their one
    denominator, or ``None`` unless one block solve gave them all."""
    first = mean.get(scc[0])
    if first is None or not all(s in mean and mean[s].den is first.den for s in scc):
        return None
    nums: list[Any] = []
    for s in scc:
        row = dict(zip(mean[s].columns, mean[s].nums))
        nums.extend(row.get(col, 0) for col in active)
    return nums, first.den


def _store(X_k: dict[int, SparseVector], s: int, items: Any) -> SparseVector:
    """``X_k[s]`` = the nonzero ``(column, value)`` pairs of ``items`` (left unset when there are none)."""
    vec = {col: v for col, v in items if v != 0}
    if vec:
        X_k[s] = vec
    return vec


def _solve_state(chain: Chain, s: int, const: dict[int, SparseVector], X_0: dict[int, SparseVector],
                 pieces: dict[tuple[int, int], Shared]) -> None:
    """A transient SCC of one state with ``d = 1``: ``x = c + sum_j P(s, j) x(j) + q x`` solved by
    hand (``x = (c + flow) / (1 - q)`` for a self-loop ``q``), no matrix."""
    field = chain.field
    acc = dict(const.get(s, ()))
    loop = None
    outside = []
    for j, q in chain.row(s):
        if j == s:
            loop = q
        else:
            outside.append((j, q))
    if loop is None and not acc and len(outside) == 1:
        # a deterministic step (a row of one entry is 1): the successor's vector itself, shared (stored
        # vectors and pieces are never mutated); most states of protocol models (brp, crowds) are such steps
        successor, piece = X_0.get(outside[0][0]), pieces.get((outside[0][0], 0))
        if successor:
            X_0[s] = successor
        if piece is not None:
            pieces[(s, 0)] = piece
        return
    _flow_in(field, outside, X_0, pieces, 0, acc)
    if loop is not None:  # x = c + q x  =>  x = c / (1 - q)
        scale = field.one / (field.one - loop)
        acc = {col: v * scale for col, v in acc.items()}
    _store(X_0, s, acc.items())


def _block_system(chain: Chain, scc: Sequence[int], const: Sequence[dict[int, SparseVector]],
                  X: list[dict[int, SparseVector]], pieces: dict[tuple[int, int], Shared]
                  ) -> tuple[list[list[tuple[int, Any]]], list[list[SparseVector]]]:
    """``(Q_rows, c)`` of one SCC ``S``: ``Q_SS`` as rows in block positions, and ``c_k`` on ``S``:
    the constant plus what flows to already-solved transient states."""
    field = chain.field
    d = len(const)
    pos = {s: j for j, s in enumerate(scc)}
    c = [[dict(const[k].get(s, ())) for s in scc] for k in range(d)]
    Q_rows: list[list[tuple[int, Any]]] = [[] for _ in scc]
    for a, s in enumerate(scc):
        outside = []
        for j, q in chain.row(s):
            b = pos.get(j)
            if b is None:
                outside.append((j, q))
            else:
                Q_rows[a].append((b, q))
        for k in range(d):
            _flow_in(field, outside, X[(k + 1) % d], pieces, (k + 1) % d, c[k][a])
    return Q_rows, c


def _solve_block(field: Field[Any], scc: Sequence[int], Q_rows: list[list[tuple[int, Any]]], c: list[list[SparseVector]],
                 active: list[int], X: list[dict[int, SparseVector]], pieces: dict[tuple[int, int], Shared],
                 *, keep_shared: bool, mean: tuple[list[Any], Any] | None = None) -> None:
    """A coupled SCC: ``x_0`` by the field's fast phase route or by ``(I - Q^d) x_0 = sum_j Q^j c_j``,
    then ``x_{d-1} .. x_1`` by back-substitution; stored in ``X`` (and in ``pieces`` over the solve's
    common denominator)."""
    d = len(c)
    C = [[[vec.get(col, field.zero) for col in active] for vec in c[k]] for k in range(d)]
    values: list[list[list[Any]] | None] = [None] * d  # exact entries where the solve gave them
    lifted = field.solve_phase_system(Q_rows, C, d, mean)
    if lifted is not None:
        nums, den = lifted
        phases: list[tuple[Any, Any]] = [(nums[k], den) for k in range(d)]
    else:
        A, rhs = _phase_matrix(field, Q_rows, d), _horner(field, Q_rows, C)
        X0 = field.solve(A, field.matrix(rhs, len(active)))
        values[0] = field.to_lists(X0)
        phases = [field.matrix_split(X0) if d > 1 or keep_shared else (None, None)]
        if d > 1:
            phases += _back_substitute(field, Q_rows, C, *phases[0])
            phases = _over_one_denominator(phases)
    for k, (nums, den) in enumerate(phases):
        for a, s in enumerate(scc):
            exact = values[k]
            if exact is None and keep_shared:
                # the caller reads these states from their pieces: each value is cancelled (a gcd of the
                # answer's size) only if it is ever asked for (TransientBasis.rows), not here
                if any(v != 0 for v in nums[a]):
                    pieces[(s, k)] = Shared(active, nums[a], den)
                continue
            row = exact[a] if exact is not None else [field.fraction(v, den) for v in nums[a]]
            if _store(X[k], s, zip(active, row)) and nums is not None:
                pieces[(s, k)] = Shared(active, nums[a], den)


def _over_one_denominator(phases: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The phases of one solve over one denominator (back-substitution multiplies the denominator by
    the same factor ``f = L_{k} / L_{k+1}`` at each phase, so phase ``k`` is scaled by ``f^(k-1)``,
    phase 0 by ``f^(d-1)``): one :class:`Shared` piece per block solve, whose sums never meet two
    denominators that differ by a factor."""
    d = len(phases)
    if d < 2:
        return phases
    top = phases[1][1]
    out = []
    for nums, den in phases:
        if den == top:
            out.append((nums, den))
            continue
        f = top / den  # exact: a product of the back-substitution's factors
        out.append(([[v * f for v in row] for row in nums], top))
    return out


def _horner(field: Field[Any], Q_rows: list[list[tuple[int, Any]]], C: list[list[list[Any]]]) -> list[list[Any]]:
    """``sum_j Q^j c_j`` by Horner's scheme on the dense right-hand sides."""
    y = C[-1]
    for k in range(len(C) - 2, -1, -1):
        y = [[u + w for u, w in zip(ca, qa)] for ca, qa in zip(C[k], _matvec(Q_rows, y, field))]
    return y


def _phase_matrix(field: Field[Any], Q_rows: list[list[tuple[int, Any]]], d: int) -> Any:
    """``I - Q^d`` as a dense field matrix."""
    A = field.identity(len(Q_rows))
    for a, row in enumerate(_sparse_power(Q_rows, d, field) if d > 1 else [dict(r) for r in Q_rows]):
        for b, q in row.items():
            A[a, b] -= q
    return A


def _sparse_times(power: list[dict[int, Any]], rows: list[list[tuple[int, Any]]], field: Field[Any]) -> list[dict[int, Any]]:
    """Rows of ``M Q`` for sparse ``M`` (dict rows) and ``Q`` (row lists)."""
    nxt: list[dict[int, Any]] = []
    for row in power:
        acc: dict[int, Any] = {}
        for b, q in row.items():
            for c, q2 in rows[b]:
                acc[c] = acc.get(c, field.zero) + q * q2
        nxt.append({c: v for c, v in acc.items() if v != 0})
    return nxt


def extend_to_transient(chain: Chain, structure: Structure, x: list[Any], base: Callable[[int], Any]) -> list[Any]:
    """Fill the transient entries of ``x`` (recurrent entries given) from
    ``x(s) = base(s) + sum_{s'} P(s, s') x(s')``, ``s`` transient: one absorbing solve.

    Used for ``ρ`` (base 0), ``h`` (base ``r - ρ``) and hitting times (base 1).  A scalar
    version of :func:`solve_transient`: downstream first, a singleton block by one
    division, a larger block by one dense solve of ``(I - Q_SS) x_S = c_S``.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [0, 0])
    >>> [str(v) for v in extend_to_transient(m, m.structure, [None, m.field.one * 3], lambda s: m.field.one)]
    ['5', '3']
    """
    field = chain.field
    one = field.one
    ptr, cols, vals = chain.csr_lists
    for scc in map(lambda block: in_band_order(chain, block), structure.transient_sccs):
        if len(scc) == 1:
            s = scc[0]
            acc = base(s)
            loop = None
            for e in range(ptr[s], ptr[s + 1]):
                j = cols[e]
                if j == s:
                    loop = vals[e]
                else:
                    acc += vals[e] * x[j]
            x[s] = acc if loop is None else acc / (one - loop)
            continue
        pos = {s: a for a, s in enumerate(scc)}
        m = len(scc)
        Q_rows: list[list[tuple[int, Any]]] = [[] for _ in range(m)]
        c = []
        for a, s in enumerate(scc):
            acc = base(s)
            for e in range(ptr[s], ptr[s + 1]):
                j = cols[e]
                b = pos.get(j)
                if b is None:
                    acc += vals[e] * x[j]
                else:
                    Q_rows[a].append((b, vals[e]))
            c.append(acc)
        rhs = [[v] for v in c]
        lifted = field.solve_phase_system(Q_rows, [rhs], 1)
        if lifted is not None:
            nums, den = lifted
            solution = [field.fraction(row[0], den) for row in nums[0]]
        else:  # (I - Q_SS) x = c densely
            I_minus_Q = [[(a, field.one)] + [(b, -q) for b, q in row] for a, row in enumerate(Q_rows)]
            solution = [row[0] for row in solve_rows_densely(field, I_minus_Q, rhs)]
        for s, v in zip(scc, solution):
            x[s] = v
    return x


class TransientBasis:
    """The phase basis on ``T``: ``rows[s] = {column: b_c(s)}`` (nonzero entries), ``absorption[s] = {i: α_i(s)}``,
    and how they are held: ``shared[s]`` (``absorption_shared[s]``), the entries a block solve gave as
    :class:`Shared` pieces (numerators over the solve's common denominator), and ``rest[s]``
    (``absorption_rest[s]``), the other entries as field elements.  Sums over the basis
    (:func:`~exactpte.solves.summation.weighted_sums`) read the pieces and the rest; a row's values are
    cancelled (one gcd of the answer's size each: most of the phase basis' cost on large chains) only when the
    row is read (:class:`ExactRows`; ``rows`` and ``absorption`` read every transient row).  (When the field
    splits periods, the periodic columns come from the cyclotomic components (:mod:`~exactpte.solves.cyclotomic`),
    in ``rest``: sums over them are taken on the components.)"""

    def __init__(self, field: Field[Any], rest: dict[int, SparseVector], shared: dict[int, list[Shared]],
                 absorption_rest: dict[int, SparseVector], absorption_shared: dict[int, list[Shared]]) -> None:
        self.field = field
        self.rest, self.shared = rest, shared
        self.absorption_rest, self.absorption_shared = absorption_rest, absorption_shared

    def view(self, n: int, width: int, unit: dict[int, int], *, absorption: bool = False) -> "ExactRows":
        """The ``n x width`` matrix whose transient rows are these (the basis', or with ``absorption`` the absorption
        probabilities') and whose other rows ``s`` are the unit vectors of column ``unit[s]``."""
        if absorption:
            return ExactRows(self.field, n, width, unit, self.absorption_rest, self.absorption_shared)
        return ExactRows(self.field, n, width, unit, self.rest, self.shared)

    @cached_property
    def rows(self) -> dict[int, SparseVector]:
        """``{s: {column: b_c(s)}}``, nonzero entries in column order (every transient row read)."""
        view = self.view(0, 0, {})
        return {s: view.sparse(s) for s in self.rest}

    @cached_property
    def absorption(self) -> dict[int, SparseVector]:
        """``{s: {i: α_i(s)}}``, nonzero entries in class order (every transient row read)."""
        view = self.view(0, 0, {}, absorption=True)
        return {s: view.sparse(s) for s in self.absorption_rest}


class ExactRows(Sequence[tuple[Any, ...]]):
    """An exact ``n x width`` matrix read row by row: ``M[s]`` is a tuple of field elements, ``M[s][c]`` an entry.

    The rows of block solves are held as :class:`Shared` pieces (ring numerators over the solve's common
    denominator), and a row's entries are cancelled (one gcd of the answer's size an entry: what a canonical
    ``fmpq`` costs) when the row is first read, never before; :meth:`parts` gives a row exactly without cancelling
    anything, as numerators over shared denominators.  Rows ``s`` in ``unit`` are the unit vector of column
    ``unit[s]``; the others are ``rest[s]`` (entries as field elements) plus the pieces ``shared[s]``.  Read-only;
    equal to any sequence of the same rows.

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> piece = Shared([0, 1], [2, 4], QQ.one.q * 6)
    >>> M = ExactRows(QQ, 2, 3, {1: 2}, {0: {}}, {0: [piece]})
    >>> M.parts(0), M.parts(1)
    ((([0, 1], [2, 4], 6),), (([2], [1], 1),))
    >>> M[0], M[1][2], M == ((QQ.one / 3, QQ.one * 2 / 3, 0), (0, 0, 1))
    ((1/3, 2/3, 0), 1, True)
    """

    def __init__(self, field: Field[Any], n: int, width: int, unit: dict[int, int], rest: dict[int, SparseVector],
                 shared: dict[int, list[Shared]]) -> None:
        self._field, self._n, self._width, self._unit = field, n, width, unit
        self._rest, self._shared = rest, shared
        self._sparse: dict[int, SparseVector] = {}
        self._cancelled: dict[int, dict[int, Any]] = {}  # id(piece) -> {column: value} (the pieces stay alive in shared)

    def __len__(self) -> int:
        return self._n

    def sparse(self, s: int) -> SparseVector:
        """Row ``s`` as ``{column: value}``, nonzero entries in column order (cancelled on its first read; pieces
        shared by rows, e.g. along deterministic steps, once for all of them)."""
        row = self._sparse.get(s)
        if row is None:
            if s in self._unit:
                row = {self._unit[s]: self._field.one}
            else:
                values = dict(self._rest.get(s, ()))
                for piece in self._shared.get(s, ()):
                    done = self._cancelled.get(id(piece))
                    if done is None:
                        fraction, den = self._field.fraction, piece.den
                        done = {c: fraction(v, den) for c, v in zip(piece.columns, piece.nums) if v != 0}
                        self._cancelled[id(piece)] = done
                    for c, v in done.items():
                        values.setdefault(c, v)
                row = dict(sorted(values.items()))
            self._sparse[s] = row
        return row

    def parts(self, s: int) -> tuple[tuple[list[int], list[Any], Any], ...]:
        """Row ``s`` as ``(columns, numerators, denominator)`` parts, nothing cancelled: the block solves' pieces
        (ring numerators over a denominator the states of one solve share) and the other nonzero entries as they are
        held (field elements, over the ring's one: bringing canonical values over one denominator would cost more
        than reading them); the row is the sum of the parts, no column in two."""
        one = self._field.split([self._field.one])[1]
        if s in self._unit:
            return (([self._unit[s]], [self._field.one], one),)
        pieces = tuple((piece.columns, piece.nums, piece.den) for piece in self._shared.get(s, ()))
        covered = {c for piece in pieces for c in piece[0]}
        rest = [(c, v) for c, v in self._rest.get(s, {}).items() if c not in covered and v != 0]
        if not rest:
            return pieces
        return pieces + (([c for c, _ in rest], [v for _, v in rest], one),)

    @overload
    def __getitem__(self, s: int) -> tuple[Any, ...]: ...

    @overload
    def __getitem__(self, s: slice) -> tuple[tuple[Any, ...], ...]: ...

    def __getitem__(self, s: int | slice) -> tuple[Any, ...] | tuple[tuple[Any, ...], ...]:
        if isinstance(s, slice):
            return tuple(self[i] for i in range(*s.indices(self._n)))
        if not -self._n <= s < self._n:
            raise IndexError(f"row {s} of {self._n}")
        dense = [self._field.zero] * self._width
        for c, v in self.sparse(s % self._n).items():
            dense[c] = v
        return tuple(dense)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(self[s] == tuple(other[s]) for s in range(self._n))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ExactRows({self._n} x {self._width})"


class SparseRows(Sequence[SparseVector]):
    """The rows of an :class:`ExactRows` as ``{column: value}`` dicts of their nonzero entries (each row cancelled
    on its first read, shared with the dense view).

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> SparseRows(ExactRows(QQ, 2, 2, {0: 1, 1: 0}, {}, {}))[0]
    {1: 1}
    """

    def __init__(self, rows: ExactRows) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, s: int) -> SparseVector: ...

    @overload
    def __getitem__(self, s: slice) -> tuple[SparseVector, ...]: ...

    def __getitem__(self, s: int | slice) -> SparseVector | tuple[SparseVector, ...]:
        if isinstance(s, slice):
            return tuple(self[i] for i in range(*s.indices(len(self))))
        if not -len(self) <= s < len(self):
            raise IndexError(f"row {s} of {len(self)}")
        return self.rows.sparse(s % len(self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(self[s] == other[s] for s in range(len(self)))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SparseRows({len(self)} rows)"


def _collect(X: list[dict[int, SparseVector]], solved: dict[tuple[int, int], Shared], columns: list[dict[int, int]],
             transient: Sequence[int]) -> tuple[dict[int, SparseVector], dict[int, list[Shared]]]:
    """A solve's answer as rows ``{s: {columns[k][i]: value}}`` of the entries held as values (``X[k][s] = {i: value}``;
    classes missing from ``columns[k]`` left out) and the block solves' pieces over those columns."""
    rows: dict[int, SparseVector] = {s: {} for s in transient}
    pieces: dict[int, list[Shared]] = {s: [] for s in transient}
    for k, Xk in enumerate(X):
        column = columns[k]
        for s, vec in Xk.items():
            row = rows[s]
            for i, v in vec.items():
                c = column.get(i)
                if c is not None:
                    row[c] = v
    by_state: dict[int, list[tuple[int, Shared]]] = {}
    for (s, k), piece in solved.items():
        by_state.setdefault(s, []).append((k, piece))
    built: dict[tuple[tuple[int, int], ...], Shared | None] = {}  # states sharing pieces (deterministic steps) share these
    for s, items in by_state.items():
        groups: list[list[tuple[int, Shared]]] = []
        for k, piece in sorted(items, key=lambda item: item[0]):
            last = groups[-1][-1][1] if groups else None
            if last is not None and (last.den is piece.den or last.den == piece.den):  # the phases of one solve: one piece
                groups[-1].append((k, piece))
            else:
                groups.append([(k, piece)])
        for group in groups:
            key = tuple((k, id(piece)) for k, piece in group)
            if key not in built:
                cols, nums = [], []
                for k, piece in group:
                    column = columns[k]
                    for i, n in zip(piece.columns, piece.nums):
                        c = column.get(i)
                        if c is not None:
                            cols.append(c)
                            nums.append(n)
                built[key] = Shared(cols, nums, group[0][1].den) if cols else None
            mine = built[key]
            if mine is not None:
                pieces[s].append(mine)
    return rows, pieces


def transient_basis(chain: Chain, structure: Structure, *, spectrum: Spectrum | None = None) -> TransientBasis:
    """The phase-offset absorption basis ``b_{i,k}`` on the transient states (``def:main_b``), and the
    absorption probabilities ``α_i = sum_k b_{i,k}``.

    ``b_{i,k}(s) = P_s(class(X_tau) = i, phase(X_tau) - tau = k mod d_i)`` with ``tau``
    the hitting time of the recurrent set.  Conditioning on the first step gives
    ``b_{i,k}(s) = sum_{s' in T} P(s,s') b_{i,k+1}(s') + P(s, C_{i,k+1})``, the system
    :func:`solve_transient` solves, once per distinct period ``d > 1`` for all classes of
    that period.  ``α = Q α + P(·, F_i)`` is the ``d = 1`` system, solved for every class: its
    answers have far smaller denominators than sums of ``b_{i,k}`` over the phases (which carry
    ``det(I - Q^d)``), and for a class of period 1 ``b_{i,0} = α_i``.  On recurrent states
    ``b_{i,k} = 1{C_{i,k}}`` (not stored here).  A field that splits periods (``QQ(params)``) takes
    the periodic columns from the cyclotomic components instead (:func:`~exactpte.solves.cyclotomic.basis_rows`;
    ``spectrum``, when the caller already holds it, or :func:`~exactpte.solves.cyclotomic.phase_spectrum`).

    Rows are sparse (a state holds only the ``(class, phase)`` columns it reaches), columns in
    ``(class, phase)`` order; see :class:`TransientBasis`.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([["1/2", "1/2", 0], [0, 0, 1], [0, 1, 0]], [0, 0, 0])
    >>> B = transient_basis(m, m.structure)
    >>> B.rows[0], B.absorption[0]   # from 0: enter C_{0,0} at an odd time with probability 1/3
    ({0: 1/3, 1: 2/3}, {0: 1})
    >>> all(m.field.fraction(n, p.den) == B.rows[0][c] for p in B.shared[0] for c, n in zip(p.columns, p.nums))
    True
    >>> sorted(c for p in B.shared[0] for c in p.columns)   # (a 1-state block, solved with its phases)
    [0, 1]
    """
    S, field = structure, chain.field
    col_of, class_of, phase_of = S.column_of, S.class_of, S.phase_of

    def entering(d: int, classes: set[int]) -> list[dict[int, SparseVector]]:
        """``const[k][s][i] = P(s, C_{i,k+1})`` (phases mod ``d``; ``d = 1``: ``P(s, F_i)``)."""
        const: list[dict[int, SparseVector]] = [dict() for _ in range(d)]
        for s in S.transient:
            for y, q in chain.row(s):
                i = class_of[y]
                if i in classes:
                    k = (phase_of[y] - 1) % d  # entering C_{i,k+1} at time 1 contributes to b_{i,k}
                    vec = const[k].setdefault(s, {})
                    vec[i] = vec.get(i, field.zero) + q
        return const

    solved: dict[tuple[int, int], Shared] = {}
    X = solve_transient(chain, S, entering(1, set(range(len(S.classes)))), solved)
    absorption, absorption_shared = _collect(X, solved, [{i: i for i in range(len(S.classes))}], S.transient)
    rows, pieces = _collect(X, solved, [{i: col_of[(i, 0)] for i, d in enumerate(S.periods) if d == 1}], S.transient)
    by_period: dict[int, set[int]] = {}
    for i, d in enumerate(S.periods):
        if d > 1:
            by_period.setdefault(d, set()).add(i)
    if field.splits_periods and by_period:  # QQ(params): the cyclotomic route, no solve through Q^d
        periodic = basis_rows(field, S, phase_spectrum(chain, S) if spectrum is None else spectrum)
        for s in S.transient:
            rows[s].update(periodic[s])
    else:
        alpha = {s: piece for (s, _), piece in solved.items()}  # Σ_k b_{i,k} = α_i: what the phase routes may reuse
        for d, cls in sorted(by_period.items()):
            solved = {}
            columns = [{i: col_of[(i, k)] for i in cls} for k in range(d)]
            X = solve_transient(chain, S, entering(d, cls), solved, alpha)
            more_rows, more_pieces = _collect(X, solved, columns, S.transient)
            for s in S.transient:
                rows[s].update(more_rows[s])
                pieces[s].extend(more_pieces.get(s, ()))
    return TransientBasis(field, rows, pieces, absorption, absorption_shared)


def phase_offset_basis(chain: Chain, structure: Structure) -> dict[int, SparseVector]:
    """The rows of :func:`transient_basis`: ``{s: {column: b_c(s)}}`` for transient ``s`` (``def:main_b``).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([[0, 1, 0], [0, 0, 1], [0, 1, 0]], [0, 0, 0])
    >>> phase_offset_basis(m, m.structure)[0]
    {1: 1}
    """
    return transient_basis(chain, structure).rows
