"""What a check judges and how a verdict is said: the claim type (:mod:`~proofs_check.judging.claims`) and its
file readers (:mod:`~proofs_check.judging.readers`), the registry of checks and verdicts
(:mod:`~proofs_check.judging.registry`), strengths (:mod:`~proofs_check.judging.strength`), conventions a claim
may use (:mod:`~proofs_check.judging.conventions`) and the paper's labels (:mod:`~proofs_check.judging.labels`)."""
