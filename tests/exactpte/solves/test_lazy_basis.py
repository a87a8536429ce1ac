"""The phase basis' block solves keep their entries as numerators over the solve's denominator
(``TransientBasis.shared``): sums over the basis read them there, and the values are cancelled only
when the basis or the absorption probabilities are asked for.  Checked against the dense p-adic
route (no lifting, every value exact from the start) on chains whose transient blocks are lifted."""

import flint
import pytest

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
