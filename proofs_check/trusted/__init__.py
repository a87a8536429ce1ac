"""The small trusted checker: :mod:`~proofs_check.trusted.verify` (one file, standard library only, runnable as
``python proofs_check/trusted/verify.py claim.json chain.json``) and what ``proofs-check verify`` demands of a
claim beyond it (:mod:`~proofs_check.trusted.policy`).  It imports nothing else of proofs_check or exactpte, so
trusting a verdict means reading one file."""
