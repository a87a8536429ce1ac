"""``QQ(params)``: rational functions of a chain's parameters over python-flint ``fmpz_mpoly``.

An element is a cancelled fraction ``num / den`` of integer polynomials
(:class:`RationalFunction`); :class:`PolyMatrix` is the dense block matrix the algorithms
solve; :class:`RationalFunctionField` implements the :class:`~exactpte.fields.Field`
protocol, its solves fraction-free (Bareiss) elimination over the polynomials, so every
algorithm runs unchanged on parametric chains.

Examples
--------
>>> F = RationalFunctionField(["p"])
>>> x = F.convert("1 - p") / F.convert("2 - 2*p")
>>> F.to_text(x), F.evaluate(F.convert("p/(1+p)"), [flint.fmpq(1, 3)])
('1/2', 1/4)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import TYPE_CHECKING, Any

from functools import cached_property

import flint

from .._numbers import is_float_like, to_fmpq
from ..errors import EntryError, FloatEntryError, SingularSystemError, SymbolicEntryError, UsageError

__all__ = ["RationalFunction", "PolyMatrix", "RationalFunctionField"]

if TYPE_CHECKING:  # pragma: no cover
    import sympy


class RationalFunction:
    """An element ``num / den`` of ``QQ(params)``, always cancelled, ``den`` with a positive leading coefficient."""

    __slots__ = ("num", "den", "field")

    def __init__(self, num, den, field: "RationalFunctionField", *, canonical: bool = False) -> None:
        if not canonical:
            if den.is_zero():
                raise ZeroDivisionError("rational function with zero denominator")
            if num.is_zero():
                num, den = field._zero_poly, field._one_poly
            else:
                g = num.gcd(den)
                if not g.is_one():
                    num, den = num / g, den / g
                if den.leading_coefficient() < 0:
                    num, den = -num, -den
        self.num, self.den, self.field = num, den, field

    # arithmetic -------------------------------------------------------------------------
    def _coerce(self, other) -> "RationalFunction":
        return other if isinstance(other, RationalFunction) else self.field.scalar(other)

    def __add__(self, other):
        o = self._coerce(other)
        if o.num.is_zero():
            return self
        if self.num.is_zero():
            return o
        if self.den == o.den:
            return RationalFunction(self.num + o.num, self.den, self.field)
        g = self.den.gcd(o.den)
        a, b = self.den / g, o.den / g
        return RationalFunction(self.num * b + o.num * a, self.den * b, self.field)

    __radd__ = __add__

    def __neg__(self):
        return RationalFunction(-self.num, self.den, self.field, canonical=True)

    def __sub__(self, other):
        return self + (-self._coerce(other))

    def __rsub__(self, other):
        return self._coerce(other) - self

    def __mul__(self, other):
        o = self._coerce(other)
        if self.num.is_zero() or o.num.is_zero():
            return self.field.zero
        g1, g2 = self.num.gcd(o.den), o.num.gcd(self.den)
        num = (self.num / g1) * (o.num / g2)
        den = (self.den / g2) * (o.den / g1)
        if den.leading_coefficient() < 0:
            num, den = -num, -den
        return RationalFunction(num, den, self.field, canonical=True)

    __rmul__ = __mul__

    def inverse(self) -> "RationalFunction":
        """``1 / self`` (``ZeroDivisionError`` for the zero function)."""
        if self.num.is_zero():
            raise ZeroDivisionError("division by the zero rational function")
        num, den = self.den, self.num
        if den.leading_coefficient() < 0:
            num, den = -num, -den
        return RationalFunction(num, den, self.field, canonical=True)

    def __truediv__(self, other):
        return self * self._coerce(other).inverse()

    def __rtruediv__(self, other):
        return self._coerce(other) * self.inverse()

    def __eq__(self, other) -> bool:
        if isinstance(other, RationalFunction):
            return self.num == other.num and self.den == other.den
        try:
            o = self.field.scalar(other)
        except (TypeError, EntryError):
            return NotImplemented
        return self.num == o.num and self.den == o.den

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((str(self.num), str(self.den)))

    def is_constant(self) -> bool:
        """Whether the function does not depend on the parameters."""
        return self.num.is_constant() and self.den.is_constant()

    def constant_value(self) -> flint.fmpq:
        """The value of a constant function as an ``fmpq``."""
        return flint.fmpq(int(self.num.leading_coefficient()) if not self.num.is_zero() else 0, int(self.den.leading_coefficient()))

    def __lt__(self, other):  # only for constants (used by validation of constant entries)
        if not self.is_constant():
            raise UsageError(f"{self} is not constant: a rational function has no sign of its own")
        return self.constant_value() < (other.constant_value() if isinstance(other, RationalFunction) else other)

    def __gt__(self, other):
        if not self.is_constant():
            raise UsageError(f"{self} is not constant: a rational function has no sign of its own")
        return self.constant_value() > (other.constant_value() if isinstance(other, RationalFunction) else other)

    # evaluation and printing --------------------------------------------------------------
    def evaluate(self, values: Sequence[flint.fmpq]) -> flint.fmpq:
        """Exact value at a rational point (raises ``ZeroDivisionError`` on a pole)."""
        d = self.field._eval_poly(self.den, values)
        if d == 0:
            raise ZeroDivisionError("the point is a pole")
        return self.field._eval_poly(self.num, values) / d

    def to_sympy(self) -> "sympy.Expr":
        """The function as a sympy expression (built from the polynomials, never parsed)."""
        return self.field.poly_to_sympy(self.num) / self.field.poly_to_sympy(self.den)

    def __str__(self) -> str:
        return self.field.to_text(self)

    def __repr__(self) -> str:
        return f"RationalFunction({self})"


class PolyMatrix:
    """Dense matrix over a :class:`RationalFunctionField` with the operations the algorithms use."""

    __slots__ = ("entries", "field")

    def __init__(self, rows: list[list[RationalFunction]], field: "RationalFunctionField") -> None:
        self.entries, self.field = rows, field

    def nrows(self) -> int:
        """Number of rows."""
        return len(self.entries)

    def ncols(self) -> int:
        """Number of columns."""
        return len(self.entries[0]) if self.entries else 0

    def __getitem__(self, ij):
        i, j = ij
        return self.entries[i][j]

    def __setitem__(self, ij, value) -> None:
        i, j = ij
        self.entries[i][j] = value if isinstance(value, RationalFunction) else self.field.scalar(value)

    def __add__(self, other: "PolyMatrix") -> "PolyMatrix":
        return PolyMatrix([[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(self.entries, other.entries)], self.field)

    def __sub__(self, other: "PolyMatrix") -> "PolyMatrix":
        return PolyMatrix([[a - b for a, b in zip(r1, r2)] for r1, r2 in zip(self.entries, other.entries)], self.field)

    def __mul__(self, other: "PolyMatrix") -> "PolyMatrix":
        zero = self.field.zero
        cols = list(zip(*other.entries)) if other.entries else []
        out = []
        for row in self.entries:
            nz = [(k, a) for k, a in enumerate(row) if not a.num.is_zero()]
            out.append([reduce(lambda acc, ka: acc + ka[1] * col[ka[0]], nz, zero) for col in cols])
        return PolyMatrix(out, self.field)

    def tolist(self) -> list[list[RationalFunction]]:
        """The entries as a list of row lists."""
        return [list(r) for r in self.entries]


class RationalFunctionField:
    """``QQ(params)`` over python-flint ``fmpz_mpoly``: the parametric backend."""

    def __init__(self, params: Sequence[str]) -> None:
        self.params = tuple(str(p) for p in params)  # none: QQ as constant rational functions (cross-checks)
        self.ctx = flint.fmpz_mpoly_ctx.get(self.params, "degrevlex")
        self.qctx = flint.fmpq_mpoly_ctx.get(self.params, "degrevlex")
        self._zero_poly = self.ctx.from_dict({})
        self._one_poly = self.ctx.constant(1)
        self.zero = RationalFunction(self._zero_poly, self._one_poly, self, canonical=True)
        self.one = RationalFunction(self._one_poly, self._one_poly, self, canonical=True)
        self.name = f"QQ({', '.join(self.params)})"
        self.is_parametric = bool(self.params)
        self._text_cache: dict[RationalFunction, str] = {}

    # scalars -----------------------------------------------------------------------------
    def scalar(self, x: Any) -> RationalFunction:
        """``x`` (int, ``fmpz``, ``fmpq`` or any exact number) as a constant rational function."""
        if isinstance(x, RationalFunction):
            return x
        if isinstance(x, bool):
            raise EntryError(f"the bool {x!r} is not a number")
        if isinstance(x, int) or isinstance(x, flint.fmpz):
            return RationalFunction(self.ctx.constant(int(x)), self._one_poly, self, canonical=True)
        if isinstance(x, flint.fmpq):
            return RationalFunction(self.ctx.constant(int(x.p)), self.ctx.constant(int(x.q)), self, canonical=True)
        return self.scalar(to_fmpq(x))

    @cached_property
    def symbols(self) -> tuple:
        """The parameters as real sympy symbols (sympy is imported only for printing and sympy input)."""
        import sympy

        return tuple(sympy.Symbol(p, real=True) for p in self.params)

    def variable(self, name: str) -> RationalFunction:
        """The parameter ``name`` as an element of the field."""
        return RationalFunction(self.ctx.gen(self.params.index(name)), self._one_poly, self, canonical=True)

    def convert(self, x: Any, where: str = "entry") -> RationalFunction:
        """One entry as a rational function of the parameters.

        Strings are parsed by :func:`exactpte.fields.expressions.parse_expression` (never evaluated);
        exact numbers become constants; sympy expressions (from Python code, not from files) are
        converted through their polynomials.  Floats are refused.

        Raises
        ------
        SymbolicEntryError
            The entry is not a rational function of the declared parameters.
        FloatEntryError
            The entry is a binary float.
        """
        if isinstance(x, RationalFunction):
            if x.field is not self and x.field.params != self.params:
                raise SymbolicEntryError(f"{where} is a rational function of {', '.join(x.field.params)}, not of {', '.join(self.params)}")
            return x if x.field is self else RationalFunction(x.num, x.den, self, canonical=True)
        if isinstance(x, str):
            from .expressions import parse_expression

            return parse_expression(x, self, where)
        if is_float_like(x):
            raise FloatEntryError(
                f"{where} is the float {x!r}; parametric chains take exact entries (ints, Fractions, or strings "
                f"such as '1/3', '0.25', '1-p')")
        if type(x).__module__.startswith("sympy"):
            return self._from_sympy(x, where)
        try:
            return self.scalar(to_fmpq(x, where))
        except EntryError as e:
            raise SymbolicEntryError(str(e)) from None

    def _from_sympy(self, expr: Any, where: str) -> RationalFunction:
        """A sympy expression object (already built by Python code) through its numerator and denominator polynomials."""
        import sympy

        if not isinstance(expr, sympy.Expr):
            raise SymbolicEntryError(f"{where} is {expr!r}, which is not an expression")
        by_name = dict(zip(self.params, self.symbols))
        unknown = sorted(str(s) for s in expr.free_symbols if str(s) not in by_name)
        if unknown:
            raise SymbolicEntryError(f"{where} uses unknown symbol(s) {', '.join(unknown)}; declared parameters are {', '.join(self.params)}")
        expr = expr.xreplace({s: by_name[str(s)] for s in expr.free_symbols})
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
        return RationalFunction(n_int * self.ctx.constant(d_den), d_int * self.ctx.constant(n_den), self)

    def _poly_from_sympy(self, poly):
        from math import lcm

        terms = poly.terms()
        den = lcm(*(int(c.q) for _, c in terms)) if terms else 1
        return self.ctx.from_dict({m: int(c * den) for m, c in terms}), den

    def poly_to_sympy(self, f) -> "sympy.Expr":
        """An ``fmpz_mpoly`` as a sympy polynomial expression in the parameters."""
        import sympy

        return sympy.Add(*[int(c) * sympy.Mul(*[s**e for s, e in zip(self.symbols, m)]) for m, c in f.to_dict().items()])

    def _eval_poly(self, f, values: Sequence[flint.fmpq]) -> flint.fmpq:
        if f.is_zero():
            return flint.fmpq(0)
        q = self.qctx.from_dict({m: flint.fmpq(int(c)) for m, c in f.to_dict().items()})
        return q(*values)

    def _display(self, x: RationalFunction) -> "sympy.Expr":
        """The sympy expression printed for ``x``: cancelled, factored when that prints shorter."""
        expanded = self.poly_to_sympy(x.num) / self.poly_to_sympy(x.den)
        if x.is_constant():
            return expanded
        factored = self._factored(x.num) / self._factored(x.den)
        return factored if len(str(factored)) < len(str(expanded)) else expanded

    def to_text(self, x: RationalFunction) -> str:
        """A sympy-parsable string: cancelled, factored when that is shorter
        (:func:`exactpte.fields.printing.rational_text`, printed from the polynomials directly).

        Constants print as ``fmpq`` does; values are remembered per field, since outputs repeat
        them (``P∞`` rows of one class, ``ρ`` on a class).
        """
        if x.is_constant():
            return str(x.constant_value())
        cache = self._text_cache
        text = cache.get(x)
        if text is None:
            from .printing import rational_text

            text = rational_text(x.num, x.den, self.params)
            if len(cache) < 200_000:
                cache[x] = text
        return text

    def denominator_factors(self, x: RationalFunction) -> list[str]:
        """The irreducible non-constant factors of the denominator of ``x``, as text."""
        if x.den.is_constant():
            return []
        return [self.poly_text(g) for g in self.irreducible_factors(x.den)]

    def _factored(self, f) -> "sympy.Expr":
        import sympy

        if f.is_constant():
            return sympy.Integer(int(f.leading_coefficient())) if not f.is_zero() else sympy.Integer(0)
        c, factors = _factor(f)
        return sympy.Integer(int(c)) * sympy.Mul(*[self.poly_to_sympy(g) ** e for g, e in factors])

    def to_latex(self, x: RationalFunction) -> str:
        """LaTeX of the factored-if-shorter form (printed by sympy from the polynomials, never parsed)."""
        import sympy

        return sympy.latex(self._display(x))

    # matrices ------------------------------------------------------------------------------
    def matrix(self, rows: Sequence[Sequence[Any]], ncols: int | None = None) -> PolyMatrix:
        """A dense matrix from row lists of exact numbers or rational functions."""
        return PolyMatrix([[self.scalar(x) for x in row] for row in rows], self) if rows else PolyMatrix([], self)

    def zeros(self, m: int, c: int) -> PolyMatrix:
        """The ``m x c`` zero matrix."""
        return PolyMatrix([[self.zero] * c for _ in range(m)], self)

    def identity(self, m: int) -> PolyMatrix:
        """The ``m x m`` identity."""
        M = self.zeros(m, m)
        for i in range(m):
            M.entries[i][i] = self.one
        return M

    @staticmethod
    def to_lists(M: PolyMatrix) -> list[list[RationalFunction]]:
        """The entries as a list of rows."""
        return M.tolist()

    def solve_sparse(self, rows, B) -> list[list[RationalFunction]]:
        """The dense fraction-free solve (:func:`~exactpte.fields.rows.solve_rows_densely`)."""
        from .rows import solve_rows_densely

        return solve_rows_densely(self, rows, B)

    @staticmethod
    def solve_phase_system(Q_rows, C, d: int) -> None:
        """No fast route for rational functions: the generic elimination runs."""
        return None

    def split(self, xs: Sequence[RationalFunction]) -> tuple[list, Any]:
        """``xs`` as polynomial numerators over the lcm of their denominators."""
        den = self._one_poly
        for x in xs:
            if x.den != den:
                den = den * (x.den / den.gcd(x.den))
        return [x.num * (den / x.den) if x.den != den else x.num for x in xs], den

    def matrix_split(self, M: PolyMatrix) -> tuple[list[list], Any]:
        """``M`` over one common denominator (rows of polynomial numerators, the denominator)."""
        rows = M.tolist()
        width = len(rows[0]) if rows else 0
        nums, den = self.split([x for row in rows for x in row])
        return [nums[a * width : (a + 1) * width] for a in range(len(rows))], den

    def fraction(self, num, den) -> RationalFunction:
        """``num / den`` (polynomials), cancelled."""
        return RationalFunction(num, den, self)

    # substitution and polynomial conditions (stratification) ----------------------------------------
    def compose(self, x: RationalFunction, images: Sequence[Any], target: Any) -> Any:
        """``x`` with parameter ``i`` replaced by ``images[i]``, an element of the field ``target``
        (``QQ`` for a point, or another ``QQ(params)``); ``ZeroDivisionError`` when the
        denominator vanishes identically there.

        Examples
        --------
        >>> F, G = RationalFunctionField(["p", "q"]), RationalFunctionField(["q"])
        >>> str(F.compose(F.convert("p/(p + q)"), [G.convert("1 - q"), G.convert("q")], G))
        '1 - q'
        """
        return self.compose_poly(x.num, images, target) / self.compose_poly(x.den, images, target)

    def compose_poly(self, f, images: Sequence[Any], target: Any) -> Any:
        """A polynomial of this field's ring with parameter ``i`` replaced by ``images[i]`` (in ``target``)."""
        acc = target.zero
        for exps, c in f.to_dict().items():
            term = target.scalar(int(c))
            for img, e in zip(images, exps):
                for _ in range(e):
                    term = term * img
            acc = acc + term
        return acc

    def poly(self, f) -> RationalFunction:
        """A ring polynomial as a field element."""
        return RationalFunction(f, self._one_poly, self, canonical=True)

    def irreducible_factors(self, f) -> list:
        """The distinct non-constant irreducible factors of a polynomial, each primitive with a
        positive leading coefficient (so equal sets compare equal)."""
        if f.is_zero() or f.is_constant():
            return []
        out = []
        for g, _e in _factor(f)[1]:
            if g.is_constant():
                continue
            if g.leading_coefficient() < 0:
                g = -g
            if g not in out:
                out.append(g)
        return out

    def linear_in(self, f, var: int) -> tuple[Any, Any] | None:
        """``(a, b)`` with ``f = a * x_var + b`` and ``a, b`` free of ``x_var``, when ``f`` has degree 1 in it."""
        a, b = {}, {}
        for exps, c in f.to_dict().items():
            e = exps[var]
            if e > 1:
                return None
            rest = tuple(0 if k == var else x for k, x in enumerate(exps))
            (a if e == 1 else b)[rest] = int(c)
        if not a:
            return None
        return self.ctx.from_dict(a), self.ctx.from_dict(b)

    def poly_text(self, f) -> str:
        """A ring polynomial as sympy-parsable text (expanded)."""
        from .printing import poly_text

        return poly_text(f, self.params)

    def solve(self, A: PolyMatrix, B: PolyMatrix) -> PolyMatrix:
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
        col_den = [reduce(lcm, (B.entries[i][j] for i in range(m)), self._one_poly) for j in range(c)]
        M = []
        for i in range(m):
            l = reduce(lcm, A.entries[i], self._one_poly)
            row = [x.num * (l / x.den) if not x.num.is_zero() else self._zero_poly for x in A.entries[i]]
            row += [x.num * ((col_den[j] / x.den) * l) if not x.num.is_zero() else self._zero_poly
                    for j, x in enumerate(B.entries[i])]
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
                X[i][col] = RationalFunction(xt[i], det * col_den[col], self)
        return PolyMatrix(X, self)

    @staticmethod
    def is_constant(x: RationalFunction) -> bool:
        """Whether ``x`` does not depend on the parameters."""
        return x.is_constant()

    def is_negative(self, x: RationalFunction) -> bool:
        """Whether ``x`` is never positive (``x <= 0`` wherever it is defined), decided exactly.

        Constants by their value; functions of one parameter by the sign changes of
        ``num * den`` (Sturm sequences of its odd-multiplicity factors).  With several parameters
        the sign is not decided here (``False``): the generic region is then judged by sampling.

        Examples
        --------
        >>> F = RationalFunctionField(["p"])
        >>> F.is_negative(F.convert("p - p^2 - 1")), F.is_negative(F.convert("p - p^2")), F.is_negative(F.convert("-(p-1)^2"))
        (True, False, True)
        """
        if x.is_constant():
            return x.constant_value() < 0
        if len(self.params) != 1:
            return False
        f = _univariate(x.num * x.den)
        _, factors = f.factor()
        if any(e % 2 == 1 and _real_root_count(g) > 0 for g, e in factors):
            return False  # f changes sign somewhere
        return f.coeffs()[-1] < 0 if f.degree() % 2 == 0 else False

    def evaluate(self, x: RationalFunction, values: Sequence[flint.fmpq]) -> flint.fmpq:
        """The exact value of ``x`` at a rational parameter point (``ZeroDivisionError`` at a pole)."""
        return x.evaluate(values)


def _univariate(f) -> flint.fmpz_poly:
    """A polynomial in the field's single parameter as an ``fmpz_poly``."""
    coeffs: dict[int, int] = {m[0]: int(c) for m, c in f.to_dict().items()}
    return flint.fmpz_poly([coeffs.get(k, 0) for k in range(max(coeffs) + 1)] if coeffs else [0])


def _real_root_count(g: flint.fmpz_poly) -> int:
    """Number of distinct real roots of a squarefree ``g`` (Sturm's theorem, exact)."""
    if g.degree() < 1:
        return 0
    chain = [flint.fmpq_poly(g), flint.fmpq_poly(g.derivative())]
    while chain[-1].degree() > 0:
        rem = chain[-2] % chain[-1]
        if rem == 0:
            break
        chain.append(-rem)

    def changes(at_plus_infinity: bool) -> int:
        signs = []
        for h in chain:
            lead = h.coeffs()[-1] if h.degree() >= 0 else 0
            if lead == 0:
                continue
            sign = 1 if lead > 0 else -1
            if not at_plus_infinity and h.degree() % 2 == 1:
                sign = -sign
            signs.append(sign)
        return sum(1 for a, b in zip(signs, signs[1:]) if a != b)

    return changes(False) - changes(True)


def _factor(f) -> tuple:
    """``f.factor()``, or ``f`` as its own single factor when python-flint cannot order the factors
    (its sort overflows on coefficients of 2^63 and more): still a correct factorisation, only coarser."""
    try:
        return f.factor()
    except OverflowError:
        c = f.content()
        return (c, [(f / c, 1)]) if c != 1 else (1, [(f, 1)])
