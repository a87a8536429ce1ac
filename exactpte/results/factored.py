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
({'D1': 'p + q', 'D2': 'p**2 + 2*p*q + q**2'}, ['q/D1', 'q/D1'])
>>> [dec.field.read_result(t) for t in expand(d)["h"]] == list(dec.h)  # the same values, read back
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from exactpte.fields.printing import poly_text, rational_text, remembered, signature

__all__ = ["DenominatorNames", "expand", "bounded_expansion", "EXPANSION_FACTOR", "factored_latex", "to_latex_block"]

SMALL = 40
"""Numerators of at most this many terms are printed by the plain form's rule (factored where that is cheap and shorter)."""


class DenominatorNames:
    """A text writer for one field's elements that names each distinct denominator once.

    Call it on an element for the entry's text; :attr:`table` is ``{"D1": text, ...}`` in order of
    first use.  ``x = num/den`` is printed ``"(num)/Dk"``: ``num`` expanded, ``Dk`` the name of ``den``.
    """

    def __init__(self, field: Any) -> None:
        self.field = field
        params = tuple(getattr(field, "params", ()))
        self.prefix = name_prefix(params)
        self.params = params
        self._names: dict[Any, list[tuple[Any, str]]] = {}  # a cheap key -> [(denominator, name)]
        self.table: dict[str, str] = {}
        # texts of entries met before (outputs repeat values, as the same and as equal objects): by identity
        # (the object held, so its id stays valid), then by value
        self._by_id: dict[int, tuple[Any, str]] = {}
        self._by_value: dict[tuple[Any, ...], list[tuple[Any, str]]] = {}

    def _name(self, den: Any, key: Any, den_text: Callable[[], str]) -> str:
        """The name of ``den`` (given when first met); ``key`` a cheap invariant of it, equality decides."""
        def new_name() -> str:
            name = f"{self.prefix}{len(self.table) + 1}"
            self.table[name] = den_text()
            return name

        return remembered(self._names, key, den, new_name)

    def __call__(self, x: Any) -> str:
        if not getattr(self.field, "is_parametric", False):  # fmpq: p/q with q named
            q = int(x.q)
            return str(x) if q == 1 else f"{int(x.p)}/{self._name(q, q, lambda: str(q))}"
        hit = self._by_id.get(id(x))
        if hit is not None and hit[0] is x:
            return hit[1]
        text = remembered(self._by_value, (*signature(x.num), *signature(x.den)), x, lambda: self._text(x))
        self._by_id[id(x)] = (x, text)
        return text

    def _text(self, x: Any) -> str:
        """An element of a parametric field over its denominator's name (see :meth:`__call__`)."""
        den = x.den
        if den.is_constant():  # nothing to name: the plain text (its path products factored: brp64_2 84 MB, expanded 950 MB)
            return str(self.field.to_text(x))
        over = self._over(den)
        if len(x.num) <= SMALL:  # the plain rule (``(1 - p)**14``); a big numerator is not worth factoring
            num = rational_text(x.num, self.field.one.num, self.params)
            return f"({num})/{over}" if _is_sum(num) else f"{num}/{over}"
        num = poly_text(x.num, self.params)
        return f"({num})/{over}" if len(x.num) > 1 else f"{num}/{over}"

    def _over(self, den: Any) -> str:
        """A non-constant denominator with a positive leading coefficient as the name of its primitive part, its
        integer content written beside it (``6*p + 6*q`` is named as ``p + q``: written ``(6*D1)``; dividing every
        coefficient of a big numerator by the content would cost more than the text)."""
        content = int(den.content())
        primitive = den // content if content != 1 else den
        name = self._name(primitive, (len(primitive), int(primitive.leading_coefficient()), tuple(primitive.degrees())),
                          lambda: poly_text(primitive, self.params))
        return name if content == 1 else f"({content}*{name})"

    def parts(self, parts: Sequence[tuple[Any, Any]]) -> str:
        """A sum of parts ``num/den`` (ring elements, not reduced: an entry of a periodic chain's basis, g*, ψ, v*
        before its parts are brought over one denominator) as ``"(n1)/D1 + (n2)/(4*D2)"``, each denominator named
        once made primitive with a positive leading coefficient (its integer content written beside the name)."""
        out = []
        nonzero = [(num, den) for num, den in parts if not num.is_zero()]
        for num, den in nonzero:
            if den.leading_coefficient() < 0:
                num, den = -num, -den
            if den.is_constant():
                text = poly_text(num, self.params, int(den.leading_coefficient()))
                out.append(f"({text})" if len(nonzero) > 1 else text)
                continue
            over = self._over(den)
            out.append(f"({poly_text(num, self.params)})/{over}" if len(num) > 1 else f"{poly_text(num, self.params)}/{over}")
        if not out:
            return "0"
        return out[0] + "".join(f" - {t[1:]}" if t.startswith("-") else f" + {t}" for t in out[1:])


def _is_sum(text: str) -> bool:
    """Whether ``text`` has a ``+`` or a binary ``-`` outside parentheses (then ``/D1`` needs them around it)."""
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in "+-" and k > 0 and text[k - 1] == " ":
            return True
    return False


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


_NAME = re.compile(r"(D(?:EN_*)?)([0-9]+)")
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
            raise ValueError(f"'denominators' names are D1, D2, ... (DEN1, ... when a parameter is called D<k>), not {name!r:.40}")
        prefixes.add(m[1])
    if len(prefixes) > 1:
        raise ValueError(f"'denominators' names have one prefix, not {sorted(prefixes)}")
    prefix = prefixes.pop() if prefixes else name_prefix(params)
    clash = [p for p in params if _has_name_form(p, prefix)]
    if clash:
        raise ValueError(f"the parameter {clash[0]!r} has the form of a denominator's name {prefix}<k>: the names take "
                         f"the prefix {name_prefix(params)} here")
    return re.compile(r"(?<![A-Za-z0-9_])(" + re.escape(prefix) + r"[0-9]+)(?![A-Za-z0-9_])")


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
                raise ValueError(f"{m[1]} is used in {entry!r:.60} but not defined in 'denominators'")
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


def latex_entry(text: str) -> str:
    r"""An entry of the factored form in LaTeX: ``(num)/D1`` as ``\frac{num}{D_{1}}``, ``(num)/(6*D1)`` as
    ``\frac{num}{6 D_{1}}``."""
    m = re.fullmatch(rf"(.*)/(?:\(([0-9]+)\*{_NAME.pattern}\)|{_NAME.pattern})", text)  # groups 3-4 and 5-6: a name's
    if m is None:
        return _latex_poly(text)
    num = m[1][1:-1] if _one_group(m[1]) else m[1]
    scale, index = (m[2] + " ", m[4]) if m[2] else ("", m[6])
    return rf"\frac{{{_latex_poly(num)}}}{{{scale}D_{{{index}}}}}"


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
    chain's entries as sums of parts, as in the JSON).

    Examples
    --------
    >>> import exactpte
    >>> tex = factored_latex(exactpte.decompose(exactpte.example("two-state-pq")))
    >>> r"\frac{q}{D_{1}}" in tex, "D_{1} &= p + q" in tex
    (True, True)
    """
    from exactpte.results.quantities import REGISTRY

    names = DenominatorNames(dec.field)
    entry_parts = getattr(dec, "entry_parts", None)
    parts = {c: p for c in columns if entry_parts is not None and (p := entry_parts(c)) is not None}

    def cell(c: str, s: int) -> str:
        mine = parts.get(c, {}).get(s)
        if mine is None:
            return latex_entry(names(getattr(dec, c)[s]))
        texts = [names.parts([part]) for part in mine if not part[0].is_zero()]
        if not texts:
            return "0"
        return latex_entry(texts[0]) + "".join(f" - {latex_entry(t[1:])}" if t.startswith("-") else f" + {latex_entry(t)}"
                                               for t in texts[1:])

    head = " & ".join(f"${REGISTRY[c].latex}$" for c in columns)
    out = [f"\\begin{{tabular}}{{l{'r' * len(columns)}}}", "\\toprule", f"$s$ & {head} \\\\", "\\midrule"]
    for s in range(dec.n):
        cells = " & ".join(f"${cell(c, s)}$" for c in columns)
        out.append(f"{dec.chain.label(s).replace('_', chr(92) + '_')} & {cells} \\\\")
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out) + ("\n" + to_latex_block(names.table) if names.table else "")
