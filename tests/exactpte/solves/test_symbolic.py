"""Parametric chains: closed forms equal the rational decomposition at every generic point,
the theorem identities hold identically, bad symbolic input is named."""

import json

import pytest
import sympy
from hypothesis import example, given
from hypothesis import strategies as st

import exactpte
from conftest import scaled
from exactpte import GenericRegionError, NegativeEntryError, ParametricChain, RowSumError, SymbolicEntryError
from exactpte.model.examples import branching_param, cycle_rewards, paths_with_exit, two_state
from exactpte.solves.classical import bias
from exactpte.testing.strategies import generic_points, parametric_chains

FIELDS = ("g_star", "v_star", "theta", "psi", "rho", "h", "class_gain", "psi_coords")


def assert_subs_equals_rational(dec, point):
    at = dec.at(point)
    ref = exactpte.decompose(dec.chain.at(point))
    for key in FIELDS:
        assert getattr(at, key) == getattr(ref, key), key
    assert at.basis == ref.basis and at.stationary == ref.stationary and at.absorption == ref.absorption
    assert at.P_inf == ref.P_inf


def assert_identities_hold_identically(dec):
    chain, F = dec.chain, dec.field
    Pv = chain.matvec(dec.v_star)
    assert all(r - g - v + pv == 0 for r, g, v, pv in zip(chain.r, dec.g_star, dec.v_star, Pv))  # thm:wellposed
    assert all(dec.v_star[s] == 0 for _, _, s in dec.anchor_list)
    # g* in K: g* = sum theta b, and span b is P-invariant (P b_(i,k) = b_(i,k-1))
    assert all(g == sum((t * b for t, b in zip(dec.theta, row)), F.zero) for g, row in zip(dec.g_star, dec.basis))
    for j, (i, k, _) in enumerate(dec.anchor_list):
        prev = dec.structure.column_of[(i, (k - 1) % dec.periods[i])]
        assert tuple(chain.matvec(dec.b(i, k))) == dec.b(i, (k - 1) % dec.periods[i]) or prev is None
    # thm:comparison_gain_bias
    assert dec.P_inf_apply(dec.g_star) == dec.rho
    assert all(x == 0 for x in dec.P_inf_apply(dec.psi))
    Ppsi = chain.matvec(dec.psi)
    assert all(g == rho + p - pp for g, rho, p, pp in zip(dec.g_star, dec.rho, dec.psi, Ppsi))
    Pinf_v = dec.P_inf_apply(dec.v_star)
    assert all(h == v + p - pv for h, v, p, pv in zip(dec.h, dec.v_star, dec.psi, Pinf_v))
    # the classical Poisson equation and normalization, identically
    Ph = chain.matvec(dec.h)
    assert all(r == rho + h - ph for r, rho, h, ph in zip(chain.r, dec.rho, dec.h, Ph))
    assert all(x == 0 for x in dec.P_inf_apply(dec.h))


@pytest.mark.parametrize("build", [two_state, paths_with_exit, branching_param, cycle_rewards])
def test_examples_closed_forms(build):
    chain = build()
    dec = exactpte.decompose(chain)
    assert_identities_hold_identically(dec)
    point = {p: f"{k + 2}/{2 * k + 7}" for k, p in enumerate(chain.params)}
    assert_subs_equals_rational(dec, point)


def test_written_out_closed_forms():
    p, q = sympy.symbols("p q", real=True)
    dec = exactpte.decompose(two_state())
    assert sympy.simplify(dec.rho[0].to_sympy() - q / (p + q)) == 0
    assert sympy.simplify(dec.h[0].to_sympy() - p / (p + q) ** 2) == 0
    assert sympy.simplify(dec.v_star[1].to_sympy() + 1 / (p + q)) == 0
    e = sympy.Symbol("e", real=True)
    paths = exactpte.decompose(paths_with_exit())
    for s, lab in enumerate(paths.chain.labels):
        if lab != "a":
            ell = int(lab.split("_")[1])
            assert sympy.expand(paths.v_star[s].to_sympy() + (1 - (1 - e) ** ell) / e) == 0 or sympy.simplify(
                paths.v_star[s].to_sympy() + (1 - (1 - e) ** ell) / e) == 0
    b = sympy.Symbol("b", real=True)
    br = exactpte.decompose(branching_param())
    assert sympy.simplify(br.g_star[5].to_sympy() - (1 - 2 * b / 3)) == 0
    assert sympy.simplify(br.h[5].to_sympy() - (-b / 6 - sympy.Rational(3, 4))) == 0
    a, c = sympy.symbols("a c", real=True)
    cyc = exactpte.decompose(cycle_rewards(8))
    assert all(v == 0 for v in cyc.v_star) and cyc.g_star == cyc.chain.r
    assert sympy.simplify(cyc.h[0].to_sympy() - (a - c)) == 0  # ||h|| = d |a - c| / 8 at d = 8


@scaled(0.6)
@given(parametric_chains(max_states=8, max_period=3), generic_points())
def test_random_parametric_chains(chain, point):
    dec = exactpte.decompose(chain)
    assert_identities_hold_identically(dec)
    assert_subs_equals_rational(dec, point)


def test_json_output_parses_back(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"params": ["p"], "P": [["1-p", "p", 0], [0, 0, 1], [0, 1, 0]], "r": [0, 1, 0]}))
    chain = exactpte.load(path)
    data = json.loads(exactpte.decompose(chain).to_json())
    assert data["params"] == ["p"] and data["assumptions"][0] == "0 < p < 1"  # the region in its simplest form
    assert "p - 2 != 0" not in data["assumptions"]  # no root in 0 < p < 1: implied, left out
    p = sympy.Symbol("p")
    g0 = sympy.sympify(data["g_star"][0], locals={"p": p})
    assert sympy.simplify(g0 - (1 - p) / (2 - p)) == 0
    assert data["g_star"][1] == "1" and set(data) >= {"basis", "v_star", "theta", "P_inf", "rho", "h", "psi"}
    tex = exactpte.decompose(chain).to_latex()
    assert "\\frac" in tex


def test_subs_outside_the_generic_region_is_refused():
    dec = exactpte.decompose(two_state())
    with pytest.raises(GenericRegionError, match=r"P\[0\]\[1\] = p vanishes"):
        dec.at({"p": 0, "q": "1/2"})
    with pytest.raises(GenericRegionError, match="is -1/2 < 0"):
        dec.at({"p": "3/2", "q": "1/2"})
    with pytest.raises(GenericRegionError, match="missing"):
        dec.at({"p": "1/2"})
    # the user can re-decompose at that point: the structure changes (state 0 becomes absorbing)
    at = exactpte.decompose(dec.chain.at({"p": 0, "q": "1/2"}, check=False))
    assert at.classes == ((0,),)


@pytest.mark.parametrize(
    "P, r, params, err, message",
    [
        ([["1-p", "p"], [0, 1]], [0, "z"], ["p"], SymbolicEntryError, "unknown symbol"),
        ([["1-p", "p+x"], [0, 1]], [0, 0], ["p"], SymbolicEntryError, "unknown symbol"),
        ([["1-p", "p/2"], [0, 1]], [0, 0], ["p"], RowSumError, "row 0 sums to"),
        ([["1+p**2+1", "-p**2-1"], [0, 1]], [0, 0], ["p"], NegativeEntryError, "negative for every value"),
        ([["1-sqrt(2)*p", "sqrt(2)*p"], [0, 1]], [0, 0], ["p"], SymbolicEntryError, "sqrt"),
        ([["1-p", "p"], ["-1/2", "3/2"]], [0, 0], ["p"], NegativeEntryError, r"P\[1\]\[0\] is -1/2"),
        ([["1-p", "p"], [0, 1]], [0, "p +"], ["p"], SymbolicEntryError, "not an expression"),
        ([["1-p", "p"], [0, 1]], [0, 0.5], ["p"], exactpte.FloatEntryError, "the float 0.5"),
        ([["1-p", "p"], [0.25, 0.75]], [0, 0], ["p"], exactpte.FloatEntryError, r"P\[1\]\[0\] is the float 0.25"),
    ],
)
def test_bad_symbolic_input(P, r, params, err, message):
    """Each bad parametric entry is refused with its named error and a message saying what is wrong."""
    with pytest.raises(err, match=message):
        ParametricChain(P, r, params=params)


def test_a_decimal_string_is_an_exact_decimal():
    """A decimal string entry ("0.5") of a parametric chain is the exact decimal 1/2, not refused."""
    chain = ParametricChain([["1-p", "p"], [0, 1]], [0, "0.5"], params=["p"])
    assert chain.r[1] == chain.field.convert("1/2")


def test_cli_on_parametric_file(tmp_path, capsys):
    from exactpte.cli.commands import main

    path = tmp_path / "c.json"
    path.write_text(json.dumps({"params": ["p", "q"], "P": [["1-p", "p"], ["q", "1-q"]], "r": [1, 0]}))
    assert main(["decompose", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rho"] == ["q/(p + q)", "q/(p + q)"]


# -- the field's arithmetic against sympy (its shortcuts skip gcds that are one, and never more) -------

_F2 = exactpte.fields.RationalFunctionField(["p", "q"])
_FACTORS = [_F2.convert(t).num for t in ("p", "q", "1 - p", "p + q", "2*p - 1", "p*q + 1", "-1", "3")]


@st.composite
def _fractions(draw):
    """``num / den`` as products of a few factors from one small pool, so that products and sums
    of two draws often share factors (the cases where a cancellation is due)."""
    def product():
        out = _F2.ctx.constant(1)
        for j in draw(st.lists(st.integers(0, len(_FACTORS) - 1), max_size=3)):
            out *= _FACTORS[j]
        return out
    num = product() * draw(st.sampled_from([0, 1, 1, 1, 2]))
    return _F2.fraction(num, product())


def _canonical(x) -> bool:
    return x.num.gcd(x.den).is_one() and x.den.leading_coefficient() > 0 and (not x.num.is_zero() or x.den.is_one())


@given(_fractions(), _fractions())
@example(_F2.convert("p"), _F2.convert("1/(p*q)"))  # a numerator cancelled down to one
@example(_F2.convert("1/(p*q)"), _F2.convert("p"))
@example(_F2.convert("(1 - p)/q"), _F2.convert("q/(1 - p)"))
@example(_F2.convert("-p"), _F2.convert("1/(1 - p)"))  # signs: the denominator's leading coefficient
def test_field_products_and_sums_are_cancelled_and_right(a, b):
    """``a * b`` and ``a + b`` equal sympy's, and come out cancelled with a positive leading coefficient
    (``__mul__`` skips the divisions when a cross gcd is one; ``__add__`` the gcd over a denominator one)."""
    for value, reference in ((a * b, a.to_sympy() * b.to_sympy()), (a + b, a.to_sympy() + b.to_sympy())):
        assert _canonical(value)
        assert sympy.cancel(value.to_sympy() - reference) == 0


@pytest.mark.parametrize("entries, region", [
    (["p", "1 - p"], ["0 < p < 1"]),
    (["p**5", "p**4 - p**5", "p**3*(p - 1)**2"], ["0 < p < 1"]),  # herman5's entries
    (["p", "1 - p**2"], ["0 < p < 1"]),  # two odd factors in one entry
    (["p/2", "1 - p/2"], ["0 < p < 2"]),
    (["p", "1 - p", "2*p - 1"], ["1/2 < p < 1"]),
    (["2 - p**2", "p"], ["p > 0", "2 - p**2 > 0"]),  # an irrational end (sqrt 2): sign conditions
])
def test_the_valid_region_in_its_simplest_form(entries, region):
    """``assumptions()`` writes the region as one interval when it is one (exactly decided)."""
    from exactpte.fields.region import simplest_region
    F = exactpte.fields.RationalFunctionField(["p"])
    got = simplest_region(F, [F.convert(e) for e in entries], [])
    assert (list(got) if got is not None else None) == region


def test_denominator_conditions_implied_by_the_region_are_left_out():
    """``f != 0`` is listed only when ``f`` has a root inside the valid region (``0 < p < 1``)."""
    m = ParametricChain([["p", "1 - p"], ["1/2", "1/2"]], [0, 1], params=["p"])
    F = m.field
    conds = m.conditions([F.convert("1/(p + 1)"), F.convert("1/(p**2 + 1)"), F.convert("1/(4*p - 1)"), F.convert("1/(p**2 - 2)")])
    assert conds == ["0 < p < 1", "4*p - 1 != 0"]


def _basis_through_Q_d(chain):
    """The periodic columns of ``b`` by the phase system through ``Q^d`` (:func:`~exactpte.solves.absorption.solve_transient`,
    the route the rational path takes): the reference the cyclotomic route is checked against."""
    from exactpte.solves.absorption import solve_transient
    S, F = chain.structure, chain.field
    rows = {s: {} for s in S.transient}
    for d in sorted({d for d in S.periods if d > 1}):
        cls = {i for i, p in enumerate(S.periods) if p == d}
        const = [dict() for _ in range(d)]
        for s in S.transient:
            for y, q in chain.row(s):
                if S.class_of[y] in cls:
                    vec = const[(S.phase_of[y] - 1) % d].setdefault(s, {})
                    vec[S.class_of[y]] = vec.get(S.class_of[y], F.zero) + q
        X = solve_transient(chain, S, const)
        for k in range(d):
            for s, vec in X[k].items():
                rows[s].update({S.column_of[(i, k)]: v for i, v in vec.items() if v != 0})
    return rows


@given(st.sampled_from(["random", "line", "block"]).flatmap(
    lambda shape: parametric_chains(max_states=9, max_period=4, max_transient=4, transient_shape=shape)))
def test_cyclotomic_phase_basis_equals_the_phase_system_through_Q_d(chain):
    """``b_{i,k} = Σ_{m|d} Tr(ζ_m^-k X_{m,i}) / d`` (the cyclotomic components) equals the solution of the
    phase system through ``Q^d``, and the weighted sums on the components equal ``Σ w b``."""
    from exactpte.solves import cyclotomic
    S, F = chain.structure, chain.field
    spectrum = cyclotomic.phase_spectrum(chain, S)
    reference = _basis_through_Q_d(chain)
    assert cyclotomic.basis_rows(F, S, spectrum) == reference
    weights = [F.convert(f"{(3 * c) % 5 - 2} + p*{c % 3}") for c in range(S.N)]  # any weights, not only zero-sum
    sums = cyclotomic.weighted_sums(F, S, spectrum, [weights])[0]
    for s in S.transient:
        assert sums[s] == sum((weights[c] * v for c, v in reference[s].items()), F.zero)


def test_cyclotomic_phase_basis_on_a_transient_line_into_two_cycles():
    """Transient SCCs in a line (what flows from one block to the next is on the right-hand side),
    entering a 3-cycle and a 4-cycle at several phases: the components give ``Q^d``'s basis."""
    from exactpte.solves import cyclotomic
    n = 10
    P = [[0] * n for _ in range(n)]
    P[0][1], P[0][2], P[0][6] = "p", "1/2 - p/2", "1/2 - p/2"        # block {0} feeds {1, 2}
    P[1][1], P[1][2], P[1][3], P[1][4] = "1/4", "q/2", "1/4", "1/2 - q/2"
    P[2][1], P[2][4], P[2][5], P[2][8] = "1/4", "1/4", "1/4", "1/4"
    P[3][4] = P[4][5] = P[5][3] = 1                                 # the 3-cycle
    P[6][7] = P[7][8] = P[8][9] = P[9][6] = 1                       # the 4-cycle
    chain = ParametricChain(P, [0, 0, 0, 1, 2, 3, 1, 0, 0, 2], params=["p", "q"])
    S, F = chain.structure, chain.field
    assert len(S.transient_sccs) == 2 and sorted(S.periods) == [3, 4]
    assert cyclotomic.basis_rows(F, S, cyclotomic.phase_spectrum(chain, S)) == _basis_through_Q_d(chain)


@given(st.lists(st.lists(_fractions(), min_size=3, max_size=3), min_size=3, max_size=3),
       st.lists(st.lists(_fractions(), min_size=5, max_size=5), min_size=3, max_size=3))
def test_bareiss_with_more_right_hand_sides_than_rows_goes_through_the_inverse(A_rows, B_rows):
    """``A X = B`` with 5 right-hand sides on 3 rows (the route through ``det(A) A^-1``) equals the
    column-by-column solves (the elimination route) and satisfies ``A X = B``."""
    from hypothesis import assume
    from exactpte.errors import SingularSystemError
    from exactpte.fields.polymatrix import bareiss_solve
    A, B = _F2.matrix(A_rows), _F2.matrix(B_rows)
    try:
        X = bareiss_solve(A, B).tolist()
    except SingularSystemError:
        assume(False)
    for j in range(5):
        column = bareiss_solve(A, _F2.matrix([[row[j]] for row in B_rows])).tolist()
        assert [row[0] for row in column] == [row[j] for row in X]
    for i in range(3):
        for j in range(5):
            assert sum((A_rows[i][k] * X[k][j] for k in range(3)), _F2.zero) == B_rows[i][j]


def test_unicode_whitespace_between_tokens_is_whitespace_and_only_ascii_digits_are_digits():
    """Restricting digits to ASCII once narrowed whitespace too: '1 -\\u00a0p' was refused."""
    from exactpte.errors import SymbolicEntryError

    chain = exactpte.ParametricChain([["1 -\u00a0p", "p"], [1, "0\u2003"]], [0, 1], params=["p"])
    assert str(chain.dense()[0][0]) == "1 - p"
    with pytest.raises(SymbolicEntryError):
        exactpte.ParametricChain([["1 - p^\u0662", "p^2"], [1, 0]], [0, 1], params=["p"])


@pytest.mark.parametrize("build", [two_state, paths_with_exit, branching_param, cycle_rewards])
def test_bias_after_the_gauge_solves_equals_the_classical_route(build):
    """Once θ is read, ``h`` on the closed classes comes from the gauge solves (``h = v* + ψ - P∞v*``) with no
    solve of its own: the same canonical entries as the classical route's one solve per class."""
    chain = build()
    classical = exactpte.decompose(chain)
    assert "gauge" not in classical.computed() and classical.h == bias(chain)
    shared = exactpte.decompose(chain)
    _ = shared.theta
    assert shared.h == classical.h and all(a.num == b.num and a.den == b.den for a, b in zip(shared.h, classical.h))


@scaled(0.5)
@given(parametric_chains(max_states=7, max_period=3))
def test_bias_routes_agree_on_random_parametric_chains(chain):
    shared = exactpte.decompose(chain)
    _ = shared.theta
    assert shared.h == bias(chain)
