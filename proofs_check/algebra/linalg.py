"""Dense exact linear algebra for the independent routes (small chains only).

Deliberately separate from exactpte's solvers: everything here is textbook
dense algebra over ``fmpq_mat`` (rref, nullspace, matrix polynomials), so a
check never re-runs the code it judges.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeAlias, TypeVar, cast

import flint

from exactpte.model.random_chains import randint_of

Exact: TypeAlias = "flint.fmpq | flint.fmpz | int"
"""An exact rational entry of a vector (``fmpq_mat`` accepts all three)."""

__all__ = [
    "Exact",
    "col",
    "vec",
    "matvec",
    "in_span",
    "in_span_all",
    "same_span",
    "random_vector",
    "random_integers",
    "norm_inf",
    "exact_max",
    "argmax",
    "all_nonnegative",
    "greater",
    "column_norms_inf",
    "row_l1",
    "integer_poly",
    "identity",
    "nullspace",
    "rank",
    "mat_poly",
    "mat_poly_apply",
    "column",
    "columns_to_mat",
    "cyclotomic_part",
    "pivot_columns",
    "orbit",
    "orbits",
    "join",
    "columns",
    "intersect",
    "column_basis",
    "integer_identity",
    "exact_integers",
]


# Building a flint matrix from Python ints converts each int (about 0.35 us an entry; from fmpq entries 0.14 us, a
# copy of a matrix 1 us in all): the identities are built once per size and copied, small integers come from a table.
_IDENTITIES: dict[int, flint.fmpq_mat] = {}
_INTEGER_IDENTITIES: dict[int, flint.fmpz_mat] = {}
_SMALL = {k: flint.fmpq(k) for k in range(-64, 65)}
_FRACTIONS: dict[tuple[int, int], flint.fmpq] = {}


_M = TypeVar("_M", flint.fmpq_mat, flint.fmpz_mat)


def _identity_of(cache: dict[int, _M], make: Callable[[int, int], _M], n: int) -> _M:
    """The ``n x n`` identity of ``make``'s type, built once per size (callers copy it)."""
    I = cache.get(n)
    if I is None:
        I = make(n, n)
        for i in range(n):
            I[i, i] = 1
        cache[n] = I
    return I


def identity(n: int) -> flint.fmpq_mat:
    """The ``n x n`` identity (a new matrix each call)."""
    return flint.fmpq_mat(_identity_of(_IDENTITIES, flint.fmpq_mat, n))


def integer_identity(n: int) -> flint.fmpz_mat:
    """The ``n x n`` integer identity (a new matrix each call)."""
    return flint.fmpz_mat(_identity_of(_INTEGER_IDENTITIES, flint.fmpz_mat, n))


def exact_integers(values: Sequence[int]) -> list[flint.fmpq]:
    """Small Python ints as ``fmpq`` (shared immutable objects from a table; others converted), for building
    matrices: ``fmpq_mat(m, k, exact_integers(ints)) == fmpq_mat(m, k, ints)``.

    >>> exact_integers([0, -3, 10**20]) == [0, -3, 10**20]
    True
    """
    small = _SMALL
    return [small[x] if -64 <= x <= 64 else flint.fmpq(x) for x in values]


def rank(M: flint.fmpq_mat) -> int:
    """The rank (0 for an empty matrix)."""
    if M.nrows() == 0 or M.ncols() == 0:
        return 0
    return M.rank()


def nullspace(M: flint.fmpq_mat) -> flint.fmpq_mat:
    """A basis of ``{x : M x = 0}`` as the columns of an ``ncols x k`` matrix (via rref).

    Examples
    --------
    >>> nullspace(flint.fmpq_mat([[1, 1], [2, 2]])).tolist()
    [[-1], [1]]
    """
    m, n = M.nrows(), M.ncols()
    if m == 0:
        return identity(n)
    R, rk = M.rref()
    pivots = pivot_columns(R, rk)
    pivot_set = set(pivots)
    free = [c for c in range(n) if c not in pivot_set]
    rows = R.tolist()
    k = len(free)
    zero, one = _SMALL[0], _SMALL[1]  # fmpq entries: a matrix from ints converts each one (2.5x the cost)
    flat: list[flint.fmpq] = [zero] * (n * k)  # row-major n x k
    for j, f in enumerate(free):
        flat[f * k + j] = one
        for i, p in enumerate(pivots):
            flat[p * k + j] = -rows[i][f]
    return flint.fmpq_mat(n, k, flat)


def orbit(P: flint.fmpq_mat, x: flint.fmpq_mat, T: int) -> flint.fmpq_mat:
    """``sum_{t<T} P^t x`` by repeated multiplication."""
    acc = flint.fmpq_mat(x.nrows(), 1)
    for _ in range(T):
        acc = acc + x
        x = P * x
    return acc


def orbits(P: flint.fmpq_mat, X: flint.fmpq_mat, horizons: Sequence[int]) -> dict[int, flint.fmpq_mat]:
    """``{T: sum_{t<T} P^t X}`` for every ``T`` in ``horizons`` (``X`` may have several columns), in one pass
    of repeated multiplication: :func:`orbit` at each ``T``, term by term."""
    # in integers: P = Pn/p, X = Xn/x, so P^t X = Y_t/(p^t x) with Y_t = Pn^t Xn, and sum_{t<T} P^t X = S_T/(p^(T-1) x)
    # with S_1 = Y_0, S_{T+1} = p S_T + Y_T (no rational normalisation per step; the same sums)
    Pn, p = P.numer_denom()
    Y, x = X.numer_denom()
    out, S, t = {}, flint.fmpz_mat(X.nrows(), X.ncols()), 0
    for T in sorted(set(horizons)):
        while t < T:
            S, Y, t = (S * p + Y if t else Y), Pn * Y, t + 1
        out[T] = flint.fmpq_mat(S) * flint.fmpq(1, p ** (T - 1) * x) if T else flint.fmpq_mat(X.nrows(), X.ncols())
    return out


def pivot_columns(R: flint.fmpq_mat, rank_: int) -> list[int]:
    """Pivot columns of a matrix in reduced row echelon form with ``rank_`` nonzero rows."""
    pivots, row = [], 0
    for col in range(R.ncols()):
        if row < rank_ and R[row, col] != 0:
            pivots.append(col)
            row += 1
    return pivots


def mat_poly(coeffs: Sequence[Exact], A: flint.fmpq_mat) -> flint.fmpq_mat:
    """``c_0 I + c_1 A + ... + c_k A^k`` by Horner's rule (``coeffs`` lowest degree first)."""
    n = A.nrows()
    cs = [flint.fmpq(c) for c in coeffs]
    if not cs:
        return flint.fmpq_mat(n, n)
    # in integers: A = An/d and c_k = z_k/q, so f(A) = (sum_k z_k d^(m-k) An^k) / (q d^m), by Horner's rule on An
    An, d = A.numer_denom()
    q = flint.fmpz(1)
    for c in cs:
        q = q.lcm(c.q)
    one = integer_identity(n)
    out, scale, m = flint.fmpz_mat(n, n), flint.fmpz(1), len(cs) - 1
    for c in reversed(cs):
        out = out * An + one * ((c * q).p * scale)
        scale *= d
    return flint.fmpq_mat(out) * flint.fmpq(1, q * d**m)


def mat_poly_apply(coeffs: Sequence[Exact], A: flint.fmpq_mat, X: flint.fmpq_mat) -> flint.fmpq_mat:
    """``f(A) X = c_0 X + c_1 A X + ... + c_k A^k X`` by Horner's rule on ``X``'s columns (``coeffs`` lowest degree
    first): ``n x n`` by ``n x m`` products instead of :func:`mat_poly`'s ``n x n`` ones, the same matrix as
    ``mat_poly(coeffs, A) * X``.

    >>> A, X = flint.fmpq_mat([[0, 1], [flint.fmpq(1, 2), flint.fmpq(1, 2)]]), flint.fmpq_mat([[1], [3]])
    >>> mat_poly_apply([2, -1, 1], A, X) == mat_poly([2, -1, 1], A) * X
    True
    """
    cs = [flint.fmpq(c) for c in coeffs]
    if not cs:
        return flint.fmpq_mat(A.nrows(), X.ncols())
    # in integers, as mat_poly: A = An/d, X = Xn/x, c_k = z_k/q, so f(A) X = (sum_k z_k d^(m-k) An^k Xn) / (q d^m x)
    An, d = A.numer_denom()
    Xn, x = X.numer_denom()
    q = flint.fmpz(1)
    for c in cs:
        q = q.lcm(c.q)
    out, scale, m = flint.fmpz_mat(A.nrows(), X.ncols()), flint.fmpz(1), len(cs) - 1
    for c in reversed(cs):
        out = An * out + Xn * ((c * q).p * scale)
        scale *= d
    return flint.fmpq_mat(out) * flint.fmpq(1, q * d**m * x)


def column(M: flint.fmpq_mat, j: int) -> list[flint.fmpq]:
    """Column ``j`` as a list."""
    return [M[i, j] for i in range(M.nrows())]


def columns_to_mat(cols: Sequence[Sequence[Exact]], n: int) -> flint.fmpq_mat:
    """An ``n x len(cols)`` matrix with the given columns."""
    M = flint.fmpq_mat(n, len(cols))
    for j, col in enumerate(cols):
        for i, x in enumerate(col):
            M[i, j] = x
    return M


def cyclotomic_part(charpoly: "flint.fmpq_poly | flint.fmpz_poly") -> tuple[list[int], list[int]]:
    """Cyclotomic factors of a characteristic polynomial: ``(with multiplicity, squarefree)``.

    A stochastic matrix's unimodular eigenvalues are roots of unity, so the
    peripheral generalized eigenspace is ``ker c(P)`` with ``c`` the product of
    the cyclotomic factors (with multiplicity); both are returned as integer
    coefficient lists, lowest degree first.

    Examples
    --------
    >>> x = flint.fmpz_poly([0, 1])
    >>> cyclotomic_part(flint.fmpq_poly((x - 1) ** 2 * (x + 1) * (2 * x - 1)))
    ([1, -1, -1, 1], [-1, 0, 1])
    """
    _, factors = integer_poly(charpoly).factor()
    full = flint.fmpz_poly([1])
    sqf = flint.fmpz_poly([1])
    for f, e in factors:
        if f.degree() >= 1 and f.is_cyclotomic():
            full *= f**e
            sqf *= f
    return [int(c) for c in full.coeffs()], [int(c) for c in sqf.coeffs()]


def integer_poly(poly: "flint.fmpq_poly | flint.fmpz_poly") -> flint.fmpz_poly:
    """A rational polynomial scaled to integer coefficients (same roots); integer ones unchanged.

    Examples
    --------
    >>> integer_poly(flint.fmpq_poly([flint.fmpq(1, 2), 1])).coeffs()
    [1, 2]
    """
    if isinstance(poly, flint.fmpz_poly):
        return poly
    d = poly.denom()
    return flint.fmpz_poly([int(c * d) for c in poly.coeffs()])


def col(v: Sequence[Exact]) -> flint.fmpq_mat:
    """A vector as an ``n x 1`` matrix."""
    return flint.fmpq_mat(len(v), 1, list(v))


def vec(M: flint.fmpq_mat) -> list[flint.fmpq]:
    """The first column of a matrix as a list."""
    return [M[i, 0] for i in range(M.nrows())]


def matvec(P: flint.fmpq_mat, v: Sequence[Exact]) -> list[flint.fmpq]:
    """``P v`` as a list."""
    return vec(P * col(v))


def in_span(basis: flint.fmpq_mat, v: Sequence[Exact]) -> bool:
    """Whether ``v`` lies in the column span of ``basis`` (exact ranks)."""
    if basis.ncols() == 0:
        return all(x == 0 for x in v)
    aug = flint.fmpq_mat([row + [v[i]] for i, row in enumerate(basis.tolist())])
    return rank(aug) == rank(basis)


def in_span_all(basis: flint.fmpq_mat, M: flint.fmpq_mat) -> bool:
    """Whether every column of ``M`` lies in the column span of ``basis``: ``rank [basis | M] = rank basis``."""
    if M.ncols() == 0:
        return True
    if basis.ncols() == 0:
        return M == flint.fmpq_mat(M.nrows(), M.ncols())
    return rank(join(basis, M)) == rank(basis)


def same_span(A: flint.fmpq_mat, B: flint.fmpq_mat) -> bool:
    """Whether two matrices have the same column span."""
    if A.ncols() == 0 or B.ncols() == 0:
        return A.ncols() == B.ncols() == 0 or rank(A) == rank(B) == 0
    return rank(A) == rank(B) == rank(_side_by_side(A, B, A.nrows()))


def random_vector(rng: random.Random, n: int, *, bound: int = 9) -> list[flint.fmpq]:
    """An exact random vector with small numerators and denominators: numerator and denominator of each entry
    drawn as ``rng.randint(-bound, bound)`` and ``rng.randint(1, 4)`` draw them (the same values from the same
    seed, :func:`random_integers`)."""
    getrandbits, span = rng.getrandbits, 2 * bound + 1
    bits = span.bit_length()
    out, fractions = [], _FRACTIONS
    for _ in range(n):  # numerator first, as fmpq(choice(nums), choice(dens)) drew them (random_integers' draws, inlined)
        r = getrandbits(bits)
        while r >= span:
            r = getrandbits(bits)
        d = getrandbits(3)  # 4 denominators: 3 bits, as (4).bit_length()
        while d >= 4:
            d = getrandbits(3)
        key = (r - bound, d + 1)
        x = fractions.get(key)
        if x is None:  # fmpq(p, q) costs about 0.4 us: each small fraction is built once (fmpq is immutable)
            x = fractions[key] = flint.fmpq(*key)
        out.append(x)
    return out


def random_integers(rng: random.Random, low: int, high: int, k: int) -> list[int]:
    """``k`` draws of ``rng.randint(low, high)`` (equivalently ``rng.choice(range(low, high + 1))``): the same values
    from the same seed, without ``randint``'s Python frames (:func:`exactpte.model.random_chains.randint_of`)."""
    draw = randint_of(rng)
    return [draw(low, high) for _ in range(k)]


def subtract_scaled(out: dict[int, flint.fmpq], x: Exact, column: Mapping[int, Exact]) -> None:
    """``out -= x * column`` in place on sparse vectors (``{index: value}``), entries that become zero removed.

    >>> out = {0: flint.fmpq(1), 1: flint.fmpq(2)}
    >>> subtract_scaled(out, 2, {1: flint.fmpq(1), 2: flint.fmpq(1, 2)})
    >>> out
    {0: 1, 2: -1}
    """
    for s, y in column.items():
        z = out.get(s, 0) - x * y
        if z:
            out[s] = cast(flint.fmpq, z)  # fmpq arithmetic with an int or fmpz factor stays fmpq
        else:
            out.pop(s, None)


# Ordering exact rationals through their doubles.  An ``fmpq`` order comparison costs about 0.6 us (an equality
# 0.15 us, ``float(x)`` 0.07 us): the helpers below compare the correctly rounded doubles first (``float(fmpq)`` is
# Python's ``int(p) / int(q)``) and fall back to the exact comparison only where two doubles are equal.  Rounding to
# nearest is monotone (``x <= y`` implies ``fl(x) <= fl(y)``), so ``fl(x) < fl(y)`` implies ``x < y``: every answer
# is the exact one.  A value past the double range (``OverflowError``) sends the whole call to the exact comparisons.


_E = TypeVar("_E", flint.fmpq, flint.fmpz, int)


def _doubles(values: Sequence[Exact]) -> list[float] | None:
    try:
        return [float(x) for x in values]
    except OverflowError:
        return None


def exact_max(values: Sequence[_E]) -> _E:
    """``max(values)`` (the first maximal entry) decided by doubles where they differ and exactly where they tie.

    >>> exact_max([flint.fmpq(1, 3), flint.fmpq(10**30 + 1, 3 * 10**30), flint.fmpq(-2)])
    1000000000000000000000000000001/3000000000000000000000000000000
    """
    fl = _doubles(values)
    if fl is None or not fl:
        return max(values)
    top = max(fl)
    best: _E | None = None
    for x, f in zip(values, fl):
        if f == top and (best is None or x > best):  # only values whose double ties the largest can be the max
            best = x
    assert best is not None  # some value's double is the largest
    return best


def argmax(values: Sequence[Exact], indices: Sequence[int]) -> int:
    """The first ``i`` of ``indices`` with ``values[i]`` maximal (``max(indices, key=values.__getitem__)``).

    >>> argmax([flint.fmpq(1, 3), flint.fmpq(1, 2), flint.fmpq(1, 2)], [0, 1, 2])
    1
    """
    picked = [values[i] for i in indices]
    fl = _doubles(picked)
    if fl is None:
        return max(indices, key=values.__getitem__)
    top = max(fl)
    best = -1
    for i, x, f in zip(indices, picked, fl):
        if f == top and (best < 0 or x > values[best]):
            best = i
    return best


def all_nonnegative(values: Sequence[Exact]) -> bool:
    """Whether every value is ``>= 0``: a negative double means a negative value; a zero double (``0``, or a value
    below the double range) is decided exactly.

    >>> all_nonnegative([flint.fmpq(1, 3), 0]), all_nonnegative([flint.fmpq(-1, 10**400)])
    (True, False)
    """
    fl = _doubles(values)
    if fl is None:
        return all(x >= 0 for x in values)
    return all(f > 0 or (f == 0 and (not x or x > 0)) for x, f in zip(values, fl))


def greater(x: Exact, y: Exact) -> bool:
    """``x > y``, by the doubles unless they are equal.

    >>> greater(flint.fmpq(10**30 + 1, 10**30), 1), greater(flint.fmpq(1, 3), flint.fmpq(1, 2))
    (True, False)
    """
    try:
        fx, fy = float(x), float(y)
    except OverflowError:
        return bool(x > y)
    return fx > fy if fx != fy else bool(x > y)


def norm_inf(v: Sequence[flint.fmpq]) -> flint.fmpq:
    """``max |v_s|`` (0 for an empty vector), ordered through the doubles (:func:`exact_max`)."""
    return exact_max([abs(x) for x in v]) if len(v) else flint.fmpq(0)


def column_norms_inf(M: flint.fmpq_mat) -> list[flint.fmpq]:
    """``max_s |M[s, j]|`` for every column ``j`` (0 for no rows), read off the integer numerators over the common
    denominator (the same values as :func:`norm_inf` of each column, without an ``fmpq`` per entry).

    >>> column_norms_inf(flint.fmpq_mat([[1, flint.fmpq(-3, 2)], [flint.fmpq(-1, 3), 0]]))
    [1, 3/2]
    """
    Z, d = M.numer_denom()
    return [flint.fmpq(max(map(abs, col), default=0), d) for col in Z.transpose().tolist()]


def row_l1(M: flint.fmpq_mat) -> list[flint.fmpq]:
    """``sum_j |M[s, j]|`` for every row ``s``, read off the integer numerators over the common denominator.

    >>> row_l1(flint.fmpq_mat([[1, flint.fmpq(-3, 2)], [flint.fmpq(-1, 3), 0]]))
    [5/2, 1/3]
    """
    Z, d = M.numer_denom()
    return [flint.fmpq(sum(map(abs, row)), d) for row in Z.tolist()]


def join(A: flint.fmpq_mat, B: flint.fmpq_mat) -> flint.fmpq_mat:
    """``[A | B]`` (same number of rows)."""
    n = max(A.nrows(), B.nrows())
    return _side_by_side(A, B, n) if A.ncols() + B.ncols() else flint.fmpq_mat(n, 0)


_PLACEMENTS: dict[tuple[int, int, int], flint.fmpq_mat] = {}


def _placement(k: int, at: int, width: int) -> flint.fmpq_mat:
    """The ``k x width`` 0/1 matrix putting ``k`` columns at columns ``at..at+k-1`` (built once; only multiplied)."""
    E = _PLACEMENTS.get((k, at, width))
    if E is None:
        E = flint.fmpq_mat(k, width)
        for i in range(k):
            E[i, at + i] = 1
        _PLACEMENTS[(k, at, width)] = E
    return E


def _side_by_side(A: flint.fmpq_mat, B: flint.fmpq_mat, rows: int) -> flint.fmpq_mat:
    """The first ``rows`` rows of ``[A | B]`` (an ``IndexError`` when either has fewer).

    Two products with 0/1 placement matrices, ``A [I 0] + B [0 I]``, in flint (reading both matrices out entry by entry
    and building the result from lists costs about twice as much)."""
    a, b = A.ncols(), B.ncols()
    if A.nrows() == B.nrows() == rows:
        if not b:
            return flint.fmpq_mat(A)
        if not a:
            return flint.fmpq_mat(B)
        return A * _placement(a, 0, a + b) + B * _placement(b, a, a + b)
    ra, rb = A.tolist(), B.tolist()
    if len(ra) < rows or len(rb) < rows:
        raise IndexError(f"[A | B] needs {rows} rows, A has {len(ra)} and B {len(rb)}")
    return flint.fmpq_mat([x + y for x, y in zip(ra[:rows], rb[:rows])])


def columns(A: flint.fmpq_mat, keep: Sequence[int]) -> flint.fmpq_mat:
    """The columns ``keep`` of ``A`` (``A`` times a 0/1 selection matrix).

    >>> columns(flint.fmpq_mat([[1, 2, 3], [4, 5, 6]]), [2, 0]).tolist()
    [[3, 1], [6, 4]]
    """
    if not keep:
        return flint.fmpq_mat(A.nrows(), 0)
    S = flint.fmpq_mat(A.ncols(), len(keep))
    for t, j in enumerate(keep):
        S[j, t] = 1
    return A * S


def column_basis(A: flint.fmpq_mat) -> flint.fmpq_mat:
    """A full-column-rank matrix with the column span of ``A`` (its pivot columns)."""
    if A.ncols() == 0:
        return A
    R, rk = A.rref()
    return columns(A, pivot_columns(R, rk))


def intersect(A: flint.fmpq_mat, B: flint.fmpq_mat) -> flint.fmpq_mat:
    """A basis of ``span A ∩ span B``: ``A x`` for ``x`` in the first block of ``ker [A | -B]``."""
    if A.ncols() == 0 or B.ncols() == 0:
        return flint.fmpq_mat(A.nrows(), 0)
    Z = nullspace(join(A, -B))
    X = flint.fmpq_mat([[Z[i, j] for j in range(Z.ncols())] for i in range(A.ncols())]) if Z.ncols() else flint.fmpq_mat(A.ncols(), 0)
    return column_basis(A * X) if Z.ncols() else flint.fmpq_mat(A.nrows(), 0)


MODULAR_PRIMES = (2**61 - 1, 2**31 - 1, 4294967291)
"""Primes for modular ranks (word-sized: flint's ``nmod_mat``)."""


def modular(M: flint.fmpq_mat, p: int) -> flint.nmod_mat | None:
    """``M`` reduced mod the prime ``p`` (after clearing its common denominator, a nonzero scalar that changes no
    rank), or ``None`` when ``p`` divides that denominator."""
    Z, d = M.numer_denom()
    if int(d) % p == 0:
        return None
    return flint.nmod_mat(Z, p)


def rank_lower_bound(M: flint.fmpq_mat, *, primes: Sequence[int] = MODULAR_PRIMES[:2]) -> int:
    """The largest ``rank(M mod p)`` over ``primes``: a lower bound on ``rank(M)`` over ``Q`` (a minor that is
    nonzero mod ``p`` is nonzero), equal to it for all but finitely many primes.  Exact conclusions follow when the
    bound meets an upper bound (e.g. full rank: ``M`` is nonsingular).

    >>> rank_lower_bound(flint.fmpq_mat([[1, flint.fmpq(1, 2)], [2, 1]])), rank_lower_bound(identity(3))
    (1, 3)
    """
    best = 0
    for p in primes:
        R = modular(M, p)
        if R is not None:
            best = max(best, R.rank())
            if best == min(M.nrows(), M.ncols()):
                break
    return best
