"""Stratified decompositions (``exactpte.stratify(chain)``): every evaluated point, generic or
on a special set, agrees exactly with decomposing the substituted chain; strata partition the valid
region at every sampled point."""

import itertools
import json
import random

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactpte
from exactpte import ParametricChain
from exactpte.cli.commands import main
from exactpte.errors import GenericRegionError, UsageError
from exactpte.results.stratify import stratify
from exactpte.testing.random_chains import parametrize, random_small_chain
from conftest import cpu_budget, scaled


def same(strat, chain, point):
    want = exactpte.decompose(chain.at(point, check=False)).to_dict(include_P_inf=False)
    return strat.at(point).to_dict(include_P_inf=False) == want


def valid(chain, point):
    try:
        chain.at(point, check=False)
    except (exactpte.errors.InvalidChainError, GenericRegionError):
        return False
    return True


def points_on(stratum, params, rng, tries=6):
    """Rational points of a stratum: free parameters drawn (special values included), the eliminated
    ones from the stratum's substitution."""
    field = stratum.chain.field if stratum.chain is not None else None
    for _ in range(tries):
        free = {p: flint.fmpq(rng.choice([0, 1, 1, 2, 3]), rng.choice([1, 2, 3, 4])) for p in stratum.params}
        if any(x > 1 for x in free.values()):
            continue
        point = dict(free)
        try:
            values = [free[p] for p in stratum.params]
            for name, x in stratum.substitution.items():
                point[name] = field.evaluate(x, values)
        except ZeroDivisionError:
            continue
        if set(point) == set(params):
            yield {k: str(v) for k, v in point.items()}


def check_chain(chain, seed):
    strat = stratify(chain)
    rng = random.Random(seed)
    seen = 0
    for stratum in strat.strata:
        if stratum.pointwise:
            continue
        for point in points_on(stratum, chain.params, rng):
            if valid(chain, point) and stratum.contains(chain.field, chain._point(point)):
                assert strat.locate(point) is stratum
                assert same(strat, chain, point), (stratum.conditions, point)
                seen += 1
    grid = [flint.fmpq(a, 4) for a in range(5)]
    for values in itertools.product(grid, repeat=len(chain.params)):  # includes the corners and edges
        point = dict(zip(chain.params, map(str, values)))
        if valid(chain, point):
            assert same(strat, chain, point), point  # locate() asserts exactly one stratum holds it
            seen += 1
    return strat, seen


# -- the example ------------------------------------------------------------------------------------
def test_boundary_strata_of_the_example_have_their_own_g_star():
    m = ParametricChain([[0, "q", "1-q"], [0, "p", "1-p"], [0, 1, 0]], [0, 1, 0], params=["p", "q"])
    strat = exactpte.stratify(m)
    by_conditions = {tuple(s.conditions): s for s in strat.strata}
    p0 = by_conditions[("p = 0", "q != 0", "q - 1 != 0")]
    assert p0.decomposition.periods == (2,) and [str(x) for x in p0.decomposition.g_star] == ["1 - q", "1", "0"]
    p1 = by_conditions[("p - 1 = 0", "q != 0", "q - 1 != 0")]
    assert p1.decomposition.classes == ((1,),) and [str(x) for x in p1.decomposition.g_star] == ["1", "1", "1"]
    generic = strat.strata[0]
    assert [str(x) for x in generic.decomposition.g_star] == ["-1/(p - 2)"] * 3
    assert "p - 2 != 0" not in generic.conditions  # p = 2 holds no valid point (1 - p < 0)
    assert [str(x) for x in strat.at({"p": 0, "q": "1/3"}).g_star] == ["2/3", "1", "0"]
    check_chain(m, 0)


def test_generic_closed_form_is_refused_where_strata_answer():
    m = ParametricChain([[0, "q", "1-q"], [0, "p", "1-p"], [0, 1, 0]], [0, 1, 0], params=["p", "q"])
    with pytest.raises(GenericRegionError):
        exactpte.decompose(m).at({"p": 0, "q": "1/3"})
    assert exactpte.stratify(m).at({"p": 0, "q": "1/3"}).periods == (2,)


def test_points_outside_the_valid_region_are_refused():
    strat = exactpte.stratify(exactpte.example("two-state-pq"))
    with pytest.raises(GenericRegionError, match="not valid"):
        strat.at({"p": 2, "q": "1/2"})


def test_curves_and_pointwise_strata():
    """q = 1 - p is eliminated on a curve; p^2 + q^2 = 1 has no rational elimination: pointwise."""
    m = ParametricChain([["p*q", "1 - p*q", 0], [0, "p + q - p*q", "1 - p - q + p*q"], [0, "1 - p^2 - q^2", "p^2 + q^2"]],
                        [1, 0, 2], params=["p", "q"])
    strat, seen = check_chain(m, 1)
    assert any(s.pointwise for s in strat.strata) and seen > 10
    on_circle = {"p": "3/5", "q": "4/5"}
    assert strat.locate(on_circle).pointwise and same(strat, m, on_circle)


@pytest.mark.slow
@pytest.mark.parametrize("params", [("p",), ("p", "q")])
@settings(scaled(12/40), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_point_agrees_with_the_substituted_chain(params, seed):
    rng = random.Random(seed)
    base = random_small_chain(seed, max_states=7)
    chain = parametrize(base, rng.randint, params=params, max_rows=3, products=True, squares=True)
    _, seen = check_chain(chain, seed)
    assert seen > 0  # some point was compared: a family with no valid point on the grid would test nothing


def test_rational_chains_have_no_strata():
    with pytest.raises(UsageError, match="ParametricChain"):
        exactpte.stratify(exactpte.example("branching"))


def _two_state_strata():
    return exactpte.stratify(exactpte.example("two-state-pq"))


def test_strata_json_lists_each_stratum_with_its_conditions():
    """The strata JSON has the parameters, and each stratum its conditions (each '... = 0' or
    '... != 0', the generic stratum first) and its decomposition keys."""
    d = json.loads(_two_state_strata().to_json())
    assert d["params"] == ["p", "q"] and d["strata"][0]["conditions"][:2] == ["p != 0", "p - 1 != 0"]
    for s in d["strata"]:
        assert {"conditions", "n", "classes", "g_star", "rho", "h", "params", "assumptions"} <= set(s)
        for c in s["conditions"]:
            assert c.endswith(" = 0") or c.endswith(" != 0")


def test_strata_to_sympy_is_piecewise_with_the_right_values():
    """to_sympy gives a Piecewise rho whose value is right on the boundary p = 0 (state 0
    absorbing) and at a generic point."""
    import sympy

    pieces = _two_state_strata().to_sympy(quantities=["rho"])["rho"]
    p, q = sympy.symbols("p q", real=True)
    assert pieces[0].subs({p: 0, q: sympy.Rational(1, 2)}) == 1
    assert pieces[0].subs({p: sympy.Rational(1, 3), q: sympy.Rational(1, 2)}) == sympy.Rational(3, 5)


def test_strata_to_sympy_reads_each_stratum_in_its_simplest_form():
    """On the docs' 3-state chain (a 2-cycle at p = 0) every piece's condition is the Or of its strata's
    `where` (`Eq(p, 0) & (q > 0) & (q < 1)`, no pile of inequations, one piece per distinct value), and
    the Piecewise equals the exact decomposition at every point of a grid that crosses each stratum,
    boundaries included."""
    import sympy

    chain = exactpte.ParametricChain([[0, "q", "1-q"], [0, "p", "1-p"], [0, 1, 0]], [0, 1, 0], params=["p", "q"])
    strat = exactpte.stratify(chain)
    p, q = sympy.symbols("p q", real=True)
    pieces = strat.to_sympy(quantities=["g_star", "h"])
    state0 = pieces["g_star"][0]
    values = [piece.expr for piece in state0.args]
    assert len(values) == len(set(values)) == 4  # -1/(p - 2), 1 - q, 1, 0
    assert sympy.And(p > 0, p < 1, q > 0, q < 1) in sympy.Or.make_args(state0.args[0].cond)
    assert state0.args[1].cond == sympy.And(sympy.Eq(p, 0), q > 0, q < 1)
    grid = [sympy.Rational(k, 4) for k in range(5)]
    for a in grid:
        for b in grid:
            exact = strat.at({"p": str(a), "q": str(b)})
            for name in ("g_star", "h"):
                got = [x.subs({p: a, q: b}) for x in pieces[name]]
                assert got == [sympy.Rational(int(v.p), int(v.q)) for v in getattr(exact, name)], (a, b, name)


def test_strata_latex_is_by_cases():
    """to_latex of a stratified result writes each closed form by cases."""
    assert r"\begin{cases}" in _two_state_strata().to_latex()


def test_cli_strata_json_equals_the_library_json(capsys):
    """exactpte decompose --strata --json prints the library's strata JSON (without the dense P∞ of every stratum)."""
    assert main(["decompose", "--example", "two-state-pq", "--strata", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(_two_state_strata().to_json(include_P_inf=False))


def test_cli_strata_summary_names_the_boundary_conditions(capsys):
    """exactpte decompose --strata (no format option) prints each stratum's conditions, such as p = 0."""
    assert main(["decompose", "--example", "two-state-pq", "--strata"]) == 0
    assert "p = 0" in capsys.readouterr().out


@pytest.mark.parametrize("fmt, marker", [("--csv", "stratum,conditions,"), ("--latex", r"\begin{cases}"), ("--table", "[1] p = 0")])
def test_cli_strata_prints_every_format(capsys, fmt, marker):
    """exactpte decompose --strata takes --csv (a stratum column), --latex (cases) and --table (per stratum)."""
    assert main(["decompose", "--example", "two-state-pq", "--strata", fmt]) == 0
    out = capsys.readouterr().out
    assert marker in out
    if fmt == "--csv":
        strata = {line.split(",")[0] for line in out.splitlines()[1:]}
        assert strata == {str(k) for k in range(len(_two_state_strata().strata))}


def test_strata_display_in_notebooks():
    strat = _two_state_strata()
    assert strat._repr_latex_().startswith("\\[") and "<table>" in strat._repr_html_() and "p = 0" in strat._repr_html_()


@pytest.mark.parametrize("entries", [("4*p*(1-p)", "(2*p-1)**2"), ("1 - (2*p-1)**4", "(2*p-1)**4"),
                                     ("1 - 2*p*(2*p-1)**2", "2*p*(2*p-1)**2"), ("1 - (3*p-1)**2/4", "(3*p-1)**2/4")])
def test_an_entry_with_a_repeated_root_keeps_the_generic_stratum(entries):
    """An entry whose root inside (0, 1) has even multiplicity leaves the generic region two intervals;
    it was judged empty when a test point fell on that root (sympy's isolating intervals end anywhere),
    and the generic stratum was dropped.  Every point of a grid now lies in one stratum whose answer is
    the rational decomposition there."""
    chain = exactpte.ParametricChain([list(entries), [1, 0]], [0, 1], params=["p"])
    strat = exactpte.stratify(chain)
    assert _agrees_on_the_generic_points(strat, chain, entries, 12) >= 9


def test_a_line_of_the_second_parameter_is_kept_when_its_sub_level_has_a_repeated_root():
    """Two parameters: on q = 1 the sub-level's entries include (2p - 1)^2, whose root once made that
    sub-level look empty, so `q - 1 != 0` was dropped as implied and (1/4, 1) fell in the generic
    stratum with g*(0) = 0; at q = 1 state 0 is absorbing and g*(0) = r(0) = 1."""
    import sympy

    P = [["q", "1-q", 0], [0, "4*p*(1-p)", "(2*p-1)**2"], [0, 1, 0]]
    chain = exactpte.ParametricChain(P, [1, 0, 0], params=["p", "q"])
    strat = exactpte.stratify(chain)
    point = {"p": "1/4", "q": "1"}
    assert "q = 1" in strat.locate(point).where
    assert strat.at(point).g_star == exactpte.decompose(chain.at(point, check=False)).g_star
    g0 = strat.to_sympy(quantities=["g_star"])["g_star"][0]
    p, q = sympy.symbols("p q", real=True)
    assert g0.subs({p: sympy.Rational(1, 4), q: 1}) == 1


def test_a_long_chain_of_distinct_rational_roots_stratifies_quickly():
    """30 rows with entries j p / (j + 1): 30 close rational roots.  Isolating them through one product
    recomputed its Sturm sequence at every bisection (10 s); linear factors now give their roots exactly."""
    k = 30
    P = [["0"] * (k + 1) for _ in range(k + 1)]
    for j in range(1, k + 1):
        P[j - 1][j], P[j - 1][0] = f"{j}*p/({j}+1)", f"1 - {j}*p/({j}+1)"
    P[0][0], P[k][0] = "1 - 1*p/(1+1)", "1"
    chain = ParametricChain(P, [1] + [0] * k, params=["p"])
    with cpu_budget(5):  # 0.3 s of CPU here, a margin of 15; 10 s before
        strat = exactpte.stratify(chain)
    assert strat.at({"p": "1/3"}).rho == exactpte.decompose(chain.at({"p": "1/3"})).rho


@pytest.mark.parametrize("entries", [("(p^2 - 2)^2/4", "1 - (p^2 - 2)^2/4"), ("(2*p^2 - 1)^2", "1 - (2*p^2 - 1)^2"),
                                     ("(3*p - 2)*(p^2 - 1/2)*4/3 + 1/2", "1/2 - (3*p - 2)*(p^2 - 1/2)*4/3")])
def test_irrational_roots_beside_rational_ones_keep_their_gaps(entries):
    """An irrational root (1/sqrt(2)) isolated in an interval that also holds a rational root (2/3): the
    interval is halved until it holds none, so the gap between them is sampled."""
    chain = ParametricChain([list(entries), [1, 0]], [0, 1], params=["p"])
    strat = exactpte.stratify(chain)
    assert _agrees_on_the_generic_points(strat, chain, entries, 48) >= 30


def _agrees_on_the_generic_points(strat, chain, entries, m):
    """At ``p = k/m`` (``0 <= k <= m``): inside the generic region (both ``entries`` positive, decided by sympy, not by
    exactpte) the stratified ρ is the decomposition's of the chain there; outside it, ``chain.at`` refuses the point.
    Returns the number of points inside, each compared."""
    import sympy

    p = sympy.Symbol("p")
    exprs = [sympy.sympify(e.replace("^", "**"), locals={"p": p}) for e in entries]
    inside = 0
    for k in range(m + 1):
        point = {"p": f"{k}/{m}"}
        if not all(e.subs(p, sympy.Rational(k, m)) > 0 for e in exprs):
            with pytest.raises(GenericRegionError):
                chain.at(point)
            continue
        assert strat.at(point).rho == exactpte.decompose(chain.at(point)).rho, point
        inside += 1
    return inside
