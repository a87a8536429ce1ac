"""Every verdict right at the edges (issue 31): chains whose numbers leave the double range, quotients whose
spectral radius is 1 - 10^-16, and a trusted checker that cannot be satisfied by saying nothing.

Each test failed before the fix: a raw ``OverflowError`` from ``float(p) / float(q)`` (tiny or huge entries),
``thm:quotient_contraction`` and ``certified:enclosures`` failing on correct decompositions (leaks of 1e-16 and
1e-15), ``proofs-check verify`` accepting ``{}`` (no ``--require``/``--strict``).
"""

import json
from fractions import Fraction

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st

import exactpte
from proofs_check.routes.certificates import lyapunov_certificate, proposed_lyapunov_matrix
from proofs_check.checks import run_checks
from proofs_check.judging.claims import from_decomposition
from proofs_check.cli import main
from proofs_check.algebra.floats import float_range_problem, nearest_float, shown
from tests.conftest import scaled


def write_chain(path, P, r):
    path.write_text(json.dumps({"P": [[str(x) for x in row] for row in P], "r": [str(x) for x in r]}))
    return str(path)


def leak(k: int) -> list[list[Fraction]]:
    """State 0 leaks 10^-k into the absorbing state 1."""
    e = Fraction(1, 10**k)
    return [[1 - e, e], [Fraction(0), Fraction(1)]]


def leaking_cycle(d: int, k: int) -> list[list[Fraction]]:
    """A transient d-cycle, each state leaking 10^-k into the absorbing state d."""
    e = Fraction(1, 10**k)
    P = [[Fraction(0)] * (d + 1) for _ in range(d + 1)]
    for s in range(d):
        P[s][(s + 1) % d], P[s][d] = 1 - e, e
    P[d][d] = Fraction(1)
    return P


EDGE_CHAINS = {
    "leak 1e-16": (leak(16), [1, 0]),
    "leak 1e-15": (leak(15), [1, 0]),
    "2-cycle leaking 1e-16": (leaking_cycle(2, 16), [1, 0, 3]),
    "3-cycle leaking 1e-15": (leaking_cycle(3, 15), [1, 0, 2, 0]),
    "1/2 + 1e-400": ([[Fraction(1, 2) + Fraction(1, 10**400), Fraction(1, 2) - Fraction(1, 10**400), 0], [0, 0, 1], [0, 1, 0]], [1, 0, 2]),
    "reward 1e400": ([[Fraction(1, 2), Fraction(1, 2)], [1, 0]], [10**400, Fraction(1, 10**400)]),
}


def verdicts_of(capsys, argv):
    code = main(argv + ["--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.mark.parametrize("name", EDGE_CHAINS)
def test_edge_chain_every_route_gives_verdicts(tmp_path, capsys, name):
    P, r = EDGE_CHAINS[name]
    chain = write_chain(tmp_path / "chain.json", P, r)
    code, verdicts = verdicts_of(capsys, ["chain", chain])
    failed = [(v["key"], v["detail"]) for v in verdicts if v["status"] == "failed"]
    assert code == 0 and not failed, failed
    by_key = {v["key"]: v for v in verdicts}
    assert by_key["thm:quotient_contraction"]["status"] == "held" and by_key["thm:quotient_contraction"]["strength"] == "exact"
    assert by_key["certified:enclosures"]["status"] in ("held", "not checked")
    claim = tmp_path / "claim.json"
    from exactpte.cli import main as exactpte_main

    assert exactpte_main(["decompose", chain, "--json", "--hitting-times"]) == 0
    claim.write_text(capsys.readouterr().out)
    code, verdicts = verdicts_of(capsys, ["result", str(claim), "--chain", chain])
    assert code == 0, [v for v in verdicts if v["status"] == "failed"]
    assert main(["verify", str(claim), "--chain", chain, "--strict"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("name", ["leak 1e-16", "2-cycle leaking 1e-16", "3-cycle leaking 1e-15"])
def test_contraction_is_decided_exactly_and_still_rejects_a_dropped_phase(name):
    P, r = EDGE_CHAINS[name]
    chain = exactpte.MarkovRewardProcess(P, r)
    claim = from_decomposition(exactpte.decompose(chain))
    (good,) = run_checks(chain, claim, only=["thm:quotient_contraction"])
    assert good.holds is True and good.strength == "exact"
    cycle = exactpte.MarkovRewardProcess([[0, 1], [1, 0]], [1, 0])
    claim = from_decomposition(exactpte.decompose(cycle))
    dropped = claim.replace(basis=tuple((row[0], row[0]) for row in claim.basis))  # the phase pair collapsed
    for max_dense in (None, 0):  # dense route and structural route
        (bad,) = run_checks(cycle, dropped, only=["thm:quotient_contraction"], max_dense=max_dense)
        assert bad.holds is False and bad.detail


def test_spectral_bound_rises_in_precision_until_it_decides():
    A = flint.fmpq_mat([[1 - flint.fmpq(1, 10**16)]])
    assert lyapunov_certificate(A) is None  # at 53 bits the enclosure of 1 - 1e-16 reached 1
    assert lyapunov_certificate(flint.fmpq_mat([[1]])) is not None


def test_lyapunov_proposal_takes_numbers_past_the_double_range():
    big = flint.fmpq(10**400 + 1, 2 * 10**400)
    assert proposed_lyapunov_matrix(flint.fmpq_mat([[big, 0], [0, flint.fmpq(1, 3)]])) is not None
    assert proposed_lyapunov_matrix(flint.fmpq_mat([[flint.fmpq(10**400, 3)]])) is None  # no proposal, no raise


def test_float_helpers_never_raise():
    assert nearest_float(flint.fmpq(10**400, 3)) == float("inf") and nearest_float(Fraction(1, 10**400)) == 0.0
    assert "beyond" in float_range_problem([Fraction(10**400)], name="r")
    assert "below" in float_range_problem([Fraction(1, 10**400)], name="r")
    assert float_range_problem([Fraction(1, 3), 0], name="r") is None
    assert shown(Fraction(-10**400, 7)) == "-1.42857e+399"


@st.composite
def edge_chains(draw):
    """Row-stochastic by construction: positive integer weights over a drawn support (each row nonempty), then either
    one entry moved by 10^-k (k >= 300, kept inside [0, 1] by moving mass between two positive entries of one row)
    or every weight a 300-digit integer."""
    n = draw(st.integers(2, 4))
    huge = draw(st.booleans())
    P = []
    for s in range(n):
        support = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
        w = [draw(st.integers(10**299, 10**300)) if huge else draw(st.integers(1, 5)) for _ in support]
        row = [Fraction(0)] * n
        for j, x in zip(support, w):
            row[j] = Fraction(x, sum(w))
        P.append(row)
    if not huge:
        rows = [s for s in range(n) if sum(x > 0 for x in P[s]) >= 2]
        if rows:
            s = draw(st.sampled_from(rows))
            a, b = [j for j in range(n) if P[s][j] > 0][:2]
            eps = Fraction(1, 10 ** draw(st.integers(300, 400)))
            P[s][a], P[s][b] = P[s][a] + eps, P[s][b] - eps
    r = [draw(st.integers(-3, 3)) for _ in range(n)]
    return P, r


@scaled(0.15)
@given(edge_chains())
def test_property_extreme_numbers_give_verdicts_on_every_check(tmp_path_factory, drawn):
    P, r = drawn
    where = tmp_path_factory.mktemp("edge")
    chain = write_chain(where / "chain.json", P, r)
    assert main(["chain", chain, "--json"]) == 0  # every check a verdict, none failed, no traceback (OverflowError before)
    dec = exactpte.decompose(exactpte.load(chain))
    claim = where / "claim.json"
    claim.write_text(dec.to_json())
    assert main(["result", str(claim), "--chain", chain, "--json"]) == 0
    assert main(["verify", str(claim), "--chain", chain, "--json"]) == 0


@pytest.mark.parametrize("claim", [{}, {"format": "exactpte.decomposition/1"}, {k: None for k in ("classes", "g_star", "v_star")}])
@pytest.mark.parametrize("flags", [["--strict"], ["--require", "classes,g_star"]])
def test_verify_cannot_be_satisfied_by_saying_nothing(tmp_path, capsys, claim, flags):
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(claim))
    assert main(["verify", str(path), "--example", "paper-benchmark"]) == 0  # nothing claimed, nothing wrong
    capsys.readouterr()
    assert main(["verify", str(path), "--example", "paper-benchmark", *flags]) == 1
    out = capsys.readouterr().out
    assert "INVALID" in out and "classes (not claimed)" in out


def test_verify_require_names_the_missing_key_and_passes_a_full_claim(tmp_path, capsys):
    from exactpte.cli import main as exactpte_main

    assert exactpte_main(["decompose", "--example", "paper-benchmark", "--json"]) == 0
    full = json.loads(capsys.readouterr().out)
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(full))
    assert main(["verify", str(path), "--example", "paper-benchmark", "--require", "classes,g_star,v_star,theta,basis"]) == 0
    capsys.readouterr()
    assert main(["verify", str(path), "--example", "paper-benchmark", "--require", "hitting_times", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["required_not_verified"] == ["hitting_times"]  # not asked for: not written
    del full["rho"]
    path.write_text(json.dumps(full))
    assert main(["verify", str(path), "--example", "paper-benchmark", "--require", "rho", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is False and report["failure"]["key"] == "rho" and report["required_not_verified"] == ["rho"]
    assert main(["verify", str(path), "--example", "paper-benchmark", "--require", "rhoo"]) == 2
