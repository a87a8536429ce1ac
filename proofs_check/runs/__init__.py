"""Long runs over many chains: random sweeps (:mod:`~proofs_check.runs.sweep`), every small support graph
(:mod:`~proofs_check.runs.exhaustive`), user conjectures (:mod:`~proofs_check.runs.conjectures`), shrinking a
counterexample (:mod:`~proofs_check.runs.shrink`), and the one job runner they share
(:mod:`~proofs_check.runs.jobs`: serial, worker processes, Dask)."""
