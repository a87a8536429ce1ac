"""``Decomposition.relabelled``: the decomposition of the chain with its states renamed, by permutation and an
exact change of gauge, equals exactpte's own decomposition of the renamed chain quantity by quantity (every
support graph with at most three states and every renaming, symbolically; random reducible periodic chains over
``QQ``), with the renamed chain's canonical anchors or anchors given in the new labels."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given

import exactpte
from conftest import scaled
from exactpte.results.quantities import COMPUTED
from exactpte.testing.strategies import chains
from proofs_check.symbolic.graphs import graph_chain, support_graphs

COMPARED = (*COMPUTED, "basis_sparse", "P_inf", "anchors", "classes", "periods", "cyclic_classes", "transient")


def _same(moved: exactpte.Decomposition, ref: exactpte.Decomposition) -> list[str]:
    return [q for q in COMPARED if getattr(moved, q) != getattr(ref, q)]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_renaming_of_every_small_support_graph_is_the_renamed_chains_decomposition(n: int) -> None:
    for graph in support_graphs(n):
        chain, _region = graph_chain(graph)
        dec = exactpte.decompose(chain)
        for order in itertools.permutations(range(n)):
            moved = dec.relabelled(order)
            assert moved.chain.field is chain.field
            assert sorted((order[i], order[j], str(p)) for i, j, p in chain.edges()) == \
                [(i, j, str(p)) for i, j, p in moved.chain.edges()]
            assert _same(moved, exactpte.decompose(moved.chain)) == [], (graph, order)


@given(chains(max_states=8))
@scaled(0.5)
def test_renamed_rational_chains(chain: exactpte.MarkovRewardProcess) -> None:
    dec = exactpte.decompose(chain)
    order = list(range(chain.n))
    random.Random(chain.n).shuffle(order)
    moved = dec.relabelled(order)
    assert [moved.chain.r[order[s]] for s in range(chain.n)] == list(chain.r)
    assert all(moved.chain.P[order[i]][order[j]] == chain.P[i][j] for i in range(chain.n) for j in range(chain.n))
    assert _same(moved, exactpte.decompose(moved.chain)) == []


def test_given_anchors_in_the_new_labels() -> None:
    chain = exactpte.example("branching")
    dec = exactpte.decompose(chain)
    order = list(reversed(range(chain.n)))
    moved = dec.relabelled(order)
    anchors = [max(part) for cyc in moved.cyclic_classes for part in cyc]  # the largest state of each cyclic class
    assert _same(dec.relabelled(order, anchors=anchors), exactpte.decompose(moved.chain, anchors=anchors)) == []


def test_a_wrong_permutation_is_a_named_error() -> None:
    dec = exactpte.decompose(exactpte.example("periodic"))
    with pytest.raises(exactpte.UsageError, match="permutation"):
        dec.relabelled([0, 0])
