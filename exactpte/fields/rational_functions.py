"""``QQ(params)``: rational functions of a chain's parameters over python-flint ``fmpz_mpoly``.

An element is a cancelled fraction ``num / den`` of integer polynomials
(:class:`RationalFunction`); :class:`RationalFunctionField` implements the
:class:`~exactpte.fields.Field` protocol over them, so every algorithm runs unchanged on
parametric chains.  Its parts live apart, each importing nothing of this module:
polynomial helpers (:mod:`~exactpte.fields.polynomials`), dense matrices and the
fraction-free solve (:mod:`~exactpte.fields.polymatrix`), the sign test
(:mod:`~exactpte.fields.signs`), sympy in and out (:mod:`~exactpte.fields.sympy_bridge`),
text in and out (:mod:`~exactpte.fields.expressions`, :mod:`~exactpte.fields.printing`).

Examples
--------
>>> F = RationalFunctionField(["p"])
>>> x = F.convert("1 - p") / F.convert("2 - 2*p")
>>> F.to_text(x), F.evaluate(F.convert("p/(1+p)"), [flint.fmpq(1, 3)])
('1/2', 1/4)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Union

import flint

from exactpte.numbers.scalars import is_float_like, to_fmpq
from exactpte.errors import EntryError, FloatEntryError, SymbolicEntryError, UsageError
from exactpte.fields import polynomials, sympy_bridge
from exactpte.fields.expressions import RESULT_ENTRY, parse_expression
from exactpte.fields.polymatrix import PolyMatrix, bareiss_solve, bareiss_split
from exactpte.fields.printing import TextCache, poly_text
from exactpte.fields.rows import solve_rows_densely
from exactpte.fields.signs import never_positive
from exactpte.fields.polynomials import T, TargetField

__all__ = ["RationalFunction", "RationalFunctionField"]

if TYPE_CHECKING:  # pragma: no cover
    import sympy

Operand = Union["RationalFunction", int, flint.fmpz, flint.fmpq]
"""What arithmetic with a :class:`RationalFunction` takes: another one, or an exact constant."""

_Pair = tuple[flint.fmpz_mpoly, flint.fmpz_mpoly, flint.fmpz_mpoly, flint.fmpz_mpoly]
"""``(g, d1/g, d2/g, lcm)`` for two denominators ``d1, d2`` with ``g = gcd(d1, d2)``."""


class RationalFunction:
    """An element ``num / den`` of ``QQ(params)``, always cancelled, ``den`` with a positive leading coefficient."""

    __slots__ = ("num", "den", "field")
    num: flint.fmpz_mpoly
    den: flint.fmpz_mpoly
    field: "RationalFunctionField"

    def __init__(self, num: flint.fmpz_mpoly, den: flint.fmpz_mpoly, field: "RationalFunctionField", *,
                 canonical: bool = False) -> None:
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
    def _coerce(self, other: Operand) -> "RationalFunction":
        return other if isinstance(other, RationalFunction) else self.field.scalar(other)

    def __add__(self, other: Operand) -> "RationalFunction":
        o = self._coerce(other)
        if o.num.is_zero():
            return self
        if self.num.is_zero():
            return o
        if self.den == o.den:
            return RationalFunction(self.num + o.num, self.den, self.field, canonical=self.den.is_one())
        if self.den.is_one() or o.den.is_one():  # nothing can cancel: x/1 + y/d = (x d + y)/d
            num = self.num * o.den + o.num if self.den.is_one() else self.num + o.num * self.den
            return RationalFunction(num, self.den * o.den, self.field, canonical=True)
        g, a, b, lcm = self.field._denominator_pair(self.den, o.den)
        return _cancelled_by(self.num * b + o.num * a, lcm, g, self.field)

    __radd__ = __add__

    def __neg__(self) -> "RationalFunction":
        return RationalFunction(-self.num, self.den, self.field, canonical=True)

    def __sub__(self, other: Operand) -> "RationalFunction":
        return self + (-self._coerce(other))

    def __rsub__(self, other: Operand) -> "RationalFunction":
        return self._coerce(other) - self

    def __mul__(self, other: Operand) -> "RationalFunction":
        o = other if type(other) is RationalFunction else self._coerce(other)
        a_num, b_num = self.num, o.num
        if a_num.is_zero() or b_num.is_zero():
            return self.field.zero
        a_den, b_den = self.den, o.den
        if b_den.is_one() and b_num.is_one():  # times one (a deterministic step): the value itself, no product
            return self
        if a_den.is_one() and a_num.is_one():
            return o
        if a_den.is_one() and b_den.is_one():  # polynomials: nothing to cancel
            return RationalFunction(a_num * b_num, a_den, self.field, canonical=True)
        # Each factor is cancelled, so only num_a with den_b and num_b with den_a can share factors;
        # a gcd that is one divides nothing (the common case of a probability times a value).
        if not b_den.is_one():
            g = a_num.gcd(b_den)
            if not g.is_one():
                a_num, b_den = a_num / g, b_den / g
        if not a_den.is_one():
            g = b_num.gcd(a_den)
            if not g.is_one():
                b_num, a_den = b_num / g, a_den / g
        num, den = a_num * b_num, a_den * b_den
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

    def __truediv__(self, other: Operand) -> "RationalFunction":
        return self * self._coerce(other).inverse()

    def __rtruediv__(self, other: Operand) -> "RationalFunction":
        return self._coerce(other) * self.inverse()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RationalFunction):
            return self.num == other.num and self.den == other.den
        if other.__class__ is int and other == 0:  # `x != 0` on every stored entry: no conversion of the 0
            return self.num.is_zero()
        try:
            o = self.field.scalar(other)
        except (TypeError, EntryError):
            return NotImplemented
        return self.num == o.num and self.den == o.den

    def __ne__(self, other: object) -> bool:
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

    def __lt__(self, other: Operand) -> bool:  # only for constants (used by validation of constant entries)
        if not self.is_constant():
            raise UsageError(f"{self} is not constant: a rational function has no sign of its own")
        return self.constant_value() < (other.constant_value() if isinstance(other, RationalFunction) else other)

    def __gt__(self, other: Operand) -> bool:
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


def _cancelled_by(num: flint.fmpz_mpoly, den: flint.fmpz_mpoly, g: flint.fmpz_mpoly,
                  field: "RationalFunctionField") -> RationalFunction:
    """``num / den`` cancelled, when only factors of ``g`` can divide both (``den`` with a positive
    leading coefficient).

    For ``a/d1 + b/d2`` (each cancelled) over ``lcm(d1, d2)``, an irreducible factor of the sum's
    numerator and denominator divides ``g = gcd(d1, d2)``: a factor of ``d1`` alone does not divide
    ``a (d2/g)`` (``a/d1`` is cancelled) yet divides ``b (d1/g)``.  So the gcd is taken with ``g``
    (small next to the product of the denominators), repeatedly while it still divides both, and
    for coprime denominators no gcd is taken at all.
    """
    if num.is_zero():
        return field.zero
    t = g
    while not t.is_one():
        t = num.gcd(t)
        if t.is_one():
            break
        t = t.gcd(den)
        if t.is_one():
            break
        num, den = num / t, den / t
    if den.leading_coefficient() < 0:
        num, den = -num, -den
    return RationalFunction(num, den, field, canonical=True)


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
        self.splits_periods = True
        self._texts = TextCache()
        self._pairs: dict[tuple[int, int], tuple[flint.fmpz_mpoly, flint.fmpz_mpoly, _Pair]] = {}
        self._recent_pairs: deque[tuple[flint.fmpz_mpoly, flint.fmpz_mpoly, _Pair]] = deque(maxlen=8)
        self._cofactors: dict[tuple[int, ...], tuple[tuple[flint.fmpz_mpoly, ...], tuple[list[flint.fmpz_mpoly], flint.fmpz_mpoly]]] = {}

    def _denominator_pair(self, d1: flint.fmpz_mpoly, d2: flint.fmpz_mpoly) -> _Pair:
        """``(g, d1/g, d2/g, lcm)`` with ``g = gcd(d1, d2)``, remembered for the last pairs of denominator
        objects (sums over one block solve's answers meet the same two denominators again and again),
        and for the last few pairs of equal polynomials held by other objects (the entries of one
        solve, each cancelled on its own, carry equal denominators: one gcd and one product serve all)."""
        key = (id(d1), id(d2))
        hit = self._pairs.get(key)
        if hit is not None and hit[0] is d1 and hit[1] is d2:
            return hit[2]
        for a, b, out in self._recent_pairs:
            if a == d1 and b == d2:
                return out
        g = d1.gcd(d2)
        a, b = d1 / g, d2 / g
        out = (g, a, b, d1 * b)
        if len(self._pairs) > 4096:
            self._pairs.clear()
        self._pairs[key] = (d1, d2, out)  # the polynomials keep their ids valid
        self._recent_pairs.appendleft((d1, d2, out))
        return out

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
    def symbols(self) -> tuple[Any, ...]:
        """The parameters as real sympy symbols (sympy is imported only for printing and sympy input)."""
        return sympy_bridge.sympy_symbols(self.params)

    def variable(self, name: str) -> RationalFunction:
        """The parameter ``name`` as an element of the field."""
        return RationalFunction(self.ctx.gen(self.params.index(name)), self._one_poly, self, canonical=True)

    def read_result(self, text: str, where: str = "entry") -> RationalFunction:
        """An entry of a decomposition's answer (its JSON text, plain or :func:`~exactpte.results.factored.expand`-ed)
        read back: :meth:`convert`'s grammar under the larger bounds of
        :data:`~exactpte.fields.expressions.RESULT_ENTRY` (answers carry ``e**69`` on a path of length 70).

        >>> F = RationalFunctionField(["e"])
        >>> x = F.read_result("-(e - 1)**69/e")
        >>> x.den == F.variable("e").num, len(x.num), x.num.degrees()
        (True, 70, (69,))
        """
        return parse_expression(text, self, where, limits=RESULT_ENTRY)

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
        num, den = sympy_bridge.polynomials_from_sympy(expr, self.params, self.symbols, self.ctx, where)
        return RationalFunction(num, den, self)

    def poly_to_sympy(self, f: flint.fmpz_mpoly) -> "sympy.Expr":
        """An ``fmpz_mpoly`` as a sympy polynomial expression in the parameters."""
        return sympy_bridge.poly_to_sympy(f, self.symbols)

    def _eval_poly(self, f: flint.fmpz_mpoly, values: Sequence[flint.fmpq]) -> flint.fmpq:
        return polynomials.poly_value(f, self.qctx, values)

    def _display(self, x: RationalFunction) -> "sympy.Expr":
        """The sympy expression printed for ``x``: cancelled, factored when that prints shorter."""
        return sympy_bridge.display(x.num, x.den, self.symbols)

    def to_text(self, x: RationalFunction) -> str:
        """A sympy-parsable string, canonical and cheap: the numerator over the denominator, ``(N)/D``
        (:func:`exactpte.fields.printing.rational_text`, printed from the polynomials directly;
        only small polynomials are factored).

        Constants print as ``fmpq`` does; values are remembered per field, since outputs repeat
        them (``P∞`` rows of one class, ``ρ`` on a class).
        """
        return self._texts.text(x.num, x.den, self.params)

    def to_texts(self, xs: Iterable[RationalFunction]) -> list[str]:
        """:meth:`to_text` of each of ``xs``, in one loop (the writers' many values)."""
        return self._texts.texts(xs, self.params)

    def denominator_factors(self, x: RationalFunction) -> list[str]:
        """The irreducible non-constant factors of the denominator of ``x``, as text."""
        if x.den.is_constant():
            return []
        return [self.poly_text(g) for g in self.irreducible_factors(x.den)]

    def to_latex(self, x: RationalFunction) -> str:
        """LaTeX of :meth:`to_text`'s form, ``\\frac{N}{D}`` (from the same remembered pieces, never through sympy)."""
        return self._texts.latex(x.num, x.den, self.params)

    # matrices ------------------------------------------------------------------------------
    def matrix(self, rows: Sequence[Sequence[Any]], ncols: int | None = None) -> PolyMatrix[RationalFunction]:
        """A dense matrix from row lists of exact numbers or rational functions."""
        return PolyMatrix([[self.scalar(x) for x in row] for row in rows], self) if rows else PolyMatrix([], self)

    def zeros(self, m: int, c: int) -> PolyMatrix[RationalFunction]:
        """The ``m x c`` zero matrix."""
        return PolyMatrix([[self.zero] * c for _ in range(m)], self)

    def identity(self, m: int) -> PolyMatrix[RationalFunction]:
        """The ``m x m`` identity."""
        M = self.zeros(m, m)
        for i in range(m):
            M.entries[i][i] = self.one
        return M

    @staticmethod
    def to_lists(M: PolyMatrix[RationalFunction]) -> list[list[RationalFunction]]:
        """The entries as a list of rows."""
        return M.tolist()

    def solve_sparse(self, rows: Sequence[Sequence[tuple[int, RationalFunction]]],
                     B: Sequence[Sequence[RationalFunction]]) -> list[list[RationalFunction]]:
        """The dense fraction-free solve (:func:`~exactpte.fields.rows.solve_rows_densely`)."""
        return solve_rows_densely(self, rows, B)

    @staticmethod
    def solve_phase_system(Q_rows: Sequence[Sequence[tuple[int, RationalFunction]]],
                           C: Sequence[Sequence[Sequence[RationalFunction]]], d: int, mean: Any = None) -> None:
        """No fast route for rational functions: the generic elimination runs."""
        return None

    def split(self, xs: Sequence[RationalFunction]) -> tuple[list[flint.fmpz_mpoly], flint.fmpz_mpoly]:
        """``xs`` as polynomial numerators over the lcm of their denominators."""
        den = self._one_poly
        for x in xs:
            if x.den != den:
                den = den * (x.den / den.gcd(x.den))
        return [x.num * (den / x.den) if x.den != den else x.num for x in xs], den

    def matrix_split(self, M: PolyMatrix[RationalFunction]) -> tuple[list[list[flint.fmpz_mpoly]], flint.fmpz_mpoly]:
        """``M`` over one common denominator (rows of polynomial numerators, the denominator)."""
        rows = M.tolist()
        width = len(rows[0]) if rows else 0
        nums, den = self.split([x for row in rows for x in row])
        return [nums[a * width : (a + 1) * width] for a in range(len(rows))], den

    def fraction(self, num: flint.fmpz_mpoly, den: flint.fmpz_mpoly) -> RationalFunction:
        """``num / den`` (polynomials), cancelled."""
        return RationalFunction(num, den, self)

    def sum_fractions(self, pairs: Sequence[tuple[flint.fmpz_mpoly, flint.fmpz_mpoly]]) -> RationalFunction:
        """``sum num / den`` for a handful of pairs: each cancelled on its own (a gcd with its own
        denominator), then added pairwise, where only a factor shared by two denominators can cancel
        (:func:`_cancelled_by`), never over the product of all denominators at once.

        Examples
        --------
        >>> F = RationalFunctionField(["p"])
        >>> p = F.ctx.gen(0)
        >>> str(F.sum_fractions([(p, 1 - p), (1 - 2 * p, p * (1 - p))]))
        '(1 - p)/p'
        """
        total = self.zero
        for num, den in pairs:
            total = total + RationalFunction(num, den, self)
        return total

    # substitution and polynomial conditions (stratification) ----------------------------------------
    def compose(self, x: RationalFunction, images: Sequence[T], target: TargetField[T]) -> T:
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

    def compose_poly(self, f: flint.fmpz_mpoly, images: Sequence[T], target: TargetField[T]) -> T:
        """A polynomial of this field's ring with parameter ``i`` replaced by ``images[i]`` (in ``target``)."""
        return polynomials.substitute(f, images, target)

    def poly(self, f: flint.fmpz_mpoly) -> RationalFunction:
        """A ring polynomial as a field element."""
        return RationalFunction(f, self._one_poly, self, canonical=True)

    def irreducible_factors(self, f: flint.fmpz_mpoly) -> list[flint.fmpz_mpoly]:
        """The distinct non-constant irreducible factors of a polynomial, each primitive with a
        positive leading coefficient (so equal sets compare equal)."""
        return polynomials.irreducible_factors(f)

    def linear_in(self, f: flint.fmpz_mpoly, var: int) -> tuple[flint.fmpz_mpoly, flint.fmpz_mpoly] | None:
        """``(a, b)`` with ``f = a * x_var + b`` and ``a, b`` free of ``x_var``, when ``f`` has degree 1 in it."""
        return polynomials.linear_in(f, var, self.ctx)

    def poly_text(self, f: flint.fmpz_mpoly) -> str:
        """A ring polynomial as sympy-parsable text (expanded)."""
        return poly_text(f, self.params)

    def solve(self, A: PolyMatrix[RationalFunction], B: PolyMatrix[RationalFunction]) -> PolyMatrix[RationalFunction]:
        """``X`` with ``A X = B`` by fraction-free (Bareiss) elimination over ``fmpz_mpoly``
        (:func:`~exactpte.fields.polymatrix.bareiss_solve`)."""
        return bareiss_solve(A, B)

    def solve_split(self, A: PolyMatrix[RationalFunction], B: PolyMatrix[RationalFunction]) -> tuple[list[list[flint.fmpz_mpoly]], flint.fmpz_mpoly]:
        """``X`` over ``det(A)`` times the lcm of ``B``'s column denominators, nothing cancelled
        (:func:`~exactpte.fields.polymatrix.bareiss_split`)."""
        return bareiss_split(A, B)

    def cofactors(self, dens: Sequence[flint.fmpz_mpoly]) -> tuple[list[flint.fmpz_mpoly], flint.fmpz_mpoly]:
        """``([lcm / den], lcm)`` of polynomials, remembered for the last tuples of denominator objects
        (each pair's gcd by :meth:`_denominator_pair`)."""
        key = tuple(map(id, dens))
        hit = self._cofactors.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], dens)):
            return hit[1]
        lcm = self._one_poly
        for den in dens:
            if not (den is lcm or den == lcm):
                lcm = self._denominator_pair(lcm, den)[3] if not lcm.is_one() else den
        out = ([lcm / den if not (den is lcm) else self._one_poly for den in dens], lcm)
        if len(self._cofactors) > 1024:
            self._cofactors.clear()
        self._cofactors[key] = (tuple(dens), out)  # the polynomials keep their ids valid
        return out

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
        return never_positive(polynomials.univariate(x.num * x.den))

    def evaluate(self, x: RationalFunction, values: Sequence[flint.fmpq]) -> flint.fmpq:
        """The exact value of ``x`` at a rational parameter point (``ZeroDivisionError`` at a pole)."""
        return x.evaluate(values)
