"""Strata merged into cases (exactpte.results.cases): one case per distinct closed form, exactly; a value that holds
everywhere without cases; regions in their simplest form (a whole line as the line); the case's form defined and
right at every point of every stratum it claims."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import flint
import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.errors import GenericRegionError
from exactpte.results.cases import cases, region
from exactpte.testing.random_chains import parametrize, random_small_chain


def _cases_of(tex: str, symbol: str) -> list[str] | None:
    """The cases of ``symbol = \\begin{cases} ... \\end{cases}`` in ``tex`` (``None``: written without cases)."""
    line = next(x for x in tex.splitlines() if x.startswith(symbol))
    if r"\begin{cases}" not in line:
        return None
    return line.split(r"\begin{cases}")[1].split(r"\end{cases}")[0].split(r" \\ ")


def test_ruin_rho_of_win_has_no_cases_and_rho_of_home_two(capsys: Any) -> None:
    """The issue's chain: ρ(win) = 1/2 everywhere (no cases, \\frac); ρ(home) = 0 at p = q = 1, 1/2 otherwise."""
    assert main(["decompose", "--example", "ruin", "--strata", "--latex", "--only", "rho"]) == 0
    tex = capsys.readouterr().out
    assert _cases_of(tex, r"\rho(\text{win})") is None and r"\rho(\text{win}) = \frac{1}{2}" in tex
    home = _cases_of(tex, r"\rho(\text{home})")
    assert home is not None and len(home) == 2
    assert home[0].strip() == r"0 & p = 1,\ q = 1" and home[1].strip() == r"\frac{1}{2} & \text{otherwise}"
    assert r"\tfrac" not in tex


def test_a_whole_line_is_written_as_the_line(capsys: Any) -> None:
    """two-loops (the docs' strata chain): g* on p = 0 is (1 - q, 1, 0) on the whole line, corners included:
    the table and the cases say "p = 0", not the three strata the line is made of."""
    assert main(["decompose", "--example", "two-loops", "--strata", "--table", "--only", "g_star"]) == 0
    table = capsys.readouterr().out
    assert table.startswith("[0] p = 0\n") and "0 < q < 1" not in table and " or " not in table
    assert main(["decompose", "--example", "two-loops", "--strata", "--latex", "--only", "g_star"]) == 0
    tex = capsys.readouterr().out
    assert [c.strip() for c in _cases_of(tex, r"g^\star_\Pi(\text{a})") or []] == [r"1 - q & p = 0", r"\frac{1}{2 - p} & \text{otherwise}"]


def test_a_form_undefined_on_a_stratum_does_not_claim_it() -> None:
    """q/(p + q) restricts to 1 on p = 0 (q > 0) and to 0 on q = 0, but is 0/0 at p = q = 0: that point is a case
    of its own with the 2-cycle-free value, never "otherwise" (a merge that cancelled first would claim it)."""
    strat = exactpte.stratify(exactpte.example("two-state-pq"))
    found = cases(strat, "g_star", 0)
    generic = next(c for c in found if 0 in c.members)
    origin = next(k for k, s in enumerate(strat.strata) if s.where == ["p = 0", "q = 0"])
    assert origin not in generic.members
    assert [["p = 0", "q = 0"], ["p = 1", "q = 1"]] == region(strat, next(c for c in found if origin in c.members).members)


def _value_at(strat: Any, head: int, value: Any, point: dict[str, flint.fmpq]) -> Any:
    stratum = strat.strata[head]
    F = stratum.decomposition.field
    return F.evaluate(value, [point[p] for p in stratum.params]) if stratum.params else value


GRID = [flint.fmpq(a, 4) for a in range(5)]


@pytest.mark.parametrize("seed", range(6))
def test_every_case_holds_at_every_point_it_claims(seed: int) -> None:
    """Random two-parameter chains (entries vanishing on lines, a curve, points): at every valid point of a grid
    that includes the boundary, each quantity's case holding the point gives, evaluated there, exactly the value
    the point's decomposition has; every line a region writes holds only points of its case."""
    rng = random.Random(seed)
    chain = parametrize(random_small_chain(seed, max_states=6), rng.randint, params=("p", "q"), max_rows=3, products=True)
    strat = exactpte.stratify(chain)
    table = {(name, s): cases(strat, name, s) for name in ("g_star", "rho", "h", "psi") for s in range(chain.n)}
    lines = {key: [(c, [c2 for piece in region(strat, c.members) if len(piece) == 1 and " = " in piece[0]
                        for c2 in [piece[0]]]) for c in found] for key, found in table.items()}
    checked = 0
    for values in itertools.product(GRID, repeat=2):
        point = dict(zip(chain.params, values))
        try:
            here = strat.locate({k: str(v) for k, v in point.items()})
        except GenericRegionError:
            continue
        if here.pointwise:
            continue
        k = strat.strata.index(here)
        exact = strat.at({p: str(v) for p, v in point.items()})
        for (name, s), found in table.items():
            (case,) = [c for c in found if k in c.members]
            assert _value_at(strat, case.head, case.value, point) == getattr(exact, name)[s], (name, s, point)
            checked += 1
        for (name, s), written in lines.items():
            for case, texts in written:
                for text in texts:  # "p = 1/2": the point is on the line -> the point's stratum is in the case
                    var, value = text.split(" = ")
                    if re.fullmatch(r"-?[0-9]+(/[0-9]+)?", value) and var in point and point[var] == flint.fmpq(value):
                        assert k in case.members, (name, s, text, point)
    assert checked > 0


def test_a_form_whose_denominator_vanishes_inside_a_stratum_does_not_hold_there() -> None:
    """restricts() needs more than equal restrictions: 1/(2q - 1) restricted to the line p = 0 is the line's
    1/(2q - 1), but it is undefined at q = 1/2, a point of that line's stratum; (q + 1)/(q + 1)-free forms hold."""
    from exactpte.results.cases import meets, restricts

    strat = exactpte.stratify(exactpte.example("two-loops"))
    k = next(i for i, s in enumerate(strat.strata) if s.where == ["p = 0", "0 < q < 1"])
    F, G = strat.field, strat.strata[k].decomposition.field
    assert not restricts(strat, 0, F.convert("1/(2*q - 1)"), k, G.convert("1/(2*q - 1)"))
    assert restricts(strat, 0, F.convert("p/(q + 1) + 1/(q + 2)"), k, G.convert("1/(q + 2)"))
    images = [G.zero, G.variable("q")]
    assert [meets(strat, k, G.convert(t).num, F, images) for t in ("2*q - 1", "q", "q - 1", "q + 1", "q - 2")] == \
        [True, False, False, False, False]
