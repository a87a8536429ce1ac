"""Parametric chains: the decomposition as exact rational functions of the chain's parameters.

The parameters' fraction field ``QQ(p, q, ...)`` is implemented over python-flint's
multivariate integer polynomials (``fmpz_mpoly``): an element is a cancelled fraction
``num / den``.  :class:`RationalFunctionField` offers the same narrow interface as
:class:`exactpte.backend.RationalField`, so :func:`exactpte.decompose` runs unchanged;
its block solves are fraction-free (Bareiss) elimination over the polynomials.

>>> import exactpte
>>> m = ParametricChain([["1-p", "p"], ["q", "1-q"]], [1, 0], params=["p", "q"])
>>> dec = exactpte.decompose(m)
>>> str(dec.rho[0]), str(dec.h[0])
('q/(p + q)', 'p/(p + q)**2')
>>> dec.subs({"p": "1/3", "q": "1/2"}).rho == exactpte.decompose(m.at({"p": "1/3", "q": "1/2"})).rho
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property, reduce
from typing import Any

import flint
import sympy

from .backend import SingularSystemError
from .errors import EntryError, ExactpteError, FloatEntryError, NegativeEntryError, RowSumError, ShapeError
from .model import ChainBase, MarkovRewardProcess, check_labels, reward_vector

__all__ = ["RationalFunctionField", "RF", "ParametricChain", "GenericRegionError", "SymbolicEntryError"]


class SymbolicEntryError(EntryError):
    """A parametric entry is not a rational function of the declared parameters."""


class GenericRegionError(ExactpteError, ValueError):
    """A parameter point leaves the generic region: an entry vanishes or turns negative there,
    so the structure (and the closed form) changes; decompose the chain at that point instead."""


# -- the fraction field ---------------------------------------------------------------------
class RF:
    """An element ``num / den`` of ``QQ(params)``, always cancelled, ``den`` with a positive leading coefficient."""

    __slots__ = ("num", "den", "F")

    def __init__(self, num, den, F: "RationalFunctionField", *, canonical: bool = False) -> None:
        if not canonical:
            if den.is_zero():
                raise ZeroDivisionError("rational function with zero denominator")
            if num.is_zero():
                num, den = F._zero_poly, F._one_poly
            else:
                g = num.gcd(den)
                if not g.is_one():
                    num, den = num / g, den / g
                if den.leading_coefficient() < 0:
                    num, den = -num, -den
        self.num, self.den, self.F = num, den, F

    # arithmetic -------------------------------------------------------------------------
    def _coerce(self, other) -> "RF":
        return other if isinstance(other, RF) else self.F.scalar(other)

    def __add__(self, other):
        o = self._coerce(other)
        if o.num.is_zero():
            return self
        if self.num.is_zero():
            return o
        if self.den == o.den:
            return RF(self.num + o.num, self.den, self.F)
        g = self.den.gcd(o.den)
        a, b = self.den / g, o.den / g
        return RF(self.num * b + o.num * a, self.den * b, self.F)

    __radd__ = __add__

    def __neg__(self):
        return RF(-self.num, self.den, self.F, canonical=True)

    def __sub__(self, other):
        return self + (-self._coerce(other))

    def __rsub__(self, other):
        return self._coerce(other) - self

    def __mul__(self, other):
        o = self._coerce(other)
        if self.num.is_zero() or o.num.is_zero():
            return self.F.zero
        g1, g2 = self.num.gcd(o.den), o.num.gcd(self.den)
        num = (self.num / g1) * (o.num / g2)
        den = (self.den / g2) * (o.den / g1)
        if den.leading_coefficient() < 0:
            num, den = -num, -den
        return RF(num, den, self.F, canonical=True)

    __rmul__ = __mul__

    def inverse(self) -> "RF":
        if self.num.is_zero():
            raise ZeroDivisionError("division by the zero rational function")
        num, den = self.den, self.num
        if den.leading_coefficient() < 0:
            num, den = -num, -den
        return RF(num, den, self.F, canonical=True)

    def __truediv__(self, other):
        return self * self._coerce(other).inverse()

    def __rtruediv__(self, other):
        return self._coerce(other) * self.inverse()

    def __eq__(self, other) -> bool:
        if isinstance(other, RF):
            return self.num == other.num and self.den == other.den
        try:
            o = self.F.scalar(other)
        except (TypeError, EntryError):
            return NotImplemented
        return self.num == o.num and self.den == o.den

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((str(self.num), str(self.den)))

    def is_constant(self) -> bool:
        return self.num.is_constant() and self.den.is_constant()

    def constant_value(self) -> flint.fmpq:
        return flint.fmpq(int(self.num.leading_coefficient()) if not self.num.is_zero() else 0, int(self.den.leading_coefficient()))

    def __lt__(self, other):  # only for constants (used by validation of constant entries)
        if not self.is_constant():
            raise TypeError("a non-constant rational function has no sign of its own")
        return self.constant_value() < (other.constant_value() if isinstance(other, RF) else other)

    def __gt__(self, other):
        if not self.is_constant():
            raise TypeError("a non-constant rational function has no sign of its own")
        return self.constant_value() > (other.constant_value() if isinstance(other, RF) else other)

    # evaluation and printing --------------------------------------------------------------
    def evaluate(self, values: Sequence[flint.fmpq]) -> flint.fmpq:
        """Exact value at a rational point (raises ``ZeroDivisionError`` on a pole)."""
        d = self.F._eval_poly(self.den, values)
        if d == 0:
            raise ZeroDivisionError("the point is a pole")
        return self.F._eval_poly(self.num, values) / d

    def to_sympy(self) -> sympy.Expr:
        return self.F._poly_to_sympy(self.num) / self.F._poly_to_sympy(self.den)

    def __str__(self) -> str:
        return self.F.pretty(self)

    def __repr__(self) -> str:
        return f"RF({self})"


class Matrix:
    """Dense matrix over a :class:`RationalFunctionField` with the operations the algorithms use."""

    __slots__ = ("rows_", "F")

    def __init__(self, rows: list[list[RF]], F: "RationalFunctionField") -> None:
        self.rows_, self.F = rows, F

    def nrows(self) -> int:
        return len(self.rows_)

    def ncols(self) -> int:
        return len(self.rows_[0]) if self.rows_ else 0

    def __getitem__(self, ij):
        i, j = ij
        return self.rows_[i][j]

    def __setitem__(self, ij, value) -> None:
        i, j = ij
        self.rows_[i][j] = value if isinstance(value, RF) else self.F.scalar(value)

    def __add__(self, other: "Matrix") -> "Matrix":
        return Matrix([[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(self.rows_, other.rows_)], self.F)

    def __sub__(self, other: "Matrix") -> "Matrix":
        return Matrix([[a - b for a, b in zip(r1, r2)] for r1, r2 in zip(self.rows_, other.rows_)], self.F)

    def __mul__(self, other: "Matrix") -> "Matrix":
        zero = self.F.zero
        cols = list(zip(*other.rows_)) if other.rows_ else []
        out = []
        for row in self.rows_:
            nz = [(k, a) for k, a in enumerate(row) if not a.num.is_zero()]
            out.append([reduce(lambda acc, ka: acc + ka[1] * col[ka[0]], nz, zero) for col in cols])
        return Matrix(out, self.F)

    def tolist(self) -> list[list[RF]]:
        return [list(r) for r in self.rows_]


class RationalFunctionField:
    """``QQ(params)`` over python-flint ``fmpz_mpoly``: the parametric backend."""

    def __init__(self, params: Sequence[str]) -> None:
        self.params = tuple(str(p) for p in params)
        if not self.params:
            raise ValueError("a parametric chain needs at least one parameter")
        self.ctx = flint.fmpz_mpoly_ctx.get(self.params, "degrevlex")
        self.qctx = flint.fmpq_mpoly_ctx.get(self.params, "degrevlex")
        self.symbols = tuple(sympy.Symbol(p, real=True) for p in self.params)
        self._zero_poly = self.ctx.from_dict({})
        self._one_poly = self.ctx.constant(1)
        self.zero = RF(self._zero_poly, self._one_poly, self, canonical=True)
        self.one = RF(self._one_poly, self._one_poly, self, canonical=True)
        self.name = f"QQ({', '.join(self.params)})"

    # scalars -----------------------------------------------------------------------------
    def scalar(self, x: Any) -> RF:
        if isinstance(x, RF):
            return x
        if isinstance(x, bool):
            raise TypeError("bool is not a scalar")
        if isinstance(x, int) or isinstance(x, flint.fmpz):
            return RF(self.ctx.constant(int(x)), self._one_poly, self, canonical=True)
        if isinstance(x, flint.fmpq):
            return RF(self.ctx.constant(int(x.p)), self.ctx.constant(int(x.q)), self, canonical=True)
        from ._numbers import to_fmpq

        return self.scalar(to_fmpq(x))

    def from_sympy(self, expr: Any, where: str = "entry") -> RF:
        """Convert a sympy expression (or string) in the parameters; rational functions only."""
        locals_ = dict(zip(self.params, self.symbols))
        from ._numbers import _is_float_like

        if _is_float_like(expr):
            raise FloatEntryError(
                f"{where} is the float {expr!r}; parametric chains take exact entries (ints, Fractions, or strings "
                f"such as '1/3', '0.25', '1-p')")
        if isinstance(expr, str):
            try:
                expr = sympy.sympify(expr, locals=locals_, convert_xor=True, rational=True)
            except (sympy.SympifyError, SyntaxError, TypeError, ValueError) as e:
                raise SymbolicEntryError(f"{where} is {expr!r}, which is not an expression ({e})") from None
        else:
            try:
                expr = sympy.sympify(expr, rational=True)
            except sympy.SympifyError as e:
                raise SymbolicEntryError(f"{where} is {expr!r}, which is not an expression ({e})") from None
            expr = expr.subs({sympy.Symbol(p): s for p, s in zip(self.params, self.symbols)})
        if not isinstance(expr, sympy.Expr):
            raise SymbolicEntryError(f"{where} is {expr!r}, which is not an expression")
        unknown = sorted(str(s) for s in expr.free_symbols if s not in self.symbols)
        if unknown:
            raise SymbolicEntryError(f"{where} uses unknown symbol(s) {', '.join(unknown)}; declared parameters are {', '.join(self.params)}")
        if expr.has(sympy.Float):
            raise SymbolicEntryError(f"{where} is {expr}, which holds a float; write exact numbers")
        num, den = sympy.fraction(sympy.together(expr))
        try:
            pn = sympy.Poly(num, *self.symbols, domain="QQ")
            pd = sympy.Poly(den, *self.symbols, domain="QQ")
        except (sympy.PolynomialError, sympy.polys.polyerrors.CoercionFailed, sympy.GeneratorsNeeded):
            raise SymbolicEntryError(
                f"{where} is {expr}, which is not a rational function of {', '.join(self.params)} with rational "
                f"coefficients (irrational constants such as sqrt(2) are not supported)") from None
        if pd.is_zero:
            raise SymbolicEntryError(f"{where} is {expr}, which divides by zero")
        n_int, n_den = self._poly_from_sympy(pn)
        d_int, d_den = self._poly_from_sympy(pd)
        # num/den = (n_int / n_den) / (d_int / d_den)
        return RF(n_int * self.ctx.constant(d_den), d_int * self.ctx.constant(n_den), self)

    def _poly_from_sympy(self, poly: sympy.Poly):
        terms = poly.terms()
        den = 1
        for _, c in terms:
            den = sympy.ilcm(den, sympy.Rational(c).q)
        return self.ctx.from_dict({m: int(sympy.Rational(c) * den) for m, c in terms}), int(den)

    def _poly_to_sympy(self, f) -> sympy.Expr:
        return sympy.Add(*[int(c) * sympy.Mul(*[s**e for s, e in zip(self.symbols, m)]) for m, c in f.to_dict().items()])

    def _eval_poly(self, f, values: Sequence[flint.fmpq]) -> flint.fmpq:
        if f.is_zero():
            return flint.fmpq(0)
        q = self.qctx.from_dict({m: flint.fmpq(int(c)) for m, c in f.to_dict().items()})
        return q(*values)

    def pretty(self, x: RF) -> str:
        """A sympify-parsable string: cancelled, factored when that is shorter."""
        num, den = self._poly_to_sympy(x.num), self._poly_to_sympy(x.den)
        expanded = num / den
        plain = str(expanded)
        if x.is_constant():
            return plain
        factored = self._factored(x.num) / self._factored(x.den)
        text = str(factored)
        return text if len(text) < len(plain) else plain

    def _factored(self, f) -> sympy.Expr:
        if f.is_constant():
            return sympy.Integer(int(f.leading_coefficient())) if not f.is_zero() else sympy.Integer(0)
        c, factors = f.factor()
        return sympy.Integer(int(c)) * sympy.Mul(*[self._poly_to_sympy(g) ** e for g, e in factors])

    def latex(self, x: RF) -> str:
        return sympy.latex(sympy.sympify(self.pretty(x), locals=dict(zip(self.params, self.symbols))))

    # matrices ------------------------------------------------------------------------------
    def matrix(self, rows: Sequence[Sequence[Any]], ncols: int | None = None) -> Matrix:
        return Matrix([[self.scalar(x) for x in row] for row in rows], self) if rows else Matrix([], self)

    def zeros(self, m: int, c: int) -> Matrix:
        return Matrix([[self.zero] * c for _ in range(m)], self)

    def identity(self, m: int) -> Matrix:
        M = self.zeros(m, m)
        for i in range(m):
            M.rows_[i][i] = self.one
        return M

    @staticmethod
    def rows(M: Matrix) -> list[list[RF]]:
        return M.tolist()

    def solve(self, A: Matrix, B: Matrix) -> Matrix:
        """``X`` with ``A X = B`` by fraction-free (Bareiss) elimination over ``fmpz_mpoly``.

        Each row of ``A`` is scaled by the lcm of its denominators and each column of ``B``
        brought to one common denominator (kept aside); forward
        elimination keeps every entry a polynomial (exact divisions by the previous
        pivot); back-substitution computes ``det(A) x`` as polynomials, and each
        ``x_i = (det x_i) / det`` is cancelled once.
        """
        m, c = A.nrows(), B.ncols()
        if m == 0:
            return self.zeros(0, c)
        lcm = lambda acc, x: acc if x.den.is_one() else (acc * x.den) / acc.gcd(x.den)
        # right-hand sides get one common denominator per column, the matrix one per row, so
        # unrelated denominators of different columns are never multiplied together
        col_den = [reduce(lcm, (B.rows_[i][j] for i in range(m)), self._one_poly) for j in range(c)]
        M = []
        for i in range(m):
            l = reduce(lcm, A.rows_[i], self._one_poly)
            row = [x.num * (l / x.den) if not x.num.is_zero() else self._zero_poly for x in A.rows_[i]]
            row += [x.num * ((col_den[j] / x.den) * l) if not x.num.is_zero() else self._zero_poly
                    for j, x in enumerate(B.rows_[i])]
            M.append(row)
        prev = self._one_poly
        sign = 1
        for k in range(m):
            piv = None
            best = None
            for i in range(k, m):
                if not M[i][k].is_zero():
                    size = len(M[i][k])
                    if best is None or size < best:
                        piv, best = i, size
            if piv is None:
                raise SingularSystemError(f"singular {m}x{m} parametric block system (generically)")
            if piv != k:
                M[k], M[piv] = M[piv], M[k]
                sign = -sign
            pk = M[k][k]
            rowk = M[k]
            for i in range(k + 1, m):
                rowi = M[i]
                a = rowi[k]
                if a.is_zero():
                    if not (pk == prev):
                        for j in range(k + 1, m + c):
                            if not rowi[j].is_zero():
                                rowi[j] = (rowi[j] * pk) / prev
                else:
                    for j in range(k + 1, m + c):
                        rowi[j] = (rowi[j] * pk - a * rowk[j]) / prev
                    rowi[k] = self._zero_poly
            prev = pk
        det = M[m - 1][m - 1]
        X = [[None] * c for _ in range(m)]
        for col in range(c):
            xt = [self._zero_poly] * m  # det * x, polynomials
            for i in range(m - 1, -1, -1):
                acc = det * M[i][m + col]
                for j in range(i + 1, m):
                    if not M[i][j].is_zero() and not xt[j].is_zero():
                        acc = acc - M[i][j] * xt[j]
                xt[i] = acc / M[i][i]
            for i in range(m):
                X[i][col] = RF(xt[i], det * col_den[col], self)
        return Matrix(X, self)

    def evaluate(self, x: RF, values: Sequence[flint.fmpq]) -> flint.fmpq:
        return x.evaluate(values)


# -- the parametric chain -------------------------------------------------------------------
class ParametricChain(ChainBase):
    """A Markov reward process whose entries are rational functions of parameters.

    Entries may be sympy expressions or strings (``"1-p"``, ``"p*q/2"``) in the declared
    ``params``; the support is the set of entries that are not identically zero.  Rows must
    sum to 1 identically.  The *generic region* is where every such entry is positive
    (:meth:`assumptions`); there the structure, and so every closed form, is fixed.
    """

    def __init__(self, P: Any, r: Any, *, params: Sequence[Any], labels: Sequence[str] | None = None) -> None:
        names = [str(p) for p in params]
        if len(set(names)) != len(names):
            raise SymbolicEntryError(f"parameters {names} repeat a name")
        F = RationalFunctionField(names)
        rows = P.tolist() if hasattr(P, "tolist") else [list(row) for row in P]
        n = len(rows)
        if n == 0:
            raise ShapeError("P is empty; a chain needs at least one state")
        cols, vals = [], []
        for i, row in enumerate(rows):
            if len(row) != n:
                raise ShapeError(f"P is not square: row {i} has {len(row)} entries, expected {n}")
            c, v = [], []
            total = F.zero
            for j, x in enumerate(row):
                where = f"P[{i}][{j}]"
                e = F.from_sympy(x, where)
                if e == 0:
                    continue
                if e.is_constant():
                    if e.constant_value() < 0:
                        raise NegativeEntryError(f"{where} is {e}, expected a probability >= 0")
                elif bool(e.to_sympy().is_negative):
                    raise NegativeEntryError(f"{where} is {e}, which is negative for every value of the parameters")
                c.append(j)
                v.append(e)
                total = total + e
            if total != 1:
                raise RowSumError(f"row {i} sums to {total}, expected exactly 1 (identically in the parameters)")
            cols.append(tuple(c))
            vals.append(tuple(v))
        r_list = reward_vector(r, n)
        self.n = n
        self.field = F
        self.params = F.params
        self._cols, self._vals = tuple(cols), tuple(vals)
        self.r = tuple(F.from_sympy(x, f"r[{i}]") for i, x in enumerate(r_list))
        self.labels = check_labels(labels, n)
        self.notes = ()

    def __repr__(self) -> str:
        return f"ParametricChain(n={self.n}, params={list(self.params)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ParametricChain) and self.params == other.params and \
            self._cols == other._cols and self._vals == other._vals and self.r == other.r

    __hash__ = None  # type: ignore[assignment]

    @cached_property
    def symbols(self) -> dict[str, sympy.Symbol]:
        return dict(zip(self.params, self.field.symbols))

    def _point(self, point: Mapping[Any, Any]) -> list[flint.fmpq]:
        from ._numbers import to_fmpq

        given = {str(k): v for k, v in point.items()}
        missing = [p for p in self.params if p not in given]
        extra = [k for k in given if k not in self.params]
        if missing or extra:
            raise GenericRegionError(f"a point needs a value for each parameter {list(self.params)}; missing {missing}, unknown {extra}")
        return [to_fmpq(given[p], f"value of {p}") for p in self.params]

    def check_point(self, point: Mapping[Any, Any]) -> list[flint.fmpq]:
        """The point's values, after checking it lies in the generic region (every support entry > 0)."""
        values = self._point(point)
        for i, (c, v) in enumerate(self.rows()):
            for j, e in zip(c, v):
                try:
                    x = e.evaluate(values)
                except ZeroDivisionError:
                    raise GenericRegionError(f"P[{i}][{j}] = {e} has a pole at this point") from None
                if x <= 0:
                    what = "vanishes" if x == 0 else f"is {x} < 0"
                    raise GenericRegionError(
                        f"P[{i}][{j}] = {e} {what} at this point: it leaves the generic region (the support changes); "
                        f"decompose chain.at(point, check=False) instead of substituting into the closed form")
        return values

    def at(self, point: Mapping[Any, Any], *, check: bool = True) -> MarkovRewardProcess:
        """The rational chain at ``point`` (``{"p": "1/3", ...}``); ``check`` refuses points outside
        the generic region, ``check=False`` allows them (the structure may then differ)."""
        values = self.check_point(point) if check else self._point(point)
        edges = [(i, j, e.evaluate(values)) for i, (c, v) in enumerate(self.rows()) for j, e in zip(c, v)]
        return MarkovRewardProcess.from_edges(self.n, edges, [x.evaluate(values) for x in self.r], self.labels)

    def assumptions(self) -> list[str]:
        """The generic region, as conditions: each non-constant support entry is positive.

        (Rows sum to 1 identically; that is checked on construction.)
        """
        out = []
        seen = set()
        for i, (c, v) in enumerate(self.rows()):
            for j, e in zip(c, v):
                if not e.is_constant() and str(e) not in seen:
                    seen.add(str(e))
                    out.append(f"{e} > 0")
        return out
