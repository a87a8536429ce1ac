"""The paper's identities are equivariant under relabelling (``identities.EQUIVARIANT``), so ``proofs-check
exhaustive`` proves each on one labelling per support graph: here every symbolic check runs on every labelling of
every support graph with at most three states (the renamed chain and exactpte's decomposition of it, renamed by
``Decomposition.relabelled``) and gives the same verdict and strength as on the graph's own labelling."""

from __future__ import annotations

import itertools

import pytest

import exactpte
from proofs_check.judging.claims import from_decomposition
from proofs_check.symbolic.graphs import graph_chain, support_graphs
from proofs_check.symbolic.identities import EQUIVARIANT, SYMBOLIC_CHECKS
from proofs_check.symbolic.proving import STRUCTURE_KEYS, prove
from proofs_check.symbolic.region import Region


def _verdicts(dec: exactpte.Decomposition, region: Region) -> dict[str, tuple[object, str]]:
    claimed = from_decomposition(dec, with_P_inf=False, with_hitting_times=False)
    return {v.key: (v.holds, v.strength_text) for v in prove(dec.chain, claimed, region, only=[*STRUCTURE_KEYS, *SYMBOLIC_CHECKS])}


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_identity_gives_the_same_verdict_on_every_labelling(n: int) -> None:
    assert "equivariant" in EQUIVARIANT
    for graph in support_graphs(n):
        chain, region = graph_chain(graph)
        dec = exactpte.decompose(chain)
        expected = _verdicts(dec, region)
        assert all(holds is not False for holds, _s in expected.values()), graph
        for order in itertools.permutations(range(n)):
            renamed = dec.relabelled(order)
            got = _verdicts(renamed, Region(region.field, region.entries, rows=region.rows, where=region.where))
            assert got == expected, (graph, order, {k: (got[k], expected[k]) for k in got if got[k] != expected[k]})
