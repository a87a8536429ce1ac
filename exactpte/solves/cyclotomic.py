"""Phase systems by the cyclotomic splitting of ``z^d - 1``: the phase basis of periodic classes
through ``Q`` itself (degree 1 in the entries), one small system per divisor of the period.

The phase system of ``b_{i,k}`` (``def:main_b``) couples the phases ``k mod d``:
``x_k = Q x_{k+1} + c_k`` on the transient states.  Its generating function
``X(z) = sum_k x_k z^k`` solves ``(z I - Q) X = z C(z)`` in ``V ⊗ QQ[z]/(z^d - 1)``, and
``QQ[z]/(z^d - 1)`` splits into the fields ``QQ(ζ_m) = QQ[z]/Φ_m(z)``, ``m | d``.  So the phases
decouple into one system a divisor ``m``:

    ``(ζ_m I - Q) X_m = sum over edges s -> y into class i of P(s, y) ζ_m^(phase(y))``,

of ``φ(m) |T|`` rational unknowns (the coordinates of ``X_m`` on ``1, ζ, .., ζ^(φ(m)-1)``),
with entries of degree 1, solved block by block on the transient SCCs (downstream first).
``m = 1`` is the absorbing system of ``α_i`` itself, and the phases come back by the inverse
discrete Fourier transform, grouped by the order of the root (a trace):

    ``b_{i,k} = (α_i + sum_{m | d, m > 1} Tr(ζ_m^(-k) X_{m,i})) / d``.

Why it pays over ``QQ(params)``: the determinant of ``X_m``'s system is ``det Φ_m(Q)`` (the
factor of ``det(I - Q^d)`` that belongs to ``m``), so answers come out with the denominators they
keep, where a solve through ``Q^d`` carries all of ``det(I - Q^d)`` and then cancels most of it
with large gcds.  Sums ``sum w b`` over the basis (``g*``, ``ψ``) are taken on the components,
where a weight vector without an ``m``-th frequency leaves ``det Φ_m(Q)`` out altogether.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import flint

from exactpte.model.chain import Chain
from exactpte.fields import Field
from exactpte.graph.order import band_order
from exactpte.graph.structure import Structure

__all__ = ["in_band_order", "Component", "phase_spectrum", "basis_rows", "weighted_sums", "basis_parts", "weighted_parts", "sum_parts", "Part"]


class Component(NamedTuple):
    """``X_{m,i}`` on the transient states as numerators: ``coordinate j of X_{m,i}(s) =
    nums[s][i][j] / den[s]``, one denominator object per block solve (shared by its states, so
    sums over many states meet the same pairs of denominators)."""

    nums: dict[int, dict[int, list[Any]]]
    den: dict[int, Any]

    def value(self, field: Field[Any], s: int, i: int) -> list[Any]:
        """The coordinates of ``X_{m,i}(s)`` as field elements (empty where ``X_{m,i}(s) = 0``)."""
        coords = self.nums.get(s, {}).get(i)
        return [field.fraction(x, self.den[s]) for x in coords] if coords is not None else []


Spectrum = dict[int, Component]
"""``spectrum[m]``: the component of every divisor ``m`` (``1`` included) of a period ``> 1``."""


def in_band_order(chain: Chain, scc: Sequence[int]) -> Sequence[int]:
    """A transient block's states in :func:`~exactpte.graph.order.band_order` (blocks of one or two
    states as they are): the order its dense solves eliminate in.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> m = MarkovRewardProcess([[0, "1/2", 0, "1/2", 0], ["1/2", 0, 0, 0, "1/2"], [0, 0, 0, "1/2", "1/2"],
    ...                          ["1/2", 0, "1/2", 0, 0], [0, 0, 0, 0, 1]], [0, 0, 0, 0, 0])
    >>> in_band_order(m, m.structure.transient_sccs[0])     # the path 1 - 0 - 3 - 2, end to end
    [2, 3, 0, 1]
    """
    return scc if len(scc) < 3 else band_order(scc, lambda s: (j for j, _ in chain.row(s)))


@lru_cache(maxsize=None)
def _root_of_unity(m: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``(companion, powers, traces)`` of ``ζ_m``: the integer matrix of multiplication by ``ζ_m`` on
    the coordinates, the coordinates of ``ζ_m^k`` for ``k < m``, and ``Tr(ζ_m^k)`` (Ramanujan sums).

    Examples
    --------
    >>> _root_of_unity(4)[2]      # Tr(i^k) over QQ(i): 2, 0, -2, 0
    (2, 0, -2, 0)
    >>> _root_of_unity(1)         # m = 1: ζ = 1, the absorbing system itself
    (((1,),), ((1,),), (1,))
    """
    phi = [int(c) for c in flint.fmpz_poly.cyclotomic(m).coeffs()]
    n = len(phi) - 1
    companion = [[0] * n for _ in range(n)]
    for j in range(n - 1):
        companion[j + 1][j] = 1
    for r in range(n):
        companion[r][n - 1] = -phi[r]
    powers = [[1] + [0] * (n - 1)]
    for _ in range(1, m):
        prev = powers[-1]
        powers.append([sum(companion[r][j] * prev[j] for j in range(n)) for r in range(n)])
    # Tr(ζ^k) = trace of the companion matrix's k-th power = sum_j (coordinate j of ζ^(k+j))
    traces = tuple(sum(powers[(k + j) % m][j] for j in range(n)) for k in range(m))
    return tuple(map(tuple, companion)), tuple(map(tuple, powers)), traces


def _divisors(d: int) -> list[int]:
    return [m for m in range(1, d + 1) if d % m == 0]


def phase_spectrum(chain: Chain, structure: Structure) -> Spectrum:
    """``X_{m,i}`` on the transient states for every class ``i`` of period ``d_i > 1`` and every
    divisor ``m`` of ``d_i``: one system a divisor, the classes as its right-hand sides
    (``m = 1``: the absorption probabilities ``α_i``).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> m = MarkovRewardProcess([["1/2", "1/2", 0], [0, 0, 1], [0, 1, 0]], [0, 0, 0])
    >>> spectrum = phase_spectrum(m, m.structure)
    >>> spectrum[1].value(m.field, 0, 0)     # m = 1: α = 1
    [1]
    >>> spectrum[2].value(m.field, 0, 0)     # m = 2, ζ = -1: (ζ - 1/2) X = ζ^0 / 2, so X = -1/3
    [-1/3]
    """
    S = structure
    orders = sorted({m for d in S.periods if d > 1 for m in _divisors(d)})
    return {m: _solve_order(chain, S, m, [i for i, d in enumerate(S.periods) if d > 1 and d % m == 0]) for m in orders}


def _solve_order(chain: Chain, S: Structure, m: int, classes: list[int]) -> Component:
    """The ``m``-th system, SCC by SCC downstream first (what flows to solved states moves to the
    right-hand side), each block over its own common denominator."""
    field = chain.field
    companion, _, _ = _root_of_unity(m)
    n = len(companion)
    out = Component({}, {})
    for scc in map(lambda block: in_band_order(chain, block), S.transient_sccs):
        size = len(scc)
        A = field.zeros(n * size, n * size)
        for r in range(n):  # ζ I: coordinate r of ζ x takes companion[r][c] times coordinate c
            for c in range(n):
                if companion[r][c]:
                    for a in range(size):
                        A[a * n + r, a * n + c] += companion[r][c]
        rhs = _block(chain, S, scc, m, classes, A, out)
        if not any(v != 0 for row in rhs for v in row):
            continue
        nums, den = field.solve_split(A, field.matrix(rhs, len(classes)))
        for a, s in enumerate(scc):
            vec = {i: [nums[a * n + r][c] for r in range(n)] for c, i in enumerate(classes)}
            vec = {i: coords for i, coords in vec.items() if any(x != 0 for x in coords)}
            if vec:
                out.nums[s], out.den[s] = vec, den
    return out


def _block(chain: Chain, S: Structure, scc: Sequence[int], m: int, classes: list[int], A: Any, solved: Component) -> list[list[Any]]:
    """``-Q_SS`` into ``A`` and the right-hand side of the block: edges into the classes
    (``P(s, y) ζ^phase(y)``) and into solved transient states (``Q(s, y) X(y)``), by coordinate.
    Coordinate ``r`` of state ``a`` is unknown ``a n + r``: a state's coordinates side by side keep
    ``Q``'s band (5x faster elimination than coordinate blocks on a 30-state transient chain)."""
    field = chain.field
    _, powers, _ = _root_of_unity(m)
    n, size = len(powers[0]), len(scc)
    pos = {s: a for a, s in enumerate(scc)}
    column = {i: c for c, i in enumerate(classes)}
    rhs = [[field.zero] * len(classes) for _ in range(n * size)]
    for a, s in enumerate(scc):
        for y, q in chain.row(s):
            b = pos.get(y)
            if b is not None:
                for r in range(n):
                    A[a * n + r, b * n + r] -= q
                continue
            i = S.class_of[y]
            if i >= 0 and i in column:
                zeta_k = powers[S.phase_of[y] % m]
                for r in range(n):
                    if zeta_k[r]:
                        rhs[a * n + r][column[i]] += q * zeta_k[r]
            elif i < 0 and y in solved.nums:
                for i2 in solved.nums[y]:
                    for r, x in enumerate(solved.value(field, y, i2)):
                        rhs[a * n + r][column[i2]] += q * x
    return rhs


def _trace_coefficients(m: int, k: int) -> list[int]:
    """``Tr(ζ_m^(-k) x) = sum_j x_j Tr(ζ_m^(j-k))``: the integer weights of the coordinates ``x_j``."""
    _, powers, traces = _root_of_unity(m)
    return [traces[(j - k) % m] for j in range(len(powers[0]))]


def basis_rows(field: Field[Any], structure: Structure, spectrum: Spectrum) -> dict[int, dict[int, Any]]:
    """``{s: {column: b_{i,k}(s)}}`` for the periodic classes, ``sum_{m | d_i} Tr(ζ_m^(-k) X_{m,i}) / d_i``.

    Per state and class the coordinates are brought to the lcm of their blocks' denominators once
    (``φ(m)`` products a divisor); each phase is then an integer combination of those numerators,
    cancelled once (``def:main_b``).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> from exactpte.solves.absorption import phase_offset_basis
    >>> ch = MarkovRewardProcess([["1/2", "1/4", "1/4", 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 1, 0, 0]], [0, 0, 0, 0])
    >>> S = ch.structure
    >>> rows = basis_rows(ch.field, S, phase_spectrum(ch, S))
    >>> rows[0] == phase_offset_basis(ch, S)[0], sum(rows[0].values())   # the phase system's answer; phases sum to α = 1
    (True, 1)
    """
    S = structure
    out: dict[int, dict[int, Any]] = {s: {} for s in S.transient}
    periodic = [(i, d, _divisors(d)) for i, d in enumerate(S.periods) if d > 1]
    for s in S.transient:
        for i, d, divisors in periodic:
            parts = [(m, spectrum[m]) for m in divisors if i in spectrum[m].nums.get(s, {})]
            if not parts:
                continue
            cofactors, lcm = field.cofactors([component.den[s] for _, component in parts])
            scaled = [(m, [x * cof for x in component.nums[s][i]]) for (m, component), cof in zip(parts, cofactors)]
            den = lcm * d
            for k in range(d):
                num = _dot([(t, x) for m, coords in scaled for t, x in zip(_trace_coefficients(m, k), coords)])
                if num is not None:
                    value = field.fraction(num, den)
                    if value != 0:
                        out[s][S.column_of[(i, k)]] = value
    return out


Part = tuple[Any, Any]
"""``(num, den)``: ring elements, one term ``num / den`` of a sum of parts (not reduced)."""


def basis_parts(structure: Structure, spectrum: Spectrum) -> dict[int, dict[int, list[Part]]]:
    """``{s: {column: parts}}`` for the periodic classes: :func:`basis_rows`' entries before the parts
    are brought over one denominator, ``b_{i,k}(s) = sum_m (sum_j Tr(ζ_m^(j-k)) X_{m,i}^(j)(s)) / (d_i den_m(s))``,
    one part a divisor ``m`` of ``d_i`` over its own block denominator (``det Φ_m(Q)``'s share):
    the sum's terms are far smaller than the sum brought to one denominator.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> ch = MarkovRewardProcess([["1/2", "1/4", "1/4", 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 1, 0, 0]], [0, 0, 0, 0])
    >>> S, F = ch.structure, ch.field
    >>> spectrum = phase_spectrum(ch, S)
    >>> rows, parts = basis_rows(F, S, spectrum), basis_parts(S, spectrum)
    >>> all(sum((F.fraction(n, d) for n, d in parts[0][c]), F.zero) == v for c, v in rows[0].items())
    True
    """
    S = structure
    out: dict[int, dict[int, list[Part]]] = {s: {} for s in S.transient}
    periodic = [(i, d, _divisors(d)) for i, d in enumerate(S.periods) if d > 1]
    for s in S.transient:
        for i, d, divisors in periodic:
            held = [(m, spectrum[m]) for m in divisors if i in spectrum[m].nums.get(s, {})]
            for k in range(d):
                parts = []
                for m, component in held:
                    num = _dot(list(zip(_trace_coefficients(m, k), component.nums[s][i])))
                    if num is not None and num != 0:
                        parts.append((num, component.den[s] * d))
                if parts:
                    out[s][S.column_of[(i, k)]] = parts
    return out


def _dot(terms: Sequence[tuple[Any, Any]]) -> Any:
    """``sum w x`` over the pairs whose weight is nonzero (``None`` when there is none)."""
    total = None
    for w, x in terms:
        if w == 1:  # traces are small integers: no product for a weight of 1 or -1
            total = x if total is None else total + x
        elif w == -1:
            total = -x if total is None else total - x
        elif w != 0:
            total = w * x if total is None else total + w * x
    return total


def weighted_sums(field: Field[Any], structure: Structure, spectrum: Spectrum, weights: Sequence[Sequence[Any]]) -> list[dict[int, Any]]:
    """``{s: sum_{i,k} w[i,k] b_{i,k}(s)}`` on ``T`` for weight vectors over the basis columns (entries
    on aperiodic classes not read): by the inverse transform,
    ``sum_k w_k b_k = sum_m sum_j X_m^(j) (sum_k w_k Tr(ζ_m^(j-k))) / d``, a divisor whose weights
    vanish (a frequency the weights lack) left out, so its determinant never enters.

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> from exactpte.solves.absorption import phase_offset_basis
    >>> ch = MarkovRewardProcess([["1/2", "1/4", "1/4"], [0, 0, 1], [0, 1, 0]], [0, 0, 0])
    >>> S = ch.structure
    >>> B, w = phase_offset_basis(ch, S)[0], [1, -1]
    >>> weighted_sums(ch.field, S, phase_spectrum(ch, S), [w])[0][0] == B[0] - B[1]
    True
    """
    return [{s: sum_parts(field, parts) for s, parts in parts_of.items()} for parts_of in weighted_parts(field, structure, spectrum, weights)]


def sum_parts(field: Field[Any], parts: Sequence[Part]) -> Any:
    """``sum num / den`` over the parts (:data:`Part`), brought over the lcm of their denominators and cancelled
    once (zero when there is none)."""
    if not parts:
        return field.zero
    cofactors, lcm = field.cofactors([den for _, den in parts])
    return field.fraction(_dot(list(zip(cofactors, (num for num, _ in parts)))), lcm)


def weighted_parts(field: Field[Any], structure: Structure, spectrum: Spectrum,
                   weights: Sequence[Sequence[Any]]) -> list[dict[int, list[Part]]]:
    """:func:`weighted_sums` before the parts are brought over one denominator: ``{s: [(num, den), ...]}``,
    one part a divisor ``m`` (``sum_j X_m^(j) c_{m,j}`` over ``den_w den_m(s)``; none where the sum is 0)."""
    out: list[dict[int, list[Part]]] = []
    for w in weights:
        by_order = _transformed_weights(field, structure, w)
        acc: dict[int, list[Part]] = {}
        # den_w times a block's denominator, one object a block (cofactors remembers gcds by the objects' identity)
        scaled_dens: dict[tuple[int, int], Any] = {}
        for s in structure.transient:
            parts = []
            for m, (cnums, den_w) in by_order.items():
                held = spectrum[m].nums.get(s)
                if held:
                    total = _dot([(c, held[i][j]) for (i, j), c in cnums.items() if i in held])
                    if total is not None:
                        den = spectrum[m].den[s]
                        if (m, id(den)) not in scaled_dens:
                            scaled_dens[m, id(den)] = den_w * den
                        parts.append((total, scaled_dens[m, id(den)]))
            acc[s] = parts
        out.append(acc)
    return out


def _transformed_weights(field: Field[Any], S: Structure, w: Sequence[Any]) -> dict[int, tuple[dict[tuple[int, int], Any], Any]]:
    """Per divisor ``m``: ``{(i, j): numerator of c_{m,i,j}}`` over one denominator, with
    ``c_{m,i,j} = sum_k w[i,k] Tr(ζ_m^(j-k)) / d_i`` (zero coefficients and divisors left out)."""
    coeffs: dict[int, dict[tuple[int, int], Any]] = {}
    for i, d in enumerate(S.periods):
        if d == 1:
            continue
        ws = [w[S.column_of[(i, k)]] for k in range(d)]
        for m in _divisors(d):
            traces = [_trace_coefficients(m, k) for k in range(d)]
            for j in range(len(traces[0])):
                c = sum((wk * t[j] for wk, t in zip(ws, traces) if t[j]), field.zero) / d
                if c != 0:
                    coeffs.setdefault(m, {})[(i, j)] = c
    out = {}
    for m, cm in coeffs.items():
        nums, den = field.split(list(cm.values()))
        out[m] = (dict(zip(cm, nums)), den)
    return out
