"""A "proved" is never false (issue 41): statements of your own on every support graph with at most three states.

Each false statement of the corpus (``soundness_corpus.FALSE``: entries, hashing, sets, text, labels, ordering,
conversions, identity and type tests, a refusal caught) is never proved on a graph that holds a counterexample, found
here by brute force, independently of proofs_check: exactpte's decomposition of the rational chains at chosen points
(ties of rewards, halves, thirds, random weights) of every labelling of the graph, renamed by hand and decomposed
again.  Each true statement (``soundness_corpus.TRUE``) is proved on all 77 graphs.  Before: the four false
statements of the issue were "proved" on all 77 graphs."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import flint
import pytest

import exactpte
import proofs_check
from proofs_check.runs.conjectures import CONJECTURES
from proofs_check.runs.exhaustive import ExhaustiveReport, exhaustive
from proofs_check.symbolic.graphs import graph_chain, support_graphs
from proofs_check.symbolic.statements import run_at_point

from soundness_corpus import FALSE, TRUE

REWARDS = [lambda n: [0] * n, lambda n: ["1/2"] * n, lambda n: list(range(n)), lambda n: list(range(n))[::-1],
           lambda n: [1] * (n - 1) + [0], lambda n: ["-1"] + ["1/2"] * (n - 1)]


def _weights(graph: tuple[tuple[int, ...], ...], how: str, rng: random.Random) -> dict[str, flint.fmpq]:
    """The transition parameters ``x{s}_{j}`` of a graph's chain: uniform rows, skewed rows, or random ones."""
    out = {}
    for s, succ in enumerate(graph):
        k = len(succ)
        if how == "uniform":
            values = [flint.fmpq(1, k)] * k
        elif how == "skewed":
            values = [flint.fmpq(1, 2 ** (m + 1)) for m in range(k - 1)]
            values.append(1 - sum(values, flint.fmpq(0)))
        else:
            w = [rng.randint(1, 6) for _ in range(k)]
            values = [flint.fmpq(x, sum(w)) for x in w]
        out.update({f"x{s}_{j}": v for j, v in zip(succ[:-1], values)})
    return out


def _ground_truth(graph: tuple[tuple[int, ...], ...], statements: list[tuple[str, Callable[..., Any]]]) -> dict[str, str]:
    """For each statement, a counterexample's description on this graph (any labelling), when one is found."""
    n = len(graph)
    chain, _region = graph_chain(graph)
    rng = random.Random(str(graph))
    found: dict[str, str] = {}
    for how, reward in itertools.product(("uniform", "skewed", "random", "random"), REWARDS):
        point = {**_weights(graph, how, rng), **{f"r{s}": flint.fmpq(x) for s, x in enumerate(reward(n))}}
        rational = chain.at(point)
        for order in itertools.permutations(range(n)):
            inverse = sorted(range(n), key=lambda s: order[s])
            P = [[rational.P[inverse[i]][inverse[j]] for j in range(n)] for i in range(n)]
            renamed = exactpte.MarkovRewardProcess(P, [rational.r[inverse[i]] for i in range(n)])
            dec = exactpte.decompose(renamed)
            for label, func in statements:
                if label not in found and run_at_point(func, dec) is not None:
                    found[label] = json.dumps({"P": [[str(x) for x in row] for row in P], "r": [str(x) for x in renamed.r]})
    return found


@pytest.fixture(scope="module")
def registered():
    for label, func in FALSE + TRUE:
        proofs_check.conjecture(label)(func)
    yield [label for label, _f in FALSE + TRUE]
    for label, _f in FALSE + TRUE:
        CONJECTURES.pop(label, None)


@pytest.fixture(scope="module")
def report(registered) -> ExhaustiveReport:
    return exhaustive(3, only=registered)


@pytest.fixture(scope="module")
def truth() -> dict[tuple[tuple[int, ...], ...], dict[str, str]]:
    graphs = [g for n in (1, 2, 3) for g in support_graphs(n)]
    return {g: _ground_truth(g, FALSE + TRUE) for g in graphs}


def test_the_corpus_is_large_and_every_false_statement_is_false_on_a_small_chain(truth) -> None:
    assert len(FALSE) >= 20 and len(TRUE) >= 10
    for label, _f in FALSE:
        assert any(label in found for found in truth.values()), f"{label} holds on every chain tried: not a false statement"
    for label, _f in TRUE:
        assert not [g for g, found in truth.items() if label in found], label


def test_no_false_statement_is_proved_on_a_graph_that_holds_a_counterexample(report: ExhaustiveReport, truth) -> None:
    wrong = []
    for row in report.graphs:
        graph = tuple(tuple(s) for s in row["graph"])
        for label, found in truth[graph].items():
            if row["checks"].get(label) == "proved":
                wrong.append(f"{label} proved on {row['graph']}, false on {found}")
    assert wrong == []


def test_every_true_statement_is_proved_on_all_77_graphs(report: ExhaustiveReport) -> None:
    for label, _f in TRUE:
        row = report.checks[label]
        assert row["proved"] == 77, (label, {k: v for k, v in row.items() if k != "by_size"})


def test_each_failure_names_a_rational_chain_where_the_statement_fails(report: ExhaustiveReport) -> None:
    funcs = dict(FALSE + TRUE)
    checked = 0
    for f in report.failures:
        assert "chain" in f, f  # every failure of a statement comes with its counterexample chain
        chain = exactpte.loads(json.dumps(f["chain"]))
        assert run_at_point(funcs[f["key"]], exactpte.decompose(chain)) is not None, f
        checked += 1
    assert checked > 50


def test_the_issues_four_statements_are_no_longer_proved(report: ExhaustiveReport) -> None:
    for label in ("false:no_entry_is_a_half", "false:class_gains_distinct", "false:last_self_loop_or_first",
                  "false:rho_never_a_half_text"):
        assert report.checks[label]["failed"] > 0
        assert report.checks[label]["proved"] < 77


def test_statements_that_cannot_be_decided_say_why(report: ExhaustiveReport) -> None:
    row = report.checks["false:class_gains_distinct"]
    assert row["witnesses"] > 0 and any("hash" in r for r in row["reasons"])
    assert any("identity test" in r for r in report.checks["false:gain_objects_differ"]["reasons"])
    assert report.checks["false:not_an_fmpq"]["failed"] == 77  # a type test: checked at points, where it fails at once
