"""exactpte for testing: strategies, random chains, and assertions over the exact oracle.

- :mod:`exactpte.testing.assertions`: the ``assert_*`` helpers (numpy only), over
  :func:`exactpte.oracle.compare` (re-exported here with :class:`~exactpte.oracle.Report` and
  :class:`~exactpte.oracle.Finding`);
- :mod:`exactpte.testing.random_chains`: random reducible periodic chains, valid by construction;
- :mod:`exactpte.testing.strategies`: the same as Hypothesis strategies (imports hypothesis);
- :mod:`exactpte.testing.mdps`: random MDPs and ``brute_force``, the enumeration route; ``assert_mdp_answer``
  judges an MDP solver's answer (:func:`exactpte.oracle.judge_mdp`).

The oracle itself (reading candidates, references, diagnoses) lives in :mod:`exactpte.oracle`.

Examples
--------
>>> import exactpte
>>> from exactpte.testing import assert_gain_close
>>> assert_gain_close([0.5, 0.5], exactpte.example("periodic"), atol=1e-12) is None
True
"""

from exactpte.oracle import VECTOR_KEYS, Finding, Report, compare
from exactpte.testing.assertions import assert_bias_close, assert_decomposition_close, assert_gain_close, assert_mdp_answer

__all__ = [
    "Finding",
    "Report",
    "compare",
    "assert_decomposition_close",
    "assert_gain_close",
    "assert_bias_close",
    "assert_mdp_answer",
    "VECTOR_KEYS",
]
