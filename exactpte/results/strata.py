"""The decomposition on every stratum of the parameter space: the result of :func:`~exactpte.results.stratify.stratify`.

A :class:`StratifiedDecomposition` holds the strata that partition a parametric chain's valid
region, each a :class:`Stratum` (its conditions, the parameters an equation fixed, and the
:class:`~exactpte.Decomposition` that holds on it, or ``None`` where it is decided pointwise).
Conditions are polynomials in the original parameters, printed as sympy-parsable text
(``EXPR = 0`` or ``EXPR != 0``).

Examples
--------
>>> import exactpte
>>> m = exactpte.ParametricChain([[0, "q", "1-q"], [0, "p", "1-p"], [0, 1, 0]], [0, 1, 0], params=["p", "q"])
>>> strat = exactpte.stratify(m)
>>> [s.conditions for s in strat.strata][:3]
[['p != 0', 'p - 1 != 0', 'q != 0', 'q - 1 != 0'], ['p = 0', 'q != 0', 'q - 1 != 0'], ['p = 0', 'q = 0']]
>>> [str(x) for x in strat.at({"p": 0, "q": "1/3"}).g_star]    # periodic at p = 0
['2/3', '1', '0']
>>> [str(x) for x in strat.at({"p": "1/2", "q": "1/3"}).g_star]  # generic: -1/(p - 2)
['2/3', '2/3', '2/3']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flint

from exactpte.model.chain import Chain, MarkovRewardProcess
from exactpte.errors import GenericRegionError, InvalidChainError, UsageError
from exactpte.fields import RationalFunction, RationalFunctionField, polynomials
from exactpte.model.parametric import ParametricChain
from exactpte.fields.orientation import RegionPrinter
from exactpte.results.cases import Case, cases, grouped, region, restricts
from exactpte.results.quantities import PER_STATE, REGISTRY, Only
from exactpte.results.report import LABEL_WIDTH, cell_text, require_quantities
from exactpte.results.decomposition import Decomposition, decompose

__all__ = ["Stratum", "StratifiedDecomposition", "Condition", "PER_STATE"]


@dataclass(frozen=True)
class Condition:
    """``poly = 0`` or ``poly != 0``, ``poly`` in the original parameters' polynomial ring.

    ``decided`` is ``False`` when it could not be decided whether ``poly`` vanishes at a valid point (two
    or more parameters, no root-free certificate and no point found): an equation's stratum may then be
    empty, and an inequation may be implied by the region.  Such a condition is kept (the strata still
    partition the region) and printed marked "not decided"."""

    poly: flint.fmpz_mpoly = field(repr=False)
    equation: bool
    text: str
    decided: bool = True

    def holds(self, field_: RationalFunctionField, values: Sequence[flint.fmpq]) -> bool:
        """Whether the condition holds at the point ``values`` (in the original parameters' order)."""
        zero = field_._eval_poly(self.poly, values) == 0
        return zero if self.equation else not zero

    def __str__(self) -> str:
        return f"{self.text} {'=' if self.equation else '!='} 0"

    def simplest(self) -> str:
        """``p = 1`` for an equation linear in one parameter, else :meth:`__str__`."""
        degrees = self.poly.degrees()
        used = [k for k, d in enumerate(degrees) if d]
        if self.equation and len(used) == 1 and degrees[used[0]] == 1:
            b, a = polynomials.univariate_in(self.poly, used[0])[:2]
            return f"{self.poly.context().names()[used[0]]} = {flint.fmpq(-b, a)}"
        return str(self)


NOT_DECIDED = "(not decided)"
"""The mark of a condition that could not be decided (:attr:`Condition.decided`) in text and LaTeX."""


@dataclass(frozen=True, eq=False)
class Stratum:
    """One stratum: conditions, the parameters left free on it, how the others are fixed, and the
    decomposition that holds there (``None`` for a pointwise stratum)."""

    equations: tuple[Condition, ...]
    inequations: tuple[Condition, ...]
    params: tuple[str, ...]
    substitution: dict[str, RationalFunction | flint.fmpq] = field(repr=False)
    chain: Chain | None = field(repr=False)
    decomposition: Decomposition | None = field(repr=False)
    region: tuple[str, ...] | None = None
    """The free parameters' range on the stratum in its simplest form (``0 < p < 1``): validity (every
    entry a probability) and the inequations together, implied conditions dropped; ``None`` when no
    simpler form was found (the inequations then stand as they are)."""

    @property
    def where(self) -> list[str]:
        """What the stratum is, in its simplest form: its equations, then its :attr:`region` (or its inequations)."""
        eqs = [c.simplest() for c in self.equations]
        return eqs + (list(self.region) if self.region is not None else [str(c) for c in self.inequations])

    @property
    def conditions(self) -> list[str]:
        """Equations then inequations, as ``"EXPR = 0"`` / ``"EXPR != 0"`` text."""
        return [str(c) for c in (*self.equations, *self.inequations)]

    @property
    def not_decided(self) -> list[str]:
        """The conditions (as in :attr:`conditions`) not decided: an equation whose stratum may hold no
        valid point, an inequation that may be implied by the region (:attr:`Condition.decided`)."""
        return [str(c) for c in (*self.equations, *self.inequations) if not c.decided]

    @property
    def where_marked(self) -> list[str]:
        """:attr:`where` for reading, each condition not decided followed by ``(not decided)``."""
        undecided = set(self.not_decided)
        return [f"{line} {NOT_DECIDED}" if line in undecided else line for line in self.where]

    @property
    def pointwise(self) -> bool:
        """Whether the stratum has no closed form (an equation that eliminates no parameter rationally)."""
        return self.decomposition is None

    def contains(self, field_: RationalFunctionField, values: Sequence[flint.fmpq]) -> bool:
        """Whether every condition holds at ``values``."""
        return all(c.holds(field_, values) for c in (*self.equations, *self.inequations))

    def to_dict(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False) -> dict[str, Any]:
        """The stratum in the JSON contract: ``conditions``, ``substitution`` and the keys of its
        decomposition (the options as :meth:`~exactpte.Decomposition.to_dict`'s: ``only`` the quantities
        asked, e.g. ``"rho,h"``; ``factored``: each distinct denominator named once,
        :mod:`exactpte.results.factored`)."""
        out: dict[str, Any] = {"conditions": self.conditions, "where": self.where}
        if self.not_decided:
            out["not_decided"] = self.not_decided
        if self.decomposition is None:
            out["pointwise"] = True
            return out
        text = self.decomposition.field.to_text
        out["substitution"] = {name: text(value) for name, value in self.substitution.items()}
        body = self.decomposition.to_dict(only=only, include_P_inf=include_P_inf,
                                          include_hitting_times=include_hitting_times, factored=factored)
        body.setdefault("params", list(self.params))
        body.setdefault("assumptions", [])
        out.update(body)
        return out


@dataclass(frozen=True, eq=False)
class StratifiedDecomposition:
    """The decomposition of a parametric chain on every stratum of its parameter space.

    ``strata[0]`` is the generic stratum; the strata partition the valid region (every point
    where the entries are probabilities lies in exactly one).  Shares ``chain``, :meth:`at`,
    :meth:`to_dict` and :meth:`to_json` with the other result kinds (:class:`exactpte.results.decomposition.Result`).
    """

    chain: ParametricChain
    strata: tuple[Stratum, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "strata", tuple(self.strata))

    @property
    def params(self) -> tuple[str, ...]:
        """The chain's parameters."""
        return tuple(self.chain.params)

    @property
    def field(self) -> RationalFunctionField:
        """The chain's field, ``QQ(params)``."""
        F = self.chain.field
        assert isinstance(F, RationalFunctionField)
        return F

    def locate(self, point: Mapping[str, Any]) -> Stratum:
        """The stratum holding ``point`` (``{"p": "1/3", ...}``), after checking the point is valid.

        Raises
        ------
        GenericRegionError
            The point is not valid (an entry is negative or has a pole there).
        """
        return self._located(point)[0]

    def _located(self, point: Mapping[str, Any]) -> tuple[Stratum, list[flint.fmpq], MarkovRewardProcess]:
        """``(stratum, values, rational chain at the point)``: the point parsed and substituted once."""
        values = self.chain._point(point)
        try:
            rational = self.chain.at(point, check=False)
        except (InvalidChainError, GenericRegionError) as e:
            raise GenericRegionError(f"the point {dict(zip(self.params, map(str, values)))} is not valid: {e}") from None
        hits = [s for s in self.strata if s.contains(self.field, values)]
        if len(hits) != 1:  # a partition: anything else is a bug, never a silent answer
            raise AssertionError(f"{len(hits)} strata hold the point {values}")
        return hits[0], values, rational

    def at(self, point: Mapping[str, Any]) -> Decomposition:
        """The exact rational :class:`~exactpte.Decomposition` at ``point``, from the stratum holding it.

        Examples
        --------
        >>> import exactpte
        >>> m = exactpte.ParametricChain([["1-p", "p"], [1, 0]], [1, 0], params=["p"])
        >>> strat = exactpte.stratify(m)
        >>> strat.at({"p": 0}).classes, strat.at({"p": "1/2"}).classes
        (((0,),), ((0, 1),))
        """
        stratum, values, rational = self._located(point)
        if stratum.decomposition is None:
            return decompose(rational)
        if not stratum.params:
            return stratum.decomposition
        by_name = dict(zip(self.params, values))
        return stratum.decomposition.at({p: by_name[p] for p in stratum.params})

    def to_dict(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False) -> dict[str, Any]:
        """``{"params": [...], "strata": [...]}``, each stratum a :meth:`Stratum.to_dict`; the options are
        every result's (:class:`~exactpte.model.interface.Output`), applied on every stratum (``factored``:
        denominators named once per stratum)."""
        return {"format": "exactpte.strata/1", "params": list(self.params),
                "strata": [s.to_dict(only=only, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times,
                                     factored=factored) for s in self.strata]}

    def to_json(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False, indent: int | None = None) -> str:
        """JSON text of :meth:`to_dict`."""
        import json

        return json.dumps(self.to_dict(only=only, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times,
                                       factored=factored), indent=indent)

    def to_sympy(self, *, quantities: Sequence[str] = PER_STATE) -> dict[str, list[Any]]:
        """A ``sympy.Piecewise`` per state for each per-state quantity (``g_star``, ``v_star``,
        ``rho``, ``h``, ``psi``): one piece per stratum, its condition the stratum in its simplest
        form (:attr:`Stratum.where`: ``Eq(p, 0) & (q > 0) & (q < 1)``; pointwise strata give
        ``nan``: evaluate them with :meth:`at`)."""
        import sympy

        F = self.field
        syms = dict(zip(self.params, F.symbols))
        out: dict[str, list[Any]] = {}
        for name in quantities:
            if name not in PER_STATE:
                raise UsageError(f"to_sympy gives the per-state quantities {', '.join(PER_STATE)}, not {name!r}")
            pieces_per_state: list[list[tuple[Any, Any]]] = [[] for _ in range(self.chain.n)]
            for s in self.strata:
                cond = sympy.And(*[_sympy_condition(F, text) for text in s.where])
                for state in range(self.chain.n):
                    if s.decomposition is None:
                        expr = sympy.nan
                    else:
                        x = getattr(s.decomposition, name)[state]
                        expr = x.to_sympy().xreplace({sympy.Symbol(p, real=True): syms[p] for p in s.params}) \
                            if s.params else sympy.Rational(int(x.p), int(x.q))
                    pieces_per_state[state].append((expr, cond))
            out[name] = [sympy.Piecewise(*_merged(pieces)) for pieces in pieces_per_state]
        return out

    def to_latex(self, *, quantities: Sequence[str] | str | None = None) -> str:
        r"""Each quantity asked (default ``g_star`` and ``rho``; any of the JSON contract's, e.g.
        ``"rho,h,basis"``) in LaTeX.  A per-state quantity is a cases table per state, named by the
        state's label as in :meth:`Decomposition.to_latex`; strata with the same value share one
        line, its condition the union of theirs (as :meth:`to_sympy` merges them).  Any other
        quantity is one line per stratum.

        Examples
        --------
        >>> import exactpte
        >>> strat = exactpte.stratify(exactpte.example("two-state-pq"))
        >>> tex = strat.to_latex(quantities="g_star")
        >>> tex.count(r"\begin{cases}"), r"g^\star_\Pi(\text{on})" in tex, tex.count(r"\ \text{or}\ ") > 0
        (2, True, True)
        """
        names = ("g_star", "rho") if quantities is None else require_quantities(quantities)
        assert names is not None
        blocks = []
        for name in names:
            if name in PER_STATE or name == "hitting_times":
                blocks += [self._cases_latex(name, state) for state in range(self.chain.n)]
            else:
                blocks.append(self._strata_latex(name))
        return "\\[\n" + "\n\\]\n\\[\n".join(blocks) + "\n\\]"

    def _cases_latex(self, name: str, state: int) -> str:
        """``symbol(label) = \\begin{cases} value & region ...``: one case per distinct closed form
        (:func:`~exactpte.results.cases.cases`), each region in its simplest form, the generic stratum's case last
        as ``\\text{otherwise}``; a value that holds everywhere without cases."""
        found = cases(self, name, state)
        symbol = f"{REGISTRY[name].latex}({_latex_label(self.chain.label(state))})"
        if len(found) == 1:
            return f"{symbol} = {self._value_latex(found[0])}"
        found.sort(key=lambda c: 0 in c.members)  # the generic stratum's case last: "otherwise"
        lines = []
        for c in found:
            where = r"\text{otherwise}" if 0 in c.members else \
                r"\ \text{or}\ ".join(_latex_piece(piece, len(pieces) > 1) for pieces in [region(self, c.members)]
                                       for piece in pieces)
            lines.append(f"{self._value_latex(c)} & {where}")
        return f"{symbol} = \\begin{{cases}} " + r" \\ ".join(lines) + r" \end{cases}"

    def _value_latex(self, case: Case) -> str:
        """A case's closed form in LaTeX (denominators positive on its stratum's region, fractions as ``\\frac``)."""
        if case.value is None:
            return r"\text{(pointwise)}"
        dec = self.strata[case.head].decomposition
        assert dec is not None
        return str(RegionPrinter.of_chain(dec.chain).latex(case.value)).replace(r"\tfrac", r"\frac")

    def _strata_latex(self, name: str) -> str:
        """A quantity that is no per-state vector, one line per stratum."""
        cases = []
        for s in self.strata:
            value = r"\text{(pointwise)}" if s.decomposition is None else \
                _latex_value(s.decomposition.field.to_latex, getattr(s.decomposition, name))
            cases.append(f"{value} & {_latex_where(s)}")
        return f"{REGISTRY[name].latex} = \\begin{{cases}} " + r" \\ ".join(cases) + r" \end{cases}"

    def table(self, *, only: Any = None) -> str:
        """Each group of strata that share their closed forms (the same structure, and every quantity shown the
        largest stratum's closed form restricted: :func:`~exactpte.results.cases.restricts`) once: its region in
        simplest form (a whole line as the line, the generic stratum's group last as "otherwise"), then the
        per-state table (the quantities of ``only`` when given) of its largest stratum."""
        names = None if only is None else (require_quantities(only) or ())
        shown = PER_STATE if names is None else tuple(n for n in names if n in PER_STATE or n == "hitting_times")

        def joins(head: int, k: int) -> bool:
            a, b = self.strata[head].decomposition, self.strata[k].decomposition
            if a is None or b is None:
                return a is None and b is None
            if names is None and (a.classes, a.periods, a.transient, a.anchors) != (b.classes, b.periods, b.transient, b.anchors):
                return False  # the full table shows the structure
            return all(restricts(self, head, getattr(a, n)[s], k, getattr(b, n)[s]) for n in shown for s in range(self.chain.n)) \
                and all(getattr(a, n) == getattr(b, n) for n in (names or ()) if n not in shown)

        groups = grouped(self, joins)
        groups.sort(key=lambda g: 0 in g)
        out = []
        for k, group in enumerate(groups):
            d = self.strata[group[0]].decomposition
            if d is None:
                body = "  pointwise: decompose each point (.at)"
            else:
                body = d.table() if names is None else _only_table(d, names)
            pieces = region(self, group)
            where = "everywhere" if not pieces else "otherwise" if 0 in group and len(groups) > 1 else \
                " or ".join(f"({' and '.join(p)})" if len(p) > 1 and len(pieces) > 1 else " and ".join(p) for p in pieces)
            out.append(f"[{k}] {where}\n{body}")
        return "\n".join(out)

    def to_csv(self, *, only: Any = None) -> str:
        """One CSV of every stratum's per-state rows, led by the columns ``stratum`` and ``conditions``
        (a pointwise stratum has one row without values)."""
        import csv
        import io

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        header_written = False
        for k, s in enumerate(self.strata):
            where = " and ".join(s.where_marked)
            if s.decomposition is None:
                if header_written:
                    writer.writerow([k, where])
                continue
            rows = list(csv.reader(io.StringIO(s.decomposition.to_csv(only=only))))
            if not header_written:
                writer.writerow(["stratum", "conditions", *rows[0]])
                header_written = True
            for row in rows[1:]:
                writer.writerow([k, where, *row])
        return buf.getvalue()

    def cases(self, name: str, state: int) -> list[Case]:
        """The strata grouped by the closed form of ``name[state]`` (:func:`~exactpte.results.cases.cases`): one
        case per distinct form, the generic stratum's first among those holding it."""
        return cases(self, name, state)

    def plot(self, quantity: str = "rho", state: int | str = 0, ax: Any = None) -> Any:
        """A picture of the parameter space (one or two parameters): the valid region, the curves and
        points of the lower strata labelled with what changes there (and their values where those differ),
        and ``quantity[state]`` over the region (:func:`exactpte.plots.strata.plot_strata`; needs
        matplotlib); ``state`` by its index or its label."""
        from exactpte.plots.strata import plot_strata

        keys = (*PER_STATE, "hitting_times")
        if quantity not in keys:
            raise UsageError(f"plot draws one of the per-state quantities {', '.join(keys)}, not {quantity!r}")
        if isinstance(state, str):
            labels = [self.chain.label(s) for s in range(self.chain.n)]
            if state not in labels:
                raise UsageError(f"{state!r} is not a state's label; the states are {', '.join(labels)}")
            state = labels.index(state)
        return plot_strata(self, quantity, state, ax)

    def _repr_latex_(self) -> str:
        return self.to_latex()

    def _repr_html_(self) -> str:
        import html

        items = []
        for s in self.strata:
            where = html.escape(" and ".join(s.where_marked) or "everywhere")
            if s.decomposition is None:
                items.append(f"<li><b>{where}</b>: pointwise</li>")
                continue
            d = s.decomposition
            text = d.field.to_text
            cells = "".join(f"<tr><td>{i}</td><td>{html.escape(text(g))}</td><td>{html.escape(text(r))}</td></tr>"
                            for i, (g, r) in enumerate(zip(d.g_star, d.rho)))
            items.append(f"<li><b>{where}</b>: periods {list(d.periods)}, classes {[list(c) for c in d.classes]}"
                         f"<table><tr><th>state</th><th>g*</th><th>&rho;</th></tr>{cells}</table></li>")
        return f"<p>StratifiedDecomposition over {html.escape(', '.join(self.params))}: {len(self.strata)} strata</p><ul>{''.join(items)}</ul>"

    def __str__(self) -> str:
        out = [f"StratifiedDecomposition over {', '.join(self.params)}: {len(self.strata)} strata"]
        for k, s in enumerate(self.strata):
            where = " and ".join(s.where_marked) or "everywhere"
            if s.decomposition is None:
                out.append(f"  [{k}] {where}: pointwise (no rational elimination; decompose each point)")
                continue
            d = s.decomposition
            text = d.field.to_text
            printer = RegionPrinter.of_chain(d.chain).text
            subst = ", ".join(f"{p} = {text(v)}" for p, v in s.substitution.items())
            label = d.chain.label
            classes = ", ".join("{" + ", ".join(label(x) for x in c) + "}" for c in d.classes)
            transient = ", ".join(label(x) for x in d.transient) or "none"
            out.append(f"  [{k}] {where}{' (' + subst + ')' if subst else ''}: classes {classes}, "
                       f"periods {list(d.periods)}, transient {transient}")
            out.append(f"       g* = ({', '.join(cell_text(printer(x)) for x in d.g_star)})")
        return "\n".join(out)

    def __repr__(self) -> str:
        return f"StratifiedDecomposition(params={list(self.params)}, strata={len(self.strata)})"


def _latex_where(stratum: Stratum) -> str:
    """A stratum's conditions in LaTeX, comma-separated (``\\text{always}`` for none)."""
    undecided = set(stratum.not_decided)
    return r",\ ".join(_latex_condition(c) + (r"\ \text{" + NOT_DECIDED + "}" if c in undecided else "")
                       for c in stratum.where) or r"\text{always}"


def _latex_piece(piece: Sequence[str], grouped: bool) -> str:
    """One piece of a region (conditions read with "and") in LaTeX, comma-separated, in parentheses when
    ``grouped`` with others."""
    conditions = []
    for c in piece:
        mark = c.endswith(NOT_DECIDED)
        core = c[: -len(NOT_DECIDED)].rstrip() if mark else c
        conditions.append(_latex_condition(core) + (r"\ \text{" + NOT_DECIDED + "}" if mark else ""))
    text = r",\ ".join(conditions)
    return f"({text})" if grouped and len(conditions) > 1 else text


def _latex_label(label: str) -> str:
    """A state's label as LaTeX text (``\\text{x0}``, underscores escaped)."""
    return r"\text{" + label.replace("_", r"\_") + "}"


def _latex_value(latex: Any, value: Any) -> str:
    """A scalar, vector (a row) or matrix (rows, possibly ragged) of field elements in LaTeX."""
    if isinstance(value, Sequence) and not isinstance(value, str):  # tuples, lists, the basis' row views
        if value and isinstance(value[0], Sequence) and not isinstance(value[0], str):
            rows = [" & ".join(latex(x) for x in row) for row in value]
            return r"\begin{pmatrix} " + r" \\ ".join(rows) + r" \end{pmatrix}"
        return r"\left(" + ", ".join(latex(x) for x in value) + r"\right)"
    return str(latex(value))


def _only_table(dec: Decomposition, names: Sequence[str]) -> str:
    """The per-state quantities of ``names`` as aligned columns (state, label, values), the other
    quantities as ``name = value`` lines beneath."""
    text = RegionPrinter.of_chain(dec.chain).text
    per_state = [n for n in names if n in PER_STATE or n == "hitting_times"]
    rows = [["state", "label", *per_state]]
    rows += [[str(s), cell_text(dec.chain.label(s), LABEL_WIDTH), *(cell_text(text(getattr(dec, n)[s])) for n in per_state)]
             for s in range(dec.n)]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    out = ["  " + "  ".join(cell.rjust(w) for cell, w in zip(r, widths)) for r in rows] if per_state else []
    for n in names:
        if n not in per_state:
            value = getattr(dec, n)
            shown = [[text(x) for x in row] for row in value] if value and isinstance(value[0], tuple) else [text(x) for x in value]
            out.append(f"  {n} = {shown}")
    return "\n".join(out)


def _latex_condition(text: str) -> str:
    """One condition of :attr:`Stratum.where` as LaTeX (``**`` powers, ``*`` products, ``!=``, ``<``)."""
    return text.replace("**", "^").replace("*", " ").replace("!=", r"\neq")


def _merged(pieces: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """One piece per distinct value, its condition the ``Or`` of its strata's (the strata are disjoint,
    so order does not matter; Piecewise would merge neighbours itself, into a conjunctive form)."""
    import sympy

    conds: dict[Any, list[Any]] = {}
    for expr, cond in pieces:
        conds.setdefault(expr, []).append(cond)
    return [(expr, sympy.Or(*cs)) for expr, cs in conds.items()]


_RELATION = re.compile(r"\s*(<=|>=|!=|<|>|=)\s*")


def _sympy_condition(F: RationalFunctionField, text: str) -> Any:
    """One line of :attr:`Stratum.where` (``"0 < p < 1"``, ``"q = 1 - p"``, ``"p*q - 1 != 0"``) as a
    sympy condition; each side read by the expression parser (never evaluated)."""
    import sympy

    relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "=": sympy.Eq, "!=": sympy.Ne}
    parts = _RELATION.split(text.strip())
    sides = [F.convert(side, "a stratum's condition").to_sympy() for side in parts[::2]]
    return sympy.And(*[relation[op](a, b) for a, op, b in zip(sides, parts[1::2], sides[1:])])
