"""``lem:pihat_dev`` and ``lem:pihat_infty_norm`` on sparse rows (the version for many basis columns) decide as
the dense ones: the exact claim holds, the mutation suite's corruptions fail."""

import flint
import pytest

from proofs_check.checks import pihat_sparse, run_checks

from mutation_chains import chain_and_claim

ONE = flint.fmpq(1)


def _set(basis, s, changes):
    rows = [list(row) for row in basis]
    for j, by in changes:
        rows[s][j] += by
    return tuple(map(tuple, rows))


@pytest.fixture
def sparse_everywhere(monkeypatch):
    monkeypatch.setattr(pihat_sparse, "DENSE_ENTRIES", 0)


@pytest.mark.parametrize("key, changes", [
    ("lem:pihat_dev", (6, [(0, flint.fmpq(1, 10)), (1, flint.fmpq(-1, 10))])),  # on the simplex, wrong
    ("lem:pihat_infty_norm", (7, [(0, flint.fmpq(1, 2)), (2, flint.fmpq(-1, 2))])),  # row sums 1, a negative entry
])
def test_sparse_versions_hold_on_the_claim_and_fail_on_its_corruption(sparse_everywhere, key, changes):
    chain, claim = chain_and_claim("rich")
    for max_dense in (None, 0):
        kw = {} if max_dense is None else {"max_dense": max_dense}
        (good,) = run_checks(chain, claim, only=[key], **kw)
        assert good.holds is True, good.detail
        s, cols = changes
        (bad,) = run_checks(chain, claim.replace(basis=_set(claim.basis, s, cols)), only=[key], **kw)
        assert bad.holds is False and "exceeds" in bad.detail, bad.detail


def test_sparse_versions_apply_only_past_the_limit():
    chain, claim = chain_and_claim("rich")
    from proofs_check.judging.registry import Context
    from proofs_check.routes.dense import Routes

    assert not pihat_sparse.applies(Context(chain, claim, Routes(chain)))
