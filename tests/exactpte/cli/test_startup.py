"""Start-up cost: a small chain's `exactpte decompose` imports neither numpy nor SciPy nor sympy nor
matplotlib (exact and parametric alike); the structure analysis of a small graph runs in plain Python
(graph.plain) and agrees with the numpy route's and scipy's on large random graphs' worth of small ones."""

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactpte
from exactpte.graph.components import strongly_connected_components
from exactpte.graph.periods import bfs_levels
from exactpte.graph.structure import chain_structure, graph_structure, plain_structure
from exactpte.graph.support import SupportGraph

from paths import ROOT
from conftest import scaled


def test_decompose_on_a_small_chain_imports_no_scipy_nor_sympy(tmp_path):
    from exactpte.testing.random_chains import random_chain

    path = tmp_path / "c13.json"
    exactpte.dump(random_chain(13, seed=3), path)
    code = ("import sys; from exactpte.cli.commands import main; main(['decompose', sys.argv[1], '--json']); "
            "print([m for m in ('scipy', 'sympy', 'matplotlib') if m in sys.modules], file=sys.stderr)")
    res = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""}, check=True)
    assert json.loads(res.stdout)["n"] == 13
    assert res.stderr.strip().splitlines()[-1] == "[]"


_HEAVY = ("numpy", "scipy", "sympy", "matplotlib", "hypothesis", "dask")


@pytest.mark.parametrize("args", [["--example", "two-paths"], ["--example", "two-paths", "--json"],
                                  ["--example", "two-state-pq", "--json", "--only", "rho"],
                                  [str(ROOT / "benchmarks" / "data" / "parametric_die.drn.gz"), "--json", "--only", "rho"]])
def test_decompose_imports_no_numpy_nor_sympy(args):
    """The exact and parametric routes of a small chain run without numpy (a third of such a command's
    CPU time went to importing it), sympy, scipy, matplotlib, hypothesis or dask."""
    code = ("import sys; from exactpte.cli.commands import main\n"
            "try:\n    main(['decompose', *sys.argv[1:]])\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            f"print([m for m in {_HEAVY!r} if m in sys.modules], file=sys.stderr)")
    res = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""}, check=True)
    assert res.stdout.strip()
    assert res.stderr.strip().splitlines()[-1] == "[]", res.stderr


def _graph(succ):
    indptr = np.zeros(len(succ) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in succ], out=indptr[1:])
    return SupportGraph(len(succ), indptr, np.array([j for s in succ for j in s], dtype=np.int64))


@settings(scaled(60/40), deadline=None)
@given(st.integers(1, 25).flatmap(lambda n: st.lists(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True),
                                                     min_size=n, max_size=n)))
def test_plain_python_structure_equals_scipys(succ):
    succ = [sorted(s) for s in succ]
    small = _graph(succ)
    big = small.scipy()  # the same graph as a scipy matrix: scipy's algorithms
    k1, l1 = strongly_connected_components(small)
    k2, l2 = strongly_connected_components(big)
    assert k1 == k2 and all((l1[a] == l1[b]) == (l2[a] == l2[b]) for a in range(len(succ)) for b in range(len(succ)))
    assert bfs_levels(small, 0).tolist() == bfs_levels(big, 0).tolist()
    a, b = graph_structure(small), graph_structure(big)
    assert (a.classes, a.periods, a.cyclic_classes, a.transient) == (b.classes, b.periods, b.cyclic_classes, b.transient)
    # plain Python (graph.plain) gives the numpy route's Structure on the same small graph, exactly
    ptr = [0]
    for row in succ:
        ptr.append(ptr[-1] + len(row))
    assert plain_structure(len(succ), ptr, [j for row in succ for j in row]) == a == chain_structure(succ)
    # the transient SCCs: the same sets, each after every SCC it reaches (independent SCCs may come
    # in either order: Tarjan's completion order here, Pearce's in scipy)
    assert sorted(a.transient_sccs) == sorted(b.transient_sccs)
    seen: set[int] = set()
    for scc in a.transient_sccs:
        reached = {t for s in scc for t in succ[s]} - set(scc)
        assert reached <= seen | {s for c in a.classes for s in c}
        seen |= set(scc)


def test_support_graph_delegates_to_scipy():
    g = exactpte.example("branching").support_graph
    assert isinstance(g, SupportGraph)
    assert g.toarray().shape == (7, 7) and g[[0, 1]].shape == (2, 7) and g.nnz == len(g.indices)
