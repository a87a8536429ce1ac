"""proofs-check exhaustive: the support graphs up to relabelling, the per-graph proofs, conjectures,
counterexamples that fail at the rational level, and mutants of the symbolic route."""

from __future__ import annotations

import collections
import itertools
import json
import random
from pathlib import Path

import pytest

import exactpte
import proofs_check
import proofs_check.runs.exhaustive
from proofs_check.symbolic import identities as symbolic_checks
from proofs_check.cli import main
from proofs_check.runs.conjectures import CONJECTURES
from proofs_check.symbolic.graphs import count_support_graphs, graph_chain, support_graphs
from proofs_check.runs.exhaustive import exhaustive, planned_graphs, prove_graph
from proofs_check.symbolic.region import Region


def _by_brute_force(n: int) -> set[frozenset[tuple[int, int]]]:
    """Classes of edge sets (every state with a successor) under relabelling, by canonical forms over all n! maps."""
    classes = set()
    pairs = [(i, j) for i in range(n) for j in range(n)]
    for bits in itertools.product((0, 1), repeat=n * n):
        edges = {p for p, b in zip(pairs, bits) if b}
        if any(all((i, j) not in edges for j in range(n)) for i in range(n)):
            continue
        forms = [tuple(sorted((perm[i], perm[j]) for i, j in edges)) for perm in itertools.permutations(range(n))]
        classes.add(frozenset(min(forms)))
    return classes


@pytest.mark.parametrize(("n", "count"), [(1, 1), (2, 6), (3, 70), (4, 2340)])
def test_support_graph_counts(n: int, count: int) -> None:
    graphs = support_graphs(n)
    assert len(graphs) == count == len(set(graphs)) and graphs == sorted(graphs)
    assert all(len(g) == n and all(succ for succ in g) and all(list(s) == sorted(set(s)) for s in g) for g in graphs)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_enumeration_agrees_with_burnside(n: int) -> None:
    assert len(support_graphs(n)) == count_support_graphs(n)


def _relabelled(g, perm):
    out = [()] * len(g)
    for s, succ in enumerate(g):
        out[perm[s]] = tuple(sorted(perm[j] for j in succ))
    return tuple(out)


def test_every_five_state_class_is_listed_exactly_once() -> None:
    """As many five-state graphs as Burnside counts, and of a random labelled graph's 120 relabellings (rows uniform
    nonempty subsets) exactly one is listed: with the count, every class is listed once."""
    graphs = support_graphs(5)
    assert len(graphs) == count_support_graphs(5) == 248436 and all(map(all, graphs))
    listed = set(graphs)
    assert len(listed) == len(graphs)
    rng = random.Random(5)
    perms = list(itertools.permutations(range(5)))
    for _ in range(300):
        g = tuple(tuple(j for j in range(5) if m >> j & 1) for m in (rng.randint(1, 31) for _ in range(5)))
        assert len({_relabelled(g, p) for p in perms} & listed) == 1, g


@pytest.mark.slow
def test_five_state_graphs_are_pairwise_not_relabellings() -> None:
    forms = {min(tuple(sorted((p[i], p[j]) for i, succ in enumerate(g) for j in succ)) for p in itertools.permutations(range(5)))
             for g in support_graphs(5)}
    assert len(forms) == count_support_graphs(5)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_support_graphs_are_one_per_relabelling_class(n: int) -> None:
    # an independent canonicalisation: every class is hit exactly once
    listed = {frozenset(tuple(sorted((perm[i], perm[j]) for i, succ in enumerate(g) for j in succ)) for perm in [tuple(range(n))])
              for g in support_graphs(n)}
    mine = set()
    for g in support_graphs(n):
        edges = [(i, j) for i, succ in enumerate(g) for j in succ]
        mine.add(frozenset(min(tuple(sorted((p[i], p[j]) for i, j in edges)) for p in itertools.permutations(range(n)))))
    assert len(mine) == len(listed) == len(_by_brute_force(n))
    assert mine == _by_brute_force(n)


def test_graph_chain_covers_the_open_region() -> None:
    chain, region = graph_chain(((0, 1, 2), (2,), (0, 1)))
    assert chain.n == 3 and [p for p in chain.params if p.startswith("r")] == ["r0", "r1", "r2"]
    # every positive stochastic row on the support is a point of the region: x = P entries but the last
    point = {"x0_0": "1/5", "x0_1": "1/2", "x2_0": "3/4", "r0": 1, "r1": 0, "r2": "-2"}
    values = chain._point(point)
    assert region.contains(values)
    assert not region.contains(chain._point({**point, "x0_1": "4/5"}))  # 1 - 1/5 - 4/5 = 0: off the support


def test_every_identity_proved_up_to_three_states_json(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    assert main(["exhaustive", "--max-states", "3", "--min-states", "3", "--only",
                 "thm:wellposed,claim:h,lem:shift_b,lem:b_simplex,thm:comparison_gain_bias", "--json", str(out), "--quiet"]) == 0
    report = json.loads(out.read_text())
    assert report["support_graphs"] == {"3": 70}
    for key in ("thm:wellposed", "claim:h", "lem:shift_b", "lem:b_simplex", "thm:comparison_gain_bias"):
        assert report["checks"][key]["proved"] == 70 and report["checks"][key]["failed"] == 0


def test_small_exhaustive_proves_all_and_reports_not_provable(monkeypatch: pytest.MonkeyPatch) -> None:
    # the paper's checks only: conjectures other tests of this session registered stay out
    monkeypatch.setattr(proofs_check.runs.exhaustive, "CONJECTURES", {})
    report = exhaustive(2)
    assert report.support_graphs == {1: 1, 2: 6} and report.failed == 0
    assert report.checks["claim:h"]["proved"] == 7
    assert report.checks["thm:quotient_contraction"]["not_provable"] == 7
    assert report.checks["prop:deterministic_cycle"]["proved"] == 2  # the 1-cycle and the 2-cycle
    assert "not provable" in report.checks["thm:quotient_contraction"]["reasons"][0]


@pytest.fixture
def h_is_v_star():
    @proofs_check.conjecture("test:h_is_v_star")
    def _h_is_v(chain, dec):
        return dec.h == dec.v_star

    yield "test:h_is_v_star"
    CONJECTURES.pop("test:h_is_v_star")


def test_false_conjecture_refuted_with_a_rational_counterexample_chain(h_is_v_star: str, tmp_path: Path) -> None:
    report = exhaustive(3, min_states=3, only=[h_is_v_star], failures_dir=str(tmp_path))
    row = report.checks[h_is_v_star]
    assert row["failed"] > 0 and row["failed"] + row["proved"] == 70
    files = sorted(tmp_path.glob("*.json"))
    assert files and len(files) == row["failed"]
    for path in files[:5]:  # each file is a rational chain exactpte reads, and h != v* on it exactly
        chain = exactpte.load(str(path))
        assert not chain.field.is_parametric and chain.n == 3
        dec = exactpte.decompose(chain)
        assert dec.h != dec.v_star


def test_comparisons_decided_on_the_region_or_sampled() -> None:
    @proofs_check.conjecture("test:stationary_in_unit_interval")
    def _pi(chain, dec):
        return all(0 < x <= 1 for pi in dec.stationary for x in pi)

    @proofs_check.conjecture("test:h_differs_from_v_star")
    def _not_equal(chain, dec):
        return dec.h != dec.v_star  # h - v* vanishes where the rewards are equal: not provable, only sampled

    try:
        report = exhaustive(2, min_states=2, only=["test:stationary_in_unit_interval", "test:h_differs_from_v_star"])
    finally:
        CONJECTURES.pop("test:stationary_in_unit_interval")
        CONJECTURES.pop("test:h_differs_from_v_star")
    assert report.checks["test:stationary_in_unit_interval"]["proved"] == 6
    row = report.checks["test:h_differs_from_v_star"]
    assert row["proved"] == 0 and row["witnesses"] + row["failed"] == 6


def test_planted_false_identity_refuted_at_the_rational_level() -> None:
    def planted(ctx, f):  # "rho = r": false unless every reward is the gain
        f.equal("rho - r", list(ctx.claimed.rho), ctx.r)

    symbolic_checks.symbolic_check("test:planted", "rho")(planted)  # registers it
    try:
        res = prove_graph((((0, 1), (0, 2), (1,)), ("test:planted",), (), 0))
    finally:
        symbolic_checks.SYMBOLIC_CHECKS.pop("test:planted")
    assert res.status["test:planted"] == "failed"
    failure = res.failures[0]
    chain = exactpte.loads(json.dumps(failure["chain"]))
    dec = exactpte.decompose(chain)
    assert tuple(dec.rho) != tuple(chain.r)  # it fails on the rational chain at the point, exactly


@pytest.mark.parametrize("mutant", ["I_minus_P", "Pi", "P_inf"])
def test_mutants_of_the_symbolic_route_are_killed(mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    original = getattr(symbolic_checks.SymbolicContext, mutant)

    def wrong(self, v):
        out = original(self, v)
        return [x + (v[0] if k == len(out) - 1 else 0) for k, x in enumerate(out)]  # a stray term in one entry

    monkeypatch.setattr(symbolic_checks.SymbolicContext, mutant, wrong)
    report = exhaustive(2, min_states=2)
    assert report.failed > 0


def test_sign_mutant_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    chain, region = graph_chain(((0, 1), (0,)))
    F = region.field
    assert region.sign(F.convert("x0_0*(1 - x0_0)"), True) is True
    assert region.sign(F.convert("x0_0 - 1"), False) is False
    monkeypatch.setattr(Region, "_one_sign", lambda self, g: 1)  # every polynomial "positive"
    assert region.sign(F.convert("x0_0 - 1"), False) is True  # the mutant would prove a false inequality


def test_unknown_key_is_a_named_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exhaustive", "--max-states", "1", "--only", "nope:nothing"]) == 2
    assert "unknown check or conjecture" in capsys.readouterr().err
    assert main(["exhaustive", "--max-states", "6", "--sample", "0.001"]) == 2  # refused at once, a sample too
    assert "at most 5: 6 states have 88,124,470 support graphs" in capsys.readouterr().err
    assert main(["exhaustive", "--max-states", "2", "--sample", "0"]) == 2
    assert "expected a fraction in (0, 1], got 0" in capsys.readouterr().err


@pytest.mark.extra("dask")
def test_a_dask_cluster_gives_the_serial_report() -> None:
    distributed = pytest.importorskip("distributed", reason="dask's distributed scheduler is not installed (pip install \".[dask]\")")
    serial = exhaustive(2, only=["claim:h", "lem:b_simplex"])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        on_dask = exhaustive(2, only=["claim:h", "lem:b_simplex"], dask=cluster.scheduler_address)
    strip = lambda r: {k: {s: n for s, n in v.items() if s != "reasons"} for k, v in r.to_dict()["checks"].items()}
    assert strip(serial) == strip(on_dask) and serial.support_graphs == on_dask.support_graphs


def test_workers_give_the_serial_report() -> None:
    strip = lambda r: {k: {s: n for s, n in v.items() if s != "reasons"} for k, v in r.to_dict()["checks"].items()}
    assert strip(exhaustive(2, only=["claim:h", "lem:shift_b"], workers=2)) == strip(exhaustive(2, only=["claim:h", "lem:shift_b"]))


def test_a_sample_is_seeded_uniform_and_projects_the_full_run() -> None:
    plan = planned_graphs(3, 4, sample=0.01, seed=1)
    assert {n: len(g) for n, g in plan.items()} == {3: 1, 4: 23} and plan == planned_graphs(3, 4, sample=0.01, seed=1)
    assert set(plan[4]) <= set(support_graphs(4)) and plan[4] != planned_graphs(3, 4, sample=0.01, seed=2)[4]
    # uniform: over 500 seeds each of the 70 three-state graphs is among the 7 drawn about 50 times
    drawn = collections.Counter(g for s in range(500) for g in planned_graphs(3, 3, sample=0.1, seed=s)[3])
    assert len(drawn) == 70 and 20 < min(drawn.values()) and max(drawn.values()) < 85
    report = exhaustive(4, min_states=4, sample=0.01, seed=1, only=["claim:h", "lem:b_simplex"])
    out = report.to_dict()
    assert out["support_graphs"] == {"4": 23} and out["sample"] == {"fraction": 0.01, "seed": 1, "graphs_of_size": {"4": 2340}}
    projected = out["projected_cpu_seconds"]
    assert projected["total"] == pytest.approx(report.cpu_seconds / 23 * 2340, rel=0.01, abs=0.1) and projected["standard_error"] >= 0
    assert "a sample (0.01 of each size, seed 1)" in report.table() and "the full run (2,340 graphs) projects to" in report.table()
    assert out["checks"]["claim:h"]["proved"] == 23 and report.failed == 0


def test_an_interrupted_run_resumes_from_its_state_file(tmp_path: Path) -> None:
    state = tmp_path / "run.jsonl"
    only = ["claim:h", "thm:wellposed"]
    full = exhaustive(3, only=only, state=str(state))
    lines = state.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 77 and json.loads(lines[1])["checks"] == {"claim:h": "proved", "thm:wellposed": "proved"}
    state.write_text("".join(lines[:40]) + lines[40][:25])  # interrupted while writing a line
    resumed = exhaustive(3, only=only, state=str(state))
    assert resumed.resumed == 39 and resumed.support_graphs == full.support_graphs == {1: 1, 2: 6, 3: 70}
    strip = lambda r: {k: {s: n for s, n in v.items() if s != "reasons"} for k, v in r.to_dict()["checks"].items()}
    assert strip(resumed) == strip(full)
    assert len(state.read_text().splitlines()) == 78 and all(json.loads(x) for x in state.read_text().splitlines())
    again = exhaustive(3, only=only, state=str(state))  # nothing left to do
    assert again.resumed == 77 and strip(again) == strip(full)
    with pytest.raises(exactpte.UsageError, match="holds another run"):
        exhaustive(3, only=["claim:h"], state=str(state))


def test_a_failure_survives_the_state_file(h_is_v_star: str, tmp_path: Path) -> None:
    state = tmp_path / "run.jsonl"
    first = exhaustive(2, min_states=2, only=[h_is_v_star], state=str(state))
    again = exhaustive(2, min_states=2, only=[h_is_v_star], state=str(state), failures_dir=str(tmp_path / "cex"))
    assert again.resumed == 6 and again.failed == first.failed > 0
    assert [{k: v for k, v in f.items() if k != "file"} for f in again.failures] == first.failures
    assert len(list((tmp_path / "cex").glob("*.json"))) == first.failed
