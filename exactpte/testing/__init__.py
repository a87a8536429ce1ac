"""exactpte for testing: the exact oracle for float implementations, random chains, strategies.

- :mod:`exactpte.oracle.comparison`: :func:`compare` and the ``assert_*`` helpers (numpy only);
- :mod:`exactpte.oracle.diagnoses`: what a wrong gain or an off-gauge bias came from (numpy only);
- :mod:`exactpte.oracle.references`: independent exact absorption probabilities, fundamental
  matrix, mean first-passage times and total reward before absorption (python-flint);
- :mod:`exactpte.oracle.candidates`: reading another tool's output (JSON, CSV, ``.npz``);
- :mod:`exactpte.testing.random_chains`: random reducible periodic chains, valid by construction;
- :mod:`exactpte.testing.strategies`: the same as Hypothesis strategies (imports hypothesis).

Examples
--------
>>> import exactpte
>>> from exactpte.testing import assert_gain_close
>>> assert_gain_close([0.5, 0.5], exactpte.example("periodic"), atol=1e-12) is None
True
"""

from exactpte.oracle.comparison import (
    VECTOR_KEYS,
    Finding,
    Report,
    assert_bias_close,
    assert_decomposition_close,
    assert_gain_close,
    compare,
)

__all__ = [
    "Finding",
    "Report",
    "compare",
    "assert_decomposition_close",
    "assert_gain_close",
    "assert_bias_close",
    "VECTOR_KEYS",
]
