"""Statistical checks of the paper's probabilistic claims: the estimator against exact answers.

- :mod:`~proofs_check.statistical.tests` — the statistics (binomial tails, normal quantiles, Holm);
- :mod:`~proofs_check.statistical.checks` — one check per probabilistic result, with its exact reference;
- :mod:`~proofs_check.statistical.power` — broken estimators and the checks' rejection rates.
"""


def __getattr__(name: str) -> object:
    """The old flat module's names (``from proofs_check.statistical import X``), for one release, with a warning."""
    from proofs_check._legacy import moved_attribute

    return moved_attribute(__name__, name)
