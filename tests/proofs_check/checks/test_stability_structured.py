"""The stability lemmas' structured route (past the 12-dimensional Stein solve): its norm is a valid one
(``H ≻ 0``, ``H - MᵀHM ⪰ 0``, checked here by an independent exact test), its Krylov sums equal the textbook
second-moment recursion in that norm, and a corrupted decomposition still fails the three lemmas through it."""

import flint
import pytest

import exactpte
from exactpte.model.examples import paper_benchmark
from exactpte.testing.random_chains import sweep_chain
from proofs_check.checks import run_checks, stability, stability_krylov
from proofs_check.judging.claims import from_decomposition
from proofs_check.judging.registry import Context
from proofs_check.routes.dense import Routes

KEYS = ("lem:contract_noise_bounded_iterates", "lem:projSA_stability_template", "lem:optionB_stability")


def _dense(setup):
    q = len(setup.M)
    M = flint.fmpq_mat(q, q)
    for i, row in enumerate(setup.M):
        for k, x in row.items():
            M[i, k] = x
    H = flint.fmpq_mat([setup.H.apply([flint.fmpq(int(i == j)) for i in range(q)]) for j in range(q)]).transpose()
    return M, H


def _psd(S):
    """All eigenvalues of the symmetric ``S`` are >= 0: the coefficients of ``det(xI + S)`` are all >= 0 (Descartes,
    the characteristic polynomial being real-rooted)."""
    q = S.nrows()
    return all(c >= 0 for c in (S * -1).charpoly().coeffs()) if q else True


def _setup(chain, claim):
    ctx = Context(chain, claim, Routes(chain))
    return stability_krylov.build(ctx, stability.SIGMA, stability.HORIZON)


def _claims(index, *, lo=5, hi=10):
    chain = sweep_chain(f"stability-structured:{index}", min_states=lo, max_states=hi)
    claim = from_decomposition(exactpte.decompose(chain))
    yield chain, claim
    off = [s for s in range(chain.n) if s not in claim.anchor_states]
    if off:  # a v* off the fixed point: the mean drifts
        v = list(claim.v_star)
        v[off[0]] += flint.fmpq(1, 10)
        yield chain, claim.replace(v_star=tuple(v))


def _recursion(setup, M, H, alpha, t0):
    """``E‖e_t‖_H²`` per (start, law), with ``S = E[e eᵀ]`` propagated whole."""
    q = M.nrows()
    e0, d, *gs = (flint.fmpq_mat(q, 1, v) for v in setup.vectors)
    out = {}
    for i, start in enumerate((flint.fmpq_mat(q, 1), e0)):
        for j, g in enumerate(gs):
            mu, S, vals = start, start * start.transpose(), []
            for t in range(setup.horizon):
                a = flint.fmpq(alpha, t + t0)
                A = flint.fmpq_mat(q, q, [int(r == c) for r in range(q) for c in range(q)]) * (1 - a) + M * a
                Amu = A * mu
                S = A * S * A.transpose() + (Amu * d.transpose() + d * Amu.transpose()) * a + (d * d.transpose() + g * g.transpose()) * a**2
                mu = Amu + d * a
                vals.append(sum((H[r, c] * S[c, r] for r in range(q) for c in range(q)), flint.fmpq(0)))
            out[i, j] = vals
    return out


@pytest.mark.parametrize("index", range(4))
def test_structured_norm_is_valid_and_krylov_sums_equal_the_recursion(index):
    seen = 0
    for chain, claim in _claims(index):
        setup = _setup(chain, claim)
        if not isinstance(setup, stability_krylov.KrylovSetup):
            continue
        seen += 1
        M, H = _dense(setup)
        assert H == H.transpose() and _psd(H) and H.det() > 0  # H > 0
        assert _psd(H - M.transpose() * H * M)  # the mean step does not expand in ||.||_H
        assert setup.C2 == sum((abs(x) for x in H.entries()), flint.fmpq(0))
        for alpha, t0 in stability.SCHEDULES.values():
            means, noise = stability_krylov.expectations(setup, alpha, t0)
            for (i, j), vals in _recursion(setup, M, H, alpha, t0).items():
                assert vals == [means[t][i] + noise[t][j] for t in range(setup.horizon)]
    assert seen


@pytest.mark.parametrize("max_dense", [None, 0])
def test_corrupted_claims_fail_the_stability_lemmas_past_the_stein_limit(max_dense):
    """On a chain whose ``range(Π)`` has more than 12 dimensions (the structured route on both the dense and the
    block paths): the exact claim holds, a ``v*`` off the fixed point and a corrupted basis fail."""
    chain = paper_benchmark()
    claim = from_decomposition(exactpte.decompose(chain))
    assert chain.n - claim.N > 12
    kw = {} if max_dense is None else {"max_dense": max_dense}
    for v in run_checks(chain, claim, only=list(KEYS), **kw):
        assert v.holds is True, (v.key, v.detail)
    off = [s for s in range(chain.n) if s not in claim.anchor_states and s not in {x for c in claim.classes for x in c}]
    v = list(claim.v_star)
    v[off[0]] += 10  # (a bump of 1 at one of 35 transient states stays inside the bound's slack: docs/verdict-strength.md)
    for verdict in run_checks(chain, claim.replace(v_star=tuple(v)), only=list(KEYS), **kw):
        assert verdict.holds is False and "exceeds" in verdict.detail, (verdict.key, verdict.detail)
    basis = [list(row) for row in claim.basis]
    for s in off:  # rows still summing to 1, the wrong mixture of classes on every transient state
        basis[s][0] += flint.fmpq(1, 2)
        basis[s][-1] -= flint.fmpq(1, 2)
    for verdict in run_checks(chain, claim.replace(basis=tuple(map(tuple, basis))), only=list(KEYS), **kw):
        assert verdict.holds is False and verdict.detail, (verdict.key, verdict.detail)
