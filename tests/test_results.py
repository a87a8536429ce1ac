"""The result object: JSON contract, canonical output, derived quantities against independent routes."""

import json
from pathlib import Path

import flint
import pytest
from hypothesis import given

import exactpte
from exactpte.testing.strategies import chains
from proofs_check.routes import Routes

CONTRACT_KEYS = {"classes", "transient", "periods", "cyclic_classes", "anchors", "basis", "v_star", "g_star",
                 "theta", "P_inf", "rho", "h", "psi"}


def test_json_contract_shapes_and_strings():
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


def test_output_is_canonical():
    a = exactpte.decompose(exactpte.example("branching")).to_json()
    b = exactpte.decompose(exactpte.example("branching")).to_json()
    assert a == b
    # the same chain built another way gives byte-identical output
    m = exactpte.example("branching")
    m2 = exactpte.MarkovRewardProcess(m.dense(), list(m.r), m.labels)
    assert exactpte.decompose(m2).to_json() == a


def test_latex_and_table():
    dec = exactpte.decompose(exactpte.example("branching"))
    tex = dec.to_latex()
    assert tex.startswith("\\begin{tabular}") and "\\tfrac{2}{3}" in tex and tex.count("\\\\") == 8
    table = dec.table()
    assert len(table.splitlines()) == 9 and "t0" in table and "-2/3" in table
    assert "period 3" in str(dec)


@given(chains(max_states=10))
def test_P_inf_factored_equals_spectral_projector(chain):
    dec = exactpte.decompose(chain)
    R = Routes(chain).P_inf
    assert [list(row) for row in dec.P_inf] == [[R[i, j] for j in range(chain.n)] for i in range(chain.n)]
    x = [flint.fmpq(s * s - 3, 2) for s in range(chain.n)]
    assert list(dec.P_inf_apply(x)) == [sum((R[i, j] * x[j] for j in range(chain.n)), flint.fmpq(0)) for i in range(chain.n)]


@given(chains(max_states=10))
def test_gain_fast_path_and_returns(chain):
    dec = exactpte.decompose(chain)
    assert exactpte.gain(chain) == dec.rho
    routes = Routes(chain)
    for T in (0, 1, 5):
        J = dec.returns(T)
        assert list(J) == [routes.returns(T)[i, 0] for i in range(chain.n)]
        persistent, boundary = dec.return_split(T)
        assert tuple(p + b for p, b in zip(persistent, boundary)) == J


@given(chains(max_states=10))
def test_hitting_times_solve_their_equations(chain):
    dec = exactpte.decompose(chain)
    t = dec.hitting_times
    anchors = {s for _, _, s in dec.anchor_list}
    Pt = chain.matvec(t)
    for s in range(chain.n):
        assert t[s] == (0 if s in anchors else 1 + Pt[s])


def test_stationary_distributions_are_invariant():
    dec = exactpte.decompose(exactpte.example("branching"))
    for members, pi in zip(dec.classes, dec.stationary):
        assert sum(pi) == 1
        for j, y in enumerate(members):
            assert sum(p * dict(dec.chain.row(x)).get(y, 0) for x, p in zip(members, pi)) == pi[j]


GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", ["branching", "two-paths", "cycle-24", "paper-benchmark"])
def test_golden_files_compare_with_equality(name):
    """Canonical output: today's JSON equals the stored golden file byte for byte.

    Regenerate deliberately with ``exactpte decompose --example NAME --json --hitting-times``.
    """
    got = exactpte.decompose(exactpte.example(name)).to_json(include_hitting_times=True)
    assert got == (GOLDEN / f"{name}.json").read_text().rstrip("\n")


def test_draw_writes_an_svg_with_one_node_per_state(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")
    import re

    from exactpte.cli import main

    out = tmp_path / "x.svg"
    assert main(["draw", "--example", "two-paths", "-o", str(out)]) == 0
    svg = out.read_text()
    n = exactpte.example("two-paths").n
    assert sorted(int(k) for k in re.findall(r'id="state-(\d+)"', svg)) == list(range(n))
    png = tmp_path / "x.png"
    assert main(["draw", "--example", "branching", "-o", str(png), "--edge-labels"]) == 0 and png.stat().st_size > 1000
    assert main(["draw", "--example", "branching", "-o", str(tmp_path / "x.txt")]) == 2


def test_notebook_views_csv_and_deviation_matrix(capsys):
    dec = exactpte.decompose(exactpte.example("branching"))
    html = dec._repr_html_()
    assert html.count("<tr>") == dec.n + 1 and "F1: period 3" in html
    assert dec._repr_latex_() is None  # rational results: the HTML table
    par = exactpte.decompose(exactpte.example("two-state-pq"))
    assert par._repr_latex_().startswith("$$\\begin{array}") and "\\frac{q}{p + q}" in par._repr_latex_()
    from exactpte.cli import main

    assert main(["decompose", "--example", "branching", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "state,label,where,r,g_star,v_star,rho,h,psi" and len(lines) == dec.n + 1
    D, n = dec.deviation_matrix, dec.n
    assert tuple(sum(D[s][y] * dec.chain.r[y] for y in range(n)) for s in range(n)) == dec.h  # D r = h
    assert all(sum(dec.P_inf[s][k] * D[k][y] for k in range(n)) == 0 for s in range(n) for y in range(n))
    e = [0] * n
    e[3] = 1
    assert dec.deviation_apply(e) == tuple(row[3] for row in D)


def test_chain_draws_and_shows_in_notebooks():
    m = exactpte.example("branching")
    assert "<table>" in m._repr_html_()
