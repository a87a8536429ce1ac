"""Strata conditions that cannot be decided on two parameters are kept and marked "not decided" (text, LaTeX,
JSON of ``--strata``); those a certificate decides are dropped, and a stratum with a point found on it is not marked.

The region is the triangle ``p, q > 0, p + q < 1`` (entries ``p``, ``q``, ``1 - p - q``).  An entry
``(3 - 2 p^2 - 2 q^2) / 3`` makes ``2 p^2 + 2 q^2 - 3`` a special factor: it has no root in the triangle
(``p^2 + q^2 < 1`` there) but has roots in the box ``0 < p, q < 1`` around it, so the sign certificate on
the box fails and no point is found on it: not decided.  ``p^2 + q^2`` (from ``1 - a``) has no root in the
open box: certified, dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import exactpte
from exactpte.cli import main

A = "(3 - 2*p**2 - 2*q**2)/3"
UNDECIDED = "2*p**2 + 2*q**2 - 3"


def _chain(a: str = A) -> exactpte.ParametricChain:
    return exactpte.ParametricChain([[a, f"1 - ({a})", 0], ["p", "q", "1 - p - q"], [0, 0, 1]], [1, 0, 0], params=["p", "q"])


def test_an_undecided_factor_is_kept_and_marked() -> None:
    strat = exactpte.stratify(_chain())
    generic = strat.strata[0]
    assert f"{UNDECIDED} != 0" in generic.conditions  # kept: the strata still partition the region
    assert generic.not_decided == [f"{UNDECIDED} != 0"]
    pointwise = [s for s in strat.strata if s.pointwise]
    assert [s.not_decided for s in pointwise] == [[f"{UNDECIDED} = 0"]]
    assert f"{UNDECIDED} = 0 (not decided)" in pointwise[0].where_marked
    assert pointwise[0].where[0] == f"{UNDECIDED} = 0"  # where stays parsable (to_sympy reads it)
    assert all(not s.not_decided for s in strat.strata if not s.pointwise and s is not generic)
    # p**2 + q**2 has no root in the open box: certified, so neither a stratum nor a condition
    assert not any("p**2 + q**2 " in c for s in strat.strata for c in s.conditions)
    text = str(strat)
    assert f"{UNDECIDED} = 0 (not decided)" in text
    assert text.count("(not decided)") == 1  # the generic region's where does not print the inequation at all


def test_not_decided_in_json_latex_and_table(capsys: Any, tmp_path: Path) -> None:
    strat = exactpte.stratify(_chain())
    data = strat.to_dict(only="g_star")
    marked = {tuple(s["not_decided"]) for s in data["strata"] if "not_decided" in s}
    assert marked == {(f"{UNDECIDED} != 0",), (f"{UNDECIDED} = 0",)}
    assert all("not decided" not in c for s in data["strata"] for c in s["conditions"] + s["where"])  # parsable
    assert r"2 p^2 + 2 q^2 - 3 = 0\ \text{(not decided)}" in strat.to_latex(quantities="g_star")
    assert f"{UNDECIDED} = 0 (not decided)" in strat.table(only="g_star")
    path = str(tmp_path / "chain.json")
    exactpte.dump(_chain(), path)
    assert main(["decompose", path, "--strata", "--json", "--only", "g_star"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any(s.get("not_decided") == [f"{UNDECIDED} = 0"] for s in out["strata"])
    assert main(["decompose", path, "--strata", "--latex", "--only", "g_star"]) == 0
    assert r"\text{(not decided)}" in capsys.readouterr().out
    assert main(["decompose", path, "--strata"]) == 0
    assert f"{UNDECIDED} = 0 (not decided)" in capsys.readouterr().out


def test_a_point_found_decides_a_curve() -> None:
    """``(4 p^2 + 4 q^2 - 1)^2 / 9``: the circle of radius 1/2 crosses the triangle, a point is found on it
    (the entry vanishes there: the support changes), so its stratum is decided and not marked."""
    strat = exactpte.stratify(_chain("(4*p**2 + 4*q**2 - 1)**2/9"))
    circle = [s for s in strat.strata if s.pointwise and str(s.equations[-1]) == "4*p**2 + 4*q**2 - 1 = 0"]
    assert len(circle) == 1 and circle[0].not_decided == []
    assert "4*p**2 + 4*q**2 - 1 != 0" not in strat.strata[0].not_decided
    # p**2 + q**2 - 1 (a factor of 1 - a) has roots in the box but none in the triangle: not decided
    assert "p**2 + q**2 - 1 != 0" in strat.strata[0].not_decided
