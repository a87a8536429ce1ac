"""Outputs of a :class:`~exactpte.results.decomposition.Decomposition`: the JSON contract, a per-state table,
a summary and LaTeX.  The keys and columns come from :mod:`exactpte.results.quantities`; the structure
keys from :func:`exactpte.graph.view.structure_dict`.

Canonical by construction (states 0-based, classes and anchors in the conventions of
:mod:`exactpte.graph.structure`, numbers as reduced ``"p/q"`` strings or, for parametric chains,
cancelled expressions), so two runs, golden files and other tools compare with ``==``.
Every number is printed through the field (``field.to_text`` / ``field.to_latex``).
"""

from __future__ import annotations

import json
import operator
import re
from fractions import Fraction
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from exactpte.fields.orientation import RegionPrinter
from exactpte.results.factored import DenominatorNames
from exactpte.errors import UnknownNameError, UsageError
from exactpte.model.interface import ExactResult
from exactpte.model.parametric import ParametricChain
from exactpte.results.quantities import CORE, NESTED, PER_STATE, QUANTITY_KEYS, STRUCTURE_KEYS, Only
from exactpte.graph.view import structure_dict
from exactpte.deprecation import renamed


Decomposed = ExactResult[Any]
"""What the printers read of a decomposition (:class:`~exactpte.model.interface.ExactResult`)."""

__all__ = ["FORMAT", "QUANTITY_KEYS", "require_quantities", "structure_dict", "to_dict", "to_json", "table", "cell_text", "summary", "to_latex", "assumptions", "per_state_rows", "to_csv",
           "to_html", "latex_array", "to_dataframe", "COLUMNS", "dumps"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_only": "require_quantities"})

COLUMNS: tuple[str, ...] = ("state", "label", "where", "r", *PER_STATE)
"""The per-state columns of :func:`to_csv`, :func:`to_html` and :func:`to_dataframe`."""

FORMAT = "exactpte.decomposition/1"
"""The ``format`` key of the exact JSON contract (``QUANTITY_KEYS``, from :mod:`exactpte.results.quantities`, are
the keys that hold computed quantities; ``only=`` selects among them, and only what is selected is computed)."""


def require_quantities(only: Only) -> tuple[str, ...] | None:
    """``only`` as a tuple of :data:`QUANTITY_KEYS` (``None``: everything); a comma-separated string is accepted.
    Structure keys (``classes``, ``periods``, ...) are accepted too: they always come, so they add nothing to
    compute (``"classes"`` alone: the structure only, an empty tuple).

    Examples
    --------
    >>> require_quantities("rho,h")
    ('rho', 'h')
    >>> require_quantities("classes,periods,rho"), require_quantities("classes")
    (('rho',), ())
    >>> require_quantities(["rho", "gain"])
    Traceback (most recent call last):
    ...
    exactpte.errors.UnknownNameError: unknown quantity 'gain' in only=; choose from basis, theta, g_star, v_star, rho, h, psi, stationary, class_gain, P_inf, hitting_times (or the structure keys classes, periods, cyclic_classes, transient, anchors, which always come)
    """
    if only is None:
        return None
    items = [x.strip() for x in only.split(",")] if isinstance(only, str) else list(only)
    for x in items:
        if x not in QUANTITY_KEYS and x not in STRUCTURE_KEYS:
            raise UnknownNameError(f"unknown quantity {x!r} in only=; choose from {', '.join(QUANTITY_KEYS)} (or the "
                                   f"structure keys {', '.join(STRUCTURE_KEYS)}, which always come)")
    if not items:
        raise UnknownNameError(f"only= names no quantity; choose from {', '.join(QUANTITY_KEYS)}")
    return tuple(dict.fromkeys(x for x in items if x not in STRUCTURE_KEYS))


def assumptions(dec: Decomposed, *, only: tuple[str, ...] | None = None, parts: Mapping[str, Any] | None = None,
                printed: bool = False) -> list[str]:
    """Where a parametric decomposition holds: the generic region of the chain, then
    ``f != 0`` for every irreducible factor of a denominator of an output (of the ``only``
    quantities when given; empty over ``QQ``).  ``parts``: the quantities written as sums of parts
    (the factored form), whose parts' denominators are read instead (where the written form holds).
    ``printed``: the outputs' texts were just printed (:func:`to_dict`), so one value per distinct
    text is read (the text is a function of the value: equal texts, equal denominators), each text
    found again by identity; otherwise one value per denominator object."""
    if not dec.field.is_parametric:
        return []
    seen: dict[str, None] = {}
    keys = CORE if only is None else only  # basis first: the rest reuse it
    values: list[Any] = []
    for key in keys:
        if key in ("P_inf", "hitting_times"):
            continue
        given = (parts or {}).get(key)
        if given is not None:
            rows = [row.values() if isinstance(row, dict) else [row] for row in given.values()]
            values += [_Over(den) for row in rows for entry in row for _num, den in entry]
            if len(given) == dec.n:
                continue
        if key == "basis":  # the nonzero entries, in the dense order (a zero has no denominator to name)
            values += [row[c] for row in dec.basis_sparse for c in sorted(row)]
        elif key in NESTED:
            values += [x for row in getattr(dec, key) for x in row]
        else:
            values += list(getattr(dec, key))
    if isinstance(dec.chain, ParametricChain):  # factors with no root in the valid region left out
        # one value per distinct text (or denominator object), the keys in order of first appearance:
        # each denominator's first appearance keeps its place (the conditions read only .den)
        texts = getattr(dec.field, "to_texts", None) if printed and not parts else None
        found: Iterable[Any] = texts(values) if texts is not None else map(id, map(_DEN, values))
        firsts: dict[Any, Any] = dict(zip(found, values))
        return dec.chain.conditions(list(firsts.values()))
    for x in values:
        for factor in dec.field.denominator_factors(x):
            seen.setdefault(f"{factor} != 0", None)
    return list(seen)


_DEN = operator.attrgetter("den")


class _Over:
    """A part's denominator where a value is expected (:meth:`ParametricChain.conditions` reads ``.den``)."""

    __slots__ = ("den",)

    def __init__(self, den: Any) -> None:
        self.den = den


def _params(dec: Decomposed) -> list[str]:
    """The parameters of a parametric chain (none for a rational one)."""
    return list(dec.chain.params) if isinstance(dec.chain, ParametricChain) else []


KeyProgress = Callable[[int, int], None]
"""``progress(done, total)``: called by :func:`to_dict` and :func:`to_json` as each quantity is written."""


def to_dict(dec: Decomposed, *, include_P_inf: bool = True, include_hitting_times: bool = False,
            only: Only = None, factored: bool = False, progress: KeyProgress | None = None) -> dict[str, Any]:
    """The JSON contract as a dict (numbers as text, states 0-based); see ``docs/json-contract.md``.

    ``only`` (names from :data:`QUANTITY_KEYS`, or ``"rho,h"``) keeps the structure keys and
    just those quantities, and computes nothing else (``include_*`` are then ignored).
    ``factored`` names each distinct denominator once (:mod:`exactpte.results.factored`).

    Examples
    --------
    >>> import exactpte
    >>> d = to_dict(exactpte.decompose(exactpte.example("periodic")))
    >>> d["format"], d["g_star"], d["rho"], d["periods"]
    ('exactpte.decomposition/1', ['1', '0'], ['1/2', '1/2'], [2])
    >>> sorted(to_dict(exactpte.decompose(exactpte.example("periodic")), only="rho,h"))[-4:]
    ['n', 'periods', 'rho', 'transient']
    """
    only = require_quantities(only)
    if only is None:
        keys = [k for k in QUANTITY_KEYS if (k != "P_inf" or include_P_inf) and (k != "hitting_times" or include_hitting_times)]
    else:
        keys = [k for k in QUANTITY_KEYS if k in only]
    names = DenominatorNames(dec.field, RegionPrinter.of_chain(dec.chain)) if factored else None  # the factored form's hook
    all_parts = {key: p for key in keys if names is not None and (p := _parts(dec, key)) is not None}
    text = names if names is not None else dec.field.to_text
    batch = getattr(dec.field, "to_texts", None) if names is None else None  # a parametric field's one-loop printer
    s: Callable[[Iterable[Any]], list[str]] = batch if batch is not None else (lambda v: [text(x) for x in v])
    out: dict[str, Any] = {"format": FORMAT, **structure_dict(dec)}
    def put(key: str) -> None:
        parts = all_parts.get(key)  # the factored form: sums of parts where known
        complete = parts is not None and len(parts) == dec.n  # every state: the reduced values are never asked for
        if key == "basis":  # from the sparse rows: a zero's text once, not once an entry (10^7 entries at n = 8,607)
            zero, rows = text(dec.field.zero), []
            sparse_rows: Sequence[dict[int, Any]] = [parts[s] for s in range(dec.n)] if complete and parts is not None \
                else dec.basis_sparse
            for state, sparse in enumerate(sparse_rows):
                row = [zero] * dec.structure.N
                if names is None:
                    for c, t in zip(sparse, s(sparse.values())):
                        row[c] = t
                else:
                    mine = parts.get(state, {}) if parts is not None else {}
                    for c, x in sparse.items():
                        row[c] = names.parts(mine[c], None if complete else x) if c in mine else text(x)
                rows.append(row)
            out[key] = rows
        elif complete and parts is not None and names is not None:
            out[key] = [names.parts(parts[state]) for state in range(dec.n)]
        elif parts is not None and names is not None:
            out[key] = [names.parts(parts[state], x) if state in parts else text(x) for state, x in enumerate(getattr(dec, key))]
        else:
            out[key] = [s(row) for row in getattr(dec, key)] if key in NESTED else s(getattr(dec, key))

    done = 0
    def step(key: str) -> None:  # a key written, and the progress told
        nonlocal done
        put(key)
        done += 1
        if progress is not None:
            progress(done, len(keys))

    for key in keys:
        if key not in ("P_inf", "hitting_times"):
            step(key)
    if dec.field.is_parametric:
        out["params"] = _params(dec)
        out["assumptions"] = assumptions(dec, only=only, parts=all_parts, printed=names is None)
    for key in keys:
        if key in ("P_inf", "hitting_times"):
            step(key)
    if names is not None:
        out["denominators"] = names.table
    return out


def _parts(dec: Decomposed, key: str) -> dict[int, Any] | None:
    """The entries of ``key`` as sums of parts, when the result knows them (:meth:`Decomposition.entry_parts`)."""
    entry_parts = getattr(dec, "entry_parts", None)
    return entry_parts(key) if entry_parts is not None else None


def to_json(dec: Decomposed, *, include_P_inf: bool = True, include_hitting_times: bool = False,
            indent: int | None = None, only: Only = None, factored: bool = False,
            progress: KeyProgress | None = None) -> str:
    """JSON text of :func:`to_dict`; canonical, so two runs compare with ``==`` (``progress(done, total)`` is
    called as each key is written).  Without ``indent`` the text is ``json.dumps``'s, byte for byte,
    written by :func:`dumps` (each distinct string checked once, lists joined: the answers repeat
    long texts thousands of times)."""
    data = to_dict(dec, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times, only=only,
                   factored=factored, progress=progress)
    return json.dumps(data, indent=indent) if indent is not None else dumps(data)


_PRINTABLE = bytes(c for c in range(0x20, 0x7F) if c not in b'"\\')
"""The bytes ``json.dumps`` writes as they are: printable ASCII but ``"`` and ``\\``."""


def _plain(s: str) -> bool:
    """Whether ``json.dumps`` writes ``s`` as it is between quotes: printable ASCII without ``"`` or ``\\``
    (one pass over the bytes: nothing is left once those are deleted)."""
    return s.isascii() and not s.encode("ascii").translate(None, _PRINTABLE)


def dumps(data: Any) -> str:
    """``json.dumps(data)`` (default separators, ASCII), faster on the answers' shape: a list of strings
    is joined in one call, after each of its distinct strings is checked once for characters to
    escape (the answers repeat long texts thousands of times), and the pieces are joined once at
    the end (each byte copied once more, not once per level of nesting).

    >>> data = {"a": ["1/2", "p**2 - q", 'say "hi"', "é", "\x7f", "a\\b"], "b": [[1, None, True], []], "c": 2.5, "d": ["x", 1]}
    >>> dumps(data) == json.dumps(data)
    True
    """
    checked: set[str] = set()
    out: list[str] = []
    put = out.append

    def value(x: Any) -> None:
        if type(x) is list:
            if x and type(x[0]) is str:
                try:
                    joined = '", "'.join(x)
                except TypeError:  # not all strings
                    joined = None
                if joined is not None:
                    fresh = set(x) - checked
                    if all(_plain(s) for s in fresh):
                        checked.update(fresh)
                        put('["')
                        put(joined)
                        put('"]')
                        return
            put("[")
            for i, y in enumerate(x):
                if i:
                    put(", ")
                value(y)
            put("]")
        elif type(x) is dict:
            put("{")
            for i, (k, v) in enumerate(x.items()):
                put(f"{', ' if i else ''}{json.dumps(k)}: ")
                value(v)
            put("}")
        else:
            put(json.dumps(x))

    value(data)
    return "".join(out)


def table(dec: Decomposed) -> str:
    """A per-state table: state, class/phase or transient, r, g*, v*, ρ, h, ψ (states by their labels;
    denominators positive on the region; a number too long for a column shortened, :func:`cell_text`:
    the JSON, CSV and LaTeX keep every digit).

    Examples
    --------
    >>> import exactpte
    >>> lines = table(exactpte.decompose(exactpte.example("periodic"))).splitlines()
    >>> len(lines), lines[2].split()
    (4, ['0', 'F0/C0', '(anchor)', '1', '1', '0', '1/2', '1/4', '1/4'])
    """
    S = dec.structure
    text = RegionPrinter.of_chain(dec.chain).text
    head = ["state", "where", "r", "g*", "v*", "rho", "h", "psi"]
    rows = []
    anchors = {a for _, _, a in dec.anchor_list}
    for s in range(dec.n):
        where = "T" if S.class_of[s] < 0 else f"F{S.class_of[s]}/C{S.phase_of[s]}"
        if s in anchors:
            where += " (anchor)"
        values = (dec.chain.r[s], dec.g_star[s], dec.v_star[s], dec.rho[s], dec.h[s], dec.psi[s])
        rows.append([cell_text(dec.chain.label(s), LABEL_WIDTH), where] + [cell_text(text(x)) for x in values])
    widths = [max(len(h), *(len(r[j]) for r in rows)) for j, h in enumerate(head)]
    line: Callable[[Sequence[str]], str] = lambda cells: "  ".join(c.rjust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


CELL_WIDTH = 60
"""The widest number a text table writes whole; a longer one is shortened by :func:`cell_text`."""

LABEL_WIDTH = 24
"""The widest state label a text table writes whole."""


def cell_text(text: str, width: int = CELL_WIDTH) -> str:
    """``text`` as a table cell: whole when at most ``width`` characters; else a long integer or fraction as
    its leading digits and its size in digits (``1234567890…(5,000 digits)``), any other text cut in the
    middle with an ellipsis and its length (``(p**40 + … + 1)/7 (912 characters)``).

    >>> cell_text("1/3"), cell_text("7" * 5000), cell_text("-" + "3" * 80 + "/7")
    ('1/3', '7.777777777e4999 (5,000 digits)', '-4.761904761e78 (80/1 digits)')
    """
    if len(text) <= width:
        return text
    m = re.fullmatch(r"(-?)([0-9]+)(?:/([0-9]+))?", text)
    if m:  # leading digits only (Python refuses int() of more than 4,300 digits)
        top, bottom = m[2], m[3] or "1"
        a, b = int(top[:30]), int(bottom[:30])
        exponent = (len(top) - len(top[:30])) - (len(bottom) - len(bottom[:30]))
        value = Fraction(a, b)
        shift = len(str(a)) - len(str(b))
        while value * Fraction(10) ** -shift >= 10:
            shift += 1
        while value * Fraction(10) ** -shift < 1:
            shift -= 1
        mantissa = str(int(value * Fraction(10) ** (9 - shift)))
        size = f"{len(top):,} digits" if m[3] is None else f"{len(top):,}/{len(bottom):,} digits"
        return f"{m[1]}{mantissa[0]}.{mantissa[1:]}e{exponent + shift} ({size})"
    keep = (width - 20) // 2
    return f"{text[:keep]}…{text[-keep:]} ({len(text):,} characters)"


def summary(dec: Decomposed) -> str:
    """Structure and persistent coordinates in a few lines, states by their labels."""
    S = dec.structure
    text = RegionPrinter.of_chain(dec.chain).text
    label = dec.chain.label
    lines = [f"n = {dec.n}, {len(S.classes)} closed class(es), {len(S.transient)} transient state(s), N = {S.N}"]
    if dec.field.is_parametric:
        conditions = ", ".join(assumptions(dec))
        lines.append(f"parameters {', '.join(_params(dec))}; " + (f"valid where {conditions}" if conditions else "valid for every value of the parameters"))
    col = 0
    for i, (members, d) in enumerate(zip(S.classes, S.periods)):
        th = ", ".join(cell_text(text(t)) for t in dec.theta[col : col + d])
        anchors = ", ".join(cell_text(label(a), LABEL_WIDTH) for a in dec.anchors[i])
        lines.append(
            f"  F{i}: {len(members)} state(s), period {d}, anchor{'s' if d > 1 else ''} {anchors}, "
            f"theta = ({th}), gain = {cell_text(text(dec.class_gain[i]))}"
        )
        col += d
    return "\n".join(lines)


def to_latex(dec: Decomposed) -> str:
    """A LaTeX ``tabular`` of the per-state table (fractions as ``\\tfrac``; denominators positive on the region)."""
    S = dec.structure
    latex = RegionPrinter.of_chain(dec.chain).latex
    out = [
        "\\begin{tabular}{llrrrrrr}",
        "\\toprule",
        "$s$ & class/phase & $r$ & $g^\\star_\\Pi$ & $v^\\star_\\Pi$ & $\\rho$ & $h$ & $\\psi_\\Pi$ \\\\",
        "\\midrule",
    ]
    for s in range(dec.n):
        where = "$\\mathsf T$" if S.class_of[s] < 0 else f"$C_{{{S.class_of[s]},{S.phase_of[s]}}}$"
        values = (dec.chain.r[s], dec.g_star[s], dec.v_star[s], dec.rho[s], dec.h[s], dec.psi[s])
        vals = " & ".join(f"${latex(x)}$" for x in values)
        label = dec.chain.label(s).replace("_", "\\_")
        out.append(f"{label} & {where} & {vals} \\\\")
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out)


def per_state_rows(dec: Decomposed, *, columns: tuple[str, ...] = COLUMNS) -> list[list[str]]:
    """One row a state, as text: the ``columns`` (from :data:`COLUMNS`; ``where`` is ``F{i}/C{k}`` or ``T``)."""
    S, text = dec.structure, dec.field.to_text
    vectors = {name: (dec.chain.r if name == "r" else getattr(dec, name)) for name in columns[3:]}
    rows = []
    for s in range(dec.n):
        where = "T" if S.class_of[s] < 0 else f"F{S.class_of[s]}/C{S.phase_of[s]}"
        rows.append([str(s), dec.chain.label(s), where] + [text(v[s]) for v in vectors.values()])
    return rows


def to_csv(dec: Decomposed, *, only: Only = None) -> str:
    """The per-state table as CSV (header :data:`COLUMNS`; numbers exact, quoted when they hold a comma);
    ``only`` keeps the per-state quantities named (``"rho,h"``) and computes nothing else.

    Examples
    --------
    >>> import exactpte
    >>> to_csv(exactpte.decompose(exactpte.example("periodic"))).splitlines()[:2]
    ['state,label,where,r,g_star,v_star,rho,h,psi', '0,0,F0/C0,1,1,0,1/2,1/4,1/4']
    """
    columns = COLUMNS
    only = require_quantities(only)
    if only is not None:
        per_state = [k for k in only if k in COLUMNS]
        if not per_state:
            raise UsageError(f"CSV holds per-state quantities; only= names none of {', '.join(COLUMNS[4:])}")
        columns = COLUMNS[:4] + tuple(per_state)
    return _csv_text([list(columns), *per_state_rows(dec, columns=columns)])


_CSV_PLAIN = bytes(c for c in range(0x20, 0x7F) if c not in b',"')
"""The bytes a CSV field may hold and still be written as it is (printable ASCII but ``,`` and ``"``)."""


def _csv_text(rows: Sequence[Sequence[str]]) -> str:
    """``csv.writer(..., lineterminator="\\n")``'s text of rows of strings, faster on long fields: a row
    whose fields are all plain (non-empty printable ASCII without ``,`` or ``"``, no space at either
    end; each distinct field checked once, in one pass over its bytes) is joined with commas; any
    other row goes through ``csv.writer`` (quoting as it does).

    >>> rows = [["state", "rho"], ["0", "(1 - p)/2"], ["1", "a,b"], ["2", 'say "hi"'], ["3", ""], ["4", " x"]]
    >>> import csv, io
    >>> out = io.StringIO(); csv.writer(out, lineterminator="\\n").writerows(rows)
    >>> _csv_text(rows) == out.getvalue()
    True
    """
    import csv
    import io

    checked: set[str] = set()
    lines = []
    for row in rows:
        fresh = [f for f in row if f not in checked]
        if len(row) > 1 and all(type(f) is str and f and f.isascii() and f[0] != " " and f[-1] != " "
                                and not f.encode("ascii").translate(None, _CSV_PLAIN) for f in fresh):
            checked.update(fresh)
            lines.append(",".join(row))
        else:
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerow(row)
            lines.append(out.getvalue()[:-1])
    lines.append("")
    return "\n".join(lines) if len(lines) > 1 else ""


def to_html(dec: Decomposed) -> str:
    """An HTML summary (classes, periods, anchors, θ) and per-state table, for notebooks."""
    from html import escape

    S = dec.structure
    text = dec.field.to_text
    anchors = {a for _, _, a in dec.anchor_list}
    head = (f"<p><b>Decomposition</b>: n = {dec.n}, {len(S.classes)} closed class(es), {len(S.transient)} transient, "
            f"N = {S.N}{', over ' + escape(dec.field.name) if dec.field.is_parametric else ''}</p>")
    items = []
    col = 0
    for i, (members, d) in enumerate(zip(S.classes, S.periods)):
        phases = " → ".join("{" + ", ".join(escape(dec.chain.label(s)) for s in cyc) + "}" for cyc in S.cyclic_classes[i])
        theta = ", ".join(escape(text(t)) for t in dec.theta[col : col + d])
        items.append(f"<li>F<sub>{i}</sub>: period {d}, phases {phases}; θ = ({theta}); gain {escape(text(dec.class_gain[i]))}</li>")
        col += d
    cells = "".join(f"<th>{c}</th>" for c in ("state", "where", "r", "g*", "v*", "ρ", "h", "ψ"))
    body = []
    for row in per_state_rows(dec):
        s = int(row[0])
        name = escape(row[1]) + (" ⚓" if s in anchors else "")
        body.append("<tr>" + f"<td>{name}</td>" + "".join(f"<td>{escape(x)}</td>" for x in row[2:]) + "</tr>")
    return head + f"<ul>{''.join(items)}</ul>" + f"<table><thead><tr>{cells}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def latex_array(dec: Decomposed) -> str:
    """The per-state table as a math-mode ``array`` (what notebooks render for parametric results)."""
    latex = dec.field.to_latex
    S = dec.structure
    rows = []
    for s in range(dec.n):
        where = "T" if S.class_of[s] < 0 else f"C<sub>{S.class_of[s]},{S.phase_of[s]}</sub>"
        values = (dec.chain.r[s], dec.g_star[s], dec.v_star[s], dec.rho[s], dec.h[s], dec.psi[s])
        rows.append(f"\\text{{{dec.chain.label(s)}}} & {where} & " + " & ".join(latex(x) for x in values))
    head = "s & & r & g^\\star & v^\\star & \\rho & h & \\psi"
    return "$$\\begin{array}{llrrrrrr}" + head + " \\\\ \\hline " + " \\\\ ".join(rows) + "\\end{array}$$"


def to_dataframe(dec: Decomposed) -> Any:
    """The per-state table as a pandas DataFrame indexed by state (exact numbers as text); needs pandas."""
    try:
        import pandas as pd
    except ImportError:
        raise UsageError("to_dataframe needs pandas (pip install pandas); to_csv() gives the same table as text") from None
    rows = per_state_rows(dec)
    return pd.DataFrame([r[1:] for r in rows], index=pd.Index([int(r[0]) for r in rows], name="state"), columns=list(COLUMNS[1:]))
