"""The result object: JSON contract, canonical output, derived quantities against independent routes."""

import json

import flint
import pytest
from hypothesis import given

import exactpte
from exactpte.testing.strategies import chains
from proofs_check.routes.dense import Routes

CONTRACT_KEYS = {"classes", "transient", "periods", "cyclic_classes", "anchors", "basis", "v_star", "g_star",
                 "theta", "P_inf", "rho", "h", "psi"}


def test_json_contract_shapes_and_strings():
    """The JSON output has every contract key, the documented shapes, and exact values as strings."""
    dec = exactpte.decompose(exactpte.example("branching"))
    data = json.loads(dec.to_json())
    assert CONTRACT_KEYS <= set(data)
    n, N = 7, 5
    assert data["anchors"] == [[0, 0, 0], [0, 1, 1], [1, 0, 2], [1, 1, 3], [1, 2, 4]]
    assert len(data["basis"]) == n and all(len(row) == N for row in data["basis"])
    assert len(data["P_inf"]) == n and all(len(row) == n for row in data["P_inf"])
    assert data["g_star"][5] == "2/3" and data["v_star"][5] == "-2/3"
    assert all(isinstance(x, str) for x in data["h"])
    assert data["classes"] == [[0, 1], [2, 3, 4]] and data["transient"] == [5, 6]


def test_output_is_deterministic():
    """Decomposing the same chain twice gives byte-identical JSON."""
    a = exactpte.decompose(exactpte.example("branching")).to_json()
    b = exactpte.decompose(exactpte.example("branching")).to_json()
    assert a == b


def test_output_does_not_depend_on_how_the_chain_was_built():
    """The same chain built another way (from its dense matrix) gives byte-identical JSON."""
    a = exactpte.decompose(exactpte.example("branching")).to_json()
    m = exactpte.example("branching")
    m2 = exactpte.MarkovRewardProcess(m.dense(), list(m.r), labels=m.labels)
    assert exactpte.decompose(m2).to_json() == a


def test_latex_is_a_tabular_with_a_row_a_state():
    """to_latex() is a tabular environment, exact fractions as \\tfrac, a header and a row a state."""
    dec = exactpte.decompose(exactpte.example("branching"))
    tex = dec.to_latex()
    assert tex.startswith("\\begin{tabular}") and "\\tfrac{2}{3}" in tex and tex.count("\\\\") == 8


def test_table_has_a_line_a_state():
    """table() is plain text: a header, a line a state, transient labels and exact values."""
    dec = exactpte.decompose(exactpte.example("branching"))
    table = dec.table()
    assert len(table.splitlines()) == 9 and "t0" in table and "-2/3" in table


def test_str_names_the_class_periods():
    """str() of a decomposition summarises the classes with their periods."""
    dec = exactpte.decompose(exactpte.example("branching"))
    assert "period 3" in str(dec)


@given(chains(max_states=10))
def test_P_inf_factored_equals_spectral_projector(chain):
    """P_inf (and P_inf_apply) equal the spectral projector computed by an independent route."""
    dec = exactpte.decompose(chain)
    R = Routes(chain).P_inf
    assert [list(row) for row in dec.P_inf] == [[R[i, j] for j in range(chain.n)] for i in range(chain.n)]
    x = [flint.fmpq(s * s - 3, 2) for s in range(chain.n)]
    assert list(dec.P_inf_apply(x)) == [sum((R[i, j] * x[j] for j in range(chain.n)), flint.fmpq(0)) for i in range(chain.n)]


@given(chains(max_states=10))
def test_gain_fast_path_equals_rho(chain):
    """exactpte.gain (the fast path, no full decomposition) equals the decomposition's rho."""
    assert exactpte.gain(chain) == exactpte.decompose(chain).rho


@given(chains(max_states=10))
def test_returns_equal_the_independent_route_and_split_into_their_parts(chain):
    """returns(T) equals the T-step expected return of an independent route, and return_split(T)'s
    persistent and boundary parts add up to it."""
    dec = exactpte.decompose(chain)
    routes = Routes(chain)
    for T in (0, 1, 5):
        J = dec.returns(T)
        assert list(J) == [routes.returns(T)[i, 0] for i in range(chain.n)]
        persistent, boundary = dec.return_split(T)
        assert tuple(p + b for p, b in zip(persistent, boundary)) == J


@given(chains(max_states=10))
def test_hitting_times_solve_their_equations(chain):
    """Hitting times of the anchors solve t = 0 on anchors, t = 1 + P t elsewhere."""
    dec = exactpte.decompose(chain)
    t = dec.hitting_times
    anchors = {s for _, _, s in dec.anchor_list}
    Pt = chain.matvec(t)
    for s in range(chain.n):
        assert t[s] == (0 if s in anchors else 1 + Pt[s])


def test_stationary_distributions_are_invariant():
    """Each class's stationary distribution sums to 1 and is invariant under the class's rows."""
    dec = exactpte.decompose(exactpte.example("branching"))
    for members, pi in zip(dec.classes, dec.stationary):
        assert sum(pi) == 1
        for j, y in enumerate(members):
            assert sum(p * dict(dec.chain.row(x)).get(y, 0) for x, p in zip(members, pi)) == pi[j]


from paths import GOLDEN


@pytest.mark.parametrize("name", ["branching", "two-paths", "cycle-24", "paper-benchmark"])
def test_golden_files_compare_with_equality(name):
    """Canonical output: today's JSON equals the stored golden file byte for byte.

    Regenerate deliberately with ``exactpte decompose --example NAME --json --hitting-times``.
    """
    got = exactpte.decompose(exactpte.example(name)).to_json(include_hitting_times=True)
    assert got == (GOLDEN / f"{name}.json").read_text().rstrip("\n")


@pytest.mark.extra("plot")
def test_draw_writes_an_svg_with_one_node_per_state(tmp_path):
    """exactpte draw -o x.svg writes an SVG with one node (id state-K) for every state."""
    pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")
    import re

    from exactpte.cli.commands import main

    out = tmp_path / "x.svg"
    assert main(["draw", "--example", "two-paths", "-o", str(out)]) == 0
    svg = out.read_text()
    n = exactpte.example("two-paths").n
    assert sorted(int(k) for k in re.findall(r'id="state-(\d+)"', svg)) == list(range(n))


@pytest.mark.extra("plot")
def test_draw_writes_a_png_with_edge_labels(tmp_path):
    """exactpte draw -o x.png --edge-labels writes a non-trivial PNG."""
    pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")
    from exactpte.cli.commands import main

    png = tmp_path / "x.png"
    assert main(["draw", "--example", "branching", "-o", str(png), "--edge-labels"]) == 0 and png.stat().st_size > 1000


def test_draw_refuses_an_unknown_file_ending(tmp_path):
    """exactpte draw -o x.txt exits with status 2 (usage error) before drawing: no extra needed."""
    from exactpte.cli.commands import main

    assert main(["draw", "--example", "branching", "-o", str(tmp_path / "x.txt")]) == 2


def test_notebook_html_view_has_a_row_a_state():
    """A decomposition's _repr_html_ is a table: a header row and a row a state, classes with periods."""
    dec = exactpte.decompose(exactpte.example("branching"))
    html = dec._repr_html_()
    assert html.count("<tr>") == dec.n + 1 and "F<sub>1</sub>: period 3" in html


def test_notebook_latex_view_only_for_closed_forms():
    """_repr_latex_ is None for a rational result (the notebook shows the HTML table) and a LaTeX
    array of closed forms for a parametric one."""
    dec = exactpte.decompose(exactpte.example("branching"))
    assert dec._repr_latex_() is None
    par = exactpte.decompose(exactpte.example("two-state-pq"))
    assert par._repr_latex_().startswith("$$\\begin{array}") and "\\frac{q}{p + q}" in par._repr_latex_()


def test_cli_csv_has_a_header_and_a_line_a_state(capsys):
    """exactpte decompose --csv prints the documented header, then one line a state."""
    from exactpte.cli.commands import main

    dec = exactpte.decompose(exactpte.example("branching"))
    assert main(["decompose", "--example", "branching", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "state,label,where,r,g_star,v_star,rho,h,psi" and len(lines) == dec.n + 1


def test_deviation_matrix_maps_rewards_to_the_bias():
    """The deviation matrix D satisfies D r = h."""
    dec = exactpte.decompose(exactpte.example("branching"))
    D, n = dec.deviation_matrix, dec.n
    assert tuple(sum(D[s][y] * dec.chain.r[y] for y in range(n)) for s in range(n)) == dec.h


def test_deviation_matrix_is_annihilated_by_P_inf():
    """P_inf D = 0."""
    dec = exactpte.decompose(exactpte.example("branching"))
    D, n = dec.deviation_matrix, dec.n
    assert all(sum(dec.P_inf[s][k] * D[k][y] for k in range(n)) == 0 for s in range(n) for y in range(n))


def test_deviation_apply_equals_a_column_of_the_deviation_matrix():
    """deviation_apply(e_3) is column 3 of the deviation matrix."""
    dec = exactpte.decompose(exactpte.example("branching"))
    D, n = dec.deviation_matrix, dec.n
    e = [0] * n
    e[3] = 1
    assert dec.deviation_apply(e) == tuple(row[3] for row in D)


def test_chain_shows_as_an_html_table_in_notebooks():
    """A chain's _repr_html_ is an HTML table."""
    m = exactpte.example("branching")
    assert "<table>" in m._repr_html_()
