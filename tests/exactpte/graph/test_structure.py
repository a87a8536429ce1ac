"""Structure on the support graph: a table of known answers, canonical conventions, anchors."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import exactpte
from exactpte import AnchorError, MarkovRewardProcess
from exactpte.testing.strategies import chains
from exactpte.graph.structure import chain_structure

# successor lists -> (classes, periods, cyclic classes, transient)
KNOWN = [
    ([[0]], ((0,),), (1,), (((0,),),), ()),
    ([[1], [0]], ((0, 1),), (2,), (((0,), (1,)),), ()),
    ([[1], [2], [0]], ((0, 1, 2),), (3,), (((0,), (1,), (2,)),), ()),
    ([[0, 1], [0]], ((0, 1),), (1,), (((0, 1),),), ()),
    ([[1], [2], [1], [0, 3]], ((1, 2),), (2,), (((1,), (2,)),), (0, 3)),
    # two classes listed by smallest state, transient in between
    ([[3], [0, 4], [2], [0], [4]], ((0, 3), (2,), (4,)), (2, 1, 1), (((0,), (3,)), ((2,),), ((4,),)), (1,)),
    # period 2 with phases of size 2: 0 -> {1,3}, 1 -> {0,2}, ...
    ([[1, 3], [0, 2], [1, 3], [0, 2]], ((0, 1, 2, 3),), (2,), (((0, 2), (1, 3)),), ()),
    # 6-cycle plus the chord 0 -> 3: cycle lengths 6 and 4, period 2
    ([[1, 3], [2], [3], [4], [5], [0]], ((0, 1, 2, 3, 4, 5),), (2,), (((0, 2, 4), (1, 3, 5)),), ()),
    # 6-cycle plus the chord 2 -> 0: cycle lengths 6 and 3, period 3
    ([[1], [2], [0, 3], [4], [5], [0]], ((0, 1, 2, 3, 4, 5),), (3,), (((0, 3), (1, 4), (2, 5)),), ()),
]


@pytest.mark.parametrize("succ, classes, periods, cyclic, transient", KNOWN)
def test_known_structures(succ, classes, periods, cyclic, transient):
    s = chain_structure(succ)
    assert (s.classes, s.periods, s.cyclic_classes, s.transient) == (classes, periods, cyclic, transient)


def test_one_step_moves_to_next_phase_and_phase0_holds_smallest_state():
    m = exactpte.example("branching")
    s = m.structure
    for i, cyc in enumerate(s.cyclic_classes):
        assert min(s.classes[i]) in cyc[0]
        d = s.periods[i]
        for k, states in enumerate(cyc):
            for y in states:
                assert all(s.phase_of[z] == (k + 1) % d for z in m.support[y])


def test_transient_sccs_are_in_downstream_first_order():
    # 0 -> 1 -> 2 (closed); 3 <-> 4 -> 0
    succ = [[1], [2], [2], [4], [3, 0]]
    s = chain_structure(succ)
    order = [set(c) for c in s.transient_sccs]
    assert order.index({0}) > order.index({1}) and order.index({3, 4}) > order.index({0})


@given(chains(max_states=14))
def test_structure_is_invariant_under_relabelling(m):
    """Permuting states permutes the structure; canonical order is recovered by sorting."""
    rng = random.Random(m.n)
    perm = list(range(m.n))
    rng.shuffle(perm)
    edges = [(perm[i], perm[j], q) for i in range(m.n) for j, q in m.row(i)]
    r = [0] * m.n
    for i in range(m.n):
        r[perm[i]] = m.r[i]
    m2 = MarkovRewardProcess.from_edges(m.n, edges, r)
    s1, s2 = m.structure, m2.structure
    as_sets = lambda s, f: sorted(sorted(f(x) for x in c) for c in s.classes)
    assert as_sets(s1, lambda x: perm[x]) == as_sets(s2, lambda x: x)
    assert sorted(s1.periods) == sorted(s2.periods)
    assert sorted(perm[t] for t in s1.transient) == list(s2.transient)
    # cyclic classes agree as sets of sets (phase labels may rotate)
    cyc = lambda s, f: sorted(sorted(sorted(f(x) for x in ck) for ck in c) for c in s.cyclic_classes)
    assert cyc(s1, lambda x: perm[x]) == cyc(s2, lambda x: x)


@given(chains(max_states=14))
def test_structure_matches_definitions(m):
    s = m.structure
    # closed: no edge leaves a class; every transient state reaches a class (checked by absorption summing to 1 elsewhere)
    for cls in s.classes:
        S = set(cls)
        assert all(set(m.support[y]) <= S for y in cls)
    assert sorted(s.transient + tuple(y for c in s.classes for y in c)) == list(range(m.n))
    assert s.N == sum(s.periods) == sum(len(c) for c in s.cyclic_classes)


def test_user_anchors_as_a_list_or_a_mapping():
    """Anchors given as a flat list (class by class, phase by phase) or as a {(class, phase): state}
    mapping give the same anchors."""
    m = exactpte.example("branching")
    dec = exactpte.decompose(m, anchors=[0, 1, 2, 3, 4])
    assert dec.anchors == ((0, 1), (2, 3, 4))
    assert exactpte.decompose(m, anchors={(0, 0): 0, (0, 1): 1, (1, 0): 2, (1, 1): 3, (1, 2): 4}).anchors == dec.anchors


@pytest.mark.parametrize("anchors, message", [
    ([0, 1, 2, 3], "4 anchors given, expected N = 5"),
    ([1, 0, 2, 3, 4], "class 0, phase 0 is state 1, which is in class 0, phase 1"),
    ([5, 1, 2, 3, 4], "state 5, which is transient"),
    ([[0, 1], [2, 3]], "class 1 has period 3 and needs 3 anchors"),
    ([0, 1, 2, 3, 99], "expected a state index"),
], ids=["too-few", "wrong-phase", "transient", "too-few-for-the-period", "not-a-state"])
def test_bad_user_anchors_are_refused_by_name(anchors, message):
    """Each bad anchor choice is an AnchorError saying what is wrong."""
    with pytest.raises(AnchorError, match=message):
        exactpte.decompose(exactpte.example("branching"), anchors=anchors)


def test_non_canonical_anchors_change_only_the_gauge():
    # class {0,1,2} aperiodic with anchor moved: g* unchanged, v* shifts by a constant on the class
    m = MarkovRewardProcess([["1/2", "1/2", 0], [0, "1/2", "1/2"], [1, 0, 0]], [3, 0, 1])
    a = exactpte.decompose(m)
    b = exactpte.decompose(m, anchors=[2])
    assert a.g_star == b.g_star
    diffs = {x - y for x, y in zip(a.v_star, b.v_star)}
    assert len(diffs) == 1 and b.v_star[2] == 0


@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.lists(st.integers(0, n - 1), max_size=4),
                                                                             min_size=n, max_size=n))),
       st.data())
def test_bfs_levels_are_the_unweighted_shortest_path_lengths(graph, data):
    """The pointer-jumping depths of scipy's BFS tree (what the class phases are cut from) against
    scipy's unweighted shortest paths, from any source, unreachable nodes included."""
    import numpy as np
    from scipy.sparse import csgraph

    from exactpte.graph.periods import bfs_levels
    from exactpte.graph.support import support_matrix

    n, succ = graph
    g = support_matrix([sorted(set(s)) for s in succ])
    source = data.draw(st.integers(0, n - 1))
    expected = csgraph.shortest_path(g, directed=True, unweighted=True, indices=source)
    expected = np.where(np.isinf(expected), -1, expected).astype(np.int64)
    assert bfs_levels(g, source).tolist() == expected.tolist()


def test_bfs_levels_on_a_long_path():
    """Depth 4,999: thirteen pointer-jumping passes."""
    from exactpte.graph.periods import bfs_levels
    from exactpte.graph.support import support_matrix

    n = 5000
    assert bfs_levels(support_matrix([[i + 1] for i in range(n - 1)] + [[0]]), 0).tolist() == list(range(n))


@given(st.permutations(range(12)))
def test_band_order_is_a_permutation_that_narrows_a_renumbered_path(labels):
    """``band_order`` returns every node once, and a path numbered at random comes back with
    bandwidth 1 (each node next to its neighbours), so a dense elimination of it fills nothing."""
    from exactpte.graph.order import band_order
    succ = {labels[k]: [] for k in range(12)}
    for k in range(11):
        succ[labels[k]].append(labels[k + 1])
        succ[labels[k + 1]].append(labels[k])
    order = band_order(sorted(succ), succ.__getitem__)
    assert sorted(order) == sorted(succ)
    position = {v: a for a, v in enumerate(order)}
    assert all(abs(position[v] - position[w]) == 1 for v in succ for w in succ[v])


def test_small_graph_phases_equal_the_vectorised_ones():
    """A small graph's structure is walked in plain Python (graph.plain): the same classes, periods and cyclic
    classes as the vectorised passes (random graphs with cycles, self-loops and several closed classes)."""
    import random

    from exactpte.graph import periods
    from exactpte.graph.components import closed_components, strongly_connected_components
    from exactpte.graph.plain import plain_structure_parts
    from exactpte.graph.support import support_matrix

    rng = random.Random(35)
    for _ in range(800):
        n = rng.randint(1, 14)
        succ = [sorted(set(rng.sample(range(n), rng.randint(1, min(3, n))))) for _ in range(n)]
        if rng.random() < 0.4:
            succ = [[(s + rng.choice([1, 2])) % n] if rng.random() < 0.7 else succ[s] for s in range(n)]
        g = support_matrix(succ)
        k, labels = strongly_connected_components(g)
        closed = closed_components(g, k, labels)
        plain = plain_structure_parts(n, g.indptr.tolist(), g.indices.tolist())
        classes, period, cyclic = periods.closed_class_phases(g, labels, closed)
        assert (plain["classes"], plain["periods"], plain["cyclic_classes"]) == (tuple(classes), tuple(period), tuple(cyclic))
