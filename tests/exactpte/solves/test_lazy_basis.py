"""The phase basis' block solves keep their entries as numerators over the solve's denominator
(``TransientBasis.shared``): sums over the basis read them there, and the values are cancelled only
when the basis or the absorption probabilities are asked for.  Checked against the dense p-adic
route (no lifting, every value exact from the start) on chains whose transient blocks are lifted."""

import collections

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st

import exactpte
import exactpte.fields.rational as rational
from exactpte import MarkovRewardProcess
from exactpte.results.decomposition import QUANTITIES
from exactpte.testing.random_chains import random_chain


def with_deterministic_tail(chain: MarkovRewardProcess, length: int) -> MarkovRewardProcess:
    """``chain`` with ``length`` new states in front: s_0 -> s_1 -> ... -> a state of the largest transient block,
    each with probability 1 (the deterministic steps that share their successor's piece)."""
    n = chain.n
    target = max(chain.structure.transient_sccs, key=len)[0]
    rows = [[flint.fmpq(0)] * (n + length) for _ in range(n + length)]
    for s in range(n):
        for j, q in chain.row(s):
            rows[s][j] = q
    for t in range(length):
        rows[n + t][n + t + 1 if t + 1 < length else target] = flint.fmpq(1)
    return MarkovRewardProcess(rows, list(chain.r) + [flint.fmpq(t % 3) for t in range(length)])


@pytest.fixture(params=[(60, 0), (90, 3), (120, 5)])
def chain(request):
    n, seed = request.param
    return with_deterministic_tail(random_chain(n, seed=seed, transient_target_percent=85), 3)


def decomposed(chain, monkeypatch, *, lifted: bool):
    monkeypatch.setattr(rational, "MIN_PHASE_BLOCK", 3 if lifted else 10**9)
    monkeypatch.setattr(rational, "MIN_BLOCK", 3 if lifted else 10**9)
    dec = exactpte.decompose(MarkovRewardProcess([[q for q in row] for row in _dense(chain)], list(chain.r)))
    values = {name: getattr(dec, name) for name in ("g_star", "v_star", "h", "psi", "rho")}
    return dec, values


def _dense(chain):
    rows = [[flint.fmpq(0)] * chain.n for _ in range(chain.n)]
    for s in range(chain.n):
        for j, q in chain.row(s):
            rows[s][j] = q
    return rows


def test_lifted_pieces_give_the_dense_routes_values(chain, monkeypatch):
    lifted, lifted_values = decomposed(chain, monkeypatch, lifted=True)
    B = lifted._work.basis_transient
    held_as_pieces = [s for s, pieces in B.shared.items() for piece in pieces if not set(piece.columns) & set(B.rest[s])]
    assert held_as_pieces, "no block was lifted: the test would not exercise the pieces"
    # the sums read the pieces: the n x N values were not cancelled for g*, v*, h, ψ, ρ
    assert "rows" not in vars(B) and "absorption" not in vars(B)
    dense, dense_values = decomposed(chain, monkeypatch, lifted=False)
    assert lifted_values == dense_values
    for name in QUANTITIES:
        assert getattr(lifted, name) == getattr(dense, name), name
    # every value canonical, zeros left out of the sparse rows
    for row in B.rows.values():
        assert all(v != 0 and v == flint.fmpq(v.p, v.q) for v in row.values())


def test_deterministic_steps_share_their_successors_pieces(chain, monkeypatch):
    """A deterministic step into a lifted block has the absorption probabilities of its successor: the same
    piece (cancelled once for both), not a copy of values."""
    dec, _ = decomposed(chain, monkeypatch, lifted=True)
    B = dec._work.basis_transient
    tail = range(chain.n - 3, chain.n)
    target = max(chain.structure.transient_sccs, key=len)[0]
    assert B.absorption_shared[target]
    assert all(B.absorption_shared[s] == B.absorption_shared[target] for s in tail)
    assert all(B.absorption[s] == B.absorption[target] for s in tail)
    assert all(sum(row.values()) == 1 for row in B.absorption.values())


def test_a_corrupted_piece_changes_the_values(chain, monkeypatch):
    """The values come from the pieces (not from a second copy): a piece changed before the first access
    shows in the basis, so the comparison above could fail."""
    dec, _ = decomposed(chain, monkeypatch, lifted=True)
    B = dec._work.basis_transient
    s = next(s for s in B.shared if B.shared[s])
    piece = B.shared[s][0]
    j = next(j for j, v in enumerate(piece.nums) if v != 0)
    piece.nums[j] += 1
    dense, _ = decomposed(chain, monkeypatch, lifted=False)
    assert B.rows[s] != dense._work.basis_transient.rows[s]


def test_the_basis_and_absorption_are_read_row_by_row(chain, monkeypatch):
    """``dec.basis`` and ``dec.absorption`` cancel nothing until a row is read; each row then equals the dense
    route's, a row's parts (numerators over shared denominators, uncancelled) sum to it, and the views behave as
    the tuples of rows they stand for (indexing, slices, iteration, equality both ways, pickling)."""
    import pickle

    lifted, _ = decomposed(chain, monkeypatch, lifted=True)
    dense, _ = decomposed(chain, monkeypatch, lifted=False)
    for name in ("basis", "absorption"):
        view = getattr(lifted, name)
        parts = [view.parts(s) for s in range(len(view))]
        assert not view._sparse and not view._cancelled, "reading the view or its parts cancelled entries"
        expected = tuple(getattr(dense, name))
        width = len(expected[0])
        for s, row_parts in enumerate(parts):
            summed = [flint.fmpq(0)] * width
            for columns, nums, den in row_parts:
                for c, v in zip(columns, nums):
                    summed[c] += flint.fmpq(v, den)
            assert tuple(summed) == expected[s]
        held = collections.Counter(id(den) for row_parts in parts for _, _, den in row_parts)
        assert max(held.values()) > 1, "no two rows share a denominator: the parts are not the block solves' pieces"
        assert view == expected and expected == view and list(view) == list(expected)
        assert view[-1] == expected[-1] and view[2:5] == expected[2:5]
        with pytest.raises(IndexError):
            view[len(view)]
        assert pickle.loads(pickle.dumps(view)) == expected
    assert lifted.basis_sparse == [{c: v for c, v in enumerate(row) if v != 0} for row in dense.basis]


@given(st.data())
def test_sums_on_numerators_equal_sums_of_fractions(data):
    """``weighted_pairs`` (pieces summed on numerators, their lcm remembered by the denominators' identity) gives
    the plain sums of fractions, on rows sharing piece objects as the rows of a block do."""
    from exactpte.fields import QQ
    from exactpte.solves.absorption import Shared
    from exactpte.solves.summation import weighted_pairs

    ints = st.integers(-20, 20)
    dens = [flint.fmpz(d) for d in data.draw(st.lists(st.integers(1, 10**6), min_size=1, max_size=4))]
    width = data.draw(st.integers(1, 5))
    pieces = [Shared(sorted(data.draw(st.sets(st.integers(0, width - 1), min_size=1))), [], den) for den in dens]
    pieces = [Shared(p.columns, [flint.fmpz(data.draw(ints)) for _ in p.columns], p.den) for p in pieces]
    rows, shared = {}, {}
    for s in range(data.draw(st.integers(1, 6))):
        mine = [p for p in pieces if data.draw(st.booleans())]
        covered = {c for p in mine for c in p.columns}
        rows[s] = {c: flint.fmpq(data.draw(ints), data.draw(st.integers(1, 50))) for c in range(width) if c not in covered}
        shared[s] = mine
    groups = [data.draw(st.integers(0, 2)) for _ in range(width)]
    weights = [[flint.fmpq(data.draw(ints), data.draw(st.integers(1, 30))) for _ in range(width)] for _ in range(2)]
    got = weighted_pairs(QQ, rows, weights, shared=shared, groups=groups)
    for w, sums in zip(weights, got):
        for s in rows:
            expected = sum((w[c] * v for c, v in rows[s].items()), flint.fmpq(0))
            expected += sum((w[c] * flint.fmpq(v, p.den) for p in shared[s] for c, v in zip(p.columns, p.nums)), flint.fmpq(0))
            pair = sums[s]
            assert (flint.fmpq(0) if pair is None else flint.fmpq(*pair)) == expected


def test_single_states_upstream_of_a_block_are_held_as_pieces(chain, monkeypatch):
    """A single transient state whose successors' values come from a block solve keeps its own row as one piece over
    ``small * base`` (nothing cancelled); the values are those of the route that cancels them, state by state."""
    from exactpte.solves import absorption

    held, dec_values = decomposed(chain, monkeypatch, lifted=True)
    B = held._work.basis_transient
    singles = {s for scc in chain.structure.transient_sccs if len(scc) == 1 for s in scc}
    pieced = [s for s in singles for piece in B.shared[s] + B.absorption_shared[s] if not B.rest[s] and piece.nums]
    assert pieced, "no single state was held as a piece: the test would not exercise the route"
    monkeypatch.setattr(absorption, "_singleton_pieces", lambda *args: False)
    cancelled, cancelled_values = decomposed(chain, monkeypatch, lifted=True)
    assert dec_values == cancelled_values
    assert tuple(held.basis) == tuple(cancelled.basis) and tuple(held.absorption) == tuple(cancelled.absorption)
