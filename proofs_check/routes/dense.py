"""Independent routes to the objects the checks need (see docs/theory-map.md).

Nothing here calls exactpte's solvers: ``K(P)`` comes from the characteristic
polynomial's cyclotomic factors (structure-free), ``P∞`` is the spectral
projector onto ``ker(I - P)`` along ``range(I - P)``, ``h`` comes from the
deviation matrix.  Dense and cubic: meant for the small chains of a sweep.
"""

from __future__ import annotations

from functools import cached_property
from collections.abc import Sequence
from math import lcm

import flint

from exactpte import MarkovRewardProcess
from exactpte.errors import RouteTooLargeError

from proofs_check.algebra.graph import SupportGraph
from proofs_check.algebra.linalg import column_basis, identity, integer_poly, mat_poly, nullspace, rank

__all__ = ["Routes", "RouteTooLargeError", "DENSE_LIMIT", "HORIZON_BITS"]


DENSE_LIMIT = 1500
"""Largest chain the dense routes take by default: past it a check that needs them is "not checked"
(a named :class:`RouteTooLargeError`), never a multi-gigabyte allocation that could abort the process."""


HORIZON_BITS = 20_000
"""Budget of the checks on horizons (``P^T``, ``J_T``, the stability recursions): ``T`` times the largest entry
height in bits.  Real models' entries have tens of bits; a chain of 300-digit entries exceeds it at ``T = 10``."""


class Routes:
    """Lazily computed independent objects for one chain.

    Dense routes (``P``, ``P^T``, ``K``, ``P∞``, ``h``) refuse chains of more than ``max_dense``
    states with :class:`RouteTooLargeError` before allocating anything; the support graph is
    always available.
    """

    def __init__(self, chain: MarkovRewardProcess, *, max_dense: int = DENSE_LIMIT) -> None:
        self.chain = chain
        self.n = chain.n
        self.max_dense = max_dense
        self._powers: dict[int, flint.fmpq_mat] = {}
        self._kernels_of_power: dict[int, flint.fmpq_mat] = {}
        self._returns: dict[int, flint.fmpq_mat] = {}
        self._orbit: tuple[int, flint.fmpq_mat, flint.fmpq_mat] | None = None  # (t, sum_{s<t} P^s r, P^t r)

    @cached_property
    def graph(self) -> SupportGraph:
        """The support graph with its own SCC and period code (:mod:`proofs_check.algebra.graph`)."""
        return SupportGraph.of(self.chain)

    def require_dense(self) -> None:
        """Raise :class:`RouteTooLargeError` when the chain is past ``max_dense`` (before any dense work)."""
        if self.n > self.max_dense:
            gb = self.n * self.n * 48 / 1e9  # one n x n fmpq matrix of small entries; the routes hold several, growing
            raise RouteTooLargeError(
                f"not checked: the dense independent route needs n x n exact matrices (n = {self.n}, at least "
                f"{gb:.1f} GB each, and their powers and characteristic polynomial grow far beyond); the limit is "
                f"{self.max_dense} states (raise it with --max-dense)")

    @cached_property
    def P(self) -> flint.fmpq_mat:
        """``P`` as a dense exact matrix (refused past ``max_dense`` states)."""
        self.require_dense()
        return self.chain.to_fmpq_mat()

    @cached_property
    def r(self) -> flint.fmpq_mat:
        """``r`` as an exact column."""
        return flint.fmpq_mat(self.n, 1, list(self.chain.r))

    @cached_property
    def I(self) -> flint.fmpq_mat:
        """The identity (refused past ``max_dense`` states)."""
        self.require_dense()
        return identity(self.n)

    @cached_property
    def charpoly(self) -> flint.fmpq_poly:
        """The characteristic polynomial of ``P``."""
        return self.P.charpoly()

    @cached_property
    def cyclotomic(self) -> tuple[list[int], list[int]]:
        """Cyclotomic part of the characteristic polynomial (with multiplicity, squarefree), as
        :func:`~proofs_check.algebra.linalg.cyclotomic_part` gives it, from the one factorization :attr:`charpoly_factors`."""
        full, sqf = flint.fmpz_poly([1]), flint.fmpz_poly([1])
        for f, e in self.charpoly_factors:
            if f.degree() >= 1 and f.is_cyclotomic():
                full *= f**e
                sqf *= f
        return [int(c) for c in full.coeffs()], [int(c) for c in sqf.coeffs()]

    @cached_property
    def charpoly_factors(self) -> list[tuple[flint.fmpz_poly, int]]:
        """The irreducible factors of the characteristic polynomial (scaled to integers) with multiplicities."""
        return list(integer_poly(self.charpoly).factor()[1])

    @cached_property
    def cyclotomic_full(self) -> flint.fmpz_poly:
        """The cyclotomic part of the characteristic polynomial, with multiplicity, as a polynomial."""
        return flint.fmpz_poly(self.cyclotomic[0])

    @property
    def cyclotomic_degree(self) -> int:
        """``dim K(P)``: the degree of the cyclotomic part of the characteristic polynomial (``rem:peripheral_semisimple``)."""
        return len(self.cyclotomic[0]) - 1

    def K_basis_of(self, A: flint.fmpq_mat) -> flint.fmpq_mat:
        """A full-column-rank basis of the column span of ``A``."""
        return column_basis(A)

    @cached_property
    def K(self) -> flint.fmpq_mat:
        """Basis (columns) of the peripheral subspace ``ker c(P)``, ``c`` = cyclotomic part of charpoly."""
        return nullspace(mat_poly(self.cyclotomic[0], self.P))

    @cached_property
    def K_semisimple(self) -> flint.fmpq_mat:
        """``ker c_sqf(P)`` with the squarefree cyclotomic part: the peripheral eigenvectors only."""
        return nullspace(mat_poly(self.cyclotomic[1], self.P))

    def K_power(self, periods: Sequence[int]) -> flint.fmpq_mat:
        """``ker(P^D - I)`` with ``D`` the lcm of ``periods``, computed once per ``D`` (two checks ask for it); a copy
        each call, as a caller may change its matrix."""
        D = lcm(*periods) if periods else 1
        if D not in self._kernels_of_power:
            self._kernels_of_power[D] = nullspace(self.P_pow(D) - self.I)
        return flint.fmpq_mat(self._kernels_of_power[D])

    @cached_property
    def entry_bits(self) -> int:
        """The largest height (bits of numerator plus denominator) of an entry of ``P`` or ``r``."""
        return max((int(q.p).bit_length() + int(q.q).bit_length() for q in (*self.chain.r, *(x for _, _, x in self.chain.edges()))),
                   default=1)

    def require_horizon(self, T: int) -> None:
        """Raise :class:`RouteTooLargeError` ("not checked") when ``T`` exact steps of ``P`` would carry numbers past
        :data:`HORIZON_BITS` (about ``T`` times the entries' height): 300-digit entries at ``T = 20`` would take
        minutes per matrix power, so the checks on horizons say so instead of hanging."""
        if T * self.entry_bits > HORIZON_BITS:
            raise RouteTooLargeError(
                f"not checked: {T} exact steps of P would carry numbers of about {T * self.entry_bits} bits "
                f"(entries of up to {self.entry_bits} bits); the limit is {HORIZON_BITS} bits")

    def P_pow(self, T: int) -> flint.fmpq_mat:
        """``P^T`` by repeated squaring of ``P``'s integer numerator, computed once per ``T`` (several checks ask for the
        same horizons)."""
        self.require_horizon(T)
        if T not in self._powers:
            Pn, p = self.P.numer_denom()  # P^T = Pn^T / p^T: the power in integers (flint squares), one division
            self._powers[T] = flint.fmpq_mat(Pn**T) * flint.fmpq(1, p**T)
        return self._powers[T]

    @cached_property
    def invariant(self) -> flint.fmpq_mat:
        """Basis of ``ker(I - P)``."""
        return nullspace(self.I - self.P)

    @cached_property
    def P_inf(self) -> flint.fmpq_mat:
        """Spectral projector for eigenvalue 1: ``R (L R)^{-1} L`` with ``R``, ``L`` right/left null bases of ``I - P``."""
        R = self.invariant
        L = nullspace((self.I - self.P).transpose()).transpose()
        return R * (L * R).inv() * L

    @cached_property
    def rho(self) -> flint.fmpq_mat:
        """``ρ = P∞ r`` with the spectral projector."""
        return self.P_inf * self.r

    @cached_property
    def h(self) -> flint.fmpq_mat:
        """Deviation-matrix route: ``h = (I - P + P∞)^{-1} (I - P∞) r``."""
        Z = self.I - self.P + self.P_inf
        return Z.solve((self.I - self.P_inf) * self.r)

    def anchor_basis(self, anchors: list[int]) -> flint.fmpq_mat | None:
        """``B = Kmat (Kmat[anchors, :])^{-1}``, or ``None`` when ``Kmat[anchors, :]`` is singular or not square."""
        K = self.K
        if K.ncols() != len(anchors):
            return None
        A = flint.fmpq_mat([[K[a, j] for j in range(K.ncols())] for a in anchors]) if anchors else flint.fmpq_mat(0, 0)
        if rank(A) < len(anchors):
            return None
        return K * A.inv() if anchors else K

    def returns(self, T: int) -> flint.fmpq_mat:
        """``J_T = sum_{t<T} P^t r`` by repeated multiplication (independent of exactpte's returns()), once per ``T``;
        a longer horizon goes on from the longest one computed so far (the same sum, term by term)."""
        self.require_horizon(T)
        if T not in self._returns:
            t, acc, x = self._orbit if self._orbit and self._orbit[0] <= T else (0, flint.fmpq_mat(self.n, 1), self.r)
            while t < T:
                acc, x, t = acc + x, self.P * x, t + 1
            self._orbit = (t, acc, x)
            self._returns[T] = acc
        return self._returns[T]

    @cached_property
    def K_projector(self) -> flint.fmpq_mat:
        """``K (KᵀK)^{-1} Kᵀ``, the orthogonal projector onto ``span K`` (``K`` has full column rank)."""
        K = self.K
        return K * (K.transpose() * K).inv() * K.transpose() if K.ncols() else flint.fmpq_mat(self.n, self.n)

    @cached_property
    def K_annihilator(self) -> flint.fmpz_mat:
        """An integer matrix with kernel exactly ``span K``: its rows span the orthogonal complement ``ker Kᵀ``
        (``ker A = (ker Kᵀ)^⊥ = span K``), scaled by their common denominator (the same kernel)."""
        return nullspace(self.K.transpose()).transpose().numer_denom()[0]

    def in_K(self, v: Sequence[flint.fmpq | int]) -> bool:
        """Whether ``v`` lies in ``K(P)``: exactly when :attr:`K_annihilator` sends it to zero (as
        :func:`~proofs_check.algebra.linalg.in_span` with the basis ``K``, by one integer product instead of a rank; the
        orthogonal projector :attr:`K_projector` fixing it is the same condition)."""
        return self.in_K_all(flint.fmpq_mat(self.n, 1, list(v)))

    def in_K_all(self, X: flint.fmpq_mat) -> bool:
        """Whether every column of ``X`` lies in ``K(P)``: ``A X = 0`` for the integer :attr:`K_annihilator` ``A``
        (``X``'s integer numerators over their common denominator: no rational product)."""
        A = self.K_annihilator
        return not A.nrows() or A * X.numer_denom()[0] == flint.fmpz_mat(A.nrows(), X.ncols())

    def has_peripheral_root(self, divisor: flint.fmpq_poly) -> bool:
        """Whether a divisor of the characteristic polynomial has a root of unity among its roots: exactly when it
        shares a root with the squarefree cyclotomic part of the characteristic polynomial (each root of the
        divisor is an eigenvalue of ``P``; a root of unity among them is a root of some cyclotomic factor
        ``Φ_m`` of the characteristic polynomial).  One gcd instead of a factorization."""
        return divisor.gcd(self._cyclotomic_squarefree).degree() >= 1

    @cached_property
    def _cyclotomic_squarefree(self) -> flint.fmpq_poly:
        return flint.fmpq_poly(self.cyclotomic[1])
