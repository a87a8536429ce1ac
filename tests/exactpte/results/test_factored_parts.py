"""The factored form of a periodic parametric chain: the transient entries of the basis, g*, ψ and v* are written
as sums of parts, one over each cyclotomic block's denominator (``det Φ_m(Q)``'s share, named once), instead of
one fraction over their product; the readers (``expand``, exactpte's candidate reader) give back the same values."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import flint
import pytest

import exactpte
from exactpte.results.factored import expand

PERIODIC_KEYS = ("basis", "g_star", "v_star", "psi")
ALL_KEYS = (*PERIODIC_KEYS, "theta", "rho", "h", "stationary", "class_gain")


def _path_into_cycles(k: int) -> exactpte.ParametricChain:
    """A transient path of ``k`` states (forward p, back q, stay 1 - p - q) into a 2-cycle and a 3-cycle, a reward
    on one phase of each cycle (so g* depends on the phase the path enters at)."""
    n = k + 5
    P: list[list[Any]] = [[0] * n for _ in range(n)]
    for i in range(k):
        P[i][i], P[i][i + 1 if i + 1 < k else k], P[i][i - 1 if i > 0 else k + 2] = "1-p-q", "p", "q"
    P[k][k + 1] = P[k + 1][k] = P[k + 2][k + 3] = P[k + 3][k + 4] = P[k + 4][k + 2] = 1
    r = [0] * n
    r[k] = r[k + 2] = 1
    return exactpte.ParametricChain(P, r, params=["p", "q"])


def _values(dec: Any, data: dict[str, Any], key: str) -> list[Any]:
    F, rows = dec.field, data[key]
    return [[F.convert(x) for x in row] for row in rows] if rows and isinstance(rows[0], list) else [F.convert(x) for x in rows]


def test_periodic_entries_are_sums_over_the_block_denominators() -> None:
    dec = exactpte.decompose(_path_into_cycles(4))
    factored = dec.to_dict(include_P_inf=False, factored=True)
    back = expand(factored)
    for key in ALL_KEYS:  # load(to_json(factored=True)) == the result, exactly
        assert _values(dec, back, key) == _values(dec, dec.to_dict(include_P_inf=False), key), key
    for s in dec.transient:  # g*(s) over the 2-cycle's and the 3-cycle's blocks: three named parts at least
        assert len(set(re.findall(r"D[0-9]+", factored["g_star"][s]))) >= 3, factored["g_star"][s]
    table = factored["denominators"]
    assert len(set(table.values())) == len(table)
    used = set(re.findall(r"D[0-9]+", json.dumps({k: v for k, v in factored.items() if k != "denominators"})))
    assert used == set(table)
    # every named denominator is primitive (the content is written beside it) and positive on the region
    F = dec.field
    point = [flint.fmpq(1, 3), flint.fmpq(1, 5)]
    assert all(F.convert(t).num.content() == 1 and F.evaluate(F.convert(t), point) > 0 for t in table.values())


def test_the_parts_make_the_answer_smaller() -> None:
    """The parts are over the block determinants, not their product: the factored JSON of the periodic keys is
    less than half the plain one on a path of 8 states into two cycles."""
    dec = exactpte.decompose(_path_into_cycles(8))
    plain, factored = dec.to_json(only=PERIODIC_KEYS), dec.to_json(only=PERIODIC_KEYS, factored=True)
    assert 2 * len(factored) < len(plain)


def test_the_candidate_reader_accepts_the_parts(tmp_path: Path) -> None:
    from exactpte.oracle.candidates import load_candidate

    dec = exactpte.decompose(_path_into_cycles(3))
    path = tmp_path / "factored.json"
    path.write_text(dec.to_json(include_P_inf=False, factored=True))
    read = load_candidate(path)
    for key in PERIODIC_KEYS:
        assert _values(dec, read, key) == _values(dec, dec.to_dict(include_P_inf=False), key), key


def test_factored_latex_of_a_periodic_chain() -> None:
    tex = exactpte.decompose(_path_into_cycles(2)).to_latex(factored=True)
    assert r"\frac{" in tex and "D_{1} &= " in tex


PERIODIC37 = os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks", "data", "periodic37.drn.gz")


@pytest.mark.slow
def test_periodic37_factored() -> None:
    """periodic37's full decomposition in the factored form: about 11 million characters (68 million before the
    parts), a few denominators, and g* of the first and last transient states read back exactly."""
    dec = exactpte.decompose(exactpte.load(PERIODIC37))
    data = dec.to_dict(include_P_inf=False, factored=True)
    assert len(json.dumps(data)) < 15_000_000
    assert len(data["denominators"]) <= 10
    # the entries exceed the expression parser's bounds on untrusted text (MAX_TERMS): read as flint polynomials
    F = dec.field
    ctx = dec.g_star[0].num.context()

    def poly(text: str) -> Any:
        return F.poly(flint.fmpz_mpoly(text.replace("**", "^"), ctx))

    dens = {name: poly(text) for name, text in data["denominators"].items()}
    part = re.compile(r"\(([^()]*)\)/(?:\(([0-9]+)\*(D[0-9]+)\)|(D[0-9]+))")
    for s in (dec.transient[0], dec.transient[-1]):
        parts = part.findall(data["g_star"][s])
        assert len(parts) >= 2
        total = sum((poly(num) / (dens[a or b] * int(c or 1)) for num, c, a, b in parts), F.zero)
        assert total == dec.g_star[s]


def test_a_chain_with_an_aperiodic_class_too() -> None:
    """A transient state entering a 2-cycle (probability p) and an absorbing state (probability q): the transient entries
    are parts (the docs' example), the aperiodic column a single fraction, and everything reads back."""
    chain = exactpte.ParametricChain([["1-p-q", "p", "q", 0], [0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]], [0, 1, 0, 0],
                                     params=["p", "q"])
    dec = exactpte.decompose(chain)
    factored = dec.to_dict(include_P_inf=False, factored=True)
    assert factored["g_star"][0] == "p/(2*D1) - p/(2*D2)"
    assert factored["basis"][0] == ["p/(2*D1) - p/(2*D2)", "p/(2*D1) + p/(2*D2)", "q/D1"]
    # each denominator positive on the region (p + q < 1): 2 - p - q, not p + q - 2; then h's (p + q)**2
    assert list(factored["denominators"].values())[:2] == ["p + q", "2 - p - q"]
    back = expand(factored)
    for key in ALL_KEYS:
        assert _values(dec, back, key) == _values(dec, dec.to_dict(include_P_inf=False), key), key


def test_the_assumptions_name_the_parts_denominators() -> None:
    """Every irreducible factor of a part's denominator that can vanish in the region is an assumption (the
    written form is undefined there), as the plain form's assumptions name its denominators' factors."""
    dec = exactpte.decompose(_path_into_cycles(3))
    factored, plain = dec.to_dict(include_P_inf=False, factored=True), dec.to_dict(include_P_inf=False)
    assert set(plain["assumptions"]) <= set(factored["assumptions"])


def test_factored_latex_writes_the_parts() -> None:
    chain = exactpte.ParametricChain([["1-p-q", "p", "q", 0], [0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]], [0, 1, 0, 0],
                                     params=["p", "q"])
    tex = exactpte.decompose(chain).to_latex(factored=True)
    assert r"$\frac{p}{2 D_{1}} - \frac{p}{2 D_{2}}$" in tex  # g*(0): a negative part joined with a minus
    assert r" + \frac{p}{4 D_{2}}$" in tex  # v*(0)
    assert r"D_{2} &= 2 - p - q" in tex
