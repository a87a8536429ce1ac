"""The exact oracle for other tools' answers (product code; ``exactpte check`` is its front end).

:func:`compare` judges a candidate (float or exact, any layout a peer writes) against the exact
decomposition, key by key, and names the likely cause of each disagreement.  One module per idea:

- :mod:`~exactpte.oracle.comparison`: :func:`compare`, the entry, and the dispatch of keys;
- :mod:`~exactpte.oracle.keys`: the keys a candidate may give, and their aliases;
- :mod:`~exactpte.oracle.values`: reading candidate values (numbers, vectors, matrices, indices), tolerances;
- :mod:`~exactpte.oracle.findings`: :class:`Finding`, :class:`Report`, the entrywise comparison;
- :mod:`~exactpte.oracle.structure`: classes, periods, cyclic and communicating classes, anchors;
- :mod:`~exactpte.oracle.gauge`: float views of the decomposition and gauge shifts;
- :mod:`~exactpte.oracle.vectors`: state vectors and matrices, their mistakes diagnosed;
- :mod:`~exactpte.oracle.stationary`: per-class quantities and full-length stationary vectors;
- :mod:`~exactpte.oracle.absorbing`: the absorbing chain against :mod:`~exactpte.oracle.references`;
- :mod:`~exactpte.oracle.certified`: the comparison against certified enclosures;
- :mod:`~exactpte.oracle.diagnoses`, :mod:`~exactpte.oracle.candidates`: diagnoses, reading files;
- :mod:`~exactpte.oracle.mdp_judge`: :func:`judge_mdp`, the verdict on an MDP solver's answer, with
  :mod:`~exactpte.oracle.mdp_reading` (solvers' native names) and :mod:`~exactpte.oracle.mdp_causes`.

Examples
--------
>>> import exactpte
>>> from exactpte.oracle import compare
>>> compare({"rho": [0.5, 0.5]}, exactpte.example("periodic")).ok
True
"""

from typing import TYPE_CHECKING

from exactpte.deprecation import renamed
from exactpte.oracle.comparison import compare
from exactpte.oracle.findings import Finding, Report
from exactpte.oracle.keys import ABSORBING_KEYS, ALIASES, EXTRA_STATE_KEYS, KEYS, VECTOR_KEYS
from exactpte.oracle.mdp_judge import MDPReference, judge_mdp
from exactpte.oracle.values import require_tolerance

__all__ = ["Finding", "Report", "compare", "judge_mdp", "MDPReference", "require_tolerance", "VECTOR_KEYS", "ABSORBING_KEYS", "EXTRA_STATE_KEYS",
           "KEYS", "ALIASES"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_tolerance": "require_tolerance"})
