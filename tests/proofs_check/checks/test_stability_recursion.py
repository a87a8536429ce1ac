"""The stability lemmas' fast recursion (mean and covariance apart, in integers) gives exactly the values of
the full second-moment recursion in rationals, so the checks decide exactly as that recursion does."""

import flint
import pytest

import exactpte
from exactpte.testing.random_chains import sweep_chain
from proofs_check.checks import stability
from proofs_check.judging.claims import from_decomposition
from proofs_check.algebra.linalg import identity
from proofs_check.judging.registry import Context
from proofs_check.routes.dense import Routes


def _second_moment_norms(setup, alpha, t0):
    """``E‖e_t‖_H²`` for t = 1..HORIZON per (start, law), from ``S = E[e eᵀ]`` propagated whole (the textbook way)."""
    q, M, H, d = setup.M.nrows(), setup.M, setup.H, setup.d
    out = {}
    for i in range(2):
        e0 = flint.fmpq_mat(q, 1, [setup.starts[s, i] for s in range(q)])
        for j, Q in enumerate(setup.noises):
            mu, S, vals = e0, e0 * e0.transpose(), []
            for t in range(stability.HORIZON):
                a = flint.fmpq(alpha, t + t0)
                A = identity(q) * (1 - a) + M * a
                Amu = A * mu
                S = A * S * A.transpose() + (Amu * d.transpose() + d * Amu.transpose()) * a + (d * d.transpose() + Q) * a**2
                mu = Amu + d * a
                vals.append(sum((H[r, c] * S[c, r] for r in range(q) for c in range(q)), flint.fmpq(0)))
            out[i, j] = vals
    return out


def _claims(index):
    chain = sweep_chain(f"stability:{index}", min_states=5, max_states=9)
    claim = from_decomposition(exactpte.decompose(chain))
    off = [s for s in range(chain.n) if s not in claim.anchor_states]
    yield chain, claim
    if off:  # a v* off the fixed point: the mean drifts
        v = list(claim.v_star)
        v[off[0]] += flint.fmpq(1, 10)
        yield chain, claim.replace(v_star=tuple(v))


@pytest.mark.parametrize("index", range(6))
def test_split_integer_recursion_equals_the_second_moment_recursion(index):
    for chain, claim in _claims(index):
        setup = stability._setup(Context(chain, claim, Routes(chain)))
        if not isinstance(setup, stability._Setup):
            continue
        for alpha, t0 in stability.SCHEDULES.values():
            D, Bs = stability._steps(setup.M, alpha, t0)
            means = stability._mean_norms(setup, alpha, t0, D, Bs)
            noise = stability._noise_states(setup, alpha, t0, D, Bs)
            Hn, Hd = setup.H.numer_denom()
            lam = setup.lam
            for (i, j), vals in _second_moment_norms(setup, alpha, t0).items():
                covs = [flint.fmpq(stability._trace(Hn, N), Hd * E) for N, E, _ in (row[j] for row in noise)]
                assert vals == [flint.fmpq(*means[t][i]) + covs[t] for t in range(stability.HORIZON)]
                # the shortcut's bound: trace(H Sigma_t) <= lambda trace(Sigma_t)
                assert all(cov <= lam * flint.fmpq(tr, E) for cov, (_, E, tr) in zip(covs, (row[j] for row in noise)))
                # the growth bound that skips the covariance recursion: trace(H Sigma_t) <= trace(HQ) sum a_s^2
                grown = stability._noise_growth(setup, alpha, t0)
                assert grown is not None and all(cov <= g for cov, g in zip(covs, grown[j]))


@pytest.mark.parametrize("index", range(6))
def test_a_proved_bound_holds_at_every_step_of_the_recursion(index):
    """Where the bound is proved (v* the fixed point, trace(HQ) <= 4 C^2 sigma^2), the exact recursion never exceeds it;
    a drifting v* is never proved."""
    for k, (chain, claim) in enumerate(_claims(index)):
        setup = stability._setup(Context(chain, claim, Routes(chain)))
        if not isinstance(setup, stability._Setup) or setup.M.nrows() == 0:
            continue
        for alpha, t0 in stability.SCHEDULES.values():
            proved = stability._proved(setup, alpha, t0)
            assert proved == (k == 0)  # every exact claim of these chains is proved; the drifting one never
            if not proved:
                continue
            X0 = setup.starts.transpose() * setup.H * setup.starts
            four = 4 * alpha**2 * setup.C2 * stability.SIGMA**2
            for (i, j), vals in _second_moment_norms(setup, alpha, t0).items():
                assert all(v <= X0[i, i] + four * tail for v, tail in zip(vals, stability._tails(t0)))


def test_growth_bound_is_refused_when_a_step_exceeds_one():
    """``a_t > 1`` breaks ``‖A x‖_H ≤ ‖x‖_H``: no growth bound is offered, the recursion decides."""
    chain = sweep_chain("stability:0", min_states=5, max_states=9)
    setup = stability._setup(Context(chain, from_decomposition(exactpte.decompose(chain)), Routes(chain)))
    assert isinstance(setup, stability._Setup)
    assert stability._noise_growth(setup, 3, 2) is None and not stability._proved(setup, 3, 2)


@pytest.mark.parametrize("index", range(6))
def test_verdicts_equal_the_recursion_without_shortcuts(index, monkeypatch):
    """The lemmas decide the same with and without the growth bound (on exact claims and on a drifting v*)."""
    for chain, claim in _claims(index):
        ctx = lambda: Context(chain, claim, Routes(chain))
        fast = [stability._run(key, stability._setup(ctx())) if isinstance(stability._setup(ctx()), stability._Setup) else None
                for key in stability.SCHEDULES]
        with monkeypatch.context() as m:
            m.setattr(stability, "_noise_growth", lambda *a: None)
            m.setattr(stability, "_proved", lambda *a: False)
            slow = [stability._run(key, stability._setup(ctx())) if isinstance(stability._setup(ctx()), stability._Setup) else None
                    for key in stability.SCHEDULES]
        assert fast == slow
