"""What people read and put in papers never hides a value: the factored form combines parts that cancel and
writes a short entry reduced (the ruin chain's g*(home) is "0", psi(home) "-1/4", read back exactly); the
factored LaTeX keeps every column; denominators are written positive on the region; summaries name states by
their labels; a huge number is shortened in a text table (the JSON keeps every digit); a cut text says so."""

from __future__ import annotations

import json
import re
from typing import Any

import flint
import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.results.factored import expand


def _ruin() -> Any:
    return exactpte.decompose(exactpte.example("ruin"))


def test_factored_ruin_never_hides_a_simple_value(capsys: Any) -> None:
    assert main(["decompose", "--example", "ruin", "--json", "--factored"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["g_star"][0] == "0" and data["psi"][0] == "-1/4"
    assert data["basis"][0] == ["0", "1"] and data["v_star"][0] == "-p/D1" and data["denominators"] == {"D1": "1 - p*q"}
    dec = _ruin()
    back = expand(data)
    for key in ("basis", "g_star", "v_star", "rho", "h", "psi", "theta", "class_gain"):
        rows = back[key]
        values = [[dec.field.read_result(x) for x in row] for row in rows] if isinstance(rows[0], list) else \
            [dec.field.read_result(x) for x in rows]
        assert values == ([list(r) for r in dec.basis] if key == "basis" else list(getattr(dec, key))), key


def test_factored_parts_that_cancel_are_combined_on_branching_b() -> None:
    """branching-b's g*[6] was "(5/6) + (-1/6) + (-2/3)": written "0" now, every value read back."""
    dec = exactpte.decompose(exactpte.example("branching-b"))
    data = dec.to_dict(include_P_inf=False, factored=True)
    assert data["g_star"][6] == "0" and not any(" + (" in x for x in data["g_star"] + data["v_star"] + data["psi"])
    back = expand(data)
    assert [dec.field.read_result(x) for x in back["g_star"]] == list(dec.g_star)


def test_a_sum_of_parts_that_is_a_constant_is_found_past_the_small_sums(monkeypatch: Any) -> None:
    """Above SHORT_SUM terms the sum is not formed unless its values at two points agree: a constant still is."""
    from exactpte.results import factored

    F = exactpte.example("ruin").field
    p, q = F.ctx.gens()
    parts = [(p * q + 1, p + q + 2), (-(p * q + 1) + 3 * (p + q + 2), p + q + 2)]  # over one denominator: combined
    names = factored.DenominatorNames(F)
    assert names.parts(parts) == "3"
    big = [((p + q) ** 6 + 1, (p + q) ** 7 + 2), (3 * ((p + q) ** 7 + 2) - ((p + q) ** 6 + 1), (p + q) ** 7 + 2),
           (p, q + 1), (-p, q + 1)]
    monkeypatch.setattr(factored, "SHORT_SUM", 4)
    assert names.parts(big) == "3"
    assert names.parts([(p, q + 1), (q, p + 1)]) == "p/D1 + q/D2"  # coprime denominators: kept as parts
    assert names.table == {"D1": "q + 1", "D2": "p + 1"}


def test_factored_latex_keeps_every_column() -> None:
    tex = _ruin().to_latex(factored=True)
    head = next(line for line in tex.splitlines() if line.startswith("$s$"))
    assert head == r"$s$ & class/phase & $r$ & $g^\star_\Pi$ & $v^\star_\Pi$ & $\rho$ & $h$ & $\psi_\Pi$ \\"
    assert r"home & $\mathsf T$ & $0$ & $0$ & $- \frac{p}{D_{1}}$" in tex and r"win & $C_{0,0}$ & $1$ & $1$" in tex
    tabular = tex[: tex.index(r"\end{tabular}")]
    assert tabular.count("&") == 7 * (1 + 4)


def test_denominators_are_written_positive_on_the_region() -> None:
    dec = _ruin()
    table, tex = dec.table(), dec.to_latex()
    assert "(p*q - 4*p - 1)/(4*(1 - p*q))" in table and "4*p*q - 4" not in table
    assert r"\frac{p q - 4 p - 1}{4 (1 - p q)}" in tex
    # the JSON keeps its canonical spelling (a positive leading coefficient), the same value
    assert dec.to_dict(only="h")["h"][0] == "(-p*q + 4*p + 1)/(4*p*q - 4)"


def test_summaries_name_states_by_their_labels() -> None:
    text = str(_ruin())
    assert "anchors win, rest" in text and "anchors [" not in text
    strata = str(exactpte.stratify(exactpte.example("ruin")))
    assert "classes {win, rest}" in strata and "transient home, bet" in strata


def test_a_huge_number_is_shortened_in_the_table_and_whole_in_the_json() -> None:
    big = "7" * 5000
    chain = exactpte.MarkovRewardProcess([["1/2", "1/2"], [1, 0]], [big, 0], labels=["a", "b"])
    dec = exactpte.decompose(chain)
    assert max(len(line) for line in dec.table().splitlines()) < 300  # six shortened numbers, not 5,000 digits each
    assert "(5,000 digits)" in dec.table() and "7.777777777e4999" in dec.table()
    assert dec.to_dict(only="rho")["rho"][0] == str(dec.rho[0]) and len(str(dec.rho[0])) > 4990


def test_cut_texts_say_so_with_an_ellipsis() -> None:
    dec = exactpte.decompose(exactpte.example("branching"))
    with pytest.raises(exactpte.errors.UsageError) as caught:
        dec.project(list(range(1000)))
    message = str(caught.value)
    assert "..." in message and re.search(r"\([0-9,]+ characters\)", message)


def test_long_labels_are_cut_with_an_ellipsis_in_tables() -> None:
    chain = exactpte.MarkovRewardProcess([[1]], [1], labels=["x" * 100])
    assert "…" in exactpte.decompose(chain).table()


@pytest.mark.parametrize("point", [("1/3", "1/5"), ("9/10", "1/2")])
def test_the_oriented_text_reads_back_to_the_same_value(point: tuple[str, str]) -> None:
    from exactpte.fields.orientation import RegionPrinter

    dec = _ruin()
    printer = RegionPrinter.of_chain(dec.chain)
    values = [flint.fmpq(x) for x in point]
    for key in ("v_star", "h", "psi"):
        for x in getattr(dec, key):
            assert dec.field.evaluate(dec.field.read_result(printer.text(x)), values) == dec.field.evaluate(x, values)
