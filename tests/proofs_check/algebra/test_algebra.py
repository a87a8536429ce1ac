"""proofs_check's own algebra against independent facts: its support graph agrees with exactpte's structure (two
code paths to the same classes, periods and cyclic classes), its nullspace is a kernel of full dimension, and
its float conversion is the correctly rounded double of the exact value."""

import math
import random
from fractions import Fraction

import flint
import pytest
from hypothesis import given

import exactpte
from exactpte.testing.strategies import chains
from proofs_check.algebra import floats, linalg
from proofs_check.algebra.graph import SupportGraph


@given(chains(max_states=10, max_period=4))
def test_support_graph_agrees_with_exactpte_on_random_reducible_periodic_chains(chain):
    graph = SupportGraph.of(chain)
    structure = exactpte.chain_structure(chain)
    ours = sorted(tuple(sorted(c)) for c in graph.closed_classes())
    assert ours == sorted(tuple(sorted(c)) for c in structure.classes)
    for members in graph.closed_classes():
        i = [tuple(sorted(c)) for c in structure.classes].index(tuple(sorted(members)))
        assert graph.period(members) == structure.periods[i]
        assert sorted(map(sorted, graph.cyclic_classes(members))) == sorted(map(sorted, structure.cyclic_classes[i]))


def test_support_graph_finds_a_known_period_and_fails_a_wrong_one():
    graph = SupportGraph([[1], [2], [0], [0, 3]])  # a 3-cycle and a transient state with a self-loop
    assert graph.closed_classes() == [[0, 1, 2]]
    assert graph.period([0, 1, 2]) == 3 and graph.period([0, 1, 2]) != 1


@pytest.mark.parametrize("seed", range(20))
def test_nullspace_is_a_kernel_of_full_dimension(seed):
    rng = random.Random(seed)
    m, n = rng.randint(1, 6), rng.randint(1, 6)
    M = flint.fmpq_mat(m, n, [flint.fmpq(rng.randint(-2, 2), rng.randint(1, 3)) for _ in range(m * n)])
    K = linalg.nullspace(M)
    assert K.nrows() == n and K.ncols() == n - M.rank()
    assert all(x == 0 for x in (M * K).entries())
    assert linalg.rank(K) == K.ncols()  # independent columns


def test_nullspace_of_a_rank_one_matrix_is_not_claimed_larger_or_smaller():
    K = linalg.nullspace(flint.fmpq_mat([[1, 2, 3]]))
    assert K.ncols() == 2 and all(x == 0 for x in (flint.fmpq_mat([[1, 2, 3]]) * K).entries())


@pytest.mark.parametrize("p, q", [(1, 3), (2, 3), (10**400 + 1, 3 * 10**400), (1, 10**320), (-7, 2**1100)])
def test_nearest_float_is_the_correctly_rounded_double(p, q):
    x = flint.fmpq(p, q)
    expected = p / q if abs(p) < 2**1000 and q < 2**1000 else float(Fraction(p, q))
    assert floats.nearest_float(x) == expected
    assert not math.isnan(floats.nearest_float(x))
