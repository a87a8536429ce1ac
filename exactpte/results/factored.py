"""A factored output for big answers: every distinct denominator named once, each entry written over its name.

A parametric decomposition's entries share a handful of denominators (a class's ``det(I - P_T)``,
its stationary normaliser), and the plain JSON writes each one again in every entry: on the
benchmark models most of the printed text is repeated denominators.  The factored form names each
distinct non-constant denominator once, ``"denominators": {"D1": "p**2*q + ..."}``, and writes an
entry ``num/den`` as ``"(num)/D1"`` (a single-term numerator without parentheses).  Entries with a
constant denominator are written as usual (as the plain form writes them).  Rational results name their integer denominators the
same way (``"3/D1"`` with ``"D1": "4250"``), so one reader serves both.  Reading it back is a
textual substitution of ``(den)`` for each name (:func:`expand`); a numerator over a named
denominator is printed by the plain form's rule for a polynomial (:func:`~exactpte.fields.printing.rational_text`:
factored only where that is cheap) when it has at most :data:`SMALL` terms, expanded otherwise.

The names are ``D1, D2, ...`` in order of first appearance; if a parameter is itself called
``D<k>`` the prefix becomes ``DEN`` (then ``DEN_``, ``DEN__``, ... while a parameter is called so):
no name is ever a parameter's.  A name's denominator is a polynomial of the parameters, never of
other names; :func:`expand` refuses a table that breaks these rules.

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("two-state-pq"))
>>> d = dec.to_dict(only="rho,h", factored=True)
>>> d["denominators"], d["rho"]
({'D1': 'p + q', 'D2': '(p + q)**2'}, ['q/D1', 'q/D1'])
>>> [dec.field.read_result(t) for t in expand(d)["h"]] == list(dec.h)  # the same values, read back
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import flint

from exactpte.errors import brief
from exactpte.fields.orientation import RegionPrinter, is_sum
from exactpte.fields.printing import poly_text, rational_text, remembered, signature

__all__ = ["DenominatorNames", "combine_parts", "expand", "bounded_expansion", "EXPANSION_FACTOR", "factored_latex", "to_latex_block"]

SMALL = 40
"""Numerators of at most this many terms are printed by the plain form's rule (factored where that is cheap and shorter)."""


class DenominatorNames:
    """A text writer for one field's elements that names each distinct denominator once.

    Call it on an element for the entry's text; :attr:`table` is ``{"D1": text, ...}`` in order of
    first use.  ``x = num/den`` is printed ``"(num)/Dk"``: ``num`` expanded, ``Dk`` the name of ``den``;
    a denominator is named only where its text is longer than its name (``1/2``, ``q/p`` stay as they
    are).  With a :class:`~exactpte.fields.orientation.RegionPrinter` (``printer``) each denominator is
    written positive on the chain's region (``D1 = 1 - p*q``, the sign in the numerator).
    """

    def __init__(self, field: Any, printer: RegionPrinter | None = None) -> None:
        self.field = field
        params = tuple(getattr(field, "params", ()))
        self.prefix = name_prefix(params)
        self.params = params
        self.printer = printer if printer is not None else RegionPrinter(field)
        self._names: dict[Any, list[tuple[Any, str]]] = {}  # a cheap key -> [(denominator, name)]
        self.table: dict[str, str] = {}
        # texts of entries met before (outputs repeat values, as the same and as equal objects): by identity
        # (the object held, so its id stays valid), then by value
        self._by_id: dict[int, tuple[Any, str]] = {}
        self._by_value: dict[tuple[Any, ...], list[tuple[Any, str]]] = {}
        self._plain_dens: dict[Any, list[tuple[Any, str | None]]] = {}  # denominator -> its text when not named
        self._gcds: dict[Any, list[tuple[Any, bool]]] = {}  # a pair of denominators -> whether they are coprime

    def _key(self, den: Any) -> Any:
        return int(den) if not self.field.is_parametric else (len(den), int(den.leading_coefficient()), tuple(den.degrees()))

    def _name(self, den: Any, den_text: Callable[[], str]) -> str:
        """The name of ``den`` (given when first met)."""
        def new_name() -> str:
            name = f"{self.prefix}{len(self.table) + 1}"
            self.table[name] = den_text()
            return name

        return remembered(self._names, self._key(den), den, new_name)

    def _next_name(self, den: Any) -> str:
        """The name ``den`` has, or would get next."""
        for held, name in self._names.get(self._key(den), []):
            if held == den:
                return name
        return f"{self.prefix}{len(self.table) + 1}"

    def __call__(self, x: Any) -> str:
        if not getattr(self.field, "is_parametric", False):  # fmpq: p/q with q named when that is shorter
            q = int(x.q)
            if q == 1 or len(str(q)) <= len(self._next_name(q)):
                return str(x)
            return f"{int(x.p)}/{self._name(q, lambda: str(q))}"
        hit = self._by_id.get(id(x))
        if hit is not None and hit[0] is x:
            return hit[1]
        text = remembered(self._by_value, (*signature(x.num), *signature(x.den)), x, lambda: self._text(x))
        self._by_id[id(x)] = (x, text)
        return text

    def _text(self, x: Any) -> str:
        """An element of a parametric field over its denominator's name (see :meth:`__call__`)."""
        num, den = self.printer.oriented(x)
        if den.is_constant():  # nothing to name: the plain text (its path products factored: brp64_2 84 MB, expanded 950 MB)
            return str(self.field.to_text(x))
        if len(num) <= SMALL:  # the plain rule (``(1 - p)**14``); a big numerator is not worth factoring
            top = rational_text(num, self.field.one.num, self.params)
            top_sum = is_sum(top)
        else:
            top, top_sum = poly_text(num, self.params), len(num) > 1
        over = self._over(den)
        return f"({top})/{over}" if top_sum else f"{top}/{over}"

    def _over(self, den: Any) -> str:
        """A non-constant denominator (positive on the region where that is decided, else with a positive
        leading coefficient) as the name of its primitive part, its integer content written beside it (``6*p +
        6*q`` is named as ``p + q``: written ``(6*D1)``; dividing every coefficient of a big numerator by the
        content would cost more than the text); as its own text where that is no longer than the name."""
        content = int(den.content())
        primitive = den // content if content != 1 else den
        plain = remembered(self._plain_dens, self._key(primitive), primitive, lambda: self._plain_text(primitive))
        if plain is not None:
            return plain if content == 1 else f"({content}*{plain})"
        name = self._name(primitive, lambda: self.printer.denominator(primitive)[1])
        return name if content == 1 else f"({content}*{name})"

    def _plain_text(self, primitive: Any) -> str | None:
        """A primitive denominator's own text (``p``, ``p**2``) when it is an atom no longer than a name, else None."""
        if len(primitive) > 1:
            return None
        text = self.printer.denominator(primitive)[1]
        return text if len(text) <= len(self._next_name(primitive)) and "*" not in text else None

    def parts(self, parts: Sequence[tuple[Any, Any]], value: Any = None) -> str:
        """A sum of parts ``num/den`` (ring elements, not reduced: an entry of a periodic chain's basis, g*, ψ, v*
        before its parts are brought over one denominator) as ``"(n1)/D1 + (n2)/(4*D2)"``.  Parts over one
        denominator are added and each sum cancelled (parts that cancel vanish); the entry is printed reduced
        when that is short (a single part, a constant, or a reduced text no longer than the parts';
        ``value``: the reduced entry when it is known, else it is computed where that is cheap)."""
        combined = combine_parts(self.field, parts)
        if not combined:
            return "0"
        if len(combined) == 1:
            num, den = combined[0]
            return self(self.field.fraction(num, den)) if not den.is_constant() else \
                str(self.field.to_text(self.field.fraction(num, den)))
        written = self._written(combined)
        reduced = value if value is not None else _reduced_if_short(self.field, combined, self._coprime)
        if reduced is not None and (reduced.is_constant() or sum(map(len, (reduced.num, reduced.den))) <= 4 * len(written)):
            plain = self.printer.text(reduced)
            if reduced.is_constant() or len(plain) <= len(written):
                return plain
        return written

    def _coprime(self, a: Any, b: Any) -> bool:
        """Whether two denominators are coprime (remembered: an answer's parts share a few denominators)."""
        key = (*signature(a), *signature(b))
        return remembered(self._gcds, key, (a, b), lambda: a.gcd(b).is_constant())

    def _written(self, combined: Sequence[tuple[Any, Any]]) -> str:
        """The parts as text, each over its denominator's name (a constant denominator's part as a polynomial)."""
        out = []
        for num, den in combined:
            if den.is_constant():
                text = poly_text(num, self.params, int(den.leading_coefficient()))
                out.append(f"({text})")
                continue
            if self.printer.sign(den) < 0:
                num, den = -num, -den
            over = self._over(den)
            out.append(f"({poly_text(num, self.params)})/{over}" if len(num) > 1 else f"{poly_text(num, self.params)}/{over}")
        return out[0] + "".join(f" - {t[1:]}" if t.startswith("-") else f" + {t}" for t in out[1:])


def combine_parts(field: Any, parts: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Parts ``(num, den)`` with those over one denominator (up to an integer factor) added, each sum cancelled,
    zeros dropped, every ``den`` with a positive leading coefficient; the parts over constants become one
    polynomial part.  In order of first appearance.

    Examples
    --------
    >>> from exactpte.fields import RationalFunctionField
    >>> F = RationalFunctionField(["p", "q"])
    >>> p, q = F.ctx.gens()
    >>> combine_parts(F, [(p*q - 1, 2*p*q - 2), (-p*q + 1, 2*p*q - 2)])     # g*(home) of the ruin chain
    []
    >>> combine_parts(F, [(-p*q + 1, 4*p*q - 4)]) == [(F.ctx.constant(-1), F.ctx.constant(4))]
    True
    """
    groups: dict[Any, list[list[Any]]] = {}
    order: list[list[Any]] = []  # [den, [(num, scale)]]: num/den = sum of num * scale over den ... each over den/scale
    for num, den in parts:
        if num.is_zero():
            continue
        if den.leading_coefficient() < 0:
            num, den = -num, -den
        bucket = groups.setdefault((len(den), tuple(den.degrees())), [])
        for held in bucket:
            if held[0] == den:  # the common case: one block's denominator, the same polynomial
                held[1].append((num, flint.fmpq(1)))
                break
            ratio = flint.fmpq(int(den.leading_coefficient()), int(held[0].leading_coefficient()))
            if held[0] * int(ratio.p) == den * int(ratio.q):  # den = ratio * held: num/den = (num/ratio)/held
                held[1].append((num, 1 / ratio))
                break
        else:
            group = [den, [(num, flint.fmpq(1))]]
            bucket.append(group)
            order.append(group)
    out = []
    for den, members in order:
        if len(members) == 1:
            total = members[0][0]
        else:
            scale = 1  # the lcm of the scales' denominators: every member over den * scale
            for _num, r in members:
                scale = scale * int(r.q) // math.gcd(scale, int(r.q))
            total = sum((num * int((r * scale).p) for num, r in members[1:]), members[0][0] * int((members[0][1] * scale).p))
            den = den * scale if scale != 1 else den
        if total.is_zero():
            continue
        g = total.gcd(den)
        if not g.is_one():
            total, den = total / g, den / g
        if den.leading_coefficient() < 0:
            total, den = -total, -den
        out.append((total, den))
    return out


SHORT_SUM = 120
"""A sum of parts of at most this many terms (numerators and denominators) is reduced to see whether that
prints shorter; a larger one only when its value at two points says it may be a constant."""

_POINTS = ((2, 3, 5, 7, 11, 13, 17), (3, 2, 7, 5, 13, 11, 19))


def _reduced_if_short(field: Any, parts: Sequence[tuple[Any, Any]], coprime: Callable[[Any, Any], bool]) -> Any:
    """The sum of ``parts`` (each cancelled) reduced, when that is cheap (at most :data:`SHORT_SUM` terms) or when
    it may be short: not when the denominators are pairwise coprime (``coprime``), for then the reduced
    denominator is their product (a factor of one divides every other part's term but not its own numerator),
    never a constant and longer than the parts; else when its values at two integer points agree (it may be a
    constant: decided exactly).  ``None`` otherwise."""
    if sum(len(n) + len(d) for n, d in parts) <= SHORT_SUM:
        return field.sum_fractions(parts)
    dens = [d for _n, d in parts]
    if any(not d.is_constant() for d in dens) and all(coprime(a, b) for k, a in enumerate(dens) for b in dens[k + 1:]):
        return None
    values = []
    for point in _POINTS:
        at = [flint.fmpz(v) for v in point[: len(field.params)]]
        try:
            values.append(sum((flint.fmpq(int(n(*at)), int(d(*at))) for n, d in parts), flint.fmpq(0)))
        except ZeroDivisionError:
            return None
    if values[0] != values[1]:
        return None  # not a constant (its values differ): the parts stay
    total = field.sum_fractions(parts)
    return total if total.is_constant() else None


def _one_group(text: str) -> bool:
    """Whether ``text`` is one parenthesised group, ``(...)``."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for ch in text[:-1]:
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return False
    return True


_PREFIXES = r"D(?:EN_*)?"
_NAME = re.compile(rf"({_PREFIXES})([0-9]+)")
"""A denominator's name, the one place its form is written: the prefix (``D``, ``DEN``, ``DEN_``, ...:
:func:`name_prefix`) and the index."""


def _has_name_form(text: str, prefix: str) -> bool:
    """Whether ``text`` is ``prefix`` followed by an index (a parameter of that form makes the prefix longer)."""
    m = _NAME.fullmatch(text)
    return m is not None and m[1] == prefix


def name_prefix(params: Sequence[str]) -> str:
    """The prefix of the denominators' names for a field with these parameter names: ``D``, or ``DEN``
    when a parameter is called ``D<k>``, ``DEN_`` when one is also called ``DEN<k>``, and so on."""
    prefix = "D"
    while any(_has_name_form(p, prefix) for p in params):
        prefix = "DEN" if prefix == "D" else prefix + "_"
    return prefix


def _name_pattern(table: dict[str, str], params: Sequence[str]) -> re.Pattern[str]:
    """The pattern of the names in ``table`` (one prefix, none a parameter's, as :func:`name_prefix` gives)."""
    prefixes = set()
    for name in table:
        m = _NAME.fullmatch(name)
        if m is None:
            raise ValueError(f"'denominators' names are D1, D2, ... (DEN1, ... when a parameter is called D<k>), not {brief(name, 40, quoted=True)}")
        prefixes.add(m[1])
    if len(prefixes) > 1:
        raise ValueError(f"'denominators' names have one prefix, not {sorted(prefixes)}")
    prefix = prefixes.pop() if prefixes else name_prefix(params)
    clash = [p for p in params if _has_name_form(p, prefix)]
    if clash:
        raise ValueError(f"the parameter {clash[0]!r} has the form of a denominator's name {prefix}<k>: the names take "
                         f"the prefix {name_prefix(params)} here")
    return _names_with(prefix)


def _names_with(prefix: str | None) -> re.Pattern[str]:
    """The names ``prefix<k>`` standing alone in an entry's text (group 1 the name, group 2 its index); a name of any
    prefix (:data:`_NAME`'s) when ``prefix`` is ``None``."""
    return re.compile(r"(?<![A-Za-z0-9_])(" + (re.escape(prefix) if prefix is not None else _PREFIXES) + r"([0-9]+))(?![A-Za-z0-9_])")


def expand(data: dict[str, Any]) -> dict[str, Any]:
    """The plain form of a factored dict: ``"denominators"`` removed and each name in an entry
    replaced by its denominator in parentheses (a rational ``"3/D1"`` with ``D1 = 4250`` becomes
    ``"3/4250"``).  A dict without ``"denominators"`` is returned as it is.

    Raises
    ------
    ValueError
        ``denominators`` is not a mapping of names to text, a name is not ``D<k>`` (with the
        prefix :func:`name_prefix` gives for ``data["params"]``), a denominator uses a name
        (names are not nested) or is empty, or an entry uses an undefined name.
    """
    table = data.get("denominators")
    if table is None:
        return data
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise ValueError("'denominators' must map names (D1, D2, ...) to denominators as text")
    params = data.get("params") or []
    if not isinstance(params, list) or not all(isinstance(p, str) for p in params):
        raise ValueError("'params' must be a list of parameter names")
    named = _name_pattern(table, params)
    for name, value in table.items():
        if not value.strip():
            raise ValueError(f"the denominator {name} is empty")
        used = named.search(value)
        if used is not None:
            raise ValueError(f"the denominator {name} uses the name {used[1]}: a denominator is written in the parameters, "
                             f"names are not nested")

    _bounded(data, table, named)

    def text(entry: str) -> str:
        def one(m: re.Match[str]) -> str:
            if m[1] not in table:
                raise ValueError(f"{m[1]} is used in {brief(entry, 60, quoted=True)} but not defined in 'denominators'")
            value = table[m[1]]
            return value if re.fullmatch(r"[0-9]+", value) else f"({value})"

        return named.sub(one, entry)

    def walk(x: Any) -> Any:
        if isinstance(x, str):
            return text(x)
        if isinstance(x, list):
            return [walk(y) for y in x]
        return x

    return {k: (v if k in _NOT_ENTRIES else walk(v)) for k, v in data.items() if k != "denominators"}


EXPANSION_FACTOR = 64
"""How much longer than the factored text its written-out form may be (plus 2^20 characters), here and in
``proofs-check result``: a real answer's entries share their names (crowds: 15 % shorter written out)."""

_NOT_ENTRIES = frozenset({"format", "labels", "params", "assumptions", "conditions", "where", "substitution"})
"""Keys of a factored dict whose texts are not entries (names in them are not denominators)."""


def bounded_expansion(data: dict[str, Any], table: dict[str, str], params: Sequence[str] = ()) -> None:
    """Raise ``ValueError`` if ``data`` (a factored dict naming the denominators of ``table``) written out would be
    more than :data:`EXPANSION_FACTOR` times its own length plus 2^20 characters, counted without building it: the
    check :func:`expand` makes first, and ``proofs-check result`` before it reads a factored answer.

    Examples
    --------
    >>> bounded_expansion({"g_star": ["1/D1"]}, {"D1": "3"})       # a real answer: its names are short and shared
    >>> bounded_expansion({"g_star": ["1/D1"] * 10_000}, {"D1": "7" * 20_000})
    Traceback (most recent call last):
    ...
    ValueError: written out, its named denominators would make it 200,080,000 characters, more than 64 times its own 60,000: not read
    """
    _bounded(data, table, _name_pattern(table, params))


def _bounded(data: dict[str, Any], table: dict[str, str], named: re.Pattern[str]) -> None:
    """Refuse (``ValueError``) a factored dict whose written-out text would exceed its own length times
    :data:`EXPANSION_FACTOR` plus 2^20 characters, counted before anything is built: an 82 KB candidate naming a
    50,000-digit denominator 4,000 times took 240 MB to write out."""
    own = sum(len(v) for v in table.values())
    extra = 0
    stack: list[Any] = [v for k, v in data.items() if k not in _NOT_ENTRIES and k != "denominators"]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, str):
            own += len(x)
            extra += sum(len(table.get(m[1], "")) + 2 for m in named.finditer(x))
    if extra > EXPANSION_FACTOR * own + 2**20:
        raise ValueError(f"written out, its named denominators would make it {own + extra:,} characters, more than "
                         f"{EXPANSION_FACTOR} times its own {own:,}: not read")


def _latex_poly(text: str) -> str:
    """A polynomial's text (``2*p**2*q - 3``) as LaTeX (``2 p^{2} q - 3``)."""
    return re.sub(r"\*\*([0-9]+)", r"^{\1}", text).replace("*", " ")


def _top_level(text: str, separators: str) -> list[int]:
    """Where the characters of ``separators`` stand outside parentheses in ``text`` (a sign counts only as a
    binary operator: a space before it)."""
    depth, out = 0, []
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in separators and (ch == "/" or (k > 0 and text[k - 1] == " ")):
            out.append(k)
    return out


def latex_entry(text: str, prefix: str | None = None) -> str:
    r"""An entry of the factored form (or any text of the plain form) in LaTeX: each term ``num/den`` as
    ``\frac{num}{den}``, a name ``D1`` as ``D_{1}`` (``prefix``: the names' prefix; ``None``: any of ``D``, ``DEN``, ``DEN_``, ...),
    ``**k`` as ``^{k}``.

    >>> latex_entry("(p*q - 4*p - 1)/(4*D1) - p/(2*D2)"), latex_entry("-1/4"), latex_entry("(3 - 2*b)/3")
    ('\\frac{p q - 4 p - 1}{4 D_{1}} - \\frac{p}{2 D_{2}}', '- \\frac{1}{4}', '\\frac{3 - 2 b}{3}')
    """
    cuts = _top_level(text, "+-")
    bounds = [0, *cuts, len(text)]
    terms = [text[a:b].strip() for a, b in zip(bounds, bounds[1:])]
    out = []
    for k, term in enumerate(terms):
        sign = ""
        if k:
            sign, term = term[0], term[1:].strip()
        out.append((sign, _latex_term(term, prefix)))
    first = out[0][1]
    return first + "".join(f" {sign} {body[2:]}" if body.startswith("- ") and sign == "+" else
                           f" + {body[2:]}" if body.startswith("- ") else f" {sign} {body}" for sign, body in out[1:])


def _latex_term(term: str, prefix: str | None) -> str:
    """One term ``num/den`` (or a polynomial) as LaTeX, a leading minus of a product before the fraction."""
    names = _names_with(prefix)

    def tex(part: str) -> str:
        part = part[1:-1] if _one_group(part) else part
        return names.sub(lambda m: f"D_{{{m[2]}}}", _latex_poly(part))

    slash = _top_level(term, "/")
    if not slash:
        return tex(term)
    num, den = term[: slash[0]], term[slash[0] + 1:]
    sign = ""
    if num.startswith("-") and not is_sum(num):
        sign, num = "- ", num[1:]
    return sign + rf"\frac{{{tex(num)}}}{{{tex(den)}}}"


def _index(name: str) -> str:
    """The index of a denominator's name (``"DEN_12"`` -> ``"12"``)."""
    m = _NAME.fullmatch(name)
    if m is None:
        raise ValueError(f"{name!r:.40} is not a denominator's name (D1, D2, ...)")
    return m[2]


def to_latex_block(table: dict[str, str]) -> str:
    r"""The named denominators as a LaTeX ``aligned`` block: ``D_{1} &= ...``, one a line."""
    lines = [rf"D_{{{_index(name)}}} &= {_latex_poly(text)}" for name, text in table.items()]
    return "\\[\n\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}\n\\]" if lines else ""


def factored_latex(dec: Any, columns: Sequence[str] = ("g_star", "v_star", "rho", "h", "psi")) -> str:
    r"""The per-state table as a LaTeX ``tabular`` over named denominators, the names defined beneath (a periodic
    chain's entries as sums of parts, as in the JSON): the columns of the plain table (state, class/phase, ``r``,
    then ``columns``), each denominator positive on the chain's region.

    Examples
    --------
    >>> import exactpte
    >>> tex = factored_latex(exactpte.decompose(exactpte.example("two-state-pq")))
    >>> r"\frac{q}{D_{1}}" in tex, "D_{1} &= p + q" in tex, r"$s$ & class/phase & $r$" in tex
    (True, True, True)
    """
    from exactpte.results.quantities import REGISTRY

    names = DenominatorNames(dec.field, RegionPrinter.of_chain(dec.chain))
    entry_parts = getattr(dec, "entry_parts", None)
    parts = {c: p for c in columns if entry_parts is not None and (p := entry_parts(c)) is not None}

    def cell(c: str, s: int) -> str:
        mine = parts.get(c, {}).get(s)
        if mine is None:
            return latex_entry(names(getattr(dec, c)[s]), names.prefix)
        complete = len(parts[c]) == dec.n  # every state as parts: the reduced values are never computed
        return latex_entry(names.parts(mine, None if complete else getattr(dec, c)[s]), names.prefix)

    S = dec.structure
    head = " & ".join(f"${REGISTRY[c].latex}$" for c in columns)
    out = [f"\\begin{{tabular}}{{ll{'r' * (len(columns) + 1)}}}", "\\toprule", f"$s$ & class/phase & $r$ & {head} \\\\",
           "\\midrule"]
    for s in range(dec.n):
        where = "$\\mathsf T$" if S.class_of[s] < 0 else f"$C_{{{S.class_of[s]},{S.phase_of[s]}}}$"
        reward = latex_entry(names(dec.chain.r[s]), names.prefix)
        cells = " & ".join(f"${cell(c, s)}$" for c in columns)
        out.append(f"{dec.chain.label(s).replace('_', chr(92) + '_')} & {where} & ${reward}$ & {cells} \\\\")
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out) + ("\n" + to_latex_block(names.table) if names.table else "")
