"""Proofs for whole families: the identities over ``QQ(params)`` (:mod:`~proofs_check.symbolic.identities`),
regions and their certificates (:mod:`~proofs_check.symbolic.region`), parametric claims
(:mod:`~proofs_check.symbolic.claims`), proving on a stratum (:mod:`~proofs_check.symbolic.proving`), comparisons
decided on a region (:mod:`~proofs_check.symbolic.decided`) and the support graphs of every small chain
(:mod:`~proofs_check.symbolic.graphs`)."""
