"""The float-proposed Lyapunov matrix of proofs_check.routes.certificates: floats only propose, exact
leading minors decide, so a wrong proposal can cost the fast route but never a wrong certificate."""

import random

import flint
import pytest

from proofs_check.routes import certificates
from proofs_check.routes.certificates import contraction_certificate, positive_definite, proposed_lyapunov_matrix


def _contracting(q: int, seed: int) -> flint.fmpq_mat:
    """A random q x q rational matrix with infinity norm 9/10 < 1 (so spectral radius < 1)."""
    rng = random.Random(seed)
    rows = [[flint.fmpq(rng.randint(-5, 5), 7) for _ in range(q)] for _ in range(q)]
    out = []
    for row in rows:
        total = sum((abs(x) for x in row), flint.fmpq(0)) or flint.fmpq(1)
        out.append([x * flint.fmpq(9, 10) / total for x in row])
    return flint.fmpq_mat(out)


@pytest.mark.parametrize("seed", range(12))
def test_a_proposed_matrix_is_an_exact_lyapunov_certificate(seed):
    """Whenever a matrix is returned, H > 0 and H - B^T H B > 0 hold exactly (leading minors)."""
    B = _contracting(1 + seed % 10, seed)
    H = proposed_lyapunov_matrix(B)
    assert H is not None
    assert H == H.transpose() and positive_definite(H) and positive_definite(H - B.transpose() * H * B)


def test_a_corrupted_float_proposal_is_refused_not_trusted(monkeypatch):
    """Floats that propose garbage (every product zero: H = I) give no certificate for a matrix that
    I does not certify, and the contraction certificate still comes from the exact Stein solve."""
    B = flint.fmpq_mat([[0, 2], [0, 0]])  # nilpotent: contracts in some norm, but not in the Euclidean one
    monkeypatch.setattr(certificates, "_float_mul", lambda X, Y: [[0.0] * len(Y[0]) for _ in X])
    assert proposed_lyapunov_matrix(B) is None
    assert contraction_certificate(B) is None  # certified through the exact route


def test_no_proposal_for_a_matrix_that_does_not_contract():
    """Spectral radius 1: no Lyapunov matrix exists and none is proposed."""
    assert proposed_lyapunov_matrix(flint.fmpq_mat([[0, 1], [1, 0]])) is None


@pytest.mark.parametrize("seed", range(10))
def test_stein_solution_equals_the_vec_system(seed):
    """The charpoly route to H - B^T H B = I gives the same exact matrix as the q^2 x q^2 system, and both
    refuse a singular equation (an eigenvalue pair with product 1)."""
    B = _contracting(1 + seed % 9, seed) * flint.fmpq(3 + seed % 5, 2)  # some contract, some do not
    H = certificates.stein_solution(B)
    assert H == certificates.stein_solution_by_vec(B)
    assert H is not None and H - B.transpose() * H * B == flint.fmpq_mat([[int(i == j) for j in range(B.nrows())] for i in range(B.nrows())])
    singular = flint.fmpq_mat([[2, 1], [0, flint.fmpq(1, 2)]])
    assert certificates.stein_solution(singular) is None and certificates.stein_solution_by_vec(singular) is None
