"""exactpte for testing: strategies, random chains, assertions over the exact oracle, whole corpora.

- :mod:`exactpte.testing.assertions`: the ``assert_*`` helpers (numpy only), over
  :func:`exactpte.oracle.compare` (re-exported here with :class:`~exactpte.oracle.Report` and
  :class:`~exactpte.oracle.Finding`);
- :mod:`exactpte.testing.random_chains`: random reducible periodic chains, valid by construction;
- :mod:`exactpte.testing.strategies`: the same as Hypothesis strategies (imports hypothesis);
- :mod:`exactpte.testing.mdps`: random MDPs and ``brute_force``, the enumeration route; ``assert_mdp_answer``
  judges an MDP solver's answer (:func:`exactpte.oracle.judge_mdp`);
- :mod:`exactpte.testing.conformance`: :func:`conformance`, a solver's checks on a whole corpus, for a
  parametrized test; :mod:`exactpte.testing.pytest_plugin`, the same from the pytest command line.

The oracle itself (reading candidates, references, diagnoses) lives in :mod:`exactpte.oracle`.
The names load on first use (PEP 562): the pytest plugin, which every pytest session of an
installation loads, imports this package and must cost nothing.

Examples
--------
>>> import exactpte
>>> from exactpte.testing import assert_gain_close
>>> assert_gain_close([0.5, 0.5], exactpte.example("periodic"), atol=1e-12) is None
True
"""

import importlib
from typing import TYPE_CHECKING, Any

_LAZY = {
    "Finding": "exactpte.oracle",
    "Report": "exactpte.oracle",
    "compare": "exactpte.oracle",
    "VECTOR_KEYS": "exactpte.oracle",
    "assert_decomposition_close": "exactpte.testing.assertions",
    "assert_gain_close": "exactpte.testing.assertions",
    "assert_bias_close": "exactpte.testing.assertions",
    "assert_mdp_answer": "exactpte.testing.assertions",
    "conformance": "exactpte.testing.conformance",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'exactpte.testing' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


if TYPE_CHECKING:  # pragma: no cover - for type checkers (the same names as _LAZY)
    from exactpte.oracle import VECTOR_KEYS as VECTOR_KEYS
    from exactpte.oracle import Finding as Finding
    from exactpte.oracle import Report as Report
    from exactpte.oracle import compare as compare
    from exactpte.testing.assertions import assert_bias_close as assert_bias_close
    from exactpte.testing.assertions import assert_decomposition_close as assert_decomposition_close
    from exactpte.testing.assertions import assert_gain_close as assert_gain_close
    from exactpte.testing.assertions import assert_mdp_answer as assert_mdp_answer
    from exactpte.testing.conformance import conformance as conformance
