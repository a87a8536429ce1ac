"""The parametric writers print straight from flint (one ``str`` per polynomial, texts remembered per
field) and must print, character for character, the canonical text as specified here by an
independent per-term printer.

The reference below is the specification of the canonical text (issue 35's convention): sympy's
term order, ``1 - p`` first, the numerator with integer coefficients over the denominator
(``(3 - 2*q)/3``), a polynomial of at most 16 terms and degree 16 factored when strictly shorter, one
of at most 1,024 terms factored when a parameter divides it (or it is a denominator) and its
factorisation is not trivial, any other expanded.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from fractions import Fraction
from math import gcd
from typing import Any

import flint
import pytest
from conftest import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpte.fields import RationalFunctionField
from exactpte.fields.polynomials import factor
from exactpte.fields.printing import TextCache, poly_text, rational_text
from exactpte.results.decomposition import decompose
from exactpte.testing.random_chains import parametrize, random_chain


# -- the reference: the per-term printer --------------------------------------------------------------
def _ref_terms(f: Any, names: Sequence[str]) -> list[tuple[int, tuple[int, ...]]]:
    order = sorted(range(len(names)), key=lambda i: names[i])
    terms = [(int(c), tuple(int(e) for e in exps)) for exps, c in f.to_dict().items()]
    return sorted(terms, key=lambda t: tuple(t[1][i] for i in order), reverse=True)


def _ref_term(c: Fraction, exps: tuple[int, ...], names: Sequence[str]) -> str:
    order = sorted(range(len(names)), key=lambda i: names[i])
    mono = "*".join(names[i] if exps[i] == 1 else f"{names[i]}**{exps[i]}" for i in order if exps[i])
    sign = "-" if c < 0 else ""
    a, b = abs(c.numerator), c.denominator
    head = f"{a}" if not mono else mono if a == 1 else f"{a}*{mono}"
    return f"{sign}{head}" + (f"/{b}" if b != 1 else "")


def ref_poly_text(f: Any, names: Sequence[str], scale: int = 1) -> str:
    terms = _ref_terms(f, names)
    if not terms:
        return "0"
    parts = [(Fraction(c, scale), e) for c, e in terms]
    if (len(parts) == 2 and not any(parts[1][1]) and parts[1][0] > 0 and parts[0][0] < 0
            and sum(1 for x in parts[0][1] if x) == 1):
        parts = [parts[1], parts[0]]
    texts = [_ref_term(c, e, names) for c, e in parts]
    out = texts[0]
    for t in texts[1:]:
        out += f" - {t[1:]}" if t.startswith("-") else f" + {t}"
    return out


def _ref_factors(f: Any) -> tuple[int, list[tuple[Any, int]]]:
    c, raw = factor(f)
    c = int(c)
    out = []
    for g, e in raw:
        if g.leading_coefficient() < 0:
            g, c = -g, c * (-1) ** int(e)
        out.append((g, int(e)))
    out.sort(key=lambda ge: (sum(ge[0].degrees()), len(ge[0].to_dict()), str(ge[0])))
    return c, out


def _ref_product(factors: list[tuple[Any, int]], names: Sequence[str]) -> str:
    out = []
    for g, e in factors:
        text = ref_poly_text(g, names)
        if len(g) > 1 or (e != 1 and ("*" in text or text.startswith("-"))):
            text = f"({text})"
        out.append(text if e == 1 else f"{text}**{e}")
    return "*".join(out)


def _ref_factored_poly(f: Any, names: Sequence[str]) -> str | None:
    """The factored text of one polynomial, None when it is the expanded one again."""
    if len(f) == 1:
        return None
    c, fs = _ref_factors(f)
    if len(fs) == 1 and fs[0][1] == 1:
        return None
    sign, a = ("-" if c < 0 else ""), abs(c)
    body = _ref_product(fs, names)
    return sign + (body if a == 1 else f"{a}*{body}")


def _ref_form(f: Any, names: Sequence[str], denominator: bool = False) -> tuple[str, bool, bool]:
    """(text, is a sum, is one factor needing no parentheses after ``/``), by the rule of the convention."""
    n = len(f)
    expanded = ref_poly_text(f, names)
    if n == 1:
        ((exps, c),) = f.to_dict().items()
        return expanded, False, int(c) == 1 and sum(1 for e in exps if e) <= 1
    if n <= 16 and f.total_degree() <= 16:
        factored = _ref_factored_poly(f, names)
        if factored is None or len(factored) >= len(expanded):
            return expanded, True, False
    elif n <= 1024 and (denominator or any(all(int(e[i]) > 0 for e in f.to_dict()) for i in range(len(names)))):
        factored = _ref_factored_poly(f, names)
        if factored is None:
            return expanded, True, False
    else:
        return expanded, True, False
    c, fs = _ref_factors(f)
    return factored, False, c == 1 and len(fs) == 1 and len(fs[0][0]) > 1


def ref_rational_text(num: Any, den: Any, names: Sequence[str]) -> str:
    if num.is_zero():
        return "0"
    if num.is_constant() and den.is_constant():
        return str(Fraction(int(num.leading_coefficient()), int(den.leading_coefficient())))
    top, top_sum, _ = _ref_form(num, names)
    if top_sum:
        top = f"({top})"
    if den.is_one():
        return top[1:-1] if top_sum else top
    if den.is_constant():
        return f"{top}/{int(den.leading_coefficient())}"
    bottom, _, atom = _ref_form(den, names, True)
    return f"{top}/{bottom}" if atom else f"{top}/({bottom})"


# -- drawn polynomials -----------------------------------------------------------------------------------
NAMES = (("p",), ("p", "q"), ("q", "p"), ("pK", "pL"), ("b", "a", "c"), ("PF", "badC"))


@st.composite
def polynomials(draw: st.DrawFn, *, names: tuple[str, ...], max_terms: int = 4) -> Any:
    """A polynomial in ``names``: a sum of drawn terms, sometimes times a drawn power (so it factors)."""
    ctx = flint.fmpz_mpoly_ctx.get(names, "degrevlex")
    coefficient = st.one_of(st.sampled_from([1, -1, 2, -3]), st.integers(-20, 20), st.integers(-10**20, 10**20))
    def one(k: int) -> Any:
        terms = draw(st.dictionaries(st.tuples(*[st.integers(0, 3)] * len(names)), coefficient, max_size=k))
        return ctx.from_dict({m: c for m, c in terms.items() if c})
    f = one(max_terms)
    if draw(st.booleans()):
        f = f * one(3) ** draw(st.integers(1, 3))
    return f


@st.composite
def fractions(draw: st.DrawFn) -> tuple[Any, Any, tuple[str, ...]]:
    """A cancelled ``num / den`` with a positive leading coefficient below, and its names."""
    names = draw(st.sampled_from(NAMES))
    num = draw(polynomials(names=names))
    den = draw(st.one_of(polynomials(names=names),
                         st.integers(1, 30).map(lambda c: flint.fmpz_mpoly_ctx.get(names, "degrevlex").constant(c))))
    if den.is_zero():
        den = den + 1
    g = num.gcd(den)
    num, den = num / g, den / g
    if den.leading_coefficient() < 0:
        num, den = -num, -den
    return num, den, names


@settings(scaled(10), deadline=None)
@given(fractions())
def test_flint_printer_prints_the_reference_text(fraction: tuple[Any, Any, tuple[str, ...]]) -> None:
    """rational_text, poly_text (with and without a scale) and the cached text equal the reference, character for character."""
    num, den, names = fraction
    expected = ref_rational_text(num, den, names)
    assert rational_text(num, den, names) == expected
    assert TextCache().text(num, den, names) == expected
    assert poly_text(num, names) == ref_poly_text(num, names)
    assert poly_text(num, names, 6) == ref_poly_text(num, names, 6)


def test_known_canonical_forms() -> None:
    """The forms the reference and sympy agree on, written out (a failing printer shows here by name)."""
    ctx = flint.fmpz_mpoly_ctx.get(("q", "p"), "degrevlex")
    q, p = ctx.gens()
    one = ctx.constant(1)
    cases = [((1 - p**2, one), "1 - p**2"), ((-p * q + 1, one), "-p*q + 1"), ((2 * p * q - 1, ctx.constant(3)), "(2*p*q - 1)/3"),
             ((p, (p + q)**2), "p/(p + q)**2"), ((3 - 2 * q, ctx.constant(3)), "(3 - 2*q)/3"), ((q, 2 * p), "q/(2*p)"),
             ((-2 * p, ctx.constant(3)), "-2*p/3"), ((2 * (p - 1)**2, 3 * (p + q)**2), "2*(p - 1)**2/(3*(p + q)**2)"),
             ((-(p**3) * (q - 1)**20 * (p * q - 3)**3, one), "-p**3*(q - 1)**20*(p*q - 3)**3")]
    for (num, den), text in cases:
        assert rational_text(num, den, ("q", "p")) == text == ref_rational_text(num, den, ("q", "p"))


def test_the_cache_answers_equal_values_in_other_objects_with_the_same_text() -> None:
    """Equal values held by distinct objects (and the same object again) print the same text; a value
    of the same signature but another polynomial prints its own."""
    F = RationalFunctionField(["p", "q"])
    x = F.convert("(1 - p)^2 / (1 + q)")
    y = F.convert("(p^2 - 2*p + 1) / (q + 1)")
    z = F.convert("(1 - p)*(1 + p) / (1 + q)")  # another numerator
    assert x is not y and x.num is not y.num
    texts = [F.to_text(v) for v in (x, y, x, z)]
    assert texts[0] == texts[1] == texts[2] == ref_rational_text(x.num, x.den, F.params)
    assert texts[3] == ref_rational_text(z.num, z.den, F.params) != texts[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_json_of_random_parametric_results_is_the_reference_text(seed: int) -> None:
    """Every number of the JSON of a random two-parameter decomposition is the reference's text of its value."""
    rng = random.Random(seed)
    chain = parametrize(random_chain(14, seed=seed, n_classes=2), rng.randint, params=("p", "q"), max_rows=5)
    dec = decompose(chain)
    data = json.loads(dec.to_json())
    F = chain.field

    def text(x: Any) -> str:
        return str(x.constant_value()) if x.is_constant() else ref_rational_text(x.num, x.den, F.params)

    for key in ("theta", "g_star", "v_star", "rho", "h", "psi"):
        assert data[key] == [text(x) for x in getattr(dec, key)], key
    assert data["basis"] == [[text(x) for x in row] for row in dec.basis]
    assert data["P_inf"] == [[text(x) for x in row] for row in dec.P_inf]


# -- the writers' bytes and the readers ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["two-state-pq", "branching-b", "cycle-ac", "branching", "periodic"])
def test_the_fast_json_text_is_json_dumps_byte_for_byte(name: str) -> None:
    """report.dumps (lists of strings joined) writes exactly json.dumps's text, labels with quotes,
    backslashes, control and non-ASCII characters included."""
    import exactpte
    from exactpte.results.report import dumps

    dec = exactpte.decompose(exactpte.example(name))
    data = dec.to_dict(include_hitting_times=True)
    assert dec.to_json(include_hitting_times=True) == json.dumps(data)
    data["labels"] = ['a"b', "c\\d", "tab\there", "é", "\x7f", "plain"][: dec.n] + ["x"] * max(0, dec.n - 6)
    data["extra"] = [["1/2", 3, None, True, 2.5], [], ["x", 1]]
    assert dumps(data) == json.dumps(data)


OLD_AND_NEW = [  # texts of the earlier convention (the shorter of expanded and factored) and of this one
    ("1 - 2*q/3", "(3 - 2*q)/3"), ("p/2 + 1/2", "(p + 1)/2"), ("2*p*q/3 - 1/3", "(2*p*q - 1)/3"),
    ("-(p - 1)*(q + 2)**2", "-(p - 1)*(q + 2)**2"), ("2*(p - 1)**2/(3*(p + q)**2)", "2*(p - 1)**2/(3*(p + q)**2)"),
    ("q/(p + q)", "q/(p + q)"), ("(p**2 - 1)/(p*q)", "(p**2 - 1)/(p*q)"),
]


@pytest.mark.parametrize("old, new", OLD_AND_NEW)
def test_the_readers_take_the_old_and_the_new_texts_as_one_value(old: str, new: str, tmp_path: Any) -> None:
    """A value written in the earlier convention and in this one reads back as the same rational
    function, through the field and through a chain file (exactpte.load); the writer prints the new text."""
    import exactpte

    F = RationalFunctionField(["p", "q"])
    assert F.convert(old) == F.convert(new) and F.to_text(F.convert(old)) == new
    path = tmp_path / "chain.json"
    for text in (old, new):
        path.write_text(json.dumps({"params": ["p", "q"], "P": [["1", "0"], ["0", "1"]], "r": [text, "0"]}))
        chain = exactpte.load(str(path))
        assert chain.r[0] == chain.field.convert(new)


def test_latex_is_written_from_the_same_pieces() -> None:
    """Parametric LaTeX (per-state table, notebook array) is built from the canonical text's pieces, without sympy."""
    F = RationalFunctionField(["p", "q"])
    cases = {"q/(p+q)": r"\frac{q}{p + q}", "p/(p+q)^2": r"\frac{p}{(p + q)^{2}}", "(3-2*q)/3": r"\frac{3 - 2 q}{3}",
             "-2*p/3": r"- \frac{2 p}{3}", "1-p": "1 - p", "-(p-1)*(q+2)^2": r"-(p - 1) (q + 2)^{2}", "5/7": r"\frac{5}{7}"}
    for text, latex in cases.items():
        assert F.to_latex(F.convert(text)) == latex, text


# -- the fast paths are the standard library's bytes ---------------------------------------------------
FIELD_CHARS = st.sampled_from(["a", "1", " ", ",", '"', "\n", "\r", "\t", "é", "\x7f", "*", "\\", "#", "(", "-"])


@settings(scaled(300 / 40))
@given(rows=st.lists(st.lists(st.text(FIELD_CHARS, max_size=5), min_size=1, max_size=4), max_size=4))
def test_the_fast_csv_text_is_csv_writers(rows: list[list[str]]) -> None:
    """The CSV writer's rows joined with commas where every field is plain are ``csv.writer``'s text byte
    for byte: quoted fields (commas, quotes, line breaks), empty fields, a row of one empty field."""
    import csv
    import io

    from exactpte.results.report import _csv_text

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    assert _csv_text(rows) == out.getvalue()


@settings(scaled(300 / 40))
@given(data=st.recursive(st.none() | st.booleans() | st.integers() | st.text(FIELD_CHARS, max_size=4),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(FIELD_CHARS, max_size=3), inner, max_size=3),
                         max_leaves=12))
def test_the_fast_json_text_is_json_dumps_on_any_data(data: Any) -> None:
    """report.dumps (pieces joined once, plain strings checked by one pass over their bytes) is json.dumps."""
    from exactpte.results.report import dumps

    assert dumps(data) == json.dumps(data)


@settings(scaled(300 / 40))
@given(text=st.lists(st.sampled_from(["p", "q", "*", "**", "2", "10", " + ", "(", ")", "-"]), max_size=30).map("".join))
def test_latex_powers_are_the_regex_templates(text: str) -> None:
    """latex_of_text's split-and-look-up of the powers gives the regular expression's substitution."""
    import re

    from exactpte.fields.printing import latex_of_text

    assert latex_of_text(text) == re.sub(r"\*\*([0-9]+)", r"^{\1}", text).replace("*", " ")


def test_csv_and_latex_writers_print_the_canonical_texts() -> None:
    """The per-state CSV and LaTeX of a parametric decomposition hold the field's texts (the CSV parsed
    back by the csv module)."""
    import csv
    import io

    import exactpte
    from exactpte.results import report

    dec = exactpte.decompose(exactpte.example("two-state-pq"))
    rows = list(csv.reader(io.StringIO(report.to_csv(dec))))
    assert rows[0] == list(report.COLUMNS)
    assert [r[report.COLUMNS.index("rho")] for r in rows[1:]] == [dec.field.to_text(x) for x in dec.rho]
    latex = report.to_latex(dec)
    assert all(f"${dec.field.to_latex(x)}$" in latex for x in dec.v_star)


@pytest.mark.parametrize("seed", [1, 11, 42])
def test_assumptions_read_from_printed_texts_are_the_same(seed: int) -> None:
    """After the texts are printed the assumptions read one value per distinct text, not one per
    denominator object: the same conditions in the same order (the text is a function of the value);
    seeds 11 and 42 have denominators' factors among them."""
    from exactpte.results import report

    rng = random.Random(seed)
    chain = parametrize(random_chain(10, seed=seed, n_classes=2), rng.randint, params=("p", "q"), max_rows=5)
    dec = decompose(chain)
    report.to_dict(dec, include_P_inf=False)
    assert report.assumptions(dec, printed=True) == report.assumptions(dec)
    assert seed == 1 or len(report.assumptions(dec)) > 2
    assert json.loads(dec.to_json(include_P_inf=False))["assumptions"] == report.assumptions(dec)
